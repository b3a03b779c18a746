/* The runner behind tests/be/cmocka.h: each test runs between its fixtures;
 * a failed assertion or a fault (SIGSEGV, SIGBUS, ...) jumps back here and
 * fails that test only, as cmocka does.  It refuses to run at all on a
 * little-endian host, so a big-endian run that is not one cannot pass. */
#include <cmocka.h>

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
#error "tests/be is the big-endian build: compile it with a big-endian cross compiler"
#endif

enum { BE_RUNNING = 0, BE_FAILED = 1, BE_SKIPPED = 2 };

static sigjmp_buf be_env;
static volatile sig_atomic_t be_in_test;

void print_message(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

void print_error(const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

void _fail(const char *file, int line)
{
	print_error("[   LINE   ] --- %s:%d: error: Failure!\n", file, line);
	if (!be_in_test)
		exit(1);        /* outside a test there is nothing to return to */
	siglongjmp(be_env, BE_FAILED);
}

void _skip(const char *file, int line)
{
	(void)file, (void)line;
	if (!be_in_test)
		exit(1);
	siglongjmp(be_env, BE_SKIPPED);
}

void _be_assert_true(int ok, const char *expr, const char *file, int line)
{
	if (ok)
		return;
	print_error("[  ERROR   ] --- %s\n", expr);
	_fail(file, line);
}

void _be_assert_int(LargestIntegralType a, LargestIntegralType b, int want_equal,
		    const char *file, int line)
{
	if ((a == b) == !!want_equal)
		return;
	print_error("[  ERROR   ] --- %#jx %s %#jx\n", a, want_equal ? "!=" : "==", b);
	_fail(file, line);
}

void _be_assert_string(const char *a, const char *b, int want_equal, const char *file, int line)
{
	int eq = a && b ? !strcmp(a, b) : a == b;

	if (eq == !!want_equal)
		return;
	print_error("[  ERROR   ] --- \"%s\" %s \"%s\"\n", a ? a : "(null)", want_equal ? "!=" : "==",
		    b ? b : "(null)");
	_fail(file, line);
}

void _be_assert_memory(const void *a, const void *b, size_t n, int want_equal,
		       const char *file, int line)
{
	const unsigned char *p = a, *q = b;
	size_t diffs = 0;

	if (!p || !q) {
		print_error("[  ERROR   ] --- memory compare of a NULL pointer\n");
		_fail(file, line);
	}
	for (size_t i = 0; i < n; i++) {
		if (p[i] == q[i])
			continue;
		if (want_equal && diffs < 16)
			print_error("difference at offset %zu 0x%02x 0x%02x\n", i, p[i], q[i]);
		diffs++;
	}
	if ((diffs == 0) == !!want_equal)
		return;
	if (want_equal)
		print_error("[  ERROR   ] --- %zu bytes of %p and %p differ\n", diffs, a, b);
	else
		print_error("[  ERROR   ] --- %zu bytes of %p and %p are equal\n", n, a, b);
	_fail(file, line);
}

static void be_on_fault(int sig)
{
	if (!be_in_test) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	print_error("[  ERROR   ] --- signal %d (%s)\n", sig, strsignal(sig));
	siglongjmp(be_env, BE_FAILED);
}

static const int be_fault_signals[] = { SIGFPE, SIGILL, SIGSEGV, SIGBUS, SIGSYS };

/* Runs fn with the jump point set; returns BE_RUNNING if it returned. */
static int be_call(void (*test)(void **), CMFixtureFunction fixture, void **state, int *rc)
{
	int why = sigsetjmp(be_env, 1);

	if (why) {
		be_in_test = 0;
		return why;
	}
	be_in_test = 1;
	if (test)
		test(state);
	else
		*rc = fixture(state);
	be_in_test = 0;
	return BE_RUNNING;
}

static int be_host_is_big_endian(void)
{
	const uint32_t word = 0x01020304u;
	unsigned char b[4];

	memcpy(b, &word, sizeof(b));
	return b[0] == 0x01 && b[3] == 0x04;
}

static int be_run_group(const char *group, const struct CMUnitTest *tests, size_t count,
			CMFixtureFunction group_setup, CMFixtureFunction group_teardown)
{
	size_t passed = 0, failed = 0, skipped = 0, i;
	unsigned char *result = calloc(count ? count : 1, 1);
	void *group_state = NULL;
	int rc = 0;

	(void)group;
	if (!result || !be_host_is_big_endian()) {
		print_error("[  ERROR   ] %s\n", result ? "this host is not big-endian" : "out of memory");
		print_error("[  FAILED  ] %zu test(s), listed below:\n", count);
		print_error("[  FAILED  ] GROUP SETUP\n");
		free(result);
		return (int)(count ? count : 1);
	}
	for (i = 0; i < sizeof(be_fault_signals) / sizeof(be_fault_signals[0]); i++)
		signal(be_fault_signals[i], be_on_fault);

	print_message("[==========] Running %zu test(s).\n", count);
	if (group_setup && (be_call(NULL, group_setup, &group_state, &rc) || rc)) {
		print_error("[  FAILED  ] GROUP SETUP\n");
		print_error("[  FAILED  ] %zu test(s), listed below:\n", count);
		free(result);
		return (int)(count ? count : 1);
	}
	for (i = 0; i < count; i++) {
		const struct CMUnitTest *t = &tests[i];
		void *state = t->initial_state ? t->initial_state : group_state;
		int why = BE_RUNNING;

		print_message("[ RUN      ] %s\n", t->name);
		rc = 0;
		if (t->setup_func && ((why = be_call(NULL, t->setup_func, &state, &rc)) || rc)) {
			if (why != BE_SKIPPED) {
				print_error("[  ERROR   ] Test setup failed\n");
				why = BE_FAILED;
			}
		} else {
			why = be_call(t->test_func, NULL, &state, &rc);
			/* the teardown runs whenever the setup succeeded */
			if (t->teardown_func && (be_call(NULL, t->teardown_func, &state, &rc) || rc)) {
				print_error("[  ERROR   ] Test teardown failed\n");
				if (why == BE_RUNNING)
					why = BE_FAILED;
			}
		}
		result[i] = (unsigned char)why;
		if (why == BE_RUNNING) {
			print_message("[       OK ] %s\n", t->name);
			passed++;
		} else if (why == BE_SKIPPED) {
			print_error("[  SKIPPED ] %s\n", t->name);
			skipped++;
		} else {
			print_error("[  FAILED  ] %s\n", t->name);
			failed++;
		}
	}
	if (group_teardown && (be_call(NULL, group_teardown, &group_state, &rc) || rc)) {
		print_error("[  FAILED  ] GROUP TEARDOWN\n");
		failed++;
	}

	print_message("[==========] %zu test(s) run.\n", count);
	print_error("[  PASSED  ] %zu test(s).\n", passed);
	if (skipped) {
		print_error("[  SKIPPED ] %zu test(s), listed below:\n", skipped);
		for (i = 0; i < count; i++)
			if (result[i] == BE_SKIPPED)
				print_error("[  SKIPPED ] %s\n", tests[i].name);
	}
	if (failed) {
		print_error("[  FAILED  ] %zu test(s), listed below:\n", failed);
		for (i = 0; i < count; i++)
			if (result[i] == BE_FAILED)
				print_error("[  FAILED  ] %s\n", tests[i].name);
		print_error("\n %zu FAILED TEST(S)\n", failed);
	}
	free(result);
	return (int)failed;
}

int _cmocka_run_group_tests(const char *group, const struct CMUnitTest *tests, size_t count,
			    CMFixtureFunction group_setup, CMFixtureFunction group_teardown)
{
	int failures;
	sigjmp_buf outer_env;
	int outer_in_test = be_in_test;

	/* a group may run inside a test (tests/be/test_be_shim.c): keep its jump point */
	memcpy(&outer_env, &be_env, sizeof(be_env));
	be_in_test = 0;
	failures = be_run_group(group, tests, count, group_setup, group_teardown);
	memcpy(&be_env, &outer_env, sizeof(be_env));
	be_in_test = outer_in_test;
	return failures;
}
