/* nvt: the harness of the integration and hostile tests (and benches).
 *
 *  - a real nvd: started from $NVD_BIN with --socket in a fresh temporary
 *    directory, stderr in <dir>/nvd.log, stopped with SIGTERM and required
 *    to exit 0 (a daemon that died on the way is a failure); in tests with
 *    --sim-check, and an access the card made outside what nvd admitted
 *    (an "ORACLE:" line in the log) is a failure too;
 *  - clients: a channel with the standard 2D objects, a GART push buffer
 *    with a small writer, submissions and fence waits;
 *  - buffers with a CPU shadow: every 2D operation the writer emits is also
 *    applied to the shadows by a CPU reference (nvt-ref.c), so a test
 *    compares what the card wrote with what it must have written, byte for
 *    byte, over whole buffers;
 *  - a leak check (nvc_status back to zero), child processes with timeouts.
 *
 * Nothing here uses cmocka (benches link it without): functions return 0 or
 * -errno and say why on stderr.  Tests assert on the results. */
#ifndef NVT_H
#define NVT_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>

#include "client/nvd.h"
#include "hw/formats.h"
#include "hw/enums-2d.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"

/* ---- the daemon ---- */

struct nvt_daemon {
	pid_t pid;                 /* 0 before start */
	int reaped;                /* the process has exited and been waited for */
	int status;                /* its waitpid status then */
	int stopped_ok;            /* nvt_daemon_stop succeeded */
	int oracle_seen;           /* nvt_daemon_stop looked for ORACLE: lines */
	int log_shown;
	char dir[64];              /* temporary directory */
	char sock[128];            /* <dir>/nvd.sock */
	char log[128];             /* <dir>/nvd.log */
};

/* The access oracle: nvt_daemon_start runs nvd --sim-check while this is
 * set (the default, for tests) and $NVD_SIM_CHECK is not "0".  Benches
 * clear it: they measure nvd as users run it. */
extern int nvt_sim_check;
/* "--sim-check" when nvt_daemon_start would pass it, else NULL: the last
 * argument of an nvd a test starts by itself. */
const char *nvt_sim_check_arg(void);

/* Start $NVD_BIN --socket <dir>/nvd.sock [--sim-check] [extra...] (extra
 * NULL-terminated, may be NULL) and wait until the socket accepts (5 s).
 * 0 or -errno. */
int nvt_daemon_start(struct nvt_daemon *d, const char *const *extra);
/* The same in two steps, for a test that puts something at d->sock first:
 * make the directory and name the socket and the log, then start. */
int nvt_daemon_dir(struct nvt_daemon *d);
int nvt_daemon_run(struct nvt_daemon *d, const char *const *extra);
/* 1 while the daemon process exists and has not exited. */
int nvt_daemon_alive(struct nvt_daemon *d);
/* Send sig and wait for the daemon to end (5 s, then SIGKILL): its wait
 * status, or -ECHILD when it was not running, -ETIMEDOUT.  nvt_daemon_run
 * starts it again on the same socket. */
int nvt_daemon_kill(struct nvt_daemon *d, int sig);
/* SIGTERM, wait (5 s, then SIGKILL), 0 only when it was alive until then,
 * exited with status 0 and logged no ORACLE: line.  Prints the log (or
 * those lines) on failure. */
int nvt_daemon_stop(struct nvt_daemon *d);
/* The ORACLE: lines of the daemon's log, printed on stderr: their number. */
int nvt_daemon_oracle(struct nvt_daemon *d);
/* Kill a daemon still running (teardown after a failed test) and remove the
 * directory; prints the log if the daemon was not stopped cleanly. */
void nvt_daemon_cleanup(struct nvt_daemon *d);
/* A fixture's end: nvt_daemon_stop a daemon still running, then
 * nvt_daemon_cleanup.  0, or -1 when the stop failed (an ORACLE: line). */
int nvt_daemon_finish(struct nvt_daemon *d);
void nvt_daemon_print_log(const struct nvt_daemon *d);
/* Whether the daemon's log holds the text. */
int nvt_log_contains(const struct nvt_daemon *d, const char *text);
/* nvd's "sim-jit: ..." line at exit (--sim-jit verify, the daemon stopped):
 * the fragment programs it saw and compiled, the quads the interpreter
 * checked and those that differed; the same for vertex programs and
 * vertices.  0, or -1 when the log holds no such line. */
