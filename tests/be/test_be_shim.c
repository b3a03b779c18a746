/* Proves the cmocka stand-in is honest: a group of tests that fail in every
 * way the unit tests can (assertions, fail_msg, a fault, fixtures) is counted
 * as failed, with the summary lines tests/run reads.  The inner group's output
 * goes to a temporary file so tests/run does not count its failures. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static int teardowns;

static void passes(void **state)
{
	(void)state;
	assert_int_equal(-1, (int64_t)-1);
	assert_memory_equal("abc", "abc", 4);
	assert_string_equal("x", "x");
}
static void int_differs(void **state) { (void)state; assert_int_equal(1, 2); }
static void sign_extension_differs(void **state) { (void)state; assert_int_equal(-1, 0xffffffffu); }
static void memory_differs(void **state) { (void)state; assert_memory_equal("abcd", "abce", 4); }
static void string_differs(void **state) { (void)state; assert_string_equal("a", "b"); }
static void null_is_null(void **state) { (void)state; assert_non_null(NULL); }
static void false_is_false(void **state) { (void)state; assert_true(0); }
static void fails_with_message(void **state) { (void)state; fail_msg("deliberate %d", 42); }
static void faults(void **state) { (void)state; raise(SIGSEGV); }
static void skips(void **state) { (void)state; skip(); }
static void never_runs(void **state) { (void)state; }
static int setup_fails(void **state) { (void)state; return -1; }
static int teardown_counts(void **state) { (void)state; teardowns++; return 0; }
static int teardown_fails(void **state) { (void)state; teardowns++; return -1; }

static int run_inner(char *out, size_t size)
{
	const struct CMUnitTest inner[] = {
		cmocka_unit_test(passes),
		cmocka_unit_test(int_differs),
		cmocka_unit_test(sign_extension_differs),
		cmocka_unit_test(memory_differs),
		cmocka_unit_test(string_differs),
		cmocka_unit_test(null_is_null),
		cmocka_unit_test(false_is_false),
		cmocka_unit_test(fails_with_message),
		cmocka_unit_test_setup_teardown(faults, NULL, teardown_counts),
		cmocka_unit_test(skips),
		cmocka_unit_test_setup_teardown(never_runs, setup_fails, teardown_counts),
		cmocka_unit_test_setup_teardown(never_runs, NULL, teardown_fails),
	};
	FILE *tmp = tmpfile();
	int saved_out = dup(1), saved_err = dup(2), rc;
	size_t n;

	assert_non_null(tmp);
	assert_true(saved_out >= 0 && saved_err >= 0);
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(tmp), 1);
	dup2(fileno(tmp), 2);
	rc = cmocka_run_group_tests(inner, NULL, NULL);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	rewind(tmp);
	n = fread(out, 1, size - 1, tmp);
	out[n] = 0;
	fclose(tmp);
	return rc;
}

static void every_failure_is_counted(void **state)
{
	static char out[16384];
	int rc;

	(void)state;
	teardowns = 0;
	rc = run_inner(out, sizeof(out));
	assert_int_equal(rc, 10);
	assert_non_null(strstr(out, "[  PASSED  ] 1 test(s).\n"));
	assert_non_null(strstr(out, "[  FAILED  ] 10 test(s), listed below:\n"));
	assert_non_null(strstr(out, "[  SKIPPED ] 1 test(s), listed below:\n"));
	assert_non_null(strstr(out, "[  FAILED  ] faults\n"));
	assert_non_null(strstr(out, "ERROR: deliberate 42"));
	assert_null(strstr(out, "[       OK ] int_differs"));
	/* the teardowns ran after the fault and the failing one; not after the failed setup */
	assert_int_equal(teardowns, 2);
}

static void assertions_still_work_after_an_inner_group(void **state)
{
	static char out[16384];

	(void)state;
	run_inner(out, sizeof(out));
	assert_int_equal(1 + 1, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_failure_is_counted),
		cmocka_unit_test(assertions_still_work_after_an_inner_group),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
