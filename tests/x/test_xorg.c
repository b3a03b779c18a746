/* Xorg on nvd (nvd-x, nvd_drv.so), checked from both sides: what X clients
 * see (xdpyinfo, xrandr, xwd) against what nvd says through a connection of
 * the test's own (outputs, modes, heads, screenshots, clients, memory).
 * Each test starts a fresh nvd and X; X must stop cleanly on SIGTERM and
 * leave nothing behind in nvd.  Needs root (Xorg takes -config and
 * -modulepath with a path only from root); skipped otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sys/wait.h>

#include "tests/lib/nvt-test.h"
#include "tests/lib/nvt-x.h"

struct xfix {
	struct nvt_daemon d;
	struct nvt_x x;
	struct nvc *c;             /* the test's connection to nvd */
	struct nvc_status before;  /* nvd's figures before X started */
};

static int xfix_setup(void **state)
{
	*state = NULL;
	if (getuid() != 0)
		return 0;
	struct xfix *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
	if (nvt_daemon_start(&f->d, NULL) < 0)
		goto fail;
	if (nvc_connect(f->d.sock, "test_xorg", &f->c) < 0) {
		fprintf(stderr, "test_xorg: connect: %s\n", nvc_error());
		goto fail;
	}
	if (nvc_status(f->c, &f->before) < 0 || nvt_x_start(&f->x, f->d.sock, NULL) < 0)
		goto fail;
	*state = f;
	return 0;
fail:
	if (f->c)
		nvc_close(f->c);
	nvt_daemon_cleanup(&f->d);
	free(f);
	return -1;
}

static int xfix_teardown(void **state)
{
	struct xfix *f = *state;
	int r = 0;
	if (f) {
		nvt_x_cleanup(&f->x);
		if (f->c)
			nvc_close(f->c);
		r = nvt_daemon_finish(&f->d);
		free(f);
	}
	alarm(0);
	return r;
}

static struct xfix *fixture(void **state)
{
	if (!*state) {
		printf("not root: Xorg takes -config and -modulepath only from root; skipped\n");
		skip();
	}
	return *state;
}

/* X stops cleanly, then nvd holds nothing of anyone and stops cleanly. */
static void xfix_end(struct xfix *f)
{
	if (nvt_x_stop(&f->x) < 0)
		fail_msg("Xorg did not stop cleanly on SIGTERM");
	nvc_close(f->c);
	f->c = NULL;
	nvt_end(&f->d);
}

static void xrun_ok(struct xfix *f, const char *const *argv)
{
	int r = nvt_x_run(&f->x, argv, NULL, NULL);
	if (r != 0) {
		nvt_x_print_log(&f->x);
		fail_msg("%s %s ... on %s: %d", argv[0], argv[1] ? argv[1] : "", f->x.name, r);
	}
}

static void xrandr_q(struct xfix *f, struct nvt_xrandr *r)
{
	if (nvt_x_xrandr(&f->x, r) < 0) {
		nvt_x_print_log(&f->x);
		fail_msg("xrandr -q failed on %s", f->x.name);
	}
}

static void dpyinfo(struct xfix *f, unsigned *w, unsigned *h)
{
	unsigned depth;
	if (nvt_x_dpyinfo(&f->x, w, h, &depth) < 0)
		fail_msg("xdpyinfo failed on %s", f->x.name);
	if (depth != 24)
		fail_msg("xdpyinfo: root depth %u, expected 24", depth);
}

static const struct nvt_xrandr_output *xoutput(const struct nvt_xrandr *r, const char *name)
{
	const struct nvt_xrandr_output *o = nvt_xrandr_output(r, name);
	if (!o)
		fail_msg("xrandr lists no output %s", name);
	return o;
}

/* The screen is the box around what the outputs show, and X and nvd agree
 * on where each head is and what it shows. */
