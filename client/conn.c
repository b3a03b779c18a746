/* Connection to nvd: hello, requests and replies, daemon status. */
#include "client/priv.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static __thread char nvc_errbuf[256];

const char *nvc_error(void)
{
	return nvc_errbuf[0] ? nvc_errbuf : "no error";
}

int nvc_fail(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(nvc_errbuf, sizeof(nvc_errbuf), fmt, ap);
	va_end(ap);
	return err;
}

int nvc_gone(struct nvc *c, const char *why)
{
	pthread_mutex_lock(&c->gone_lock);
	if (!c->gone) {
		snprintf(c->gone_why, sizeof(c->gone_why), "nvd at %s went away: %s", c->path, why);
		__atomic_store_n(&c->gone, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&c->gone_lock);
	return nvc_check_gone(c);
}

int nvc_check_gone(struct nvc *c)
{
	if (!__atomic_load_n(&c->gone, __ATOMIC_ACQUIRE))
		return 0;
	return nvc_fail(-ENOTCONN, "%s", c->gone_why);
}

/* A peer that closed, or whatever came unasked: nvd's goodbye, if it said one. */
static int gone_from(struct nvc *c, long n, const char *in)
{
	struct nvd_reply_hdr r;
	struct nvd_rep_error e = { "" };
	if (n >= (long)(sizeof(r) + sizeof(e))) {
		memcpy(&r, in, sizeof(r));
		memcpy(&e, in + sizeof(r), sizeof(e));
		e.msg[sizeof(e.msg) - 1] = 0;
		if (r.h.type == NVD_MSG_GOODBYE && e.msg[0])
			return nvc_gone(c, e.msg);
	}
	if (n == 0 || n == -ECONNRESET)
		return nvc_gone(c, "the connection closed (nvd exited or was killed)");
	return nvc_gone(c, "it sent what nobody asked for");
}

int nvc_poll_gone(struct nvc *c)
{
	long n = 0;
	char in[NVD_MSG_MAX];
	int seen = 0;
	if (nvc_check_gone(c))
		return -ENOTCONN;
	if (!pthread_mutex_trylock(&c->lock)) {
		/* no call in progress: whatever is there came unasked (the goodbye) */
		int fds[NVD_MSG_MAX_FDS];
		unsigned nfds = 0;
		struct pollfd p = { c->sock, POLLIN, 0 };
		if ((seen = poll(&p, 1, 0) == 1) && p.revents & POLLIN)
			n = nvd_recvmsg(c->sock, in, sizeof(in), fds, NVD_MSG_MAX_FDS, &nfds);
		for (unsigned i = 0; i < nfds; i++)
			close(fds[i]);
		pthread_mutex_unlock(&c->lock);
	} else {
		/* the call in progress reads the goodbye: only the hangup here */
		struct pollfd p = { c->sock, 0, 0 };
		seen = poll(&p, 1, 0) == 1 && p.revents & (POLLHUP | POLLERR);
	}
	return seen ? gone_from(c, n, in) : 0;
}

int nvc_fd(const struct nvc *c)
{
	return c->sock;
}

int nvc_check(struct nvc *c)
{
	return nvc_poll_gone(c);
}

int nvc_call(struct nvc *c, uint32_t type, const void *req, void *rep, int *fds)
{
	return nvc_call_fd(c, type, req, rep, fds, -1);
}

int nvc_call_fd(struct nvc *c, uint32_t type, const void *req, void *rep, int *fds, int req_fd)
{
	const struct nvd_msg_desc *d = nvd_msg_desc(type);
	union { char b[NVD_MSG_MAX]; struct nvd_reply_hdr r; } in;
	char out[NVD_MSG_MAX];
	int got_fds[NVD_MSG_MAX_FDS];
	unsigned nfds = 0;
	long n;
	int ret = 0;

	if (!d)
		return nvc_fail(-EINVAL, "unknown request %u", type);
	if (d->req_fds != (req_fd >= 0 ? 1u : 0u))
		return nvc_fail(-EINVAL, "nvd: %s carries %u file descriptors", d->name, d->req_fds);
	if ((ret = nvc_check_gone(c)))
		return ret;
	pthread_mutex_lock(&c->lock);
	struct nvd_msg_hdr h = { type, ++c->tag };
	memcpy(out, &h, sizeof(h));
	memcpy(out + sizeof(h), req, d->req_size - sizeof(h));
	/* A reply may come much later (BO_WAIT parks in the daemon); the lock is
	 * held meanwhile, so it is always the answer to this request. */
	n = nvd_sendmsg(c->sock, out, d->req_size, &req_fd, req_fd >= 0 ? 1 : 0);
	if (n == -EPIPE || n == -ECONNRESET || n == -ENOTCONN) {
		n = nvd_recvmsg(c->sock, in.b, sizeof(in.b), got_fds, NVD_MSG_MAX_FDS, &nfds);
		ret = gone_from(c, n < 0 ? -ECONNRESET : n, in.b);   /* its goodbye may be queued */
		goto out;
	}
	if (n < 0) {
		ret = nvc_fail((int)n, "nvd: %s: send failed: %s", d->name, strerror((int)-n));
		goto out;
	}
	n = nvd_recvmsg(c->sock, in.b, sizeof(in.b), got_fds, NVD_MSG_MAX_FDS, &nfds);
	if (n == 0 || n == -ECONNRESET ||
	    (n > 0 && (size_t)n >= sizeof(in.r) && in.r.h.type == NVD_MSG_GOODBYE)) {
		ret = gone_from(c, n, in.b);
		goto out;
	}
	if (n < 0) {
		ret = nvc_fail((int)n, "nvd: %s: %s", d->name, strerror((int)-n));
		goto out;
	}
	if ((size_t)n < sizeof(in.r) || in.r.h.type != type || in.r.h.tag != h.tag) {
		ret = nvc_fail(-EPROTO, "nvd: %s: malformed reply", d->name);
		goto out;
	}
	if (in.r.error) {
		struct nvd_rep_error e = { "" };
		if ((size_t)n >= sizeof(in.r) + sizeof(e))
			memcpy(&e, in.b + sizeof(in.r), sizeof(e));
		e.msg[sizeof(e.msg) - 1] = 0;
		ret = nvc_fail(in.r.error < 0 ? in.r.error : -EPROTO, "nvd: %s: %s", d->name,
			       e.msg[0] ? e.msg : strerror(-in.r.error));
		goto out;
	}
	if ((uint32_t)n != d->rep_size || nfds != d->rep_fds) {
		ret = nvc_fail(-EPROTO, "nvd: %s: reply of %ld bytes and %u fds, expected %u and %u",
			       d->name, n, nfds, d->rep_size, d->rep_fds);
		goto out;
	}
	memcpy(rep, in.b + sizeof(in.r), d->rep_size - sizeof(in.r));
	if (nfds)   /* fds may be NULL when none come: memcpy's pointers may not */
		memcpy(fds, got_fds, nfds * sizeof(int));
	nfds = 0;
out:
	for (unsigned i = 0; i < nfds; i++)
		close(got_fds[i]);
	pthread_mutex_unlock(&c->lock);
	return ret;
}

int nvc_connect(const char *path, const char *name, struct nvc **out)
{
	char buf[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct nvc *c;
	int ret;

	*out = NULL;
	if (!path)
		path = nvd_default_socket(buf, sizeof(buf));
	if (strlen(path) >= sizeof(sa.sun_path))
		return nvc_fail(-ENAMETOOLONG, "nvd socket path too long: %s", path);
	strcpy(sa.sun_path, path);
	c = calloc(1, sizeof(*c));
	if (!c)
		return nvc_fail(-ENOMEM, "out of memory");
	pthread_mutex_init(&c->lock, NULL);
	c->disp_events = -1;
	pthread_mutex_init(&c->disp_lock, NULL);
	pthread_mutex_init(&c->gone_lock, NULL);
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (c->sock < 0) {
		ret = nvc_fail(-errno, "socket: %s", strerror(errno));
		goto fail;
	}
	if (connect(c->sock, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		nvc_fail(ret, "cannot reach nvd at %s: %s%s", path, strerror(errno),
			 (errno == ENOENT || errno == ECONNREFUSED) ? " (is nvd running?)" : "");
		goto fail;
	}
	struct nvd_req_hello h = { .magic = NVD_PROTO_MAGIC, .version = NVD_PROTO_VERSION };
	snprintf(h.name, sizeof(h.name), "%s", name ? name : "");
	ret = nvc_call(c, NVD_MSG_HELLO, &h, &c->hello, NULL);
	if (ret < 0)
		goto fail;
	*out = c;
	return 0;
fail:
	if (c->sock >= 0)
		close(c->sock);
	pthread_mutex_destroy(&c->gone_lock);
	pthread_mutex_destroy(&c->disp_lock);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return ret;
}

void nvc_close(struct nvc *c)
{
	if (!c)
		return;
	while (c->chans)
		nvc_chan_free(c->chans);
	while (c->bos)
		nvc_bo_free(c->bos);
	if (c->disp_events >= 0)
		close(c->disp_events);
	close(c->sock);
	pthread_mutex_destroy(&c->gone_lock);
	pthread_mutex_destroy(&c->disp_lock);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

int nvc_info(struct nvc *c, struct nvc_info *i)
{
	memset(i, 0, sizeof(*i));
	i->chipset = c->hello.chipset;
	i->pci_vendor = c->hello.pci_vendor;
	i->pci_device = c->hello.pci_device;
	i->vram_size = c->hello.vram_size;
	i->gart_size = c->hello.gart_size;
	i->client_id = c->hello.client_id;
	memcpy(i->card, c->hello.card, sizeof(i->card));
	i->card[sizeof(i->card) - 1] = 0;
	return 0;
}

int nvc_status(struct nvc *c, struct nvc_status *st)
{
	struct nvd_req_none rq = { 0 };
	struct nvd_rep_status r;
	int ret = nvc_call(c, NVD_MSG_STATUS, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	memset(st, 0, sizeof(*st));
	st->chipset = r.chipset;
	st->pci_vendor = r.pci_vendor;
	st->pci_device = r.pci_device;
	memcpy(st->card, r.card, sizeof(st->card));
	st->card[sizeof(st->card) - 1] = 0;
	memcpy(st->bus_id, r.bus_id, sizeof(st->bus_id));
	st->bus_id[sizeof(st->bus_id) - 1] = 0;
	st->vram_size = r.vram_size;
	st->vram_client = r.vram_client;
	st->vram_daemon = r.vram_daemon;
	st->gart_size = r.gart_size;
	st->gart_client = r.gart_client;
	st->gart_daemon = r.gart_daemon;
	st->channels_total = r.channels_total;
	st->channels_used = r.channels_used;
	st->clients = r.clients;
	st->bos = r.bos;
	st->submits = r.submits;
	st->refused = r.refused;
	st->uptime_ms = r.uptime_ms;
	st->oracle = !!r.oracle;
	st->oracle_violations = r.oracle_violations;
	st->host_client = r.host_client;
	st->evictions = r.evictions;
	st->evicted_bytes = r.evicted_bytes;
	st->hw_channels = r.hw_channels;
	st->hw_channels_used = r.hw_channels_used;
	st->chan_loads = r.chan_loads;
	st->chan_unloads = r.chan_unloads;
	st->chan_switch_ns = r.chan_switch_ns;
	st->vchan_saved = r.vchan_saved;
	st->ramin_size = r.ramin_size;
	st->ramin_used = r.ramin_used;
	st->orphaned = r.orphaned;
	st->now_ns = r.now_ns;
	st->fences = r.fences;
	st->busy_known = !!r.busy_known;
	st->pfifo_busy_ns = r.pfifo_busy_ns;
	st->pgraph_busy_ns = r.pgraph_busy_ns;
	return 0;
}

int nvc_client_at(struct nvc *c, unsigned index, struct nvc_client *o, unsigned *count)
{
	struct nvd_req_client_at rq = { index };
	struct nvd_rep_client_at r;
	int ret = nvc_call(c, NVD_MSG_CLIENT_AT, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	memset(o, 0, sizeof(*o));
	o->id = r.id;
	o->pid = r.pid;
	o->uid = r.uid;
	memcpy(o->name, r.name, sizeof(o->name));
	o->name[sizeof(o->name) - 1] = 0;
	o->bos = r.bos;
	o->channels = r.channels;
	o->vram = r.vram;
	o->gart = r.gart;
	o->submits = r.submits;
	o->refused = r.refused;
	o->validate_ns = r.validate_ns;
	o->validate_max_ns = r.validate_max_ns;
	o->host = r.host;
	o->evicted = r.evicted;
	o->fences = r.fences;
	o->card_ns = r.card_ns;
	_Static_assert(sizeof(o->chan_chid) == sizeof(r.chan_chid) &&
		       NVC_CHAN_NONE == NVD_CHAN_SLOT_NONE &&
		       NVC_CHAN_VIRTUAL == NVD_CHAN_SLOT_VIRTUAL, "one byte per channel slot");
	memcpy(o->chan_chid, r.chan_chid, sizeof(o->chan_chid));
	if (count)
		*count = r.count;
	return 0;
}
