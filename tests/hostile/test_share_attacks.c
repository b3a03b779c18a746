/* Attacks on buffer sharing: opening names without authentication,
 * guessing names, authenticating without being the master, importing fds
 * that are no nvd buffer, IMPORT with the wrong number of fds, waiting on
 * buffers not held, flooding the daemon with parked waits and leaving with
 * them.  Each attack runs beside an honest client, whose results must be
 * exactly those it has alone; nothing may leak. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>

#include "proto/proto.h"
#include "tests/lib/nvt-test.h"

/* ---- the raw protocol ---- */

static void raw_send(int fd, uint32_t type, uint32_t tag, const void *body, size_t len,
		     const int *fds, unsigned nfds)
{
	uint8_t buf[NVD_MSG_MAX];
	struct nvd_msg_hdr h = { type, tag };
	assert_true(sizeof(h) + len <= sizeof(buf));
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), body, len);
	assert_int_equal(nvd_sendmsg(fd, buf, (uint32_t)(sizeof(h) + len), fds, nfds),
			 (long)(sizeof(h) + len));
}

/* The next reply (5 s at most): its error; *tag its tag; 0 length: -ENOTCONN. */
static int32_t raw_next(int fd, uint32_t *tag, int timeout_ms)
{
	union { uint8_t b[NVD_MSG_MAX]; struct nvd_reply_hdr r; } in;
	int fds[NVD_MSG_MAX_FDS];
	unsigned nfds = 0;
	struct pollfd p = { fd, POLLIN, 0 };
	if (poll(&p, 1, timeout_ms) != 1)
		fail_msg("no answer from nvd within %d ms", timeout_ms);
	long n = nvd_recvmsg(fd, in.b, sizeof(in.b), fds, NVD_MSG_MAX_FDS, &nfds);
	for (unsigned i = 0; i < nfds; i++)
		close(fds[i]);
	if (n == 0 || n == -ECONNRESET)
		return -ENOTCONN;
	assert_true(n >= (long)sizeof(in.r));
	if (tag)
		*tag = in.r.h.tag;
	return in.r.error;
}

static int32_t raw_call(int fd, uint32_t type, uint32_t tag, const void *body, size_t len)
{
	uint32_t got = 0;
	raw_send(fd, type, tag, body, len, NULL, 0);
	int32_t e = raw_next(fd, &got, 5000);
	assert_int_equal(got, tag);
	return e;
}

static int raw_client(struct nvt_daemon *d)
{
	int fd = nvt_raw_connect(d);
	struct nvd_req_hello h = { NVD_PROTO_MAGIC, NVD_PROTO_VERSION, "raw-attacker" };
	assert_int_equal(raw_call(fd, NVD_MSG_HELLO, 1, &h, sizeof(h)), 0);
	return fd;
}

/* Import fd on the raw connection: the handle, or the error. */
static int raw_import(int sock, int fd, uint32_t tag)
{
	union { uint8_t b[NVD_MSG_MAX]; struct nvd_reply_hdr r; } in;
	struct nvd_req_bo_import rq = { 0 };
	int fds[NVD_MSG_MAX_FDS];
	unsigned nfds = 0;
	raw_send(sock, NVD_MSG_BO_IMPORT, tag, &rq, sizeof(rq), &fd, 1);
	long n = nvd_recvmsg(sock, in.b, sizeof(in.b), fds, NVD_MSG_MAX_FDS, &nfds);
	for (unsigned i = 0; i < nfds; i++)
		close(fds[i]);
	assert_true(n >= (long)sizeof(in.r));
	assert_int_equal(in.r.h.tag, tag);
	if (in.r.error)
		return in.r.error;
	struct nvd_rep_bo_new rep;
	memcpy(&rep, in.b + sizeof(in.r), sizeof(rep));
	return (int)rep.handle;
}

/* ---- a buffer kept busy by a long copy ---- */

struct busy {
	struct nvt_client t;
	struct nvt_buf src, dst;
	uint32_t fence;
};

