/* Hostile datagrams on the control socket, written by hand with the
 * structures of proto/proto.h: truncated, oversized, unknown, out of order,
 * wrong version, carrying file descriptors, flooding; and well-formed
 * requests with hostile values.  A protocol violation gets an error reply
 * and the connection is closed; a bad request gets an error reply and the
 * connection stays.  The daemon closes every fd it was sent, stays up, and
 * the honest client's bytes are those it gets alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>

#include "nvd/nvd.h"               /* NVD_SW_HANDLE, NVD_VRAM_DMA_HANDLE */
#include "proto/proto.h"
#include "proto/ring.h"
#include "tests/lib/nvt-test.h"

/* A reply within 5 s: its length (0: the daemon hung up). */
static long raw_recv(int fd, void *buf, uint32_t len, int *fds, unsigned *nfds)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int dummy[NVD_MSG_MAX_FDS];
	unsigned n = 0;
	if (poll(&p, 1, 5000) != 1)
		fail_msg("no answer from nvd within 5 s");
	long r = nvd_recvmsg(fd, buf, len, fds ? fds : dummy, NVD_MSG_MAX_FDS, &n);
	if (!fds)
		for (unsigned i = 0; i < n; i++)
			close(dummy[i]);
	if (nfds)
		*nfds = n;
	return r;
}

static void raw_send(int fd, uint32_t type, uint32_t tag, const void *body, size_t len)
{
	uint8_t buf[2048];
	struct nvd_msg_hdr h = { type, tag };
	assert_true(sizeof(h) + len <= sizeof(buf));
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), body, len);
	assert_int_equal(nvd_sendmsg(fd, buf, (uint32_t)(sizeof(h) + len), NULL, 0),
			 (long)(sizeof(h) + len));
}

/* The error of the reply to the request (type, tag), its message in msg. */
static int32_t raw_reply(int fd, uint32_t type, uint32_t tag, void *body, size_t body_len,
			 char *msg)
{
	union { uint8_t b[NVD_MSG_MAX]; struct nvd_reply_hdr r; } in;
	int fds[NVD_MSG_MAX_FDS];
	unsigned nfds = 0;
	long n = raw_recv(fd, in.b, sizeof(in.b), fds, &nfds);
	for (unsigned i = 0; i < nfds; i++)
		close(fds[i]);
	if (n <= 0)
		fail_msg("nvd hung up instead of replying (%ld)", n);
	assert_true((size_t)n >= sizeof(in.r));
	if (type)
		assert_int_equal(in.r.h.type, type);
	assert_int_equal(in.r.h.tag, tag);
	if (msg) {
		msg[0] = 0;
		if (in.r.error && (size_t)n >= sizeof(in.r) + sizeof(struct nvd_rep_error)) {
			memcpy(msg, in.b + sizeof(in.r), sizeof(struct nvd_rep_error));
			msg[sizeof(struct nvd_rep_error) - 1] = 0;
		}
	}
	if (!in.r.error && body)
		memcpy(body, in.b + sizeof(in.r), body_len);
	return in.r.error;
}

static void raw_hello(int fd, uint32_t version)
{
	struct nvd_req_hello h = { NVD_PROTO_MAGIC, version, "raw" };
	raw_send(fd, NVD_MSG_HELLO, 1, &h, sizeof(h));
	assert_int_equal(raw_reply(fd, NVD_MSG_HELLO, 1, NULL, 0, NULL), 0);
}

/* After a violation: nothing more comes but the end of the connection. */
static void assert_hung_up(int fd)
{
	uint8_t b[NVD_MSG_MAX];
	long n = raw_recv(fd, b, sizeof(b), NULL, NULL);
	if (n != 0 && n != -ECONNRESET)
		fail_msg("nvd kept talking to a client that broke the protocol (%ld)", n);
	close(fd);
}

/* The connection still answers: a STATUS round trip. */
static void assert_still_served(int fd, uint32_t tag)
{
	struct nvd_req_none rq = { 0 };
	struct nvd_rep_status st;
	raw_send(fd, NVD_MSG_STATUS, tag, &rq, sizeof(rq));
	assert_int_equal(raw_reply(fd, NVD_MSG_STATUS, tag, &st, sizeof(st), NULL), 0);
	assert_true(st.clients >= 1);
}

