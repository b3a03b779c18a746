/* Marshalling helpers shared by the daemon and libnvd. */
#include "proto/proto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const struct nvd_msg_desc nvd_msgs[NVD_MSG_COUNT] = {
#define NVD_MSG_ROW_(nm, id, rq, rp, qfd, pfd) \
	[id] = { #nm, sizeof(struct nvd_msg_hdr) + sizeof(struct rq), \
		 sizeof(struct nvd_reply_hdr) + sizeof(struct rp), qfd, pfd },
	NVD_MESSAGES(NVD_MSG_ROW_)
#undef NVD_MSG_ROW_
};

#define NVD_MSG_SIZE_CHECK_(nm, id, rq, rp, qfd, pfd) \
	_Static_assert(sizeof(struct nvd_msg_hdr) + sizeof(struct rq) <= NVD_MSG_MAX && \
		       sizeof(struct nvd_reply_hdr) + sizeof(struct rp) <= NVD_MSG_MAX && \
		       qfd <= NVD_MSG_MAX_FDS && pfd <= NVD_MSG_MAX_FDS, #nm " fits a datagram");
NVD_MESSAGES(NVD_MSG_SIZE_CHECK_)
_Static_assert(sizeof(struct nvd_reply_hdr) + sizeof(struct nvd_rep_error) <= NVD_MSG_MAX,
	       "error reply fits");

const struct nvd_msg_desc *nvd_msg_desc(uint32_t type)
{
	if (type == NVD_MSG_NONE || type >= NVD_MSG_COUNT)
		return NULL;
	return &nvd_msgs[type];
}

const char *nvd_default_socket(char *buf, unsigned len)
{
	const char *env = getenv("NVD_SOCKET");
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (geteuid() == 0)
		snprintf(buf, len, "/run/nvd/socket");
	else if (xdg && *xdg)
		snprintf(buf, len, "%s/nvd/socket", xdg);
	else
		snprintf(buf, len, "/tmp/nvd-%u/socket", (unsigned)geteuid());
	return buf;
}

long nvd_sendmsg(int sock, const void *buf, uint32_t len, const int *fds, unsigned nfds)
{
	union { char b[CMSG_SPACE(sizeof(int) * NVD_MSG_MAX_FDS)]; struct cmsghdr align; } u;
	struct iovec iov = { (void *)buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	long n;

	if (nfds > NVD_MSG_MAX_FDS)
		return -EINVAL;
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
	do
		n = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static long recvmsg_fds(int sock, void *buf, uint32_t len, int *fds, unsigned maxfds,
			unsigned *nfds, int keep)
{
	union { char b[CMSG_SPACE(sizeof(int) * NVD_MSG_MAX_FDS)]; struct cmsghdr align; } u;
	struct iovec iov = { buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b,
			    .msg_controllen = sizeof(u.b) };
	long n;

	*nfds = 0;
	do
		n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	/* Take every fd that came, so none leaks; keep at most maxfds. */
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		unsigned k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		int got[NVD_MSG_MAX_FDS * 2];
		if (k > sizeof(got) / sizeof(got[0]))
			k = sizeof(got) / sizeof(got[0]);
		memcpy(got, CMSG_DATA(c), k * sizeof(int));
		for (unsigned i = 0; i < k; i++) {
			if (*nfds < maxfds)
				fds[(*nfds)++] = got[i];
			else
				close(got[i]);
		}
	}
	if (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		for (unsigned i = 0; i < *nfds && !keep; i++)
			close(fds[i]);
		*nfds = keep ? *nfds : 0;
		return -EMSGSIZE;
	}
	return n;
}

long nvd_recvmsg(int sock, void *buf, uint32_t len, int *fds, unsigned maxfds, unsigned *nfds)
{
	return recvmsg_fds(sock, buf, len, fds, maxfds, nfds, 0);
}

long nvd_recvmsg_keep(int sock, void *buf, uint32_t len, int fds[NVD_MSG_MAX_FDS], unsigned *nfds)
{
	return recvmsg_fds(sock, buf, len, fds, NVD_MSG_MAX_FDS, nfds, 1);
}
