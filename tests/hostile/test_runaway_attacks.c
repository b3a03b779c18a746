/* Runaway work: a client whose submission would keep the card busy for
 * many seconds, beside an honest one.  Before the watchdog one such
 * submission held the card's lock for 12-21 s: every other client waited
 * and new connections were dropped.  Now the daemon's loop only ever waits
 * for a register access and the watchdog stops the channel after
 * --gpu-timeout of card time: while the runaway runs, a new connection is
 * answered, nvdctl status answers, and the honest client's small
 * submission completes (counts and generous bounds, not a race); the
 * attacker is told EIO for the runaway submission, then ENODEV, and only
 * its channel is lost; the honest client's bytes are those it gets alone.
 *
 * Runaways: one M2MF packet of many copies (a NONINC run of BUF_NOTIFY),
 * and full-screen draws of a fragment program looping to the card's
 * per-quad bound (tests/lib/nvt-fploop.h).  And without a watchdog, a
 * client leaving in the middle of such a draw: its teardown stops it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hw/chips.h"
#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/methods.h"
#include "hw/vp-isa.h"
#include "tests/lib/nvt-fploop.h"
#include "tests/lib/nvt-test.h"

#define COPY_BYTES (4u << 20)
#define COPY_PITCH 4096u
#define COPIES     2000u          /* BUF_NOTIFY words of a packet: 8 GB moved */
#define PACKETS    24           /* several seconds of card time */

struct runaway {
	struct nvt_client t;
	struct nvt_buf a, b;
	uint32_t fence;
	int64_t t0;                   /* submitted */
};

static void runaway_open(struct runaway *r, struct nvt_daemon *d)
{
	NVT_OK(nvt_client_open(&r->t, d->sock, "runaway"));
	NVT_OK(nvt_finish(&r->t.p));
	NVT_OK(nvt_buf_new(r->t.c, COPY_BYTES, NVC_VRAM, 21, &r->a));
	NVT_OK(nvt_buf_new(r->t.c, COPY_BYTES, NVC_VRAM, 22, &r->b));
}

/* One M2MF setup, then COPIES launches of it in one NONINC packet. */
static void runaway_m2mf(struct runaway *r)
{
	struct nvt_push *p = &r->t.p;
	for (unsigned k = 0; k < PACKETS; k++) {
		nvt_m2mf_cmd(p, &r->a, 0, COPY_PITCH, &r->b, 0, COPY_PITCH, COPY_PITCH,
			     COPY_BYTES / COPY_PITCH - 1);
		nvt_space(p, 1 + COPIES);
		nvt_word(p, NV_CMD_NONINC_WORD(NVT_SUBC_M2MF, NV_M2MF_BUF_NOTIFY, COPIES));
		for (unsigned i = 0; i < COPIES; i++)
			nvt_out(p, 0);
	}
	NVT_OK(nvt_submit(p, &r->fence));
	r->t0 = nvt_now_ns();
}

/* The runaway was stopped: EIO for its submission, once, then ENODEV; the
 * daemon says which method ran how long. */
static void runaway_stopped(struct runaway *r, struct nvt_daemon *d, unsigned timeout_ms,
			    const char *says)
{
	uint32_t seq;
	int w = nvc_fence_wait(r->t.ch, r->fence, 30ll * 1000000000);
	int64_t ms = (nvt_now_ns() - r->t0) / 1000000;
	if (w != -ENODEV)
		fail_msg("the runaway's fence: %d (%s) after %lld ms, expected ENODEV", w,
			 strerror(-w), (long long)ms);
	fprintf(stderr, "runaway stopped after %lld ms (--gpu-timeout %u)\n", (long long)ms,
		timeout_ms);
	/* charged at most one watchdog tick (timeout / 32) ahead of the card */
	assert_true(ms >= timeout_ms - timeout_ms / 16);
	assert_true(ms < timeout_ms + 3000);
	NVT_ERR(nvc_chan_error(r->t.ch, &seq), -EIO);
	assert_int_equal(seq, r->fence);
	NVT_ERR(nvc_chan_error(r->t.ch, &seq), -ENODEV);
	NVT_OK(nvc_chan_error(r->t.ch, &seq));
	if (!nvt_log_contains(d, says) || !nvt_log_contains(d, ": stopped"))
		fail_msg("the daemon's log does not say \"%s ... stopped\"", says);
}

