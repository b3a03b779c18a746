/* The 3D pipeline (sim/3d/draw.c and the files it names), driven through
 * push buffers as Mesa's nv30 driver emits them, against CPU references
 * computed here: the transfer blit byte for byte, top-left rule coverage,
 * interpolation, depth, blend, scissor, occlusion counts, context switches
 * inside a primitive, hostile vertex input. */
#include <math.h>
#include <pthread.h>

#include "sim-host.h"
#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/tex.h"
#include "tests/lib/nvt-fploop.h"

#define SUBC_3D 7
#define H_3D    0xbeef3097u
#define H_VRAM  0xbeef0201u
#define H_SYS   0xbeef0202u
#define OBJ_3D(c) HOST_OBJ(2 + (c))

#define FP_AT   0x010000u        /* fragment programs (VRAM) */
#define SRC_AT  0x100000u        /* blit source */
#define DST_AT  0x200000u        /* colour buffer */
#define ZETA_AT 0x300000u
#define VB_AT   0x400000u
#define QRY_AT  0x300000u        /* query reports, system memory */

#define RT_W 64
#define RT_H 64
#define RT_PITCH (RT_W * 4)

/* ---- push buffer helpers ---- */

static void m1(struct host *h, unsigned c, uint32_t mthd, uint32_t data)
{
	host_mthd(h, c, SUBC_3D, mthd, data);
}

static void mn(struct host *h, unsigned c, uint32_t mthd, unsigned n, const uint32_t *d)
{
	host_emit(h, c, NV_CMD_INC_WORD(SUBC_3D, mthd, n));
	for (unsigned i = 0; i < n; i++)
		host_emit(h, c, d[i]);
}

static uint32_t fu(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static void run(struct host *h, unsigned c)
{
	host_kick(h, c);
	sim_run(h->s);
}

static uint32_t trapped(struct host *h)
{
	if (!(sim_rd32(h->s, NV_PGRAPH_INTR) & NV_PGRAPH_INTR_ERROR))
		return 0;
	return sim_rd32(h->s, NV_PGRAPH_NSOURCE);
}

static uint8_t *vram(struct host *h, uint32_t off)
{
	return sim_vram(h->s) + off;
}

/* ---- programs ---- */

static const uint32_t fp_blit[8] = {
	0x17009e00, 0x1c9dc801, 0x0001c800, 0x3fe1c800,   /* texr r0, i[tex0], texture[0] */
	0x01401e81, 0x1c9dc800, 0x0001c800, 0x0001c800,   /* end */
};
/* mov r0, i[col0]; end */
static const uint32_t fp_col0[4] = { 0x01003e01, 0x1c9dc801, 0x0001c800, 0x0001c800 };

static void fp_upload(struct host *h, uint32_t at, const uint32_t *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		nv_wr32le(vram(h, at + 4 * i), w[i]);
}

static void vp_upload(struct host *h, unsigned c, unsigned start, const uint32_t (*code)[4],
		      unsigned n)
{
	m1(h, c, NV_CURIE_VP_UPLOAD_FROM_ID, start);
	for (unsigned i = 0; i < n; i++)
		mn(h, c, NV_CURIE_VP_UPLOAD_INST, 4, code[i]);
}

/* the blit's program, as Mesa uploads it */
static const uint32_t vp_blit[2][4] = {
	{ 0x401f9c6c, 0x0040000d, 0x8106c083, 0x6041ff80 },  /* mov o[hpos], a[0] */
	{ 0x401f9c6c, 0x0040080d, 0x8106c083, 0x6041ff9d },  /* mov o[tex0], a[8]; end */
};

/* mov o[hpos], a[0]; mov o[col0], a[3]; end (slot 10) */
static void vp_passthrough(struct host *h, unsigned c)
{
	uint32_t code[2][4];
	uint32_t in = nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0);
	host_vp_insn(code[0], NV40_VP_VEC_MOV, NV40_VP_OUT_POS, 0xf, in, in, 0, 0, 0);
	host_vp_insn(code[1], NV40_VP_VEC_MOV, NV40_VP_OUT_COL0, 0xf, in, in, 3, 0, 1);
	vp_upload(h, c, 10, (const uint32_t (*)[4])code, 2);
	m1(h, c, NV_CURIE_VP_START_FROM_ID, 10);
	m1(h, c, NV_CURIE_VP_ATTRIB_EN, 0x9);
	m1(h, c, NV_CURIE_VP_RESULT_EN, NV40_VP_RESULT_COL0);
}

/* o[hpos] = c[20..23] * a[0] (four DP4s, the MVP transform); o[col0] = a[3] */
static void vp_mvp(struct host *h, unsigned c, const float m[4][4])
{
	uint32_t code[5][4];
	uint32_t in = nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0);
	uint32_t cs = nv40_vp_src_make(NV40_VP_SRC_CONST, 0, NV40_VP_SWZ_IDENTITY, 0);
	for (unsigned r = 0; r < 4; r++)
		host_vp_insn(code[r], NV40_VP_VEC_DP4, NV40_VP_OUT_POS, 8u >> r, cs, in, 0, 20 + r, 0);
	host_vp_insn(code[4], NV40_VP_VEC_MOV, NV40_VP_OUT_COL0, 0xf, in, in, 3, 0, 1);
	vp_upload(h, c, 30, (const uint32_t (*)[4])code, 5);
	for (unsigned r = 0; r < 4; r++) {
		uint32_t k[5] = { 20 + r, fu(m[r][0]), fu(m[r][1]), fu(m[r][2]), fu(m[r][3]) };
		host_emit(h, c, NV_CMD_INC_WORD(SUBC_3D, NV_CURIE_VP_UPLOAD_CONST_ID, 5));
		for (unsigned i = 0; i < 5; i++)
			host_emit(h, c, k[i]);
	}
	m1(h, c, NV_CURIE_VP_START_FROM_ID, 30);
	m1(h, c, NV_CURIE_VP_ATTRIB_EN, 0x9);
	m1(h, c, NV_CURIE_VP_RESULT_EN, NV40_VP_RESULT_COL0);
}

/* ---- the channel's 3D object and state ---- */

static void chan_3d(struct host *h, unsigned c)
{
	host_grobj(h, OBJ_3D(c), NV_CLASS_CURIE_NV40);
	host_chan_new(h, c, HOST_PB_DMA);
	host_ramht_add(h, H_3D, c, NV_ENGINE_GR, OBJ_3D(c));
	host_ramht_add(h, H_VRAM, c, NV_ENGINE_SW, HOST_VRAM_DMA);
	host_ramht_add(h, H_SYS, c, NV_ENGINE_SW, HOST_SYS_DMA);
	m1(h, c, NV_FIFO_OBJECT, H_3D);
	static const uint32_t dmas[] = {
		NV_CURIE_DMA_TEXTURE0, NV_CURIE_DMA_COLOR0, NV_CURIE_DMA_ZETA,
		NV_CURIE_DMA_VTXBUF0, NV_CURIE_DMA_COLOR1, NV_CURIE_DMA_COLOR2, NV_CURIE_DMA_COLOR3,
	};
	for (unsigned i = 0; i < sizeof(dmas) / sizeof(dmas[0]); i++)
		m1(h, c, dmas[i], H_VRAM);
	m1(h, c, NV_CURIE_DMA_TEXTURE1, H_SYS);
	m1(h, c, NV_CURIE_DMA_VTXBUF1, H_SYS);
	m1(h, c, NV_CURIE_DMA_QUERY, H_SYS);
}

static int setup(void **state)
{
	struct host *h = calloc(1, sizeof(*h));
	host_new(h);
	chan_3d(h, 0);
	*state = h;
	return 0;
}

static int teardown(void **state)
{
	return host_teardown(state);
}

/* A linear A8R8G8B8 + Z24S8 framebuffer of RT_W x RT_H and the state Mesa's
 * draws leave: viewport = identity on window coordinates, everything off. */
static void fb_state(struct host *h, unsigned c, uint32_t dst)
{
	uint32_t rt[5] = { RT_W << 16, RT_H << 16,
			   NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8,
			   RT_PITCH, dst };
	mn(h, c, NV_CURIE_RT_HORIZ, 5, rt);
	m1(h, c, NV_CURIE_ZETA_OFFSET, ZETA_AT);
	m1(h, c, NV_CURIE_ZETA_PITCH, RT_PITCH);
	m1(h, c, NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0));
	uint32_t vp[8] = { 0, 0, 0, 0, fu(1.0f), fu(1.0f), fu(1.0f), fu(1.0f) };
	mn(h, c, NV_CURIE_VIEWPORT_TRANSLATE, 8, vp);
	m1(h, c, NV_CURIE_VIEWPORT_HORIZ, RT_W << 16);
	m1(h, c, NV_CURIE_VIEWPORT_VERT, RT_H << 16);
	m1(h, c, NV_CURIE_SCISSOR_HORIZ, 0x10000000);
	m1(h, c, NV_CURIE_SCISSOR_VERT, 0x10000000);
	m1(h, c, NV_CURIE_DEPTH_RANGE_NEAR, fu(0.0f));
	m1(h, c, NV_CURIE_DEPTH_RANGE_FAR, fu(1.0f));
	m1(h, c, NV_CURIE_DEPTH_CONTROL, 0x10);
	m1(h, c, NV_CURIE_COLOR_MASK, 0x01010101);
	m1(h, c, NV_CURIE_SHADE_MODEL, NV40_SHADE_SMOOTH);
	m1(h, c, NV_CURIE_POLYGON_MODE_FRONT, NV40_POLYGON_MODE_FILL);
	m1(h, c, NV_CURIE_POLYGON_MODE_BACK, NV40_POLYGON_MODE_FILL);
	m1(h, c, NV_CURIE_ENGINE, 0x11);
	m1(h, c, NV_CURIE_FP_ACTIVE_PROGRAM, FP_AT | NV40_FP_PROGRAM_DMA0);
	m1(h, c, NV_CURIE_FP_CONTROL, 0x02000000);
	for (unsigned i = 0; i < 16; i++)
		m1(h, c, NV_CURIE_VTXFMT + 4 * i, NV40_VTXFMT_V32_FLOAT);
}

static void fill32(struct host *h, uint32_t at, unsigned n, uint32_t v)
{
	for (unsigned i = 0; i < n; i++)
		nv_wr32le(vram(h, at + 4 * i), v);
}

static uint32_t px(struct host *h, unsigned x, unsigned y)
{
	return nv_rd32le(vram(h, DST_AT + y * RT_PITCH + x * 4));
}

/* immediate vertex: colour (attr 3, 4F) then position (attr 0, 4F) */
static void imm_vertex(struct host *h, unsigned c, const float pos[4], const float col[4])
{
	uint32_t cw[4] = { fu(col[0]), fu(col[1]), fu(col[2]), fu(col[3]) };
	uint32_t pw[4] = { fu(pos[0]), fu(pos[1]), fu(pos[2]), fu(pos[3]) };
	mn(h, c, NV_CURIE_VTX_ATTR_4F + 3 * 16, 4, cw);
	mn(h, c, NV_CURIE_VTX_ATTR_4F, 4, pw);
}

