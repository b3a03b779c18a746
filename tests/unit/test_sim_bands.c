/* The 3D engine's fragment threads (sim/3d/bands.c): the same push buffer
 * rendered with 1 to 4 threads leaves the same colour buffer, depth
 * buffer and occlusion count, byte for byte.  The scene crosses band
 * borders everywhere: random overlapping triangles (depth tested and
 * written, blended, colours interpolated), a small draw that stays on the
 * worker, a wide stippled line loop, a full-screen one, a query read
 * between draws; then draws the threads may not take together: triangles
 * into a texture and a quad sampling it right after, a quad written at
 * another origin (VIEWPORT_TX_ORIGIN) over the same buffer; M2MF copies
 * between draws, into a texture or over the program of a queued draw, out
 * of the colour buffer a queued draw writes (each fails unless the copy
 * waits for the draws) and between memory no draw touches; a program
 * drawn into the colour buffer and run right after; a clear large
 * enough for the threads to share, under a scissor and channel masks, and
 * a draw over it.  sim_bands_rows itself covers every row once, a band's
 * rows on one thread, and shares only large areas; a slow helper leaves
 * its bands to the caller once the batch is closed.  And the compiled
 * ROP's early depth write: taken for a program that cannot kill, never
 * for one that kills, the interpreter's bytes either way. */
#include "sim-host.h"
#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/fp-isa.h"
#include "hw/tex.h"
#include "sim/3d/bands.h"
#include "sim/3d/jit.h"
#include "sim/3d/pipe.h"

#include <pthread.h>
#include <unistd.h>

#define SUBC_3D 7
#define SUBC_M2MF 1
#define H_3D    0xbeef3097u
#define H_M2MF  0xbeef3901u
#define H_VRAM  0xbeef0201u
#define H_SYS   0xbeef0202u
#define OBJ_3D  HOST_OBJ(2)
#define OBJ_M2MF HOST_OBJ(3)

#define FP_AT   0x010000u
#define FPT_AT  0x010100u        /* the texturing program */
#define FPK_AT  0x010200u        /* the killing one */
#define FPC_AT  0x010300u        /* fp_col0 again (copies_between_draws overwrites FP_AT) */
#define TEX_AT  0x100000u        /* TEX_W x TEX_W A8R8G8B8, linear */
#define TEX_W   64
#define DST_AT  0x200000u
#define ZETA_AT 0x300000u
#define QRY_AT  0x300000u        /* system memory */
#define BIG_AT  0x400000u        /* BIG_W x BIG_H A8R8G8B8, cleared */
#define BIGZ_AT 0x480000u        /* its Z24S8 */
#define BIG_W   512
#define BIG_H   200
#define SRC_AT  0x500000u        /* bytes the copies bring in */
#define OUT_AT  0x508000u        /* and where they take the colour buffer's rows */
#define FAR_AT  0x510000u        /* what a copy between memory no draw touches writes */
#define COPY_ROWS 12
#define PRG_Y   (RT_H - 1)       /* the colour buffer's row a draw writes a program into */

#define RT_W 160
#define RT_H 120
#define RT_PITCH (RT_W * 4)
#define NTRI 120

static void m1(struct host *h, uint32_t mthd, uint32_t data)
{
	host_mthd(h, 0, SUBC_3D, mthd, data);
}

static void mn(struct host *h, uint32_t mthd, unsigned n, const uint32_t *d)
{
	host_emit(h, 0, NV_CMD_INC_WORD(SUBC_3D, mthd, n));
	for (unsigned i = 0; i < n; i++)
		host_emit(h, 0, d[i]);
}

static uint32_t fu(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* mov r0, i[col0]; end */
static const uint32_t fp_col0[4] = { 0x01003e01, 0x1c9dc801, 0x0001c800, 0x0001c800 };
/* texr r0, i[tex0], texture[0]; end */
static const uint32_t fp_tex[8] = {
	0x17009e00, 0x1c9dc801, 0x0001c800, 0x3fe1c800,
	0x01401e81, 0x1c9dc800, 0x0001c800, 0x0001c800,
};

/* kil (always); mov r0, i[col0]; end */
static const uint32_t fp_kil[8] = {
	(uint32_t)NV40_FP_OP_KIL << 24 | 1u << 30, 0x1c9dc801, 0x0001c800, 0x0001c800,
	0x01003e01, 0x1c9dc801, 0x0001c800, 0x0001c800,
};

/* The vertex program o[hpos] = a[0], o[out] = a[input] at slot `at`,
 * started, with its attributes and VP_RESULT_EN result. */
static void vp_pass(struct host *h, unsigned at, unsigned out, unsigned input, uint32_t result)
{
	uint32_t code[2][4];
	uint32_t in = nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0);

	host_vp_insn(code[0], NV40_VP_VEC_MOV, NV40_VP_OUT_POS, 0xf, in, in, 0, 0, 0);
	host_vp_insn(code[1], NV40_VP_VEC_MOV, out, 0xf, in, in, input, 0, 1);
	m1(h, NV_CURIE_VP_UPLOAD_FROM_ID, at);
	for (unsigned i = 0; i < 2; i++)
		mn(h, NV_CURIE_VP_UPLOAD_INST, 4, code[i]);
	m1(h, NV_CURIE_VP_START_FROM_ID, at);
	m1(h, NV_CURIE_VP_ATTRIB_EN, 1u | 1u << input);
	m1(h, NV_CURIE_VP_RESULT_EN, result);
}

