/* EXA on nvd against software.  Each scene of x-draw is drawn on a fresh
 * Xorg on nvd (nvd_drv.so: fills, copies and uploads on the 2D engine,
 * Render on the 3D engine) and on Xvfb of the same size and depth (fb and
 * pixman in software); `xwd -root` of the two are compared pixel for pixel
 * and each scene prints how many pixels differ and by how much at worst.
 *
 * The 2D scenes (fill, copy, put, get, and lowdepth: raster operations at
 * 16 and 8 bpp) must match exactly.  Render's scenes may differ by the
 * rounding of 8-bit arithmetic: pixman rounds after each product (source
 * IN mask, then the blend, each to 8 bits), the 3D engine computes in
 * floating point and rounds once when it writes; glyphs add a rounding
 * more (their coverage is gathered in an a8 mask first, then composited);
 * bilinear weights and 5-bit channels are computed differently; pixman
 * truncates where the card rounds to 5 and 6 bits.  The bounds, per
 * channel, are in the scene table with their reason.  Xvfb gets depth 15
 * pixmaps too (-pixdepths), as Xorg has them, for x1r5g5b5 pictures.
 *
 * That the card did the work, not software: nvd refused none of the
 * server's submissions, and the driver's counts in the Xorg log (written
 * when the server stops) show the scene's path used more than by a server
 * that only started and had its picture taken: solid fills, copies,
 * uploads, downloads, Render rectangles.  A stopped server leaves nvd
 * holding none of its buffers.  test_x11perf_runs_clean runs
 * x11perf's fill, copy, put, text and composite tests on the server.
 * Needs root (Xorg takes -config and -modulepath with a path only from
 * root); skipped otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"
#include "tests/lib/nvt-x.h"

/* The driver's line in the Xorg log (ddx/exa.c). */
struct exa_counts {
	unsigned long solid, copy, upload_ifc, upload_cpu, download, composite;
};

struct scene {
	const char *name;
	unsigned tolerance;            /* per channel */
	const char *why;               /* for a tolerance */
	const char *path;              /* what the card must have done */
	unsigned long (*used)(const struct exa_counts *c);
};

static unsigned long used_solid(const struct exa_counts *c) { return c->solid; }
static unsigned long used_copy(const struct exa_counts *c) { return c->copy; }
static unsigned long used_upload(const struct exa_counts *c) { return c->upload_ifc; }
static unsigned long used_download(const struct exa_counts *c) { return c->download; }
static unsigned long used_render(const struct exa_counts *c) { return c->composite; }

static const struct scene scenes[] = {
	{ "fill", 0, NULL, "solid fills", used_solid },
	{ "copy", 0, NULL, "copies", used_copy },
	{ "put", 0, NULL, "uploads through IFC", used_upload },
	{ "get", 0, NULL, "downloads", used_download },
	{ "text", 2, "glyph coverage is rounded in an a8 mask, then again by the blend",
	  "Render rectangles", used_render },
	{ "render", 1, "pixman rounds each 8-bit product, the 3D engine once at the end",
	  "Render rectangles", used_render },
	{ "pictures", 3, "bilinear weights: pixman's have 7 bits, the card's are floats; "
	  "5-bit channels widened by pixman's bit replication, by the card's v * 255 / 31",
	  "Render rectangles", used_render },
	{ "depth16", 9, "writing r5g6b5 pixman truncates to 5 and 6 bits, the card rounds: "
	  "one 5-bit step is 8, with the blend's rounding 9", "Render rectangles", used_render },
	{ "lowdepth", 0, NULL, "copies", used_copy },
};

static struct {
	struct nvt_daemon d;
	struct nvt_x xvfb;
	struct nvc *c;
	char xdraw[PATH_MAX + 16];
	struct exa_counts base;        /* a server that only started and was shot */
	int ready;
} fx;

static int read_counts(const struct nvt_x *x, struct exa_counts *c)
{
	FILE *f = fopen(x->log, "r");
	char line[512];
	int found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "EXA on the card: ");
		if (p && sscanf(p, "EXA on the card: %lu solid fills, %lu copies, %lu uploads "
				   "through IFC (%lu by the CPU), %lu downloads, %lu Render "
				   "rectangles", &c->solid, &c->copy, &c->upload_ifc,
				&c->upload_cpu, &c->download, &c->composite) == 6)
			found = 1;
		if (strstr(line, "Render refusals:"))
			printf("  %s", strstr(line, "Render refusals:"));
	}
	fclose(f);
	if (!found)
		return -ENOENT;
	printf("  the card: %lu solid fills, %lu copies, %lu uploads through IFC (%lu by the "
	       "CPU), %lu downloads, %lu Render rectangles\n", c->solid, c->copy, c->upload_ifc,
	       c->upload_cpu, c->download, c->composite);
	return 0;
}

