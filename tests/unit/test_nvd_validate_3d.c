/* The 3D launch-time extent checks (nvd/validate-3d.c): for each rule the
 * exact case passes and the one-past case is refused.  Extents by hand in
 * the comments; buffers: colour/zeta in VRAM, vertex and index data in
 * GART, a 32-byte fence notifier and a query page as DMA_BO ctxdmas. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/access.h"
#include "hw/enums-2d.h"
#include "hw/enums-3d.h"
#include "hw/fp-isa.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "hw/tex-layout.h"
#include "nvd/validate.h"

#define PB_ADDR   0x00100000u
#define PB_SIZE   0x10000u
#define FB_ADDR   0x00200000u
#define FB_SIZE   0x00100000u         /* 1 MiB */
#define RO_ADDR   0x00400000u         /* read-only VRAM (textures) */
#define RO_SIZE   0x00010000u
#define VB_ADDR   0x00800000u         /* GART */
#define VB_SIZE   0x1000u
#define IDX_ADDR  0x00a00000u         /* GART, written by an M2MF copy */
#define STG_ADDR  0x00b00000u         /* GART, the copy's source */
#define FPM_ADDR  0x00300000u         /* VRAM, fragment programs (mapped) */
#define FPM_SIZE  0x1000u

enum { BO_PUSH, BO_FB, BO_RO, BO_VB, BO_IDX, BO_STG, BO_FPM, NBOS };
static uint8_t pushmem[PB_SIZE], vbmem[VB_SIZE], idxmem[0x1000], stgmem[0x1000], fpmem[FPM_SIZE];
static struct nvd_vbo bos[NBOS] = {
	[BO_PUSH] = { PB_ADDR, PB_SIZE, NVD_DOMAIN_GART, NVD_ACCESS_READ, pushmem },
	[BO_FB]   = { FB_ADDR, FB_SIZE, NVD_DOMAIN_VRAM, NVD_ACCESS_READ | NVD_ACCESS_WRITE, NULL },
	[BO_RO]   = { RO_ADDR, RO_SIZE, NVD_DOMAIN_VRAM, NVD_ACCESS_READ, NULL },
	[BO_VB]   = { VB_ADDR, VB_SIZE, NVD_DOMAIN_GART, NVD_ACCESS_READ, vbmem },
	[BO_IDX]  = { IDX_ADDR, 0x1000, NVD_DOMAIN_GART, NVD_ACCESS_READ | NVD_ACCESS_WRITE, idxmem },
	[BO_STG]  = { STG_ADDR, 0x1000, NVD_DOMAIN_GART, NVD_ACCESS_READ, stgmem },
	[BO_FPM]  = { FPM_ADDR, FPM_SIZE, NVD_DOMAIN_VRAM, NVD_ACCESS_READ | NVD_ACCESS_WRITE, fpmem },
};

enum { H_NULL = 0, H_VRAM = 0xbeef0201, H_GART = 0xbeef0202, H_FENCE = 0xbeef1e00,
       H_QUERY = 0xbeef0351, H_NTFY = 0xbeef0301, H_3D = 0xbeef3097, H_M2MF = 0xbeef3901 };
static const struct nvd_vobj objs[] = {
	{ H_NULL, NV_CLASS_NULL_OBJ, NVD_VOBJ_NULL, 0, 0, 0 },
	{ H_VRAM, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_VRAM, 0, 0, 0 },
	{ H_GART, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_GART, 0, 0, 0 },
	{ H_FENCE, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_BO, NVD_DOMAIN_GART, 0x00900000, 32 },
	{ H_NTFY, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_BO, NVD_DOMAIN_GART, 0x00901000, 32 },
	{ H_QUERY, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_BO, NVD_DOMAIN_GART, 0x00902000, 4096 - 128 },
	{ H_3D, NV_CLASS_CURIE_NV40, NVD_VOBJ_GR, 0, 0, 0 },
	{ H_M2MF, NV_CLASS_M2MF, NVD_VOBJ_GR, 0, 0, 0 },
};

static const struct nvd_vobj *lookup(void *ctx, uint32_t handle)
{
	(void)ctx;
	for (unsigned i = 0; i < sizeof(objs) / sizeof(objs[0]); i++)
		if (objs[i].handle == handle)
			return &objs[i];
	return NULL;
}

#define S3D 7
#define OUT_CAP 0x4000
static struct nvd_vstate *vs;
static uint32_t out[OUT_CAP];
static struct nvd_verror err;
static uint32_t pn;

static void emit(uint32_t w)
{
	nv_wr32le(pushmem + 4 * pn++, w);
}

static void pkt(int ni, uint32_t mthd, unsigned n, const uint32_t *d)
{
	emit(ni ? NV_CMD_NONINC_WORD(S3D, mthd, n) : NV_CMD_INC_WORD(S3D, mthd, n));
	for (unsigned i = 0; i < n; i++)
		emit(d[i]);
}
#define NARGS(...) (sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4)
#define INC(m, ...) pkt(0, m, NARGS(__VA_ARGS__), (const uint32_t[]){ __VA_ARGS__ })
#define NI(m, ...)  pkt(1, m, NARGS(__VA_ARGS__), (const uint32_t[]){ __VA_ARGS__ })

/* The channel's fragment program shadow: FP_AREA bytes at FP_AREA_ADDR of
 * VRAM, its first slot after the 64 bytes of the END template. */
#define FP_AREA      (256u << 10)
#define FP_AREA_ADDR 0x07000000u
#define FP_FIRST     64u
enum { FH_M2MF = 0x8000f001, FH_SRC_VRAM, FH_SRC_GART, FH_DST, FH_SW, FH_TEX };
static struct nvd_vfp fpsh = { 0, FP_AREA_ADDR, FP_AREA,
			       FH_M2MF, FH_SRC_VRAM, FH_SRC_GART, FH_DST, FH_SW, FH_TEX, -1 };

