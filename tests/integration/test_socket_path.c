/* What nvd --socket PATH does with what is already at PATH: a stale socket
 * (a dead nvd's) is replaced; a live nvd's socket, a regular file, a
 * symbolic link (even to a socket) and a directory are refused (exit 1) and
 * left exactly as they were.  At shutdown nvd removes its own socket only,
 * not a file put at its path while it ran. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>

#include "tests/lib/nvt-test.h"

#define NVD_RUN_MS 30000
#define CONTENT    "someone's precious file\n"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
	snprintf(dir, sizeof(dir), "/tmp/nvt-sock-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	alarm(0);
	return 0;
}

static void at(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
}

static void write_file(const char *path, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, CONTENT, strlen(CONTENT)), (ssize_t)strlen(CONTENT));
	close(fd);
	assert_int_equal(chmod(path, mode), 0);   /* whatever the umask */
}

/* A socket file nobody listens on, as a killed nvd leaves it. */
static void stale_socket(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
}

static void assert_same_file(const char *path, const struct stat *was)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		fail_msg("%s is gone: %s", path, strerror(errno));
	if (st.st_ino != was->st_ino || st.st_mode != was->st_mode || st.st_size != was->st_size ||
	    st.st_nlink != was->st_nlink || st.st_mtim.tv_sec != was->st_mtim.tv_sec ||
	    st.st_mtim.tv_nsec != was->st_mtim.tv_nsec)
		fail_msg("%s changed: mode %o -> %o, size %lld -> %lld", path, was->st_mode,
			 st.st_mode, (long long)was->st_size, (long long)st.st_size);
}

static void assert_content(const char *path)
{
	char buf[128] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = 0;
	assert_string_equal(buf, CONTENT);
}

/* Whether a line of text starts with prefix. */
static int has_line(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, prefix, n))
			return 1;
	return 0;
}

/* nvd --socket path must refuse, exit 1, saying what is there. */
static void assert_refused(const char *path, const char *what)
{
	static char out[16384], err[16384];
	char want[256];
	const char *argv[] = { getenv("NVD_BIN"), "--socket", path, NULL };

	assert_non_null(argv[0]);
	int code = nvt_run(argv, out, sizeof(out), err, sizeof(err), NVD_RUN_MS);
	if (code != 1)
		fail_msg("nvd --socket %s (%s) exited %d, expected 1:\n%s", path, what, code, err);
	snprintf(want, sizeof(want), "nvd: %s: exists and is %s, not a socket; not replacing it\n",
		 path, what);
	if (!has_line(err, want))
		fail_msg("nvd --socket %s did not say '%s':\n%s", path, want, err);
}

static void test_regular_file_is_refused_and_kept(void **state)
{
	(void)state;
	char path[128];
	struct stat was;
	at(path, sizeof(path), "file");
	write_file(path, 0640);
	assert_int_equal(lstat(path, &was), 0);
	assert_refused(path, "a regular file");
	assert_same_file(path, &was);
	assert_content(path);
}

/* A symbolic link at path to target: refused, and neither is touched. */
static void assert_symlink_refused(const char *path, const char *target)
{
	char link[256];
	struct stat was, twas;
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(lstat(path, &was), 0);
	assert_int_equal(lstat(target, &twas), 0);
	assert_refused(path, "a symbolic link");
	assert_same_file(path, &was);
	assert_same_file(target, &twas);
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = 0;
	assert_string_equal(link, target);
}

static void test_symlink_to_file_is_refused_and_kept(void **state)
{
	(void)state;
	char path[128], target[128];
	at(target, sizeof(target), "target");
	at(path, sizeof(path), "link");
	write_file(target, 0600);
	assert_symlink_refused(path, target);
	assert_content(target);
}

