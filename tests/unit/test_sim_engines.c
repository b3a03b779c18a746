/* The 2D engines through the simulated card: objects in RAMIN, methods in
 * a push buffer, results read back from VRAM and compared with CPU
 * references (GDI fills and ROPs, BLIT overlap and per-blit offsets, IFC
 * streams, M2MF strides and faults, SIFM uploads into swizzled and linear
 * surfaces, and the traps for bad state). */
#include <unistd.h>

#include "sim-host.h"

#include "hw/enums-2d.h"
#include "hw/formats.h"
#include "sim/surface.h"
#include "sim/swizzle.h"

#define SUBC_M2MF 0
#define SUBC_SURF 2
#define SUBC_GDI  3
#define SUBC_BLIT 4
#define SUBC_IFC  5
#define SUBC_MISC 6
#define SUBC_SWZ  7

#define H_NULL  0x00000000u
#define H_VRAM  0xbeef0201u
#define H_SYS   0xbeef0202u
#define H_SMALL 0xbeef0203u     /* 4 KiB of VRAM at SMALL_AT */
#define H_M2MF  0x80000018u
#define H_SURF  0x80000010u
#define H_ROP   0x80000011u
#define H_PATT  0x80000012u
#define H_CLIP  0x80000013u
#define H_BLIT  0x80000015u
#define H_GDI   0x80000016u
#define H_SIFM  0x80000017u
#define H_IFC   0x8000001au
#define H_SWZ   0xbeef5201u

#define SMALL_DMA 0x40400u
#define SMALL_AT  0x800000u

#define OBJ_NULL HOST_OBJ(1)
#define OBJ_M2MF HOST_OBJ(2)
#define OBJ_SURF HOST_OBJ(3)
#define OBJ_ROP  HOST_OBJ(4)
#define OBJ_PATT HOST_OBJ(5)
#define OBJ_CLIP HOST_OBJ(6)
#define OBJ_BLIT HOST_OBJ(7)
#define OBJ_GDI  HOST_OBJ(8)
#define OBJ_SIFM HOST_OBJ(9)
#define OBJ_IFC  HOST_OBJ(10)
#define OBJ_SWZ  HOST_OBJ(11)

#define FB      0x100000u       /* a 64x64 32-bpp or 16-bpp surface in VRAM */
#define FB_PITCH 256u

static void emit_n(struct host *h, unsigned subc, uint32_t mthd, unsigned n, ...)
{
	va_list ap;

	host_emit(h, 0, NV_CMD_INC_WORD(subc, mthd, n));
	va_start(ap, n);
	for (unsigned i = 0; i < n; i++)
		host_emit(h, 0, va_arg(ap, uint32_t));
	va_end(ap);
}

static void run(struct host *h)
{
	host_kick(h, 0);
	sim_run(h->s);
}

static uint8_t *vram(struct host *h, uint32_t off)
{
	return sim_vram(h->s) + off;
}

static uint32_t trapped(struct host *h)
{
	if (!(sim_rd32(h->s, NV_PGRAPH_INTR) & NV_PGRAPH_INTR_ERROR))
		return 0;
	return sim_rd32(h->s, NV_PGRAPH_NSOURCE);
}

static void ack(struct host *h)
{
	sim_wr32(h->s, NV_PGRAPH_INTR, ~0u);
}

