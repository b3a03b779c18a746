/* The socket: sessions, credentials, and one generic decoder that checks
 * every datagram against the protocol table before a handler sees it.  A
 * client that breaks the protocol gets an error reply and is dropped; a
 * request that fails gets an error reply. */
#include "nvd/nvd.h"

#include <errno.h>
#include <event2/event.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

struct reply {
	uint8_t body[NVD_MSG_MAX];
	int fds[NVD_MSG_MAX_FDS];
	unsigned nfds;
	int close_fds;           /* the fds are the reply's own: closed once sent */
	char why[NVD_REPLY_WHY];
	/* the request's header and its fd (IMPORT), which the handler consumes */
	struct nvd_msg_hdr h;
	int in_fd;
};

/* A handler's return value: the reply will be sent later (BO_WAIT). */
#define REPLY_LATER 1

static struct nvd_chan *client_chan(struct nvd_client *cl, uint32_t id, struct reply *r)
{
	if (id < NVD_CLIENT_CHANS && cl->chans[id])
		return cl->chans[id];
	snprintf(r->why, sizeof(r->why), "no channel %u", id);
	return NULL;
}

/* ---- handlers: 0 or -errno, reply body in r ---- */

static int do_hello(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_hello *rq = rq_;
	struct nvd *d = cl->d;
	struct nvd_rep_hello *p = (void *)r->body;

	if (rq->magic != NVD_PROTO_MAGIC) {
		snprintf(r->why, sizeof(r->why), "not an nvd client (bad magic)");
		return -EPROTO;
	}
	if (rq->version != NVD_PROTO_VERSION) {
		snprintf(r->why, sizeof(r->why), "protocol version %u, but nvd speaks version %u",
			 rq->version, NVD_PROTO_VERSION);
		return -EPROTONOSUPPORT;
	}
	memcpy(cl->name, rq->name, sizeof(cl->name));
	cl->name[sizeof(cl->name) - 1] = 0;
	for (char *c = cl->name; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			*c = '?';
	cl->greeted = 1;
	p->version = NVD_PROTO_VERSION;
	p->client_id = cl->id;
	p->chipset = d->card->chip->chipset;
	p->pci_vendor = d->card->pci_vendor;
	p->pci_device = d->card->pci_device;
	p->vram_size = d->vram_client_size;
	p->gart_size = d->gart_client_size;
	snprintf(p->card, sizeof(p->card), "%s", d->card->desc);
	nvd_clog(cl, NULL, "connected (uid %u)", (unsigned)cl->uid);
	return 0;
}

static int do_status(struct nvd_client *cl, const void *rq, struct reply *r)
{
	struct nvd *d = cl->d;
	struct nvd_rep_status *p = (void *)r->body;
	(void)rq;
	p->chipset = d->card->chip->chipset;
	p->pci_vendor = d->card->pci_vendor;
	p->pci_device = d->card->pci_device;
	snprintf(p->card, sizeof(p->card), "%s", d->card->desc);
	snprintf(p->bus_id, sizeof(p->bus_id), "%s", d->card->bus_id);
	p->vram_size = d->card->vram_size;
	p->vram_client = d->vram.used;
	p->vram_daemon = d->vram_daemon;
	p->gart_size = d->card->gart_size;
	p->gart_client = d->gart.used;
	p->gart_daemon = d->gart_daemon;
	p->channels_total = NVD_MAX_CHANS;
	p->channels_used = d->nchans;
	p->hw_channels = NVD_CLIENT_CHIDS;
	p->hw_channels_used = d->nchans_hw;
	p->chan_loads = d->chan_loads;
	p->chan_unloads = d->chan_unloads;
	p->chan_switch_ns = d->vchan_switch_ns;
	p->vchan_saved = d->vchan_saved;
	p->ramin_size = d->ramin.size;
	p->ramin_used = d->ramin.used;
	p->clients = d->nclients;
	p->bos = d->nbos;   /* live buffers, shared ones once, orphans included */
	p->submits = d->submits;
	p->refused = d->refused;
	p->uptime_ms = nvd_now_ns() / 1000000 - d->start_ms;
	nvd_oracle_poll(d);
	p->oracle = !!d->o.card.sim_check;
	p->oracle_violations = d->oracle_violations;
	p->host_client = d->host_orphaned;
	p->orphaned = d->vram_orphaned + d->gart_orphaned + d->host_orphaned;
	for (struct nvd_client *c = d->clients; c; c = c->next)
		p->host_client += c->host;
	p->evictions = d->evictions;
	p->evicted_bytes = d->evicted_bytes;
	p->fences = d->fences;
	if (d->card->ops->busy_ns) {
		d->card->ops->busy_ns(d->card, &p->pfifo_busy_ns, &p->pgraph_busy_ns);
		p->busy_known = 1;
	}
	p->now_ns = nvd_now_ns();
	return 0;
}

static int do_client_at(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_client_at *rq = rq_;
	struct nvd_rep_client_at *p = (void *)r->body;
	struct nvd_client *c = cl->d->clients;
	for (unsigned i = 0; c && i < rq->index; i++)
		c = c->next;
	if (!c) {
		snprintf(r->why, sizeof(r->why), "no client %u (%u connected)", rq->index,
			 cl->d->nclients);
		return -ENOENT;
	}
	p->count = cl->d->nclients;
	p->id = c->id;
	p->pid = (uint32_t)c->pid;
	p->uid = (uint32_t)c->uid;
	memcpy(p->name, c->name, sizeof(p->name));
	p->bos = c->nbos;
	p->channels = c->nchans;
	p->vram = c->vram;
	p->gart = c->gart;
	p->host = c->host;
	p->evicted = c->evicted;
	p->submits = c->submits;
	p->refused = c->refused;
	p->fences = c->fences;
	p->card_ns = c->card_ns;
	p->validate_ns = c->validate_ns;
	p->validate_max_ns = c->validate_max_ns;
	_Static_assert(sizeof(p->chan_chid) == NVD_CLIENT_CHANS, "one byte per channel slot");
	for (unsigned i = 0; i < NVD_CLIENT_CHANS; i++) {
		const struct nvd_chan *ch = c->chans[i];
		p->chan_chid[i] = !ch || ch->lost ? NVD_CHAN_SLOT_NONE :
				  ch->chid == NVD_CHID_NONE ? NVD_CHAN_SLOT_VIRTUAL : (uint8_t)ch->chid;
		if (ch)
			p->card_ns += nvd_vchan_busy_ns(ch);
	}
	return 0;
}

/* BO_NEW, OPEN and IMPORT: the client's handle, placement and the memfd. */
static int bo_reply(struct nvd_bo *bo, uint32_t handle, struct reply *r)
{
	struct nvd_rep_bo_new *p = (void *)r->body;
	p->handle = handle;
	p->domain = bo->domain;
	p->addr = bo->addr;
	p->size = bo->size;
	r->fds[0] = bo->fd;
	r->nfds = 1;
	return 0;
}

static int do_bo_new(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_bo_new *rq = rq_;
	struct nvd_bo *bo;
	uint32_t handle;
	if (rq->flags) {
		snprintf(r->why, sizeof(r->why), "unknown flags 0x%x", rq->flags);
		return -EINVAL;
	}
	int e = nvd_bo_new(cl, rq->size, rq->domain, &bo, &handle, r->why, sizeof(r->why));
	if (e < 0)
		return e;
	return bo_reply(bo, handle, r);
}

static int do_bo_free(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_bo_free *rq = rq_;
	int e = nvd_bo_close_kept(cl, rq->handle);
	if (e < 0)
		snprintf(r->why, sizeof(r->why), "no buffer %u", rq->handle);
	return e;
}

static int do_bo_info(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_bo_info *rq = rq_;
	struct nvd_rep_bo_info *p = (void *)r->body;
	struct nvd_bo *bo = nvd_bo_get(cl, rq->handle);
	if (!bo) {
		snprintf(r->why, sizeof(r->why), "no buffer %u", rq->handle);
		return -ENOENT;
	}
	p->domain = bo->domain;
	p->addr = bo->addr;
	return 0;
}

static int do_chan_new(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_chan_new *rq = rq_;
	struct nvd_rep_chan_new *p = (void *)r->body;
	struct nvd_chan *ch;
	if (rq->flags) {
		snprintf(r->why, sizeof(r->why), "unknown flags 0x%x", rq->flags);
		return -EINVAL;
	}
	int e = nvd_chan_new(cl, &ch, r->why, sizeof(r->why));
	if (e < 0)
		return e;
	p->chan = ch->id;
	p->chid = ch->chid;
	p->vram_handle = NVD_VRAM_DMA_HANDLE;
	p->gart_handle = NVD_GART_DMA_HANDLE;
	p->ring_size = NVD_RING_SIZE;
	r->fds[0] = ch->ring_fd;
	r->fds[1] = ch->fence_fd;
	r->fds[2] = ch->doorbell;
	r->fds[3] = ch->fence_ev;
	r->nfds = 4;
	nvd_clog(cl, ch, "channel opened");
	return 0;
}

static int do_chan_free(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_chan_free *rq = rq_;
	struct nvd_chan *ch = client_chan(cl, rq->chan, r);
	if (!ch)
		return -ENOENT;
	nvd_chan_free(ch);
	return 0;
}

static int do_obj_new(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_obj_new *rq = rq_;
	struct nvd_chan *ch = client_chan(cl, rq->chan, r);
	return ch ? nvd_obj_new(ch, rq->handle, rq->cls, r->why, sizeof(r->why)) : -ENOENT;
}

static int do_obj_free(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_obj_free *rq = rq_;
	struct nvd_chan *ch = client_chan(cl, rq->chan, r);
	if (!ch)
		return -ENOENT;
	return nvd_obj_free(ch, rq->handle, r->why, sizeof(r->why));
}

static int do_dma_new(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_dma_new *rq = rq_;
	struct nvd_chan *ch = client_chan(cl, rq->chan, r);
	return ch ? nvd_dma_new(ch, rq, r->why, sizeof(r->why)) : -ENOENT;
}

static int do_bo_flink(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_bo_flink *rq = rq_;
	struct nvd_rep_bo_flink *p = (void *)r->body;
	return nvd_bo_flink(cl, rq->handle, &p->name, r->why, sizeof(r->why));
}

static int do_bo_open(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_bo_open *rq = rq_;
	struct nvd_bo *bo;
	uint32_t handle;
	int e = nvd_bo_open_name(cl, rq->name, &bo, &handle, r->why, sizeof(r->why));
	return e < 0 ? e : bo_reply(bo, handle, r);
}

static int do_bo_import(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_bo_import *rq = rq_;
	struct nvd_bo *bo;
	uint32_t handle;
	int fd = r->in_fd;
	r->in_fd = -1;
	if (rq->_unused) {
		nvd_fd_release(fd);
		snprintf(r->why, sizeof(r->why), "reserved field is 0x%x, not 0", rq->_unused);
		return -EINVAL;
	}
	int e = nvd_bo_import(cl, fd, &bo, &handle, r->why, sizeof(r->why));
	return e < 0 ? e : bo_reply(bo, handle, r);
}

static int do_bo_wait(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	/* Other holders may have published submissions using it just now. */
	nvd_take(cl->d);
	int e = nvd_bo_wait(cl, rq_, r->h.tag, r->why, sizeof(r->why));
	return e > 0 ? REPLY_LATER : e;
}

static int do_set_master(struct nvd_client *cl, const void *rq, struct reply *r)
{
	(void)rq;
	return nvd_set_master(cl, r->why, sizeof(r->why));
}

static int do_drop_master(struct nvd_client *cl, const void *rq, struct reply *r)
{
	(void)rq;
	return nvd_drop_master(cl, r->why, sizeof(r->why));
}

static int do_get_magic(struct nvd_client *cl, const void *rq, struct reply *r)
{
	struct nvd_rep_magic *p = (void *)r->body;
	(void)rq;
	return nvd_get_magic(cl, &p->magic, r->why, sizeof(r->why));
}

static int do_auth_magic(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_auth_magic *rq = rq_;
	return nvd_auth_magic(cl, rq->magic, r->why, sizeof(r->why));
}

static int do_disp_output(struct nvd_client *cl, const void *rq, struct reply *r)
{
	return nvd_disp_output(cl, rq, (void *)r->body, r->why, sizeof(r->why));
}

static int do_disp_mode(struct nvd_client *cl, const void *rq, struct reply *r)
{
	return nvd_disp_mode(cl, rq, (void *)r->body, r->why, sizeof(r->why));
}

static int do_fb_new(struct nvd_client *cl, const void *rq, struct reply *r)
{
	struct nvd_rep_fb_new *p = (void *)r->body;
	return nvd_fb_new(cl, rq, &p->fb, r->why, sizeof(r->why));
}

static int do_fb_free(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_fb_free *rq = rq_;
	return nvd_fb_free(cl, rq->fb, r->why, sizeof(r->why));
}

static int do_disp_head(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_disp_head *rq = rq_;
	struct nvd_rep_disp_head *p = (void *)r->body;
	return nvd_disp_head(cl, rq->head, &p->s, r->why, sizeof(r->why));
}

static int do_disp_set_head(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_disp_set_head *rq = rq_;
	if (rq->_pad) {
		snprintf(r->why, sizeof(r->why), "reserved field is 0x%x, not 0", rq->_pad);
		return -EINVAL;
	}
	return nvd_disp_set_head(cl, rq->head, &rq->s, r->why, sizeof(r->why));
}

static int do_disp_screenshot(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_disp_screenshot *rq = rq_;
	struct nvd_rep_disp_screenshot *p = (void *)r->body;
	int e = nvd_disp_screenshot(cl, rq->head, &p->width, &p->height, &r->fds[0], r->why,
				    sizeof(r->why));
	if (e == 0) {
		r->nfds = 1;
		r->close_fds = 1;
	}
	return e;
}

static int do_disp_cursor_set(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_disp_cursor_set *rq = rq_;
	if (rq->_pad) {
		snprintf(r->why, sizeof(r->why), "reserved field is 0x%x, not 0", rq->_pad);
		return -EINVAL;
	}
	return nvd_disp_cursor_set(cl, rq->head, rq->bo, rq->offset, r->why, sizeof(r->why));
}

static int do_disp_cursor_move(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_disp_cursor_move *rq = rq_;
	return nvd_disp_cursor_move(cl, rq->head, rq->x, rq->y, r->why, sizeof(r->why));
}

static int do_disp_events(struct nvd_client *cl, const void *rq, struct reply *r)
{
	(void)rq;
	int e = nvd_disp_events(cl, &r->fds[0], r->why, sizeof(r->why));
	if (e == 0) {
		r->nfds = 1;
		r->close_fds = 1;
	}
	return e;
}

static int do_disp_page_flip(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_disp_page_flip *rq = rq_;
	return nvd_disp_page_flip(cl, rq->head, rq->fb, rq->user_data, r->why, sizeof(r->why));
}

static int do_disp_vblank(struct nvd_client *cl, const void *rq_, struct reply *r)
{
	const struct nvd_req_disp_vblank *rq = rq_;
	struct nvd_rep_disp_vblank *p = (void *)r->body;
	return nvd_disp_vblank(cl, rq->head, &p->sequence, &p->time_ns, r->why, sizeof(r->why));
}

static int do_disp_vblank_event(struct nvd_client *cl, const void *rq, struct reply *r)
{
	struct nvd_rep_disp_vblank_event *p = (void *)r->body;
	return nvd_disp_vblank_event(cl, rq, &p->sequence, r->why, sizeof(r->why));
}

typedef int handler_fn(struct nvd_client *cl, const void *rq, struct reply *r);
static handler_fn *const handlers[NVD_MSG_COUNT] = {
	[NVD_MSG_HELLO] = do_hello,       [NVD_MSG_STATUS] = do_status,
	[NVD_MSG_CLIENT_AT] = do_client_at, [NVD_MSG_BO_NEW] = do_bo_new,
	[NVD_MSG_BO_FREE] = do_bo_free,   [NVD_MSG_CHAN_NEW] = do_chan_new,
	[NVD_MSG_CHAN_FREE] = do_chan_free, [NVD_MSG_OBJ_NEW] = do_obj_new,
	[NVD_MSG_OBJ_FREE] = do_obj_free, [NVD_MSG_DMA_NEW] = do_dma_new,
	[NVD_MSG_BO_FLINK] = do_bo_flink, [NVD_MSG_BO_OPEN] = do_bo_open,
	[NVD_MSG_BO_IMPORT] = do_bo_import, [NVD_MSG_BO_WAIT] = do_bo_wait,
	[NVD_MSG_SET_MASTER] = do_set_master, [NVD_MSG_DROP_MASTER] = do_drop_master,
	[NVD_MSG_GET_MAGIC] = do_get_magic, [NVD_MSG_AUTH_MAGIC] = do_auth_magic,
	[NVD_MSG_BO_INFO] = do_bo_info,
	[NVD_MSG_DISP_OUTPUT] = do_disp_output, [NVD_MSG_DISP_MODE] = do_disp_mode,
	[NVD_MSG_FB_NEW] = do_fb_new,     [NVD_MSG_FB_FREE] = do_fb_free,
	[NVD_MSG_DISP_HEAD] = do_disp_head, [NVD_MSG_DISP_SET_HEAD] = do_disp_set_head,
	[NVD_MSG_DISP_SCREENSHOT] = do_disp_screenshot,
	[NVD_MSG_DISP_CURSOR_SET] = do_disp_cursor_set, [NVD_MSG_DISP_CURSOR_MOVE] = do_disp_cursor_move,
	[NVD_MSG_DISP_EVENTS] = do_disp_events, [NVD_MSG_DISP_PAGE_FLIP] = do_disp_page_flip,
	[NVD_MSG_DISP_VBLANK] = do_disp_vblank, [NVD_MSG_DISP_VBLANK_EVENT] = do_disp_vblank_event,
};

/* ---- sessions ---- */

/* A request parked behind its client's submissions (sched.c says when it may run). */
struct parked {
	struct nvd_park park;    /* first: cl->parked points at it */
	uint8_t msg[NVD_MSG_MAX];
	int fds[NVD_MSG_MAX_FDS];
	unsigned nfds;
};

static void parked_free(struct parked *pk)
{
	if (pk->park.resume)
		event_free(pk->park.resume);
	free(pk);
}

void nvd_client_drop(struct nvd_client *cl, const char *why)
{
	struct nvd *d = cl->d;

	nvd_clog(cl, NULL, "disconnected: %s", why);
	nvd_client_waits_free(cl);
	if (cl->parked) {
		struct parked *pk = (struct parked *)cl->parked;
		for (unsigned i = 0; i < pk->nfds; i++)
			nvd_fd_release(pk->fds[i]);
		parked_free(pk);
		cl->parked = NULL;
	}
	nvd_auth_client_gone(cl);
	/* Its framebuffers go, and with them what the heads showed of them. */
	nvd_disp_client_gone(cl);
	for (unsigned i = 0; i < NVD_CLIENT_CHANS; i++)
		if (cl->chans[i])
			nvd_chan_free(cl->chans[i]);
	for (unsigned i = 0; i < cl->bos_cap; i++)
		if (cl->bos[i])
			nvd_bo_close(cl, i + 1);
	nvd_bo_kept_release(cl);
	/* What others still hold is paid for by nobody now. */
	nvd_bo_orphan_all(cl);
	free(cl->bos);
	event_free(cl->evt);
	close(cl->sock);
	for (struct nvd_client **p = &d->clients; *p; p = &(*p)->next)
		if (*p == cl) {
			*p = cl->next;
			break;
		}
	d->nclients--;
	free(cl);
	if (d->pending_waits)
		nvd_waits_recheck(d);
}

/* Refuse a datagram that breaks the protocol: say why, then hang up. */
static void violation(struct nvd_client *cl, const struct nvd_msg_hdr *h, int err, const char *why)
{
	struct reply r = { .nfds = 0 };
	snprintf(r.why, sizeof(r.why), "%s", why);
	nvd_reply(cl, h, err, r.why, r.body, r.fds, r.nfds);
	nvd_client_drop(cl, why);
}

/* ---- requests ---- */

/* Runs a checked request; its fd goes to the handler. */
static void run_request(struct nvd_client *cl, const struct parked *pk)
{
	struct nvd *nd = cl->d;
	struct nvd_msg_hdr h;
	memcpy(&h, pk->msg, sizeof(h));
	const struct nvd_msg_desc *d = nvd_msg_desc(h.type);
	struct reply r;
	memset(&r, 0, sizeof(r));
	r.h = h;
	r.in_fd = pk->nfds ? pk->fds[0] : -1;
	int err = handlers[h.type](cl, pk->msg + sizeof(h), &r);
	nvd_fd_release(r.in_fd);   /* a handler that did not take it */
	if (err == REPLY_LATER)
		return;
	unsigned own = r.close_fds ? r.nfds : 0;
	nvd_reply(cl, &h, err, r.why, r.body, r.fds, r.nfds);
	for (unsigned i = 0; i < own; i++)
		close(r.fds[i]);
	if (err && h.type == NVD_MSG_HELLO)
		nvd_client_drop(cl, r.why);
	else if (h.type == NVD_MSG_HELLO) {
		/* Greeted: no deadline any more.  event_add(NULL) alone would keep
		 * the pending timeout, so take the event off first. */
		event_del(cl->evt);
		event_add(cl->evt, NULL);
	}
	else if (err)
		nvd_clog(cl, NULL, "%s failed: %s", d->name, r.why[0] ? r.why : strerror(-err));
	if (nd->pending_waits)
		nvd_waits_recheck(nd);
}


static void client_unpark(evutil_socket_t fd, short what, void *arg)
{
	struct nvd_client *cl = arg;
	struct parked *pk = (struct parked *)cl->parked;
	(void)fd;
	(void)what;
	if (!pk || nvd_sched_behind(cl, &pk->park))
		return;
	cl->parked = NULL;
	/* Re-armed first: the request may drop the client. */
	event_add(cl->evt, NULL);
	run_request(cl, pk);
	parked_free(pk);
}

static void client_read(evutil_socket_t fd, short what, void *arg)
{
	struct nvd_client *cl = arg;
	union { uint8_t b[NVD_MSG_MAX + 1]; struct nvd_msg_hdr h; } in;
	int fds[NVD_MSG_MAX_FDS];
	unsigned nfds;
	char why[128];

	/* A loop busy past the deadline reports the timeout with the HELLO
	 * that came in time: the datagram decides. */
	if ((what & EV_TIMEOUT) && !(what & EV_READ) && !cl->greeted) {
		nvd_client_drop(cl, "said no HELLO in time");
		return;
	}
	/* Whatever fds came are the client's: released without blocking. */
	long n = nvd_recvmsg_keep(fd, in.b, sizeof(in.b), fds, &nfds);
	if (n < (long)sizeof(struct nvd_msg_hdr))
		for (unsigned i = 0; i < nfds; i++)
			nvd_fd_release(fds[i]);
	if (n == -EAGAIN)
		return;
	if (n == 0) {
		nvd_client_drop(cl, "closed the connection");
		return;
	}
	if (n == -EMSGSIZE) {
		struct nvd_msg_hdr none = { 0, 0 };
		violation(cl, &none, -EPROTO, "oversized message");
		return;
	}
	if (n < 0) {
		snprintf(why, sizeof(why), "receive failed: %s", strerror((int)-n));
		nvd_client_drop(cl, why);
		return;
	}
	struct nvd_msg_hdr h = { 0, 0 };
	if ((size_t)n < sizeof(h)) {
		snprintf(why, sizeof(why), "truncated message (%ld bytes)", n);
		violation(cl, &h, -EPROTO, why);
		return;
	}
	memcpy(&h, in.b, sizeof(h));
	const struct nvd_msg_desc *d = nvd_msg_desc(h.type);
	int ok = 0;
	if (!d) {
		snprintf(why, sizeof(why), "unknown message type %u", h.type);
		violation(cl, &h, -EPROTO, why);
	} else if (nfds != d->req_fds) {
		snprintf(why, sizeof(why), "%s: sent %u file descriptors, expected %u", d->name, nfds,
			 d->req_fds);
		violation(cl, &h, -EPROTO, why);
	} else if ((uint32_t)n != d->req_size) {
		snprintf(why, sizeof(why), "%s: %ld bytes, expected %u", d->name, n, d->req_size);
		violation(cl, &h, -EPROTO, why);
	} else if (!cl->greeted && h.type != NVD_MSG_HELLO) {
		snprintf(why, sizeof(why), "%s before HELLO", d->name);
		violation(cl, &h, -EPROTO, why);
	} else if (cl->greeted && h.type == NVD_MSG_HELLO) {
		violation(cl, &h, -EPROTO, "second HELLO");
	} else {
		ok = 1;
	}
	if (!ok) {
		for (unsigned i = 0; i < nfds; i++)
			nvd_fd_release(fds[i]);
		return;
	}
	struct parked req;
	memcpy(req.msg, in.b, (size_t)n);
	memcpy(req.fds, fds, nfds * sizeof(*fds));
	req.nfds = nfds;
	req.park.resume = NULL;
	/* The client may have published submissions and rung the doorbell just
	 * before this request: they come first (a BO_FREE or BO_WAIT after a
	 * submission must see it), even when they wait for ring space. */
	if (!nvd_sched_request(cl, &req.park)) {
		run_request(cl, &req);
		return;
	}
	/* No more requests until this one has run: they keep their order. */
	struct parked *pk = malloc(sizeof(*pk));
	if (pk)
		*pk = req;
	if (!pk || !(pk->park.resume = event_new(cl->d->base, -1, 0, client_unpark, cl))) {
		free(pk);
		for (unsigned i = 0; i < nfds; i++)
			nvd_fd_release(fds[i]);
		nvd_client_drop(cl, "out of memory for a request");
		return;
	}
	cl->parked = &pk->park;
	event_del(cl->evt);
}

static void server_accept(evutil_socket_t lfd, short what, void *arg)
{
	struct nvd *d = arg;
	(void)what;
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EINTR)
			nvd_log(0, "accept: %s", strerror(errno));
		return;
	}
	if (d->nclients >= NVD_MAX_CLIENTS) {
		nvd_log(0, "refusing a connection: %u clients already", d->nclients);
		close(fd);
		return;
	}
	struct nvd_client *cl = calloc(1, sizeof(*cl));
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (!cl || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		nvd_log(0, "cannot take a new client: %s", strerror(errno));
		free(cl);
		close(fd);
		return;
	}
	cl->d = d;
	cl->sock = fd;
	cl->id = ++d->next_client_id;
	cl->pid = cred.pid;
	cl->uid = cred.uid;
	struct timeval hello = { NVD_HELLO_TIMEOUT_S, 0 };
	cl->evt = event_new(d->base, fd, EV_READ | EV_PERSIST, client_read, cl);
	if (!cl->evt || event_add(cl->evt, &hello) < 0) {
		nvd_log(0, "cannot watch a new client");
		if (cl->evt)
			event_free(cl->evt);
		free(cl);
		close(fd);
		return;
	}
	cl->next = d->clients;
	d->clients = cl;
	d->nclients++;
}