static long submit(void)
{
	struct nvd_submit_push p = { BO_PUSH, 0, pn * 4 };
	struct nvd_vsubmit s = { bos, NBOS, &p, 1, NULL, 0, lookup, NULL, 0, NULL, &fpsh };
	long n = nvd_validate(vs, &s, out, OUT_CAP, &err);
	pn = 0;
	return n;
}

static void assert_ok(long n)
{
	if (n < 0)
		print_error("refused: %ld %s (mthd 0x%x)\n", n, err.why, err.mthd);
	assert_true(n > 0);
}

static void assert_refused(long n, int e, uint32_t mthd)
{
	if (n != e)
		print_error("got %ld, want %d (%s)\n", n, e, err.why);
	assert_int_equal(n, e);
	assert_int_equal(err.mthd, mthd);
	assert_true(err.why[0] != 0);
}

/* Mesa's init: ctxdmas as nv30_screen.c binds them. */
static void init3d(void)
{
	INC(NV_FIFO_OBJECT, H_3D);
	INC(NV_CURIE_DMA_NOTIFY, H_NTFY, H_VRAM, H_GART, H_VRAM, H_NULL, H_VRAM, H_VRAM, H_VRAM,
	    H_GART, H_FENCE, H_QUERY, H_NULL, H_NULL, H_VRAM, H_VRAM);
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, (FB_ADDR + 0x80000) | NV40_FP_PROGRAM_DMA0);
}

/* A linear w x h A8R8G8B8 colour buffer (and Z24S8 zeta) at off, pitch. */
static void fb(uint32_t off, uint32_t pitch, unsigned w, unsigned h, uint32_t zoff)
{
	INC(NV_CURIE_RT_HORIZ, w << 16, h << 16,
	    NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8);
	INC(NV_CURIE_ZETA_PITCH, pitch);
	INC(NV_CURIE_COLOR0_PITCH, pitch, off, zoff);
	INC(NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0));
}

static int setup(void **state)
{
	(void)state;
	vs = nvd_vstate_new();
	pn = 0;
	fpsh.head = 0;
	return vs ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	nvd_vstate_free(vs);
	return 0;
}

/* 256 x 255 rows of 1024 bytes at the end of the 1 MiB buffer:
 * 254 * 1024 + 256 * 4 = 0x3fc00 bytes from 0xc0400 ends at 0x100000. */
static void test_clear_colour_exactly_fills_the_buffer(void **state)
{
	(void)state;
	init3d();
	fb(FB_ADDR + 0xc0400, 1024, 256, 255, FB_ADDR);
	INC(NV_CURIE_CLEAR_BUFFERS, 0xf0);
	assert_ok(submit());
	/* one row more runs 1024 bytes past the buffer */
	fb(FB_ADDR + 0xc0400, 1024, 256, 256, FB_ADDR);
	INC(NV_CURIE_CLEAR_BUFFERS, 0xf0);
	assert_refused(submit(), -EFAULT, NV_CURIE_CLEAR_BUFFERS);
}

/* RT_HORIZ x counts: x = 1, w = 255 covers the same 256 columns. */
static void test_clear_rt_origin_extends_the_extent(void **state)
{
	(void)state;
	init3d();
	fb(FB_ADDR + FB_SIZE - 1024, 1024, 256, 1, FB_ADDR);
	INC(NV_CURIE_RT_HORIZ, 255u << 16 | 1);
	INC(NV_CURIE_CLEAR_BUFFERS, 0xf0);
	assert_ok(submit());
	INC(NV_CURIE_RT_HORIZ, 255u << 16 | 2);
	INC(NV_CURIE_CLEAR_BUFFERS, 0xf0);
	assert_refused(submit(), -EFAULT, NV_CURIE_CLEAR_BUFFERS);
}

/* Zeta is checked only when a clear or draw uses it. */
static void test_clear_zeta_checked_only_when_cleared(void **state)
{
	(void)state;
	init3d();
	/* zeta 64 KiB before the end: 16 rows of 4096 */
	fb(FB_ADDR, 4096, 1024, 16, FB_ADDR + FB_SIZE - 0x10000);
	INC(NV_CURIE_CLEAR_BUFFERS, 0x03);
	assert_ok(submit());
	fb(FB_ADDR, 4096, 1024, 17, FB_ADDR + FB_SIZE - 0x10000);
	INC(NV_CURIE_CLEAR_BUFFERS, 0xf0);              /* colour only: zeta unused */
	assert_ok(submit());
	INC(NV_CURIE_CLEAR_BUFFERS, 0x01);
	assert_refused(submit(), -EFAULT, NV_CURIE_CLEAR_BUFFERS);
}

/* Swizzled 2^8 x 2^8 x 4 bytes = 256 KiB: fits at 0xc0000, not at 0xc0040. */
static void test_clear_swizzled_extent(void **state)
{
	(void)state;
	init3d();
	INC(NV_CURIE_RT_HORIZ, 256u << 16, 256u << 16,
	    NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_SWIZZLED << 8 |
	    8u << 16 | 8u << 24);
	INC(NV_CURIE_COLOR0_PITCH, 64, FB_ADDR + 0xc0000);
	INC(NV_CURIE_RT_ENABLE, 1);
	INC(NV_CURIE_CLEAR_BUFFERS, 0xf0);
	assert_ok(submit());
	INC(NV_CURIE_COLOR0_OFFSET, FB_ADDR + 0xc0040);
	INC(NV_CURIE_CLEAR_BUFFERS, 0xf0);
	assert_refused(submit(), -EFAULT, NV_CURIE_CLEAR_BUFFERS);
}

/* The colour buffer must be writable: a read-only buffer is refused. */
static void test_clear_into_read_only_buffer_refused(void **state)
{
	(void)state;
	init3d();
	fb(RO_ADDR, 64, 16, 16, FB_ADDR);
	INC(NV_CURIE_CLEAR_BUFFERS, 0xf0);
	assert_refused(submit(), -EFAULT, NV_CURIE_CLEAR_BUFFERS);
}

