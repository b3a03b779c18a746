/* The 3D engine's vertex methods (draw.h): constant attributes and
 * immediate vertices (a write of attribute 0 emits one), VB_VERTEX_BATCH,
 * inline indices (VB_ELEMENT_U16/U32 + VB_ELEMENT_BASE, primitive restart),
 * VB_INDEX_BATCH from IDXBUF, inline VERTEX_DATA; each vertex through the
 * vertex program, then primitive assembly for the ten primitive types.
 * Assembly keeps what it needs in g->c3d.draw, so a context switch may come
 * between any two methods.  The state a primitive needs resolved (render
 * targets, textures, fragment program) is built once per draw in a
 * per-thread cache checked against the method slots.
 *
 * Vertices held per primitive type (g->c3d.draw.held):
 *   LINES: 0 the first of the pair    LINE_STRIP: 0 the previous
 *   LINE_LOOP: 0 previous, 1 first    TRIANGLES: 0, 1 the first two
 *   TRIANGLE_STRIP: 0, 1 the last two TRIANGLE_FAN / POLYGON: 0 first, 1 previous
 *   QUADS, QUAD_STRIP: 0..2 the last three
 *
 * Modelling decisions (see also prim.c, raster.c, rop.c):
 *  - The vertex program's outputs reach the fragment program by a fixed
 *    routing: COL0/COL1 (BFC0/BFC1 for back faces with two-sided colour),
 *    FOGC, TC0-7 -> FP inputs COL0, COL1, FOGC, TC0-7, when VP_RESULT_EN
 *    enables them (a colour input when its front or, two-sided, its back
 *    output is on); inputs not routed read (0, 0, 0, 1).  The raw "output
 *    routing" words 0x1fc4-0x1fd4 are the constants Mesa writes at init and
 *    are not interpreted.
 *  - ENGINE bit 8 (Mesa's 0x103 for the blit and swtnl) = window-space
 *    positions: no clipping or divide, q = position.w.
 *  - Fragments land in RT_HORIZ/VERT, SCISSOR and VIEWPORT_HORIZ/VERT; the
 *    window clip VIEWPORT_CLIP_* is not applied (Mesa's blit leaves a stale
 *    one).  VIEWPORT_TX_ORIGIN offsets the pixel written, after clipping.
 *  - COORD_CONVENTIONS shapes only the FP's WPOS.
 *  - The fragment program is fetched when a draw first rasterises: at most
 *    1 MiB, bounded by its ctxdma's limit; it is read from memory on every
 *    quad, so a rewrite plus FP_ACTIVE_PROGRAM (Mesa's constant patching) is
 *    seen.  Mappings resolved for a draw stay until VERTEX_BEGIN_END or a
 *    state method changes. */
#include "draw.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/tex.h"
#include "bands.h"
#include "jit.h"
#include "pipe.h"


static __thread struct draw_setup draw_tls;   /* without fragment threads */
static __thread uint32_t draw_gen;          /* bumped at every VERTEX_BEGIN_END */

uint32_t sim_draw_gen(void)
{
	return draw_gen;
}

/* ---- the per-draw setup ---- */

/* Slots that carry vertex data, not state: left out of the cache key (as
 * zeros); the slots between them, the ranges the key is compared over. */
struct draw_span {
	unsigned first, last;
};
static const struct draw_span draw_skip[] = {
#define DRAW_SKIP_(name) { NV_CURIE_##name##__SLOT, NV_CURIE_##name##__SLOT_LAST },
	DRAW_SKIP_(VTX_ATTR_1F) DRAW_SKIP_(VTX_ATTR_2F) DRAW_SKIP_(VTX_ATTR_3F_X)
	DRAW_SKIP_(VTX_ATTR_3F_Y) DRAW_SKIP_(VTX_ATTR_3F_Z) DRAW_SKIP_(VTX_ATTR_4F)
	DRAW_SKIP_(VTX_ATTR_2I) DRAW_SKIP_(VTX_ATTR_4UB) DRAW_SKIP_(VTX_ATTR_3I_XY)
	DRAW_SKIP_(VTX_ATTR_3I_Z) DRAW_SKIP_(VTX_ATTR_4I_XY) DRAW_SKIP_(VTX_ATTR_4I_ZW)
	DRAW_SKIP_(VERTEX_DATA) DRAW_SKIP_(VB_ELEMENT_U16) DRAW_SKIP_(VB_ELEMENT_U32)
	DRAW_SKIP_(VB_VERTEX_BATCH) DRAW_SKIP_(VB_INDEX_BATCH) DRAW_SKIP_(VERTEX_BEGIN_END)
	DRAW_SKIP_(QUERY_GET) DRAW_SKIP_(FENCE_VALUE) DRAW_SKIP_(TEX_CACHE_CTL)
};
#define DRAW_NSKIP (sizeof(draw_skip) / sizeof(draw_skip[0]))
static struct draw_span draw_kept[DRAW_NSKIP + 1];
static unsigned draw_nkept;
static pthread_once_t draw_kept_once = PTHREAD_ONCE_INIT;

static void draw_kept_init(void)
{
	uint8_t skipped[NV_CURIE__NSLOTS] = { 0 };

	for (unsigned i = 0; i < DRAW_NSKIP; i++)
		memset(skipped + draw_skip[i].first, 1, draw_skip[i].last - draw_skip[i].first + 1);
	for (unsigned i = 0; i < NV_CURIE__NSLOTS; i++) {
		if (skipped[i])
			continue;
		if (draw_nkept && draw_kept[draw_nkept - 1].last + 1 == i)
			draw_kept[draw_nkept - 1].last = i;
		else
			draw_kept[draw_nkept++] = (struct draw_span){ i, i };
	}
}

static void draw_key(const struct sim_grctx *g, uint32_t *key)
{
	memcpy(key, g->curie, sizeof(g->curie));
	for (unsigned i = 0; i < DRAW_NSKIP; i++)
		memset(key + draw_skip[i].first, 0, (draw_skip[i].last - draw_skip[i].first + 1) * 4);
}

/* Is g's state the one key was taken of (draw_key)? */
static int draw_key_same(const struct sim_grctx *g, const uint32_t *key)
{
	pthread_once(&draw_kept_once, draw_kept_init);
	for (unsigned i = 0; i < draw_nkept; i++) {
		const struct draw_span *k = &draw_kept[i];
		if (memcmp(key + k->first, g->curie + k->first, (k->last - k->first + 1) * 4))
			return 0;
	}
	return 1;
}