static int setup(void **state)
{
	static const struct { uint32_t handle, inst, cls; unsigned engine; } objs[] = {
		{ H_NULL, OBJ_NULL, NV_CLASS_NULL_OBJ, NV_ENGINE_GR },
		{ H_M2MF, OBJ_M2MF, NV_CLASS_M2MF, NV_ENGINE_GR },
		{ H_SURF, OBJ_SURF, NV_CLASS_SURF2D, NV_ENGINE_GR },
		{ H_ROP,  OBJ_ROP,  NV_CLASS_ROP, NV_ENGINE_GR },
		{ H_PATT, OBJ_PATT, NV_CLASS_PATT, NV_ENGINE_GR },
		{ H_CLIP, OBJ_CLIP, NV_CLASS_CLIP, NV_ENGINE_GR },
		{ H_BLIT, OBJ_BLIT, NV_CLASS_BLIT, NV_ENGINE_GR },
		{ H_GDI,  OBJ_GDI,  NV_CLASS_GDI, NV_ENGINE_GR },
		{ H_SIFM, OBJ_SIFM, NV_CLASS_SIFM, NV_ENGINE_GR },
		{ H_IFC,  OBJ_IFC,  NV_CLASS_IFC, NV_ENGINE_GR },
		{ H_SWZ,  OBJ_SWZ,  NV_CLASS_SWZSURF, NV_ENGINE_GR },
	};
	struct host *h = calloc(1, sizeof(*h));

	host_new(h);
	host_chan_new(h, 0, HOST_PB_DMA);
	host_ctxdma(h, SMALL_DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RW,
		    SMALL_AT, 0xfff);
	host_ramht_add(h, H_VRAM, 0, NV_ENGINE_SW, HOST_VRAM_DMA);
	host_ramht_add(h, H_SYS, 0, NV_ENGINE_SW, HOST_SYS_DMA);
	host_ramht_add(h, H_SMALL, 0, NV_ENGINE_SW, SMALL_DMA);
	for (unsigned i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		host_grobj(h, objs[i].inst, objs[i].cls);
		host_ramht_add(h, objs[i].handle, 0, objs[i].engine, objs[i].inst);
	}
	/* nouveau's NVAccelCommonInit, in short */
	host_mthd(h, 0, SUBC_M2MF, NV_FIFO_OBJECT, H_M2MF);
	host_mthd(h, 0, SUBC_SURF, NV_FIFO_OBJECT, H_SURF);
	emit_n(h, SUBC_SURF, NV_SURF2D_DMA_IMAGE_SOURCE, 2, H_VRAM, H_VRAM);
	host_mthd(h, 0, SUBC_GDI, NV_FIFO_OBJECT, H_GDI);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_SURFACE, H_SURF);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_ROP, H_ROP);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_PATTERN, H_PATT);
	host_mthd(h, 0, SUBC_BLIT, NV_FIFO_OBJECT, H_BLIT);
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_SURFACES, H_SURF);
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_CLIP, H_NULL);
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_ROP, H_ROP);
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_PATTERN, H_PATT);
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_OPERATION, NV_2D_OPERATION_SRCCOPY);
	host_mthd(h, 0, SUBC_IFC, NV_FIFO_OBJECT, H_IFC);
	host_mthd(h, 0, SUBC_IFC, NV_IFC_SURFACE, H_SURF);
	host_mthd(h, 0, SUBC_IFC, NV_IFC_CLIP, H_NULL);
	host_mthd(h, 0, SUBC_IFC, NV_IFC_OPERATION, NV_2D_OPERATION_SRCCOPY);
	host_mthd(h, 0, SUBC_SWZ, NV_FIFO_OBJECT, H_SWZ);
	host_mthd(h, 0, SUBC_MISC, NV_FIFO_OBJECT, H_PATT);
	host_mthd(h, 0, SUBC_MISC, NV_PATT_MONOCHROME_FORMAT, NV_PATT_MONO_FORMAT_CGA6);
	host_mthd(h, 0, SUBC_MISC, NV_PATT_MONOCHROME_SHAPE, NV_PATT_SHAPE_8X8);
	host_mthd(h, 0, SUBC_MISC, NV_PATT_PATTERN_SELECT, NV_PATT_SELECT_MONO);
	run(h);
	assert_int_equal(trapped(h), 0);
	*state = h;
	return 0;
}


static void surface(struct host *h, uint32_t fmt, uint32_t spitch, uint32_t dpitch,
		    uint32_t src, uint32_t dst)
{
	emit_n(h, SUBC_SURF, NV_SURF2D_FORMAT, 4, fmt, dpitch << 16 | spitch, src, dst);
}

static void fill_pattern(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = (uint8_t)(seed >> 24);
	}
}

/* ---- GDI ---- */

static void gdi_fill_writes_the_rectangle_and_nothing_else(void **state)
{
	struct host *h = *state;
	uint8_t want[64 * FB_PITCH];

	memset(vram(h, FB), 0x5a, sizeof(want));
	memcpy(want, vram(h, FB), sizeof(want));
	for (unsigned y = 3; y < 3 + 5; y++)          /* (7, 3) 9x5, 16-bit pixels */
		for (unsigned x = 7; x < 7 + 9; x++)
			sim_px_store(want + y * FB_PITCH + x * 2, 2, 0xbeef);
	surface(h, NV_SURF_FORMAT_R5G6B5, FB_PITCH, FB_PITCH, FB, FB);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_COLOR_FORMAT, NV_GDI_COLOR_FORMAT_A16R5G6B5);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_COLOR1_A, 0xffffbeefu);
	emit_n(h, SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2, 7u << 16 | 3, 9u << 16 | 5);
	run(h);
	assert_int_equal(trapped(h), 0);
	assert_memory_equal(vram(h, FB), want, sizeof(want));
}