/* A draw with a bad colour buffer is refused at its first vertex, even
 * when its primitive was opened by an earlier submission; ending an open
 * primitive draws (what is left of it) too. */
static void test_draw_checks_render_targets_at_every_vertex(void **state)
{
	(void)state;
	init3d();
	fb(FB_ADDR + 0xc0400, 1024, 256, 256, FB_ADDR);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);    /* stop draws nothing */
	assert_ok(submit());
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	assert_ok(submit());                               /* opened, nothing drawn yet */
	NI(NV_CURIE_VERTEX_DATA, 0);
	assert_refused(submit(), -EFAULT, NV_CURIE_VERTEX_DATA);
	INC(NV_CURIE_VTX_ATTR_4F, 0, 0, 0, 0);
	assert_refused(submit(), -EFAULT, NV_CURIE_VTX_ATTR_4F);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	assert_refused(submit(), -EFAULT, NV_CURIE_VERTEX_BEGIN_END);
}

/* Vertex buffer: stride 16, 12-byte attribute at VB_ADDR + 4: vertex i reads
 * [4 + 16 i, 16 + 16 i); i = 255 ends at 0x1000, 256 does not fit. */
static void vtx_setup(void)
{
	init3d();
	fb(FB_ADDR, 1024, 256, 256, FB_ADDR + 0x80000);
	INC(NV_CURIE_VTXFMT, 16u << 8 | 3u << 4 | NV40_VTXFMT_V32_FLOAT);
	INC(NV_CURIE_VTXBUF, (VB_ADDR + 4) | NV40_VTXBUF_DMA1);
	INC(NV_CURIE_VP_ATTRIB_EN, 1);     /* the program reads attribute 0 */
}

static void test_vertex_batch_last_vertex(void **state)
{
	(void)state;
	vtx_setup();
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI(NV_CURIE_VB_VERTEX_BATCH, 0xff000000u | 0, 0x00000000u | 255);   /* 0..255 */
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	assert_ok(submit());
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI(NV_CURIE_VB_VERTEX_BATCH, 0x01000000u | 255);                    /* 255..256 */
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_VERTEX_BATCH);
}

static void test_inline_indices_bounded_by_vertex_buffers(void **state)
{
	(void)state;
	vtx_setup();
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI(NV_CURIE_VB_ELEMENT_U16, 0x00ff0000u | 3);
	INC(NV_CURIE_VB_ELEMENT_U32, 255);
	assert_ok(submit());
	INC(NV_CURIE_VB_ELEMENT_U16, 0x01000000u);
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_ELEMENT_U16);
	/* the base is added: 200 + 56 = 256 */
	INC(NV_CURIE_VB_ELEMENT_BASE, 56);
	INC(NV_CURIE_VB_ELEMENT_U32, 199);
	assert_ok(submit());
	INC(NV_CURIE_VB_ELEMENT_U32, 200);
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_ELEMENT_U32);
	/* a negative base does not wrap below the buffer: the card traps */
	INC(NV_CURIE_VB_ELEMENT_BASE, (uint32_t)-1);
	INC(NV_CURIE_VB_ELEMENT_U32, 0);
	assert_refused(submit(), -EINVAL, NV_CURIE_VB_ELEMENT_U32);
	/* the restart index fetches nothing */
	INC(NV_CURIE_PRIMITIVE_RESTART_ENABLE, 1, 0xffffffffu);
	INC(NV_CURIE_VB_ELEMENT_U32, 0xffffffffu);
	assert_ok(submit());
}

/* Inline vertices fetch nothing, but a stale vertex buffer does not matter. */
static void test_inline_vertex_data_ignores_vertex_buffers(void **state)
{
	(void)state;
	vtx_setup();
	INC(NV_CURIE_VTXBUF, (VB_ADDR + VB_SIZE - 4) | NV40_VTXBUF_DMA1);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_POINTS);
	NI(NV_CURIE_VERTEX_DATA, 0, 0, 0);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	assert_ok(submit());
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_POINTS);
	NI(NV_CURIE_VB_VERTEX_BATCH, 0);
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_VERTEX_BATCH);
}

/* The output holds the inline packet of `n` indices `want`, and no
 * VB_INDEX_BATCH: the card never reads indices from the client. */
static void assert_inline(long words, const uint32_t *want, unsigned n)
{
	long at = -1;
	for (long k = 0; k < words; k++) {
		uint32_t w = nv_rd32le(&out[k]);
		assert_int_not_equal(w & 0x1ffc, NV_CURIE_VB_INDEX_BATCH);
		if (w == NV_CMD_NONINC_WORD(S3D, NV_CURIE_VB_ELEMENT_U32, n))
			at = k;
	}
	assert_true(at >= 0 && at + (long)n < words);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(nv_rd32le(&out[at + 1 + i]), want[i]);
}

/* VB_INDEX_BATCH (0x4097): the daemon reads the indices (u16 ending at
 * VB_ADDR + 0x1000, u32 at VB_ADDR + 0xf00) and sends them inline, each
 * checked against the vertex buffers (vertices 0..255 here): indices that
 * fit pass although the type could reach further; one past the buffers, or
 * a range past the index buffer, is refused. */