static uint32_t copies(struct busy *b, unsigned n)
{
	uint32_t f = 0;
	for (unsigned i = 0; i < n; i++)
		nvt_m2mf_cmd(&b->t.p, &b->src, 0, 4096, &b->dst, 0, 4096, 4096,
			     (uint32_t)(b->src.size / 4096));
	NVT_OK(nvt_submit(&b->t.p, &f));
	return f;
}

/* Start copies that keep dst busy for about ms milliseconds. */
static void busy_start(struct busy *b, struct nvt_daemon *d, unsigned ms)
{
	NVT_OK(nvt_client_open(&b->t, d->sock, "busy"));
	NVT_OK(nvt_buf_new(b->t.c, 4u << 20, NVC_VRAM, 1, &b->src));
	NVT_OK(nvt_buf_new(b->t.c, 4u << 20, NVC_VRAM, 2, &b->dst));
	unsigned n = 8;
	int64_t t;
	for (;;) {
		int64_t t0 = nvt_now_ns();
		NVT_OK(nvt_wait(&b->t.p, copies(b, n)));
		t = nvt_now_ns() - t0;
		if (t >= 50000000 || n * 4 > 10000)
			break;
		n *= 4;
	}
	uint64_t per_ms = (uint64_t)n * 1000000 / (uint64_t)(t > 0 ? t : 1) + 1;
	uint64_t reps = per_ms * ms, most = per_ms * 250;
	if (reps > 100000)
		reps = 100000;
	if (most > 10000)
		most = 10000;
	/* submissions of about 250 ms (at most 120000 words) each, well
	 * inside --gpu-timeout */
	do {
		unsigned k = reps > most ? (unsigned)most : reps < 8 ? 8 : (unsigned)reps;
		b->fence = copies(b, k);
		reps -= reps > k ? k : reps;
	} while (reps);
}

static void busy_end(struct busy *b)
{
	NVT_OK(nvt_wait(&b->t.p, b->fence));
	nvt_buf_free(&b->src);
	nvt_buf_free(&b->dst);
	nvt_client_close(&b->t);
}

/* ---- names and authentication ---- */

static void attack_open_real_name_unauthenticated(struct nvt_daemon *d, struct nvt_honest *h,
						  void *arg)
{
	(void)h;
	(void)arg;
	struct nvc *owner, *thief, *master;
	struct nvc_bo *bo, *got;
	uint32_t name;
	NVT_OK(nvc_connect(d->sock, "owner", &owner));
	NVT_OK(nvc_connect(d->sock, "thief", &thief));
	NVT_OK(nvc_bo_new(owner, 65536, NVC_GART, &bo));
	NVT_OK(nvc_bo_flink(bo, &name));
	NVT_ERR(nvc_bo_open(thief, name, &got), -EACCES);
	/* the same answer for a name that does not exist: existence does not leak */
	NVT_ERR(nvc_bo_open(thief, name ^ 0x80000000u, &got), -EACCES);
	/* with a master present that did not authenticate it: still refused */
	NVT_OK(nvc_connect(d->sock, "master", &master));
	NVT_OK(nvc_set_master(master));
	NVT_ERR(nvc_bo_open(thief, name, &got), -EACCES);
	/* the thief takes the master role once it is free (the daemon may see
	 * the request before the old master's hang-up): then it may */
	nvc_close(master);
	int r = -EBUSY;
	for (unsigned i = 0; i < 200 && r == -EBUSY; i++) {
		if ((r = nvc_set_master(thief)) == -EBUSY)
			nvt_sleep_ms(10);
	}
	NVT_OK(r);
	NVT_OK(nvc_bo_open(thief, name, &got));
	nvc_close(thief);
	nvc_close(owner);
}

static void test_unauthenticated_open_of_real_name_is_eacces(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_open_real_name_unauthenticated, NULL, 1);
}