/* The engines' busy time grows with the work they run, and not while idle. */
static void busy_time_counts_work_and_not_idle(void **state)
{
	struct host *h = *state;
	uint64_t t0[SIM_ENGINES], t1[SIM_ENGINES], t2[SIM_ENGINES];

	surface(h, NV_SURF_FORMAT_R5G6B5, FB_PITCH, FB_PITCH, FB, FB);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_COLOR_FORMAT, NV_GDI_COLOR_FORMAT_A16R5G6B5);
	run(h);
	sim_busy_ns(h->s, t0);
	for (unsigned i = 0; i < 64; i++)
		emit_n(h, SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2, 0u, 64u << 16 | 64);
	run(h);
	assert_int_equal(trapped(h), 0);
	sim_busy_ns(h->s, t1);
	assert_true(t1[SIM_ENGINE_PFIFO] > t0[SIM_ENGINE_PFIFO]);
	assert_true(t1[SIM_ENGINE_PGRAPH] > t0[SIM_ENGINE_PGRAPH]);
	/* all of it channel 0's, the only one */
	assert_true(sim_chan_busy_ns(h->s, 0) == t1[SIM_ENGINE_PFIFO]);
	assert_true(sim_chan_busy_ns(h->s, 1) == 0);
	usleep(2000);
	run(h);
	sim_busy_ns(h->s, t2);
	assert_true(t2[SIM_ENGINE_PFIFO] == t1[SIM_ENGINE_PFIFO]);
	assert_true(t2[SIM_ENGINE_PGRAPH] == t1[SIM_ENGINE_PGRAPH]);
}

static void gdi_y32_keeps_alpha_a8r8g8b8_surface_forces_it(void **state)
{
	struct host *h = *state;

	memset(vram(h, FB), 0, 64 * FB_PITCH);
	surface(h, NV_SURF_FORMAT_Y32, FB_PITCH, FB_PITCH, FB, FB);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_COLOR_FORMAT, NV_GDI_COLOR_FORMAT_A8R8G8B8);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_COLOR1_A, 0x12345678u);
	emit_n(h, SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2, 0u << 16 | 0, 2u << 16 | 1);
	surface(h, NV_SURF_FORMAT_A8R8G8B8, FB_PITCH, FB_PITCH, FB, FB);
	/* second rectangle slot: (4, 0) 1x1 */
	emit_n(h, SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT + 8, 2, 4u << 16 | 0, 1u << 16 | 1);
	run(h);
	assert_int_equal(trapped(h), 0);
	assert_int_equal(nv_rd32le(vram(h, FB)), 0x12345678u);
	assert_int_equal(nv_rd32le(vram(h, FB + 4)), 0x12345678u);
	assert_int_equal(nv_rd32le(vram(h, FB + 8)), 0);
	assert_int_equal(nv_rd32le(vram(h, FB + 16)), 0xff345678u);
}

/* NV04EXASetROP with a planemask at 16 bpp: pattern colour 1 = planemask,
 * ROP DPSDxax, OPERATION ROP_AND. */
static void gdi_rop_and_with_planemask_merges_only_masked_bits(void **state)
{
	struct host *h = *state;

	for (unsigned x = 0; x < 8; x++)
		sim_px_store(vram(h, FB + x * 2), 2, 0x1234);
	surface(h, NV_SURF_FORMAT_R5G6B5, FB_PITCH, FB_PITCH, FB, FB);
	host_mthd(h, 0, SUBC_MISC, NV_FIFO_OBJECT, H_PATT);
	emit_n(h, SUBC_MISC, NV_PATT_MONOCHROME_COLOR, 4, 0, 0x00ff, ~0u, ~0u);
	host_mthd(h, 0, SUBC_MISC, NV_FIFO_OBJECT, H_ROP);
	host_mthd(h, 0, SUBC_MISC, NV_ROP_ROP, 0xca);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_ROP_AND);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_COLOR_FORMAT, NV_GDI_COLOR_FORMAT_A16R5G6B5);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_COLOR1_A, 0xabcd);
	emit_n(h, SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2, 1u << 16 | 0, 4u << 16 | 1);
	run(h);
	assert_int_equal(trapped(h), 0);
	assert_int_equal(sim_px_load(vram(h, FB), 2), 0x1234);
	for (unsigned x = 1; x < 5; x++)
		assert_int_equal(sim_px_load(vram(h, FB + x * 2), 2), 0x12cd);
	assert_int_equal(sim_px_load(vram(h, FB + 5 * 2), 2), 0x1234);
}

