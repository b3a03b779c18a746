/* The daemon's own structures: the card as nvd runs it, clients, buffer
 * objects, channels.  Single-threaded: everything here runs on the libevent
 * loop (the card model has its own thread behind card.h, and fds.c closes
 * clients' descriptors on one of its own). */
#ifndef NVD_NVD_H
#define NVD_NVD_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>

#include "hw/ramin.h"
#include "hw/regs.h"
#include "nvd/alloc.h"
#include "nvd/card.h"
#include "nvd/display.h"
#include "nvd/validate.h"
#include "proto/proto.h"
#include "proto/ring.h"

/* Whether a CACHE1 METHOD slot is the daemon's fence: only the daemon puts
 * methods on its subchannel. */
static inline int nvd_slot_is_fence(uint32_t slot)
{
	return NV_PFIFO_CACHE1_METHOD_SUBC(slot) == NVD_SUBC_DAEMON &&
	       NV_PFIFO_CACHE1_METHOD_MTHD(slot) == NV_NVSW_FENCE;
}

struct event_base;
struct event;

#define NVD_HW_RING_SIZE    (1u << 20)    /* the daemon-private ring of each channel */
#define NVD_CLIENT_CHANS    32
#define NVD_KEPT_CLOSED     16           /* closed buffers kept for the next submission */
#define NVD_FIRST_CHID      1             /* chid 0: the daemon's; 31: "no channel" */
#define NVD_CLIENT_CHIDS    (NV40_FIFO_CHANNELS - 1 - NVD_FIRST_CHID)
#define NVD_CHID_NONE       NV40_FIFO_CHID_NONE   /* a virtual channel's chid */
#define NVD_MAX_CHANS       1024          /* open channels, virtual ones included */
#define NVD_CLIENT_HW_CHANS 16            /* hardware channels one client may hold */
#define NVD_VRAM_DMA_HANDLE 0xbeef0201u   /* the nouveau kernel's handles, which Mesa */
#define NVD_GART_DMA_HANDLE 0xbeef0202u   /* and the DDX expect */
#define NVD_SW_HANDLE       NVD_HANDLE_DAEMON_FIRST   /* the daemon's software object */
/* The daemon's objects for the fragment program shadow (validate.h, struct
 * nvd_vfp): its M2MF, ctxdmas over the clients' VRAM and GART (read) and
 * over the channel's shadow area (read and write), and the read-only
 * ctxdma over the clients' VRAM and every shadow area that the card gets
 * in DMA_TEXTURE0/1 wherever a client names the VRAM ctxdma there, for
 * its textures and programs.  Like NVD_SW_HANDLE, in RAMHT only: no client
 * may name, make or free them. */
#define NVD_FP_M2MF_HANDLE  (NVD_HANDLE_DAEMON_FIRST + 1)
#define NVD_FP_VRAM_HANDLE  (NVD_HANDLE_DAEMON_FIRST + 2)
#define NVD_FP_GART_HANDLE  (NVD_HANDLE_DAEMON_FIRST + 3)
#define NVD_FP_AREA_HANDLE  (NVD_HANDLE_DAEMON_FIRST + 4)
#define NVD_FP_TEX_HANDLE   (NVD_HANDLE_DAEMON_FIRST + 5)
#define NVD_FP_NOBJS        5
/* VRAM from the top: RAMIN, the cursor images, the channels' shadow areas
 * (one after the other by chid), then the clients' buffers.  No ctxdma a
 * client can name reaches above the clients' buffers but the read-only one
 * of textures and programs, which ends with the shadow areas. */
#define NVD_FP_AREA_SIZE    (256u << 10)
#define NVD_CURSOR_AREA     (NVD_DISP_HEADS * NVD_CURSOR_SIZE * NVD_CURSOR_SIZE * 4u)
#define NVD_MAX_CLIENTS     4096
#define NVD_HELLO_TIMEOUT_S 10            /* a connection must say HELLO this soon */
#define NVD_TIMESLICE_US    100           /* card time a busy channel runs before the next */
#define NVD_HEAVY_ON_CARD   1             /* heavy channels with work on the card at once */
#define NVD_STRIKES         8             /* refused submissions before a channel is lost */
#define NVD_CLIENT_WAITS    64            /* parked BO_WAITs per client */
#define NVD_REPLY_WHY       128           /* bytes of a reply's reason, NUL included */

