/* nvd killed (SIGKILL) under a running X server, and started again.
 *
 * While nvd is down X stays up, draws in software on its buffers' memory
 * (xwd -root shows what it showed), xrandr still lists both outputs with
 * their modes, and X does not spin: its CPU time over a second stays
 * under a generous bound.  Once nvd is back the driver
 * reconnects: xrandr lists both outputs with the modes they had, each
 * head's picture in nvd (what `nvdctl screenshot` shows) is the root's
 * area from before the kill, pixel for pixel, a new GL client renders on
 * the NV4x through DRI2, and x-draw's scenes match Xvfb as test_exa has
 * them, drawn by the card (nvd ran the server's submissions, refused
 * none); the hardware cursor is back where it was, after a second kill
 * and restart too.  SIGTERM ends a server whose nvd is down within a second or two,
 * and the server removes its lock file itself.  Each test starts its own
 * nvd and X.  Needs root (Xorg's -config and -modulepath); skipped
 * otherwise. */
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <sys/wait.h>

#include "tests/lib/nvt-img.h"
#include "tests/lib/nvt-test.h"
#include "tests/lib/nvt-x.h"

#define LOSS_SEEN_MS   5000
#define BACK_MS        15000
#define CPU_MAX_TICKS  20       /* of about 100 a second: nothing spins */
#define STOP_MAX_MS    3000

struct rfix {
	struct nvt_daemon d;
	struct nvt_x x;
	struct nvt_paths p;
};