/* An attack the daemon must answer with error `err` and then hang up. */
static void expect_violation(int fd, uint32_t type, uint32_t tag, int32_t err)
{
	char msg[160];
	int32_t e = raw_reply(fd, type, tag, NULL, 0, msg);
	if (e != err)
		fail_msg("reply error %d (%s), expected %d", e, msg, err);
	if (!msg[0])
		fail_msg("the refusal gives no reason");
	assert_hung_up(fd);
}

#define PROTO_ATTACK(name)                                                                \
	static void attack_##name(struct nvt_daemon *d, struct nvt_honest *h, void *arg); \
	static void test_##name(void **state)                                             \
	{                                                                                 \
		nvt_attack(nvt_d(state), attack_##name, NULL);                            \
	}                                                                                 \
	static void attack_##name(struct nvt_daemon *d, struct nvt_honest *h, void *arg)

#define UNUSED_ARGS (void)h; (void)arg

/* ---- malformed datagrams ---- */

PROTO_ATTACK(truncated_message)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	assert_int_equal(nvd_sendmsg(fd, "\x01\x00\x00", 3, NULL, 0), 3);
	expect_violation(fd, 0, 0, -EPROTO);
}

PROTO_ATTACK(truncated_request_body)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	struct nvd_req_hello hello = { NVD_PROTO_MAGIC, NVD_PROTO_VERSION, "short" };
	raw_send(fd, NVD_MSG_HELLO, 7, &hello, sizeof(hello) - 1);
	expect_violation(fd, NVD_MSG_HELLO, 7, -EPROTO);
}

PROTO_ATTACK(request_longer_than_its_type)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	uint8_t body[sizeof(struct nvd_req_none) + 8] = { 0 };
	raw_send(fd, NVD_MSG_STATUS, 8, body, sizeof(body));
	expect_violation(fd, NVD_MSG_STATUS, 8, -EPROTO);
}

PROTO_ATTACK(oversized_message)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	static uint8_t big[NVD_MSG_MAX * 4];
	struct nvd_msg_hdr hd = { NVD_MSG_STATUS, 9 };
	memcpy(big, &hd, sizeof(hd));
	assert_int_equal(nvd_sendmsg(fd, big, sizeof(big), NULL, 0), (long)sizeof(big));
	expect_violation(fd, 0, 0, -EPROTO);
}

PROTO_ATTACK(wrong_protocol_version)
{
	UNUSED_ARGS;
	char msg[160];
	int fd = nvt_raw_connect(d);
	struct nvd_req_hello hello = { NVD_PROTO_MAGIC, NVD_PROTO_VERSION + 1, "future" };
	raw_send(fd, NVD_MSG_HELLO, 3, &hello, sizeof(hello));
	int32_t e = raw_reply(fd, NVD_MSG_HELLO, 3, NULL, 0, msg);
	NVT_ERR(e, -EPROTONOSUPPORT);
	if (!strstr(msg, "version"))
		fail_msg("the refusal does not say it is about the version: \"%s\"", msg);
	assert_hung_up(fd);
}

PROTO_ATTACK(bad_magic)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	struct nvd_req_hello hello = { 0x12345678, NVD_PROTO_VERSION, "impostor" };
	raw_send(fd, NVD_MSG_HELLO, 4, &hello, sizeof(hello));
	expect_violation(fd, NVD_MSG_HELLO, 4, -EPROTO);
}

PROTO_ATTACK(unknown_message_type)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	uint32_t body[4] = { 0 };
	raw_send(fd, 0x7777, 5, body, sizeof(body));
	expect_violation(fd, 0x7777, 5, -EPROTO);
}

PROTO_ATTACK(message_type_zero)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	uint32_t body[1] = { 0 };
	raw_send(fd, NVD_MSG_NONE, 5, body, sizeof(body));
	expect_violation(fd, NVD_MSG_NONE, 5, -EPROTO);
}

PROTO_ATTACK(request_before_hello)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	struct nvd_req_bo_new rq = { 4096, NVD_DOMAIN_VRAM, 0 };
	raw_send(fd, NVD_MSG_BO_NEW, 6, &rq, sizeof(rq));
	expect_violation(fd, NVD_MSG_BO_NEW, 6, -EPROTO);
}