static void test_index_batches_become_inline_indices(void **state)
{
	static const uint32_t i16[8] = { 0, 1, 2, 2, 1, 255, 7, 3 }, i32[3] = { 0, 255, 100 };
	(void)state;
	for (unsigned i = 0; i < 8; i++) {
		vbmem[0xff0 + 2 * i] = (uint8_t)i16[i];
		vbmem[0xff0 + 2 * i + 1] = (uint8_t)(i16[i] >> 8);
	}
	for (unsigned i = 0; i < 3; i++)
		nv_wr32le(vbmem + 0xf00 + 4 * i, i32[i]);
	vtx_setup();
	INC(NV_CURIE_IDXBUF_OFFSET, VB_ADDR + 0xff0, NV40_IDXBUF_TYPE_U16 | NV40_IDXBUF_DMA1);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI(NV_CURIE_VB_INDEX_BATCH, 0x07000000u);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	long n = submit();
	assert_ok(n);
	assert_inline(n, i16, 8);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI(NV_CURIE_VB_INDEX_BATCH, 0x07000001u);                /* one index past its buffer */
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_INDEX_BATCH);
	vbmem[0xff0 + 2 * 5 + 1] = 1;                            /* index 511: past the vertices */
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI(NV_CURIE_VB_INDEX_BATCH, 0x07000000u);
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_INDEX_BATCH);
	INC(NV_CURIE_IDXBUF_OFFSET, VB_ADDR + 0xf00, NV40_IDXBUF_DMA1);   /* u32 */
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI(NV_CURIE_VB_INDEX_BATCH, 0x02000000u);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	n = submit();
	assert_ok(n);
	assert_inline(n, i32, 3);
	nv_wr32le(vbmem + 0xf04, 0x100000);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI(NV_CURIE_VB_INDEX_BATCH, 0x02000000u);
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_INDEX_BATCH);
}

/* Mesa uploads an element buffer with M2MF and draws from it in the same
 * submission: the indices are read from the copy's source, the buffer itself
 * (zeros now) being what the card has not written yet. */
static void test_index_batch_reads_through_an_m2mf_copy(void **state)
{
	static const uint32_t want[4] = { 3, 1, 200, 7 };
	(void)state;
	memset(idxmem, 0, sizeof(idxmem));
	for (unsigned i = 0; i < 4; i++) {
		stgmem[2 * i] = (uint8_t)want[i];
		stgmem[2 * i + 1] = (uint8_t)(want[i] >> 8);
	}
	vtx_setup();
	emit(NV_CMD_INC_WORD(2, NV_FIFO_OBJECT, 1));
	emit(H_M2MF);
	emit(NV_CMD_INC_WORD(2, NV_M2MF_DMA_BUFFER_IN, 2));
	emit(H_GART);
	emit(H_GART);
	emit(NV_CMD_INC_WORD(2, NV_M2MF_OFFSET_IN, 8));
	emit(STG_ADDR);
	emit(IDX_ADDR + 0x100);
	const uint32_t m2mf_rest[] = { 8, 8, 8, 1, 1 | 1 << 8, 0 };   /* pitches, length, lines, FORMAT, BUF_NOTIFY */
	for (unsigned i = 0; i < 6; i++)
		emit(m2mf_rest[i]);
	INC(NV_CURIE_IDXBUF_OFFSET, IDX_ADDR + 0x100, NV40_IDXBUF_TYPE_U16 | NV40_IDXBUF_DMA1);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI(NV_CURIE_VB_INDEX_BATCH, 0x03000000u);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	/* the same stream twice: with index 2 fitting, then past the vertices */
	uint32_t words = pn;
	uint32_t saved[256];
	memcpy(saved, pushmem, words * 4);
	long n = submit();
	assert_ok(n);
	assert_inline(n, want, 4);
	stgmem[5] = 1;                                   /* index 2 becomes 456 */
	memcpy(pushmem, saved, words * 4);
	pn = words;
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_INDEX_BATCH);
}

/* Texture 0: 64 x 64 A8R8G8B8 swizzled, 7 levels: 4 * (4096 + 1024 + 256 +
 * 64 + 16 + 4 + 1) = 21844 bytes; at RO_ADDR + 0x10000 - 21844 it ends at the
 * end of the read-only buffer (reading is all it needs). */
static void test_texture_extent(void **state)
{
	(void)state;
	uint32_t fmt = NV40_TEX_FORMAT_DMA0 | 2u << 4 | NV40_TEX_FMT_A8R8G8B8 << 8 | 0x8000 |
		       7u << 16;
	assert_int_equal(nv40_tex_extent(fmt, 64u << 16 | 64, 1u << 20), 21844);
	vtx_setup();
	INC(NV_CURIE_TEX_OFFSET, RO_ADDR + RO_SIZE - 21844, fmt);
	INC(NV_CURIE_TEX_ENABLE, NV40_TEX_ENABLE_ON);
	INC(NV_CURIE_TEX_NPOT_SIZE, 64u << 16 | 64);
	INC(NV_CURIE_TEX_SIZE1, 1u << 20);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	assert_ok(submit());
	INC(NV_CURIE_TEX_OFFSET, RO_ADDR + RO_SIZE - 21840);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	assert_refused(submit(), -EFAULT, NV_CURIE_VERTEX_BEGIN_END);
	/* disabled units are not looked at */
	INC(NV_CURIE_TEX_ENABLE, 0);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	assert_ok(submit());
}

/* Cube, linear and DXT layouts by hand. */
static void test_texture_layouts(void **state)
{
	(void)state;
	/* 16x16 A8R8G8B8 cube, 1 level: 1024 per face, aligned 128: 6144 */
	assert_int_equal(nv40_tex_extent(NV40_TEX_FORMAT_CUBIC | 2u << 4 | 0x500 | 1u << 16,
					 16u << 16 | 16, 1u << 20), 6144);
	/* 8x8 DXT1, 4 levels: blocks 2x2, 1x1, 1x1, 1x1 of 8 bytes: 56 */
	assert_int_equal(nv40_tex_extent(2u << 4 | 0x600 | 4u << 16, 8u << 16 | 8, 1u << 20), 56);
	/* 100x30 linear R5G6B5, pitch 256: 7680 */
	assert_int_equal(nv40_tex_extent(2u << 4 | 0x400 | NV40_TEX_FORMAT_LINEAR | 1u << 16,
					 100u << 16 | 30, 1u << 20 | 256), 7680);
	/* 3D 4x4x4 L8, 3 levels: 64 + 8 + 1 */
	assert_int_equal(nv40_tex_extent(3u << 4 | 0x100 | 3u << 16, 4u << 16 | 4, 4u << 20), 73);
	/* unknown format, zero size */
	assert_int_equal(nv40_tex_extent(2u << 4 | 0x1e00, 4u << 16 | 4, 1u << 20), 0);
	assert_int_equal(nv40_tex_extent(2u << 4 | 0x500, 0, 1u << 20), 0);
}