/* One client's handle for a buffer. */
struct nvd_bo_holder {
	struct nvd_client *cl;
	uint32_t handle;
};

struct nvd_bo {
	unsigned refs;           /* holders' handles, ctxdmas over it, submissions in flight, waits */
	struct nvd_client *owner;/* the creator, who pays; NULL once it has gone (orphaned) */
	struct nvd_bo *own_prev, *own_next;   /* the owner's list of buffers it pays for */
	struct nvd_bo_holder *holders;
	unsigned nholders, holders_cap;
	uint8_t domain;          /* NVD_DOMAIN_*; addr is 0 and map NULL in HOST */
	uint8_t pref;            /* the aperture it was asked for: where it goes back to */
	uint64_t addr, size;
	int fd;
	uint8_t *map;            /* the daemon's view: the card window at addr */
	/* A move (nvd_bo_move) leaves the memfd mapped at its old place too,
	 * for submissions validated before it, until the buffer is idle. */
	uint8_t stale_domain;    /* 0: none */
	uint64_t stale_addr;
	unsigned pins;           /* ctxdmas over it, scanout: their words name addr, so it stays */
	struct nvd_bo *lru_prev, *lru_next;   /* its aperture's LRU (struct nvd_lru), not in HOST */
	uint32_t list_stamp;     /* submit.c: listed by the submission being validated, */
	uint32_t list_first;     /* first in its list at this index */
	/* sharing (names.c) */
	uint32_t name;           /* flink name, 0 until a holder asks */
	uint64_t dev, ino;       /* the memfd's identity, for IMPORT */
	struct nvd_bo *name_next, *ino_next;  /* hash chains */
	/* submissions in flight that read / write it (NVD_ACCESS_*), any client's,
	 * and their channel (NVD_CHAN_MANY: more than one; NULL: none) */
	unsigned busy_read, busy_write;
	const struct nvd_chan *busy_chan;
	/* sync.c: the oldest waiting entry that lists it, and whether it writes it */
	struct nvd_chan *waiter;
	int waiter_write;
	struct nvd_wait *waits;  /* parked BO_WAIT requests */
};

/* A parked BO_WAIT: answered when the buffer is idle or the timer fires. */
struct nvd_wait {
	struct nvd_wait *next;   /* on the buffer */
	struct nvd_wait *cl_prev, *cl_next;   /* on the client */
	struct nvd_wait *pnext;  /* on nvd's pending list, when pending */
	int pending;             /* busy only because a holder's channel has entries the
				    daemon could not take yet (its ring was full) */
	struct nvd_client *cl;
	struct nvd_bo *bo;       /* referenced */
	struct event *timer;
	uint32_t tag, flags;
};

/* An aperture's buffers, least recently used first: eviction takes from the head. */
struct nvd_lru {
	struct nvd_bo *head, *tail;
	uint64_t settling;       /* bytes of ranges moved from, freed once their buffer is idle */
};

/* A hash of buffers by a 64-bit key, chained through the buffers. */
struct nvd_bo_hash {
	struct nvd_bo **b;
	unsigned nbuckets, count;
};

struct nvd_obj {
	struct nvd_obj *next;    /* freed objects wait here until the channel goes */
	struct nvd_vobj v;       /* what the validator sees (handle, class, kind, range) */
	uint32_t inst, inst_size;/* RAMIN */
	uint32_t ramht_slot;
	struct nvd_bo *bo;       /* DMA_BO: the buffer it covers */
	/* Freed while submissions validated against it were in flight: its
	 * RAMHT entry stays until the channel's fence reaches retire_seq. */
	int hashed;
	uint32_t retire_seq;
};

#define NVD_CHAN_MANY ((const struct nvd_chan *)1)

struct nvd_inflight_bo {
	struct nvd_bo *bo;       /* referenced until the fence completes */
	uint32_t access;         /* NVD_ACCESS_*: counted in the buffer's busy_read/busy_write */
};

struct nvd_inflight {
	uint32_t seq;
	uint32_t ring_end;       /* hardware ring offset after this submission */
	unsigned nbos;
	struct nvd_inflight_bo *bos;
};