static void runaway_close(struct runaway *r)
{
	nvt_buf_free(&r->a);
	nvt_buf_free(&r->b);
	nvt_client_close(&r->t);
}

/* While the runaway runs: a new client is greeted, nvdctl answers, and a
 * small copy of the new client completes within 2 s.  It comes a quarter
 * of the limit after the runaway started, so it waits at most the rest of
 * the limit and the bound has that quarter to spare.  How long it took,
 * in ms. */
#define HONEST_BOUND_MS 2000u

static int64_t others_carry_on(struct nvt_daemon *d, const struct runaway *r,
			       unsigned timeout_ms)
{
	struct nvt_client c;
	struct nvt_buf src, dst;
	char out[4096], err[1024];

	nvt_sleep_ms(timeout_ms / 4);
	int64_t t0 = nvt_now_ns();
	NVT_OK(nvt_client_open(&c, d->sock, "small"));
	int64_t hello_ms = (nvt_now_ns() - t0) / 1000000;
	NVT_OK(nvt_buf_new(c.c, 4096, NVC_GART, 31, &src));
	NVT_OK(nvt_buf_new(c.c, 4096, NVC_GART, 32, &dst));
	nvt_m2mf(&c.p, &src, 0, 256, &dst, 0, 256, 256, 16);
	NVT_OK(nvt_finish(&c.p));
	int64_t small_ms = (nvt_now_ns() - t0) / 1000000;
	NVT_OK(nvt_buf_check(&dst, "the small client's copy"));

	const char *tools = getenv("NVD_TOOLS");
	char nvdctl[512];
	snprintf(nvdctl, sizeof(nvdctl), "%s/nvdctl", tools ? tools : "build/bin");
	const char *argv[] = { nvdctl, "--socket", d->sock, "status", NULL };
	t0 = nvt_now_ns();
	int code = nvt_run(argv, out, sizeof(out), err, sizeof(err), 10000);
	int64_t status_ms = (nvt_now_ns() - t0) / 1000000;
	fprintf(stderr, "beside the runaway: hello %lld ms, small submission %lld ms, nvdctl "
		"status %lld ms\n", (long long)hello_ms, (long long)small_ms, (long long)status_ms);
	assert_int_equal(code, 0);
	/* the runaway was running all along: else this proves nothing */
	if (nvc_fence_done(r->t.ch, r->fence))
		fail_msg("the runaway finished before the others were measured");
	if (small_ms >= HONEST_BOUND_MS || status_ms >= HONEST_BOUND_MS)
		fail_msg("beside the runaway a small submission took %lld ms and nvdctl status "
			 "%lld ms (bound %u ms)", (long long)small_ms, (long long)status_ms,
			 HONEST_BOUND_MS);
	nvt_buf_free(&src);
	nvt_buf_free(&dst);
	nvt_client_close(&c);
	return small_ms;
}

struct runaway_case {
	unsigned timeout_ms;
	const char *says;             /* the watchdog's log names the method */
};

static void attack_m2mf_packet(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	const struct runaway_case *k = arg;
	struct runaway r;
	(void)h;
	runaway_open(&r, d);
	runaway_m2mf(&r);
	others_carry_on(d, &r, k->timeout_ms);
	runaway_stopped(&r, d, k->timeout_ms, k->says);
	runaway_close(&r);
}

static const char *const args_500ms[] = { "--gpu-timeout", "500", NULL };

static void test_m2mf_packet_of_many_copies_is_stopped_after_gpu_timeout(void **state)
{
	struct runaway_case k = { 500, "method 0x0328 of class 0x0039 ran for" };
	nvt_attack(nvt_d(state), attack_m2mf_packet, &k);
}

static void test_m2mf_packet_of_many_copies_is_stopped_after_the_default_2s(void **state)
{
	struct runaway_case k = { 2000, "method 0x0328 of class 0x0039 ran for" };
	nvt_attack(nvt_d(state), attack_m2mf_packet, &k);
}

/* ---- full-screen passes of a looping fragment program ---- */

