/* Sharing buffers between clients and waiting for the card, as Mesa and
 * libdrm_nouveau use the kernel's GEM names, PRIME and CPU_PREP: two
 * clients share a buffer by flink name (after DRM authentication) or by
 * passing its fd to another process, and both read and write each other's
 * data by CPU and by card; BO_WAIT says busy exactly while submissions that
 * write (or, with WRITE, use) the buffer are on the card, honours NOWAIT and
 * its timeout; the creator pays for a buffer until it goes, and every
 * counter comes back to zero however the clients go. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>

#include "proto/proto.h"
#include "tests/lib/nvt-test.h"

#define MIB (1u << 20)

/* One M2MF copy of a whole buffer (4 KiB lines), without the CPU shadow
 * (the test applies the copy to the shadow once: repeating it changes
 * nothing). */
static void copy_raw(struct nvt_push *p, struct nvt_buf *src, struct nvt_buf *dst)
{
	uint32_t lines = (uint32_t)(src->size < dst->size ? src->size : dst->size) / 4096;
	nvt_m2mf_cmd(p, src, 0, 4096, dst, 0, 4096, 4096, lines);
}

/* Submit `reps` copies src -> dst in one submission. */
static uint32_t long_copy(struct nvt_push *p, struct nvt_buf *src, struct nvt_buf *dst,
			  unsigned reps)
{
	uint32_t fence = 0;
	for (unsigned i = 0; i < reps; i++)
		copy_raw(p, src, dst);
	uint64_t n = src->size < dst->size ? src->size : dst->size;
	memcpy(dst->shadow, src->shadow, n);
	if (nvt_submit(p, &fence) < 0)
		fail_msg("submission failed: %s", nvc_error());
	return fence;
}

/* How many 4 MiB copies keep the card busy for about `ms` milliseconds:
 * measured on the warm buffers until a measurement takes 50 ms. */
#define MAX_REPS 10000   /* 12 words each: well inside the push buffer and the card's ring */
static unsigned reps_for_ms(struct nvt_push *p, struct nvt_buf *src, struct nvt_buf *dst,
			    unsigned ms)
{
	unsigned n = 8;
	int64_t t;
	for (;;) {
		/* the faster of two runs: a one-time cost (first use, a busy
		 * scheduler) inflating one would make the copy far too short */
		t = INT64_MAX;
		for (int i = 0; i < 2; i++) {
			int64_t t0 = nvt_now_ns();
			NVT_OK(nvt_wait(p, long_copy(p, src, dst, n)));
			int64_t ti = nvt_now_ns() - t0;
			t = ti < t ? ti : t;
		}
		if (t >= 50000000 || n * 4 > MAX_REPS)
			break;
		n *= 4;
	}
	uint64_t reps = (uint64_t)n * ms * 1000000 / (uint64_t)(t > 0 ? t : 1);
	return reps < 8 ? 8 : reps > MAX_REPS ? MAX_REPS : (unsigned)reps;
}

/* ---- fd passing between processes ---- */

static void send_fd(int sock, int fd)
{
	char b = 'f';
	assert_int_equal(nvd_sendmsg(sock, &b, 1, &fd, 1), 1);
}

static int recv_fd(int sock)
{
	char b;
	int fd = -1;
	unsigned n = 0;
	long r = nvd_recvmsg(sock, &b, 1, &fd, 1, &n);
	return r == 1 && n == 1 ? fd : -1;
}

/* ---- flink and authentication ---- */

