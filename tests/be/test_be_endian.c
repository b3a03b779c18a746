/* Proves the tests/be run is really big-endian: the host stores a word's
 * most significant byte first, and nv_wr32le/nv_rd32le still put card memory
 * in little-endian order (so a raw host load of it reads the bytes swapped). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hw/ramin.h"

static void host_stores_msb_first(void **state)
{
	const uint32_t word = 0x11223344u;
	const uint8_t want[4] = { 0x11, 0x22, 0x33, 0x44 };
	uint8_t got[4];

	(void)state;
	memcpy(got, &word, sizeof(got));
	assert_memory_equal(got, want, sizeof(want));
#if __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
	fail_msg("compiled for a little-endian target");
#endif
}

static void card_words_are_little_endian_on_this_host(void **state)
{
	const uint8_t want[4] = { 0x44, 0x33, 0x22, 0x11 };
	uint8_t mem[4];
	uint32_t raw;

	(void)state;
	nv_wr32le(mem, 0x11223344u);
	assert_memory_equal(mem, want, sizeof(want));
	assert_int_equal(nv_rd32le(mem), 0x11223344u);
	memcpy(&raw, mem, sizeof(raw));
	assert_int_equal(raw, 0x44332211u);   /* a host-endian load would be wrong here */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(host_stores_msb_first),
		cmocka_unit_test(card_words_are_little_endian_on_this_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
