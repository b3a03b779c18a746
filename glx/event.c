/* DRM events on the primary node: vblank waits (WAIT_VBLANK,
 * CRTC_GET_SEQUENCE, CRTC_QUEUE_SEQUENCE) and the records read() returns
 * for them and for page flips (kms.c), from nvd's display events.
 *
 * The fd a program holds for a primary node is a dup of the connection's
 * nvd event socket (nvc_disp_event_fd), not a stand-in: it polls readable
 * exactly while nvd has an event queued for the file, with no thread of
 * ours in between, and select, poll and epoll on it need nothing
 * intercepted.  Only read() is ours (libc.c): it turns each of nvd's
 * datagrams into the kernel's drm_event record.  A render node, which
 * never has events, keeps an eventfd that never becomes readable.
 *
 * nvd's events carry one 64-bit word beside the head and the count, while
 * DRM tells three kinds apart and gives the program's own 64 bits back.  So
 * the word nvd carries is ours: for a vblank wait, a slot of f->waits
 * (the kind and the program's user_data; nvd holds at most
 * NVC_VBLANK_EVENTS_MAX per connection, as many as fit the kernel's 4 KiB of
 * event space); for a flip, a serial looked up in f->flips, where a flip
 * without DRM_MODE_PAGE_FLIP_EVENT has no event to give.
 *
 * The rules are drm_vblank.c's: the same checks in the same order, 32-bit
 * WAIT_VBLANK sequences widened against the 64-bit count, "passed" meaning
 * at most 2^23 behind.  Where nvd differs: waiting for an event is the
 * master's (-EACCES; the kernel lets any opener of the node), and a
 * CRTC_QUEUE_SEQUENCE target more than 2^32 vblanks ahead is -EINVAL. */
#include "glx/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <drm_mode.h>

#define NS 1000000000ull
#define EVENT_LEN ((size_t)sizeof(struct drm_event_vblank))
_Static_assert(sizeof(struct drm_event_vblank) == 32 && sizeof(struct drm_event_crtc_sequence) == 32,
	       "every record read() gives is 32 bytes");
/* drm_wait_vblank_ioctl gives up after 3 s without the vblank. */
#define WAIT_VBLANK_TIMEOUT_NS (3 * NS)

/* vblank_passed: at most 2^23 vblanks after ref. */
static int passed(uint64_t seq, uint64_t ref)
{
	return seq - ref <= (1u << 23);
}

/* widen_32_to_64: the 64-bit count nearest to a 32-bit one. */
static uint64_t widen(uint32_t narrow, uint64_t near)
{
	return near + (uint64_t)(int64_t)(int32_t)(narrow - (uint32_t)near);
}

