/* Memory the card does not have, through the distribution's Mesa nouveau
 * driver (issue #18, "what must be shown"): two GL clients each holding
 * 96 MiB of textures on a 64 MiB card, every texel read back exact in both
 * passes, nvd refusing nothing and evicting (its status says how often);
 * a 256 MiB vertex buffer drawn from its start, middle and end.  The
 * programs pass on llvmpipe first: their expectations are right.  After
 * each test nvd holds no client buffer or channel (nvt_end).
 *
 * Programs are found beside this test (BUILD/tests/gl), nvd-run in
 * $NVD_TOOLS or BUILD/bin. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <limits.h>

#include "tests/lib/nvt-test.h"

/* The two texture clients take ~12 s together on 2 cores, one alone ~6;
 * their own limit (--timeout) is below ours. */
#define PROG_TIMEOUT_S "150"
#define PROG_WAIT_MS   (160 * 1000)
#define TEST_WATCHDOG_S 200

static struct nvt_paths at;
static char tmp[64];

struct prog {
	pid_t pid;
	char out[PATH_MAX];
	char what[96];
};

/* BUILD/tests/gl/<name> args... under nvd-run on d, or on llvmpipe when d
 * is NULL; output in tmp/<n>-<name>.out. */
static void start(struct prog *p, const struct nvt_daemon *d, const char *name,
		  const char *const *args)
{
	static unsigned seq;
	char path[PATH_MAX + 64];
	const char *argv[16];
	unsigned n = 0;

	snprintf(path, sizeof(path), "%s/%s", at.dir, name);
	snprintf(p->out, sizeof(p->out), "%s/%u-%s.out", tmp, seq++, name);
	snprintf(p->what, sizeof(p->what), "%s (%s)", name, d ? "nvd-run" : "llvmpipe");
	if (d) {
		argv[n++] = at.nvd_run;
		argv[n++] = "--socket";
		argv[n++] = d->sock;
	}
	argv[n++] = path;
	for (unsigned i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	p->pid = nvt_spawn_gl(argv, d == NULL, p->out);
	if (p->pid < 0)
		fail_msg("starting %s: %s", p->what, strerror((int)-p->pid));
}

/* The program's result is the test's: exit 0, a renderer line naming
 * `renderer`, a summary and no failed check.  Prints the output (and
 * nvd's log) when not. */
static void expect_pass(struct prog *p, const char *renderer, struct nvt_daemon *d)
{
	int code = nvt_wait_child(p->pid, PROG_WAIT_MS);
	static char out[1 << 16];
	FILE *f = fopen(p->out, "r");
	size_t len = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	if (f)
		fclose(f);
	out[len] = 0;
	char rline[128] = "";
	const char *r = strstr(out, "renderer: ");
	if (r)
		sscanf(r, "renderer: %127[^\n]", rline);
	const char *sum = strstr(out, "summary: ");
	int failed = !strncmp(out, "not ok", 6) || strstr(out, "\nnot ok");
	char sline[96] = "";
	if (sum)
		sscanf(sum, "%95[^\n]", sline);
	print_message("# %s: exit %d, renderer \"%s\", %s\n", p->what, code, rline, sline);
	if (code == 0 && strstr(rline, renderer) && sum && !failed)
		return;
	fprintf(stderr, "---- %s ----\n%s---- end of %s ----\n", p->what, out, p->what);
	if (d)
		nvt_daemon_print_log(d);
	fail_msg("%s: exit %d, renderer \"%s\" (expected \"%s\"), %s", p->what, code, rline,
		 renderer, sum ? sline : "no summary");
}

static void status(const struct nvt_daemon *d, struct nvc_status *st)
{
	struct nvc *c;
	NVT_OK(nvc_connect(d->sock, "test_gl_memory", &c));
	int r = nvc_status(c, st);
	nvc_close(c);
	NVT_OK(r);
}

/* nvd refused no submission: in its log and in its count. */
static void refused_nothing(const struct nvt_daemon *d, const struct nvc_status *st)
{
	if (nvt_log_contains(d, "refused") || st->refused) {
		nvt_daemon_print_log(d);
		fail_msg("nvd refused %llu submissions (see its log above)",
			 (unsigned long long)st->refused);
	}
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_programs_pass_on_llvmpipe(void **state)
{
	struct prog p;
	(void)state;
	nvt_watchdog(TEST_WATCHDOG_S, "test_programs_pass_on_llvmpipe");
	start(&p, NULL, "gl-textures", ARGS("--renderer", "llvmpipe"));
	expect_pass(&p, "llvmpipe", NULL);
	start(&p, NULL, "gl-bigbuffer", ARGS("--renderer", "llvmpipe"));
	expect_pass(&p, "llvmpipe", NULL);
	alarm(0);
}

static const char *const vram64[] = { "--vram", "64", NULL };

/* 2 x 24 textures of 4 MiB on 48.5 MiB of VRAM left to clients: each pass
 * over one client's textures evicts its own and its neighbour's. */
static void test_two_clients_with_96_mib_of_textures_each_on_vram_64(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct prog p[2];
	struct nvc_status st;

	nvt_watchdog(TEST_WATCHDOG_S, "test_two_clients_with_96_mib_of_textures_each_on_vram_64");
	int64_t t0 = nvt_now_ns();
	for (unsigned i = 0; i < 2; i++)
		start(&p[i], d, "gl-textures", ARGS("--renderer", "NV43", "--timeout",
						    PROG_TIMEOUT_S));
	for (unsigned i = 0; i < 2; i++)
		expect_pass(&p[i], "NV43", d);
	status(d, &st);
	print_message("# both in %.1f s; %llu evictions (%llu MiB), %llu submissions\n",
		      (nvt_now_ns() - t0) / 1e9, (unsigned long long)st.evictions,
		      (unsigned long long)(st.evicted_bytes >> 20), (unsigned long long)st.submits);
	refused_nothing(d, &st);
	if (!st.evictions)
		fail_msg("nvd evicted nothing: 192 MiB of textures cannot have fit 64 MiB of VRAM");
	nvt_end(d);
}

/* Larger than the card's VRAM: Mesa's buffer lands in GART (nvd refuses a
 * VRAM buffer larger than VRAM, Mesa then asks for GART). */
static void test_256_mib_vertex_buffer_drawn_from_start_middle_and_end(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct prog p;
	struct nvc_status st;

	start(&p, d, "gl-bigbuffer", ARGS("--renderer", "NV43", "--mib", "256"));
	expect_pass(&p, "NV43", d);
	status(d, &st);
	refused_nothing(d, &st);
	nvt_end(d);
}

int main(void)
{
	if (nvt_paths(&at, "../../bin") < 0) {
		fprintf(stderr, "test_gl_memory: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	snprintf(tmp, sizeof(tmp), "/tmp/nvd-glmem-XXXXXX");
	if (!mkdtemp(tmp)) {
		fprintf(stderr, "test_gl_memory: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_programs_pass_on_llvmpipe),
		NVT_TEST_ARGS(test_two_clients_with_96_mib_of_textures_each_on_vram_64, vram64),
		NVT_TEST_ARGS(test_256_mib_vertex_buffer_drawn_from_start_middle_and_end, vram64),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "test_gl_memory: could not remove %s\n", tmp);
	return r;
}
