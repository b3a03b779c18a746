/* GL in X windows through DRI2: the distribution's Mesa nouveau driver,
 * under nvd-run, renders directly into buffers our driver hands it and
 * nvd_drv.so copies them to the screen at SwapBuffers.  gl-scenes --window
 * draws a golden scene in a window; the test reads the screen (xwd -root,
 * and nvd's picture of the head) and compares the window with the same
 * scene llvmpipe renders offscreen, as the golden suite does: 99.5% of
 * the pixels within +-2 per channel.  Several clients and the server draw
 * at once; windows move, resize and are covered; a GL client is killed.
 * Swaps follow the vblanks of the head that shows the window (Mesa's
 * default swap interval 1, glXSwapIntervalMESA, vblank_mode=0 unthrottled),
 * as glXGetSyncValuesOML and glXWaitForMscOML count them; the other tests
 * run unthrottled.  Each test starts its own nvd and Xorg.  Needs root
 * (Xorg's -config and -modulepath); skipped otherwise.
 *
 * Window sizes are not powers of two, as glxgears' 300x300: Mesa's nv30
 * drops the depth buffer when its private one is swizzled (a power-of-two
 * size) and the DRI2 colour buffer linear ("Mismatched color and zeta
 * formats, ignoring zeta", nv30_set_framebuffer_state), so a 256x256
 * window draws its gears without depth test, on a real NV4x as here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "tests/lib/nvt-img.h"
#include "tests/lib/nvt-test.h"
#include "tests/lib/nvt-x.h"

#define DR_TOL      2          /* per channel, as the golden suite */
#define DR_MAX_OVER 0.005      /* share of pixels allowed over DR_TOL */
#define DR_SHOWN_MS (90 * 1000)

struct dfix {
	struct nvt_daemon d;
	struct nvt_x x;
	struct nvt_paths p;
	char scenes[PATH_MAX + 16];    /* BUILD/tests/gl/gl-scenes */
	char tmp[64];
	struct nvc *c;
};

static int dfix_setup(void **state)
{
	*state = NULL;
	if (getuid() != 0)
		return 0;
	struct dfix *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
	snprintf(f->tmp, sizeof(f->tmp), "/tmp/nvt-dri2-XXXXXX");
	if (nvt_paths(&f->p, "../../bin") < 0 || !mkdtemp(f->tmp) ||
	    nvt_daemon_start(&f->d, NULL) < 0)
		goto fail;
	snprintf(f->scenes, sizeof(f->scenes), "%s/../gl/gl-scenes", f->p.dir);
	if (nvc_connect(f->d.sock, "test_dri2", &f->c) < 0 || nvt_x_start(&f->x, f->d.sock, NULL) < 0)
		goto fail;
	static const char *const black[] = { "xsetroot", "-solid", "black", NULL };
	if (nvt_x_run(&f->x, black, NULL, NULL) != 0 || nvt_x_hide_root_cursor(&f->x) < 0)
		goto fail;
	*state = f;
	return 0;
fail:
	if (f->c)
		nvc_close(f->c);
	nvt_x_cleanup(&f->x);
	nvt_daemon_cleanup(&f->d);
	free(f);
	return -1;
}

static int dfix_teardown(void **state)
{
	struct dfix *f = *state;
	int r = 0;
	if (f) {
		nvt_x_cleanup(&f->x);
		if (f->c)
			nvc_close(f->c);
		r = nvt_daemon_finish(&f->d);
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", f->tmp);
		if (system(cmd) != 0)
			fprintf(stderr, "test_dri2: could not remove %s\n", f->tmp);
		free(f);
	}
	alarm(0);
	return r;
}

static struct dfix *fixture(void **state)
{
	if (!*state) {
		printf("not root: Xorg takes -config and -modulepath only from root; skipped\n");
		skip();
	}
	return *state;
}

/* ---- GL clients in windows ---- */

