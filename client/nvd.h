/* libnvd: the client side of nvd.
 *
 * Connect to the daemon, allocate buffer objects and map them, open
 * channels, create objects, write NV4x push buffers into buffers, submit
 * them and wait for their fences.  Every call returns 0 (or a value) on
 * success and a negative errno code on failure; nvc_error() then says why
 * in words.  The library is thread-safe and never aborts.
 *
 *     struct nvc *c;
 *     if (nvc_connect(NULL, "demo", &c) < 0) { fprintf(stderr, "%s\n", nvc_error()); ... }
 */
#ifndef NVD_CLIENT_H
#define NVD_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nvc;
struct nvc_bo;
struct nvc_chan;

/* Why the last failing call on this thread failed. */
const char *nvc_error(void);

/* socket NULL: $NVD_SOCKET, /run/nvd/socket (root) or
 * $XDG_RUNTIME_DIR/nvd/socket.  name identifies the program in nvd's logs. */
int nvc_connect(const char *socket, const char *name, struct nvc **out);
/* Frees every buffer and channel of the connection, then disconnects. */
void nvc_close(struct nvc *c);
/* When nvd goes (killed, crashed, stopped: its goodbye says why), every
 * call on the connection from then on returns -ENOTCONN, nvc_error naming
 * nvd and saying why; waits wake at once.  nvc_check says whether it has
 * gone, without waiting: 0 or -ENOTCONN.  nvc_fd is the connection's
 * socket, for poll(): POLLHUP (asked for or not) when nvd has gone, then
 * nvc_check.  Never read or write it. */
int nvc_check(struct nvc *c);
int nvc_fd(const struct nvc *c);
/* In a child after fork(): let go of the parent's connection without telling
 * the daemon (the parent keeps using it).  c must not be used again. */
void nvc_abandon(struct nvc *c);

struct nvc_info {
	unsigned chipset;          /* 0x43 */
	uint16_t pci_vendor, pci_device;
	uint64_t vram_size, gart_size;
	unsigned client_id;
	char card[96];
};
int nvc_info(struct nvc *c, struct nvc_info *info);

struct nvc_status {
	unsigned chipset;
	uint16_t pci_vendor, pci_device;
	char card[96], bus_id[16];
	uint64_t vram_size, vram_client, vram_daemon;
	uint64_t gart_size, gart_client, gart_daemon;
	unsigned channels_total, channels_used, clients, bos;
	uint64_t submits, refused, uptime_ms;
	int oracle;                   /* nvd --sim-check: the card's accesses are checked */
	uint64_t oracle_violations;   /* accesses outside what nvd admitted, found so far */
	uint64_t host_client;         /* client buffers evicted to (or made in) host memory */
	uint64_t evictions, evicted_bytes;   /* buffers moved out of VRAM or GART for room */
	/* channels_total/used: open channels, virtual ones included; of the
	 * card's own channels, hw_channels_used are running one */
	unsigned hw_channels, hw_channels_used;
	uint64_t chan_loads, chan_unloads, chan_switch_ns;   /* virtual channels onto / off them */
	uint64_t vchan_saved;         /* bytes of state nvd keeps for virtual channels */
	uint64_t ramin_size, ramin_used;
	uint64_t orphaned;            /* client bytes in buffers whose creator has gone */
	uint64_t now_ns;              /* nvd's CLOCK_MONOTONIC when it answered */
	uint64_t fences;              /* submissions the card has completed */
	/* busy_known: the card measures how long its engines have been busy
	 * (the simulated one does); then the nanoseconds since it was opened */
	int busy_known;
	uint64_t pfifo_busy_ns, pgraph_busy_ns;
};
int nvc_status(struct nvc *c, struct nvc_status *st);

struct nvc_client {
	unsigned id, pid, uid;
	char name[32];
	unsigned bos, channels;
	uint64_t vram, gart, submits, refused;
	uint64_t validate_ns, validate_max_ns;   /* nvd validating its submissions: all, the longest */
	uint64_t host, evicted;       /* bytes in host memory only; its buffers evicted */
	uint64_t fences;              /* its submissions the card has completed */
	uint64_t card_ns;             /* the card's time on its channels (0: not measured) */
	/* its channels by slot: NVC_CHAN_NONE, NVC_CHAN_VIRTUAL or the hardware chid */
	unsigned char chan_chid[32];
};
enum { NVC_CHAN_NONE = 0xff, NVC_CHAN_VIRTUAL = 0xfe };
/* Client number index of count (*count set); -ENOENT past the end. */
int nvc_client_at(struct nvc *c, unsigned index, struct nvc_client *out, unsigned *count);

