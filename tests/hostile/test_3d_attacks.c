/* Hostile use of the 3D engine (Curie, subchannel 7 as Mesa binds it): one
 * attack per launch-time rule of nvd/validate-3d.c, against a real nvd
 * beside an honest client.  Each attack first submits the exact fit (Mesa's
 * method sequences, accepted: the test could pass) and then the same with
 * one thing one step too far (refused with -EFAULT at the fence); the honest
 * client gets exactly the bytes it gets alone.  Also: a buffer moved to
 * VRAM by the submission and then used at its old GART address, and the
 * fragment program, which the card runs from the channel's shadow copy
 * (nvd/validate-fp.c): a program without END right before another
 * client's program never runs into it, nor one whose END its client
 * removes after submitting, and a freed program buffer takes nothing with
 * it.
 *
 * Buffers of the attacker (addresses from nvc_bo_addr):
 *   fb   VRAM 64 KiB  colour buffer (pitch 256: 64 pixels of 4 bytes)
 *   zb   VRAM 16 KiB  zeta (64 x 64 Z24S8, pitch 256)
 *   ro   VRAM 64 KiB  listed read-only: textures
 *   vb   GART  4 KiB  vertices
 *   fp   VRAM  4 KiB  fragment programs (one NOP|END instruction)
 *   nt   GART  4 KiB  fence (32 bytes at 0) and query (3968 at 32) ctxdmas
 * Each attacker's channel is lost after NVD_STRIKES (8) refusals, so no
 * attack makes more than 7. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hw/chips.h"
#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/fp-isa.h"
#include "hw/methods.h"
#include "hw/ramin.h"
#include "hw/tex-layout.h"
#include "hw/vp-isa.h"
#include "tests/lib/nvt-test.h"

#define S3D 7                         /* Mesa's SUBC_3D */

enum { H_3D = 0x5a003097, H_FENCE = 0xbeef1e00, H_QUERY = 0xbeef0351 };

#define FB_SIZE (64u << 10)
#define ZB_SIZE (16u << 10)
#define RO_SIZE (64u << 10)
#define VB_SIZE 4096u
#define FP_SIZE 4096u
#define NT_SIZE 4096u
#define FENCE_DMA_SIZE 32u
#define QUERY_DMA_OFF  32u
#define QUERY_DMA_SIZE (4096u - 128u)  /* Mesa's query heap */

struct a3d {
	struct nvt_client t;
	struct nvc_bo *fb, *zb, *ro, *vb, *fp, *nt;
	uint8_t *fbmap;
	uint32_t vram, gart;          /* the channel's ctxdmas */
};

static uint32_t addr(struct nvc_bo *bo)
{
	return (uint32_t)nvc_bo_addr(bo);
}

/* ---- pushing 3D methods ---- */

static void m3_(struct nvt_push *p, int ni, uint32_t mthd, unsigned n, const uint32_t *d)
{
	nvt_space(p, 1 + n);
	nvt_word(p, ni ? NV_CMD_NONINC_WORD(S3D, mthd, n) : NV_CMD_INC_WORD(S3D, mthd, n));
	for (unsigned i = 0; i < n; i++)
		nvt_out(p, d[i]);
}
#define NARGS(...) (sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4)
#define M3(p, m, ...) m3_(p, 0, m, NARGS(__VA_ARGS__), (const uint32_t[]){ __VA_ARGS__ })
#define NI3(p, m, ...) m3_(p, 1, m, NARGS(__VA_ARGS__), (const uint32_t[]){ __VA_ARGS__ })

static int submit_wait(struct nvt_push *p)
{
	uint32_t f;
	NVT_OK(nvt_submit(p, &f));
	return nvt_wait(p, f);
}

static struct nvc_bo *bo_new(struct nvc *c, uint64_t size, unsigned domain)
{
	struct nvc_bo *bo;
	NVT_OK(nvc_bo_new(c, size, domain, &bo));
	assert_non_null(nvc_bo_map(bo));
	return bo;
}

/* One fragment program instruction, NOP with END, at byte off of the buffer. */
static void fp_write_end(struct nvc_bo *bo, uint32_t off)
{
	uint32_t w[NV40_FP_INSN_WORDS] = { 0 };
	uint8_t *m = nvc_bo_map(bo);
	NV40_FP_SET(w, OPCODE, NV40_FP_OP_NOP);
	NV40_FP_SET(w, END, 1);
	for (unsigned i = 0; i < NV40_FP_INSN_WORDS; i++)
		nv_wr32le(m + off + 4 * i, w[i]);
}

/* Mesa nv30_vertprog_validate with a one-instruction program: NOP, LAST
 * (every vertex at the default position: nothing much to rasterise). */
static void vp_bind(struct nvt_push *p)
{
	uint32_t insn[4] = { 0 };
	nv40_vp_set_VEC_OPCODE(insn, NV40_VP_VEC_NOP);
	nv40_vp_set_SCA_OPCODE(insn, NV40_VP_SCA_NOP);
	nv40_vp_set_VEC_DST_TEMP(insn, NV40_VP_NONE_TEMP);
	nv40_vp_set_SCA_DST_TEMP(insn, NV40_VP_NONE_TEMP);
	nv40_vp_set_DEST(insn, NV40_VP_NONE_DEST);
	nv40_vp_set_LAST(insn, 1);
	M3(p, NV_CURIE_VP_UPLOAD_FROM_ID, 0);
	M3(p, NV_CURIE_VP_UPLOAD_INST, insn[0], insn[1], insn[2], insn[3]);
	M3(p, NV_CURIE_VP_START_FROM_ID, 0);
	M3(p, NV_CURIE_ENGINE, 0x00000013);
	M3(p, NV_CURIE_VP_ATTRIB_EN, 0x00000001, 0x00000001);
	M3(p, NV_CURIE_ENGINE, 0x00000011);
}

/* Mesa's nv30_screen_create 3D setup: the object on subchannel 7, the
 * ctxdmas (notifier NULL: nvd offers DMA_BO notifiers, not needed here),
 * and the NV40 init words. */
static void a3d_init(struct nvt_push *p, const struct a3d *a)
{
	nvt_mthd(p, S3D, NV_FIFO_OBJECT, H_3D);
	M3(p, NV_CURIE_DMA_NOTIFY, NVT_H_NULL, a->vram, a->gart, a->vram, NVT_H_NULL, a->vram,
	   a->vram, a->vram, a->gart, H_FENCE, H_QUERY, NVT_H_NULL, NVT_H_NULL);
	M3(p, NV_CURIE_UNK1E98, 0);
	M3(p, NV_CURIE_DMA_COLOR2, a->vram, a->vram);
	M3(p, NV_CURIE_FP_REG_CONTROL, 0x00000004);
	M3(p, NV_CURIE_UNK1EA4, 0x00000010, 0x01000100, 0xff800006);
	M3(p, NV_CURIE_UNK1FC4, 0x06144321);
	M3(p, NV_CURIE_UNK1FC8, 0xedcba987, 0x0000006f);
	M3(p, NV_CURIE_UNK1FD0, 0x00171615);
	M3(p, NV_CURIE_UNK1FD4, 0x001b1a19);
	M3(p, NV_CURIE_UNK1EF8, 0x0020ffff);
	M3(p, NV_CURIE_UNK1D64, 0x01d300d4);
	vp_bind(p);
}