static void test_flink_auth_open_both_read_and_write_by_cpu_and_card(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client a, b;
	struct nvt_buf x, xb, ya, yb, z;
	struct nvc_bo *opened, *again;
	uint32_t name, name2, name3, magic, magic2;

	NVT_OK(nvt_client_open(&a, d->sock, "share-a"));
	NVT_OK(nvt_client_open(&b, d->sock, "share-b"));
	NVT_OK(nvc_set_master(a.c));
	NVT_OK(nvt_buf_new(a.c, 256 << 10, NVC_VRAM, 11, &x));
	NVT_OK(nvc_bo_flink(x.bo, &name));
	assert_int_not_equal(name, 0);
	NVT_OK(nvc_bo_flink(x.bo, &name2));
	assert_int_equal(name, name2);
	/* not yet authenticated: refused although the name exists */
	NVT_ERR(nvc_bo_open(b.c, name, &opened), -EACCES);
	NVT_OK(nvc_get_magic(b.c, &magic));
	assert_int_not_equal(magic, 0);
	NVT_OK(nvc_get_magic(b.c, &magic2));
	assert_int_equal(magic, magic2);
	NVT_OK(nvc_auth_magic(a.c, magic));
	NVT_OK(nvc_bo_open(b.c, name, &opened));
	NVT_OK(nvc_bo_open(b.c, name, &again));
	assert_ptr_equal(opened, again);
	assert_int_equal(nvc_bo_size(opened), nvc_bo_size(x.bo));
	assert_int_equal(nvc_bo_addr(opened), nvc_bo_addr(x.bo));
	assert_int_equal(nvc_bo_domain(opened), NVC_VRAM);
	NVT_OK(nvc_bo_flink(opened, &name3));
	assert_int_equal(name3, name);
	NVT_OK(nvt_buf_wrap(opened, &xb));
	/* B sees A's bytes by CPU ... */
	assert_memory_equal(xb.map, x.shadow, x.size);
	/* ... and by card: B copies the shared buffer into its own */
	NVT_OK(nvt_buf_new(b.c, x.size, NVC_GART, 12, &yb));
	nvt_m2mf(&b.p, &xb, 0, 4096, &yb, 0, 4096, 4096, (uint32_t)(x.size / 4096));
	NVT_OK(nvt_finish(&b.p));
	assert_int_equal(nvt_buf_check(&yb, "B's copy of the shared buffer"), 0);
	assert_memory_equal(yb.map, x.shadow, x.size);
	/* B writes the shared buffer by card, A reads it by CPU and by card */
	NVT_OK(nvt_buf_new(b.c, x.size, NVC_GART, 13, &z));
	nvt_m2mf(&b.p, &z, 0, 4096, &xb, 0, 4096, 4096, (uint32_t)(x.size / 4096));
	NVT_OK(nvt_finish(&b.p));
	assert_memory_equal(x.map, z.shadow, x.size);
	memcpy(x.shadow, z.shadow, x.size);
	NVT_OK(nvt_buf_new(a.c, x.size, NVC_GART, 14, &ya));
	nvt_m2mf(&a.p, &x, 0, 4096, &ya, 0, 4096, 4096, (uint32_t)(x.size / 4096));
	NVT_OK(nvt_finish(&a.p));
	assert_int_equal(nvt_buf_check(&ya, "A's copy of what B wrote"), 0);
	/* A writes by CPU, B reads by CPU */
	memset(x.map, 0x5a, 4096);
	assert_int_equal(xb.map[4095], 0x5a);
	/* both hold it once: one buffer, the creator pays */
	struct nvc_status st;
	NVT_OK(nvc_status(a.c, &st));
	assert_int_equal(st.bos, 6);   /* x once although shared, ya, yb, z, two push buffers */
	nvt_buf_free(&xb);
	nvt_buf_free(&x);
	nvt_buf_free(&ya);
	nvt_buf_free(&yb);
	nvt_buf_free(&z);
	nvt_client_close(&a);
	nvt_client_close(&b);
	nvt_end(d);
}

static void test_master_is_exclusive_and_released_on_drop_and_disconnect(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *a, *b;
	uint32_t magic;
	NVT_OK(nvc_connect(d->sock, "master-a", &a));
	NVT_OK(nvc_connect(d->sock, "master-b", &b));
	NVT_OK(nvc_set_master(a));
	NVT_OK(nvc_set_master(a));
	NVT_ERR(nvc_set_master(b), -EBUSY);
	NVT_OK(nvc_get_magic(a, &magic));
	NVT_ERR(nvc_auth_magic(b, magic), -EACCES);
	NVT_ERR(nvc_auth_magic(a, magic ^ 1), -ENOENT);
	NVT_OK(nvc_drop_master(a));
	NVT_FAILS(nvc_drop_master(a));
	/* dropped, it is a's again for the asking, and only root's besides */
	if (geteuid() != 0) {
		NVT_ERR(nvc_set_master(b), -EACCES);
		NVT_OK(nvc_set_master(a));
		NVT_OK(nvc_drop_master(a));
		nvc_close(a);
		int r = -EACCES;   /* free once the daemon has seen a go */
		for (unsigned i = 0; i < 200 && r == -EACCES; i++)
			if ((r = nvc_set_master(b)) == -EACCES)
				nvt_sleep_ms(10);
		NVT_OK(r);
		NVT_OK(nvc_connect(d->sock, "master-a", &a));
	} else {
		NVT_OK(nvc_set_master(b));
	}
	nvc_close(b);
	/* free once the daemon has seen b go (it may see a's request first) */
	int r = -EBUSY;
	for (unsigned i = 0; i < 200 && r == -EBUSY; i++)
		if ((r = nvc_set_master(a)) == -EBUSY)
			nvt_sleep_ms(10);
	NVT_OK(r);
	nvc_close(a);
	nvt_end(d);
}

/* ---- export and import between processes ---- */

struct child_arg {
	const char *sock;
	int chan;       /* socketpair end */
	uint32_t seed;  /* the parent's pattern */
};

/* The child: its own connection; imports the buffer through the fd the
 * parent passed (twice: same buffer), checks the parent's bytes by card,
 * then overwrites the buffer by card with its own pattern. */
