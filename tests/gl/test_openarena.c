/* OpenArena (Debian's ioquake3 engine and data) plays its shipped
 * demo088-test1 timedemo through nvd from the first frame to the last,
 * offscreen through SDL's EGL driver, with Mesa's unmodified nouveau
 * driver, and a frame in the middle matches llvmpipe's.
 *
 * The two runs go at once (2 cores; llvmpipe stops after its screenshot).
 * The game itself takes the screenshot (`wait N; screenshot`), so both are
 * of the same demo frame.  Even two llvmpipe runs differ there on about 1%
 * of the pixels: particles and the status bar's head are driven by random
 * numbers and wall-clock time.  So the bound is looser than the golden
 * scenes': 97% of the pixels within +-16 per channel.
 *
 * The resolution is 320x240 to keep make check short; bench/openarena plays
 * at 640x480. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-img.h"
#include "tests/lib/nvt-oa.h"
#include "tests/lib/nvt-test.h"

#define OA_W        320
#define OA_H        240
#define OA_SHOT     1000        /* the frame compared */
#define OA_TOL      16
#define OA_MAX_OVER 0.03
#define OA_RUN_MS   (20 * 60 * 1000)

static struct nvt_daemon oa_d;
static struct nvt_paths oa_at;
static struct nvt_oa oa_nv, oa_sw;
static struct nvt_oa_result oa_rnv, oa_rsw;
static int oa_cnv, oa_csw;
static char oa_tmp[64];

static void oa_show(const struct nvt_oa *r, const char *what)
{
	char cmd[PATH_MAX + 64];
	fprintf(stderr, "---- the game on %s, the last lines ----\n", what);
	fflush(stderr);
	snprintf(cmd, sizeof(cmd), "tail -n 25 '%s' >&2", r->log);
	if (system(cmd) != 0)
		fprintf(stderr, "(no output)\n");
	fprintf(stderr, "---- end ----\n");
}

static int oa_setup(void **state)
{
	static const char *const args[] = { "--vram", "256", NULL };
	(void)state;
	nvt_watchdog(OA_RUN_MS / 1000 + 60, "test_openarena");
	snprintf(oa_tmp, sizeof(oa_tmp), "/tmp/nvd-oa-XXXXXX");
	if (!mkdtemp(oa_tmp) || nvt_paths(&oa_at, "../../bin") < 0 ||
	    nvt_daemon_start(&oa_d, args) < 0)
		return -1;
	if (access(NVT_OA_GAME, X_OK) < 0) {
		fprintf(stderr, "%s is not installed: run make deps\n", NVT_OA_GAME);
		return -1;
	}
	struct nvt_oa_opts nv = { oa_at.nvd_run, oa_d.sock, OA_W, OA_H, OA_SHOT, 1 };
	struct nvt_oa_opts sw = { NULL, NULL, OA_W, OA_H, OA_SHOT, 0 };
	if (nvt_oa_spawn(&oa_nv, oa_tmp, "nvd", &nv) < 0 ||
	    nvt_oa_spawn(&oa_sw, oa_tmp, "llvmpipe", &sw) < 0)
		return -1;
	printf("# playing demo088-test1 at %ux%u on nvd (and to frame %u on llvmpipe)\n", OA_W,
	       OA_H, OA_SHOT);
	fflush(stdout);
	oa_csw = nvt_oa_wait(&oa_sw, OA_RUN_MS);
	oa_cnv = nvt_oa_wait(&oa_nv, OA_RUN_MS);
	nvt_oa_result(&oa_nv, &oa_rnv);
	nvt_oa_result(&oa_sw, &oa_rsw);
	return 0;
}

static int oa_teardown(void **state)
{
	char cmd[128];
	(void)state;
	int stop = nvt_daemon_stop(&oa_d);
	nvt_daemon_cleanup(&oa_d);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", oa_tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", oa_tmp);
	alarm(0);
	return stop < 0 ? -1 : 0;
}

