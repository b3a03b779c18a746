/* libnvd-drm.so: the nouveau kernel interface, as Mesa's nv30 driver and
 * libdrm_nouveau use it (../shared/ref/mesa-nouveau-uapi.md), on top of
 * libnvd.  Preloaded into GL programs by nvd-run.  It adds a render node and
 * a primary node to /dev/dri, the sysfs files the Mesa loader and libdrm
 * read about them, and turns every DRM ioctl on them into nvd requests.
 * Nothing is executed here: the card (nvd's) runs every command.  Every
 * other path, fd and ioctl passes through untouched.
 *
 *   real.c   the libc functions underneath (dlsym RTLD_NEXT)
 *   node.c   the fake nodes and sysfs: which paths are ours, their contents
 *   file.c   DRM files (one per open of a node), the fd table, fork
 *   libc.c   the interposed libc calls
 *   ioctl.c  DRM core and nouveau ioctls
 *   gem.c    buffer handles of a file: GEM_*, PRIME, names, mmap
 *   kms.c    mode setting on the primary node, from nvd's display
 *   event.c  vblank waits, and page flips' and vblanks' events on the fd
 *   user.c   the program's memory as an ioctl reaches it (copy_*_user) */
#ifndef NVD_GLX_SHIM_H
#define NVD_GLX_SHIM_H

#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "client/nvd.h"

/* ---- real.c ---- */
struct real {
	int (*open)(const char *, int, ...);
	int (*openat)(int, const char *, int, ...);
	int (*close)(int);
	int (*dup)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	int (*fcntl)(int, int, ...);
	int (*ioctl)(int, unsigned long, ...);
	void *(*mmap)(void *, size_t, int, int, int, off_t);
	int (*stat)(const char *, struct stat *);
	int (*lstat)(const char *, struct stat *);
	int (*fstat)(int, struct stat *);
	int (*fstatat)(int, const char *, struct stat *, int);
	int (*access)(const char *, int);
	DIR *(*opendir)(const char *);
	struct dirent *(*readdir)(DIR *);
	int (*closedir)(DIR *);
	ssize_t (*readlink)(const char *, char *, size_t);
	char *(*realpath)(const char *, char *);
	FILE *(*fopen)(const char *, const char *);
	int (*sched_yield)(void);
	ssize_t (*read)(int, void *, size_t);
};
extern struct real real;
void shim_init(void);          /* idempotent; every wrapper calls it first */

/* ---- node.c ---- */
enum node_kind { NODE_NONE, NODE_RENDER, NODE_PRIMARY };
enum path_kind {
	PATH_OTHER,      /* not ours: pass through */
	PATH_NODE,       /* /dev/dri/renderD<n> or /dev/dri/card<n> */
	PATH_DRI_DIR,    /* /dev/dri, when the machine has none */
	PATH_SYS_DIR,    /* a directory of the fake sysfs */
	PATH_SYS_FILE,   /* a file of the fake sysfs (contents from node_file) */
	PATH_SYS_LINK,   /* .../device/subsystem */
};
struct node_info {
	unsigned chipset, pci_device;
	unsigned render_minor, primary_minor;
	char render_path[32], primary_path[32];
};
/* The fake device, or NULL when nvd cannot be reached (then nothing is
 * faked and Mesa sees the machine as it is). */
const struct node_info *node_info(void);
/* Classify an absolute path; *node gets which node it concerns. */
enum path_kind node_path(const char *path, enum node_kind *node);
/* Contents of a fake sysfs file (static storage, *len bytes), NULL if none. */
const char *node_file(const char *path, size_t *len);
/* Entries of a fake directory ("/dev/dri" or ".../device/drm"), NULL-terminated. */
const char *const *node_dir(const char *path);
void node_stat(enum path_kind k, enum node_kind node, struct stat *st);
extern const char node_subsystem_link[];

/* ---- file.c ---- */
#define FILE_CHANS 8
struct gem {
	uint32_t handle;
	struct nvc_bo *bo;
	uint32_t tile_mode, tile_flags;
	uint32_t seq[FILE_CHANS];       /* the last submission listing it, per channel (0: none) */
};
struct notifier { uint32_t handle, offset, size; };
struct chan {
	struct nvc_chan *ch;
	struct nvc_bo *notify_bo;       /* the channel's notifier block */
	uint32_t notify_handle;
	struct notifier ntfy[16];
	unsigned nntfy;
	/* The oldest failure of a submission not told to the program yet, as
	 * the kernel's error (ioctl.c chan_poll); lost: for good. */
	int err;
	uint32_t err_seq;               /* its submission (0: the channel was lost) */
	int lost;
	uint32_t moves_seen;            /* nvc_chan_moves when libdrm was last told */
	struct pending *pending;        /* submissions nvd may not have run (lost.c) */
};
/* A KMS framebuffer of the file (kms.c): nvd's fb over a GEM buffer. */
struct kms_fb { uint32_t nvd, handle, width, height, pitch, fourcc; };
/* A vblank event waiting in nvd for the file (event.c): its DRM type (0:
 * the slot is free) and the program's user_data. */
struct kms_wait { uint32_t type; uint64_t user_data; };
/* A page flip, until its event is read: nvd's events name it by serial.  A
 * head flips once at a time, so the last few are all that can be unread. */
