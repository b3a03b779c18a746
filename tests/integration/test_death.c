/* nvd dies under its clients: a libnvd client waiting for a fence, or for
 * a buffer in a parked BO_WAIT, wakes within a second of nvd's SIGKILL
 * with -ENOTCONN and a message naming nvd, without spinning (its CPU time
 * is counted); every later call fails the same way at once.  On SIGTERM
 * the client hears nvd's goodbye and why.  nvd started again on the same
 * socket serves new clients as if nothing had been there.
 *
 * The waits are made long by a runaway M2MF packet (seconds of card time)
 * under a watchdog that would not stop it for a minute. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"

#define COPY_BYTES (4u << 20)
#define COPY_PITCH 4096u
#define COPIES     2000u
#define PACKETS    24

static const char *const no_watchdog[] = { "--gpu-timeout", "60000", NULL };

enum wait_kind { WAIT_FENCE, WAIT_BO };

struct waiter {
	const char *sock;
	enum wait_kind kind;
	int ready[2];                /* the child says it is about to wait */
	const char *expect;          /* in the message of the failed wait */
};

static int64_t cpu_ns(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
	       ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

#define CHILD_CHECK(cond, ...)                                                            \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "waiter: " __VA_ARGS__);                          \
			fprintf(stderr, " (%s)\n", nvc_error());                         \
			return 1;                                                         \
		}                                                                         \
	} while (0)

/* Child: a runaway on the card, then a wait for it that only nvd's end can
 * answer; then every kind of call, which must fail at once. */
static int waiter(void *arg)
{
	struct waiter *w = arg;
	struct nvt_client t;
	struct nvt_buf a, b;
	uint32_t fence;
	close(w->ready[0]);
	CHILD_CHECK(nvt_client_open(&t, w->sock, "waiter") == 0, "cannot connect");
	CHILD_CHECK(nvt_finish(&t.p) == 0 && nvt_buf_new(t.c, COPY_BYTES, NVC_VRAM, 1, &a) == 0 &&
		    nvt_buf_new(t.c, COPY_BYTES, NVC_VRAM, 2, &b) == 0, "setup failed");
	for (unsigned k = 0; k < PACKETS; k++) {
		nvt_m2mf_cmd(&t.p, &a, 0, COPY_PITCH, &b, 0, COPY_PITCH, COPY_PITCH,
			     COPY_BYTES / COPY_PITCH - 1);
		nvt_space(&t.p, 1 + COPIES);
		nvt_word(&t.p, NV_CMD_NONINC_WORD(NVT_SUBC_M2MF, NV_M2MF_BUF_NOTIFY, COPIES));
		for (unsigned i = 0; i < COPIES; i++)
			nvt_out(&t.p, 0);
	}
	CHILD_CHECK(nvt_submit(&t.p, &fence) == 0, "the runaway was not submitted");
	CHILD_CHECK(write(w->ready[1], "r", 1) == 1, "cannot say ready");
	int64_t cpu0 = cpu_ns();
	int r = w->kind == WAIT_FENCE ? nvc_fence_wait(t.ch, fence, -1)
				      : nvc_bo_wait(b.bo, NVC_WAIT_WRITE, -1);
	int64_t cpu = cpu_ns() - cpu0;
	CHILD_CHECK(r == -ENOTCONN, "the wait returned %d, not -ENOTCONN", r);
	CHILD_CHECK(strstr(nvc_error(), "nvd at ") && strstr(nvc_error(), w->sock) &&
		    strstr(nvc_error(), w->expect), "the message names neither nvd nor why");
	printf("waiter: %s wait woke: %s; %lld ms of CPU while waiting\n",
	       w->kind == WAIT_FENCE ? "fence" : "BO_WAIT", nvc_error(), (long long)(cpu / 1000000));
	CHILD_CHECK(cpu < 300000000, "the wait spun: %lld ms of CPU", (long long)(cpu / 1000000));
	/* from now on every call fails at once, the same way */
	struct nvc_bo *bo;
	struct nvc_status st;
	uint32_t f2;
	int64_t t0 = nvt_now_ns();
	CHILD_CHECK(nvc_status(t.c, &st) == -ENOTCONN, "STATUS after");
	CHILD_CHECK(nvc_bo_new(t.c, 4096, NVC_GART, &bo) == -ENOTCONN, "BO_NEW after");
	CHILD_CHECK(nvc_check(t.c) == -ENOTCONN, "nvc_check after");
	CHILD_CHECK(nvt_submit(&t.p, &f2) == -ENOTCONN, "a submission after");
	CHILD_CHECK(nvc_fence_wait(t.ch, fence, -1) == -ENOTCONN, "a fence wait after");
	CHILD_CHECK(nvc_bo_wait(a.bo, 0, -1) == -ENOTCONN, "a BO_WAIT after");
	CHILD_CHECK(nvt_now_ns() - t0 < 1000000000, "the calls after took %lld ms",
		    (long long)((nvt_now_ns() - t0) / 1000000));
	nvt_buf_free(&a);
	nvt_buf_free(&b);
	nvt_client_close(&t);     /* frees what it knows without nvd */
	return 0;
}

