/* The program disassemblers (hw/disasm.h) on known instruction words: the
 * exact text, and the text cut to the caller's buffer.  Fragment programs
 * are given as the card's little-endian bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hw/disasm.h"
#include "hw/ramin.h"

/* words little-endian into b, which holds at least 4 * n bytes */
static const uint8_t *le(uint8_t *b, const uint32_t *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		nv_wr32le(b + 4 * i, words[i]);
	return b;
}

static void fp_instructions_read_as_nvfx_assembly(void **state)
{
	static const struct {
		uint32_t w[8];
		size_t len;
		const char *text;
	} k[] = {
		{ { 0x02002e00, 0x1c9dc801, 0x0000aa02, 0x0001c801,
		    0x3f800000, 0x3f000000, 0x40000000, 0x00000000 }, 32,
		  "MULR R0.xyz, f[COL0], c.yyyy c = {1, 0.5, 2, 0}" },
		{ { 0x02002e00, 0x1c9dc801, 0x0000aa02, 0x0001c801 }, 16,
		  "MULR R0.xyz, f[COL0], c.yyyy c = {truncated}" },
		{ { 0x83001e01, 0x1c9dc800, 0x00063604, 0x0001c800 }, 16,
		  "ADDR_SAT R0, R0, -|R1.wzyx|; END" },
		{ { 0x1709be81, 0x1c9dc805, 0x0001c800, 0x0001c800 }, 16,
		  "TEXR H0, f[TEX9], texture[4]; END" },
		{ { 0x02000000, 0x00140000, 0x80000030, 0x00000040 }, 16,
		  "IF (NE.xxxx) else 0x30 endif 0x40" },
		{ { 0x02000000 }, 12, "(truncated)" },
	};
	uint8_t b[32];
	char text[128];

	(void)state;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		assert_string_equal(hw_fp_disasm(le(b, k[i].w, 8), k[i].len, text, sizeof(text)),
				    k[i].text);
}

static void vp_instructions_read_as_nv_vertex_program(void **state)
{
	static const struct {
		uint32_t w[4];
		const char *text;
	} k[] = {
		{ { 0x00801c6c, 0x0100608d, 0x8686c0c0, 0xa0a19ffc },
		  "MAD R0.xy, -R3, c[6], |R1.xxyy|;" },
		{ { 0x06803000, 0x1100608d, 0x8686c0c0, 0x00a3817c },
		  "MAD_SAT (GT1.xxxx) R0.xy, -R3, c[6], |R1.xxxx| + "
		  "RCP_SAT (GT1.xxxx) R2.w, |R1.xxxx|;" },
		{ { 0x601fdc6e, 0x0040200d, 0x8186c083, 0x6041ffaa }, "MOVC0 o[TC3], c[A0.z+2];" },
		{ { 0x001f9c6c, 0x5800000d, 0x8106c0a5, 0x80401ffd }, "CAL 300; END" },
		{ { 0x401f8000, 0x01c0000d, 0x8106c0c3, 0x60411f80 }, "DP4 o[POS].x, v[0], c[0];" },
	};
	char text[160];

	(void)state;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		assert_string_equal(hw_vp_disasm(k[i].w, text, sizeof(text)), k[i].text);
}

/* A short buffer gets the text's start, NUL-terminated; none gets nothing. */
static void text_is_cut_to_the_buffer(void **state)
{
	static const uint32_t cal[4] = { 0x001f9c6c, 0x5800000d, 0x8106c0a5, 0x80401ffd };
	static const uint32_t add[4] = { 0x83001e01, 0x1c9dc800, 0x00063604, 0x0001c800 };
	uint8_t b[16];
	char small[8];

	(void)state;
	assert_string_equal(hw_vp_disasm(cal, small, sizeof(small)), "CAL 300");
	assert_string_equal(hw_vp_disasm(cal, small, 1), "");
	assert_null(hw_vp_disasm(cal, NULL, 0));
	assert_string_equal(hw_fp_disasm(le(b, add, 4), 16, small, sizeof(small)), "ADDR_SA");
	assert_string_equal(hw_fp_disasm(b, 16, small, 1), "");
	assert_null(hw_fp_disasm(b, 16, NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fp_instructions_read_as_nvfx_assembly),
		cmocka_unit_test(vp_instructions_read_as_nv_vertex_program),
		cmocka_unit_test(text_is_cut_to_the_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
