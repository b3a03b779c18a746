/* nvd-decode prints programs: a vertex program uploaded in a push buffer,
 * and fragment and vertex program files, exactly; program files that are
 * cut short or never END are errors (exit 1) after what they hold is
 * printed, and a program option with anything it cannot go with is bad
 * usage (exit 2).  The files are written little-endian whatever the host,
 * as the card reads them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <limits.h>

#include "hw/ramin.h"
#include "tests/lib/nvt-test.h"

#define DEC_RUN_MS 20000

static char dir[PATH_MAX], decode[PATH_MAX];
static char out[16384], err[16384];

/* MULR R0.xyz, f[COL0], c.yyyy with its constant; ADDR_SAT ...; END */
static const uint32_t fp_words[] = {
	0x02002e00, 0x1c9dc801, 0x0000aa02, 0x0001c801,
	0x3f800000, 0x3f000000, 0x40000000, 0x00000000,
	0x83001e01, 0x1c9dc800, 0x00063604, 0x0001c800,
};
static const char fp_text[] =
	"00000000: MULR R0.xyz, f[COL0], c.yyyy c = {1, 0.5, 2, 0}\n"
	"00000020: ADDR_SAT R0, R0, -|R1.wzyx|; END\n";

/* DP4 o[POS].x, v[0], c[0]; MAD to a temp and an output; END */
static const uint32_t vp_words[] = {
	0x401f8000, 0x01c0000d, 0x8106c0c3, 0x60411f80,
	0x40800000, 0x0100628d, 0x8686c0c0, 0xa0a1ff85,
};
#define VP_TEXT0 "DP4 o[POS].x, v[0], c[0];"
#define VP_TEXT1 "MAD R0 & o[COL0], -R3, c[6], |R1.xxyy|; END"

