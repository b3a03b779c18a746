/* PMC: identification, the master interrupt register and engine enables. */
#include "priv.h"

/* PMC_INTR as the host reads it: one bit per unit with an enabled,
 * pending interrupt. */
uint32_t sim_pmc_intr(struct sim *s)
{
	uint32_t v = 0;

	if (SIM_PFIFO(s, NV_PFIFO_INTR) & SIM_PFIFO(s, NV_PFIFO_INTR_EN))
		v |= NV_PMC_UNIT_PFIFO;
	if (SIM_PGRAPH(s, NV_PGRAPH_INTR) & SIM_PGRAPH(s, NV_PGRAPH_INTR_EN))
		v |= NV_PMC_UNIT_PGRAPH;
	if (s->ptimer_intr & s->ptimer_intr_en)
		v |= NV_PMC_UNIT_PTIMER;
	if (s->pbus_intr & s->pbus_intr_en)
		v |= NV_PMC_UNIT_PBUS;
	return v | sim_crtc_intr(s);
}

uint32_t sim_pmc_rd(struct sim *s, uint32_t reg)
{
	switch (reg) {
	case NV_PMC_BOOT_0:
		return (uint32_t)s->chip->chipset << 20 | 0xa1;
	case NV_PMC_BOOT_1:
		return s->pmc_boot_1;
	case NV_PMC_INTR:
		return sim_pmc_intr(s);
	case NV_PMC_INTR_EN:
		return s->pmc_intr_en;
	case NV_PMC_ENABLE:
		return s->pmc_enable;
	}
	return sim_misc_rd(s, reg);
}

void sim_pmc_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	switch (reg) {
	case NV_PMC_BOOT_0:
	case NV_PMC_INTR:               /* read-only: the units' registers ack */
		return;
	case NV_PMC_BOOT_1:
		/* Stored only: the simulated card is little-endian whatever the
		 * host asks (hosts on big-endian CPUs swap themselves). */
		s->pmc_boot_1 = val;
		return;
	case NV_PMC_INTR_EN:
		s->pmc_intr_en = val & NV_PMC_INTR_EN_HOST;
		return;
	case NV_PMC_ENABLE: {
		/* Clearing an engine's bit holds it in reset. */
		uint32_t off = s->pmc_enable & ~val;
		s->pmc_enable = val;
		if (off & NV_PMC_UNIT_PFIFO)
			sim_pfifo_reset(s);
		if (off & NV_PMC_UNIT_PGRAPH)
			sim_pgraph_reset(s);
		return;
	}
	}
	sim_misc_wr(s, reg, val);
}
