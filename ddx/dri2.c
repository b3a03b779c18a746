/* DRI2: GL clients render directly on the card, through nvd.  Mesa's
 * nouveau driver (under nvd-run) opens the device DRI2Connect names, which
 * the interposer answers as a nouveau primary node; we authenticate its
 * magic with nvd (we are the display master), hand it pixmaps' buffers by
 * flink name, and copy back to front on the card at SwapBuffers.  nvd
 * orders the copy after the client's rendering and the client's next frame
 * after the copy (implicit sync between channels), so no one waits here.
 *
 * Swaps and MSC waits follow the head (CRTC) that shows most of the
 * window, as nouveau's nouveau_dri2.c does on DRM vblank events: the MSC
 * is nvd's vblank count of that head, a swap for a later MSC waits for an
 * nvd vblank event and copies then, and so GLX_OML_sync_control and the
 * swap interval work; the DRI2 core blocks the client meanwhile. */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "ddx/nvdx.h"

#include <dixstruct.h>
#include <dri2.h>
#include <exa.h>
#include <gcstruct.h>
#include <pixmapstr.h>
#include <scrnintstr.h>
#include <windowstr.h>

/* Mesa's loader picks nouveau_dri.so for the device's PCI id; both names
 * in case a client asks for VDPAU's. */
static const char *const driver_names[] = { "nouveau", "nouveau" };

struct nvdx_dri2_buffer {
	DRI2BufferRec base;
	PixmapPtr pixmap;
	unsigned refcnt;             /* the DRI2 core's, and each pending swap's */
};

/* The interposer's primary node (glx/node.c owns the rule): the first
 * /dev/dri/card<n> this machine does not have. */
static void primary_node(char *path, size_t len)
{
	struct stat st;
	for (unsigned m = 0; m < 64; m++) {
		snprintf(path, len, "/dev/dri/card%u", m);
		if (stat(path, &st) < 0 && errno == ENOENT)
			return;
	}
	snprintf(path, len, "/dev/dri/card0");
}

static PixmapPtr drawable_pixmap(DrawablePtr draw)
{
	if (draw->type == DRAWABLE_PIXMAP)
		return (PixmapPtr)draw;
	return draw->pScreen->GetWindowPixmap((WindowPtr)draw);
}

static DRI2BufferPtr dri2_create_buffer2(ScreenPtr screen, DrawablePtr draw,
					 unsigned int attachment, unsigned int format)
{
	struct nvdx_dri2_buffer *b = calloc(1, sizeof(*b));
	PixmapPtr pix;
	uint32_t name;

	if (!b)
		return NULL;
	if (attachment == DRI2BufferFrontLeft) {
		pix = drawable_pixmap(draw);
		pix->refcnt++;
	} else {
		/* format is a depth (Mesa: 24 XRGB, 32 ARGB, 16 RGB565) */
		unsigned depth = format ? format : draw->depth;
		pix = screen->CreatePixmap(screen, draw->width, draw->height, depth, 0);
		if (!pix) {
			free(b);
			return NULL;
		}
	}
	exaMoveInPixmap(pix);
	struct nvdx_pixmap *np = nvdx_pixmap(pix);
	struct nvc_bo *bo = np ? np->bo : NULL;
	if (!bo || nvc_bo_flink(bo, &name) < 0) {
		xf86DrvMsg(xf86ScreenToScrn(screen)->scrnIndex, X_WARNING,
			   "DRI2: no card buffer for attachment %u (%dx%d): %s\n", attachment,
			   draw->width, draw->height, bo ? nvc_error() : "not in VRAM");
		screen->DestroyPixmap(pix);
		free(b);
		return NULL;
	}
	b->pixmap = pix;
	b->refcnt = 1;
	b->base.attachment = attachment;
	b->base.name = name;
	b->base.pitch = np->pitch;
	b->base.cpp = pix->drawable.bitsPerPixel / 8;
	b->base.format = format;
	b->base.driverPrivate = b;
	return &b->base;
}

static void buffer_unref(ScreenPtr screen, DRI2BufferPtr buf)
{
	struct nvdx_dri2_buffer *b = buf->driverPrivate;
	if (--b->refcnt)
		return;
	screen->DestroyPixmap(b->pixmap);
	free(b);
}

static void dri2_destroy_buffer2(ScreenPtr screen, DrawablePtr draw, DRI2BufferPtr buf)
{
	(void)draw;
	if (buf)
		buffer_unref(screen, buf);
}