static int importer_child(void *arg_)
{
	struct child_arg *arg = arg_;
	struct nvt_client t;
	struct nvt_buf x, mine, check;
	struct nvc_bo *bo, *bo2;
	int fd = recv_fd(arg->chan), fd2 = recv_fd(arg->chan);
	if (fd < 0 || fd2 < 0 || nvt_client_open(&t, arg->sock, "importer") < 0)
		return 10;
	if (nvc_bo_import(t.c, fd, &bo) < 0 || nvc_bo_import(t.c, fd2, &bo2) < 0) {
		fprintf(stderr, "import: %s\n", nvc_error());
		return 11;
	}
	if (bo != bo2 || nvc_bo_handle(bo) != nvc_bo_handle(bo2))
		return 12;
	if (nvc_bo_import(t.c, nvc_bo_fd(bo), &bo2) < 0 || bo2 != bo)
		return 13;
	close(fd);
	close(fd2);
	if (nvt_buf_wrap(bo, &x) < 0 || nvt_buf_new(t.c, x.size, NVC_GART, 99, &check) < 0)
		return 14;
	/* the parent's pattern, regenerated */
	struct nvt_buf ref;
	if (nvt_buf_new(t.c, x.size, NVC_GART, arg->seed, &ref) < 0)
		return 15;
	nvt_m2mf(&t.p, &x, 0, 4096, &check, 0, 4096, 4096, (uint32_t)(x.size / 4096));
	if (nvt_finish(&t.p) < 0 || memcmp(check.map, ref.shadow, x.size))
		return 16;
	if (nvt_buf_new(t.c, x.size, NVC_VRAM, arg->seed + 1, &mine) < 0)
		return 17;
	nvt_m2mf(&t.p, &mine, 0, 4096, &x, 0, 4096, 4096, (uint32_t)(x.size / 4096));
	if (nvt_finish(&t.p) < 0 || nvt_buf_check(&x, "the shared buffer in the child") < 0)
		return 18;
	nvt_client_close(&t);
	return 0;
}

static void test_export_fd_import_in_another_process_same_buffer(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client a;
	struct nvt_buf x, copy, want;
	int sp[2];

	NVT_OK(nvt_client_open(&a, d->sock, "exporter"));
	NVT_OK(nvt_buf_new(a.c, 512 << 10, NVC_GART, 21, &x));
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp), 0);
	struct child_arg arg = { d->sock, sp[1], 21 };
	pid_t pid = nvt_fork(importer_child, &arg);
	assert_true(pid > 0);
	close(sp[1]);
	int dup1 = dup(nvc_bo_fd(x.bo));
	send_fd(sp[0], dup1);
	send_fd(sp[0], nvc_bo_fd(x.bo));
	close(dup1);
	assert_int_equal(nvt_wait_child(pid, 30000), 0);
	close(sp[0]);
	/* the child's pattern, by CPU and by card */
	NVT_OK(nvt_buf_new(a.c, x.size, NVC_VRAM, 22, &want));
	assert_memory_equal(x.map, want.shadow, x.size);
	memcpy(x.shadow, want.shadow, x.size);
	NVT_OK(nvt_buf_new(a.c, x.size, NVC_GART, 23, &copy));
	nvt_m2mf(&a.p, &x, 0, 4096, &copy, 0, 4096, 4096, (uint32_t)(x.size / 4096));
	NVT_OK(nvt_finish(&a.p));
	assert_int_equal(nvt_buf_check(&copy, "the parent's copy of what the child wrote"), 0);
	/* importing one's own buffer gives it back */
	struct nvc_bo *same;
	NVT_OK(nvc_bo_import(a.c, nvc_bo_fd(x.bo), &same));
	assert_ptr_equal(same, x.bo);
	nvt_buf_free(&want);
	nvt_buf_free(&copy);
	nvt_buf_free(&x);
	nvt_client_close(&a);
	nvt_end(d);
}

/* ---- waits ---- */

struct busy {
	struct nvt_client a;
	struct nvt_buf src, dst;
};

static void busy_open(struct busy *b, struct nvt_daemon *d)
{
	NVT_OK(nvt_client_open(&b->a, d->sock, "waiter"));
	NVT_OK(nvt_buf_new(b->a.c, 4 * MIB, NVC_VRAM, 31, &b->src));
	NVT_OK(nvt_buf_new(b->a.c, 4 * MIB, NVC_VRAM, 32, &b->dst));
	NVT_OK(nvt_finish(&b->a.p));
}

static void busy_close(struct busy *b)
{
	nvt_buf_free(&b->src);
	nvt_buf_free(&b->dst);
	nvt_client_close(&b->a);
}

