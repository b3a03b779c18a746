/* DRI2: GL clients render directly on the card, through nvd.  Mesa's
 * nouveau driver (under nvd-run) opens the device DRI2Connect names, which
 * the interposer answers as a nouveau primary node; we authenticate its
 * magic with nvd (we are the display master), hand it pixmaps' buffers by
 * flink name, and copy back to front on the card at SwapBuffers.  nvd
 * orders the copy after the client's rendering and the client's next frame
 * after the copy (implicit sync between channels), so no one waits here. */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "ddx/nvdx.h"

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
	b->base.attachment = attachment;
	b->base.name = name;
	b->base.pitch = np->pitch;
	b->base.cpp = pix->drawable.bitsPerPixel / 8;
	b->base.format = format;
	b->base.driverPrivate = b;
	return &b->base;
}

static void dri2_destroy_buffer2(ScreenPtr screen, DrawablePtr draw, DRI2BufferPtr buf)
{
	(void)draw;
	if (!buf)
		return;
	struct nvdx_dri2_buffer *b = buf->driverPrivate;
	screen->DestroyPixmap(b->pixmap);
	free(b);
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

static int dri2_auth_magic2(ScreenPtr screen, uint32_t magic)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(screen));
	if (nvc_auth_magic(nx->c, magic) < 0) {
		xf86DrvMsg(xf86ScreenToScrn(screen)->scrnIndex, X_WARNING,
			   "DRI2: authentication of magic 0x%08x refused: %s\n", magic, nvc_error());
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
	};

	primary_node(nx->dri2_device, sizeof(nx->dri2_device));
	if (!DRI2ScreenInit(screen, &info)) {
		xf86DrvMsg(scrn->scrnIndex, X_WARNING, "DRI2 failed to start: no direct rendering\n");
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
	if (nx->dri2)
		DRI2CloseScreen(screen);
	nx->dri2 = FALSE;
}