static int group_setup(void **state)
{
	(void)state;
	if (getuid() != 0)
		return 0;
	struct nvt_paths p;
	struct nvt_x x;
	unsigned w, h, depth;
	char screen[32];

	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
	if (nvt_paths(&p, "../../bin") < 0)
		return -1;
	snprintf(fx.xdraw, sizeof(fx.xdraw), "%s/x-draw", p.dir);
	if (nvt_daemon_start(&fx.d, NULL) < 0 || nvc_connect(fx.d.sock, "test_exa", &fx.c) < 0)
		return -1;
	/* Xvfb the size and depth nvd's monitors give our X; what our X does
	 * when it only starts and has its picture taken */
	uint32_t *px;
	if (nvt_x_start(&x, fx.d.sock, NULL) < 0)
		return -1;
	int r = nvt_x_dpyinfo(&x, &w, &h, &depth);
	if (!r)
		r = nvt_x_screenshot(&x, &px, &w, &h);
	if (!r)
		free(px);
	if (!r)
		r = nvt_x_stop(&x);
	printf("a server that starts and is shot:\n");
	if (!r)
		r = read_counts(&x, &fx.base);
	nvt_x_cleanup(&x);
	if (r < 0)
		return -1;
	snprintf(screen, sizeof(screen), "%ux%ux%u", w, h, depth);
	static const char *const depths[] = { "-pixdepths", "1", "4", "8", "15", "16", "24", "32",
					      NULL };
	if (nvt_xvfb_start(&fx.xvfb, screen, depths) < 0)
		return -1;
	printf("both servers: %s\n", screen);
	fx.ready = 1;
	alarm(0);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	nvt_x_cleanup(&fx.xvfb);
	if (fx.c)
		nvc_close(fx.c);
	return nvt_daemon_finish(&fx.d);
}

static void need_root(void)
{
	if (getuid() != 0) {
		printf("not root: Xorg takes -config and -modulepath only from root; skipped\n");
		skip();
	}
	if (!fx.ready)
		fail_msg("nvd, our X or Xvfb did not start");
	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
}

/* nvd's figures for the X server's connection. */
static void xorg_client(struct nvc_client *out)
{
	unsigned count = 1;
	for (unsigned i = 0; i < count; i++) {
		NVT_OK(nvc_client_at(fx.c, i, out, &count));
		if (!strcmp(out->name, "Xorg"))
			return;
	}
	fail_msg("nvd lists no client Xorg");
}

static void counts(const struct nvt_x *x, struct exa_counts *c)
{
	if (read_counts(x, c) < 0)
		fail_msg("the Xorg log %s has no EXA counts: was EXA on?", x->log);
}

/* nvd holds no more buffers or memory than before the server. */
static void left_nothing(const struct nvc_status *before)
{
	struct nvc_status st;
	for (unsigned i = 0; i < 200; i++) {
		NVT_OK(nvc_status(fx.c, &st));
		if (st.bos == before->bos && st.vram_client == before->vram_client &&
		    st.gart_client == before->gart_client)
			return;
		nvt_sleep_ms(10);
	}
	fail_msg("the stopped server left %u buffers, VRAM %llu, GART %llu (before: %u, %llu, "
		 "%llu)", st.bos, (unsigned long long)st.vram_client,
		 (unsigned long long)st.gart_client, before->bos,
		 (unsigned long long)before->vram_client, (unsigned long long)before->gart_client);
}

static void draw(const struct nvt_x *x, const char *scene, uint32_t **px, unsigned *w,
		 unsigned *h)
{
	const char *argv[] = { fx.xdraw, "--scene", scene, NULL };
	int r = nvt_x_run(x, argv, NULL, NULL);
	if (r != 0) {
		nvt_x_print_log(x);
		fail_msg("x-draw --scene %s on %s (%s): %d", scene, x->name,
			 x->xvfb ? "Xvfb" : "nvd", r);
	}
	NVT_OK(nvt_x_screenshot(x, px, w, h));
}

struct diff {
	unsigned differ, over, worst;
	unsigned fx, fy;               /* the first pixel over the bound */
	uint32_t got, want;
};

static unsigned chan_diff(uint32_t a, uint32_t b)
{
	unsigned worst = 0;
	for (unsigned s = 0; s < 24; s += 8) {
		int d = (int)(a >> s & 0xff) - (int)(b >> s & 0xff);
		unsigned ad = (unsigned)(d < 0 ? -d : d);
		worst = ad > worst ? ad : worst;
	}
	return worst;
}

static void compare(const uint32_t *got, const uint32_t *want, unsigned w, unsigned h,
		    unsigned tol, struct diff *d)
{
	memset(d, 0, sizeof(*d));
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			unsigned c = chan_diff(got[y * w + x], want[y * w + x]);
			if (!c)
				continue;
			d->differ++;
			d->worst = c > d->worst ? c : d->worst;
			if (c > tol && !d->over++) {
				d->fx = x;
				d->fy = y;
				d->got = got[y * w + x] & 0xffffff;
				d->want = want[y * w + x] & 0xffffff;
			}
		}
}