/* ---- CPU references ---- */

/* GL centres, top-left rule in y-down window coordinates: the same rule the
 * model documents, computed in double from the exact vertex positions. */
static int ref_covered(const double v[3][2], double px_, double py_)
{
	double a[3][2];
	memcpy(a, v, sizeof(a));
	double area = (a[1][0] - a[0][0]) * (a[2][1] - a[0][1]) - (a[2][0] - a[0][0]) * (a[1][1] - a[0][1]);
	if (area == 0)
		return 0;
	if (area < 0) {
		double t[2] = { a[1][0], a[1][1] };
		a[1][0] = a[2][0]; a[1][1] = a[2][1];
		a[2][0] = t[0]; a[2][1] = t[1];
	}
	for (unsigned i = 0; i < 3; i++) {
		unsigned j = (i + 1) % 3;
		double dx = a[j][0] - a[i][0], dy = a[j][1] - a[i][1];
		double e = dx * (py_ - a[i][1]) - dy * (px_ - a[i][0]);
		int tl = dy < 0 || (dy == 0 && dx > 0);
		if (e < 0 || (e == 0 && !tl))
			return 0;
	}
	return 1;
}

/* Morton layout of nv40-hardware.md §4.2, written independently of sim/. */
static uint32_t ref_swz(uint32_t x, uint32_t y, unsigned lw, unsigned lh)
{
	unsigned k = lw < lh ? lw : lh;
	uint32_t m = 0;
	for (unsigned b = 0; b < k; b++)
		m |= ((x >> b) & 1) << (2 * b) | ((y >> b) & 1) << (2 * b + 1);
	return m + ((((y >> k) << (lw - k)) + (x >> k)) << (2 * k));
}

/* ---- (a) the transfer blit ---- */

struct surf {
	uint32_t at;
	unsigned w, h, pitch;         /* pitch 0 = swizzled */
};

static uint32_t surf_off(const struct surf *s, unsigned cpp, unsigned x, unsigned y)
{
	unsigned lw = 0, lh = 0;
	if (s->pitch)
		return s->at + y * s->pitch + x * cpp;
	while ((1u << lw) < s->w) lw++;
	while ((1u << lh) < s->h) lh++;
	return s->at + ref_swz(x, y, lw, lh) * cpp;
}

static unsigned ilog2(unsigned v)
{
	unsigned l = 0;
	while ((1u << (l + 1)) <= v)
		l++;
	return l;
}

/* nv30_transfer_rect_blit, word for word (unscaled, NEAREST, depth 1). */
static void emit_blit(struct host *h, unsigned c, unsigned cpp, const struct surf *src,
		      const struct surf *dst, unsigned sx, unsigned sy, unsigned dx, unsigned dy,
		      unsigned w, unsigned hh)
{
	uint32_t format, texfmt, texswz, stride;

	switch (cpp) {
	case 4:
		format = NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5;
		texfmt = NV40_TEX_FMT_A8R8G8B8 << NV40_TEX_FORMAT_FORMAT_SHIFT;
		texswz = 0x0000aae4;
		break;
	case 2:
		format = NV40_RT_COLOR_R5G6B5 | NV40_RT_ZETA_Z16 << 5;
		texfmt = NV40_TEX_FMT_R5G6B5 << NV40_TEX_FORMAT_FORMAT_SHIFT;
		texswz = 0x0000a9e4;
		break;
	default:
		format = NV40_RT_COLOR_B8 | NV40_RT_ZETA_Z16 << 5;
		texfmt = NV40_TEX_FMT_L8 << NV40_TEX_FORMAT_FORMAT_SHIFT;
		texswz = 0x0000aaff;
		break;
	}
	if (!dst->pitch) {
		format |= NV40_RT_TYPE_SWIZZLED << 8 | ilog2(dst->w) << 16 | ilog2(dst->h) << 24;
		stride = 64;
	} else {
		format |= NV40_RT_TYPE_LINEAR << 8;
		stride = dst->pitch;
	}
	uint32_t vh[2] = { dst->w << 16, dst->h << 16 };
	mn(h, c, NV_CURIE_VIEWPORT_HORIZ, 2, vh);
	uint32_t rt[5] = { dst->w << 16, dst->h << 16, format, stride, dst->at };
	mn(h, c, NV_CURIE_RT_HORIZ, 5, rt);
	m1(h, c, NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0));
	uint32_t vp[8] = { fu(0), fu(0), fu(0), fu(0), fu(1), fu(1), fu(1), fu(1) };
	mn(h, c, NV_CURIE_VIEWPORT_TRANSLATE, 8, vp);
	uint32_t dr[2] = { fu(0), fu(1) };
	mn(h, c, NV_CURIE_DEPTH_RANGE_NEAR, 2, dr);
	m1(h, c, NV_CURIE_COLOR_LOGIC_OP_ENABLE, 0);
	m1(h, c, NV_CURIE_DITHER_ENABLE, 0);
	m1(h, c, NV_CURIE_BLEND_FUNC_ENABLE, 0);
	m1(h, c, NV_CURIE_COLOR_MASK, 0x01010101);
	uint32_t z2[2] = { 0, 0 };
	mn(h, c, NV_CURIE_DEPTH_WRITE_ENABLE, 2, z2);
	m1(h, c, NV_CURIE_STENCIL_ENABLE, 0);
	m1(h, c, NV_CURIE_STENCIL_ENABLE + 0x20, 0);
	m1(h, c, NV_CURIE_ALPHA_FUNC_ENABLE, 0);
	m1(h, c, NV_CURIE_SHADE_MODEL, NV40_SHADE_FLAT);
	m1(h, c, NV_CURIE_CULL_FACE_ENABLE, 0);
	uint32_t pm[2] = { NV40_POLYGON_MODE_FILL, NV40_POLYGON_MODE_FILL };
	mn(h, c, NV_CURIE_POLYGON_MODE_FRONT, 2, pm);
	m1(h, c, NV_CURIE_POLYGON_OFFSET_FILL_ENABLE, 0);
	m1(h, c, NV_CURIE_POLYGON_STIPPLE_ENABLE, 0);
	m1(h, c, NV_CURIE_VP_START_FROM_ID, 0);
	uint32_t ar[2] = { 0x00000101, 0x00004000 };
	mn(h, c, NV_CURIE_VP_ATTRIB_EN, 2, ar);
	m1(h, c, NV_CURIE_ENGINE, 0x00000103);
	m1(h, c, NV_CURIE_VP_CLIP_PLANES_ENABLE, 0);
	m1(h, c, NV_CURIE_FP_ACTIVE_PROGRAM, FP_AT | NV40_FP_PROGRAM_DMA0);
	m1(h, c, NV_CURIE_FP_CONTROL, 0x02000000);
	texfmt |= 1 << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT | NV40_TEX_FORMAT_NO_BORDER |
		  NV40_TEX_FORMAT_RECT | 0x8000 | 2 << NV40_TEX_FORMAT_DIMS_SHIFT |
		  NV40_TEX_FORMAT_DMA0;
	if (src->pitch)
		texfmt |= NV40_TEX_FORMAT_LINEAR;
	uint32_t tex[8] = { src->at, texfmt, 0x00030303, NV40_TEX_ENABLE_ENABLE, texswz,
			    1u << 16 | 1u << 24 | 0x2000, src->w << 16 | src->h, 0 };
	mn(h, c, NV_CURIE_TEX_OFFSET, 8, tex);
	m1(h, c, NV_CURIE_TEX_SIZE1, 0x00100000 | src->pitch);
	m1(h, c, NV_CURIE_UNK0B40, 1);
	m1(h, c, NV_CURIE_TEX_CACHE_CTL, 1);
	uint32_t sc[2] = { w << 16 | dx, hh << 16 | dy };
	mn(h, c, NV_CURIE_SCISSOR_HORIZ, 2, sc);
	m1(h, c, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_QUADS);
	const unsigned xs[4] = { 0, 1, 1, 0 }, ys[4] = { 0, 0, 1, 1 };
	for (unsigned i = 0; i < 4; i++) {
		uint32_t t[3] = { fu((float)(sx + xs[i] * w)), fu((float)(sy + ys[i] * hh)), fu(0) };
		mn(h, c, NV_CURIE_VTX_ATTR_3F_X + 8 * 0x10, 3, t);
		m1(h, c, NV_CURIE_VTX_ATTR_2I, (dy + ys[i] * hh) << 16 | (dx + xs[i] * w));
	}
	m1(h, c, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
}

static void blit_case(struct host *h, unsigned cpp, int src_swz, int dst_swz)
{
	struct surf src = { SRC_AT, 64, 32, src_swz ? 0 : 64 * cpp + 64 };
	struct surf dst = { DST_AT, 32, 64, dst_swz ? 0 : 32 * cpp + 128 };
	const unsigned sx = 5, sy = 3, dx = 7, dy = 11, w = 19, hh = 13;
	uint32_t seed = cpp * 77 + src_swz * 3 + dst_swz;

	for (unsigned i = 0; i < 0x4000; i++) {
		seed = seed * 1664525u + 1013904223u;
		*vram(h, SRC_AT + i) = (uint8_t)(seed >> 24);
		*vram(h, DST_AT + i) = 0x5a;
	}
	vp_upload(h, 0, 0, vp_blit, 2);
	emit_blit(h, 0, cpp, &src, &dst, sx, sy, dx, dy, w, hh);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < dst.h; y++)
		for (unsigned x = 0; x < dst.w; x++) {
			const uint8_t *d = vram(h, surf_off(&dst, cpp, x, y));
			int in = x >= dx && x < dx + w && y >= dy && y < dy + hh;
			for (unsigned b = 0; b < cpp; b++) {
				uint8_t want = in ? *vram(h, surf_off(&src, cpp, x - dx + sx, y - dy + sy) + b)
						  : 0x5a;
				if (d[b] != want)
					fail_msg("cpp %u src %s dst %s: pixel (%u,%u) byte %u = %02x, want %02x",
						 cpp, src_swz ? "swz" : "lin", dst_swz ? "swz" : "lin", x, y,
						 b, d[b], want);
			}
		}
}

static void blit_linear_to_linear_is_a_byte_exact_copy(void **state)
{
	struct host *h = *state;
	fp_upload(h, FP_AT, fp_blit, 8);
	for (unsigned cpp = 1; cpp <= 4; cpp *= 2)
		blit_case(h, cpp, 0, 0);
}

static void blit_swizzled_to_linear_is_a_byte_exact_copy(void **state)
{
	struct host *h = *state;
	fp_upload(h, FP_AT, fp_blit, 8);
	for (unsigned cpp = 1; cpp <= 4; cpp *= 2)
		blit_case(h, cpp, 1, 0);
}

