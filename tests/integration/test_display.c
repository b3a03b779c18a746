/* The display through a real nvd: monitors given with --monitor come back
 * as outputs and modes (read by nvd over the simulated DDC buses); only the
 * master sets heads; framebuffer requests that do not fit are refused with
 * a reason; a head shows exactly the framebuffer's pixels (the screenshot
 * is composed from the CRTC registers read back and VRAM), with panning,
 * in XRGB8888 and RGB565; heads go off with their framebuffer; a head's
 * vblank count moves at its refresh rate and vblank events come at the
 * count asked for, in order, within the master's limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <png.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests/lib/nvt-test.h"

static const char *const monitors[] = {
	"--monitor", "0=1600x1200,1280x1024@75,1024x768:Test0", "--monitor", "1=none", NULL
};

static struct nvc *conn(void **state, const char *name)
{
	struct nvc *c;
	if (nvc_connect(nvt_d(state)->sock, name, &c) < 0)
		fail_msg("connect: %s", nvc_error());
	return c;
}

static unsigned hz(const struct nvc_mode *m)
{
	return (unsigned)(((uint64_t)m->clock * 1000 + (uint64_t)m->htotal * m->vtotal / 2) /
			  ((uint64_t)m->htotal * m->vtotal));
}

/* The output's mode w x h at 60 Hz. */
static struct nvc_mode find_mode(struct nvc *c, unsigned output, unsigned w, unsigned h)
{
	struct nvc_output o;
	struct nvc_mode m;
	NVT_OK(nvc_disp_output(c, output, &o));
	for (unsigned i = 0; i < o.nmodes; i++) {
		NVT_OK(nvc_disp_mode(c, output, i, &m));
		if (m.hdisplay == w && m.vdisplay == h && hz(&m) == 60)
			return m;
	}
	fail_msg("output %u has no %ux%u@60", output, w, h);
	return m;
}

static void test_outputs_and_modes_are_the_monitors_given(void **state)
{
	struct nvc *c = conn(state, "outputs");
	struct nvc_output o;
	struct nvc_mode m;

	NVT_OK(nvc_disp_output(c, 0, &o));
	assert_string_equal(o.name, "VGA-0");
	assert_true(o.connected);
	assert_int_equal(o.head, 0);
	assert_int_equal(o.nmodes, 3);
	assert_int_equal(o.mm_width, 423);         /* 1600 px at ~96 dpi */
	static const uint8_t hdr[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	assert_memory_equal(o.edid, hdr, 8);
	NVT_OK(nvc_disp_mode(c, 0, 0, &m));
	assert_true(m.preferred);
	assert_int_equal(m.hdisplay, 1600);
	assert_int_equal(m.vdisplay, 1200);
	assert_int_equal(m.clock, 162000);         /* DMT 1600x1200@60 */
	assert_int_equal(m.htotal, 2160);
	assert_int_equal(m.flags, NVC_MODE_PHSYNC | NVC_MODE_PVSYNC);
	NVT_OK(nvc_disp_mode(c, 0, 1, &m));
	assert_false(m.preferred);
	assert_int_equal(m.hdisplay, 1280);
	assert_int_equal(hz(&m), 75);
	assert_int_equal(m.clock, 135000);
	NVT_OK(nvc_disp_mode(c, 0, 2, &m));
	assert_int_equal(m.hdisplay, 1024);
	assert_int_equal(m.clock, 65000);
	NVT_ERR(nvc_disp_mode(c, 0, 3, &m), -ENOENT);

	NVT_OK(nvc_disp_output(c, 1, &o));
	assert_string_equal(o.name, "VGA-1");
	assert_false(o.connected);
	assert_int_equal(o.head, 1);
	assert_int_equal(o.nmodes, 0);
	NVT_ERR(nvc_disp_mode(c, 1, 0, &m), -ENOENT);
	NVT_ERR(nvc_disp_output(c, 2, &o), -EINVAL);
	NVT_ERR(nvc_disp_mode(c, 7, 0, &m), -EINVAL);
	nvc_close(c);
	assert_true(nvt_log_contains(nvt_d(state),
				     "output VGA-0: monitor Test0, 3 modes, preferred 1600x1200@60"));
	assert_true(nvt_log_contains(nvt_d(state), "output VGA-1: no monitor"));
	nvt_end(nvt_d(state));
}

static void test_default_monitors(void **state)
{
	struct nvc *c = conn(state, "defaults");
	struct nvc_output o;
	struct nvc_mode m;
	NVT_OK(nvc_disp_output(c, 0, &o));
	assert_true(o.connected);
	assert_int_equal(o.nmodes, 6);
	NVT_OK(nvc_disp_mode(c, 0, 0, &m));
	assert_true(m.preferred);
	assert_int_equal(m.hdisplay, 1920);
	assert_int_equal(m.vdisplay, 1080);
	NVT_OK(nvc_disp_mode(c, 0, 5, &m));
	assert_int_equal(m.hdisplay, 640);
	NVT_OK(nvc_disp_output(c, 1, &o));
	assert_true(o.connected);
	assert_int_equal(o.nmodes, 4);
	NVT_OK(nvc_disp_mode(c, 1, 0, &m));
	assert_true(m.preferred);
	assert_int_equal(m.hdisplay, 1280);
	assert_int_equal(m.vdisplay, 1024);
	nvc_close(c);
	nvt_end(nvt_d(state));
}

static void test_nvd_refuses_a_bad_monitor_spec(void **state)
{
	(void)state;
	char nvd[PATH_MAX];
	const char *bin = getenv("NVD_BIN");
	snprintf(nvd, sizeof(nvd), "%s", bin ? bin : "build/bin/nvd");
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		execl(nvd, nvd, "--socket", "/nonexistent/x", "--monitor", "0=1920y1080", (char *)NULL);
		_exit(127);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 2);
}