/* o[hpos] = a[0], o[col0] = a[3]; window coordinates (viewport identity) */
static void scene_state(struct host *h)
{
	host_grobj(h, OBJ_3D, NV_CLASS_CURIE_NV40);
	host_grobj(h, OBJ_M2MF, NV_CLASS_M2MF);
	host_chan_new(h, 0, HOST_PB_DMA);
	host_ramht_add(h, H_3D, 0, NV_ENGINE_GR, OBJ_3D);
	host_ramht_add(h, H_M2MF, 0, NV_ENGINE_GR, OBJ_M2MF);
	host_ramht_add(h, H_VRAM, 0, NV_ENGINE_SW, HOST_VRAM_DMA);
	host_ramht_add(h, H_SYS, 0, NV_ENGINE_SW, HOST_SYS_DMA);
	m1(h, NV_FIFO_OBJECT, H_3D);
	m1(h, NV_CURIE_DMA_TEXTURE0, H_VRAM);
	m1(h, NV_CURIE_DMA_COLOR0, H_VRAM);
	m1(h, NV_CURIE_DMA_ZETA, H_VRAM);
	m1(h, NV_CURIE_DMA_QUERY, H_SYS);

	uint32_t rt[5] = { RT_W << 16, RT_H << 16,
			   NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8,
			   RT_PITCH, DST_AT };
	mn(h, NV_CURIE_RT_HORIZ, 5, rt);
	m1(h, NV_CURIE_ZETA_OFFSET, ZETA_AT);
	m1(h, NV_CURIE_ZETA_PITCH, RT_PITCH);
	m1(h, NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0));
	uint32_t vp[8] = { 0, 0, 0, 0, fu(1.0f), fu(1.0f), fu(1.0f), fu(1.0f) };
	mn(h, NV_CURIE_VIEWPORT_TRANSLATE, 8, vp);
	m1(h, NV_CURIE_VIEWPORT_HORIZ, RT_W << 16);
	m1(h, NV_CURIE_VIEWPORT_VERT, RT_H << 16);
	m1(h, NV_CURIE_SCISSOR_HORIZ, 0x10000000);
	m1(h, NV_CURIE_SCISSOR_VERT, 0x10000000);
	m1(h, NV_CURIE_DEPTH_RANGE_NEAR, fu(0.0f));
	m1(h, NV_CURIE_DEPTH_RANGE_FAR, fu(1.0f));
	m1(h, NV_CURIE_DEPTH_CONTROL, 0x10);
	m1(h, NV_CURIE_COLOR_MASK, 0x01010101);
	m1(h, NV_CURIE_SHADE_MODEL, NV40_SHADE_SMOOTH);
	m1(h, NV_CURIE_POLYGON_MODE_FRONT, NV40_POLYGON_MODE_FILL);
	m1(h, NV_CURIE_POLYGON_MODE_BACK, NV40_POLYGON_MODE_FILL);
	m1(h, NV_CURIE_ENGINE, 0x11);
	m1(h, NV_CURIE_FP_ACTIVE_PROGRAM, FP_AT | NV40_FP_PROGRAM_DMA0);
	m1(h, NV_CURIE_FP_CONTROL, 0x02000000);
	for (unsigned i = 0; i < 16; i++)
		m1(h, NV_CURIE_VTXFMT + 4 * i, NV40_VTXFMT_V32_FLOAT);
	vp_pass(h, 10, NV40_VP_OUT_COL0, 3, NV40_VP_RESULT_COL0);
}

static void vertex(struct host *h, float x, float y, float z, const float col[4])
{
	uint32_t cw[4] = { fu(col[0]), fu(col[1]), fu(col[2]), fu(col[3]) };
	uint32_t pw[4] = { fu(x), fu(y), fu(z), fu(1.0f) };
	mn(h, NV_CURIE_VTX_ATTR_4F + 3 * 16, 4, cw);
	mn(h, NV_CURIE_VTX_ATTR_4F, 4, pw);
}

/* A quad over x0..x1, y0..y1 at depth z in colour col. */
static void quad(struct host *h, float x0, float y0, float x1, float y1, float z,
		 const float col[4])
{
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_QUADS);
	vertex(h, x0, y0, z, col);
	vertex(h, x1, y0, z, col);
	vertex(h, x1, y1, z, col);
	vertex(h, x0, y1, z, col);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
}

static uint32_t rnd_state;

static float rnd(float lo, float hi)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return lo + (hi - lo) * (float)(rnd_state >> 8) / (float)(1u << 24);
}

/* Colour buffer 0 at `at`, w x h, linear A8R8G8B8, and the viewport over it. */
static void target(struct host *h, uint32_t at, unsigned w, unsigned hh)
{
	uint32_t rt[5] = { w << 16, hh << 16,
			   NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8,
			   w * 4, at };
	mn(h, NV_CURIE_RT_HORIZ, 5, rt);
	m1(h, NV_CURIE_VIEWPORT_HORIZ, w << 16);
	m1(h, NV_CURIE_VIEWPORT_VERT, hh << 16);
}