static void check_heads_match_xrandr(struct xfix *f, const struct nvt_xrandr *r)
{
	unsigned bw = 0, bh = 0, dw, dh;
	for (unsigned i = 0; i < NVC_DISP_OUTPUTS; i++) {
		struct nvc_output o;
		struct nvc_head h;
		NVT_OK(nvc_disp_output(f->c, i, &o));
		NVT_OK(nvc_disp_head(f->c, o.head, &h));
		const struct nvt_xrandr_output *xo = xoutput(r, o.name);
		if (!xo->active) {
			if (h.fb)
				fail_msg("%s is off in xrandr, but head %u shows fb %u", o.name,
					 o.head, h.fb);
			printf("%s: off in xrandr and in nvd\n", o.name);
			continue;
		}
		printf("%s: xrandr %ux%u+%d+%d, nvd head %u fb %u %ux%u at (%u, %u)\n", o.name,
		       xo->w, xo->h, xo->x, xo->y, o.head, h.fb, h.mode.hdisplay,
		       h.mode.vdisplay, h.x, h.y);
		if (!h.fb || h.mode.hdisplay != xo->w || h.mode.vdisplay != xo->h ||
		    (int)h.x != xo->x || (int)h.y != xo->y || !(h.outputs & (1u << i)))
			fail_msg("%s: nvd's head %u does not show what xrandr says", o.name,
				 o.head);
		bw = xo->x + xo->w > bw ? xo->x + xo->w : bw;
		bh = xo->y + xo->h > bh ? xo->y + xo->h : bh;
	}
	dpyinfo(f, &dw, &dh);
	printf("screen: xrandr %ux%u, xdpyinfo %ux%u, outputs within %ux%u\n", r->screen_w,
	       r->screen_h, dw, dh, bw, bh);
	assert_int_equal(dw, r->screen_w);
	assert_int_equal(dh, r->screen_h);
	assert_int_equal(r->screen_w, bw);
	assert_int_equal(r->screen_h, bh);
}

static void test_xrandr_lists_nvds_outputs_and_modes(void **state)
{
	struct xfix *f = fixture(state);
	struct nvt_xrandr r;

	xrandr_q(f, &r);
	for (unsigned i = 0; i < NVC_DISP_OUTPUTS; i++) {
		struct nvc_output o;
		struct nvc_mode m;
		NVT_OK(nvc_disp_output(f->c, i, &o));
		const struct nvt_xrandr_output *xo = xoutput(&r, o.name);
		if (!o.connected || !xo->connected)
			fail_msg("%s: connected %u in nvd, %d in xrandr", o.name, o.connected,
				 xo->connected);
		/* the sizes as a set: xrandr lists each size once */
		unsigned sizes = 0, pw = 0, ph = 0;
		uint32_t seen[64];
		for (unsigned k = 0; k < o.nmodes; k++) {
			NVT_OK(nvc_disp_mode(f->c, i, k, &m));
			uint32_t key = (uint32_t)m.hdisplay << 16 | m.vdisplay;
			unsigned j = 0;
			while (j < sizes && seen[j] != key)
				j++;
			if (j == sizes && sizes < 64)
				seen[sizes++] = key;
			if (m.preferred && !pw) {
				pw = m.hdisplay;
				ph = m.vdisplay;
			}
			const struct nvt_xrandr_mode *xm = NULL;
			for (unsigned n = 0; n < xo->nmodes; n++)
				if (xo->modes[n].w == m.hdisplay && xo->modes[n].h == m.vdisplay)
					xm = &xo->modes[n];
			if (!xm)
				fail_msg("%s: nvd's mode %ux%u is not in xrandr's list", o.name,
					 m.hdisplay, m.vdisplay);
		}
		if (xo->nmodes != sizes)
			fail_msg("%s: xrandr lists %u sizes, nvd %u", o.name, xo->nmodes, sizes);
		unsigned npref = 0;
		for (unsigned n = 0; n < xo->nmodes; n++)
			if (xo->modes[n].preferred) {
				npref++;
				if (xo->modes[n].w != pw || xo->modes[n].h != ph)
					fail_msg("%s: xrandr prefers %ux%u, nvd %ux%u", o.name,
						 xo->modes[n].w, xo->modes[n].h, pw, ph);
			}
		if (npref != 1)
			fail_msg("%s: xrandr marks %u sizes preferred", o.name, npref);
		printf("%s: connected, the same %u sizes in nvd and xrandr, %ux%u preferred in "
		       "both\n", o.name, sizes, pw, ph);
	}
	check_heads_match_xrandr(f, &r);
	xfix_end(f);
}

