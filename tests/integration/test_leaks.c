/* Leaks: after every client has gone, however it went (closed, exited
 * without closing, killed with SIGKILL in the middle of its work), nvd's
 * status is back to zero and the daemon holds no more file descriptors
 * than before.  Buffers freed while the card still uses them stay until
 * the card is done and never alias a new buffer meanwhile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <signal.h>
#include <time.h>

#include "tests/lib/nvt-test.h"

static void sleep_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };
	nanosleep(&t, NULL);
}

/* The daemon's descriptors come back to `base` within a second. */
static void assert_fds_back(struct nvt_daemon *d, int base)
{
	int n = -1;
	for (unsigned i = 0; i < 100; i++) {
		n = nvt_daemon_fds(d);
		if (n == base)
			return;
		sleep_ms(10);
	}
	fail_msg("nvd holds %d file descriptors after the clients left, %d before", n, base);
}

/* Everything a client can own: buffers in both domains, two channels with
 * objects and a notifier ctxdma, work in flight. */
static int busy_client(const char *sock, int close_it, int submit_forever, int ready_fd)
{
	struct nvt_client t;
	struct nvt_buf g, v;
	struct nvc_chan *ch2;

	if (nvt_client_open(&t, sock, "leaker") < 0 ||
	    nvt_buf_new(t.c, 1 << 20, NVC_GART, 1, &g) < 0 ||
	    nvt_buf_new(t.c, 1 << 20, NVC_VRAM, 2, &v) < 0 || nvc_chan_new(t.c, &ch2) < 0 ||
	    nvt_chan_objects(ch2) < 0 || nvc_dma_new(t.ch, 0xd8000003, g.bo, 0, 4096, 0x3d, 0) < 0) {
		fprintf(stderr, "leaker: setup: %s\n", nvc_error());
		return 1;
	}
	for (unsigned i = 0;; i++) {
		nvt_m2mf(&t.p, &g, 0, 4096, &v, 0, 4096, 4096, 200);
		nvt_m2mf(&t.p, &v, 0, 4096, &g, 0, 4096, 4096, 200);
		if (nvt_submit(&t.p, NULL) < 0)
			return 2;
		if (i == 3 && ready_fd >= 0 && write(ready_fd, "r", 1) != 1)
			return 3;
		if (!submit_forever && i == 20)
			break;
	}
	if (close_it) {
		if (nvt_finish(&t.p) < 0)
			return 4;
		nvt_client_close(&t);
	}
	return 0;   /* without closing: the exit closes the socket */
}

static int child_exits_without_closing(void *arg)
{
	return busy_client(arg, 0, 0, -1);
}

static void test_status_back_to_zero_after_clients_close(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	int base = nvt_daemon_fds_settled(d);
	assert_true(base > 0);
	assert_int_equal(busy_client(d->sock, 1, 0, -1), 0);
	struct nvt_workload w = { .sock = d->sock, .name = "workload", .seed = 4, .rounds = 5,
				  .ops = 30 };
	NVT_OK(nvt_workload_run(&w, NULL, NULL));
	free(w.result);
	assert_int_equal(nvt_leak_check(d->sock), 0);
	assert_fds_back(d, base);
	nvt_end(d);
}

static void test_status_back_to_zero_after_client_exits_without_closing(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	int base = nvt_daemon_fds_settled(d);
	pid_t pid = nvt_fork(child_exits_without_closing, d->sock);
	assert_true(pid > 0);
	assert_int_equal(nvt_wait_child(pid, 30000), 0);
	assert_int_equal(nvt_leak_check(d->sock), 0);
	assert_fds_back(d, base);
	nvt_end(d);
}

struct killed_arg {
	const char *sock;
	int ready_fd;
};

static int child_submits_forever(void *arg)
{
	struct killed_arg *a = arg;
	return busy_client(a->sock, 0, 1, a->ready_fd);
}