PROTO_ATTACK(second_hello)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	struct nvd_req_hello hello = { NVD_PROTO_MAGIC, NVD_PROTO_VERSION, "again" };
	raw_send(fd, NVD_MSG_HELLO, 2, &hello, sizeof(hello));
	expect_violation(fd, NVD_MSG_HELLO, 2, -EPROTO);
}

/* ---- file descriptors nobody asked for ---- */

/* Send a request with n fds (any number, by hand: nvd_sendmsg stops at 4). */
static void send_with_fds(int sock, uint32_t type, uint32_t tag, const void *body, size_t len,
			  unsigned n)
{
	uint8_t buf[NVD_MSG_MAX];
	int fds[64];
	union { char b[CMSG_SPACE(sizeof(int) * 64)]; struct cmsghdr align; } u;
	struct nvd_msg_hdr hd = { type, tag };
	memcpy(buf, &hd, sizeof(hd));
	memcpy(buf + sizeof(hd), body, len);
	assert_true(n <= 64);
	for (unsigned i = 0; i < n; i++) {
		fds[i] = memfd_create("nvt-garbage", MFD_CLOEXEC);
		assert_true(fds[i] >= 0);
	}
	struct iovec iov = { buf, sizeof(hd) + len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b,
			    .msg_controllen = CMSG_SPACE(sizeof(int) * n) };
	memset(&u, 0, sizeof(u));
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	assert_int_equal(sendmsg(sock, &m, MSG_NOSIGNAL), (ssize_t)(sizeof(hd) + len));
	for (unsigned i = 0; i < n; i++)
		close(fds[i]);
}

PROTO_ATTACK(garbage_fd_with_hello)
{
	UNUSED_ARGS;
	int base = nvt_daemon_fds_settled(d);
	int fd = nvt_raw_connect(d);
	struct nvd_req_hello hello = { NVD_PROTO_MAGIC, NVD_PROTO_VERSION, "fd-sender" };
	int sent = memfd_create("nvt-garbage", MFD_CLOEXEC);
	uint8_t buf[sizeof(struct nvd_msg_hdr) + sizeof(hello)];
	struct nvd_msg_hdr hd = { NVD_MSG_HELLO, 11 };
	memcpy(buf, &hd, sizeof(hd));
	memcpy(buf + sizeof(hd), &hello, sizeof(hello));
	assert_int_equal(nvd_sendmsg(fd, buf, sizeof(buf), &sent, 1), (long)sizeof(buf));
	close(sent);
	expect_violation(fd, NVD_MSG_HELLO, 11, -EPROTO);
	nvt_assert_daemon_fds(d, base);
}

PROTO_ATTACK(garbage_fds_with_a_request_after_hello)
{
	UNUSED_ARGS;
	int base = nvt_daemon_fds_settled(d);
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	struct nvd_req_none rq = { 0 };
	send_with_fds(fd, NVD_MSG_STATUS, 12, &rq, sizeof(rq), NVD_MSG_MAX_FDS);
	expect_violation(fd, NVD_MSG_STATUS, 12, -EPROTO);
	nvt_assert_daemon_fds(d, base);
}

PROTO_ATTACK(more_fds_than_a_message_may_carry)
{
	UNUSED_ARGS;
	int base = nvt_daemon_fds_settled(d);
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	struct nvd_req_none rq = { 0 };
	send_with_fds(fd, NVD_MSG_STATUS, 13, &rq, sizeof(rq), 60);
	expect_violation(fd, 0, 0, -EPROTO);
	nvt_assert_daemon_fds(d, base);
}

/* ---- well-formed requests with hostile values: refused, still served ---- */

static int32_t request(int fd, uint32_t type, uint32_t tag, const void *rq, size_t len, void *rep,
		       size_t replen)
{
	raw_send(fd, type, tag, rq, len);
	return raw_reply(fd, type, tag, rep, replen, NULL);
}

