/* Virtual channels: far more channels than the card's 30 for clients.
 * Each client's 2D state (surface format, pitch, colour format) is set in
 * its first submission only; its later submissions draw with it after the
 * channel has been unloaded and loaded again on whichever hardware channel
 * was free, so a grctx, RAMFC or RAMHT entry restored wrongly shows up as
 * wrong bytes against the CPU reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"

#define VC_PER_CHILD 16

static const char *const timeslice_min[] = { "--timeslice", "1", NULL };

struct vc_client {
	struct nvc *c;
	struct nvc_chan *ch;
	struct nvt_push p;
	struct nvt_buf buf;
	struct nvt_surf s;
	uint32_t rng;
};

/* Three formats by index, so neighbouring channels differ. */
static int vc_open(struct vc_client *x, const char *sock, unsigned index)
{
	static const struct { unsigned bpp, fmt, color; } f[3] = {
		{ 2, NV_SURF_FORMAT_R5G6B5, NV_GDI_COLOR_FORMAT_A16R5G6B5 },
		{ 4, NV_SURF_FORMAT_Y32, NV_GDI_COLOR_FORMAT_A8R8G8B8 },
		{ 1, NV_SURF_FORMAT_Y8, NV_GDI_COLOR_FORMAT_A8R8G8B8 },
	};
	unsigned k = index % 3, w = 40 + index % 7 * 8, h = 24 + index % 5 * 4;
	uint32_t pitch = (w * f[k].bpp + 63) & ~63u;
	int r;

	memset(x, 0, sizeof(*x));
	if ((r = nvc_connect(sock, "vchan", &x->c)) < 0 || (r = nvc_chan_new(x->c, &x->ch)) < 0 ||
	    (r = nvt_chan_objects(x->ch)) < 0 || (r = nvt_push_init(&x->p, x->c, x->ch, 64u << 10)) < 0 ||
	    (r = nvt_buf_new(x->c, (uint64_t)pitch * h, NVC_VRAM, index, &x->buf)) < 0)
		return r;
	x->s = (struct nvt_surf){ &x->buf, 0, pitch, w, h, f[k].fmt, f[k].bpp };
	x->rng = index * 7919u + 1;
	nvt_bind_standard(&x->p);
	nvt_surf2d(&x->p, &x->s, &x->s);
	nvt_mthd(&x->p, NVT_SUBC_GDI, NV_GDI_COLOR_FORMAT, f[k].color);
	return 0;
}

/* n fills and n blits inside the surface, with the state set at open. */
static int vc_draw(struct vc_client *x, unsigned n)
{
	struct nvt_push *p = &x->p;
	struct nvt_surf *s = &x->s;

	nvt_ref(p, x->buf.bo, NVC_READ | NVC_WRITE);
	for (unsigned i = 0; i < n; i++) {
		uint32_t r[4];
		nvt_fill_rand(p, s, &x->rng, s->w / 2, s->h / 2, r);
		uint32_t dx = nvt_range(&x->rng, 0, s->w - r[2]), dy = nvt_range(&x->rng, 0, s->h - r[3]);
		nvt_blit(p, s, s, r[0], r[1], dx, dy, r[2], r[3]);
	}
	return nvt_submit(p, NULL);
}

/* One child: VC_PER_CHILD connections, each with a channel; everyone
 * submits, three rounds, before anyone waits; then every picture is checked. */