static void blit_swizzled_to_swizzled_is_a_byte_exact_copy(void **state)
{
	struct host *h = *state;
	fp_upload(h, FP_AT, fp_blit, 8);
	for (unsigned cpp = 1; cpp <= 4; cpp *= 2)
		blit_case(h, cpp, 1, 1);
}

/* ---- (b) triangles ---- */

static void tri_imm(struct host *h, unsigned c, const double v[3][2], const float col[4])
{
	m1(h, c, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	for (unsigned i = 0; i < 3; i++) {
		float p[4] = { (float)v[i][0], (float)v[i][1], 0.5f, 1.0f };
		imm_vertex(h, c, p, col);
	}
	m1(h, c, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
}

static void flat_triangle_covers_exactly_the_top_left_rule_pixels(void **state)
{
	struct host *h = *state;
	static const double tris[][3][2] = {
		{ { 2, 2 }, { 30, 2 }, { 2, 30 } },             /* edges through centres? no: integer */
		{ { 2.5, 2.5 }, { 30.5, 2.5 }, { 2.5, 30.5 } }, /* edges through pixel centres */
		{ { 40.5, 10.5 }, { 50.5, 20.5 }, { 40.5, 30.5 } },
		{ { 3.25, 40.0625 }, { 60.875, 45.5 }, { 20.1875, 63.75 } },
		{ { 60.5, 0.5 }, { 33.5, 0.5 }, { 60.5, 27.5 } },  /* clockwise */
		{ { 10, 10 }, { 20, 10 }, { 30, 10 } },          /* degenerate */
	};
	const float white[4] = { 1, 1, 1, 1 };

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	for (unsigned t = 0; t < sizeof(tris) / sizeof(tris[0]); t++) {
		fill32(h, DST_AT, RT_W * RT_H, 0);
		tri_imm(h, 0, tris[t], white);
		run(h, 0);
		assert_int_equal(trapped(h), 0);
		unsigned n = 0;
		for (unsigned y = 0; y < RT_H; y++)
			for (unsigned x = 0; x < RT_W; x++) {
				int want = ref_covered(tris[t], x + 0.5, y + 0.5);
				uint32_t got = px(h, x, y);
				n += want;
				if (got != (want ? 0xffffffffu : 0))
					fail_msg("triangle %u pixel (%u,%u) = %08x, covered %d", t, x, y, got, want);
			}
		if (t < 5)
			assert_true(n > 0);
	}
}

/* Two triangles sharing an edge (a quad split along a diagonal through pixel
 * centres): with additive blending every pixel is hit exactly once. */
static void shared_edges_hit_each_pixel_once(void **state)
{
	struct host *h = *state;
	const double a[3][2] = { { 4.5, 4.5 }, { 40.5, 4.5 }, { 40.5, 40.5 } };
	const double b[3][2] = { { 4.5, 4.5 }, { 40.5, 40.5 }, { 4.5, 40.5 } };
	const float c[4] = { 16 / 255.0f, 16 / 255.0f, 16 / 255.0f, 16 / 255.0f };

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_BLEND_FUNC_ENABLE, 1);
	m1(h, 0, NV_CURIE_BLEND_FUNC_SRC, NV40_BF_ONE << 16 | NV40_BF_ONE);
	m1(h, 0, NV_CURIE_BLEND_FUNC_DST, NV40_BF_ONE << 16 | NV40_BF_ONE);
	m1(h, 0, NV_CURIE_BLEND_EQUATION, NV40_BEQ_FUNC_ADD << 16 | NV40_BEQ_FUNC_ADD);
	fill32(h, DST_AT, RT_W * RT_H, 0);
	tri_imm(h, 0, a, c);
	tri_imm(h, 0, b, c);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < RT_H; y++)
		for (unsigned x = 0; x < RT_W; x++) {
			int n = ref_covered(a, x + 0.5, y + 0.5) + ref_covered(b, x + 0.5, y + 0.5);
			assert_true(n <= 1);
			assert_int_equal(px(h, x, y), n ? 0x10101010u : 0);
		}
}

/* Vertex buffers, a VB_VERTEX_BATCH triangle with w != 1 per vertex (MVP
 * DP4s through constants): colours perspective-correct within 1 LSB. */
static void interpolated_colour_is_perspective_correct_within_1_lsb(void **state)
{
	struct host *h = *state;
	/* window positions and w; clip position = (x w, y w, z w, w) */
	const double win[3][2] = { { 3.5, 2.25 }, { 61.0, 20.5 }, { 15.75, 62.0 } };
	const double wv[3] = { 1.0, 4.0, 2.0 };
	const float col[3][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 0.5f }, { 0, 0, 1, 0 } };
	static const float ident[4][4] = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } };

	for (unsigned i = 0; i < 3; i++) {
		float v[8] = { (float)(win[i][0] * wv[i]), (float)(win[i][1] * wv[i]), (float)(0.5 * wv[i]),
			       (float)wv[i], col[i][0], col[i][1], col[i][2], col[i][3] };
		for (unsigned k = 0; k < 8; k++)
			nv_wr32le(vram(h, VB_AT + 32 * i + 4 * k), fu(v[k]));
	}
	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_mvp(h, 0, ident);
	m1(h, 0, NV_CURIE_VTXFMT, 32 << 8 | 4 << 4 | NV40_VTXFMT_V32_FLOAT);
	m1(h, 0, NV_CURIE_VTXFMT + 12, 32 << 8 | 4 << 4 | NV40_VTXFMT_V32_FLOAT);
	m1(h, 0, NV_CURIE_VTXBUF, VB_AT);
	m1(h, 0, NV_CURIE_VTXBUF + 12, VB_AT + 16);
	fill32(h, DST_AT, RT_W * RT_H, 0);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	m1(h, 0, NV_CURIE_VB_VERTEX_BATCH, 2u << 24 | 0);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	run(h, 0);
	assert_int_equal(trapped(h), 0);

	double area = (win[1][0] - win[0][0]) * (win[2][1] - win[0][1]) -
		      (win[2][0] - win[0][0]) * (win[1][1] - win[0][1]);
	unsigned n = 0;
	for (unsigned y = 0; y < RT_H; y++)
		for (unsigned x = 0; x < RT_W; x++) {
			double p[2] = { x + 0.5, y + 0.5 }, b[3];
			if (!ref_covered(win, p[0], p[1])) {
				assert_int_equal(px(h, x, y), 0);
				continue;
			}
			n++;
			for (unsigned i = 0; i < 3; i++) {
				unsigned j = (i + 1) % 3, k = (i + 2) % 3;
				b[i] = ((win[k][0] - win[j][0]) * (p[1] - win[j][1]) -
					(win[k][1] - win[j][1]) * (p[0] - win[j][0])) / area;
			}
			double sq = b[0] / wv[0] + b[1] / wv[1] + b[2] / wv[2];
			uint32_t got = px(h, x, y);
			static const unsigned shift[4] = { 16, 8, 0, 24 };   /* R G B A in A8R8G8B8 */
			for (unsigned ch = 0; ch < 4; ch++) {
				double c = (b[0] * col[0][ch] / wv[0] + b[1] * col[1][ch] / wv[1] +
					    b[2] * col[2][ch] / wv[2]) / sq;
				int want = (int)floor(c * 255.0 + 0.5), g = (int)(got >> shift[ch] & 0xff);
				if (abs(want - g) > 1)
					fail_msg("(%u,%u) channel %u: %d, want %d", x, y, ch, g, want);
			}
		}
	assert_true(n > 500);
}

static void quad_at(struct host *h, unsigned c, float x0, float y0, float x1, float y1, float z,
		    const float col[4])
{
	const float xs[4] = { x0, x1, x1, x0 }, ys[4] = { y0, y0, y1, y1 };
	m1(h, c, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_QUADS);
	for (unsigned i = 0; i < 4; i++) {
		float p[4] = { xs[i], ys[i], z, 1.0f };
		imm_vertex(h, c, p, col);
	}
	m1(h, c, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
}

static void depth_test_less_keeps_the_nearer_surface_in_either_order(void **state)
{
	struct host *h = *state;
	const float red[4] = { 1, 0, 0, 1 }, blue[4] = { 0, 0, 1, 1 };

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_DEPTH_TEST_ENABLE, 1);
	m1(h, 0, NV_CURIE_DEPTH_WRITE_ENABLE, 1);
	m1(h, 0, NV_CURIE_DEPTH_FUNC, NV40_CMP_LESS);
	for (unsigned order = 0; order < 2; order++) {
		fill32(h, DST_AT, RT_W * RT_H, 0);
		fill32(h, ZETA_AT, RT_W * RT_H, 0xffffff00u);
		/* red at z 0.25 over [8,40)^2, blue at z 0.75 over [24,56)^2 */
		if (order) {
			quad_at(h, 0, 24, 24, 56, 56, 0.75f, blue);
			quad_at(h, 0, 8, 8, 40, 40, 0.25f, red);
		} else {
			quad_at(h, 0, 8, 8, 40, 40, 0.25f, red);
			quad_at(h, 0, 24, 24, 56, 56, 0.75f, blue);
		}
		run(h, 0);
		assert_int_equal(trapped(h), 0);
		for (unsigned y = 0; y < RT_H; y++)
			for (unsigned x = 0; x < RT_W; x++) {
				int r = x >= 8 && x < 40 && y >= 8 && y < 40;
				int b = x >= 24 && x < 56 && y >= 24 && y < 56;
				uint32_t want = r ? 0xffff0000u : b ? 0xff0000ffu : 0;
				assert_int_equal(px(h, x, y), want);
				uint32_t z = nv_rd32le(vram(h, ZETA_AT + y * RT_PITCH + 4 * x)) >> 8;
				uint32_t wz = r ? (uint32_t)(0.25 * 0xffffff + 0.5) :
					      b ? (uint32_t)(0.75 * 0xffffff + 0.5) : 0xffffff;
				assert_int_equal(z, wz);
			}
	}
}

static void blend_src_alpha_over_destination_within_1_lsb(void **state)
{
	struct host *h = *state;
	const float c[4] = { 0.8f, 0.4f, 0.2f, 0.25f };

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_BLEND_FUNC_ENABLE, 1);
	m1(h, 0, NV_CURIE_BLEND_FUNC_SRC, NV40_BF_SRC_ALPHA << 16 | NV40_BF_SRC_ALPHA);
	m1(h, 0, NV_CURIE_BLEND_FUNC_DST, NV40_BF_ONE_MINUS_SRC_ALPHA << 16 | NV40_BF_ONE_MINUS_SRC_ALPHA);
	m1(h, 0, NV_CURIE_BLEND_EQUATION, NV40_BEQ_FUNC_ADD << 16 | NV40_BEQ_FUNC_ADD);
	fill32(h, DST_AT, RT_W * RT_H, 0x80204060u);
	quad_at(h, 0, 0, 0, 16, 16, 0.5f, c);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	const double d[4] = { 0x20 / 255.0, 0x40 / 255.0, 0x60 / 255.0, 0x80 / 255.0 };
	static const unsigned shift[4] = { 16, 8, 0, 24 };
	for (unsigned ch = 0; ch < 4; ch++) {
		double want = c[ch] * 0.25 + d[ch] * 0.75;
		int w = (int)floor(want * 255 + 0.5), g = (int)(px(h, 5, 5) >> shift[ch] & 0xff);
		assert_true(abs(w - g) <= 1);
	}
	assert_int_equal(px(h, 16, 5), 0x80204060u);
}

