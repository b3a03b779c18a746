/* BO_WAIT: CPU waits for the card to be done with a buffer, parked until
 * the submissions using it retire (nvd_bo_wake) or the timer fires. */
#include "nvd/nvd.h"

#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>

static int bo_busy(const struct nvd_bo *bo, uint32_t flags)
{
	return flags & NVD_WAIT_WRITE ? bo->busy_read || bo->busy_write : bo->busy_write != 0;
}

/* Whether a holder of bo has published submissions the daemon has not
 * taken yet (its hardware ring was full): they may use bo. */
static int bo_pending(struct nvd_bo *bo)
{
	for (unsigned i = 0; i < bo->nholders; i++) {
		struct nvd_client *c = bo->holders[i].cl;
		for (unsigned k = 0; k < NVD_CLIENT_CHANS; k++) {
			struct nvd_chan *ch = c->chans[k];
			if (ch && !ch->lost && ch->ctl &&
			    __atomic_load_n(&ch->ctl->head, __ATOMIC_ACQUIRE) != ch->tail)
				return 1;
		}
	}
	return 0;
}

static void pending_unlink(struct nvd *d, struct nvd_wait *w)
{
	if (!w->pending)
		return;
	for (struct nvd_wait **p = &d->pending_waits; *p; p = &(*p)->pnext)
		if (*p == w) {
			*p = w->pnext;
			break;
		}
	w->pending = 0;
	w->pnext = NULL;
}

/* Unlink and free a wait; answer it with err unless answer is 0. */
static void wait_end(struct nvd_wait *w, int answer, int err, const char *why)
{
	struct nvd_client *cl = w->cl;
	struct nvd *d = cl->d;
	struct nvd_bo *bo = w->bo;

	for (struct nvd_wait **p = &bo->waits; *p; p = &(*p)->next)
		if (*p == w) {
			*p = w->next;
			break;
		}
	if (w->cl_prev)
		w->cl_prev->cl_next = w->cl_next;
	else
		cl->waits = w->cl_next;
	if (w->cl_next)
		w->cl_next->cl_prev = w->cl_prev;
	cl->nwaits--;
	pending_unlink(d, w);
	event_free(w->timer);
	if (answer)
		nvd_reply_late(cl, NVD_MSG_BO_WAIT, w->tag, err, why);
	free(w);
	nvd_bo_unref(d, bo);
}

static void wait_timeout(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	wait_end(arg, 1, -EBUSY, "the buffer is still busy: timed out");
}

void nvd_bo_wake(struct nvd *d, struct nvd_bo *bo)
{
	if (!bo->waits)
		return;
	nvd_bo_ref(bo);   /* answering drops the waits' references */
	for (struct nvd_wait *w = bo->waits, *next; w; w = next) {
		next = w->next;
		if (!bo_busy(bo, w->flags) && !(w->pending && bo_pending(bo)))
			wait_end(w, 1, 0, NULL);
	}
	nvd_bo_unref(d, bo);
}

void nvd_waits_recheck(struct nvd *d)
{
	struct nvd_wait *w = d->pending_waits;
	while (w) {
		struct nvd_wait *next = w->pnext;
		if (!bo_pending(w->bo)) {
			/* Everything is on the card now: the busy counts decide. */
			pending_unlink(d, w);
			if (!bo_busy(w->bo, w->flags)) {
				wait_end(w, 1, 0, NULL);
				next = d->pending_waits;   /* the list may have changed */
			}
		}
		w = next;
	}
}

int nvd_bo_wait(struct nvd_client *cl, const struct nvd_req_bo_wait *rq, uint32_t tag, char *why,
		size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_bo *bo = nvd_bo_get(cl, rq->handle);

	if (rq->flags & ~(uint32_t)(NVD_WAIT_NOWAIT | NVD_WAIT_WRITE)) {
		snprintf(why, whylen, "unknown flags 0x%x", rq->flags);
		return -EINVAL;
	}
	if (!bo) {
		snprintf(why, whylen, "no buffer %u", rq->handle);
		return -ENOENT;
	}
	int pending = bo_pending(bo);
	if (!pending && !bo_busy(bo, rq->flags))
		return 0;
	if (rq->flags & NVD_WAIT_NOWAIT || !rq->timeout_ns) {
		snprintf(why, whylen, "the buffer is busy");
		return -EBUSY;
	}
	if (cl->nwaits >= NVD_CLIENT_WAITS) {
		/* Not -EAGAIN: libdrm would retry forever. */
		snprintf(why, whylen, "client limit of %u waits reached", NVD_CLIENT_WAITS);
		return -EBUSY;
	}
	int64_t ns = rq->timeout_ns < 0 || rq->timeout_ns > NVD_WAIT_MAX_NS ? NVD_WAIT_MAX_NS
									 : rq->timeout_ns;
	struct nvd_wait *w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	struct timeval tv = { (time_t)(ns / 1000000000), (suseconds_t)(ns % 1000000000 / 1000) };
	w->timer = evtimer_new(d->base, wait_timeout, w);
	if (!w->timer || evtimer_add(w->timer, &tv) < 0) {
		if (w->timer)
			event_free(w->timer);
		free(w);
		snprintf(why, whylen, "event loop refused the timer");
		return -ENOMEM;
	}
	w->cl = cl;
	w->bo = bo;
	w->tag = tag;
	w->flags = rq->flags;
	nvd_bo_ref(bo);
	w->next = bo->waits;
	bo->waits = w;
	w->cl_next = cl->waits;
	if (cl->waits)
		cl->waits->cl_prev = w;
	cl->waits = w;
	cl->nwaits++;
	if (pending) {
		w->pending = 1;
		w->pnext = d->pending_waits;
		d->pending_waits = w;
	}
	return 1;
}

void nvd_client_waits_free(struct nvd_client *cl)
{
	while (cl->waits)
		wait_end(cl->waits, 0, 0, NULL);
}