/* The front is the drawable itself (a window clips); the others are ours. */
static DrawablePtr buffer_drawable(DrawablePtr draw, DRI2BufferPtr buf)
{
	struct nvdx_dri2_buffer *b = buf->driverPrivate;
	return buf->attachment == DRI2BufferFrontLeft ? draw : &b->pixmap->drawable;
}

static void dri2_copy_region2(ScreenPtr screen, DrawablePtr draw, RegionPtr region,
			      DRI2BufferPtr dst, DRI2BufferPtr src)
{
	DrawablePtr sd = buffer_drawable(draw, src), dd = buffer_drawable(draw, dst);
	GCPtr gc = GetScratchGC(dd->depth, screen);
	RegionPtr clip = RegionCreate(NULL, 0);

	if (!gc || !clip) {
		if (gc)
			FreeScratchGC(gc);
		return;
	}
	RegionCopy(clip, region);
	gc->funcs->ChangeClip(gc, CT_REGION, clip, 0);
	ValidateGC(dd, gc);
	gc->ops->CopyArea(sd, dd, gc, 0, 0, draw->width, draw->height, 0, 0);
	FreeScratchGC(gc);
	/* To nvd now: the client hears of the swap only after this. */
	nvdx_push_kick(&nvdx(xf86ScreenToScrn(screen))->push);
}

/* ---- swaps and waits on the heads' vblanks ---- */

/* A swap or an MSC wait until nvd's vblank event with its id. */
struct nvdx_frame {
	struct nvdx_frame *next;
	uint64_t id;
	Bool swap;                   /* else an MSC wait */
	ClientPtr client;            /* NULL once the client is gone */
	XID draw_id;                 /* the drawable may go meanwhile: looked up again */
	DrawablePtr draw;
	DRI2BufferPtr front, back;   /* referenced, for swaps */
	DRI2SwapEventPtr func;
	void *data;
};

/* Where no head shows the drawable: a made-up 60 Hz count on the
 * monotonic clock, so that the MSC still moves. */
#define FAKE_MSC_HZ 60

static uint64_t mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000;
}

/* The head showing most of a window (ties: the first), or -1: none, a
 * pixmap, or heads that are off. */
static int best_head(DrawablePtr draw)
{
	ScrnInfoPtr scrn = xf86ScreenToScrn(draw->pScreen);
	xf86CrtcConfigPtr config = XF86_CRTC_CONFIG_PTR(scrn);
	int best = -1;
	long best_area = 0;

	if (draw->type != DRAWABLE_WINDOW)
		return -1;
	for (int i = 0; i < config->num_crtc; i++) {
		xf86CrtcPtr crtc = config->crtc[i];
		struct nvdx_crtc *nc = crtc->driver_private;
		if (!crtc->enabled || !nc->on)
			continue;
		/* min and max: Xorg's macros (misc.h) */
		long x1 = max((long)draw->x, (long)crtc->x), y1 = max((long)draw->y, (long)crtc->y);
		long x2 = min((long)draw->x + draw->width, (long)crtc->x + crtc->mode.HDisplay);
		long y2 = min((long)draw->y + draw->height, (long)crtc->y + crtc->mode.VDisplay);
		if (x2 <= x1 || y2 <= y1)
			continue;
		long area = (x2 - x1) * (y2 - y1);
		if (area > best_area) {
			best_area = area;
			best = (int)nc->head;
		}
	}
	return best;
}

/* The MSC and UST (microseconds, CLOCK_MONOTONIC) of the drawable's head,
 * and the head; -1 and the made-up count when it has none. */
static int head_msc(DrawablePtr draw, CARD64 *ust, CARD64 *msc)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(draw->pScreen));
	int head = best_head(draw);
	uint64_t seq, t;

	if (head >= 0 && nvc_disp_vblank(nx->c, (unsigned)head, &seq, &t) == 0) {
		*msc = seq;
		*ust = t / 1000;
		return head;
	}
	*ust = mono_us();
	*msc = *ust * FAKE_MSC_HZ / 1000000u;
	return -1;
}

static Bool dri2_get_msc(DrawablePtr draw, CARD64 *ust, CARD64 *msc)
{
	head_msc(draw, ust, msc);
	return TRUE;
}

/* The DRI2 spec: past the target, the next MSC with msc % divisor ==
 * remainder. */
static CARD64 next_msc(CARD64 current, CARD64 target, CARD64 divisor, CARD64 remainder)
{
	if (!divisor || current < target)
		return target;
	CARD64 t = current - current % divisor + remainder % divisor;
	return t <= current ? t + divisor : t;
}