/* What one hardware channel owns, whichever channel runs on it (vchan.c):
 * its grctx image and ring ctxdma in RAMIN, its ring in the bus window and
 * its fragment program shadow area in VRAM. */
struct nvd_hwchan {
	struct nvd_chan *ch;     /* the channel on it, NULL: free */
	uint32_t grctx_inst, pb_dma_inst;
	uint64_t ring_addr;
	uint32_t fp_area;
	int fp_dirty;            /* the area holds a channel's programs: fill it first */
	uint64_t busy_base;      /* the card's busy time for this chid when ch took it */
};

struct nvd_chan {
	struct nvd_client *cl;
	unsigned id, chid;       /* chid: NVD_CHID_NONE while virtual */
	struct nvd_chan *all_prev, *all_next;   /* nvd's open channels */
	/* objects, sorted by handle */
	struct nvd_obj *objs;
	unsigned nobjs, objs_cap;
	struct nvd_obj *zombies; /* still named by the channel's PGRAPH state */
	unsigned nhashed;        /* zombies whose handle is still in RAMHT */
	uint32_t sw_slot;
	struct nvd_vstate *vs;
	/* The fragment program shadow: the area (VRAM addr), its objects
	 * (RAMIN instances, RAMHT slots), and its ring of slots (vfp). */
	uint32_t fp_area;
	uint32_t fp_inst[NVD_FP_NOBJS], fp_slot[NVD_FP_NOBJS];
	struct nvd_vfp vfp;
	/* instance memory: the hardware channel's grctx and ring ctxdma, and
	 * the channel's own software object */
	uint32_t grctx_inst, pb_dma_inst, sw_inst;
	/* vchan.c: the state saved while virtual (RAMFC words, the grctx
	 * image up to its last non-zero word, the bytes the bound fragment
	 * program may fetch from its shadow), the daemon methods the ring
	 * starts with once on a hardware channel (NVD_VCHAN_*), and when the
	 * channel last took work (least recently used ones are unloaded) */
	uint32_t saved_ramfc[NV40_RAMFC_SIZE / 4];
	uint8_t *saved_grctx, *saved_fp;
	uint32_t saved_grctx_len, saved_fp_off, saved_fp_len;
	unsigned prologue;
	uint64_t used_stamp;
	/* the hardware ring: daemon memory in the bus window, behind its own ctxdma */
	uint64_t ring_addr;      /* offset in the bus window */
	uint32_t *ring;
	uint32_t wptr;           /* bytes */
	uint32_t hw_free_from;   /* ring offset up to which the card has finished */
	/* shared with the client */
	int ring_fd, fence_fd, doorbell, fence_ev;
	struct nvd_ring_ctl *ctl;
	uint8_t *sring;
	struct nvd_fence_page *fence;
	struct event *doorbell_evt;
	uint32_t tail, seq;      /* consumed bytes, last consumed seq */
	struct nvd_inflight *inflight;   /* ring of NVD_FENCE_STATUS */
	unsigned if_head, if_count;
	uint32_t completed;
	unsigned strikes;
	/* sync.c: its next entry waits for buffers other channels use, since
	 * stall_stamp (0: it does not); the buffers it holds back meanwhile */
	uint64_t stall_stamp;
	struct nvd_bo **marked;
	unsigned nmarked;
	uint32_t waited_pass;    /* sched.c: nvd_take's pass in which its entry waits */
	int heavy;               /* sched.c: it queued work behind work in flight */
	/* The buffer its bound fragment program came from, pinned (submit.c):
	 * Mesa writes later FP_ACTIVE_PROGRAMs from its address unrelocated. */
	struct nvd_bo *fp_bo;
	int took;                /* nvd_take took entries: kick it */
	int lost;                /* -errno once lost */
	/* watchdog.c: card time the oldest submission in flight (wd_seq) has
	 * had so far, and the ring position the card was at */
	uint32_t wd_seq;
	uint64_t wd_busy_ns;
	uint32_t wd_get;
	uint64_t submits, refused;
};

