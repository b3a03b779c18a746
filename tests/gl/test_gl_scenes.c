/* The golden-image suite: every scene of gl-scenes rendered by the
 * distribution's Mesa nouveau (nv30) driver through one nvd (nvd-run) and
 * by llvmpipe, compared pixel by pixel.  A scene passes when at least
 * 99.5% of its pixels are within +-2 of llvmpipe's in every channel, and
 * nvd refused none of its submissions (a refusal loses draws); gs_loose
 * lists the scenes with a looser bound and its reason, gs_differ the ones
 * run but not failed, with theirs.  Each scene prints its worst difference
 * and the share over the tolerance, pass or fail.
 *
 * nvd runs with --sim-jit verify: every quad a compiled fragment program
 * shades is shaded by the interpreter too, and the last test stops nvd and
 * holds it to what it logs: programs compiled, quads compared, none that
 * differed (the interpreter is the card model; the code must give its
 * bits, scene after scene).
 *
 * gl-scenes is found beside this test (BUILD/tests/gl), nvd-run in
 * $NVD_TOOLS or BUILD/bin. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests/lib/nvt-img.h"
#include "tests/lib/nvt-test.h"

#define GS_W        128
#define GS_H        128
#define GS_SIZE     "128x128"
#define GS_TOL      2          /* per channel */
#define GS_MAX_OVER 0.005      /* share of pixels allowed over GS_TOL */
#define GS_RUN_MS   (60 * 1000)
#define GS_WATCHDOG_S 150
#define GS_UNSUPPORTED 77      /* gl-scenes: the context lacks what the scene needs */

/* Every scene of gl-scenes --list (test_every_scene_is_listed_once checks). */
static const char *const gs_pass[] = {
	"gears", "triangle", "tri-strip", "tri-fan", "quads", "polygon", "points", "lines",
	"tex-nearest", "tex-linear", "mipmap-trilinear", "tex-wrap", "blend-funcs",
	"blend-equations", "alpha-test", "depth-funcs", "polygon-offset", "clip-plane",
	"point-sprites", "cube-map", "glsl-fragment", "glsl-vertex", "arb-programs", "fog",
	"vbo-formats", "draw-elements", "scissor", "color-mask", "logic-op",
	"render-to-texture", "mrt", "cull-face", "stencil-shadow", "glxgears", "draw-elements-ebo",
	"lighting", "texenv",
	"tex-angles", "tex-aniso", "tex-3d", "tex-rect", "tex-shadow", "tex-s3tc", "tex-formats", "rt-formats",
	"two-sided-stencil", "two-sided-lighting", "flat-shading", "polygon-mode",
	"lines-wide-stipple", "arb-fp-opcodes", "arb-vp-opcodes", "blend-color-separate",
	"blend-factors", "depth-range-viewport", "uniform-per-draw",
};

/* Scenes compared with a looser per-channel bound, and why. */
static const struct { const char *scene; unsigned tol; const char *why; } gs_loose[] = {
	/* R5G6B5 keeps 5 or 6 bits: a colour on a rounding boundary lands one
	 * step (8 or 4 of 255) apart between two correct renderers */
	{ "rt-formats", 9, "one R5G6B5 step: where 16-bit colour rounds is not specified" },
	/* trilinear on steep planes: llvmpipe takes the LOD per 2x2 quad with
	 * an approximate log2, so the weight between two levels is a few
	 * hundredths apart near level changes (mipmap-trilinear shows the same,
	 * inside the bound, at +-4) */
	{ "tex-angles", 4, "trilinear LOD: llvmpipe's per-quad approximate log2" },
	/* GL leaves the anisotropic footprint to the implementation.  The
	 * simulator probes along the major axis, each probe trilinear at the
	 * minor axis's LOD; llvmpipe (gallivm lp_build_sample_aniso) takes an
	 * elliptical Gaussian (EWA) of nearest texels on one level, log2 of
	 * the minor axis truncated (lp_build_pmin's max-anisotropy clamp
	 * compares pmin with itself and never applies), so it is blurrier
	 * along both axes and, the checker's levels being tinted apart, up to
	 * a level's tint away.  Beyond +-4 only the 8x panel differs.
	 * Measured: worst 34; 0.48% of the image over +-16, 0.35% over +-18,
	 * 0.26% over +-20, 0.13% over +-24.  With anisotropy off (trilinear)
	 * 2.37% is over +-20 (worst 97): the bound fails it. */
	{ "tex-aniso", 20, "anisotropic footprints are the implementation's (GL leaves them "
			   "open): probes along the major axis against llvmpipe's EWA" },
};

/* Scenes that run and print their figures but count as skipped, and why:
 * known differences, listed like piglit's expected failures; each prints a
 * notice when it starts matching. */
