/* The pure half of the 2D engines (sim/surface.c): ternary ROP truth
 * tables, the pattern, pixel format conversions, rectangles, and SIFM
 * sampling against a CPU reference written here in floating point. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/surface.h"

/* P, S, D as the GDI codes name them: every (p, s, d) bit combination once. */
#define P_BITS 0xf0u
#define S_BITS 0xccu
#define D_BITS 0xaau

static uint32_t lcg(uint32_t *x)
{
	*x = *x * 1664525u + 1013904223u;
	return *x;
}

/* ---- ROP ---- */

static void rop_code_is_its_own_truth_table_for_all_256(void **state)
{
	(void)state;
	for (uint32_t rop = 0; rop < 256; rop++)
		assert_int_equal(sim_rop3(rop, P_BITS, S_BITS, D_BITS) & 0xff, rop);
}

static void rop_copy_xor_and_dpsdxax_planemask(void **state)
{
	uint32_t x = 1;

	(void)state;
	for (int i = 0; i < 1000; i++) {
		uint32_t p = lcg(&x), s = lcg(&x), d = lcg(&x);
		assert_int_equal(sim_rop3(0xcc, p, s, d), s);                    /* GXcopy */
		assert_int_equal(sim_rop3(0x66, p, s, d), s ^ d);                /* GXxor */
		assert_int_equal(sim_rop3(0xca, p, s, d), (s & p) | (d & ~p));   /* DPSDxax */
		assert_int_equal(sim_rop3(0x5a, p, s, d), p ^ d);                /* PATINVERT */
		assert_int_equal(sim_rop3(0x8a, p, s, d), d & (s | ~p));         /* DSPnoa */
	}
	/* the planemask merge: only the planemask's bits take the source */
	assert_int_equal(sim_rop3(0xca, 0x00ff, 0xabcd, 0x1234), 0x12cd);
}

/* The shortcut codes agree with the general evaluation. */
static void rop_shortcuts_equal_the_general_formula(void **state)
{
	static const uint32_t codes[] = { 0x00, 0xff, 0xcc, 0xaa, 0x66, 0x88, 0xee, 0xca };
	uint32_t x = 7;

	(void)state;
	for (unsigned c = 0; c < sizeof(codes) / sizeof(codes[0]); c++)
		for (int i = 0; i < 200; i++) {
			uint32_t p = lcg(&x), s = lcg(&x), d = lcg(&x), r = 0;
			for (unsigned b = 0; b < 32; b++) {
				unsigned idx = (p >> b & 1) << 2 | (s >> b & 1) << 1 | (d >> b & 1);
				r |= (codes[c] >> idx & 1) << b;
			}
			assert_int_equal(sim_rop3(codes[c], p, s, d), r);
		}
}

/* ---- pattern ---- */

static void mono_pattern_8x8_le_and_cga6(void **state)
{
	uint32_t patt[NV_PATT__NSLOTS] = { 0 };
	struct sim_patt pt;

	(void)state;
	patt[NV_PATT_MONOCHROME_COLOR__SLOT] = 0x1111;
	patt[NV_PATT_MONOCHROME_COLOR__SLOT + 1] = 0x2222;
	patt[NV_PATT_MONOCHROME_PATTERN__SLOT] = 0x000000ffu;       /* row 0 */
	patt[NV_PATT_MONOCHROME_PATTERN__SLOT + 1] = 0x80000000u;   /* bit 63: (7, 7) */
	patt[NV_PATT_MONOCHROME_FORMAT__SLOT] = NV_PATT_MONO_FORMAT_LE;
	patt[NV_PATT_MONOCHROME_SHAPE__SLOT] = NV_PATT_SHAPE_8X8;
	sim_patt_load(&pt, patt);
	for (uint32_t x = 0; x < 16; x++) {
		assert_int_equal(sim_patt_at(&pt, x, 0), 0x2222);
		assert_int_equal(sim_patt_at(&pt, x, 8), 0x2222);     /* repeats */
		assert_int_equal(sim_patt_at(&pt, x, 1), 0x1111);
	}
	assert_int_equal(sim_patt_at(&pt, 7, 7), 0x2222);
	assert_int_equal(sim_patt_at(&pt, 15, 23), 0x2222);
	assert_int_equal(sim_patt_at(&pt, 6, 7), 0x1111);

	/* CGA6: bit 0 of a byte is its leftmost pixel */
	patt[NV_PATT_MONOCHROME_PATTERN__SLOT] = 0x00000001u;
	patt[NV_PATT_MONOCHROME_PATTERN__SLOT + 1] = 0;
	patt[NV_PATT_MONOCHROME_FORMAT__SLOT] = NV_PATT_MONO_FORMAT_CGA6;
	sim_patt_load(&pt, patt);
	assert_int_equal(sim_patt_at(&pt, 7, 0), 0x2222);
	assert_int_equal(sim_patt_at(&pt, 0, 0), 0x1111);
}

