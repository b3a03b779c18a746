/* The 3D class on the simulator: clears of linear and swizzled colour
 * buffers and of Z24S8 zeta, against CPU references, byte for byte; fence
 * and query reports; vertex program upload; two channels with different 3D
 * state interleaved through context switches.  Pushbuffers as Mesa's
 * nv30_screen.c / nv30_clear.c emit them. */
#include "sim-host.h"

#include "hw/enums-3d.h"
#include "sim/swizzle.h"

#define S3D       7
#define H_3D      0xbeef3097u
#define H_VRAM    0xbeef0201u
#define H_FENCE   0xbeef1e00u
#define H_QUERY   0xbeef0351u
#define FENCE_DMA 0x40100u
#define FENCE_AT  0x200000u      /* sysmem: fence notifier (32 bytes) */
#define QUERY_DMA 0x40110u
#define QUERY_AT  0x201000u      /* sysmem: query page (4096 - 128 bytes) */
#define OBJ_3D(c) HOST_OBJ(1 + (c))
#define RT0       0x100000u      /* VRAM offsets */
#define ZETA      0x300000u

static int setup(void **state)
{
	struct host *h = calloc(1, sizeof(*h));
	host_new(h);
	host_ctxdma(h, FENCE_DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RW,
		    FENCE_AT, 31);
	host_ctxdma(h, QUERY_DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RW,
		    QUERY_AT, 4096 - 128 - 1);
	for (unsigned c = 0; c < 2; c++) {
		host_grobj(h, OBJ_3D(c), c ? NV_CLASS_CURIE_NV44 : NV_CLASS_CURIE_NV40);
		host_chan_new(h, c, HOST_PB_DMA);
		host_ramht_add(h, H_3D, c, NV_ENGINE_GR, OBJ_3D(c));
		host_ramht_add(h, H_VRAM, c, NV_ENGINE_SW, HOST_VRAM_DMA);
		host_ramht_add(h, H_FENCE, c, NV_ENGINE_SW, FENCE_DMA);
		host_ramht_add(h, H_QUERY, c, NV_ENGINE_SW, QUERY_DMA);
		host_mthd(h, c, S3D, NV_FIFO_OBJECT, H_3D);
		host_mthd(h, c, S3D, NV_CURIE_DMA_COLOR0, H_VRAM);
		host_mthd(h, c, S3D, NV_CURIE_DMA_ZETA, H_VRAM);
		host_mthd(h, c, S3D, NV_CURIE_DMA_FENCE, H_FENCE);
		host_mthd(h, c, S3D, NV_CURIE_DMA_QUERY, H_QUERY);
	}
	*state = h;
	return 0;
}

static void inc(struct host *h, unsigned c, uint32_t mthd, unsigned n, const uint32_t *d)
{
	host_emit(h, c, NV_CMD_INC_WORD(S3D, mthd, n));
	for (unsigned i = 0; i < n; i++)
		host_emit(h, c, d[i]);
}
#define NARGS(...) (sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4)
#define INC(h, c, m, ...) inc(h, c, m, NARGS(__VA_ARGS__), (const uint32_t[]){ __VA_ARGS__ })

static void run(struct host *h)
{
	for (unsigned c = 0; c < 2; c++)
		host_kick(h, c);
	sim_run(h->s);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_INTR), 0);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_INTR), 0);
}

/* nv30_validate_fb for one colour buffer (and zeta), then the scissor. */
static void fb(struct host *h, unsigned c, uint32_t fmt, uint32_t w, uint32_t hh,
	       uint32_t pitch, uint32_t off)
{
	INC(h, c, NV_CURIE_UNK1DA4, 0);
	INC(h, c, NV_CURIE_RT_HORIZ, w << 16, hh << 16, fmt);
	INC(h, c, NV_CURIE_VIEWPORT_TX_ORIGIN, 0, 0, (w - 1) << 16, (hh - 1) << 16);
	INC(h, c, NV_CURIE_ZETA_PITCH, pitch);
	INC(h, c, NV_CURIE_COLOR0_PITCH, pitch, off, ZETA);
	INC(h, c, NV_CURIE_RT_ENABLE, 1);
}

static uint8_t *vram(struct host *h, uint32_t off)
{
	return sim_vram(h->s) + off;
}

/* A8R8G8B8 64x40, pitch 512, scissor (5,3) 21x10, mask R|A only: inside
 * the rectangle bytes 2 and 3 of each pixel take the value, elsewhere the
 * old contents stay (a row of 21 pixels: clear.c's four at once, then
 * one). */
