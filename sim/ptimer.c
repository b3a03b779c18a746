/* PTIMER: a 64-bit nanosecond counter, here CLOCK_MONOTONIC since sim_new. */
#include "priv.h"

static uint64_t sim_host_ns(const struct sim *s)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)(now.tv_sec - s->t0.tv_sec) * 1000000000u +
	       (uint64_t)((int64_t)now.tv_nsec - s->t0.tv_nsec);
}

void sim_ptimer_init(struct sim *s)
{
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	s->ptimer_offset = 0;
	s->ptimer_num = 1;
	s->ptimer_den = 1;
}

uint64_t sim_ptimer_ns(struct sim *s)
{
	return sim_host_ns(s) + (uint64_t)s->ptimer_offset;
}

uint32_t sim_ptimer_rd(struct sim *s, uint32_t reg)
{
	switch (reg) {
	case NV_PTIMER_TIME_LO: {
		/* Reading LO latches HI, so LO-then-HI reads one instant. */
		uint64_t t = sim_ptimer_ns(s);
		s->ptimer_hi_latch = t >> 32;
		return (uint32_t)t;
	}
	case NV_PTIMER_TIME_HI:
		return s->ptimer_hi_latch;
	case NV_PTIMER_INTR:
		return s->ptimer_intr;
	case NV_PTIMER_INTR_EN:
		return s->ptimer_intr_en;
	case NV_PTIMER_NUMERATOR:
		return s->ptimer_num;
	case NV_PTIMER_DENOMINATOR:
		return s->ptimer_den;
	}
	return sim_misc_rd(s, reg);
}

void sim_ptimer_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	switch (reg) {
	case NV_PTIMER_TIME_HI:
		/* The kernel writes HI, then LO; the LO write sets the time. */
		s->ptimer_hi_wr = val;
		s->ptimer_hi_latch = val;
		return;
	case NV_PTIMER_TIME_LO: {
		uint64_t want = (uint64_t)s->ptimer_hi_wr << 32 | val;
		s->ptimer_offset = (int64_t)(want - sim_host_ns(s));
		return;
	}
	case NV_PTIMER_INTR:
		s->ptimer_intr &= ~val;
		return;
	case NV_PTIMER_INTR_EN:
		s->ptimer_intr_en = val;
		return;
	case NV_PTIMER_NUMERATOR:
		/* Stored: the model's clock is nanoseconds whatever the divider. */
		s->ptimer_num = val;
		return;
	case NV_PTIMER_DENOMINATOR:
		s->ptimer_den = val;
		return;
	}
	sim_misc_wr(s, reg, val);
}