/* The program's fetch window (kind PROGRAM): as much of it as its ctxdma
 * holds; the fragment program stops at its END. */
static int draw_fp_resolve(struct sim *s, struct sim_grctx *g, const struct nv_acc *a,
			   struct draw_setup *d)
{
	uint32_t inst = g->curie[a->dma], off = (uint32_t)a->off;
	const uint8_t *o = sim_ramin(s, inst, NV_DMA_SIZE);

	if (!o)
		return NV_PGRAPH_NSOURCE_DMA_R_PROTECTION;
	uint32_t limit = nv_rd32le(o + 4);
	if (off > limit)
		return NV_PGRAPH_NSOURCE_DMA_R_PROTECTION;
	uint64_t len = (uint64_t)limit - off + 1;
	if (len > a->len)
		len = a->len;
	for (; len >= 16; len >>= 1) {
		d->fp = sim_dma_map(s, inst, off, len, 0);
		if (d->fp) {
			d->fp_len = (size_t)len;
			return 0;
		}
	}
	return NV_PGRAPH_NSOURCE_DMA_R_PROTECTION;
}

/* Every unit's state; the memory of those the model says are sampled. */
static int draw_tex_resolve(struct sim *s, struct sim_grctx *g, const struct nv_acc_list *l,
			    struct draw_setup *d)
{
	for (unsigned u = 0; u < NV40_TEX_UNITS; u++) {
		struct sim_tex_unit *t = &d->tex[u];
		d->texmem[u] = NULL;
		t->offset = DRAW_CI(g, TEX_OFFSET, u);
		t->format = DRAW_CI(g, TEX_FORMAT, u);
		t->wrap = DRAW_CI(g, TEX_WRAP, u);
		t->enable = DRAW_CI(g, TEX_ENABLE, u);
		t->swizzle = DRAW_CI(g, TEX_SWIZZLE, u);
		t->filter = DRAW_CI(g, TEX_FILTER, u);
		t->npot_size = DRAW_CI(g, TEX_NPOT_SIZE, u);
		t->border = DRAW_CI(g, TEX_BORDER_COLOR, u);
		t->size1 = DRAW_CI(g, TEX_SIZE1, u);
	}
	unsigned sampled = 0;
	for (unsigned i = 0; i < l->n; i++) {
		const struct nv_acc *a = &l->a[i];
		if (a->kind != NV_ACC_TEXTURE)
			continue;
		unsigned u = a->unit;
		d->texmem[u] = sim_dma_map(s, g->curie[a->dma], (uint64_t)a->off, a->len, 0);
		if (!d->texmem[u])
			return NV_PGRAPH_NSOURCE_DMA_R_PROTECTION;
		/* a setup is rebuilt for every scissor, mostly on the units its
		 * last draw had: their views as they are */
		struct sim_tex_view *v = &d->texv[u];
		if (!v->ok || v->mem != d->texmem[u] || memcmp(&v->unit, &d->tex[u], sizeof(v->unit)))
			sim_tex_prepare(v, &d->tex[u], d->texmem[u]);
		sampled |= 1u << u;
	}
	for (unsigned u = 0; u < NV40_TEX_UNITS; u++)
		if (!(sampled >> u & 1))
			d->texv[u].ok = 0;
	return 0;
}

static int draw_clip_rect(int *lo, int *hi, uint32_t rect)
{
	int a = (int)NV40_RECT_ORIGIN(rect), b = a + (int)NV40_RECT_SIZE(rect);
	*lo = a > *lo ? a : *lo;
	*hi = b < *hi ? b : *hi;
	return *lo < *hi;
}

static void draw_rop_state(struct sim_grctx *g, struct draw_setup *d)
{
	uint32_t cm = DRAW_C(g, COLOR_MASK), mrt = DRAW_C(g, MRT_COLOR_MASK);
	d->cmask[0] = (cm & NV40_COLOR_MASK_R ? 1u : 0) | (cm & NV40_COLOR_MASK_G ? 2u : 0) |
		      (cm & NV40_COLOR_MASK_B ? 4u : 0) | (cm & NV40_COLOR_MASK_A ? 8u : 0);
	d->blend[0] = DRAW_C(g, BLEND_FUNC_ENABLE) & 1;
	for (unsigned i = 1; i < 4; i++) {
		d->cmask[i] = (mrt & NV40_MRT_COLOR_MASK_R(i) ? 1u : 0) |
			      (mrt & NV40_MRT_COLOR_MASK_G(i) ? 2u : 0) |
			      (mrt & NV40_MRT_COLOR_MASK_B(i) ? 4u : 0) |
			      (mrt & NV40_MRT_COLOR_MASK_A(i) ? 8u : 0);
		d->blend[i] = !!(DRAW_C(g, MRT_BLEND_ENABLE) & NV40_MRT_BLEND_ENABLE(i));
	}
	d->bsrc_rgb = NV40_BLEND_RGB(DRAW_C(g, BLEND_FUNC_SRC));
	d->bsrc_a = NV40_BLEND_ALPHA(DRAW_C(g, BLEND_FUNC_SRC));
	d->bdst_rgb = NV40_BLEND_RGB(DRAW_C(g, BLEND_FUNC_DST));
	d->bdst_a = NV40_BLEND_ALPHA(DRAW_C(g, BLEND_FUNC_DST));
	d->beq_rgb = NV40_BLEND_RGB(DRAW_C(g, BLEND_EQUATION));
	d->beq_a = NV40_BLEND_ALPHA(DRAW_C(g, BLEND_EQUATION));
	uint32_t bc = DRAW_C(g, BLEND_COLOR);
	unsigned f0 = d->rts.color[0].format;
	if (f0 == NV40_RT_COLOR_A16B16G16R16_FLOAT || f0 == NV40_RT_COLOR_A32B32G32R32_FLOAT) {
		uint32_t ba = DRAW_C(g, UNK037C);
		d->bconst[0] = sim_h2f((uint16_t)bc);
		d->bconst[1] = sim_h2f((uint16_t)(bc >> 16));
		d->bconst[2] = sim_h2f((uint16_t)ba);
		d->bconst[3] = sim_h2f((uint16_t)(ba >> 16));
	} else {
		d->bconst[0] = (float)((bc >> 16) & 0xff) / 255.0f;
		d->bconst[1] = (float)((bc >> 8) & 0xff) / 255.0f;
		d->bconst[2] = (float)(bc & 0xff) / 255.0f;
		d->bconst[3] = (float)(bc >> 24) / 255.0f;
	}
	d->logic_enable = DRAW_C(g, COLOR_LOGIC_OP_ENABLE) & 1;
	d->logic_op = NV40_LOGIC_OP_CODE(DRAW_C(g, COLOR_LOGIC_OP_OP));
	d->alpha_enable = DRAW_C(g, ALPHA_FUNC_ENABLE) & 1;
	d->alpha_func = DRAW_C(g, ALPHA_FUNC_FUNC);
	d->alpha_ref = (float)(DRAW_C(g, ALPHA_FUNC_REF) & 0xff) / 255.0f;
	d->depth_test = DRAW_C(g, DEPTH_TEST_ENABLE) & 1;
	d->depth_func = DRAW_C(g, DEPTH_FUNC);
	d->depth_write = DRAW_C(g, DEPTH_WRITE_ENABLE) & 1;
	d->zbounds = DRAW_C(g, DEPTH_BOUNDS_TEST_ENABLE) & 1;
	d->zbmin = sim_u2f(DRAW_C(g, DEPTH_BOUNDS_TEST_ZMIN));
	d->zbmax = sim_u2f(DRAW_C(g, DEPTH_BOUNDS_TEST_ZMAX));
	for (unsigned i = 0; i < 2; i++) {
		struct draw_stencil *st = &d->st[i];
		st->enable = DRAW_CI(g, STENCIL_ENABLE, i) & 1;
		st->wmask = DRAW_CI(g, STENCIL_MASK, i);
		st->func = DRAW_CI(g, STENCIL_FUNC_FUNC, i);
		st->ref = DRAW_CI(g, STENCIL_FUNC_REF, i);
		st->vmask = DRAW_CI(g, STENCIL_FUNC_MASK, i);
		st->op_fail = DRAW_CI(g, STENCIL_OP_FAIL, i);
		st->op_zfail = DRAW_CI(g, STENCIL_OP_ZFAIL, i);
		st->op_zpass = DRAW_CI(g, STENCIL_OP_ZPASS, i);
	}
	d->two_sided_stencil = d->st[1].enable;
	d->query = DRAW_C(g, QUERY_ENABLE) & 1;
}