static void a3d_open(struct nvt_daemon *d, struct a3d *a)
{
	struct nvc_info info;
	memset(a, 0, sizeof(*a));
	NVT_OK(nvt_client_open(&a->t, d->sock, "3d-attacker"));
	NVT_OK(nvt_finish(&a->t.p));
	NVT_OK(nvc_info(a->t.c, &info));
	const struct nv_chip *chip = nv_chip_by_chipset(info.chipset);
	assert_non_null(chip);
	NVT_OK(nvc_obj_new(a->t.ch, H_3D, chip->gr_class));
	a->vram = nvc_chan_vram_dma(a->t.ch);
	a->gart = nvc_chan_gart_dma(a->t.ch);
	a->fb = bo_new(a->t.c, FB_SIZE, NVC_VRAM);
	a->zb = bo_new(a->t.c, ZB_SIZE, NVC_VRAM);
	a->ro = bo_new(a->t.c, RO_SIZE, NVC_VRAM);
	a->vb = bo_new(a->t.c, VB_SIZE, NVC_GART);
	a->fp = bo_new(a->t.c, FP_SIZE, NVC_VRAM);
	a->nt = bo_new(a->t.c, NT_SIZE, NVC_GART);
	a->fbmap = nvc_bo_map(a->fb);
	fp_write_end(a->fp, 0);
	fp_write_end(a->fp, FP_SIZE - NV40_FP_INSN_BYTES);
	NVT_OK(nvc_dma_new(a->t.ch, H_FENCE, a->nt, 0, FENCE_DMA_SIZE, NV_CLASS_DMA_IN_MEMORY, 0));
	NVT_OK(nvc_dma_new(a->t.ch, H_QUERY, a->nt, QUERY_DMA_OFF, QUERY_DMA_SIZE,
			   NV_CLASS_DMA_IN_MEMORY, 0));
	a3d_init(&a->t.p, a);
	NVT_OK(nvt_finish(&a->t.p));
}

static void a3d_close(struct a3d *a)
{
	nvt_client_close(&a->t);
}

/* Mesa nv30_validate_fb + nv30_validate_scissor: a linear A8R8G8B8 colour
 * buffer (pitch, w x h from the origin x, y) and a Z24S8 zeta. */
static void rt_linear(struct nvt_push *p, uint32_t coff, uint32_t pitch, uint32_t zoff,
		      uint32_t zpitch, unsigned x, unsigned y, unsigned w, unsigned h)
{
	M3(p, NV_CURIE_UNK1DA4, 0);
	M3(p, NV_CURIE_RT_HORIZ, w << 16 | x, h << 16 | y,
	   NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8);
	M3(p, NV_CURIE_VIEWPORT_TX_ORIGIN, 0, 0, (w - 1) << 16, (h - 1) << 16);
	M3(p, NV_CURIE_ZETA_PITCH, zpitch);
	M3(p, NV_CURIE_COLOR0_PITCH, pitch, coff & ~63u, zoff & ~63u);
	M3(p, NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0));
	M3(p, NV_CURIE_SCISSOR_HORIZ, w << 16 | x, h << 16 | y);
}

/* Mesa nv30_clear of the colour buffer, and of depth + stencil. */
static void clear_color(struct nvt_push *p, uint32_t color)
{
	M3(p, NV_CURIE_CLEAR_DEPTH_VALUE, 0xffffff00, color,
	   NV40_CLEAR_COLOR_R | NV40_CLEAR_COLOR_G | NV40_CLEAR_COLOR_B | NV40_CLEAR_COLOR_A);
}

static void clear_zeta(struct nvt_push *p)
{
	M3(p, NV_CURIE_STENCIL_ENABLE, 0, 0x000000ff);
	M3(p, NV_CURIE_CLEAR_DEPTH_VALUE, 0xffffff00, 0, NV40_CLEAR_DEPTH | NV40_CLEAR_STENCIL);
}

/* Mesa nv30_fragprog_validate: the program in a VRAM buffer. */
static void fp_bind(struct nvt_push *p, uint32_t off)
{
	M3(p, NV_CURIE_FP_ACTIVE_PROGRAM, off | NV40_FP_PROGRAM_DMA0);
	M3(p, NV_CURIE_FP_CONTROL, 0x02000000);
	M3(p, NV_CURIE_UNK0B40, 0);
}

/* Mesa nv30_vbo_validate: attribute 0, three floats at vb + 4 with stride
 * 16, from the GART buffer; the other 15 slots off.  Vertex i reads
 * [4 + 16 i, 16 + 16 i): 255 is the last that fits in 4096 bytes. */
#define VTX_LAST 255u
static void vtx_arrays(struct nvt_push *p, const struct a3d *a)
{
	uint32_t fmt[16];
	fmt[0] = 16u << 8 | 3u << 4 | NV40_VTXFMT_V32_FLOAT;
	for (unsigned i = 1; i < 16; i++)
		fmt[i] = NV40_VTXFMT_V32_FLOAT;
	m3_(p, 0, NV_CURIE_VTXFMT, 16, fmt);
	M3(p, NV_CURIE_VTXBUF, (addr(a->vb) + 4) | NV40_VTXBUF_DMA1);
	M3(p, NV_CURIE_VTX_CACHE_INVALIDATE_1710, 0);
}

/* Mesa nv30_draw_arrays: vertices start .. start+count-1, 256 a word. */
static void draw_arrays(struct nvt_push *p, unsigned prim, uint32_t start, uint32_t count)
{
	M3(p, NV_CURIE_VERTEX_BEGIN_END, prim);
	while (count) {
		uint32_t n = count > 256 ? 256 : count;
		NI3(p, NV_CURIE_VB_VERTEX_BATCH, (n - 1) << 24 | start);
		start += n;
		count -= n;
	}
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
}

/* Everything a draw needs, in the order nv30_state_validate emits it. */
static void draw_state(struct nvt_push *p, const struct a3d *a, unsigned h)
{
	rt_linear(p, addr(a->fb), 256, addr(a->zb), 256, 0, 0, 64, h);
	fp_bind(p, addr(a->fp));
	vtx_arrays(p, a);
}

static void ref_draw(struct a3d *a)
{
	nvt_ref(&a->t.p, a->fb, NVC_READ | NVC_WRITE);
	nvt_ref(&a->t.p, a->zb, NVC_READ | NVC_WRITE);
	nvt_ref(&a->t.p, a->fp, NVC_READ);
	nvt_ref(&a->t.p, a->vb, NVC_READ);
}

/* ---- colour buffers ---- */

/* 64 x 256 pixels of pitch 256 are 255 * 256 + 256 = 64 KiB: exactly fb;
 * a 257th row runs 256 bytes past it. */
static void attack_clear_one_row_past(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	nvt_ref(p, a.fb, NVC_WRITE);
	rt_linear(p, addr(a.fb), 256, addr(a.fb), 256, 0, 0, 64, 256);
	clear_color(p, 0x11223344);
	NVT_OK(submit_wait(p));
	/* the card wrote the whole buffer, and it is the attacker's own */
	for (uint32_t i = 0; i < FB_SIZE; i += 4)
		if (nv_rd32le(a.fbmap + i) != 0x11223344)
			fail_msg("fb +0x%x is 0x%08x after the exact clear", i, nv_rd32le(a.fbmap + i));
	nvt_ref(p, a.fb, NVC_WRITE);
	rt_linear(p, addr(a.fb), 256, addr(a.fb), 256, 0, 0, 64, 257);
	clear_color(p, 0x55667788);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* the same extent from the origin: y = 1, h = 256 */
	nvt_ref(p, a.fb, NVC_WRITE);
	rt_linear(p, addr(a.fb), 256, addr(a.fb), 256, 0, 1, 64, 256);
	clear_color(p, 0x55667788);
	NVT_ERR(submit_wait(p), -EFAULT);
	for (uint32_t i = 0; i < FB_SIZE; i += 4)
		if (nv_rd32le(a.fbmap + i) != 0x11223344)
			fail_msg("fb +0x%x changed by a refused clear", i);
	a3d_close(&a);
}

