/* KMS through the DRM interposer (glx/kms.c): kms-probe, a libdrm program,
 * runs under nvd-run against an nvd with known monitors.  What libdrm's
 * drmMode* calls report must be what nvd says directly (nvc_disp_output /
 * nvc_disp_mode, the EDID property's blob); a framebuffer the probe shows with SetCrtc must be what
 * nvd's screenshot of that head holds (XRGB, ARGB with panning, RGB565
 * through the legacy AddFB); and bad ids, short or bad arrays, bad
 * framebuffers, a non-master's SetCrtc and KMS on the render node get the
 * kernel's errors.  Page flips and vblank waits (kms-probe events) come
 * back as drm_event records on the fd, one vblank or more apart, with the
 * caller's user_data and the CRTC's id; bad calls get the kernel's errors.
 * Debian's kmscube and glmark2-drm, unmodified, animate on a head: two
 * screenshots ten vblanks apart differ and each is a frame of theirs, and
 * kmscube shows no more frames a second than the monitor has vblanks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "tests/lib/nvt-test.h"
#include "tests/glx/kms-pattern.h"

static char nvd_run[PATH_MAX], probe[PATH_MAX];

static const char *const monitors[] = {
	"--monitor", "0=1024x768,800x600,640x480:KmsZero",
	"--monitor", "1=1280x1024,640x480@75:KmsOne", NULL,
};

/* Run the probe with args under nvd-run; when `at_shown` is set, call it
 * once the probe prints "shown ..." (with that line), then let the probe
 * go on.  Returns the exit code; the whole output in out. */
