/* When a channel is lost or nvd goes away under a GL program.  Mesa polls
 * its fence and query words in memory with no ioctl that could fail, so
 * whatever nvd will never run has them written as the card would have:
 * the submission refused for a lost channel, and every one still pending
 * when nvd goes.  A thread watches each file's connection: nvd killed
 * sends nothing, and Mesa may be spinning on a fence with no call to us.
 *
 * Once nvd has gone, every ioctl on the file is -ENODEV, as on an
 * unplugged device, and the program exits at its next one (it cannot draw
 * any more, and a GL loop on a dead device would spin): NVD_LOST=continue
 * keeps it running without drawing. */
#include "glx/shim.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "hw/enums-3d.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"

/* Mesa's notifiers for fences and queries (mesa-nouveau-uapi.md §6). */
#define MESA_FENCE_NTFY 0xbeef1e00u
#define MESA_QUERY_NTFY 0xbeef0351u
#define MESA_3D_SUBC    7

static uint8_t *ntfy_at(struct chan *ch, uint32_t handle, uint64_t off, unsigned len)
{
	uint8_t *map = ch->notify_bo ? nvc_bo_map(ch->notify_bo) : NULL;
	for (unsigned i = 0; map && i < ch->nntfy; i++)
		if (ch->ntfy[i].handle == handle && off + len <= ch->ntfy[i].size)
			return map + ch->ntfy[i].offset + off;
	return NULL;
}

const uint8_t *push_range_words(struct drm_file *f, const struct push_range *r, uint32_t *n)
{
	struct gem *g = gem_find(f, r->handle);
	const uint8_t *m = g ? nvc_bo_map(g->bo) : NULL;
	if (!m || r->offset > nvc_bo_size(g->bo) || r->length > nvc_bo_size(g->bo) - r->offset)
		return NULL;
	*n = (uint32_t)(r->length / 4);
	return m + r->offset;
}

/* What the card would have written for one push range that will not run:
 * fence values, and query reports with no samples. */
void lost_complete(struct drm_file *f, struct chan *ch, const struct push_range *r)
{
	uint32_t n, fence_off = 0;
	const uint8_t *w = push_range_words(f, r, &n);
	for (uint32_t i = 0; w && i < n;) {
		struct nv_cmd c = nv_cmd_decode(nv_rd32le(w + 4 * i));
		i++;
		if (c.type != NV_CMD_INC && c.type != NV_CMD_NONINC)
			continue;
		for (unsigned j = 0; j < c.count && i < n; j++, i++) {
			uint32_t mthd = c.mthd + (c.type == NV_CMD_INC ? 4 * j : 0);
			uint32_t v = nv_rd32le(w + 4 * i);
			uint8_t *t;
			if (c.subc != MESA_3D_SUBC)
				continue;
			if (mthd == NV_CURIE_FENCE_OFFSET)
				fence_off = v;
			else if (mthd == NV_CURIE_FENCE_VALUE &&
				 (t = ntfy_at(ch, MESA_FENCE_NTFY, fence_off, 4)))
				nv_wr32le(t, v);
			else if (mthd == NV_CURIE_QUERY_GET &&
				 (t = ntfy_at(ch, MESA_QUERY_NTFY, NV40_QUERY_GET_OFFSET(v),
					      NV40_QUERY_REPORT_SIZE)))
				memset(t, 0, NV40_QUERY_REPORT_SIZE);
		}
	}
}

/* ---- what nvd has not run yet ---- */

struct pending {
	struct pending *next;
	uint32_t seq;
	unsigned n;
	struct push_range r[];
};

int lost_pending_add(struct chan *ch, uint32_t seq, const struct push_range *r, unsigned n)
{
	/* the oldest first: Mesa reuses a push buffer only after its fence */
	while (ch->pending && nvc_fence_done(ch->ch, ch->pending->seq)) {
		struct pending *done = ch->pending;
		ch->pending = done->next;
		free(done);
	}
	struct pending *p = malloc(sizeof(*p) + n * sizeof(*r));
	if (!p)
		return -ENOMEM;
	p->next = NULL;
	p->seq = seq;
	p->n = n;
	memcpy(p->r, r, n * sizeof(*r));
	struct pending **tail = &ch->pending;
	while (*tail)
		tail = &(*tail)->next;
	*tail = p;
	return 0;
}

void lost_pending_complete(struct drm_file *f, struct chan *ch)
{
	while (ch->pending) {
		struct pending *p = ch->pending;
		ch->pending = p->next;
		for (unsigned i = 0; i < p->n && !nvc_fence_done(ch->ch, p->seq); i++)
			lost_complete(f, ch, &p->r[i]);
		free(p);
	}
}

void lost_pending_free(struct chan *ch)
{
	while (ch->pending) {
		struct pending *p = ch->pending;
		ch->pending = p->next;
		free(p);
	}
}

/* Sleep until the oldest submission nvd has not run yet on any channel of
 * f completes, timeout_ns at most: 1 if there was one, 0 if none.  Under
 * f->lock, so no channel goes meanwhile. */