struct glwin {
	pid_t pid;                 /* leads its process group */
	int in;                    /* its stdin: closing it ends the client */
	char out[128];             /* its stdout and stderr */
	const char *scene;
	int x, y, w, h;            /* where the scene ends up */
};

/* gl-scenes --window under nvd-run on the test's X: the scene at (x, y),
 * w x h, `extra` options after (NULL-terminated, may be NULL), Mesa's
 * vblank_mode set to `vblank_mode` (NULL: unset, Mesa's default swap
 * interval 1). */
static void glwin_start_vblank(struct dfix *f, struct glwin *g, const char *scene, int x, int y,
			       int w, int h, const char *const *extra, const char *vblank_mode)
{
	char pos[32], size[32];
	const char *argv[32] = { f->p.nvd_run, "--socket", f->d.sock, f->scenes, "--scene", scene,
				 "--window", pos, "--size", size, "--timeout", "120" };
	unsigned n = 12;
	int pfd[2];

	snprintf(pos, sizeof(pos), "%d,%d", x, y);
	snprintf(size, sizeof(size), "%dx%d", w, h);
	for (unsigned i = 0; extra && extra[i] && n < 31; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;
	*g = (struct glwin){ .scene = scene, .x = x, .y = y, .w = w, .h = h };
	snprintf(g->out, sizeof(g->out), "%s/%s-%d-%d.out", f->tmp, scene, x, y);
	assert_int_equal(pipe2(pfd, O_CLOEXEC), 0);
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	g->pid = fork();
	assert_true(g->pid >= 0);
	if (g->pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		signal(SIGALRM, SIG_DFL);
		int fd = open(g->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			_exit(127);
		dup2(pfd[0], 0);
		dup2(fd, 1);
		dup2(fd, 2);
		setenv("DISPLAY", f->x.name, 1);
		unsetenv("LIBGL_ALWAYS_SOFTWARE");
		if (vblank_mode)
			setenv("vblank_mode", vblank_mode, 1);
		else
			unsetenv("vblank_mode");
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	setpgid(g->pid, g->pid);
	close(pfd[0]);
	g->in = pfd[1];
}

/* The same unthrottled (vblank_mode=0: swap interval 0), as the tests
 * that do not look at vblanks want: their frames go as fast as they draw. */
static void glwin_start(struct dfix *f, struct glwin *g, const char *scene, int x, int y, int w,
			int h, const char *const *extra)
{
	glwin_start_vblank(f, g, scene, x, y, w, h, extra, "0");
}

static void glwin_dump(const struct glwin *g)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "sed 's/^/#   /' %s", g->out);
	if (system(cmd) != 0)
		printf("#   (no output)\n");
}

/* Until the client says "shown" (and was direct, on the NV4x). */
static void glwin_shown(struct dfix *f, struct glwin *g)
{
	for (unsigned ms = 0; ms < DR_SHOWN_MS; ms += 20) {
		int code;
		if (nvt_file_contains(g->out, "shown")) {
			if (!nvt_file_contains(g->out, "renderer: NV4") ||
			    !nvt_file_contains(g->out, "direct: yes")) {
				glwin_dump(g);
				fail_msg("%s: not rendered directly by the NV4x", g->scene);
			}
			return;
		}
		if (nvt_child_done(g->pid, &code)) {
			glwin_dump(g);
			nvt_x_print_log(&f->x);
			fail_msg("%s in a window exited with %d before showing it", g->scene, code);
		}
		nvt_sleep_ms(20);
	}
	glwin_dump(g);
	fail_msg("%s: nothing shown in %u s", g->scene, DR_SHOWN_MS / 1000);
}

/* Close its stdin: it must end cleanly. */
static void glwin_end(struct glwin *g)
{
	close(g->in);
	int code = nvt_wait_child(g->pid, 20000);
	if (code != 0) {
		glwin_dump(g);
		fail_msg("%s in a window exited with %d", g->scene, code);
	}
}

/* ---- references and comparisons ---- */

/* The scene at w x h on llvmpipe, offscreen: RGB, top row first. */
static uint8_t *reference(struct dfix *f, const char *scene, int w, int h)
{
	char raw[128], out[128], size[32];
	snprintf(raw, sizeof(raw), "%s/ref-%s-%dx%d.raw", f->tmp, scene, w, h);
	snprintf(out, sizeof(out), "%s/ref-%s.out", f->tmp, scene);
	snprintf(size, sizeof(size), "%dx%d", w, h);
	const char *argv[] = { f->scenes, "--scene", scene, "--size", size, "--out", raw,
			       "--renderer", "llvmpipe", NULL };
	pid_t pid = nvt_spawn_gl(argv, 1, out);
	assert_true(pid > 0);
	int code = nvt_wait_child(pid, 60000);
	if (code != 0)
		fail_msg("%s on llvmpipe exited with %d", scene, code);
	size_t n = (size_t)w * h;
	uint8_t *rgba = malloc(n * 4), *rgb = malloc(n * 3);
	FILE *fp = fopen(raw, "rb");
	assert_true(rgba && rgb && fp);
	assert_int_equal(fread(rgba, 1, n * 4, fp), n * 4);
	fclose(fp);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			memcpy(rgb + ((size_t)y * w + x) * 3, rgba + ((size_t)(h - 1 - y) * w + x) * 4, 3);
	free(rgba);
	return rgb;
}

/* The w x h area at (x0, y0) of an XRGB picture as RGB. */
static uint8_t *area_rgb(const uint32_t *img, unsigned iw, int x0, int y0, int w, int h)
{
	uint8_t *rgb = malloc((size_t)w * h * 3);
	assert_non_null(rgb);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t p = img[(size_t)(y0 + y) * iw + (unsigned)(x0 + x)];
			uint8_t *q = rgb + ((size_t)y * w + x) * 3;
			q[0] = p >> 16;
			q[1] = p >> 8;
			q[2] = p;
		}
	return rgb;
}