static int run_probe(struct nvt_daemon *d, const char *const *args, char *out, size_t len,
		     void (*at_shown)(struct nvt_daemon *d, const char *line, void *arg), void *arg)
{
	int po[2], pi[2];
	if (pipe(po) < 0 || pipe(pi) < 0)
		return -errno;
	const char *argv[16] = { nvd_run, "--socket", d->sock, probe };
	unsigned n = 4;
	for (unsigned i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pi[0], 0);
		dup2(po[1], 1);
		dup2(po[1], 2);
		close(po[0]);
		close(po[1]);
		close(pi[0]);
		close(pi[1]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(po[1]);
	close(pi[0]);
	size_t got = 0;
	ssize_t r;
	int called = 0;
	while (got + 1 < len && (r = read(po[0], out + got, len - 1 - got)) > 0) {
		got += r;
		out[got] = 0;
		const char *s = strstr(out, "\nshown ");
		if (at_shown && !called && s && strchr(s + 1, '\n')) {
			called = 1;
			at_shown(d, s + 1, arg);
			(void)!write(pi[1], "go\n", 3);
		}
	}
	out[got] = 0;
	close(pi[1]);
	close(po[0]);
	int st;
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void probe_ok(struct nvt_daemon *d, const char *const *args, char *out, size_t len,
		     void (*at_shown)(struct nvt_daemon *, const char *, void *), void *arg)
{
	int r = run_probe(d, args, out, len, at_shown, arg);
	if (r != 0 || !strstr(out, "\n0 failures") || strstr(out, "not ok"))
		fail_msg("kms-probe %s exited %d:\n%s", args[0], r, out);
}

/* ---- what libdrm reports is what nvd says ---- */

static const char *find_line(const char *out, const char *prefix)
{
	size_t n = strlen(prefix);
	for (const char *s = out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
		if (!strncmp(s, prefix, n))
			return s;
	return NULL;
}

static void test_query_matches_nvd(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	const char *args[] = { "query", NULL };
	probe_ok(d, args, out, sizeof(out), NULL, NULL);

	unsigned fbs, crtcs, encs, conns, minw, maxw, minh, maxh;
	const char *l = find_line(out, "res ");
	assert_non_null(l);
	assert_int_equal(sscanf(l, "res fbs %u crtcs %u encoders %u connectors %u size %u-%u x %u-%u",
				&fbs, &crtcs, &encs, &conns, &minw, &maxw, &minh, &maxh), 8);
	assert_int_equal(fbs, 0);
	assert_int_equal(crtcs, NVC_DISP_HEADS);
	assert_int_equal(encs, NVC_DISP_OUTPUTS);
	assert_int_equal(conns, NVC_DISP_OUTPUTS);

	struct nvc *c;
	NVT_OK(nvc_connect(d->sock, "test_kms", &c));
	for (unsigned i = 0; i < NVC_DISP_OUTPUTS; i++) {
		struct nvc_output o;
		NVT_OK(nvc_disp_output(c, i, &o));
		assert_true(o.connected);   /* both outputs have monitors here */
		char pre[32];
		unsigned id, idx, type, conn, mmw, mmh, enc, nenc, first, nmodes, nprops;
		snprintf(pre, sizeof(pre), "conn %u ", 5 + i);
		assert_non_null(l = find_line(out, pre));
		assert_int_equal(sscanf(l, "conn %u index %u type %u connection %u mm %ux%u encoder %u "
					"encoders %u first %u modes %u props %u",
					&id, &idx, &type, &conn, &mmw, &mmh, &enc, &nenc, &first, &nmodes,
					&nprops), 11);
		assert_int_equal(idx, i);
		assert_int_equal(type, 1);                  /* DRM_MODE_CONNECTOR_VGA */
		assert_int_equal(conn, 1);                  /* connected */
		assert_int_equal(mmw, o.mm_width);
		assert_int_equal(mmh, o.mm_height);
		assert_int_equal(enc, 0);                   /* no head drives it yet */
		assert_int_equal(nenc, 1);
		assert_int_equal(first, 3 + i);
		assert_int_equal(nmodes, o.nmodes);
		assert_int_equal(nprops, 1);        /* EDID */
		snprintf(pre, sizeof(pre), "edid %u ", 5 + i);
		assert_non_null(l = find_line(out, pre));
		for (unsigned b = 0; b < sizeof(o.edid); b++) {
			unsigned byte;
			assert_int_equal(sscanf(l + strlen(pre) + 2 * b, "%2x", &byte), 1);
			if (byte != o.edid[b])
				fail_msg("EDID byte %u: libdrm 0x%02x, nvd 0x%02x", b, byte, o.edid[b]);
		}
		assert_true(nmodes >= 2);
		for (unsigned m = 0; m < nmodes; m++) {
			struct nvc_mode nm;
			NVT_OK(nvc_disp_mode(c, i, m, &nm));
			snprintf(pre, sizeof(pre), "mode %u %u ", 5 + i, m);
			assert_non_null(l = find_line(out, pre));
			unsigned v[14];
			char name[40];
			assert_int_equal(sscanf(l, "mode %u %u %u %u %u %u %u %u %u %u %u %u %u %x %x %39s",
						&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
						&v[8], &v[9], &v[10], &v[11], &v[12], &v[13], &type, name),
					 16);
			assert_int_equal(v[2], nm.clock);
			assert_int_equal(v[3], nm.hdisplay);
			assert_int_equal(v[4], nm.hsync_start);
			assert_int_equal(v[5], nm.hsync_end);
			assert_int_equal(v[6], nm.htotal);
			assert_int_equal(v[7], nm.vdisplay);
			assert_int_equal(v[8], nm.vsync_start);
			assert_int_equal(v[9], nm.vsync_end);
			assert_int_equal(v[10], nm.vtotal);
			/* vrefresh: the clock over the frame, to nearest */
			uint64_t frame = (uint64_t)nm.htotal * nm.vtotal;
			assert_int_equal(v[11], (nm.clock * 1000ull + frame / 2) / frame);
			assert_int_equal(v[12], 0);                      /* hskew */
			assert_int_equal(v[13], nm.flags);
			/* DRIVER, and PREFERRED for the monitor's preferred one (first) */
			assert_int_equal(type, 0x40 | (nm.preferred ? 0x08 : 0));
			assert_int_equal(!!nm.preferred, m == 0);
			char want[40];
			snprintf(want, sizeof(want), "%ux%u", nm.hdisplay, nm.vdisplay);
			assert_string_equal(name, want);
		}
		/* the encoder: a DAC, on the head the output is wired to */
		unsigned etype, ecrtc, possible, clones;
		snprintf(pre, sizeof(pre), "enc %u ", 3 + i);
		assert_non_null(l = find_line(out, pre));
		assert_int_equal(sscanf(l, "enc %u type %u crtc %u possible 0x%x clones 0x%x", &id, &etype,
					&ecrtc, &possible, &clones), 5);
		assert_int_equal(etype, 1);                 /* DRM_MODE_ENCODER_DAC */
		assert_int_equal(ecrtc, 0);
		assert_int_equal(possible, 1u << o.head);
	}
	/* the monitors as configured: 1024x768 first on output 0, 1280x1024 on 1 */
	assert_non_null(strstr(out, "mode 5 0 ") && strstr(find_line(out, "mode 5 0 "), "1024x768"));
	assert_non_null(strstr(find_line(out, "mode 6 0 "), "1280x1024"));
	nvc_close(c);
	nvt_end(d);
}

/* ---- what SetCrtc shows is the framebuffer ---- */

struct shown {
	uint32_t pan_x, pan_y;
	int rgb565;
	int checked;
};

static void check_screenshot(struct nvt_daemon *d, const char *line, void *arg)
{
	struct shown *s = arg;
	unsigned crtc, head, w, h;
	assert_int_equal(sscanf(line, "shown %u %u %ux%u", &crtc, &head, &w, &h), 4);
	struct nvc *c;
	NVT_OK(nvc_connect(d->sock, "test_kms screenshot", &c));
	struct nvc_head hd;
	NVT_OK(nvc_disp_head(c, head, &hd));
	assert_int_not_equal(hd.fb, 0);
	assert_int_equal(hd.x, s->pan_x);
	assert_int_equal(hd.y, s->pan_y);
	assert_int_equal(hd.mode.hdisplay, w);
	assert_int_equal(hd.outputs, 1u << head);
	uint32_t *px, sw, sh;
	NVT_OK(nvc_disp_screenshot(c, head, &px, &sw, &sh));
	assert_int_equal(sw, w);
	assert_int_equal(sh, h);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t want = kms_pattern(x + s->pan_x, y + s->pan_y), got = px[y * w + x];
			int same = s->rgb565 ? kms_to_rgb565(want) == kms_to_rgb565(got)
					     : (want & 0xffffff) == (got & 0xffffff);
			if (!same)
				fail_msg("screen pixel (%u, %u) is 0x%08x, the framebuffer's (%u, %u) 0x%06x",
					 x, y, got, x + s->pan_x, y + s->pan_y, want);
		}
	free(px);
	nvc_close(c);
	s->checked = 1;
}

static void show(void **state, const char *fmt, const char *w, const char *h, uint32_t x, uint32_t y)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	char xs[16], ys[16];
	snprintf(xs, sizeof(xs), "%u", x);
	snprintf(ys, sizeof(ys), "%u", y);
	const char *args[] = { "show", fmt, w, h, xs, ys, NULL };
	struct shown s = { x, y, !strcmp(fmt, "rgb565"), 0 };
	probe_ok(d, args, out, sizeof(out), check_screenshot, &s);
	assert_true(s.checked);
	/* the probe turned the head off before it left */
	struct nvc *c;
	NVT_OK(nvc_connect(d->sock, "test_kms after", &c));
	struct nvc_head hd;
	NVT_OK(nvc_disp_head(c, 0, &hd));
	assert_int_equal(hd.fb, 0);
	nvc_close(c);
	nvt_end(d);
}

static void test_setcrtc_shows_xrgb_dumb_buffer(void **state) { show(state, "xrgb", "1024", "768", 0, 0); }
static void test_setcrtc_pans_argb_framebuffer(void **state) { show(state, "argb", "1100", "800", 40, 24); }
static void test_setcrtc_shows_rgb565_legacy_addfb(void **state) { show(state, "rgb565", "1024", "768", 0, 0); }

/* ---- hostile callers get the kernel's errors ---- */

/* A probe mode whose checks are all the probe's own. */
static void probe_checks(void **state, const char *mode)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	const char *args[] = { mode, NULL };
	probe_ok(d, args, out, sizeof(out), NULL, NULL);
	nvt_end(d);
}