static void test_status_back_to_zero_after_sigkill_mid_work(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	int base = nvt_daemon_fds_settled(d);
	for (unsigned round = 0; round < 3; round++) {
		int pfd[2];
		char c;
		assert_int_equal(pipe(pfd), 0);
		struct killed_arg a = { d->sock, pfd[1] };
		pid_t pid = nvt_fork(child_submits_forever, &a);
		assert_true(pid > 0);
		close(pfd[1]);
		assert_int_equal(read(pfd[0], &c, 1), 1);   /* it has work in flight */
		close(pfd[0]);
		sleep_ms(round * 5);
		kill(pid, SIGKILL);
		assert_int_equal(nvt_wait_child(pid, 5000), 128 + SIGKILL);
		if (!nvt_daemon_alive(d))
			fail_msg("nvd died when a client was killed");
		assert_int_equal(nvt_leak_check(d->sock), 0);
	}
	assert_fds_back(d, base);
	nvt_end(d);
}

/* Poll this client's view of the daemon until no client memory is held. */
static void assert_memory_released(struct nvc *c)
{
	struct nvc_status st;
	for (unsigned i = 0; i < 200; i++) {
		NVT_OK(nvc_status(c, &st));
		if (!st.vram_client && !st.gart_client && !st.bos && st.channels_used == 0)
			return;
		sleep_ms(10);
	}
	fail_msg("still held: vram_client=%llu gart_client=%llu bos=%u channels_used=%u",
		 (unsigned long long)st.vram_client, (unsigned long long)st.gart_client, st.bos,
		 st.channels_used);
}

static void test_chan_and_bo_free_with_work_in_flight_release_everything(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g, v;

	NVT_OK(nvt_client_open(&t, d->sock, "freer"));
	NVT_OK(nvt_buf_new(t.c, 8 << 20, NVC_GART, 1, &g));
	NVT_OK(nvt_buf_new(t.c, 8 << 20, NVC_VRAM, 2, &v));
	for (unsigned i = 0; i < 8; i++)
		nvt_m2mf(&t.p, &g, 0, 4096, &v, 0, 4096, 4096, NV_M2MF_LINE_COUNT_MAX);
	NVT_OK(nvt_submit(&t.p, NULL));
	/* let go of everything at once, the card possibly still copying */
	nvt_buf_free(&g);
	nvt_buf_free(&v);
	nvt_push_fini(&t.p);
	NVT_OK(nvc_chan_free(t.ch));
	assert_memory_released(t.c);
	nvc_close(t.c);
	nvt_end(d);
}

/* A buffer freed while an M2MF still writes into it must not come back as
 * a new buffer before the card is done: the new one keeps its bytes. */
static void test_bo_freed_in_flight_never_aliases_a_new_bo(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;

	NVT_OK(nvt_client_open(&t, d->sock, "aliaser"));
	NVT_OK(nvt_finish(&t.p));
	unsigned ran = 0;
	for (unsigned round = 0; round < 10; round++) {
		struct nvt_buf g, x, y;
		uint32_t f;
		NVT_OK(nvt_buf_new(t.c, 8 << 20, NVC_GART, round, &g));
		NVT_OK(nvt_buf_new(t.c, 8 << 20, NVC_VRAM, round + 100, &x));
		for (unsigned i = 0; i < 4; i++)
			nvt_m2mf(&t.p, &g, 0, 4096, &x, 0, 4096, 4096, NV_M2MF_LINE_COUNT_MAX);
		NVT_OK(nvt_submit(&t.p, &f));
		nvt_buf_free(&x);
		NVT_OK(nvt_buf_new(t.c, 8 << 20, NVC_VRAM, round + 200, &y));
		int r = nvt_wait(&t.p, f);
		/* either the copy ran (into the old buffer) or it was refused
		 * because its buffer was gone by the time nvd looked */
		if (r != 0 && r != -ENOENT)
			fail_msg("fence of the copy into the freed buffer: %d (%s)", r, nvc_error());
		ran += r == 0;
		if (nvt_buf_check(&y, "the buffer allocated after the free") < 0)
			fail_msg("round %u: the card wrote into a new buffer through a freed one "
				 "(new buffer at 0x%llx)", round, (unsigned long long)y.addr);
		nvt_buf_free(&y);
		nvt_buf_free(&g);
	}
	printf("the copy ran in %u of 10 rounds (refused for the freed buffer in the others)\n", ran);
	nvt_client_close(&t);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_status_back_to_zero_after_clients_close),
		NVT_TEST(test_status_back_to_zero_after_client_exits_without_closing),
		NVT_TEST(test_status_back_to_zero_after_sigkill_mid_work),
		NVT_TEST(test_chan_and_bo_free_with_work_in_flight_release_everything),
		NVT_TEST(test_bo_freed_in_flight_never_aliases_a_new_bo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