/* ---- buffer objects ---- */

/* Where a buffer is: NVC_HOST when nvd keeps it off the card (evicted, or
 * made when the card had no room); a submission that uses it puts it back.
 * Its memory, and every mapping of it, stays the same wherever it is. */
enum { NVC_VRAM = 1, NVC_GART = 2, NVC_HOST = 3 };

int nvc_bo_new(struct nvc *c, uint64_t size, unsigned domain, struct nvc_bo **out);
int nvc_bo_free(struct nvc_bo *bo);
/* Read/write mapping of the whole buffer, made on first use; NULL on failure. */
void *nvc_bo_map(struct nvc_bo *bo);
uint32_t nvc_bo_handle(const struct nvc_bo *bo);
unsigned nvc_bo_domain(const struct nvc_bo *bo);
/* The buffer's card address: its offset in the channel's VRAM or GART ctxdma. */
uint64_t nvc_bo_addr(const struct nvc_bo *bo);
/* Ask nvd where the buffer is now (it moves for submissions that need it in
 * the other domain: NVC_IN_VRAM / NVC_IN_GART, and out when another needs
 * room while it is idle) and update what
 * nvc_bo_domain and nvc_bo_addr say.  1 when it had moved, 0 if not. */
int nvc_bo_refresh(struct nvc_bo *bo);
uint64_t nvc_bo_size(const struct nvc_bo *bo);

/* The buffer's memory fd (borrowed: libnvd closes it in nvc_bo_free).  Map
 * it yourself, or dup it to share the buffer with another process, which
 * nvc_bo_import()s it: holding the fd is the right to use the buffer. */
int nvc_bo_fd(const struct nvc_bo *bo);

/* ---- sharing and waiting (what DRM calls GEM names, PRIME, CPU_PREP) ---- */

/* A global name for the buffer, the same one on every call.  Names are
 * random 32-bit values, never 0; only an authenticated connection opens them. */
int nvc_bo_flink(struct nvc_bo *bo, uint32_t *name);
/* Open the buffer called name: -EACCES unless this connection is the master
 * or was authenticated by it, -ENOENT for a name no buffer has.  A buffer
 * this connection already holds comes back as the same nvc_bo. */
int nvc_bo_open(struct nvc *c, uint32_t name, struct nvc_bo **out);
/* The buffer behind fd, a dup of some connection's nvc_bo_fd(): -EINVAL if
 * fd is no nvd buffer.  The same nvc_bo if this connection holds it already.
 * The caller keeps fd. */
int nvc_bo_import(struct nvc *c, int fd, struct nvc_bo **out);

/* Wait until no submission still on the card writes the buffer (with
 * NVC_WAIT_WRITE: reads or writes it), anyone's.  NVC_WAIT_NOWAIT, or the
 * timeout passing: -EBUSY if it is busy.  timeout_ns < 0: 30 s. */
enum { NVC_WAIT_NOWAIT = 1, NVC_WAIT_WRITE = 4 };
int nvc_bo_wait(struct nvc_bo *bo, unsigned flags, int64_t timeout_ns);

/* DRM-style authentication.  The first connection to ask becomes the master
 * (-EBUSY while another one is); it stays master until it disconnects or
 * drops it.  As in DRM since Linux 5.8, a dropped master is not free for the
 * taking: while a connection that has been master is connected, only such
 * a connection, or one of root, may set master (-EACCES); once none is, the
 * first to ask is master.  A client sends its magic to the master by other means (X's
 * DRI2Authenticate); the master authenticates it with nvc_auth_magic. */
int nvc_set_master(struct nvc *c);
int nvc_drop_master(struct nvc *c);
int nvc_get_magic(struct nvc *c, uint32_t *magic);
/* -EACCES unless this connection is the master, -ENOENT for an unknown magic. */
int nvc_auth_magic(struct nvc *c, uint32_t magic);

/* ---- display (nvd/display.c; KMS-like) ----
 *
 * The card has NVC_DISP_HEADS heads (CRTCs) and NVC_DISP_OUTPUTS outputs;
 * output i is wired to head i.  A monitor on an output answers on its DDC
 * bus with an EDID, from which nvd takes the output's modes.  Anyone may
 * look; only the master (nvc_set_master) may change what a head shows.
 * Framebuffers belong to the connection that made them. */
#define NVC_DISP_HEADS   2
#define NVC_DISP_OUTPUTS 2