#define S3D     7                 /* Mesa's SUBC_3D */
#define H_3D    0x5a013097u
#define SCREEN  512u              /* pixels a side: 64 Ki quads of ~14.5 K steps */
#define PASSES  4

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static void m3(struct nvt_push *p, uint32_t mthd, unsigned n, const uint32_t *v)
{
	nvt_begin(p, S3D, mthd, n);
	for (unsigned i = 0; i < n; i++)
		nvt_out(p, v[i]);
}
#define M3(p, m, ...) m3(p, m, sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4, \
			 (const uint32_t[]){ __VA_ARGS__ })

/* fb: the colour buffer (zeta off), fp: the looping program, vb: two
 * triangles over the screen.  The passes, as Mesa's nv30 state emission
 * orders them, in one submission. */
static void runaway_passes(struct runaway *r)
{
	struct nvt_push *p = &r->t.p;
	struct nvc_info info;
	uint32_t vram = nvc_chan_vram_dma(r->t.ch), gart = nvc_chan_gart_dma(r->t.ch);

	NVT_OK(nvc_info(r->t.c, &info));
	const struct nv_chip *chip = nv_chip_by_chipset(info.chipset);
	assert_non_null(chip);
	NVT_OK(nvc_obj_new(r->t.ch, H_3D, chip->gr_class));
	/* a: the colour buffer (SCREEN rows of SCREEN * 4 bytes), b: program
	 * at 0, vertices at 4096 */
	nvt_fploop(r->b.map);
	static const float tri[6][4] = {
		{ 0, 0, 0.5f, 1 }, { SCREEN, 0, 0.5f, 1 }, { 0, SCREEN, 0.5f, 1 },
		{ SCREEN, 0, 0.5f, 1 }, { SCREEN, SCREEN, 0.5f, 1 }, { 0, SCREEN, 0.5f, 1 },
	};
	for (unsigned v = 0; v < 6; v++)
		for (unsigned c = 0; c < 4; c++)
			nv_wr32le(r->b.map + 4096 + 16 * v + 4 * c, fbits(tri[v][c]));

	nvt_ref(p, r->a.bo, NVC_READ | NVC_WRITE);
	nvt_ref(p, r->b.bo, NVC_READ);
	nvt_mthd(p, S3D, NV_FIFO_OBJECT, H_3D);
	M3(p, NV_CURIE_DMA_NOTIFY, NVT_H_NULL, vram, gart, vram, NVT_H_NULL, vram, vram, vram, gart,
	   NVT_H_NULL, NVT_H_NULL, NVT_H_NULL, NVT_H_NULL);
	/* mov o[hpos], a[0] */
	uint32_t insn[4] = { 0 };
	uint32_t in = nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0);
	nv40_vp_vec_to_output(insn, NV40_VP_VEC_MOV, NV40_VP_OUT_POS, 0xf, in, in, 0, 0, 1);
	M3(p, NV_CURIE_VP_UPLOAD_FROM_ID, 0);
	M3(p, NV_CURIE_VP_UPLOAD_INST, insn[0], insn[1], insn[2], insn[3]);
	M3(p, NV_CURIE_VP_START_FROM_ID, 0);
	M3(p, NV_CURIE_VP_ATTRIB_EN, 0x00000001, 0x00000001);
	/* the colour buffer, window coordinates = positions */
	M3(p, NV_CURIE_RT_HORIZ, SCREEN << 16, SCREEN << 16,
	   NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8);
	M3(p, NV_CURIE_COLOR0_PITCH, SCREEN * 4, (uint32_t)r->a.addr, (uint32_t)r->a.addr);
	M3(p, NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0));
	M3(p, NV_CURIE_SCISSOR_HORIZ, SCREEN << 16, SCREEN << 16);
	M3(p, NV_CURIE_VIEWPORT_HORIZ, SCREEN << 16, SCREEN << 16);
	M3(p, NV_CURIE_VIEWPORT_TRANSLATE, 0, 0, 0, 0, fbits(1), fbits(1), fbits(1), fbits(1));
	M3(p, NV_CURIE_COLOR_MASK, 0x01010101);
	M3(p, NV_CURIE_FP_ACTIVE_PROGRAM, (uint32_t)r->b.addr | NV40_FP_PROGRAM_DMA0);
	M3(p, NV_CURIE_FP_CONTROL, 0x02000000);
	uint32_t fmt[16];
	fmt[0] = 16u << 8 | 3u << 4 | NV40_VTXFMT_V32_FLOAT;
	for (unsigned i = 1; i < 16; i++)
		fmt[i] = NV40_VTXFMT_V32_FLOAT;
	m3(p, NV_CURIE_VTXFMT, 16, fmt);
	M3(p, NV_CURIE_VTXBUF, (uint32_t)(r->b.addr + 4096));   /* DMA0: VRAM */
	M3(p, NV_CURIE_VTX_CACHE_INVALIDATE_1710, 0);
	for (unsigned k = 0; k < PASSES; k++) {
		M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
		nvt_word(p, NV_CMD_NONINC_WORD(S3D, NV_CURIE_VB_VERTEX_BATCH, 1));
		nvt_out(p, 5u << 24);
		M3(p, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	}
	NVT_OK(nvt_submit(p, &r->fence));
	r->t0 = nvt_now_ns();
}