static void test_clear_colour_buffer_one_row_past_its_buffer(void **state)
{
	nvt_attack(nvt_d(state), attack_clear_one_row_past, NULL);
}

static void attack_draw_one_row_past(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	ref_draw(&a);
	draw_state(p, &a, 256);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	draw_state(p, &a, 257);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* a colour buffer 1 (MRT) one row past, colour buffer 0 fine */
	ref_draw(&a);
	draw_state(p, &a, 128);
	M3(p, NV_CURIE_COLOR1_OFFSET, addr(a.fb) + 128 * 256, 256);
	M3(p, NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0) | NV40_RT_ENABLE_COLOR(1) |
	   NV40_RT_ENABLE_MRT);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	M3(p, NV_CURIE_COLOR1_OFFSET, addr(a.fb) + 128 * 256 + 64, 256);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	a3d_close(&a);
}

static void test_draw_colour_buffer_one_row_past_its_buffer(void **state)
{
	nvt_attack(nvt_d(state), attack_draw_one_row_past, NULL);
}

/* Swizzled 2^7 x 2^7 A8R8G8B8 = 64 KiB: exactly fb; 2^8 x 2^7 is twice it,
 * and the exact size 64 bytes further ends past it. */
static void rt_swizzled(struct nvt_push *p, uint32_t off, unsigned lw, unsigned lh)
{
	M3(p, NV_CURIE_UNK1DA4, 0);
	M3(p, NV_CURIE_RT_HORIZ, (1u << lw) << 16, (1u << lh) << 16,
	   NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_SWIZZLED << 8 |
	   lw << 16 | lh << 24);
	M3(p, NV_CURIE_VIEWPORT_TX_ORIGIN, 0, 0, ((1u << lw) - 1) << 16, ((1u << lh) - 1) << 16);
	M3(p, NV_CURIE_ZETA_PITCH, 64);
	M3(p, NV_CURIE_COLOR0_PITCH, 64, off, off);
	M3(p, NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0));
	M3(p, NV_CURIE_SCISSOR_HORIZ, (1u << lw) << 16, (1u << lh) << 16);
}

static void attack_swizzled_rt(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	nvt_ref(p, a.fb, NVC_WRITE);
	rt_swizzled(p, addr(a.fb), 7, 7);
	clear_color(p, 0x01020304);
	NVT_OK(submit_wait(p));
	nvt_ref(p, a.fb, NVC_WRITE);
	rt_swizzled(p, addr(a.fb), 8, 7);
	clear_color(p, 0x01020304);
	NVT_ERR(submit_wait(p), -EFAULT);
	nvt_ref(p, a.fb, NVC_WRITE);
	rt_swizzled(p, addr(a.fb) + 64, 7, 7);
	clear_color(p, 0x01020304);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* sizes the card cannot have: 2^13 */
	nvt_ref(p, a.fb, NVC_WRITE);
	rt_swizzled(p, addr(a.fb), 0, 0);
	M3(p, NV_CURIE_RT_FORMAT, NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 |
	   NV40_RT_TYPE_SWIZZLED << 8 | 13u << 16);
	clear_color(p, 0x01020304);
	NVT_FAILS(submit_wait(p));
	a3d_close(&a);
}

static void test_swizzled_render_target_too_big_for_its_buffer(void **state)
{
	nvt_attack(nvt_d(state), attack_swizzled_rt, NULL);
}

/* ---- zeta ---- */

/* zb holds 64 x 64 Z24S8 of pitch 256 exactly; 64 x 65 runs a row past.
 * The colour buffer (fb, 64 KiB) holds either. */
