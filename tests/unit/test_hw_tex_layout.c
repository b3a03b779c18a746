/* Texture layouts (hw/tex-layout.c) against Mesa miptrees worked out by hand
 * from nv30_miptree.c's rules: swizzled levels of nbx * cpp pitch packed
 * back to back, uniform 64-byte-aligned pitch for NPOT / RECT, DXT blocks
 * packed tightly, cube faces 128-byte aligned apart when swizzled. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/tex.h"
#include "hw/tex-layout.h"

/* The three words that decide a layout. */
enum { W_FORMAT, W_NPOT, W_SIZE1, W_COUNT };

static uint64_t tex_extent(const uint32_t w[W_COUNT])
{
	return nv40_tex_extent(w[W_FORMAT], w[W_NPOT], w[W_SIZE1]);
}

static int tex_layout(const uint32_t w[W_COUNT], struct nv40_tex_layout *l)
{
	return nv40_tex_layout(w[W_FORMAT], w[W_NPOT], w[W_SIZE1], l);
}

/* The words Mesa's nv30_fragtex_validate() writes for a view of a miptree. */
static void tex_words(uint32_t w[W_COUNT], unsigned code, unsigned dims, unsigned cube,
		      unsigned linear, unsigned rect, unsigned levels, unsigned tw, unsigned th,
		      unsigned td, unsigned pitch)
{
	memset(w, 0, W_COUNT * sizeof(*w));
	w[W_FORMAT] = NV40_TEX_FORMAT_DMA0 | NV40_TEX_FORMAT_NO_BORDER |
			      NV40_TEX_FORMAT_UNK15 | dims << NV40_TEX_FORMAT_DIMS_SHIFT |
			      code << NV40_TEX_FORMAT_FORMAT_SHIFT |
			      levels << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT |
			      (cube ? NV40_TEX_FORMAT_CUBIC : 0) |
			      (linear ? NV40_TEX_FORMAT_LINEAR : 0) | (rect ? NV40_TEX_FORMAT_RECT : 0);
	w[W_NPOT] = tw << 16 | th;
	w[W_SIZE1] = td << NV40_TEX_SIZE1_DEPTH_SHIFT | pitch;
}

/* 64x32 A8R8G8B8, full chain of 7: 8192, 2048, 512, 128, 32, 8, 4. */
static void pot_swizzled_2d_levels_pack_back_to_back(void **state)
{
	static const uint64_t off[7] = { 0, 8192, 10240, 10752, 10880, 10912, 10920 };
	struct nv40_tex_layout l;
	uint32_t w[W_COUNT];
	unsigned i;

	(void)state;
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 2, 0, 0, 0, 7, 64, 32, 1, 0);
	assert_int_equal(tex_layout(w, &l), 0);
	assert_true(l.swizzled);
	assert_false(l.linear);
	assert_int_equal(l.levels, 7);
	assert_int_equal(l.log2w, 6);
	assert_int_equal(l.log2h, 5);
	for (i = 0; i < 7; i++)
		assert_int_equal(l.level[i].offset, off[i]);
	assert_int_equal(l.level[0].pitch, 256);
	assert_int_equal(l.level[5].w, 2);
	assert_int_equal(l.level[5].h, 1);
	assert_int_equal(l.level[6].pitch, 4);
	assert_int_equal(l.extent, 10924);
	assert_int_equal(tex_extent(w), 10924);
}

/* 1D 256 L8 swizzled, 9 levels: 256 + 128 + ... + 1 = 511. */
static void pot_1d_chain_sums_to_511_bytes(void **state)
{
	uint32_t w[W_COUNT];

	(void)state;
	tex_words(w, NV40_TEX_FMT_L8, 1, 0, 0, 0, 9, 256, 1, 1, 0);
	assert_int_equal(tex_extent(w), 511);
}

/* 100x50 L8, uniform pitch align(100, 64) = 128, 3 levels of 50, 25, 12
 * rows: 6400 + 3200 + 1536. */