/* Draws fragment threads must not run side by side (bands.c), each right
 * after the one it depends on: the second samples what the first wrote,
 * the third writes the buffer at another origin. */
static void dependent_draws(struct host *h)
{
	/* into the texture, over what is there */
	m1(h, NV_CURIE_DEPTH_TEST_ENABLE, 0);
	m1(h, NV_CURIE_DEPTH_WRITE_ENABLE, 0);
	target(h, TEX_AT, TEX_W, TEX_W);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	for (unsigned t = 0; t < NTRI; t++) {
		float cx = rnd(0, TEX_W), cy = rnd(0, TEX_W), r = rnd(8, 40);
		for (unsigned v = 0; v < 3; v++) {
			float col[4] = { rnd(0, 1), rnd(0, 1), rnd(0, 1), rnd(0.3f, 1) };
			vertex(h, cx + rnd(-r, r), cy + rnd(-r, r), 0.0f, col);
		}
	}
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);

	/* the texture over the scene: o[hpos] = a[0], o[tex0] = a[8] */
	target(h, DST_AT, RT_W, RT_H);
	m1(h, NV_CURIE_DEPTH_TEST_ENABLE, 1);
	vp_pass(h, 20, NV40_VP_OUT_TC0, 8, NV40_VP_RESULT_TC(0));
	m1(h, NV_CURIE_FP_ACTIVE_PROGRAM, FPT_AT | NV40_FP_PROGRAM_DMA0);
	uint32_t tex[8] = {
		TEX_AT, NV40_TEX_FMT_A8R8G8B8 << NV40_TEX_FORMAT_FORMAT_SHIFT |
			1 << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT | NV40_TEX_FORMAT_NO_BORDER | 0x8000 |
			2 << NV40_TEX_FORMAT_DIMS_SHIFT | NV40_TEX_FORMAT_LINEAR | NV40_TEX_FORMAT_DMA0,
		0x00030303, NV40_TEX_ENABLE_ENABLE, 0x0000aae4, 2u << 16 | 2u << 24,
		TEX_W << 16 | TEX_W, 0
	};
	mn(h, NV_CURIE_TEX_OFFSET, 8, tex);
	m1(h, NV_CURIE_TEX_SIZE1, 0x00100000 | TEX_W * 4);
	static const float qx[4] = { 0, 1, 1, 0 }, qy[4] = { 0, 0, 1, 1 };
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_QUADS);
	for (unsigned i = 0; i < 4; i++) {
		uint32_t tc[4] = { fu(qx[i] * 1.5f - 0.25f), fu(qy[i] * 1.5f - 0.25f), fu(0), fu(1) };
		uint32_t pw[4] = { fu(qx[i] * RT_W), fu(qy[i] * RT_H), fu(0.25f), fu(1.0f) };
		mn(h, NV_CURIE_VTX_ATTR_4F + 8 * 16, 4, tc);
		mn(h, NV_CURIE_VTX_ATTR_4F, 4, pw);
	}
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);

	/* the same buffer written 9 rows and 3 columns on */
	vp_pass(h, 10, NV40_VP_OUT_COL0, 3, NV40_VP_RESULT_COL0);
	m1(h, NV_CURIE_FP_ACTIVE_PROGRAM, FP_AT | NV40_FP_PROGRAM_DMA0);
	m1(h, NV_CURIE_VIEWPORT_TX_ORIGIN, 9u << 16 | 3u);
	const float c[4] = { 0.2f, 0.4f, 0.9f, 0.6f };
	quad(h, 10, 5, RT_W - 20, RT_H - 20, 0.1f, c);
}

/* M2MF copies rows x len bytes, `pitch` apart on both sides. */
static void copy(struct host *h, uint32_t from, uint32_t to, uint32_t len, uint32_t rows,
		 uint32_t pitch)
{
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_OFFSET_IN, from);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_OFFSET_OUT, to);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_PITCH_IN, pitch);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_PITCH_OUT, pitch);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_LINE_LENGTH_IN, len);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_LINE_COUNT, rows);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_FORMAT, 0x101);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_BUF_NOTIFY, 0);
}

/* The texture over x0..x1, y0..y1 (o[tex0] = a[8]), no depth test. */
static void tex_quad(struct host *h, float x0, float y0, float x1, float y1)
{
	const float qx[4] = { x0, x1, x1, x0 }, qy[4] = { y0, y0, y1, y1 };

	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_QUADS);
	for (unsigned i = 0; i < 4; i++) {
		uint32_t tc[4] = { fu(qx[i] / 90.0f), fu(qy[i] / 70.0f), fu(0), fu(1) };
		uint32_t pw[4] = { fu(qx[i]), fu(qy[i]), fu(0.25f), fu(1.0f) };
		mn(h, NV_CURIE_VTX_ATTR_4F + 8 * 16, 4, tc);
		mn(h, NV_CURIE_VTX_ATTR_4F, 4, pw);
	}
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
}

/* M2MF copies between draws, which the queued fragment work goes on past
 * unless they touch its memory (bands.c): each draw large enough for the
 * helpers and small enough that the worker leaves its own share to the
 * sync.  A textured quad, then its texture overwritten in part and the
 * quad drawn again beside it; a quad, then its program overwritten; the
 * colour buffer's rows copied out after a quad over them; a copy between
 * memory no draw touches. */