static int rfix_setup(void **state)
{
	*state = NULL;
	if (getuid() != 0)
		return 0;
	struct rfix *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
	unsetenv("LIBGL_ALWAYS_SOFTWARE");
	if (nvt_paths(&f->p, "../../bin") < 0 || nvt_daemon_start(&f->d, NULL) < 0 ||
	    nvt_x_start(&f->x, f->d.sock, NULL) < 0) {
		nvt_x_cleanup(&f->x);
		nvt_daemon_cleanup(&f->d);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int rfix_teardown(void **state)
{
	struct rfix *f = *state;
	int r = 0;
	if (f) {
		nvt_x_cleanup(&f->x);
		r = nvt_daemon_finish(&f->d);
		free(f);
	}
	alarm(0);
	return r;
}

static struct rfix *fixture(void **state)
{
	if (!*state) {
		printf("not root: Xorg takes -config and -modulepath only from root; skipped\n");
		skip();
	}
	return *state;
}

/* ---- nvd and X ---- */

static void kill_nvd(struct rfix *f)
{
	kill(f->d.pid, SIGKILL);
	for (unsigned ms = 0; nvt_daemon_alive(&f->d); ms += 5) {
		if (ms > 5000)
			fail_msg("nvd outlives SIGKILL");
		nvt_sleep_ms(5);
	}
}

/* nvd again on the same socket (it replaces the stale one). */
static void restart_nvd(struct rfix *f)
{
	f->d.pid = 0;
	f->d.reaped = 0;
	if (nvt_daemon_run(&f->d, NULL) < 0)
		fail_msg("nvd does not start again on %s", f->d.sock);
}

/* Lines of the Xorg log that hold text. */
static unsigned log_count(const struct rfix *f, const char *text)
{
	FILE *fp = fopen(f->x.log, "r");
	char line[1024];
	unsigned n = 0;
	while (fp && fgets(line, sizeof(line), fp))
		n += strstr(line, text) != NULL;
	if (fp)
		fclose(fp);
	return n;
}

/* Until the log holds text on `times` lines. */
static void wait_log(struct rfix *f, const char *text, unsigned times, unsigned ms)
{
	for (unsigned t = 0; t < ms; t += 20) {
		if (log_count(f, text) >= times)
			return;
		if (!nvt_x_alive(&f->x))
			break;
		nvt_sleep_ms(20);
	}
	nvt_x_print_log(&f->x);
	fail_msg("\"%s\" not %u times in the Xorg log after %u ms (server %s)", text, times, ms,
		 nvt_x_alive(&f->x) ? "alive" : "gone");
}

static void x_does_not_spin(struct rfix *f)
{
	long long t0 = nvt_cpu_ticks(f->x.pid);
	nvt_sleep_ms(1000);
	long long t1 = nvt_cpu_ticks(f->x.pid);
	if (t0 < 0 || t1 < 0)
		fail_msg("cannot read X's CPU time from /proc");
	printf("X's CPU time over 1 s with nvd down: %lld ticks of %ld\n", t1 - t0,
	       sysconf(_SC_CLK_TCK));
	if (t1 - t0 > CPU_MAX_TICKS)
		fail_msg("X used %lld clock ticks in 1 s while nvd was down: it spins", t1 - t0);
}

static void screenshot(struct rfix *f, uint32_t **px, unsigned *w, unsigned *h)
{
	if (nvt_x_screenshot(&f->x, px, w, h) < 0) {
		nvt_x_print_log(&f->x);
		fail_msg("xwd -root failed on %s", f->x.name);
	}
}

static void same_picture(const uint32_t *a, const uint32_t *b, unsigned w, unsigned h,
			 const char *what)
{
	unsigned bad = nvt_x_cmp_area(a, w, h, 0, 0, b, w, h, what);
	if (bad)
		fail_msg("%s: %u pixels differ", what, bad);
}

static void xrandr(struct rfix *f, struct nvt_xrandr *r)
{
	if (nvt_x_xrandr(&f->x, r) < 0) {
		nvt_x_print_log(&f->x);
		fail_msg("xrandr -q failed on %s", f->x.name);
	}
}

/* Both outputs connected and showing, as before, with the same modes. */
static void same_outputs(const struct nvt_xrandr *before, const struct nvt_xrandr *now,
			 const char *when)
{
	unsigned active = 0;
	assert_int_equal(now->noutputs, before->noutputs);
	for (unsigned i = 0; i < before->noutputs; i++) {
		const struct nvt_xrandr_output *b = &before->out[i];
		const struct nvt_xrandr_output *a = nvt_xrandr_output(now, b->name);
		if (!a)
			fail_msg("xrandr lists no %s %s", b->name, when);
		printf("%s %s: connected %d, %ux%u+%d+%d, %u modes (before: %d, %ux%u+%d+%d, %u)\n",
		       a->name, when, a->connected, a->w, a->h, a->x, a->y, a->nmodes, b->connected,
		       b->w, b->h, b->x, b->y, b->nmodes);
		if (!a->connected || !a->active || !a->nmodes || a->nmodes != b->nmodes ||
		    a->w != b->w || a->h != b->h || a->x != b->x || a->y != b->y)
			fail_msg("%s %s is not as it was before the kill", b->name, when);
		active++;
	}
	assert_int_equal(active, 2);
}

/* ---- the scenes against Xvfb ---- */

struct scene {
	const char *name;
	unsigned tolerance;        /* per channel: test_exa's bounds and reasons */
};

static const struct scene scenes[] = { { "fill", 0 }, { "copy", 0 }, { "put", 0 },
				       { "render", 1 } };

static void draw(const struct nvt_x *x, const char *xdraw, const char *scene, uint32_t **px,
		 unsigned *w, unsigned *h)
{
	const char *argv[] = { xdraw, "--scene", scene, NULL };
	int r = nvt_x_run(x, argv, NULL, NULL);
	if (r != 0) {
		nvt_x_print_log(x);
		fail_msg("x-draw --scene %s on %s: %d", scene, x->name, r);
	}
	NVT_OK(nvt_x_screenshot(x, px, w, h));
}

/* The scenes on our X and on Xvfb the same size. */
static void scenes_match_xvfb(struct rfix *f, struct nvc *c, const struct scene *list,
			      unsigned n)
{
	char xdraw[PATH_MAX + 16], screen[32];
	unsigned w, h, depth;
	struct nvt_x xvfb;
	static const char *const depths[] = { "-pixdepths", "1", "4", "8", "15", "16", "24", "32",
					      NULL };

	snprintf(xdraw, sizeof(xdraw), "%s/x-draw", f->p.dir);
	NVT_OK(nvt_x_dpyinfo(&f->x, &w, &h, &depth));
	snprintf(screen, sizeof(screen), "%ux%ux%u", w, h, depth);
	NVT_OK(nvt_xvfb_start(&xvfb, screen, depths));
	for (unsigned i = 0; i < n; i++) {
		const struct scene *s = &list[i];
		uint32_t *ours, *ref;
		unsigned ow, oh, rw, rh;
		struct nvt_img_diff d;
		draw(&f->x, xdraw, s->name, &ours, &ow, &oh);
		draw(&xvfb, xdraw, s->name, &ref, &rw, &rh);
		assert_int_equal(ow, rw);
		assert_int_equal(oh, rh);
		/* XRGB pixels from the same parser: the X bytes are alike */
		nvt_img_compare((const uint8_t *)ours, (const uint8_t *)ref, ow, oh, 4,
				s->tolerance, &d);
		free(ours);
		free(ref);
		printf("scene %s: worst %u per channel, %u pixels over +-%u\n",
		       s->name, d.worst, d.over, s->tolerance);
		if (d.over) {
			nvt_x_cleanup(&xvfb);
			fail_msg("scene %s: %u pixels over +-%u against Xvfb, the worst at (%u, %u)",
				 s->name, d.over, s->tolerance, d.wx, d.wy);
		}
	}
	nvt_x_cleanup(&xvfb);

	/* the card drew them: nvd (the new one) ran the server's submissions */
	unsigned count = 1;
	struct nvc_client cl;
	for (unsigned i = 0; i < count; i++) {
		NVT_OK(nvc_client_at(c, i, &cl, &count));
		if (!strcmp(cl.name, "Xorg")) {
			printf("the new nvd ran %llu submissions of the server's, refused %llu\n",
			       (unsigned long long)cl.submits, (unsigned long long)cl.refused);
			assert_true(cl.submits > 0);
			assert_int_equal(cl.refused, 0);
			return;
		}
	}
	fail_msg("the new nvd lists no client Xorg");
}

/* ---- the tests ---- */

static void test_x_survives_a_restart_of_nvd(void **state)
{
	struct rfix *f = fixture(state);
	struct nvt_x_tile t;
	struct nvt_xrandr before, after;
	uint32_t *root, *now;
	unsigned rw, rh, w, h;

	nvt_x_tile_make(&t, 29, 17, 7, 0xe0a030, 0x1c4f86);
	NVT_OK(nvt_x_set_root_tile(&f->x, &t));
	NVT_OK(nvt_x_hide_root_cursor(&f->x));
	screenshot(f, &root, &rw, &rh);
	xrandr(f, &before);

	int64_t t0 = (nvt_now_ns() / 1000000);
	kill_nvd(f);
	wait_log(f, "nvd is gone", 1, LOSS_SEEN_MS);
	printf("X saw the loss within %lld ms\n", (long long)((nvt_now_ns() / 1000000) - t0));
	x_does_not_spin(f);
	screenshot(f, &now, &w, &h);
	assert_int_equal(w, rw);
	assert_int_equal(h, rh);
	same_picture(root, now, w, h, "xwd -root with nvd down against before the kill");
	free(now);
	xrandr(f, &after);
	same_outputs(&before, &after, "with nvd down");

	t0 = (nvt_now_ns() / 1000000);
	restart_nvd(f);
	wait_log(f, "nvd: acceleration resumes", 1, BACK_MS);
	printf("X had its heads and acceleration back %lld ms after nvd started again\n",
	       (long long)((nvt_now_ns() / 1000000) - t0));
	assert_true(nvt_x_alive(&f->x));
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "grep -E 'nvd is|nvd: ' %s | sed 's/^/#   /'", f->x.log);
	if (system(cmd) != 0)
		printf("#   (the driver's lines are not in %s)\n", f->x.log);

	xrandr(f, &after);
	same_outputs(&before, &after, "after the restart");

	struct nvc *c;
	if (nvc_connect(f->d.sock, "test_x_restart", &c) < 0)
		fail_msg("connect: %s", nvc_error());
	for (unsigned head = 0; head < NVC_DISP_HEADS; head++) {
		struct nvc_head hd;
		uint32_t *px, sw, sh;
		char what[80];
		NVT_OK(nvc_disp_head(c, head, &hd));
		if (!hd.fb)
			fail_msg("head %u is off after the restart", head);
		NVT_OK(nvc_disp_screenshot(c, head, &px, &sw, &sh));
		snprintf(what, sizeof(what), "head %u against the root before the kill", head);
		unsigned bad = nvt_x_cmp_area(root, rw, rh, hd.x, hd.y, px, sw, sh, what);
		printf("head %u: nvd's screenshot %ux%u at (%u, %u): %u pixels differ from the root "
		       "before the kill\n", head, sw, sh, hd.x, hd.y, bad);
		free(px);
		if (bad)
			fail_msg("head %u does not show what it showed", head);
	}
	free(root);

	const char *gl[] = { f->p.nvd_run, "--socket", f->d.sock, "glxinfo", "-B", NULL };
	char *out = NULL;
	int r = nvt_x_run(&f->x, gl, &out, NULL);
	if (r != 0 || !out || !strstr(out, "direct rendering: Yes") ||
	    !strstr(out, "OpenGL renderer string: NV4")) {
		printf("%s", out ? out : "");
		nvt_x_print_log(&f->x);
		fail_msg("glxinfo -B under nvd-run after the restart: exit %d, not the NV4x", r);
	}
	printf("glxinfo -B after the restart: direct rendering on the NV4x\n");
	free(out);

	scenes_match_xvfb(f, c, scenes, sizeof(scenes) / sizeof(scenes[0]));
	nvc_close(c);
	if (nvt_x_stop(&f->x) < 0)
		fail_msg("Xorg did not stop cleanly on SIGTERM after the restart");
}

/* x-draw (all scenes) over and over in a child while nvd is killed and
 * started again, until told to stop, three runs at least: every run
 * succeeds (work nvd had not done when it died is lost, so their pictures
 * are not compared), and afterwards the scenes match Xvfb again. */
struct busy {
	const struct nvt_x *x;
	char xdraw[PATH_MAX + 16];
	int stop[2];                  /* a byte: nvd is back, finish */
};

static int busy_draw(void *arg)
{
	const struct busy *b = arg;
	const char *argv[] = { b->xdraw, NULL };
	close(b->stop[1]);
	for (unsigned i = 0;; i++) {
		int r = nvt_x_run(b->x, argv, NULL, NULL);
		if (r != 0) {
			fprintf(stderr, "x-draw run %u: %d\n", i, r);
			return 1;
		}
		struct pollfd p = { b->stop[0], POLLIN, 0 };
		if (i >= 2 && poll(&p, 1, 0) == 1)
			return 0;
	}
}

static void test_x_draws_on_through_a_kill(void **state)
{
	struct rfix *f = fixture(state);
	struct busy b = { .x = &f->x };

	snprintf(b.xdraw, sizeof(b.xdraw), "%s/x-draw", f->p.dir);
	assert_int_equal(pipe(b.stop), 0);
	pid_t pid = nvt_fork(busy_draw, &b);
	assert_true(pid > 0);
	close(b.stop[0]);
	int64_t t0 = nvt_now_ns() / 1000000;
	nvt_sleep_ms(100);
	int code;
	if (nvt_child_done(pid, &code))
		fail_msg("x-draw ended (%d) before nvd was killed", code);
	kill_nvd(f);
	nvt_sleep_ms(200);
	restart_nvd(f);
	signal(SIGPIPE, SIG_IGN);      /* a child that failed reads nothing more */
	if (write(b.stop[1], "s", 1) < 0) {
		/* it ended already: its status says how */
	}
	close(b.stop[1]);
	code = nvt_wait_child(pid, 60000);
	printf("x-draw: killed nvd 100 ms into its runs, started it 200 ms later, the runs "
	       "ended %lld ms after the start\n", (long long)(nvt_now_ns() / 1000000 - t0));
	if (code != 0) {
		nvt_x_print_log(&f->x);
		fail_msg("x-draw through the kill: %d", code);
	}
	wait_log(f, "nvd: acceleration resumes", 1, BACK_MS);
	printf("x-draw ran on through a kill and restart of nvd\n");
	struct nvc *c;
	if (nvc_connect(f->d.sock, "test_x_restart", &c) < 0)
		fail_msg("connect: %s", nvc_error());
	scenes_match_xvfb(f, c, scenes, sizeof(scenes) / sizeof(scenes[0]));
	nvc_close(c);
	if (nvt_x_stop(&f->x) < 0)
		fail_msg("Xorg did not stop cleanly on SIGTERM after the restart");
}

/* nvd's pictures of the heads, hardware cursor included (an arrow on the
 * pointer's head), are the same before the kill and after the restart. */
static void test_cursor_comes_back_where_it_was(void **state)
{
	struct rfix *f = fixture(state);
	static const char *const arrow[] = { "xsetroot", "-cursor_name", "left_ptr", NULL };
	struct nvt_x_tile t;
	uint32_t *before[NVC_DISP_HEADS], bw[NVC_DISP_HEADS], bh[NVC_DISP_HEADS];
	struct nvc *c;

	nvt_x_tile_make(&t, 1, 1, 1, 0x102030, 0x102030);
	NVT_OK(nvt_x_set_root_tile(&f->x, &t));
	assert_int_equal(nvt_x_run(&f->x, arrow, NULL, NULL), 0);
	if (nvc_connect(f->d.sock, "test_x_restart", &c) < 0)
		fail_msg("connect: %s", nvc_error());
	for (unsigned head = 0; head < NVC_DISP_HEADS; head++)
		NVT_OK(nvc_disp_screenshot(c, head, &before[head], &bw[head], &bh[head]));
	nvc_close(c);

	/* twice: the second loss is seen on the new connection */
	for (unsigned i = 0; i < 2; i++) {
		kill_nvd(f);
		wait_log(f, "nvd is gone", i + 1, LOSS_SEEN_MS);
		restart_nvd(f);
		wait_log(f, "nvd: acceleration resumes", i + 1, BACK_MS);
	}
	assert_int_equal(log_count(f, "nvd: 2 heads show their modes again, 1 cursors"), 2);

	if (nvc_connect(f->d.sock, "test_x_restart", &c) < 0)
		fail_msg("connect: %s", nvc_error());
	unsigned cursor = 0;
	for (unsigned head = 0; head < NVC_DISP_HEADS; head++) {
		uint32_t *px, w, h;
		char what[64];
		NVT_OK(nvc_disp_screenshot(c, head, &px, &w, &h));
		assert_int_equal(w, bw[head]);
		assert_int_equal(h, bh[head]);
		for (unsigned k = 0; k < w * h; k++)
			cursor += (before[head][k] & 0xffffff) != 0x102030;
		snprintf(what, sizeof(what), "head %u after the restart against before", head);
		unsigned bad = nvt_x_cmp_area(before[head], w, h, 0, 0, px, w, h, what);
		printf("head %u: %u pixels differ from before the kill, cursor included\n", head,
		       bad);
		free(px);
		free(before[head]);
		if (bad)
			fail_msg("head %u does not show what it showed", head);
	}
	nvc_close(c);
	printf("the arrow: %u pixels\n", cursor);
	assert_true(cursor > 0);
	if (nvt_x_stop(&f->x) < 0)
		fail_msg("Xorg did not stop cleanly on SIGTERM after the restart");
}

static void test_x_stops_on_sigterm_while_nvd_is_down(void **state)
{
	struct rfix *f = fixture(state);

	kill_nvd(f);
	nvt_sleep_ms(300);   /* what X does then, whatever its log says */
	x_does_not_spin(f);
	int64_t t0 = (nvt_now_ns() / 1000000);
	kill(f->x.pid, SIGTERM);
	while (nvt_x_alive(&f->x)) {
		if ((nvt_now_ns() / 1000000) - t0 > STOP_MAX_MS) {
			nvt_x_print_log(&f->x);
			fail_msg("X ignores SIGTERM for %d ms while nvd is down", STOP_MAX_MS);
		}
		nvt_sleep_ms(10);
	}
	printf("SIGTERM ended X in %lld ms with nvd down\n", (long long)((nvt_now_ns() / 1000000) - t0));
	if (!WIFEXITED(f->x.status) || WEXITSTATUS(f->x.status)) {
		nvt_x_print_log(&f->x);
		fail_msg("X ended with wait status 0x%x", f->x.status);
	}
	if (access(f->x.lock, F_OK) == 0)
		fail_msg("X left its lock file %s", f->x.lock);
	assert_true(nvt_x_log_contains(&f->x, "nvd is gone"));
	/* nvd is gone for good: the fixture has no daemon to stop */
	f->d.stopped_ok = 1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_x_survives_a_restart_of_nvd, rfix_setup,
						rfix_teardown),
		cmocka_unit_test_setup_teardown(test_x_draws_on_through_a_kill, rfix_setup,
						rfix_teardown),
		cmocka_unit_test_setup_teardown(test_cursor_comes_back_where_it_was, rfix_setup,
						rfix_teardown),
		cmocka_unit_test_setup_teardown(test_x_stops_on_sigterm_while_nvd_is_down,
						rfix_setup, rfix_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
