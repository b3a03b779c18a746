/* The fragment texture units: layout of a texture in memory and sampling
 * (tex.c; pure functions: the caller resolves the memory through the
 * ctxdma).  Field meanings are in hw/tex.h. */
#ifndef NV_SIM_3D_TEX_H
#define NV_SIM_3D_TEX_H

#include <stddef.h>
#include <stdint.h>

#define NV40_TEX_UNITS 16

/* One unit's state, as the TEX_* methods left it. */
struct sim_tex_unit {
	uint32_t offset, format, wrap, enable, swizzle, filter, npot_size, border;
	uint32_t size1;                 /* TEX_SIZE1: depth << 20 | pitch */
};

/* What a fragment program asks of a unit, for the four pixels of a 2x2 quad
 * (0 = (x,y), 1 = (x+1,y), 2 = (x,y+1), 3 = (x+1,y+1)); the sampler takes
 * implicit derivatives from the quad. */
enum sim_tex_op { SIM_TEX, SIM_TXP, SIM_TXB, SIM_TXL, SIM_TXD };
struct sim_tex_req {
	unsigned unit, op;
	float coord[4][4];              /* per pixel: s t r q (TXB: bias in w, TXL: lod in w) */
	float ddx[4][4], ddy[4][4];     /* TXD only */
};

/* Bytes from the unit's offset the texture occupies (every level and face),
 * or 0 when the format or sizes are not a texture the model can read. */
uint64_t sim_tex_extent(const struct sim_tex_unit *t);

/* Sample: mem points at the texture (sim_tex_extent bytes, little-endian).
 * out[pixel] = RGBA after format decode, swizzle, filtering and wrap. */
void sim_tex_sample(const struct sim_tex_unit *t, const uint8_t *mem,
		    const struct sim_tex_req *rq, float out[4][4]);

#endif
