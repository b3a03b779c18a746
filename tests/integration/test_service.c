/* nvd as a system service: started by systemd-socket-activate on a socket
 * it did not bind (as nvd.socket hands it over), it serves clients there,
 * tells the notify socket READY=1, WATCHDOG=1 every half $WATCHDOG_USEC and
 * STOPPING=1 on SIGTERM, leaves the socket file to its owner, and with
 * stderr the journal's stream ($JOURNAL_STREAM) logs lines with their
 * syslog priority.  Its config file: --check-config says each setting and
 * where it came from, or each error with its line; a running nvd uses the
 * file, under what the command line says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>

#include "tests/lib/nvt-test.h"

#define RUN_MS 30000

static char dir[64], conf[128], sock[96], notify[96], salog[128];
static char out[65536], err[65536];
static int notify_fd = -1;

static int setup(void **state)
{
	(void)state;
	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
	if (!getenv("NVD_BIN") || !getenv("NVD_TOOLS")) {
		fprintf(stderr, "test_service: NVD_BIN and NVD_TOOLS must be set (tests/run sets "
			"them to build/bin/nvd and build/bin)\n");
		return -1;
	}
	snprintf(dir, sizeof(dir), "/tmp/nvt-service-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(conf, sizeof(conf), "%s/nvd.conf", dir);
	snprintf(sock, sizeof(sock), "%s/nvd.sock", dir);
	snprintf(notify, sizeof(notify), "%s/notify", dir);
	snprintf(salog, sizeof(salog), "%s/activate.log", dir);
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	if (notify_fd >= 0)
		close(notify_fd);
	notify_fd = -1;
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	alarm(0);
	return 0;
}

static void write_conf(const char *text)
{
	FILE *f = fopen(conf, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static int run_nvd(const char *a1, const char *a2, const char *a3, const char *a4)
{
	const char *argv[] = { getenv("NVD_BIN"), a1, a2, a3, a4, NULL };
	return nvt_run(argv, out, sizeof(out), err, sizeof(err), RUN_MS);
}

/* The line --check-config printed for key: it must exist, say value and
 * come from origin ("default", "command line", or "FILE:LINE"). */
static void assert_setting(const char *key, const char *value, const char *origin)
{
	static char lines[sizeof(out)];
	memcpy(lines, out, sizeof(out));
	for (char *l = strtok(lines, "\n"); l; l = strtok(NULL, "\n")) {
		char k[64], v[256], o[256];
		if (sscanf(l, "%63s = %255s ; %255[^\n]", k, v, o) != 3 || strcmp(k, key))
			continue;
		if (strcmp(v, value) || strcmp(o, origin))
			fail_msg("%s: '%s', expected %s = %s from %s", key, l, key, value, origin);
		return;
	}
	fail_msg("no setting %s in:\n%s", key, out);
}

static void assert_err_has(const char *text)
{
	if (!strstr(err, text))
		fail_msg("stderr lacks '%s':\n%s", text, err);
}

/* A clean file: every value it sets is shown with its line, the rest as
 * defaults; exit 0, and no card (nothing on stderr). */
static void test_check_config_shows_where_each_value_comes_from(void **state)
{
	(void)state;
	write_conf("; a comment\n[card]\nvram = 256\n  gart = 1024\n\n[scheduler]\n"
		   "timeslice = 50 ; inline comment\n[monitor]\n1 = none\n");
	int code = run_nvd("--check-config", "--config", conf, NULL);
	if (code != 0 || err[0])
		fail_msg("exit %d, stderr:\n%s", code, err);
	char at[160];
	snprintf(at, sizeof(at), "%s:3", conf);
	assert_setting("vram", "256", at);
	snprintf(at, sizeof(at), "%s:4", conf);   /* indented: a key, not a continuation */
	assert_setting("gart", "1024", at);
	snprintf(at, sizeof(at), "%s:7", conf);
	assert_setting("timeslice", "50", at);
	snprintf(at, sizeof(at), "%s:9", conf);
	assert_setting("1", "none", at);
	assert_setting("quota", "512", "default");
	assert_setting("sim-jit", "auto", "default");
}

/* The command line wins over the file, key by key. */
static void test_command_line_overrides_the_file(void **state)
{
	(void)state;
	write_conf("[card]\nvram = 256\ngart = 1024\n");
	int code = run_nvd("--check-config", "--config", conf, "--vram=64");
	if (code != 0)
		fail_msg("exit %d, stderr:\n%s", code, err);
	char at[160];
	snprintf(at, sizeof(at), "%s:3", conf);
	assert_setting("vram", "64", "command line");
	assert_setting("gart", "1024", at);
}