static void attack_forged_names(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct nvc *owner, *guesser;
	struct nvc_bo *bo, *got;
	uint32_t name, magic;
	NVT_OK(nvc_connect(d->sock, "owner", &owner));
	NVT_OK(nvc_connect(d->sock, "guesser", &guesser));
	NVT_OK(nvc_set_master(owner));
	NVT_OK(nvc_get_magic(guesser, &magic));
	NVT_OK(nvc_auth_magic(owner, magic));
	NVT_OK(nvc_bo_new(owner, 65536, NVC_GART, &bo));
	NVT_OK(nvc_bo_flink(bo, &name));
	for (uint32_t n = 0; n <= 1000; n++)
		if (n != name)
			NVT_ERR(nvc_bo_open(guesser, n, &got), -ENOENT);
	for (unsigned i = 0; i < 1000; i++) {
		uint32_t n;
		assert_int_equal(getrandom(&n, sizeof(n), 0), (ssize_t)sizeof(n));
		if (n != name)
			NVT_ERR(nvc_bo_open(guesser, n, &got), -ENOENT);
	}
	struct nvc_status st;
	NVT_OK(nvc_status(guesser, &st));
	NVT_OK(nvc_bo_open(guesser, name, &got));   /* the real one still opens */
	nvc_close(guesser);
	nvc_close(owner);
}

static void test_forged_names_fail_even_for_authenticated_client(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_forged_names, NULL, 1);
}

static void attack_auth_by_non_master(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct nvc *owner, *accomplice, *thief, *master;
	struct nvc_bo *bo, *got;
	uint32_t name, magic;
	NVT_OK(nvc_connect(d->sock, "owner", &owner));
	NVT_OK(nvc_connect(d->sock, "accomplice", &accomplice));
	NVT_OK(nvc_connect(d->sock, "thief", &thief));
	NVT_OK(nvc_bo_new(owner, 65536, NVC_VRAM, &bo));
	NVT_OK(nvc_bo_flink(bo, &name));
	NVT_OK(nvc_get_magic(thief, &magic));
	NVT_ERR(nvc_auth_magic(accomplice, magic), -EACCES);   /* no master at all */
	NVT_ERR(nvc_auth_magic(thief, magic), -EACCES);        /* itself */
	NVT_OK(nvc_connect(d->sock, "master", &master));
	NVT_OK(nvc_set_master(master));
	NVT_ERR(nvc_set_master(accomplice), -EBUSY);
	NVT_ERR(nvc_auth_magic(accomplice, magic), -EACCES);
	NVT_FAILS(nvc_drop_master(accomplice));
	NVT_ERR(nvc_bo_open(thief, name, &got), -EACCES);
	NVT_OK(nvc_set_master(master));   /* the master is still the master */
	nvc_close(master);
	nvc_close(thief);
	nvc_close(accomplice);
	nvc_close(owner);
}

static void test_auth_magic_by_non_master_is_eacces(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_auth_by_non_master, NULL, 1);
}

/* ---- import ---- */

