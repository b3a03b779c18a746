/* OpenArena's draws in lockstep: the shipped demo088-test1 timedemo, played
 * through nvd with --sim-jit verify to frame OA_LAST (where the game takes a
 * screenshot and quits), so that every quad a compiled fragment program
 * shades is shaded by the interpreter too and the two are compared bit for
 * bit in nvd (sim_jit_verify).  Its "sim-jit:" line at exit must show
 * compiled programs at work and no quad that differed.  Frame 1000 is the
 * one test_openarena compares with llvmpipe, playing the whole demo with
 * the compiler alone; bench/openarena times it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-oa.h"
#include "tests/lib/nvt-test.h"

#define OA_W      320
#define OA_H      240
#define OA_LAST   1000        /* the frame it quits at */
#define OA_RUN_MS (6 * 60 * 1000)

static void test_compiled_programs_shade_the_demo_as_the_interpreter(void **state)
{
	static const char *const args[] = { "--vram", "256", "--sim-jit", "verify", NULL };
	struct nvt_daemon d;
	struct nvt_paths at;
	struct nvt_oa oa;
	struct nvt_oa_result r;
	char tmp[64], cmd[PATH_MAX + 64];
	(void)state;

	nvt_watchdog(OA_RUN_MS / 1000 + 60, "test_oa_lockstep");
	snprintf(tmp, sizeof(tmp), "/tmp/nvd-oa-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	assert_int_equal(nvt_paths(&at, "../../bin"), 0);
	assert_int_equal(nvt_daemon_start(&d, args), 0);
	struct nvt_oa_opts o = { at.nvd_run, d.sock, OA_W, OA_H, OA_LAST, 0 };
	assert_int_equal(nvt_oa_spawn(&oa, tmp, "nvd", &o), 0);
	int code = nvt_oa_wait(&oa, OA_RUN_MS);
	nvt_oa_result(&oa, &r);
	printf("# the game: exit %d, renderer \"%s\"\n", code, r.renderer);
	if (code != 0 || r.error[0] || access(oa.shot, R_OK) < 0) {
		snprintf(cmd, sizeof(cmd), "tail -n 25 '%s' >&2", oa.log);
		if (system(cmd) != 0)
			fprintf(stderr, "(no output from the game)\n");
		nvt_daemon_print_log(&d);
	}
	if (!strstr(r.renderer, "NV4"))
		fail_msg("the game ran on \"%s\", not on the NV4x", r.renderer);
	if (code != 0 || r.error[0])
		fail_msg("the game exited with %d: %s", code, r.error);
	if (access(oa.shot, R_OK) < 0)
		fail_msg("the game did not reach frame %u (no screenshot)", OA_LAST);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	assert_int_equal(nvt_daemon_stop(&d), 0);
	nvt_assert_jit_lockstep(&d, 5, 100000, "the demo");
	nvt_daemon_cleanup(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compiled_programs_shade_the_demo_as_the_interpreter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
