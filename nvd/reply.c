/* Replies on a client's socket: to the request being handled (server.c)
 * and to one answered later (a parked BO_WAIT, wait.c). */
#include "nvd/nvd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void nvd_reply(struct nvd_client *cl, const struct nvd_msg_hdr *h, int err, const char *why,
	       const void *body, const int *fds, unsigned nfds)
{
	const struct nvd_msg_desc *d = nvd_msg_desc(h->type);
	union { uint8_t b[NVD_MSG_MAX]; struct nvd_reply_hdr r; } out;
	uint32_t len;

	memset(&out, 0, sizeof(out));
	out.r.h = *h;
	out.r.error = err;
	if (err || !d) {
		struct nvd_rep_error e = { "" };
		snprintf(e.msg, sizeof(e.msg), "%s", why[0] ? why : strerror(-err));
		memcpy(out.b + sizeof(out.r), &e, sizeof(e));
		len = sizeof(out.r) + sizeof(e);
		nfds = 0;
	} else {
		len = d->rep_size;
		memcpy(out.b + sizeof(out.r), body, len - sizeof(out.r));
	}
	long n = nvd_sendmsg(cl->sock, out.b, len, fds, nfds);
	if (n < 0 && n != -EPIPE && n != -ECONNRESET)
		nvd_clog(cl, NULL, "reply failed: %s", strerror((int)-n));
}

void nvd_reply_late(struct nvd_client *cl, uint32_t type, uint32_t tag, int err, const char *why)
{
	static const uint8_t empty[NVD_MSG_MAX];
	struct nvd_msg_hdr h = { type, tag };
	char w[NVD_REPLY_WHY] = "";
	if (why)
		snprintf(w, sizeof(w), "%s", why);
	nvd_reply(cl, &h, err, w, empty, NULL, 0);
	if (err)
		nvd_clog(cl, NULL, "%s failed: %s", nvd_msg_desc(type) ? nvd_msg_desc(type)->name : "?",
			 w[0] ? w : strerror(-err));
}