/* Every error, each with its line, and exit 1; nvd itself refuses to start
 * on such a file (bad usage, 2). */
static void test_check_config_says_every_error_with_its_line(void **state)
{
	(void)state;
	write_conf("[card]\nvram = 64\nvram = 32\nbogus = 1\n[nope]\nx = 1\n[daemon]\n"
		   "verbosity = lots\njust words\nstray = 1\n[monitor]\n0 = 320x240\n");
	int code = run_nvd("--check-config", "--config", conf, NULL);
	if (code != 1)
		fail_msg("exit %d (expected 1), stderr:\n%s", code, err);
	static const struct { unsigned line; const char *says; } want[] = {
		{ 3, "duplicate key 'vram' in [card] (first on line 2)" },
		{ 4, "unknown key 'bogus' in [card]" },
		{ 5, "unknown section [nope]" },
		{ 8, "invalid value 'lots' for verbosity" },
		{ 9, "expected KEY = VALUE" },
		{ 10, "unknown key 'stray' in [daemon]" },
		{ 12, "invalid value '320x240' for 0 in [monitor]" },
	};
	char line[512];
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(line, sizeof(line), "nvd: %s:%u: %s", conf, want[i].line, want[i].says);
		assert_err_has(line);
	}
	/* x = 1 in the unknown section is not an error of its own */
	snprintf(line, sizeof(line), "%s:6:", conf);
	if (strstr(err, line))
		fail_msg("line 6 reported:\n%s", err);

	code = run_nvd("--config", conf, "--socket", sock);
	if (code != 2 || !strstr(err, "unknown key 'bogus'"))
		fail_msg("nvd on a bad file: exit %d (expected 2), stderr:\n%s", code, err);
}

/* A file named on the command line must exist; the default may not. */
static void test_a_missing_config_file_named_is_an_error(void **state)
{
	char missing[160];
	(void)state;
	snprintf(missing, sizeof(missing), "%s/absent.conf", dir);
	int code = run_nvd("--check-config", "--config", missing, NULL);
	if (code != 1)
		fail_msg("exit %d (expected 1), stderr:\n%s", code, err);
	assert_err_has("cannot read the config file");
	assert_err_has(missing);
	code = run_nvd("--check-config", "--vram", "lots", NULL);
	if (code != 1)
		fail_msg("a bad command line: exit %d (expected 1), stderr:\n%s", code, err);
	assert_err_has("invalid value 'lots' for --vram");
}

static int status_shows(const char *path, const char *a, const char *b)
{
	const char *argv[] = { getenv("NVD_TOOLS"), "--socket", path, "status", NULL };
	char tool[PATH_MAX];
	snprintf(tool, sizeof(tool), "%s/nvdctl", argv[0]);
	argv[0] = tool;
	int code = nvt_run(argv, out, sizeof(out), err, sizeof(err), RUN_MS);
	if (code != 0 || !strstr(out, a) || !strstr(out, b)) {
		print_error("nvdctl status: exit %d, expected '%s' and '%s' in:\n%s%s\n", code, a,
			    b, out, err);
		return 0;
	}
	return 1;
}

/* The file's settings are the ones a running nvd uses, except what the
 * command line sets. */
static void test_nvd_runs_with_the_file(void **state)
{
	struct nvt_daemon d = { 0 };
	char arg[160];
	(void)state;
	write_conf("[card]\nvram = 256\ngart = 256\n");
	snprintf(arg, sizeof(arg), "--config=%s", conf);
	const char *extra[] = { arg, "--vram=64", NULL };
	assert_int_equal(nvt_daemon_start(&d, extra), 0);
	int ok = status_shows(d.sock, "64 MiB VRAM", "GART:      256.0 MiB total");
	assert_int_equal(nvt_daemon_stop(&d), 0);
	nvt_daemon_cleanup(&d);
	assert_true(ok);
}