struct nvd_client {
	struct nvd *d;
	struct nvd_client *next;
	unsigned id;
	int sock;
	struct event *evt;
	pid_t pid;
	uid_t uid;
	char name[NVD_NAME_LEN];
	int greeted;
	struct nvd_bo **bos;     /* by handle - 1 */
	unsigned bos_cap, nbos;
	struct nvd_chan *chans[NVD_CLIENT_CHANS];
	unsigned nchans;
	uint64_t vram, gart, host;   /* bytes of buffers owned (created and still alive) */
	uint64_t evicted;        /* its buffers moved out to make room */
	struct nvd_bo *owned;    /* those buffers */
	uint64_t submits, refused;
	uint64_t fences;         /* its submissions the card has completed */
	uint64_t card_ns;        /* card time its channels had until they left the card */
	uint64_t validate_ns, validate_max_ns;   /* time its submissions took to validate */
	/* authentication (auth.c) */
	uint32_t magic;          /* 0 until GET_MAGIC */
	int was_master;          /* DRM's was_master: it may take master again */
	int authenticated;       /* by the master's AUTH_MAGIC */
	struct nvd_wait *waits;  /* parked BO_WAITs (wait.c) */
	unsigned nwaits;
	struct nvd_park *parked; /* a request parked behind its submissions (sched.c) */
	/* The last buffers the client closed, still reachable by its next
	 * submission (bo.c: nvd_bo_close_kept). */
	struct nvd_bo *kept[NVD_KEPT_CLOSED];
	unsigned nkept;
};

struct nvd_opts {
	const char *socket;
	struct nvd_card_opts card;
	unsigned timeslice;      /* PFIFO DMA_TIMESLICE: microseconds of card time */
	unsigned gpu_timeout_ms; /* card time one submission may take, 0: no limit */
	uint64_t quota;          /* bytes of buffers per client */
	unsigned max_bos;        /* buffers per client */
	int verbose;
	const char *vnc, *vnc_password_file;   /* the live view (vnc.h), NULL: none */
};

struct nvd {
	struct nvd_opts o;
	struct event_base *base;
	struct nvd_card *card;
	struct event *irq_evt;
	int listen_fd;
	struct event *listen_evt;
	char sock_path[108];
	dev_t sock_dev;          /* the socket file bound there: the one to remove */
	ino_t sock_ino;
	struct nvd_client *clients;
	unsigned nclients, next_client_id;
	char stop_why[64];       /* the goodbye clients get when nvd stops */
	int sock_activated;      /* the socket came from systemd: its file is not nvd's */
	/* memory */
	struct nvd_ra vram, gart, ramin;
	uint64_t vram_client_size, gart_client_size;   /* what the clients' buffers may use */
	uint64_t fp_areas;                             /* VRAM: the channels' program shadows */
	uint64_t cursors;                              /* VRAM: the heads' cursor images */
	uint64_t vram_daemon, gart_daemon;             /* bytes the daemon holds */
	uint64_t vram_orphaned, gart_orphaned, host_orphaned;   /* buffers whose creator has gone */
	struct nvd_lru lru[2];                         /* VRAM, GART (bo.c) */
	uint64_t evictions, evicted_bytes;             /* buffers moved out to make room */
	unsigned nbos;                                 /* live buffers */
	struct nvd_bo_hash names, inos;                /* bo.c */
	/* DRM master (auth.c): the current one; connected clients that have
	 * been master (only they, or root, may take it while there are any) */
	struct nvd_client *master;
	unsigned former_masters;
	struct nvd_disp disp;                          /* display.c and its rooms (disp.h) */
	struct nvd_wait *pending_waits;                /* wait.c */
	uint32_t ramht_bits;
	struct nvd_chan *chid[NV40_FIFO_CHANNELS];     /* the channel on each hardware one */
	unsigned nchans;                               /* open, virtual ones included */
	/* vchan.c */
	struct nvd_hwchan hw[NV40_FIFO_CHANNELS];
	struct nvd_chan *chans;                        /* open channels */
	unsigned nchans_hw;                            /* of them on hardware channels */
	uint64_t chan_loads, chan_unloads, vchan_clock, vchan_switch_ns;
	uint64_t vchan_saved;                          /* bytes of state saved for virtual ones */
	int vchan_waiting;                             /* a channel waits for a hardware one */
	uint64_t start_ms, submits, refused, fences;
	uint64_t oracle_violations;        /* --sim-check: what the card's oracle found */
	/* sync.c */
	uint64_t stall_clock;
	int sync_released;                 /* a waiting entry was taken */
	/* sched.c */
	int taking, take_again;            /* nvd_take runs (and must look again) */
	uint32_t take_pass;
	struct event *watchdog;            /* watchdog.c's tick */
	uint64_t wd_last_ns;
};