static void npot_linear_levels_keep_the_uniform_pitch(void **state)
{
	struct nv40_tex_layout l;
	uint32_t w[W_COUNT];

	(void)state;
	tex_words(w, NV40_TEX_FMT_L8, 2, 0, 1, 0, 3, 100, 50, 1, 128);
	assert_int_equal(tex_layout(w, &l), 0);
	assert_false(l.swizzled);
	assert_int_equal(l.level[1].offset, 6400);
	assert_int_equal(l.level[2].offset, 9600);
	assert_int_equal(l.level[2].w, 25);
	assert_int_equal(l.level[2].h, 12);
	assert_int_equal(l.level[2].pitch, 128);
	assert_int_equal(l.extent, 11136);
}

/* RECT 300x200 A8R8G8B8: pitch align(1200, 64) = 1216, one level. */
static void rect_is_one_linear_level(void **state)
{
	struct nv40_tex_layout l;
	uint32_t w[W_COUNT];

	(void)state;
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 2, 0, 1, 1, 1, 300, 200, 1, 1216);
	assert_int_equal(tex_layout(w, &l), 0);
	assert_true(l.rect);
	assert_int_equal(l.extent, 1216 * 200);
}

/* A pitch shorter than a row (100 texels of 4 bytes in 256) is refused, so
 * are a zero pitch and one that overlaps the last row of a level. */
static void linear_pitch_shorter_than_a_row_is_refused(void **state)
{
	uint32_t w[W_COUNT];

	(void)state;
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 2, 0, 1, 0, 1, 100, 10, 1, 256);
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 2, 0, 1, 0, 1, 100, 10, 1, 0);
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 2, 0, 1, 0, 1, 100, 10, 1, 400);
	assert_int_equal(tex_extent(w), 4000);
}

/* 16x16 R5G6B5 cube, 5 levels: 512 + 128 + 32 + 8 + 2 = 682 per face,
 * faces align(682, 128) = 768 apart: 5 * 768 + 682. */
static void swizzled_cube_faces_are_128_byte_aligned(void **state)
{
	struct nv40_tex_layout l;
	uint32_t w[W_COUNT];

	(void)state;
	tex_words(w, NV40_TEX_FMT_R5G6B5, 2, 1, 0, 0, 5, 16, 16, 1, 0);
	assert_int_equal(tex_layout(w, &l), 0);
	assert_int_equal(l.faces, 6);
	assert_int_equal(l.face_stride, 768);
	assert_int_equal(l.extent, 5 * 768 + 682);
}

/* A linear (NPOT) cube, 10x10 L8 in a 64-byte pitch, 2 levels: faces are
 * 640 + 320 = 960 bytes apart, not realigned to 128 (1024). */
static void linear_cube_faces_are_not_realigned(void **state)
{
	struct nv40_tex_layout l;
	uint32_t w[W_COUNT];

	(void)state;
	tex_words(w, NV40_TEX_FMT_L8, 2, 1, 1, 0, 2, 10, 10, 1, 64);
	assert_int_equal(tex_layout(w, &l), 0);
	assert_int_equal(l.face_stride, 960);
	assert_int_equal(l.extent, 6 * 960);
}

/* 16x8x4 A8R8G8B8 3D, 5 levels: 2048 + 256 + 32 + 8 + 4. */
static void swizzled_3d_levels_hold_their_depth(void **state)
{
	struct nv40_tex_layout l;
	uint32_t w[W_COUNT];

	(void)state;
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 3, 0, 0, 0, 5, 16, 8, 4, 0);
	assert_int_equal(tex_layout(w, &l), 0);
	assert_int_equal(l.level[0].zslice, 512);
	assert_int_equal(l.level[1].offset, 2048);
	assert_int_equal(l.level[1].d, 2);
	assert_int_equal(l.level[2].d, 1);
	assert_int_equal(l.level[4].offset, 2344);
	assert_int_equal(l.extent, 2348);
	/* depth 0 or above 512 is no texture; 2D ignores the depth field */
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 3, 0, 0, 0, 1, 16, 8, 0, 0);
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 3, 0, 0, 0, 1, 16, 8, 1024, 0);
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 2, 0, 0, 0, 1, 16, 8, 1024, 0);
	assert_int_equal(tex_extent(w), 512);
}