/* The fragment program's first instruction must be readable. */
static void test_fragment_program_start(void **state)
{
	(void)state;
	vtx_setup();
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, (FB_ADDR + FB_SIZE - 16) | NV40_FP_PROGRAM_DMA0);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	assert_ok(submit());
	/* inside, but its first instruction is not */
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, (FB_ADDR + FB_SIZE - 12) | NV40_FP_PROGRAM_DMA0);
	assert_refused(submit(), -EFAULT, NV_CURIE_FP_ACTIVE_PROGRAM);
	/* neither ctxdma bit, or both (Mesa names one) */
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, FB_ADDR);
	assert_refused(submit(), -EINVAL, NV_CURIE_FP_ACTIVE_PROGRAM);
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, FB_ADDR | 3);
	assert_refused(submit(), -EINVAL, NV_CURIE_FP_ACTIVE_PROGRAM);
}

/* ---- the fragment program's shadow (validate-fp.c) ---- */

/* One instruction at byte off of the program buffer: opcode, END, and
 * SRC0 an inline constant (whose 16 bytes follow) when cst. */
static uint32_t fp_insn(uint32_t off, unsigned op, int end, int cst)
{
	uint32_t w[NV40_FP_INSN_WORDS] = { 0 };
	NV40_FP_SET(w, OPCODE, op);
	NV40_FP_SET(w, END, end ? 1 : 0);
	if (cst)
		NV40_FP_SET(w, SRC0, NV40_FP_SRC_SET(TYPE, NV40_FP_SRC_CONST));
	for (unsigned i = 0; i < NV40_FP_INSN_WORDS; i++)
		nv_wr32le(fpmem + off + 4 * i, w[i]);
	return off + NV40_FP_INSN_BYTES;
}

/* The daemon's copy of len bytes from src into slot and of the two END
 * instructions of the area's start right after them, at out[at..], and the
 * FP_ACTIVE_PROGRAM packet after it naming the slot through DMA0. */
static void assert_fp_copy(unsigned at, uint32_t src, uint32_t slot, uint32_t len)
{
	const uint32_t want[] = {
		NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_FIFO_OBJECT, 1), FH_M2MF,
		NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_M2MF_DMA_BUFFER_IN, 2), FH_SRC_VRAM, FH_DST,
		NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_M2MF_OFFSET_IN, 8), src, slot, len, len, len, 1,
		NV_M2MF_FORMAT(1, 1), 0,
		NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_M2MF_DMA_BUFFER_IN, 1), FH_DST,
		NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_M2MF_OFFSET_IN, 8), 0, slot + len, 32, 32, 32, 1,
		NV_M2MF_FORMAT(1, 1), 0,
		NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_FIFO_OBJECT, 1), FH_SW,
		NV_CMD_INC_WORD(S3D, NV_CURIE_FP_ACTIVE_PROGRAM, 1), (FP_AREA_ADDR + slot) | NV40_FP_PROGRAM_DMA0,
	};
	for (unsigned i = 0; i < sizeof(want) / 4; i++)
		if (nv_rd32le(&out[at + i]) != want[i])
			fail_msg("word %u of the program copy: 0x%08x, want 0x%08x", i,
				 nv_rd32le(&out[at + i]), want[i]);
	/* the slot and its END stay inside the area, clear of the template,
	 * and so does the card's fetch window from the slot (branches) */
	assert_true(slot >= FP_FIRST && slot + len + 32 <= FP_AREA);
	assert_true(slot + NV40_FP_FETCH_MAX <= FP_AREA);
}
#define FP_COPY_WORDS 29

/* Mesa's program (TEX, MOV from an inline constant, END): 64 bytes are
 * copied, whatever follows in its buffer; the card gets the slot. */
static void test_program_bind_becomes_a_copy_of_the_program_into_the_shadow(void **state)
{
	(void)state;
	memset(fpmem, 0xff, sizeof(fpmem));     /* no END bit set past the program */
	uint32_t o = fp_insn(0x100, NV40_FP_OP_TEX, 0, 0);
	o = fp_insn(o, NV40_FP_OP_MOV, 0, 1);
	memset(fpmem + o, 0xff, 16);            /* the constant: END bit and all set */
	o = fp_insn(o + 16, NV40_FP_OP_MOV, 1, 0);
	assert_int_equal(o, 0x140);
	init3d();                               /* binds a program in FB: no map, 64 KiB */
	uint32_t first = pn;
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, (FPM_ADDR + 0x100) | NV40_FP_PROGRAM_DMA0);
	long n = submit();
	assert_ok(n);
	/* init3d's binding took the first slot: 64 KiB + 32 rounded to 64 */
	uint32_t slot = FP_FIRST + NV40_FP_MAX_BYTES + 64;
	assert_fp_copy(first + FP_COPY_WORDS - 2, FPM_ADDR + 0x100, slot, 0x40);
	assert_int_equal(n, first + FP_COPY_WORDS - 2 + FP_COPY_WORDS);
	/* the slot after it: 0x40 + 32 bytes take 128 */
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, (FPM_ADDR + 0x100) | NV40_FP_PROGRAM_DMA0);
	n = submit();
	assert_int_equal(n, FP_COPY_WORDS);
	assert_fp_copy(0, FPM_ADDR + 0x100, slot + 128, 0x40);
}

/* A program without END runs to the end of its buffer: that much is
 * copied (and never more than NV40_FP_MAX_BYTES). */
