/* nvd_drv.so: the Xorg video driver for the card nvd owns.  It talks to
 * nvd through libnvd only: the framebuffer is an nvd buffer the server
 * draws into through its mapping, the heads and cursors are nvd's display
 * API (this server is its master). */
#ifndef NVDX_H
#define NVDX_H

#include <xorg-server.h>
#include <list.h>
#include <xf86.h>
#include <xf86Crtc.h>

#include "client/nvd.h"

#define NVDX_NAME    "nvd"
#define NVDX_VERSION 1
#define NVDX_CPP     4               /* depth 24 in 32-bit pixels: XRGB8888 */
#define NVDX_PITCH_ALIGN 64

/* The CRTC's reach: a pitch of at most 0xfff * 8 bytes (8176 pixels once
 * aligned to 64 bytes), 8192 lines. */
#define NVDX_MAX_WIDTH  8176
#define NVDX_MAX_HEIGHT 8192

/* The screen's framebuffer: one VRAM buffer, mapped, scanned out by both
 * heads at their (x, y). */
struct nvdx_fb {
	struct nvc_bo *bo;
	void *map;
	uint32_t id;                 /* nvd's framebuffer */
	unsigned width, height, pitch;
};

/* accel.c: the server's channel.  Subchannels as nouveau's DDX has them
 * (1 is nvd's own); handles easy to spot in nvd's logs. */
enum {
	NVDX_SUBC_M2MF = 0, NVDX_SUBC_SURF = 2, NVDX_SUBC_GDI = 3, NVDX_SUBC_BLIT = 4,
	NVDX_SUBC_IFC = 5, NVDX_SUBC_MISC = 6, NVDX_SUBC_3D = 7,
};
enum {
	NVDX_H_NULL = 0, NVDX_H_M2MF = 0x4e580039, NVDX_H_SURF2D = 0x4e580062,
	NVDX_H_GDI = 0x4e58004a, NVDX_H_BLIT = 0x4e58009f, NVDX_H_IFC = 0x4e58008a,
	NVDX_H_ROP = 0x4e580043, NVDX_H_PATT = 0x4e580044, NVDX_H_CLIP = 0x4e580019,
	NVDX_H_3D = 0x4e584097,
};

/* libnvd's writer and what the server keeps beside it. */
struct nvdx_push {
	ScrnInfoPtr scrn;
	struct nvc_chan *ch;
	struct nvc_pushbuf *pb;
	uint32_t cap;                /* the push buffer's words */
	int err;                     /* the first failure: acceleration is off */
	uint32_t gen;                /* submissions so far: state is written again after one */
};

enum nvdx_sync { NVDX_SYNC_SUBMIT, NVDX_SYNC_READ, NVDX_SYNC_RW };

Bool nvdx_accel_init(ScrnInfoPtr scrn);
void nvdx_accel_fini(ScrnInfoPtr scrn);
void nvdx_push_space(struct nvdx_push *p, uint32_t words, unsigned bos, unsigned relocs);
void nvdx_push_float(struct nvdx_push *p, float f);
int nvdx_push_kick(struct nvdx_push *p);
int nvdx_push_sync(struct nvdx_push *p, struct nvc_bo *bo, enum nvdx_sync how);

/* 3d.c: the 3D engine for Render.  Its scratch buffer holds the fragment
 * programs (NVDX_FP_*, one a slot) and, from NVDX_3D_SOLID_BASE, a ring of
 * 1x1 textures for solid pictures. */
enum { NVDX_FP_S, NVDX_FP_S_A8, NVDX_FP_C, NVDX_FP_C_A8, NVDX_FP_CCA, NVDX_FP_CCASA,
       NVDX_FP_COUNT };
#define NVDX_3D_SLOT        256
#define NVDX_3D_SOLID_BASE  0x1000
#define NVDX_3D_MAX         4096     /* render targets and textures, either way */

struct nvdx_3d {
	Bool ok;
	struct nvc_bo *scratch;      /* VRAM, mapped */
	uint32_t *map;
	uint32_t solid_next;         /* the ring's next slot */
	uint32_t solid_last;         /* the slot last written (0: none) and its colour */
	uint32_t solid_argb;
};

struct nvdx_crtc {
	unsigned head;
	struct nvc_bo *cursor;       /* NVC_CURSOR_SIZE^2 ARGB, mapped */
	Bool cursor_shown;
	int cursor_x, cursor_y;      /* where X put it: shown there again after a restart */
	Bool on;                     /* DPMS: the head scans out */
};

struct nvdx_output {
	unsigned index;
	uint8_t edid[128];           /* xf86InterpretEDID keeps a pointer to it */
	Bool connected;              /* what nvd said last: the answers while it is gone */
	DisplayModePtr modes;
};

/* What EXA had the card do, and Render operations the card was not given
 * (by reason, composite.c): the Xorg log shows them when the screen closes. */
enum nvdx_refusal {
	NVDX_REF_OP, NVDX_REF_DST_FORMAT, NVDX_REF_FORMAT, NVDX_REF_SIZE, NVDX_REF_FILTER,
	NVDX_REF_GRADIENT, NVDX_REF_CA_SRC_ALPHA, NVDX_REF_XRGB_BORDER, NVDX_REF_WINDOW, NVDX_REF_PIXMAP,
	NVDX_REF_COUNT
};