static void mono_pattern_64x1_and_1x64_shapes(void **state)
{
	uint32_t patt[NV_PATT__NSLOTS] = { 0 };
	struct sim_patt pt;

	(void)state;
	patt[NV_PATT_MONOCHROME_COLOR__SLOT + 1] = 1;
	patt[NV_PATT_MONOCHROME_PATTERN__SLOT + 1] = 1;              /* bit 32 */
	patt[NV_PATT_MONOCHROME_FORMAT__SLOT] = NV_PATT_MONO_FORMAT_LE;
	patt[NV_PATT_MONOCHROME_SHAPE__SLOT] = NV_PATT_SHAPE_64X1;
	sim_patt_load(&pt, patt);
	assert_int_equal(sim_patt_at(&pt, 32, 5), 1);
	assert_int_equal(sim_patt_at(&pt, 96, 0), 1);
	assert_int_equal(sim_patt_at(&pt, 31, 0), 0);
	patt[NV_PATT_MONOCHROME_SHAPE__SLOT] = NV_PATT_SHAPE_1X64;
	sim_patt_load(&pt, patt);
	assert_int_equal(sim_patt_at(&pt, 5, 32), 1);
	assert_int_equal(sim_patt_at(&pt, 32, 0), 0);
}

static void rop_and_with_planemask_pattern_merges_in_destination_format(void **state)
{
	struct sim_2d_op op = { .op = NV_2D_OPERATION_ROP_AND, .rop = 0xca,
				.mask = sim_px_mask(2), .has_patt = 1 };

	(void)state;
	op.patt.color[0] = 0;
	op.patt.color[1] = 0xf81f;                  /* planemask: R and B of R5G6B5 */
	op.patt.bits[0] = op.patt.bits[1] = ~0u;
	assert_int_equal(sim_2d_apply(&op, 3, 4, 0xffff, 0x0000), 0xf81f);
	assert_int_equal(sim_2d_apply(&op, 3, 4, 0x0000, 0xffff), 0x07e0);
	op.op = NV_2D_OPERATION_SRCCOPY;
	assert_int_equal(sim_2d_apply(&op, 0, 0, 0x12345678, 0), 0x5678);
	/* no pattern object: P is all ones */
	op = (struct sim_2d_op){ .op = NV_2D_OPERATION_ROP_AND, .rop = 0xf0, .mask = ~0u };
	assert_int_equal(sim_2d_apply(&op, 0, 0, 0, 0), 0xffffffffu);
}

/* ---- formats and conversions ---- */

static void format_tables_give_bytes_per_pixel(void **state)
{
	(void)state;
	assert_int_equal(sim_surf_fmt(NV_SURF_FORMAT_Y8)->bpp, 1);
	assert_int_equal(sim_surf_fmt(NV_SURF_FORMAT_R5G6B5)->bpp, 2);
	assert_int_equal(sim_surf_fmt(NV_SURF_FORMAT_X1R5G5B5_Z1R5G5B5)->bpp, 2);
	assert_int_equal(sim_surf_fmt(NV_SURF_FORMAT_A8R8G8B8)->bpp, 4);
	assert_int_equal(sim_surf_fmt(NV_SURF_FORMAT_Y32)->bpp, 4);
	assert_null(sim_surf_fmt(0));
	assert_null(sim_surf_fmt(0xc));
	assert_null(sim_surf_fmt(0xffffffffu));
	for (uint32_t v = 1; v <= 0xb; v++)
		assert_int_equal(sim_surf_fmt(v)->bpp, nv_surf_format_bpp(v));
	for (uint32_t v = 1; v <= 9; v++)
		assert_int_equal(sim_sifm_fmt(v)->bpp, nv_sifm_color_format_bpp(v));
	for (uint32_t v = 1; v <= 5; v++)
		assert_int_equal(sim_ifc_fmt(v)->bpp, nv_ifc_color_format_bpp(v));
	assert_null(sim_sifm_fmt(0xa));
	assert_null(sim_ifc_fmt(6));
	assert_null(sim_gdi_fmt(0));
	assert_null(sim_gdi_fmt(4));
}