static void scissor_and_colour_mask_limit_the_writes(void **state)
{
	struct host *h = *state;
	const float c[4] = { 1, 1, 1, 1 };

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_SCISSOR_HORIZ, 9u << 16 | 5);
	m1(h, 0, NV_CURIE_SCISSOR_VERT, 7u << 16 | 20);
	m1(h, 0, NV_CURIE_COLOR_MASK, NV40_COLOR_MASK_G & 0x01010101u);
	fill32(h, DST_AT, RT_W * RT_H, 0x11223344u);
	quad_at(h, 0, -100, -100, 200, 200, 0.5f, c);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < RT_H; y++)
		for (unsigned x = 0; x < RT_W; x++) {
			int in = x >= 5 && x < 14 && y >= 20 && y < 27;
			assert_int_equal(px(h, x, y), in ? 0x1122ff44u : 0x11223344u);
		}
}

static void occlusion_query_counts_the_covered_pixels(void **state)
{
	struct host *h = *state;
	const double t[3][2] = { { 3.25, 40.0625 }, { 60.875, 45.5 }, { 20.1875, 63.75 } };
	const float c[4] = { 1, 1, 1, 1 };
	unsigned n = 0;

	for (unsigned y = 0; y < RT_H; y++)
		for (unsigned x = 0; x < RT_W; x++)
			n += ref_covered(t, x + 0.5, y + 0.5);
	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_QUERY_RESET, 1);
	m1(h, 0, NV_CURIE_QUERY_ENABLE, 1);
	tri_imm(h, 0, t, c);
	m1(h, 0, NV_CURIE_QUERY_ENABLE, 0);
	quad_at(h, 0, 0, 0, 8, 8, 0.5f, c);          /* not counted */
	m1(h, 0, NV_CURIE_QUERY_GET, NV40_QUERY_REPORT_SAMPLES << 24 | (QRY_AT + 0x40));
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	assert_int_equal(nv_rd32le(h->sysmem + QRY_AT + 0x40 + 8), n);
}

/* ---- context switch inside a primitive ---- */

static void context_switch_inside_a_quad_leaves_both_channels_right(void **state)
{
	struct host *h = *state;
	const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
	const uint32_t dst[2] = { DST_AT, DST_AT + 0x10000 };

	chan_3d(h, 1);
	fp_upload(h, FP_AT, fp_col0, 4);
	for (unsigned c = 0; c < 2; c++) {
		host_ramin_wr32(h, NV40_RAMIN_RAMFC + c * NV40_RAMFC_SIZE + NV40_RAMFC_DMA_TIMESLICE, 3);   /* timeslice */
		fb_state(h, c, dst[c]);
		vp_passthrough(h, c);
		fill32(h, dst[c], RT_W * RT_H, 0);
		quad_at(h, c, c ? 30.0f : 2.0f, 4.0f, c ? 50.0f : 20.0f, 24.0f, 0.5f, c ? green : red);
	}
	host_kick(h, 0);
	host_kick(h, 1);
	sim_run(h->s);
	assert_int_equal(trapped(h), 0);
	for (unsigned c = 0; c < 2; c++)
		for (unsigned y = 0; y < RT_H; y++)
			for (unsigned x = 0; x < RT_W; x++) {
				unsigned x0 = c ? 30 : 2, x1 = c ? 50 : 20;
				int in = x >= x0 && x < x1 && y >= 4 && y < 24;
				uint32_t want = in ? (c ? 0xff00ff00u : 0xffff0000u) : 0;
				assert_int_equal(nv_rd32le(vram(h, dst[c] + y * RT_PITCH + 4 * x)), want);
			}
}

/* ---- indices and strips ---- */

static void indexed_strip_and_fan_equal_the_triangle_list(void **state)
{
	struct host *h = *state;
	/* a 4-vertex square as strip (0 1 2 3) and as fan (0 1 3 2) */
	const float v[4][2] = { { 10, 10 }, { 50, 10 }, { 10, 50 }, { 50, 50 } };
	static const uint32_t strip[] = { 0, 1, 2, 3 }, fan[] = { 0, 1, 3, 2 };
	const float c[4] = { 1, 1, 1, 1 };

	for (unsigned i = 0; i < 4; i++) {
		float w[8] = { v[i][0], v[i][1], 0.5f, 1, 1, 1, 1, 1 };
		for (unsigned k = 0; k < 8; k++)
			nv_wr32le(vram(h, VB_AT + 32 * i + 4 * k), fu(w[k]));
	}
	(void)c;
	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_VTXFMT, 32 << 8 | 4 << 4 | NV40_VTXFMT_V32_FLOAT);
	m1(h, 0, NV_CURIE_VTXFMT + 12, 32 << 8 | 4 << 4 | NV40_VTXFMT_V32_FLOAT);
	m1(h, 0, NV_CURIE_VTXBUF, VB_AT);
	m1(h, 0, NV_CURIE_VTXBUF + 12, VB_AT + 16);
	for (unsigned mode = 0; mode < 3; mode++) {
		fill32(h, DST_AT, RT_W * RT_H, 0);
		if (mode == 0) {
			m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLE_STRIP);
			m1(h, 0, NV_CURIE_VB_ELEMENT_U16, strip[1] << 16 | strip[0]);
			m1(h, 0, NV_CURIE_VB_ELEMENT_U16, strip[3] << 16 | strip[2]);
		} else if (mode == 1) {
			m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLE_FAN);
			for (unsigned i = 0; i < 4; i++)
				m1(h, 0, NV_CURIE_VB_ELEMENT_U32, fan[i]);
		} else {
			/* index buffer, u16, two batches split mid-primitive */
			for (unsigned i = 0; i < 4; i++) {
				uint8_t *p = vram(h, VB_AT + 0x1000 + 2 * i);
				p[0] = (uint8_t)strip[i];
				p[1] = 0;
			}
			m1(h, 0, NV_CURIE_IDXBUF_OFFSET, VB_AT + 0x1000);
			m1(h, 0, NV_CURIE_IDXBUF_FORMAT, NV40_IDXBUF_TYPE_U16);
			m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLE_STRIP);
			m1(h, 0, NV_CURIE_VB_INDEX_BATCH, 1u << 24 | 0);
			m1(h, 0, NV_CURIE_VB_INDEX_BATCH, 1u << 24 | 2);
		}
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
		run(h, 0);
		assert_int_equal(trapped(h), 0);
		for (unsigned y = 0; y < RT_H; y++)
			for (unsigned x = 0; x < RT_W; x++) {
				int in = x >= 10 && x < 50 && y >= 10 && y < 50;
				if (px(h, x, y) != (in ? 0xffffffffu : 0))
					fail_msg("mode %u pixel (%u,%u) = %08x", mode, x, y, px(h, x, y));
			}
	}
}


/* ---- (c) clipping, culling, two-sided colour, render condition, inline ---- */

/* mov o[hpos], a[0]; mov o[col0], a[3]; mov o[bfc0], a[4]; mov o[fogc], a[1] */
static void vp_four(struct host *h, unsigned c)
{
	uint32_t code[4][4];
	uint32_t in = nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0);
	host_vp_insn(code[0], NV40_VP_VEC_MOV, NV40_VP_OUT_POS, 0xf, in, in, 0, 0, 0);
	host_vp_insn(code[1], NV40_VP_VEC_MOV, NV40_VP_OUT_COL0, 0xf, in, in, 3, 0, 0);
	host_vp_insn(code[2], NV40_VP_VEC_MOV, NV40_VP_OUT_BFC0, 0xf, in, in, 4, 0, 0);
	host_vp_insn(code[3], NV40_VP_VEC_MOV, NV40_VP_OUT_FOGC, 0xf, in, in, 1, 0, 1);
	vp_upload(h, c, 50, (const uint32_t (*)[4])code, 4);
	m1(h, c, NV_CURIE_VP_START_FROM_ID, 50);
	m1(h, c, NV_CURIE_VP_ATTRIB_EN, 0x1b);
	m1(h, c, NV_CURIE_VP_RESULT_EN, NV40_VP_RESULT_COL0 | NV40_VP_RESULT_BFC0 |
	   NV40_VP_RESULT_FOGC | NV40_VP_RESULT_CLIP(0));
}

static void attr4(struct host *h, unsigned c, unsigned a, float x, float y, float z, float w)
{
	uint32_t v[4] = { fu(x), fu(y), fu(z), fu(w) };
	mn(h, c, NV_CURIE_VTX_ATTR_4F + 16 * a, 4, v);
}

/* The user clip distance in FOGC.y cuts the triangle along x = 20 (between
 * pixel centres): what survives is the reference coverage left of it. */
static void user_clip_distance_cuts_the_triangle(void **state)
{
	struct host *h = *state;
	const double t[3][2] = { { 2.5, 3.5 }, { 60.5, 10.25 }, { 12.75, 60.0 } };

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_four(h, 0);
	m1(h, 0, NV_CURIE_VP_CLIP_PLANES_ENABLE, NV40_VP_CLIP_PLANE(0));
	fill32(h, DST_AT, RT_W * RT_H, 0);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	for (unsigned i = 0; i < 3; i++) {
		attr4(h, 0, 3, 1, 1, 1, 1);
		attr4(h, 0, 1, 0, (float)(20.0 - t[i][0]), 0, 1);
		attr4(h, 0, 0, (float)t[i][0], (float)t[i][1], 0.5f, 1);
	}
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	unsigned n = 0;
	for (unsigned y = 0; y < RT_H; y++)
		for (unsigned x = 0; x < RT_W; x++) {
			int want = ref_covered(t, x + 0.5, y + 0.5) && x < 20;
			n += want;
			if (px(h, x, y) != (want ? 0xffffffffu : 0))
				fail_msg("(%u,%u) = %08x want %d", x, y, px(h, x, y), want);
		}
	assert_true(n > 100);
}

/* Back faces: culled when CULL_FACE is BACK; with two-sided colour they take
 * BFC0.  Front = counter-clockwise as seen on the surface, whose y grows
 * downwards (gallium's window convention: a negative signed area). */