/* The window's area of the screen against llvmpipe's rendering. */
static void window_matches(struct dfix *f, const struct glwin *g, const uint32_t *img,
			   unsigned iw, const char *what)
{
	uint8_t *ref = reference(f, g->scene, g->w, g->h);
	uint8_t *got = area_rgb(img, iw, g->x, g->y, g->w, g->h);
	struct nvt_img_diff d;
	nvt_img_compare(got, ref, (unsigned)g->w, (unsigned)g->h, 3, DR_TOL, &d);
	unsigned drawn = 0;
	for (int i = 1; i < g->w * g->h; i++)
		drawn += memcmp(ref, ref + i * 3, 3) != 0;
	double share = (double)d.over / (g->w * g->h);
	printf("# %s (%s, %dx%d at %d,%d): worst difference %u at (%u,%u), %u pixels over +-%d "
	       "(%.3f%%)\n",
	       what, g->scene, g->w, g->h, g->x, g->y, d.worst, d.wx, d.wy, d.over, DR_TOL,
	       share * 100);
	free(ref);
	free(got);
	if (drawn < 64)
		fail_msg("%s: llvmpipe's %s is (almost) one colour: nothing to compare", what,
			 g->scene);
	if (share > DR_MAX_OVER)
		fail_msg("%s: %.3f%% of the window differs from llvmpipe by more than %d", what,
			 share * 100, DR_TOL);
}

static void screenshot(struct dfix *f, uint32_t **img, unsigned *w, unsigned *h)
{
	if (nvt_x_screenshot(&f->x, img, w, h) < 0)
		fail_msg("xwd -root failed on %s", f->x.name);
}

/* What head 0 scans out equals X's picture of the same place. */
static void head0_matches(struct dfix *f, const uint32_t *img, unsigned iw, unsigned ih,
			  const struct glwin *g)
{
	uint32_t *px, hw, hh;
	NVT_OK(nvc_disp_screenshot(f->c, 0, &px, &hw, &hh));
	uint32_t *sub = malloc((size_t)g->w * g->h * 4);
	assert_non_null(sub);
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++)
			sub[(size_t)y * g->w + x] = px[(size_t)(g->y + y) * hw + (unsigned)(g->x + x)];
	unsigned n = nvt_x_cmp_area(img, iw, ih, (unsigned)g->x, (unsigned)g->y, sub,
				    (unsigned)g->w, (unsigned)g->h, "head 0 against xwd");
	free(sub);
	free(px);
	if (n)
		fail_msg("head 0 does not show what X says is there (%u pixels)", n);
}