static void test_wait_nowait_busy_while_card_writes_then_wait_returns_when_done(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct busy b;
	busy_open(&b, d);
	unsigned reps = reps_for_ms(&b.a.p, &b.src, &b.dst, 600);
	/* submit, then at once ask: the daemon must have taken the submission */
	uint32_t f = long_copy(&b.a.p, &b.src, &b.dst, reps);
	NVT_ERR(nvc_bo_wait(b.dst.bo, NVC_WAIT_NOWAIT, 0), -EBUSY);
	NVT_ERR(nvc_bo_wait(b.dst.bo, NVC_WAIT_NOWAIT | NVC_WAIT_WRITE, 0), -EBUSY);
	if (nvc_fence_done(b.a.ch, f))
		fail_msg("the copy finished before the test could look (%u reps)", reps);
	NVT_OK(nvc_bo_wait(b.dst.bo, 0, -1));
	assert_int_equal(nvc_fence_done(b.a.ch, f), 1);
	assert_int_equal(nvt_buf_check(&b.dst, "the copy's destination"), 0);
	NVT_OK(nvc_bo_wait(b.dst.bo, NVC_WAIT_NOWAIT | NVC_WAIT_WRITE, 0));
	busy_close(&b);
	nvt_end(d);
}

static void test_wait_buffer_only_read_is_busy_only_with_write_flag(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct busy b;
	busy_open(&b, d);
	unsigned reps = reps_for_ms(&b.a.p, &b.src, &b.dst, 600);
	uint32_t f = long_copy(&b.a.p, &b.src, &b.dst, reps);
	NVT_OK(nvc_bo_wait(b.src.bo, NVC_WAIT_NOWAIT, 0));   /* read only: no writer */
	NVT_ERR(nvc_bo_wait(b.src.bo, NVC_WAIT_NOWAIT | NVC_WAIT_WRITE, 0), -EBUSY);
	NVT_OK(nvc_bo_wait(b.src.bo, 0, 5000000000ll));       /* nothing to wait for */
	if (nvc_fence_done(b.a.ch, f))
		fail_msg("the copy finished too soon to tell (%u reps)", reps);
	NVT_OK(nvc_bo_wait(b.src.bo, NVC_WAIT_WRITE, -1));
	assert_int_equal(nvc_fence_done(b.a.ch, f), 1);
	busy_close(&b);
	nvt_end(d);
}

static void test_wait_timeout_passes_with_ebusy_then_daemon_serves_on(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct busy b;
	busy_open(&b, d);
	unsigned reps = reps_for_ms(&b.a.p, &b.src, &b.dst, 1500);
	uint32_t f = long_copy(&b.a.p, &b.src, &b.dst, reps);
	int64_t t0 = nvt_now_ns();
	int r = nvc_bo_wait(b.dst.bo, 0, 200000000);   /* 200 ms */
	int64_t took = nvt_now_ns() - t0;
	if (r != -EBUSY)
		fail_msg("a 200 ms wait on a buffer busy for ~1.5 s gave %d after %lld ms "
			 "(%u copies; done: %d)", r, (long long)(took / 1000000), reps,
			 nvc_fence_done(b.a.ch, f));
	if (nvc_fence_done(b.a.ch, f))
		fail_msg("the copy finished within the timeout (%u reps)", reps);
	if (took < 190000000 || took > 1000000000)
		fail_msg("a 200 ms wait took %lld ms", (long long)(took / 1000000));
	/* the connection works on; a parked wait is answered with its own tag */
	struct nvc_status st;
	NVT_OK(nvc_status(b.a.c, &st));
	NVT_OK(nvc_bo_wait(b.dst.bo, NVC_WAIT_WRITE, -1));
	assert_int_equal(nvc_fence_done(b.a.ch, f), 1);
	assert_int_equal(nvt_buf_check(&b.dst, "the copy's destination"), 0);
	busy_close(&b);
	nvt_end(d);
}

/* Another client's submission makes the shared buffer busy for this one. */
static void test_wait_sees_other_clients_submissions_on_a_shared_buffer(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct busy b;
	struct nvc *other;
	struct nvc_bo *dst2;
	busy_open(&b, d);
	NVT_OK(nvc_connect(d->sock, "other", &other));
	NVT_OK(nvc_bo_import(other, nvc_bo_fd(b.dst.bo), &dst2));
	unsigned reps = reps_for_ms(&b.a.p, &b.src, &b.dst, 600);
	uint32_t f = long_copy(&b.a.p, &b.src, &b.dst, reps);
	NVT_ERR(nvc_bo_wait(dst2, NVC_WAIT_NOWAIT, 0), -EBUSY);
	if (nvc_fence_done(b.a.ch, f))
		fail_msg("the copy finished too soon to tell (%u reps)", reps);
	NVT_OK(nvc_bo_wait(dst2, 0, -1));
	assert_int_equal(nvc_fence_done(b.a.ch, f), 1);
	uint8_t *m = nvc_bo_map(dst2);
	assert_non_null(m);
	assert_memory_equal(m, b.src.shadow, b.dst.size);
	nvc_close(other);
	busy_close(&b);
	nvt_end(d);
}