static void gdi_without_a_surface_traps_and_draws_nothing(void **state)
{
	struct host *h = *state;

	memset(vram(h, FB), 0, 16);
	surface(h, NV_SURF_FORMAT_A8R8G8B8, FB_PITCH, FB_PITCH, FB, FB);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_SURFACE, H_NULL);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_COLOR_FORMAT, NV_GDI_COLOR_FORMAT_A8R8G8B8);
	emit_n(h, SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2, 0, 1u << 16 | 1);
	run(h);
	assert_int_equal(trapped(h), NV_PGRAPH_NSOURCE_STATE_INVALID);
	assert_int_equal(nv_rd32le(vram(h, FB)), 0);
	ack(h);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_SURFACE, H_SURF);
	run(h);
}

static void gdi_rect_past_its_ctxdma_faults_and_draws_nothing(void **state)
{
	struct host *h = *state;

	memset(vram(h, SMALL_AT), 0, 0x1000);
	emit_n(h, SUBC_SURF, NV_SURF2D_DMA_IMAGE_SOURCE, 2, H_SMALL, H_SMALL);
	surface(h, NV_SURF_FORMAT_A8R8G8B8, 256, 256, 0, 0);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_COLOR_FORMAT, NV_GDI_COLOR_FORMAT_A8R8G8B8);
	host_mthd(h, 0, SUBC_GDI, NV_GDI_COLOR1_A, ~0u);
	/* rows 0..16 of 256 bytes: the last one is past 4 KiB */
	emit_n(h, SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2, 0, 1u << 16 | 17);
	run(h);
	assert_int_equal(trapped(h), NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
	assert_int_equal(nv_rd32le(vram(h, SMALL_AT)), 0);
	ack(h);
	/* 16 rows fit: the last byte of the ctxdma is written */
	emit_n(h, SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2, 63u << 16 | 15, 1u << 16 | 1);
	run(h);
	assert_int_equal(trapped(h), 0);
	assert_int_equal(nv_rd32le(vram(h, SMALL_AT + 0xffc)), 0xffffffffu);
	emit_n(h, SUBC_SURF, NV_SURF2D_DMA_IMAGE_SOURCE, 2, H_VRAM, H_VRAM);
	run(h);
}

/* ---- BLIT ---- */

static void blit_ref(uint8_t *fb, unsigned bpp, unsigned sx, unsigned sy, unsigned dx,
		     unsigned dy, unsigned w, unsigned hgt)
{
	uint8_t tmp[64 * FB_PITCH];

	for (unsigned y = 0; y < hgt; y++)
		memcpy(tmp + y * FB_PITCH, fb + (sy + y) * FB_PITCH + sx * bpp, w * bpp);
	for (unsigned y = 0; y < hgt; y++)
		memcpy(fb + (dy + y) * FB_PITCH + dx * bpp, tmp + y * FB_PITCH, w * bpp);
}

static void blit_overlapping_copies_behave_like_memmove(void **state)
{
	static const unsigned cases[][4] = {    /* sx, sy, dx, dy */
		{ 2, 3, 5, 7 }, { 5, 7, 2, 3 }, { 4, 4, 9, 4 }, { 9, 4, 4, 4 },
		{ 3, 10, 3, 12 }, { 3, 12, 3, 10 }, { 10, 2, 1, 6 },
	};
	struct host *h = *state;
	uint8_t want[64 * FB_PITCH];

	surface(h, NV_SURF_FORMAT_A8R8G8B8, FB_PITCH, FB_PITCH, FB, FB);
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_OPERATION, NV_2D_OPERATION_SRCCOPY);
	run(h);
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		fill_pattern(vram(h, FB), sizeof(want), c + 1);
		memcpy(want, vram(h, FB), sizeof(want));
		blit_ref(want, 4, cases[c][0], cases[c][1], cases[c][2], cases[c][3], 20, 30);
		emit_n(h, SUBC_BLIT, NV_BLIT_POINT_IN, 3, cases[c][1] << 16 | cases[c][0],
		       cases[c][3] << 16 | cases[c][2], 30u << 16 | 20);
		run(h);
		assert_int_equal(trapped(h), 0);
		assert_memory_equal(vram(h, FB), want, sizeof(want));
	}
}