/* nvd refused nothing of anyone's. */
static void nothing_refused(struct dfix *f)
{
	struct nvc_status st;
	NVT_OK(nvc_status(f->c, &st));
	if (st.refused) {
		nvt_daemon_print_log(&f->d);
		fail_msg("nvd refused %llu submission(s)", (unsigned long long)st.refused);
	}
}

/* ---- the tests ---- */

static void test_glxinfo_says_direct_rendering_on_the_nv4x(void **state)
{
	struct dfix *f = fixture(state);
	const char *argv[] = { f->p.nvd_run, "--socket", f->d.sock, "glxinfo", "-B", NULL };
	char *out = NULL;
	int r = nvt_x_run(&f->x, argv, &out, NULL);
	printf("%s", out ? out : "");
	if (r != 0)
		fail_msg("glxinfo -B under nvd-run exited with %d", r);
	assert_non_null(strstr(out, "direct rendering: Yes"));
	assert_non_null(strstr(out, "OpenGL renderer string: NV4"));
	free(out);
	assert_true(nvt_x_log_contains(&f->x, "DRI2: direct rendering through nvd"));
}

static void test_gears_in_a_window_match_llvmpipe(void **state)
{
	struct dfix *f = fixture(state);
	struct glwin g;
	static const char *const frames[] = { "--frames", "3", NULL };
	uint32_t *img;
	unsigned w, h;

	glwin_start(f, &g, "glxgears", 40, 30, 250, 250, frames);
	glwin_shown(f, &g);
	screenshot(f, &img, &w, &h);
	window_matches(f, &g, img, w, "after 3 swaps");
	head0_matches(f, img, w, h, &g);
	free(img);
	glwin_end(&g);
	nothing_refused(f);
}

/* Two GL clients swapping 20 frames each and an X client drawing, all at
 * once: each window is its scene, and what the X client drew equals its
 * drawing on Xvfb. */
static void test_two_gl_clients_and_the_server_draw_at_once(void **state)
{
	struct dfix *f = fixture(state);
	struct glwin a, b;
	struct nvt_x xvfb = { 0 };
	static const char *const frames[] = { "--frames", "20", NULL };
	const char *draw[] = { NULL, "--scene", "fill", "--size", "640x480", NULL };
	char xdraw[PATH_MAX + 16];
	uint32_t *img, *ref;
	unsigned w, h, rw, rh;

	snprintf(xdraw, sizeof(xdraw), "%s/x-draw", f->p.dir);
	draw[0] = xdraw;
	glwin_start(f, &a, "glxgears", 700, 40, 250, 250, frames);
	glwin_start(f, &b, "lighting", 1000, 60, 200, 200, frames);
	int r = nvt_x_run(&f->x, draw, NULL, NULL);
	if (r != 0)
		fail_msg("x-draw on our X exited with %d", r);
	glwin_shown(f, &a);
	glwin_shown(f, &b);
	screenshot(f, &img, &w, &h);
	window_matches(f, &a, img, w, "first of two clients");
	window_matches(f, &b, img, w, "second of two clients");
	glwin_end(&a);
	glwin_end(&b);

	NVT_OK(nvt_xvfb_start(&xvfb, "1024x768x24", NULL));
	r = nvt_x_run(&xvfb, draw, NULL, NULL);
	if (r != 0 || nvt_x_screenshot(&xvfb, &ref, &rw, &rh) < 0)
		fail_msg("x-draw on Xvfb failed (%d)", r);
	nvt_x_cleanup(&xvfb);
	uint32_t *sub = malloc(640 * 480 * 4);
	assert_non_null(sub);
	for (unsigned y = 0; y < 480; y++)
		memcpy(sub + y * 640, ref + (size_t)y * rw, 640 * 4);
	unsigned n = nvt_x_cmp_area(img, w, h, 0, 0, sub, 640, 480, "x-draw fill, ours against Xvfb");
	free(sub);
	free(ref);
	free(img);
	if (n)
		fail_msg("what the X client drew beside the GL clients differs from Xvfb's (%u pixels)",
			 n);
	nothing_refused(f);
}

