/* Inside the 3D pipeline (draw.c, fetch.c, prim.c, raster.c, rop.c): the
 * state one draw resolves once (render targets, textures, the fragment
 * program, decoded ROP state) and the vertex as it travels. */
#ifndef NV_SIM_3D_PIPE_H
#define NV_SIM_3D_PIPE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/priv.h"
#include "fp.h"
#include "half.h"
#include "rt.h"
#include "tex.h"
#include "vp.h"

#define DRAW_C(g, name)        ((g)->curie[NV_CURIE_##name##__SLOT])
#define DRAW_CI(g, name, i)    ((g)->curie[NV_CURIE_##name##__SLOT + (i)])

/* A vertex after the vertex program: its outputs, clip space. */
struct draw_vtx {
	float o[NV40_VP_OUTPUTS][4];
};

/* No pixel a draw writes lies at or past this column or row (its clip
 * starts there). */
#define DRAW_CLIP_MAX 8192

/* A vertex in window space, ready for the rasteriser: x, y in pixels, z in
 * 0..1, q = 1/w; v[] the varyings the fragment program reads (not divided). */
#define DRAW_MAX_VARY 12

/* The vertex program's colour outputs, front and back (hw/enums-3d-pipe.h). */
#define DRAW_COLOR_VPO { NV40_VPO_COL0, NV40_VPO_COL1, NV40_VPO_BFC0, NV40_VPO_BFC1 }
struct draw_svtx {
	float x, y, z, q;
	float v[DRAW_MAX_VARY][4];
};

/* A varying: which fragment program input it feeds and from which vertex
 * program output (back-face output for two-sided colour). */
struct draw_vary {
	unsigned fpi, vpo, vpo_back, flat;
};

struct draw_stencil {
	unsigned enable, wmask, func, ref, vmask, op_fail, op_zfail, op_zpass;
};

/* Everything a primitive needs that one draw resolves once, revalidated
 * against the method slots.  With fragment threads, one of a ring
 * (sim_bands_setup), so queued fragments of earlier draws keep theirs;
 * else a per-thread one. */
struct draw_setup {
	const struct sim *s;
	int valid, broken;            /* broken: resolution trapped, draw nothing */
	uint32_t gen;                 /* sim_draw_gen() it was built for */
	uint32_t key[NV_CURIE__NSLOTS];

	/* geometry */
	unsigned window_space;        /* ENGINE: positions already in window space */
	float vp_scale[4], vp_trans[4];
	float gb_x, gb_y;             /* guard band, clip-space multiples of w */
	unsigned clip_planes;         /* user clip distances enabled (bit i) */
	unsigned depth_clamp;
	float depth_near, depth_far;
	unsigned cull_enable, cull_face, front_ccw, two_side, flat;
	unsigned poly_mode[2];        /* [0] front, [1] back */
	unsigned poly_offset_fill, poly_offset_line, poly_offset_point;
	float poly_factor, poly_units;
	unsigned stipple_enable;
	uint32_t stipple[32];
	float line_width, point_size;
	unsigned line_stipple, line_factor, line_pattern;
	unsigned point_sprite;
	unsigned result_en;
	struct draw_vary vary[DRAW_MAX_VARY];
	unsigned nvary;

	/* pixel rectangle every fragment lies in: [x0, x1) x [y0, y1) */
	int cx0, cy0, cx1, cy1;
	int tx, ty;                   /* VIEWPORT_TX_ORIGIN */
	uint32_t coord_conv;

	/* fragment program */
	const uint8_t *fp;
	size_t fp_len;
	size_t fp_used;               /* queued (bands.c): the bytes of it lanes read;
					 0 before */
	uint32_t fp_control;
	struct sim_fp_quad quad;      /* inputs nobody writes keep their default */
	struct sim_fp_cache fpc;      /* the program decoded (checked per primitive) */

	/* textures */
	struct sim_tex_unit tex[NV40_TEX_UNITS];
	const uint8_t *texmem[NV40_TEX_UNITS];
	struct sim_tex_view texv[NV40_TEX_UNITS];   /* tex + texmem resolved for sampling */

