/* Virtual channels: far more channels than the card's 30 for clients.
 * Each client's 2D state (surface format, pitch, colour format) is set in
 * its first submission only; its later submissions draw with it after the
 * channel has been unloaded and loaded again on whichever hardware channel
 * was free, so a grctx, RAMFC or RAMHT entry restored wrongly shows up as
 * wrong bytes against the CPU reference. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"
#include "tests/lib/nvt-vc.h"

#define VC_PER_CHILD 16

static const char *const timeslice_min[] = { "--timeslice", "1", NULL };

/* The children's barrier: each writes a byte to vc_ready once its clients
 * are open, then reads vc_go until the parent closes it, so every channel
 * is open before any draws (the unloads the test counts do not then
 * depend on how the children's lives overlap). */
static int vc_ready[2], vc_go[2];

static void vc_barrier(void)
{
	char c;
	if (write(vc_ready[1], "r", 1) != 1)
		return;
	while (read(vc_go[0], &c, 1) < 0 && errno == EINTR)
		;
}

/* One child: VC_PER_CHILD connections, each with a channel; everyone
 * submits, three rounds, before anyone waits; then every picture is checked. */
static int vc_child(void *arg)
{
	unsigned first = (unsigned)(uintptr_t)arg;
	const char *sock = getenv("NVT_VC_SOCK");
	struct nvt_vc x[VC_PER_CHILD];
	int bad = 0;

	close(vc_go[1]);
	for (unsigned i = 0; i < VC_PER_CHILD; i++)
		if (nvt_vc_open(&x[i], sock, "vchan", first + i) < 0) {
			fprintf(stderr, "vchan child: client %u: %s\n", first + i, nvc_error());
			vc_barrier();
			return 1;
		}
	vc_barrier();
	for (unsigned round = 0; round < 3; round++)
		for (unsigned i = 0; i < VC_PER_CHILD; i++)
			if (nvt_vc_draw(&x[i], 40) < 0) {
				fprintf(stderr, "vchan child: client %u: %s\n", first + i, nvc_error());
				return 2;
			}
	for (unsigned i = 0; i < VC_PER_CHILD; i++) {
		char what[48];
		snprintf(what, sizeof(what), "client %u's surface", first + i);
		if (nvt_finish(&x[i].p) < 0)
			return 3;
		bad |= nvt_buf_check(&x[i].buf, what) < 0;
	}
	for (unsigned i = 0; i < VC_PER_CHILD; i++)
		nvc_close(x[i].c);
	return bad ? 4 : 0;
}

static void vc_run(struct nvt_daemon *d, unsigned children)
{
	struct nvc *c;
	struct nvc_status st;
	pid_t pid[16];

	setenv("NVT_VC_SOCK", d->sock, 1);
	NVT_OK(pipe(vc_ready));
	NVT_OK(pipe(vc_go));
	for (unsigned i = 0; i < children; i++)
		pid[i] = nvt_fork(vc_child, (void *)(uintptr_t)(i * VC_PER_CHILD));
	close(vc_ready[1]);          /* a child that died before it got there: EOF */
	close(vc_go[0]);
	for (unsigned i = 0; i < children; i++) {
		char c;
		ssize_t r;
		while ((r = read(vc_ready[0], &c, 1)) < 0 && errno == EINTR)
			;
		assert_int_equal(r, 1);
	}
	close(vc_go[1]);             /* everyone's clients are open: go */
	close(vc_ready[0]);
	for (unsigned i = 0; i < children; i++) {
		int code = nvt_wait_child(pid[i], 80000);
		if (code)
			fail_msg("child %u (clients %u..%u) failed: %d", i, i * VC_PER_CHILD,
				 (i + 1) * VC_PER_CHILD - 1, code);
	}
	NVT_OK(nvc_connect(d->sock, "vchan-status", &c));
	NVT_OK(nvc_status(c, &st));
	if (st.chan_unloads < children * VC_PER_CHILD - st.hw_channels)
		fail_msg("%u channels on %u hardware ones but only %llu unloads", children * VC_PER_CHILD,
			 st.hw_channels, (unsigned long long)st.chan_unloads);
	assert_int_equal(st.channels_used, 0);
	assert_int_equal(st.hw_channels_used, 0);
	assert_int_equal(st.vchan_saved, 0);
	nvc_close(c);
	nvt_end(d);
}

static void test_128_clients_draw_at_once_every_picture_exact(void **state)
{
	vc_run(nvt_d(state), 128 / VC_PER_CHILD);
}

/* PFIFO switching every command word, virtual channels swapping under it. */
static void test_virtual_channel_switch_exact_at_smallest_timeslice(void **state)
{
	vc_run(nvt_d(state), 48 / VC_PER_CHILD);
}

