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
 * per-quad bound (tests/lib/nvt-fploop.h). */
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
static void runaway_stopped(struct runaway *r, struct nvt_daemon *d, unsigned timeout_ms)
{
	uint32_t seq;
	int w = nvc_fence_wait(r->t.ch, r->fence, 30ll * 1000000000);
	int64_t ms = (nvt_now_ns() - r->t0) / 1000000;
	if (w != -ENODEV)
		fail_msg("the runaway's fence: %d (%s) after %lld ms, expected ENODEV", w,
			 strerror(-w), (long long)ms);
	fprintf(stderr, "runaway stopped after %lld ms (--gpu-timeout %u)\n", (long long)ms,
		timeout_ms);
	assert_true(ms >= timeout_ms);
	assert_true(ms < timeout_ms + 3000);
	NVT_ERR(nvc_chan_error(r->t.ch, &seq), -EIO);
	assert_int_equal(seq, r->fence);
	NVT_ERR(nvc_chan_error(r->t.ch, &seq), -ENODEV);
	NVT_OK(nvc_chan_error(r->t.ch, &seq));
	assert_true(nvt_log_contains(d, "ran for"));
	assert_true(nvt_log_contains(d, ": stopped"));
}

static void runaway_close(struct runaway *r)
{
	nvt_buf_free(&r->a);
	nvt_buf_free(&r->b);
	nvt_client_close(&r->t);
}

/* While the runaway runs: a new client is greeted, nvdctl answers, and a
 * small copy of the new client completes within bound_ms.  How long it
 * took, in ms. */
static int64_t others_carry_on(struct nvt_daemon *d, uint32_t runaway_fence,
			       struct nvc_chan *runaway, unsigned bound_ms)
{
	struct nvt_client c;
	struct nvt_buf src, dst;
	char out[4096], err[1024];

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
	if (nvc_fence_done(runaway, runaway_fence))
		fail_msg("the runaway finished before the others were measured");
	if (small_ms >= bound_ms || status_ms >= bound_ms)
		fail_msg("beside the runaway a small submission took %lld ms and nvdctl status "
			 "%lld ms (bound %u ms)", (long long)small_ms, (long long)status_ms,
			 bound_ms);
	nvt_buf_free(&src);
	nvt_buf_free(&dst);
	nvt_client_close(&c);
	return small_ms;
}

struct m2mf_case {
	unsigned timeout_ms, bound_ms;
};

static void attack_m2mf_packet(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	const struct m2mf_case *k = arg;
	struct runaway r;
	(void)h;
	runaway_open(&r, d);
	runaway_m2mf(&r);
	nvt_sleep_ms(50);
	others_carry_on(d, r.fence, r.t.ch, k->bound_ms);
	runaway_stopped(&r, d, k->timeout_ms);
	runaway_close(&r);
}

static const char *const args_500ms[] = { "--gpu-timeout", "500", NULL };

static void test_m2mf_packet_of_many_copies_is_stopped_after_gpu_timeout(void **state)
{
	struct m2mf_case k = { 500, 2000 };
	nvt_attack(nvt_d(state), attack_m2mf_packet, &k);
}

static void test_m2mf_packet_of_many_copies_is_stopped_after_the_default_2s(void **state)
{
	/* the small client may wait for the watchdog: 2 s and a tick */
	struct m2mf_case k = { 2000, 5000 };
	nvt_attack(nvt_d(state), attack_m2mf_packet, &k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_m2mf_packet_of_many_copies_is_stopped_after_gpu_timeout, args_500ms),
		NVT_TEST(test_m2mf_packet_of_many_copies_is_stopped_after_the_default_2s),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
