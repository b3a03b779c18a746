/* nvd --sim-check: a real nvd with the card's access oracle on runs the 2D
 * workload and Mesa's GL checks (gl-surfaceless under nvd-run) and finds
 * nothing: nvdctl status says "oracle: 0 violations" (oracle_violations=0
 * in --raw) and the log has no ORACLE: line.  Without --sim-check status
 * says nothing of the oracle; a PCI card refuses --sim-check at option
 * time (exit 2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"

#define GL_RUN_MS 120000

static const char *const check_args[] = { "--sim-check", NULL };

/* nvdctl status [--raw] into out; exit code 0 required. */
static void nvdctl_status(const struct nvt_daemon *d, int raw, char *out, size_t len)
{
	static char err[4096];
	char nvdctl[PATH_MAX];
	const char *tools = getenv("NVD_TOOLS");

	snprintf(nvdctl, sizeof(nvdctl), "%s/nvdctl", tools && *tools ? tools : "build/bin");
	const char *argv[] = { nvdctl, "--socket", d->sock, "status", raw ? "--raw" : NULL, NULL };
	int code = nvt_run(argv, out, len, err, sizeof(err), 10000);
	if (code != 0)
		fail_msg("nvdctl status exited %d: %s", code, err);
}

/* Mesa's GL checks on the simulated card: BUILD/tests/gl/gl-surfaceless. */
static void run_gl(const struct nvt_daemon *d)
{
	struct nvt_paths at;
	char prog[PATH_MAX + 32], out[PATH_MAX + 32];

	if (nvt_paths(&at, "../../bin") < 0)
		fail_msg("/proc/self/exe: %s", strerror(errno));
	snprintf(prog, sizeof(prog), "%s/../gl/gl-surfaceless", at.dir);
	snprintf(out, sizeof(out), "%s/gl.out", d->dir);
	if (access(prog, X_OK) < 0 || access(at.nvd_run, X_OK) < 0)
		fail_msg("%s or %s is not built", prog, at.nvd_run);
	const char *argv[] = { at.nvd_run, "--socket", d->sock, prog, "--renderer", "NV4", NULL };
	pid_t pid = nvt_spawn_gl(argv, 0, out);
	if (pid < 0)
		fail_msg("fork: %s", strerror((int)-pid));
	int code = nvt_wait_child(pid, GL_RUN_MS);
	if (code != 0) {
		char cat[PATH_MAX + 64];
		snprintf(cat, sizeof(cat), "cat '%s' >&2", out);
		if (system(cat) < 0) {
		}
		fail_msg("gl-surfaceless under nvd-run exited %d", code);
	}
}

static void test_2d_and_gl_workloads_touch_only_what_nvd_admitted(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[8192];
	uint8_t *bytes = NULL;
	size_t len = 0;

	NVT_OK(nvt_honest_alone(d, 17, &bytes, &len));
	free(bytes);
	run_gl(d);

	nvdctl_status(d, 1, out, sizeof(out));
	if (!strstr(out, "\noracle_violations=0\n"))
		fail_msg("nvdctl status --raw does not say oracle_violations=0:\n%s", out);
	if (strstr(out, "\nsubmits=0\n"))
		fail_msg("nothing was submitted:\n%s", out);
	nvdctl_status(d, 0, out, sizeof(out));
	if (!strstr(out, "\noracle:    0 violations\n"))
		fail_msg("nvdctl status does not say 'oracle: 0 violations':\n%s", out);
	assert_false(nvt_log_contains(d, "ORACLE:"));
	assert_true(nvt_log_contains(d, "accesses checked (--sim-check)"));
	nvt_end(d);
}

static void test_status_without_sim_check_has_no_oracle(void **state)
{
	struct nvt_daemon d;
	static char out[8192];

	(void)state;
	nvt_sim_check = 0;
	int r = nvt_daemon_start(&d, NULL);
	nvt_sim_check = 1;
	NVT_OK(r);
	nvdctl_status(&d, 1, out, sizeof(out));
	assert_null(strstr(out, "oracle"));
	nvdctl_status(&d, 0, out, sizeof(out));
	assert_null(strstr(out, "oracle"));
	nvt_end(&d);
	nvt_daemon_cleanup(&d);
}

static void test_pci_card_refuses_sim_check(void **state)
{
	static char out[4096], err[4096];

	(void)state;
	const char *argv[] = { getenv("NVD_BIN"), "--sim-check", "--card", "pci", NULL };
	assert_non_null(argv[0]);
	int code = nvt_run(argv, out, sizeof(out), err, sizeof(err), 10000);
	if (code != 2 || !strstr(err, "nvd: --sim-check "))
		fail_msg("nvd --sim-check --card pci exited %d, expected 2 and a reason:\n%s", code,
			 err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_2d_and_gl_workloads_touch_only_what_nvd_admitted, check_args),
		cmocka_unit_test(test_status_without_sim_check_has_no_oracle),
		cmocka_unit_test(test_pci_card_refuses_sim_check),
	};
	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