PROTO_ATTACK(bo_new_with_hostile_sizes_domains_and_flags)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	struct nvd_req_bo_new rq;
	rq = (struct nvd_req_bo_new){ ~0ull, NVD_DOMAIN_VRAM, 0 };
	NVT_ERR(request(fd, NVD_MSG_BO_NEW, 20, &rq, sizeof(rq), NULL, 0), -E2BIG);
	rq = (struct nvd_req_bo_new){ ~0ull - 4094, NVD_DOMAIN_GART, 0 };   /* rounds up past 2^64 */
	NVT_FAILS(request(fd, NVD_MSG_BO_NEW, 21, &rq, sizeof(rq), NULL, 0));
	rq = (struct nvd_req_bo_new){ 0, NVD_DOMAIN_VRAM, 0 };
	NVT_ERR(request(fd, NVD_MSG_BO_NEW, 22, &rq, sizeof(rq), NULL, 0), -EINVAL);
	rq = (struct nvd_req_bo_new){ 4096, 3, 0 };
	NVT_ERR(request(fd, NVD_MSG_BO_NEW, 23, &rq, sizeof(rq), NULL, 0), -EINVAL);
	rq = (struct nvd_req_bo_new){ 4096, NVD_DOMAIN_VRAM, 0x80 };
	NVT_ERR(request(fd, NVD_MSG_BO_NEW, 24, &rq, sizeof(rq), NULL, 0), -EINVAL);
	assert_still_served(fd, 25);
	close(fd);
}

PROTO_ATTACK(bo_free_of_handles_the_client_does_not_own)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	static const uint32_t handles[] = { 0, 1, 5, 0x7fffffff, 0xffffffff };
	for (unsigned i = 0; i < 5; i++) {
		struct nvd_req_bo_free rq = { handles[i] };
		NVT_ERR(request(fd, NVD_MSG_BO_FREE, 30 + i, &rq, sizeof(rq), NULL, 0), -ENOENT);
	}
	assert_still_served(fd, 39);
	close(fd);
}

PROTO_ATTACK(channel_requests_on_channels_the_client_does_not_have)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	static const uint32_t chans[] = { 0, 31, 32, 0xffffffff };
	for (unsigned i = 0; i < 4; i++) {
		struct nvd_req_chan_free cf = { chans[i] };
		NVT_ERR(request(fd, NVD_MSG_CHAN_FREE, 40, &cf, sizeof(cf), NULL, 0), -ENOENT);
		struct nvd_req_obj_new on = { chans[i], 0x1234, NV_CLASS_M2MF };
		NVT_ERR(request(fd, NVD_MSG_OBJ_NEW, 41, &on, sizeof(on), NULL, 0), -ENOENT);
		struct nvd_req_obj_free of = { chans[i], 0x1234 };
		NVT_ERR(request(fd, NVD_MSG_OBJ_FREE, 42, &of, sizeof(of), NULL, 0), -ENOENT);
		struct nvd_req_dma_new dn = { .chan = chans[i], .handle = 1, .bo = 1, .cls = 0x3d,
					      .size = 4096 };
		NVT_ERR(request(fd, NVD_MSG_DMA_NEW, 43, &dn, sizeof(dn), NULL, 0), -ENOENT);
	}
	struct nvd_req_chan_new cn = { 1 };
	NVT_ERR(request(fd, NVD_MSG_CHAN_NEW, 44, &cn, sizeof(cn), NULL, 0), -EINVAL);
	struct nvd_req_client_at ca = { 1000 };
	NVT_ERR(request(fd, NVD_MSG_CLIENT_AT, 45, &ca, sizeof(ca), NULL, 0), -ENOENT);
	assert_still_served(fd, 46);
	close(fd);
}