	/* render targets and ROP */
	struct sim_rts rts;
	struct sim_rt8 rt8[4];        /* the colour buffers' bytes, when 8-bit channels */
	unsigned rt_mask;             /* colour buffers written */
	unsigned cmask[4];            /* per buffer: bit 0 R, 1 G, 2 B, 3 A */
	unsigned blend[4];
	unsigned bsrc_rgb, bsrc_a, bdst_rgb, bdst_a, beq_rgb, beq_a;
	float bconst[4];
	unsigned logic_enable, logic_op;
	unsigned alpha_enable, alpha_func;
	float alpha_ref;
	unsigned depth_test, depth_func, depth_write;
	unsigned zbits;               /* 16 or 24; 0 = no zeta */
	unsigned zbounds;
	float zbmin, zbmax;
	struct draw_stencil st[2];
	unsigned two_sided_stencil;
	unsigned query;
	unsigned render;              /* render condition passed */
	unsigned split;               /* fragment threads may share it (no pixel aliases another) */
	const void *rop_jit;          /* sim_jit_rop_find's entry for the ROP state */
};

/* ---- draw.c ---- */
/* The setup for the channel's current state; NULL when nothing may be drawn
 * (a resolution failure trapped, or the render condition failed). */
struct draw_setup *sim_draw_setup(struct sim *s, struct sim_grctx *g);

/* Bumped at every VERTEX_BEGIN_END: what one draw may cache. */
uint32_t sim_draw_gen(void);

/* ---- fetch.c ---- */
/* Inputs of vertex `index` from the vertex buffers (VTXFMT on) and the
 * constant attributes; 0, or -1 after a trap. */
int sim_draw_fetch(struct sim *s, struct sim_grctx *g, const struct nv_acc_state *view,
		   uint64_t index,
		   float in[NV40_VP_INPUTS][4]);
/* Inputs from one inline vertex of VERTEX_DATA words (VTXFMT layout). */
void sim_draw_fetch_inline(struct sim_grctx *g, const uint32_t *w, float in[NV40_VP_INPUTS][4]);
/* Words one inline vertex takes, 0 when no slot is on. */
unsigned sim_draw_inline_words(const struct sim_grctx *g);

/* ---- prim.c: clipping, divide, viewport, culling ---- */
void sim_draw_tri(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
		  const struct draw_vtx *a, const struct draw_vtx *b, const struct draw_vtx *c,
		  const struct draw_vtx *pv);
/* The same, one triangle of a larger GL primitive (quad, polygon): edges
 * bit 0 a-b, 1 b-c, 2 c-a set for the primitive's own edges, which polygon
 * mode LINE draws (and POINT draws their first vertices); sim_draw_tri has
 * them all. */
#define DRAW_EDGES_ALL 7u
void sim_draw_tri_edges(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
			const struct draw_vtx *a, const struct draw_vtx *b, const struct draw_vtx *c,
			const struct draw_vtx *pv, unsigned edges);
void sim_draw_line(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
		   const struct draw_vtx *a, const struct draw_vtx *b, const struct draw_vtx *pv);
void sim_draw_point(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
		    const struct draw_vtx *a);

/* ---- raster.c ---- */
/* Window positions reach the rasteriser snapped to 1/256 pixel. */
#define DRAW_SUB_BITS 8
#define DRAW_SUB_ONE  (1 << DRAW_SUB_BITS)

static inline float draw_snap(float v)
{
	return rintf(v * DRAW_SUB_ONE) / DRAW_SUB_ONE;
}

/* A plane through a triangle: value at vertex 0 and steps per pixel. */
struct draw_plane {
	float a0, dx, dy;
};

/* A window-space triangle set up for rasterisation (sim_raster_setup):
 * what every thread that rasterises a part of it shares, read-only. */
struct draw_tri_job {
	const struct draw_setup *d;   /* its draw's setup (bands.c sets it) */
	int x0, x1, y0, y1;           /* pixels it may touch, clipped */
	int qx0, qy0;                 /* quad-aligned origin of E0 */
	int front;
	int stipple;                  /* polygon stipple applies: a filled polygon's */
	float zoff;
	int64_t A[3], B[3], E0[3];    /* edge functions at (qx0, qy0), steps */
	float fx0, fy0, z0;           /* vertex 0: planes are relative to it */
	double zdx, zdy;
	struct draw_plane pq;
	struct draw_plane pv[DRAW_MAX_VARY][4];
};

/* One rasterising thread's scratch: the quad the fragment program runs
 * on, its decode cache, where passed samples count; fail: the program
 * failed (the caller traps).  d: the setup whose draw the quad's inputs
 * belong to (bands.c: they start from the defaults at each new draw). */
struct draw_lane {
	struct sim_fp_quad *q;
	struct sim_fp_cache *fpc;
	uint32_t *samples;
	int fail;
	const struct draw_setup *d;
	/* polled per quad (sim_gr_preempted): worker, the lane runs on the
	 * worker with the lock held */
	struct sim *sim;
	int worker;
};