/* Linear 3D 12x6x3 L8, pitch 64: 3 slices of 6 rows, then 6x3x1. */
static void linear_3d_slices_at_zslice_stride(void **state)
{
	struct nv40_tex_layout l;
	uint32_t w[W_COUNT];

	(void)state;
	tex_words(w, NV40_TEX_FMT_L8, 3, 0, 1, 0, 2, 12, 6, 3, 64);
	assert_int_equal(tex_layout(w, &l), 0);
	assert_int_equal(l.level[0].zslice, 384);
	assert_int_equal(l.level[1].offset, 1152);
	assert_int_equal(l.level[1].size, 64 * 3);
	assert_int_equal(l.extent, 1152 + 192);
}

/* DXT1 64x64, 7 levels of 16x16, 8x8, 4x4, 2x2 and three 1x1 blocks of 8
 * bytes; DXT5 twice that; NPOT DXT1 100x60 LINEAR: 25 blocks = 200 bytes
 * in a 256-byte pitch, 15 block rows. */
static void dxt_blocks_pack_tightly_without_linear(void **state)
{
	struct nv40_tex_layout l;
	uint32_t w[W_COUNT];

	(void)state;
	tex_words(w, NV40_TEX_FMT_DXT1, 2, 0, 0, 0, 7, 64, 64, 1, 0);
	assert_int_equal(tex_layout(w, &l), 0);
	assert_true(l.dxt);
	assert_false(l.swizzled);
	assert_int_equal(l.level[0].pitch, 128);
	assert_int_equal(l.level[0].rows, 16);
	assert_int_equal(l.level[4].offset, 2720);
	assert_int_equal(l.extent, 2744);
	tex_words(w, NV40_TEX_FMT_DXT5, 2, 0, 0, 0, 7, 64, 64, 1, 0);
	assert_int_equal(tex_extent(w), 5488);
	/* NPOT DXT is fine packed too (blocks round up): 3x3 blocks of 12x10 */
	tex_words(w, NV40_TEX_FMT_DXT3, 2, 0, 0, 0, 1, 12, 10, 1, 0);
	assert_int_equal(tex_extent(w), 9 * 16);
	tex_words(w, NV40_TEX_FMT_DXT1, 2, 0, 1, 0, 1, 100, 60, 1, 256);
	assert_int_equal(tex_extent(w), 256 * 15);
}

/* Words no Mesa texture has are no texture at all. */
static void impossible_words_have_no_extent(void **state)
{
	uint32_t w[W_COUNT];

	(void)state;
	tex_words(w, 0x09, 2, 0, 0, 0, 1, 16, 16, 1, 0);           /* no format 0x09 */
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_L8, 0, 0, 0, 0, 1, 16, 16, 1, 0);  /* DIMS 0 */
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_L8, 4, 0, 0, 0, 1, 16, 16, 1, 0);  /* DIMS 4 */
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_L8, 2, 0, 0, 0, 1, 0, 16, 1, 0);   /* width 0 */
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_L8, 2, 0, 1, 0, 1, 8192, 1, 1, 8192); /* too wide */
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_L8, 2, 0, 0, 0, 1, 24, 16, 1, 0);  /* swizzled NPOT */
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 2, 0, 0, 0, 8, 64, 32, 1, 0); /* 8 > 7 levels */
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 2, 0, 0, 0, 0, 64, 32, 1, 0); /* 0 levels */
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 2, 1, 0, 0, 1, 64, 32, 1, 0); /* cube 64x32 */
	assert_int_equal(tex_extent(w), 0);
	tex_words(w, NV40_TEX_FMT_A8R8G8B8, 3, 1, 0, 0, 1, 32, 32, 2, 0); /* cube 3D */
	assert_int_equal(tex_extent(w), 0);
	/* 3D is at most 512 in every direction */
	tex_words(w, NV40_TEX_FMT_L8, 3, 0, 0, 0, 1, 1024, 1, 1, 0);
	assert_int_equal(tex_extent(w), 0);
	/* TEX_SIZE1 19:16 lie between pitch and depth: no texture sets them */
	tex_words(w, NV40_TEX_FMT_L8, 2, 0, 1, 0, 1, 100, 10, 1, 128);
	assert_int_equal(tex_extent(w), 1280);
	w[W_SIZE1] |= 0x10000;
	assert_int_equal(tex_extent(w), 0);
	/* the largest 2D there is: 4096^2 x 16 bytes, one level */
	tex_words(w, NV40_TEX_FMT_RGBA32F, 2, 0, 0, 0, 1, 4096, 4096, 1, 0);
	assert_int_equal(tex_extent(w), (uint64_t)4096 * 4096 * 16);
}