struct nvt_jit {
	unsigned programs, compiled, vp_programs, vp_compiled, rop_states, rop_compiled;
	unsigned long long quads, differed, vertices, vp_differed, rop_quads, rop_differed;
	char line[1024];
};
int nvt_daemon_jit(const struct nvt_daemon *d, struct nvt_jit *j);
/* Whether a line of the file contains text (0 when it cannot be read). */
int nvt_file_contains(const char *path, const char *text);
/* Open file descriptors of the daemon process (from /proc), -errno on error. */
int nvt_daemon_fds(const struct nvt_daemon *d);
/* The same once it has stopped changing (connections still being closed). */
int nvt_daemon_fds_settled(const struct nvt_daemon *d);

/* A watchdog for the whole process: after `seconds`, print which test hung,
 * kill every daemon and child the harness started and exit(1). */
void nvt_watchdog(unsigned seconds, const char *what);

/* ---- child processes ---- */

/* Run fn(arg) in a forked child (it dies with its parent); its exit status
 * is fn's return value.  Returns the pid or -errno. */
pid_t nvt_fork(int (*fn)(void *arg), void *arg);
/* Wait for a child for at most timeout_ms; its exit code, 128+signal when
 * killed, or -ETIMEDOUT (it is then killed). */
int nvt_wait_child(pid_t pid, int timeout_ms);
/* Without waiting: 1 and *code as nvt_wait_child gives it when the child
 * has ended, 0 while it runs. */
int nvt_child_done(pid_t pid, int *code);
/* Run argv (stdin /dev/null) for at most timeout_ms, its stdout in out and
 * its stderr in err (each NUL-terminated, cut to fit).  Its exit code as
 * nvt_wait_child gives it, or -errno when it could not be started. */
int nvt_run(const char *const *argv, char *out, size_t outlen, char *err, size_t errlen,
	    int timeout_ms);

/* CLOCK_MONOTONIC in nanoseconds; a sleep that an interrupting signal does
 * not cut short. */
static inline int64_t nvt_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void nvt_sleep_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };
	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

/* A process's CPU time so far (utime + stime from /proc), in clock ticks;
 * -1 when it cannot be read. */
long long nvt_cpu_ticks(pid_t pid);
/* Whether the process has ended or is ending (a zombie: it cannot be
 * stopped any more, its fds close any time). */
int nvt_ending(pid_t pid);

/* ---- where a test or bench finds nvd ---- */

/* This program (self), its directory (dir) and nvd-run ($NVD_TOOLS/nvd-run,
 * else dir/<bin>/nvd-run); $NVD_BIN is set to dir/<bin>/nvd when unset or
 * empty.  bin is the way from dir to the build's bin/ ("../bin" for a
 * bench, "../../bin" for BUILD/tests/gl).  Returns 0, or -1 with errno when
 * /proc/self/exe cannot be read. */
struct nvt_paths {
	char self[PATH_MAX];
	char dir[PATH_MAX];
	char nvd_run[PATH_MAX + 32];
};
int nvt_paths(struct nvt_paths *p, const char *bin);

/* Starts argv (a GL program, or nvd-run and one) with stdin /dev/null and
 * stdout and stderr in the file out; software runs get
 * LIBGL_ALWAYS_SOFTWARE=1 and no LD_PRELOAD, the others lose
 * LIBGL_ALWAYS_SOFTWARE.  The child leads its own process group (a kill
 * reaches whatever nvd-run starts) and dies with its parent.  Returns the
 * pid or -errno. */
pid_t nvt_spawn_gl(const char *const *argv, int software, const char *out);

/* ---- buffers with a CPU shadow ---- */

struct nvt_buf {
	struct nvc_bo *bo;
	uint8_t *map;              /* the client's mapping */
	uint8_t *shadow;           /* what the buffer must hold */
	uint64_t size;
	uint64_t addr;             /* card address in its ctxdma */
	unsigned domain;           /* NVC_VRAM / NVC_GART */
};

/* A buffer filled (map and shadow) with bytes from seed. */
int nvt_buf_new(struct nvc *c, uint64_t size, unsigned domain, uint32_t seed, struct nvt_buf *b);
void nvt_buf_free(struct nvt_buf *b);
/* A buffer this connection opened or imported: mapped, its shadow a copy of
 * what it holds now.  nvt_buf_free lets go of this connection's handle. */
int nvt_buf_wrap(struct nvc_bo *bo, struct nvt_buf *b);
/* 0 when the buffer equals its shadow; otherwise prints the first
 * differences (offset, expected, got) under `what` and returns -1. */
int nvt_buf_check(const struct nvt_buf *b, const char *what);