/* A window drawn, then moved and resized and drawn again, under a plain
 * window: the GL pixels are where the window is now, at its new size,
 * and never over the window above it. */
static void test_moved_resized_and_covered_window(void **state)
{
	struct dfix *f = fixture(state);
	struct glwin g;
	static const char *const opts[] = { "--move", "300,200,320,240", "--cover",
					    "350,250,100,80", NULL };
	uint32_t *img;
	unsigned w, h;

	glwin_start(f, &g, "glxgears", 40, 30, 200, 150, opts);
	glwin_shown(f, &g);
	screenshot(f, &img, &w, &h);
	/* the cover: exactly its colour */
	unsigned wrong = 0;
	for (unsigned y = 250; y < 330; y++)
		for (unsigned x = 350; x < 450; x++)
			wrong += (img[y * w + x] & 0xffffff) != 0x40c0a0;
	if (wrong)
		fail_msg("%u pixels of the window above the GL window are not its colour", wrong);
	/* where the window was: the root's black again */
	unsigned left = 0;
	for (unsigned y = 30; y < 180; y++)
		for (unsigned x = 40; x < 240; x++)
			left += (img[y * w + x] & 0xffffff) != 0;
	if (left)
		fail_msg("%u pixels left where the window was before it moved", left);
	/* the window outside the cover: the scene at 320x240 (the cover's
	 * pixels, checked above, are replaced by the reference's) */
	uint8_t *ref = reference(f, "glxgears", 320, 240);
	for (unsigned y = 250; y < 330; y++)
		for (unsigned x = 350; x < 450; x++) {
			const uint8_t *p = ref + ((size_t)(y - 200) * 320 + (x - 300)) * 3;
			img[y * w + x] = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
		}
	free(ref);
	g.x = 300, g.y = 200, g.w = 320, g.h = 240;
	window_matches(f, &g, img, w, "moved, resized and covered");
	free(img);
	glwin_end(&g);
	nothing_refused(f);
}

/* SIGKILL of a GL client in the middle of its frames: X, nvd and another
 * GL client carry on; nvd gives back all the killed client held. */
static void test_killing_a_gl_client_leaves_the_others(void **state)
{
	struct dfix *f = fixture(state);
	struct glwin busy, calm, after;
	static const char *const forever[] = { "--frames", "100000", NULL };
	struct nvc_status before, st;
	uint32_t *img;
	unsigned w, h;

	glwin_start(f, &calm, "lighting", 600, 100, 200, 200, NULL);
	glwin_shown(f, &calm);
	NVT_OK(nvc_status(f->c, &before));
	glwin_start(f, &busy, "glxgears", 100, 100, 250, 250, forever);
	/* until it has drawn a while */
	for (unsigned i = 0; i < 500; i++) {
		NVT_OK(nvc_status(f->c, &st));
		if (st.clients > before.clients && st.submits > before.submits + 100)
			break;
		nvt_sleep_ms(20);
	}
	if (st.submits <= before.submits + 100)
		fail_msg("the busy client did not get going");
	kill(-busy.pid, SIGKILL);
	int code = nvt_wait_child(busy.pid, 10000);
	assert_int_equal(code, 128 + SIGKILL);
	close(busy.in);
	for (unsigned i = 0; i < 250; i++) {
		NVT_OK(nvc_status(f->c, &st));
		if (st.clients == before.clients && st.bos == before.bos)
			break;
		nvt_sleep_ms(20);
	}
	printf("# before: %u clients, %u buffers; after the kill: %u clients, %u buffers\n",
	       before.clients, before.bos, st.clients, st.bos);
	assert_int_equal(st.clients, before.clients);
	assert_int_equal(st.bos, before.bos);
	assert_true(nvt_x_alive(&f->x));
	glwin_start(f, &after, "glxgears", 100, 100, 250, 250, NULL);
	glwin_shown(f, &after);
	screenshot(f, &img, &w, &h);
	window_matches(f, &calm, img, w, "the client that was not killed");
	window_matches(f, &after, img, w, "a new client after the kill");
	free(img);
	glwin_end(&after);
	glwin_end(&calm);
	nothing_refused(f);
}

