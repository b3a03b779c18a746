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

#include "tests/lib/nvt-glprog.h"
#include "tests/lib/nvt-test.h"

/* The two texture clients take ~12 s together on 2 cores, one alone ~6;
 * their own limit (--timeout) is below ours. */
#define PROG_TIMEOUT_S "150"
#define PROG_WAIT_MS   (160 * 1000)
#define TEST_WATCHDOG_S 200

static struct nvt_paths at;
static char tmp[64];

static void start(struct nvt_glprog *p, const struct nvt_daemon *d, const char *name,
		  const char *const *args)
{
	NVT_OK(nvt_glprog_start(p, at.dir, at.nvd_run, d ? d->sock : NULL, tmp, name, args));
}

/* The program's result is the test's (nvd's log printed when it failed). */
static void expect_pass(struct nvt_glprog *p, const char *renderer, struct nvt_daemon *d)
{
	if (nvt_glprog_pass(p, renderer, PROG_WAIT_MS) == 0)
		return;
	if (d)
		nvt_daemon_print_log(d);
	fail_msg("%s did not pass (its output above)", p->what);
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
	struct nvt_glprog p;
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
	struct nvt_glprog p[2];
	struct nvc_status st;

	nvt_watchdog(TEST_WATCHDOG_S, "test_two_clients_with_96_mib_of_textures_each_on_vram_64");
	int64_t t0 = nvt_now_ns();
	for (unsigned i = 0; i < 2; i++)
		start(&p[i], d, "gl-textures", ARGS("--renderer", "NV43", "--timeout",
						    PROG_TIMEOUT_S));
	for (unsigned i = 0; i < 2; i++)
		expect_pass(&p[i], "NV43", d);
	status(d, &st);
	printf("# both in %.1f s; %llu evictions (%llu MiB), %llu submissions\n",
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
	struct nvt_glprog p;
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
	if (nvt_glprog_outdir(tmp, "glmem") < 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_programs_pass_on_llvmpipe),
		NVT_TEST_ARGS(test_two_clients_with_96_mib_of_textures_each_on_vram_64, vram64),
		NVT_TEST_ARGS(test_256_mib_vertex_buffer_drawn_from_start_middle_and_end, vram64),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	nvt_glprog_outdir_remove(tmp);
	return r;
}