static void test_symlink_to_stale_socket_is_refused_and_kept(void **state)
{
	(void)state;
	char path[128], target[128];
	struct stat st;
	at(target, sizeof(target), "stale.sock");
	at(path, sizeof(path), "link.sock");
	stale_socket(target);
	assert_symlink_refused(path, target);
	assert_int_equal(lstat(target, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
}

static void test_directory_is_refused_and_kept(void **state)
{
	(void)state;
	char path[128], inside[160];
	struct stat was, iwas;
	at(path, sizeof(path), "dir");
	assert_int_equal(mkdir(path, 0750), 0);
	snprintf(inside, sizeof(inside), "%s/inside", path);
	write_file(inside, 0644);
	assert_int_equal(lstat(path, &was), 0);
	assert_int_equal(lstat(inside, &iwas), 0);
	assert_refused(path, "a directory");
	assert_same_file(path, &was);
	assert_same_file(inside, &iwas);
	assert_content(inside);
}

static void test_fifo_is_refused_and_kept(void **state)
{
	(void)state;
	char path[128];
	struct stat was;
	at(path, sizeof(path), "fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(lstat(path, &was), 0);
	assert_refused(path, "a FIFO");
	assert_same_file(path, &was);
}

/* A dead nvd's socket: replaced, and the new nvd serves clients. */
static void test_stale_socket_is_replaced(void **state)
{
	(void)state;
	struct nvt_daemon d;
	struct stat was, st;
	NVT_OK(nvt_daemon_dir(&d));
	stale_socket(d.sock);
	assert_int_equal(lstat(d.sock, &was), 0);
	if (nvt_daemon_run(&d, NULL) < 0) {
		nvt_daemon_cleanup(&d);
		fail_msg("nvd did not take the place of a stale socket");
	}
	assert_int_equal(lstat(d.sock, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	struct nvt_workload w = { .sock = d.sock, .name = "after-stale", .seed = 5, .rounds = 3,
				  .ops = 8 };
	NVT_OK(nvt_workload_run(&w, NULL, NULL));
	free(w.result);
	nvt_end(&d);
	/* its own socket goes with it */
	assert_int_equal(lstat(d.sock, &st), -1);
	assert_int_equal(errno, ENOENT);
	nvt_daemon_cleanup(&d);
}

/* A live nvd's socket: the second nvd refuses, the first keeps serving. */
static void test_live_socket_is_refused(void **state)
{
	(void)state;
	static char out[16384], err[16384];
	struct nvt_daemon d;
	struct stat was;
	NVT_OK(nvt_daemon_start(&d, NULL));
	assert_int_equal(lstat(d.sock, &was), 0);
	const char *argv[] = { getenv("NVD_BIN"), "--socket", d.sock, NULL };
	int code = nvt_run(argv, out, sizeof(out), err, sizeof(err), NVD_RUN_MS);
	if (code != 1)
		fail_msg("a second nvd on a live socket exited %d, expected 1:\n%s", code, err);
	if (!has_line(err, "nvd: another nvd is already listening on "))
		fail_msg("the second nvd did not say another listens:\n%s", err);
	if (!nvt_daemon_alive(&d))
		fail_msg("the first nvd died");
	assert_same_file(d.sock, &was);
	nvt_end(&d);
	nvt_daemon_cleanup(&d);
}

/* Someone puts a file where nvd's socket was while nvd runs: it survives
 * nvd's shutdown. */
static void test_file_put_in_place_of_the_socket_survives_shutdown(void **state)
{
	(void)state;
	struct nvt_daemon d;
	struct stat was;
	NVT_OK(nvt_daemon_start(&d, NULL));
	assert_int_equal(unlink(d.sock), 0);
	write_file(d.sock, 0644);
	assert_int_equal(lstat(d.sock, &was), 0);
	NVT_OK(nvt_daemon_stop(&d));
	assert_same_file(d.sock, &was);
	assert_content(d.sock);
	nvt_daemon_cleanup(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_regular_file_is_refused_and_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_to_file_is_refused_and_kept, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_symlink_to_stale_socket_is_refused_and_kept,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_directory_is_refused_and_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_is_refused_and_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_socket_is_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_socket_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_put_in_place_of_the_socket_survives_shutdown,
						setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
