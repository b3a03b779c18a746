/* The nvd wire protocol: requests and replies over a SOCK_SEQPACKET socket,
 * buffer memory and rings passed as fds with SCM_RIGHTS.  One X-macro table
 * lists every message; the daemon's decoder checks each datagram's length
 * and fd count against it before a handler sees a byte.
 *
 * Bump NVD_PROTO_VERSION if any of these structures or meanings change. */
#ifndef NVD_PROTO_H
#define NVD_PROTO_H

#include <stdint.h>

/* The project's release, which every program's --version prints. */
#define NVD_VERSION       "0.1"

#define NVD_PROTO_MAGIC   0x3044564eu   /* "NVD0" */
#define NVD_PROTO_VERSION 11
#define NVD_MSG_MAX       512           /* no datagram is larger */
#define NVD_MSG_MAX_FDS   4
#define NVD_NAME_LEN      32
/* Object handles nvd keeps for its own objects on every client channel
 * ("nvd" in ASCII).  No nouveau client uses them: Mesa's nv30 driver names
 * 0 and 0xbeefXXXX, xf86-video-nouveau 0x80000010..0x80000021, 0xbeef0201/2
 * and 0xd8000003/4, libdrm_nouveau none of its own.  client/nvd.h repeats
 * them for clients (NVC_HANDLE_NVD_*). */
#define NVD_HANDLE_DAEMON_FIRST 0x6e766400u
#define NVD_HANDLE_DAEMON_LAST  0x6e7664ffu

/* Every datagram starts with this. */
struct nvd_msg_hdr {
	uint32_t type;           /* NVD_MSG_*; replies carry the request's type */
	uint32_t tag;            /* echoed in the reply */
};

/* Every reply: header, then error (0 or -errno), then the reply body (only
 * when error is 0).  msg is a human-readable reason when error != 0. */
struct nvd_reply_hdr {
	struct nvd_msg_hdr h;
	int32_t error;
	uint32_t _pad;
};
struct nvd_rep_error { char msg[128]; };

/* ---- bodies ---- */

struct nvd_req_hello {
	uint32_t magic;          /* NVD_PROTO_MAGIC */
	uint32_t version;        /* NVD_PROTO_VERSION */
	char name[NVD_NAME_LEN]; /* program name, for logs and nvdctl clients */
};
struct nvd_rep_hello {
	uint32_t version;
	uint32_t client_id;
	uint32_t chipset;        /* 0x43 */
	uint16_t pci_vendor, pci_device;
	uint64_t vram_size, gart_size;   /* what clients may allocate */
	char card[96];           /* card description */
};

struct nvd_req_none { uint32_t _unused; };
struct nvd_rep_none { uint32_t _unused; };

struct nvd_rep_status {
	uint32_t chipset;
	uint16_t pci_vendor, pci_device;
	char card[96];
	char bus_id[16];
	uint64_t vram_size, vram_client, vram_daemon;   /* total, held by client BOs, by the daemon */
	uint64_t gart_size, gart_client, gart_daemon;
	uint32_t channels_total, channels_used;
	uint32_t clients, bos;
	uint64_t submits, refused, uptime_ms;
	uint32_t oracle, _pad;   /* 1: the access oracle watches the card (nvd --sim-check) */
	uint64_t oracle_violations;
	uint64_t host_client;    /* client buffers on neither aperture, only in their memfds */
	uint64_t evictions, evicted_bytes;   /* buffers moved out of an aperture to make room */
	/* channels_total/used count open channels, virtual ones included */
	uint32_t hw_channels, hw_channels_used;   /* the card's channels for clients */
	uint64_t chan_loads, chan_unloads;        /* virtual channels onto / off them */
	uint64_t chan_switch_ns;                  /* daemon time unloading and loading them */
	uint64_t vchan_saved;                     /* bytes of state saved for virtual ones */
	uint64_t ramin_size, ramin_used;          /* instance memory's heap */
	uint64_t orphaned;       /* of the client bytes: buffers whose creator has gone */
	/* protocol 11, for rates (nvdctl top) */
	uint64_t now_ns;         /* the daemon's CLOCK_MONOTONIC as it replied */
	uint64_t fences;         /* submissions the card has completed */
	uint32_t busy_known, _pad2;   /* 1: the card measures its engines' busy time */
	uint64_t pfifo_busy_ns, pgraph_busy_ns;   /* since the card was opened */
};

