/* glmark2-drm (Debian's, unmodified) on nvd: GBM + EGL + KMS through the
 * DRM interposer, Mesa's nouveau driver on the simulated NV43, off-screen.
 * Each of the scenes issue #4 names runs in a glmark2 of its own, then all
 * of them in one run, as `glmark2 --off-screen` runs them.  A run passes
 * when glmark2 exits 0, names NV43 as GL_RENDERER (a run that fell back to
 * llvmpipe proves nothing), prints no error, reports an FPS for every
 * scene, and nvd refused none of its submissions.
 *
 * glmark2-drm renders at the monitor's mode whatever --size says, so nvd
 * gets a 320x240 monitor to keep make check short, at 100 Hz: at 60 its
 * pixel clock (7.25 MHz) is below the RAMDAC's 10, and nvd refuses such a
 * monitor.  No --validate: its
 * reference pixels are for 800x600, and glmark2-drm cannot run with an
 * 800x600 mode and --size 800x600 (which --validate forces): its canvas
 * then never creates the window ("glwindow has never been initialized"). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"
#include "tests/lib/nvt-top.h"

#define GLMARK2      "/usr/bin/glmark2-drm"
#define RUN_MS       60000      /* one run; all eight scenes take ~15 s here */

static struct nvt_paths at;

static const char *const monitors[] = {
	"--monitor", "0=320x240@100:Glmark2", "--monitor", "1=none", NULL,
};

static const char *const scenes[] = {
	"build", "texture", "shading", "bump", "effect2d", "pulsar", "desktop", "buffer",
};
#define NSCENES (sizeof(scenes) / sizeof(scenes[0]))

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[1 << 18];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* The refusals in nvd's log, for the failure message. */
static const char *refusals(const struct nvt_daemon *d)
{
	static char out[4096];
	FILE *f = fopen(d->log, "r");
	char line[1024];
	size_t n = 0;
	out[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "refused") && n + strlen(line) < sizeof(out)) {
			memcpy(out + n, line, strlen(line) + 1);
			n += strlen(line);
		}
	if (f)
		fclose(f);
	return out;
}

static void run_glmark2(struct nvt_daemon *d, const unsigned *which, unsigned n)
{
	char outfile[160];
	snprintf(outfile, sizeof(outfile), "%s/glmark2.out", d->dir);
	const char *argv[8 + 2 * NSCENES] = {
		at.nvd_run, "--socket", d->sock, GLMARK2, "--off-screen",
		"--winsys-options", "drm-device=/dev/dri/card0",
	};
	static char bench[NSCENES][48];
	unsigned k = 7;
	for (unsigned i = 0; i < n; i++) {
		snprintf(bench[i], sizeof(bench[i]), "%s:duration=1", scenes[which[i]]);
		argv[k++] = "-b";
		argv[k++] = bench[i];
	}
	argv[k] = NULL;
	int64_t t0 = nvt_now_ns();
	pid_t pid = nvt_spawn_gl(argv, 0, outfile);
	assert_true(pid > 0);
	int code = nvt_wait_child(pid, RUN_MS);
	double secs = (nvt_now_ns() - t0) / 1e9;
	const char *out = slurp(outfile);
	if (!out)
		fail_msg("no output from glmark2");
	if (code == -ETIMEDOUT)
		fail_msg("glmark2 did not finish in %d s (Mesa spins on the fence of a refused "
			 "submission); nvd:\n%s\nglmark2:\n%s", RUN_MS / 1000, refusals(d), out);
	if (code != 0)
		fail_msg("glmark2 exited %d; nvd:\n%s\nglmark2:\n%s", code, refusals(d), out);
	if (!strstr(out, "GL_RENDERER:    NV43\n"))
		fail_msg("glmark2 did not run on nvd's NV43:\n%s", out);
	for (const char *l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		if (memmem(l, len, "Error", 5) || memmem(l, len, "error", 5))
			fail_msg("glmark2 printed an error: %.*s\n%s", (int)len, l, out);
	}
	for (unsigned i = 0; i < n; i++) {
		char pre[64];
		snprintf(pre, sizeof(pre), "[%s] duration=1: FPS: ", scenes[which[i]]);
		const char *s = strstr(out, pre);
		unsigned fps = 0;
		if (!s || sscanf(s + strlen(pre), "%u", &fps) != 1 || !fps)
			fail_msg("no FPS for %s; nvd:\n%s\nglmark2:\n%s", scenes[which[i]], refusals(d),
				 out);
		print_message("    %s: %u fps\n", scenes[which[i]], fps);
	}
	if (nvt_log_contains(d, "refused"))
		fail_msg("nvd refused submissions of glmark2:\n%s", refusals(d));
	print_message("    %u scene(s) in %.1f s\n", n, secs);
	nvt_end(d);
}

static void one_scene(void **state, unsigned i)
{
	run_glmark2(nvt_d(state), &i, 1);
}

static void test_build_scene(void **state) { one_scene(state, 0); }
static void test_texture_scene(void **state) { one_scene(state, 1); }
static void test_shading_scene(void **state) { one_scene(state, 2); }
static void test_bump_scene(void **state) { one_scene(state, 3); }
static void test_effect2d_scene(void **state) { one_scene(state, 4); }
static void test_pulsar_scene(void **state) { one_scene(state, 5); }
static void test_desktop_scene(void **state) { one_scene(state, 6); }
static void test_buffer_scene(void **state) { one_scene(state, 7); }