static void culling_and_two_sided_colour_follow_the_winding(void **state)
{
	struct host *h = *state;
	const float ccw[3][2] = { { 4, 4 }, { 4, 30 }, { 30, 4 } };     /* down, then up-right: CCW */

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_four(h, 0);
	m1(h, 0, NV_CURIE_FRONT_FACE, NV40_FRONT_FACE_CCW);
	m1(h, 0, NV_CURIE_VERTEX_TWO_SIDE_ENABLE, 1);
	for (unsigned pass = 0; pass < 3; pass++) {
		int reverse = pass >= 1, cull = pass == 2;
		m1(h, 0, NV_CURIE_CULL_FACE_ENABLE, cull);
		m1(h, 0, NV_CURIE_CULL_FACE, NV40_CULL_FACE_BACK);
		fill32(h, DST_AT, RT_W * RT_H, 0);
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
		for (unsigned k = 0; k < 3; k++) {
			unsigned i = reverse ? 2 - k : k;
			attr4(h, 0, 3, 1, 0, 0, 1);      /* front: red */
			attr4(h, 0, 4, 0, 0, 1, 1);      /* back: blue */
			attr4(h, 0, 1, 0, 1, 1, 1);
			attr4(h, 0, 0, ccw[i][0], ccw[i][1], 0.5f, 1);
		}
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
		run(h, 0);
		assert_int_equal(trapped(h), 0);
		uint32_t want = cull ? 0 : reverse ? 0xff0000ffu : 0xffff0000u;
		assert_int_equal(px(h, 8, 8), want);
		assert_int_equal(px(h, 40, 40), 0);
	}
}

/* A program that writes only a back colour (gl_BackColor alone: Mesa's
 * VP_RESULT_EN has BFCn without COLn): with two-sided colour on, back faces
 * read it through the colour input; front faces, or two-sided colour off,
 * read the unwritten front output (0, 0, 0, 1). */
static void back_colour_alone_reaches_back_faces(void **state)
{
	struct host *h = *state;
	const float cw[3][2] = { { 4, 4 }, { 30, 4 }, { 4, 30 } };      /* clockwise: a back face */
	static const unsigned bfc[2] = { NV40_VP_OUT_BFC0, NV40_VP_OUT_BFC1 };
	uint32_t in = nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0);
	uint32_t code[2][4];

	fb_state(h, 0, DST_AT);
	m1(h, 0, NV_CURIE_FRONT_FACE, NV40_FRONT_FACE_CCW);
	for (unsigned i = 0; i < 2; i++) {
		/* mov r0, i[col0 + i]; end */
		uint32_t fp[4] = { 0x01001e01 | (NV40_FPI_COL0 + i) << 13, 0x1c9dc801, 0x0001c800,
				   0x0001c800 };
		fp_upload(h, FP_AT, fp, 4);
		m1(h, 0, NV_CURIE_FP_ACTIVE_PROGRAM, FP_AT | NV40_FP_PROGRAM_DMA0);
		host_vp_insn(code[0], NV40_VP_VEC_MOV, NV40_VP_OUT_POS, 0xf, in, in, 0, 0, 0);
		host_vp_insn(code[1], NV40_VP_VEC_MOV, bfc[i], 0xf, in, in, 4, 0, 1);
		vp_upload(h, 0, 60, (const uint32_t (*)[4])code, 2);
		m1(h, 0, NV_CURIE_VP_START_FROM_ID, 60);
		m1(h, 0, NV_CURIE_VP_ATTRIB_EN, 0x11);
		m1(h, 0, NV_CURIE_VP_RESULT_EN, NV40_VP_RESULT_BFC(i));
		for (unsigned two = 0; two < 2; two++) {
			m1(h, 0, NV_CURIE_VERTEX_TWO_SIDE_ENABLE, two);
			fill32(h, DST_AT, RT_W * RT_H, 0);
			m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
			for (unsigned k = 0; k < 3; k++) {
				attr4(h, 0, 4, 0, 0, 1, 1);
				attr4(h, 0, 0, cw[k][0], cw[k][1], 0.5f, 1);
			}
			m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
			run(h, 0);
			assert_int_equal(trapped(h), 0);
			assert_int_equal(px(h, 8, 8), two ? 0xff0000ffu : 0xff000000u);
			assert_int_equal(px(h, 40, 40), 0);
		}
	}
}

/* UNK1E98 = 0x02000000 | offset draws only if that report counted samples. */
static void render_condition_reads_the_query_report(void **state)
{
	struct host *h = *state;
	const float c[4] = { 1, 1, 1, 1 };
	uint8_t *rep = h->sysmem + QRY_AT + 0x80;

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	for (unsigned pass = 0; pass < 3; pass++) {
		nv_wr32le(rep + 8, pass == 1 ? 5 : 0);
		m1(h, 0, NV_CURIE_UNK1E98, pass == 2 ? 0x01000000u : 0x02000000u | (QRY_AT + 0x80));
		fill32(h, DST_AT, RT_W * RT_H, 0);
		quad_at(h, 0, 0, 0, 8, 8, 0.5f, c);
		run(h, 0);
		assert_int_equal(trapped(h), 0);
		assert_int_equal(px(h, 3, 3), pass ? 0xffffffffu : 0);
	}
}

/* Mesa's nv30_push.c path: inline VERTEX_DATA in the VTXFMT layout, a
 * primitive restart as VB_ELEMENT_U32 of the restart index in between. */
static void inline_vertex_data_with_primitive_restart(void **state)
{
	struct host *h = *state;
	const float sq[2][4][2] = {
		{ { 2, 2 }, { 20, 2 }, { 2, 20 }, { 20, 20 } },
		{ { 30, 30 }, { 60, 30 }, { 30, 60 }, { 60, 60 } },
	};

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_VTXFMT, 32 << 8 | 4 << 4 | NV40_VTXFMT_V32_FLOAT);
	m1(h, 0, NV_CURIE_VTXFMT + 12, 32 << 8 | 4 << 4 | NV40_VTXFMT_U8_UNORM);
	m1(h, 0, NV_CURIE_PRIMITIVE_RESTART_ENABLE, 1);
	m1(h, 0, NV_CURIE_PRIMITIVE_RESTART_INDEX, 0xffff);
	fill32(h, DST_AT, RT_W * RT_H, 0);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLE_STRIP);
	for (unsigned q = 0; q < 2; q++) {
		host_emit(h, 0, NV_CMD_NONINC_WORD(SUBC_3D, NV_CURIE_VERTEX_DATA, 4 * 5));
		for (unsigned i = 0; i < 4; i++) {
			host_emit(h, 0, fu(sq[q][i][0]));
			host_emit(h, 0, fu(sq[q][i][1]));
			host_emit(h, 0, fu(0.5f));
			host_emit(h, 0, fu(1.0f));
			host_emit(h, 0, q ? 0xff00ff00u : 0xff0000ffu);   /* bytes R G B A */
		}
		if (!q)
			m1(h, 0, NV_CURIE_VB_ELEMENT_U32, 0xffff);
	}
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < RT_H; y++)
		for (unsigned x = 0; x < RT_W; x++) {
			int a = x >= 2 && x < 20 && y >= 2 && y < 20;
			int b = x >= 30 && x < 60 && y >= 30 && y < 60;
			uint32_t want = a ? 0xffff0000u : b ? 0xff00ff00u : 0;
			if (px(h, x, y) != want)
				fail_msg("(%u,%u) = %08x want %08x", x, y, px(h, x, y), want);
		}
}

/* FP_ACTIVE_PROGRAM re-emitted after the program's memory changed: the new
 * program runs (Mesa patches inline constants this way). */
static void fragment_program_is_refetched_when_rebound(void **state)
{
	struct host *h = *state;
	/* mov r0, {const}; end, the constant after the instruction */
	uint32_t prog[8] = { 0x01001e01, 0x1c9dc802, 0x0001c800, 0x0001c800,
			     fu(1.0f), fu(0.0f), fu(0.0f), fu(1.0f) };
	const float c[4] = { 1, 1, 1, 1 };

	fp_upload(h, FP_AT, prog, 8);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	fill32(h, DST_AT, RT_W * RT_H, 0);
	quad_at(h, 0, 0, 0, 4, 4, 0.5f, c);
	run(h, 0);
	assert_int_equal(px(h, 1, 1), 0xffff0000u);
	prog[4] = fu(0.0f);
	prog[5] = fu(1.0f);
	fp_upload(h, FP_AT, prog, 8);
	m1(h, 0, NV_CURIE_FP_ACTIVE_PROGRAM, FP_AT | NV40_FP_PROGRAM_DMA0);
	quad_at(h, 0, 0, 0, 4, 4, 0.5f, c);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	assert_int_equal(px(h, 1, 1), 0xff00ff00u);
}

/* Lines one pixel wide in the vertex colour over a framebuffer of 0. */
static void line_state(struct host *h)
{
	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_LINE_WIDTH, 8);
	fill32(h, DST_AT, RT_W * RT_H, 0);
}

/* A horizontal line one pixel wide along a row of centres. */
static void line_strip_lights_its_pixels(void **state)
{
	struct host *h = *state;
	const float c[4] = { 1, 1, 1, 1 };

	line_state(h);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_LINE_STRIP);
	float a[4] = { 4, 10.5f, 0.5f, 1 }, b[4] = { 20.5f, 10.5f, 0.5f, 1 }, d[4] = { 20.5f, 30.5f, 0.5f, 1 };
	imm_vertex(h, 0, a, c);
	imm_vertex(h, 0, b, c);
	imm_vertex(h, 0, d, c);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	for (unsigned x = 4; x < 20; x++) {
		assert_int_equal(px(h, x, 10), 0xffffffffu);
		assert_int_equal(px(h, x, 9), 0);
		assert_int_equal(px(h, x, 11), 0);
	}
	assert_int_equal(px(h, 3, 10), 0);
	assert_int_equal(px(h, 20, 20), 0xffffffffu);   /* the vertical segment */
	assert_int_equal(px(h, 21, 20), 0);
	assert_int_equal(px(h, 19, 20), 0);
	assert_int_equal(px(h, 20, 30), 0);
}

/* Lines between pixel centres, in all four directions: by the diamond-exit
 * rule the first pixel is drawn and the last one is not. */
static void lines_draw_their_first_pixel_not_their_last_either_way(void **state)
{
	struct host *h = *state;
	static const int l[4][4] = {             /* x0 y0 x1 y1 */
		{ 4, 4, 20, 4 }, { 20, 8, 4, 8 }, { 30, 4, 30, 20 }, { 34, 20, 34, 4 },
	};
	const float c[4] = { 1, 1, 1, 1 };

	line_state(h);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_LINES);
	for (unsigned i = 0; i < 4; i++) {
		float a[4] = { l[i][0] + 0.5f, l[i][1] + 0.5f, 0.5f, 1 };
		float b[4] = { l[i][2] + 0.5f, l[i][3] + 0.5f, 0.5f, 1 };
		imm_vertex(h, 0, a, c);
		imm_vertex(h, 0, b, c);
	}
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	for (unsigned i = 0; i < 4; i++) {
		int dx = (l[i][2] > l[i][0]) - (l[i][2] < l[i][0]);
		int dy = (l[i][3] > l[i][1]) - (l[i][3] < l[i][1]);
		for (int k = 0; k <= 16; k++) {
			unsigned x = (unsigned)(l[i][0] + dx * k), y = (unsigned)(l[i][1] + dy * k);
			if (px(h, x, y) != (k < 16 ? 0xffffffffu : 0))
				fail_msg("line %u: (%u,%u) = %08x", i, x, y, px(h, x, y));
		}
	}
}