static void attack_import_foreign_fds(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct nvc *c;
	struct nvc_bo *real, *got;
	NVT_OK(nvc_connect(d->sock, "importer", &c));
	NVT_OK(nvc_bo_new(c, 65536, NVC_GART, &real));
	int p[2];
	assert_int_equal(pipe(p), 0);
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	int own = memfd_create("not-nvd", MFD_CLOEXEC);
	int same = memfd_create("nvd-bo", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	int dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(devnull >= 0 && own >= 0 && same >= 0 && dir >= 0 && sock >= 0);
	assert_int_equal(ftruncate(same, (off_t)nvc_bo_size(real)), 0);
	/* a copy of the real buffer's bytes in a memfd of the same size is not it */
	void *m = nvc_bo_map(real);
	assert_non_null(m);
	assert_int_equal(write(same, m, nvc_bo_size(real)), (ssize_t)nvc_bo_size(real));
	int fds[] = { p[0], p[1], devnull, own, same, dir, sock };
	for (unsigned i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		NVT_ERR(nvc_bo_import(c, fds[i], &got), -EINVAL);
	/* closed and garbage descriptors never reach the daemon */
	NVT_ERR(nvc_bo_import(c, 1000000, &got), -EINVAL);
	NVT_ERR(nvc_bo_import(c, -1, &got), -EINVAL);
	for (unsigned i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		close(fds[i]);
	NVT_OK(nvc_bo_import(c, nvc_bo_fd(real), &got));
	assert_ptr_equal(got, real);
	nvc_close(c);
}

static void test_import_of_non_nvd_fds_is_einval_and_keeps_nothing(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_import_foreign_fds, NULL, 1);
}

static void attack_import_fd_counts(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct nvc *c;
	struct nvc_bo *bo;
	NVT_OK(nvc_connect(d->sock, "owner", &c));
	NVT_OK(nvc_bo_new(c, 65536, NVC_GART, &bo));
	struct nvd_req_bo_import rq = { 0 };
	int two[2] = { nvc_bo_fd(bo), nvc_bo_fd(bo) };
	for (unsigned nfds = 0; nfds <= 2; nfds += 2) {
		int fd = raw_client(d);
		raw_send(fd, NVD_MSG_BO_IMPORT, 7, &rq, sizeof(rq), two, nfds);
		uint32_t tag = 0;
		assert_int_equal(raw_next(fd, &tag, 5000), -EPROTO);
		assert_int_equal(tag, 7);
		assert_int_equal(raw_next(fd, NULL, 5000), -ENOTCONN);   /* dropped */
		close(fd);
	}
	/* an fd on another message is a violation too */
	int fd = raw_client(d);
	struct nvd_req_bo_wait w = { 1, 0, 0 };
	raw_send(fd, NVD_MSG_BO_WAIT, 8, &w, sizeof(w), two, 1);
	assert_int_equal(raw_next(fd, NULL, 5000), -EPROTO);
	assert_int_equal(raw_next(fd, NULL, 5000), -ENOTCONN);
	close(fd);
	nvc_close(c);
}

static void test_import_with_zero_or_two_fds_is_dropped_as_protocol_violation(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_import_fd_counts, NULL, 1);
}

/* ---- waits ---- */

static void attack_wait_not_held(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct nvc *owner;
	struct nvc_bo *bo;
	NVT_OK(nvc_connect(d->sock, "owner", &owner));
	NVT_OK(nvc_bo_new(owner, 65536, NVC_GART, &bo));
	int fd = raw_client(d);
	uint32_t tag = 10;
	uint32_t handles[] = { 0, 1, 2, nvc_bo_handle(bo), 64, 65, 1000, 0x7fffffff, 0xffffffffu };
	for (unsigned i = 0; i < sizeof(handles) / sizeof(handles[0]); i++) {
		struct nvd_req_bo_wait w = { handles[i], NVD_WAIT_WRITE, -1 };
		assert_int_equal(raw_call(fd, NVD_MSG_BO_WAIT, tag++, &w, sizeof(w)), -ENOENT);
	}
	/* held, but unknown flags */
	int hnd = raw_import(fd, nvc_bo_fd(bo), tag++);
	assert_true(hnd > 0);
	struct nvd_req_bo_wait w = { (uint32_t)hnd, 0x10, 0 };
	assert_int_equal(raw_call(fd, NVD_MSG_BO_WAIT, tag++, &w, sizeof(w)), -EINVAL);
	w.flags = 0;
	assert_int_equal(raw_call(fd, NVD_MSG_BO_WAIT, tag++, &w, sizeof(w)), 0);
	close(fd);
	nvc_close(owner);
}

static void test_wait_on_handle_not_held_is_enoent(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_wait_not_held, NULL, 1);
}

/* 1000 waits on a busy buffer from one connection: the first NVD_CLIENT_WAITS
 * (64) park, every other is refused at once with -EBUSY (never -EAGAIN),
 * and the parked ones are answered, each once, with its tag, when the
 * buffer is idle. */