/* SIGKILL of the X server while a GL client animates in it: the client
 * goes with its display, nvd gives back everything both held, and a new
 * X server on the same nvd renders GL again. */
static void test_killing_x_under_a_gl_client(void **state)
{
	struct dfix *f = fixture(state);
	struct glwin busy, again;
	static const char *const forever[] = { "--frames", "100000", NULL };
	struct nvc_status alone, st;
	uint32_t *img;
	unsigned w, h;

	NVT_OK(nvc_status(f->c, &st));
	glwin_start(f, &busy, "glxgears", 100, 100, 250, 250, forever);
	for (unsigned i = 0; i < 500 && st.clients < 3; i++) {
		nvt_sleep_ms(20);
		NVT_OK(nvc_status(f->c, &st));
	}
	nvt_x_kill(&f->x);
	int code = nvt_wait_child(busy.pid, 20000);
	close(busy.in);
	printf("# the GL client ended with %d when its X server was killed\n", code);
	if (code == 0 || code == -ETIMEDOUT)
		fail_msg("the GL client did not notice its X server go (%d)", code);
	for (unsigned i = 0; i < 250; i++) {
		NVT_OK(nvc_status(f->c, &alone));
		if (alone.clients == 1 && alone.bos == 0)
			break;
		nvt_sleep_ms(20);
	}
	if (alone.clients != 1 || alone.bos || alone.vram_client || alone.gart_client)
		fail_msg("nvd still holds %u clients, %u buffers after X and its client died",
			 alone.clients, alone.bos);
	nvt_x_cleanup(&f->x);
	memset(&f->x, 0, sizeof(f->x));
	if (nvt_x_start(&f->x, f->d.sock, NULL) < 0)
		fail_msg("a new X server does not start on the same nvd");
	static const char *const black[] = { "xsetroot", "-solid", "black", NULL };
	assert_int_equal(nvt_x_run(&f->x, black, NULL, NULL), 0);
	glwin_start(f, &again, "glxgears", 100, 100, 250, 250, NULL);
	glwin_shown(f, &again);
	screenshot(f, &img, &w, &h);
	window_matches(f, &again, img, w, "in the new X server");
	free(img);
	glwin_end(&again);
}

/* ---- swaps on the heads' vblanks (GLX_OML_sync_control) ---- */

struct oml {
	long long before_msc, after_msc, after_sbc, wait_target, wait_msc;
};

/* gl-scenes --oml's lines from the client's output: 0, or -1 when one is
 * missing (waited for lines come after "shown"'s check). */
static int glwin_oml(const struct glwin *g, struct oml *o, int want_wait)
{
	FILE *fp = fopen(g->out, "r");
	char line[256];
	long long ust, sbc;
	int got = 0;
	if (!fp)
		return -1;
	*o = (struct oml){ -1, -1, -1, -1, -1 };
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "oml before: ust %lld msc %lld sbc %lld", &ust, &o->before_msc,
			   &sbc) == 3)
			got |= 1;
		else if (sscanf(line, "oml after: ust %lld msc %lld sbc %lld", &ust, &o->after_msc,
				&o->after_sbc) == 3)
			got |= 2;
		else if (sscanf(line, "oml wait: target %lld msc %lld", &o->wait_target,
				&o->wait_msc) == 2)
			got |= 4;
	}
	fclose(fp);
	return got == (want_wait ? 7 : 3) ? 0 : -1;
}