static void r5g6b5_widens_by_bit_replication_and_truncates_back(void **state)
{
	const struct sim_pixfmt *f = sim_surf_fmt(NV_SURF_FORMAT_R5G6B5);

	(void)state;
	assert_int_equal(sim_px_decode(f, 0xf800), 0xffff0000u);
	assert_int_equal(sim_px_decode(f, 0x07e0), 0xff00ff00u);
	assert_int_equal(sim_px_decode(f, 0x001f), 0xff0000ffu);
	/* r = 16 -> 0x84, g = 32 -> 0x82 */
	assert_int_equal(sim_px_decode(f, 0x8410), 0xff848284u);
	for (uint32_t v = 0; v < 0x10000; v++)
		assert_int_equal(sim_px_encode(f, sim_px_decode(f, v)), v);
}

static void x1r5g5b5_z_and_o_write_their_x_bit_and_a1_is_alpha(void **state)
{
	const struct sim_pixfmt *z = sim_surf_fmt(NV_SURF_FORMAT_X1R5G5B5_Z1R5G5B5);
	const struct sim_pixfmt *o = sim_surf_fmt(NV_SURF_FORMAT_X1R5G5B5_X1R5G5B5);
	const struct sim_pixfmt *a = sim_ifc_fmt(NV_IFC_COLOR_FORMAT_A1R5G5B5);

	(void)state;
	assert_int_equal(sim_px_encode(z, 0x80ff8000u), 0x7e00);   /* r 31, g 16, b 0 */
	assert_int_equal(sim_px_encode(o, 0x00ff8000u), 0xfe00);
	assert_int_equal(sim_px_encode(a, 0x80ff8000u), 0xfe00);   /* alpha >= 0x80 */
	assert_int_equal(sim_px_encode(a, 0x7fff8000u), 0x7e00);
	assert_int_equal(sim_px_decode(a, 0x7c00), 0x00ff0000u);   /* A1 = 0: transparent */
	assert_int_equal(sim_px_decode(z, 0x7c00), 0xffff0000u);   /* X read as opaque */
}