static void attack_zeta_too_small(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	ref_draw(&a);
	draw_state(p, &a, 64);
	M3(p, NV_CURIE_DEPTH_FUNC, 0x0201, 1, 1);      /* LESS, write, test (0xa6c..0xa74) */
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	clear_zeta(p);
	NVT_OK(submit_wait(p));
	/* one row more with the depth test on: the draw is refused */
	ref_draw(&a);
	draw_state(p, &a, 65);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* depth write alone uses zeta too */
	ref_draw(&a);
	M3(p, NV_CURIE_DEPTH_WRITE_ENABLE, 1, 0);
	draw_state(p, &a, 65);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* and stencil (back face only) */
	ref_draw(&a);
	M3(p, NV_CURIE_DEPTH_WRITE_ENABLE, 0, 0);
	M3(p, NV_CURIE_STENCIL_ENABLE + NV_CURIE_STENCIL_ENABLE__STRIDE, 1);
	draw_state(p, &a, 65);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* and a clear of depth */
	ref_draw(&a);
	M3(p, NV_CURIE_DEPTH_WRITE_ENABLE, 0, 0);
	draw_state(p, &a, 65);
	clear_zeta(p);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* with every zeta user off, the small zeta does not matter (the card
	 * must then not touch it: the honest client's bytes say so) */
	ref_draw(&a);
	M3(p, NV_CURIE_DEPTH_WRITE_ENABLE, 0, 0);
	M3(p, NV_CURIE_STENCIL_ENABLE, 0);
	M3(p, NV_CURIE_STENCIL_ENABLE + NV_CURIE_STENCIL_ENABLE__STRIDE, 0);
	draw_state(p, &a, 65);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	clear_color(p, 0);
	NVT_OK(submit_wait(p));
	a3d_close(&a);
}

static void test_zeta_too_small_with_depth_test_on(void **state)
{
	nvt_attack(nvt_d(state), attack_zeta_too_small, NULL);
}

/* ---- another client's buffer ---- */

static void attack_clear_other_clients_bo(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	uint32_t ctx = a.vram;
	assert_int_equal(h->victim_domain, NVC_VRAM);
	/* its own buffer first, the same way */
	nvt_ref(p, a.fb, NVC_WRITE);
	M3(p, NV_CURIE_DMA_COLOR0, ctx);
	rt_linear(p, addr(a.fb), 256, addr(a.fb), 256, 0, 0, 64, 64);
	clear_color(p, 0x66666666);
	NVT_OK(submit_wait(p));
	/* the victim's address, the attacker's buffer listed */
	nvt_ref(p, a.fb, NVC_WRITE);
	M3(p, NV_CURIE_DMA_COLOR0, ctx);
	rt_linear(p, (uint32_t)h->victim_addr, 256, addr(a.fb), 256, 0, 0, 64, 64);
	clear_color(p, 0x66666666);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* as zeta */
	nvt_ref(p, a.fb, NVC_WRITE);
	M3(p, NV_CURIE_DMA_ZETA, ctx);
	rt_linear(p, addr(a.fb), 256, (uint32_t)h->victim_addr, 256, 0, 0, 64, 64);
	clear_zeta(p);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* inside its own buffer, the origin reaching far beyond it */
	nvt_ref(p, a.fb, NVC_WRITE);
	M3(p, NV_CURIE_DMA_COLOR0, a.vram);
	rt_linear(p, addr(a.fb), 256, addr(a.fb), 256, 0, 4000, 64, 64);
	clear_color(p, 0x66666666);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* a pitch that strides out of it */
	nvt_ref(p, a.fb, NVC_WRITE);
	rt_linear(p, addr(a.fb), 0xfffc0, addr(a.fb), 256, 0, 0, 16, 2);
	clear_color(p, 0x66666666);
	NVT_ERR(submit_wait(p), -EFAULT);
	a3d_close(&a);
}

static void test_clear_into_other_clients_bo_address(void **state)
{
	nvt_attack(nvt_d(state), attack_clear_other_clients_bo, NULL);
}

/* ---- read-only buffers ---- */

static void attack_rt_read_only(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	nvt_ref(p, a.ro, NVC_READ | NVC_WRITE);
	rt_linear(p, addr(a.ro), 256, addr(a.ro), 256, 0, 0, 64, 64);
	clear_color(p, 0x77777777);
	NVT_OK(submit_wait(p));
	nvt_ref(p, a.ro, NVC_READ);
	rt_linear(p, addr(a.ro), 256, addr(a.ro), 256, 0, 0, 64, 64);
	clear_color(p, 0x77777777);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* zeta in it, through a draw with the depth test on */
	ref_draw(&a);
	nvt_ref(p, a.ro, NVC_READ);
	draw_state(p, &a, 64);
	M3(p, NV_CURIE_ZETA_OFFSET, addr(a.ro));
	M3(p, NV_CURIE_DEPTH_TEST_ENABLE, 1);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* the fence written into a buffer listed for reading */
	nvt_ref(p, a.ro, NVC_READ);
	M3(p, NV_CURIE_DMA_FENCE, a.vram);
	M3(p, NV_CURIE_FENCE_OFFSET, addr(a.ro), 1);
	NVT_ERR(submit_wait(p), -EFAULT);
	a3d_close(&a);
}

static void test_render_target_in_a_buffer_listed_read_only(void **state)
{
	nvt_attack(nvt_d(state), attack_rt_read_only, NULL);
}

/* ---- textures ---- */

/* Mesa nv30_fragtex_validate for unit 0: a 64 x 64 A8R8G8B8 swizzled
 * texture with 7 levels, 4 * (4096 + 1024 + 256 + 64 + 16 + 4 + 1) =
 * 21844 bytes, read from the read-only buffer. */
#define TEX_BYTES 21844u
static const uint32_t tex_fmt = NV40_TEX_FORMAT_DMA0 | NV40_TEX_FORMAT_NO_BORDER |
	2u << NV40_TEX_FORMAT_DIMS_SHIFT | NV40_TEX_FMT_A8R8G8B8 << NV40_TEX_FORMAT_FORMAT_SHIFT |
	NV40_TEX_FORMAT_UNK15 | 7u << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT;

static void tex_bind(struct nvt_push *p, unsigned unit, uint32_t off, uint32_t fmt, unsigned levels)
{
	fmt = (fmt & ~(0xfu << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT)) |
	      levels << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT;
	M3(p, NV_CURIE_TEX_SIZE1 + 4 * unit, 1u << 20);
	M3(p, NV_CURIE_TEX_OFFSET + NV_CURIE_TEX_OFFSET__STRIDE * unit, off, fmt,
	   0x00030303,                                      /* wrap: clamp to edge */
	   NV40_TEX_ENABLE_ON | (levels - 1) * 256 << NV40_TEX_ENABLE_MAX_LOD_SHIFT,
	   0x0000aae4, 0x01012000, 64u << 16 | 64, 0);
	M3(p, NV_CURIE_TEX_FILTER_OPTIMIZATION + 4 * unit, 0);
}

static void attack_texture_levels_past(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)arg;
	assert_int_equal(nv40_tex_extent(tex_fmt, 64u << 16 | 64, 1u << 20), TEX_BYTES);
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	ref_draw(&a);
	nvt_ref(p, a.ro, NVC_READ);
	draw_state(p, &a, 64);
	tex_bind(p, 0, addr(a.ro) + RO_SIZE - TEX_BYTES, tex_fmt, 7);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_OK(submit_wait(p));
	/* 4 bytes further: the 1x1 level ends past the buffer */
	ref_draw(&a);
	nvt_ref(p, a.ro, NVC_READ);
	tex_bind(p, 0, addr(a.ro) + RO_SIZE - TEX_BYTES + 4, tex_fmt, 7);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* where one level fits, seven do not */
	ref_draw(&a);
	nvt_ref(p, a.ro, NVC_READ);
	tex_bind(p, 0, addr(a.ro) + RO_SIZE - 16384, tex_fmt, 1);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	nvt_ref(p, a.ro, NVC_READ);
	tex_bind(p, 0, addr(a.ro) + RO_SIZE - 16384, tex_fmt, 7);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* unit 15, in the victim's buffer (not listed) */
	ref_draw(&a);
	M3(p, NV_CURIE_TEX_ENABLE, 0);
	tex_bind(p, 15, (uint32_t)h->victim_addr,
		 h->victim_domain == NVC_VRAM ? tex_fmt : (tex_fmt & ~3u) | NV40_TEX_FORMAT_DMA1, 1);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* unit 15 over a buffer the client has freed since (Mesa leaves a
	 * destroyed context's units so): the submission after the free starts
	 * with the unit turned off, and its draw runs */
	struct nvc_bo *tmp = bo_new(a.t.c, TEX_BYTES, NVC_VRAM);
	ref_draw(&a);
	M3(p, NV_CURIE_TEX_ENABLE + NV_CURIE_TEX_ENABLE__STRIDE * 15, 0);
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	nvt_ref(p, tmp, NVC_READ);
	tex_bind(p, 15, addr(tmp), tex_fmt, 1);
	NVT_OK(submit_wait(p));
	nvc_bo_free(tmp);
	ref_draw(&a);
	NVT_OK(submit_wait(p));                  /* the freed buffer's last one */
	ref_draw(&a);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_OK(submit_wait(p));
	a3d_close(&a);
}

static void test_texture_levels_run_past_their_buffer(void **state)
{
	nvt_attack(nvt_d(state), attack_texture_levels_past, NULL);
}

/* ---- vertices ---- */

static void attack_vertex_batch_past(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	ref_draw(&a);
	draw_state(p, &a, 64);
	draw_arrays(p, NV40_PRIM_POINTS, 0, VTX_LAST + 1);        /* 0 .. 255 */
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	draw_arrays(p, NV40_PRIM_POINTS, 1, VTX_LAST + 1);        /* 1 .. 256 */
	NVT_ERR(submit_wait(p), -EFAULT);
	/* the batch's start is 24 bits: far out, and wrapping the 32-bit sum */
	ref_draw(&a);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_POINTS);
	NI3(p, NV_CURIE_VB_VERTEX_BATCH, 0xffffffffu);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* the vertex buffer moved so that the first vertex no longer fits */
	ref_draw(&a);
	M3(p, NV_CURIE_VTXBUF, (addr(a.vb) + VB_SIZE - 8) | NV40_VTXBUF_DMA1);
	draw_arrays(p, NV40_PRIM_POINTS, 0, 1);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* a second attribute with a wider stride bounds the batch once the
	 * vertex program reads it: the card fetches only those attributes */
	ref_draw(&a);
	M3(p, NV_CURIE_VTXFMT + 4, 32u << 8 | 4u << 4 | NV40_VTXFMT_V32_FLOAT);
	M3(p, NV_CURIE_VTXBUF + 4, addr(a.vb) | NV40_VTXBUF_DMA1);
	draw_arrays(p, NV40_PRIM_POINTS, 0, 129);
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	M3(p, NV_CURIE_VP_ATTRIB_EN, 0x00000003);
	draw_arrays(p, NV40_PRIM_POINTS, 0, 128);                 /* 127 * 32 + 16 fits */
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	draw_arrays(p, NV40_PRIM_POINTS, 0, 129);
	NVT_ERR(submit_wait(p), -EFAULT);
	a3d_close(&a);
}

static void test_vertex_batch_reads_past_the_vertex_buffer(void **state)
{
	nvt_attack(nvt_d(state), attack_vertex_batch_past, NULL);
}

