/* The harness's XWD reader, which the X tests judge pixels with: against
 * XWD files made here in every layout it claims to read (both byte orders,
 * 24 and 32 bpp, padded lines, a window name and colours before the image,
 * other channel masks), against malformed ones, and against what xwd
 * prints for a real server (Xvfb) showing a known root: a solid colour,
 * then a tile of odd size repeated from (0, 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/nvt.h"
#include "tests/lib/nvt-x.h"

/* ---- XWD files made here ---- */

struct layout {
	unsigned bpp, pad;          /* bits per pixel, bytes after each line */
	int msb;                    /* MSBFirst image */
	uint32_t rmask, gmask, bmask;
	const char *name;           /* window name in the header */
	unsigned ncolors;
};

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* A w x h image of `px` (XRGB) in layout l; *len bytes. */
static uint8_t *make_xwd(const struct layout *l, const uint32_t *px, unsigned w, unsigned h,
			 size_t *len)
{
	size_t name = strlen(l->name) + 1;
	size_t header = 100 + name;
	unsigned bytes = l->bpp / 8, bpl = w * bytes + l->pad;
	size_t image = header + l->ncolors * 12;
	*len = image + (size_t)bpl * h;
	uint8_t *d = calloc(1, *len);
	assert_non_null(d);
	const uint32_t f[25] = {
		(uint32_t)header, 7, 2, 24, w, h, 0, (uint32_t)l->msb, 32, (uint32_t)l->msb, 32,
		l->bpp, bpl, 4, l->rmask, l->gmask, l->bmask, 8, 256, l->ncolors, w, h, 0, 0, 0,
	};
	for (unsigned i = 0; i < 25; i++)
		put_be32(d + 4 * i, f[i]);
	memcpy(d + 100, l->name, name);
	/* colours the reader must step over: 0xee so they are no pixels */
	memset(d + header, 0xee, l->ncolors * 12);
	for (unsigned y = 0; y < h; y++) {
		uint8_t *row = d + image + (size_t)y * bpl;
		memset(row + w * bytes, 0xa5, l->pad);
		for (unsigned x = 0; x < w; x++) {
			uint32_t c = px[y * w + x], v = 0;
			/* place each 8-bit channel under its mask */
			v |= ((c >> 16) & 0xff) << __builtin_ctz(l->rmask);
			v |= ((c >> 8) & 0xff) << __builtin_ctz(l->gmask);
			v |= (c & 0xff) << __builtin_ctz(l->bmask);
			for (unsigned b = 0; b < bytes; b++)
				row[x * bytes + b] =
					(uint8_t)(v >> (8 * (l->msb ? bytes - 1 - b : b)));
		}
	}
	return d;
}

static void check_layout(const struct layout *l)
{
	const unsigned w = 37, h = 23;
	uint32_t ref[37 * 23], seed = 0x1234 + l->bpp + l->pad * 7 + (unsigned)l->msb;
	for (unsigned i = 0; i < w * h; i++)
		ref[i] = nvt_rand(&seed) & 0xffffff;
	size_t len;
	uint8_t *d = make_xwd(l, ref, w, h, &len);
	uint32_t *px;
	unsigned gw, gh;
	assert_int_equal(nvt_xwd_parse(d, len, &px, &gw, &gh), 0);
	assert_int_equal(gw, w);
	assert_int_equal(gh, h);
	for (unsigned i = 0; i < w * h; i++)
		if (px[i] != ref[i])
			fail_msg("%u bpp %s pad %u: pixel (%u, %u) is %06x, expected %06x", l->bpp,
				 l->msb ? "MSBFirst" : "LSBFirst", l->pad, i % w, i / w, px[i],
				 ref[i]);
	printf("xwd %u bpp %s, %u bytes of padding, %u colours, masks %06x %06x %06x: "
	       "%ux%u pixels as made\n", l->bpp, l->msb ? "MSBFirst" : "LSBFirst", l->pad,
	       l->ncolors, l->rmask, l->gmask, l->bmask, w, h);
	free(px);
	free(d);
}