static void same_layout_copies_raw_bits_different_layouts_convert(void **state)
{
	const struct sim_pixfmt *argb = sim_surf_fmt(NV_SURF_FORMAT_A8R8G8B8);
	const struct sim_pixfmt *xrgb_z = sim_surf_fmt(NV_SURF_FORMAT_X8R8G8B8_Z8R8G8B8);
	const struct sim_pixfmt *rgb565 = sim_surf_fmt(NV_SURF_FORMAT_R5G6B5);
	const struct sim_pixfmt *x555 = sim_surf_fmt(NV_SURF_FORMAT_X1R5G5B5_Z1R5G5B5);
	const struct sim_pixfmt *y8 = sim_surf_fmt(NV_SURF_FORMAT_Y8);
	const struct sim_pixfmt *y32 = sim_surf_fmt(NV_SURF_FORMAT_Y32);
	const struct sim_pixfmt *a1788 = sim_surf_fmt(NV_SURF_FORMAT_X1A7R8G8B8_X1A7R8G8B8);

	(void)state;
	/* IFC A8R8G8B8 into A8R8G8B8: GPU programs go this way (PUSH_DATAu) */
	assert_int_equal(sim_px_convert(sim_ifc_fmt(NV_IFC_COLOR_FORMAT_A8R8G8B8), argb,
					0x12345678u), 0x12345678u);
	assert_int_equal(sim_px_convert(sim_ifc_fmt(NV_IFC_COLOR_FORMAT_R5G6B5), rgb565, 0xbeef),
			 0xbeef);
	/* the GDI pairs nouveau uses: the colour's low bits unchanged */
	assert_int_equal(sim_px_convert(sim_gdi_fmt(NV_GDI_COLOR_FORMAT_A8R8G8B8), y32,
					0x12345678u), 0x12345678u);
	assert_int_equal(sim_px_convert(sim_gdi_fmt(NV_GDI_COLOR_FORMAT_A16R5G6B5), rgb565,
					0xabcd1234u), 0x1234);
	assert_int_equal(sim_px_convert(sim_gdi_fmt(NV_GDI_COLOR_FORMAT_X16A1R5G5B5), x555,
					0xffffffffu), 0xffff);
	assert_int_equal(sim_px_convert(sim_gdi_fmt(NV_GDI_COLOR_FORMAT_A8R8G8B8), y8,
					0x12345678u), 0x78);
	/* SIFM AY8 into Y8 (Mesa's cpp 1 uploads) */
	assert_int_equal(sim_px_convert(sim_sifm_fmt(NV_SIFM_COLOR_FORMAT_AY8), y8, 0x9c), 0x9c);
	/* same layout, alpha passes even into an X format (documented rule) */
	assert_int_equal(sim_px_convert(argb, xrgb_z, 0x12345678u), 0x12345678u);
	/* different layouts convert */
	assert_int_equal(sim_px_convert(rgb565, argb, 0xf800), 0xffff0000u);
	assert_int_equal(sim_px_convert(argb, rgb565, 0xff848284u), 0x8410);
	assert_int_equal(sim_px_convert(sim_ifc_fmt(NV_IFC_COLOR_FORMAT_R5G6B5), x555, 0xffff),
			 0x7fff);
	assert_int_equal(sim_px_convert(sim_ifc_fmt(NV_IFC_COLOR_FORMAT_R5G6B5), a1788, 0x0000),
			 0xff000000u);    /* X 1, alpha 0xff >> 1 */
	assert_int_equal(sim_px_convert(sim_sifm_fmt(NV_SIFM_COLOR_FORMAT_Y8), argb, 0x40),
			 0xff404040u);
	assert_int_equal(sim_px_convert(sim_sifm_fmt(NV_SIFM_COLOR_FORMAT_AY8), argb, 0x40),
			 0x40404040u);
}

static void yuv_bt601_black_white_red(void **state)
{
	(void)state;
	assert_int_equal(sim_px_yuv(16, 128, 128), 0xff000000u);
	assert_int_equal(sim_px_yuv(235, 128, 128), 0xffffffffu);
	assert_int_equal(sim_px_yuv(81, 90, 240), 0xffff0000u);
	assert_int_equal(sim_px_yuv(0, 128, 128), 0xff000000u);   /* clamped */
}

static void fill_writes_little_endian_pixels_and_nothing_past_them(void **state)
{
	uint8_t buf[64];

	(void)state;
	for (unsigned n = 0; n < 20; n++) {
		memset(buf, 0xee, sizeof(buf));
		sim_px_fill(buf, 2, 0x1234, n);
		for (unsigned i = 0; i < n; i++) {
			assert_int_equal(buf[2 * i], 0x34);
			assert_int_equal(buf[2 * i + 1], 0x12);
		}
		assert_int_equal(buf[2 * n], 0xee);
		memset(buf, 0xee, sizeof(buf));
		sim_px_fill(buf, 4, 0x0a0b0c0d, n > 15 ? 15 : n);
		for (unsigned i = 0; i < (n > 15 ? 15 : n); i++)
			assert_int_equal(sim_px_load(buf + 4 * i, 4), 0x0a0b0c0d);
		assert_int_equal(buf[4 * (n > 15 ? 15 : n)], 0xee);
	}
	sim_px_fill(buf, 4, 0x77777777u, 3);
	assert_int_equal(sim_px_load(buf + 8, 4), 0x77777777u);
	sim_px_store(buf, 4, 0x11223344u);
	assert_int_equal(buf[0], 0x44);
	assert_int_equal(buf[3], 0x11);
}