PROTO_ATTACK(object_requests_with_hostile_classes_and_handles)
{
	UNUSED_ARGS;
	struct nvc *c;
	struct nvc_chan *ch;
	struct nvc_bo *bo;
	NVT_OK(nvc_connect(d->sock, "attacker", &c));
	NVT_OK(nvc_chan_new(c, &ch));
	NVT_OK(nvc_bo_new(c, 8192, NVC_GART, &bo));
	NVT_ERR(nvc_obj_new(ch, 0x100, 0x1234), -EINVAL);                 /* no such class */
	NVT_ERR(nvc_obj_new(ch, 0x101, NV_CLASS_NVSW), -EINVAL);          /* the daemon's */
	NVT_ERR(nvc_obj_new(ch, 0x102, NV_CLASS_DMA_IN_MEMORY), -EINVAL); /* ctxdmas: DMA_NEW */
	NVT_ERR(nvc_obj_new(ch, 0x103, NV_CLASS_CURIE_NV44), -EINVAL);    /* not this chip's 3D */
	NVT_ERR(nvc_obj_new(ch, NVD_SW_HANDLE, NV_CLASS_M2MF), -EEXIST);   /* reserved */
	assert_non_null(strstr(nvc_error(), "reserved by nvd"));
	NVT_ERR(nvc_obj_new(ch, NVC_HANDLE_NVD_LAST, NV_CLASS_M2MF), -EEXIST);
	assert_non_null(strstr(nvc_error(), "reserved by nvd"));
	NVT_ERR(nvc_obj_new(ch, NVD_VRAM_DMA_HANDLE, NV_CLASS_M2MF), -EEXIST);
	NVT_OK(nvc_obj_new(ch, 0x104, NV_CLASS_M2MF));
	NVT_ERR(nvc_obj_new(ch, 0x104, NV_CLASS_GDI), -EEXIST);
	NVT_ERR(nvc_obj_free(ch, 0x999), -ENOENT);
	NVT_ERR(nvc_obj_free(ch, NVD_SW_HANDLE), -ENOENT);   /* not the client's to free */
	/* ctxdmas: ranges that wrap or pass the buffer, bad classes and access */
	NVT_ERR(nvc_dma_new(ch, 0x200, bo, ~0ull - 4095, 8192, NV_CLASS_DMA_IN_MEMORY, 0), -EINVAL);
	NVT_ERR(nvc_dma_new(ch, 0x201, bo, 4096, 8192, NV_CLASS_DMA_IN_MEMORY, 0), -EINVAL);
	NVT_ERR(nvc_dma_new(ch, 0x202, bo, 0, 0, NV_CLASS_DMA_IN_MEMORY, 0), -EINVAL);
	NVT_ERR(nvc_dma_new(ch, 0x203, bo, 0, 4096, NV_CLASS_M2MF, 0), -EINVAL);
	NVT_ERR(nvc_dma_new(ch, 0x204, bo, 0, 4096, NV_CLASS_DMA_IN_MEMORY, 3), -EINVAL);
	NVT_ERR(nvc_dma_new(ch, NVD_GART_DMA_HANDLE, bo, 0, 4096, NV_CLASS_DMA_IN_MEMORY, 0),
		-EEXIST);
	/* many objects: the channel's limit answers, nothing breaks */
	int r = 0;
	for (uint32_t i = 0; i < 2000 && r == 0; i++)
		r = nvc_obj_new(ch, 0x10000 + i, NV_CLASS_BETA1);
	NVT_FAILS(r);
	nvc_close(c);
}

PROTO_ATTACK(dma_new_with_a_nonzero_pad_field)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	struct nvd_req_bo_new bn = { 4096, NVD_DOMAIN_VRAM, 0 };
	struct nvd_rep_bo_new bo;
	int fds[NVD_MSG_MAX_FDS];
	unsigned nfds;
	raw_send(fd, NVD_MSG_BO_NEW, 50, &bn, sizeof(bn));
	union { uint8_t b[NVD_MSG_MAX]; struct nvd_reply_hdr r; } in;
	assert_true(raw_recv(fd, in.b, sizeof(in.b), fds, &nfds) > 0);
	assert_int_equal(in.r.error, 0);
	assert_int_equal(nfds, 1);
	close(fds[0]);
	memcpy(&bo, in.b + sizeof(in.r), sizeof(bo));
	struct nvd_req_chan_new cn = { 0 };
	raw_send(fd, NVD_MSG_CHAN_NEW, 51, &cn, sizeof(cn));
	struct nvd_rep_chan_new ch;
	assert_true(raw_recv(fd, in.b, sizeof(in.b), fds, &nfds) > 0);
	assert_int_equal(in.r.error, 0);
	for (unsigned i = 0; i < nfds; i++)
		close(fds[i]);
	memcpy(&ch, in.b + sizeof(in.r), sizeof(ch));
	struct nvd_req_dma_new dn = { .chan = ch.chan, .handle = 0x300, .bo = bo.handle,
				      .cls = NV_CLASS_DMA_IN_MEMORY, ._pad = 1, .size = 4096 };
	NVT_ERR(request(fd, NVD_MSG_DMA_NEW, 52, &dn, sizeof(dn), NULL, 0), -EINVAL);
	dn.bo = bo.handle + 1000;
	dn._pad = 0;
	NVT_ERR(request(fd, NVD_MSG_DMA_NEW, 53, &dn, sizeof(dn), NULL, 0), -ENOENT);
	assert_still_served(fd, 54);
	close(fd);
}

