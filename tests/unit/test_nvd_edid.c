/* EDID (nvd/edid.c): what the simulated monitors say and what nvd reads
 * back.  Expected timings are VESA's published numbers (DMT 1.13 and the
 * CVT 1.1 modelines `cvt` prints), not outputs of the code under test. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nvd/edid.h"

static void build(const char *spec, uint8_t e[EDID_SIZE])
{
	struct nvd_monitor m;
	char why[160] = "";
	int r = nvd_monitor_parse(spec, &m, why, sizeof(why));
	if (r)
		print_error("%s: %s\n", spec, why);
	assert_int_equal(r, 0);
	r = nvd_edid_build(&m, e, why, sizeof(why));
	if (r)
		print_error("%s: %s\n", spec, why);
	assert_int_equal(r, 0);
}

static void parse_ok(const uint8_t e[EDID_SIZE], struct nvd_edid_info *in)
{
	char why[160] = "";
	int r = nvd_edid_parse(e, in, why, sizeof(why));
	if (r)
		print_error("%s\n", why);
	assert_int_equal(r, 0);
}

static void assert_mode(const struct nvd_mode *m, unsigned clock, unsigned hd, unsigned hss,
			unsigned hse, unsigned ht, unsigned vd, unsigned vss, unsigned vse,
			unsigned vt, unsigned flags)
{
	assert_int_equal(m->clock, clock);
	assert_int_equal(m->hdisplay, hd);
	assert_int_equal(m->hsync_start, hss);
	assert_int_equal(m->hsync_end, hse);
	assert_int_equal(m->htotal, ht);
	assert_int_equal(m->vdisplay, vd);
	assert_int_equal(m->vsync_start, vss);
	assert_int_equal(m->vsync_end, vse);
	assert_int_equal(m->vtotal, vt);
	assert_int_equal(m->flags, flags);
}

static void test_edid_1024x768_dtd_bytes_are_vesas(void **state)
{
	(void)state;
	uint8_t e[EDID_SIZE];
	build("1024x768,800x600:Test", e);
	/* DMT 1024x768@60: 65 MHz, hblank 320, hfp 24, hsync 136, vblank 38,
	 * vfp 3, vsync 6, both syncs negative, digital separate sync. */
	static const uint8_t dtd[] = { 0x64, 0x19, 0x00, 0x40, 0x41, 0x00, 0x26, 0x30,
				       0x18, 0x88, 0x36, 0x00 };
	assert_memory_equal(e + 0x36, dtd, sizeof(dtd));
	assert_int_equal(e[0x36 + 15], 0);   /* no borders */
	assert_int_equal(e[0x36 + 16], 0);
	assert_int_equal(e[0x36 + 17], 0x18);
	/* 800x600@60 went to the established timings: byte 0x23 bit 0 */
	assert_int_equal(e[0x23], 0x01);
	assert_int_equal(e[0x24], 0);
	/* header, version 1.3, the sum */
	static const uint8_t hdr[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	assert_memory_equal(e, hdr, 8);
	assert_int_equal(e[0x12], 1);
	assert_int_equal(e[0x13], 3);
	uint8_t sum = 0;
	for (unsigned i = 0; i < EDID_SIZE; i++)
		sum = (uint8_t)(sum + e[i]);
	assert_int_equal(sum, 0);
	/* the name descriptor follows the one DTD */
	assert_int_equal(e[0x48], 0);
	assert_int_equal(e[0x48 + 3], 0xfc);
	assert_memory_equal(e + 0x48 + 5, "Test\n        ", 13);
}

static void test_edid_default_monitor_round_trip(void **state)
{
	(void)state;
	struct nvd_monitor m;
	struct nvd_edid_info in;
	uint8_t e[EDID_SIZE];
	char why[128];
	nvd_monitor_default(0, &m);
	assert_int_equal(m.nmodes, 6);
	assert_int_equal(nvd_edid_build(&m, e, why, sizeof(why)), 0);
	parse_ok(e, &in);
	assert_string_equal(in.name, "nvd 1920x1080");
	assert_int_equal(in.nmodes, 6);
	/* preferred first, then larger first */
	assert_true(in.modes[0].preferred);
	assert_mode(&in.modes[0], 148500, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125,
		    NVD_MODE_PHSYNC | NVD_MODE_PVSYNC);
	assert_mode(&in.modes[1], 146250, 1680, 1784, 1960, 2240, 1050, 1053, 1059, 1089,
		    NVD_MODE_NHSYNC | NVD_MODE_PVSYNC);
	assert_mode(&in.modes[2], 108000, 1280, 1328, 1440, 1688, 1024, 1025, 1028, 1066,
		    NVD_MODE_PHSYNC | NVD_MODE_PVSYNC);
	assert_mode(&in.modes[3], 65000, 1024, 1048, 1184, 1344, 768, 771, 777, 806,
		    NVD_MODE_NHSYNC | NVD_MODE_NVSYNC);
	assert_mode(&in.modes[4], 40000, 800, 840, 968, 1056, 600, 601, 605, 628,
		    NVD_MODE_PHSYNC | NVD_MODE_PVSYNC);
	assert_mode(&in.modes[5], 25175, 640, 656, 752, 800, 480, 490, 492, 525,
		    NVD_MODE_NHSYNC | NVD_MODE_NVSYNC);
	for (unsigned i = 1; i < 6; i++) {
		assert_false(in.modes[i].preferred);
		assert_int_equal(nvd_mode_hz(&in.modes[i]), 60);
	}
	/* 1920 px at ~96 dpi */
	assert_int_equal(in.mm_width, 508);
	assert_int_equal(in.mm_height, 286);
}

