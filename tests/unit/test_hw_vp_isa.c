/* hw/vp-isa.h as a table: the instruction fields tile the 128 bits without
 * overlap (only d0 bit 31, envytools' NV40-internal WAS_CURIE, is left
 * out), the source fields tile 17 bits, every accessor pair round-trips
 * and touches only its own bits, the split sources and the branch target
 * reassemble, and Mesa's golden words decode to what nv30_transfer.c says
 * they are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/vp-isa.h"

struct field { const char *name; unsigned word, shift, bits; };

static const struct field fields[] = {
#define F_(name, word, shift, bits) { #name, word, shift, bits },
	NV40_VP_FIELDS(F_)
#undef F_
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static uint32_t field_mask(const struct field *f)
{
	return (uint32_t)(((1ull << f->bits) - 1) << f->shift);
}

static void fields_tile_the_instruction_without_overlap(void **state)
{
	uint32_t seen[4] = { 0, 0, 0, 0 };

	(void)state;
	for (unsigned i = 0; i < NFIELDS; i++) {
		const struct field *f = &fields[i];

		assert_true(f->word < 4);
		assert_true(f->bits >= 1 && f->shift + f->bits <= 32);
		assert_int_equal(seen[f->word] & field_mask(f), 0);
		seen[f->word] |= field_mask(f);
	}
	assert_int_equal(seen[0], 0x7fffffff);
	assert_int_equal(seen[1], 0xffffffff);
	assert_int_equal(seen[2], 0xffffffff);
	assert_int_equal(seen[3], 0xffffffff);
}

static void source_fields_tile_17_bits(void **state)
{
	uint32_t seen = 0, m;

	(void)state;
#define S_(name, shift, bits) \
	m = ((1u << (bits)) - 1) << (shift); \
	assert_int_equal(seen & m, 0); \
	seen |= m;
	NV40_VP_SRC_FIELDS(S_)
#undef S_
	assert_int_equal(seen, 0x1ffff);
	assert_int_equal(nv40_vp_src_make(3, 0x2a, 0xe4, 1), 3 | 0x2a << 2 | 0xe4 << 8 | 1 << 16);
	assert_int_equal(nv40_vp_src_REG(nv40_vp_src_make(1, 0x3f, 0, 0)), 0x3f);
	assert_int_equal(nv40_vp_src_SWZ(nv40_vp_src_make(1, 0, 0x1b, 1)), 0x1b);
}

/* Each setter writes all ones into a zero instruction and zeros into an
 * all-ones one; the getter sees it and no other word or bit changes. */
static void accessors_round_trip_and_touch_only_their_bits(void **state)
{
	uint32_t i[4];

	(void)state;
#define A_(name, word, shift, bits) \
	memset(i, 0, sizeof i); \
	nv40_vp_set_##name(i, ~0u); \
	assert_int_equal(nv40_vp_##name(i), (1ull << (bits)) - 1); \
	assert_int_equal(i[word], (uint32_t)(((1ull << (bits)) - 1) << (shift))); \
	for (unsigned w = 0; w < 4; w++) \
		if (w != (word)) assert_int_equal(i[w], 0); \
	memset(i, 0xff, sizeof i); \
	nv40_vp_set_##name(i, 0); \
	assert_int_equal(nv40_vp_##name(i), 0); \
	assert_int_equal(i[word], ~(uint32_t)(((1ull << (bits)) - 1) << (shift)));
	NV40_VP_FIELDS(A_)
#undef A_
}

static void split_sources_and_branch_target_reassemble(void **state)
{
	uint32_t i[4];

	(void)state;
	for (unsigned n = 0; n < 3; n++) {
		memset(i, 0, sizeof i);
		nv40_vp_set_src(i, n, 0x1a5c3);
		assert_int_equal(nv40_vp_src(i, n), 0x1a5c3);
		for (unsigned m = 0; m < 3; m++)
			if (m != n)
				assert_int_equal(nv40_vp_src(i, m), 0);
	}
	memset(i, 0, sizeof i);
	nv40_vp_set_src(i, 0, 0x1ffff);
	assert_int_equal(i[1], 0xff);            /* SRC0 bits 16:9 in d1 7:0 */
	assert_int_equal(i[2], 0x1ffu << 23);    /* bits 8:0 in d2 31:23 */
	memset(i, 0, sizeof i);
	nv40_vp_set_target(i, 0x1ab);
	assert_int_equal(nv40_vp_target(i), 0x1ab);
	assert_int_equal(i[2], 0x1ab >> 3);      /* Mesa: inst[2] |= target >> 3 */
	assert_int_equal(i[3], 0x3u << 29);      /* inst[3] |= target << 29 */
}

static void mesa_golden_words_decode(void **state)
{
	static const uint32_t hpos[4] = { 0x401f9c6c, 0x0040000d, 0x8106c083, 0x6041ff80 };
	static const uint32_t tex0[4] = { 0x401f9c6c, 0x0040080d, 0x8106c083, 0x6041ff9d };
	const uint32_t v = nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0);

	(void)state;
	assert_int_equal(nv40_vp_VEC_OPCODE(hpos), NV40_VP_VEC_MOV);
	assert_int_equal(nv40_vp_SCA_OPCODE(hpos), NV40_VP_SCA_NOP);
	assert_int_equal(nv40_vp_VEC_RESULT(hpos), 1);
	assert_int_equal(nv40_vp_VEC_DST_TEMP(hpos), NV40_VP_NONE_TEMP);
	assert_int_equal(nv40_vp_SCA_DST_TEMP(hpos), NV40_VP_NONE_TEMP);
	assert_int_equal(nv40_vp_VEC_WRITEMASK(hpos), 0xf);
	assert_int_equal(nv40_vp_SCA_WRITEMASK(hpos), 0);
	assert_int_equal(nv40_vp_COND(hpos), NV40_VP_COND_TR);
	assert_int_equal(nv40_vp_COND_SWZ(hpos), NV40_VP_SWZ_IDENTITY);
	assert_int_equal(nv40_vp_COND_TEST_EN(hpos), 0);
	assert_int_equal(nv40_vp_COND_UPDATE_EN(hpos), 0);
	for (unsigned n = 0; n < 3; n++)
		assert_int_equal(nv40_vp_src(hpos, n), v);
	assert_int_equal(nv40_vp_DEST(hpos), NV40_VP_OUT_POS);
	assert_int_equal(nv40_vp_INPUT_SRC(hpos), 0);
	assert_int_equal(nv40_vp_LAST(hpos), 0);
	assert_int_equal(nv40_vp_DEST(tex0), NV40_VP_OUT_TC0);
	assert_int_equal(nv40_vp_INPUT_SRC(tex0), 8);
	assert_int_equal(nv40_vp_LAST(tex0), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields_tile_the_instruction_without_overlap),
		cmocka_unit_test(source_fields_tile_17_bits),
		cmocka_unit_test(accessors_round_trip_and_touch_only_their_bits),
		cmocka_unit_test(split_sources_and_branch_target_reassemble),
		cmocka_unit_test(mesa_golden_words_decode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