static int vc_child(void *arg)
{
	unsigned first = (unsigned)(uintptr_t)arg;
	const char *sock = getenv("NVT_VC_SOCK");
	struct vc_client x[VC_PER_CHILD];
	int bad = 0;

	for (unsigned i = 0; i < VC_PER_CHILD; i++)
		if (vc_open(&x[i], sock, first + i) < 0) {
			fprintf(stderr, "vchan child: client %u: %s\n", first + i, nvc_error());
			return 1;
		}
	for (unsigned round = 0; round < 3; round++)
		for (unsigned i = 0; i < VC_PER_CHILD; i++)
			if (vc_draw(&x[i], 40) < 0) {
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
	for (unsigned i = 0; i < children; i++)
		pid[i] = nvt_fork(vc_child, (void *)(uintptr_t)(i * VC_PER_CHILD));
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

/* Until the file NVT_VC_STOP exists: 40 clients draw in turn, each turn
 * loading a channel in place of the least recently used idle one; then
 * every picture is checked. */
static int vc_churner(void *arg)
{
	const char *sock = getenv("NVT_VC_SOCK"), *stop = arg;
	struct vc_client x[40];
	int bad = 0;

	for (unsigned i = 0; i < 40; i++)
		if (vc_open(&x[i], sock, 500 + i) < 0)
			return 1;
	while (access(stop, F_OK) < 0)
		for (unsigned i = 0; i < 40; i++)
			if (vc_draw(&x[i], 2) < 0 || nvt_finish(&x[i].p) < 0)
				return 2;
	for (unsigned i = 0; i < 40; i++)
		bad |= nvt_buf_check(&x[i].buf, "a churning client's surface") < 0;
	return bad ? 4 : 0;
}

/* Mesa's GL checks (gl-surfaceless under nvd-run) while 40 other clients
 * keep taking the hardware channels: the GL channel is unloaded between
 * its frames and comes back on another chid, with its 3D state, its bound
 * objects and its fragment program (copied into the new chid's shadow
 * area, FP_ACTIVE_PROGRAM set there by the daemon's methods) exact. */
static void test_gl_client_moved_between_hardware_channels_exact(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_paths at;
	char prog[PATH_MAX + 32], out[PATH_MAX + 32], stop[PATH_MAX + 32];
	struct nvc *c;
	struct nvc_status before, after;

	if (nvt_paths(&at, "../../bin") < 0)
		fail_msg("/proc/self/exe: %s", strerror(errno));
	snprintf(prog, sizeof(prog), "%s/../gl/gl-surfaceless", at.dir);
	snprintf(out, sizeof(out), "%s/gl.out", d->dir);
	snprintf(stop, sizeof(stop), "%s/stop", d->dir);
	if (access(prog, X_OK) < 0 || access(at.nvd_run, X_OK) < 0)
		fail_msg("%s or %s is not built", prog, at.nvd_run);
	setenv("NVT_VC_SOCK", d->sock, 1);
	NVT_OK(nvc_connect(d->sock, "vchan-status", &c));
	NVT_OK(nvc_status(c, &before));
	pid_t churn = nvt_fork(vc_churner, stop);
	const char *argv[] = { at.nvd_run, "--socket", d->sock, prog, "--renderer", "NV4", NULL };
	pid_t gl = nvt_spawn_gl(argv, 0, out);
	if (gl < 0)
		fail_msg("fork: %s", strerror((int)-gl));
	int code = nvt_wait_child(gl, 80000);
	FILE *f = fopen(stop, "w");
	if (f)
		fclose(f);
	int churned = nvt_wait_child(churn, 30000);
	if (code) {
		char cat[PATH_MAX + 64];
		snprintf(cat, sizeof(cat), "cat '%s' >&2", out);
		if (system(cat) < 0) {
		}
		fail_msg("gl-surfaceless under nvd-run exited %d beside virtual channels", code);
	}
	if (churned)
		fail_msg("the churning clients failed: %d", churned);
	NVT_OK(nvc_status(c, &after));
	if (after.chan_unloads - before.chan_unloads < 100)
		fail_msg("only %llu unloads while GL ran",
			 (unsigned long long)(after.chan_unloads - before.chan_unloads));
	nvc_close(c);
	nvt_end(d);
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
		struct vc_client x;
		NVT_OK(vc_open(&x, d->sock, i));
		NVT_OK(vc_draw(&x, 4));
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
		NVT_TEST(test_gl_client_moved_between_hardware_channels_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
