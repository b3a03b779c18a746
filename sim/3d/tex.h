/* The fragment texture units: layout of a texture in memory and sampling
 * (tex.c; pure functions: the caller resolves the memory through the
 * ctxdma).  Field meanings are in hw/tex.h. */
#ifndef NV_SIM_3D_TEX_H
#define NV_SIM_3D_TEX_H

#include <stddef.h>
#include <stdint.h>

#include "hw/tex-layout.h"

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
	float ddx[4][4], ddy[4][4];     /* TXD only (not read for the others) */
};

/* Bytes from the unit's offset the texture occupies (every level and face),
 * or 0 when the format or sizes are not a texture the model can read. */
uint64_t sim_tex_extent(const struct sim_tex_unit *t);

/* Sample: mem points at the texture (sim_tex_extent bytes, little-endian).
 * out[pixel] = RGBA after format decode, swizzle, filtering and wrap. */
void sim_tex_sample(const struct sim_tex_unit *t, const uint8_t *mem,
		    const struct sim_tex_req *rq, float out[4][4]);

/* A unit resolved once (per draw): its layout, decoder, wrap, filter and
 * swizzle state, so sampling does not derive them per request.  Fields
 * are tex.c's; sim_tex_view_sample(v, rq) gives exactly what
 * sim_tex_sample(t, mem, rq) gives for the unit and memory v was prepared
 * from (a NULL mem, or a layout the model refuses, samples 0). */
struct sim_tex_lvl {
	int32_t w, h;
	float fs[3];                  /* coordinate scale per axis (level size, over level 0's for RECT) */
	unsigned k, ysh;              /* swizzled: square bits, y tile shift (log2 w - k) */
	uint32_t km;
};
struct tex_ctx;
#define TEX_WRAP_ST(s, t) ((s) << 4 | (t))
struct sim_tex_view {
	int ok;
	struct sim_tex_unit unit;
	const uint8_t *mem;
	struct nv40_tex_layout l;
	const struct nv40_tex_format *f;
	unsigned signed_mask, srgb_mask, compare, rcomp;
	unsigned minf, magf;
	unsigned aniso;               /* most probes along the major axis, 1: isotropic */
	float bias, minlod, maxlod;
	int lod_linear;               /* where no LOD changes what a quad reads (one
					 level or no mipmap filter, and min and mag
					 alike): level 0, 1 linearly, 0 nearest;
					 -1: the LOD decides */
	unsigned modes[3];
	unsigned wrap_st;             /* TEX_WRAP_ST(modes[0], modes[1]) */
	float lscale[3];              /* tex_footprint's per-axis scale */
	unsigned dec;                 /* texel decoder (tex.c) */
	const float *lut[4];          /* per native channel: raw value -> float */
	uint32_t cmask[4];
	uint8_t lo[4];
	float border[4];              /* native channels, before any compare */
	uint8_t swz_src[4], swz_ch[4];
	uint8_t swz_idx[4];           /* output i: native channel 0-3, 4 zero, 5 one */
	/* one level's sampler for the view's dimensions and decoder */
	void (*level)(struct tex_ctx *c, unsigned face, unsigned lvl, int linear,
		      const float st[3], float v[4]);
	struct sim_tex_lvl lv[NV40_TEX_MAX_LEVELS];
	/* stamp of the sim_tex_prepare that filled it, 0 for a generic view:
	 * a quad LOD tex.c found for a stamp serves the view again, so the
	 * fields the LOD reads must not change after it */
	uint64_t gen;
};
void sim_tex_prepare(struct sim_tex_view *v, const struct sim_tex_unit *t, const uint8_t *mem);
void sim_tex_view_sample(const struct sim_tex_view *v, const struct sim_tex_req *rq,
			 float out[4][4]);
/* For the fast paths' differential (tests/unit/test_sim_fastpaths.c): v,
 * prepared, samples through the generic per-bit texel decoder and level
 * sampler from now on, each quad's LOD computed, the specification its
 * specialised ones (A8R8G8B8's above all, lod_linear) must match bit for
 * bit.  DXT has no generic decoder: left as it is. */
void sim_tex_view_generic(struct sim_tex_view *v);

#endif