static void draw_varyings(struct sim_grctx *g, struct draw_setup *d)
{
	uint32_t r = d->result_en = DRAW_C(g, VP_RESULT_EN);
	unsigned n = 0;

	/* colour i: the front output, or with two-sided colour the back one on
	 * back faces; either alone feeds the input (a program may write only
	 * gl_BackColor: Mesa's VP_RESULT_EN then has BFC0 without COL0) */
	for (unsigned i = 0; i < 2; i++) {
		int front = !!(r & NV40_VP_RESULT_COL(i));
		int back = d->two_side && (r & NV40_VP_RESULT_BFC(i));
		if (front || back)
			d->vary[n++] = (struct draw_vary){ NV40_FPI_COL0 + i, NV40_VPO_COL0 + i,
				back ? NV40_VPO_BFC0 + i : NV40_VPO_COL0 + i, d->flat };
	}
	if (r & NV40_VP_RESULT_FOGC)
		d->vary[n++] = (struct draw_vary){ NV40_FPI_FOGC, NV40_VPO_FOGC, NV40_VPO_FOGC, 0 };
	for (unsigned i = 0; i < 8; i++)
		if (r & NV40_VP_RESULT_TC(i))
			d->vary[n++] = (struct draw_vary){ NV40_FPI_TC0 + i, NV40_VPO_TC0 + i,
							   NV40_VPO_TC0 + i, 0 };
	d->nvary = n;
}

/* The render condition's report (kind COND) passes when its count is not
 * 0, or when it cannot be read. */
static int draw_render_cond(struct sim *s, struct sim_grctx *g, const struct nv_acc_list *l)
{
	for (unsigned i = 0; i < l->n; i++) {
		const struct nv_acc *a = &l->a[i];
		if (a->kind != NV_ACC_COND)
			continue;
		const uint8_t *rep = sim_dma_map(s, g->curie[a->dma], (uint64_t)a->off, a->len, 0);
		return !rep || nv_rd32le(rep + NV40_QUERY_REPORT_VALUE) != 0;
	}
	return 1;
}

/* The surfaces d writes: colour buffers with a channel on, zeta when
 * used.  Their number. */
static unsigned draw_writes(const struct draw_setup *d, const struct sim_rt *w[5])
{
	unsigned n = 0;

	for (unsigned i = 0; i < 5; i++) {
		const struct sim_rt *rt = i < 4 ? &d->rts.color[i] : &d->rts.zeta;
		if (i < 4 ? !(d->rt_mask >> i & 1) || !d->cmask[i] : !d->zbits)
			continue;
		if (rt->mem)
			w[n++] = rt;
	}
	return n;
}

/* Does d sample a byte of [lo, lo + len)? */
static int draw_samples(const struct draw_setup *d, const uint8_t *lo, uint64_t len)
{
	for (unsigned u = 0; u < NV40_TEX_UNITS; u++)
		if (d->texmem[u] && lo < d->texmem[u] + d->texv[u].l.extent && d->texmem[u] < lo + len)
			return 1;
	return 0;
}

/* Does d read a byte of [lo, lo + len): a texture's, or one of its
 * program's fp_used (none until bands.c queues the draw)? */
static int draw_reads(const struct draw_setup *d, const uint8_t *lo, uint64_t len)
{
	return (d->fp_used && lo < d->fp + d->fp_used && d->fp < lo + len) || draw_samples(d, lo, len);
}

/* Does d read memory one of the n surfaces w lies in? */
static int draw_reads_any(const struct draw_setup *d, const struct sim_rt *const w[], unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (draw_reads(d, w[k]->mem, w[k]->len))
			return 1;
	return 0;
}

/* May fragment threads share the draw by rows (bands.c)?  Only when no
 * pixel it writes aliases another pixel's memory (a linear row reaching
 * into the next, surfaces overlapping) and it samples nothing it writes;
 * else a pixel's owner would not be the only thread touching its bytes. */
static int draw_split_ok(const struct draw_setup *d)
{
	const struct sim_rt *w[5];
	unsigned nw = draw_writes(d, w);

	return sim_rt_rows_apart(w, nw, d->cx1 + (d->tx > 0 ? d->tx : 0)) && !draw_reads_any(d, w, nw);
}

