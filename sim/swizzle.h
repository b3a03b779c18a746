/* The NV4x swizzled ("Morton") texel layout, shared by the 2D engine (SIFM
 * into NV40_SURFACE_SWZ) and the 3D engine (swizzled textures and render
 * targets).  Pure functions of coordinates and log2 sizes.
 *
 * 2D, a 2^lw x 2^lh surface: with k = min(lw, lh), the low k bits of x and
 * y are interleaved (x in the even bit positions, y in the odd ones), and
 * the k x k tiles that makes are laid out row-major:
 *
 *     index = morton(x & (2^k-1), y & (2^k-1))
 *           + ((y >> k) * (2^lw >> k) + (x >> k)) << 2k
 *
 * which is the same as interleaving bits while both coordinates have some
 * left, then taking the longer one's remaining bits.  3D interleaves x, y, z
 * one bit each while each dimension still has bits.  (Mesa nv30_transfer.c
 * swizzle2d_ptr / swizzle3d_ptr, nv40-hardware.md §4.2.)  The byte offset of
 * a texel is index * bytes per texel. */
#ifndef NV_SIM_SWIZZLE_H
#define NV_SIM_SWIZZLE_H

#include <stdint.h>

/* Largest log2 size handled: indices fit 32 bits for lw + lh <= 32. */
#define SIM_SWZ_LOG2_MAX 16

/* Spread the low 16 bits of v to the even bit positions. */
static inline uint32_t sim_swz_spread(uint32_t v)
{
	v &= 0xffff;
	v = (v | v << 8) & 0x00ff00ffu;
	v = (v | v << 4) & 0x0f0f0f0fu;
	v = (v | v << 2) & 0x33333333u;
	v = (v | v << 1) & 0x55555555u;
	return v;
}

/* Texel index of (x, y); x < 2^lw, y < 2^lh and lw, lh <= SIM_SWZ_LOG2_MAX
 * are the caller's to check (other inputs give some index, never a fault). */
uint32_t sim_swz_index(uint32_t x, uint32_t y, unsigned lw, unsigned lh);

/* Walking a row: the indices of (x0, y), (x0+1, y) ... one add and mask each
 * (the x bits of the Morton code are incremented in place). */
struct sim_swz_row {
	uint32_t ybits;          /* y's Morton bits and tile row */
	uint32_t xbits, xmask;   /* x's Morton bits, the positions they occupy */
	uint64_t xtile, tstep;   /* x's tile column << 2k, one tile */
};
void sim_swz_row_init(struct sim_swz_row *w, uint32_t x0, uint32_t y, unsigned lw, unsigned lh);
static inline uint32_t sim_swz_row_next(struct sim_swz_row *w)
{
	uint32_t i = w->ybits + w->xbits + (uint32_t)w->xtile;
	w->xbits = ((w->xbits | ~w->xmask) + 1) & w->xmask;
	if (!w->xbits)
		w->xtile += w->tstep;
	return i;
}

/* 3D: (x, y, z) inside a 2^lw x 2^lh x 2^ld volume, lw + lh + ld <= 32. */
uint32_t sim_swz3d_index(uint32_t x, uint32_t y, uint32_t z, unsigned lw, unsigned lh,
			 unsigned ld);

#endif