static int setup(void **state)
{
	const char *tools = getenv("NVD_TOOLS");
	const char *tmp = getenv("TMPDIR");

	(void)state;
	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
	if (!tools || !*tools) {
		fprintf(stderr, "test_decode: NVD_TOOLS is not set (tests/run sets it to build/bin)\n");
		return -1;
	}
	snprintf(decode, sizeof(decode), "%s/nvd-decode", tools);
	snprintf(dir, sizeof(dir), "%s/nvd-decode-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "test_decode: mkdtemp %s: %s\n", dir, strerror(errno));
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	alarm(0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* words[0, nwords) little-endian, then extra bytes of tail, as dir/name. */
static const char *write_file(const char *name, const uint32_t *words, size_t nwords,
			      const char *tail)
{
	static char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	for (size_t i = 0; i < nwords; i++) {
		uint8_t b[4];
		nv_wr32le(b, words[i]);
		assert_int_equal(fwrite(b, 1, 4, f), 4);
	}
	assert_int_equal(fputs(tail, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	return path;
}

static int run(const char *a1, const char *a2, const char *a3)
{
	const char *argv[] = { decode, a1, a2, a3, NULL };
	return nvt_run(argv, out, sizeof(out), err, sizeof(err), DEC_RUN_MS);
}

static void expect(int code, int want_code, const char *want_out, const char *err_says)
{
	if (code != want_code || strcmp(out, want_out) || !strstr(err, err_says) ||
	    (!*err_says && *err))
		fail_msg("exit %d (expected %d)\nstdout:\n%s\nexpected:\n%s\nstderr:\n%s\n"
			 "expected to say: '%s'", code, want_code, out, want_out, err, err_says);
}

static void test_fragment_program_file_is_printed(void **state)
{
	(void)state;
	const char *f = write_file("prog.fp", fp_words, 12, "");
	expect(run("--fragment-program", f, NULL), 0, fp_text, "");
}

static void test_vertex_program_file_is_printed(void **state)
{
	(void)state;
	const char *f = write_file("prog.vp", vp_words, 8, "");
	expect(run("--vertex-program", f, NULL), 0,
	       "vp[0]: " VP_TEXT0 "\nvp[1]: " VP_TEXT1 "\n", "");
}

/* The 3D object bound, the upload slot set to 5, two instructions: each is
 * printed under its last word at the slot the card stores it in. */
static void test_vertex_program_in_a_stream_is_printed(void **state)
{
	static const uint32_t stream[] = {
		0x0004e000, 0xbeef3097,
		0x0004fe9c, 0x00000005,
		0x0010eb80, 0x401f8000, 0x01c0000d, 0x8106c0c3, 0x60411f80,
		0x0010eb80, 0x40800000, 0x0100628d, 0x8686c0c0, 0xa0a1ff85,
	};
	(void)state;
	const char *f = write_file("stream.bin", stream, sizeof(stream) / 4, "");
	expect(run(f, NULL, NULL), 0,
	       "00000000: 0004e000  INC subc 7 FIFO.OBJECT x1\n"
	       "00000004: beef3097    FIFO.OBJECT = 0xbeef3097  (bind NV40_3D, Mesa 3D)\n"
	       "00000008: 0004fe9c  INC subc 7 NV40_3D.VP_UPLOAD_FROM_ID x1\n"
	       "0000000c: 00000005    NV40_3D.VP_UPLOAD_FROM_ID = 0x00000005\n"
	       "00000010: 0010eb80  INC subc 7 NV40_3D.VP_UPLOAD_INST[0] x4\n"
	       "00000014: 401f8000    NV40_3D.VP_UPLOAD_INST[0] = 0x401f8000\n"
	       "00000018: 01c0000d    NV40_3D.VP_UPLOAD_INST[1] = 0x01c0000d\n"
	       "0000001c: 8106c0c3    NV40_3D.VP_UPLOAD_INST[2] = 0x8106c0c3\n"
	       "00000020: 60411f80    NV40_3D.VP_UPLOAD_INST[3] = 0x60411f80\n"
	       "                      vp[5]: " VP_TEXT0 "\n"
	       "00000024: 0010eb80  INC subc 7 NV40_3D.VP_UPLOAD_INST[0] x4\n"
	       "00000028: 40800000    NV40_3D.VP_UPLOAD_INST[0] = 0x40800000\n"
	       "0000002c: 0100628d    NV40_3D.VP_UPLOAD_INST[1] = 0x0100628d\n"
	       "00000030: 8686c0c0    NV40_3D.VP_UPLOAD_INST[2] = 0x8686c0c0\n"
	       "00000034: a0a1ff85    NV40_3D.VP_UPLOAD_INST[3] = 0xa0a1ff85\n"
	       "                      vp[6]: " VP_TEXT1 "\n", "");
}

/* What a bad program file holds is printed, then the error, exit 1. */
static void test_bad_program_files_are_errors(void **state)
{
	static const char first_fp[] =
		"00000000: MULR R0.xyz, f[COL0], c.yyyy c = {1, 0.5, 2, 0}\n";
	(void)state;

	expect(run("--fragment-program", write_file("noend.fp", fp_words, 8, ""), NULL), 1,
	       first_fp, "no instruction has END");
	expect(run("--fragment-program", write_file("cut.fp", fp_words, 6, ""), NULL), 1,
	       "00000000: MULR R0.xyz, f[COL0], c.yyyy c = {truncated}\n",
	       "ends inside the inline constant of the instruction at 00000000");
	expect(run("--fragment-program", write_file("odd.fp", fp_words, 12, "ab"), NULL), 1,
	       fp_text, "2 trailing bytes at 00000030: not a whole instruction");
	expect(run("--vertex-program", write_file("odd.vp", vp_words, 7, ""), NULL), 1,
	       "vp[0]: " VP_TEXT0 "\n", "12 trailing bytes: not a whole instruction");
	expect(run("--fragment-program", write_file("empty.fp", NULL, 0, ""), NULL), 1, "",
	       "no instruction has END");

	char missing[PATH_MAX + 16];
	snprintf(missing, sizeof(missing), "%s/missing.vp", dir);
	expect(run("--vertex-program", missing, NULL), 1, "", "No such file or directory");
}

static void test_program_options_misused_are_bad_usage(void **state)
{
	(void)state;
	const char *f = write_file("prog.fp", fp_words, 12, "");
	char vp[PATH_MAX + 64];
	snprintf(vp, sizeof(vp), "%s", write_file("prog.vp", vp_words, 8, ""));

	expect(run("--fragment-program", f, "--vertex-program=x"), 2, "", "one program at a time");
	expect(run("--vertex-program", vp, f), 2, "", "not with a push buffer");
	expect(run("--fragment-program", NULL, NULL), 2, "", "needs an argument");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fragment_program_file_is_printed),
		cmocka_unit_test(test_vertex_program_file_is_printed),
		cmocka_unit_test(test_vertex_program_in_a_stream_is_printed),
		cmocka_unit_test(test_bad_program_files_are_errors),
		cmocka_unit_test(test_program_options_misused_are_bad_usage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