/* Do a pixel of a and the same pixel of b lie at the same bytes? */
static int draw_same_layout(const struct draw_setup *a, const struct sim_rt *ra,
			    const struct draw_setup *b, const struct sim_rt *rb)
{
	return ra->mem == rb->mem && ra->pitch == rb->pitch && ra->bpp == rb->bpp &&
	       ra->swizzled == rb->swizzled && ra->log2w == rb->log2w && ra->log2h == rb->log2h &&
	       a->tx == b->tx && a->ty == b->ty;
}

int sim_draw_may_follow(const struct draw_setup *a, const struct draw_setup *b)
{
	const struct sim_rt *wa[5], *wb[5];
	unsigned na = draw_writes(a, wa), nb = draw_writes(b, wb);

	for (unsigned i = 0; i < na; i++)
		for (unsigned k = 0; k < nb; k++)
			if (sim_rt_overlaps(wa[i], wb[k]->mem, wb[k]->len) &&
			    !draw_same_layout(a, wa[i], b, wb[k]))
				return 0;
	return !draw_reads_any(a, wb, nb) && !draw_reads_any(b, wa, na);
}

int sim_draw_writes_program(const struct draw_setup *d)
{
	const struct sim_rt *w[5];
	unsigned n = draw_writes(d, w);

	for (unsigned i = 0; i < n; i++)
		if (d->fp_used && sim_rt_overlaps(w[i], d->fp, d->fp_used))
			return 1;
	return 0;
}

int sim_draw_touches(const struct draw_setup *d, const uint8_t *lo, uint64_t len)
{
	const struct sim_rt *w[5];
	unsigned n = draw_writes(d, w);

	if (draw_reads(d, lo, len))
		return 1;
	for (unsigned i = 0; i < n; i++)
		if (sim_rt_overlaps(w[i], lo, len))
			return 1;
	return 0;
}

static void draw_build(struct sim *s, struct sim_grctx *g, struct draw_setup *d)
{
	struct nv_acc_state view;
	struct nv_acc_list l;
	uint32_t err = 0;

	/* what the pixels touch: nothing for an empty target rectangle */
	sim_acc_view(s, g, &view);
	nv40_acc_draw(&view, &l);
	d->broken = 0;
	d->split = 0;
	d->rop_jit = NULL;
	d->render = l.trap || (l.n && draw_render_cond(s, g, &l));
	d->window_space = !!(DRAW_C(g, ENGINE) & NV40_ENGINE_WINDOW_SPACE);
	for (unsigned i = 0; i < 4; i++) {
		d->vp_scale[i] = sim_u2f(DRAW_CI(g, VIEWPORT_SCALE, i));
		d->vp_trans[i] = sim_u2f(DRAW_CI(g, VIEWPORT_TRANSLATE, i));
	}
	/* window |x| stays below 16384 + |translate| inside the guard band */
	float sx = fabsf(d->vp_scale[0]), sy = fabsf(d->vp_scale[1]);
	d->gb_x = 16384.0f / (sx > 1.0f ? sx : 1.0f);
	d->gb_y = 16384.0f / (sy > 1.0f ? sy : 1.0f);
	d->clip_planes = 0;
	for (unsigned i = 0; i < 6; i++)
		if (DRAW_C(g, VP_CLIP_PLANES_ENABLE) & NV40_VP_CLIP_PLANE(i))
			d->clip_planes |= 1u << i;
	d->depth_clamp = !!(DRAW_C(g, DEPTH_CONTROL) & NV40_DEPTH_CONTROL_CLAMP);
	d->depth_near = sim_u2f(DRAW_C(g, DEPTH_RANGE_NEAR));
	d->depth_far = sim_u2f(DRAW_C(g, DEPTH_RANGE_FAR));
	d->cull_enable = DRAW_C(g, CULL_FACE_ENABLE) & 1;
	d->cull_face = DRAW_C(g, CULL_FACE);
	d->front_ccw = DRAW_C(g, FRONT_FACE) == NV40_FRONT_FACE_CCW;
	d->two_side = DRAW_C(g, VERTEX_TWO_SIDE_ENABLE) & 1;
	d->flat = DRAW_C(g, SHADE_MODEL) == NV40_SHADE_FLAT;
	d->poly_mode[0] = DRAW_C(g, POLYGON_MODE_FRONT);
	d->poly_mode[1] = DRAW_C(g, POLYGON_MODE_BACK);
	d->poly_offset_fill = DRAW_C(g, POLYGON_OFFSET_FILL_ENABLE) & 1;
	d->poly_offset_line = DRAW_C(g, POLYGON_OFFSET_LINE_ENABLE) & 1;
	d->poly_offset_point = DRAW_C(g, POLYGON_OFFSET_POINT_ENABLE) & 1;
	d->poly_factor = sim_u2f(DRAW_C(g, POLYGON_OFFSET_FACTOR));
	d->poly_units = sim_u2f(DRAW_C(g, POLYGON_OFFSET_UNITS));
	d->stipple_enable = DRAW_C(g, POLYGON_STIPPLE_ENABLE) & 1;
	for (unsigned i = 0; i < 32; i++)
		d->stipple[i] = DRAW_CI(g, POLYGON_STIPPLE_PATTERN, i);
	d->line_width = (float)(DRAW_C(g, LINE_WIDTH) & 0xff) / NV40_LINE_WIDTH_FRAC;
	if (d->line_width < 1.0f)
		d->line_width = 1.0f;
	d->line_stipple = DRAW_C(g, LINE_STIPPLE_ENABLE) & 1;
	/* the field is the repeat count less one: Mesa's nv30 passes gallium's
	 * line_stipple_factor, which is [inferred: what llvmpipe draws for it] */
	d->line_factor = (NV40_LINE_STIPPLE_FACTOR(DRAW_C(g, LINE_STIPPLE_PATTERN)) & 0xff) + 1;
	d->line_pattern = NV40_LINE_STIPPLE_PATTERN(DRAW_C(g, LINE_STIPPLE_PATTERN));
	d->point_size = sim_u2f(DRAW_C(g, POINT_SIZE));
	d->point_sprite = DRAW_C(g, POINT_SPRITE);
	d->coord_conv = DRAW_C(g, COORD_CONVENTIONS);
	d->tx = (int16_t)(DRAW_C(g, VIEWPORT_TX_ORIGIN) & 0xffff);
	d->ty = (int16_t)(DRAW_C(g, VIEWPORT_TX_ORIGIN) >> 16);
	draw_varyings(g, d);

	/* default fragment inputs: what no varying overwrites */
	for (unsigned p = 0; p < 4; p++)
		for (unsigned i = 0; i < NV40_FP_INPUTS; i++) {
			d->quad.in[p][i][0] = d->quad.in[p][i][1] = d->quad.in[p][i][2] = 0.0f;
			d->quad.in[p][i][3] = 1.0f;
		}

	if (!d->render)
		return;
	if (l.trap) {
		sim_gr_trap(s, sim_acc_nsource(l.trap));
		d->broken = 1;
		return;
	}
	if (sim_rt_resolve(s, g, &l, &d->rts) < 0) {
		d->broken = 1;                 /* rt.c trapped */
		return;
	}
	d->rt_mask = 0;
	for (unsigned i = 0; i < 4; i++) {
		if ((DRAW_C(g, RT_ENABLE) & NV40_RT_ENABLE_COLOR(i)) && d->rts.color[i].mem)
			d->rt_mask |= 1u << i;
		sim_rt8_of(d->rts.color[i].format, &d->rt8[i]);
	}
	draw_rop_state(g, d);
	d->zbits = !d->rts.zeta.mem ? 0 : d->rts.zeta.format == NV40_RT_ZETA_Z24S8 ? 24 : 16;

	/* pixels: RT rectangle, scissor, viewport; never negative */
	d->cx0 = 0; d->cy0 = 0; d->cx1 = DRAW_CLIP_MAX; d->cy1 = DRAW_CLIP_MAX;
	draw_clip_rect(&d->cx0, &d->cx1, DRAW_C(g, RT_HORIZ));
	draw_clip_rect(&d->cy0, &d->cy1, DRAW_C(g, RT_VERT));
	draw_clip_rect(&d->cx0, &d->cx1, DRAW_C(g, SCISSOR_HORIZ));
	draw_clip_rect(&d->cy0, &d->cy1, DRAW_C(g, SCISSOR_VERT));
	draw_clip_rect(&d->cx0, &d->cx1, DRAW_C(g, VIEWPORT_HORIZ));
	draw_clip_rect(&d->cy0, &d->cy1, DRAW_C(g, VIEWPORT_VERT));

	d->fp_control = DRAW_C(g, FP_CONTROL);
	for (unsigned i = 0; i < l.n && !err; i++)
		if (l.a[i].kind == NV_ACC_PROGRAM)
			err = draw_fp_resolve(s, g, &l.a[i], d);
	if (!err)
		err = draw_tex_resolve(s, g, &l, d);
	if (err) {
		sim_gr_trap(s, err);
		d->broken = 1;
	}
	d->fp_used = 0;
	d->split = !d->broken && draw_split_ok(d);
	d->rop_jit = d->broken ? NULL : sim_jit_rop_find(s->jit, d);
}

