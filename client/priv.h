/* libnvd internals. */
#ifndef NVC_PRIV_H
#define NVC_PRIV_H

#include <pthread.h>

#include "client/nvd.h"
#include "proto/proto.h"
#include "proto/ring.h"

struct nvc {
	int sock;
	pthread_mutex_t lock;        /* one request at a time; the lists below */
	uint32_t tag;
	struct nvd_rep_hello hello;
	struct nvc_bo *bos;
	struct nvc_chan *chans;
	int disp_events;             /* the display event socket, -1 until asked for */
	pthread_mutex_t disp_lock;   /* one DISP_EVENTS at a time */
	char path[108];              /* the socket, to name nvd in messages */
	pthread_mutex_t gone_lock;   /* the first to see nvd go says why */
	int gone;                    /* nvd has gone: every call fails with gone_why */
	char gone_why[200];
};

struct nvc_bo {
	struct nvc *c;
	struct nvc_bo *next;
	uint32_t handle, domain;
	uint64_t addr, size;
	int fd;
	void *map;
};

struct nvc_chan {
	struct nvc *c;
	struct nvc_chan *next;
	struct nvd_rep_chan_new info;
	int ring_fd, fence_fd, doorbell, fence_ev;
	struct nvd_ring_ctl *ctl;
	uint8_t *ring;               /* NVD_RING_DATA_SIZE bytes */
	const struct nvd_fence_page *fence;
	pthread_mutex_t submit_lock; /* head, seq */
	pthread_mutex_t wait_lock;   /* one sleeper on fence_ev at a time */
	uint32_t head, seq;
	/* nvc_chan_error: every submission up to err_scan has been looked at
	 * for good; later ones already reported have their bit in err_told
	 * (by seq % NVD_FENCE_STATUS: fewer are ever in flight) */
	pthread_mutex_t err_lock;
	uint32_t err_scan;
	uint8_t err_told[(NVD_FENCE_STATUS + 7) / 8];
	int lost_told;
};

/* The internals are named nvc_* like the API; hidden, neither libnvd.so nor
 * libnvd.a exports them (the version script and objcopy keep nvc_*). */
#define NVC_HIDDEN __attribute__((visibility("hidden")))

/* Record why a call failed (for nvc_error) and return err. */
NVC_HIDDEN int nvc_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* nvd has gone (why: how it was seen): from now on every call on c fails
 * with -ENOTCONN and a message naming nvd.  Returns that -ENOTCONN. */
NVC_HIDDEN int nvc_gone(struct nvc *c, const char *why);
/* -ENOTCONN (with the message) once nvd has gone, else 0. */
NVC_HIDDEN int nvc_check_gone(struct nvc *c);
/* Whether the connection's socket says nvd has gone (closed or said
 * goodbye), without waiting: marks it so and returns -ENOTCONN, else 0. */
NVC_HIDDEN int nvc_poll_gone(struct nvc *c);

/* One request and its reply.  rep receives the reply body; fds the reply's
 * fds (exactly as many as the message table says).  Takes c->lock. */
NVC_HIDDEN int nvc_call(struct nvc *c, uint32_t type, const void *req, void *rep, int *fds);
/* The same with one fd in the request (req_fd >= 0), for BO_IMPORT. */
NVC_HIDDEN int nvc_call_fd(struct nvc *c, uint32_t type, const void *req, void *rep, int *fds, int req_fd);

#endif
