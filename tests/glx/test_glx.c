/* The DRM interposer (glx/libnvd-drm.so) from the outside: glx-probe runs
 * under nvd-run against a real nvd and checks, call by call, every libc
 * function the interposer wraps (sysfs, fds, buffers, fork, threads, GEM
 * names); the same libc calls on paths that are not ours give exactly what
 * they give without the interposer, and real DRM nodes (in a private /dev)
 * stay listed and reachable beside ours; nvd-run says so when nvd is not there;
 * and every file the probes opened is gone from nvd afterwards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "tests/lib/nvt-test.h"

static char nvd_run[PATH_MAX], probe[PATH_MAX], nprobe[PATH_MAX];

/* In the child: a private /dev holding real (driverless) DRM nodes
 * renderD128 and card0, as on a machine with a GPU. */
static int private_dev_with_drm_nodes(void)
{
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("none", "/dev", "tmpfs", 0, "mode=755") < 0)
		return -errno;
	if (mknod("/dev/null", S_IFCHR | 0666, makedev(1, 3)) < 0 || chmod("/dev/null", 0666) < 0 ||
	    mknod("/dev/zero", S_IFCHR | 0666, makedev(1, 5)) < 0 ||
	    mknod("/dev/urandom", S_IFCHR | 0666, makedev(1, 9)) < 0 || mkdir("/dev/dri", 0755) < 0 ||
	    mknod("/dev/dri/renderD128", S_IFCHR | 0666, makedev(226, 128)) < 0 ||
	    mknod("/dev/dri/card0", S_IFCHR | 0666, makedev(226, 0)) < 0)
		return -errno;
	return 0;
}

static int with_drm_nodes;

/* Run argv with extra environment (NULL-terminated "K=V" list or NULL),
 * stdout+stderr into out; the exit code (128+signal when killed). */