int event_fd_new(struct drm_file *f, int flags)
{
	if (f->node != NODE_PRIMARY)
		return eventfd(0, ((flags & O_CLOEXEC) ? EFD_CLOEXEC : 0) |
				  ((flags & O_NONBLOCK) ? EFD_NONBLOCK : 0));
	int s = nvc_disp_event_fd(f->c);
	if (s < 0) {
		errno = -s;
		return -1;
	}
	int fd = real.fcntl(s, (flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	/* The blocking mode is the open's; libnvd's own reads never block. */
	if (fd >= 0 && real.fcntl(fd, F_SETFL, flags & O_NONBLOCK) < 0) {
		int e = errno;
		real.close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* ---- read(): nvd's events as drm_event records ---- */

/* The record for ev in rec: 1, or 0 when the program is not to see it. */
static int event_record(struct drm_file *f, const struct nvc_disp_event *ev, uint8_t rec[EVENT_LEN])
{
	if (ev->head >= NVC_DISP_HEADS)
		return 0;
	uint32_t crtc = kms_head_crtc(ev->head), type;
	uint64_t user_data;
	if (ev->type == NVC_DISP_EVENT_FLIP) {
		struct kms_flip *fl = &f->flips[ev->head][ev->user_data % KMS_FLIPS_KEPT];
		if (fl->serial != ev->user_data || !fl->event)
			return 0;
		fl->serial = 0;
		type = DRM_EVENT_FLIP_COMPLETE;
		user_data = fl->user_data;
	} else if (ev->type == NVC_DISP_EVENT_VBLANK && ev->user_data < NVC_VBLANK_EVENTS_MAX &&
		   f->waits[ev->user_data].type) {
		struct kms_wait *w = &f->waits[ev->user_data];
		type = w->type;
		user_data = w->user_data;
		w->type = 0;
	} else {
		return 0;
	}
	if (type == DRM_EVENT_CRTC_SEQUENCE) {
		struct drm_event_crtc_sequence s = {
			.base = { DRM_EVENT_CRTC_SEQUENCE, sizeof(s) },
			.user_data = user_data,
			.time_ns = (int64_t)ev->time_ns,
			.sequence = ev->sequence,
		};
		memcpy(rec, &s, sizeof(s));
	} else {
		struct drm_event_vblank v = {
			.base = { type, sizeof(v) },
			.user_data = user_data,
			.tv_sec = (uint32_t)(ev->time_ns / NS),
			.tv_usec = (uint32_t)(ev->time_ns % NS / 1000),
			.sequence = (uint32_t)ev->sequence,
			.crtc_id = crtc,
		};
		memcpy(rec, &v, sizeof(v));
	}
	return 1;
}

/* drm_read: whole records only, as many as fit; blocks (unless the fd is
 * O_NONBLOCK) until there is one; 0 when the first does not fit. */
ssize_t event_read(struct drm_file *f, int fd, void *buf, size_t len)
{
	size_t done = 0;
	int r = 0;
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		if (len < EVENT_LEN) {
			if (poll(&p, 1, 0) > 0)
				return 0;
		} else {
			pthread_mutex_lock(&f->lock);
			while (!f->gone && done + EVENT_LEN <= len) {
				struct nvc_disp_event ev;
				uint8_t rec[EVENT_LEN];
				if ((r = nvc_disp_event_read(f->c, &ev)) <= 0)
					break;
				if (!event_record(f, &ev, rec))
					continue;
				if ((r = shim_put_user((uintptr_t)buf + done, rec, EVENT_LEN)) < 0)
					break;
				done += EVENT_LEN;
			}
			if (done == 0 && (f->gone || (r < 0 && lost_file_gone(f))))
				r = lost_ioctl(f);
			pthread_mutex_unlock(&f->lock);
			if (done)
				return (ssize_t)done;
			if (r < 0) {
				errno = -r;
				return -1;
			}
		}
		int fl = real.fcntl(fd, F_GETFL);
		if (fl < 0 || (fl & O_NONBLOCK)) {
			errno = fl < 0 ? errno : EAGAIN;
			return -1;
		}
		if (poll(&p, 1, -1) < 0)
			return -1;       /* EINTR: the signal's handler ran, as drm_read */
	}
}

/* ---- vblank waits ---- */

/* An event of DRM type `type` with user_data at vblank target of head (a
 * target passed already: at once); *reply is the vblank it comes at. */
static int queue_event(struct drm_file *f, unsigned head, uint32_t type, uint64_t target,
		       uint64_t user_data, uint64_t *reply)
{
	unsigned slot = 0;
	while (slot < NVC_VBLANK_EVENTS_MAX && f->waits[slot].type)
		slot++;
	if (slot == NVC_VBLANK_EVENTS_MAX)
		return -ENOMEM;          /* drm_event_reserve_init: no event space */
	/* taken before nvd can send it: read() waits for f->lock */
	f->waits[slot] = (struct kms_wait){ type, user_data };
	int r = nvc_disp_vblank_event(f->c, head, 0, target, slot, reply);
	if (r < 0)
		f->waits[slot].type = 0;
	return r == -EMFILE ? -ENOMEM : r;
}

/* A head's frame time in ns, from its mode. */
static int frame_ns(struct drm_file *f, unsigned head, uint64_t *period)
{
	struct nvc_head h;
	int r = nvc_disp_head(f->c, head, &h);
	if (r < 0)
		return r;
	if (!h.fb || !h.mode.clock)
		return -EINVAL;
	*period = (uint64_t)h.mode.htotal * h.mode.vtotal * 1000000u / h.mode.clock;
	return 0;
}

/* Sleep until head has counted target: *seq and *ns are then the count and
 * its time.  f->lock is let go while asleep (the kernel's WAIT_VBLANK is
 * DRM_UNLOCKED: the program's other threads carry on).  -EINTR when a
 * signal's handler ran, -EBUSY after 3 s without it. */
static int wait_for(struct drm_file *f, unsigned head, uint64_t target, uint64_t *seq,
		    uint64_t *ns)
{
	uint64_t period;
	struct timespec now;
	int r = frame_ns(f, head, &period);
	if (r < 0)
		return r;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t deadline = (uint64_t)now.tv_sec * NS + now.tv_nsec + WAIT_VBLANK_TIMEOUT_NS;
	for (;;) {
		if ((r = nvc_disp_vblank(f->c, head, seq, ns)) < 0)
			return r;
		if (passed(*seq, target))
			return 0;
		/* just past the vblank the count should reach it at: nvd counts
		 * from the raster position, so one look then is enough */
		uint64_t wake = *ns + (target - *seq) * period + period / 16;
		if (wake > deadline)
			wake = deadline;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((uint64_t)now.tv_sec * NS + now.tv_nsec >= deadline)
			return -EBUSY;
		struct timespec ts = { (time_t)(wake / NS), (long)(wake % NS) };
		pthread_mutex_unlock(&f->lock);
		r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		pthread_mutex_lock(&f->lock);
		if (r == EINTR)
			return -EINTR;
		if (f->gone)
			return -ENODEV;
	}
}

/* drm_wait_vblank_ioctl */
static int wait_vblank(struct drm_file *f, union drm_wait_vblank *v)
{
	uint32_t type = v->request.type;
	unsigned head;
	if (type & _DRM_VBLANK_SIGNAL)
		return -EINVAL;
	if (type & ~(uint32_t)(_DRM_VBLANK_TYPES_MASK | _DRM_VBLANK_FLAGS_MASK |
			       _DRM_VBLANK_HIGH_CRTC_MASK))
		return -EINVAL;
	if (type & _DRM_VBLANK_HIGH_CRTC_MASK)
		head = (type & _DRM_VBLANK_HIGH_CRTC_MASK) >> _DRM_VBLANK_HIGH_CRTC_SHIFT;
	else
		head = (type & _DRM_VBLANK_SECONDARY) ? 1 : 0;
	if (head >= NVC_DISP_HEADS)
		return -EINVAL;
	uint64_t seq, ns, target;
	int r = nvc_disp_vblank(f->c, head, &seq, &ns);    /* -EINVAL: the head is off */
	if (r < 0)
		return r;
	if (type & _DRM_VBLANK_RELATIVE) {
		target = seq + v->request.sequence;
		/* what libdrm's retry after EINTR waits for */
		v->request.sequence = (uint32_t)target;
		v->request.type &= ~_DRM_VBLANK_RELATIVE;
	} else {
		target = widen(v->request.sequence, seq);
	}
	if ((type & _DRM_VBLANK_NEXTONMISS) && passed(seq, target)) {
		target = seq + 1;
		v->request.type &= ~_DRM_VBLANK_NEXTONMISS;
		v->request.sequence = (uint32_t)target;
	}
	if (type & _DRM_VBLANK_EVENT) {
		uint64_t at;
		r = queue_event(f, head, DRM_EVENT_VBLANK, passed(seq, target) ? seq : target,
				v->request.signal, &at);
		if (r == 0)
			v->reply.sequence = (uint32_t)at;
		return r;
	}
	if (target != seq && (r = wait_for(f, head, target, &seq, &ns)) < 0)
		return r;
	v->reply.sequence = (uint32_t)seq;
	v->reply.tval_sec = (long)(ns / NS);
	v->reply.tval_usec = (long)(ns % NS / 1000);
	return 0;
}

/* drm_crtc_get_sequence_ioctl */
static int get_sequence(struct drm_file *f, struct drm_crtc_get_sequence *g)
{
	unsigned head;
	uint64_t seq, ns;
	int r = kms_crtc_head(g->crtc_id, &head);
	if (r < 0 || (r = nvc_disp_vblank(f->c, head, &seq, &ns)) < 0)
		return r;
	g->active = 1;           /* nvd counts only while the head shows something */
	g->sequence = seq;
	g->sequence_ns = (int64_t)ns;
	return 0;
}

/* drm_crtc_queue_sequence_ioctl */
static int queue_sequence(struct drm_file *f, struct drm_crtc_queue_sequence *q)
{
	unsigned head;
	uint64_t seq, ns;
	int r = kms_crtc_head(q->crtc_id, &head);
	if (r < 0)
		return r;
	if (q->flags & ~(uint32_t)(DRM_CRTC_SEQUENCE_RELATIVE | DRM_CRTC_SEQUENCE_NEXT_ON_MISS))
		return -EINVAL;
	if ((r = nvc_disp_vblank(f->c, head, &seq, &ns)) < 0)
		return r;
	uint64_t target = q->sequence;
	if (q->flags & DRM_CRTC_SEQUENCE_RELATIVE)
		target += seq;
	if ((q->flags & DRM_CRTC_SEQUENCE_NEXT_ON_MISS) && passed(seq, target))
		target = seq + 1;
	uint64_t at;
	if ((r = queue_event(f, head, DRM_EVENT_CRTC_SEQUENCE, passed(seq, target) ? seq : target,
			     q->user_data, &at)) == 0)
		q->sequence = at;
	return r;
}

int event_ioctl(struct drm_file *f, unsigned nr, void *arg)
{
	switch (nr) {
	case _IOC_NR(DRM_IOCTL_WAIT_VBLANK):         return wait_vblank(f, arg);
	case _IOC_NR(DRM_IOCTL_CRTC_GET_SEQUENCE):   return get_sequence(f, arg);
	case _IOC_NR(DRM_IOCTL_CRTC_QUEUE_SEQUENCE): return queue_sequence(f, arg);
	}
	return -EINVAL;
}