static void test_mode_switch_reaches_the_head(void **state)
{
	struct xfix *f = fixture(state);
	static const char *const to1024[] = { "xrandr", "--output", "VGA-0", "--mode", "1024x768",
					      NULL };
	struct nvt_xrandr r;
	struct nvc_head h;

	xrun_ok(f, to1024);
	NVT_OK(nvc_disp_head(f->c, 0, &h));
	printf("after xrandr --output VGA-0 --mode 1024x768: head 0 fb %u, %ux%u\n", h.fb,
	       h.mode.hdisplay, h.mode.vdisplay);
	assert_int_not_equal(h.fb, 0);
	assert_int_equal(h.mode.hdisplay, 1024);
	assert_int_equal(h.mode.vdisplay, 768);
	xrandr_q(f, &r);
	const struct nvt_xrandr_output *xo = xoutput(&r, "VGA-0");
	assert_true(xo->active && xo->w == 1024 && xo->h == 768);
	for (unsigned n = 0; n < xo->nmodes; n++)
		assert_int_equal(xo->modes[n].current, xo->modes[n].w == 1024 &&
						       xo->modes[n].h == 768);
	check_heads_match_xrandr(f, &r);
	xfix_end(f);
}

static void test_two_heads_side_by_side_share_the_screen(void **state)
{
	struct xfix *f = fixture(state);
	static const char *const layout[] = {
		"xrandr", "--output", "VGA-0", "--mode", "1280x1024", "--pos", "0x0",
		"--output", "VGA-1", "--mode", "1024x768", "--right-of", "VGA-0", NULL
	};
	struct nvt_xrandr r;
	struct nvc_head h0, h1;
	unsigned w, h;

	xrun_ok(f, layout);
	NVT_OK(nvc_disp_head(f->c, 0, &h0));
	NVT_OK(nvc_disp_head(f->c, 1, &h1));
	dpyinfo(f, &w, &h);
	printf("head 0: fb %u %ux%u at (%u, %u); head 1: fb %u %ux%u at (%u, %u); root %ux%u\n",
	       h0.fb, h0.mode.hdisplay, h0.mode.vdisplay, h0.x, h0.y, h1.fb, h1.mode.hdisplay,
	       h1.mode.vdisplay, h1.x, h1.y, w, h);
	assert_int_not_equal(h0.fb, 0);
	assert_int_equal(h1.fb, h0.fb);
	assert_int_equal(h0.x, 0);
	assert_int_equal(h0.y, 0);
	assert_int_equal(h0.mode.hdisplay, 1280);
	assert_int_equal(h0.mode.vdisplay, 1024);
	assert_int_equal(h1.x, 1280);
	assert_int_equal(h1.y, 0);
	assert_int_equal(h1.mode.hdisplay, 1024);
	assert_int_equal(h1.mode.vdisplay, 768);
	assert_int_equal(w, 2304);
	assert_int_equal(h, 1024);
	xrandr_q(f, &r);
	check_heads_match_xrandr(f, &r);
	xfix_end(f);
}

/* Each head shows its part of the root, pixel for pixel: a tile of odd
 * size in two colours whose bytes all differ, so an offset, a wrong pitch
 * or swapped channels all show.  The hardware cursor is in nvd's picture
 * and never in xwd's: the root's cursor is made transparent (the cursor
 * has its own test below). */
static void test_heads_show_the_root_window(void **state)
{
	struct xfix *f = fixture(state);
	struct nvt_x_tile t;
	uint32_t *root;
	unsigned rw, rh;

	nvt_x_tile_make(&t, 29, 17, 5, 0xe0a030, 0x1c4f86);
	NVT_OK(nvt_x_set_root_tile(&f->x, &t));
	NVT_OK(nvt_x_hide_root_cursor(&f->x));
	NVT_OK(nvt_x_screenshot(&f->x, &root, &rw, &rh));
	for (unsigned y = 0; y < rh; y++)
		for (unsigned x = 0; x < rw; x++)
			if (root[y * rw + x] != nvt_x_tile_pixel(&t, x, y))
				fail_msg("xwd: root (%u, %u) is %06x, the tile says %06x", x, y,
					 root[y * rw + x], nvt_x_tile_pixel(&t, x, y));
	printf("xwd -root: %ux%u, the tile repeated as drawn\n", rw, rh);
	unsigned shown = 0;
	for (unsigned head = 0; head < NVC_DISP_HEADS; head++) {
		struct nvc_head h;
		uint32_t *px, w, hh;
		char what[64];
		NVT_OK(nvc_disp_head(f->c, head, &h));
		if (!h.fb)
			continue;
		NVT_OK(nvc_disp_screenshot(f->c, head, &px, &w, &hh));
		snprintf(what, sizeof(what), "head %u against the root at (%u, %u)", head, h.x,
			 h.y);
		unsigned bad = nvt_x_cmp_area(root, rw, rh, h.x, h.y, px, w, hh, what);
		printf("head %u: nvd's screenshot %ux%u against xwd's root at (%u, %u): %u pixels "
		       "differ\n", head, w, hh, h.x, h.y, bad);
		free(px);
		if (bad)
			fail_msg("head %u does not show the root window", head);
		shown++;
	}
	free(root);
	assert_int_equal(shown, 2);
	xfix_end(f);
}