/* A submission published just before a socket request is taken first: a
 * buffer freed right after the submission that uses it still serves it. */
static void test_free_right_after_submit_still_runs_the_submission(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client a;
	struct nvt_buf dst;
	NVT_OK(nvt_client_open(&a, d->sock, "free-race"));
	NVT_OK(nvt_buf_new(a.c, 64 << 10, NVC_GART, 41, &dst));
	NVT_OK(nvt_finish(&a.p));
	for (unsigned i = 0; i < 50; i++) {
		struct nvt_buf src;
		uint32_t f;
		NVT_OK(nvt_buf_new(a.c, 64 << 10, i & 1 ? NVC_VRAM : NVC_GART, 100 + i, &src));
		nvt_m2mf(&a.p, &src, 0, 4096, &dst, 0, 4096, 4096, 16);
		NVT_OK(nvt_submit(&a.p, &f));
		NVT_OK(nvc_bo_free(src.bo));
		src.bo = NULL;
		NVT_OK(nvt_wait(&a.p, f));   /* not refused for a missing buffer */
		nvt_buf_free(&src);
		assert_int_equal(nvt_buf_check(&dst, "the destination"), 0);
	}
	nvt_buf_free(&dst);
	nvt_client_close(&a);
	nvt_end(d);
}

/* ---- implicit sync between channels ---- */

/* Two clients on one buffer x, as a GL client and the X server on a DRI2
 * back buffer: the first keeps the card busy for ~600 ms on its own
 * buffers and only then touches x (`last`: writes it, or reads it into
 * `seen`); the second, a moment later, does the opposite in one short
 * submission.  The card switches channels every 4 words (--timeslice 4),
 * so only nvd's wait orders the two: the second's submission must not run
 * before the first's. */
static const char *const timeslice4[] = { "--timeslice", "4", NULL };

struct sync_pair {
	struct nvt_client a, b;
	struct nvt_buf busy_src, busy_dst, x, xb, other, seen;
	unsigned reps;
};

static void sync_open(struct sync_pair *s, struct nvt_daemon *d)
{
	struct nvc_bo *bo;
	NVT_OK(nvt_client_open(&s->a, d->sock, "sync-a"));
	NVT_OK(nvt_client_open(&s->b, d->sock, "sync-b"));
	NVT_OK(nvt_buf_new(s->a.c, 4 * MIB, NVC_VRAM, 61, &s->busy_src));
	NVT_OK(nvt_buf_new(s->a.c, 4 * MIB, NVC_VRAM, 62, &s->busy_dst));
	NVT_OK(nvt_buf_new(s->a.c, 256 << 10, NVC_VRAM, 63, &s->x));
	NVT_OK(nvt_buf_new(s->a.c, 256 << 10, NVC_GART, 64, &s->seen));
	NVT_OK(nvt_buf_new(s->b.c, 256 << 10, NVC_GART, 65, &s->other));
	NVT_OK(nvc_bo_import(s->b.c, nvc_bo_fd(s->x.bo), &bo));
	NVT_OK(nvt_buf_wrap(bo, &s->xb));
	NVT_OK(nvt_finish(&s->a.p));
	NVT_OK(nvt_finish(&s->b.p));
	s->reps = reps_for_ms(&s->a.p, &s->busy_src, &s->busy_dst, 600);
}

static void sync_close(struct sync_pair *s)
{
	nvt_buf_free(&s->xb);
	nvt_buf_free(&s->x);
	nvt_buf_free(&s->busy_src);
	nvt_buf_free(&s->busy_dst);
	nvt_buf_free(&s->seen);
	nvt_buf_free(&s->other);
	nvt_client_close(&s->a);
	nvt_client_close(&s->b);
}

/* A's long submission: the busy copies, then `last`.  Returns its fence. */
static uint32_t sync_long(struct sync_pair *s, struct nvt_buf *src, struct nvt_buf *dst)
{
	for (unsigned i = 0; i < s->reps; i++)
		copy_raw(&s->a.p, &s->busy_src, &s->busy_dst);
	memcpy(s->busy_dst.shadow, s->busy_src.shadow, s->busy_dst.size);
	nvt_m2mf(&s->a.p, src, 0, 4096, dst, 0, 4096, 4096, (uint32_t)(dst->size / 4096));
	uint32_t f;
	NVT_OK(nvt_submit(&s->a.p, &f));
	return f;
}