static void test_hostile_calls_get_errors(void **state) { probe_checks(state, "hostile"); }

/* ---- page flips and vblanks ---- */

static void test_flips_and_vblank_events(void **state) { probe_checks(state, "events"); }

/* ---- KMS programs animate on a head ---- */

/* A small mode keeps the frames cheap; 100 Hz because nvd refuses 320x240
 * at 60 (its pixel clock is below the RAMDAC's 10 MHz). */
#define CLIENT_HZ 100
static const char *const small_monitor[] = {
	"--monitor", "0=320x240@100:KmsClient", "--monitor", "1=none", NULL,
};

/* What a frame of the program looks like: its clear colour at the corner,
 * its object in between 3% and 70% of the pixels, centred. */
struct look { const char *name; uint32_t background; };

static void check_frame(const struct look *l, const uint32_t *px, uint32_t w, uint32_t h, int n)
{
	uint32_t bg = px[0] & 0xffffff, count = 0, x0 = w, x1 = 0, y0 = h, y1 = 0;
	if (bg != l->background)
		fail_msg("%s screenshot %d: the corner is 0x%06x, not its clear colour 0x%06x", l->name,
			 n, bg, l->background);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			if ((px[y * w + x] & 0xffffff) != bg) {
				count++;
				x0 = x < x0 ? x : x0;
				x1 = x > x1 ? x : x1;
				y0 = y < y0 ? y : y0;
				y1 = y > y1 ? y : y1;
			}
	if (count < w * h * 3 / 100 || count > w * h * 70 / 100)
		fail_msg("%s screenshot %d: %u of %u pixels are not the background", l->name, n, count,
			 w * h);
	int cx = (int)(x0 + x1) / 2 - (int)w / 2, cy = (int)(y0 + y1) / 2 - (int)h / 2;
	if (abs(cx) > (int)w / 6 || abs(cy) > (int)h / 6)
		fail_msg("%s screenshot %d: the picture's centre is off by (%d, %d)", l->name, n, cx, cy);
}