/* A linear 2D surface inside a buffer. */
struct nvt_surf {
	struct nvt_buf *buf;
	uint32_t offset, pitch;    /* bytes */
	uint32_t w, h;             /* pixels */
	unsigned fmt;              /* NV_SURF_FORMAT_* */
	unsigned bpp;              /* bytes per pixel */
};
/* A swizzled (Morton) surface of 2^lw x 2^lh pixels. */
struct nvt_swz {
	struct nvt_buf *buf;
	uint32_t offset;
	unsigned lw, lh;
	unsigned fmt;              /* NV_SURF_FORMAT_* */
	unsigned bpp;
};

/* ---- the push buffer and submissions ---- */

/* libnvd's writer (nvc_pushbuf) and what the tests keep beside it. */
struct nvt_push {
	struct nvc *c;
	struct nvc_chan *ch;
	struct nvc_pushbuf *pb;
	struct nvc_bo *bo;         /* its push buffer (GART) */
	uint32_t *map;             /* the push buffer's words, for tests that write them by hand */
	uint32_t cap;              /* words */
	int err;                   /* first error of nvt's own (a relocation to a buffer not listed) */
	/* Addresses and ctxdmas through relocations, as Mesa writes them (for
	 * buffers nvd may move); otherwise as they were when made. */
	int relocate;
	unsigned submits;
};

int nvt_push_init(struct nvt_push *p, struct nvc *c, struct nvc_chan *ch, uint32_t bytes);
void nvt_push_fini(struct nvt_push *p);
/* Make room for `words` words: when they do not fit, submit what is pending
 * (with the current buffer list, which stays), wait for it, start again at
 * the buffer's beginning. */
void nvt_space(struct nvt_push *p, uint32_t words);
void nvt_begin(struct nvt_push *p, unsigned subc, uint32_t mthd, unsigned n);
/* A data word, and a raw word (jumps, calls, garbage): both written as they
 * are, whatever the header before them says (the hostile tests' streams
 * are malformed on purpose; nvd is what must notice). */
void nvt_out(struct nvt_push *p, uint32_t v);
void nvt_word(struct nvt_push *p, uint32_t w);
void nvt_mthd(struct nvt_push *p, unsigned subc, uint32_t mthd, uint32_t v);
/* Put a buffer on the next submission's list (access bits are merged). */
void nvt_ref(struct nvt_push *p, struct nvc_bo *bo, unsigned access);
/* The word index of the next word, and its card address (for jumps). */
uint32_t nvt_pos(const struct nvt_push *p);
uint64_t nvt_here(const struct nvt_push *p);
/* The words written since the last submission were submitted by hand
 * (nvc_submit): the writer forgets them, and its list. */
void nvt_taken(struct nvt_push *p);
/* Submit what is pending with the list (the push buffer first, READ); the
 * list is emptied.  0 or -errno; *fence may be NULL. */
int nvt_submit(struct nvt_push *p, uint32_t *fence);
/* nvc_fence_wait with a 10 s limit. */
int nvt_wait(struct nvt_push *p, uint32_t fence);
/* Submit what is pending and wait for the last fence: 0, the refusal or
 * the first writer error. */
int nvt_finish(struct nvt_push *p);

/* ---- channels with the standard objects ---- */

/* Handles of the standard objects (any values would do; these are easy to
 * spot in logs). */
enum {
	NVT_H_NULL    = 0x00000000,
	NVT_H_M2MF    = 0x5a000039,
	NVT_H_SURF2D  = 0x5a000062,
	NVT_H_SWZSURF = 0x5a00309e,
	NVT_H_SIFM    = 0x5a003089,
	NVT_H_GDI     = 0x5a00004a,
	NVT_H_BLIT    = 0x5a00009f,
	NVT_H_ROP     = 0x5a000043,
	NVT_H_PATT    = 0x5a000044,
	NVT_H_CLIP    = 0x5a000019,
	NVT_H_BETA1   = 0x5a000012,
	NVT_H_BETA4   = 0x5a000072,
	NVT_H_IFC     = 0x5a00008a,
};

/* Subchannels as nouveau's DDX assigns them (1 is the daemon's). */
enum {
	NVT_SUBC_M2MF = 0,
	NVT_SUBC_SURF = 2,
	NVT_SUBC_GDI  = 3,
	NVT_SUBC_BLIT = 4,
	NVT_SUBC_IFC  = 5,
	NVT_SUBC_SIFM = 6,
	NVT_SUBC_SWZ  = 7,
};

/* Create the standard objects on a channel. */
int nvt_chan_objects(struct nvc_chan *ch);
/* Bind them on their subchannels and set the state that never changes
 * (SURFACE links, OPERATION = SRCCOPY, null patterns ...). */
void nvt_bind_standard(struct nvt_push *p);