/* B's short one; waits for it and says whether A's was done by then. */
static void sync_short(struct sync_pair *s, struct nvt_buf *src, struct nvt_buf *dst, uint32_t fa)
{
	uint32_t fb;
	nvt_m2mf(&s->b.p, src, 0, 4096, dst, 0, 4096, 4096, (uint32_t)(dst->size / 4096));
	NVT_OK(nvt_submit(&s->b.p, &fb));
	if (nvc_fence_done(s->a.ch, fa))
		fail_msg("the long submission ended before the test could look (%u reps)", s->reps);
	NVT_OK(nvt_wait(&s->b.p, fb));
	if (!nvc_fence_done(s->a.ch, fa))
		fail_msg("B's submission on the shared buffer ran before A's had finished");
	NVT_OK(nvt_wait(&s->a.p, fa));
}

/* Read after write: B copies x only once A has written it. */
static void test_sync_reader_on_another_channel_waits_for_the_writer(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct sync_pair s;
	sync_open(&s, d);
	uint32_t fa = sync_long(&s, &s.seen, &s.x);   /* x := seen's bytes, at the end */
	memcpy(s.xb.shadow, s.x.shadow, s.x.size);
	sync_short(&s, &s.xb, &s.other, fa);
	assert_int_equal(nvt_buf_check(&s.other, "B's copy of what A wrote last"), 0);
	assert_int_equal(nvt_buf_check(&s.x, "the shared buffer"), 0);
	sync_close(&s);
	nvt_end(d);
}

/* Write after read: B overwrites x only once A has read it. */
static void test_sync_writer_on_another_channel_waits_for_the_reader(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct sync_pair s;
	sync_open(&s, d);
	uint32_t fa = sync_long(&s, &s.x, &s.seen);   /* seen := x's bytes, at the end */
	sync_short(&s, &s.other, &s.xb, fa);
	assert_int_equal(nvt_buf_check(&s.seen, "what A read before B wrote"), 0);
	assert_int_equal(nvt_buf_check(&s.xb, "what B wrote"), 0);
	sync_close(&s);
	nvt_end(d);
}

/* A waiting entry keeps its place: B's read of x waits for A's first
 * write, and A's second write, submitted after B's read, waits for it. */
static void test_sync_waiting_reader_holds_back_a_later_writer(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct sync_pair s;
	struct nvt_buf second;
	sync_open(&s, d);
	NVT_OK(nvt_buf_new(s.a.c, s.x.size, NVC_GART, 66, &second));
	NVT_OK(nvt_finish(&s.a.p));
	uint32_t fa = sync_long(&s, &s.seen, &s.x), fb, fa2;   /* x := seen, at the end */
	memcpy(s.xb.shadow, s.x.shadow, s.x.size);
	nvt_m2mf(&s.b.p, &s.xb, 0, 4096, &s.other, 0, 4096, 4096, (uint32_t)(s.x.size / 4096));
	NVT_OK(nvt_submit(&s.b.p, &fb));
	nvt_m2mf(&s.a.p, &second, 0, 4096, &s.x, 0, 4096, 4096, (uint32_t)(s.x.size / 4096));
	NVT_OK(nvt_submit(&s.a.p, &fa2));
	NVT_OK(nvt_wait(&s.a.p, fa2));
	NVT_OK(nvt_wait(&s.b.p, fb));
	if (nvc_fence_done(s.a.ch, fa) != 1)
		fail_msg("A's first submission is not done");
	assert_int_equal(nvt_buf_check(&s.other, "B's copy: A's first write, not its second"), 0);
	assert_int_equal(nvt_buf_check(&s.x, "the shared buffer after A's second write"), 0);
	nvt_buf_free(&second);
	sync_close(&s);
	nvt_end(d);
}

/* Readers on two channels do not wait for each other. */
static void test_sync_readers_on_two_channels_run_side_by_side(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct sync_pair s;
	sync_open(&s, d);
	uint32_t fa = sync_long(&s, &s.x, &s.seen), fb;
	nvt_m2mf(&s.b.p, &s.xb, 0, 4096, &s.other, 0, 4096, 4096, (uint32_t)(s.x.size / 4096));
	NVT_OK(nvt_submit(&s.b.p, &fb));
	NVT_OK(nvt_wait(&s.b.p, fb));
	if (nvc_fence_done(s.a.ch, fa))
		fail_msg("the long submission ended first: the reader was held back (%u reps)", s.reps);
	NVT_OK(nvt_wait(&s.a.p, fa));
	assert_int_equal(nvt_buf_check(&s.other, "B's copy"), 0);
	assert_int_equal(nvt_buf_check(&s.seen, "A's copy"), 0);
	sync_close(&s);
	nvt_end(d);
}

/* ---- accounting ---- */

static void client_row(struct nvc *c, unsigned id, struct nvc_client *out)
{
	unsigned count = 0;
	for (unsigned i = 0;; i++) {
		NVT_OK(nvc_client_at(c, i, out, &count));
		if (out->id == id)
			return;
		if (i + 1 >= count)
			fail_msg("no client %u", id);
	}
}

