/* libFuzzer target: the daemon's protocol decoder and request handlers.
 *
 * The real nvd (libnvdcore on the simulated card, fuzz-daemon.c) runs in
 * this process; each input is one client connection on its socket, so
 * every datagram goes through the daemon's own receive path (nvd_recvmsg,
 * the checks of length, fd count and HELLO against proto.h's table in
 * server.c, then the handler).  The target pumps the daemon's event loop
 * itself: no thread, no seam in server.c.
 *
 * An input is a list of records, each one datagram:
 *
 *   flags  u8   bit 0: raw type, bit 1: raw length, bit 2: raw fd count,
 *               bit 3: HELLO keeps the magic and version it is given
 *   type   u8   1 + b % (messages): a valid type; u32 with bit 0
 *   length      the message's size from the table; u16 % 600 with bit 1
 *   nfds        the message's fd count; u8 % 8 with bit 2
 *   kinds  u8 x nfds   what each fd is: one the daemon sent back (a
 *               buffer's memfd, a ring, an eventfd...), a foreign memfd,
 *               /dev/null, an eventfd, or the connection itself
 *   body   the rest of the datagram after the header (zeros past the input)
 *
 * so that mutations mostly keep the grammar and now and then break it.
 *
 * Oracles, besides the sanitizers: every request gets exactly one reply
 * that echoes its type and tag (0, 0 when the header could not be read),
 * with the table's reply size and fd count on success and an error
 * message otherwise; and once the connection is closed the daemon holds
 * nothing for it (fuzz_daemon_idle: clients, buffers, channels, names,
 * framebuffers, waits, fds). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "proto/proto.h"
#include "tests/fuzz/fuzz-daemon.h"

#define MAX_RECORDS  48
#define MAX_SEND_FDS 8
#define POOL         16
#define REPLY_TRIES  20000        /* pump turns, 50 us apart after the first few */

struct pool {
	int fd[POOL];
	unsigned n;
};

static void pool_add(struct pool *p, int fd)
{
	if (p->n < POOL)
		p->fd[p->n++] = fd;
	else
		close(fd);
}

static void pool_close(struct pool *p)
{
	for (unsigned i = 0; i < p->n; i++)
		close(p->fd[i]);
	p->n = 0;
}

