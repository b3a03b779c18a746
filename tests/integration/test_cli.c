/* Every program the build makes for users (build/bin and build/bench, found
 * by listing the directories, so a new one is tested without a word here)
 * keeps the same command-line contract, run by its full path: --help prints
 * the usage on stdout and exits 0, --version prints "NAME VERSION" and exits
 * 0, an unknown option exits 2 with a first line of stderr that starts
 * "NAME:" (the basename, never the path).  nvd refuses values its card or
 * CRTC could never take at option time, as bad usage (exit 2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <dirent.h>
#include <sys/stat.h>

#include "tests/lib/nvt-test.h"

#define CLI_RUN_MS   20000
#define CLI_MAX_PROGS 64

struct prog {
	char path[PATH_MAX];
	char name[NAME_MAX + 1];   /* its basename */
};

static struct prog progs[CLI_MAX_PROGS];
static unsigned nprogs;
static char out[65536], err[65536];

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct prog *)a)->path, ((const struct prog *)b)->path);
}

/* Every executable regular file of dir. */
static int list_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;

	if (!d) {
		fprintf(stderr, "test_cli: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || nprogs == CLI_MAX_PROGS)
			continue;
		struct prog *p = &progs[nprogs];
		int n = snprintf(p->path, sizeof(p->path), "%s/%s", dir, e->d_name);
		if (n < 0 || (size_t)n >= sizeof(p->path) || stat(p->path, &st) < 0 ||
		    !S_ISREG(st.st_mode) || access(p->path, X_OK) < 0)
			continue;
		snprintf(p->name, sizeof(p->name), "%s", e->d_name);
		nprogs++;
	}
	closedir(d);
	return 0;
}

/* build/bin from $NVD_TOOLS (tests/run sets it), build/bench beside it. */
static int setup(void **state)
{
	char bench[PATH_MAX];
	const char *tools = getenv("NVD_TOOLS");

	(void)state;
	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
	if (!tools || !*tools) {
		fprintf(stderr, "test_cli: NVD_TOOLS is not set (tests/run sets it to build/bin)\n");
		return -1;
	}
	snprintf(bench, sizeof(bench), "%s/../bench", tools);
	if (list_dir(tools) < 0 || list_dir(bench) < 0)
		return -1;
	qsort(progs, nprogs, sizeof(progs[0]), by_name);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	alarm(0);
	return 0;
}

/* Run path with up to two arguments; the exit code, out and err filled. */
static int run(const char *path, const char *a1, const char *a2)
{
	const char *argv[] = { path, a1, a2, NULL };
	return nvt_run(argv, out, sizeof(out), err, sizeof(err), CLI_RUN_MS);
}

/* Whether text starts with "name" followed by sep. */
static int starts_with_name(const char *text, const char *name, char sep)
{
	size_t n = strlen(name);
	return !strncmp(text, name, n) && text[n] == sep;
}

static void test_the_programs_are_found(void **state)
{
	(void)state;
	int nvd = 0, bench = 0;
	for (unsigned i = 0; i < nprogs; i++) {
		nvd |= !strcmp(progs[i].name, "nvd");
		bench |= strstr(progs[i].path, "/../bench/") != NULL;
	}
	if (!nvd || !bench || nprogs < 8)
		fail_msg("found %u programs (nvd %s, benches %s): is the tree built?", nprogs,
			 nvd ? "yes" : "no", bench ? "yes" : "no");
}

static void test_help_prints_usage_on_stdout(void **state)
{
	(void)state;
	for (unsigned i = 0; i < nprogs; i++) {
		int code = run(progs[i].path, "--help", NULL);
		if (code != 0 || !strstr(out, "usage: "))
			fail_msg("%s --help: exit %d, stdout:\n%s\nstderr:\n%s", progs[i].path, code,
				 out, err);
	}
}

static void test_version_names_the_program(void **state)
{
	(void)state;
	for (unsigned i = 0; i < nprogs; i++) {
		int code = run(progs[i].path, "--version", NULL);
		if (code != 0 || !starts_with_name(out, progs[i].name, ' '))
			fail_msg("%s --version: exit %d, stdout:\n%s\nstderr:\n%s", progs[i].path,
				 code, out, err);
	}
}

static void test_unknown_option_is_bad_usage(void **state)
{
	(void)state;
	for (unsigned i = 0; i < nprogs; i++) {
		int code = run(progs[i].path, "--no-such-option", NULL);
		if (code != 2 || !starts_with_name(err, progs[i].name, ':'))
			fail_msg("%s --no-such-option: exit %d (expected 2), stderr (expected to "
				 "start '%s:'):\n%s", progs[i].path, code, progs[i].name, err);
	}
}

/* Values nvd's card or CRTC cannot take are bad usage, said at once. */
static void test_nvd_refuses_impossible_values(void **state)
{
	static const struct { const char *opt, *val, *says; } bad[] = {
		{ "--vram", "100", "power of two" },
		{ "--vram", "abc", "abc" },
		{ "--card", "sim:NV99", "NV99" },
		{ "--monitor", "0=320x240", "320x240@60: pixel clock" },
		{ "--gpu-timeout", "2s", "--gpu-timeout" },
		{ "--gpu-timeout", "-1", "--gpu-timeout" },
		{ "--gpu-timeout", "3600001", "--gpu-timeout" },
	};
	const char *nvd = NULL;

	(void)state;
	for (unsigned i = 0; i < nprogs; i++)
		if (!strcmp(progs[i].name, "nvd"))
			nvd = progs[i].path;
	assert_non_null(nvd);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int code = run(nvd, bad[i].opt, bad[i].val);
		char *nl = strchr(err, '\n');
		if (nl)
			*nl = 0;
		if (code != 2 || !starts_with_name(err, "nvd", ':') || !strstr(err, bad[i].says))
			fail_msg("nvd %s %s: exit %d (expected 2), first line of stderr (expected "
				 "'nvd: ...%s...'): %s", bad[i].opt, bad[i].val, code, bad[i].says,
				 err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_programs_are_found),
		cmocka_unit_test(test_help_prints_usage_on_stdout),
		cmocka_unit_test(test_version_names_the_program),
		cmocka_unit_test(test_unknown_option_is_bad_usage),
		cmocka_unit_test(test_nvd_refuses_impossible_values),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