struct creator_arg {
	const char *sock;
	int chan;
};

/* Creates 1 MiB of VRAM and 256 KiB of GART, passes both fds, waits to be killed. */
static int creator_child(void *arg_)
{
	struct creator_arg *a = arg_;
	struct nvc *c;
	struct nvt_buf v, g;
	if (nvc_connect(a->sock, "creator", &c) < 0 || nvt_buf_new(c, MIB, NVC_VRAM, 51, &v) < 0 ||
	    nvt_buf_new(c, 256 << 10, NVC_GART, 52, &g) < 0)
		return 10;
	struct nvc_info info;
	nvc_info(c, &info);
	char id = (char)info.client_id;
	int fds[2] = { nvc_bo_fd(v.bo), nvc_bo_fd(g.bo) };
	if (nvd_sendmsg(a->chan, &id, 1, fds, 2) != 1)
		return 11;
	for (;;)
		pause();
}

static void test_creator_pays_and_sigkill_of_creator_leaves_buffers_to_importer(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client b;
	int sp[2];
	NVT_OK(nvt_client_open(&b, d->sock, "importer"));
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp), 0);
	struct creator_arg arg = { d->sock, sp[1] };
	pid_t pid = nvt_fork(creator_child, &arg);
	assert_true(pid > 0);
	close(sp[1]);
	char id;
	int fds[2];
	unsigned n = 0;
	assert_int_equal(nvd_recvmsg(sp[0], &id, 1, fds, 2, &n), 1);
	assert_int_equal(n, 2);
	close(sp[0]);
	struct nvc_bo *v, *g;
	NVT_OK(nvc_bo_import(b.c, fds[0], &v));
	NVT_OK(nvc_bo_import(b.c, fds[1], &g));
	close(fds[0]);
	close(fds[1]);
	struct nvc_info info;
	NVT_OK(nvc_info(b.c, &info));
	struct nvc_client row;
	client_row(b.c, (unsigned char)id, &row);
	assert_int_equal(row.vram, MIB);
	assert_int_equal(row.gart, 256 << 10);
	client_row(b.c, info.client_id, &row);
	assert_int_equal(row.bos, 3);   /* its push buffer and the two imports */
	assert_int_equal(row.vram, 0);
	/* the creator is killed: the buffers stay, paid for by nobody */
	kill(pid, SIGKILL);
	assert_int_equal(nvt_wait_child(pid, 5000), 128 + SIGKILL);
	struct nvc_status st;
	for (unsigned i = 0; i < 200; i++) {
		NVT_OK(nvc_status(b.c, &st));
		if (st.clients == 1)
			break;
		nvt_sleep_ms(10);
	}
	assert_int_equal(st.clients, 1);
	assert_int_equal(st.vram_client, MIB);
	assert_int_equal(st.bos, 3);
	client_row(b.c, info.client_id, &row);
	assert_int_equal(row.vram, 0);
	/* and still hold the creator's bytes, for the card too */
	struct nvt_buf vb, copy, want;
	NVT_OK(nvt_buf_wrap(v, &vb));
	NVT_OK(nvt_buf_new(b.c, MIB, NVC_GART, 51, &want));
	assert_memory_equal(vb.map, want.shadow, MIB);
	NVT_OK(nvt_buf_new(b.c, MIB, NVC_GART, 53, &copy));
	nvt_m2mf(&b.p, &vb, 0, 4096, &copy, 0, 4096, 4096, 256);
	NVT_OK(nvt_finish(&b.p));
	assert_int_equal(nvt_buf_check(&copy, "the orphan's bytes copied by card"), 0);
	nvt_buf_free(&vb);
	nvt_buf_free(&copy);
	nvt_buf_free(&want);
	NVT_OK(nvc_bo_free(g));
	nvt_client_close(&b);
	nvt_end(d);
}

/* The importer submits work on the shared buffer forever and is killed. */
static int importer_forever(void *arg_)
{
	struct creator_arg *a = arg_;
	struct nvt_client t;
	struct nvt_buf x, mine;
	struct nvc_bo *bo;
	int fd = recv_fd(a->chan);
	if (fd < 0 || nvt_client_open(&t, a->sock, "doomed") < 0 || nvc_bo_import(t.c, fd, &bo) < 0 ||
	    nvt_buf_wrap(bo, &x) < 0 || nvt_buf_new(t.c, x.size, NVC_VRAM, 61, &mine) < 0)
		return 10;
	for (unsigned i = 0;; i++) {
		copy_raw(&t.p, &x, &mine);
		copy_raw(&t.p, &mine, &x);   /* x keeps its bytes: mine is a copy of it */
		if (nvt_submit(&t.p, NULL) < 0)
			return 11;
		if (i == 3 && write(a->chan, "r", 1) != 1)
			return 12;
	}
}