/* LINE_STIPPLE_PATTERN pattern << 16 | (factor - 1), gallium's encoding
 * that Mesa's nv30 passes on: bit i (LSB first) covers pixels
 * [i * factor, (i + 1) * factor) from the line's start. */
static void stippled_line_follows_its_pattern(void **state)
{
	struct host *h = *state;
	const float c[4] = { 1, 1, 1, 1 };

	line_state(h);
	m1(h, 0, NV_CURIE_LINE_STIPPLE_ENABLE, 1);
	m1(h, 0, NV_CURIE_LINE_STIPPLE_PATTERN, 0x0f35u << 16 | 1);     /* factor 2 */
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_LINES);
	float a[4] = { 0, 5.5f, 0.5f, 1 }, b[4] = { 64, 5.5f, 0.5f, 1 };
	imm_vertex(h, 0, a, c);
	imm_vertex(h, 0, b, c);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	for (unsigned x = 0; x < 64; x++) {
		int on = 0x0f35u >> ((x / 2) & 15) & 1;
		if (px(h, x, 5) != (on ? 0xffffffffu : 0))
			fail_msg("x %u = %08x, want %d", x, px(h, x, 5), on);
	}
}

/* The polygon stipple masks filled polygons only: with an all-zero pattern
 * a filled quad draws nothing, while a line, a point and the edges of a
 * polygon drawn in LINE mode are whole. */
static void polygon_stipple_leaves_lines_and_points_alone(void **state)
{
	struct host *h = *state;
	const float c[4] = { 1, 1, 1, 1 };
	uint32_t zero[32] = { 0 };

	line_state(h);
	m1(h, 0, NV_CURIE_POINT_SIZE, fu(3.0f));
	mn(h, 0, NV_CURIE_POLYGON_STIPPLE_PATTERN, 32, zero);
	m1(h, 0, NV_CURIE_POLYGON_STIPPLE_ENABLE, 1);
	quad_at(h, 0, 0, 0, 64, 64, 0.5f, c);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_LINES);
	float a[4] = { 4, 5.5f, 0.5f, 1 }, b[4] = { 40, 5.5f, 0.5f, 1 };
	imm_vertex(h, 0, a, c);
	imm_vertex(h, 0, b, c);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_POINTS);
	float p[4] = { 50.5f, 20.5f, 0.5f, 1 };
	imm_vertex(h, 0, p, c);
	m1(h, 0, NV_CURIE_POLYGON_MODE_FRONT, NV40_POLYGON_MODE_LINE);
	m1(h, 0, NV_CURIE_POLYGON_MODE_BACK, NV40_POLYGON_MODE_LINE);
	quad_at(h, 0, 10.5f, 30.5f, 30.5f, 50.5f, 0.5f, c);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < RT_H; y++)
		for (unsigned x = 0; x < RT_W; x++) {
			int line = y == 5 && x >= 4 && x < 40;
			int point = x >= 49 && x < 52 && y >= 19 && y < 22;
			int edge = ((y == 30 || y == 50) && x >= 10 && x <= 30) ||
				   ((x == 10 || x == 30) && y >= 30 && y <= 50);
			uint32_t v = px(h, x, y);
			if (line || point)
				assert_int_equal(v, 0xffffffffu);
			else if (!edge)
				assert_int_equal(v, 0);
		}
	assert_int_equal(px(h, 20, 30), 0xffffffffu);     /* edges, away from corners */
	assert_int_equal(px(h, 30, 40), 0xffffffffu);
}

/* piglit linestipple's strip and loops: the stipple counter runs on from
 * line to line of a strip or loop (GL resets it at the primitive's start
 * and at each line of LINES), one count a fragment along the major axis;
 * the ends are pixel centres, each shared pixel drawn by the line leaving it. */
static void line_stipple_counts_on_along_strips_and_loops(void **state)
{
	struct host *h = *state;
	static const struct {
		uint32_t prim, factor, pattern;
		unsigned n;
		int v[4][2];
	} t[3] = {
		{ NV40_PRIM_LINE_STRIP, 1, 0x0f8f, 3, { { 0, 6 }, { 24, 6 }, { 24, 30 } } },
		{ NV40_PRIM_LINE_LOOP, 1, 0x8cef, 4, { { 26, 0 }, { 46, 0 }, { 46, 20 }, { 26, 20 } } },
		{ NV40_PRIM_LINE_LOOP, 3, 0xf731, 4, { { 0, 35 }, { 63, 35 }, { 63, 36 }, { 0, 36 } } },
	};
	const float c[4] = { 1, 1, 1, 1 };

	line_state(h);
	m1(h, 0, NV_CURIE_LINE_STIPPLE_ENABLE, 1);
	for (unsigned i = 0; i < 3; i++) {
		m1(h, 0, NV_CURIE_LINE_STIPPLE_PATTERN, t[i].pattern << 16 | (t[i].factor - 1));
		fill32(h, DST_AT, RT_W * RT_H, 0);
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, t[i].prim);
		for (unsigned k = 0; k < t[i].n; k++) {
			float p[4] = { t[i].v[k][0] + 0.5f, t[i].v[k][1] + 0.5f, 0.5f, 1 };
			imm_vertex(h, 0, p, c);
		}
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
		run(h, 0);
		assert_int_equal(trapped(h), 0);
		unsigned lines = t[i].prim == NV40_PRIM_LINE_LOOP ? t[i].n : t[i].n - 1;
		uint32_t frag = 0;
		for (unsigned l = 0; l < lines; l++) {
			const int *a = t[i].v[l], *b = t[i].v[(l + 1) % t[i].n];
			int dx = (b[0] > a[0]) - (b[0] < a[0]), dy = (b[1] > a[1]) - (b[1] < a[1]);
			for (int x = a[0], y = a[1]; x != b[0] || y != b[1]; x += dx, y += dy, frag++) {
				int on = t[i].pattern >> ((frag / t[i].factor) & 15) & 1;
				if (px(h, (unsigned)x, (unsigned)y) != (on ? 0xffffffffu : 0))
					fail_msg("case %u line %u: (%d,%d) = %08x, want %d", i, l, x, y,
						 px(h, (unsigned)x, (unsigned)y), on);
			}
		}
	}
}

/* POINT_SIZE 4 at (10, 10): the 4x4 pixels around it. */
static void points_are_squares_of_point_size(void **state)
{
	struct host *h = *state;
	const float c[4] = { 1, 1, 1, 1 };

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_POINT_SIZE, fu(4.0f));
	fill32(h, DST_AT, RT_W * RT_H, 0);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_POINTS);
	float a[4] = { 10, 10, 0.5f, 1 }, b[4] = { 40.5f, 40.5f, 0.5f, 1 };
	imm_vertex(h, 0, a, c);
	imm_vertex(h, 0, b, c);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < RT_H; y++)
		for (unsigned x = 0; x < RT_W; x++) {
			int on = (x >= 8 && x < 12 && y >= 8 && y < 12) ||
				 (x >= 38 && x < 42 && y >= 38 && y < 42);   /* 38.5 .. 42.5, top-left */
			if (px(h, x, y) != (on ? 0xffffffffu : 0))
				fail_msg("(%u,%u) = %08x, want %d", x, y, px(h, x, y), on);
		}
}

/* A vertex program writing PSZ (VP_RESULT_EN PSZ) sizes its points, within
 * the 1..64 the hardware draws: 0.001 is one pixel, 3 three, 100 sixty-four. */
static void program_point_size_is_clamped_to_1_to_64(void **state)
{
	struct host *h = *state;
	static const struct { float x, y, size; unsigned x0, y0, n; } pt[3] = {
		{ 10.5f, 10.5f, 0.001f, 10, 10, 1 }, { 30.5f, 10.5f, 3.0f, 29, 9, 3 },
		{ 32.0f, 48.0f, 100.0f, 0, 16, 64 },
	};
	uint32_t in = nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0);
	uint32_t code[3][4];

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	host_vp_insn(code[0], NV40_VP_VEC_MOV, NV40_VP_OUT_POS, 0xf, in, in, 0, 0, 0);
	host_vp_insn(code[1], NV40_VP_VEC_MOV, NV40_VP_OUT_PSZ, 0x8, in, in, 1, 0, 0);
	host_vp_insn(code[2], NV40_VP_VEC_MOV, NV40_VP_OUT_COL0, 0xf, in, in, 3, 0, 1);
	vp_upload(h, 0, 70, (const uint32_t (*)[4])code, 3);
	m1(h, 0, NV_CURIE_VP_START_FROM_ID, 70);
	m1(h, 0, NV_CURIE_VP_ATTRIB_EN, 0xb);
	m1(h, 0, NV_CURIE_VP_RESULT_EN, NV40_VP_RESULT_COL0 | NV40_VP_RESULT_PSZ);
	m1(h, 0, NV_CURIE_POINT_SIZE, fu(8.0f));            /* not the size drawn */
	for (unsigned i = 0; i < 3; i++) {
		fill32(h, DST_AT, RT_W * RT_H, 0);
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_POINTS);
		attr4(h, 0, 3, 1, 1, 1, 1);
		attr4(h, 0, 1, pt[i].size, 0, 0, 1);
		attr4(h, 0, 0, pt[i].x, pt[i].y, 0.5f, 1);
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
		run(h, 0);
		assert_int_equal(trapped(h), 0);
		for (unsigned y = 0; y < RT_H; y++)
			for (unsigned x = 0; x < RT_W; x++) {
				int on = x >= pt[i].x0 && x < pt[i].x0 + pt[i].n &&
					 y >= pt[i].y0 && y < pt[i].y0 + pt[i].n;
				if (px(h, x, y) != (on ? 0xffffffffu : 0))
					fail_msg("size %g: (%u,%u) = %08x, want %d", (double)pt[i].size,
						 x, y, px(h, x, y), on);
			}
	}
}

/* Stencil REPLACE where a quad drew, then EQUAL lets a full-screen quad
 * through only there; alpha test GREATER against ALPHA_FUNC_REF / 255. */