/* An fd to send; *own says the target made it (and closes it once sent). */
static int send_fd(uint8_t kind, struct pool *p, int sock, int *own)
{
	*own = 1;
	switch (kind % 8) {
	case 4: {
		int fd = memfd_create("fuzz-foreign", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (fd >= 0 && ftruncate(fd, 4096 * (1 + (kind >> 3 & 3))) < 0) {
			close(fd);
			fd = -1;
		}
		return fd;
	}
	case 5: return open("/dev/null", O_RDWR | O_CLOEXEC);
	case 6: return eventfd(0, EFD_CLOEXEC);
	case 7: return dup(sock);
	}
	*own = 0;
	return p->n ? p->fd[(kind >> 3) % p->n] : -1;
}

/* nvd_sendmsg, but with up to MAX_SEND_FDS fds (it refuses more than the
 * daemon reads, which is what the daemon must cope with) and not waiting. */
static int send_datagram(int sock, const uint8_t *buf, size_t len, const int *fds, unsigned nfds)
{
	union { char b[CMSG_SPACE(sizeof(int) * MAX_SEND_FDS)]; struct cmsghdr align; } u;
	struct iovec iov = { (void *)buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (nfds) {
		memset(&u, 0, sizeof(u));
		m.msg_control = u.b;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	return sendmsg(sock, &m, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 ? -errno : 0;
}

/* The reply to a request: 1 when it came (and is well formed), 0 when the
 * daemon hung up before replying. */
static int await_reply(int sock, struct pool *p, const struct nvd_msg_hdr *want)
{
	union { uint8_t b[NVD_MSG_MAX + 64]; struct nvd_reply_hdr r; } in;
	int fds[NVD_MSG_MAX_FDS];
	unsigned nfds;

	for (unsigned i = 0; i < REPLY_TRIES; i++) {
		fuzz_daemon_pump();
		long n = nvd_recvmsg(sock, in.b, sizeof(in.b), fds, NVD_MSG_MAX_FDS, &nfds);
		if (n == -EAGAIN) {
			if (i > 4)
				usleep(50);
			continue;
		}
		if (n == 0 || n == -ECONNRESET)
			return 0;
		if (n < 0)
			fuzz_finding("reading a reply: %s", strerror((int)-n));
		for (unsigned k = 0; k < nfds; k++)
			pool_add(p, fds[k]);
		if ((size_t)n < sizeof(in.r))
			fuzz_finding("a %ld-byte reply", n);
		if (in.r.h.type != want->type || in.r.h.tag != want->tag)
			fuzz_finding("reply to type %u tag %u says type %u tag %u", want->type,
				     want->tag, in.r.h.type, in.r.h.tag);
		const struct nvd_msg_desc *d = nvd_msg_desc(want->type);
		if (in.r.error == 0) {
			if (!d || (uint32_t)n != d->rep_size || nfds != d->rep_fds)
				fuzz_finding("%s succeeded with %ld bytes and %u fds, expected %u and %u",
					     d ? d->name : "?", n, nfds, d ? d->rep_size : 0,
					     d ? d->rep_fds : 0);
		} else {
			const struct nvd_rep_error *e = (const void *)(in.b + sizeof(in.r));
			if (in.r.error > 0 || (size_t)n != sizeof(in.r) + sizeof(*e) || nfds ||
			    !memchr(e->msg, 0, sizeof(e->msg)))
				fuzz_finding("malformed error reply (error %d, %ld bytes, %u fds)",
					     in.r.error, n, nfds);
		}
		return 1;
	}
	fuzz_finding("no reply to type %u tag %u", want->type, want->tag);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_report_init();
	fuzz_daemon_start();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct pool pool = { .n = 0 };
	char why[256];

	fuzz_daemon_begin();
	int sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", fuzz_daemon_socket());
	if (sock < 0 || connect(sock, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		fuzz_finding("cannot connect to nvd: %s", strerror(errno));

	for (uint32_t tag = 1; tag <= MAX_RECORDS && in.n; tag++) {
		uint8_t flags = fuzz_u8(&in);
		uint32_t type = flags & 1 ? fuzz_u32(&in) : 1 + fuzz_u8(&in) % (NVD_MSG_COUNT - 1);
		const struct nvd_msg_desc *d = nvd_msg_desc(type);
		size_t len = flags & 2 ? fuzz_u16(&in) % 600u
				       : d ? d->req_size : sizeof(struct nvd_msg_hdr);
		unsigned nfds = flags & 4 ? fuzz_u8(&in) % MAX_SEND_FDS : d ? d->req_fds : 0;
		int fds[MAX_SEND_FDS], own[MAX_SEND_FDS];
		unsigned have = 0;
		for (unsigned i = 0; i < nfds; i++) {
			int fd = send_fd(fuzz_u8(&in), &pool, sock, &own[have]);
			if (fd >= 0)
				fds[have++] = fd;
		}
		uint8_t msg[600];
		struct nvd_msg_hdr h = { type, tag };
		memcpy(msg, &h, sizeof(h));
		for (size_t i = sizeof(h); i < len; i++)
			msg[i] = fuzz_u8(&in);
		if (type == NVD_MSG_HELLO && !(flags & 8) && len >= sizeof(h) + 8) {
			struct nvd_req_hello *rq = (void *)(msg + sizeof(h));
			rq->magic = NVD_PROTO_MAGIC;
			rq->version = NVD_PROTO_VERSION;
		}
		int e = send_datagram(sock, msg, len, fds, have);
		for (unsigned i = 0; i < have; i++)
			if (own[i])
				close(fds[i]);
		if (e == -EPIPE || e == -ECONNRESET)
			break;              /* the daemon hung up: a violation came before */
		if (e < 0)
			fuzz_finding("sending a request: %s", strerror(-e));
		/* The daemon reads what it can: the header of a short datagram, the
		 * first NVD_MSG_MAX + 1 bytes, NVD_MSG_MAX_FDS fds. */
		struct nvd_msg_hdr want = h;
		if (len < sizeof(h) || len > NVD_MSG_MAX + 1 || have > NVD_MSG_MAX_FDS)
			want = (struct nvd_msg_hdr){ 0, 0 };
		if (!await_reply(sock, &pool, &want))
			break;
	}
	close(sock);
	pool_close(&pool);
	if (fuzz_daemon_idle(why, sizeof(why)) < 0)
		fuzz_finding("after the client left: %s", why);
	return 0;
}
