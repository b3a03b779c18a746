/* NV4x swizzled texel layout (see swizzle.h). */
#include "swizzle.h"

uint32_t sim_swz_index(uint32_t x, uint32_t y, unsigned lw, unsigned lh)
{
	unsigned k = lw < lh ? lw : lh;
	uint32_t km = (1u << k) - 1;
	uint32_t m = sim_swz_spread(x & km) | sim_swz_spread(y & km) << 1;
	/* tiles per row: 2^(lw-k); k <= 16, so 2k fits a shift of a 64-bit value */
	uint64_t tile = (uint64_t)(y >> k) * ((uint64_t)1 << (lw - k)) + (x >> k);
	return m + (uint32_t)(tile << (2 * k));
}

void sim_swz_row_init(struct sim_swz_row *w, uint32_t x0, uint32_t y, unsigned lw, unsigned lh)
{
	unsigned k = lw < lh ? lw : lh;
	uint32_t km = (1u << k) - 1;
	uint64_t trow = (uint64_t)(y >> k) * ((uint64_t)1 << (lw - k));
	w->ybits = (sim_swz_spread(y & km) << 1) + (uint32_t)(trow << (2 * k));
	w->xmask = sim_swz_spread(km);
	w->xbits = sim_swz_spread(x0 & km);
	w->tstep = (uint64_t)1 << (2 * k);
	w->xtile = (uint64_t)(x0 >> k) << (2 * k);
}

uint32_t sim_swz3d_index(uint32_t x, uint32_t y, uint32_t z, unsigned lw, unsigned lh,
			 unsigned ld)
{
	uint32_t v = 0;
	unsigned bit = 0;

	while ((lw || lh || ld) && bit < 32) {
		if (lw) {
			v |= (x & 1) << bit++;
			x >>= 1;
			lw--;
		}
		if (lh && bit < 32) {
			v |= (y & 1) << bit++;
			y >>= 1;
			lh--;
		}
		if (ld && bit < 32) {
			v |= (z & 1) << bit++;
			z >>= 1;
			ld--;
		}
	}
	return v;
}