/* N swaps at interval i take at least i * (N - 1) vblanks (the first may
 * go at once), and not many more on a busy machine: the bound is broad,
 * the test asserts counts, never speed. */
static void swaps_took(const struct glwin *g, const struct oml *o, unsigned swaps,
		       unsigned interval)
{
	long long took = o->after_msc - o->before_msc;
	long long least = (long long)interval * (swaps - 1);
	long long most = (long long)interval * swaps * 4 + 30;
	printf("# %s: %u swaps at interval %u: MSC %lld -> %lld (%lld vblanks, bounds %lld..%lld), "
	       "SBC %lld\n", g->scene, swaps, interval, o->before_msc, o->after_msc, took, least,
	       most, o->after_sbc);
	if (o->after_sbc != (long long)swaps)
		fail_msg("%s: SBC %lld after %u swaps", g->scene, o->after_sbc, swaps);
	if (took < least || took > most)
		fail_msg("%s: %u swaps at interval %u took %lld vblanks, not %lld..%lld", g->scene,
			 swaps, interval, took, least, most);
}

/* Mesa's default swap interval (1) and glXSwapIntervalMESA(2): each swap
 * waits for its vblank on the head that shows the window, as GLX's
 * glXGetSyncValuesOML counts them; glXWaitForMscOML returns at the MSC
 * asked for; the windows show their scenes. */
static void test_swaps_wait_for_the_heads_vblanks(void **state)
{
	struct dfix *f = fixture(state);
	struct glwin a, b;
	struct oml oa, ob;
	static const char *const one[] = { "--frames", "30", "--oml", "--wait-msc", "3", NULL };
	static const char *const two[] = { "--frames", "12", "--oml", "--swap-interval", "2",
					   NULL };
	uint32_t *img;
	unsigned w, h;

	glwin_start_vblank(f, &a, "glxgears", 40, 30, 250, 250, one, NULL);
	glwin_start_vblank(f, &b, "lighting", 400, 60, 200, 200, two, NULL);
	glwin_shown(f, &a);
	glwin_shown(f, &b);
	if (glwin_oml(&a, &oa, 1) < 0 || glwin_oml(&b, &ob, 0) < 0) {
		glwin_dump(&a);
		glwin_dump(&b);
		fail_msg("no GLX_OML_sync_control values from the clients");
	}
	swaps_took(&a, &oa, 30, 1);
	swaps_took(&b, &ob, 12, 2);
	printf("# glXWaitForMscOML(%lld) returned at MSC %lld\n", oa.wait_target, oa.wait_msc);
	assert_true(oa.wait_target == oa.after_msc + 3);
	if (oa.wait_msc < oa.wait_target || oa.wait_msc > oa.wait_target + 30)
		fail_msg("glXWaitForMscOML(%lld) returned at MSC %lld", oa.wait_target, oa.wait_msc);
	screenshot(f, &img, &w, &h);
	window_matches(f, &a, img, w, "after 30 swaps on vblanks");
	window_matches(f, &b, img, w, "after 12 swaps at interval 2");
	free(img);
	glwin_end(&a);
	glwin_end(&b);
	nothing_refused(f);
}

/* vblank_mode=0 (interval 0): swaps are not throttled, 60 of them pass in
 * far fewer vblanks; the window shows its scene. */