static int exec_activate(void *arg)
{
	const char *const *argv = arg;
	int fd = open(salog, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		return 127;
	execvp(argv[0], (char *const *)argv);
	return 127;
}

/* The next notification within ms, NUL-terminated in buf; 0 when none came. */
static int next_notification(char *buf, size_t len, int ms)
{
	struct pollfd p = { notify_fd, POLLIN, 0 };
	if (poll(&p, 1, ms) != 1)
		return 0;
	ssize_t n = recv(notify_fd, buf, len - 1, 0);
	if (n < 0)
		return 0;
	buf[n] = 0;
	return 1;
}

/* The next notification other than a watchdog ping. */
static int next_state(char *buf, size_t len, int ms)
{
	while (next_notification(buf, len, ms))
		if (strcmp(buf, "WATCHDOG=1"))
			return 1;
	return 0;
}

static uint64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void print_activate_log(void)
{
	FILE *f = fopen(salog, "r");
	char line[512];
	while (f && fgets(line, sizeof(line), f))
		print_error("    %s", line);
	if (f)
		fclose(f);
}

static void test_socket_activation(void **state)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char nvd_arg[PATH_MAX + 8], conf_arg[160], journal_arg[64], msg[1024], ready[1024] = "",
	     stopping[1024] = "";
	unsigned pings = 0;
	struct stat st;
	(void)state;

	notify_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	assert_true(notify_fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", notify);
	assert_int_equal(bind(notify_fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	/* The file names another socket: systemd's wins. */
	snprintf(msg, sizeof(msg), "[daemon]\nsocket = %s/not-this.sock\n[card]\nvram = 64\n", dir);
	write_conf(msg);
	snprintf(nvd_arg, sizeof(nvd_arg), "NOTIFY_SOCKET=%s", notify);
	snprintf(conf_arg, sizeof(conf_arg), "--config=%s", conf);
	/* nvd's stderr (the log file) as the journal's stream: lines with <N> */
	int log_fd = open(salog, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	assert_true(log_fd >= 0 && !fstat(log_fd, &st));
	close(log_fd);
	snprintf(journal_arg, sizeof(journal_arg), "JOURNAL_STREAM=%llu:%llu",
		 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	const char *argv[] = { "systemd-socket-activate", "--seqpacket", "-l", sock, "-E", nvd_arg,
			       "-E", "WATCHDOG_USEC=400000", "-E", journal_arg, getenv("NVD_BIN"),
			       conf_arg, nvt_sim_check_arg(), NULL };
	pid_t pid = nvt_fork(exec_activate, argv);
	assert_true(pid > 0);
	for (int i = 0; i < 100 && stat(sock, &st) < 0; i++)
		usleep(50000);

	/* The first connection has nvd exec'd; it waits in the backlog. */
	int served = status_shows(sock, "64 MiB VRAM", "clients:   1");
	int got_ready = next_state(ready, sizeof(ready), 10000);
	/* Pings every half WATCHDOG_USEC: 3 intervals take 600 ms, not 1200. */
	uint64_t first = 0, last = 0;
	while (pings < 4 && next_notification(msg, sizeof(msg), 1000) && !strcmp(msg, "WATCHDOG=1")) {
		last = now_ms();
		first = pings++ ? first : last;
	}
	kill(pid, SIGTERM);
	int got_stopping = next_state(stopping, sizeof(stopping), 10000);
	int code = nvt_wait_child(pid, 10000);
	int kept = !lstat(sock, &st) && S_ISSOCK(st.st_mode);

	if (!served || !got_ready || pings < 4 || !got_stopping || code != 0 || !kept)
		print_activate_log();
	assert_true(served);
	if (!got_ready || strncmp(ready, "READY=1\nSTATUS=", 15) || !strstr(ready, sock))
		fail_msg("expected READY=1 and a STATUS naming %s, got '%s'", sock, ready);
	if (pings < 4 || last - first < 300 || last - first > 900)
		fail_msg("%u WATCHDOG=1 (expected 4), %u ms from the first to the last "
			 "(expected 600 at WATCHDOG_USEC=400000)", pings, (unsigned)(last - first));
	if (!got_stopping || strncmp(stopping, "STOPPING=1", 10))
		fail_msg("after SIGTERM: expected STOPPING=1, got '%s'", stopping);
	assert_int_equal(code, 0);
	if (!kept)
		fail_msg("nvd removed %s, systemd's socket", sock);
	if (!nvt_file_contains(salog, "<6>nvd: simulated NV43") ||
	    !nvt_file_contains(salog, "<6>nvd: Terminated: shutting down")) {
		print_activate_log();
		fail_msg("no <6> (SD_INFO) on nvd's log lines with stderr the journal");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_check_config_shows_where_each_value_comes_from,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_command_line_overrides_the_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_config_says_every_error_with_its_line,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_missing_config_file_named_is_an_error, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_nvd_runs_with_the_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_socket_activation, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