/* Start a waiter, let it wait, send nvd sig: the waiter ends well, within
 * 1 s of nvd's end. */
static void kill_under_waiter(struct nvt_daemon *d, enum wait_kind kind, int sig, const char *expect)
{
	struct waiter w = { d->sock, kind, { -1, -1 }, expect };
	assert_int_equal(pipe(w.ready), 0);
	pid_t pid = nvt_fork(waiter, &w);
	assert_true(pid > 0);
	close(w.ready[1]);
	char c;
	assert_int_equal(read(w.ready[0], &c, 1), 1);
	close(w.ready[0]);
	nvt_sleep_ms(200);           /* in its wait by now */
	int code;
	assert_int_equal(nvt_child_done(pid, &code), 0);
	int st = nvt_daemon_kill(d, sig);
	assert_true(st >= 0);
	int64_t t0 = nvt_now_ns();
	code = nvt_wait_child(pid, 5000);
	int64_t ms = (nvt_now_ns() - t0) / 1000000;
	printf("nvd %s: the waiter ended %lld ms after nvd did, status %d\n",
	       sig == SIGKILL ? "SIGKILLed" : "SIGTERMed", (long long)ms, code);
	if (code != 0)
		fail_msg("the waiter failed (status %d)", code);
	if (ms > 1000)
		fail_msg("the waiter took %lld ms to notice", (long long)ms);
}

static void test_sigkill_wakes_a_fence_wait(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	kill_under_waiter(d, WAIT_FENCE, SIGKILL, "the connection closed");
}

static void test_sigkill_wakes_a_bo_wait_parked_in_nvd(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	kill_under_waiter(d, WAIT_BO, SIGKILL, "the connection closed");
}

/* SIGTERM: the goodbye comes first, with why; nvd exits 0. */
static void test_sigterm_says_goodbye(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	kill_under_waiter(d, WAIT_FENCE, SIGTERM, "nvd is shutting down (Terminated)");
	assert_true(WIFEXITED(d->status) && WEXITSTATUS(d->status) == 0);
	assert_true(nvt_log_contains(d, "disconnected: nvd is shutting down (Terminated)"));
}

/* SIGKILLed with clients, buffers and channels, and started again on the
 * same socket: the new nvd takes the stale socket and serves clients. */
static void test_restart_on_the_same_socket(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g;
	NVT_OK(nvt_client_open(&t, d->sock, "before"));
	NVT_OK(nvt_buf_new(t.c, 1 << 20, NVC_GART, 3, &g));
	assert_true(nvt_daemon_kill(d, SIGKILL) >= 0);
	assert_int_equal(access(d->sock, F_OK), 0);    /* left behind */
	NVT_OK(nvt_daemon_run(d, NULL));
	nvt_buf_free(&g);
	nvt_client_close(&t);
	struct nvt_workload w = { .sock = d->sock, .name = "after-restart", .seed = 7, .rounds = 3,
				  .ops = 3 };
	NVT_OK(nvt_workload_run(&w, NULL, NULL));
	free(w.result);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_sigkill_wakes_a_fence_wait, no_watchdog),
		NVT_TEST_ARGS(test_sigkill_wakes_a_bo_wait_parked_in_nvd, no_watchdog),
		NVT_TEST_ARGS(test_sigterm_says_goodbye, no_watchdog),
		NVT_TEST(test_restart_on_the_same_socket),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