/* Mesa nv30_draw_elements_inline: u16 pairs, a u32 for the odd one. */
static void attack_inline_index_past(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	ref_draw(&a);
	draw_state(p, &a, 64);
	M3(p, NV_CURIE_VB_ELEMENT_BASE, 0);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	M3(p, NV_CURIE_VB_ELEMENT_U32, 0);
	NI3(p, NV_CURIE_VB_ELEMENT_U16, 1u << 16 | VTX_LAST);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	M3(p, NV_CURIE_VB_ELEMENT_U32, 0);
	NI3(p, NV_CURIE_VB_ELEMENT_U16, (VTX_LAST + 1) << 16 | 1);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	NVT_ERR(submit_wait(p), -EFAULT);
	ref_draw(&a);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI3(p, NV_CURIE_VB_ELEMENT_U32, 0, 1, 0xfffffff0u);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* through the index bias: 200 + 55 is the last vertex, 200 + 56 is not */
	ref_draw(&a);
	M3(p, NV_CURIE_VB_ELEMENT_BASE, 200);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_POINTS);
	M3(p, NV_CURIE_VB_ELEMENT_U32, VTX_LAST - 200);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_POINTS);
	M3(p, NV_CURIE_VB_ELEMENT_U32, VTX_LAST - 199);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* a bias that would wrap a small index around to a huge one: the
	 * card traps (the sum is signed), so it is refused as invalid */
	ref_draw(&a);
	M3(p, NV_CURIE_VB_ELEMENT_BASE, 0xffffffffu);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_POINTS);
	M3(p, NV_CURIE_VB_ELEMENT_U32, 0);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	NVT_ERR(submit_wait(p), -EINVAL);
	a3d_close(&a);
}

static void test_inline_index_beyond_the_vertex_buffer(void **state)
{
	nvt_attack(nvt_d(state), attack_inline_index_past, NULL);
}

/* ---- reports: fence, query, render condition ---- */

static void attack_reports_at_the_end(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	/* Mesa's fence (nv30_screen_fence_emit) in the 32-byte fence ctxdma:
	 * the last 4 bytes, then one byte further */
	M3(p, NV_CURIE_FENCE_OFFSET, FENCE_DMA_SIZE - 4, 0x1234);
	/* nv30_query_end: a 16-byte report at the end of the query heap */
	M3(p, NV_CURIE_QUERY_GET, NV40_QUERY_REPORT_SAMPLES << 24 | (QUERY_DMA_SIZE - 16));
	/* nv30_render_condition on it */
	M3(p, NV_CURIE_UNK0110, 0);
	M3(p, NV_CURIE_UNK1E98, 0x02000000u | (QUERY_DMA_SIZE - 16));
	M3(p, NV_CURIE_UNK1E98, 0);
	NVT_OK(submit_wait(p));
	uint8_t *nt = nvc_bo_map(a.nt);
	assert_int_equal(nv_rd32le(nt + FENCE_DMA_SIZE - 4), 0x1234);
	M3(p, NV_CURIE_FENCE_OFFSET, FENCE_DMA_SIZE - 3, 0x1235);
	NVT_ERR(submit_wait(p), -EFAULT);
	M3(p, NV_CURIE_QUERY_GET, NV40_QUERY_REPORT_SAMPLES << 24 | (QUERY_DMA_SIZE - 15));
	NVT_ERR(submit_wait(p), -EFAULT);
	/* the render condition is read at every draw: set past the end, it
	 * is refused at the draw */
	ref_draw(&a);
	draw_state(p, &a, 64);
	M3(p, NV_CURIE_UNK1E98, 0x02000000u | (QUERY_DMA_SIZE - 16));
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	M3(p, NV_CURIE_UNK1E98, 0x02000000u | (QUERY_DMA_SIZE - 8));
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	M3(p, NV_CURIE_UNK1E98, 0);
	/* the same through the GART ctxdma into a listed buffer: vb's last 4
	 * bytes, then 16 for the report */
	nvt_ref(p, a.vb, NVC_WRITE);
	M3(p, NV_CURIE_DMA_FENCE, a.gart);
	M3(p, NV_CURIE_FENCE_OFFSET, addr(a.vb) + VB_SIZE - 4, 0x4321);
	NVT_OK(submit_wait(p));
	assert_int_equal(nv_rd32le((uint8_t *)nvc_bo_map(a.vb) + VB_SIZE - 4), 0x4321);
	nvt_ref(p, a.vb, NVC_WRITE);
	M3(p, NV_CURIE_FENCE_OFFSET, addr(a.vb) + VB_SIZE - 2, 0x4322);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* the buffer unlisted: it is the client's own, so the submission holds it
	 * and the value lands (Mesa names buffers it lists only after a flush) */
	M3(p, NV_CURIE_FENCE_VALUE, 0x4323);
	NVT_OK(submit_wait(p));
	assert_int_equal(nv_rd32le((uint8_t *)nvc_bo_map(a.vb) + VB_SIZE - 4), 0x4323);
	a3d_close(&a);
}

static void test_query_fence_and_condition_at_the_last_bytes(void **state)
{
	nvt_attack(nvt_d(state), attack_reports_at_the_end, NULL);
}

/* The render condition is read at every draw through whatever DMA_QUERY
 * is bound then: set at an offset the query heap holds, with DMA_QUERY then
 * pointed at the VRAM ctxdma the same number names VRAM that is not the
 * attacker's (the honest client's buffers came first).  In a later
 * submission, and within one. */
static void attack_condition_through_a_later_dma_query(struct nvt_daemon *d,
							struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	const uint32_t off = QUERY_DMA_SIZE - 16;
	struct nvc_bo *mine[] = { a.fb, a.zb, a.ro, a.fp };
	for (unsigned i = 0; i < sizeof(mine) / sizeof(mine[0]); i++)
		assert_true(off + 4 <= addr(mine[i]) || off >= addr(mine[i]) + nvc_bo_size(mine[i]));
	ref_draw(&a);
	draw_state(p, &a, 64);
	M3(p, NV_CURIE_UNK1E98, 0x02000000u | off);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	M3(p, NV_CURIE_DMA_QUERY, a.vram);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	ref_draw(&a);
	M3(p, NV_CURIE_DMA_QUERY, H_QUERY);
	M3(p, NV_CURIE_UNK1E98, 0x02000000u | off);
	M3(p, NV_CURIE_DMA_QUERY, a.vram);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	a3d_close(&a);
}

static void test_render_condition_read_through_a_later_dma_query(void **state)
{
	nvt_attack(nvt_d(state), attack_condition_through_a_later_dma_query, NULL);
}

/* ---- fragment program ---- */

static void attack_fp_start_outside(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	ref_draw(&a);
	draw_state(p, &a, 64);
	fp_bind(p, addr(a.fp) + FP_SIZE - NV40_FP_INSN_BYTES);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_OK(submit_wait(p));
	/* inside, but its first instruction is not */
	ref_draw(&a);
	fp_bind(p, addr(a.fp) + FP_SIZE - 12);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* in the victim's buffer */
	ref_draw(&a);
	M3(p, NV_CURIE_FP_ACTIVE_PROGRAM, (uint32_t)h->victim_addr |
	   (h->victim_domain == NVC_VRAM ? NV40_FP_PROGRAM_DMA0 : NV40_FP_PROGRAM_DMA1));
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* the program's buffer not listed, the channel holding none */
	nvt_ref(p, a.fb, NVC_READ | NVC_WRITE);
	nvt_ref(p, a.zb, NVC_READ | NVC_WRITE);
	nvt_ref(p, a.vb, NVC_READ);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	int r = submit_wait(p);
	if (r != 0 && r != -EFAULT)
		fail_msg("a draw with the held program: %d (%s)", r, nvc_error());
	a3d_close(&a);
}