/* ---- rectangles ---- */

static void rect_clip_cuts_negative_coordinates_and_other_rects(void **state)
{
	struct nv_rect r = { -5, -2, 10, 4 }, all = NV_RECT_ALL, c = { 2, 0, 100, 1 };

	(void)state;
	nv_rect_clip(&r, &all);
	assert_int_equal(r.x, 0);
	assert_int_equal(r.y, 0);
	assert_int_equal(r.w, 5);
	assert_int_equal(r.h, 2);
	nv_rect_clip(&r, &c);
	assert_int_equal(r.x, 2);
	assert_int_equal(r.w, 3);
	assert_int_equal(r.h, 1);
	r = (struct nv_rect){ 10, 10, 5, 5 };
	c = (struct nv_rect){ 0, 0, 10, 10 };
	nv_rect_clip(&r, &c);
	assert_int_equal(r.w, 0);
	assert_int_equal(nv_s16(0xffff), -1);
	assert_int_equal(nv_s16(0x7fff), 32767);
}

/* ---- SIFM sampling ---- */

#define SW 16
#define SH 12

struct img {
	uint8_t px[SH][SW * 4];
	struct sim_sifm_src src;
};

static void img_init(struct img *im, uint32_t seed, uint32_t sifm_fmt)
{
	uint32_t x = seed;

	for (unsigned y = 0; y < SH; y++)
		for (unsigned i = 0; i < SW * 4; i++)
			im->px[y][i] = (uint8_t)(lcg(&x) >> 24);
	im->src = (struct sim_sifm_src){ &im->px[0][0], SW * 4, sim_sifm_fmt(sifm_fmt), SW, SH,
					 0, 0 };
}

static uint32_t ref_texel(const struct img *im, long u, long v)
{
	u = u < 0 ? 0 : u >= SW ? SW - 1 : u;
	v = v < 0 ? 0 : v >= SH ? SH - 1 : v;
	return sim_px_load(&im->px[v][u * 4], 4);
}

/* The reference position: start/16 + (i + 1/2 for centre) * step/2^20. */
static double ref_pos(int32_t start, int32_t step, long i, int center)
{
	return start / 16.0 + (i + (center ? 0.5 : 0.0)) * (step / 1048576.0);
}

static void sifm_one_to_one_fetches_exact_texels_in_every_mode(void **state)
{
	struct img im;

	(void)state;
	img_init(&im, 3, NV_SIFM_COLOR_FORMAT_A8R8G8B8);
	for (int center = 0; center <= 1; center++)
		for (int32_t x0 = 0; x0 < 4; x0++)
			for (long i = 0; i < SW - 4; i++) {
				int32_t y0 = 2;
				long j = i % 8;
				int64_t su = nv_sifm_pos(x0 << 4, 1 << 20, i, center);
				int64_t sv = nv_sifm_pos(y0 << 4, 1 << 20, j, center);
				uint32_t want = ref_texel(&im, x0 + i, y0 + j);
				assert_int_equal(sim_sifm_texel_raw(&im.src, nv_sifm_floor(su),
								    nv_sifm_floor(sv)), want);
				assert_int_equal(sim_sifm_bilinear(&im.src, su, sv, center), want);
			}
}

static void sifm_point_sampling_matches_reference(void **state)
{
	static const int32_t steps[] = { 1 << 20, 1 << 19, 3 << 19, (1 << 20) / 3, 5 << 20,
					 -(1 << 20), 0x1a2b3 };
	struct img im;

	(void)state;
	img_init(&im, 5, NV_SIFM_COLOR_FORMAT_A8R8G8B8);
	for (int center = 0; center <= 1; center++)
		for (unsigned si = 0; si < sizeof(steps) / sizeof(steps[0]); si++)
			for (int32_t start = -24; start < 80; start += 7)
				for (long i = 0; i < 20; i++) {
					double s = ref_pos(start, steps[si], i, center);
					int64_t p = nv_sifm_pos(start, steps[si], i, center);
					assert_int_equal(nv_sifm_floor(p), (int64_t)floor(s));
					assert_int_equal(sim_sifm_texel_raw(&im.src, nv_sifm_floor(p), 3),
							 ref_texel(&im, (long)floor(s), 3));
				}
}