/* Each monitor's modes come back, each exactly once, the preferred first. */
static void round_trip(const char *spec, unsigned n, const unsigned (*want)[3], const char *name)
{
	struct nvd_edid_info in;
	uint8_t e[EDID_SIZE];
	build(spec, e);
	parse_ok(e, &in);
	assert_string_equal(in.name, name);
	assert_int_equal(in.nmodes, n);
	assert_true(in.modes[0].preferred);
	assert_int_equal(in.modes[0].hdisplay, want[0][0]);
	assert_int_equal(in.modes[0].vdisplay, want[0][1]);
	for (unsigned i = 0; i < n; i++) {
		unsigned found = 0;
		for (unsigned k = 0; k < in.nmodes; k++)
			found += in.modes[k].hdisplay == want[i][0] && in.modes[k].vdisplay == want[i][1] &&
				 nvd_mode_hz(&in.modes[k]) == want[i][2];
		if (found != 1)
			print_error("%s: %ux%u@%u found %u times\n", spec, want[i][0], want[i][1],
				    want[i][2], found);
		assert_int_equal(found, 1);
	}
	for (unsigned k = 1; k + 1 < in.nmodes; k++)
		assert_true((uint32_t)in.modes[k].hdisplay * in.modes[k].vdisplay >=
			    (uint32_t)in.modes[k + 1].hdisplay * in.modes[k + 1].vdisplay);
}

static void test_edid_round_trips_several_monitors(void **state)
{
	(void)state;
	static const unsigned crt[][3] = { { 1280, 1024, 75 }, { 1280, 1024, 60 }, { 1024, 768, 75 },
					   { 1024, 768, 70 }, { 800, 600, 72 }, { 640, 480, 75 },
					   { 720, 400, 70 }, { 1152, 864, 75 } };
	round_trip("1280x1024@75,1280x1024,1024x768@75,1024x768@70,800x600@72,640x480@75,"
		   "720x400@70,1152x864@75:Big CRT", 8, crt, "Big CRT");
	/* non-DMT sizes: CVT (reduced blanking in the DTDs), standard timings */
	static const unsigned wide[][3] = { { 2560, 1440, 60 }, { 1600, 900, 60 },
					    { 1920, 1200, 60 }, { 1366, 768, 60 },
					    { 1440, 900, 60 }, { 1280, 720, 60 } };
	round_trip("2560x1440,1600x900,1920x1200,1366x768,1440x900,1280x720:Wide LCD", 6, wide,
		   "Wide LCD");
	static const unsigned one[][3] = { { 800, 600, 60 } };
	round_trip("800x600", 1, one, "nvd 800x600");
}

static void test_edid_preferred_cvt_mode_uses_reduced_blanking(void **state)
{
	(void)state;
	struct nvd_edid_info in;
	uint8_t e[EDID_SIZE];
	build("2560x1600:Huge", e);
	parse_ok(e, &in);
	/* cvt -r 2560 1600: 268.50 2560 2608 2640 2720  1600 1603 1609 1646 +h -v */
	assert_mode(&in.modes[0], 268500, 2560, 2608, 2640, 2720, 1600, 1603, 1609, 1646,
		    NVD_MODE_PHSYNC | NVD_MODE_NVSYNC);
}

static void test_cvt_matches_vesa_modelines(void **state)
{
	(void)state;
	struct nvd_mode m;
	/* cvt 1920 1080: 173.00 1920 2048 2248 2576  1080 1083 1088 1120 -h +v */
	assert_int_equal(nvd_mode_cvt(1920, 1080, 60, 0, &m), 0);
	assert_mode(&m, 173000, 1920, 2048, 2248, 2576, 1080, 1083, 1088, 1120,
		    NVD_MODE_NHSYNC | NVD_MODE_PVSYNC);
	/* DMT's 1280x800@60 and 1920x1200@60 RB are CVT's */
	assert_int_equal(nvd_mode_cvt(1280, 800, 60, 0, &m), 0);
	assert_mode(&m, 83500, 1280, 1352, 1480, 1680, 800, 803, 809, 831,
		    NVD_MODE_NHSYNC | NVD_MODE_PVSYNC);
	assert_int_equal(nvd_mode_cvt(1920, 1200, 60, 1, &m), 0);
	assert_mode(&m, 154000, 1920, 1968, 2000, 2080, 1200, 1203, 1209, 1235,
		    NVD_MODE_PHSYNC | NVD_MODE_NVSYNC);
}