static void copies_between_draws(struct host *h)
{
	host_mthd(h, 0, SUBC_M2MF, NV_FIFO_OBJECT, H_M2MF);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, H_VRAM);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_BUFFER_OUT, H_VRAM);
	m1(h, NV_CURIE_VIEWPORT_TX_ORIGIN, 0);
	m1(h, NV_CURIE_DEPTH_TEST_ENABLE, 0);
	vp_pass(h, 20, NV40_VP_OUT_TC0, 8, NV40_VP_RESULT_TC(0));
	m1(h, NV_CURIE_FP_ACTIVE_PROGRAM, FPT_AT | NV40_FP_PROGRAM_DMA0);
	tex_quad(h, 2, 4, 92, 74);
	copy(h, SRC_AT, TEX_AT + 8 * TEX_W * 4, TEX_W * 4, 40, TEX_W * 4);
	tex_quad(h, 66, 40, 156, 110);

	vp_pass(h, 10, NV40_VP_OUT_COL0, 3, NV40_VP_RESULT_COL0);
	m1(h, NV_CURIE_FP_ACTIVE_PROGRAM, FP_AT | NV40_FP_PROGRAM_DMA0);
	const float c[4] = { 0.7f, 0.3f, 0.1f, 0.9f };
	quad(h, 4, 2, RT_W - 4, 90, 0.5f, c);
	/* the texturing program over the one that quad runs, then a quad with it */
	copy(h, FPT_AT, FP_AT, sizeof(fp_tex), 1, sizeof(fp_tex));
	quad(h, 30, 10, 120, 100, 0.5f, c);
	copy(h, DST_AT + 20 * RT_PITCH, OUT_AT, RT_PITCH, COPY_ROWS, RT_PITCH);
	copy(h, SRC_AT, FAR_AT, RT_PITCH, COPY_ROWS, RT_PITCH);
	m1(h, NV_CURIE_DEPTH_TEST_ENABLE, 1);
}

/* A program drawn into the colour buffer, then run: a quad large enough
 * for the helpers, a pixel per word of fp_kil on row PRG_Y (no blend),
 * then a quad whose program is those words.  It must run them, killing
 * everything, on any number of threads: the threads may not take it with
 * the draws that write its program (bands.c). */