/* The hardware cursor is in what a head shows (nvd's screenshot) and not in
 * xwd's picture of the root: once X has a cursor to show (xsetroot gives
 * the root one), the two differ on the head the pointer is on, inside one
 * cursor-sized square, and nowhere else. */
static void test_hw_cursor_is_on_the_head_only(void **state)
{
	struct xfix *f = fixture(state);
	static const char *const arrow[] = { "xsetroot", "-cursor_name", "left_ptr", NULL };
	struct nvt_x_tile t;
	uint32_t *root;
	unsigned rw, rh, total = 0;

	nvt_x_tile_make(&t, 1, 1, 1, 0x102030, 0x102030);
	NVT_OK(nvt_x_set_root_tile(&f->x, &t));
	xrun_ok(f, arrow);
	NVT_OK(nvt_x_screenshot(&f->x, &root, &rw, &rh));
	for (unsigned head = 0; head < NVC_DISP_HEADS; head++) {
		struct nvc_head h;
		uint32_t *px, w, hh;
		NVT_OK(nvc_disp_head(f->c, head, &h));
		if (!h.fb)
			continue;
		NVT_OK(nvc_disp_screenshot(f->c, head, &px, &w, &hh));
		unsigned minx = w, miny = hh, maxx = 0, maxy = 0, bad = 0;
		for (unsigned y = 0; y < hh; y++)
			for (unsigned x = 0; x < w; x++) {
				if ((px[y * w + x] & 0xffffff) == root[(h.y + y) * rw + h.x + x])
					continue;
				bad++;
				minx = x < minx ? x : minx;
				miny = y < miny ? y : miny;
				maxx = x > maxx ? x : maxx;
				maxy = y > maxy ? y : maxy;
			}
		if (bad)
			printf("head %u: %u pixels differ from the root, inside (%u, %u)-(%u, %u), "
			       "the pointer at the root's centre (%u, %u)\n", head, bad, minx, miny,
			       maxx, maxy, rw / 2, rh / 2);
		else
			printf("head %u: the same as the root\n", head);
		if (bad && (maxx - minx >= NVC_CURSOR_SIZE || maxy - miny >= NVC_CURSOR_SIZE))
			fail_msg("head %u differs from the root beyond a %u-pixel cursor", head,
				 NVC_CURSOR_SIZE);
		/* X starts the pointer at the root's centre; the hot spot is
		 * somewhere in the cursor's square */
		int cx = (int)(rw / 2) - (int)h.x, cy = (int)(rh / 2) - (int)h.y;
		int on = cx >= 0 && cy >= 0 && cx < (int)w && cy < (int)hh;
		if (bad && (!on || (int)minx < cx - (NVC_CURSOR_SIZE - 1) ||
			    (int)maxx > cx + (NVC_CURSOR_SIZE - 1) ||
			    (int)miny < cy - (NVC_CURSOR_SIZE - 1) ||
			    (int)maxy > cy + (NVC_CURSOR_SIZE - 1)))
			fail_msg("head %u: the cursor is not where the pointer is, (%d, %d) on the "
				 "head", head, cx, cy);
		total += bad;
		free(px);
	}
	free(root);
	if (!total)
		fail_msg("no head shows the cursor");
	xfix_end(f);
}

static unsigned clients(struct nvc *c, char *first, size_t len)
{
	struct nvc_client cl;
	unsigned count = 0;
	first[0] = 0;
	NVT_OK(nvc_client_at(c, 0, &cl, &count));
	snprintf(first, len, "%s", cl.name);
	return count;
}