/* nvdctl ARGS --raw into out (exit 0 required). */
static void vc_nvdctl(const struct nvt_daemon *d, const char *cmd, char *out, size_t len)
{
	static char err[4096];
	char nvdctl[PATH_MAX];
	const char *tools = getenv("NVD_TOOLS");

	snprintf(nvdctl, sizeof(nvdctl), "%s/nvdctl", tools && *tools ? tools : "build/bin");
	const char *argv[] = { nvdctl, "--socket", d->sock, cmd, "--raw", NULL };
	int code = nvt_run(argv, out, len, err, sizeof(err), 10000);
	if (code != 0)
		fail_msg("nvdctl %s exited %d: %s", cmd, code, err);
}

/* 200 channels opened and closed while 40 others keep every hardware
 * channel taken: each new one is loaded in a stolen chid; afterwards RAMIN,
 * VRAM, GART, channels and the daemon's descriptors are as before. */
static void test_200_open_close_cycles_leave_accounting_at_zero(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *holders[2], *c;
	struct nvc_chan *held[40];
	struct nvc_status before, mid, after;

	NVT_OK(nvc_connect(d->sock, "cycles", &c));
	NVT_OK(nvc_status(c, &before));
	int fds = nvt_daemon_fds_settled(d);
	for (unsigned i = 0; i < 2; i++)
		NVT_OK(nvc_connect(d->sock, "holder", &holders[i]));
	for (unsigned i = 0; i < 40; i++)
		NVT_OK(nvc_chan_new(holders[i % 2], &held[i]));
	NVT_OK(nvc_status(c, &mid));
	assert_int_equal(mid.channels_used, 40);
	assert_int_equal(mid.hw_channels_used, mid.hw_channels);
	/* nvdctl says so: 30 on the card, 10 virtual, each holder's channels
	 * by state (a client holds 16 hardware channels at most) */
	static char out[16384];
	vc_nvdctl(d, "status", out, sizeof(out));
	if (!strstr(out, "\nhw_channels_used=30\n") || !strstr(out, "\nvirtual_channels=10\n"))
		fail_msg("nvdctl status --raw does not show 30 + 10 channels:\n%s", out);
	vc_nvdctl(d, "clients", out, sizeof(out));
	if (!strstr(out, "name=holder") || !strstr(out, ":virtual") || !strstr(out, ":chid"))
		fail_msg("nvdctl clients --raw does not show the channels' states:\n%s", out);
	for (unsigned i = 0; i < 200; i++) {
		struct nvt_vc x;
		NVT_OK(nvt_vc_open(&x, d->sock, "vchan", i));
		NVT_OK(nvt_vc_draw(&x, 4));
		NVT_OK(nvt_finish(&x.p));
		/* closed as soon as its last fence is seen */
		NVT_OK(nvc_chan_free(x.ch));
		if (nvt_buf_check(&x.buf, "a cycled channel's surface") < 0)
			fail_msg("cycle %u drew wrong bytes", i);
		nvt_buf_free(&x.buf);
		nvt_push_fini(&x.p);
		nvc_close(x.c);
	}
	for (unsigned i = 0; i < 2; i++)
		nvc_close(holders[i]);
	for (int tries = 0; tries < 200; tries++) {
		NVT_OK(nvc_status(c, &after));
		if (!after.channels_used && after.clients == 1)
			break;
		usleep(10000);
	}
	assert_int_equal(after.channels_used, 0);
	assert_int_equal(after.hw_channels_used, 0);
	assert_int_equal(after.vchan_saved, 0);
	assert_int_equal(after.ramin_used, before.ramin_used);
	assert_int_equal(after.vram_client, before.vram_client);
	assert_int_equal(after.gart_client, before.gart_client);
	assert_int_equal(after.bos, before.bos);
	/* the first one took an idle holder's chid, each next one the chid
	 * its predecessor gave back */
	if (after.chan_loads - mid.chan_loads < 200 || after.chan_unloads <= mid.chan_unloads)
		fail_msg("%llu loads and %llu unloads for 200 channels on a full card",
			 (unsigned long long)(after.chan_loads - mid.chan_loads),
			 (unsigned long long)(after.chan_unloads - mid.chan_unloads));
	nvt_assert_daemon_fds(d, fds);
	/* each channel closed as soon as its last fence was seen: the fence
	 * interrupt went with the channel (fifo.c nvd_fifo_chan_stop) */
	if (nvt_log_contains(d, "CACHE_ERROR"))
		fail_msg("a closed channel's fence reached the log as a CACHE_ERROR");
	nvc_close(c);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_128_clients_draw_at_once_every_picture_exact),
		NVT_TEST_ARGS(test_virtual_channel_switch_exact_at_smallest_timeslice, timeslice_min),
		NVT_TEST(test_200_open_close_cycles_leave_accounting_at_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