static void program_in_a_render_target(struct host *h)
{
	m1(h, NV_CURIE_BLEND_FUNC_ENABLE, 0);
	m1(h, NV_CURIE_DEPTH_TEST_ENABLE, 0);
	m1(h, NV_CURIE_FP_ACTIVE_PROGRAM, FPC_AT | NV40_FP_PROGRAM_DMA0);
	const float c[4] = { 0.2f, 0.4f, 0.6f, 1.0f };
	quad(h, 0, 36, RT_W, 100, 0.5f, c);
	for (unsigned i = 0; i < 8; i++) {
		uint32_t w = fp_kil[i];
		float col[4] = { (float)(w >> 16 & 0xff) / 255.0f, (float)(w >> 8 & 0xff) / 255.0f,
				 (float)(w & 0xff) / 255.0f, (float)(w >> 24) / 255.0f };
		quad(h, (float)i, PRG_Y, (float)i + 1, PRG_Y + 1, 0.5f, col);
	}
	m1(h, NV_CURIE_FP_ACTIVE_PROGRAM, (DST_AT + PRG_Y * RT_PITCH) | NV40_FP_PROGRAM_DMA0);
	const float k[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
	quad(h, 0, 36, RT_W, 110, 0.5f, k);
	m1(h, NV_CURIE_FP_ACTIVE_PROGRAM, FPC_AT | NV40_FP_PROGRAM_DMA0);
	m1(h, NV_CURIE_DEPTH_TEST_ENABLE, 1);
	m1(h, NV_CURIE_BLEND_FUNC_ENABLE, 1);
}

/* A clear of the large buffer the threads share by rows: R, G and A and
 * depth (stencil kept) inside a scissor, over what is there; then a
 * depth-tested triangle across it, in the scissor too. */
static void big_clear(struct host *h)
{
	uint32_t rt[5] = { BIG_W << 16, BIG_H << 16,
			   NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8,
			   BIG_W * 4, BIG_AT };
	mn(h, NV_CURIE_RT_HORIZ, 5, rt);
	m1(h, NV_CURIE_ZETA_OFFSET, BIGZ_AT);
	m1(h, NV_CURIE_ZETA_PITCH, BIG_W * 4);
	m1(h, NV_CURIE_VIEWPORT_HORIZ, BIG_W << 16);
	m1(h, NV_CURIE_VIEWPORT_VERT, BIG_H << 16);
	m1(h, NV_CURIE_SCISSOR_HORIZ, (BIG_W - 19) << 16 | 7);
	m1(h, NV_CURIE_SCISSOR_VERT, (BIG_H - 6) << 16 | 3);
	m1(h, NV_CURIE_CLEAR_COLOR_VALUE, 0x11223344u);
	m1(h, NV_CURIE_CLEAR_DEPTH_VALUE, 0x5a5a5a00u);
	m1(h, NV_CURIE_CLEAR_BUFFERS, NV40_CLEAR_COLOR_R | NV40_CLEAR_COLOR_G | NV40_CLEAR_COLOR_A |
					   NV40_CLEAR_DEPTH);
	const float c[4] = { 0.9f, 0.1f, 0.6f, 0.7f };
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	vertex(h, 3.5f, 190.25f, 0.1f, c);
	vertex(h, 500.75f, 2.5f, 0.45f, c);
	vertex(h, 260.0f, 199.5f, 0.3f, c);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	m1(h, NV_CURIE_SCISSOR_HORIZ, 0x10000000);
	m1(h, NV_CURIE_SCISSOR_VERT, 0x10000000);
	m1(h, NV_CURIE_ZETA_OFFSET, ZETA_AT);
	m1(h, NV_CURIE_ZETA_PITCH, RT_PITCH);
	target(h, DST_AT, RT_W, RT_H);
}

/* The scene; the push buffer is the same for every thread count. */
static void scene(struct host *h)
{
	rnd_state = 1;
	for (unsigned i = 0; i < RT_W * RT_H; i++) {
		nv_wr32le(sim_vram(h->s) + DST_AT + 4 * i, 0x80402010u);
		nv_wr32le(sim_vram(h->s) + ZETA_AT + 4 * i, 0xffffff00u);
	}
	for (unsigned i = 0; i < BIG_W * BIG_H; i++) {
		nv_wr32le(sim_vram(h->s) + BIG_AT + 4 * i, i * 0x01020304u);
		nv_wr32le(sim_vram(h->s) + BIGZ_AT + 4 * i, i * 0x9e3779b1u);
	}
	for (unsigned i = 0; i < 4; i++) {
		nv_wr32le(sim_vram(h->s) + FP_AT + 4 * i, fp_col0[i]);
		nv_wr32le(sim_vram(h->s) + FPC_AT + 4 * i, fp_col0[i]);
	}
	for (unsigned i = 0; i < 8; i++)
		nv_wr32le(sim_vram(h->s) + FPT_AT + 4 * i, fp_tex[i]);
	for (unsigned i = 0; i < TEX_W * TEX_W; i++)
		nv_wr32le(sim_vram(h->s) + TEX_AT + 4 * i, 0xff000000u | i * 0x010307u);
	for (unsigned i = 0; i < TEX_W * 40; i++)
		nv_wr32le(sim_vram(h->s) + SRC_AT + 4 * i, i * 0x2f1e0d3cu);
	scene_state(h);
	m1(h, NV_CURIE_DEPTH_TEST_ENABLE, 1);
	m1(h, NV_CURIE_DEPTH_WRITE_ENABLE, 1);
	m1(h, NV_CURIE_DEPTH_FUNC, NV40_CMP_LEQUAL);
	m1(h, NV_CURIE_BLEND_FUNC_ENABLE, 1);
	m1(h, NV_CURIE_BLEND_FUNC_SRC, NV40_BF_SRC_ALPHA << 16 | NV40_BF_SRC_ALPHA);
	m1(h, NV_CURIE_BLEND_FUNC_DST, NV40_BF_ONE_MINUS_SRC_ALPHA << 16 | NV40_BF_ONE_MINUS_SRC_ALPHA);
	m1(h, NV_CURIE_BLEND_EQUATION, NV40_BEQ_FUNC_ADD << 16 | NV40_BEQ_FUNC_ADD);
	big_clear(h);
	m1(h, NV_CURIE_QUERY_RESET, 1);
	m1(h, NV_CURIE_QUERY_ENABLE, 1);

	/* overlapping triangles, many crossing rows 16k, some the edges */
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	for (unsigned t = 0; t < NTRI; t++) {
		float cx = rnd(-10, RT_W + 10), cy = rnd(-10, RT_H + 10), r = rnd(3, 40);
		for (unsigned v = 0; v < 3; v++) {
			float col[4] = { rnd(0, 1), rnd(0, 1), rnd(0, 1), rnd(0.3f, 1) };
			vertex(h, cx + rnd(-r, r), cy + rnd(-r, r), rnd(0, 1), col);
		}
	}
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	m1(h, NV_CURIE_QUERY_GET, NV40_QUERY_REPORT_SAMPLES << 24 | QRY_AT);

	/* a small strip: below the area where helpers join */
	const float g[4] = { 0.1f, 0.9f, 0.2f, 0.5f };
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLE_STRIP);
	vertex(h, 30.5f, 13.25f, 0.0f, g);
	vertex(h, 50.25f, 14.0f, 0.0f, g);
	vertex(h, 31.0f, 19.75f, 0.0f, g);
	vertex(h, 49.5f, 20.5f, 0.0f, g);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);

	/* a wide stippled loop across the bands: pieces kept to columns */
	const float y[4] = { 0.9f, 0.8f, 0.1f, 0.7f };
	m1(h, NV_CURIE_LINE_WIDTH, 3 * NV40_LINE_WIDTH_FRAC);
	m1(h, NV_CURIE_LINE_STIPPLE_ENABLE, 1);
	m1(h, NV_CURIE_LINE_STIPPLE_PATTERN, 0x3c6du << 16 | 1);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_LINE_LOOP);
	vertex(h, 5.25f, 3.5f, 0.25f, y);
	vertex(h, 150.75f, 40.0f, 0.25f, y);
	vertex(h, 120.5f, 115.25f, 0.25f, y);
	vertex(h, 12.0f, 90.75f, 0.25f, y);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	m1(h, NV_CURIE_LINE_STIPPLE_ENABLE, 0);

	/* a full-screen quad half behind what is there */
	const float w[4] = { 1.0f, 1.0f, 1.0f, 0.5f };
	quad(h, 0, 0, RT_W, RT_H, 0.5f, w);
	dependent_draws(h);
	copies_between_draws(h);
	program_in_a_render_target(h);
	m1(h, NV_CURIE_QUERY_GET, NV40_QUERY_REPORT_SAMPLES << 24 | (QRY_AT + 0x10));
	host_kick(h, 0);
	sim_run(h->s);
}