static void swap_copy(DrawablePtr draw, DRI2BufferPtr front, DRI2BufferPtr back)
{
	BoxRec box = { 0, 0, draw->width, draw->height };
	RegionRec region;
	RegionInit(&region, &box, 0);
	dri2_copy_region2(draw->pScreen, draw, &region, front, back);
	RegionUninit(&region);
}

static void swap_complete(ClientPtr client, DrawablePtr draw, CARD64 msc, CARD64 ust,
			  DRI2SwapEventPtr func, void *data)
{
	DRI2SwapComplete(client, draw, (int)msc, (unsigned)(ust / 1000000u),
			 (unsigned)(ust % 1000000u), DRI2_BLIT_COMPLETE, func, data);
}

static void wait_complete(ClientPtr client, DrawablePtr draw, CARD64 msc, CARD64 ust)
{
	DRI2WaitMSCComplete(client, draw, (int)msc, (unsigned)(ust / 1000000u),
			    (unsigned)(ust % 1000000u));
}

static void frame_free(ScreenPtr screen, struct nvdx_frame *f)
{
	if (f->front)
		buffer_unref(screen, f->front);
	if (f->back)
		buffer_unref(screen, f->back);
	free(f);
}

/* A copy of frame *tmpl waiting for head's vblank *target (absolute, set
 * to nvd's answer), or FALSE: the caller completes it now. */
static Bool frame_queue(ScrnInfoPtr scrn, const struct nvdx_frame *tmpl, int head,
			CARD64 *target)
{
	struct nvdx *nx = nvdx(scrn);
	struct nvdx_frame *f;
	uint64_t tg;

	if (head < 0 || nx->event_fd < 0 || !(f = malloc(sizeof(*f))))
		return FALSE;
	*f = *tmpl;
	f->id = ++nx->frame_next;
	if (nvc_disp_vblank_event(nx->c, (unsigned)head, 0, *target, f->id, &tg) < 0) {
		xf86DrvMsg(scrn->scrnIndex, X_WARNING, "DRI2: no vblank event on head %d: %s\n",
			   head, nvc_error());
		free(f);
		return FALSE;
	}
	*target = tg;
	f->next = nx->frames;
	nx->frames = f;
	return TRUE;
}

static Bool dri2_schedule_swap(ClientPtr client, DrawablePtr draw, DRI2BufferPtr front,
			       DRI2BufferPtr back, CARD64 *target_msc, CARD64 divisor,
			       CARD64 remainder, DRI2SwapEventPtr func, void *data)
{
	ScreenPtr screen = draw->pScreen;
	CARD64 ust, msc;
	int head = head_msc(draw, &ust, &msc);

	*target_msc = next_msc(msc, *target_msc, divisor, remainder);
	const struct nvdx_frame f = { .swap = TRUE, .client = client, .draw_id = draw->id,
				      .draw = draw, .front = front, .back = back, .func = func,
				      .data = data };
	if (*target_msc > msc && frame_queue(xf86ScreenToScrn(screen), &f, head, target_msc)) {
		((struct nvdx_dri2_buffer *)front->driverPrivate)->refcnt++;
		((struct nvdx_dri2_buffer *)back->driverPrivate)->refcnt++;
		return TRUE;
	}
	/* the target has passed (or there is no head to wait on): now */
	swap_copy(draw, front, back);
	*target_msc = msc;
	swap_complete(client, draw, msc, ust, func, data);
	return TRUE;
}

static Bool dri2_schedule_wait_msc(ClientPtr client, DrawablePtr draw, CARD64 target_msc,
				   CARD64 divisor, CARD64 remainder)
{
	CARD64 ust, msc;
	int head = head_msc(draw, &ust, &msc);

	target_msc = next_msc(msc, target_msc, divisor, remainder);
	const struct nvdx_frame f = { .client = client, .draw_id = draw->id, .draw = draw };
	if (target_msc > msc && frame_queue(xf86ScreenToScrn(draw->pScreen), &f, head,
					    &target_msc)) {
		DRI2BlockClient(client, draw);
		return TRUE;
	}
	wait_complete(client, draw, msc, ust);
	return TRUE;
}

/* nvd's vblank event for frame f: the drawable and the client may have
 * gone since; then it only goes. */
