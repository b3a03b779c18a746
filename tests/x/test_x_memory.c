/* X beside GL clients that want more VRAM than the card has (issue #18,
 * "what must be shown"): the scanout buffer X's heads show is pinned, so
 * while GL clients (tests/gl/gl-textures) overfill a small VRAM and nvd
 * evicts, what both heads scan out (nvd's screenshot, read where the CRTC
 * registers point) stays exactly X's root tile, looked at again and again,
 * with three such clients.  And on the smallest card (--vram 32),
 * glmark2-drm, a GL client and X at once: all pass, nothing refused (before
 * a bound fragment program's buffer was pinned, it was evicted and the
 * client's next draw refused, every run with three clients and about half
 * the glmark2 runs).
 * Each GL client must pass every check on the NV43, nvd must refuse
 * nothing and must have evicted; X and nvd stop cleanly and nvd holds
 * nothing after.  Needs root (Xorg's -config and -modulepath); skipped
 * otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-glprog.h"
#include "tests/lib/nvt-test.h"
#include "tests/lib/nvt-x.h"

#define WATCHDOG_S   240
#define PROG_WAIT_MS (200 * 1000)
#define NCLIENTS     3

static struct nvt_paths at;
static char gldir[PATH_MAX + 8];     /* BUILD/tests/gl */
static char tmp[64];
static struct nvt_x x;               /* the test's X; the teardown stops it */

/* 64 MiB of VRAM (48.5 for clients), two small heads: X's 1824x768
 * scanout (5.3 MiB) fits with room to spare, the GL clients' textures do
 * not. */
static const char *const small_card[] = {
	"--vram", "64", "--monitor", "0=1024x768", "--monitor", "1=800x600", NULL,
};

static int x_teardown(void **state)
{
	nvt_x_cleanup(&x);
	return nvt_teardown(state);
}

/* Both heads' pictures as nvd reads them from VRAM. */
struct heads {
	uint32_t *px[NVC_DISP_HEADS];
	uint32_t w[NVC_DISP_HEADS], h[NVC_DISP_HEADS];
	uint32_t fb[NVC_DISP_HEADS];
	uint32_t x[NVC_DISP_HEADS], y[NVC_DISP_HEADS];   /* where on the screen */
};

static void heads_take(struct nvc *c, struct heads *s)
{
	for (unsigned i = 0; i < NVC_DISP_HEADS; i++) {
		struct nvc_head h;
		NVT_OK(nvc_disp_head(c, i, &h));
		if (!h.fb)
			fail_msg("head %u shows nothing: X should drive both", i);
		s->fb[i] = h.fb;
		s->x[i] = h.x;
		s->y[i] = h.y;
		NVT_OK(nvc_disp_screenshot(c, i, &s->px[i], &s->w[i], &s->h[i]));
	}
}

static void heads_free(struct heads *s)
{
	for (unsigned i = 0; i < NVC_DISP_HEADS; i++)
		free(s->px[i]);
}

/* 0 when `now` is `was`, pixel for pixel; else the first difference said. */
static int heads_same(const struct heads *was, const struct heads *now, const char *when)
{
	for (unsigned i = 0; i < NVC_DISP_HEADS; i++) {
		if (now->fb[i] != was->fb[i] || now->w[i] != was->w[i] || now->h[i] != was->h[i]) {
			printf("# %s: head %u shows fb %u %ux%u, before fb %u %ux%u\n", when, i,
			       now->fb[i], now->w[i], now->h[i], was->fb[i], was->w[i], was->h[i]);
			return -1;
		}
		for (size_t k = 0; k < (size_t)now->w[i] * now->h[i]; k++)
			if (now->px[i][k] != was->px[i][k]) {
				printf("# %s: head %u pixel (%zu, %zu) is %06x, before %06x\n", when,
				       i, k % now->w[i], k / now->w[i], now->px[i][k] & 0xffffff,
				       was->px[i][k] & 0xffffff);
				return -1;
			}
	}
	return 0;
}

/* Pixels of the heads that are not the root's tile: 0 when none. */
static size_t heads_not_tile(const struct heads *s, const struct nvt_x_tile *t)
{
	size_t bad = 0;
	for (unsigned i = 0; i < NVC_DISP_HEADS; i++)
		for (uint32_t y = 0; y < s->h[i]; y++)
			for (uint32_t x = 0; x < s->w[i]; x++)
				bad += (s->px[i][(size_t)y * s->w[i] + x] & 0xffffff) !=
				       nvt_x_tile_pixel(t, s->x[i] + x, s->y[i] + y);
	return bad;
}