struct picture {
	uint8_t color[RT_W * RT_H * 4], zeta[RT_W * RT_H * 4], tex[TEX_W * TEX_W * 4];
	uint8_t big[BIG_W * BIG_H * 4], bigz[BIG_W * BIG_H * 4];
	uint8_t out[COPY_ROWS * RT_PITCH], far[COPY_ROWS * RT_PITCH];
	uint32_t samples[2];
	uint32_t intr;
};

static void render(unsigned threads, struct picture *p)
{
	struct host h;

	host_new_threads(&h, 0x43, 1, threads);
	assert_true(threads > 1 ? h.s->bands != NULL : h.s->bands == NULL);
	scene(&h);
	memcpy(p->color, sim_vram(h.s) + DST_AT, sizeof(p->color));
	memcpy(p->zeta, sim_vram(h.s) + ZETA_AT, sizeof(p->zeta));
	memcpy(p->tex, sim_vram(h.s) + TEX_AT, sizeof(p->tex));
	memcpy(p->big, sim_vram(h.s) + BIG_AT, sizeof(p->big));
	memcpy(p->bigz, sim_vram(h.s) + BIGZ_AT, sizeof(p->bigz));
	memcpy(p->out, sim_vram(h.s) + OUT_AT, sizeof(p->out));
	memcpy(p->far, sim_vram(h.s) + FAR_AT, sizeof(p->far));
	p->samples[0] = nv_rd32le(h.sysmem + QRY_AT + 8);
	p->samples[1] = nv_rd32le(h.sysmem + QRY_AT + 0x10 + 8);
	p->intr = sim_rd32(h.s, NV_PGRAPH_INTR);
	host_free(&h);
}

static void two_to_four_threads_render_what_one_renders_byte_for_byte(void **state)
{
	static struct picture one, many;
	(void)state;

	render(1, &one);
	assert_int_equal(one.intr & NV_PGRAPH_INTR_ERROR, 0);
	/* the scene is not trivial: depth written, blends, the query counts */
	unsigned zw = 0, blended = 0;
	for (unsigned i = 0; i < RT_W * RT_H; i++) {
		zw += nv_rd32le(one.zeta + 4 * i) >> 8 != 0xffffff;
		uint32_t c = nv_rd32le(one.color + 4 * i);
		blended += c != 0x80402010u && (c >> 24) != 0xff && (c >> 24) != 0x80;
	}
	assert_true(zw > RT_W * RT_H / 2);
	assert_true(blended > RT_W * RT_H / 4);
	assert_true(one.samples[0] > 1000);
	assert_true(one.samples[1] > one.samples[0]);
	/* the clear: inside the scissor R, G, A and depth, B (byte 0) and stencil
	 * kept; outside untouched; the triangle over part of it */
	unsigned cleared = 0, drawn = 0;
	for (unsigned y = 0; y < BIG_H; y++)
		for (unsigned x = 0; x < BIG_W; x++) {
			unsigned i = y * BIG_W + x;
			uint32_t c = nv_rd32le(one.big + 4 * i), z = nv_rd32le(one.bigz + 4 * i);
			uint32_t c0 = i * 0x01020304u, z0 = i * 0x9e3779b1u;
			if (x < 7 || x >= BIG_W - 12 || y < 3 || y >= BIG_H - 3) {
				assert_int_equal(c, c0);
				assert_int_equal(z, z0);
			} else if (z == (0x5a5a5a00u | (z0 & 0xff))) {
				assert_int_equal(c, 0x11223300u | (c0 & 0xff));
				cleared++;
			} else {
				drawn++;
			}
		}
	assert_true(cleared > BIG_W * BIG_H / 2);
	assert_true(drawn > BIG_W * BIG_H / 16);
	/* the copies: rows taken after the quad over them (nothing drew there
	 * since), the far one whole */
	assert_memory_equal(one.out, one.color + 20 * RT_PITCH, sizeof(one.out));
	for (unsigned i = 0; i < COPY_ROWS * RT_W; i++)
		assert_int_equal(nv_rd32le(one.far + 4 * i), i * 0x2f1e0d3cu);
	/* the program drawn is fp_kil, and it ran: the quad it killed left
	 * the one below it */
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(nv_rd32le(one.color + PRG_Y * RT_PITCH + 4 * i), fp_kil[i]);
	assert_int_equal(nv_rd32le(one.color + 70 * RT_PITCH + 4 * 80), 0xff336699u);

	for (unsigned n = 2; n <= 4; n++) {
		memset(&many, 0, sizeof(many));
		render(n, &many);
		assert_int_equal(many.intr & NV_PGRAPH_INTR_ERROR, 0);
		assert_memory_equal(one.color, many.color, sizeof(one.color));
		assert_memory_equal(one.zeta, many.zeta, sizeof(one.zeta));
		assert_memory_equal(one.tex, many.tex, sizeof(one.tex));
		assert_memory_equal(one.big, many.big, sizeof(one.big));
		assert_memory_equal(one.bigz, many.bigz, sizeof(one.bigz));
		assert_memory_equal(one.out, many.out, sizeof(one.out));
		assert_memory_equal(one.far, many.far, sizeof(one.far));
		assert_int_equal(one.samples[0], many.samples[0]);
		assert_int_equal(one.samples[1], many.samples[1]);
	}
}