/* A connection, one channel with the standard objects, a push buffer with
 * the standard binding already written (not submitted). */
struct nvt_client {
	struct nvc *c;
	struct nvc_chan *ch;
	struct nvt_push p;
};
int nvt_client_open(struct nvt_client *t, const char *sock, const char *name);
/* The same, writing through relocations (p.relocate), the binding
 * submitted: a client whose buffers nvd may move, as Mesa's. */
int nvt_client_open_mesa(struct nvt_client *t, const char *sock, const char *name);
void nvt_client_close(struct nvt_client *t);

/* ---- 2D operations: emitted and applied to the shadows ---- */

uint32_t nvt_dma(const struct nvt_push *p, const struct nvt_buf *b);
/* The ctxdma of b's domain, b's address + off; with p->relocate through
 * relocations, as Mesa writes them, so that they follow the buffer wherever
 * nvd puts it (b must be on the list already: nvt_ref). */
void nvt_out_dma(struct nvt_push *p, const struct nvt_buf *b);
void nvt_out_addr(struct nvt_push *p, const struct nvt_buf *b, uint32_t off);

/* M2MF: lines x len bytes, FORMAT 1/1. */
void nvt_m2mf(struct nvt_push *p, struct nvt_buf *src, uint32_t soff, int32_t spitch,
	      struct nvt_buf *dst, uint32_t doff, int32_t dpitch, uint32_t len, uint32_t lines);
/* The same copy emitted only: the shadows stay as they are (for copies a
 * test repeats or applies to the shadows itself). */
void nvt_m2mf_cmd(struct nvt_push *p, struct nvt_buf *src, uint32_t soff, int32_t spitch,
		  struct nvt_buf *dst, uint32_t doff, int32_t dpitch, uint32_t len,
		  uint32_t lines);
/* SURF2D source and destination (same format); src may equal dst. */
void nvt_surf2d(struct nvt_push *p, const struct nvt_surf *src, const struct nvt_surf *dst);
/* GDI unclipped rectangle in the SURF2D destination, which must be `dst`
 * (nvt_surf2d first).  color_fmt: NV_GDI_COLOR_FORMAT_*. */
void nvt_fill(struct nvt_push *p, const struct nvt_surf *dst, unsigned color_fmt, uint32_t color,
	      uint32_t x, uint32_t y, uint32_t w, uint32_t h);
/* BLIT between the current SURF2D source and destination. */
/* A fill of random size (1..maxw x 1..maxh) and place inside dst in a
 * random colour, in the colour format the GDI object has; the caller lists
 * dst.  Its rectangle (x, y, w, h) in r when not NULL. */
void nvt_fill_rand(struct nvt_push *p, const struct nvt_surf *dst, uint32_t *rng, uint32_t maxw,
		   uint32_t maxh, uint32_t r[4]);
void nvt_blit(struct nvt_push *p, const struct nvt_surf *src, const struct nvt_surf *dst,
	      uint32_t sx, uint32_t sy, uint32_t dx, uint32_t dy, uint32_t w, uint32_t h);
/* IFC: w x h pixels of `pixels` (rows of w*bpp bytes) to (x, y) of the
 * SURF2D destination `dst`; ifc_fmt NV_IFC_COLOR_FORMAT_* of the same size. */
void nvt_ifc(struct nvt_push *p, const struct nvt_surf *dst, unsigned ifc_fmt, uint32_t x,
	     uint32_t y, uint32_t w, uint32_t h, const uint8_t *pixels);
/* SIFM point-sampled 1:1 upload as Mesa's nv30_transfer_rect_sifm: the
 * w x h rectangle at (sx, sy) of the linear `src` to (dx, dy) of `dst`.
 * sifm_fmt: NV_SIFM_COLOR_FORMAT_* with src's bytes per pixel. */
void nvt_sifm_swz(struct nvt_push *p, const struct nvt_surf *src, unsigned sifm_fmt,
		  uint32_t sx, uint32_t sy, const struct nvt_swz *dst, uint32_t dx, uint32_t dy,
		  uint32_t w, uint32_t h);

/* Make the card use b in VRAM (NVC_IN_VRAM): its first 4 KiB copied to
 * the next 4 KiB, the shadow following. */
void nvt_touch_vram(struct nvt_push *p, struct nvt_buf *b);

/* ---- CPU references (nvt-ref.c) ---- */

void nvt_ref_m2mf(uint8_t *dst, int64_t dpitch, const uint8_t *src, int64_t spitch,
		  uint32_t len, uint32_t lines);