/* X draws the root asynchronously: the heads show the tile within 5 s. */
static void heads_show_tile(struct nvc *c, const struct nvt_x_tile *t, struct heads *s)
{
	size_t bad = 0;
	for (unsigned tries = 0; tries < 100; tries++) {
		heads_take(c, s);
		if (!(bad = heads_not_tile(s, t)))
			return;
		heads_free(s);
		nvt_sleep_ms(50);
	}
	fail_msg("the heads do not show X's root tile: %zu pixels differ after 5 s", bad);
}

/* The end of each test: nvd refused nothing and evicted (the clients
 * overfilled VRAM, `room` says how much there was), X is alive and stops
 * cleanly, nvd holds nothing of anyone after. */
static void end_beside_x(struct nvt_daemon *d, const char *room)
{
	struct nvc_status st;
	struct nvc *c;
	NVT_OK(nvc_connect(d->sock, "test_x_memory", &c));
	int r = nvc_status(c, &st);
	nvc_close(c);
	NVT_OK(r);
	printf("# %llu evictions (%llu MiB), %llu refused\n", (unsigned long long)st.evictions,
	       (unsigned long long)(st.evicted_bytes >> 20), (unsigned long long)st.refused);
	if (st.refused || nvt_log_contains(d, "refused")) {
		nvt_daemon_print_log(d);
		fail_msg("nvd refused %llu submissions", (unsigned long long)st.refused);
	}
	if (!st.evictions)
		fail_msg("nvd evicted nothing: the clients' buffers cannot have fit %s", room);
	if (!nvt_x_alive(&x))
		fail_msg("Xorg died");
	if (nvt_x_stop(&x) < 0)
		fail_msg("Xorg did not stop cleanly on SIGTERM");
	nvt_end(d);
}

static void test_scanout_stays_while_gl_clients_overfill_vram(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_x_tile t;
	struct nvt_glprog p[NCLIENTS];
	struct heads before, during, after;
	struct nvc *c;

	nvt_watchdog(WATCHDOG_S, "test_scanout_stays_while_gl_clients_overfill_vram");
	if (nvt_x_start(&x, d->sock, NULL) < 0)
		fail_msg("Xorg did not start on nvd");
	nvt_x_tile_make(&t, 29, 17, 7, 0xe0a030, 0x1c4f86);
	NVT_OK(nvt_x_set_root_tile(&x, &t));
	NVT_OK(nvt_x_hide_root_cursor(&x));
	NVT_OK(nvc_connect(d->sock, "test_x_memory", &c));
	heads_show_tile(c, &t, &before);
	/* 2 x 8 textures of 4 MiB each (and an FBO each), on 43 MiB of VRAM */
	for (unsigned i = 0; i < NCLIENTS; i++)
		NVT_OK(nvt_glprog_start(&p[i], gldir, at.nvd_run, d->sock, tmp, "gl-textures",
					(const char *const[]){ "--renderer", "NV43", "--textures",
							       "8", "--timeout", "180", NULL }));
	/* the heads, again and again while the clients run */
	unsigned looks = 0;
	for (;;) {
		unsigned running = 0;
		for (unsigned i = 0; i < NCLIENTS; i++)
			running += (unsigned)nvt_glprog_running(&p[i]);
		if (!running)
			break;
		heads_take(c, &during);
		int same = heads_same(&before, &during, "while the GL clients ran");
		heads_free(&during);
		if (same < 0)
			fail_msg("a head's picture changed while GL clients overfilled VRAM");
		looks++;
		nvt_sleep_ms(50);
	}
	for (unsigned i = 0; i < NCLIENTS; i++)
		if (nvt_glprog_pass(&p[i], "NV43", PROG_WAIT_MS) < 0)
			fail_msg("%s did not pass (its output above)", p[i].what);
	heads_take(c, &after);
	if (heads_same(&before, &after, "after the GL clients") < 0)
		fail_msg("a head's picture changed after GL clients overfilled VRAM");
	printf("# %u looks at both heads, all the same\n", looks);
	heads_free(&before);
	heads_free(&after);
	nvc_close(c);
	end_beside_x(d, "43 MiB");
}