struct nvd_req_client_at { uint32_t index; };
struct nvd_rep_client_at {
	uint32_t count;          /* clients connected; index >= count: -ENOENT */
	uint32_t id, pid, uid;
	char name[NVD_NAME_LEN];
	uint32_t bos, channels;
	uint64_t vram, gart;     /* bytes held */
	uint64_t submits, refused;
	uint64_t validate_ns, validate_max_ns;   /* validating its submissions: all, the longest */
	uint64_t host;           /* bytes held in host memory only */
	uint64_t evicted;        /* its buffers moved out to make room */
	/* protocol 11: its submissions the card has completed; card time
	 * (PFIFO busy on its channels' commands, 0 when the card does not
	 * measure it) */
	uint64_t fences, card_ns;
	/* each channel slot: NVD_CHAN_SLOT_NONE, NVD_CHAN_SLOT_VIRTUAL or its chid */
	uint8_t chan_chid[32];
};
#define NVD_CHAN_SLOT_NONE    0xff
#define NVD_CHAN_SLOT_VIRTUAL 0xfe

struct nvd_req_bo_new {
	uint64_t size;           /* bytes; rounded up to pages */
	uint32_t domain;         /* NVD_DOMAIN_VRAM or NVD_DOMAIN_GART (ring.h) */
	uint32_t flags;          /* none yet, must be 0 */
};
struct nvd_rep_bo_new {      /* + fd: the buffer's memfd (sealed: no grow/shrink) */
	uint32_t handle;
	uint32_t domain;
	uint64_t addr;           /* card address: offset in the VRAM or GART ctxdma */
	uint64_t size;
};

struct nvd_req_bo_free { uint32_t handle; };

/* Where a buffer is now: it moves when a submission needs it in the other
 * domain (NVD_ACCESS_IN_*); asked after such a submission, the answer
 * already counts it (the daemon takes a client's ring before its requests). */
struct nvd_req_bo_info { uint32_t handle; };
struct nvd_rep_bo_info {
	uint32_t domain, _pad;
	uint64_t addr;
};

/* A channel: one hardware FIFO channel.  The reply carries 4 fds: the submit
 * ring (read/write), the fence page (read only), the doorbell eventfd (client
 * writes after publishing submissions), the fence eventfd (the daemon writes
 * when fences complete or the channel is lost). */
struct nvd_req_chan_new { uint32_t flags; };
struct nvd_rep_chan_new {
	uint32_t chan;           /* the client's channel id */
	uint32_t chid;           /* hardware channel, informational */
	uint32_t vram_handle, gart_handle;  /* the channel's ctxdmas over VRAM and GART */
	uint32_t ring_size;      /* bytes of the submit ring memfd */
};
struct nvd_req_chan_free { uint32_t chan; };

/* A graphics object (or the null object, class 0x30) in the channel's RAMHT. */
struct nvd_req_obj_new { uint32_t chan, handle, cls; };
struct nvd_req_obj_free { uint32_t chan, handle; };

/* A ctxdma over [offset, offset+size) of one of the client's buffers, e.g.
 * for notifiers.  cls: 0x02, 0x03 or 0x3d; access 0 RW, 1 RO, 2 WO. */
struct nvd_req_dma_new {
	uint32_t chan, handle, bo, cls, access, _pad;
	uint64_t offset, size;
};

/* Sharing (DRM's GEM names, PRIME and authentication).  A buffer has one
 * global name once some holder flinks it; OPEN by name needs an
 * authenticated connection (or the master).  IMPORT carries one fd, a dup of
 * a buffer's memfd: holding it is the right to use the buffer.  OPEN and
 * IMPORT of a buffer the connection holds already give back its handle. */