static void test_program_without_end_is_copied_to_its_buffers_end(void **state)
{
	(void)state;
	memset(fpmem, 0, sizeof(fpmem));        /* NOPs */
	init3d();
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, (FPM_ADDR + 0x800) | NV40_FP_PROGRAM_DMA0);
	long n = submit();
	assert_ok(n);
	assert_fp_copy((uint32_t)n - FP_COPY_WORDS, FPM_ADDR + 0x800, FP_FIRST + NV40_FP_MAX_BYTES + 64,
		       0x800);
	/* in FB (no END known: not mapped here) from 16 bytes before its end */
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, (FB_ADDR + FB_SIZE - 16) | NV40_FP_PROGRAM_DMA0);
	n = submit();
	assert_int_equal(n, FP_COPY_WORDS);
	assert_fp_copy(0, FB_ADDR + FB_SIZE - 16, FP_FIRST + NV40_FP_MAX_BYTES + 64 + 0x840, 16);
}

/* The program comes from an M2MF copy earlier in the submission (Mesa's
 * staging upload): its END is found in the copy's source. */
static void test_program_length_is_read_through_an_earlier_m2mf_copy(void **state)
{
	(void)state;
	memset(fpmem, 0, sizeof(fpmem));        /* the card has not copied yet: NOPs */
	memset(stgmem, 0, sizeof(stgmem));
	uint32_t w[NV40_FP_INSN_WORDS] = { 0 };
	NV40_FP_SET(w, OPCODE, NV40_FP_OP_MOV);
	NV40_FP_SET(w, END, 1);
	for (unsigned i = 0; i < NV40_FP_INSN_WORDS; i++)
		nv_wr32le(stgmem + 0x30 + 4 * i, w[i]);     /* the fourth instruction ends it */
	init3d();
	INC(NV_FIFO_OBJECT, H_3D);
	emit(NV_CMD_INC_WORD(2, NV_FIFO_OBJECT, 1));
	emit(H_M2MF);
	emit(NV_CMD_INC_WORD(2, NV_M2MF_DMA_BUFFER_IN, 2));
	emit(H_GART);
	emit(H_VRAM);
	emit(NV_CMD_INC_WORD(2, NV_M2MF_OFFSET_IN, 8));
	const uint32_t m2mf[] = { STG_ADDR, FPM_ADDR, 0x100, 0x100, 0x100, 1, 0x101, 0 };
	for (unsigned i = 0; i < 8; i++)
		emit(m2mf[i]);
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, FPM_ADDR | NV40_FP_PROGRAM_DMA0);
	long n = submit();
	assert_ok(n);
	assert_fp_copy((uint32_t)n - FP_COPY_WORDS, FPM_ADDR, FP_FIRST + NV40_FP_MAX_BYTES + 64, 0x40);
	/* the daemon's copy left the channel's M2MF without ctxdmas: a copy
	 * that does not set them again is refused */
	emit(NV_CMD_INC_WORD(2, NV_M2MF_BUF_NOTIFY, 1));
	emit(0);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
}

/* Bound again in the same submission, nothing having written its buffer:
 * the slot is reused (the second word only patched); a NONINC packet of
 * binds is cut around each copy. */
static void test_program_bound_twice_in_a_submission_reuses_its_slot(void **state)
{
	(void)state;
	memset(fpmem, 0, sizeof(fpmem));
	fp_insn(0, NV40_FP_OP_MOV, 1, 0);
	fp_insn(0x40, NV40_FP_OP_MOV, 1, 0);
	INC(NV_FIFO_OBJECT, H_3D);
	INC(NV_CURIE_DMA_NOTIFY, H_NTFY, H_VRAM, H_GART);
	NI(NV_CURIE_FP_ACTIVE_PROGRAM, FPM_ADDR | 1, (FPM_ADDR + 0x40) | 1, FPM_ADDR | 1);
	long n = submit();
	/* OBJECT (2) DMA_NOTIFY (4), copy 0, copy 1, the reuse (2) */
	assert_int_equal(n, 6 + 2 * FP_COPY_WORDS + 2);
	assert_fp_copy(6, FPM_ADDR, FP_FIRST, 16);
	/* the second copy right after the first FP_ACTIVE_PROGRAM, the rest of
	 * the packet under a header of its own */
	assert_fp_copy(6 + FP_COPY_WORDS, FPM_ADDR + 0x40, FP_FIRST + 64, 16);
	assert_int_equal(nv_rd32le(&out[n - 2]), NV_CMD_NONINC_WORD(S3D, NV_CURIE_FP_ACTIVE_PROGRAM, 1));
	assert_int_equal(nv_rd32le(&out[n - 1]), (FP_AREA_ADDR + FP_FIRST) | NV40_FP_PROGRAM_DMA0);
}

/* Finding ENDs costs the daemon's loop: one submission reads at most
 * NVD_VFP_READ_MAX program instructions.  Nine programs without END (one
 * more than the slots a submission keeps), bound round, are each read
 * again: refused once that passes the bound, accepted a bind before.  One
 * program bound 5000 times is read once. */
static void test_program_reading_is_bounded_per_submission(void **state)
{
	(void)state;
	memset(fpmem, 0, sizeof(fpmem));        /* NOPs */
	for (int over = 1; over >= 0; over--) {
		INC(NV_FIFO_OBJECT, H_3D);
		INC(NV_CURIE_DMA_NOTIFY, H_NTFY, H_VRAM, H_GART);
		uint32_t reads = 0;
		for (unsigned i = 0;; i++) {
			uint32_t off = i % 9 * 16, n = (FPM_SIZE - off) / 16;
			if (reads + n > NVD_VFP_READ_MAX && !over)
				break;
			INC(NV_CURIE_FP_ACTIVE_PROGRAM, (FPM_ADDR + off) | NV40_FP_PROGRAM_DMA0);
			if ((reads += n) > NVD_VFP_READ_MAX)
				break;
		}
		long n = submit();
		if (!over) {
			assert_ok(n);
			continue;
		}
		assert_refused(n, -EINVAL, NV_CURIE_FP_ACTIVE_PROGRAM);
		assert_non_null(strstr(err.why, "instructions read"));
	}
	INC(NV_FIFO_OBJECT, H_3D);
	INC(NV_CURIE_DMA_NOTIFY, H_NTFY, H_VRAM, H_GART);
	for (unsigned i = 0; i < 5000; i++)
		INC(NV_CURIE_FP_ACTIVE_PROGRAM, FPM_ADDR | NV40_FP_PROGRAM_DMA0);
	assert_ok(submit());
}