/* Every frame of the demo, on the NV4x, and nvd refused nothing. */
static void test_demo_plays_to_the_end_on_nvd(void **state)
{
	(void)state;
	printf("# nvd: exit %d, %u frames in %.1f s (%.1f fps), renderer \"%s\"\n", oa_cnv,
	       oa_rnv.frames, oa_rnv.seconds, oa_rnv.fps, oa_rnv.renderer);
	if (oa_cnv != 0 || oa_rnv.frames != NVT_OA_FRAMES || oa_rnv.error[0]) {
		oa_show(&oa_nv, "nvd");
		nvt_daemon_print_log(&oa_d);
	}
	if (!strstr(oa_rnv.renderer, "NV4"))
		fail_msg("the game ran on \"%s\", not on the NV4x", oa_rnv.renderer);
	if (oa_cnv != 0)
		fail_msg("the game exited with %d", oa_cnv);
	if (oa_rnv.error[0])
		fail_msg("the game said: %s", oa_rnv.error);
	assert_int_equal(oa_rnv.frames, NVT_OA_FRAMES);
	if (nvt_log_contains(&oa_d, "refused submission")) {
		char cmd[256];
		snprintf(cmd, sizeof(cmd), "grep -m 5 -B 2 'refused submission' '%s' >&2", oa_d.log);
		if (system(cmd) != 0)
			fprintf(stderr, "(cannot show nvd's log)\n");
		fail_msg("nvd refused submissions of the game");
	}
	if (!nvt_daemon_alive(&oa_d))
		fail_msg("nvd is not running any more");
}

/* The frame in the middle is the one llvmpipe renders, within the bound. */
static void test_mid_demo_frame_matches_llvmpipe(void **state)
{
	unsigned wa, ha, wb, hb;
	(void)state;
	if (oa_csw != 0) {
		oa_show(&oa_sw, "llvmpipe");
		fail_msg("the game on llvmpipe exited with %d", oa_csw);
	}
	if (!strstr(oa_rsw.renderer, "llvmpipe"))
		fail_msg("the reference ran on \"%s\", not llvmpipe", oa_rsw.renderer);
	uint8_t *a = nvt_tga_read(oa_nv.shot, &wa, &ha);
	uint8_t *b = nvt_tga_read(oa_sw.shot, &wb, &hb);
	if (!a || !b) {
		free(a);
		free(b);
		fail_msg("no screenshot from %s", a ? "llvmpipe" : "nvd");
	}
	if (wa != OA_W || ha != OA_H || wb != OA_W || hb != OA_H) {
		free(a);
		free(b);
		fail_msg("screenshots of %ux%u and %ux%u, expected %ux%u", wa, ha, wb, hb, OA_W,
			 OA_H);
	}
	struct nvt_img_diff d;
	nvt_img_compare(a, b, OA_W, OA_H, 3, OA_TOL, &d);
	double share = (double)d.over / (OA_W * OA_H);
	const uint8_t *pa = a + ((size_t)d.wy * OA_W + d.wx) * 3;
	const uint8_t *pb = b + ((size_t)d.wy * OA_W + d.wx) * 3;
	printf("# frame %u: worst difference %u at (%u,%u) (nvd %02x%02x%02x, llvmpipe "
	       "%02x%02x%02x), %u of %u pixels over +-%d (%.2f%%)\n", OA_SHOT, d.worst, d.wx,
	       d.wy, pa[0], pa[1], pa[2], pb[0], pb[1], pb[2], d.over, OA_W * OA_H, OA_TOL,
	       share * 100.0);
	/* a black frame would match a black reference */
	unsigned lit = 0;
	for (size_t i = 0; i < (size_t)OA_W * OA_H * 3; i++)
		lit += b[i] > 32;
	free(a);
	free(b);
	if (lit < OA_W * OA_H / 4)
		fail_msg("llvmpipe's frame is (almost) black: the shot is not of the game");
	if (share > OA_MAX_OVER)
		fail_msg("%.2f%% of the pixels differ from llvmpipe by more than %d (at most %.0f%% "
			 "may)", share * 100.0, OA_TOL, OA_MAX_OVER * 100.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demo_plays_to_the_end_on_nvd),
		cmocka_unit_test(test_mid_demo_frame_matches_llvmpipe),
	};
	return cmocka_run_group_tests_name("openarena", tests, oa_setup, oa_teardown);
}