#define KMS_FLIPS_KEPT 8
struct kms_flip { uint64_t serial, user_data; int event; };
struct drm_file {
	pthread_mutex_t lock;           /* everything below */
	unsigned refs;                  /* fds naming the file + calls in progress */
	enum node_kind node;
	pid_t pid;                      /* process that opened it; a forked child's copy is inert */
	struct nvc *c;
	struct nvc_info info;
	struct gem *gems;               /* sorted by handle */
	unsigned ngems, gems_cap;
	struct chan *chans[FILE_CHANS]; /* DRM channel id = index + 1 */
	unsigned master;                /* nvd made this connection the DRM master */
	int gone;                       /* nvd went away: every ioctl is -ENODEV */
	int magic_last;                 /* GET_MAGIC was its last ioctl (DRI2 auth) */
	struct kms_fb *fbs;             /* ADDFB's, in no order */
	unsigned nfbs, fbs_cap;
	struct kms_wait waits[NVC_VBLANK_EVENTS_MAX];   /* by the slot nvd's event names */
	struct kms_flip flips[NVC_DISP_HEADS][KMS_FLIPS_KEPT];   /* by serial % KMS_FLIPS_KEPT */
	uint64_t flip_serial;           /* the last flip's */
};
/* A new file for a node: connects to nvd. -errno on failure. */
int file_open(enum node_kind node, struct drm_file **out);
/* fd now names f (takes a reference) / lets go of it. */
int file_bind(int fd, struct drm_file *f);
/* The file fd names with a reference for the caller, NULL if fd is not ours. */
struct drm_file *file_get(int fd);
void file_put(struct drm_file *f);
/* fd was closed (or is about to be reused): drop its reference. */
void file_unbind(int fd);
int file_is_ours(int fd);

/* ---- ioctl.c / gem.c ---- */
int shim_ioctl(struct drm_file *f, unsigned long req, void *arg);   /* 0 or -errno */
int gem_ioctl(struct drm_file *f, unsigned nr, void *arg);         /* -ENOTTY if not a GEM one */
struct gem *gem_find(struct drm_file *f, uint32_t handle);
int gem_add(struct drm_file *f, struct nvc_bo *bo, struct gem **out);
void gem_remove(struct drm_file *f, uint32_t handle);
void *gem_mmap(struct drm_file *f, void *addr, size_t len, int prot, int flags, off_t off);
void gem_fill_info(struct drm_file *f, const struct gem *g, void *drm_nouveau_gem_info);
/* A failure of a submission that listed g, on a channel of f, at or before
 * g's last use there, not told yet: told now (its error), else 0. */
int gem_take_error(struct drm_file *f, struct gem *g);
/* kms.c: the mode ioctls (-EINVAL for one it does not know) and GET_CAP. */
int kms_ioctl(struct drm_file *f, unsigned nr, void *arg);
int kms_get_cap(struct drm_file *f, void *drm_get_cap);
/* A CRTC's head (-ENOENT for no CRTC) / a head's CRTC id. */
int kms_crtc_head(uint32_t crtc_id, unsigned *head);
uint32_t kms_head_crtc(unsigned head);

/* ---- event.c ---- */
/* The fd a program gets for f, opened with flags: the connection's event
 * socket on a primary node, an eventfd on a render node; -1 and errno. */
int event_fd_new(struct drm_file *f, int flags);
/* read() on fd, which names f's primary node: drm_event records. */
ssize_t event_read(struct drm_file *f, int fd, void *buf, size_t len);
/* WAIT_VBLANK, CRTC_GET_SEQUENCE, CRTC_QUEUE_SEQUENCE (under f->lock,
 * which a blocking wait lets go while it sleeps). */
int event_ioctl(struct drm_file *f, unsigned nr, void *arg);

/* ---- lost.c ---- */
/* One push range of a submission: words in a buffer of the file. */
struct push_range { uint32_t handle; uint64_t offset, length; };
/* Its words in the program's mapping (*n of them), NULL if it is not inside one. */
const uint8_t *push_range_words(struct drm_file *f, const struct push_range *r, uint32_t *n);
/* Write the fence values and query reports of a range that will not run. */
void lost_complete(struct drm_file *f, struct chan *ch, const struct push_range *r);
/* Remember a submission until its fence; complete all not run yet. */
int lost_pending_add(struct chan *ch, uint32_t seq, const struct push_range *r, unsigned n);
void lost_pending_complete(struct drm_file *f, struct chan *ch);
void lost_pending_free(struct chan *ch);
/* Under f->lock: when nvd has gone, mark the file so, complete what is
 * pending and say so once: 1; 0 while nvd is there. */
int lost_file_gone(struct drm_file *f);
/* An ioctl on a file whose nvd has gone: exits, or -ENODEV (NVD_LOST=continue). */
int lost_ioctl(struct drm_file *f);
/* The watcher thread's set of files; after fork(), in the child. */
void lost_watch(struct drm_file *f);
void lost_unwatch(struct drm_file *f);
void lost_fork_child(void);
/* Sleep until a submission of this process that nvd has not run yet
 * completes, timeout_ns at most: 1, or 0 when none is pending (sched_yield). */
int lost_yield(int64_t timeout_ns);

/* ---- user.c ---- */
/* Read / write the program's memory at uptr as the kernel's copy_from_user
 * and copy_to_user do: 0, or -EFAULT for an address it cannot reach. */
int shim_get_user(uint64_t uptr, void *dst, size_t len);
int shim_put_user(uint64_t uptr, const void *src, size_t len);

/* Debug log: NVD_DRM_DEBUG=1 prints every ioctl to stderr. */
extern int shim_debug;
/* NVD_DRM_DUMP=FILE: every push range a submission runs is appended to FILE
 * as it leaves the client (little-endian words, before nvd's relocations),
 * for nvd-decode. */
extern const char *shim_dump;
void shim_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
