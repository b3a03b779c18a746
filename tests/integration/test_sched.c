/* Scheduling: channels that queue work behind their own work in flight
 * (heavy ones) are let onto the card only a few at a time, so a client that
 * submits little and waits finds its turn behind few of them however many
 * flood the card.  Counted in the card's own work, not timed: each heavy
 * submission is shorter than a timeslice, so every flooder whose channel
 * the card ran while the small submission waited completed one; the
 * flooders that did are the channels it waited behind. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"

#define FLOODERS 12
#define QUEUED   100      /* submissions each flooder queues at once */
#define PROBES   5
/* One heavy channel on the card (nvd's NVD_HEAVY_ON_CARD), and a few let on
 * in turn as it drains while the probe waits: never one per flooder. */
#define MOST_CHANNELS 4

struct flooder {
	struct nvt_client t;
	struct nvt_buf src, dst;
	uint32_t f[QUEUED];
};

static unsigned done_count(struct flooder *fl, unsigned *each)
{
	unsigned n = 0;
	for (unsigned i = 0; i < FLOODERS; i++) {
		each[i] = 0;
		for (unsigned k = 0; k < QUEUED; k++)
			each[i] += nvc_fence_done(fl[i].t.ch, fl[i].f[k]) == 1;
		n += each[i];
	}
	return n;
}

static void test_small_submission_waits_for_few_heavy_channels(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct flooder *fl = calloc(FLOODERS, sizeof(*fl));
	struct nvt_client probe;
	assert_non_null(fl);
	NVT_OK(nvt_client_open(&probe, d->sock, "probe"));
	NVT_OK(nvt_finish(&probe.p));
	for (unsigned i = 0; i < FLOODERS; i++) {
		NVT_OK(nvt_client_open(&fl[i].t, d->sock, "flooder"));
		NVT_OK(nvt_finish(&fl[i].t.p));
		NVT_OK(nvt_buf_new(fl[i].t.c, 1u << 20, NVC_VRAM, 2 * i + 1, &fl[i].src));
		NVT_OK(nvt_buf_new(fl[i].t.c, 1u << 20, NVC_VRAM, 2 * i + 2, &fl[i].dst));
	}
	/* Each queues its submissions (a 1 MiB copy each) at once: behind
	 * the first, they make it heavy. */
	for (unsigned i = 0; i < FLOODERS; i++)
		for (unsigned k = 0; k < QUEUED; k++) {
			nvt_m2mf(&fl[i].t.p, &fl[i].src, 0, 4096, &fl[i].dst, 0, 4096, 4096, 256);
			NVT_OK(nvt_submit(&fl[i].t.p, &fl[i].f[k]));
		}
	/* The first submissions went on as nobody's work was known yet. */
	for (unsigned i = 0; i < FLOODERS; i++)
		NVT_OK(nvt_wait(&fl[i].t.p, fl[i].f[0]));
	for (unsigned n = 0; n < PROBES; n++) {
		unsigned before[FLOODERS], after[FLOODERS], ran = 0;
		uint32_t f;
		nvt_mthd(&probe.p, NVT_SUBC_M2MF, NV_M2MF_NOP, 0);
		done_count(fl, before);
		NVT_OK(nvt_submit(&probe.p, &f));
		NVT_OK(nvt_wait(&probe.p, f));
		unsigned done = done_count(fl, after);
		for (unsigned i = 0; i < FLOODERS; i++)
			ran += after[i] > before[i];
		print_message("probe %u: waited behind %u of %u flooding channels (%u of %u "
			      "submissions done)\n", n, ran, FLOODERS, done, FLOODERS * QUEUED);
		if (done == FLOODERS * QUEUED)
			fail_msg("the flooders ran out of work before the probe was done: the "
				 "test proves nothing (a slow client?)");
		if (ran > MOST_CHANNELS)
			fail_msg("a small submission waited behind %u heavy channels (at most %u)",
				 ran, MOST_CHANNELS);
	}
	for (unsigned i = 0; i < FLOODERS; i++) {
		NVT_OK(nvt_wait(&fl[i].t.p, fl[i].f[QUEUED - 1]));
		nvt_buf_free(&fl[i].src);
		nvt_buf_free(&fl[i].dst);
		nvt_client_close(&fl[i].t);
	}
	nvt_client_close(&probe);
	free(fl);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_small_submission_waits_for_few_heavy_channels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