/* NTRI random triangles, depth tested (LESS) and written, no alpha test,
 * through the program at fp over the scene's buffers as scene() fills
 * them; $NVD_SIM_JIT as jit says.  The ROP states compiled. */
static unsigned kill_scene(const char *jit, uint32_t fp, struct picture *p)
{
	struct host h;
	struct sim_jit_stats st = { 0 };

	setenv("NVD_SIM_JIT", jit, 1);
	host_new_threads(&h, 0x43, 1, 2);
	unsetenv("NVD_SIM_JIT");
	rnd_state = 9;
	for (unsigned i = 0; i < RT_W * RT_H; i++) {
		nv_wr32le(sim_vram(h.s) + DST_AT + 4 * i, 0x80402010u);
		nv_wr32le(sim_vram(h.s) + ZETA_AT + 4 * i, 0xffffff00u | (i & 0xff));
	}
	for (unsigned i = 0; i < 4; i++)
		nv_wr32le(sim_vram(h.s) + FP_AT + 4 * i, fp_col0[i]);
	for (unsigned i = 0; i < 8; i++)
		nv_wr32le(sim_vram(h.s) + FPK_AT + 4 * i, fp_kil[i]);
	scene_state(&h);
	m1(&h, NV_CURIE_FP_ACTIVE_PROGRAM, fp | NV40_FP_PROGRAM_DMA0);
	m1(&h, NV_CURIE_DEPTH_TEST_ENABLE, 1);
	m1(&h, NV_CURIE_DEPTH_WRITE_ENABLE, 1);
	m1(&h, NV_CURIE_DEPTH_FUNC, NV40_CMP_LESS);
	m1(&h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	for (unsigned t = 0; t < NTRI; t++) {
		float cx = rnd(0, RT_W), cy = rnd(0, RT_H), r = rnd(10, 50);
		for (unsigned v = 0; v < 3; v++) {
			float col[4] = { rnd(0, 1), rnd(0, 1), rnd(0, 1), 1.0f };
			vertex(&h, cx + rnd(-r, r), cy + rnd(-r, r), rnd(0, 1), col);
		}
	}
	m1(&h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	host_kick(&h, 0);
	sim_run(h.s);
	memcpy(p->color, sim_vram(h.s) + DST_AT, sizeof(p->color));
	memcpy(p->zeta, sim_vram(h.s) + ZETA_AT, sizeof(p->zeta));
	p->intr = sim_rd32(h.s, NV_PGRAPH_INTR);
	if (h.s->jit)
		sim_jit_stats(h.s->jit, &st);
	host_free(&h);
	return st.rop.compiled;
}

static void early_depth_writes_only_for_programs_that_cannot_kill(void **state)
{
	static struct picture off, on;
	(void)state;

	/* cannot kill: depth written, the compiled ROP's bytes the
	 * interpreter's (a build without the compiler: both interpreted) */
	unsigned compiled = sim_jit_built() ? 1 : 0;
	const char *jit = compiled ? "sync" : "off";
	assert_int_equal(kill_scene("off", FP_AT, &off), 0);
	assert_int_equal(kill_scene(jit, FP_AT, &on), compiled);
	assert_int_equal(on.intr & NV_PGRAPH_INTR_ERROR, 0);
	unsigned zw = 0;
	for (unsigned i = 0; i < RT_W * RT_H; i++)
		zw += nv_rd32le(on.zeta + 4 * i) != (0xffffff00u | (i & 0xff));
	assert_true(zw > RT_W * RT_H / 2);
	assert_memory_equal(off.color, on.color, sizeof(on.color));
	assert_memory_equal(off.zeta, on.zeta, sizeof(on.zeta));

	/* kills every pixel: no depth written before it, nothing after */
	assert_int_equal(kill_scene(jit, FPK_AT, &on), compiled);
	assert_int_equal(on.intr & NV_PGRAPH_INTR_ERROR, 0);
	for (unsigned i = 0; i < RT_W * RT_H; i++) {
		assert_int_equal(nv_rd32le(on.zeta + 4 * i), 0xffffff00u | (i & 0xff));
		assert_int_equal(nv_rd32le(on.color + 4 * i), 0x80402010u);
	}
}

/* Which thread did each row of [ROWS_Y0, ROWS_Y1), and how often. */
#define ROWS_Y0 5
#define ROWS_Y1 1003

struct rows_seen {
	pthread_t who[ROWS_Y1];
	int times[ROWS_Y1];
};

static void rows_note(void *arg, int y0, int y1)
{
	struct rows_seen *r = arg;

	for (int y = y0; y < y1; y++) {
		if (y < 0 || y >= ROWS_Y1)
			continue;             /* outside: times[] stays right, the test sees it below */
		r->who[y] = pthread_self();
		__atomic_add_fetch(&r->times[y], 1, __ATOMIC_SEQ_CST);
	}
	if (y0 < ROWS_Y0 || y1 > ROWS_Y1)
		__atomic_add_fetch(&r->times[0], 1, __ATOMIC_SEQ_CST);
}

/* Rows [ROWS_Y0, ROWS_Y1) over `area` pixels on `threads` threads: the
 * number of threads that took part (every row once, the rows of a band of
 * 16 on one thread). */
static unsigned rows_run(unsigned threads, uint64_t area)
{
	static struct rows_seen r;
	struct host h;
	unsigned nwho = 0;
	pthread_t who[8];

	memset(&r, 0, sizeof(r));
	host_new_threads(&h, 0x43, 1, threads);
	pthread_mutex_lock(&h.s->lock);
	sim_bands_rows(h.s, &h.s->gr, ROWS_Y0, ROWS_Y1, area, rows_note, &r);
	pthread_mutex_unlock(&h.s->lock);
	host_free(&h);
	assert_int_equal(r.times[0], 0);
	for (int y = ROWS_Y0; y < ROWS_Y1; y++) {
		assert_int_equal(r.times[y], 1);
		if (y % 16 && y > ROWS_Y0)
			assert_true(pthread_equal(r.who[y], r.who[y - 1]));
		unsigned k = 0;
		while (k < nwho && !pthread_equal(who[k], r.who[y]))
			k++;
		if (k == nwho && nwho < 8)
			who[nwho++] = r.who[y];
	}
	return nwho;
}

/* A slow helper: the caller, done with its own bands, takes the helper's
 * once the batch is closed (the close stops the helper between two bands
 * of a job).  The helper sleeps 5 ms in each band, long enough for the
 * caller to wake and take every band left (each band's rows is a
 * counting loop), so it runs a few bands: the one it is in at the close
 * and the first it claims after.  Without the caller's help it would run
 * all of its half. */
struct rows_stall {
	struct rows_seen seen;
	pthread_t caller;
	int helper_rows;
};

static void rows_stall_note(void *arg, int y0, int y1)
{
	struct rows_stall *r = arg;

	rows_note(&r->seen, y0, y1);
	if (pthread_equal(pthread_self(), r->caller))
		return;
	__atomic_add_fetch(&r->helper_rows, y1 - y0, __ATOMIC_SEQ_CST);
	usleep(5000);
}

static void a_closed_batch_leaves_a_slow_helper_a_few_bands(void **state)
{
	static struct rows_stall r;
	struct host h;
	(void)state;

	memset(&r, 0, sizeof(r));
	r.caller = pthread_self();
	host_new_threads(&h, 0x43, 1, 2);
	pthread_mutex_lock(&h.s->lock);
	sim_bands_rows(h.s, &h.s->gr, ROWS_Y0, ROWS_Y1, 1u << 20, rows_stall_note, &r);
	pthread_mutex_unlock(&h.s->lock);
	host_free(&h);
	assert_int_equal(r.seen.times[0], 0);
	for (int y = ROWS_Y0; y < ROWS_Y1; y++)
		assert_int_equal(r.seen.times[y], 1);
	assert_true(r.helper_rows > 0 && r.helper_rows <= 4 * 16);
}

static void large_row_work_is_shared_every_row_once_small_stays_on_the_caller(void **state)
{
	(void)state;
	assert_int_equal(rows_run(1, 1u << 20), 1);
	assert_int_equal(rows_run(3, 1u << 20), 3);
	assert_int_equal(rows_run(3, 64), 1);
}

/* program_in_a_render_target's rule, each way: a draw whose queued
 * program (fp_used) lies in memory another draw writes may not follow it
 * or precede it in a batch, and a draw writing its own is not split. */
static void a_program_in_a_render_target_keeps_draws_apart(void **state)
{
	static uint8_t mem[4096];
	static struct draw_setup a, b;
	(void)state;

	a.rt_mask = 1;
	a.cmask[0] = 0xf;
	a.rts.color[0] = (struct sim_rt){ .mem = mem, .len = 2048, .bpp = 4, .pitch = 256 };
	b = a;
	b.rts.color[0].mem = mem + 2048;
	b.fp = mem + 1024;
	b.fp_len = 1024;
	assert_true(sim_draw_may_follow(&a, &b));    /* not queued: nothing of it fixed */
	b.fp_used = 16;
	assert_false(sim_draw_may_follow(&a, &b));
	assert_false(sim_draw_may_follow(&b, &a));
	assert_false(sim_draw_writes_program(&b));
	b.fp = mem + 3072;
	assert_true(sim_draw_may_follow(&a, &b));
	assert_true(sim_draw_may_follow(&b, &a));
	assert_true(sim_draw_writes_program(&b));
	assert_false(sim_draw_writes_program(&a));   /* no program */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_to_four_threads_render_what_one_renders_byte_for_byte),
		cmocka_unit_test(large_row_work_is_shared_every_row_once_small_stays_on_the_caller),
		cmocka_unit_test(a_closed_batch_leaves_a_slow_helper_a_few_bands),
		cmocka_unit_test(early_depth_writes_only_for_programs_that_cannot_kill),
		cmocka_unit_test(a_program_in_a_render_target_keeps_draws_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