static void test_fragment_program_start_outside_its_buffer(void **state)
{
	nvt_attack(nvt_d(state), attack_fp_start_outside, NULL);
}

/* ---- a buffer moved by its submission ---- */

/* gb (GART) is listed NVC_IN_VRAM: nvd moves it before validating; its
 * old GART address, used without a relocation, is no buffer's any more. */
static void attack_moved_bo_old_address(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	struct nvc_bo *gb = bo_new(a.t.c, FB_SIZE, NVC_GART);
	uint32_t old = addr(gb);
	uint8_t *gm = nvc_bo_map(gb);

	/* accepted first while it is in GART: the clear through the GART ctxdma */
	nvt_ref(p, gb, NVC_WRITE | NVC_IN_GART);
	M3(p, NV_CURIE_DMA_COLOR0, a.gart);
	M3(p, NV_CURIE_DMA_ZETA, a.gart);
	rt_linear(p, old, 256, old, 256, 0, 0, 64, 64);
	clear_color(p, 0x0badcafe);
	NVT_OK(submit_wait(p));
	assert_int_equal(nv_rd32le(gm), 0x0badcafe);

	/* moved to VRAM by this submission, the old address used as is */
	nvt_ref(p, gb, NVC_WRITE | NVC_IN_VRAM);
	rt_linear(p, old, 256, old, 256, 0, 0, 64, 64);
	clear_color(p, 0xdeadbeef);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* again, the address set in an earlier submission, only the clear now */
	nvt_ref(p, gb, NVC_WRITE | NVC_IN_VRAM);
	clear_color(p, 0xdeadbeef);
	NVT_ERR(submit_wait(p), -EFAULT);
	/* and M2MF from its old address */
	nvt_ref(p, gb, NVC_READ | NVC_IN_VRAM);
	nvt_ref(p, a.vb, NVC_WRITE);
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, 2);
	nvt_out(p, a.gart);
	nvt_out(p, a.gart);
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8);
	nvt_out(p, old);
	nvt_out(p, addr(a.vb));
	nvt_out(p, 256);
	nvt_out(p, 256);
	nvt_out(p, 256);
	nvt_out(p, 4);
	nvt_out(p, 1 | 1 << 8);
	nvt_out(p, 0);
	NVT_ERR(submit_wait(p), -EFAULT);
	assert_int_equal(nv_rd32le(gm), 0x0badcafe);

	/* the right way: the new address through a relocation, VRAM ctxdma */
	uint32_t start = nvt_pos(p) * 4;
	M3(p, NV_CURIE_DMA_COLOR0, a.vram);
	M3(p, NV_CURIE_DMA_ZETA, a.vram);
	rt_linear(p, 0, 256, 0, 256, 0, 0, 64, 64);
	/* rt_linear ends with COLOR0_PITCH (pitch, colour, zeta: 4 words),
	 * RT_ENABLE (2) and SCISSOR (3) */
	uint32_t rel_c = (nvt_pos(p) - 7) * 4, rel_z = (nvt_pos(p) - 6) * 4;
	assert_int_equal(nv_rd32le(&p->map[nvt_pos(p) - 9]), NV_CMD_INC_WORD(S3D, NV_CURIE_COLOR0_PITCH, 3));
	clear_color(p, 0x600dc0de);
	uint32_t end = nvt_pos(p) * 4;
	nvt_taken(p);
	struct nvc_bo_ref refs[] = { { p->bo, NVC_READ }, { gb, NVC_WRITE | NVC_IN_VRAM } };
	struct nvc_reloc rel[] = { { 0, rel_c, 1, NVC_RELOC_LOW, 0, 0, 0 },
				   { 0, rel_z, 1, NVC_RELOC_LOW, 0, 0, 0 } };
	struct nvc_push push = { 0, start, end - start };
	struct nvc_submission sub = { refs, 2, &push, 1, rel, 2 };
	uint32_t f;
	NVT_OK(nvc_submit(a.t.ch, &sub, &f));
	NVT_OK(nvt_wait(p, f));
	assert_int_equal(nv_rd32le(gm), 0x600dc0de);
	NVT_OK(nvc_bo_free(gb));
	a3d_close(&a);
}

static void test_moved_bo_used_at_its_old_gart_address(void **state)
{
	nvt_attack(nvt_d(state), attack_moved_bo_old_address, NULL);
}

/* ---- the fragment program runs from the channel's shadow copy ---- */

/* Mesa's blit vertex program (mov o[hpos], a[0]; mov o[tex0], a[8]; end)
 * with window-space positions: a triangle over the whole 64 x 64 colour
 * buffer, drawn with immediate vertices. */
static void draw_covering(struct nvt_push *p)
{
	static const uint32_t vp[2][4] = {
		{ 0x401f9c6c, 0x0040000d, 0x8106c083, 0x6041ff80 },
		{ 0x401f9c6c, 0x0040080d, 0x8106c083, 0x6041ff9d },
	};
	static const float pos[3][2] = { { 0, 0 }, { 160, 0 }, { 0, 160 } };
	M3(p, NV_CURIE_VP_UPLOAD_FROM_ID, 0);
	for (unsigned i = 0; i < 2; i++)
		M3(p, NV_CURIE_VP_UPLOAD_INST, vp[i][0], vp[i][1], vp[i][2], vp[i][3]);
	M3(p, NV_CURIE_VP_START_FROM_ID, 0);
	M3(p, NV_CURIE_VP_ATTRIB_EN, 0x00000001);
	M3(p, NV_CURIE_ENGINE, 0x00000103);
	M3(p, NV_CURIE_COLOR_MASK, 0x01010101);
	M3(p, NV_CURIE_VIEWPORT_HORIZ, 64u << 16, 64u << 16);
	M3(p, NV_CURIE_VIEWPORT_TRANSLATE, 0, 0, 0, 0, 0x3f800000, 0x3f800000, 0x3f800000,
	   0x3f800000);
	M3(p, NV_CURIE_DEPTH_RANGE_NEAR, 0, 0x3f800000);
	M3(p, NV_CURIE_POLYGON_MODE_FRONT, NV40_POLYGON_MODE_FILL, NV40_POLYGON_MODE_FILL);
	M3(p, NV_CURIE_CULL_FACE_ENABLE, 0);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	for (unsigned v = 0; v < 3; v++) {
		union { float f; uint32_t u; } x = { pos[v][0] }, y = { pos[v][1] }, z = { 0.5f },
			w = { 1.0f };
		M3(p, NV_CURIE_VTX_ATTR_4F, x.u, y.u, z.u, w.u);
	}
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
}

/* "mov r0, c; end" with c = the secret colour (1, 0, 1, 1) at byte off. */
static void fp_write_secret(uint8_t *m, uint32_t off)
{
	uint32_t w[NV40_FP_INSN_WORDS] = { 0 };
	NV40_FP_SET(w, OPCODE, NV40_FP_OP_MOV);
	NV40_FP_SET(w, END, 1);
	NV40_FP_SET(w, MASK, 0xf);
	NV40_FP_SET(w, COND, NV40_FP_COND_TR);           /* written always */
	NV40_FP_SET(w, COND_SWZ, NV40_FP_SWZ_IDENTITY);
	NV40_FP_SET(w, SRC0, NV40_FP_SRC_SET(TYPE, NV40_FP_SRC_CONST) |
			     NV40_FP_SRC_SET(SWZ, NV40_FP_SWZ_IDENTITY));
	NV40_FP_SET(w, SRC1, NV40_FP_SRC_SET(SWZ, NV40_FP_SWZ_IDENTITY));
	NV40_FP_SET(w, SRC2, NV40_FP_SRC_SET(SWZ, NV40_FP_SWZ_IDENTITY));
	static const uint32_t cst[4] = { 0x3f800000, 0, 0x3f800000, 0x3f800000 };
	for (unsigned i = 0; i < 4; i++) {
		nv_wr32le(m + off + 4 * i, w[i]);
		nv_wr32le(m + off + 16 + 4 * i, cst[i]);
	}
}
#define SECRET_PIXEL 0xffff00ffu     /* A8R8G8B8 of (1, 0, 1, 1) */