struct nvd_req_bo_flink { uint32_t handle; };
struct nvd_rep_bo_flink { uint32_t name; };
struct nvd_req_bo_open { uint32_t name; };
struct nvd_req_bo_import { uint32_t _unused; };   /* + the buffer's fd */
/* OPEN and IMPORT reply with nvd_rep_bo_new and the buffer's memfd. */

/* Wait until the card is done with a buffer: submissions of any connection
 * that write it (with NVD_WAIT_WRITE: that use it at all).  The reply comes
 * when the buffer is idle (0), or at once with -EBUSY under NVD_WAIT_NOWAIT,
 * or -EBUSY when timeout_ns passes (< 0 or above 30 s: 30 s).  The daemon
 * keeps serving the connection meanwhile; the reply carries the tag. */
#define NVD_WAIT_NOWAIT 1
#define NVD_WAIT_WRITE  4
#define NVD_WAIT_MAX_NS 30000000000ll
struct nvd_req_bo_wait { uint32_t handle, flags; int64_t timeout_ns; };

/* Authentication: GET_MAGIC gives a random non-zero token (the same one on
 * every call); the master marks its holder authenticated with AUTH_MAGIC. */
struct nvd_rep_magic { uint32_t magic; };
struct nvd_req_auth_magic { uint32_t magic; };

/* Display (nvd/display.c).  A mode in DRM's terms; flags NVD_MODE_*. */
#define NVD_DISP_HEADS   2
#define NVD_DISP_OUTPUTS 2
#define NVD_MODE_PHSYNC  1
#define NVD_MODE_NHSYNC  2
#define NVD_MODE_PVSYNC  4
#define NVD_MODE_NVSYNC  8
struct nvd_mode {
	uint32_t clock;                                  /* kHz */
	uint16_t hdisplay, hsync_start, hsync_end, htotal;
	uint16_t vdisplay, vsync_start, vsync_end, vtotal;
	uint32_t flags;
	uint32_t preferred;                              /* 0 or 1 */
};
struct nvd_req_disp_output { uint32_t output; };
struct nvd_rep_disp_output {
	char name[16];
	uint32_t connected, head, mm_width, mm_height, nmodes, _pad;
	uint8_t edid[128];
};
struct nvd_req_disp_mode { uint32_t output, index; };
struct nvd_rep_disp_mode { struct nvd_mode mode; };
/* A framebuffer over a buffer the connection holds; fourcc is DRM's
 * (XR24, AR24, RG16). */
struct nvd_req_fb_new { uint32_t bo, offset, width, height, pitch, fourcc; };
struct nvd_rep_fb_new { uint32_t fb; };
struct nvd_req_fb_free { uint32_t fb; };
struct nvd_req_disp_head { uint32_t head; };
struct nvd_head_state {
	uint32_t fb, x, y, outputs;      /* fb 0: off */
	struct nvd_mode mode;
};
struct nvd_rep_disp_head { struct nvd_head_state s; };
struct nvd_req_disp_set_head { uint32_t head, _pad; struct nvd_head_state s; };
/* The reply's memfd holds height lines of width XRGB8888 pixels (host
 * order uint32), packed. */
struct nvd_req_disp_screenshot { uint32_t head; };
struct nvd_rep_disp_screenshot { uint32_t width, height; };
/* The head's 64x64 ARGB8888 cursor (premultiplied alpha), copied from a
 * buffer the connection holds at offset; bo 0 hides it.  Position: the
 * image's top-left corner on the screen. */
#define NVD_CURSOR_SIZE 64
struct nvd_req_disp_cursor_set { uint32_t head, bo, offset, _pad; };
struct nvd_req_disp_cursor_move { uint32_t head; int32_t x, y; };
/* Display events: DISP_EVENTS gives the connection's event socket (the
 * same one on every call), a SOCK_SEQPACKET end on which nvd writes one
 * struct nvd_disp_event per datagram.  A flip shows fb from the next
 * vblank on; its event comes with that vblank. */
