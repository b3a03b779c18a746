/* The NV4x swizzled layout (sim/swizzle.c) against offsets computed by
 * hand, square and non-square, and as a whole: a bijection onto
 * [0, w*h), monotone in x and in y (SIFM maps destination ranges by their
 * corner indices), and equal to the generic "interleave while both have
 * bits" rule the 3D function implements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/swizzle.h"

/* Square 4x4 (k = 2): x bits at positions 0, 2; y bits at 1, 3. */
static void square_4x4_matches_hand_computed_offsets(void **state)
{
	(void)state;
	assert_int_equal(sim_swz_index(0, 0, 2, 2), 0);
	assert_int_equal(sim_swz_index(1, 0, 2, 2), 1);
	assert_int_equal(sim_swz_index(0, 1, 2, 2), 2);
	assert_int_equal(sim_swz_index(1, 1, 2, 2), 3);
	assert_int_equal(sim_swz_index(2, 0, 2, 2), 4);
	assert_int_equal(sim_swz_index(3, 0, 2, 2), 5);
	assert_int_equal(sim_swz_index(2, 1, 2, 2), 6);
	assert_int_equal(sim_swz_index(0, 2, 2, 2), 8);
	assert_int_equal(sim_swz_index(2, 3, 2, 2), 14);   /* x=10b y=11b -> 1110b */
	assert_int_equal(sim_swz_index(3, 3, 2, 2), 15);
}

/* Square 8x8: (5, 3): x=101b, y=011b -> y2 x2 y1 x1 y0 x0 = 0 1 1 0 1 1. */
static void square_8x8_matches_hand_computed_offsets(void **state)
{
	(void)state;
	assert_int_equal(sim_swz_index(5, 3, 3, 3), 27);
	assert_int_equal(sim_swz_index(4, 0, 3, 3), 16);
	assert_int_equal(sim_swz_index(0, 4, 3, 3), 32);
	assert_int_equal(sim_swz_index(7, 7, 3, 3), 63);
	assert_int_equal(sim_swz_index(6, 1, 3, 3), 22);   /* 0 1 0 1 1 0 */
}

/* Wide 8x2 (k = 1): 2x2 tiles side by side, tile = x >> 1. */
static void wide_8x2_lays_2x2_tiles_along_x(void **state)
{
	(void)state;
	assert_int_equal(sim_swz_index(1, 0, 3, 1), 1);
	assert_int_equal(sim_swz_index(0, 1, 3, 1), 2);
	assert_int_equal(sim_swz_index(1, 1, 3, 1), 3);
	assert_int_equal(sim_swz_index(2, 0, 3, 1), 4);
	assert_int_equal(sim_swz_index(3, 1, 3, 1), 7);
	assert_int_equal(sim_swz_index(6, 0, 3, 1), 12);
	assert_int_equal(sim_swz_index(7, 1, 3, 1), 15);
}

/* Tall 2x8 (k = 1): 2x2 tiles stacked, tile = y >> 1. */
static void tall_2x8_stacks_2x2_tiles_along_y(void **state)
{
	(void)state;
	assert_int_equal(sim_swz_index(1, 1, 1, 3), 3);
	assert_int_equal(sim_swz_index(0, 2, 1, 3), 4);
	assert_int_equal(sim_swz_index(0, 5, 1, 3), 10);   /* morton(0,1)=2 + 2*4 */
	assert_int_equal(sim_swz_index(1, 7, 1, 3), 15);
}

/* 4x16 (k = 2): 4x4 tiles stacked; 16x4: side by side; 1-wide and
 * 1-high surfaces are linear. */
static void rectangles_with_4x4_tiles_and_degenerate_sizes(void **state)
{
	(void)state;
	assert_int_equal(sim_swz_index(3, 5, 2, 4), 23);    /* morton(3,1)=7 + 1*16 */
	assert_int_equal(sim_swz_index(3, 15, 2, 4), 63);
	assert_int_equal(sim_swz_index(5, 3, 4, 2), 27);    /* morton(1,3)=11 + 1*16 */
	assert_int_equal(sim_swz_index(13, 2, 4, 2), 3 * 16 + 9);  /* morton(1,2)=9 */
	for (uint32_t i = 0; i < 32; i++) {
		assert_int_equal(sim_swz_index(i, 0, 5, 0), i);
		assert_int_equal(sim_swz_index(0, i, 0, 5), i);
	}
	assert_int_equal(sim_swz_index(0, 0, 0, 0), 0);
}

/* A 2048x2048 surface (the largest SWZSURF takes): the last texel is the
 * last index, a middle one as computed by hand. */