static void blit_rop_overlap_and_pattern_at_16bpp(void **state)
{
	struct host *h = *state;
	uint8_t want[64 * FB_PITCH], orig[64 * FB_PITCH];

	fill_pattern(vram(h, FB), sizeof(want), 77);
	memcpy(orig, vram(h, FB), sizeof(orig));
	memcpy(want, orig, sizeof(want));
	/* xor, source (x+3, y+1) onto (x, y), 10x6 at (4, 5) */
	for (unsigned y = 0; y < 6; y++)
		for (unsigned x = 0; x < 10; x++) {
			uint32_t s = sim_px_load(orig + (5 + 1 + y) * FB_PITCH + (4 + 3 + x) * 2, 2);
			uint32_t d = sim_px_load(orig + (5 + y) * FB_PITCH + (4 + x) * 2, 2);
			sim_px_store(want + (5 + y) * FB_PITCH + (4 + x) * 2, 2, s ^ d);
		}
	surface(h, NV_SURF_FORMAT_R5G6B5, FB_PITCH, FB_PITCH, FB, FB);
	host_mthd(h, 0, SUBC_MISC, NV_FIFO_OBJECT, H_ROP);
	host_mthd(h, 0, SUBC_MISC, NV_ROP_ROP, 0x66);
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_OPERATION, NV_2D_OPERATION_ROP_AND);
	emit_n(h, SUBC_BLIT, NV_BLIT_POINT_IN, 3, 6u << 16 | 7, 5u << 16 | 4, 6u << 16 | 10);
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_OPERATION, NV_2D_OPERATION_SRCCOPY);
	run(h);
	assert_int_equal(trapped(h), 0);
	assert_memory_equal(vram(h, FB), want, sizeof(want));
}

/* nouveau's large-copy split rewrites OFFSET_DESTIN between blits. */
static void blit_latches_surface_offsets_per_blit(void **state)
{
	struct host *h = *state;
	uint32_t other = FB + 64 * FB_PITCH;

	fill_pattern(vram(h, FB), 64 * FB_PITCH, 5);
	memset(vram(h, other), 0, 64 * FB_PITCH);
	surface(h, NV_SURF_FORMAT_A8R8G8B8, FB_PITCH, FB_PITCH, FB, other);
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_OPERATION, NV_2D_OPERATION_SRCCOPY);
	emit_n(h, SUBC_BLIT, NV_BLIT_POINT_IN, 3, 0, 0, 1u << 16 | 4);
	host_mthd(h, 0, SUBC_SURF, NV_SURF2D_OFFSET_DESTIN, other + 10 * FB_PITCH);
	emit_n(h, SUBC_BLIT, NV_BLIT_POINT_IN, 3, 1u << 16, 0, 1u << 16 | 4);
	run(h);
	assert_memory_equal(vram(h, other), vram(h, FB), 16);
	assert_memory_equal(vram(h, other + 10 * FB_PITCH), vram(h, FB + FB_PITCH), 16);
	assert_int_equal(nv_rd32le(vram(h, other + FB_PITCH)), 0);
}

static void blit_clip_object_clips_the_destination(void **state)
{
	struct host *h = *state;
	uint32_t other = FB + 64 * FB_PITCH;

	fill_pattern(vram(h, FB), 64 * FB_PITCH, 9);
	memset(vram(h, other), 0, 64 * FB_PITCH);
	surface(h, NV_SURF_FORMAT_A8R8G8B8, FB_PITCH, FB_PITCH, FB, other);
	host_mthd(h, 0, SUBC_MISC, NV_FIFO_OBJECT, H_CLIP);
	emit_n(h, SUBC_MISC, NV_CLIP_POINT, 2, 3u << 16 | 2, 2u << 16 | 2);  /* (2,3) 2x2 */
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_CLIP, H_CLIP);
	emit_n(h, SUBC_BLIT, NV_BLIT_POINT_IN, 3, 0, 0, 8u << 16 | 8);
	host_mthd(h, 0, SUBC_BLIT, NV_BLIT_CLIP, H_NULL);
	run(h);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < 8; y++)
		for (unsigned x = 0; x < 8; x++) {
			uint32_t got = nv_rd32le(vram(h, other + y * FB_PITCH + x * 4));
			int in = x >= 2 && x < 4 && y >= 3 && y < 5;
			assert_int_equal(got, in ? nv_rd32le(vram(h, FB + y * FB_PITCH + x * 4)) : 0);
		}
}

/* ---- IFC ---- */

/* NV04EXAUploadIFC: 3 pixels wide at 16 bpp, rows padded to 8 bytes
 * (SIZE_IN.w = 4), SIZE_OUT.w = 3; restarted mid-way with POINT. */