/* Reference bilinear with the documented 8-bit weights (exact) and with
 * unquantised weights (within one step of 8-bit precision). */
static void ref_bilinear(const struct img *im, double su, double sv, int center,
			 uint32_t *exact, uint32_t *ideal_r)
{
	double tu = su - (center ? 0.5 : 0), tv = sv - (center ? 0.5 : 0);
	long u = (long)floor(tu), v = (long)floor(tv);
	double fu = tu - u, fv = tv - v;
	unsigned qu = (unsigned)floor(fu * 256), qv = (unsigned)floor(fv * 256);
	uint32_t c[4] = { ref_texel(im, u, v), ref_texel(im, u + 1, v), ref_texel(im, u, v + 1),
			  ref_texel(im, u + 1, v + 1) };
	uint32_t e = 0;

	for (unsigned sh = 0; sh < 32; sh += 8) {
		double k[4], q = 0, id;
		for (int n = 0; n < 4; n++)
			k[n] = (c[n] >> sh) & 0xff;
		q = k[0] * (256 - qu) * (256 - qv) + k[1] * qu * (256 - qv) +
		    k[2] * (256 - qu) * qv + k[3] * qu * qv;
		e |= (uint32_t)floor(q / 65536.0 + 0.5) << sh;
		id = k[0] * (1 - fu) * (1 - fv) + k[1] * fu * (1 - fv) + k[2] * (1 - fu) * fv +
		     k[3] * fu * fv;
		if (sh == 16)
			*ideal_r = (uint32_t)floor(id + 0.5);
	}
	*exact = e;
}

static void sifm_bilinear_matches_reference_weights(void **state)
{
	static const int32_t steps[] = { 1 << 20, 1 << 19, 3 << 19, (1 << 20) / 3, 0x1a2b3,
					 -(3 << 18) };
	struct img im;

	(void)state;
	img_init(&im, 9, NV_SIFM_COLOR_FORMAT_A8R8G8B8);
	for (int center = 0; center <= 1; center++)
		for (unsigned si = 0; si < sizeof(steps) / sizeof(steps[0]); si++)
			for (int32_t start = -20; start < 200; start += 13)
				for (long i = 0; i < 12; i++) {
					int32_t vstart = 16 + start / 4;
					double su = ref_pos(start, steps[si], i, center);
					double sv = ref_pos(vstart, steps[si], i / 2, center);
					uint32_t exact = 0, ideal_r = 0;
					uint32_t got = sim_sifm_bilinear(
						&im.src, nv_sifm_pos(start, steps[si], i, center),
						nv_sifm_pos(vstart, steps[si], i / 2, center), center);
					ref_bilinear(&im, su, sv, center, &exact, &ideal_r);
					assert_int_equal(got, exact);
					int r = (int)(got >> 16 & 0xff);
					assert_true(abs(r - (int)ideal_r) <= 2);
				}
}

/* Halfway between two texels: the average (both origins, their own grids). */
static void sifm_bilinear_halfway_is_the_average(void **state)
{
	struct img im;
	uint32_t a, b, got;

	(void)state;
	img_init(&im, 11, NV_SIFM_COLOR_FORMAT_A8R8G8B8);
	a = ref_texel(&im, 4, 5);
	b = ref_texel(&im, 5, 5);
	/* corner origin: u = 4.5 is halfway between texels 4 and 5 */
	got = sim_sifm_bilinear(&im.src, nv_sifm_pos(4 * 16 + 8, 0, 0, 0),
				nv_sifm_pos(5 * 16, 0, 0, 0), 0);
	for (unsigned sh = 0; sh < 32; sh += 8)
		assert_int_equal(got >> sh & 0xff, ((a >> sh & 0xff) + (b >> sh & 0xff) + 1) / 2);
	/* centre origin: a step-0 sample at u = 5.0 (start 5, + 0 * step) is
	 * halfway between the centres of texels 4 (4.5) and 5 (5.5) */
	got = sim_sifm_bilinear(&im.src, nv_sifm_pos(5 * 16, 0, 0, 0),
				nv_sifm_pos(5 * 16 + 8, 0, 0, 0), 1);
	for (unsigned sh = 0; sh < 32; sh += 8)
		assert_int_equal(got >> sh & 0xff, ((a >> sh & 0xff) + (b >> sh & 0xff) + 1) / 2);
}