struct draw_setup *sim_draw_setup(struct sim *s, struct sim_grctx *g)
{
	struct draw_setup *d = s->bands ? sim_bands_setup(s, 0) : &draw_tls;
	int built = 0;

	if (!d->valid || d->s != s || d->gen != draw_gen || !draw_key_same(g, d->key)) {
		if (s->bands)
			d = sim_bands_setup(s, 1);   /* a new one: queued fragments keep theirs */
		draw_key(g, d->key);
		d->s = s;
		d->valid = 1;
		d->gen = draw_gen;
		sim_oracle_defer(s, 1);     /* checked below, launch by launch */
		draw_build(s, g, d);
		sim_oracle_defer(s, -1);
		built = 1;
	}
	sim_oracle_draw(s, g, d, built);
	return d->broken || !d->render ? NULL : d;
}

/* ---- vertices and assembly ---- */

/* One method call's view of the pipeline: the setup, fetched on the first
 * primitive that needs it. */
struct draw_call {
	struct sim *s;
	struct sim_grctx *g;
	struct draw_setup *d;
	int resolved;
	struct nv_acc_state view;     /* hw/access.h's, taken once a call */
};

static struct draw_setup *draw_get(struct draw_call *c)
{
	if (!c->resolved) {
		c->d = sim_draw_setup(c->s, c->g);
		c->resolved = 1;
	}
	return c->d;
}

static void held_get(const struct sim_draw_state *ds, unsigned i, struct draw_vtx *v)
{
	memcpy(v, ds->held[i], sizeof(*v));
}

static void held_put(struct sim_draw_state *ds, unsigned i, const struct draw_vtx *v)
{
	memcpy(ds->held[i], v, sizeof(*v));
}

/* The first `need` vertices of a primitive are held, v in slot `slot`:
 * 1 while v is one of them. */
static int held_collect(struct sim_draw_state *ds, unsigned slot, unsigned need,
			const struct draw_vtx *v)
{
	if (slot >= need)
		return 0;
	held_put(ds, slot, v);
	return 1;
}

static void held_shift(struct sim_draw_state *ds, unsigned n)
{
	memmove(ds->held[0], ds->held[1], sizeof(ds->held[0]) * (n - 1));
}

static void draw_tri(struct draw_call *c, const struct draw_vtx *a, const struct draw_vtx *b,
		     const struct draw_vtx *v, const struct draw_vtx *pv)
{
	struct draw_setup *d = draw_get(c);
	if (d)
		sim_draw_tri(c->s, c->g, d, a, b, v, pv);
}

/* A triangle of a quad or polygon: `edges` its own (sim_draw_tri_edges). */
static void draw_tri_e(struct draw_call *c, const struct draw_vtx *a, const struct draw_vtx *b,
		       const struct draw_vtx *v, const struct draw_vtx *pv, unsigned edges)
{
	struct draw_setup *d = draw_get(c);
	if (d)
		sim_draw_tri_edges(c->s, c->g, d, a, b, v, pv, edges);
}

static void draw_line(struct draw_call *c, const struct draw_vtx *a, const struct draw_vtx *b,
		      const struct draw_vtx *pv)
{
	struct draw_setup *d = draw_get(c);
	if (d)
		sim_draw_line(c->s, c->g, d, a, b, pv);
}

/* Vertices per independent primitive of each type: the line stipple
 * restarts with each (a line of LINES, a triangle, a quad), else only with
 * the whole primitive (0: strips and loops of lines, polygons). */
