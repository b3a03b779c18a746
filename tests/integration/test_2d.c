/* The 2D engines through a real nvd and real clients: each operation alone
 * against its CPU reference, then two client processes at once running
 * long mixed workloads.  Every check compares whole buffers byte for byte,
 * so a write outside the rectangle fails as surely as a wrong pixel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"

/* One client with the standard objects bound (already run). */
static void open_client(struct nvt_daemon *d, struct nvt_client *t)
{
	NVT_OK(nvt_client_open(t, d->sock, "test-2d"));
	NVT_OK(nvt_finish(&t->p));
}

static void test_m2mf_pitch_copies_match_cpu(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g, v;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 1 << 20, NVC_GART, 1, &g));
	NVT_OK(nvt_buf_new(t.c, 1 << 20, NVC_VRAM, 2, &v));
	/* GART -> VRAM with padding on both sides */
	nvt_m2mf(&t.p, &g, 100, 300, &v, 64, 512, 257, 40);
	/* VRAM -> GART, contiguous lines */
	nvt_m2mf(&t.p, &v, 0x10000, 1000, &g, 0x40000, 1000, 1000, 17);
	/* one byte, one line */
	nvt_m2mf(&t.p, &g, 3, 0, &v, 0x20001, 0, 1, 1);
	/* the most lines a single copy may have */
	nvt_m2mf(&t.p, &g, 0x80000, 64, &v, 0x80000, 128, 48, NV_M2MF_LINE_COUNT_MAX);
	/* a long line: one 200 KiB line */
	nvt_m2mf(&t.p, &v, 0x30000, 0, &g, 0xc0000, 0, 200 << 10, 1);
	/* VRAM -> VRAM and GART -> GART inside one buffer, apart */
	nvt_m2mf(&t.p, &v, 0, 4096, &v, 0xe0000, 2048, 2048, 8);
	nvt_m2mf(&t.p, &g, 0, 64, &g, 0xf0000, 96, 60, 100);
	NVT_OK(nvt_finish(&t.p));
	assert_int_equal(nvt_buf_check(&g, "GART buffer"), 0);
	assert_int_equal(nvt_buf_check(&v, "VRAM buffer"), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

static void test_m2mf_negative_pitch_copies_bottom_up(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g, v;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_GART, 3, &g));
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_VRAM, 4, &v));
	/* read lines from the bottom up (a vertical flip), write top down */
	nvt_m2mf(&t.p, &g, 31 * 256, -256, &v, 0, 320, 200, 32);
	NVT_OK(nvt_finish(&t.p));
	assert_int_equal(nvt_buf_check(&v, "VRAM buffer"), 0);
	assert_int_equal(nvt_buf_check(&g, "GART buffer"), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

/* A fill in each surface/colour format pair nouveau uses. */
static void fill_case(void **state, unsigned surf_fmt, unsigned bpp, unsigned color_fmt,
		      const char *what)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf v;
	uint32_t seed = 5;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 256 << 10, NVC_VRAM, 6, &v));
	struct nvt_surf s = { &v, 4096, 64 * ((100 * bpp + 63) / 64 + 1), 100, 70, surf_fmt, bpp };
	nvt_surf2d(&t.p, &s, &s);
	nvt_fill(&t.p, &s, color_fmt, 0xdeadbeef, 0, 0, s.w, s.h);       /* whole surface */
	nvt_fill(&t.p, &s, color_fmt, 0x12345678, 1, 2, 1, 1);           /* one pixel */
	nvt_fill(&t.p, &s, color_fmt, 0x80ff017f, s.w - 7, s.h - 1, 7, 1); /* last row's end */
	for (unsigned i = 0; i < 50; i++) {
		uint32_t w = nvt_range(&seed, 1, s.w), h = nvt_range(&seed, 1, s.h);
		nvt_fill(&t.p, &s, color_fmt, nvt_rand(&seed), nvt_range(&seed, 0, s.w - w),
			 nvt_range(&seed, 0, s.h - h), w, h);
	}
	NVT_OK(nvt_finish(&t.p));
	assert_int_equal(nvt_buf_check(&v, what), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

static void test_gdi_fill_y32_a8r8g8b8_writes_the_colour_word(void **state)
{
	fill_case(state, NV_SURF_FORMAT_Y32, 4, NV_GDI_COLOR_FORMAT_A8R8G8B8, "Y32 surface");
}

static void test_gdi_fill_r5g6b5_a16r5g6b5_writes_the_low_16_bits(void **state)
{
	fill_case(state, NV_SURF_FORMAT_R5G6B5, 2, NV_GDI_COLOR_FORMAT_A16R5G6B5, "R5G6B5 surface");
}

static void test_gdi_fill_x1r5g5b5_x16a1r5g5b5_writes_the_low_16_bits(void **state)
{
	fill_case(state, NV_SURF_FORMAT_X1R5G5B5_Z1R5G5B5, 2, NV_GDI_COLOR_FORMAT_X16A1R5G5B5,
		  "X1R5G5B5 surface");
}

static void test_gdi_fill_y8_writes_the_low_8_bits(void **state)
{
	fill_case(state, NV_SURF_FORMAT_Y8, 1, NV_GDI_COLOR_FORMAT_A8R8G8B8, "Y8 surface");
}

/* UNCLIPPED_RECTANGLE_POINT/SIZE(i) is an array: 32 rectangles in one packet. */
static void test_gdi_fill_rectangle_array_in_one_packet(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf v;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_VRAM, 7, &v));
	struct nvt_surf s = { &v, 0, 256, 64, 64, NV_SURF_FORMAT_Y32, 4 };
	nvt_surf2d(&t.p, &s, &s);
	nvt_ref(&t.p, v.bo, NVC_WRITE);
	nvt_mthd(&t.p, NVT_SUBC_GDI, NV_GDI_COLOR_FORMAT, NV_GDI_COLOR_FORMAT_A8R8G8B8);
	nvt_mthd(&t.p, NVT_SUBC_GDI, NV_GDI_COLOR1_A, 0xa5c3e1f0);
	nvt_begin(&t.p, NVT_SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 64);
	for (unsigned i = 0; i < 32; i++) {
		uint32_t x = (i % 8) * 8, y = (i / 8) * 16;
		nvt_out(&t.p, x << 16 | y);
		nvt_out(&t.p, (i % 8 + 1) << 16 | (i / 8 + 3));
		nvt_ref_fill(v.shadow, s.pitch, 4, x, y, i % 8 + 1, i / 8 + 3, 0xa5c3e1f0);
	}
	NVT_OK(nvt_finish(&t.p));
	assert_int_equal(nvt_buf_check(&v, "Y32 surface"), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

static void test_blit_overlapping_copies_behave_like_memmove(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf v;
	static const int shift[][2] = {
		{ 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 3, 5 }, { -3, -5 }, { 4, -2 },
		{ -4, 2 }, { 0, 0 }, { 20, 0 }, { 0, -20 }, { 17, 13 }, { -30, -20 },
	};
	static const struct { unsigned fmt, bpp; } fmts[] = {
		{ NV_SURF_FORMAT_A8R8G8B8, 4 }, { NV_SURF_FORMAT_R5G6B5, 2 }, { NV_SURF_FORMAT_Y8, 1 },
	};

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 256 << 10, NVC_VRAM, 8, &v));
	for (unsigned f = 0; f < 3; f++) {
		struct nvt_surf s = { &v, f * 65536, 384, 90, 60, fmts[f].fmt, fmts[f].bpp };
		nvt_surf2d(&t.p, &s, &s);
		for (unsigned i = 0; i < sizeof(shift) / sizeof(shift[0]); i++) {
			/* (30, 20) 40x25 stays inside the 90x60 surface for every shift */
			uint32_t sx = 30, sy = 20, w = 40, h = 25;
			nvt_blit(&t.p, &s, &s, sx, sy, (uint32_t)((int)sx + shift[i][0]),
				 (uint32_t)((int)sy + shift[i][1]), w, h);
		}
	}
	NVT_OK(nvt_finish(&t.p));
	assert_int_equal(nvt_buf_check(&v, "surfaces after overlapping blits"), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

static void test_blit_between_surfaces_with_different_pitches(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf a, b;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 128 << 10, NVC_VRAM, 9, &a));
	NVT_OK(nvt_buf_new(t.c, 128 << 10, NVC_VRAM, 10, &b));
	struct nvt_surf sa = { &a, 0, 576, 128, 100, NV_SURF_FORMAT_A8R8G8B8, 4 };
	struct nvt_surf sb = { &b, 8192, 1024, 200, 90, NV_SURF_FORMAT_A8R8G8B8, 4 };
	nvt_surf2d(&t.p, &sa, &sb);
	nvt_blit(&t.p, &sa, &sb, 0, 0, 0, 0, 128, 90);
	nvt_blit(&t.p, &sa, &sb, 5, 7, 150, 60, 50, 30);
	nvt_surf2d(&t.p, &sb, &sa);
	nvt_blit(&t.p, &sb, &sa, 199, 89, 0, 99, 1, 1);
	nvt_blit(&t.p, &sb, &sa, 10, 10, 64, 50, 64, 50);
	NVT_OK(nvt_finish(&t.p));
	assert_int_equal(nvt_buf_check(&a, "surface A"), 0);
	assert_int_equal(nvt_buf_check(&b, "surface B"), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

static void test_sifm_uploads_linear_to_swizzled_point_sampled(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g, v;
	static const struct { unsigned sifm, surf, bpp, lw, lh; } c[] = {
		{ NV_SIFM_COLOR_FORMAT_A8R8G8B8, NV_SURF_FORMAT_A8R8G8B8, 4, 5, 5 },   /* square */
		{ NV_SIFM_COLOR_FORMAT_A8R8G8B8, NV_SURF_FORMAT_A8R8G8B8, 4, 6, 3 },   /* wide */
		{ NV_SIFM_COLOR_FORMAT_R5G6B5, NV_SURF_FORMAT_R5G6B5, 2, 3, 6 },       /* tall */
		{ NV_SIFM_COLOR_FORMAT_R5G6B5, NV_SURF_FORMAT_R5G6B5, 2, 7, 7 },
		{ NV_SIFM_COLOR_FORMAT_AY8, NV_SURF_FORMAT_Y8, 1, 4, 2 },
		{ NV_SIFM_COLOR_FORMAT_AY8, NV_SURF_FORMAT_Y8, 1, 1, 1 },
	};

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 512 << 10, NVC_GART, 11, &g));
	NVT_OK(nvt_buf_new(t.c, 512 << 10, NVC_VRAM, 12, &v));
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint32_t w = 1u << c[i].lw, h = 1u << c[i].lh;
		struct nvt_surf src = { &g, i * 65536, (w * c[i].bpp + 63) & ~63u, w, h, c[i].surf,
					c[i].bpp };
		struct nvt_swz dst = { &v, i * 65536, c[i].lw, c[i].lh, c[i].surf, c[i].bpp };
		/* the whole level, as Mesa uploads a texture */
		nvt_sifm_swz(&t.p, &src, c[i].sifm, 0, 0, &dst, 0, 0, w, h);
		/* a sub-rectangle: from (1, 1) of the source to (w/2, h/2) */
		if (w > 2 && h > 2)
			nvt_sifm_swz(&t.p, &src, c[i].sifm, 1, 1, &dst, w / 2, h / 2, w / 2 - 1,
				     h / 2 - 1);
	}
	NVT_OK(nvt_finish(&t.p));
	assert_int_equal(nvt_buf_check(&v, "swizzled textures"), 0);
	assert_int_equal(nvt_buf_check(&g, "linear sources"), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

static void test_ifc_uploads_match_cpu(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf v;
	uint8_t px[33 * 20 * 4];
	uint32_t seed = 77;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 128 << 10, NVC_VRAM, 13, &v));
	for (unsigned i = 0; i < sizeof(px); i++)
		px[i] = (uint8_t)nvt_rand(&seed);
	struct nvt_surf s32 = { &v, 0, 320, 80, 60, NV_SURF_FORMAT_A8R8G8B8, 4 };
	struct nvt_surf s16 = { &v, 65536, 192, 90, 60, NV_SURF_FORMAT_R5G6B5, 2 };
	nvt_surf2d(&t.p, &s32, &s32);
	nvt_ifc(&t.p, &s32, NV_IFC_COLOR_FORMAT_A8R8G8B8, 3, 4, 33, 20, px);   /* odd width */
	nvt_ifc(&t.p, &s32, NV_IFC_COLOR_FORMAT_A8R8G8B8, 79, 59, 1, 1, px + 7);
	nvt_surf2d(&t.p, &s16, &s16);
	nvt_ifc(&t.p, &s16, NV_IFC_COLOR_FORMAT_R5G6B5, 10, 0, 33, 20, px);    /* padded rows */
	nvt_ifc(&t.p, &s16, NV_IFC_COLOR_FORMAT_R5G6B5, 0, 40, 4, 20, px + 100);
	nvt_ifc(&t.p, &s16, NV_IFC_COLOR_FORMAT_R5G6B5, 89, 0, 1, 3, px + 50);
	NVT_OK(nvt_finish(&t.p));
	assert_int_equal(nvt_buf_check(&v, "surfaces after IFC"), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

/* The mixed workload in one client, with a submission per few operations. */
static void test_mixed_2d_workload_matches_cpu(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_workload w = { .sock = d->sock, .name = "mixed", .seed = 21, .rounds = 12,
				  .ops = 60, .wait_every = 3 };
	NVT_OK(nvt_workload_run(&w, NULL, NULL));
	free(w.result);
	nvt_end(d);
}

/* The same on every simulated chip (NV44 has its own 3D class and RAMFC
 * rules; the 2D path must not care) and with little VRAM. */
static const char *const nv40_args[] = { "--card", "sim:NV40", NULL };
static const char *const nv44_args[] = { "--card", "sim:NV44", "--vram", "64", NULL };

static void mixed_on_chip(void **state, unsigned chipset)
{
	struct nvc *c;
	struct nvc_info info;
	NVT_OK(nvc_connect(nvt_d(state)->sock, "chip", &c));
	NVT_OK(nvc_info(c, &info));
	nvc_close(c);
	assert_int_equal(info.chipset, chipset);
	test_mixed_2d_workload_matches_cpu(state);
}

static void test_mixed_2d_workload_on_nv40(void **state)
{
	mixed_on_chip(state, 0x40);
}

static void test_mixed_2d_workload_on_nv44_with_64_mib(void **state)
{
	mixed_on_chip(state, 0x44);
}

static int two_clients_child(void *arg)
{
	struct nvt_workload *w = arg;
	return nvt_workload_run(w, NULL, NULL) < 0 ? 1 : 0;
}

static void test_two_clients_at_once_match_cpu_reference(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_workload a = { .sock = d->sock, .name = "client-A", .seed = 101, .rounds = 30,
				  .ops = 50, .wait_every = 4 };
	struct nvt_workload b = { .sock = d->sock, .name = "client-B", .seed = 202, .rounds = 30,
				  .ops = 50, .wait_every = 0 };
	pid_t pa = nvt_fork(two_clients_child, &a);
	pid_t pb = nvt_fork(two_clients_child, &b);
	assert_true(pa > 0 && pb > 0);
	int ra = nvt_wait_child(pa, 60000), rb = nvt_wait_child(pb, 60000);
	if (ra || rb)
		fail_msg("client A exited %d, client B exited %d (0 = all bytes equal the CPU "
			 "reference)", ra, rb);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_m2mf_pitch_copies_match_cpu),
		NVT_TEST(test_m2mf_negative_pitch_copies_bottom_up),
		NVT_TEST(test_gdi_fill_y32_a8r8g8b8_writes_the_colour_word),
		NVT_TEST(test_gdi_fill_r5g6b5_a16r5g6b5_writes_the_low_16_bits),
		NVT_TEST(test_gdi_fill_x1r5g5b5_x16a1r5g5b5_writes_the_low_16_bits),
		NVT_TEST(test_gdi_fill_y8_writes_the_low_8_bits),
		NVT_TEST(test_gdi_fill_rectangle_array_in_one_packet),
		NVT_TEST(test_blit_overlapping_copies_behave_like_memmove),
		NVT_TEST(test_blit_between_surfaces_with_different_pitches),
		NVT_TEST(test_sifm_uploads_linear_to_swizzled_point_sampled),
		NVT_TEST(test_ifc_uploads_match_cpu),
		NVT_TEST(test_mixed_2d_workload_matches_cpu),
		NVT_TEST_ARGS(test_mixed_2d_workload_on_nv40, nv40_args),
		NVT_TEST_ARGS(test_mixed_2d_workload_on_nv44_with_64_mib, nv44_args),
		NVT_TEST(test_two_clients_at_once_match_cpu_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
