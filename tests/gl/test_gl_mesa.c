/* The distribution's unmodified Mesa nouveau (nv30) driver through nvd:
 * the GL programs (tests/gl/gl-*.c) run under nvd-run on a private nvd and
 * must pass every check with GL_RENDERER naming the simulated chip; alone,
 * with drawing (--draw), four at once, four with one SIGKILLed mid-frame
 * (the others pass, the daemon's accounting comes back to what it was), on
 * NV40 and NV44 too; and the same programs on llvmpipe, which proves their
 * expectations.
 *
 * Programs are found beside this test (BUILD/tests/gl), nvd-run in
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
#include <time.h>

#include "tests/lib/nvt-test.h"

#define GLT_MAX_ARGS 16
/* a program's own time limit (its default --timeout) and ours, a little
 * longer, for one program; programs run together get GLT_MANY_S */
#define GLT_RUN_MS   (70 * 1000)
#define GLT_MANY_S   "200"
#define GLT_MANY_MS  (210 * 1000)
#define GLT_MANY_WATCHDOG_S 300

static struct nvt_paths glt_at;      /* dir: BUILD/tests/gl */
static char glt_tmp[64];             /* program outputs */
static unsigned glt_seq;

/* ---- running the programs ---- */

struct glt_prog {
	pid_t pid;
	char out[PATH_MAX];
	char what[160];
};

static int64_t glt_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void glt_sleep_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };
	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

/* Starts BUILD/tests/gl/<name> args... under nvd-run --socket sock, or on
 * llvmpipe when sock is NULL; stdout and stderr go to a file.  The child
 * leads its own process group, so a kill reaches whatever nvd-run starts. */