static const uint8_t draw_stipple_period[NV40_PRIM_POLYGON + 1] = {
	[NV40_PRIM_LINES] = 2, [NV40_PRIM_TRIANGLES] = 3, [NV40_PRIM_TRIANGLE_STRIP] = 1,
	[NV40_PRIM_TRIANGLE_FAN] = 1, [NV40_PRIM_QUADS] = 4, [NV40_PRIM_QUAD_STRIP] = 2,
};

static void draw_assemble(struct draw_call *c, const struct draw_vtx *v)
{
	struct sim_draw_state *ds = &c->g->c3d.draw;
	unsigned n = ds->nverts, ff = DRAW_C(c->g, FLATSHADE_FIRST) & 1;
	unsigned per = ds->prim <= NV40_PRIM_POLYGON ? draw_stipple_period[ds->prim] : 0;
	struct draw_vtx h0, h1, h2;

	if (n == 0 || (per && n % per == 0))
		ds->stipple = 0;
	switch (ds->prim) {
	case NV40_PRIM_POINTS: {
		struct draw_setup *d = draw_get(c);
		if (d)
			sim_draw_point(c->s, c->g, d, v);
		break;
	}
	case NV40_PRIM_LINES:
		if (held_collect(ds, n % 2, 1, v))
			break;
		held_get(ds, 0, &h0);
		draw_line(c, &h0, v, ff ? &h0 : v);
		break;
	case NV40_PRIM_LINE_LOOP:
		if (n == 0)
			held_put(ds, 1, v);
		/* fall through */
	case NV40_PRIM_LINE_STRIP:
		if (n > 0) {
			held_get(ds, 0, &h0);
			draw_line(c, &h0, v, ff ? &h0 : v);
		}
		held_put(ds, 0, v);
		break;
	case NV40_PRIM_TRIANGLES:
		if (held_collect(ds, n % 3, 2, v))
			break;
		held_get(ds, 0, &h0);
		held_get(ds, 1, &h1);
		draw_tri(c, &h0, &h1, v, ff ? &h0 : v);
		break;
	case NV40_PRIM_TRIANGLE_STRIP:
		if (held_collect(ds, n, 2, v))
			break;
		held_get(ds, 0, &h0);
		held_get(ds, 1, &h1);
		if (n % 2 == 0)
			draw_tri(c, &h0, &h1, v, ff ? &h0 : v);
		else
			draw_tri(c, &h1, &h0, v, ff ? &h0 : v);
		held_shift(ds, 2);
		held_put(ds, 1, v);
		break;
	case NV40_PRIM_TRIANGLE_FAN:
		if (held_collect(ds, n, 1, v))
			break;
		if (n >= 2) {
			held_get(ds, 0, &h0);
			held_get(ds, 1, &h1);
			draw_tri(c, &h0, &h1, v, ff ? &h1 : v);
		}
		held_put(ds, 1, v);
		break;
	case NV40_PRIM_POLYGON:
		/* a fan one triangle behind: only the last one has the closing
		 * edge (draw_finish draws it) */
		if (held_collect(ds, n, 3, v))
			break;
		held_get(ds, 0, &h0);
		held_get(ds, 1, &h1);
		held_get(ds, 2, &h2);
		draw_tri_e(c, &h0, &h1, &h2, &h0, n == 3 ? 3u : 2u);
		held_put(ds, 1, &h2);
		held_put(ds, 2, v);
		break;
	case NV40_PRIM_QUADS:
		if (held_collect(ds, n % 4, 3, v))
			break;
		held_get(ds, 0, &h0);
		held_get(ds, 1, &h1);
		held_get(ds, 2, &h2);
		/* quads flat-shade from their last vertex whatever FLATSHADE_FIRST
		 * says: Mesa's nv30 reports quads not following the provoking-vertex
		 * convention [inferred: nv30_screen.c, QUADS_FOLLOW_PROVOKING_VERTEX
		 * 0; what llvmpipe draws] */
		draw_tri_e(c, &h0, &h1, &h2, v, 3u);
		draw_tri_e(c, &h0, &h2, v, v, 6u);
		break;
	case NV40_PRIM_QUAD_STRIP:
		if (held_collect(ds, n, 3, v))
			break;
		if (n % 2 == 1) {
			held_get(ds, 0, &h0);
			held_get(ds, 1, &h1);
			held_get(ds, 2, &h2);
			draw_tri_e(c, &h0, &h1, v, v, 3u);      /* last vertex, as quads */
			draw_tri_e(c, &h0, v, &h2, v, 6u);
		}
		held_shift(ds, 3);
		held_put(ds, 2, v);
		break;
	}
	/* keep the count's residue mod 12 (every period assembly uses) */
	ds->nverts = n + 1 >= 0x60000000u ? n + 1 - 0x30000000u : n + 1;
}

/* End of a primitive (VERTEX_BEGIN_END stop or a restart): a line loop
 * closes. */
static void draw_finish(struct draw_call *c)
{
	struct sim_draw_state *ds = &c->g->c3d.draw;
	struct draw_vtx h0, h1, h2;

	if (ds->prim == NV40_PRIM_LINE_LOOP && ds->nverts >= 2) {
		held_get(ds, 0, &h0);
		held_get(ds, 1, &h1);
		draw_line(c, &h0, &h1, DRAW_C(c->g, FLATSHADE_FIRST) & 1 ? &h0 : &h1);
	}
	if (ds->prim == NV40_PRIM_POLYGON && ds->nverts >= 3) {
		held_get(ds, 0, &h0);
		held_get(ds, 1, &h1);
		held_get(ds, 2, &h2);
		draw_tri_e(c, &h0, &h1, &h2, &h0, ds->nverts == 3 ? 7u : 6u);
	}
	ds->nverts = 0;
}

/* The vertex program's compiled code (jit.h) or NULL, looked up once a
 * primitive (draw_gen), and again when the channel uploads instructions
 * or moves the start. */
static __thread struct {
	const struct sim *s;
	unsigned chid, start;
	uint32_t gen, serial;
	sim_jit_vp_fn *fn;
} draw_vpc;

static sim_jit_vp_fn *draw_vp_code(struct draw_call *c, unsigned start)
{
	const struct sim_3d_state *c3d = &c->g->c3d;

	if (!c->s->jit || start >= NV40_VP_INSNS)
		return NULL;
	if (draw_vpc.s != c->s || draw_vpc.chid != c->s->gr_chid || draw_vpc.gen != draw_gen ||
	    draw_vpc.serial != c3d->vp_serial || draw_vpc.start != start) {
		draw_vpc.fn = sim_jit_vp(c->s->jit, sim_vp_straight_of((const uint32_t (*)[4])c3d->vp_code,
									start));
		draw_vpc.s = c->s;
		draw_vpc.chid = c->s->gr_chid;
		draw_vpc.gen = draw_gen;
		draw_vpc.serial = c3d->vp_serial;
		draw_vpc.start = start;
	}
	return draw_vpc.fn;
}