/* The card fetches the shadow through DMA_TEXTURE0 = the VRAM ctxdma: a
 * draw after DMA_TEXTURE0 became something else is refused. */
static void test_program_ctxdma_change_refused(void **state)
{
	(void)state;
	memset(fpmem, 0, sizeof(fpmem));
	fp_insn(0, NV40_FP_OP_MOV, 1, 0);
	vtx_setup();
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, FPM_ADDR | NV40_FP_PROGRAM_DMA0);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	assert_ok(submit());
	INC(NV_CURIE_DMA_TEXTURE0, H_GART);
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	assert_refused(submit(), -EFAULT, NV_CURIE_VERTEX_BEGIN_END);
	/* a program in GART through DMA_TEXTURE1 still goes to the VRAM shadow */
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, VB_ADDR | NV40_FP_PROGRAM_DMA1);
	long n = submit();
	assert_ok(n);
	assert_int_equal(nv_rd32le(&out[3]), FH_SRC_GART);
	assert_int_equal(nv_rd32le(&out[n - 1]) & 3, NV40_FP_PROGRAM_DMA0);
}

/* Programs of 64 KiB (in FB: not mapped here, no END known), four in one
 * submission: the fourth goes round to the area's first slot, over the
 * first program's copy, so binding that one again copies it again (after
 * the fourth), as the next one, whose slot that copy covers; the last one
 * bound again, untouched since, reuses its slot.  Mesa's nv30 copies its
 * program again after every constant change, a few KiB a draw: a
 * submission may bind more than the area holds. */
static void test_program_slots_go_round_the_area_in_one_submission(void **state)
{
	(void)state;
	const uint32_t len = NV40_FP_MAX_BYTES, step = NV40_FP_MAX_BYTES + 64;
	const uint32_t prog[4] = { FB_ADDR, FB_ADDR + 0x10000, FB_ADDR + 0x20000, FB_ADDR + 0x30000 };
	const uint32_t slot[6] = { FP_FIRST, FP_FIRST + step, FP_FIRST + 2 * step,
				   FP_FIRST, FP_FIRST + step, FP_FIRST + 2 * step };
	assert_true(FP_FIRST + 3 * step + len + 32 > FP_AREA);   /* a fourth does not fit */
	INC(NV_FIFO_OBJECT, H_3D);
	INC(NV_CURIE_DMA_NOTIFY, H_NTFY, H_VRAM, H_GART);
	for (unsigned i = 0; i < 6; i++)
		INC(NV_CURIE_FP_ACTIVE_PROGRAM, prog[i % 4] | NV40_FP_PROGRAM_DMA0);
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, prog[1] | NV40_FP_PROGRAM_DMA0);
	long n = submit();
	assert_int_equal(n, 6 + 6 * FP_COPY_WORDS + 2);
	for (unsigned i = 0; i < 6; i++)
		assert_fp_copy(6 + i * FP_COPY_WORDS, prog[i % 4], slot[i], len);
	assert_int_equal(nv_rd32le(&out[n - 1]), (FP_AREA_ADDR + slot[5]) | NV40_FP_PROGRAM_DMA0);
	/* the next submission goes on from there: round again */
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, prog[2] | NV40_FP_PROGRAM_DMA0);
	assert_int_equal(submit(), FP_COPY_WORDS);
	assert_fp_copy(0, prog[2], FP_FIRST, len);
}

/* A small program bound in submission after submission takes the slot
 * after the last until the card's fetch window from the next would leave
 * the area (into the next channel's, which the fetch ctxdma covers), then
 * the first again: every slot's window stays in the channel's area. */
static void test_program_slots_keep_the_fetch_window_in_the_area(void **state)
{
	(void)state;
	memset(fpmem, 0xff, sizeof(fpmem));
	fp_insn(0x100, NV40_FP_OP_MOV, 1, 0);   /* 16 bytes: a slot of 64 */
	INC(NV_FIFO_OBJECT, H_3D);
	INC(NV_CURIE_DMA_NOTIFY, H_NTFY, H_VRAM, H_GART);
	uint32_t want = FP_FIRST, slots = 0;
	for (;;) {
		INC(NV_CURIE_FP_ACTIVE_PROGRAM, (FPM_ADDR + 0x100) | NV40_FP_PROGRAM_DMA0);
		long n = submit();
		assert_ok(n);
		assert_fp_copy((unsigned)n - FP_COPY_WORDS, FPM_ADDR + 0x100, want, 16);
		slots++;
		want += 64;
		if (want + NV40_FP_FETCH_MAX > FP_AREA)
			break;
	}
	assert_int_equal(slots, (FP_AREA - NV40_FP_FETCH_MAX - FP_FIRST) / 64 + 1);
	INC(NV_CURIE_FP_ACTIVE_PROGRAM, (FPM_ADDR + 0x100) | NV40_FP_PROGRAM_DMA0);
	assert_fp_copy((unsigned)submit() - FP_COPY_WORDS, FPM_ADDR + 0x100, FP_FIRST, 16);
}

/* Fence: 4 bytes inside the 32-byte notifier; query: 16 bytes in 3968. */
static void test_fence_and_query_targets(void **state)
{
	(void)state;
	init3d();
	INC(NV_CURIE_FENCE_OFFSET, 28, 1);
	INC(NV_CURIE_QUERY_GET, 1u << 24 | (3968 - 16));
	assert_ok(submit());
	INC(NV_CURIE_FENCE_OFFSET, 29);
	INC(NV_CURIE_FENCE_VALUE, 2);
	assert_refused(submit(), -EFAULT, NV_CURIE_FENCE_VALUE);
	INC(NV_CURIE_QUERY_GET, 1u << 24 | (3968 - 15));
	assert_refused(submit(), -EFAULT, NV_CURIE_QUERY_GET);
}