static void test_xwd_layouts(void **state)
{
	(void)state;
	static const struct layout layouts[] = {
		{ 32, 0, 0, 0xff0000, 0xff00, 0xff, "xwdump", 0 },
		{ 32, 12, 1, 0xff0000, 0xff00, 0xff, "a longer window name", 256 },
		{ 24, 1, 0, 0xff0000, 0xff00, 0xff, "", 16 },
		{ 24, 3, 1, 0xff0000, 0xff00, 0xff, "msb", 3 },
		{ 32, 4, 0, 0xff, 0xff00, 0xff0000, "bgr", 0 },
		{ 32, 0, 1, 0xff000000, 0xff0000, 0xff00, "rgbx", 1 },
	};
	for (unsigned i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		check_layout(&layouts[i]);
}

/* DirectColor, as xwd -root writes it over windows of other visuals: each
 * channel indexes the colormap, whose entries give the colour. */
static void test_xwd_directcolor_goes_through_the_colormap(void **state)
{
	(void)state;
	const struct layout l = { 24, 0, 1, 0xff0000, 0xff00, 0xff, "direct", 256 };
	const unsigned w = 19, h = 7;
	uint32_t ref[19 * 7], seed = 77;
	for (unsigned i = 0; i < w * h; i++)
		ref[i] = nvt_rand(&seed) & 0xffffff;
	size_t len;
	uint8_t *d = make_xwd(&l, ref, w, h, &len);
	put_be32(d + 4 * 13, 5);
	uint8_t *colors = d + 100 + strlen(l.name) + 1;
	for (unsigned i = 0; i < 256; i++) {
		uint8_t *e = colors + i * 12;
		put_be32(e, i << 16 | i << 8 | i);
		e[4] = (uint8_t)(255 - i), e[5] = 0;
		e[6] = (uint8_t)(i ^ 0x55), e[7] = 0;
		e[8] = (uint8_t)(i * 3), e[9] = 0;
	}
	uint32_t *px;
	unsigned gw, gh;
	assert_int_equal(nvt_xwd_parse(d, len, &px, &gw, &gh), 0);
	for (unsigned i = 0; i < w * h; i++) {
		uint32_t r = ref[i] >> 16, g = ref[i] >> 8 & 0xff, b = ref[i] & 0xff;
		uint32_t want = (255 - r) << 16 | (g ^ 0x55) << 8 | ((b * 3) & 0xff);
		if (px[i] != want)
			fail_msg("pixel %u: %06x, expected %06x through the colormap", i, px[i], want);
	}
	printf("xwd DirectColor: %ux%u pixels through a 256-entry colormap\n", w, h);
	free(px);
	free(d);
}

static void test_xwd_refuses_what_it_cannot_read(void **state)
{
	(void)state;
	const struct layout l = { 32, 0, 0, 0xff0000, 0xff00, 0xff, "x", 2 };
	uint32_t ref[8 * 4] = { 0 };
	size_t len;
	uint8_t *d = make_xwd(&l, ref, 8, 4, &len);
	uint32_t *px;
	unsigned w, h;

	/* one byte short of the image */
	assert_int_equal(nvt_xwd_parse(d, len - 1, &px, &w, &h), -EINVAL);
	assert_null(px);
	assert_int_equal(nvt_xwd_parse(d, 99, &px, &w, &h), -EINVAL);
	/* a header that claims more colours than the file holds */
	put_be32(d + 4 * 19, 0x10000000);
	assert_int_equal(nvt_xwd_parse(d, len, &px, &w, &h), -EINVAL);
	put_be32(d + 4 * 19, 2);
	/* lines shorter than the width */
	put_be32(d + 4 * 12, 8 * 4 - 1);
	assert_int_equal(nvt_xwd_parse(d, len, &px, &w, &h), -EINVAL);
	put_be32(d + 4 * 12, 8 * 4);
	/* 16 bpp, PseudoColor, XYPixmap, another version */
	put_be32(d + 4 * 11, 16);
	assert_int_equal(nvt_xwd_parse(d, len, &px, &w, &h), -ENOTSUP);
	put_be32(d + 4 * 11, 32);
	put_be32(d + 4 * 13, 3);
	assert_int_equal(nvt_xwd_parse(d, len, &px, &w, &h), -ENOTSUP);
	put_be32(d + 4 * 13, 4);
	put_be32(d + 4 * 2, 1);
	assert_int_equal(nvt_xwd_parse(d, len, &px, &w, &h), -ENOTSUP);
	put_be32(d + 4 * 2, 2);
	put_be32(d + 4 * 1, 6);
	assert_int_equal(nvt_xwd_parse(d, len, &px, &w, &h), -EINVAL);
	put_be32(d + 4 * 1, 7);
	assert_int_equal(nvt_xwd_parse(d, len, &px, &w, &h), 0);
	printf("xwd: short files, short lines, too many colours, 16 bpp, PseudoColor, "
	       "XYPixmap and version 6 refused; the same file whole is read\n");
	free(px);
	free(d);
}

/* ---- a real server ---- */

static int xvfb_setup(void **state)
{
	struct nvt_x *x = calloc(1, sizeof(*x));
	if (!x)
		return -1;
	nvt_watchdog(60, program_invocation_short_name);
	if (nvt_xvfb_start(x, "320x240x24", NULL) < 0) {
		free(x);
		return -1;
	}
	*state = x;
	return 0;
}

static int xvfb_teardown(void **state)
{
	struct nvt_x *x = *state;
	if (x) {
		nvt_x_cleanup(x);
		free(x);
	}
	alarm(0);
	return 0;
}

static void test_xwd_of_xvfb_solid_root(void **state)
{
	struct nvt_x *x = *state;
	static const char *const solid[] = { "xsetroot", "-solid", "#123456", NULL };
	uint32_t *px;
	unsigned w, h, dw, dh, depth;

	assert_int_equal(nvt_x_dpyinfo(x, &dw, &dh, &depth), 0);
	assert_int_equal(nvt_x_run(x, solid, NULL, NULL), 0);
	assert_int_equal(nvt_x_screenshot(x, &px, &w, &h), 0);
	printf("Xvfb %s: xdpyinfo %ux%u depth %u, xwd -root %ux%u\n", x->name, dw, dh, depth, w,
	       h);
	assert_int_equal(depth, 24);
	assert_int_equal(dw, 320);
	assert_int_equal(dh, 240);
	assert_int_equal(w, 320);
	assert_int_equal(h, 240);
	for (unsigned i = 0; i < w * h; i++)
		if (px[i] != 0x123456)
			fail_msg("pixel (%u, %u) is %06x, expected 123456", i % w, i / w, px[i]);
	printf("xsetroot -solid '#123456': all %u pixels are 123456\n", w * h);
	free(px);
	assert_int_equal(nvt_x_stop(x), 0);
}

static void test_xwd_of_xvfb_tiled_root(void **state)
{
	struct nvt_x *x = *state;
	struct nvt_x_tile t;
	uint32_t *px;
	unsigned w, h;

	nvt_x_tile_make(&t, 13, 7, 99, 0xc0ffee, 0x1b2d3f);
	assert_int_equal(nvt_x_set_root_tile(x, &t), 0);
	assert_int_equal(nvt_x_screenshot(x, &px, &w, &h), 0);
	assert_int_equal(w, 320);
	assert_int_equal(h, 240);
	unsigned fg = 0;
	for (unsigned y = 0; y < h; y++)
		for (unsigned i = 0; i < w; i++) {
			uint32_t want = nvt_x_tile_pixel(&t, i, y);
			if (px[y * w + i] != want)
				fail_msg("pixel (%u, %u) is %06x, expected %06x", i, y,
					 px[y * w + i], want);
			fg += want == t.fg;
		}
	printf("xsetroot -bitmap (13x7 tile, c0ffee on 1b2d3f): %u pixels as tiled, "
	       "%u of them foreground\n", w * h, fg);
	assert_true(fg > 0 && fg < w * h);
	free(px);
	assert_int_equal(nvt_x_stop(x), 0);
}

static void test_x_run_reports_status_and_missing_programs(void **state)
{
	struct nvt_x *x = *state;
	static const char *const echo[] = { "sh", "-c", "printf '%s' \"$DISPLAY\"; exit 3", NULL };
	static const char *const none[] = { "nvt-no-such-program", NULL };
	char *out;
	size_t len;

	assert_int_equal(nvt_x_run(x, echo, &out, &len), 3);
	assert_string_equal(out, x->name);
	assert_int_equal(len, strlen(x->name));
	free(out);
	assert_int_equal(nvt_x_run(x, none, &out, &len), -ENOENT);
	assert_null(out);
	printf("nvt_x_run: DISPLAY=%s seen, status 3 returned, a missing program is -ENOENT\n",
	       x->name);
	assert_int_equal(nvt_x_stop(x), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xwd_layouts),
		cmocka_unit_test(test_xwd_refuses_what_it_cannot_read),
		cmocka_unit_test(test_xwd_directcolor_goes_through_the_colormap),
		cmocka_unit_test_setup_teardown(test_xwd_of_xvfb_solid_root, xvfb_setup,
						xvfb_teardown),
		cmocka_unit_test_setup_teardown(test_xwd_of_xvfb_tiled_root, xvfb_setup,
						xvfb_teardown),
		cmocka_unit_test_setup_teardown(test_x_run_reports_status_and_missing_programs,
						xvfb_setup, xvfb_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