static int mkdir_p(char *dir, mode_t mode)
{
	struct stat st;
	if (!stat(dir, &st))
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		int r = mkdir_p(dir, 0755);
		*slash = '/';
		if (r < 0)
			return r;
	}
	return mkdir(dir, mode) < 0 && errno != EEXIST ? -errno : 0;
}

static const char *file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFLNK: return "a symbolic link";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	default: return "an unknown kind of file";
	}
}

/* Make room for the socket at path.  Only a socket file nobody listens on,
 * a dead nvd's, is removed; anything else there is someone's and stays as
 * it is (lstat: a symbolic link is not followed, even to a socket). */
static int server_clear_path(const char *path, const struct sockaddr_un *sa, char *err,
			     size_t errlen)
{
	struct stat st, again;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "%s: exists and is %s, not a socket; not replacing it", path,
			 file_kind(st.st_mode));
		return -EEXIST;
	}
	int probe = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (probe < 0) {
		snprintf(err, errlen, "cannot probe %s: %s", path, strerror(errno));
		return -errno;
	}
	int r = connect(probe, (const struct sockaddr *)sa, sizeof(*sa)) < 0 ? -errno : 0;
	close(probe);
	if (!r) {
		snprintf(err, errlen, "another nvd is already listening on %s", path);
		return -EADDRINUSE;
	}
	/* ECONNREFUSED is a socket without a listener; anything else (another
	 * type of socket, no permission) may be someone's live one. */
	if (r != -ECONNREFUSED) {
		snprintf(err, errlen, "%s: a socket nvd cannot probe (%s); not replacing it", path,
			 strerror(-r));
		return -EEXIST;
	}
	/* Still the file that was probed, not one put there meanwhile. */
	if (lstat(path, &again) < 0 || again.st_dev != st.st_dev || again.st_ino != st.st_ino) {
		snprintf(err, errlen, "%s: changed while nvd looked at it; not replacing it", path);
		return -EEXIST;
	}
	if (unlink(path) < 0) {
		snprintf(err, errlen, "cannot remove the stale socket %s: %s", path, strerror(errno));
		return -errno;
	}
	return 0;
}