static void stencil_and_alpha_tests_select_fragments(void **state)
{
	struct host *h = *state;
	const float white[4] = { 1, 1, 1, 1 }, grey[4] = { 0.5f, 0.5f, 0.5f, 0.25f };

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	fill32(h, DST_AT, RT_W * RT_H, 0);
	fill32(h, ZETA_AT, RT_W * RT_H, 0xffffff00u);
	uint32_t st[8] = { 1, 0xff, NV40_CMP_ALWAYS, 1, 0xff, NV40_STENCIL_KEEP, NV40_STENCIL_KEEP,
			   NV40_STENCIL_REPLACE };
	mn(h, 0, NV_CURIE_STENCIL_ENABLE, 8, st);
	m1(h, 0, NV_CURIE_COLOR_MASK, 0);
	quad_at(h, 0, 8, 8, 24, 24, 0.5f, white);
	m1(h, 0, NV_CURIE_COLOR_MASK, 0x01010101);
	st[2] = NV40_CMP_EQUAL;
	st[7] = NV40_STENCIL_KEEP;
	mn(h, 0, NV_CURIE_STENCIL_ENABLE, 8, st);
	quad_at(h, 0, 0, 0, 64, 64, 0.5f, white);
	m1(h, 0, NV_CURIE_STENCIL_ENABLE, 0);
	m1(h, 0, NV_CURIE_ALPHA_FUNC_ENABLE, 1);
	m1(h, 0, NV_CURIE_ALPHA_FUNC_FUNC, NV40_CMP_GREATER);
	m1(h, 0, NV_CURIE_ALPHA_FUNC_REF, 0x80);
	quad_at(h, 0, 40, 40, 48, 48, 0.5f, grey);         /* alpha 0.25 > 0.5: no */
	m1(h, 0, NV_CURIE_ALPHA_FUNC_REF, 0x20);
	quad_at(h, 0, 50, 50, 58, 58, 0.5f, grey);         /* 0.25 > 0.125: yes */
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < RT_H; y++)
		for (unsigned x = 0; x < RT_W; x++) {
			int a = x >= 8 && x < 24 && y >= 8 && y < 24;
			int b = x >= 50 && x < 58 && y >= 50 && y < 58;
			uint32_t want = a ? 0xffffffffu : b ? 0x40808080u : 0;
			assert_int_equal(px(h, x, y), want);
			uint32_t z = nv_rd32le(vram(h, ZETA_AT + y * RT_PITCH + 4 * x));
			assert_int_equal(z, a ? 0xffffff01u : 0xffffff00u);
		}
}

/* SHADE_MODEL FLAT: the colour of the last vertex, or the first one with
 * FLATSHADE_FIRST; texture coordinates would still interpolate. */
static void flat_shading_takes_the_provoking_vertex(void **state)
{
	struct host *h = *state;
	const double t[3][2] = { { 4, 4 }, { 40, 4 }, { 4, 40 } };
	const float col[3][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } };

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_SHADE_MODEL, NV40_SHADE_FLAT);
	for (unsigned first = 0; first < 2; first++) {
		m1(h, 0, NV_CURIE_FLATSHADE_FIRST, first);
		fill32(h, DST_AT, RT_W * RT_H, 0);
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
		for (unsigned i = 0; i < 3; i++) {
			float p[4] = { (float)t[i][0], (float)t[i][1], 0.5f, 1 };
			imm_vertex(h, 0, p, col[i]);
		}
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
		run(h, 0);
		assert_int_equal(trapped(h), 0);
		uint32_t want = first ? 0xffff0000u : 0xff0000ffu;
		for (unsigned y = 0; y < RT_H; y++)
			for (unsigned x = 0; x < RT_W; x++)
				assert_int_equal(px(h, x, y), ref_covered(t, x + 0.5, y + 0.5) ? want : 0);
	}
}

/* piglit clipflat: flat shading survives clipping (the user clip distance
 * in FOGC.y cuts at x = 20), quads take their last vertex's colour and
 * polygons their first one's whatever FLATSHADE_FIRST says (Mesa's nv30
 * reports quads not following the provoking-vertex convention). */
static void clipped_flat_quads_and_polygons_keep_their_provoking_colour(void **state)
{
	struct host *h = *state;
	const float v[4][2] = { { 4, 4 }, { 40, 4 }, { 40, 40 }, { 4, 40 } };
	const float col[4][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 1, 1 } };
	static const struct { uint32_t prim; uint32_t want; } t[2] = {
		{ NV40_PRIM_QUADS, 0xffffffffu }, { NV40_PRIM_POLYGON, 0xffff0000u },
	};

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_four(h, 0);
	m1(h, 0, NV_CURIE_VP_CLIP_PLANES_ENABLE, NV40_VP_CLIP_PLANE(0));
	m1(h, 0, NV_CURIE_SHADE_MODEL, NV40_SHADE_FLAT);
	for (unsigned i = 0; i < 4; i++) {
		m1(h, 0, NV_CURIE_FLATSHADE_FIRST, i & 1);
		fill32(h, DST_AT, RT_W * RT_H, 0);
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, t[i / 2].prim);
		for (unsigned k = 0; k < 4; k++) {
			attr4(h, 0, 3, col[k][0], col[k][1], col[k][2], col[k][3]);
			attr4(h, 0, 1, 0, 20.0f - v[k][0], 0, 1);
			attr4(h, 0, 0, v[k][0], v[k][1], 0.5f, 1);
		}
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
		run(h, 0);
		assert_int_equal(trapped(h), 0);
		for (unsigned y = 0; y < RT_H; y++)
			for (unsigned x = 0; x < RT_W; x++) {
				int in = x >= 4 && x < 20 && y >= 4 && y < 40;
				if (px(h, x, y) != (in ? t[i / 2].want : 0))
					fail_msg("prim %u first %u: (%u,%u) = %08x", t[i / 2].prim, i & 1,
						 x, y, px(h, x, y));
			}
	}
}

/* Polygon offset pulls a coplanar second surface in front under LESS. */
static void polygon_offset_wins_the_coplanar_depth_test(void **state)
{
	struct host *h = *state;
	const float red[4] = { 1, 0, 0, 1 }, blue[4] = { 0, 0, 1, 1 };

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_DEPTH_TEST_ENABLE, 1);
	m1(h, 0, NV_CURIE_DEPTH_WRITE_ENABLE, 1);
	m1(h, 0, NV_CURIE_DEPTH_FUNC, NV40_CMP_LESS);
	fill32(h, DST_AT, RT_W * RT_H, 0);
	fill32(h, ZETA_AT, RT_W * RT_H, 0xffffff00u);
	quad_at(h, 0, 0, 0, 32, 32, 0.5f, red);
	quad_at(h, 0, 0, 0, 32, 16, 0.5f, blue);             /* coplanar: fails LESS */
	m1(h, 0, NV_CURIE_POLYGON_OFFSET_FILL_ENABLE, 1);
	m1(h, 0, NV_CURIE_POLYGON_OFFSET_FACTOR, fu(0.0f));
	m1(h, 0, NV_CURIE_POLYGON_OFFSET_UNITS, fu(-8.0f));  /* Mesa: units * 2 */
	quad_at(h, 0, 0, 16, 32, 32, 0.5f, blue);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	assert_int_equal(px(h, 5, 5), 0xffff0000u);
	assert_int_equal(px(h, 5, 20), 0xff0000ffu);
}

/* ---- hostile input ---- */

static void hostile_vertices_trap_or_draw_nothing_but_never_crash(void **state)
{
	struct host *h = *state;
	const float c[4] = { 1, 1, 1, 1 };
	const float bad[][4] = {
		{ NAN, 0, 0, 1 }, { INFINITY, 5, 0, 1 }, { 1e30f, -1e30f, 0, 1 }, { 5, 5, 0, 0 },
		{ 5, 5, 0, -1 }, { 3e38f, 3e38f, 3e38f, 1e-38f },
	};

	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
		float a[4] = { 1, 1, 0, 1 }, b[4] = { 60, 2, 0, 1 };
		imm_vertex(h, 0, a, c);
		imm_vertex(h, 0, b, c);
		imm_vertex(h, 0, bad[i], c);
		m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	}
	run(h, 0);
	assert_int_equal(trapped(h), 0);

	/* a vertex buffer read past its ctxdma traps */
	m1(h, 0, NV_CURIE_VTXFMT, 32 << 8 | 4 << 4 | NV40_VTXFMT_V32_FLOAT);
	m1(h, 0, NV_CURIE_VTXBUF, HOST_VRAM - 40);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	m1(h, 0, NV_CURIE_VB_VERTEX_BATCH, 255u << 24 | 0);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	run(h, 0);
	assert_int_equal(trapped(h), NV_PGRAPH_NSOURCE_DMA_R_PROTECTION);
	sim_wr32(h->s, NV_PGRAPH_INTR, ~0u);

	/* indices far beyond the buffer, through the index base */
	m1(h, 0, NV_CURIE_VTXBUF, VB_AT);
	m1(h, 0, NV_CURIE_VB_ELEMENT_BASE, 0x7fffffff);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	m1(h, 0, NV_CURIE_VB_ELEMENT_U32, 0xffffffffu);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	run(h, 0);
	assert_true(trapped(h) != 0);
	sim_wr32(h->s, NV_PGRAPH_INTR, ~0u);
}

/* 65535 vertices of degenerate and tiny triangles in 256-vertex batches. */
static void a_65535_vertex_batch_completes(void **state)
{
	struct host *h = *state;

	for (unsigned i = 0; i < 4096; i++) {
		float w[8] = { (float)(i % 64), (float)((i / 64) % 64), 0.5f, 1, 1, 1, 1, 1 };
		for (unsigned k = 0; k < 8; k++)
			nv_wr32le(vram(h, VB_AT + 32 * i + 4 * k), fu(w[k]));
	}
	fp_upload(h, FP_AT, fp_col0, 4);
	fb_state(h, 0, DST_AT);
	vp_passthrough(h, 0);
	m1(h, 0, NV_CURIE_VTXFMT, 0 << 8 | 4 << 4 | NV40_VTXFMT_V32_FLOAT);   /* stride 0 */
	m1(h, 0, NV_CURIE_VTXFMT + 12, 32 << 8 | 4 << 4 | NV40_VTXFMT_V32_FLOAT);
	m1(h, 0, NV_CURIE_VTXBUF, VB_AT);
	m1(h, 0, NV_CURIE_VTXBUF + 12, VB_AT + 16);
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLE_STRIP);
	unsigned left = 65535, start = 0;
	host_emit(h, 0, NV_CMD_NONINC_WORD(SUBC_3D, NV_CURIE_VB_VERTEX_BATCH, 256));
	while (left) {
		unsigned n = left > 256 ? 256 : left;
		host_emit(h, 0, (n - 1) << 24 | (start % 4096));
		start += n;
		left -= n;
	}
	m1(h, 0, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
}

/* ---- long draws: pieces, and a reset in the middle ---- */

#define LONG_PX 64               /* the long draw covers LONG_PX x LONG_PX: enough for the helpers */