static void test_set_head_needs_the_master(void **state)
{
	struct nvc *c = conn(state, "not-master");
	struct nvc_bo *bo;
	uint32_t fb;
	NVT_OK(nvc_bo_new(c, 1024 * 768 * 4, NVC_VRAM, &bo));
	NVT_OK(nvc_fb_new(c, bo, 0, 1024, 768, 4096, NVC_FB_XRGB8888, &fb));
	struct nvc_head h = { .fb = fb, .outputs = 1, .mode = find_mode(c, 0, 1024, 768) };
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EACCES);
	h.fb = 0;
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EACCES);
	NVT_OK(nvc_fb_free(c, fb));
	nvc_bo_free(bo);
	nvc_close(c);
	nvt_end(nvt_d(state));
}

static void test_fb_new_refuses_what_does_not_fit(void **state)
{
	struct nvc *a = conn(state, "a"), *b = conn(state, "b");
	struct nvc_bo *bo, *bob;
	uint32_t fb, afb;
	const uint32_t size = 1024 * 768 * 4;

	NVT_OK(nvc_bo_new(a, size, NVC_VRAM, &bo));
	NVT_OK(nvc_bo_new(b, size, NVC_VRAM, &bob));
	NVT_OK(nvc_fb_new(a, bo, 0, 1024, 768, 4096, NVC_FB_XRGB8888, &afb));
	assert_int_not_equal(afb, 0);
	/* offset past the end, and a last line one byte past it */
	NVT_ERR(nvc_fb_new(a, bo, size + 4096, 16, 16, 64, NVC_FB_XRGB8888, &fb), -EINVAL);
	NVT_ERR(nvc_fb_new(a, bo, 256, 1024, 768, 4096, NVC_FB_XRGB8888, &fb), -EINVAL);
	/* pitch below a line, not a multiple of 8, above the CRTC's reach */
	NVT_ERR(nvc_fb_new(a, bo, 0, 1024, 768, 4092, NVC_FB_XRGB8888, &fb), -EINVAL);
	NVT_ERR(nvc_fb_new(a, bo, 0, 100, 10, 404, NVC_FB_XRGB8888, &fb), -EINVAL);
	NVT_ERR(nvc_fb_new(a, bo, 0, 8, 2, 0xfff * 8 + 8, NVC_FB_XRGB8888, &fb), -EINVAL);
	/* sizes whose product overflows 32 bits */
	NVT_ERR(nvc_fb_new(a, bo, 0, 0x40000000u, 4, 0x8000, NVC_FB_XRGB8888, &fb), -EINVAL);
	NVT_ERR(nvc_fb_new(a, bo, 0xffffff00u, 8, 0xffffffffu, 32, NVC_FB_XRGB8888, &fb), -EINVAL);
	NVT_ERR(nvc_fb_new(a, bo, 0, 0, 768, 4096, NVC_FB_XRGB8888, &fb), -EINVAL);
	/* unknown pixel formats */
	NVT_ERR(nvc_fb_new(a, bo, 0, 1024, 768, 4096, 0x32315659u /* YV12 */, &fb), -EINVAL);
	NVT_ERR(nvc_fb_new(a, bo, 0, 1024, 768, 4096, 0, &fb), -EINVAL);
	/* an unaligned offset */
	NVT_ERR(nvc_fb_new(a, bo, 4, 16, 16, 64, NVC_FB_XRGB8888, &fb), -EINVAL);
	/* another connection's buffer (libnvd refuses; handles are per connection) */
	NVT_ERR(nvc_fb_new(a, bob, 0, 16, 16, 64, NVC_FB_XRGB8888, &fb), -EINVAL);
	/* another connection's framebuffer */
	NVT_ERR(nvc_fb_free(b, afb), -ENOENT);
	NVT_OK(nvc_set_master(b));
	struct nvc_head h = { .fb = afb, .outputs = 1, .mode = find_mode(b, 0, 1024, 768) };
	NVT_ERR(nvc_disp_set_head(b, 0, &h), -ENOENT);
	NVT_ERR(nvc_fb_free(a, afb + 1000), -ENOENT);
	/* RGB565 fits where XRGB does not */
	NVT_OK(nvc_fb_new(a, bo, 0, 2048, 768, 4096, NVC_FB_RGB565, &fb));
	NVT_OK(nvc_fb_free(a, fb));
	NVT_OK(nvc_fb_free(a, afb));
	NVT_ERR(nvc_fb_free(a, afb), -ENOENT);
	nvc_bo_free(bo);
	nvc_bo_free(bob);
	nvc_close(a);
	nvc_close(b);
	nvt_end(nvt_d(state));
}

static uint32_t pattern(uint32_t x, uint32_t y)
{
	return (x * 0x010203u + y * 0x0a0b07u + (x ^ y) * 0x1100u) & 0xffffffu;
}