/* Run argv under nvd-run with stdin a pipe that never delivers (kmscube
 * leaves when stdin is readable).  Once the head shows its flips, two
 * screenshots `apart` vblanks apart must both be frames of the program's
 * and differ.  Returns its exit code; its output in out. */
static int animate(struct nvt_daemon *d, const char *const *argv, const struct look *l,
		   unsigned apart, char *out, size_t len)
{
	char path[160];
	int in[2];
	snprintf(path, sizeof(path), "%s/%s.out", d->dir, l->name);
	assert_int_equal(pipe(in), 0);
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(in[0], 0);
		dup2(o, 1);
		dup2(o, 2);
		close(in[0]);
		close(in[1]);
		close(o);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(in[0]);
	struct nvc *c;
	NVT_OK(nvc_connect(d->sock, "test_kms watcher", &c));
	/* flipping: the head has shown three framebuffers */
	uint32_t seen[3] = { 0 };
	unsigned nseen = 0, code;
	for (unsigned ms = 0; nseen < 3 && ms < 30000; ms++) {
		struct nvc_head hd;
		if (nvt_child_done(pid, (int *)&code))
			break;
		if (nvc_disp_head(c, 0, &hd) == 0 && hd.fb && (!nseen || seen[nseen - 1] != hd.fb))
			seen[nseen++] = hd.fb;
		usleep(1000);
	}
	if (nseen < 3) {
		nvt_wait_child(pid, 1000);
		fail_msg("%s: the head showed %u framebuffers in 30 s", l->name, nseen);
	}
	/* the framebuffer shown before and after screenshot a is the one in
	 * it; b comes `apart` vblanks later and once another is shown (a
	 * loaded machine may render fewer frames than there are vblanks) */
	uint32_t *a = NULL, *b, w, h, w2, h2;
	uint64_t s0, s1, ns;
	struct nvc_head h0, h1, hb;
	do {
		free(a);
		NVT_OK(nvc_disp_head(c, 0, &h0));
		NVT_OK(nvc_disp_screenshot(c, 0, &a, &w, &h));
		NVT_OK(nvc_disp_head(c, 0, &h1));
	} while (h0.fb != h1.fb);
	NVT_OK(nvc_disp_vblank(c, 0, &s0, &ns));
	do {
		usleep(1000);
		NVT_OK(nvc_disp_vblank(c, 0, &s1, &ns));
		NVT_OK(nvc_disp_head(c, 0, &hb));
	} while ((s1 < s0 + apart || hb.fb == h0.fb) && s1 < s0 + 100 * apart);
	NVT_OK(nvc_disp_screenshot(c, 0, &b, &w2, &h2));
	assert_int_equal(w, w2);
	assert_int_equal(h, h2);
	check_frame(l, a, w, h, 1);
	check_frame(l, b, w, h, 2);
	uint32_t differ = 0;
	for (uint32_t i = 0; i < w * h; i++)
		differ += (a[i] & 0xffffff) != (b[i] & 0xffffff);
	if (hb.fb == h0.fb || differ < w * h / 200)
		fail_msg("%s: %llu vblanks apart, framebuffer %u then %u, %u pixels changed", l->name,
			 (unsigned long long)(s1 - s0), h0.fb, hb.fb, differ);
	free(a);
	free(b);
	nvc_close(c);
	int r = nvt_wait_child(pid, 60000);
	close(in[1]);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(out, 1, len - 1, f) : 0;
	out[n] = 0;
	if (f)
		fclose(f);
	return r;
}