/* One glmark2 through all eight, one scene's state left for the next. */
static void test_all_scenes_in_one_run(void **state)
{
	unsigned all[NSCENES];
	for (unsigned i = 0; i < NSCENES; i++)
		all[i] = i;
	run_glmark2(nvt_d(state), all, NSCENES);
}

/* glmark2 rendering its build scene for a minute, its output in outfile
 * (PATH_MAX bytes): its pid once it has printed its renderer, NV43. */
static pid_t glmark2_rendering(const struct nvt_daemon *d, char *outfile)
{
	snprintf(outfile, PATH_MAX, "%s/glmark2.out", d->dir);
	const char *argv[] = { at.nvd_run, "--socket", d->sock, GLMARK2, "--off-screen",
			       "--winsys-options", "drm-device=/dev/dri/card0",
			       "-b", "build:duration=60", NULL };
	pid_t pid = nvt_spawn_gl(argv, 0, outfile);
	assert_true(pid > 0);
	for (int i = 0; i < 300 && !strstr(slurp(outfile) ? slurp(outfile) : "", "GL_RENDERER"); i++)
		nvt_sleep_ms(100);
	if (!strstr(slurp(outfile), "GL_RENDERER:    NV43\n"))
		fail_msg("glmark2 did not start on nvd's NV43:\n%s", slurp(outfile));
	return pid;
}

/* nvd SIGKILLed (or SIGTERMed) under a rendering glmark2: it says so,
 * and why, and exits within 1 s (before, it spun at 100% CPU in Mesa's
 * fence wait for ever). */
static void nvd_ends_under_glmark2(void **state, int sig, const char *why)
{
	struct nvt_daemon *d = nvt_d(state);
	char outfile[PATH_MAX];
	pid_t pid = glmark2_rendering(d, outfile);
	nvt_sleep_ms(1000);        /* a second of frames */
	long long before = nvt_cpu_ticks(pid);
	assert_true(nvt_daemon_kill(d, sig) >= 0);
	int64_t t0 = nvt_now_ns();
	/* the CPU it uses from the kill on, sampled while it lives */
	long long after = before;
	int code;
	while (!nvt_child_done(pid, &code) && nvt_now_ns() - t0 < 3000000000ll) {
		long long c = nvt_cpu_ticks(pid);
		if (c > after)
			after = c;
		nvt_sleep_ms(5);
	}
	int64_t ms = (nvt_now_ns() - t0) / 1000000;
	if (ms >= 3000)
		code = nvt_wait_child(pid, 0);
	const char *out = slurp(outfile);
	print_message("    glmark2 ended %lld ms after nvd's %s, status %d, %lld ticks of CPU "
		      "after it\n", (long long)ms, sig == SIGKILL ? "SIGKILL" : "SIGTERM", code,
		      after - before);
	if (ms > 1000 || code != 1)
		fail_msg("glmark2 took %lld ms to end (status %d):\n%s", (long long)ms, code, out);
	if (!strstr(out, "libnvd-drm: nvd at ") || !strstr(out, why))
		fail_msg("glmark2 was not told that nvd went away (%s):\n%s", why, out);
	if (after - before > sysconf(_SC_CLK_TCK) / 2)
		fail_msg("glmark2 spun: %lld ticks of CPU after the kill", after - before);
}

/* nvdctl top in a terminal (a tmux pane) while glmark2 renders: its line
 * shows submissions per second above 0. */
static void test_nvdctl_top_shows_glmark2_rendering(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_top top;
	char outfile[PATH_MAX];
	pid_t pid = glmark2_rendering(d, outfile);
	if (nvt_top_start(&top, d->sock) < 0)
		fail_msg("tmux new-session: %s", top.err);
	int seen = nvt_top_wait(&top, "glmark2-drm", 1, -1) == 0;
	int quit = nvt_top_quit(&top) == 0;
	kill(-pid, SIGKILL);
	nvt_wait_child(pid, RUN_MS);
	if (!seen)
		fail_msg("nvdctl top never showed glmark2-drm submitting:\n%s", top.screen);
	if (!quit)
		fail_msg("nvdctl top did not quit on 'q'");
	nvt_end(d);
}

static void test_nvd_killed_under_glmark2(void **state)
{
	nvd_ends_under_glmark2(state, SIGKILL, "went away: the connection closed");
}

static void test_nvd_stopped_under_glmark2(void **state)
{
	nvd_ends_under_glmark2(state, SIGTERM, "went away: nvd is shutting down (Terminated)");
}

int main(void)
{
	if (nvt_paths(&at, "../../bin") < 0) {
		perror("test_glmark2: /proc/self/exe");
		return 1;
	}
	if (access(GLMARK2, X_OK) < 0) {
		fprintf(stderr, "test_glmark2: %s is missing ('make deps' installs glmark2-drm)\n",
			GLMARK2);
		return 1;
	}
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_build_scene, monitors),
		NVT_TEST_ARGS(test_nvdctl_top_shows_glmark2_rendering, monitors),
		NVT_TEST_ARGS(test_texture_scene, monitors),
		NVT_TEST_ARGS(test_shading_scene, monitors),
		NVT_TEST_ARGS(test_bump_scene, monitors),
		NVT_TEST_ARGS(test_effect2d_scene, monitors),
		NVT_TEST_ARGS(test_pulsar_scene, monitors),
		NVT_TEST_ARGS(test_desktop_scene, monitors),
		NVT_TEST_ARGS(test_buffer_scene, monitors),
		NVT_TEST_ARGS(test_all_scenes_in_one_run, monitors),
		NVT_TEST_ARGS(test_nvd_killed_under_glmark2, monitors),
		NVT_TEST_ARGS(test_nvd_stopped_under_glmark2, monitors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