static void put_le(uint8_t *p, uint32_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Fill an fb with pattern() (in fourcc), show it from (x, y) in a mode,
 * and compare the screenshot pixel by pixel. */
static void show_and_compare(struct nvc *c, unsigned domain, uint32_t fourcc, uint32_t fw,
			     uint32_t fh, uint32_t x, uint32_t y, unsigned mw, unsigned mh)
{
	unsigned cpp = fourcc == NVC_FB_RGB565 ? 2 : 4;
	uint32_t pitch = (fw * cpp + 63) & ~63u;
	uint32_t offset = 4096;
	struct nvc_bo *bo;
	uint32_t fb, *px, w, h;

	NVT_OK(nvc_bo_new(c, offset + (uint64_t)pitch * fh, domain, &bo));
	uint8_t *map = nvc_bo_map(bo);
	assert_non_null(map);
	for (uint32_t j = 0; j < fh; j++)
		for (uint32_t i = 0; i < fw; i++) {
			uint32_t v = pattern(i, j);
			if (cpp == 2)
				v = ((v >> 19) & 31) << 11 | ((v >> 10) & 63) << 5 | ((v >> 3) & 31);
			else
				v |= (i * 37u & 0xff) << 24;   /* alpha/X is not shown */
			put_le(map + offset + (size_t)j * pitch + (size_t)i * cpp, v, cpp);
		}
	NVT_OK(nvc_fb_new(c, bo, offset, fw, fh, pitch, fourcc, &fb));
	struct nvc_head hd = { .fb = fb, .x = x, .y = y, .outputs = 1,
			       .mode = find_mode(c, 0, mw, mh) };
	NVT_OK(nvc_disp_set_head(c, 0, &hd));
	if (domain == NVC_GART) {
		/* scanout reads VRAM: the buffer went there */
		assert_int_equal(nvc_bo_refresh(bo), 1);
		assert_int_equal(nvc_bo_domain(bo), NVC_VRAM);
	}
	struct nvc_head got;
	NVT_OK(nvc_disp_head(c, 0, &got));
	assert_int_equal(got.fb, fb);
	assert_int_equal(got.x, x);
	assert_int_equal(got.y, y);
	assert_int_equal(got.outputs, 1);
	assert_int_equal(got.mode.hdisplay, mw);
	assert_int_equal(got.mode.clock, hd.mode.clock);
	NVT_OK(nvc_disp_screenshot(c, 0, &px, &w, &h));
	assert_int_equal(w, mw);
	assert_int_equal(h, mh);
	for (uint32_t j = 0; j < h; j++)
		for (uint32_t i = 0; i < w; i++) {
			uint32_t v = pattern(i + x, j + y), want = v;
			if (cpp == 2) {
				uint32_t r = (v >> 19) & 31, g = (v >> 10) & 63, b = (v >> 3) & 31;
				want = (r << 3 | r >> 2) << 16 | (g << 2 | g >> 4) << 8 | (b << 3 | b >> 2);
			}
			if (px[(size_t)j * w + i] != want)
				fail_msg("pixel (%u, %u) of the screen is 0x%08x, the fb's (%u, %u) is "
					 "0x%08x", i, j, px[(size_t)j * w + i], i + x, j + y, want);
		}
	free(px);
	/* off: nothing to see */
	struct nvc_head off = { 0 };
	NVT_OK(nvc_disp_set_head(c, 0, &off));
	NVT_ERR(nvc_disp_screenshot(c, 0, &px, &w, &h), -ENODATA);
	NVT_OK(nvc_disp_head(c, 0, &got));
	assert_int_equal(got.fb, 0);
	NVT_OK(nvc_fb_free(c, fb));
	nvc_bo_free(bo);
}

static void test_screenshot_is_the_xrgb_fb_with_panning(void **state)
{
	struct nvc *c = conn(state, "xrgb");
	NVT_OK(nvc_set_master(c));
	show_and_compare(c, NVC_VRAM, NVC_FB_XRGB8888, 1100, 800, 17, 9, 1024, 768);
	show_and_compare(c, NVC_VRAM, NVC_FB_ARGB8888, 1600, 1200, 0, 0, 1600, 1200);
	nvc_close(c);
	nvt_end(nvt_d(state));
}

static void test_screenshot_is_the_rgb565_fb_with_panning(void **state)
{
	struct nvc *c = conn(state, "rgb565");
	NVT_OK(nvc_set_master(c));
	show_and_compare(c, NVC_VRAM, NVC_FB_RGB565, 1300, 1030, 20, 5, 1280, 1024);
	nvc_close(c);
	nvt_end(nvt_d(state));
}

static void test_a_gart_fb_moves_to_vram_for_scanout(void **state)
{
	struct nvc *c = conn(state, "gart");
	NVT_OK(nvc_set_master(c));
	show_and_compare(c, NVC_GART, NVC_FB_XRGB8888, 1024, 768, 0, 0, 1024, 768);
	nvc_close(c);
	nvt_end(nvt_d(state));
}

static void test_set_head_refuses_bad_requests(void **state)
{
	struct nvc *c = conn(state, "bad-heads");
	struct nvc_bo *bo;
	uint32_t fb, fb16;
	NVT_OK(nvc_set_master(c));
	NVT_OK(nvc_bo_new(c, 1024 * 768 * 4, NVC_VRAM, &bo));
	NVT_OK(nvc_fb_new(c, bo, 0, 1024, 768, 4096, NVC_FB_XRGB8888, &fb));
	NVT_OK(nvc_fb_new(c, bo, 0, 1040, 768, 2080, NVC_FB_RGB565, &fb16));
	struct nvc_mode good = find_mode(c, 0, 1024, 768);
	struct nvc_head h = { .fb = fb, .outputs = 1, .mode = good };
	NVT_ERR(nvc_disp_set_head(c, 2, &h), -EINVAL);
	h.outputs = 2;                                     /* output 1 is head 1's */
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.outputs = 0;
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.outputs = 1;
	h.x = 1;                                           /* the screen leaves the fb */
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.x = 0xffffffffu;
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.x = 0;
	h.mode.htotal = h.mode.hdisplay - 8;               /* sync order and totals */
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.mode = good;
	h.mode.vsync_end = h.mode.vsync_start;
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.mode = good;
	h.mode.htotal = 65528;
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.mode = good;
	h.mode.clock = 1000;                               /* clock range */
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.mode.clock = 4000000;
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.mode = good;
	h.mode.flags = NVC_MODE_PHSYNC | NVC_MODE_NHSYNC;
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.mode = good;
	h.mode.flags = 0x100;
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.mode = good;
	h.mode.hdisplay = 1020;                            /* not whole characters */
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.mode = good;                                     /* syncs drop to whole characters */
	h.mode.hsync_start += 3;                           /* (CEA 1080p's end is 2052) */
	h.mode.hsync_end += 4;
	NVT_OK(nvc_disp_set_head(c, 0, &h));
	/* RGB565 panning to an odd x is not 4-byte aligned; an even one is */
	h.mode = good;
	h.fb = fb16;
	h.x = 3;
	NVT_ERR(nvc_disp_set_head(c, 0, &h), -EINVAL);
	h.x = 2;
	NVT_OK(nvc_disp_set_head(c, 0, &h));
	h.x = 0;
	h.fb = fb;
	NVT_OK(nvc_disp_set_head(c, 0, &h));
	/* nothing was shown by the failures, the good one is */
	uint32_t *px, w, hh;
	NVT_OK(nvc_disp_screenshot(c, 0, &px, &w, &hh));
	free(px);
	NVT_ERR(nvc_disp_screenshot(c, 1, &px, &w, &hh), -ENODATA);
	NVT_ERR(nvc_disp_screenshot(c, 2, &px, &w, &hh), -EINVAL);
	NVT_OK(nvc_fb_free(c, fb));
	NVT_OK(nvc_fb_free(c, fb16));
	nvc_bo_free(bo);
	nvc_close(c);
	nvt_end(nvt_d(state));
}

static void test_fb_freed_while_shown_turns_the_head_off(void **state)
{
	struct nvc *c = conn(state, "free-shown"), *look = conn(state, "look");
	struct nvc_bo *bo;
	uint32_t fb, *px, w, h;
	NVT_OK(nvc_set_master(c));
	NVT_OK(nvc_bo_new(c, 1024 * 768 * 4, NVC_VRAM, &bo));
	NVT_OK(nvc_fb_new(c, bo, 0, 1024, 768, 4096, NVC_FB_XRGB8888, &fb));
	struct nvc_head hd = { .fb = fb, .outputs = 1, .mode = find_mode(c, 0, 1024, 768) };
	NVT_OK(nvc_disp_set_head(c, 0, &hd));
	/* the buffer is freed first: the framebuffer keeps its memory */
	nvc_bo_free(bo);
	NVT_OK(nvc_disp_screenshot(look, 0, &px, &w, &h));   /* nvd's own user may look */
	free(px);
	NVT_OK(nvc_fb_free(c, fb));
	struct nvc_head got;
	NVT_OK(nvc_disp_head(look, 0, &got));
	assert_int_equal(got.fb, 0);
	NVT_ERR(nvc_disp_screenshot(look, 0, &px, &w, &h), -ENODATA);

	/* the master goes with its framebuffer on a head: the head goes off */
	NVT_OK(nvc_bo_new(c, 1024 * 768 * 4, NVC_GART, &bo));
	NVT_OK(nvc_fb_new(c, bo, 0, 1024, 768, 4096, NVC_FB_XRGB8888, &fb));
	hd.fb = fb;
	NVT_OK(nvc_disp_set_head(c, 0, &hd));
	NVT_OK(nvc_disp_screenshot(look, 0, &px, &w, &h));
	free(px);
	nvc_close(c);
	for (int i = 0; i < 200; i++) {             /* nvd notices the close soon */
		NVT_OK(nvc_disp_head(look, 0, &got));
		if (!got.fb)
			break;
		nvt_sleep_ms(5);
	}
	assert_int_equal(got.fb, 0);
	NVT_ERR(nvc_disp_screenshot(look, 0, &px, &w, &h), -ENODATA);
	nvc_close(look);
	nvt_end(nvt_d(state));
}

/* What the screen shows with the cursor on it: the kernel's alpha nudge,
 * then premultiplied "over". */
static uint32_t over(uint32_t screen, uint32_t cursor)
{
	uint32_t a = cursor >> 24, v = 0;
	if (a > 0 && a < 255)
		a++;
	for (unsigned k = 0; k < 24; k += 8) {
		uint32_t ch = ((cursor >> k) & 255) + (((screen >> k) & 255) * (255 - a) + 127) / 255;
		v |= (ch > 255 ? 255 : ch) << k;
	}
	return v;
}

static uint32_t cursor_px(unsigned i, unsigned j)
{
	uint32_t a = (i * 4 + j) & 255, c = (i * 3 + j * 5) & 255;
	c = c * a / 255;                                   /* premultiplied */
	return a << 24 | c << 16 | (a / 2) << 8 | (255 - c) * a / 255;
}

static void check_cursor_at(struct nvc *c, int cx, int cy, int shown)
{
	uint32_t *px, w, h;
	NVT_OK(nvc_disp_screenshot(c, 0, &px, &w, &h));
	for (uint32_t j = 0; j < h; j++)
		for (uint32_t i = 0; i < w; i++) {
			uint32_t want = pattern(i, j);
			int ci = (int)i - cx, cj = (int)j - cy;
			if (shown && ci >= 0 && ci < NVC_CURSOR_SIZE && cj >= 0 && cj < NVC_CURSOR_SIZE)
				want = over(want, cursor_px((unsigned)ci, (unsigned)cj));
			if (px[(size_t)j * w + i] != want)
				fail_msg("cursor at (%d, %d): pixel (%u, %u) is 0x%08x, expected 0x%08x",
					 cx, cy, i, j, px[(size_t)j * w + i], want);
		}
	free(px);
}

/* `nvdctl screenshot 0 FILE.png` writes the pixels nvc_disp_screenshot gives. */
static void nvdctl_png_is_the_screenshot(void **state, struct nvc *c)
{
	const char *tools = getenv("NVD_TOOLS");
	char cmd[512], png[256];
	uint32_t *px, w, h;
	snprintf(png, sizeof(png), "%s/head0.png", nvt_d(state)->dir);
	snprintf(cmd, sizeof(cmd), "%s/nvdctl --socket %s screenshot 0 %s", tools ? tools : "build/bin",
		 nvt_d(state)->sock, png);
	assert_int_equal(system(cmd), 0);
	NVT_OK(nvc_disp_screenshot(c, 0, &px, &w, &h));
	png_image im;
	memset(&im, 0, sizeof(im));
	im.version = PNG_IMAGE_VERSION;
	assert_true(png_image_begin_read_from_file(&im, png));
	assert_int_equal(im.width, w);
	assert_int_equal(im.height, h);
	im.format = PNG_FORMAT_RGB;
	uint8_t *rgb = malloc(PNG_IMAGE_SIZE(im));
	assert_non_null(rgb);
	assert_true(png_image_finish_read(&im, NULL, rgb, 0, NULL));
	for (size_t i = 0; i < (size_t)w * h; i++)
		if (((uint32_t)rgb[3 * i] << 16 | rgb[3 * i + 1] << 8 | rgb[3 * i + 2]) != px[i])
			fail_msg("PNG pixel %zu differs from the screenshot's", i);
	free(rgb);
	free(px);
	unlink(png);
}

static void test_screenshot_composites_the_cursor(void **state)
{
	struct nvc *c = conn(state, "cursor"), *other = conn(state, "other");
	struct nvc_bo *bo, *cur;
	uint32_t fb;
	NVT_OK(nvc_set_master(c));
	NVT_OK(nvc_bo_new(c, 1024 * 768 * 4, NVC_VRAM, &bo));
	uint8_t *map = nvc_bo_map(bo);
	for (uint32_t j = 0; j < 768; j++)
		for (uint32_t i = 0; i < 1024; i++)
			put_le(map + (size_t)j * 4096 + i * 4, pattern(i, j), 4);
	NVT_OK(nvc_fb_new(c, bo, 0, 1024, 768, 4096, NVC_FB_XRGB8888, &fb));
	struct nvc_head hd = { .fb = fb, .outputs = 1, .mode = find_mode(c, 0, 1024, 768) };
	NVT_OK(nvc_disp_set_head(c, 0, &hd));
	nvdctl_png_is_the_screenshot(state, c);
	NVT_OK(nvc_bo_new(c, 8192 + 64 * 64 * 4, NVC_GART, &cur));
	map = nvc_bo_map(cur);
	for (unsigned j = 0; j < 64; j++)
		for (unsigned i = 0; i < 64; i++)
			put_le(map + 8192 + (j * 64 + i) * 4, cursor_px(i, j), 4);
	NVT_ERR(nvc_disp_cursor_set(other, 0, NULL, 0), -EACCES);
	NVT_ERR(nvc_disp_cursor_move(other, 0, 1, 1), -EACCES);
	NVT_ERR(nvc_disp_cursor_set(c, 0, cur, 8192 + 4), -EINVAL);   /* runs past the end */
	NVT_ERR(nvc_disp_cursor_set(c, 0, cur, 8194), -EINVAL);       /* unaligned */
	NVT_ERR(nvc_disp_cursor_set(c, 2, cur, 8192), -EINVAL);
	NVT_ERR(nvc_disp_cursor_move(c, 0, 40000, 0), -EINVAL);
	NVT_OK(nvc_disp_cursor_move(c, 0, 100, 50));
	NVT_OK(nvc_disp_cursor_set(c, 0, cur, 8192));
	check_cursor_at(c, 100, 50, 1);
	NVT_OK(nvc_disp_cursor_move(c, 0, -10, -20));
	check_cursor_at(c, -10, -20, 1);
	NVT_OK(nvc_disp_cursor_move(c, 0, 1000, 740));
	check_cursor_at(c, 1000, 740, 1);
	NVT_OK(nvc_disp_cursor_set(c, 0, NULL, 0));
	check_cursor_at(c, 1000, 740, 0);
	NVT_OK(nvc_fb_free(c, fb));
	nvc_bo_free(bo);
	nvc_bo_free(cur);
	nvc_close(c);
	nvc_close(other);
	nvt_end(nvt_d(state));
}

static uint32_t pattern2(uint32_t x, uint32_t y)
{
	return pattern(y, x) ^ 0x00ff00ffu;
}

static void fill(struct nvc_bo *bo, uint32_t (*pat)(uint32_t, uint32_t))
{
	uint8_t *map = nvc_bo_map(bo);
	assert_non_null(map);
	for (uint32_t j = 0; j < 768; j++)
		for (uint32_t i = 0; i < 1024; i++)
			put_le(map + (size_t)j * 4096 + i * 4, pat(i, j), 4);
}

static void assert_screen(struct nvc *c, uint32_t (*pat)(uint32_t, uint32_t))
{
	uint32_t *px, w, h;
	NVT_OK(nvc_disp_screenshot(c, 0, &px, &w, &h));
	for (uint32_t j = 0; j < h; j++)
		for (uint32_t i = 0; i < w; i++)
			if (px[(size_t)j * w + i] != pat(i, j))
				fail_msg("pixel (%u, %u) is 0x%08x, expected 0x%08x", i, j,
					 px[(size_t)j * w + i], pat(i, j));
	free(px);
}

static void wait_flip(struct nvc *c, uint64_t user_data)
{
	struct nvc_disp_event ev;
	int fd = nvc_disp_event_fd(c);
	NVT_OK(fd);
	struct pollfd p = { fd, POLLIN, 0 };
	assert_int_equal(poll(&p, 1, 3000), 1);
	assert_int_equal(nvc_disp_event_read(c, &ev), 1);
	assert_int_equal(ev.type, NVC_DISP_EVENT_FLIP);
	assert_int_equal(ev.head, 0);
	assert_true(ev.user_data == user_data);
	assert_true(ev.sequence >= 1);
	assert_true(ev.time_ns > 0);
	assert_int_equal(nvc_disp_event_read(c, &ev), 0);   /* one event per flip */
}

static void test_page_flip_shows_the_new_fb_at_vblank_with_an_event(void **state)
{
	struct nvc *c = conn(state, "flipper"), *other = conn(state, "other");
	struct nvc_bo *a, *b;
	uint32_t fa, fb;
	NVT_OK(nvc_set_master(c));
	NVT_OK(nvc_bo_new(c, 1024 * 768 * 4, NVC_VRAM, &a));
	NVT_OK(nvc_bo_new(c, 1024 * 768 * 4, NVC_GART, &b));
	fill(a, pattern);
	fill(b, pattern2);
	NVT_OK(nvc_fb_new(c, a, 0, 1024, 768, 4096, NVC_FB_XRGB8888, &fa));
	NVT_OK(nvc_fb_new(c, b, 0, 1024, 768, 4096, NVC_FB_XRGB8888, &fb));
	NVT_ERR(nvc_disp_page_flip(c, 0, fb, 1), -EINVAL);            /* head off */
	struct nvc_head hd = { .fb = fa, .outputs = 1, .mode = find_mode(c, 0, 1024, 768) };
	NVT_OK(nvc_disp_set_head(c, 0, &hd));
	NVT_ERR(nvc_disp_page_flip(other, 0, fb, 1), -EACCES);
	NVT_ERR(nvc_disp_page_flip(c, 0, fb + 100, 1), -ENOENT);
	NVT_ERR(nvc_disp_page_flip(c, 2, fb, 1), -EINVAL);
	assert_int_equal(nvc_disp_event_fd(c), nvc_disp_event_fd(c));
	NVT_OK(nvc_disp_page_flip(c, 0, fb, 0x123456789abcull));
	int r = nvc_disp_page_flip(c, 0, fa, 2);
	if (r != -EBUSY)
		fail_msg("a second flip before the vblank gave %d, not -EBUSY", r);
	wait_flip(c, 0x123456789abcull);
	struct nvc_head got;
	NVT_OK(nvc_disp_head(c, 0, &got));
	assert_int_equal(got.fb, fb);
	assert_int_equal(nvc_bo_refresh(b), 1);                      /* it went to VRAM */
	assert_screen(c, pattern2);
	NVT_OK(nvc_disp_page_flip(c, 0, fa, 7));
	wait_flip(c, 7);
	assert_screen(c, pattern);
	/* the old one is free to go now; the shown one takes the head with it */
	NVT_OK(nvc_fb_free(c, fb));
	NVT_OK(nvc_disp_head(c, 0, &got));
	assert_int_equal(got.fb, fa);
	NVT_OK(nvc_disp_page_flip(c, 0, fa, 8));
	NVT_OK(nvc_fb_free(c, fa));                                  /* flip pending */
	NVT_OK(nvc_disp_head(c, 0, &got));
	assert_int_equal(got.fb, 0);
	nvc_bo_free(a);
	nvc_bo_free(b);
	nvc_close(c);
	nvc_close(other);
	nvt_end(nvt_d(state));
}

/* ---- vblanks ---- */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The master's head 0 on a 1024x768@60 framebuffer; *period_ns its frame. */
static uint32_t vblank_head(struct nvc *c, struct nvc_bo **bo, uint64_t *period_ns)
{
	uint32_t fb;
	NVT_OK(nvc_set_master(c));
	NVT_OK(nvc_bo_new(c, 1024 * 768 * 4, NVC_VRAM, bo));
	NVT_OK(nvc_fb_new(c, *bo, 0, 1024, 768, 4096, NVC_FB_XRGB8888, &fb));
	struct nvc_head hd = { .fb = fb, .outputs = 1, .mode = find_mode(c, 0, 1024, 768) };
	NVT_OK(nvc_disp_set_head(c, 0, &hd));
	*period_ns = (uint64_t)hd.mode.htotal * hd.mode.vtotal * 1000000u / hd.mode.clock;
	return fb;
}

/* The next event (3 s at most). */
static void next_event(struct nvc *c, struct nvc_disp_event *ev)
{
	struct pollfd p = { nvc_disp_event_fd(c), POLLIN, 0 };
	for (;;) {
		int r = nvc_disp_event_read(c, ev);
		NVT_OK(r);
		if (r == 1)
			return;
		if (poll(&p, 1, 3000) != 1)
			fail_msg("no display event within 3 s");
	}
}

/* Counts advance at the refresh rate: between two reads the count moves by
 * the time between their vblanks over the frame (to one vblank), that time
 * is within a frame of the wall clock's, and anyone may read it. */
static void test_vblank_count_advances_at_the_refresh_rate(void **state)
{
	struct nvc *c = conn(state, "master"), *other = conn(state, "other");
	struct nvc_bo *bo;
	uint64_t period, s0, t0, s1, t1, so, to;

	NVT_ERR(nvc_disp_vblank(c, 0, &s0, &t0), -EINVAL);          /* off */
	uint32_t fb = vblank_head(c, &bo, &period);
	uint64_t w0 = now_ns();
	NVT_OK(nvc_disp_vblank(c, 0, &s0, &t0));
	assert_true(t0 <= now_ns() && t0 + period + 5000000 >= w0);
	nvt_sleep_ms(500);
	NVT_OK(nvc_disp_vblank(other, 0, &so, &to));                  /* not the master */
	NVT_OK(nvc_disp_vblank(c, 0, &s1, &t1));
	uint64_t w1 = now_ns();
	assert_true(so <= s1 && so + 1 >= s1 - (s1 > 0));
	double frames = (double)(t1 - t0) / (double)period;
	double wall = (double)(w1 - w0) / (double)period;
	print_message("# %llu vblanks in %.1f ms of vblank times (%.2f frames), %.1f ms of wall "
		      "clock; frame %.3f ms\n", (unsigned long long)(s1 - s0), (t1 - t0) / 1e6,
		      frames, (w1 - w0) / 1e6, period / 1e6);
	if (s1 - s0 < (uint64_t)(frames - 0.5) || s1 - s0 > (uint64_t)(frames + 1.5))
		fail_msg("the count moved %llu for %.2f frames of its own times",
			 (unsigned long long)(s1 - s0), frames);
	/* 500 ms at 60 Hz: 30 frames; broad bounds for a busy machine */
	if (s1 - s0 < 20 || (double)(s1 - s0) > wall + 2)
		fail_msg("the count moved %llu in %.2f frames of wall clock",
			 (unsigned long long)(s1 - s0), wall);
	NVT_ERR(nvc_disp_vblank(c, 1, &s1, &t1), -EINVAL);          /* head 1 is off */
	NVT_ERR(nvc_disp_vblank(c, 2, &s1, &t1), -EINVAL);
	NVT_ERR(nvc_disp_vblank(c, 0xffffffffu, &s1, &t1), -EINVAL);
	/* a mode set keeps the count going */
	struct nvc_head hd = { .fb = fb, .outputs = 1, .mode = find_mode(c, 0, 1024, 768) };
	NVT_OK(nvc_disp_vblank(c, 0, &s0, &t0));
	NVT_OK(nvc_disp_set_head(c, 0, &hd));
	NVT_OK(nvc_disp_vblank(c, 0, &s1, &t1));
	assert_true(s1 >= s0 && s1 <= s0 + 2);
	NVT_OK(nvc_fb_free(c, fb));
	NVT_ERR(nvc_disp_vblank(c, 0, &s1, &t1), -EINVAL);          /* off again */
	nvc_bo_free(bo);
	nvc_close(other);
	nvc_close(c);
	nvt_end(nvt_d(state));
}

/* Events come at the vblank asked for, in the order of their targets (the
 * order asked for the same target), a target passed at once with the count
 * now; relative and absolute targets; the reply gives the vblank. */
static void test_vblank_events_arrive_at_their_count_in_order(void **state)
{
	struct nvc *c = conn(state, "master");
	struct nvc_bo *bo;
	struct nvc_disp_event ev;
	uint64_t period, s, t, tg;

	uint32_t fb = vblank_head(c, &bo, &period);
	NVT_OK(nvc_disp_vblank(c, 0, &s, &t));
	if (s < 2) {               /* a target in the past needs a count of 2 */
		nvt_sleep_ms(60);
		NVT_OK(nvc_disp_vblank(c, 0, &s, &t));
	}
	NVT_OK(nvc_disp_vblank_event(c, 0, 0, s + 8, 8, &tg));
	assert_true(tg == s + 8);
	NVT_OK(nvc_disp_vblank_event(c, 0, 0, s + 5, 5, &tg));
	NVT_OK(nvc_disp_vblank_event(c, 0, 0, s + 5, 55, &tg));      /* same vblank */
	NVT_OK(nvc_disp_vblank_event(c, 0, NVC_VBLANK_RELATIVE, 3, 3, &tg));
	assert_true(tg >= s + 3 && tg <= s + 4);
	uint64_t rel = tg;
	NVT_OK(nvc_disp_vblank_event(c, 0, 0, s - 2, 100, &tg));     /* passed */
	assert_true(tg >= s);
	next_event(c, &ev);
	assert_int_equal(ev.type, NVC_DISP_EVENT_VBLANK);
	assert_int_equal(ev.head, 0);
	assert_true(ev.user_data == 100);
	assert_true(ev.sequence >= s && ev.sequence <= s + 2);
	static const uint64_t order[] = { 3, 5, 55, 8 };
	uint64_t last_seq = ev.sequence, last_t = ev.time_ns;
	for (unsigned i = 0; i < 4; i++) {
		next_event(c, &ev);
		uint64_t want = order[i] == 3 ? rel : s + (order[i] == 55 ? 5 : order[i]);
		print_message("# event %llu: vblank %llu (asked %llu)\n",
			      (unsigned long long)ev.user_data, (unsigned long long)ev.sequence,
			      (unsigned long long)want);
		assert_int_equal(ev.type, NVC_DISP_EVENT_VBLANK);
		assert_true(ev.user_data == order[i]);
		/* at the vblank asked; later only by what a busy machine delays */
		assert_true(ev.sequence >= want && ev.sequence <= want + 30);
		assert_true(ev.sequence >= last_seq && ev.time_ns >= last_t);
		assert_true(ev.time_ns <= now_ns());
		last_seq = ev.sequence;
		last_t = ev.time_ns;
	}
	assert_int_equal(nvc_disp_event_read(c, &ev), 0);
	NVT_OK(nvc_disp_vblank(c, 0, &s, &t));
	assert_true(s >= last_seq && t >= last_t);
	/* relative 0: at once */
	NVT_OK(nvc_disp_vblank_event(c, 0, NVC_VBLANK_RELATIVE, 0, 9, NULL));
	next_event(c, &ev);
	assert_true(ev.user_data == 9 && ev.sequence >= s);
	NVT_OK(nvc_fb_free(c, fb));
	nvc_bo_free(bo);
	nvc_close(c);
	nvt_end(nvt_d(state));
}

/* Only the master may ask for events; heads that are off or do not exist,
 * unknown flags and targets beyond 2^32 vblanks are refused; a connection
 * has at most NVC_VBLANK_EVENTS_MAX waiting; turning the head off sends
 * them all at once (below their target); a connection that goes takes its
 * own with it. */
static void test_vblank_event_errors_limit_and_head_off(void **state)
{
	struct nvc *c = conn(state, "master"), *other = conn(state, "other");
	struct nvc_bo *bo;
	struct nvc_disp_event ev;
	uint64_t period, s, t;

	NVT_ERR(nvc_disp_vblank_event(c, 0, 0, 10, 1, NULL), -EACCES);  /* not master yet */
	uint32_t fb = vblank_head(c, &bo, &period);
	NVT_ERR(nvc_disp_vblank_event(other, 0, NVC_VBLANK_RELATIVE, 1, 1, NULL), -EACCES);
	NVT_ERR(nvc_disp_vblank_event(c, 1, NVC_VBLANK_RELATIVE, 1, 1, NULL), -EINVAL);  /* off */
	NVT_ERR(nvc_disp_vblank_event(c, 2, NVC_VBLANK_RELATIVE, 1, 1, NULL), -EINVAL);
	NVT_ERR(nvc_disp_vblank_event(c, 0, 0x80, 1, 1, NULL), -EINVAL);
	NVT_ERR(nvc_disp_vblank_event(c, 0, NVC_VBLANK_RELATIVE, (1ull << 32) + 1, 1, NULL),
		-EINVAL);
	NVT_ERR(nvc_disp_vblank_event(c, 0, NVC_VBLANK_RELATIVE, UINT64_MAX, 1, NULL), -EINVAL);
	NVT_ERR(nvc_disp_vblank_event(c, 0, 0, UINT64_MAX, 1, NULL), -EINVAL);
	NVT_OK(nvc_disp_vblank(c, 0, &s, &t));
	for (unsigned i = 0; i < NVC_VBLANK_EVENTS_MAX; i++)
		NVT_OK(nvc_disp_vblank_event(c, 0, 0, s + 100000 + i, i, NULL));
	NVT_ERR(nvc_disp_vblank_event(c, 0, NVC_VBLANK_RELATIVE, 1, 999, NULL), -EMFILE);
	assert_int_equal(nvc_disp_event_read(c, &ev), 0);
	/* head off: every one now, in order, below its target */
	struct nvc_head off = { 0 };
	NVT_OK(nvc_disp_set_head(c, 0, &off));
	for (unsigned i = 0; i < NVC_VBLANK_EVENTS_MAX; i++) {
		next_event(c, &ev);
		assert_int_equal(ev.type, NVC_DISP_EVENT_VBLANK);
		assert_true(ev.user_data == i);
		assert_true(ev.sequence < s + 100000);
	}
	assert_int_equal(nvc_disp_event_read(c, &ev), 0);
	/* on again: the count goes on, the limit is free again */
	struct nvc_head hd = { .fb = fb, .outputs = 1, .mode = find_mode(c, 0, 1024, 768) };
	NVT_OK(nvc_disp_set_head(c, 0, &hd));
	uint64_t s2;
	NVT_OK(nvc_disp_vblank(c, 0, &s2, &t));
	assert_true(s2 >= s);
	for (unsigned i = 0; i < NVC_VBLANK_EVENTS_MAX; i++)
		NVT_OK(nvc_disp_vblank_event(c, 0, NVC_VBLANK_RELATIVE, 1000 + i, i, NULL));
	/* and a connection that goes with them waiting leaves nothing */
	NVT_OK(nvc_fb_free(c, fb));
	nvc_bo_free(bo);
	nvc_close(c);
	nvc_close(other);
	nvt_end(nvt_d(state));
}

/* As root: a client of another uid that is not the master may not look. */
static void test_screenshot_refused_to_other_users(void **state)
{
	if (geteuid() != 0) {
		print_message("not root: cannot connect as another user, skipped\n");
		skip();
	}
	struct nvc *c = conn(state, "master");
	struct nvc_bo *bo;
	uint32_t fb;
	NVT_OK(nvc_set_master(c));
	NVT_OK(nvc_bo_new(c, 1024 * 768 * 4, NVC_VRAM, &bo));
	NVT_OK(nvc_fb_new(c, bo, 0, 1024, 768, 4096, NVC_FB_XRGB8888, &fb));
	struct nvc_head hd = { .fb = fb, .outputs = 1, .mode = find_mode(c, 0, 1024, 768) };
	NVT_OK(nvc_disp_set_head(c, 0, &hd));
	chmod(nvt_d(state)->dir, 0755);
	pid_t pid = fork();
	if (pid == 0) {
		struct nvc *o;
		uint32_t *px, w, h;
		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(3);
		if (nvc_connect(nvt_d(state)->sock, "nobody", &o) < 0)
			_exit(4);
		int r = nvc_disp_screenshot(o, 0, &px, &w, &h);
		struct nvc_head h2 = { 0 };
		int r2 = nvc_disp_set_head(o, 0, &h2);
		nvc_close(o);
		_exit(r == -EACCES && r2 == -EACCES ? 0 : 5);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	NVT_OK(nvc_fb_free(c, fb));
	nvc_bo_free(bo);
	nvc_close(c);
	nvt_end(nvt_d(state));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_outputs_and_modes_are_the_monitors_given, monitors),
		NVT_TEST(test_default_monitors),
		cmocka_unit_test(test_nvd_refuses_a_bad_monitor_spec),
		NVT_TEST(test_set_head_needs_the_master),
		NVT_TEST(test_fb_new_refuses_what_does_not_fit),
		NVT_TEST_ARGS(test_screenshot_is_the_xrgb_fb_with_panning, monitors),
		NVT_TEST(test_screenshot_is_the_rgb565_fb_with_panning),
		NVT_TEST(test_a_gart_fb_moves_to_vram_for_scanout),
		NVT_TEST(test_set_head_refuses_bad_requests),
		NVT_TEST(test_fb_freed_while_shown_turns_the_head_off),
		NVT_TEST(test_screenshot_composites_the_cursor),
		NVT_TEST(test_page_flip_shows_the_new_fb_at_vblank_with_an_event),
		NVT_TEST(test_screenshot_refused_to_other_users),
		NVT_TEST(test_vblank_count_advances_at_the_refresh_rate),
		NVT_TEST(test_vblank_events_arrive_at_their_count_in_order),
		NVT_TEST(test_vblank_event_errors_limit_and_head_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