/* How a triangle is rasterised: front, its facing (1 front, 0 back); fill:
 * part of a filled polygon, not of a line or point (the polygon stipple
 * applies); zoff: polygon offset added to every fragment's depth; the pixels
 * [x0, x1) x [y0, y1) it may touch, inside the draw's rectangle. */
struct draw_raster {
	int front, fill;
	float zoff;
	int x0, y0, x1, y1;
};

/* Rasterise a window-space triangle as r says.  With fragment threads
 * (bands.c) the work is queued and done by the end of the draw. */
void sim_raster_tri(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
		    const struct draw_svtx *a, const struct draw_svtx *b,
		    const struct draw_svtx *c, const struct draw_raster *r);
/* The triangle's setup into j; 0 when it covers nothing. */
int sim_raster_setup(const struct draw_setup *d, const struct draw_svtx *a,
		     const struct draw_svtx *b, const struct draw_svtx *c,
		     const struct draw_raster *r, struct draw_tri_job *j);
/* The part of j in rows [ylo, yhi) (even: quads are never split) through
 * the fragment program and the ROP with lane l's scratch. */
void sim_raster_run(const struct draw_setup *d, struct draw_lane *l, const struct draw_tri_job *j,
		    int ylo, int yhi);

/* The fragment program's inputs of quad (ip->qx, ip->qy) from ip (jit.h:
 * the planes raster.c set up for its primitive) into q: WPOS (depths z)
 * when ip->wpos, the interpolated inputs when varyings. */
struct sim_jit_interp;
void sim_raster_inputs(const struct sim_jit_interp *ip, const float z[4], int varyings,
		       struct sim_fp_quad *q);

/* ---- bands.c: fragment threads ---- */
/* Queue j (set up for d, the current draw of g) for the fragment threads;
 * 0 when there are none (the caller rasterises it now). */
int sim_bands_push(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
		   const struct draw_tri_job *j);
/* The setup of the current draw (fresh: the next of the ring, for a new
 * draw; the queued fragments that still read it are finished first).
 * Only with fragment threads (s->bands). */
struct draw_setup *sim_bands_setup(struct sim *s, int fresh);

/* ---- draw.c ---- */
/* May b's fragments be queued behind a's, the threads taking both by the
 * same bands?  Not when a pixel b writes is another row's in a (surfaces
 * overlapping in another layout or at another origin), or one reads what
 * the other writes (render to texture; a program, fp_used of it, in a
 * render target). */
int sim_draw_may_follow(const struct draw_setup *a, const struct draw_setup *b);
/* Does d write a byte of its program's fp_used? */
int sim_draw_writes_program(const struct draw_setup *d);
/* Do d's fragments read or write a byte of [lo, lo + len): its program,
 * a texture, a render target? */
int sim_draw_touches(const struct draw_setup *d, const uint8_t *lo, uint64_t len);

/* ---- rop.c ---- */
/* The quad's fragments after the fragment program (q->color, q->depth,
 * q->kill) through alpha, stencil, depth, blend, masks into the buffers.
 * x, y: the quad's top-left pixel; live: pixels covered and not killed;
 * z: interpolated depth per pixel; samples: the occlusion counter. */
void sim_rop_quad(const struct draw_setup *d, uint32_t *samples, int x, int y, unsigned live,
		  const float z[4], int front, const struct sim_fp_quad *q);

/* Early depth rejection, before the fragment program: allowed (ok) when
 * the depth test is on, the program writes no depth and no stencil test
 * applies to this face, so a fragment failing the depth test writes
 * nothing whatever else happens to it (a KIL included); early_z returns
 * the live pixels that can pass (the ROP tests them again). The caller
 * also makes sure the program cannot fail (sim_fp_cache_check). */
int sim_rop_early_z_ok(const struct draw_setup *d, int front);
unsigned sim_rop_early_z(const struct draw_setup *d, int x, int y, unsigned live, const float z[4]);

/* SIM_JIT_VERIFY: the quad through the compiled ROP r, then again, from
 * the pixels as they were, through sim_rop_quad (and the same for the
 * early depth test when early_z); counts whether the two left the same
 * bytes and samples.  rop.c's results stay. */
struct sim_jit;
struct sim_jit_rop;
void sim_rop_verify(const struct draw_setup *d, struct sim_jit *j, const struct sim_jit_rop *r,
		    uint32_t *samples, int x, int y, unsigned live, const float z[4], int front,
		    const struct sim_fp_quad *q);
unsigned sim_rop_verify_early_z(const struct draw_setup *d, struct sim_jit *j,
				const struct sim_jit_rop *r, int x, int y, unsigned live,
				const float z[4]);

static inline uint32_t draw_rd16le(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline void draw_wr16le(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

#endif