static int run(const char *const *argv, const char *const *env, char *out, size_t len)
{
	int p[2];
	if (pipe(p) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		for (unsigned i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		if (with_drm_nodes && private_dev_with_drm_nodes() < 0) {
			printf("cannot make a private /dev with DRM nodes (needs root): %s\n", strerror(errno));
			_exit(126);
		}
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;
	while (n + 1 < len && (r = read(p[0], out + n, len - 1 - n)) > 0)
		n += r;
	out[n] = 0;
	char sink[256];
	while (read(p[0], sink, sizeof(sink)) > 0)
		;
	close(p[0]);
	int st;
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void run_probe(void **state, const char *what)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	const char *argv[] = { nvd_run, "--socket", d->sock, probe, what, NULL };
	int r = run(argv, NULL, out, sizeof(out));
	if (r != 0 || !strstr(out, "\n0 failures"))
		fail_msg("glx-probe %s exited %d:\n%s", what, r, out);
	if (strstr(out, "not ok"))
		fail_msg("glx-probe %s:\n%s", what, out);
	nvt_end(d);
}

static void test_sysfs_and_nodes(void **state) { run_probe(state, "sysfs"); }
static void test_fds_dup_fcntl_close(void **state) { run_probe(state, "fds"); }
static void test_buffers_mmap_prime(void **state) { run_probe(state, "gem"); }
static void test_fork(void **state) { run_probe(state, "fork"); }
static void test_threads(void **state) { run_probe(state, "threads"); }
static void test_gem_names_need_auth(void **state) { run_probe(state, "names"); }
static void test_lost_channel_completes_fences(void **state) { run_probe(state, "lost"); }
/* VERSION's strings and GEM_PUSHBUF's arrays were written and read in
 * place (fuzz_ioctl: a wild name pointer crashed the program). */
static void test_bad_ioctl_pointers_are_efault_not_a_crash(void **state) { run_probe(state, "badptr"); }

/* A node closed right after GET_MAGIC (Mesa's DRI2 loader, refused by the
 * X server) is said to end in software rendering; one used after is not. */
static void test_failed_dri2_authentication_is_loud(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	const char *argv[] = { nvd_run, "--socket", d->sock, probe, "magic", NULL };
	int r = run(argv, NULL, out, sizeof(out));
	const char *says = "GL falls back to software rendering, not the NV4x";
	const char *first = strstr(out, says);
	if (r != 0 || !strstr(out, "\n0 failures") || !first || strstr(first + 1, says))
		fail_msg("glx-probe magic exited %d, the fallback said %s:\n%s", r,
			 first ? "more than once" : "never", out);
	nvt_end(d);
}

/* libdrm_nouveau as Mesa drives it: refusals come back as the kernel's errors. */
static void test_refusals_reach_libdrm_nouveau(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	const char *argv[] = { nvd_run, "--socket", d->sock, nprobe, "errors", NULL };
	int r = run(argv, NULL, out, sizeof(out));
	if (r != 0 || !strstr(out, "\n0 failures") || strstr(out, "not ok"))
		fail_msg("nouveau-probe errors exited %d:\n%s", r, out);
	nvt_end(d);
}

/* The watchdog's EIO reaches libdrm_nouveau the same way, then ENODEV. */
static const char *const short_timeout[] = { "--gpu-timeout", "300", NULL };
static void test_watchdog_eio_reaches_libdrm_nouveau(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	const char *argv[] = { nvd_run, "--socket", d->sock, nprobe, "watchdog", NULL };
	int r = run(argv, NULL, out, sizeof(out));
	if (r != 0 || !strstr(out, "\n0 failures") || strstr(out, "not ok"))
		fail_msg("nouveau-probe watchdog exited %d:\n%s", r, out);
	nvt_end(d);
}

/* nvd SIGKILLed under a libdrm_nouveau program waiting in CPU_PREP: it
 * ends within 1 s with -ENODEV, and so does every later ioctl. */
static const char *const long_timeout[] = { "--gpu-timeout", "60000", NULL };
static void test_nvd_killed_under_libdrm_nouveau(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", (int)d->pid);
	const char *argv[] = { nvd_run, "--socket", d->sock, nprobe, "death", pid, NULL };
	int r = run(argv, NULL, out, sizeof(out));
	if (r != 0 || !strstr(out, "\n0 failures") || strstr(out, "not ok") ||
	    !strstr(out, "went away: the connection closed"))
		fail_msg("nouveau-probe death exited %d:\n%s", r, out);
	for (int i = 0; nvt_daemon_alive(d); i++) {   /* SIGKILL is not instant */
		if (i == 500)
			fail_msg("nvd outlives the probe's SIGKILL by 5 s");
		nvt_sleep_ms(10);
	}
	d->stopped_ok = 1;    /* killed, as meant */
}

/* A buffer moved by eviction: libdrm learns where, as from the kernel. */
static const char *const vram32[] = { "--vram", "32", NULL };
static void test_evicted_buffer_place_reaches_libdrm_nouveau(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[1 << 16];
	const char *argv[] = { nvd_run, "--socket", d->sock, nprobe, "evict", NULL };
	int r = run(argv, NULL, out, sizeof(out));
	if (r != 0 || !strstr(out, "\n0 failures") || strstr(out, "not ok"))
		fail_msg("nouveau-probe evict exited %d:\n%s", r, out);
	nvt_end(d);
}

/* A machine with real DRM nodes: they stay listed and reachable. */
static void test_real_drm_nodes_untouched(void **state)
{
	with_drm_nodes = 1;
	run_probe(state, "realnodes");
	with_drm_nodes = 0;
}

/* Paths and fds that are not ours: the same results with and without it. */
static void test_other_paths_untouched(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	char dir[] = "/tmp/nvd-glx-XXXXXX";
	assert_non_null(mkdtemp(dir));
	static char plain[8192], shim[8192];
	const char *a1[] = { probe, "real", dir, NULL };
	const char *a2[] = { nvd_run, "--socket", d->sock, probe, "real", dir, NULL };
	assert_int_equal(run(a1, NULL, plain, sizeof(plain)), 0);
	assert_int_equal(run(a2, NULL, shim, sizeof(shim)), 0);
	rmdir(dir);
	if (strcmp(plain, shim))
		fail_msg("with the interposer:\n%s\nwithout:\n%s", shim, plain);
	assert_non_null(strstr(plain, "mmap: hello, world"));
	nvt_end(d);
}

static void test_nvd_run_without_nvd(void **state)
{
	(void)state;
	static char out[4096];
	const char *argv[] = { nvd_run, "--socket", "/nonexistent/nvd.sock", "/bin/true", NULL };
	assert_int_equal(run(argv, NULL, out, sizeof(out)), 2);
	if (!strstr(out, "nvd-run:") || !strstr(out, "is nvd running"))
		fail_msg("nvd-run said: %s", out);
	const char *help[] = { nvd_run, "--help", NULL };
	assert_int_equal(run(help, NULL, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "usage: nvd-run"));
	const char *none[] = { nvd_run, NULL };
	assert_int_equal(run(none, NULL, out, sizeof(out)), 2);
}

/* The user's first check: Mesa on nvd names the chip, for GL and GLES2. */
static void test_nvd_glinfo_names_the_chip(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[4096];
	char glinfo[PATH_MAX + 16];
	snprintf(glinfo, sizeof(glinfo), "%s/nvd-glinfo", getenv("NVD_TOOLS"));
	const char *argv[] = { nvd_run, "--socket", d->sock, glinfo, NULL };
	assert_int_equal(run(argv, NULL, out, sizeof(out)), 0);
	if (!strstr(out, "GL renderer: NV43\n") || !strstr(out, "GLES2 renderer: NV43\n"))
		fail_msg("nvd-glinfo said:\n%s", out);
	nvt_end(d);
}

static void test_nvd_run_missing_program(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	static char out[4096];
	const char *argv[] = { nvd_run, "--socket", d->sock, "/nonexistent/prog", NULL };
	assert_int_equal(run(argv, NULL, out, sizeof(out)), 127);
	assert_non_null(strstr(out, "/nonexistent/prog"));
	nvt_end(d);
}

int main(void)
{
	const char *tools = getenv("NVD_TOOLS");
	if (!tools) {
		fprintf(stderr, "test_glx: NVD_TOOLS (the build's bin directory) is not set\n");
		return 1;
	}
	snprintf(nvd_run, sizeof(nvd_run), "%s/nvd-run", tools);
	snprintf(probe, sizeof(probe), "%s/../tests/glx/glx-probe", tools);
	snprintf(nprobe, sizeof(nprobe), "%s/../tests/glx/nouveau-probe", tools);
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_sysfs_and_nodes),
		NVT_TEST(test_fds_dup_fcntl_close),
		NVT_TEST(test_buffers_mmap_prime),
		NVT_TEST(test_fork),
		NVT_TEST(test_threads),
		NVT_TEST(test_gem_names_need_auth),
		NVT_TEST(test_lost_channel_completes_fences),
		NVT_TEST(test_failed_dri2_authentication_is_loud),
		NVT_TEST(test_refusals_reach_libdrm_nouveau),
		NVT_TEST_ARGS(test_watchdog_eio_reaches_libdrm_nouveau, short_timeout),
		NVT_TEST_ARGS(test_evicted_buffer_place_reaches_libdrm_nouveau, vram32),
		NVT_TEST_ARGS(test_nvd_killed_under_libdrm_nouveau, long_timeout),
		NVT_TEST(test_bad_ioctl_pointers_are_efault_not_a_crash),
		NVT_TEST(test_other_paths_untouched),
		NVT_TEST(test_real_drm_nodes_untouched),
		cmocka_unit_test(test_nvd_run_without_nvd),
		NVT_TEST(test_nvd_run_missing_program),
		NVT_TEST(test_nvd_glinfo_names_the_chip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