/* DRM's mode flags, same values. */
enum { NVC_MODE_PHSYNC = 1, NVC_MODE_NHSYNC = 2, NVC_MODE_PVSYNC = 4, NVC_MODE_NVSYNC = 8 };

struct nvc_mode {
	uint32_t clock;                                  /* pixel clock, kHz */
	uint16_t hdisplay, hsync_start, hsync_end, htotal;
	uint16_t vdisplay, vsync_start, vsync_end, vtotal;
	uint32_t flags;                                  /* NVC_MODE_* */
	uint32_t preferred;                              /* the monitor's preferred mode */
};

struct nvc_output {
	char name[16];             /* "VGA-0" ... */
	unsigned connected;        /* a monitor answered on DDC */
	unsigned head;             /* the head that drives it */
	unsigned mm_width, mm_height;
	unsigned nmodes;           /* nvc_disp_mode(c, output, i) for i < nmodes */
	uint8_t edid[128];
};
/* -EINVAL for output >= NVC_DISP_OUTPUTS. */
int nvc_disp_output(struct nvc *c, unsigned output, struct nvc_output *o);
/* The output's mode number index, best first (the preferred one first);
 * -ENOENT past the end. */
int nvc_disp_mode(struct nvc *c, unsigned output, unsigned index, struct nvc_mode *m);

/* DRM fourcc codes the heads scan out. */
#define NVC_FB_XRGB8888 0x34325258u   /* 'XR24' */
#define NVC_FB_ARGB8888 0x34325241u   /* 'AR24' (shown as XRGB) */
#define NVC_FB_RGB565   0x36314752u   /* 'RG16' */

/* A framebuffer: width x height pixels of fourcc at offset in bo, pitch
 * bytes per line.  -EINVAL when it does not fit the buffer or the heads'
 * limits.  *fb is never 0. */
int nvc_fb_new(struct nvc *c, struct nvc_bo *bo, uint32_t offset, uint32_t width,
	       uint32_t height, uint32_t pitch, uint32_t fourcc, uint32_t *fb);
/* Freeing a framebuffer a head shows (or is flipping to) turns that head
 * off first, as KMS does; its buffer may be freed before it. */
int nvc_fb_free(struct nvc *c, uint32_t fb);

struct nvc_head {
	uint32_t fb;               /* 0: the head is off */
	uint32_t x, y;             /* the fb's pixel at the screen's top left */
	uint32_t outputs;          /* mask of outputs it drives (bit i: output i) */
	struct nvc_mode mode;      /* what it shows, when fb != 0 */
};
int nvc_disp_head(struct nvc *c, unsigned head, struct nvc_head *h);
/* Master only (-EACCES).  Scan out h->fb (this connection's, or 0 for off)
 * from (x, y) in h->mode on h->outputs, which must be wired to this head;
 * -EINVAL for a mode the head cannot show or a screen that leaves the fb. */
int nvc_disp_set_head(struct nvc *c, unsigned head, const struct nvc_head *h);
/* What the head shows now, cursor included: *w x *h XRGB8888 pixels in
 * *pixels (malloc'd, the caller frees).  -ENODATA when the head is off.
 * Only the master and the user nvd runs as (or root) may look. */
int nvc_disp_screenshot(struct nvc *c, unsigned head, uint32_t **pixels, uint32_t *w,
			uint32_t *h);
/* Master only (-EACCES).  The head's hardware cursor: NVC_CURSOR_SIZE^2
 * ARGB8888 pixels with premultiplied alpha (what KMS clients hand over),
 * copied from bo (this connection's) at offset; bo NULL hides it.  The
 * cursor keeps its image and position across mode sets. */
#define NVC_CURSOR_SIZE 64
int nvc_disp_cursor_set(struct nvc *c, unsigned head, struct nvc_bo *bo, uint32_t offset);
/* The cursor image's top-left corner on the screen; it may lie partly or
 * wholly off it (-32768..32767). */
int nvc_disp_cursor_move(struct nvc *c, unsigned head, int32_t x, int32_t y);

/* Display events, as DRM's on its fd: poll nvc_disp_event_fd() (libnvd's;
 * the same fd on every call, closed by nvc_close) for POLLIN, then take
 * them with nvc_disp_event_read: 1 and *ev, or 0 when none is queued (it
 * never blocks).  A client that does not read them loses the newest. */