static void test_sigkill_of_importer_mid_work_leaves_creator_intact(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client a;
	struct nvt_buf x, copy;
	int sp[2];
	char c;
	NVT_OK(nvt_client_open(&a, d->sock, "creator"));
	NVT_OK(nvt_buf_new(a.c, MIB, NVC_VRAM, 62, &x));
	struct nvc_info info;
	NVT_OK(nvc_info(a.c, &info));
	for (unsigned round = 0; round < 3; round++) {
		assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp), 0);
		struct creator_arg arg = { d->sock, sp[1] };
		pid_t pid = nvt_fork(importer_forever, &arg);
		assert_true(pid > 0);
		send_fd(sp[0], nvc_bo_fd(x.bo));
		assert_int_equal(read(sp[0], &c, 1), 1);   /* work in flight */
		nvt_sleep_ms(round * 5);
		kill(pid, SIGKILL);
		assert_int_equal(nvt_wait_child(pid, 5000), 128 + SIGKILL);
		close(sp[0]);
		close(sp[1]);
		struct nvc_status st;
		for (unsigned i = 0; i < 200; i++) {
			NVT_OK(nvc_status(a.c, &st));
			if (st.clients == 1 && !st.channels_used)
				break;
			nvt_sleep_ms(10);
		}
		assert_int_equal(st.clients, 1);
		assert_int_equal(st.bos, 2);       /* x and the push buffer */
		assert_int_equal(st.vram_client, MIB);
		struct nvc_client row;
		client_row(a.c, info.client_id, &row);
		assert_int_equal(row.vram, MIB);
		assert_int_equal(row.bos, 2);
	}
	NVT_OK(nvc_bo_wait(x.bo, NVC_WAIT_WRITE, -1));
	NVT_OK(nvt_buf_new(a.c, MIB, NVC_GART, 63, &copy));
	nvt_m2mf(&a.p, &x, 0, 4096, &copy, 0, 4096, 4096, 256);
	NVT_OK(nvt_finish(&a.p));
	assert_int_equal(nvt_buf_check(&copy, "the creator's buffer after the importer died"), 0);
	nvt_buf_free(&copy);
	nvt_buf_free(&x);
	nvt_client_close(&a);
	nvt_end(d);
}

/* Both exit without freeing: creator first, importer after. */
static void test_accounting_zero_after_both_exit_in_either_order(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	for (unsigned order = 0; order < 2; order++) {
		struct nvc *a, *b;
		struct nvc_bo *x, *y;
		NVT_OK(nvc_connect(d->sock, "a", &a));
		NVT_OK(nvc_connect(d->sock, "b", &b));
		NVT_OK(nvc_bo_new(a, MIB, NVC_VRAM, &x));
		NVT_OK(nvc_bo_import(b, nvc_bo_fd(x), &y));
		NVT_OK(nvc_set_master(a));
		uint32_t name, magic;
		NVT_OK(nvc_bo_flink(y, &name));
		NVT_OK(nvc_get_magic(b, &magic));
		NVT_OK(nvc_auth_magic(a, magic));
		struct nvc_bo *z;
		NVT_OK(nvc_bo_open(b, name, &z));
		assert_ptr_equal(z, y);
		nvc_close(order ? b : a);
		nvc_close(order ? a : b);
		assert_int_equal(nvt_leak_check(d->sock), 0);
	}
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_flink_auth_open_both_read_and_write_by_cpu_and_card),
		NVT_TEST(test_master_is_exclusive_and_released_on_drop_and_disconnect),
		NVT_TEST(test_export_fd_import_in_another_process_same_buffer),
		NVT_TEST(test_wait_nowait_busy_while_card_writes_then_wait_returns_when_done),
		NVT_TEST(test_wait_buffer_only_read_is_busy_only_with_write_flag),
		NVT_TEST(test_wait_timeout_passes_with_ebusy_then_daemon_serves_on),
		NVT_TEST(test_wait_sees_other_clients_submissions_on_a_shared_buffer),
		NVT_TEST(test_free_right_after_submit_still_runs_the_submission),
		NVT_TEST_ARGS(test_sync_reader_on_another_channel_waits_for_the_writer, timeslice4),
		NVT_TEST_ARGS(test_sync_writer_on_another_channel_waits_for_the_reader, timeslice4),
		NVT_TEST_ARGS(test_sync_waiting_reader_holds_back_a_later_writer, timeslice4),
		NVT_TEST_ARGS(test_sync_readers_on_two_channels_run_side_by_side, timeslice4),
		NVT_TEST(test_creator_pays_and_sigkill_of_creator_leaves_buffers_to_importer),
		NVT_TEST(test_sigkill_of_importer_mid_work_leaves_creator_intact),
		NVT_TEST(test_accounting_zero_after_both_exit_in_either_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
