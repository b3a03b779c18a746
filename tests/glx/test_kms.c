/* KMS through the DRM interposer (glx/kms.c): kms-probe, a libdrm program,
 * runs under nvd-run against an nvd with known monitors.  What libdrm's
 * drmMode* calls report must be what nvd says directly (nvc_disp_output /
 * nvc_disp_mode, the EDID property's blob); a framebuffer the probe shows with SetCrtc must be what
 * nvd's screenshot of that head holds (XRGB, ARGB with panning, RGB565
 * through the legacy AddFB); and bad ids, short or bad arrays, bad
 * framebuffers, a non-master's SetCrtc and KMS on the render node get the
 * kernel's errors.  Page flips and vblank waits (kms-probe events) come
 * back as drm_event records on the fd, one vblank or more apart, with the
 * caller's user_data and the CRTC's id; bad calls get the kernel's errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <limits.h>
#include <signal.h>
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