/* No pixel of the attacker's 64x64 target has the secret colour. */
static void assert_no_secret(const struct a3d *a, unsigned round)
{
	for (unsigned y = 0; y < 64; y++)
		for (unsigned x = 0; x < 64; x++)
			if (nv_rd32le(a->fbmap + y * 256 + x * 4) == SECRET_PIXEL)
				fail_msg("round %u: pixel (%u, %u) has the victim's secret colour",
					 round, x, y);
}

/* The victim's buffer right after the attacker's program buffer in VRAM
 * (fresh allocations come in order; skipped if they do not). */
struct fp_pair {
	struct nvt_client v;
	struct nvc_bo *prog, *secret;
};
static int fp_pair_open(struct nvt_daemon *d, struct a3d *a, struct fp_pair *fp)
{
	NVT_OK(nvt_client_open(&fp->v, d->sock, "victim"));
	NVT_OK(nvt_finish(&fp->v.p));
	fp->prog = bo_new(a->t.c, FP_SIZE, NVC_VRAM);
	fp->secret = bo_new(fp->v.c, FP_SIZE, NVC_VRAM);
	/* the victim's program, the secret as its constant, again and again */
	for (uint32_t o = 0; o < FP_SIZE; o += 32)
		fp_write_secret(nvc_bo_map(fp->secret), o);
	return nvc_bo_addr(fp->secret) == nvc_bo_addr(fp->prog) + FP_SIZE;
}

/* Sanity first: the victim's program drawn by its own client colours the
 * pixels with the secret (the test could fail).  Then the attacker's
 * program, 4 KiB of NOPs without END, right before the victim's buffer:
 * the card runs into the daemon's END, never into the victim's program. */
static void attack_fp_without_end(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	struct fp_pair fp;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	int adjacent = fp_pair_open(d, &a, &fp);
	memset(nvc_bo_map(fp.prog), 0, FP_SIZE);
	fp_write_secret(nvc_bo_map(fp.prog), FP_SIZE - 32);
	/* the attacker's own copy of such a program: its pixels get the colour */
	ref_draw(&a);
	nvt_ref(p, fp.prog, NVC_READ);
	rt_linear(p, addr(a.fb), 256, addr(a.zb), 256, 0, 0, 64, 64);
	clear_color(p, 0x11111111);
	fp_bind(p, addr(fp.prog) + FP_SIZE - 32);
	draw_covering(p);
	NVT_OK(submit_wait(p));
	assert_int_equal(nv_rd32le(a.fbmap + 10 * 256 + 10 * 4), SECRET_PIXEL);
	if (!adjacent)
		print_message("victim's buffer at 0x%llx is not right after 0x%llx: "
			      "the run-on is not tried\n",
			      (unsigned long long)nvc_bo_addr(fp.secret),
			      (unsigned long long)nvc_bo_addr(fp.prog));
	/* no END in the attacker's buffer: without the shadow the card would
	 * run on into the victim's program */
	memset(nvc_bo_map(fp.prog), 0, FP_SIZE);
	ref_draw(&a);
	nvt_ref(p, fp.prog, NVC_READ);
	clear_color(p, 0x12345678);
	fp_bind(p, addr(fp.prog));
	draw_covering(p);
	NVT_OK(submit_wait(p));
	assert_no_secret(&a, 0);
	/* the draw ran (the program ended at the daemon's END: R0 = 0) */
	assert_int_equal(nv_rd32le(a.fbmap + 10 * 256 + 10 * 4), 0);
	nvt_client_close(&fp.v);
	a3d_close(&a);
}

static void test_program_without_end_never_runs_into_another_clients_buffer(void **state)
{
	nvt_attack(nvt_d(state), attack_fp_without_end, NULL);
}

/* A program with END at its first instruction, validated, then rewritten
 * through the attacker's mapping (END gone) while the card is still busy
 * with a long clear before the bind: whichever the card copies, the
 * secret after the buffer never reaches the pixels. */
static void attack_fp_rewritten(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	struct fp_pair fp;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	fp_pair_open(d, &a, &fp);
	struct nvc_bo *big = bo_new(a.t.c, 4u << 20, NVC_VRAM);
	uint8_t *m = nvc_bo_map(fp.prog);
	int late = 0;
	for (unsigned round = 0; round < 4; round++) {
		memset(m, 0, FP_SIZE);
		fp_write_end(fp.prog, 0);
		ref_draw(&a);
		nvt_ref(p, fp.prog, NVC_READ);
		nvt_ref(p, big, NVC_WRITE);
		rt_linear(p, addr(big), 4096, addr(big), 4096, 0, 0, 1024, 1024);
		for (unsigned i = 0; i < 24; i++)
			clear_color(p, i);
		rt_linear(p, addr(a.fb), 256, addr(a.zb), 256, 0, 0, 64, 64);
		clear_color(p, 0x12345678);
		fp_bind(p, addr(fp.prog));
		draw_covering(p);
		uint32_t f;
		NVT_OK(nvt_submit(p, &f));
		memset(m, 0, NV40_FP_INSN_BYTES);            /* END gone */
		late += !nvc_fence_done(a.t.ch, f);
		NVT_OK(nvt_wait(p, f));
		assert_no_secret(&a, round);
	}
	print_message("the rewrite came before the card's copy in %d of 4 rounds\n", late);
	NVT_OK(nvc_bo_free(big));
	nvt_client_close(&fp.v);
	a3d_close(&a);
}

static void test_program_rewritten_through_the_mapping_after_submit(void **state)
{
	nvt_attack(nvt_d(state), attack_fp_rewritten, NULL);
}

/* The program buffer is needed only by the submission that binds it: freed
 * by its client, new buffers (no END anywhere) may take its memory, and
 * the channel draws on with its shadow copy. */
static void attack_freed_fp_bo(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	fp_write_secret(nvc_bo_map(a.fp), 0);
	ref_draw(&a);
	rt_linear(p, addr(a.fb), 256, addr(a.zb), 256, 0, 0, 64, 64);
	fp_bind(p, addr(a.fp));
	NVT_OK(submit_wait(p));
	NVT_OK(nvc_bo_free(a.fp));
	a.fp = NULL;
	struct nvc_bo *more[8];
	for (unsigned i = 0; i < 8; i++) {
		more[i] = bo_new(a.t.c, FP_SIZE, NVC_VRAM);
		memset(nvc_bo_map(more[i]), 0xff, FP_SIZE);
	}
	for (unsigned i = 0; i < 3; i++) {
		nvt_ref(p, a.fb, NVC_READ | NVC_WRITE);
		nvt_ref(p, a.zb, NVC_READ | NVC_WRITE);
		clear_color(p, 0);
		draw_covering(p);
		NVT_OK(submit_wait(p));
		assert_int_equal(nv_rd32le(a.fbmap + 10 * 256 + 10 * 4), SECRET_PIXEL);
	}
	for (unsigned i = 0; i < 8; i++)
		NVT_OK(nvc_bo_free(more[i]));
	a3d_close(&a);
}

static void test_freed_program_buffer_leaves_the_shadow_copy_drawing(void **state)
{
	nvt_attack(nvt_d(state), attack_freed_fp_bo, NULL);
}