static const struct { const char *scene, *why; } gs_differ[] = {
	{ "glsl-flow", "Mesa 22.3's nv30 emits a GLSL fragment loop as REP with end offset 0, so "
		       "the loop's end is lost in the words the card gets (real NV4x too)" },
};

static struct nvt_daemon gs_d;
static struct nvt_paths gs_at;       /* dir: BUILD/tests/gl */
static char gs_tmp[64];              /* images and program output */

/* ---- running gl-scenes ---- */

struct gs_run {
	pid_t pid;
	char img[PATH_MAX], out[PATH_MAX];
	const char *what;
};

/* gl-scenes --scene NAME under nvd-run (sock) or on llvmpipe (sock NULL);
 * stdout and stderr to a file.  The child leads its own process group. */
static void gs_spawn(struct gs_run *r, const char *sock, const char *scene)
{
	char prog[PATH_MAX + 64];
	const char *argv[16];
	unsigned n = 0;
	const char *tag = sock ? "nvd" : "llvmpipe";

	r->what = tag;
	snprintf(prog, sizeof(prog), "%s/gl-scenes", gs_at.dir);
	snprintf(r->img, sizeof(r->img), "%s/%s.%s.rgba", gs_tmp, scene, tag);
	snprintf(r->out, sizeof(r->out), "%s/%s.%s.out", gs_tmp, scene, tag);
	unlink(r->img);
	if (sock) {
		if (access(gs_at.nvd_run, X_OK) < 0)
			fail_msg("%s is not built (%s)", gs_at.nvd_run, strerror(errno));
		argv[n++] = gs_at.nvd_run;
		argv[n++] = "--socket";
		argv[n++] = sock;
	}
	argv[n++] = prog;
	argv[n++] = "--scene";
	argv[n++] = scene;
	argv[n++] = "--out";
	argv[n++] = r->img;
	argv[n++] = "--size";
	argv[n++] = GS_SIZE;
	argv[n++] = "--renderer";
	argv[n++] = sock ? "NV4" : "llvmpipe";
	argv[n] = NULL;

	pid_t pid = nvt_spawn_gl(argv, !sock, r->out);
	if (pid < 0)
		fail_msg("fork: %s", strerror((int)-pid));
	r->pid = pid;
}

/* A whole file (malloc'd, NUL-terminated); *len its size.  NULL if absent. */
static char *gs_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (n + 65536 + 1 > cap) {
			char *nb = realloc(buf, cap = n + 65536 + 1);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t k = fread(buf + n, 1, cap - n - 1, f);
		n += k;
		if (k == 0)
			break;
	}
	fclose(f);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

static void gs_dump(const struct gs_run *r, const char *scene)
{
	char *s = gs_slurp(r->out, NULL);
	fprintf(stderr, "---- gl-scenes --scene %s (%s) ----\n%s---- end ----\n", scene, r->what,
		s ? s : "");
	free(s);
}

/* How many submissions nvd's log says it refused so far. */
static unsigned gs_refusals(const struct nvt_daemon *d, char *last, size_t lastsz)
{
	char *s = gs_slurp(d->log, NULL);
	unsigned n = 0;
	for (char *p = s; p && (p = strstr(p, "refused submission")); p++) {
		n++;
		if (last && lastsz) {
			char *e = strchr(p, '\n');
			size_t k = e ? (size_t)(e - p) : strlen(p);
			if (k >= lastsz)
				k = lastsz - 1;
			memcpy(last, p, k);
			last[k] = 0;
		}
	}
	free(s);
	return n;
}

/* ---- comparing ---- */

/* Pixels not the colour of the first one: a scene that draws nothing
 * would pass against a reference that draws nothing too. */
static unsigned gs_drawn(const uint8_t *img, unsigned w, unsigned h)
{
	unsigned n = 0;
	for (unsigned i = 1; i < w * h; i++)
		n += memcmp(img, img + i * 4, 4) != 0;
	return n;
}

/* ---- the tests ---- */

static unsigned gs_tol(const char *scene)
{
	for (size_t i = 0; i < sizeof(gs_loose) / sizeof(gs_loose[0]); i++)
		if (!strcmp(gs_loose[i].scene, scene))
			return gs_loose[i].tol;
	return GS_TOL;
}

static const char *gs_differs(const char *scene)
{
	for (size_t i = 0; i < sizeof(gs_differ) / sizeof(gs_differ[0]); i++)
		if (!strcmp(gs_differ[i].scene, scene))
			return gs_differ[i].why;
	return NULL;
}