static void attack_fp_loop(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	const struct runaway_case *k = arg;
	struct runaway r;
	(void)h;
	runaway_open(&r, d);
	runaway_passes(&r);
	others_carry_on(d, &r, k->timeout_ms);
	runaway_stopped(&r, d, k->timeout_ms, k->says);
	runaway_close(&r);
}

/* The watchdog names the method PGRAPH is in when it fires: mostly a
 * pass's BEGIN_END stop (0x1808), where it draws, but on a slow host
 * (qemu-user, loaded) sometimes the VB_VERTEX_BATCH (0x1814) before it. */
#define SHADER_SAYS "of class 0x4097 ran for"

static void test_full_screen_looping_shader_passes_are_stopped_after_gpu_timeout(void **state)
{
	struct runaway_case k = { 500, SHADER_SAYS };
	nvt_attack(nvt_d(state), attack_fp_loop, &k);
}

static void test_full_screen_looping_shader_passes_are_stopped_after_the_default_2s(void **state)
{
	struct runaway_case k = { 2000, SHADER_SAYS };
	nvt_attack(nvt_d(state), attack_fp_loop, &k);
}

/* Without a watchdog, a client that leaves in the middle of its runaway
 * draw takes it along: its channel's teardown resets PGRAPH, so the next
 * client runs at once and nothing writes the freed buffers (the oracle). */
static void attack_leave_mid_draw(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct runaway r;
	struct nvt_client c;
	struct nvt_buf src, dst;
	(void)h;
	(void)arg;
	runaway_open(&r, d);
	runaway_passes(&r);
	nvt_sleep_ms(100);
	assert_false(nvc_fence_done(r.t.ch, r.fence));
	runaway_close(&r);
	int64_t t0 = nvt_now_ns();
	NVT_OK(nvt_client_open(&c, d->sock, "after"));
	NVT_OK(nvt_buf_new(c.c, 4096, NVC_GART, 41, &src));
	NVT_OK(nvt_buf_new(c.c, 4096, NVC_GART, 42, &dst));
	nvt_m2mf(&c.p, &src, 0, 256, &dst, 0, 256, 256, 16);
	NVT_OK(nvt_finish(&c.p));
	int64_t ms = (nvt_now_ns() - t0) / 1000000;
	fprintf(stderr, "after the runaway left: a small submission took %lld ms\n", (long long)ms);
	/* the passes had seconds left */
	assert_true(ms < 1000);
	NVT_OK(nvt_buf_check(&dst, "the next client's copy"));
	nvt_buf_free(&src);
	nvt_buf_free(&dst);
	nvt_client_close(&c);
}

static const char *const args_no_watchdog[] = { "--gpu-timeout", "0", NULL };

static void test_client_leaving_mid_draw_takes_its_draw_along(void **state)
{
	nvt_attack(nvt_d(state), attack_leave_mid_draw, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_m2mf_packet_of_many_copies_is_stopped_after_gpu_timeout, args_500ms),
		NVT_TEST(test_m2mf_packet_of_many_copies_is_stopped_after_the_default_2s),
		NVT_TEST_ARGS(test_full_screen_looping_shader_passes_are_stopped_after_gpu_timeout,
			      args_500ms),
		NVT_TEST(test_full_screen_looping_shader_passes_are_stopped_after_the_default_2s),
		NVT_TEST_ARGS(test_client_leaving_mid_draw_takes_its_draw_along, args_no_watchdog),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