static void test_scene(void **state)
{
	const struct scene *s = *state;
	struct nvt_x x;
	struct nvc_client cl;
	struct nvc_status before, after;
	struct exa_counts c = { 0 };
	uint32_t *ours, *ref;
	unsigned w, h, rw, rh;
	struct diff d;

	need_root();
	NVT_OK(nvc_status(fx.c, &before));
	NVT_OK(nvt_x_start(&x, fx.d.sock, NULL));
	draw(&x, s->name, &ours, &w, &h);
	xorg_client(&cl);
	if (nvt_x_stop(&x) < 0)
		fail_msg("Xorg did not stop cleanly on SIGTERM");
	printf("scene %s: nvd ran %llu submissions of the server's, refused %llu\n", s->name,
	       (unsigned long long)cl.submits, (unsigned long long)cl.refused);
	counts(&x, &c);
	nvt_x_cleanup(&x);
	left_nothing(&before);
	NVT_OK(nvc_status(fx.c, &after));
	draw(&fx.xvfb, s->name, &ref, &rw, &rh);
	assert_int_equal(w, rw);
	assert_int_equal(h, rh);

	compare(ours, ref, w, h, s->tolerance, &d);
	printf("  against Xvfb: %u pixels differ, worst by %u per channel, %u over the bound "
	       "of %u%s%s\n", d.differ, d.worst, d.over, s->tolerance, s->why ? ": " : "",
	       s->why ? s->why : "");
	free(ours);
	free(ref);
	if (d.over)
		fail_msg("scene %s: %u pixels over +-%u, the first at (%u, %u): %06x, Xvfb %06x",
			 s->name, d.over, s->tolerance, d.fx, d.fy, d.got, d.want);
	if (!cl.submits || cl.refused || after.refused != before.refused)
		fail_msg("scene %s: nvd ran %llu of the server's submissions and refused %llu "
			 "(%llu in all)", s->name, (unsigned long long)cl.submits,
			 (unsigned long long)cl.refused,
			 (unsigned long long)(after.refused - before.refused));
	if (s->used(&c) <= s->used(&fx.base))
		fail_msg("scene %s: the card did no %s beyond a bare server's %lu: software drew it",
			 s->name, s->path, s->used(&fx.base));
}

/* ---- x11perf ---- */

/* The operations issue #5 names; -comppixwin500 with an ARGB32 pixmap is
 * x11perf's Render composite (this x11perf has no -compositewinpix, and
 * with the screen's own format its Over is a plain copy). */
static const char *const perf_tests[][4] = {
	{ "-rect500" },
	{ "-copywinwin500" },
	{ "-shmput500" },
	{ "-aa10text" },
	{ "-format", "ARGB32", "-comppixwin500" },
};
#define NPERF (sizeof(perf_tests) / sizeof(perf_tests[0]))

static void test_x11perf_runs_clean(void **state)
{
	(void)state;
	struct nvt_x x;
	struct nvc_client cl;
	struct nvc_status before;
	struct exa_counts c = { 0 };

	need_root();
	NVT_OK(nvc_status(fx.c, &before));
	NVT_OK(nvt_x_start(&x, fx.d.sock, NULL));
	for (unsigned i = 0; i < NPERF; i++) {
		const char *args[8] = { "-repeat", "1", "-time", "1" };
		unsigned n = 4;
		char *out;
		double rate;
		for (unsigned k = 0; k < 4 && perf_tests[i][k]; k++)
			args[n++] = perf_tests[i][k];
		args[n] = NULL;
		/* each run calibrates for seconds: the watchdog is per run */
		nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
		int r = nvt_x_x11perf(&x, args, &out, &rate);
		const char *name = perf_tests[i][n - 5];
		printf("x11perf %s%s: exit %d, %.1f/sec\n", name, i == NPERF - 1 ? " (ARGB32)" : "",
		       r, rate);
		if (r != 0 || !out || strstr(out, "rror") || rate <= 0) {
			printf("%s", out ? out : "");
			free(out);
			nvt_x_print_log(&x);
			fail_msg("x11perf %s: exit %d, an error or no result", name, r);
		}
		free(out);
	}
	xorg_client(&cl);
	if (nvt_x_stop(&x) < 0)
		fail_msg("Xorg did not stop cleanly on SIGTERM");
	counts(&x, &c);
	nvt_x_cleanup(&x);
	left_nothing(&before);
	printf("nvd ran %llu submissions of the server's, refused %llu\n",
	       (unsigned long long)cl.submits, (unsigned long long)cl.refused);
	assert_true(cl.submits > 0);
	assert_int_equal(cl.refused, 0);
	assert_true(c.solid > fx.base.solid && c.copy > fx.base.copy &&
		    c.composite > fx.base.composite);
	assert_true(c.upload_ifc + c.upload_cpu > fx.base.upload_ifc + fx.base.upload_cpu);
}

#define NSCENES (sizeof(scenes) / sizeof(scenes[0]))

int main(void)
{
	struct CMUnitTest tests[NSCENES + 1];
	char names[NSCENES][32];

	for (unsigned i = 0; i < NSCENES; i++) {
		snprintf(names[i], sizeof(names[i]), "test_scene_%s", scenes[i].name);
		tests[i] = (struct CMUnitTest){ names[i], test_scene, NULL, NULL,
						(void *)&scenes[i] };
	}
	tests[NSCENES] = (struct CMUnitTest)cmocka_unit_test(test_x11perf_runs_clean);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
