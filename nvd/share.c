/* Sharing buffers between clients, as the nouveau kernel does for Mesa:
 * global flink names (opened only by authenticated clients), import by the
 * buffer's memfd (PRIME), DRM-style master and magic authentication, and
 * CPU waits for the card to be done with a buffer. */
#include "nvd/nvd.h"

#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* A random non-zero 32-bit value; 0 when the kernel gives none. */
static uint32_t random_u32(void)
{
	uint32_t v = 0;
	for (int tries = 0; tries < 16 && !v; tries++)
		if (getrandom(&v, sizeof(v), 0) != sizeof(v))
			v = 0;
	return v;
}

/* ---- names and import ---- */

int nvd_bo_flink(struct nvd_client *cl, uint32_t handle, uint32_t *name, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_bo *bo = nvd_bo_get(cl, handle);
	if (!bo) {
		snprintf(why, whylen, "no buffer %u", handle);
		return -ENOENT;
	}
	if (!bo->name) {
		uint32_t n = 0;
		for (int tries = 0; tries < 64 && !n; tries++) {
			n = random_u32();
			if (nvd_bo_find_name(d, n))
				n = 0;
		}
		if (!n) {
			snprintf(why, whylen, "no random name available");
			return -EIO;
		}
		bo->name = n;
		if (nvd_bo_hash_add(&d->names, bo, 1) < 0) {
			bo->name = 0;
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
		nvd_clog(cl, NULL, "buffer %u named 0x%08x", handle, n);
	}
	*name = bo->name;
	return 0;
}

static int authenticated(const struct nvd_client *cl)
{
	return cl->authenticated || cl->d->master == cl;
}

int nvd_bo_open_name(struct nvd_client *cl, uint32_t name, struct nvd_bo **out, uint32_t *handle,
		     char *why, size_t whylen)
{
	/* Authentication first: the unauthenticated learn nothing about names. */
	if (!authenticated(cl)) {
		snprintf(why, whylen, "not authenticated: opening buffers by name needs the "
			 "master's AUTH_MAGIC");
		return -EACCES;
	}
	struct nvd_bo *bo = nvd_bo_find_name(cl->d, name);
	if (!bo) {
		snprintf(why, whylen, "no buffer is named 0x%08x", name);
		return -ENOENT;
	}
	int r = nvd_bo_hold(cl, bo, handle, why, whylen);
	if (r == 0)
		*out = bo;
	return r;
}

int nvd_bo_import(struct nvd_client *cl, int fd, struct nvd_bo **out, uint32_t *handle,
		  char *why, size_t whylen)
{
	struct stat st;
	/* Only a memfd is looked at: fstat on a client's FUSE file would wait
	 * for its server (nvd's buffers are memfds). */
	int r = nvd_fd_is_memfd(fd) ? fstat(fd, &st) : -1;
	nvd_fd_release(fd);
	if (r < 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "the file descriptor is not an nvd buffer");
		return -EINVAL;
	}
	struct nvd_bo *bo = nvd_bo_find_ino(cl->d, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
	if (!bo) {
		snprintf(why, whylen, "the file descriptor is not an nvd buffer");
		return -EINVAL;
	}
	r = nvd_bo_hold(cl, bo, handle, why, whylen);
	if (r == 0)
		*out = bo;
	return r;
}

/* ---- master and magic ---- */

/* DRM's rules since Linux 5.8 (drm_auth.c): dropping master does not hand
 * it to whoever asks next.  While a client that has been master is
 * connected (DRM's was_master), only such a client may be master again, or
 * a privileged one: DRM's CAP_SYS_ADMIN is uid 0 here (nvd's own user is no
 * better than any other: nvd often runs as the desktop's user, as every
 * client then does).  With none (none yet, or all gone) the first to ask
 * is master, as the first opener of a primary node is in DRM. */
int nvd_set_master(struct nvd_client *cl, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	if (d->master == cl)
		return 0;
	if (d->master) {
		snprintf(why, whylen, "client %u (%s) is the master", d->master->id, d->master->name);
		return -EBUSY;
	}
	if (d->former_masters && !cl->was_master && cl->uid != 0) {
		snprintf(why, whylen, "master was dropped by a client still connected: only a client "
			 "that has been master, or root, may take it");
		return -EACCES;
	}
	nvd_clog(cl, NULL, "is the master");
	d->master = cl;
	if (!cl->was_master) {
		cl->was_master = 1;
		d->former_masters++;
	}
	return 0;
}

int nvd_drop_master(struct nvd_client *cl, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	if (d->master != cl) {
		snprintf(why, whylen, "not the master");
		return -EINVAL;
	}
	d->master = NULL;
	nvd_clog(cl, NULL, "is no longer the master");
	return 0;
}

static struct nvd_client *find_magic(struct nvd *d, uint32_t magic)
{
	if (!magic)
		return NULL;
	for (struct nvd_client *c = d->clients; c; c = c->next)
		if (c->magic == magic)
			return c;
	return NULL;
}

int nvd_get_magic(struct nvd_client *cl, uint32_t *magic, char *why, size_t whylen)
{
	for (int tries = 0; tries < 64 && !cl->magic; tries++) {
		uint32_t m = random_u32();
		if (!find_magic(cl->d, m))
			cl->magic = m;
	}
	if (!cl->magic) {
		snprintf(why, whylen, "no random magic available");
		return -EIO;
	}
	*magic = cl->magic;
	return 0;
}

int nvd_auth_magic(struct nvd_client *cl, uint32_t magic, char *why, size_t whylen)
{
	if (cl->d->master != cl) {
		snprintf(why, whylen, "only the master authenticates");
		return -EACCES;
	}
	struct nvd_client *c = find_magic(cl->d, magic);
	if (!c) {
		snprintf(why, whylen, "no client has magic 0x%08x", magic);
		return -ENOENT;
	}
	if (!c->authenticated)
		nvd_clog(cl, NULL, "authenticated client %u (%s)", c->id, c->name);
	c->authenticated = 1;
	return 0;
}

/* ---- waits ---- */

void nvd_bo_busy(struct nvd_bo *bo, uint32_t access, int delta)
{
	if (access & NVD_ACCESS_READ)
		bo->busy_read += delta;
	if (access & NVD_ACCESS_WRITE)
		bo->busy_write += delta;
}

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
	/* Other holders may have published submissions using it just now. */
	nvd_take(cl->d);
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