static void test_killed_x_leaves_nvd_as_it_was(void **state)
{
	struct xfix *f = fixture(state);
	struct nvc_status st;
	struct nvt_xrandr r;
	char name[32];

	unsigned n = clients(f->c, name, sizeof(name));
	NVT_OK(nvc_status(f->c, &st));
	printf("with X: %u clients, %u channels, %u buffers, VRAM %llu / GART %llu bytes of "
	       "clients'\n", n, st.channels_used, st.bos, (unsigned long long)st.vram_client,
	       (unsigned long long)st.gart_client);
	assert_int_equal(n, 2);
	assert_true(st.bos > f->before.bos);

	nvt_x_kill(&f->x);
	assert_true(WIFSIGNALED(f->x.status) && WTERMSIG(f->x.status) == SIGKILL);
	/* nvd notices the closed connection in its own time */
	for (unsigned i = 0; i < 200; i++) {
		n = clients(f->c, name, sizeof(name));
		NVT_OK(nvc_status(f->c, &st));
		if (n == 1 && st.bos == f->before.bos && st.vram_client == f->before.vram_client &&
		    st.gart_client == f->before.gart_client)
			break;
		nvt_sleep_ms(10);
	}
	printf("X killed: nvd %s, %u client (%s), %u channels, %u buffers, VRAM %llu / GART "
	       "%llu bytes of clients' (before X: %u, %u, %llu, %llu)\n",
	       nvt_daemon_alive(&f->d) ? "alive" : "DEAD", n, name, st.channels_used, st.bos,
	       (unsigned long long)st.vram_client, (unsigned long long)st.gart_client,
	       f->before.channels_used, f->before.bos,
	       (unsigned long long)f->before.vram_client,
	       (unsigned long long)f->before.gart_client);
	assert_true(nvt_daemon_alive(&f->d));
	assert_int_equal(n, 1);
	assert_string_equal(name, "test_xorg");
	assert_int_equal(st.bos, f->before.bos);
	assert_int_equal(st.vram_client, f->before.vram_client);
	assert_int_equal(st.gart_client, f->before.gart_client);
	assert_int_equal(st.channels_used, f->before.channels_used);
	for (unsigned head = 0; head < NVC_DISP_HEADS; head++) {
		struct nvc_head h;
		NVT_OK(nvc_disp_head(f->c, head, &h));
		if (h.fb)
			fail_msg("head %u still shows fb %u of the killed server", head, h.fb);
	}
	printf("both heads off\n");

	nvt_x_cleanup(&f->x);
	NVT_OK(nvt_x_start(&f->x, f->d.sock, NULL));
	xrandr_q(f, &r);
	assert_true(xoutput(&r, "VGA-0")->connected && xoutput(&r, "VGA-1")->connected);
	printf("a new X on %s: xrandr lists VGA-0 and VGA-1 connected\n", f->x.name);
	check_heads_match_xrandr(f, &r);
	xfix_end(f);
}

/* nvd-x says that nvd is not there and exits 2 before Xorg runs; the
 * harness reports it and leaves nothing behind. */
static void test_nvd_x_without_nvd_fails_clearly(void **state)
{
	(void)state;
	struct nvt_x x;
	if (getuid() != 0)
		skip();
	nvt_watchdog(30, program_invocation_short_name);
	int r = nvt_x_start(&x, "/nonexistent/nvd.sock", NULL);
	printf("nvt_x_start without nvd: %d (%s), nvd-x exit status %d\n", r, strerror(-r),
	       WIFEXITED(x.status) ? WEXITSTATUS(x.status) : -1);
	assert_int_equal(r, -ECHILD);
	assert_true(x.reaped && WIFEXITED(x.status) && WEXITSTATUS(x.status) == 2);
	assert_int_equal(access(x.lock, F_OK), -1);
	nvt_x_cleanup(&x);
	alarm(0);
}

int main(void)
{
	/* $NVD_BIN beside the test when tests/run did not set it */
	struct nvt_paths p;
	if (nvt_paths(&p, "../../bin") < 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvd_x_without_nvd_fails_clearly),
		cmocka_unit_test_setup_teardown(test_xrandr_lists_nvds_outputs_and_modes,
						xfix_setup, xfix_teardown),
		cmocka_unit_test_setup_teardown(test_mode_switch_reaches_the_head, xfix_setup,
						xfix_teardown),
		cmocka_unit_test_setup_teardown(test_two_heads_side_by_side_share_the_screen,
						xfix_setup, xfix_teardown),
		cmocka_unit_test_setup_teardown(test_heads_show_the_root_window, xfix_setup,
						xfix_teardown),
		cmocka_unit_test_setup_teardown(test_hw_cursor_is_on_the_head_only, xfix_setup,
						xfix_teardown),
		cmocka_unit_test_setup_teardown(test_killed_x_leaves_nvd_as_it_was, xfix_setup,
						xfix_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