#define NVD_DISP_EVENT_FLIP   1
#define NVD_DISP_EVENT_VBLANK 2
struct nvd_disp_event {
	uint32_t type, head;
	uint64_t user_data;
	uint64_t sequence;       /* vblanks the head has counted */
	uint64_t time_ns;        /* CLOCK_MONOTONIC of the vblank */
};
struct nvd_req_disp_page_flip { uint32_t head, fb; uint64_t user_data; };
/* Vblanks (protocol 6), DRM's WAIT_VBLANK and CRTC_QUEUE_SEQUENCE.  A head
 * that is on counts its vblanks; the count goes on across mode sets and
 * while the head is off it stands still.  DISP_VBLANK: the count and the
 * CLOCK_MONOTONIC time of the head's last vblank (-EINVAL for a head that
 * is off).  DISP_VBLANK_EVENT: an NVD_DISP_EVENT_VBLANK with user_data at
 * vblank `sequence` (with NVD_VBLANK_RELATIVE: that many after the last
 * one); the reply gives the absolute target.  A target already reached
 * sends the event at once, with the count now.  A target more than
 * NVD_VBLANK_MAX_AHEAD away is refused; a connection has at most
 * NVD_VBLANK_EVENTS_MAX waiting (-EMFILE).  A mode set or the head going
 * off sends the head's waiting events at once (their sequence is then
 * below the target), as DRM's vblank_off does.  Anyone may ask the count;
 * events are the master's (-EACCES): they keep nvd taking interrupts. */
#define NVD_VBLANK_RELATIVE   1
#define NVD_VBLANK_MAX_AHEAD  (1ull << 32)
#define NVD_VBLANK_EVENTS_MAX 128
struct nvd_req_disp_vblank { uint32_t head; };
struct nvd_rep_disp_vblank { uint64_t sequence, time_ns; };
struct nvd_req_disp_vblank_event {
	uint32_t head, flags;
	uint64_t sequence, user_data;
};
struct nvd_rep_disp_vblank_event { uint64_t sequence; };