static void ifc_upload_drops_row_padding_and_restarts_on_point(void **state)
{
	struct host *h = *state;
	uint16_t px[4][4];

	memset(vram(h, FB), 0, 64 * FB_PITCH);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++)
			px[y][x] = x == 3 ? 0xdead : (uint16_t)(0x1000 * (y + 1) + x);
	surface(h, NV_SURF_FORMAT_R5G6B5, FB_PITCH, FB_PITCH, FB, FB);
	emit_n(h, SUBC_IFC, NV_IFC_OPERATION, 2, NV_2D_OPERATION_SRCCOPY,
	       NV_IFC_COLOR_FORMAT_R5G6B5);
	for (unsigned y = 0; y < 4; y += 2) {
		/* each restart: POINT at the row, full h (as the DDX does) */
		emit_n(h, SUBC_IFC, NV_IFC_POINT, 3, (5 + y) << 16 | 9u, 4u << 16 | 3,
		       4u << 16 | 4);
		host_emit(h, 0, NV_CMD_INC_WORD(SUBC_IFC, NV_IFC_COLOR, 4));
		for (unsigned r = y; r < y + 2; r++)
			for (unsigned x = 0; x < 4; x += 2)
				host_emit(h, 0, (uint32_t)px[r][x] | (uint32_t)px[r][x + 1] << 16);
	}
	run(h);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < 6; y++)
		for (unsigned x = 0; x < 16; x++) {
			uint32_t got = sim_px_load(vram(h, FB + (4 + y) * FB_PITCH + x * 2), 2);
			int in = x >= 9 && x < 12 && y >= 1 && y < 5;
			assert_int_equal(got, in ? px[y - 1][x - 9] : 0);
		}
}

/* PUSH_DATAu: dwords placed raw through an A8R8G8B8 IFC into A8R8G8B8. */
static void ifc_a8r8g8b8_dwords_land_raw(void **state)
{
	struct host *h = *state;
	static const uint32_t words[5] = { 0x401f9c6c, 0x0040000d, 0x8106c083, 0x6041ff80, 1 };

	memset(vram(h, FB), 0, 64);
	surface(h, NV_SURF_FORMAT_A8R8G8B8, 64, 64, FB, FB);
	emit_n(h, SUBC_IFC, NV_IFC_OPERATION, 5, NV_2D_OPERATION_SRCCOPY,
	       NV_IFC_COLOR_FORMAT_A8R8G8B8, 0, 1u << 16 | 5, 1u << 16 | 5);
	host_emit(h, 0, NV_CMD_NONINC_WORD(SUBC_IFC, NV_IFC_COLOR, 5));
	for (unsigned i = 0; i < 5; i++)
		host_emit(h, 0, words[i]);
	host_emit(h, 0, NV_CMD_INC_WORD(SUBC_IFC, NV_IFC_COLOR, 1));
	host_emit(h, 0, 0xffffffffu);          /* past the image: dropped */
	run(h);
	assert_int_equal(trapped(h), 0);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(nv_rd32le(vram(h, FB + 4 * i)), words[i]);
	assert_int_equal(nv_rd32le(vram(h, FB + 20)), 0);
}

/* ---- M2MF ---- */

static void m2mf_increments_gather_one_byte_of_four(void **state)
{
	struct host *h = *state;
	uint8_t *src = h->sysmem + 0x200000, *dst = vram(h, FB);

	for (int i = 0; i < 64; i++)
		src[i] = (uint8_t)i;
	memset(dst, 0xee, 64);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, H_SYS);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_BUFFER_OUT, H_VRAM);
	/* 2 lines of 16 input bytes, input increment 4, output increment 1 */
	emit_n(h, SUBC_M2MF, NV_M2MF_OFFSET_IN, 8, 0x200001u, FB, 32u, 8u, 16u, 2u, 0x104u, 0u);
	/* output increment 2: scatter */
	emit_n(h, SUBC_M2MF, NV_M2MF_OFFSET_IN, 8, 0x200000u, FB + 32, 0u, 0u, 4u, 1u, 0x201u, 0u);
	run(h);
	assert_int_equal(trapped(h), 0);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(dst[k], 1 + 4 * k);
		assert_int_equal(dst[8 + k], 33 + 4 * k);
		assert_int_equal(dst[32 + 2 * k], k);
		assert_int_equal(dst[33 + 2 * k], 0xee);
	}
	assert_int_equal(dst[4], 0xee);
	assert_int_equal(dst[12], 0xee);
}

static void m2mf_negative_pitch_copies_bottom_up(void **state)
{
	struct host *h = *state;
	uint8_t *src = h->sysmem + 0x200000, *dst = vram(h, FB);

	for (int i = 0; i < 48; i++)
		src[i] = (uint8_t)(100 + i);
	memset(dst, 0, 64);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, H_SYS);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_BUFFER_OUT, H_VRAM);
	emit_n(h, SUBC_M2MF, NV_M2MF_OFFSET_IN, 8, 0x200000u + 32, FB, (uint32_t)-16, 16u, 4u, 3u,
	       0x101u, 0u);
	run(h);
	assert_int_equal(trapped(h), 0);
	assert_memory_equal(dst, src + 32, 4);
	assert_memory_equal(dst + 16, src + 16, 4);
	assert_memory_equal(dst + 32, src, 4);
}