static void test_scene_matches_llvmpipe(void **state)
{
	const char *scene = *state;
	unsigned tol = gs_tol(scene);
	struct gs_run nv, sw;
	char last[256] = "";
	size_t want = (size_t)GS_W * GS_H * 4, la = 0, lb = 0;

	nvt_watchdog(GS_WATCHDOG_S, scene);
	if (!nvt_daemon_alive(&gs_d))
		fail_msg("nvd is not running");
	unsigned refused0 = gs_refusals(&gs_d, NULL, 0);
	/* both at once: two cores, and llvmpipe is quick */
	gs_spawn(&nv, gs_d.sock, scene);
	gs_spawn(&sw, NULL, scene);
	int cnv = nvt_wait_child(nv.pid, GS_RUN_MS);
	int csw = nvt_wait_child(sw.pid, GS_RUN_MS);
	unsigned refused = gs_refusals(&gs_d, last, sizeof(last)) - refused0;

	if (cnv == GS_UNSUPPORTED) {
		gs_dump(&nv, scene);
		printf("# %s: not exposed by the driver on nvd, skipped\n", scene);
		alarm(0);
		skip();
	}
	if (csw != 0) {
		gs_dump(&sw, scene);
		fail_msg("%s on llvmpipe exited with %d", scene, csw);
	}
	if (cnv != 0) {
		gs_dump(&nv, scene);
		nvt_daemon_print_log(&gs_d);
		fail_msg("%s under nvd-run exited with %d", scene, cnv);
	}
	uint8_t *a = (uint8_t *)gs_slurp(nv.img, &la), *b = (uint8_t *)gs_slurp(sw.img, &lb);
	if (!a || !b || la != want || lb != want) {
		free(a);
		free(b);
		fail_msg("%s: images of %zu and %zu bytes, expected %zu", scene, la, lb, want);
	}
	struct nvt_img_diff d;
	nvt_img_compare(a, b, GS_W, GS_H, 4, tol, &d);
	unsigned drawn = gs_drawn(b, GS_W, GS_H);
	double share = (double)d.over / (GS_W * GS_H);
	printf("# %-18s worst difference %3u at (%u,%u), %5u of %u pixels over +-%d (%.3f%%)%s\n",
	       scene, d.worst, d.wx, d.wy, d.over, GS_W * GS_H, tol, share * 100.0,
	       refused ? ", submissions refused" : "");
	if (d.worst) {
		const uint8_t *pa = a + ((size_t)d.wy * GS_W + d.wx) * 4;
		const uint8_t *pb = b + ((size_t)d.wy * GS_W + d.wx) * 4;
		printf("#   there nvd %02x%02x%02x%02x, llvmpipe %02x%02x%02x%02x\n", pa[0], pa[1],
		       pa[2], pa[3], pb[0], pb[1], pb[2], pb[3]);
	}
	fflush(stdout);
	free(a);
	free(b);
	alarm(0);
	if (refused)
		fail_msg("%s: nvd refused %u submission(s), the last: %s", scene, refused, last);
	if (drawn < 64)
		fail_msg("%s: llvmpipe's image is (almost) one colour (%u pixels differ): the scene "
			 "draws nothing", scene, drawn);
	const char *why = gs_differs(scene);
	if (share > GS_MAX_OVER && why) {
		printf("# %s: differs as expected (%s), skipped\n", scene, why);
		skip();
	}
	if (share > GS_MAX_OVER)
		fail_msg("%s: %.3f%% of the pixels differ from llvmpipe by more than %u (at most "
			 "%.1f%% may)", scene, share * 100.0, tol, GS_MAX_OVER * 100.0);
	if (why)
		printf("# %s: now matches llvmpipe; take it off the list of differing scenes\n",
		       scene);
}

/* The lists above name scenes gl-scenes has, and every scene it has is in
 * one of them. */
static void test_every_scene_is_listed_once(void **state)
{
	struct gs_run r;
	char prog[2 * PATH_MAX + 64];
	(void)state;
	snprintf(prog, sizeof(prog), "%s/gl-scenes --list > %s/list 2>&1", gs_at.dir, gs_tmp);
	assert_int_equal(system(prog), 0);
	snprintf(r.out, sizeof(r.out), "%s/list", gs_tmp);
	char *s = gs_slurp(r.out, NULL);
	assert_non_null(s);
	unsigned have = 0, listed = 0;
	for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned n = 0;
		have++;
		for (size_t i = 0; i < sizeof(gs_pass) / sizeof(gs_pass[0]); i++)
			n += !strcmp(gs_pass[i], line);
		for (size_t i = 0; i < sizeof(gs_differ) / sizeof(gs_differ[0]); i++)
			n += !strcmp(gs_differ[i].scene, line);
		if (n != 1) {
			free(s);
			fail_msg("scene %s is in the lists %u times", line, n);
		}
		listed++;
	}
	free(s);
	assert_int_equal(have, sizeof(gs_pass) / sizeof(gs_pass[0]) +
				       sizeof(gs_differ) / sizeof(gs_differ[0]));
	assert_int_equal(listed, have);
}