static void sifm_clamps_to_the_image_edges(void **state)
{
	struct img im;

	(void)state;
	img_init(&im, 13, NV_SIFM_COLOR_FORMAT_A8R8G8B8);
	assert_int_equal(sim_sifm_texel_raw(&im.src, -3, -1), ref_texel(&im, 0, 0));
	assert_int_equal(sim_sifm_texel_raw(&im.src, SW + 5, SH), ref_texel(&im, SW - 1, SH - 1));
	/* bilinear at the last column: the texel itself */
	assert_int_equal(sim_sifm_bilinear(&im.src, nv_sifm_pos((SW - 1) * 16, 0, 0, 0),
					   nv_sifm_pos(0, 0, 0, 0), 0),
			 ref_texel(&im, SW - 1, 0));
	assert_int_equal(sim_sifm_bilinear(&im.src, nv_sifm_pos((SW - 1) * 16 + 8, 0, 0, 0),
					   nv_sifm_pos(0, 0, 0, 0), 0),
			 ref_texel(&im, SW - 1, 0));
}

static void sifm_yuv_pairs_share_chroma(void **state)
{
	uint8_t pix[4] = { 81, 90, 235, 240 };   /* YUY2: Y0 U Y1 V */
	struct sim_sifm_src s = { pix, 4, sim_sifm_fmt(NV_SIFM_COLOR_FORMAT_V8YB8U8YA8), 2, 1,
				  0, 0 };

	(void)state;
	assert_int_equal(sim_sifm_texel(&s, 0, 0), sim_px_yuv(81, 90, 240));
	assert_int_equal(sim_sifm_texel(&s, 1, 0), sim_px_yuv(235, 90, 240));
	s.fmt = sim_sifm_fmt(NV_SIFM_COLOR_FORMAT_YB8V8YA8U8);   /* UYVY: U Y0 V Y1 */
	assert_int_equal(sim_sifm_texel(&s, 0, 0), sim_px_yuv(90, 81, 235));
	assert_int_equal(sim_sifm_texel(&s, 1, 0), sim_px_yuv(240, 81, 235));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rop_code_is_its_own_truth_table_for_all_256),
		cmocka_unit_test(rop_copy_xor_and_dpsdxax_planemask),
		cmocka_unit_test(rop_shortcuts_equal_the_general_formula),
		cmocka_unit_test(mono_pattern_8x8_le_and_cga6),
		cmocka_unit_test(mono_pattern_64x1_and_1x64_shapes),
		cmocka_unit_test(rop_and_with_planemask_pattern_merges_in_destination_format),
		cmocka_unit_test(format_tables_give_bytes_per_pixel),
		cmocka_unit_test(r5g6b5_widens_by_bit_replication_and_truncates_back),
		cmocka_unit_test(x1r5g5b5_z_and_o_write_their_x_bit_and_a1_is_alpha),
		cmocka_unit_test(same_layout_copies_raw_bits_different_layouts_convert),
		cmocka_unit_test(yuv_bt601_black_white_red),
		cmocka_unit_test(fill_writes_little_endian_pixels_and_nothing_past_them),
		cmocka_unit_test(rect_clip_cuts_negative_coordinates_and_other_rects),
		cmocka_unit_test(sifm_one_to_one_fetches_exact_texels_in_every_mode),
		cmocka_unit_test(sifm_point_sampling_matches_reference),
		cmocka_unit_test(sifm_bilinear_matches_reference_weights),
		cmocka_unit_test(sifm_bilinear_halfway_is_the_average),
		cmocka_unit_test(sifm_clamps_to_the_image_edges),
		cmocka_unit_test(sifm_yuv_pairs_share_chroma),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