static void m2mf_line_past_the_source_ctxdma_copies_nothing(void **state)
{
	struct host *h = *state;
	uint8_t *dst = vram(h, FB);

	memset(dst, 0x11, 256);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, H_SMALL);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_BUFFER_OUT, H_VRAM);
	/* lines at 0, 0x800, 0x1000: the third is past the 4 KiB ctxdma */
	emit_n(h, SUBC_M2MF, NV_M2MF_OFFSET_IN, 8, 0u, FB, 0x800u, 16u, 16u, 3u, 0x101u, 0u);
	run(h);
	assert_int_equal(trapped(h), NV_PGRAPH_NSOURCE_DMA_R_PROTECTION);
	for (int i = 0; i < 48; i++)
		assert_int_equal(dst[i], 0x11);
	ack(h);
	emit_n(h, SUBC_M2MF, NV_M2MF_FORMAT, 2, 0x103u, 0u);     /* increment 3: invalid */
	run(h);
	assert_int_equal(trapped(h), NV_PGRAPH_NSOURCE_DATA_ERROR);
	ack(h);
}

/* ---- SIFM ---- */

static void sifm_bind(struct host *h)
{
	host_mthd(h, 0, SUBC_MISC, NV_FIFO_OBJECT, H_SIFM);
	host_mthd(h, 0, SUBC_MISC, NV_SIFM_DMA_IMAGE, H_SYS);
	host_mthd(h, 0, SUBC_MISC, NV_SIFM_PATTERN, H_NULL);
	host_mthd(h, 0, SUBC_MISC, NV_SIFM_ROP, H_NULL);
}

/* nv30_transfer_rect_sifm: a linear A8R8G8B8 64x32 staging image into a
 * swizzled 64x32 texture, centre origin, point sampling, steps of 1.0. */
static void sifm_mesa_upload_linear_to_swizzled_is_exact(void **state)
{
	struct host *h = *state;
	const unsigned w = 64, hh = 32, pitch = 256, tex = 0x300000;
	uint8_t *src = h->sysmem + 0x100000;

	fill_pattern(src, pitch * hh, 21);
	memset(vram(h, tex), 0, w * hh * 4 + 64);
	host_mthd(h, 0, SUBC_SWZ, NV_SWZSURF_DMA_IMAGE, H_VRAM);
	emit_n(h, SUBC_SWZ, NV_SWZSURF_FORMAT, 2, NV_SURF_FORMAT_A8R8G8B8 | 6u << 16 | 5u << 24,
	       tex);
	sifm_bind(h);
	host_mthd(h, 0, SUBC_MISC, NV_SIFM_SURFACE, H_SWZ);
	emit_n(h, SUBC_MISC, NV_SIFM_COLOR_FORMAT, 8, NV_SIFM_COLOR_FORMAT_A8R8G8B8,
	       NV_2D_OPERATION_SRCCOPY, 0u, hh << 16 | w, 0u, hh << 16 | w, 1u << 20, 1u << 20);
	emit_n(h, SUBC_MISC, NV_SIFM_SIZE, 4, hh << 16 | w,
	       pitch | NV_SIFM_ORIGIN_CENTER << 16 | NV_SIFM_FILTER_POINT_SAMPLE << 24,
	       0x100000u, 0u);
	run(h);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < hh; y++)
		for (unsigned x = 0; x < w; x++)
			assert_int_equal(nv_rd32le(vram(h, tex + sim_swz_index(x, y, 6, 5) * 4)),
					 nv_rd32le(src + y * pitch + x * 4));
	assert_int_equal(nv_rd32le(vram(h, tex + w * hh * 4)), 0);

	/* a sub-rectangle (x0, y0) = (8, 4), 16x8, R5G6B5, into a 32x16 level */
	fill_pattern(src, pitch * hh, 22);
	memset(vram(h, tex), 0, 32 * 16 * 2);
	emit_n(h, SUBC_SWZ, NV_SWZSURF_FORMAT, 2, NV_SURF_FORMAT_R5G6B5 | 5u << 16 | 4u << 24, tex);
	emit_n(h, SUBC_MISC, NV_SIFM_COLOR_FORMAT, 8, NV_SIFM_COLOR_FORMAT_R5G6B5,
	       NV_2D_OPERATION_SRCCOPY, 4u << 16 | 8, 8u << 16 | 16, 4u << 16 | 8, 8u << 16 | 16,
	       1u << 20, 1u << 20);
	emit_n(h, SUBC_MISC, NV_SIFM_SIZE, 4, 16u << 16 | 32,
	       pitch | NV_SIFM_ORIGIN_CENTER << 16, 0x100000u, 4u << 20 | 8u << 4);
	run(h);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < 16; y++)
		for (unsigned x = 0; x < 32; x++) {
			int in = x >= 8 && x < 24 && y >= 4 && y < 12;
			uint32_t got = sim_px_load(vram(h, tex + sim_swz_index(x, y, 5, 4) * 2), 2);
			assert_int_equal(got, in ? sim_px_load(src + y * pitch + x * 2, 2) : 0);
		}
}