static int pending_wait(struct drm_file *f, int64_t timeout_ns)
{
	for (unsigned i = 0; i < FILE_CHANS; i++) {
		struct chan *ch = f->chans[i];
		for (struct pending *p = ch ? ch->pending : NULL; p; p = p->next)
			if (!nvc_fence_done(ch->ch, p->seq)) {
				(void)nvc_fence_wait(ch->ch, p->seq, timeout_ns);
				return 1;
			}
	}
	return 0;
}

/* ---- nvd gone ---- */

static int keep_running(void)
{
	const char *v = getenv("NVD_LOST");
	return v && !strcmp(v, "continue");
}

int lost_file_gone(struct drm_file *f)
{
	static int said;
	if (f->gone || !f->c)
		return 1;
	if (nvc_check(f->c) == 0)
		return 0;
	const char *why = nvc_error();
	f->gone = 1;
	for (unsigned i = 0; i < FILE_CHANS; i++)
		if (f->chans[i]) {
			lost_pending_complete(f, f->chans[i]);
			f->chans[i]->lost = 1;
		}
	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		shim_log("libnvd-drm: %s: GL cannot draw any more%s", why,
			 keep_running() ? " (NVD_LOST=continue: the program goes on)"
					: "; the program exits at its next GL call (NVD_LOST=continue keeps it)");
	return 1;
}

int lost_ioctl(struct drm_file *f)
{
	if (!keep_running()) {
		fflush(stdout);
		_exit(1);
	}
	(void)f;
	return -ENODEV;
}

/* The watcher: one thread polls every file's connection for the hangup,
 * while there are files: the last one going stops it (and closes its
 * eventfd), so a program that closed its device holds nothing of ours. */
#define WATCH_MAX 64
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static struct drm_file *watched[WATCH_MAX];
static unsigned nwatched;
static int wake_fd = -1;      /* the running watcher's; -1: none runs */

static void *watch(void *arg)
{
	int fd = (int)(intptr_t)arg;
	for (;;) {
		struct pollfd p[WATCH_MAX + 1] = { { fd, POLLIN, 0 } };
		pthread_mutex_lock(&watch_lock);
		if (wake_fd != fd) {           /* told to stop */
			pthread_mutex_unlock(&watch_lock);
			close(fd);
			return NULL;
		}
		unsigned n = nwatched;
		for (unsigned i = 0; i < n; i++)
			p[i + 1] = (struct pollfd){ nvc_fd(watched[i]->c), 0, 0 };
		pthread_mutex_unlock(&watch_lock);
		if (poll(p, n + 1, -1) < 0)
			continue;
		uint64_t v;
		if (p[0].revents && read(fd, &v, sizeof(v)) < 0) {
			/* woken all the same: the set is read again */
		}
		pthread_mutex_lock(&watch_lock);
		for (unsigned k = 1; k <= n; k++)
			for (unsigned i = 0; p[k].revents && i < nwatched; i++) {
				struct drm_file *f = watched[i];
				if (nvc_fd(f->c) != p[k].fd)
					continue;
				pthread_mutex_lock(&f->lock);
				int gone = lost_file_gone(f);
				pthread_mutex_unlock(&f->lock);
				if (gone)
					watched[i] = watched[--nwatched];   /* not polled again */
				break;
			}
		pthread_mutex_unlock(&watch_lock);
	}
}

/* Under watch_lock: the watcher reads its set again (or stops). */
static void wake(int fd)
{
	uint64_t one = 1;
	if (fd >= 0)
		(void)!write(fd, &one, sizeof(one));
}

void lost_watch(struct drm_file *f)
{
	pthread_mutex_lock(&watch_lock);
	if (wake_fd < 0 && (wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) >= 0) {
		/* the program's signals go to its own threads */
		sigset_t all, old;
		pthread_t thread;
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		if (pthread_create(&thread, NULL, watch, (void *)(intptr_t)wake_fd) == 0) {
			pthread_detach(thread);
		} else {
			shim_log("libnvd-drm: no thread to watch nvd: a lost nvd is seen at the next call");
			close(wake_fd);
			wake_fd = -1;
		}
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (nwatched < WATCH_MAX)
		watched[nwatched++] = f;
	wake(wake_fd);
	pthread_mutex_unlock(&watch_lock);
}

void lost_unwatch(struct drm_file *f)
{
	pthread_mutex_lock(&watch_lock);
	for (unsigned i = 0; i < nwatched; i++)
		if (watched[i] == f)
			watched[i] = watched[--nwatched];
	int fd = wake_fd;
	if (!nwatched)
		wake_fd = -1;        /* the watcher stops and closes fd */
	wake(fd);
	pthread_mutex_unlock(&watch_lock);
}

int lost_yield(int64_t timeout_ns)
{
	int waited = 0;
	pthread_mutex_lock(&watch_lock);
	for (unsigned i = 0; i < nwatched && !waited; i++) {
		struct drm_file *f = watched[i];
		if (f->gone || pthread_mutex_trylock(&f->lock))
			continue;          /* a thread in an ioctl: not waited on */
		waited = pending_wait(f, timeout_ns);
		pthread_mutex_unlock(&f->lock);
	}
	pthread_mutex_unlock(&watch_lock);
	return waited;
}

/* In a forked child: no watcher thread, and the parent's files are inert. */
void lost_fork_child(void)
{
	pthread_mutex_init(&watch_lock, NULL);
	nwatched = 0;
	if (wake_fd >= 0)
		close(wake_fd);
	wake_fd = -1;
}