/* The vertex program for one vertex; -1 after a trap. */
static int draw_vp(struct draw_call *c, const float in[NV40_VP_INPUTS][4], struct draw_vtx *v)
{
	struct sim_grctx *g = c->g;
	const uint32_t (*code)[4] = (const uint32_t (*)[4])g->c3d.vp_code;
	const uint32_t (*cst)[4] = (const uint32_t (*)[4])g->c3d.vp_const;
	unsigned start = DRAW_C(g, VP_START_FROM_ID);
	sim_jit_vp_fn *fn = draw_vp_code(c, start);

	for (unsigned i = 0; i < NV40_VP_OUTPUTS; i++) {
		v->o[i][0] = v->o[i][1] = v->o[i][2] = 0.0f;
		v->o[i][3] = 1.0f;
	}
	if (fn && sim_jit_verifying(c->s->jit)) {
		float o[NV40_VP_OUTPUTS][4];
		memcpy(o, v->o, sizeof(o));
		sim_vp_run(code, start, cst, in, o);
		fn(cst, in, v->o);
		sim_jit_verify_vp(c->s->jit, (const float (*)[4])v->o, (const float (*)[4])o);
	} else if (fn) {
		fn(cst, in, v->o);
	} else if (sim_vp_run(code, start, cst, in, v->o) < 0) {
		sim_gr_trap(c->s, NV_PGRAPH_NSOURCE_DATA_ERROR);
		return -1;
	}
	/* Colours leave the vertex stage clamped to [0, 1] before they are
	 * interpolated, as GL's vertex colour clamp asks and Mesa's nv30 emits
	 * no saturate for [inferred: RPCS3's NV47 tests see colour inputs
	 * clamped; llvmpipe clamps per vertex] */
	static const unsigned col[4] = DRAW_COLOR_VPO;
	for (unsigned i = 0; i < 4; i++)
		for (unsigned k = 0; k < 4; k++)
			v->o[col[i]][k] = sim_sat(v->o[col[i]][k]);
	return 0;
}

/* Through the vertex program and into assembly; -1 after a trap. */
static int draw_vertex(struct draw_call *c, const float in[NV40_VP_INPUTS][4])
{
	struct draw_vtx v;

	if (draw_vp(c, in, &v) < 0)
		return -1;
	draw_assemble(c, &v);
	return 0;
}

/* Post-transform cache for indexed draws, like the hardware's: valid for
 * one channel within one VERTEX_BEGIN_END (state does not change inside a
 * primitive in any driver; if a client changes it anyway it only gets its
 * own stale vertices). */
#define VCACHE_SIZE 64
static __thread struct {
	const struct sim *s;
	unsigned chid;
	uint32_t gen;
	uint32_t tag[VCACHE_SIZE];
	uint8_t valid[VCACHE_SIZE];
	struct draw_vtx v[VCACHE_SIZE];
} draw_vcache;

static int draw_indexed_vertex(struct draw_call *c, uint32_t idx)
{
	unsigned slot = idx % VCACHE_SIZE;
	float in[NV40_VP_INPUTS][4];

	if (draw_vcache.s != c->s || draw_vcache.chid != c->s->gr_chid ||
	    draw_vcache.gen != draw_gen) {
		memset(draw_vcache.valid, 0, sizeof(draw_vcache.valid));
		draw_vcache.s = c->s;
		draw_vcache.chid = c->s->gr_chid;
		draw_vcache.gen = draw_gen;
	}
	if (!draw_vcache.valid[slot] || draw_vcache.tag[slot] != idx) {
		draw_vcache.valid[slot] = 0;
		if (sim_draw_fetch(c->s, c->g, &c->view, idx, in) < 0 ||
		    draw_vp(c, in, &draw_vcache.v[slot]) < 0)
			return -1;
		draw_vcache.tag[slot] = idx;
		draw_vcache.valid[slot] = 1;
	}
	draw_assemble(c, &draw_vcache.v[slot]);
	return 0;
}

/* One index: the vertex it fetches is the model's (restart: none). */
static int draw_index(struct draw_call *c, uint32_t raw)
{
	uint32_t v;
	int r = nv40_acc_index(&c->view, raw, &v);
	if (r < 0) {
		sim_gr_trap(c->s, NV_PGRAPH_NSOURCE_DATA_ERROR);
		return -1;
	}
	if (!r) {
		draw_finish(c);
		return 0;
	}
	return draw_indexed_vertex(c, v);
}

static void draw_index_batch(struct draw_call *c, uint32_t data)
{
	struct nv_acc_list l;
	const struct nv_acc *ib = NULL;

	nv40_acc_index_batch(&c->view, 0, data, &l);
	if (l.trap) {
		sim_gr_trap(c->s, sim_acc_nsource(l.trap));
		return;
	}
	for (unsigned i = 0; i < l.n; i++)
		if (l.a[i].kind == NV_ACC_INDEX)
			ib = &l.a[i];
	if (!ib)
		return;
	unsigned isz = nv40_acc_index_size(&c->view);
	uint32_t count = (uint32_t)(ib->len / isz);
	const uint8_t *p = sim_dma_map(c->s, c->g->curie[ib->dma], (uint64_t)ib->off, ib->len, 0);

	if (!p) {
		sim_gr_trap(c->s, NV_PGRAPH_NSOURCE_DMA_R_PROTECTION);
		return;
	}
	for (uint32_t i = 0; i < count; i++) {
		uint32_t raw = isz == 2 ? draw_rd16le(p + 2 * i) : nv_rd32le(p + 4 * i);
		if (draw_index(c, raw) < 0)
			return;
	}
}

/* ---- constant attributes ---- */

static void draw_attr(struct sim_grctx *g, unsigned i, float x, float y, float z, float w)
{
	uint32_t *a = g->c3d.draw.attr[i];
	a[0] = sim_f2u(x); a[1] = sim_f2u(y); a[2] = sim_f2u(z); a[3] = sim_f2u(w);
}