enum { NVC_DISP_EVENT_FLIP = 1, NVC_DISP_EVENT_VBLANK = 2 };
struct nvc_disp_event {
	unsigned type;             /* NVC_DISP_EVENT_* */
	unsigned head;
	uint64_t user_data;        /* the flip's or the vblank wait's */
	uint64_t sequence;         /* vblanks nvd has counted on the head */
	uint64_t time_ns;          /* CLOCK_MONOTONIC at the vblank */
};
int nvc_disp_event_fd(struct nvc *c);
int nvc_disp_event_read(struct nvc *c, struct nvc_disp_event *ev);
/* Master only (-EACCES).  Show fb (this connection's, the pixel size of the
 * one shown, big enough for the mode at the head's x, y) from the next
 * vblank on; an NVC_DISP_EVENT_FLIP with user_data follows at that vblank.
 * -EBUSY while the head has a flip pending, -EINVAL when the head is off.
 * A mode set or the head going off drops a pending flip without an event. */
int nvc_disp_page_flip(struct nvc *c, unsigned head, uint32_t fb, uint64_t user_data);

/* Vblanks, as DRM's drmCrtcGetSequence and drmCrtcQueueSequence.  A head
 * that is on counts its vblanks at its mode's refresh rate; the count goes
 * on across mode sets and stands still while the head is off.
 * nvc_disp_vblank: the count now and the CLOCK_MONOTONIC time of the head's
 * last vblank; anyone may ask.  -EINVAL for no such head or a head that is
 * off. */
int nvc_disp_vblank(struct nvc *c, unsigned head, uint64_t *sequence, uint64_t *time_ns);
/* Master only (-EACCES).  An NVC_DISP_EVENT_VBLANK with user_data on
 * nvc_disp_event_fd() at vblank `sequence` of the head (with
 * NVC_VBLANK_RELATIVE: `sequence` vblanks after the last one); *target
 * (may be NULL) is that vblank's absolute number.  A vblank already reached
 * (or a relative 0) sends the event at once with the count now.  Events of
 * one head come in the order of their targets, then in the order asked.
 * -EINVAL for a head that is off or a target more than 2^32 vblanks away,
 * -EMFILE when the connection has NVC_VBLANK_EVENTS_MAX waiting.  A mode
 * set or the head going off sends its waiting events at once: their
 * sequence is then the count reached, below their target. */
#define NVC_VBLANK_RELATIVE   1u
#define NVC_VBLANK_EVENTS_MAX 128
int nvc_disp_vblank_event(struct nvc *c, unsigned head, unsigned flags, uint64_t sequence,
			  uint64_t user_data, uint64_t *target);

/* ---- channels and objects ---- */

int nvc_chan_new(struct nvc *c, struct nvc_chan **out);
int nvc_chan_free(struct nvc_chan *ch);
/* Handles of the channel's ctxdmas over all of VRAM and GART. */
uint32_t nvc_chan_vram_dma(const struct nvc_chan *ch);
uint32_t nvc_chan_gart_dma(const struct nvc_chan *ch);
/* A count nvd bumps whenever a buffer this connection holds moves: when it
 * changed, nvc_bo_refresh tells where buffers went. */
uint32_t nvc_chan_moves(const struct nvc_chan *ch);

/* A graphics object of class cls (0x39, 0x62, 0x4097 ...) or the null object
 * (0x30) under handle in the channel's hash table.  Handles
 * NVC_HANDLE_NVD_FIRST..NVC_HANDLE_NVD_LAST ("nvd" in ASCII) are the daemon's
 * own objects on every channel: naming one gives -EEXIST ("reserved by
 * nvd").  No nouveau client uses them (Mesa: 0 and 0xbeefXXXX;
 * xf86-video-nouveau: 0x80000010..0x80000021, 0xd8000003/4); the channel's
 * ctxdmas are 0xbeef0201 (VRAM) and 0xbeef0202 (GART), as nouveau's. */
#define NVC_HANDLE_NVD_FIRST 0x6e766400u
#define NVC_HANDLE_NVD_LAST  0x6e7664ffu
int nvc_obj_new(struct nvc_chan *ch, uint32_t handle, uint32_t cls);
/* Submissions made from now on cannot name the handle; those already made
 * still run with the object they were checked against, and until they
 * have completed nvc_obj_new under this handle gives -EBUSY. */
int nvc_obj_free(struct nvc_chan *ch, uint32_t handle);
/* A ctxdma (class 0x02/0x03/0x3d, access 0 RW, 1 RO, 2 WO) over bytes
 * [offset, offset+size) of bo, e.g. a notifier. */