/* log.c: one line per event, naming client, channel, method and offset */
/* Whether stderr is the journal (then lines carry syslog priorities). */
void nvd_log_init(void);
void nvd_log(int verbose, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error that stops nvd starting: "nvd: ..." without a timestamp. */
void nvd_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void nvd_clog(struct nvd_client *cl, struct nvd_chan *ch, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
extern int nvd_verbose;
/* CLOCK_MONOTONIC in nanoseconds: the daemon's one clock for durations. */
uint64_t nvd_now_ns(void);

/* fifo.c: the card brought up and driven through registers */
int nvd_fifo_init(struct nvd *d, char *err, size_t errlen);
void nvd_fifo_fini(struct nvd *d);
uint8_t *nvd_ramin(struct nvd *d, uint32_t off);
int nvd_ramin_alloc(struct nvd *d, uint32_t size, uint32_t align, uint32_t *off);
void nvd_ramin_free(struct nvd *d, uint32_t off, uint32_t size);
void nvd_ctxdma_write(struct nvd *d, uint32_t inst, unsigned cls, unsigned target,
		      unsigned access, uint64_t base, uint64_t size);
int nvd_ramht_insert(struct nvd *d, unsigned chid, uint32_t handle, unsigned engine,
		     uint32_t inst, uint32_t *slot);
void nvd_ramht_remove(struct nvd *d, uint32_t slot);
void nvd_fifo_chan_stop(struct nvd *d, struct nvd_chan *ch);
void nvd_fifo_kick(struct nvd *d, struct nvd_chan *ch);
/* The chid whose method PGRAPH is in the middle of, -1 when idle. */
int nvd_fifo_gr_running(struct nvd *d);
void nvd_irq(struct nvd *d);

/* The channel's state to and from the card (vchan.c drives these). */
void nvd_fifo_chan_load(struct nvd *d, struct nvd_chan *ch);
void nvd_fifo_chan_unload(struct nvd *d, struct nvd_chan *ch);
/* Nothing of the channel's is in the card's FIFO, pending or running. */
int nvd_fifo_chan_quiet(struct nvd *d, const struct nvd_chan *ch);
void nvd_ramin_zero(struct nvd *d, uint32_t off, uint32_t size);
void nvd_ramin_read(struct nvd *d, uint32_t off, void *buf, uint32_t size);
void nvd_ramin_write(struct nvd *d, uint32_t off, const void *buf, uint32_t size);

/* vchan.c: virtual channels: more open channels than the card has.  An
 * idle one's RAMFC, grctx and RAMHT entries are saved to daemon memory and
 * its hardware channel reused; one with work gets one back. */
/* Reserve the hardware channels' own resources. */
int nvd_vchan_init(struct nvd *d, char *err, size_t errlen);
/* A new channel joins nvd's open ones with a fresh state; it takes a free
 * hardware channel if there is one. */
void nvd_vchan_add(struct nvd_chan *ch);
/* Put the channel on a hardware channel, unloading the least recently
 * used idle one if none is free.  0, -EBUSY (none can be had now: retried
 * when one retires), or another -errno (the channel was lost). */
int nvd_vchan_get(struct nvd_chan *ch);
/* RAMHT is full around one of the channel's handles: an idle channel's
 * entries leave.  0, or -ENOSPC when no channel on the card is idle. */
int nvd_vchan_ramht_room(struct nvd_chan *ch);
/* The channel took work: its ring's daemon methods ran with it. */
void nvd_vchan_used(struct nvd_chan *ch);
/* The channel, stopped, gives back its hardware channel and saved state. */
void nvd_vchan_remove(struct nvd_chan *ch);
/* Card time (PFIFO's, when the card measures it) the channel has had
 * since it took its hardware channel; 0 while it is virtual.  The client's
 * card_ns gets it when the channel leaves. */
uint64_t nvd_vchan_busy_ns(const struct nvd_chan *ch);

/* watchdog.c: stops a channel whose submission keeps the card busy past
 * --gpu-timeout (o.gpu_timeout_ms, 0: never) */
int nvd_watchdog_start(struct nvd *d);
void nvd_watchdog_stop(struct nvd *d);

/* bo.c */
int nvd_bo_new(struct nvd_client *cl, uint64_t size, unsigned domain, struct nvd_bo **out,
	       uint32_t *handle, char *why, size_t whylen);
struct nvd_bo *nvd_bo_get(struct nvd_client *cl, uint32_t handle);
void nvd_bo_ref(struct nvd_bo *bo);
void nvd_bo_unref(struct nvd *d, struct nvd_bo *bo);
int nvd_bo_close(struct nvd_client *cl, uint32_t handle);
int nvd_bo_close_kept(struct nvd_client *cl, uint32_t handle);
void nvd_bo_kept_release(struct nvd_client *cl);
/* Place the buffer in `domain` (VRAM or GART) for the submissions validated
 * from now on, as the kernel migrates a buffer into a submission's valid
 * domains, evicting idle buffers to make room (none listed by the
 * submission being placed: list_stamp == keep, 0 for none).  0, -EBUSY
 * (pinned, or a move still settling), -EAGAIN (buffers in use are in the
 * way: room comes as they retire) or -ENOSPC; why says which. */
int nvd_bo_move(struct nvd *d, struct nvd_bo *bo, unsigned domain, uint32_t keep, char *why,
		size_t whylen);
/* Place it (domain 0: where it is, or the aperture it was made for) and
 * keep it there until nvd_bo_unpin: its address is written into the card. */
int nvd_bo_pin(struct nvd *d, struct nvd_bo *bo, unsigned domain, char *why, size_t whylen);
static inline void nvd_bo_unpin(struct nvd_bo *bo)
{
	bo->pins--;
}
/* An idle, unpinned buffer leaves its aperture for host memory. */
void nvd_bo_unplace(struct nvd *d, struct nvd_bo *bo);
/* A submission taken uses it: the most recently used of its aperture. */
void nvd_bo_used(struct nvd *d, struct nvd_bo *bo);
/* The card is done with every submission that used the buffer. */
void nvd_bo_idle(struct nvd *d, struct nvd_bo *bo);
/* Give the client a handle for a buffer someone else holds (its existing
 * one if it has one).  0 or -errno. */
int nvd_bo_hold(struct nvd_client *cl, struct nvd_bo *bo, uint32_t *handle, char *why,
		size_t whylen);
/* The client's handle for bo, 0 if it holds none. */
uint32_t nvd_bo_handle_of(struct nvd_client *cl, struct nvd_bo *bo);
/* The client goes: its buffers still held by others become orphans. */
void nvd_bo_orphan_all(struct nvd_client *cl);
/* The daemon's buffers by flink name (by_name) or memfd identity. */
int nvd_bo_hash_add(struct nvd_bo_hash *h, struct nvd_bo *bo, int by_name);
void nvd_bo_hash_del(struct nvd_bo_hash *h, struct nvd_bo *bo, int by_name);
struct nvd_bo *nvd_bo_find_name(struct nvd *d, uint32_t name);
struct nvd_bo *nvd_bo_find_ino(struct nvd *d, uint64_t dev, uint64_t ino);
void nvd_bo_hash_fini(struct nvd *d);

/* names.c: flink names and import by memfd */
int nvd_bo_flink(struct nvd_client *cl, uint32_t handle, uint32_t *name, char *why, size_t whylen);
int nvd_bo_open_name(struct nvd_client *cl, uint32_t name, struct nvd_bo **out, uint32_t *handle,
		     char *why, size_t whylen);
/* Consumes fd (releases it in every case, nvd_fd_release). */
int nvd_bo_import(struct nvd_client *cl, int fd, struct nvd_bo **out, uint32_t *handle,
		  char *why, size_t whylen);

/* auth.c: DRM master and magic authentication */
int nvd_set_master(struct nvd_client *cl, char *why, size_t whylen);
int nvd_drop_master(struct nvd_client *cl, char *why, size_t whylen);
int nvd_get_magic(struct nvd_client *cl, uint32_t *magic, char *why, size_t whylen);
int nvd_auth_magic(struct nvd_client *cl, uint32_t magic, char *why, size_t whylen);
/* The master, or a client it authenticated: it may open buffers by name. */
int nvd_authenticated(const struct nvd_client *cl);
/* The client goes: it is master no more. */
void nvd_auth_client_gone(struct nvd_client *cl);
/* A random non-zero 32-bit value (names, magics); 0 when the kernel gives none. */
uint32_t nvd_random_u32(void);

/* wait.c: BO_WAIT */
/* 0: idle now, -EBUSY: busy and NOWAIT (or no room to park), 1: parked, the
 * reply follows with tag; -errno otherwise. */
int nvd_bo_wait(struct nvd_client *cl, const struct nvd_req_bo_wait *rq, uint32_t tag, char *why,
		size_t whylen);
/* Answer the parked waits the buffer's state now satisfies. */
void nvd_bo_wake(struct nvd *d, struct nvd_bo *bo);
/* Channels made progress: look again at waits parked as pending. */
void nvd_waits_recheck(struct nvd *d);
/* Forget the client's parked waits without answering them. */
void nvd_client_waits_free(struct nvd_client *cl);

/* sync.c: order between channels on shared buffers, and the buffers' busy
 * counts.  A leaf: it calls only bo.c. */
/* A submission in flight on ch uses bo (access: NVD_ACCESS_*). */
void nvd_sync_hold(struct nvd_chan *ch, struct nvd_bo *bo, uint32_t access);
/* That submission retired: 1 when no submission in flight uses bo now. */
int nvd_sync_release(struct nvd_bo *bo, uint32_t access);
/* Whether ch's next entry, listing bos with sb's access, must wait; then it
 * holds back later conflicting entries of other channels. */
int nvd_sync_wait(struct nvd_chan *ch, struct nvd_bo *const *bos, const struct nvd_submit_bo *sb,
		  unsigned n);
/* ch's next entry waits (for room in its ring, say): the same holding back. */
void nvd_sync_stall(struct nvd_chan *ch, struct nvd_bo *const *bos, const struct nvd_submit_bo *sb,
		    unsigned n);
/* ch's entry was taken (or the channel goes): it holds nothing back. */
void nvd_sync_taken(struct nvd_chan *ch);

/* sched.c: the submission lifecycle: take, order, run, retire, wake */
/* Take what the channels published, oldest first, as far as the waits
 * allow; the channels that took something are kicked. */
void nvd_take(struct nvd *d);
/* The card ran the fence of submission seq: retire up to it, and wake
 * what waited for that. */
void nvd_chan_fence(struct nvd_chan *ch, uint32_t seq);
/* Make completed at least seq and, if it moved, wake the client on ev.
 * The loop and the card's interrupt hook (another thread) both publish. */
void nvd_fence_publish(struct nvd_fence_page *f, int ev, uint32_t seq);
/* Stop the card running the channel and give back everything it holds; the
 * client keeps a dead channel whose fence page says why. */
void nvd_chan_lose(struct nvd_chan *ch, int err, const char *why);
/* Write err as the channel's loss on its fence page and wake the client. */
void nvd_chan_tell_lost(struct nvd_chan *ch, int err);
/* The client closes the channel (or goes). */
void nvd_chan_free(struct nvd_chan *ch);
/* A request that came while submissions its client published before it
 * were still waiting for ring space: it runs once they are taken.  sched.c
 * makes resume active then; server.c holds and runs the request. */
struct nvd_park {
	uint32_t head[NVD_CLIENT_CHANS];   /* each ring's head when the request came */
	struct event *resume;
};
/* A request came: take what its client published before it.  1 when some
 * of that still waits (the request parks in cl->parked), 0: it may run. */
int nvd_sched_request(struct nvd_client *cl, struct nvd_park *pk);
/* Whether entries published before the parked request still wait. */
int nvd_sched_behind(const struct nvd_client *cl, const struct nvd_park *pk);
/* The parked request may run: from the event loop, soon. */
void nvd_sched_unpark_soon(struct nvd_client *cl);

/* chan.c */
int nvd_chan_new(struct nvd_client *cl, struct nvd_chan **out, char *why, size_t whylen);
/* The channel's objects into RAMHT for its chid, or out of it. */
int nvd_chan_hash(struct nvd_chan *ch);
void nvd_chan_unhash(struct nvd_chan *ch);
/* On a hardware channel: the oracle learns the channel's ring, shadow and
 * ctxdmas over buffers. */
void nvd_chan_oracle(struct nvd_chan *ch);
/* The handle of the channel's 3D object, 0 if it has none. */
uint32_t nvd_chan_3d_handle(const struct nvd_chan *ch);
void nvd_chan_close_fds(struct nvd_chan *ch);
/* Give back what the channel holds of the card (objects, RAMIN, RAMHT);
 * the card no longer runs it (sched.c stopped it). */
void nvd_chan_release(struct nvd_chan *ch);
/* The channel, released, leaves its client and is freed. */
void nvd_chan_delete(struct nvd_chan *ch);
int nvd_obj_new(struct nvd_chan *ch, uint32_t handle, uint32_t cls, char *why, size_t whylen);
int nvd_dma_new(struct nvd_chan *ch, const struct nvd_req_dma_new *rq, char *why, size_t whylen);
int nvd_obj_free(struct nvd_chan *ch, uint32_t handle, char *why, size_t whylen);
/* The channel's fences moved: freed handles no submission in flight names
 * any more leave RAMHT. */
void nvd_obj_retired(struct nvd_chan *ch);
const struct nvd_vobj *nvd_obj_lookup(void *ch, uint32_t handle);

/* submit.c: copy + validate + reloc into the channel's private ring */
/* The channel's next entry, whose header is h.  1: consumed (into the ring,
 * or refused), 0: it waits (ring space, or buffers other channels use),
 * <0: too many refused, the channel must be lost. */
int nvd_submit(struct nvd_chan *ch, const struct nvd_submit_hdr *h);
/* The channel's bound fragment program comes from bo now (NULL: the
 * channel goes): that buffer stays pinned until another is bound. */
void nvd_chan_fp_pin(struct nvd_chan *ch, struct nvd_bo *bo);

/* fds.c: descriptors clients send, which may block fstat or close (FUSE) */
/* Whether fd is a memfd (F_GET_SEALS, which asks no file system): only
 * then may the loop fstat or mmap it. */
int nvd_fd_is_memfd(int fd);
/* Close a client's descriptor without blocking the loop: a memfd at once,
 * anything else on the closing thread. */
void nvd_fd_release(int fd);

/* oracle.c: --sim-check (card.h oracle_*); each a no-op without it */
/* The channel's ring and program shadow, before the card first runs it. */
void nvd_oracle_chan(struct nvd_chan *ch);
/* A ctxdma over a client buffer (DMA_BO), NV_DMA_ACCESS_*. */
void nvd_oracle_dma(struct nvd_chan *ch, const struct nvd_vobj *v, unsigned access);
/* The ring words [begin, end) of submission seq may touch the buffers the
 * validator admitted: bos[0, nlisted) as declared, the others as used[]. */
void nvd_oracle_admit(struct nvd_chan *ch, uint32_t seq, uint32_t begin, uint32_t end,
		      const struct nvd_vbo *bos, unsigned nlisted, unsigned nbos, const uint8_t *used);
void nvd_oracle_retire(struct nvd_chan *ch, uint32_t seq);
void nvd_oracle_forget(struct nvd_chan *ch);
/* Log what the oracle found since the last poll ("ORACLE:" lines), count it. */
void nvd_oracle_poll(struct nvd *d);

/* server.c */
/* Listen on d->sock_path, or watch the socket systemd passed (listen_fd,
 * when sock_activated). */
int nvd_server_listen(struct nvd *d, char *err, size_t errlen);
/* Tells every client why (the goodbye), then drops it. */
void nvd_server_close(struct nvd *d, const char *why);
void nvd_client_drop(struct nvd_client *cl, const char *why);

/* reply.c */
/* Reply to request h: err and why, or the body and fds. */
void nvd_reply(struct nvd_client *cl, const struct nvd_msg_hdr *h, int err, const char *why,
	       const void *body, const int *fds, unsigned nfds);
/* A reply without a body (or an error) to a request answered later. */
void nvd_reply_late(struct nvd_client *cl, uint32_t type, uint32_t tag, int err, const char *why);

#endif