/* X(NAME, id, request body, reply body, fds in the request, fds in the reply) */
#define NVD_MESSAGES(X) \
	X(HELLO,        1, nvd_req_hello,      nvd_rep_hello,     0, 0) \
	X(STATUS,       2, nvd_req_none,       nvd_rep_status,    0, 0) \
	X(CLIENT_AT,    3, nvd_req_client_at,  nvd_rep_client_at, 0, 0) \
	X(BO_NEW,       4, nvd_req_bo_new,     nvd_rep_bo_new,    0, 1) \
	X(BO_FREE,      5, nvd_req_bo_free,    nvd_rep_none,      0, 0) \
	X(CHAN_NEW,     6, nvd_req_chan_new,   nvd_rep_chan_new,  0, 4) \
	X(CHAN_FREE,    7, nvd_req_chan_free,  nvd_rep_none,      0, 0) \
	X(OBJ_NEW,      8, nvd_req_obj_new,    nvd_rep_none,      0, 0) \
	X(OBJ_FREE,     9, nvd_req_obj_free,   nvd_rep_none,      0, 0) \
	X(DMA_NEW,     10, nvd_req_dma_new,    nvd_rep_none,      0, 0) \
	X(BO_FLINK,    11, nvd_req_bo_flink,   nvd_rep_bo_flink,  0, 0) \
	X(BO_OPEN,     12, nvd_req_bo_open,    nvd_rep_bo_new,    0, 1) \
	X(BO_IMPORT,   13, nvd_req_bo_import,  nvd_rep_bo_new,    1, 1) \
	X(BO_WAIT,     14, nvd_req_bo_wait,    nvd_rep_none,      0, 0) \
	X(SET_MASTER,  15, nvd_req_none,       nvd_rep_none,      0, 0) \
	X(DROP_MASTER, 16, nvd_req_none,       nvd_rep_none,      0, 0) \
	X(GET_MAGIC,   17, nvd_req_none,       nvd_rep_magic,     0, 0) \
	X(AUTH_MAGIC,  18, nvd_req_auth_magic, nvd_rep_none,      0, 0) \
	X(BO_INFO,     19, nvd_req_bo_info,    nvd_rep_bo_info,   0, 0) \
	X(DISP_OUTPUT, 20, nvd_req_disp_output, nvd_rep_disp_output, 0, 0) \
	X(DISP_MODE,   21, nvd_req_disp_mode,  nvd_rep_disp_mode, 0, 0) \
	X(FB_NEW,      22, nvd_req_fb_new,     nvd_rep_fb_new,    0, 0) \
	X(FB_FREE,     23, nvd_req_fb_free,    nvd_rep_none,      0, 0) \
	X(DISP_HEAD,   24, nvd_req_disp_head,  nvd_rep_disp_head, 0, 0) \
	X(DISP_SET_HEAD, 25, nvd_req_disp_set_head, nvd_rep_none, 0, 0) \
	X(DISP_SCREENSHOT, 26, nvd_req_disp_screenshot, nvd_rep_disp_screenshot, 0, 1) \
	X(DISP_CURSOR_SET, 27, nvd_req_disp_cursor_set, nvd_rep_none, 0, 0) \
	X(DISP_CURSOR_MOVE, 28, nvd_req_disp_cursor_move, nvd_rep_none, 0, 0) \
	X(DISP_EVENTS,  29, nvd_req_none,       nvd_rep_none,      0, 1) \
	X(DISP_PAGE_FLIP, 30, nvd_req_disp_page_flip, nvd_rep_none, 0, 0) \
	X(DISP_VBLANK,  31, nvd_req_disp_vblank, nvd_rep_disp_vblank, 0, 0) \
	X(DISP_VBLANK_EVENT, 32, nvd_req_disp_vblank_event, nvd_rep_disp_vblank_event, 0, 0)

#define NVD_MSG_ENUM_(name, id, rq, rp, qfd, pfd) NVD_MSG_##name = id,
enum { NVD_MSG_NONE = 0, NVD_MESSAGES(NVD_MSG_ENUM_) NVD_MSG_COUNT };
#undef NVD_MSG_ENUM_

/* The daemon's last word as it shuts down (SIGTERM, SIGINT), sent unasked
 * before it closes the connection, in place of any reply still due: an
 * error reply of this type with tag 0, error -ESHUTDOWN and nvd_rep_error
 * saying why.  No request has this type. */
#define NVD_MSG_GOODBYE 0xffu

/* Sizes of each message's request and reply datagrams and the fds each
 * carries (exactly that many: anything else breaks the protocol). */
struct nvd_msg_desc {
	const char *name;
	uint32_t req_size, rep_size, req_fds, rep_fds;
};
const struct nvd_msg_desc *nvd_msg_desc(uint32_t type);

/* The default socket: $NVD_SOCKET, else /run/nvd/socket for root, else
 * $XDG_RUNTIME_DIR/nvd/socket (or /tmp/nvd-<uid>/socket without it). */
const char *nvd_default_socket(char *buf, unsigned len);

/* sendmsg/recvmsg with fds, retrying EINTR.  recv returns the datagram
 * length (0 on orderly close) or -errno; *nfds receives how many fds came
 * (all received fds are close-on-exec). */
long nvd_sendmsg(int sock, const void *buf, uint32_t len, const int *fds, unsigned nfds);
long nvd_recvmsg(int sock, void *buf, uint32_t len, int *fds, unsigned maxfds, unsigned *nfds);
/* The same for one that must close nothing itself (the daemon: a peer's fd
 * may block in close): every fd that came is in fds, also with -EMSGSIZE
 * (the control buffer holds NVD_MSG_MAX_FDS; the kernel drops the rest). */
long nvd_recvmsg_keep(int sock, void *buf, uint32_t len, int fds[NVD_MSG_MAX_FDS], unsigned *nfds);

#endif