static void test_swaps_with_vblank_mode_0_are_not_throttled(void **state)
{
	struct dfix *f = fixture(state);
	struct glwin g;
	struct oml o;
	static const char *const opts[] = { "--frames", "60", "--oml", NULL };
	uint32_t *img;
	unsigned w, h;

	glwin_start_vblank(f, &g, "glxgears", 40, 30, 250, 250, opts, "0");
	glwin_shown(f, &g);
	if (glwin_oml(&g, &o, 0) < 0) {
		glwin_dump(&g);
		fail_msg("no GLX_OML_sync_control values from the client");
	}
	long long took = o.after_msc - o.before_msc;
	printf("# 60 swaps with vblank_mode=0: MSC %lld -> %lld (%lld vblanks), SBC %lld\n",
	       o.before_msc, o.after_msc, took, o.after_sbc);
	assert_true(o.after_sbc == 60);
	if (took < 0 || took >= 30)
		fail_msg("60 unthrottled swaps took %lld vblanks", took);
	screenshot(f, &img, &w, &h);
	window_matches(f, &g, img, w, "after 60 unthrottled swaps");
	free(img);
	glwin_end(&g);
	nothing_refused(f);
}

/* Until the client's output holds text (20 s). */
static void glwin_until(struct glwin *g, const char *text)
{
	for (unsigned ms = 0; ms < 20000; ms += 20) {
		if (nvt_file_contains(g->out, text))
			return;
		nvt_sleep_ms(20);
	}
	glwin_dump(g);
	fail_msg("%s: no \"%s\" in 20 s", g->scene, text);
}

/* SIGKILL of clients while a swap (interval 30) and an MSC wait (60 ahead)
 * wait for their vblanks: the window goes before the vblank comes; the
 * server lets the vblank pass without it and carries on, and a new client
 * swaps on vblanks again. */
static void test_killing_clients_with_pending_swaps_and_waits(void **state)
{
	struct dfix *f = fixture(state);
	struct glwin swapper, waiter, after;
	struct oml o;
	static const char *const slow[] = { "--frames", "1000", "--oml", "--swap-interval", "30",
					    NULL };
	static const char *const wait[] = { "--frames", "2", "--oml", "--wait-msc", "60", NULL };
	static const char *const again[] = { "--frames", "5", "--oml", NULL };
	uint32_t *img;
	unsigned w, h;

	glwin_start_vblank(f, &swapper, "glxgears", 40, 30, 250, 250, slow, NULL);
	glwin_start_vblank(f, &waiter, "lighting", 400, 60, 200, 200, wait, NULL);
	glwin_until(&swapper, "oml before");
	glwin_until(&waiter, "oml after");
	nvt_sleep_ms(300);       /* a swap and the wait are queued on vblanks now */
	kill(-swapper.pid, SIGKILL);
	kill(-waiter.pid, SIGKILL);
	assert_int_equal(nvt_wait_child(swapper.pid, 10000), 128 + SIGKILL);
	assert_int_equal(nvt_wait_child(waiter.pid, 10000), 128 + SIGKILL);
	close(swapper.in);
	close(waiter.in);
	nvt_sleep_ms(1500);      /* past both vblanks */
	assert_true(nvt_x_alive(&f->x));
	glwin_start_vblank(f, &after, "glxgears", 40, 30, 250, 250, again, NULL);
	glwin_shown(f, &after);
	if (glwin_oml(&after, &o, 0) < 0) {
		glwin_dump(&after);
		fail_msg("no GLX_OML_sync_control values from the new client");
	}
	swaps_took(&after, &o, 5, 1);
	screenshot(f, &img, &w, &h);
	window_matches(f, &after, img, w, "a new client after the kills");
	free(img);
	glwin_end(&after);
	assert_true(nvt_x_alive(&f->x));
	nothing_refused(f);
}

#define DTEST(fn) cmocka_unit_test_setup_teardown(fn, dfix_setup, dfix_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		DTEST(test_glxinfo_says_direct_rendering_on_the_nv4x),
		DTEST(test_gears_in_a_window_match_llvmpipe),
		DTEST(test_two_gl_clients_and_the_server_draw_at_once),
		DTEST(test_moved_resized_and_covered_window),
		DTEST(test_killing_a_gl_client_leaves_the_others),
		DTEST(test_killing_x_under_a_gl_client),
		DTEST(test_swaps_wait_for_the_heads_vblanks),
		DTEST(test_swaps_with_vblank_mode_0_are_not_throttled),
		DTEST(test_killing_clients_with_pending_swaps_and_waits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