int nvc_dma_new(struct nvc_chan *ch, uint32_t handle, struct nvc_bo *bo, uint64_t offset,
		uint64_t size, unsigned cls, unsigned access);

/* ---- submission ---- */

/* access of a buffer in a submission: NVC_READ and/or NVC_WRITE, plus at
 * most one of NVC_IN_VRAM / NVC_IN_GART when the submission needs the
 * buffer there: nvd moves it first (its new address reaches the commands
 * through the submission's relocations; nvc_bo_addr keeps the old one).
 * A buffer listed twice is one buffer, its access the entries' together;
 * one entry asking for VRAM and another for GART refuses the submission. */
enum { NVC_READ = 1, NVC_WRITE = 2, NVC_IN_VRAM = 4, NVC_IN_GART = 8 };
enum { NVC_RELOC_LOW = 1, NVC_RELOC_HIGH = 2, NVC_RELOC_OR = 4 };

struct nvc_bo_ref { struct nvc_bo *bo; unsigned access; };
/* Bytes [offset, offset+length) of refs[bo] hold NV4x command words. */
struct nvc_push { unsigned bo; uint32_t offset, length; };
/* Before running, the word at byte offset of refs[reloc_bo] becomes
 * refs[bo]'s address (+data, LOW/HIGH half), OR'ed with vor/tor. */
struct nvc_reloc { unsigned reloc_bo; uint32_t offset; unsigned bo; uint32_t flags, data, vor, tor; };

struct nvc_submission {
	const struct nvc_bo_ref *bos; unsigned nr_bos;
	const struct nvc_push *push;  unsigned nr_push;
	const struct nvc_reloc *relocs; unsigned nr_relocs;
};

/* Queue a submission; *fence receives its sequence number.  Blocks only
 * while the channel's submit ring is full.  Whether the daemon accepted it
 * is known when its fence completes. */
int nvc_submit(struct nvc_chan *ch, const struct nvc_submission *s, uint32_t *fence);
/* 1 when the fence has completed, 0 if not yet. */
int nvc_fence_done(struct nvc_chan *ch, uint32_t fence);
/* Wait until the fence completes (timeout_ns < 0: forever).  0 when the card
 * ran the submission, the daemon's -errno when it refused it, -ETIMEDOUT,
 * -ENODEV when the channel was lost. */
int nvc_fence_wait(struct nvc_chan *ch, uint32_t fence, int64_t timeout_ns);
/* Wait until nvd has taken the submission: its buffers are placed, or it
 * was refused.  0, -ETIMEDOUT or -ENODEV, as nvc_fence_wait. */
int nvc_fence_taken(struct nvc_chan *ch, uint32_t fence, int64_t timeout_ns);
/* Without waiting: the oldest submission of the channel not reported by
 * this call yet that nvd refused (its -errno, known as soon as nvd has
 * taken it) or the card faulted on (-EIO, known by its fence), with its
 * fence in *fence; -ENODEV once when the channel is lost (*fence 0); 0 when
 * nothing (so far) has failed.  Each failure is reported once, whatever
 * nvc_fence_wait said: for callers that do not wait for every fence but
 * must hear of every failure (libnvd-drm's GEM_PUSHBUF and CPU_PREP). */
int nvc_chan_error(struct nvc_chan *ch, uint32_t *fence);

/* ---- the push-buffer writer (libdrm's nouveau_pushbuf, for libnvd) ----
 *
 * Writes command words into a GART buffer of its own and keeps the
 * submission's buffer list (the push buffer first, NVC_READ) and
 * relocations beside them; nvc_pushbuf_kick submits what is pending as one
 * nvc_submit on the channel.  Headers are <nvd/hw/pushbuf.h>'s words.
 *
 *     nvc_pushbuf_space(p, 3, 1, 1);
 *     nvc_pushbuf_mthd(p, subc, NV_M2MF_OFFSET_IN, 2);
 *     nvc_pushbuf_reloc(p, src, NVC_READ, (struct nvc_reloc){ .flags = NVC_RELOC_LOW });
 *     nvc_pushbuf_data(p, 0);
 *     nvc_pushbuf_kick(p, &fence);
 *
 * Writing never fails at once: the first error (count over 2047, data
 * without a method header, a full buffer, a buffer of another connection,
 * too many buffers or relocations) is kept, everything after it is ignored,
 * and the next nvc_pushbuf_space or nvc_pushbuf_kick returns it; that kick
 * drops the pending words and the writer is usable again.  One thread at a
 * time per writer. */