static int server_watch(struct nvd *d, char *err, size_t errlen)
{
	d->listen_evt = event_new(d->base, d->listen_fd, EV_READ | EV_PERSIST, server_accept, d);
	if (!d->listen_evt || event_add(d->listen_evt, NULL) < 0) {
		snprintf(err, errlen, "event loop refused the socket");
		return -ENOMEM;
	}
	d->start_ms = nvd_now_ns() / 1000000;
	return 0;
}

int nvd_server_listen(struct nvd *d, char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[sizeof(sa.sun_path)];

	if (d->sock_activated)
		return server_watch(d, err, errlen);
	if (strlen(d->sock_path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "socket path too long: %s", d->sock_path);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, d->sock_path);
	snprintf(dir, sizeof(dir), "%s", d->sock_path);
	int r = mkdir_p(dirname(dir), geteuid() == 0 ? 0755 : 0700);
	if (r < 0) {
		snprintf(err, errlen, "cannot create the socket's directory for %s: %s", d->sock_path,
			 strerror(-r));
		return r;
	}
	if ((r = server_clear_path(d->sock_path, &sa, err, errlen)) < 0)
		return r;
	struct stat st;
	/* Unprivileged clients are the point: anyone may connect.  The mode
	 * comes with bind (no chmod by path afterwards, which would follow a
	 * symlink put there in between). */
	d->listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	mode_t mask = umask(0111);
	int bound = d->listen_fd >= 0 && !bind(d->listen_fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(mask);
	if (!bound || listen(d->listen_fd, 64) < 0 || lstat(d->sock_path, &st) < 0) {
		snprintf(err, errlen, "cannot listen on %s: %s", d->sock_path, strerror(errno));
		return -errno;
	}
	d->sock_dev = st.st_dev;
	d->sock_ino = st.st_ino;
	return server_watch(d, err, errlen);
}

/* nvd is going: the client hears it at once, on every channel's fence page
 * (waits wake) and on its socket (in place of any reply), then the close. */
static void goodbye(struct nvd_client *cl, const char *why)
{
	struct nvd_msg_hdr h = { NVD_MSG_GOODBYE, 0 };
	for (unsigned i = 0; i < NVD_CLIENT_CHANS; i++)
		if (cl->chans[i])
			nvd_chan_tell_lost(cl->chans[i], -ESHUTDOWN);
	nvd_reply(cl, &h, -ESHUTDOWN, why, NULL, NULL, 0);
}

void nvd_server_close(struct nvd *d, const char *why)
{
	for (struct nvd_client *cl = d->clients; cl; cl = cl->next)
		goodbye(cl, why);
	while (d->clients)
		nvd_client_drop(d->clients, why);
	nvd_bo_hash_fini(d);
	if (d->listen_evt)
		event_free(d->listen_evt);
	d->listen_evt = NULL;
	if (d->listen_fd >= 0) {
		struct stat st;
		close(d->listen_fd);
		/* Only the socket nvd bound: not systemd's (which stays for the
		 * next nvd), nor a file put there since. */
		if (!d->sock_activated && !lstat(d->sock_path, &st) && S_ISSOCK(st.st_mode) && st.st_dev == d->sock_dev &&
		    st.st_ino == d->sock_ino)
			unlink(d->sock_path);
	}
}