/* Centre origin, point sampling, step 2.0: output pixel i takes texel
 * floor(x0 + (i + 1/2) * 2) = x0 + 2i + 1, into a linear SURF2D. */
static void sifm_downscale_into_surf2d_takes_centre_texels(void **state)
{
	struct host *h = *state;
	uint8_t *src = h->sysmem + 0x100000;
	const unsigned pitch = 64;

	fill_pattern(src, pitch * 16, 31);
	memset(vram(h, FB), 0, 8 * FB_PITCH);
	surface(h, NV_SURF_FORMAT_A8R8G8B8, FB_PITCH, FB_PITCH, FB, FB);
	sifm_bind(h);
	host_mthd(h, 0, SUBC_MISC, NV_SIFM_SURFACE, H_SURF);
	emit_n(h, SUBC_MISC, NV_SIFM_COLOR_FORMAT, 8, NV_SIFM_COLOR_FORMAT_A8R8G8B8,
	       NV_2D_OPERATION_SRCCOPY, 0u, 4u << 16 | 8, 0u, 4u << 16 | 8, 2u << 20, 2u << 20);
	emit_n(h, SUBC_MISC, NV_SIFM_SIZE, 4, 8u << 16 | 16, pitch | NV_SIFM_ORIGIN_CENTER << 16,
	       0x100000u, 0u);
	run(h);
	assert_int_equal(trapped(h), 0);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 8; x++)
			assert_int_equal(nv_rd32le(vram(h, FB + y * FB_PITCH + x * 4)),
					 nv_rd32le(src + (2 * y + 1) * pitch + (2 * x + 1) * 4));
	assert_int_equal(nv_rd32le(vram(h, FB + 8 * 4)), 0);
}

static void sifm_odd_width_and_bad_origin_trap_data_error(void **state)
{
	struct host *h = *state;

	surface(h, NV_SURF_FORMAT_A8R8G8B8, FB_PITCH, FB_PITCH, FB, FB);
	sifm_bind(h);
	host_mthd(h, 0, SUBC_MISC, NV_SIFM_SURFACE, H_SURF);
	emit_n(h, SUBC_MISC, NV_SIFM_COLOR_FORMAT, 8, NV_SIFM_COLOR_FORMAT_A8R8G8B8,
	       NV_2D_OPERATION_SRCCOPY, 0u, 4u << 16 | 8, 0u, 4u << 16 | 8, 1u << 20, 1u << 20);
	emit_n(h, SUBC_MISC, NV_SIFM_SIZE, 4, 8u << 16 | 15, 64 | NV_SIFM_ORIGIN_CENTER << 16,
	       0x100000u, 0u);
	run(h);
	assert_int_equal(trapped(h), NV_PGRAPH_NSOURCE_DATA_ERROR);
	ack(h);
	emit_n(h, SUBC_MISC, NV_SIFM_SIZE, 4, 8u << 16 | 16, 64 | 3u << 16, 0x100000u, 0u);
	run(h);
	assert_int_equal(trapped(h), NV_PGRAPH_NSOURCE_DATA_ERROR);
	ack(h);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, host_teardown)
	const struct CMUnitTest tests[] = {
		T(gdi_fill_writes_the_rectangle_and_nothing_else),
		T(gdi_y32_keeps_alpha_a8r8g8b8_surface_forces_it),
		T(busy_time_counts_work_and_not_idle),
		T(gdi_rop_and_with_planemask_merges_only_masked_bits),
		T(gdi_without_a_surface_traps_and_draws_nothing),
		T(gdi_rect_past_its_ctxdma_faults_and_draws_nothing),
		T(blit_overlapping_copies_behave_like_memmove),
		T(blit_rop_overlap_and_pattern_at_16bpp),
		T(blit_latches_surface_offsets_per_blit),
		T(blit_clip_object_clips_the_destination),
		T(ifc_upload_drops_row_padding_and_restarts_on_point),
		T(ifc_a8r8g8b8_dwords_land_raw),
		T(m2mf_increments_gather_one_byte_of_four),
		T(m2mf_negative_pitch_copies_bottom_up),
		T(m2mf_line_past_the_source_ctxdma_copies_nothing),
		T(sifm_mesa_upload_linear_to_swizzled_is_exact),
		T(sifm_downscale_into_surf2d_takes_centre_texels),
		T(sifm_odd_width_and_bad_origin_trap_data_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