/* sim_run on a thread of its own: the test's thread is the host meanwhile. */
struct bg_run {
	pthread_t th;
	struct sim *s;
	int done;
};

static void *bg_run_main(void *arg)
{
	struct bg_run *r = arg;
	sim_run(r->s);
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void bg_start(struct bg_run *r, struct sim *s)
{
	r->s = s;
	r->done = 0;
	assert_int_equal(pthread_create(&r->th, NULL, bg_run_main, r), 0);
}

/* Channel c's long draw: the looping program over a red square and a
 * green quarter of it, into dst cleared first. */
static void long_draw(struct host *h, unsigned c, uint32_t dst)
{
	const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
	fill32(h, dst, RT_W * RT_H, 0);
	quad_at(h, c, 0, 0, LONG_PX, LONG_PX, 0.5f, red);
	quad_at(h, c, LONG_PX / 2, 0, LONG_PX, LONG_PX / 2, 0.5f, green);
}

static void long_chan(struct host *h, unsigned c, uint32_t dst)
{
	chan_3d(h, c);
	fb_state(h, c, dst);
	vp_passthrough(h, c);
}

static void draw_interrupted_gives_the_pixels_of_an_uninterrupted_one(unsigned threads)
{
	struct host hh, *h = &hh;
	static uint8_t ref[RT_W * RT_H * 4];
	struct bg_run r;
	unsigned busy = 0, named = 0;

	host_new_threads(h, 0x43, 1, threads);
	nvt_fploop(vram(h, FP_AT));
	long_chan(h, 0, DST_AT);
	long_draw(h, 0, DST_AT);
	run(h, 0);
	assert_int_equal(trapped(h), 0);
	memcpy(ref, vram(h, DST_AT), sizeof(ref));
	assert_int_equal(px(h, 1, LONG_PX - 1), 0xffff0000u);
	assert_int_equal(px(h, LONG_PX - 1, 0), 0xff00ff00u);

	/* again, with the host reading registers all along */
	long_draw(h, 0, DST_AT);
	host_kick(h, 0);
	bg_start(&r, h->s);
	while (!__atomic_load_n(&r.done, __ATOMIC_ACQUIRE)) {
		if (sim_rd32(h->s, NV_PGRAPH_STATUS) & NV_PGRAPH_STATUS_BUSY) {
			busy++;
			uint32_t a = sim_rd32(h->s, NV_PGRAPH_TRAPPED_ADDR);
			named += NV_PGRAPH_TRAPPED_ADDR_CHID(a) == 0 && NV_PGRAPH_TRAPPED_ADDR_SUBC(a) == SUBC_3D;
		}
	}
	pthread_join(r.th, NULL);
	/* the host got in while the draw ran, and saw it as the 3D method */
	assert_true(busy >= 1);
	assert_int_equal(named, busy);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_STATUS), 0);
	assert_int_equal(trapped(h), 0);
	assert_memory_equal(vram(h, DST_AT), ref, sizeof(ref));
	host_free(h);
}

static void draw_interrupted_by_mmio_gives_the_same_pixels(void **state)
{
	(void)state;
	draw_interrupted_gives_the_pixels_of_an_uninterrupted_one(1);
}

static void draw_interrupted_by_mmio_with_fragment_threads_gives_the_same_pixels(void **state)
{
	(void)state;
	draw_interrupted_gives_the_pixels_of_an_uninterrupted_one(2);
}

/* What nvd's watchdog does (nvd/fifo.c): reset PGRAPH through PMC, take
 * the channel off PFIFO, set PGRAPH up again. */
static void recover(struct host *h, unsigned chid)
{
	struct sim *s = h->s;
	sim_wr32(s, NV_PMC_ENABLE, ~NV_PMC_UNIT_PGRAPH);
	sim_wr32(s, NV_PMC_ENABLE, ~0u);
	sim_wr32(s, NV_PFIFO_MODE, sim_rd32(s, NV_PFIFO_MODE) & ~(1u << chid));
	if ((sim_rd32(s, NV_PFIFO_CACHE1_PUSH1) & 0x1f) == chid)
		sim_wr32(s, NV_PFIFO_CACHE1_PUSH1, NV40_FIFO_CHID_NONE | NV_PFIFO_CACHE1_PUSH1_DMA);
	sim_wr32(s, NV_PGRAPH_INTR, ~0u);
	sim_wr32(s, NV_PGRAPH_INTR_EN, ~0u);
	sim_wr32(s, NV_PGRAPH_CTXCTL_CUR, 0);
	sim_wr32(s, NV_PGRAPH_FIFO, 1);
}

static void reset_mid_draw(unsigned threads)
{
	struct host hh, *h = &hh;
	const float blue[4] = { 0, 0, 1, 1 };
	const uint32_t dst1 = DST_AT + 0x40000;
	struct bg_run r;
	int saw_busy = 0;

	host_new_threads(h, 0x43, 1, threads);
	nvt_fploop(vram(h, FP_AT));
	fp_upload(h, FP_AT + 0x1000, fp_col0, 4);
	/* channel 1 sets its state up and draws: its context is saved when
	 * channel 0 comes */
	long_chan(h, 1, dst1);
	m1(h, 1, NV_CURIE_FP_ACTIVE_PROGRAM, (FP_AT + 0x1000) | NV40_FP_PROGRAM_DMA0);
	fill32(h, dst1, RT_W * RT_H, 0);
	run(h, 1);
	long_chan(h, 0, DST_AT);
	long_draw(h, 0, DST_AT);
	host_kick(h, 0);
	bg_start(&r, h->s);
	while (!saw_busy && !__atomic_load_n(&r.done, __ATOMIC_ACQUIRE))
		saw_busy = !!(sim_rd32(h->s, NV_PGRAPH_STATUS) & NV_PGRAPH_STATUS_BUSY);
	assert_true(saw_busy);
	assert_int_equal(NV_PGRAPH_TRAPPED_ADDR_CHID(sim_rd32(h->s, NV_PGRAPH_TRAPPED_ADDR)), 0);
	recover(h, 0);
	pthread_join(r.th, NULL);

	/* the draw was abandoned, quietly */
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_STATUS), 0);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_INTR), 0);
	unsigned untouched = 0;
	for (unsigned y = 0; y < LONG_PX; y++)
		for (unsigned x = 0; x < LONG_PX; x++)
			untouched += px(h, x, y) == 0;
	assert_true(untouched > 0);

	/* channel 1 goes on from its saved context: only vertices now */
	quad_at(h, 1, 8, 8, 16, 16, 0.5f, blue);
	run(h, 1);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < 24; y++)
		for (unsigned x = 0; x < 24; x++) {
			int in = x >= 8 && x < 16 && y >= 8 && y < 16;
			assert_int_equal(nv_rd32le(vram(h, dst1 + y * RT_PITCH + 4 * x)),
					 in ? 0xff0000ffu : 0);
		}
	/* and channel 0 runs no more */
	uint32_t left = px(h, LONG_PX - 1, LONG_PX - 1);
	sim_run(h->s);
	assert_int_equal(px(h, LONG_PX - 1, LONG_PX - 1), left);
	host_free(h);
}

static void pmc_reset_mid_draw_abandons_it_and_other_contexts_survive(void **state)
{
	(void)state;
	reset_mid_draw(1);
}

static void pmc_reset_mid_draw_with_fragment_threads_abandons_it(void **state)
{
	(void)state;
	reset_mid_draw(2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(blit_linear_to_linear_is_a_byte_exact_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(blit_swizzled_to_linear_is_a_byte_exact_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(blit_swizzled_to_swizzled_is_a_byte_exact_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(flat_triangle_covers_exactly_the_top_left_rule_pixels, setup, teardown),
		cmocka_unit_test_setup_teardown(shared_edges_hit_each_pixel_once, setup, teardown),
		cmocka_unit_test_setup_teardown(interpolated_colour_is_perspective_correct_within_1_lsb, setup, teardown),
		cmocka_unit_test_setup_teardown(depth_test_less_keeps_the_nearer_surface_in_either_order, setup, teardown),
		cmocka_unit_test_setup_teardown(blend_src_alpha_over_destination_within_1_lsb, setup, teardown),
		cmocka_unit_test_setup_teardown(scissor_and_colour_mask_limit_the_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(occlusion_query_counts_the_covered_pixels, setup, teardown),
		cmocka_unit_test_setup_teardown(context_switch_inside_a_quad_leaves_both_channels_right, setup, teardown),
		cmocka_unit_test_setup_teardown(indexed_strip_and_fan_equal_the_triangle_list, setup, teardown),
		cmocka_unit_test_setup_teardown(user_clip_distance_cuts_the_triangle, setup, teardown),
		cmocka_unit_test_setup_teardown(culling_and_two_sided_colour_follow_the_winding, setup, teardown),
		cmocka_unit_test_setup_teardown(back_colour_alone_reaches_back_faces, setup, teardown),
		cmocka_unit_test_setup_teardown(render_condition_reads_the_query_report, setup, teardown),
		cmocka_unit_test_setup_teardown(inline_vertex_data_with_primitive_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(fragment_program_is_refetched_when_rebound, setup, teardown),
		cmocka_unit_test_setup_teardown(line_strip_lights_its_pixels, setup, teardown),
		cmocka_unit_test_setup_teardown(lines_draw_their_first_pixel_not_their_last_either_way, setup, teardown),
		cmocka_unit_test_setup_teardown(stippled_line_follows_its_pattern, setup, teardown),
		cmocka_unit_test_setup_teardown(line_stipple_counts_on_along_strips_and_loops, setup, teardown),
		cmocka_unit_test_setup_teardown(polygon_stipple_leaves_lines_and_points_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(points_are_squares_of_point_size, setup, teardown),
		cmocka_unit_test_setup_teardown(program_point_size_is_clamped_to_1_to_64, setup, teardown),
		cmocka_unit_test_setup_teardown(stencil_and_alpha_tests_select_fragments, setup, teardown),
		cmocka_unit_test_setup_teardown(flat_shading_takes_the_provoking_vertex, setup, teardown),
		cmocka_unit_test_setup_teardown(clipped_flat_quads_and_polygons_keep_their_provoking_colour, setup, teardown),
		cmocka_unit_test_setup_teardown(polygon_offset_wins_the_coplanar_depth_test, setup, teardown),
		cmocka_unit_test_setup_teardown(hostile_vertices_trap_or_draw_nothing_but_never_crash, setup, teardown),
		cmocka_unit_test_setup_teardown(a_65535_vertex_batch_completes, setup, teardown),
		cmocka_unit_test(draw_interrupted_by_mmio_gives_the_same_pixels),
		cmocka_unit_test(draw_interrupted_by_mmio_with_fragment_threads_gives_the_same_pixels),
		cmocka_unit_test(pmc_reset_mid_draw_abandons_it_and_other_contexts_survive),
		cmocka_unit_test(pmc_reset_mid_draw_with_fragment_threads_abandons_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