/* ---- floods ---- */

PROTO_ATTACK(requests_flood_without_reading_replies)
{
	UNUSED_ARGS;
	int fd = nvt_raw_connect(d);
	raw_hello(fd, NVD_PROTO_VERSION);
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	struct nvd_req_none rq = { 0 };
	uint8_t buf[sizeof(struct nvd_msg_hdr) + sizeof(rq)];
	struct nvd_msg_hdr hd = { NVD_MSG_STATUS, 0 };
	memcpy(buf, &hd, sizeof(hd));
	memcpy(buf + sizeof(hd), &rq, sizeof(rq));
	unsigned sent = 0;
	for (unsigned i = 0; i < 50000; i++) {
		long n = nvd_sendmsg(fd, buf, sizeof(buf), NULL, 0);
		if (n == -EAGAIN) {
			struct timespec t = { 0, 1000 * 1000 };
			nanosleep(&t, NULL);
			continue;
		}
		if (n < 0)
			break;
		sent++;
	}
	assert_true(sent > 1000);
	/* the daemon must still serve everyone else meanwhile */
	struct nvc *c;
	struct nvc_status st;
	NVT_OK(nvc_connect(d->sock, "bystander", &c));
	NVT_OK(nvc_status(c, &st));
	nvc_close(c);
	close(fd);
}

PROTO_ATTACK(many_connections_that_never_say_hello)
{
	UNUSED_ARGS;
	int base = nvt_daemon_fds_settled(d);
	int fds[300];
	for (unsigned i = 0; i < 300; i++)
		fds[i] = nvt_raw_connect(d);
	struct nvc *c;
	struct nvc_status st;
	NVT_OK(nvc_connect(d->sock, "bystander", &c));
	NVT_OK(nvc_status(c, &st));
	nvc_close(c);
	for (unsigned i = 0; i < 300; i++)
		close(fds[i]);
	nvt_assert_daemon_fds(d, base);
}

static const char *const small_quota[] = { "--quota", "8", "--max-bos", "100", NULL };

/* With --quota 8 --max-bos 100: the attacker is stopped at its limits, the
 * honest client (which needs well under 8 MiB) is not. */
PROTO_ATTACK(exhaust_the_buffer_quota)
{
	UNUSED_ARGS;
	struct nvc *c;
	struct nvc_bo *bo;
	NVT_OK(nvc_connect(d->sock, "hog", &c));
	NVT_ERR(nvc_bo_new(c, 9 << 20, NVC_VRAM, &bo), -EDQUOT);
	NVT_OK(nvc_bo_new(c, 6 << 20, NVC_GART, &bo));
	NVT_ERR(nvc_bo_new(c, 3 << 20, NVC_VRAM, &bo), -EDQUOT);
	int r = 0;
	unsigned n = 0;
	while (r == 0 && n < 1000) {
		r = nvc_bo_new(c, 4096, NVC_VRAM, &bo);
		n += r == 0;
	}
	NVT_FAILS(r);
	assert_true(n < 100);
	nvc_close(c);
}

#define T(name) NVT_TEST(test_##name)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(truncated_message),
		T(truncated_request_body),
		T(request_longer_than_its_type),
		T(oversized_message),
		T(wrong_protocol_version),
		T(bad_magic),
		T(unknown_message_type),
		T(message_type_zero),
		T(request_before_hello),
		T(second_hello),
		T(garbage_fd_with_hello),
		T(garbage_fds_with_a_request_after_hello),
		T(more_fds_than_a_message_may_carry),
		T(bo_new_with_hostile_sizes_domains_and_flags),
		T(bo_free_of_handles_the_client_does_not_own),
		T(channel_requests_on_channels_the_client_does_not_have),
		T(object_requests_with_hostile_classes_and_handles),
		T(dma_new_with_a_nonzero_pad_field),
		T(requests_flood_without_reading_replies),
		T(many_connections_that_never_say_hello),
		NVT_TEST_ARGS(test_exhaust_the_buffer_quota, small_quota),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
