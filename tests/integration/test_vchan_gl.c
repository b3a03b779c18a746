/* Virtual channels under Mesa: gl-surfaceless's GL checks (under nvd-run)
 * while 40 other clients keep taking the card's 30 hardware channels.
 * Apart from test_vchan because Mesa runs with the interposer preloaded,
 * which the ASan build of the tests cannot (Makefile, check-asan). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"
#include "tests/lib/nvt-vc.h"

/* Until the file `stop` exists: 40 clients draw in turn, each turn
 * loading a channel in place of the least recently used idle one; then
 * every picture is checked.  The file `stop`.ready says that all 40 are
 * open and have drawn once: channels are being unloaded from then on. */
static int vc_churner(void *arg)
{
	const char *sock = getenv("NVT_VC_SOCK"), *stop = arg;
	char ready[PATH_MAX + 40];
	struct nvt_vc x[40];
	int bad = 0;

	for (unsigned i = 0; i < 40; i++)
		if (nvt_vc_open(&x[i], sock, "churner", 500 + i) < 0)
			return 1;
	for (unsigned i = 0; i < 40; i++)
		if (nvt_vc_draw(&x[i], 2) < 0 || nvt_finish(&x[i].p) < 0)
			return 2;
	snprintf(ready, sizeof(ready), "%s.ready", stop);
	FILE *f = fopen(ready, "w");
	if (!f)
		return 3;
	fclose(f);
	while (access(stop, F_OK) < 0)
		for (unsigned i = 0; i < 40; i++)
			if (nvt_vc_draw(&x[i], 2) < 0 || nvt_finish(&x[i].p) < 0)
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
	/* GL starts once the churners take turns on the card, however
	 * slowly a busy machine opens them */
	char ready[PATH_MAX + 40];
	snprintf(ready, sizeof(ready), "%s.ready", stop);
	for (int i = 0; i < 6000 && access(ready, F_OK) < 0; i++)
		usleep(10000);
	if (access(ready, F_OK) < 0)
		fail_msg("the churning clients were not all drawing within 60 s");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_gl_client_moved_between_hardware_channels_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