static uint32_t tex_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Any words: every level of every face lies inside the extent, sizes stay
 * in the documented limits, and the extent is 0 exactly when layout fails. */
static void random_words_keep_every_level_inside_the_extent(void **state)
{
	uint32_t s = 0x1234567, w[W_COUNT];
	unsigned block;
	struct nv40_tex_layout l;
	unsigned n, i, ok = 0;

	(void)state;
	for (n = 0; n < 200000; n++) {
		for (i = 0; i < W_COUNT; i++)
			w[i] = tex_rand(&s);
		if (n & 2)
			w[W_SIZE1] &= ~NV40_TEX_SIZE1_UNK16;
		/* bias towards plausible words so some are textures */
		if (n & 1) {
			w[W_NPOT] &= 0x003f003f;
			w[W_SIZE1] &= 0x00f000ff;
			w[W_FORMAT] &= 0x0003ff0f;
			w[W_FORMAT] |= (1 + n % 3) << NV40_TEX_FORMAT_DIMS_SHIFT |
					       1u << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT;
		}
		if (tex_layout(w, &l)) {
			assert_int_equal(tex_extent(w), 0);
			continue;
		}
		ok++;
		assert_int_equal(tex_extent(w), l.extent);
		assert_true(l.extent > 0);
		assert_int_equal(nv40_tex_format_bytes(l.code, &block), l.bytes);
		assert_int_equal(block, l.dxt ? 4 : 1);
		assert_true(l.levels >= 1 && l.levels <= NV40_TEX_MAX_LEVELS);
		for (i = 0; i < l.levels; i++) {
			const struct nv40_tex_level *lv = &l.level[i];
			assert_true(lv->w >= 1 && lv->w <= NV40_TEX_MAX_SIZE);
			assert_true(lv->offset + lv->size <= l.face_stride);
			assert_true((l.faces - 1) * l.face_stride + lv->offset + lv->size <= l.extent);
			assert_true(lv->size == lv->zslice * lv->d);
		}
	}
	assert_true(ok > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pot_swizzled_2d_levels_pack_back_to_back),
		cmocka_unit_test(pot_1d_chain_sums_to_511_bytes),
		cmocka_unit_test(npot_linear_levels_keep_the_uniform_pitch),
		cmocka_unit_test(rect_is_one_linear_level),
		cmocka_unit_test(linear_pitch_shorter_than_a_row_is_refused),
		cmocka_unit_test(swizzled_cube_faces_are_128_byte_aligned),
		cmocka_unit_test(linear_cube_faces_are_not_realigned),
		cmocka_unit_test(swizzled_3d_levels_hold_their_depth),
		cmocka_unit_test(linear_3d_slices_at_zslice_stride),
		cmocka_unit_test(dxt_blocks_pack_tightly_without_linear),
		cmocka_unit_test(impossible_words_have_no_extent),
		cmocka_unit_test(random_words_keep_every_level_inside_the_extent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