static void attack_many_waits(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct busy b;
	busy_start(&b, d, 3000);
	int fd = raw_client(d);
	int hnd = raw_import(fd, nvc_bo_fd(b.dst.bo), 2);
	assert_true(hnd > 0);
	static uint8_t answered[1000];
	memset(answered, 0, sizeof(answered));
	unsigned parked = 0, refused = 0;
	for (uint32_t i = 0; i < 1000; i++) {
		struct nvd_req_bo_wait w = { (uint32_t)hnd, NVD_WAIT_WRITE, -1 };
		raw_send(fd, NVD_MSG_BO_WAIT, 100 + i, &w, sizeof(w), NULL, 0);
		if (i < 64) {
			parked++;
			continue;
		}
		uint32_t tag = 0;
		int32_t e = raw_next(fd, &tag, 5000);
		if (e != -EBUSY || tag != 100 + i)
			fail_msg("wait %u: error %d tag %u, expected -EBUSY at once (%u parked)", i, e,
				 tag, parked);
		answered[i] = 1;
		refused++;
	}
	if (nvc_fence_done(b.t.ch, b.fence))
		fail_msg("the buffer became idle before the waits were all sent");
	for (unsigned k = 0; k < parked; k++) {
		uint32_t tag = 0;
		int32_t e = raw_next(fd, &tag, 30000);
		assert_int_equal(e, 0);
		assert_true(tag >= 100 && tag < 164);
		if (answered[tag - 100]++)
			fail_msg("wait with tag %u answered twice", tag);
	}
	assert_int_equal(refused, 936);
	assert_int_equal(nvc_fence_done(b.t.ch, b.fence), 1);
	/* and nothing more comes: a STATUS is answered next */
	struct nvd_req_none none = { 0 };
	assert_int_equal(raw_call(fd, NVD_MSG_STATUS, 5000, &none, sizeof(none)), 0);
	close(fd);
	busy_end(&b);
}

static void test_thousand_parked_waits_are_bounded(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_many_waits, NULL, 1);
}

/* Connections that leave with parked waits: nothing stays behind, and the
 * owner of the buffer still waits and frees normally. */
static void attack_leave_with_waits(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct busy b;
	busy_start(&b, d, 1500);
	for (unsigned round = 0; round < 4; round++) {
		int fd = raw_client(d);
		int hnd = raw_import(fd, nvc_bo_fd(b.dst.bo), 2);
		assert_true(hnd > 0);
		for (uint32_t i = 0; i < 64; i++) {
			struct nvd_req_bo_wait w = { (uint32_t)hnd, i & 1 ? NVD_WAIT_WRITE : 0, -1 };
			raw_send(fd, NVD_MSG_BO_WAIT, 10 + i, &w, sizeof(w), NULL, 0);
		}
		if (round & 1) {
			/* free the handle under the parked waits, then go */
			struct nvd_req_bo_free f = { (uint32_t)hnd };
			uint32_t tag = 0;
			raw_send(fd, NVD_MSG_BO_FREE, 99, &f, sizeof(f), NULL, 0);
			assert_int_equal(raw_next(fd, &tag, 5000), 0);
			assert_int_equal(tag, 99);
		}
		close(fd);
	}
	if (nvc_fence_done(b.t.ch, b.fence))
		fail_msg("the buffer became idle before the waiters left");
	NVT_OK(nvc_bo_wait(b.dst.bo, NVC_WAIT_WRITE, -1));
	assert_int_equal(nvc_fence_done(b.t.ch, b.fence), 1);
	busy_end(&b);
}

static void test_disconnect_with_parked_waits_leaks_nothing(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_leave_with_waits, NULL, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_unauthenticated_open_of_real_name_is_eacces),
		NVT_TEST(test_forged_names_fail_even_for_authenticated_client),
		NVT_TEST(test_auth_magic_by_non_master_is_eacces),
		NVT_TEST(test_import_of_non_nvd_fds_is_einval_and_keeps_nothing),
		NVT_TEST(test_import_with_zero_or_two_fds_is_dropped_as_protocol_violation),
		NVT_TEST(test_wait_on_handle_not_held_is_enoent),
		NVT_TEST(test_thousand_parked_waits_are_bounded),
		NVT_TEST(test_disconnect_with_parked_waits_leaks_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