static void test_edid_corrupt_checksum_is_refused(void **state)
{
	(void)state;
	struct nvd_edid_info in;
	uint8_t e[EDID_SIZE];
	char why[128];
	build("1024x768", e);
	e[0x40] ^= 0x10;
	assert_int_equal(nvd_edid_parse(e, &in, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "checksum"));
	assert_int_equal(in.nmodes, 0);
}

static void test_edid_corrupt_header_is_refused(void **state)
{
	(void)state;
	struct nvd_edid_info in;
	uint8_t e[EDID_SIZE];
	char why[128];
	build("1024x768", e);
	e[1] = 0xfe;
	e[EDID_CHECKSUM] = (uint8_t)(e[EDID_CHECKSUM] + 1);   /* the sum stays right */
	assert_int_equal(nvd_edid_parse(e, &in, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "header"));
	memset(e, 0xff, sizeof(e));   /* an empty bus reads all ones */
	assert_int_equal(nvd_edid_parse(e, &in, why, sizeof(why)), -EINVAL);
}

static void test_edid_duplicates_are_dropped(void **state)
{
	(void)state;
	struct nvd_edid_info in;
	uint8_t e[EDID_SIZE];
	build("1280x1024,1024x768", e);
	/* the same 1280x1024@60 again as a standard timing */
	unsigned slot = 0;
	while (e[EDID_STD + 2 * slot] != EDID_STD_UNUSED)
		slot++;
	e[EDID_STD + 2 * slot] = 1280 / 8 - 31;
	e[EDID_STD + 2 * slot + 1] = EDID_STD_ASPECT_5_4 << 6;
	uint8_t sum = 0;
	for (unsigned i = 0; i < EDID_CHECKSUM; i++)
		sum = (uint8_t)(sum + e[i]);
	e[EDID_CHECKSUM] = (uint8_t)-sum;
	parse_ok(e, &in);
	assert_int_equal(in.nmodes, 2);
	assert_true(in.modes[0].preferred);
	assert_int_equal(in.modes[0].hdisplay, 1280);
	assert_int_equal(in.modes[1].hdisplay, 1024);
}

static void test_monitor_spec_errors(void **state)
{
	(void)state;
	struct nvd_monitor m;
	uint8_t e[EDID_SIZE];
	char why[160];
	static const char *bad[] = { "", "1920", "1920x", "x1080", "1920x1080@", "1920x1080,",
				     "1920x1080:", "1920x1080:a name that is too long",
				     "1920x1080,1920x1080", "abc", "1921x1080@30", "1920x1080@999",
				     "1920x1080@60x" };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		if (nvd_monitor_parse(bad[i], &m, why, sizeof(why)) != -EINVAL)
			print_error("'%s' was accepted\n", bad[i]);
		assert_int_equal(nvd_monitor_parse(bad[i], &m, why, sizeof(why)), -EINVAL);
		assert_true(why[0] != 0);
	}
	assert_int_equal(nvd_monitor_parse("none", &m, why, sizeof(why)), 0);
	assert_int_equal(m.nmodes, 0);
	assert_int_equal(nvd_monitor_parse("1280x720@50:TV", &m, why, sizeof(why)), 0);
	assert_int_equal(m.nmodes, 1);
	assert_int_equal(m.modes[0].hz, 50);
	assert_string_equal(m.name, "TV");
	/* more non-DMT, non-standard modes than 3 DTDs hold */
	assert_int_equal(nvd_monitor_parse("1368x768,1368x770,1368x772,1368x774", &m, why,
					   sizeof(why)), 0);
	assert_int_equal(nvd_edid_build(&m, e, why, sizeof(why)), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edid_1024x768_dtd_bytes_are_vesas),
		cmocka_unit_test(test_edid_default_monitor_round_trip),
		cmocka_unit_test(test_edid_round_trips_several_monitors),
		cmocka_unit_test(test_edid_preferred_cvt_mode_uses_reduced_blanking),
		cmocka_unit_test(test_cvt_matches_vesa_modelines),
		cmocka_unit_test(test_edid_corrupt_checksum_is_refused),
		cmocka_unit_test(test_edid_corrupt_header_is_refused),
		cmocka_unit_test(test_edid_duplicates_are_dropped),
		cmocka_unit_test(test_monitor_spec_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