static void test_kmscube_animates(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	const char *argv[] = { nvd_run, "--socket", d->sock, "/usr/bin/kmscube", "-D", "/dev/dri/card0",
			       "-c", "300", NULL };
	const struct look cube = { "kmscube", 0x808080 };   /* glClearColor(0.5, 0.5, 0.5) */
	int r = animate(d, argv, &cube, 10, out, sizeof(out));
	if (r != 0 || !strstr(out, "renderer: \"NV43\""))
		fail_msg("kmscube exited %d:\n%s", r, out);
	/* each frame is a flip, and a flip waits for a vblank: no faster than
	 * the monitor, and not far below it either (the last report is the
	 * whole run's) */
	const char *l = NULL;
	for (const char *p = strstr(out, "Rendered "); p; p = strstr(p + 1, "Rendered "))
		l = p;
	unsigned frames;
	double secs, fps;
	if (!l || sscanf(l, "Rendered %u frames in %lf sec (%lf fps)", &frames, &secs, &fps) != 3)
		fail_msg("kmscube said no frame rate:\n%s", out);
	printf("kmscube: %u frames in %.2f s, %.1f fps at %u Hz\n", frames, secs, fps, CLIENT_HZ);
	assert_int_equal(frames, 299);      /* the first is SetCrtc's */
	if (fps > CLIENT_HZ * 1.02 || fps < CLIENT_HZ / 4)
		fail_msg("kmscube showed %.1f frames a second on a %u Hz monitor", fps, CLIENT_HZ);
	nvt_end(d);
}

static void test_glmark2_drm_animates(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	const char *argv[] = { nvd_run, "--socket", d->sock, "/usr/bin/glmark2-drm", "--winsys-options",
			       "drm-device=/dev/dri/card0", "-b", "build:duration=3", NULL };
	const struct look horse = { "glmark2-drm", 0x000000 };
	int r = animate(d, argv, &horse, 10, out, sizeof(out));
	if (r != 0 || !strstr(out, "GL_RENDERER:    NV43") || !strstr(out, "[build] duration=3: FPS:") ||
	    strstr(out, "Failed"))
		fail_msg("glmark2-drm exited %d:\n%s", r, out);
	nvt_end(d);
}

int main(void)
{
	const char *tools = getenv("NVD_TOOLS");
	if (!tools) {
		fprintf(stderr, "test_kms: NVD_TOOLS (the build's bin directory) is not set\n");
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	snprintf(nvd_run, sizeof(nvd_run), "%s/nvd-run", tools);
	snprintf(probe, sizeof(probe), "%s/../tests/glx/kms-probe", tools);
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_query_matches_nvd, monitors),
		NVT_TEST_ARGS(test_setcrtc_shows_xrgb_dumb_buffer, monitors),
		NVT_TEST_ARGS(test_setcrtc_pans_argb_framebuffer, monitors),
		NVT_TEST_ARGS(test_setcrtc_shows_rgb565_legacy_addfb, monitors),
		NVT_TEST_ARGS(test_hostile_calls_get_errors, monitors),
		NVT_TEST_ARGS(test_flips_and_vblank_events, monitors),
		NVT_TEST_ARGS(test_kmscube_animates, small_monitor),
		NVT_TEST_ARGS(test_glmark2_drm_animates, small_monitor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