/* The comparison fails what it must: a one-step-over difference on 0.6%
 * of the pixels, and not 0.4% of them or a +-2 difference everywhere. */
static void test_comparison_tolerance(void **state)
{
	enum { N = GS_W * GS_H };
	uint8_t *a = calloc(N, 4), *b = calloc(N, 4);
	struct nvt_img_diff d;
	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	for (unsigned i = 0; i < N * 4; i++)
		a[i] = b[i] = (uint8_t)(i * 7);
	for (unsigned i = 0; i < N; i++) {
		uint8_t g = a[i * 4 + 1];
		b[i * 4 + 1] = (uint8_t)(g <= 253 ? g + 2 : g - 2);
	}
	nvt_img_compare(a, b, GS_W, GS_H, 4, GS_TOL, &d);
	assert_int_equal(d.over, 0);
	assert_int_equal(d.worst, 2);
	unsigned k = N * 6 / 1000;
	for (unsigned i = 0; i < k; i++)
		b[i * 4 * 7 + 2] = (uint8_t)(a[i * 4 * 7 + 2] <= 252 ? a[i * 4 * 7 + 2] + 3
								       : a[i * 4 * 7 + 2] - 3);
	nvt_img_compare(a, b, GS_W, GS_H, 4, GS_TOL, &d);
	assert_int_equal(d.over, k);
	assert_int_equal(d.worst, 3);
	assert_true((double)d.over / N > GS_MAX_OVER);
	for (unsigned i = N * 4 / 1000; i < k; i++)
		b[i * 4 * 7 + 2] = a[i * 4 * 7 + 2];
	nvt_img_compare(a, b, GS_W, GS_H, 4, GS_TOL, &d);
	assert_int_equal(d.over, N * 4 / 1000);
	assert_false((double)d.over / N > GS_MAX_OVER);
	free(a);
	free(b);
}

/* Last: nvd's "sim-jit: ..." line at exit (sim_jit_describe). */
static void test_compiled_programs_gave_the_interpreters_bits(void **state)
{
	(void)state;
	assert_int_equal(nvt_daemon_stop(&gs_d), 0);
	nvt_assert_jit_lockstep(&gs_d, 10, 100000, "the scenes");
}

static int gs_group_setup(void **state)
{
	(void)state;
	nvt_watchdog(GS_WATCHDOG_S, "test_gl_scenes: starting nvd");
	if (nvt_daemon_start(&gs_d, (const char *const[]){ "--sim-jit", "verify", NULL }) < 0) {
		nvt_daemon_cleanup(&gs_d);
		return -1;
	}
	alarm(0);
	return 0;
}

static int gs_group_teardown(void **state)
{
	(void)state;
	return nvt_daemon_finish(&gs_d);
}

static void gs_paths(void)
{
	if (nvt_paths(&gs_at, "../../bin") < 0) {
		fprintf(stderr, "test_gl_scenes: /proc/self/exe: %s\n", strerror(errno));
		exit(1);
	}
	snprintf(gs_tmp, sizeof(gs_tmp), "/tmp/nvd-golden-XXXXXX");
	if (!mkdtemp(gs_tmp)) {
		fprintf(stderr, "test_gl_scenes: mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
}

/* Everything in the temporary directory (images, outputs), then it;
 * NVD_GOLDEN_KEEP=1 keeps them to look at. */
static void gs_cleanup(void)
{
	const char *keep = getenv("NVD_GOLDEN_KEEP");
	if (keep && *keep == '1') {
		printf("# images kept in %s (raw RGBA8 %s, bottom row first)\n", gs_tmp, GS_SIZE);
		return;
	}
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", gs_tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "test_gl_scenes: could not remove %s\n", gs_tmp);
}

int main(void)
{
	enum { NA = sizeof(gs_pass) / sizeof(gs_pass[0]),
	       NP = NA + sizeof(gs_differ) / sizeof(gs_differ[0]) };
	static struct CMUnitTest tests[3 + NP];
	static char names[NP][96];
	size_t n = 0;

	gs_paths();
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_comparison_tolerance);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_every_scene_is_listed_once);
	for (size_t i = 0; i < NP; i++) {
		const char *scene = i < NA ? gs_pass[i] : gs_differ[i - NA].scene;
		snprintf(names[i], sizeof(names[i]), "scene_%s_on_nvd_matches_llvmpipe", scene);
		tests[n++] = (struct CMUnitTest){ .name = names[i],
						  .test_func = test_scene_matches_llvmpipe,
						  .initial_state = (void *)scene };
	}
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(
		test_compiled_programs_gave_the_interpreters_bits);
	fflush(stdout);
	int r = _cmocka_run_group_tests("test_gl_scenes", tests, n, gs_group_setup,
					gs_group_teardown);
	gs_cleanup();
	return r;
}