static void largest_surface_corner_indices(void **state)
{
	(void)state;
	assert_int_equal(sim_swz_index(2047, 2047, 11, 11), 2048u * 2048u - 1);
	/* x = 1024 (bit 10 -> index bit 20), y = 1 (bit 0 -> index bit 1) */
	assert_int_equal(sim_swz_index(1024, 1, 11, 11), (1u << 20) | 2u);
	/* 4096x1024: the second 1024x1024 tile starts at 1M texels */
	assert_int_equal(sim_swz_index(1024, 0, 12, 10), 1u << 20);
}

static void every_size_up_to_64_is_a_monotone_bijection(void **state)
{
	(void)state;
	for (unsigned lw = 0; lw <= 6; lw++)
		for (unsigned lh = 0; lh <= 6; lh++) {
			uint32_t w = 1u << lw, h = 1u << lh;
			uint8_t *seen = calloc(w * h, 1);
			assert_non_null(seen);
			for (uint32_t y = 0; y < h; y++)
				for (uint32_t x = 0; x < w; x++) {
					uint32_t i = sim_swz_index(x, y, lw, lh);
					assert_true(i < w * h);
					assert_int_equal(seen[i], 0);
					seen[i] = 1;
					if (x)
						assert_true(sim_swz_index(x - 1, y, lw, lh) < i);
					if (y)
						assert_true(sim_swz_index(x, y - 1, lw, lh) < i);
				}
			free(seen);
		}
}

static void tile_formula_equals_bit_interleave_while_both_have_bits(void **state)
{
	(void)state;
	for (unsigned lw = 0; lw <= 7; lw++)
		for (unsigned lh = 0; lh <= 7; lh++)
			for (uint32_t y = 0; y < (1u << lh); y++)
				for (uint32_t x = 0; x < (1u << lw); x++)
					assert_int_equal(sim_swz_index(x, y, lw, lh),
							 sim_swz3d_index(x, y, 0, lw, lh, 0));
}

/* 3D: one bit of x, y, z in turn while each has bits left. */
/* The row walker gives what sim_swz_index gives, from any start, for every
 * shape (square, wide, tall) up to 2^7 and for the 2048-wide maximum. */
static void row_walk_equals_index(void **state)
{
	(void)state;
	for (unsigned lw = 0; lw <= 7; lw++)
		for (unsigned lh = 0; lh <= 7; lh++)
			for (uint32_t y = 0; y < 1u << lh; y++)
				for (uint32_t x0 = 0; x0 < 1u << lw; x0 += 1 + x0 / 3) {
					struct sim_swz_row w;
					sim_swz_row_init(&w, x0, y, lw, lh);
					for (uint32_t x = x0; x < 1u << lw; x++)
						assert_int_equal(sim_swz_row_next(&w), sim_swz_index(x, y, lw, lh));
				}
	struct sim_swz_row w;
	sim_swz_row_init(&w, 5, 3, 11, 4);
	for (uint32_t x = 5; x < 2048; x++)
		assert_int_equal(sim_swz_row_next(&w), sim_swz_index(x, 3, 11, 4));
}

static void volume_interleaves_x_y_z(void **state)
{
	(void)state;
	assert_int_equal(sim_swz3d_index(1, 0, 0, 1, 1, 1), 1);
	assert_int_equal(sim_swz3d_index(0, 1, 0, 1, 1, 1), 2);
	assert_int_equal(sim_swz3d_index(0, 0, 1, 1, 1, 1), 4);
	assert_int_equal(sim_swz3d_index(1, 1, 1, 1, 1, 1), 7);
	/* 4x4x2: x0 y0 z0 x1 y1 -> (2, 1, 1) = 0b01110 */
	assert_int_equal(sim_swz3d_index(2, 1, 1, 2, 2, 1), 14);
	/* 4x2x1: x0 y0 x1 */
	assert_int_equal(sim_swz3d_index(3, 1, 0, 2, 1, 0), 7);
	assert_int_equal(sim_swz3d_index(2, 0, 0, 2, 1, 0), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(square_4x4_matches_hand_computed_offsets),
		cmocka_unit_test(square_8x8_matches_hand_computed_offsets),
		cmocka_unit_test(wide_8x2_lays_2x2_tiles_along_x),
		cmocka_unit_test(tall_2x8_stacks_2x2_tiles_along_y),
		cmocka_unit_test(rectangles_with_4x4_tiles_and_degenerate_sizes),
		cmocka_unit_test(largest_surface_corner_indices),
		cmocka_unit_test(every_size_up_to_64_is_a_monotone_bijection),
		cmocka_unit_test(tile_formula_equals_bit_interleave_while_both_have_bits),
		cmocka_unit_test(row_walk_equals_index),
		cmocka_unit_test(volume_interleaves_x_y_z),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