static void frame_done(ScreenPtr screen, struct nvdx_frame *f, const struct nvc_disp_event *ev)
{
	DrawablePtr draw;
	CARD64 ust = ev->time_ns / 1000;

	if (f->client && dixLookupDrawable(&draw, f->draw_id, serverClient, M_ANY,
					   DixWriteAccess) == Success && draw == f->draw) {
		if (f->swap) {
			swap_copy(draw, f->front, f->back);
			swap_complete(f->client, draw, ev->sequence, ust, f->func, f->data);
		} else {
			wait_complete(f->client, draw, ev->sequence, ust);
		}
	}
	frame_free(screen, f);
}

void nvdx_dri2_event(ScreenPtr screen, const struct nvc_disp_event *ev)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(screen));

	if (ev->type != NVC_DISP_EVENT_VBLANK)
		return;
	for (struct nvdx_frame **p = &nx->frames; *p; p = &(*p)->next)
		if ((*p)->id == ev->user_data) {
			struct nvdx_frame *f = *p;
			*p = f->next;
			frame_done(screen, f, ev);
			return;
		}
}

/* No vblank comes from a dead nvd: the frames end at the made-up count. */
void nvdx_dri2_lost(ScreenPtr screen)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(screen));
	uint64_t us = mono_us();
	const struct nvc_disp_event ev = { .type = NVC_DISP_EVENT_VBLANK,
					   .sequence = us * FAKE_MSC_HZ / 1000000u,
					   .time_ns = us * 1000 };

	while (nx->frames) {
		struct nvdx_frame *f = nx->frames;
		nx->frames = f->next;
		frame_done(screen, f, &ev);
	}
}

/* A client that goes leaves its frames without anyone to tell. */
static void dri2_client_state(CallbackListPtr *list, void *arg, void *calldata)
{
	struct nvdx *nx = arg;
	NewClientInfoRec *ci = calldata;

	(void)list;
	if (ci->client->clientState != ClientStateGone)
		return;
	for (struct nvdx_frame *f = nx->frames; f; f = f->next)
		if (f->client == ci->client)
			f->client = NULL;
}

static int dri2_auth_magic2(ScreenPtr screen, uint32_t magic)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(screen));
	if (nvc_auth_magic(nx->c, magic) < 0) {
		/* Mesa then renders in software: never silently */
		xf86DrvMsg(xf86ScreenToScrn(screen)->scrnIndex, X_ERROR,
			   "DRI2: authentication of magic 0x%08x refused: %s; that GL client "
			   "falls back to software rendering, not the NV4x\n", magic, nvc_error());
		return -1;
	}
	return 0;
}

Bool nvdx_dri2_init(ScreenPtr screen)
{
	ScrnInfoPtr scrn = xf86ScreenToScrn(screen);
	struct nvdx *nx = nvdx(scrn);
	DRI2InfoRec info = {
		.version = 9,
		.fd = -1,               /* no DRM fd in the server: AIGLX falls back to software */
		.driverName = driver_names[0],
		.deviceName = nx->dri2_device,
		.numDrivers = 2,
		.driverNames = driver_names,
		.AuthMagic2 = dri2_auth_magic2,
		.CreateBuffer2 = dri2_create_buffer2,
		.DestroyBuffer2 = dri2_destroy_buffer2,
		.CopyRegion2 = dri2_copy_region2,
		.ScheduleSwap = dri2_schedule_swap,
		.GetMSC = dri2_get_msc,
		.ScheduleWaitMSC = dri2_schedule_wait_msc,
	};

	/* the frames of a client that goes are left (nvd's events: restart.c) */
	if (!AddCallback(&ClientStateCallback, dri2_client_state, nx)) {
		xf86DrvMsg(scrn->scrnIndex, X_WARNING, "DRI2: cannot follow clients\n");
		return FALSE;
	}
	primary_node(nx->dri2_device, sizeof(nx->dri2_device));
	if (!DRI2ScreenInit(screen, &info)) {
		xf86DrvMsg(scrn->scrnIndex, X_WARNING, "DRI2 failed to start: no direct rendering\n");
		DeleteCallback(&ClientStateCallback, dri2_client_state, nx);
		return FALSE;
	}
	xf86DrvMsg(scrn->scrnIndex, X_INFO, "DRI2: direct rendering through nvd (%s, %s)\n",
		   info.driverName, info.deviceName);
	nx->dri2 = TRUE;
	return TRUE;
}

void nvdx_dri2_fini(ScreenPtr screen)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(screen));
	if (!nx->dri2)
		return;
	DeleteCallback(&ClientStateCallback, dri2_client_state, nx);
	while (nx->frames) {
		struct nvdx_frame *f = nx->frames;
		nx->frames = f->next;
		frame_free(screen, f);
	}
	DRI2CloseScreen(screen);
	nx->dri2 = FALSE;
}