static void glt_spawn(struct glt_prog *p, const char *sock, const char *name,
		      const char *const *args)
{
	char prog[PATH_MAX + 64];
	const char *argv[GLT_MAX_ARGS + 8];
	unsigned n = 0;

	memset(p, 0, sizeof(*p));
	snprintf(prog, sizeof(prog), "%s/%s", glt_at.dir, name);
	snprintf(p->out, sizeof(p->out), "%s/%u-%s.out", glt_tmp, glt_seq++, name);
	if (sock) {
		if (access(glt_at.nvd_run, X_OK) < 0)
			fail_msg("%s is not built (%s): the GL tests need the DRM interposer",
				 glt_at.nvd_run, strerror(errno));
		argv[n++] = glt_at.nvd_run;
		argv[n++] = "--socket";
		argv[n++] = sock;
	}
	argv[n++] = prog;
	for (unsigned i = 0; args && args[i] && i < GLT_MAX_ARGS; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	/* "name args... (nvd-run)" for the messages */
	int len = snprintf(p->what, sizeof(p->what), "%s", name);
	for (unsigned i = 0; args && args[i] && i < GLT_MAX_ARGS && len < (int)sizeof(p->what); i++)
		len += snprintf(p->what + len, sizeof(p->what) - (size_t)len, " %s", args[i]);
	if (len < (int)sizeof(p->what))
		snprintf(p->what + len, sizeof(p->what) - (size_t)len, "%s",
			 sock ? " (nvd-run)" : " (llvmpipe)");

	pid_t pid = nvt_spawn_gl(argv, !sock, p->out);
	if (pid < 0)
		fail_msg("fork: %s", strerror((int)-pid));
	p->pid = pid;
}

/* The program's output (malloc'd, NUL-terminated). */
static char *glt_output(const struct glt_prog *p)
{
	FILE *f = fopen(p->out, "r");
	char *buf = NULL;
	size_t len = 0;
	if (!f)
		return strdup("");
	buf = malloc(1 << 20);
	if (buf) {
		len = fread(buf, 1, (1 << 20) - 1, f);
		buf[len] = 0;
	}
	fclose(f);
	return buf ? buf : strdup("");
}

static void glt_dump(const struct glt_prog *p)
{
	char *s = glt_output(p);
	fprintf(stderr, "---- %s ----\n%s---- end of %s ----\n", p->what, s, p->what);
	free(s);
}

/* Waits for the program and makes its result the test's: exit 0, a
 * renderer line containing `renderer`, a summary, no "not ok" line. */
static void glt_expect_pass(struct glt_prog *p, const char *renderer, struct nvt_daemon *d,
			    int wait_ms)
{
	int code = nvt_wait_child(p->pid, wait_ms);
	char *s = glt_output(p);
	char rline[200] = "", sline[120] = "";
	const char *r = strstr(s, "\nrenderer: ");
	if (!r && !strncmp(s, "renderer: ", 10))
		r = s - 1;
	if (r)
		sscanf(r + 1, "renderer: %199[^\n]", rline);
	const char *sm = strstr(s, "\nsummary: ");
	if (sm)
		sscanf(sm + 1, "%119[^\n]", sline);
	int notok = !strncmp(s, "not ok", 6) || strstr(s, "\nnot ok") != NULL;
	int ok = code == 0 && r && strstr(rline, renderer) && sm && !notok;
	printf("# %s: exit %d, renderer \"%s\", %s\n", p->what, code, rline, sline);
	fflush(stdout);
	if (!ok) {
		glt_dump(p);
		if (d)
			nvt_daemon_print_log(d);
	}
	free(s);
	if (code != 0)
		fail_msg("%s exited with %d (expected 0)", p->what, code);
	if (!r)
		fail_msg("%s printed no renderer line", p->what);
	if (!strstr(rline, renderer))
		fail_msg("%s ran on \"%s\", expected a renderer containing \"%s\"", p->what, rline,
			 renderer);
	if (!sm || notok)
		fail_msg("%s: a check failed or no summary", p->what);
}

static void glt_run_pass(const char *sock, const char *name, const char *const *args,
			 const char *renderer, struct nvt_daemon *d)
{
	struct glt_prog p;
	glt_spawn(&p, sock, name, args);
	/* each program has its own time (its --timeout is 60 s by default) */
	nvt_watchdog(NVT_TEST_TIMEOUT_S, p.what);
	glt_expect_pass(&p, renderer, d, GLT_RUN_MS);
}

/* ---- accounting ---- */

struct glt_acct {
	unsigned clients, bos, channels_used;
	uint64_t vram_client, gart_client;
};

/* A connection per look: the accounting then counts this checker alone
 * besides the programs, and no idle connection has to last the test. */
static void glt_acct(const char *sock, struct glt_acct *a)
{
	struct nvc_status st;
	struct nvc *c;
	NVT_OK(nvc_connect(sock, "gltest-accounting", &c));
	int r = nvc_status(c, &st);
	nvc_close(c);
	NVT_OK(r);
	a->clients = st.clients;
	a->bos = st.bos;
	a->channels_used = st.channels_used;
	a->vram_client = st.vram_client;
	a->gart_client = st.gart_client;
}

static int glt_acct_same(const struct glt_acct *a, const struct glt_acct *b)
{
	return a->clients == b->clients && a->bos == b->bos && a->channels_used == b->channels_used &&
	       a->vram_client == b->vram_client && a->gart_client == b->gart_client;
}

/* ---- the tests ---- */

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_surfaceless_desktop_gl_on_nvd(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	glt_run_pass(d->sock, "gl-surfaceless", ARGS("--renderer", "NV4"), "NV4", d);
	nvt_end(d);
}

static void test_surfaceless_gles2_on_nvd(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	glt_run_pass(d->sock, "gl-surfaceless", ARGS("--gles", "--renderer", "NV4"), "NV4", d);
	nvt_end(d);
}

/* --draw: textured quads (the GLES2 L8/A8 read back) and an occlusion
 * query that must count every pixel of a quad */
static void test_drawing_checks_on_nvd(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	glt_run_pass(d->sock, "gl-surfaceless", ARGS("--draw", "--renderer", "NV4"), "NV4", d);
	glt_run_pass(d->sock, "gl-surfaceless", ARGS("--draw", "--gles", "--renderer", "NV4"),
		     "NV4", d);
	nvt_end(d);
}

static void test_egl_device_platform_on_nvd(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	glt_run_pass(d->sock, "gl-device", ARGS("--renderer", "NV4"), "NV4", d);
	glt_run_pass(d->sock, "gl-device", ARGS("--gles", "--renderer", "NV4"), "NV4", d);
	nvt_end(d);
}

static void test_gbm_on_the_render_node_on_nvd(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	glt_run_pass(d->sock, "gl-gbm", ARGS("--renderer", "NV4"), "NV4", d);
	glt_run_pass(d->sock, "gl-gbm", ARGS("--surface", "--gles", "--renderer", "NV4"), "NV4", d);
	nvt_end(d);
}

static void test_four_programs_at_once_on_one_nvd(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct glt_prog p[4];

	nvt_watchdog(GLT_MANY_WATCHDOG_S, "test_four_programs_at_once_on_one_nvd");
	glt_spawn(&p[0], d->sock, "gl-surfaceless",
		  ARGS("--renderer", "NV4", "--timeout", GLT_MANY_S));
	glt_spawn(&p[1], d->sock, "gl-surfaceless",
		  ARGS("--gles", "--renderer", "NV4", "--timeout", GLT_MANY_S));
	glt_spawn(&p[2], d->sock, "gl-device", ARGS("--renderer", "NV4", "--timeout", GLT_MANY_S));
	glt_spawn(&p[3], d->sock, "gl-gbm", ARGS("--renderer", "NV4", "--timeout", GLT_MANY_S));
	for (unsigned i = 0; i < 4; i++)
		glt_expect_pass(&p[i], "NV4", d, GLT_MANY_MS);
	nvt_end(d);
}

/* Whether the program's output holds text yet. */
static int glt_printed(const struct glt_prog *p, const char *text)
{
	char *s = glt_output(p);
	int r = strstr(s, text) != NULL;
	free(s);
	return r;
}

static void test_sigkill_mid_frame_spares_the_others_and_the_accounting(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct glt_prog p[4];
	struct glt_acct before, after;
	int code;

	nvt_watchdog(GLT_MANY_WATCHDOG_S, "test_sigkill_mid_frame");
	glt_acct(d->sock, &before);
	/* the victim loops (almost) forever; the others loop long enough to be
	 * running when it dies */
	glt_spawn(&p[0], d->sock, "gl-surfaceless",
		  ARGS("--renderer", "NV4", "--loop", "100000000", "--timeout", GLT_MANY_S));
	glt_spawn(&p[1], d->sock, "gl-surfaceless",
		  ARGS("--renderer", "NV4", "--loop", "200", "--timeout", GLT_MANY_S));
	glt_spawn(&p[2], d->sock, "gl-surfaceless",
		  ARGS("--gles", "--renderer", "NV4", "--loop", "200", "--timeout", GLT_MANY_S));
	glt_spawn(&p[3], d->sock, "gl-device",
		  ARGS("--renderer", "NV4", "--loop", "200", "--timeout", GLT_MANY_S));
	int64_t deadline = glt_now_ms() + 120 * 1000;
	while (!glt_printed(&p[0], "looping:")) {
		if (nvt_child_done(p[0].pid, &code)) {
			glt_dump(&p[0]);
			fail_msg("%s ended (%d) before it looped", p[0].what, code);
		}
		if (glt_now_ms() > deadline) {
			glt_dump(&p[0]);
			fail_msg("%s never started looping", p[0].what);
		}
		glt_sleep_ms(20);
	}
	glt_sleep_ms(30);      /* into a frame */
	if (nvt_child_done(p[0].pid, &code))
		fail_msg("%s ended (%d) before it was killed", p[0].what, code);
	NVT_OK(kill(-p[0].pid, SIGKILL) == 0 ? 0 : -errno);
	code = nvt_wait_child(p[0].pid, 10 * 1000);
	if (code != 128 + SIGKILL)
		fail_msg("%s: status %d after SIGKILL", p[0].what, code);
	printf("# %s killed while looping\n", p[0].what);
	for (unsigned i = 1; i < 4; i++)
		glt_expect_pass(&p[i], "NV4", d, GLT_MANY_MS);
	if (!nvt_daemon_alive(d))
		fail_msg("nvd died");
	deadline = glt_now_ms() + 5000;
	for (;;) {
		glt_acct(d->sock, &after);
		if (glt_acct_same(&before, &after))
			break;
		if (glt_now_ms() > deadline)
			fail_msg("nvd's accounting after the kill: clients %u bos %u channels %u vram "
				 "%llu gart %llu; before: %u %u %u %llu %llu", after.clients,
				 after.bos, after.channels_used,
				 (unsigned long long)after.vram_client,
				 (unsigned long long)after.gart_client, before.clients, before.bos,
				 before.channels_used, (unsigned long long)before.vram_client,
				 (unsigned long long)before.gart_client);
		glt_sleep_ms(10);
	}
	nvt_end(d);
}

static const char *const nv40_args[] = { "--card", "sim:NV40", NULL };
static const char *const nv44_args[] = { "--card", "sim:NV44", NULL };

static void test_surfaceless_on_nv40(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	glt_run_pass(d->sock, "gl-surfaceless", ARGS("--renderer", "NV40"), "NV40", d);
	glt_run_pass(d->sock, "gl-surfaceless", ARGS("--gles", "--renderer", "NV40"), "NV40", d);
	nvt_end(d);
}

/* NV44: Mesa picks the 0x4497 3D class */
static void test_surfaceless_on_nv44(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	glt_run_pass(d->sock, "gl-surfaceless", ARGS("--renderer", "NV44"), "NV44", d);
	glt_run_pass(d->sock, "gl-surfaceless", ARGS("--gles", "--renderer", "NV44"), "NV44", d);
	glt_run_pass(d->sock, "gl-gbm", ARGS("--renderer", "NV44"), "NV44", d);
	nvt_end(d);
}

/* The reference renderer passes every check: the expectations are right. */
static void test_programs_pass_on_llvmpipe(void **state)
{
	(void)state;
	glt_run_pass(NULL, "gl-surfaceless", ARGS("--renderer", "llvmpipe"), "llvmpipe", NULL);
	glt_run_pass(NULL, "gl-surfaceless", ARGS("--gles", "--renderer", "llvmpipe"), "llvmpipe",
		     NULL);
	glt_run_pass(NULL, "gl-surfaceless", ARGS("--renderer", "llvmpipe", "--loop", "20"),
		     "llvmpipe", NULL);
	/* drawing's checks too, for when the 3D engine draws */
	glt_run_pass(NULL, "gl-surfaceless", ARGS("--draw", "--renderer", "llvmpipe"), "llvmpipe",
		     NULL);
	glt_run_pass(NULL, "gl-surfaceless", ARGS("--draw", "--gles", "--renderer", "llvmpipe"),
		     "llvmpipe", NULL);
	glt_run_pass(NULL, "gl-device", ARGS("--renderer", "llvmpipe"), "llvmpipe", NULL);
	glt_run_pass(NULL, "gl-device", ARGS("--gles", "--renderer", "llvmpipe"), "llvmpipe", NULL);
	if (access("/dev/dri/renderD128", R_OK | W_OK) == 0)
		glt_run_pass(NULL, "gl-gbm", ARGS("--renderer", ""), "", NULL);
	else
		printf("# gl-gbm not run on llvmpipe: this machine has no /dev/dri/renderD128 "
		       "(GBM needs a DRM node); its GL checks are the ones above\n");
	alarm(0);
}

/* A program on the wrong renderer fails: llvmpipe asked to be NV4x. */
static void test_program_on_the_wrong_renderer_fails(void **state)
{
	struct glt_prog p;
	(void)state;
	nvt_watchdog(NVT_TEST_TIMEOUT_S, "test_program_on_the_wrong_renderer_fails");
	glt_spawn(&p, NULL, "gl-surfaceless", ARGS("--renderer", "NV4"));
	int code = nvt_wait_child(p.pid, GLT_RUN_MS);
	assert_int_equal(code, 1);
	assert_true(glt_printed(&p, "not ok - GL_RENDERER"));
	alarm(0);
}

static void glt_paths(void)
{
	if (nvt_paths(&glt_at, "../../bin") < 0) {
		fprintf(stderr, "test_gl_mesa: /proc/self/exe: %s\n", strerror(errno));
		exit(1);
	}
	snprintf(glt_tmp, sizeof(glt_tmp), "/tmp/nvd-gltest-XXXXXX");
	if (!mkdtemp(glt_tmp)) {
		fprintf(stderr, "test_gl_mesa: mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
}

static void glt_cleanup(void)
{
	char path[PATH_MAX + 64];
	for (unsigned i = 0; i < glt_seq; i++) {
		static const char *names[] = { "gl-surfaceless", "gl-device", "gl-gbm" };
		for (unsigned k = 0; k < 3; k++) {
			snprintf(path, sizeof(path), "%s/%u-%s.out", glt_tmp, i, names[k]);
			unlink(path);
		}
	}
	rmdir(glt_tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_programs_pass_on_llvmpipe),
		cmocka_unit_test(test_program_on_the_wrong_renderer_fails),
		NVT_TEST(test_surfaceless_desktop_gl_on_nvd),
		NVT_TEST(test_surfaceless_gles2_on_nvd),
		NVT_TEST(test_drawing_checks_on_nvd),
		NVT_TEST(test_egl_device_platform_on_nvd),
		NVT_TEST(test_gbm_on_the_render_node_on_nvd),
		NVT_TEST(test_four_programs_at_once_on_one_nvd),
		NVT_TEST(test_sigkill_mid_frame_spares_the_others_and_the_accounting),
		NVT_TEST_ARGS(test_surfaceless_on_nv40, nv40_args),
		NVT_TEST_ARGS(test_surfaceless_on_nv44, nv44_args),
	};
	glt_paths();
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	glt_cleanup();
	return r;
}