static void test_clear_linear_argb_scissor_and_mask(void **state)
{
	struct host *h = *state;
	uint8_t *m = vram(h, RT0);
	for (unsigned i = 0; i < 512 * 40; i++)
		m[i] = (uint8_t)(i * 7);
	fb(h, 0, NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8,
	   64, 40, 512, RT0);
	INC(h, 0, NV_CURIE_SCISSOR_HORIZ, 21u << 16 | 5, 10u << 16 | 3);
	INC(h, 0, NV_CURIE_CLEAR_DEPTH_VALUE, 0, 0x11223344, NV40_CLEAR_COLOR_R | NV40_CLEAR_COLOR_A);
	run(h);
	for (unsigned y = 0; y < 40; y++)
		for (unsigned x = 0; x < 128; x++)
			for (unsigned b = 0; b < 4; b++) {
				unsigned i = y * 512 + x * 4 + b;
				uint8_t want = (uint8_t)(i * 7);
				if (x >= 5 && x < 26 && y >= 3 && y < 13 && b >= 2)
					want = b == 2 ? 0x22 : 0x11;
				if (m[i] != want)
					fail_msg("(%u,%u) byte %u: %02x, want %02x", x, y, b, m[i], want);
			}
}

/* R5G6B5 and the RT rectangle clipping a full scissor; X8R8G8B8 (O
 * variant) writes its X byte as 0xff. */
static void test_clear_r5g6b5_and_xrgb(void **state)
{
	struct host *h = *state;
	uint8_t *m = vram(h, RT0);
	memset(m, 0, 0x10000);
	fb(h, 0, NV40_RT_COLOR_R5G6B5 | NV40_RT_ZETA_Z16 << 5 | NV40_RT_TYPE_LINEAR << 8,
	   30, 7, 64, RT0);
	INC(h, 0, NV_CURIE_SCISSOR_HORIZ, 0x10000000, 0x10000000);
	INC(h, 0, NV_CURIE_CLEAR_COLOR_VALUE, 0xabcdf81f, 0xf0);
	run(h);
	for (unsigned y = 0; y < 8; y++)
		for (unsigned x = 0; x < 32; x++) {
			uint16_t v = (uint16_t)(m[y * 64 + 2 * x] | m[y * 64 + 2 * x + 1] << 8);
			assert_int_equal(v, x < 30 && y < 7 ? 0xf81f : 0);
		}
	fb(h, 0, NV40_RT_COLOR_X8R8G8B8_O8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 |
	   NV40_RT_TYPE_LINEAR << 8, 4, 1, 64, RT0 + 0x8000);
	INC(h, 0, NV_CURIE_CLEAR_COLOR_VALUE, 0x00102030, 0xf0);
	run(h);
	for (unsigned x = 0; x < 4; x++)
		assert_int_equal(nv_rd32le(m + 0x8000 + 4 * x), 0xff102030);
	assert_int_equal(nv_rd32le(m + 0x8010), 0);
}

/* Swizzled 16x8 A8R8G8B8: the cleared pixels are where the Morton layout
 * puts them (sim_swz_index, checked against the SIFM path elsewhere). */
static void test_clear_swizzled(void **state)
{
	struct host *h = *state;
	uint8_t *m = vram(h, RT0);
	memset(m, 0, 16 * 8 * 4);
	fb(h, 0, NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_SWIZZLED << 8 |
	   4u << 16 | 3u << 24, 16, 8, 64, RT0);
	INC(h, 0, NV_CURIE_SCISSOR_HORIZ, 5u << 16 | 3, 3u << 16 | 2);
	INC(h, 0, NV_CURIE_CLEAR_COLOR_VALUE, 0xdeadbeef, 0xf0);
	run(h);
	for (unsigned y = 0; y < 8; y++)
		for (unsigned x = 0; x < 16; x++) {
			uint32_t v = nv_rd32le(m + 4 * sim_swz_index(x, y, 4, 3));
			assert_int_equal(v, x >= 3 && x < 8 && y >= 2 && y < 5 ? 0xdeadbeef : 0);
		}
}