struct nvdx_stats {
	unsigned long solid, copy, upload_ifc, upload_cpu, download;
	unsigned long composite;                  /* rectangles drawn */
	unsigned long refused[NVDX_REF_COUNT];
};

/* exa.c: a pixmap's storage, EXA's driver private. */
struct nvdx_pixmap {
	struct nvc_bo *bo;           /* VRAM; NULL: the pixmap lives in system memory */
	unsigned pitch;
	Bool is_fb;                  /* the screen's framebuffer: its bo is nvdx_fb's */
	struct xorg_list link;       /* nvdx.pixmaps, while it has a bo of its own */
};

struct nvdx {
	struct nvc *c;
	char *sock;                  /* the Socket option (NULL: libnvd's default), to reconnect */
	Bool lost;                   /* nvd is gone: software on the buffers' memory (restart.c) */
	OsTimerPtr reconnect;
	CARD32 retry_ms, lost_ms;    /* the backoff; when the loss was seen */
	unsigned attempts;
	struct xorg_list pixmaps;    /* struct nvdx_pixmap with a bo of their own */
	struct nvdx_fb fb;
	struct nvdx_push push;
	struct nvdx_3d t3d;
	struct nvdx_stats stats;
	Bool accel;
	struct _ExaDriver *exa;
	Bool dri2;
	char dri2_device[32];        /* the node DRI2Connect names */
	struct nvdx_frame *frames;   /* dri2.c: swaps and MSC waits for a vblank */
	uint64_t frame_next;         /* their ids, nvd's user_data */
	int event_fd;                /* nvd's display events, watched (-1: not; restart.c) */
	OptionInfoPtr options;
	CloseScreenProcPtr CloseScreen;
	CreateScreenResourcesProcPtr CreateScreenResources;
	ScreenBlockHandlerProcPtr BlockHandler;
};

static inline struct nvdx *nvdx(ScrnInfoPtr scrn)
{
	return scrn->driverPrivate;
}

/* restart.c: nvd's events and its loss.  The server watches the event
 * socket from ScreenInit on; when nvd is gone (the socket hangs up, or a
 * call fails as libnvd fails them then) it draws in software on the
 * buffers it still maps and reconnects with backoff: master again, every
 * buffer copied into a new one of the new connection, the heads and
 * cursors shown again, the channel made again. */
Bool nvdx_watch(ScreenPtr screen);
void nvdx_unwatch(ScreenPtr screen);
/* CloseScreen: no more watching or reconnecting. */
void nvdx_restart_fini(ScreenPtr screen);
/* An nvc call failed with err (0: none, just look): TRUE when nvd is gone,
 * and then the loss is handled. */
Bool nvdx_nvd_gone(ScrnInfoPtr scrn, int err);

/* display.c: the CRTCs and outputs (PreInit), the framebuffer they show. */
Bool nvdx_display_preinit(ScrnInfoPtr scrn);
Bool nvdx_fb_alloc(ScrnInfoPtr scrn, struct nvdx_fb *fb, unsigned width, unsigned height);
void nvdx_fb_release(ScrnInfoPtr scrn, struct nvdx_fb *fb);
/* All heads off and cursors hidden: what the server leaves behind. */
void nvdx_display_off(ScrnInfoPtr scrn);
/* The heads that were on and their cursors, shown again on a new connection. */
void nvdx_display_restore(ScrnInfoPtr scrn);

/* exa.c: EXA on the 2D engine (after fbPictureInit); the screen pixmap's
 * storage is the framebuffer (CreateScreenResources, resize). */
Bool nvdx_exa_init(ScreenPtr screen);
void nvdx_exa_fini(ScreenPtr screen);
void nvdx_exa_set_fb(ScreenPtr screen);
/* exa.c: a pixmap's private, and whether the engines can use it. */
struct nvdx_pixmap *nvdx_pixmap(PixmapPtr pix);

/* 3d.c */
Bool nvdx_3d_init(ScrnInfoPtr scrn, unsigned chipset);
void nvdx_3d_fini(ScrnInfoPtr scrn);
/* The scratch offset of a 1x1 texture of colour argb (a8r8g8b8). */
uint32_t nvdx_3d_solid(struct nvdx *nx, uint32_t argb);

/* composite.c: EXA's Composite hooks on the 3D engine, when it runs. */
void nvdx_composite_hooks(struct _ExaDriver *exa);
/* The Xorg log's line on what Render left to software, and why. */
void nvdx_composite_report(ScrnInfoPtr scrn);

/* dri2.c: direct rendering for GL clients (after EXA) */
Bool nvdx_dri2_init(ScreenPtr screen);
void nvdx_dri2_fini(ScreenPtr screen);
/* nvd's display event (restart.c reads them). */
void nvdx_dri2_event(ScreenPtr screen, const struct nvc_disp_event *ev);
/* nvd is gone: the swaps and waits its vblanks would have ended, now. */
void nvdx_dri2_lost(ScreenPtr screen);

#endif