/* The smallest card: 32 MiB (16.5 for clients), X on one
 * 320x240 head, gl-textures with 3 textures (16 MiB with its FBO) and a
 * short glmark2-drm (build and texture, off-screen) at once. */
static const char *const card_32[] = {
	"--vram", "32", "--monitor", "0=320x240@100:Glmark2", "--monitor", "1=none", NULL,
};

#define GLMARK2 "/usr/bin/glmark2-drm"

/* glmark2's run passed: exit 0, on the NV43, an FPS for each scene, no
 * error printed.  Its output is printed when not. */
static void glmark2_passed(const char *out_path, int code)
{
	static char out[1 << 16];
	static const char *const scenes[] = { "build", "texture" };
	FILE *f = fopen(out_path, "r");
	size_t len = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	if (f)
		fclose(f);
	out[len] = 0;
	/* X is the master: glmark2-drm may not put back the CRTC it never
	 * set (nvd: "SET_MASTER failed: client 3 (Xorg) is the master") */
	static const char not_master[] = "Error: Failed to restore original CRTC: -13\n";
	char *nm = strstr(out, not_master);
	if (nm)
		memset(nm, ' ', strlen(not_master) - 1);
	const char *why = code ? "it did not exit 0" :
			  !strstr(out, "GL_RENDERER:    NV43\n") ? "it did not run on the NV43" :
			  strstr(out, "rror") ? "it printed an error" : NULL;
	for (unsigned i = 0; !why && i < 2; i++) {
		char pre[48];
		unsigned fps = 0;
		snprintf(pre, sizeof(pre), "[%s] duration=1: FPS: ", scenes[i]);
		const char *at = strstr(out, pre);
		if (!at || sscanf(at + strlen(pre), "%u", &fps) != 1 || !fps)
			why = "a scene has no FPS";
		else
			printf("# glmark2 %s: %u fps\n", scenes[i], fps);
	}
	if (why) {
		fprintf(stderr, "---- glmark2 ----\n%s---- end of glmark2 ----\n", out);
		fail_msg("glmark2 (exit %d): %s", code, why);
	}
}

static void test_glmark2_a_gl_client_and_x_at_once_on_vram_32(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_glprog p;
	char gout[PATH_MAX];

	if (access(GLMARK2, X_OK) < 0)
		fail_msg("%s is missing ('make deps' installs glmark2-drm)", GLMARK2);
	nvt_watchdog(WATCHDOG_S, "test_glmark2_a_gl_client_and_x_at_once_on_vram_32");
	if (nvt_x_start(&x, d->sock, NULL) < 0)
		fail_msg("Xorg did not start on nvd");
	NVT_OK(nvt_glprog_start(&p, gldir, at.nvd_run, d->sock, tmp, "gl-textures",
				(const char *const[]){ "--renderer", "NV43", "--textures", "3",
						       "--timeout", "180", NULL }));
	snprintf(gout, sizeof(gout), "%s/glmark2.out", tmp);
	const char *const argv[] = {
		at.nvd_run, "--socket", d->sock, GLMARK2, "--off-screen", "--winsys-options",
		"drm-device=/dev/dri/card0", "-b", "build:duration=1", "-b", "texture:duration=1",
		NULL,
	};
	pid_t g = nvt_spawn_gl(argv, 0, gout);
	if (g < 0)
		fail_msg("starting glmark2: %s", strerror((int)-g));
	glmark2_passed(gout, nvt_wait_child(g, PROG_WAIT_MS));
	if (nvt_glprog_pass(&p, "NV43", PROG_WAIT_MS) < 0)
		fail_msg("%s did not pass (its output above)", p.what);
	end_beside_x(d, "16.5 MiB");
}

int main(void)
{
	if (getuid() != 0) {
		printf("not root: Xorg takes -config and -modulepath only from root; skipped\n");
		return 0;
	}
	if (nvt_paths(&at, "../../bin") < 0) {
		fprintf(stderr, "test_x_memory: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	snprintf(gldir, sizeof(gldir), "%s/../gl", at.dir);
	if (nvt_glprog_outdir(tmp, "xmem") < 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate_setup_teardown(
			test_scanout_stays_while_gl_clients_overfill_vram, nvt_setup,
			x_teardown, (void *)small_card),
		cmocka_unit_test_prestate_setup_teardown(
			test_glmark2_a_gl_client_and_x_at_once_on_vram_32, nvt_setup, x_teardown,
			(void *)card_32),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	nvt_glprog_outdir_remove(tmp);
	return r;
}