/* Z24S8: depth only keeps stencil; stencil under STENCIL_MASK(0) = 0x0f. */
static void test_clear_z24s8_depth_and_masked_stencil(void **state)
{
	struct host *h = *state;
	uint8_t *z = vram(h, ZETA);
	for (unsigned i = 0; i < 8 * 4; i += 4)
		nv_wr32le(z + i, 0x123456a5);
	fb(h, 0, NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8,
	   8, 1, 64, RT0);
	INC(h, 0, NV_CURIE_SCISSOR_HORIZ, 0x10000000, 0x10000000);
	INC(h, 0, NV_CURIE_CLEAR_DEPTH_VALUE, 0xffffff3c, 0, NV40_CLEAR_DEPTH);
	run(h);
	assert_int_equal(nv_rd32le(z), 0xffffffa5);
	INC(h, 0, NV_CURIE_STENCIL_ENABLE, 0, 0x0f);
	INC(h, 0, NV_CURIE_CLEAR_DEPTH_VALUE, 0x0000003c, 0, NV40_CLEAR_STENCIL);
	run(h);
	for (unsigned i = 0; i < 8 * 4; i += 4)
		assert_int_equal(nv_rd32le(z + i), 0xffffffac);
}

/* A colour buffer past its ctxdma traps and writes nothing. */
static void test_clear_outside_ctxdma_traps(void **state)
{
	struct host *h = *state;
	fb(h, 0, NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8,
	   64, 64, 4096, HOST_VRAM - 4096 * 32);
	INC(h, 0, NV_CURIE_SCISSOR_HORIZ, 0x10000000, 0x10000000);
	INC(h, 0, NV_CURIE_CLEAR_COLOR_VALUE, 0xffffffff, 0xf0);
	host_kick(h, 0);
	sim_run(h->s);
	assert_true(sim_rd32(h->s, NV_PGRAPH_INTR) & NV_PGRAPH_INTR_ERROR);
	assert_true(sim_rd32(h->s, NV_PGRAPH_NSOURCE) & NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
	assert_int_equal(NV_PGRAPH_TRAPPED_ADDR_VAL(0, S3D, NV_CURIE_CLEAR_BUFFERS),
			 sim_rd32(h->s, NV_PGRAPH_TRAPPED_ADDR));
	assert_int_equal(nv_rd32le(vram(h, HOST_VRAM - 4096 * 32)), 0);
}

/* Fence and query: the value at the offset; the report's timestamp, count
 * and status written; a query outside DMA_QUERY traps. */
static void test_fence_and_query_reports(void **state)
{
	struct host *h = *state;
	uint8_t *q = h->sysmem + QUERY_AT + 0x40;
	nv_wr32le(q + 12, 0x01000000);                /* Mesa's preset */
	INC(h, 0, NV_CURIE_FENCE_OFFSET, 16, 0xcafe0001);
	INC(h, 0, NV_CURIE_QUERY_RESET, 1);
	INC(h, 0, NV_CURIE_QUERY_ENABLE, 1);
	INC(h, 0, NV_CURIE_QUERY_GET, 1u << 24 | 0x40);
	run(h);
	assert_int_equal(nv_rd32le(h->sysmem + FENCE_AT + 16), 0xcafe0001);
	assert_int_equal(nv_rd32le(q + 8), 0);
	assert_int_equal(nv_rd32le(q + 12), 0);
	uint64_t ns = nv_rd32le(q) | (uint64_t)nv_rd32le(q + 4) << 32;
	assert_true(ns > 0 && ns <= sim_ptimer_ns(h->s));
	INC(h, 0, NV_CURIE_QUERY_GET, 1u << 24 | (4096 - 128 - 8));
	host_kick(h, 0);
	sim_run(h->s);
	assert_true(sim_rd32(h->s, NV_PGRAPH_NSOURCE) & NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
}

/* VP upload: FROM_ID then 4-word packets fill consecutive slots; a 16-word
 * constant packet uploads four constants; nothing past the RAM's end. */
static void test_vp_upload(void **state)
{
	struct host *h = *state;
	INC(h, 0, NV_CURIE_VP_UPLOAD_FROM_ID, 10);
	INC(h, 0, NV_CURIE_VP_UPLOAD_INST, 1, 2, 3, 4);
	INC(h, 0, NV_CURIE_VP_UPLOAD_INST, 5, 6, 7, 8);
	INC(h, 0, NV_CURIE_VP_UPLOAD_CONST_ID, 7, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x22, 0x23,
	    0x30, 0x31, 0x32, 0x33, 0x40, 0x41, 0x42, 0x43);
	INC(h, 0, NV_CURIE_VP_UPLOAD_FROM_ID, NV40_VP_INSNS - 1);
	INC(h, 0, NV_CURIE_VP_UPLOAD_INST, 9, 9, 9, 9);
	INC(h, 0, NV_CURIE_VP_UPLOAD_INST, 7, 7, 7, 7);   /* dropped */
	run(h);
	/* channel 0's saved context (channel 1 ran last) */
	host_gr_save(h, NV_PGRAPH_CTXCTL_INST(sim_rd32(h->s, NV_PGRAPH_CTXCTL_CUR)) << 4);
	uint32_t img = HOST_GRCTX(0);
	assert_int_equal(HOST_GR_WORD(h, img, c3d.vp_code[10][0]), 1);
	assert_int_equal(HOST_GR_WORD(h, img, c3d.vp_code[10][3]), 4);
	assert_int_equal(HOST_GR_WORD(h, img, c3d.vp_code[11][2]), 7);
	assert_int_equal(HOST_GR_WORD(h, img, c3d.vp_code[NV40_VP_INSNS - 1][0]), 9);
	assert_int_equal(HOST_GR_WORD(h, img, c3d.vp_upload_inst), NV40_VP_INSNS);
	for (unsigned k = 0; k < 4; k++)
		for (unsigned i = 0; i < 4; i++)
			assert_int_equal(HOST_GR_WORD(h, img, c3d.vp_const[7 + k][i]),
					 0x10 * (k + 1) + i);
	assert_int_equal(HOST_GR_WORD(h, img, c3d.vp_upload_const), 11);
}

/* Two channels (0x4097 and 0x4497), 4-word timeslices: each keeps its own
 * RT, clear colour and program RAM through the switches; the saved grctx
 * images carry c3d. */
static void test_two_channels_keep_their_3d_state(void **state)
{
	struct host *h = *state;
	for (unsigned c = 0; c < 2; c++) {
		host_ramin_wr32(h, NV40_RAMIN_RAMFC + c * NV40_RAMFC_SIZE + NV40_RAMFC_DMA_TIMESLICE, 4);
		fb(h, c, NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8,
		   16, 4, 64, RT0 + c * 0x1000);
		INC(h, c, NV_CURIE_SCISSOR_HORIZ, 0x10000000, 0x10000000);
		INC(h, c, NV_CURIE_VP_UPLOAD_FROM_ID, 3 + c);
		for (unsigned i = 0; i < 4; i++)
			INC(h, c, NV_CURIE_VP_UPLOAD_INST, c, i, 0xa0 + c, 0xb0 + i);
		INC(h, c, NV_CURIE_CLEAR_COLOR_VALUE, 0x01010101u * (c + 1), 0xf0);
	}
	run(h);
	for (unsigned c = 0; c < 2; c++)
		for (unsigned y = 0; y < 5; y++)
			for (unsigned x = 0; x < 16; x++)
				assert_int_equal(nv_rd32le(vram(h, RT0 + c * 0x1000 + y * 64 + 4 * x)),
						 y < 4 ? 0x01010101u * (c + 1) : 0);
	uint32_t cur = sim_rd32(h->s, NV_PGRAPH_CTXCTL_CUR);
	host_gr_save(h, NV_PGRAPH_CTXCTL_INST(cur) << 4);
	for (unsigned c = 0; c < 2; c++) {
		uint32_t img = HOST_GRCTX(c);
		assert_int_equal(HOST_GR_WORD(h, img, magic), SIM_GRCTX_MAGIC);
		for (unsigned i = 0; i < 4; i++) {
			assert_int_equal(HOST_GR_WORD(h, img, c3d.vp_code[3 + c + i][0]), c);
			assert_int_equal(HOST_GR_WORD(h, img, c3d.vp_code[3 + c + i][3]), 0xb0 + i);
		}
		assert_int_equal(HOST_GR_WORD(h, img, c3d.vp_upload_inst), 7 + c);
		assert_int_equal(HOST_GR_WORD(h, img, curie[NV_CURIE_COLOR0_OFFSET__SLOT]),
				 RT0 + c * 0x1000);
		assert_int_equal(HOST_GR_WORD(h, img, subc_class[S3D]),
				 c ? NV_CLASS_CURIE_NV44 : NV_CLASS_CURIE_NV40);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, host_teardown)
		T(test_clear_linear_argb_scissor_and_mask),
		T(test_clear_r5g6b5_and_xrgb),
		T(test_clear_swizzled),
		T(test_clear_z24s8_depth_and_masked_stencil),
		T(test_clear_outside_ctxdma_traps),
		T(test_fence_and_query_reports),
		T(test_vp_upload),
		T(test_two_channels_keep_their_3d_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
