/* A small stand-in for <cmocka.h> for the big-endian cross build: Debian has
 * no cmocka for s390x, so the unit tests are built against this instead.  It
 * holds only what tests/unit uses, with cmocka's semantics (integers compared
 * as uintmax_t, a failed assertion ends the test, the fixtures run around
 * it) and cmocka's summary lines, which tests/run counts. */
#ifndef NVD_BE_CMOCKA_H
#define NVD_BE_CMOCKA_H

#include <stddef.h>
#include <stdint.h>

typedef uintmax_t LargestIntegralType;
typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);

struct CMUnitTest {
	const char *name;
	CMUnitTestFunction test_func;
	CMFixtureFunction setup_func;
	CMFixtureFunction teardown_func;
	void *initial_state;
};

#define cmocka_unit_test(f)                     { #f, f, NULL, NULL, NULL }
#define cmocka_unit_test_setup(f, s)            { #f, f, s, NULL, NULL }
#define cmocka_unit_test_teardown(f, t)         { #f, f, NULL, t, NULL }
#define cmocka_unit_test_setup_teardown(f, s, t) { #f, f, s, t, NULL }
#define cmocka_unit_test_prestate(f, p)         { #f, f, NULL, NULL, p }
#define cmocka_unit_test_prestate_setup_teardown(f, s, t, p) { #f, f, s, t, p }

#define cmocka_run_group_tests(g, s, t) \
	_cmocka_run_group_tests(#g, g, sizeof(g) / sizeof((g)[0]), s, t)
#define cmocka_run_group_tests_name(n, g, s, t) \
	_cmocka_run_group_tests(n, g, sizeof(g) / sizeof((g)[0]), s, t)

#define be_int_(x) ((LargestIntegralType)(x))
#define be_ptr_(x) ((LargestIntegralType)(uintptr_t)(x))

#define assert_true(c)  _be_assert_true(!!(c), #c, __FILE__, __LINE__)
#define assert_false(c) _be_assert_true(!(c), "!(" #c ")", __FILE__, __LINE__)
#define assert_non_null(p) _be_assert_true(be_ptr_(p) != 0, #p " != NULL", __FILE__, __LINE__)
#define assert_null(p)  _be_assert_true(be_ptr_(p) == 0, #p " == NULL", __FILE__, __LINE__)
#define assert_int_equal(a, b)     _be_assert_int(be_int_(a), be_int_(b), 1, __FILE__, __LINE__)
#define assert_int_not_equal(a, b) _be_assert_int(be_int_(a), be_int_(b), 0, __FILE__, __LINE__)
#define assert_ptr_equal(a, b)     _be_assert_int(be_ptr_(a), be_ptr_(b), 1, __FILE__, __LINE__)
#define assert_ptr_not_equal(a, b) _be_assert_int(be_ptr_(a), be_ptr_(b), 0, __FILE__, __LINE__)
#define assert_string_equal(a, b)     _be_assert_string(a, b, 1, __FILE__, __LINE__)
#define assert_string_not_equal(a, b) _be_assert_string(a, b, 0, __FILE__, __LINE__)
#define assert_memory_equal(a, b, n)  _be_assert_memory(a, b, n, 1, __FILE__, __LINE__)
#define assert_memory_not_equal(a, b, n) _be_assert_memory(a, b, n, 0, __FILE__, __LINE__)

#define fail() _fail(__FILE__, __LINE__)
#define fail_msg(msg, ...) do { \
	print_error("ERROR: " msg "\n", ##__VA_ARGS__); \
	fail(); \
} while (0)
#define skip() _skip(__FILE__, __LINE__)

void print_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void print_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void _be_assert_true(int ok, const char *expr, const char *file, int line);
void _be_assert_int(LargestIntegralType a, LargestIntegralType b, int want_equal,
		    const char *file, int line);
void _be_assert_string(const char *a, const char *b, int want_equal, const char *file, int line);
void _be_assert_memory(const void *a, const void *b, size_t n, int want_equal,
		       const char *file, int line);
void _fail(const char *file, int line) __attribute__((noreturn));
void _skip(const char *file, int line) __attribute__((noreturn));

int _cmocka_run_group_tests(const char *group, const struct CMUnitTest *tests, size_t count,
			    CMFixtureFunction group_setup, CMFixtureFunction group_teardown);

#endif