/* ---- what the card does inside a primitive, across submissions and
 * through the model's other rules (the first round of the #17 audit) ---- */

/* One immediate-mode vertex: writing attribute 0 emits it. */
static void vertex_now(struct nvt_push *p)
{
	M3(p, NV_CURIE_VTX_ATTR_4F, 0, 0, 0, 0x3f800000);
}

/* The colour buffer grown between VERTEX_BEGIN_END and the immediate
 * vertices: those vertices draw, so they are checked, and refused. */
static void attack_rt_grown_inside_a_primitive(struct nvt_daemon *d, struct nvt_honest *h,
					       void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	ref_draw(&a);
	draw_state(p, &a, 64);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	vertex_now(p);
	vertex_now(p);
	vertex_now(p);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	NVT_OK(submit_wait(p));
	ref_draw(&a);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	M3(p, NV_CURIE_RT_VERT, 4096u << 16);      /* 4096 rows of 256 bytes: 1 MiB */
	vertex_now(p);
	NVT_ERR(submit_wait(p), -EFAULT);
	a3d_close(&a);
}

static void test_render_target_grown_between_begin_and_immediate_vertices(void **state)
{
	nvt_attack(nvt_d(state), attack_rt_grown_inside_a_primitive, NULL);
}

/* A texture grown inside a primitive the same way: 64x64 to 4096x4096. */
static void attack_texture_grown_inside_a_primitive(struct nvt_daemon *d, struct nvt_honest *h,
						    void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	ref_draw(&a);
	nvt_ref(p, a.ro, NVC_READ);
	draw_state(p, &a, 64);
	tex_bind(p, 0, addr(a.ro), tex_fmt, 1);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	vertex_now(p);
	NVT_OK(submit_wait(p));                      /* the primitive stays open */
	ref_draw(&a);
	nvt_ref(p, a.ro, NVC_READ);
	M3(p, NV_CURIE_TEX_NPOT_SIZE, 4096u << 16 | 4096);
	vertex_now(p);
	NVT_ERR(submit_wait(p), -EFAULT);
	a3d_close(&a);
}

static void test_texture_grown_inside_an_open_primitive(void **state)
{
	nvt_attack(nvt_d(state), attack_texture_grown_inside_a_primitive, NULL);
}

/* A primitive left open by one submission, its colour buffer freed and
 * gone (the client's next submission takes what it closed with it, after
 * which the memory may be anybody's): the next vertices are checked
 * against their own submission's buffers, and the freed one is not among
 * them. */
static void attack_primitive_left_open(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	ref_draw(&a);
	draw_state(p, &a, 64);
	M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	vertex_now(p);
	NVT_OK(submit_wait(p));
	NVT_OK(nvc_bo_free(a.fb));
	a.fb = NULL;
	M3(p, NV_CURIE_NOP, 0);
	NVT_OK(submit_wait(p));                      /* the closed buffer goes with it */
	nvt_ref(p, a.zb, NVC_READ | NVC_WRITE);
	nvt_ref(p, a.vb, NVC_READ);
	vertex_now(p);
	vertex_now(p);
	NVT_ERR(submit_wait(p), -EFAULT);
	a3d_close(&a);
}

static void test_primitive_left_open_over_a_freed_colour_buffer(void **state)
{
	nvt_attack(nvt_d(state), attack_primitive_left_open, NULL);
}

/* TEX_FORMAT with both DMA bits: the card reads through DMA_TEXTURE0.
 * With DMA_TEXTURE0 the GART ctxdma and DMA_TEXTURE1 VRAM, a 64x64
 * texture at the VRAM offset of the attacker's ro buffer would be read from
 * GART, where no listed buffer holds 16 KiB: refused.  Through DMA1 alone
 * it is ro's, and fine. */
static void attack_texture_both_dma_bits(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	const uint32_t dma1 = (tex_fmt & ~NV40_TEX_FORMAT_DMA0) | NV40_TEX_FORMAT_DMA1;
	for (unsigned round = 0; round < 2; round++) {
		ref_draw(&a);
		nvt_ref(p, a.ro, NVC_READ);
		M3(p, NV_CURIE_DMA_TEXTURE0, a.gart, a.vram);
		rt_linear(p, addr(a.fb), 256, addr(a.zb), 256, 0, 0, 64, 64);
		M3(p, NV_CURIE_FP_ACTIVE_PROGRAM, addr(a.fp) | NV40_FP_PROGRAM_DMA1);
		vtx_arrays(p, &a);
		tex_bind(p, 0, addr(a.ro), round ? dma1 | NV40_TEX_FORMAT_DMA0 : dma1, 1);
		draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
		NVT_ERR(submit_wait(p), round ? -EFAULT : 0);
	}
	a3d_close(&a);
}

static void test_texture_with_both_dma_bits_reads_through_dma_texture0(void **state)
{
	nvt_attack(nvt_d(state), attack_texture_both_dma_bits, NULL);
}

/* The depth bounds test reads zeta: with it alone on (no depth test,
 * write or stencil), zeta past its buffer is refused. */
static void attack_depth_bounds_zeta(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct a3d a;
	(void)h;
	(void)arg;
	a3d_open(d, &a);
	struct nvt_push *p = &a.t.p;
	ref_draw(&a);
	/* 64 x 256 rows of zeta: four times zb */
	rt_linear(p, addr(a.fb), 256, addr(a.zb), 256, 0, 0, 64, 256);
	fp_bind(p, addr(a.fp));
	vtx_arrays(p, &a);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_OK(submit_wait(p));                      /* zeta unused: fine */
	ref_draw(&a);
	M3(p, NV_CURIE_DEPTH_BOUNDS_TEST_ENABLE, 1, 0, 0x3f800000);
	draw_arrays(p, NV40_PRIM_TRIANGLES, 0, 3);
	NVT_ERR(submit_wait(p), -EFAULT);
	a3d_close(&a);
}

static void test_depth_bounds_test_reads_zeta_past_its_buffer(void **state)
{
	nvt_attack(nvt_d(state), attack_depth_bounds_zeta, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_clear_colour_buffer_one_row_past_its_buffer),
		NVT_TEST(test_draw_colour_buffer_one_row_past_its_buffer),
		NVT_TEST(test_swizzled_render_target_too_big_for_its_buffer),
		NVT_TEST(test_zeta_too_small_with_depth_test_on),
		NVT_TEST(test_clear_into_other_clients_bo_address),
		NVT_TEST(test_render_target_in_a_buffer_listed_read_only),
		NVT_TEST(test_texture_levels_run_past_their_buffer),
		NVT_TEST(test_vertex_batch_reads_past_the_vertex_buffer),
		NVT_TEST(test_inline_index_beyond_the_vertex_buffer),
		NVT_TEST(test_query_fence_and_condition_at_the_last_bytes),
		NVT_TEST(test_render_condition_read_through_a_later_dma_query),
		NVT_TEST(test_fragment_program_start_outside_its_buffer),
		NVT_TEST(test_moved_bo_used_at_its_old_gart_address),
		NVT_TEST(test_program_without_end_never_runs_into_another_clients_buffer),
		NVT_TEST(test_program_rewritten_through_the_mapping_after_submit),
		NVT_TEST(test_freed_program_buffer_leaves_the_shadow_copy_drawing),
		NVT_TEST(test_render_target_grown_between_begin_and_immediate_vertices),
		NVT_TEST(test_texture_grown_inside_an_open_primitive),
		NVT_TEST(test_primitive_left_open_over_a_freed_colour_buffer),
		NVT_TEST(test_texture_with_both_dma_bits_reads_through_dma_texture0),
		NVT_TEST(test_depth_bounds_test_reads_zeta_past_its_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