struct nvc_pushbuf;
/* A writer of size bytes (a GART buffer of this connection) on ch. */
int nvc_pushbuf_new(struct nvc_chan *ch, uint32_t size, struct nvc_pushbuf **out);
/* Frees the push buffer without submitting or waiting: kick and wait for
 * the fence first if the card must still run what it holds.  Before
 * nvc_close, which frees the buffer under it. */
void nvc_pushbuf_free(struct nvc_pushbuf *p);
/* Room for words more words, bos more buffers on the list and relocs more
 * relocations in this submission.  When they do not fit, what is pending is
 * kicked; when the words do not fit after it, the writer waits for the
 * card to finish the buffer (a refused submission has finished it too)
 * and starts over at its beginning.  A kick for
 * words alone keeps the buffer list (the commands to come may need its
 * buffers); one for a full list empties it.  -E2BIG for more than a
 * submission can hold. */
int nvc_pushbuf_space(struct nvc_pushbuf *p, uint32_t words, unsigned bos, unsigned relocs);
/* A method header for count data words, increasing / non-increasing. */
void nvc_pushbuf_mthd(struct nvc_pushbuf *p, unsigned subc, uint32_t mthd, unsigned count);
void nvc_pushbuf_mthd_ni(struct nvc_pushbuf *p, unsigned subc, uint32_t mthd, unsigned count);
/* One of the last header's data words. */
void nvc_pushbuf_data(struct nvc_pushbuf *p, uint32_t v);
/* A word outside the method grammar's bookkeeping (a jump, a hand-made
 * header, garbage for a hostile test): written as it is. */
void nvc_pushbuf_raw(struct nvc_pushbuf *p, uint32_t w);
/* Put bo (this connection's) on the list with access (NVC_READ ... as
 * nvc_bo_ref; merged when it is there already).  0 or the kept error. */
int nvc_pushbuf_refn(struct nvc_pushbuf *p, struct nvc_bo *bo, unsigned access);
/* A data word nvd makes bo's address: r.flags NVC_RELOC_LOW or _HIGH half
 * of its address + r.data (neither: r.data), with NVC_RELOC_OR that OR'ed
 * with r.vor when bo is in VRAM, r.tor when in GART.  The word is written as the buffer is now;
 * bo goes on the list with access.  r's other fields are the writer's. */
void nvc_pushbuf_reloc(struct nvc_pushbuf *p, struct nvc_bo *bo, unsigned access,
		       struct nvc_reloc r);
/* Submit what is pending: the words since the last submission, or buffers
 * listed since (a submission without words places them).  With neither,
 * no submission and *fence is the last one's (fence may be NULL).  0, the
 * kept error, or nvc_submit's (-ENOTCONN once nvd has gone, submission or
 * not).  The list is emptied. */
int nvc_pushbuf_kick(struct nvc_pushbuf *p, uint32_t *fence);
/* fn(p, data) is called before each submission the writer makes (kicks
 * and the kicks of nvc_pushbuf_space), the words still pending: state a
 * caller keeps across submissions is to be written again after it (as
 * libdrm's kick_notify).  fn must not write to p.  NULL: none. */
void nvc_pushbuf_notify(struct nvc_pushbuf *p, void (*fn)(struct nvc_pushbuf *p, void *data),
			void *data);
/* bo's access on the pending submission's list, 0 when it is not there. */
unsigned nvc_pushbuf_refd(const struct nvc_pushbuf *p, const struct nvc_bo *bo);
/* Forget what is pending (words, list, relocations, a kept error) without
 * submitting: the caller submitted the words itself, or gave them up. */
void nvc_pushbuf_drop(struct nvc_pushbuf *p);
/* The last submission's fence (0 before the first). */
uint32_t nvc_pushbuf_fence(const struct nvc_pushbuf *p);
/* The push buffer, and the byte offset in it of the next word. */
struct nvc_bo *nvc_pushbuf_bo(const struct nvc_pushbuf *p);
uint32_t nvc_pushbuf_offset(const struct nvc_pushbuf *p);
/* The words written since the last kick (*words of them), as stored
 * (little-endian), e.g. to record a stream for nvd-decode. */
const uint32_t *nvc_pushbuf_pending(const struct nvc_pushbuf *p, uint32_t *words);

/* Command words, method numbers and classes come from the hardware tables
 * installed beside this header: <nvd/hw/pushbuf.h> (NV_CMD_INC_WORD ...),
 * <nvd/hw/methods.h> (NV_M2MF_OFFSET_IN ...). */

#ifdef __cplusplus
}
#endif

#endif