/* The render condition's report is read at every draw, through whatever
 * DMA_QUERY is bound then: checked there, not when it is set. */
static void test_render_condition_is_checked_at_every_draw(void **state)
{
	(void)state;
	vtx_setup();
	INC(NV_CURIE_UNK1E98, 0x02000000u | (3968 - 16));
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	NI(NV_CURIE_VB_VERTEX_BATCH, 0);
	assert_ok(submit());
	INC(NV_CURIE_UNK1E98, 0x02000000u | (3968 - 8));
	assert_ok(submit());                               /* set, not used yet */
	NI(NV_CURIE_VB_VERTEX_BATCH, 0);
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_VERTEX_BATCH);
	/* a good offset through another DMA_QUERY: the fence notifier, too small */
	INC(NV_CURIE_UNK1E98, 0x02000000u | 20);
	INC(NV_CURIE_DMA_QUERY, H_FENCE);
	NI(NV_CURIE_VB_VERTEX_BATCH, 0);
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_VERTEX_BATCH);
}

/* A refused draw leaves the state as before: the next good one passes. */
static void test_refusal_rolls_back_3d_state(void **state)
{
	(void)state;
	vtx_setup();
	assert_ok(submit());
	INC(NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_POINTS);
	assert_ok(submit());
	INC(NV_CURIE_VTXBUF, (VB_ADDR + VB_SIZE - 8) | NV40_VTXBUF_DMA1);
	INC(NV_CURIE_VB_VERTEX_BATCH, 0);
	assert_refused(submit(), -EFAULT, NV_CURIE_VB_VERTEX_BATCH);
	INC(NV_CURIE_VB_VERTEX_BATCH, 255);
	assert_ok(submit());
}

/* Mesa's clear sequence (nv30_validate_fb + nv30_clear) on a 1024x768
 * X8R8G8B8 window with Z24S8, pitch 4096, passes. */
static void test_mesa_clear_stream_passes(void **state)
{
	(void)state;
	init3d();
	INC(NV_CURIE_UNK1DA4, 0);
	INC(NV_CURIE_RT_HORIZ, 1024u << 16, 768u << 16,
	    NV40_RT_COLOR_X8R8G8B8_O8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8);
	INC(NV_CURIE_VIEWPORT_TX_ORIGIN, 0, 0, 1023u << 16, 767u << 16);
	INC(NV_CURIE_ZETA_PITCH, 4096);
	/* both buffers in one 6 MiB-like range: colour at 0, zeta at 3 MiB are
	 * too big for the 1 MiB test buffer, so 256 rows of each */
	INC(NV_CURIE_RT_VERT, 128u << 16);
	INC(NV_CURIE_COLOR0_PITCH, 4096, FB_ADDR, FB_ADDR + 0x80000);
	INC(NV_CURIE_RT_ENABLE, 1);
	INC(NV_CURIE_SCISSOR_HORIZ, 0x10000000, 0x10000000);
	INC(NV_CURIE_STENCIL_ENABLE, 0, 0xff);
	INC(NV_CURIE_CLEAR_DEPTH_VALUE, 0xffffff00, 0, 0xf3);
	assert_ok(submit());
}

/* The VRAM ctxdma in DMA_TEXTURE0/1 goes to the card as the daemon's
 * read-only one (which also covers the program shadows); anywhere else,
 * and the GART one, as written.  Textures are still checked as VRAM. */
static void test_texture_ctxdmas_become_the_read_only_one(void **state)
{
	(void)state;
	INC(NV_FIFO_OBJECT, H_3D);
	INC(NV_CURIE_DMA_TEXTURE0, H_VRAM, H_GART);
	INC(NV_CURIE_DMA_COLOR0, H_VRAM);
	INC(NV_CURIE_DMA_TEXTURE1, H_VRAM);
	assert_int_equal(submit(), 9);
	assert_int_equal(nv_rd32le(&out[3]), FH_TEX);
	assert_int_equal(nv_rd32le(&out[4]), H_GART);
	assert_int_equal(nv_rd32le(&out[6]), H_VRAM);
	assert_int_equal(nv_rd32le(&out[8]), FH_TEX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_clear_colour_exactly_fills_the_buffer),
		T(test_clear_rt_origin_extends_the_extent),
		T(test_clear_zeta_checked_only_when_cleared),
		T(test_clear_swizzled_extent),
		T(test_clear_into_read_only_buffer_refused),
		T(test_draw_checks_render_targets_at_every_vertex),
		T(test_vertex_batch_last_vertex),
		T(test_inline_indices_bounded_by_vertex_buffers),
		T(test_inline_vertex_data_ignores_vertex_buffers),
		T(test_index_batches_become_inline_indices),
		T(test_index_batch_reads_through_an_m2mf_copy),
		T(test_texture_extent),
		T(test_texture_layouts),
		T(test_fragment_program_start),
		T(test_program_bind_becomes_a_copy_of_the_program_into_the_shadow),
		T(test_program_without_end_is_copied_to_its_buffers_end),
		T(test_program_length_is_read_through_an_earlier_m2mf_copy),
		T(test_program_bound_twice_in_a_submission_reuses_its_slot),
		T(test_program_reading_is_bounded_per_submission),
		T(test_program_ctxdma_change_refused),
		T(test_program_slots_go_round_the_area_in_one_submission),
		T(test_program_slots_keep_the_fetch_window_in_the_area),
		T(test_fence_and_query_targets),
		T(test_render_condition_is_checked_at_every_draw),
		T(test_texture_ctxdmas_become_the_read_only_one),
		T(test_refusal_rolls_back_3d_state),
		T(test_mesa_clear_stream_passes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