/* Solid fill of bpp-byte pixels with the low bpp bytes of color, LE. */
void nvt_ref_fill(uint8_t *dst, uint32_t pitch, unsigned bpp, uint32_t x, uint32_t y,
		  uint32_t w, uint32_t h, uint32_t color);
/* Rectangle copy with memmove semantics (any overlap). */
void nvt_ref_blit(uint8_t *dst, uint32_t dpitch, const uint8_t *src, uint32_t spitch,
		  unsigned bpp, uint32_t sx, uint32_t sy, uint32_t dx, uint32_t dy, uint32_t w,
		  uint32_t h);
/* Texel index of (x, y) in a 2^lw x 2^lh swizzled surface (nv40-hardware.md
 * §4.2), computed bit by bit. */
uint32_t nvt_ref_swz_index(uint32_t x, uint32_t y, unsigned lw, unsigned lh);
void nvt_ref_sifm_swz(uint8_t *dst, unsigned lw, unsigned lh, const uint8_t *src,
		      uint32_t spitch, unsigned bpp, uint32_t sx, uint32_t sy, uint32_t dx,
		      uint32_t dy, uint32_t w, uint32_t h);
void nvt_ref_ifc(uint8_t *dst, uint32_t pitch, unsigned bpp, uint32_t x, uint32_t y, uint32_t w,
		 uint32_t h, const uint8_t *pixels);

/* A small deterministic generator (xorshift32; never returns to 0). */
static inline uint32_t nvt_rand(uint32_t *s)
{
	uint32_t x = *s ? *s : 0x9e3779b9u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}
/* Uniform in [lo, hi]. */
static inline uint32_t nvt_range(uint32_t *s, uint32_t lo, uint32_t hi)
{
	return lo + nvt_rand(s) % (hi - lo + 1);
}

/* ---- leaks ---- */

/* Connect and poll nvc_status (2 s) until no client memory, buffer or
 * channel is left and only this checker is connected.  0, or -1 with the
 * values printed. */
int nvt_leak_check(const char *sock);

/* ---- the 2D workload shared by integration and hostile tests ---- */

struct nvt_workload {
	const char *sock;
	const char *name;
	uint32_t seed;
	unsigned rounds;           /* submissions */
	unsigned ops;              /* operations per submission */
	unsigned wait_every;       /* wait for the fence every n rounds (0: only at the end) */
	/* results: every buffer's bytes, concatenated (malloc'd) */
	uint8_t *result;
	size_t result_len;
	/* called with the buffers still held, after the results are taken */
	void (*hold)(struct nvt_workload *w, void *arg);
	void *hold_arg;
	/* the first destination buffer, for attacks that aim at it */
	uint64_t victim_addr, victim_size;
	unsigned victim_domain;
};
/* Connect, run the workload (M2MF with pitches, GDI fills in Y32,
 * R5G6B5, X1R5G5B5 and Y8, BLITs including overlapping ones, SIFM uploads
 * into swizzled surfaces, IFC uploads), compare every buffer with its CPU
 * reference, keep the bytes in w->result.  0, or -1 with the reason printed.
 * `ready`, when not NULL, runs after setup, before the first submission. */
int nvt_workload_run(struct nvt_workload *w, void (*ready)(struct nvt_workload *w, void *arg),
		     void *arg);

/* The same workload in a forked child that waits for a go-ahead: the
 * "honest client" beside an attacker.  It keeps its buffers until
 * nvt_honest_finish, so an attacker aiming at their addresses never finds
 * them free and taken by itself. */
struct nvt_honest {
	pid_t pid;
	int to_child, from_child;
	char out[160];             /* file the child writes its result bytes to */
	uint64_t victim_addr, victim_size;
	unsigned victim_domain;
};
int nvt_honest_start(struct nvt_honest *h, const struct nvt_daemon *d, uint32_t seed);
int nvt_honest_go(struct nvt_honest *h);
/* Wait for it (30 s); 0 with its bytes in *bytes (malloc'd) when it passed. */
int nvt_honest_finish(struct nvt_honest *h, uint8_t **bytes, size_t *len);
/* The honest workload alone, for the reference bytes. */
int nvt_honest_alone(const struct nvt_daemon *d, uint32_t seed, uint8_t **bytes, size_t *len);

/* Keep p's channel busy for about ms milliseconds: one submission of M2MF
 * copies from src to dst (buffers of p's connection, a few MiB each, as
 * the caller likes), calibrated against this card first.  Its fence (not
 * waited for), or 0 when something failed (said on stderr).  A test that
 * must know the card was still busy afterwards asks nvc_fence_done. */
uint32_t nvt_keep_busy(struct nvt_push *p, struct nvt_buf *src, struct nvt_buf *dst, unsigned ms);

#endif