#define SLOTF(name, i) sim_u2f(DRAW_CI(g, name, (i)))
#define IS(name) (mthd >= NV_CURIE_##name && \
		  mthd == NV_CURIE_##name + elem * NV_CURIE_##name##__STRIDE)

/* Store a VTX_ATTR_* write; 1 when it completes attribute 0 (emit). */
static int draw_attr_mthd(struct sim_grctx *g, uint32_t mthd, unsigned elem, uint32_t data)
{
	unsigned i;

	if (IS(VTX_ATTR_1F)) {
		draw_attr(g, elem, sim_u2f(data), 0.0f, 0.0f, 1.0f);
		return elem == 0;
	}
	if (IS(VTX_ATTR_2F)) {
		i = elem / 2;
		draw_attr(g, i, SLOTF(VTX_ATTR_2F, 2 * i), SLOTF(VTX_ATTR_2F, 2 * i + 1), 0.0f, 1.0f);
		return elem == 1;
	}
	if (IS(VTX_ATTR_3F_X) || IS(VTX_ATTR_3F_Y) || IS(VTX_ATTR_3F_Z)) {
		draw_attr(g, elem, SLOTF(VTX_ATTR_3F_X, elem), SLOTF(VTX_ATTR_3F_Y, elem),
			  SLOTF(VTX_ATTR_3F_Z, elem), 1.0f);
		return elem == 0 && IS(VTX_ATTR_3F_Z);
	}
	if (IS(VTX_ATTR_4F)) {
		i = elem / 4;
		draw_attr(g, i, SLOTF(VTX_ATTR_4F, 4 * i), SLOTF(VTX_ATTR_4F, 4 * i + 1),
			  SLOTF(VTX_ATTR_4F, 4 * i + 2), SLOTF(VTX_ATTR_4F, 4 * i + 3));
		return elem == 3;
	}
	if (IS(VTX_ATTR_2I)) {
		draw_attr(g, elem, (float)(int16_t)(data & 0xffff), (float)(int16_t)(data >> 16),
			  0.0f, 1.0f);
		return elem == 0;
	}
	if (IS(VTX_ATTR_4UB)) {
		draw_attr(g, elem, (float)(data & 0xff) / 255.0f, (float)((data >> 8) & 0xff) / 255.0f,
			  (float)((data >> 16) & 0xff) / 255.0f, (float)(data >> 24) / 255.0f);
		return elem == 0;
	}
	if (IS(VTX_ATTR_3I_XY) || IS(VTX_ATTR_3I_Z)) {
		uint32_t xy = DRAW_CI(g, VTX_ATTR_3I_XY, elem), z = DRAW_CI(g, VTX_ATTR_3I_Z, elem);
		draw_attr(g, elem, (float)(int16_t)(xy & 0xffff), (float)(int16_t)(xy >> 16),
			  (float)(int16_t)(z & 0xffff), 1.0f);
		return elem == 0 && IS(VTX_ATTR_3I_Z);
	}
	if (IS(VTX_ATTR_4I_XY) || IS(VTX_ATTR_4I_ZW)) {
		uint32_t xy = DRAW_CI(g, VTX_ATTR_4I_XY, elem), zw = DRAW_CI(g, VTX_ATTR_4I_ZW, elem);
		draw_attr(g, elem, (float)(int16_t)(xy & 0xffff), (float)(int16_t)(xy >> 16),
			  (float)(int16_t)(zw & 0xffff), (float)(int16_t)(zw >> 16));
		return elem == 0 && IS(VTX_ATTR_4I_ZW);
	}
	return 0;
}

/* ---- the methods ---- */

void sim_draw_mthd(struct sim *s, struct sim_grctx *g, uint32_t mthd, unsigned elem,
		   uint32_t data)
{
	struct sim_draw_state *ds = &g->c3d.draw;
	struct draw_call c = { s, g, NULL, 0, { { 0 }, 0, 0 } };
	float in[NV40_VP_INPUTS][4];

	if (mthd == NV_CURIE_VERTEX_BEGIN_END) {
		if (data > NV40_PRIM_POLYGON) {
			sim_gr_trap(s, NV_PGRAPH_NSOURCE_DATA_ERROR);
			return;
		}
		if (ds->prim)
			draw_finish(&c);
		draw_gen++;                 /* state may have changed: resolve again */
		ds->prim = data;
		ds->nverts = 0;
		ds->vdata_n = 0;
		return;
	}
	if (draw_attr_mthd(g, mthd, elem, data)) {
		/* an immediate vertex: the attribute registers, whatever VTXFMT says */
		if (!ds->prim)
			return;
		uint32_t en = DRAW_C(g, VP_ATTRIB_EN);
		for (unsigned i = 0; i < NV40_VP_INPUTS; i++)
			for (unsigned k = 0; k < 4; k++)
				in[i][k] = en & (1u << i) ? sim_u2f(ds->attr[i][k]) : (k == 3 ? 1.0f : 0.0f);
		draw_vertex(&c, in);
		return;
	}
	if (!ds->prim)
		return;                      /* vertex data outside a primitive: ignored */
	sim_acc_view(s, g, &c.view);

	switch (mthd) {
	case NV_CURIE_VB_VERTEX_BATCH: {
		uint32_t start = NV40_BATCH_START(data), count = NV40_BATCH_COUNT(data);
		for (uint32_t i = 0; i < count; i++)
			if (sim_draw_fetch(s, g, &c.view, (uint64_t)start + i, in) < 0 || draw_vertex(&c, in) < 0)
				return;
		break;
	}
	case NV_CURIE_VB_ELEMENT_U16:
		if (draw_index(&c, data & 0xffff) == 0)
			draw_index(&c, data >> 16);
		break;
	case NV_CURIE_VB_ELEMENT_U32:
		draw_index(&c, data);
		break;
	case NV_CURIE_VB_INDEX_BATCH:
		draw_index_batch(&c, data);
		break;
	case NV_CURIE_VERTEX_DATA: {
		unsigned words = sim_draw_inline_words(g);
		if (!words || words > SIM_DRAW_INLINE_MAX) {
			sim_gr_trap(s, NV_PGRAPH_NSOURCE_DATA_ERROR);
			return;
		}
		if (ds->vdata_n >= words)
			ds->vdata_n = 0;
		ds->vdata[ds->vdata_n++] = data;
		if (ds->vdata_n == words) {
			ds->vdata_n = 0;
			sim_draw_fetch_inline(g, ds->vdata, in);
			draw_vertex(&c, in);
		}
		break;
	}
	}
}
