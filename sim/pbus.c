/* PBUS, PFB and PEXTDEV: identification and configuration registers a
 * driver reads at init.  Apart from the ones below they store and return. */
#include "priv.h"

uint32_t sim_pbus_rd(struct sim *s, uint32_t reg)
{
	switch (reg) {
	case NV_PBUS_INTR:
		return s->pbus_intr;
	case NV_PBUS_INTR_EN:
		return s->pbus_intr_en;
	case NV_PBUS_UNITS:
		/* 15:8 vertex units present (what the kernel sizes grctx by),
		 * 7:0 shader quads: one is all the model claims. */
		return ((1u << s->chip->vs_units) - 1) << 8 | 1;
	case NV_PFB_CSTATUS:
		/* Bytes; a 4 GiB card would not fit, sim_new refuses one. */
		return (uint32_t)s->vram_size;
	}
	return sim_misc_rd(s, reg);
}

void sim_pbus_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	switch (reg) {
	case NV_PBUS_INTR:
		s->pbus_intr &= ~val;
		return;
	case NV_PBUS_INTR_EN:
		s->pbus_intr_en = val;
		return;
	case NV_PBUS_UNITS:
	case NV_PFB_CSTATUS:
		return;                 /* read-only */
	}
	sim_misc_wr(s, reg, val);
}
