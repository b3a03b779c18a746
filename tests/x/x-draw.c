/* x-draw: a deterministic X drawing client.  It draws one scene on the
 * root window of $DISPLAY, XSyncs and exits; test_exa runs it on our X and
 * on Xvfb and compares `xwd -root` of the two.
 *
 *   x-draw [--scene NAME] [--size WxH]    (default: all, 640x480)
 *   x-draw --list
 *
 * Each scene keeps to one family of requests, so that a difference points
 * at one of EXA's paths: fill (solid fills, GC functions, plane masks,
 * clip lists, tiles and stipples), copy (window to window in the four
 * directions, pixmaps to and from the window), put (XPutImage of depth 24
 * and 32, small and over 1 MiB, XShmPutImage), get (XGetImage put back),
 * text (core fonts and Render A8 glyphs) and render (Render's operators
 * on solid, ARGB32 and masked sources, repeats, a scale, FillRectangles)
 * and pictures (Render's other source formats, bilinear scaling,
 * projective transforms of a source and a mask, component alpha, an a8
 * destination) and
 * depth16 (Render into r5g6b5 pixmaps), lowdepth (fills and copies with
 * every GC function and a plane mask in depth 16 and 8 pixmaps, read back
 * exactly); all draws each in a cell of a grid of two rows.
 *
 * It draws on the root window: its pixels outlive the client (a window of
 * ours would go with it), with the server started with -noreset (else the
 * last client leaving resets the root).  The root's background becomes
 * black and its cursor an empty one (nvd's screenshot of a head shows the
 * hardware cursor; xwd does not).  What a server lacks (MIT-SHM, the
 * "fixed" font, depth 15 pixmaps: Xvfb needs -pixdepths 1 4 8 15 16 24 32)
 * is said on stderr and drawn another way or left out, the same way on
 * every server.  Exit 0 drawn, 1 an X error or failure, 2
 * usage. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xrender.h>

#define XD_W 640
#define XD_H 480

struct xd {
	Display *dpy;
	Window root;
	Visual *vis;
	int depth;
	GC gc;                     /* GXcopy, no exposures; scenes put back what they change */
	XRenderPictFormat *fmt;    /* the root's */
	XRenderPictFormat *argb, *a8;
	Picture rootpic;
	unsigned long rmask, gmask, bmask;
	uint32_t seed;
};

static int xd_errors;
static int xd_quiet_errors;        /* an error expected (XShmAttach refused) */
static int xd_last_error;

static int xd_on_error(Display *dpy, XErrorEvent *e)
{
	char text[128];
	xd_last_error = e->error_code;
	if (xd_quiet_errors)
		return 0;
	XGetErrorText(dpy, e->error_code, text, sizeof(text));
	fprintf(stderr, "x-draw: X error %s (request %u.%u, resource 0x%lx)\n", text,
		e->request_code, e->minor_code, e->resourceid);
	xd_errors++;
	return 0;
}

static uint32_t xd_rand(struct xd *d)
{
	uint32_t x = d->seed;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return d->seed = x;
}

/* Uniform in [lo, hi]. */
static int xd_range(struct xd *d, int lo, int hi)
{
	return lo + (int)(xd_rand(d) % (uint32_t)(hi - lo + 1));
}

/* 8-bit channels into the visual's masks. */
static unsigned long xd_chan(unsigned long mask, unsigned v)
{
	unsigned shift = 0;
	if (!mask)
		return 0;
	while (!(mask >> shift & 1))
		shift++;
	unsigned bits = 0;
	while (mask >> (shift + bits) & 1)
		bits++;
	unsigned long c = bits >= 8 ? (unsigned long)v << (bits - 8) : v >> (8 - bits);
	return c << shift & mask;
}

static unsigned long xd_pixel(const struct xd *d, unsigned r, unsigned g, unsigned b)
{
	return xd_chan(d->rmask, r) | xd_chan(d->gmask, g) | xd_chan(d->bmask, b);
}

static unsigned long xd_rand_pixel(struct xd *d)
{
	uint32_t v = xd_rand(d);
	return xd_pixel(d, v & 255, v >> 8 & 255, v >> 16 & 255);
}

static void xd_fill(struct xd *d, GC gc, unsigned long pixel, int x, int y, int w, int h)
{
	XSetForeground(d->dpy, gc, pixel);
	XFillRectangle(d->dpy, d->root, gc, x, y, (unsigned)w, (unsigned)h);
}

/* A background of coloured 8x8 blocks (from the position), so that copies,
 * GC functions and blending meet a destination that varies. */
static void xd_blocks(struct xd *d, Drawable dst, int x, int y, int w, int h)
{
	for (int j = 0; j < h; j += 8)
		for (int i = 0; i < w; i += 8) {
			unsigned a = (unsigned)(i * 7 + j * 3), b = (unsigned)(i * 2 + j * 5);
			XSetForeground(d->dpy, d->gc, xd_pixel(d, a & 255, b & 255, (a ^ b) & 255));
			XFillRectangle(d->dpy, dst, d->gc, x + i, y + j,
				       (unsigned)(w - i < 8 ? w - i : 8),
				       (unsigned)(h - j < 8 ? h - j : 8));
		}
}

/* An XImage of the server's format for `depth` with malloc'd data. */
static XImage *xd_image(struct xd *d, int depth, int w, int h)
{
	XImage *im = XCreateImage(d->dpy, d->vis, (unsigned)depth, ZPixmap, 0, NULL,
				  (unsigned)w, (unsigned)h, 32, 0);
	if (!im)
		return NULL;
	im->data = calloc((size_t)im->bytes_per_line, (size_t)h);
	if (!im->data) {
		XDestroyImage(im);
		return NULL;
	}
	return im;
}

/* A gradient: red across, green down, blue from both, seeded so that two
 * images differ. */
static void xd_gradient(struct xd *d, XImage *im, unsigned seed)
{
	for (int y = 0; y < im->height; y++)
		for (int x = 0; x < im->width; x++) {
			unsigned r = (unsigned)(x * 255 / (im->width > 1 ? im->width - 1 : 1));
			unsigned g = (unsigned)(y * 255 / (im->height > 1 ? im->height - 1 : 1));
			unsigned b = (unsigned)(x + y * 3) * seed;
			XPutPixel(im, x, y, xd_pixel(d, r, g, b & 255));
		}
}

/* ---- fill ---- */

static int xd_scene_fill(struct xd *d, int x, int y, int w, int h)
{
	static const int funcs[] = {
		GXclear, GXand, GXandReverse, GXcopy, GXandInverted, GXnoop, GXxor, GXor,
		GXnor, GXequiv, GXinvert, GXorReverse, GXcopyInverted, GXorInverted, GXnand,
		GXset,
	};
	Display *dpy = d->dpy;
	int band = h / 4;

	/* many colours and sizes, one request each */
	xd_fill(d, d->gc, xd_pixel(d, 40, 40, 48), x, y, w, band);
	for (int i = 0; i < 120; i++) {
		int rw = xd_range(d, 1, w / 4), rh = xd_range(d, 1, band / 2);
		xd_fill(d, d->gc, xd_rand_pixel(d), x + xd_range(d, 0, w - rw),
			y + xd_range(d, 0, band - rh), rw, rh);
	}
	for (int i = 0; i < w / 2 - 2; i++)
		xd_fill(d, d->gc, xd_rand_pixel(d), x + 2 + 2 * i, y + 1, 1, 1);
	xd_fill(d, d->gc, xd_pixel(d, 255, 255, 255), x + 1, y + band - 2, w - 2, 1);
	xd_fill(d, d->gc, xd_pixel(d, 255, 0, 128), x, y + band - 6, w, 3);
	xd_fill(d, d->gc, xd_pixel(d, 0, 255, 64), x + w - 3, y, 1, band);
	xd_fill(d, d->gc, xd_pixel(d, 64, 128, 255), x + w - 8, y, 3, band);

	/* one PolyFillRectangle of many, then the same through a clip list */
	int by = y + band;
	XRectangle rs[24];
	xd_fill(d, d->gc, xd_pixel(d, 200, 200, 190), x, by, w, band);
	for (unsigned i = 0; i < 24; i++) {
		rs[i].width = (unsigned short)xd_range(d, 1, w / 6);
		rs[i].height = (unsigned short)xd_range(d, 1, band / 3);
		rs[i].x = (short)(x + xd_range(d, 0, w / 2 - rs[i].width));
		rs[i].y = (short)(by + xd_range(d, 0, band - rs[i].height));
	}
	XSetForeground(dpy, d->gc, xd_pixel(d, 20, 90, 160));
	XFillRectangles(dpy, d->root, d->gc, rs, 24);
	XRectangle clip[4] = {
		{ 0, 0, (unsigned short)(w / 8), (unsigned short)(band / 2) },
		{ (short)(w / 8 + 3), 2, 5, (unsigned short)(band - 4) },
		{ (short)(w / 8 + 11), (short)(band / 3), (unsigned short)(w / 4),
		  (unsigned short)(band / 3) },
		{ 1, (short)(band - band / 4), (unsigned short)(w / 3), 1 },
	};
	XSetClipRectangles(dpy, d->gc, x + w / 2, by, clip, 4, Unsorted);
	xd_fill(d, d->gc, xd_pixel(d, 240, 120, 0), x + w / 2, by, w / 2, band);
	for (unsigned i = 0; i < 24; i++)
		rs[i].x = (short)(rs[i].x + w / 2);
	XSetForeground(dpy, d->gc, xd_pixel(d, 0, 60, 0));
	XFillRectangles(dpy, d->root, d->gc, rs, 24);
	XSetClipMask(dpy, d->gc, None);

	/* every GC function over the blocks, then plane masks */
	int fy = y + 2 * band, cw = w / 16;
	xd_blocks(d, d->root, x, fy, w, band);
	for (unsigned i = 0; i < 16; i++) {
		XSetFunction(dpy, d->gc, funcs[i]);
		xd_fill(d, d->gc, xd_pixel(d, 0x5a, 0xc3, 0x96), x + (int)i * cw + 1, fy + 2,
			cw - 2, band / 2 - 2);
		XSetPlaneMask(dpy, d->gc, xd_pixel(d, 0xf0, 0x3c, 0xff));
		xd_fill(d, d->gc, xd_pixel(d, 0xa5, 0x0f, 0x69), x + (int)i * cw + 1,
			fy + band / 2 + 1, cw - 2, band / 2 - 2);
		XSetPlaneMask(dpy, d->gc, AllPlanes);
	}
	XSetFunction(dpy, d->gc, GXcopy);

	/* tiles and stipples */
	int ty = y + 3 * band, th = h - 3 * band;
	Pixmap tile = XCreatePixmap(dpy, d->root, 8, 6, (unsigned)d->depth);
	xd_blocks(d, tile, 0, 0, 8, 6);
	XSetForeground(dpy, d->gc, xd_pixel(d, 255, 255, 0));
	XFillRectangle(dpy, tile, d->gc, 1, 1, 3, 2);
	static const char stip_bits[] = { 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x00, 0x1f, 0x00 };
	Pixmap stip = XCreateBitmapFromData(dpy, d->root, stip_bits, 5, 8);
	XGCValues v = { .fill_style = FillTiled, .tile = tile, .ts_x_origin = 3,
			.ts_y_origin = 1, .graphics_exposures = False };
	GC tgc = XCreateGC(dpy, d->root,
			   GCFillStyle | GCTile | GCTileStipXOrigin | GCTileStipYOrigin |
				   GCGraphicsExposures,
			   &v);
	XFillRectangle(dpy, d->root, tgc, x, ty, (unsigned)(w / 3), (unsigned)th);
	XSetStipple(dpy, tgc, stip);
	XSetFillStyle(dpy, tgc, FillOpaqueStippled);
	XSetForeground(dpy, tgc, xd_pixel(d, 255, 40, 40));
	XSetBackground(dpy, tgc, xd_pixel(d, 10, 10, 90));
	XFillRectangle(dpy, d->root, tgc, x + w / 3, ty, (unsigned)(w / 3), (unsigned)th);
	xd_fill(d, d->gc, xd_pixel(d, 128, 128, 128), x + 2 * (w / 3), ty, w - 2 * (w / 3), th);
	XSetFillStyle(dpy, tgc, FillStippled);
	XSetForeground(dpy, tgc, xd_pixel(d, 0, 0, 0));
	XFillRectangle(dpy, d->root, tgc, x + 2 * (w / 3), ty, (unsigned)(w - 2 * (w / 3)),
		       (unsigned)th);
	XFreeGC(dpy, tgc);
	XFreePixmap(dpy, stip);
	XFreePixmap(dpy, tile);
	return 0;
}

/* ---- copy ---- */

static int xd_scene_copy(struct xd *d, int x, int y, int w, int h)
{
	/* (dx, dy) of the scrolls, each in its own part of the top two thirds */
	static const int moves[][2] = {
		{ 7, 0 }, { -7, 0 }, { 0, 5 }, { 0, -5 }, { 13, 9 }, { -13, -9 },
		{ 1, 0 }, { 0, 1 }, { -1, 1 }, { 31, -2 }, { -2, 31 }, { 40, 40 },
	};
	Display *dpy = d->dpy;
	int top = h * 2 / 3, pw = w / 4, ph = top / 3;

	xd_blocks(d, d->root, x, y, w, h);
	for (unsigned i = 0; i < 12; i++) {
		int px = x + (int)(i % 4) * pw, py = y + (int)(i / 4) * ph;
		int dx = moves[i][0], dy = moves[i][1];
		/* the part's outline stays put, so the scroll's edges show */
		XCopyArea(dpy, d->root, d->root, d->gc, px + 2 + (dx < 0 ? -dx : 0),
			  py + 2 + (dy < 0 ? -dy : 0), (unsigned)(pw - 4 - abs(dx)),
			  (unsigned)(ph - 4 - abs(dy)), px + 2 + (dx > 0 ? dx : 0),
			  py + 2 + (dy > 0 ? dy : 0));
	}

	/* pixmap to window, whole and in parts */
	int by = y + top, bh = h - top, tw = w / 4;
	Pixmap pix = XCreatePixmap(dpy, d->root, 64, 48, (unsigned)d->depth);
	XSetForeground(dpy, d->gc, xd_pixel(d, 250, 250, 250));
	XFillRectangle(dpy, pix, d->gc, 0, 0, 64, 48);
	for (int i = 0; i < 40; i++) {
		XSetForeground(dpy, d->gc, xd_rand_pixel(d));
		XFillRectangle(dpy, pix, d->gc, xd_range(d, 0, 60), xd_range(d, 0, 44),
			       (unsigned)xd_range(d, 1, 20), (unsigned)xd_range(d, 1, 16));
	}
	XCopyArea(dpy, pix, d->root, d->gc, 0, 0, 64, 48, x + 2, by + 2);
	XCopyArea(dpy, pix, d->root, d->gc, 10, 7, 30, 20, x + 2, by + bh - 24);
	XCopyArea(dpy, pix, d->root, d->gc, 63, 47, 1, 1, x + tw - 4, by + 2);

	/* window to pixmap, drawn on there, and back elsewhere */
	Pixmap back = XCreatePixmap(dpy, d->root, (unsigned)tw, (unsigned)bh,
				    (unsigned)d->depth);
	XCopyArea(dpy, d->root, back, d->gc, x + 5, y + 5, (unsigned)tw, (unsigned)bh, 0, 0);
	XSetForeground(dpy, d->gc, xd_pixel(d, 0, 0, 255));
	XFillRectangle(dpy, back, d->gc, 3, 3, (unsigned)(tw / 3), (unsigned)(bh / 3));
	XCopyArea(dpy, back, back, d->gc, 0, 0, (unsigned)(tw / 2), (unsigned)(bh / 2),
		  tw / 4, bh / 4);
	XCopyArea(dpy, back, d->root, d->gc, 0, 0, (unsigned)tw, (unsigned)bh, x + tw, by);

	/* a copy through GXxor, and a bitmap through CopyPlane */
	XSetFunction(dpy, d->gc, GXxor);
	XCopyArea(dpy, d->root, d->root, d->gc, x + 9, y + 3, (unsigned)tw, (unsigned)bh,
		  x + 2 * tw, by);
	XSetFunction(dpy, d->gc, GXcopy);
	static const char bits[] = { 0x3c, 0x42, 0x81, 0xa5, 0x81, 0x99, 0x42, 0x3c };
	Pixmap bm = XCreateBitmapFromData(dpy, d->root, bits, 8, 8);
	XSetForeground(dpy, d->gc, xd_pixel(d, 255, 220, 0));
	XSetBackground(dpy, d->gc, xd_pixel(d, 60, 0, 60));
	for (int i = 0; i + 8 <= w - 3 * tw && i < 8 * 8; i += 9)
		XCopyPlane(dpy, bm, d->root, d->gc, 0, 0, 8, 8, x + 3 * tw + i, by + i / 3, 1);
	XFreePixmap(dpy, bm);
	XFreePixmap(dpy, back);
	XFreePixmap(dpy, pix);
	return 0;
}

/* ---- put ---- */

/* XShmPutImage of a gradient, or the same through XPutImage where the
 * server has no MIT-SHM or cannot attach our segment. */
static int xd_shm_put(struct xd *d, int x, int y, int w, int h)
{
	XShmSegmentInfo si = { .shmid = -1 };
	XImage *im = NULL;
	int ok = 0;

	if (XShmQueryExtension(d->dpy)) {
		im = XShmCreateImage(d->dpy, d->vis, (unsigned)d->depth, ZPixmap, NULL, &si,
				     (unsigned)w, (unsigned)h);
		if (im)
			si.shmid = shmget(IPC_PRIVATE, (size_t)im->bytes_per_line * (size_t)h,
					  IPC_CREAT | 0600);
		if (si.shmid >= 0) {
			si.shmaddr = im->data = shmat(si.shmid, NULL, 0);
			if (si.shmaddr == (void *)-1)
				si.shmaddr = im->data = NULL;
		}
		if (si.shmaddr) {
			si.readOnly = True;
			xd_quiet_errors = 1;
			xd_last_error = 0;
			XShmAttach(d->dpy, &si);
			XSync(d->dpy, False);
			xd_quiet_errors = 0;
			ok = !xd_last_error;
		}
		if (si.shmid >= 0)
			shmctl(si.shmid, IPC_RMID, NULL);
	}
	if (ok) {
		xd_gradient(d, im, 7);
		XShmPutImage(d->dpy, d->root, d->gc, im, 0, 0, x, y, (unsigned)w, (unsigned)h,
			     False);
		XSync(d->dpy, False);
		XShmDetach(d->dpy, &si);
	} else {
		fprintf(stderr, "x-draw: put: %s; the XShmPutImage is an XPutImage\n",
			si.shmaddr ? "the server could not attach our segment"
				   : "no MIT-SHM here");
		XImage *pi = xd_image(d, d->depth, w, h);
		if (!pi)
			return -ENOMEM;
		xd_gradient(d, pi, 7);
		XPutImage(d->dpy, d->root, d->gc, pi, 0, 0, x, y, (unsigned)w, (unsigned)h);
		XDestroyImage(pi);
	}
	if (si.shmaddr)
		shmdt(si.shmaddr);
	if (im) {
		im->data = NULL;
		XDestroyImage(im);
	}
	return 0;
}

static int xd_scene_put(struct xd *d, int x, int y, int w, int h)
{
	/* at the default size the big one is 640x440x4 bytes: over 1 MiB, so it
	 * is not one small upload (EXA may stage it differently) */
	int strip = h / 12 < 40 ? 40 : h / 12, bh = h - strip;
	XImage *big = xd_image(d, d->depth, w, bh);
	if (!big)
		return -ENOMEM;
	xd_gradient(d, big, 1);
	XPutImage(d->dpy, d->root, d->gc, big, 0, 0, x, y, (unsigned)w, (unsigned)(bh / 2));
	/* a part of an image: its rows start inside it */
	XPutImage(d->dpy, d->root, d->gc, big, w / 3, bh / 5, x + w / 3, y + bh / 2,
		  (unsigned)(w - w / 3), (unsigned)(bh - bh / 2));
	XDestroyImage(big);

	/* small ones (1x1 to 60x60, under 16 KiB) along the bottom */
	static const int sizes[][2] = { { 1, 1 }, { 7, 5 }, { 16, 16 }, { 33, 2 }, { 3, 30 },
					{ 60, 60 } };
	int sx = x + 2;
	for (unsigned i = 0; i < 6; i++) {
		int iw = sizes[i][0], ih = sizes[i][1] < strip - 4 ? sizes[i][1] : strip - 4;
		if (sizes[i][0] > strip - 4 && sizes[i][1] > strip - 4)
			iw = strip - 4;
		if (sx + iw > x + w / 2)
			break;
		XImage *im = xd_image(d, d->depth, iw, ih);
		if (!im)
			return -ENOMEM;
		xd_gradient(d, im, 3 + i);
		XPutImage(d->dpy, d->root, d->gc, im, 0, 0, sx, y + bh + 2, (unsigned)iw,
			  (unsigned)ih);
		XDestroyImage(im);
		sx += iw + 3;
	}

	/* depth 32: into an ARGB32 pixmap, shown with Render's Src (which
	 * drops the alpha) */
	int qw = w / 4, qh = strip - 4;
	Pixmap p32 = XCreatePixmap(d->dpy, d->root, (unsigned)qw, (unsigned)qh, 32);
	GC gc32 = XCreateGC(d->dpy, p32, 0, NULL);
	XImage *im32 = XCreateImage(d->dpy, NULL, 32, ZPixmap, 0, NULL, (unsigned)qw,
				    (unsigned)qh, 32, 0);
	if (!im32)
		return -ENOMEM;
	im32->data = malloc((size_t)im32->bytes_per_line * (size_t)qh);
	if (!im32->data)
		return -ENOMEM;
	for (int j = 0; j < qh; j++)
		for (int i = 0; i < qw; i++)
			XPutPixel(im32, i, j,
				  (unsigned long)(i * 255 / qw) << 24 | (unsigned long)(j * 6 & 255)
					  << 16 | (unsigned long)(i * 3 & 255) << 8 | 0x5a);
	XPutImage(d->dpy, p32, gc32, im32, 0, 0, 0, 0, (unsigned)qw, (unsigned)qh);
	XDestroyImage(im32);
	Picture pic = XRenderCreatePicture(d->dpy, p32, d->argb, 0, NULL);
	XRenderComposite(d->dpy, PictOpSrc, pic, None, d->rootpic, 0, 0, 0, 0,
			 x + w / 2, y + bh + 2, (unsigned)qw, (unsigned)qh);
	XRenderFreePicture(d->dpy, pic);
	XFreeGC(d->dpy, gc32);
	XFreePixmap(d->dpy, p32);

	return xd_shm_put(d, x + w / 2 + qw + 2, y + bh + 2, w - w / 2 - qw - 4, strip - 4);
}

/* ---- get ---- */

static int xd_scene_get(struct xd *d, int x, int y, int w, int h)
{
	Display *dpy = d->dpy;
	int hw = w / 2, hh = h / 2;

	/* something to read: blocks and random fills in the top left */
	xd_blocks(d, d->root, x, y, hw, hh);
	for (int i = 0; i < 60; i++) {
		int rw = xd_range(d, 1, hw / 3), rh = xd_range(d, 1, hh / 3);
		xd_fill(d, d->gc, xd_rand_pixel(d), x + xd_range(d, 0, hw - rw),
			y + xd_range(d, 0, hh - rh), rw, rh);
	}
	xd_fill(d, d->gc, 0, x + hw, y, w - hw, h);
	xd_fill(d, d->gc, 0, x, y + hh, hw, h - hh);

	/* all of it, back at the right */
	XImage *im = XGetImage(dpy, d->root, x, y, (unsigned)hw, (unsigned)hh, AllPlanes, ZPixmap);
	if (!im)
		return -EIO;
	XPutImage(dpy, d->root, d->gc, im, 0, 0, x + hw, y, (unsigned)(w - hw), (unsigned)hh);
	/* inverted on our side and put below: a wrong read shows twice */
	for (int j = 0; j < im->height; j++)
		for (int i = 0; i < im->width; i++)
			XPutPixel(im, i, j, ~XGetPixel(im, i, j) & (d->rmask | d->gmask | d->bmask));
	XPutImage(dpy, d->root, d->gc, im, 0, 0, x, y + hh, (unsigned)hw, (unsigned)(hh / 2));
	XDestroyImage(im);

	/* parts: one pixel, one row, one column, through a plane mask */
	struct { int x, y, w, h; unsigned long planes; } parts[] = {
		{ 3, 4, 1, 1, AllPlanes },
		{ 0, hh / 2, hw, 1, AllPlanes },
		{ hw / 3, 0, 1, hh, AllPlanes },
		{ 5, 5, hw / 2, hh / 4, xd_pixel(d, 0xf0, 0x0f, 0xcc) },
	};
	int px = x + hw + 4, py = y + hh + 4;
	for (unsigned i = 0; i < 4; i++) {
		XImage *p = XGetImage(dpy, d->root, x + parts[i].x, y + parts[i].y,
				      (unsigned)parts[i].w, (unsigned)parts[i].h, parts[i].planes,
				      ZPixmap);
		if (!p)
			return -EIO;
		if (px + parts[i].w > x + w) {
			px = x + hw + 4;
			py += hh / 4 + 2;
		}
		if (py + parts[i].h <= y + h)
			XPutImage(dpy, d->root, d->gc, p, 0, 0, px, py, (unsigned)parts[i].w,
				  (unsigned)parts[i].h);
		px += parts[i].w + 4;
		XDestroyImage(p);
	}

	/* from a pixmap drawn on the server */
	int qw = hw / 2, qh = hh / 2;
	Pixmap pix = XCreatePixmap(dpy, d->root, (unsigned)qw, (unsigned)qh, (unsigned)d->depth);
	xd_blocks(d, pix, 0, 0, qw, qh);
	XSetForeground(dpy, d->gc, xd_pixel(d, 255, 255, 255));
	XFillRectangle(dpy, pix, d->gc, qw / 4, qh / 4, (unsigned)(qw / 2), (unsigned)(qh / 2));
	im = XGetImage(dpy, pix, 0, 0, (unsigned)qw, (unsigned)qh, AllPlanes, ZPixmap);
	XFreePixmap(dpy, pix);
	if (!im)
		return -EIO;
	XPutImage(dpy, d->root, d->gc, im, 0, 0, x + hw - qw, y + h - qh, (unsigned)qw,
		  (unsigned)qh);
	XDestroyImage(im);
	return 0;
}

/* ---- text ---- */

/* Glyph g of the A8 set: w x h coverage, rows padded to 4 bytes as
 * Render wants them; a ring, a bar or a wedge with soft edges. */
static void xd_glyph(unsigned g, int w, int h, uint8_t *a, int stride)
{
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++) {
			int v;
			int cx = 2 * i - (w - 1), cy = 2 * j - (h - 1);
			int r2 = cx * cx + cy * cy;
			switch (g % 4) {
			case 0:
				v = 255 - abs(r2 - (w - 2) * (w - 2)) * 4;
				break;
			case 1:
				v = (j * 255) / (h - 1) - abs(cx) * 30;
				break;
			case 2:
				v = i * 2 > j ? 255 - (i * 2 - j) * 20 : 0;
				break;
			default:
				v = (int)((g * 37 + (unsigned)(i * 11 + j * 7)) & 255);
				break;
			}
			a[j * stride + i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
		}
}

static int xd_render_glyphs(struct xd *d, int x, int y, int w, int h)
{
	enum { GW = 9, GH = 12, NG = 16, STRIDE = 12 };
	GlyphSet gs = XRenderCreateGlyphSet(d->dpy, d->a8);
	uint8_t bits[NG][GH * STRIDE];
	Glyph ids[NG];
	XGlyphInfo info[NG];
	for (unsigned g = 0; g < NG; g++) {
		memset(bits[g], 0, sizeof(bits[g]));
		xd_glyph(g, GW, GH, bits[g], STRIDE);
		ids[g] = 'a' + g;
		/* the last four overlap the next: their coverage adds up in the mask */
		info[g] = (XGlyphInfo){ .width = GW, .height = GH, .x = 0, .y = GH - 2,
					.xOff = (short)(g >= NG - 4 ? GW - 4 : GW + 1), .yOff = 0 };
	}
	XRenderAddGlyphs(d->dpy, gs, ids, info, NG, (const char *)bits, (int)sizeof(bits));

	static const XRenderColor colours[] = {
		{ 0xffff, 0xffff, 0xffff, 0xffff }, { 0xffff, 0x2000, 0x2000, 0xffff },
		{ 0x3000, 0x3000, 0x8000, 0x8000 }, { 0x0000, 0x9000, 0x4000, 0xc000 },
	};
	const char text[] = "abcdefghijklmnop";
	int n = w / (GW + 1) < NG ? w / (GW + 1) : NG;
	for (unsigned row = 0; (int)(row + 1) * (GH + 4) <= h; row++) {
		Picture src = XRenderCreateSolidFill(d->dpy, &colours[row % 4]);
		/* with no mask format each glyph is composited alone; with A8 the
		 * string's coverage is gathered first */
		XRenderCompositeString8(d->dpy, PictOpOver, src, d->rootpic,
					row % 2 ? d->a8 : NULL, gs, 0, 0, x + (int)row % 5,
					y + (int)row * (GH + 4) + GH - 2, text + row % 3,
					n - (int)(row % 3));
		XRenderFreePicture(d->dpy, src);
	}
	XRenderFreeGlyphSet(d->dpy, gs);
	return 0;
}

static int xd_scene_text(struct xd *d, int x, int y, int w, int h)
{
	static const char line[] = "The quick brown fox jumps over the lazy dog 0123456789 "
				   "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
	Display *dpy = d->dpy;
	int th = h / 2;

	xd_blocks(d, d->root, x, y, w, h);
	XFontStruct *fs = XLoadQueryFont(dpy, "fixed");
	if (!fs) {
		fprintf(stderr, "x-draw: text: the server has no font \"fixed\"; "
				"core text left out\n");
	} else {
		int lh = fs->ascent + fs->descent, cw = fs->max_bounds.width;
		int n = cw > 0 ? (w - 4) / cw : 0;
		if (n > (int)sizeof(line) - 1)
			n = (int)sizeof(line) - 1;
		XSetFont(dpy, d->gc, fs->fid);
		for (int i = 0; (i + 1) * lh <= th; i++) {
			int by = y + i * lh + fs->ascent;
			XSetForeground(dpy, d->gc, xd_rand_pixel(d));
			XSetBackground(dpy, d->gc, xd_pixel(d, 20, 20, (unsigned)(i * 20) & 255));
			if (i % 3 == 2) {
				XSetFunction(dpy, d->gc, GXxor);
				XDrawString(dpy, d->root, d->gc, x + 2, by, line + i, n - i % 7);
				XSetFunction(dpy, d->gc, GXcopy);
			} else if (i % 3 == 1) {
				XDrawImageString(dpy, d->root, d->gc, x + 2 + i % 4, by, line + i,
						 n - i % 7);
			} else {
				XDrawString(dpy, d->root, d->gc, x + 2, by, line + i, n - i % 7);
			}
		}
		XFreeFont(dpy, fs);
	}
	return xd_render_glyphs(d, x, y + th, w, h - th);
}

/* ---- render ---- */

/* An 8-bit channel in a format's field. */
static unsigned long xd_field(unsigned v, int shift, int mask)
{
	int bits = 0;
	while (mask >> bits & 1)
		bits++;
	return bits ? (unsigned long)(v >> (8 - bits)) << shift : 0;
}

/* Premultiplied ARGB in format f's pixel. */
static unsigned long xd_format_pixel(const XRenderPictFormat *f, unsigned long argb)
{
	const XRenderDirectFormat *c = &f->direct;
	return xd_field((unsigned)(argb >> 24 & 255), c->alpha, c->alphaMask) |
	       xd_field((unsigned)(argb >> 16 & 255), c->red, c->redMask) |
	       xd_field((unsigned)(argb >> 8 & 255), c->green, c->greenMask) |
	       xd_field((unsigned)(argb & 255), c->blue, c->blueMask);
}

/* A w x h picture of format fmt whose pixels come from px(i, j) as
 * premultiplied ARGB. */
static Picture xd_picture(struct xd *d, XRenderPictFormat *fmt, int w, int h,
			  unsigned long (*px)(int i, int j, int w, int h), int repeat)
{
	Pixmap p = XCreatePixmap(d->dpy, d->root, (unsigned)w, (unsigned)h,
				 (unsigned)fmt->depth);
	XImage *im = XCreateImage(d->dpy, NULL, (unsigned)fmt->depth, ZPixmap, 0, NULL,
				  (unsigned)w, (unsigned)h, 32, 0);
	GC gc = XCreateGC(d->dpy, p, 0, NULL);
	if (im && (im->data = malloc((size_t)im->bytes_per_line * (size_t)h))) {
		for (int j = 0; j < h; j++)
			for (int i = 0; i < w; i++)
				XPutPixel(im, i, j, xd_format_pixel(fmt, px(i, j, w, h)));
		XPutImage(d->dpy, p, gc, im, 0, 0, 0, 0, (unsigned)w, (unsigned)h);
	}
	if (im)
		XDestroyImage(im);
	XFreeGC(d->dpy, gc);
	XRenderPictureAttributes pa = { .repeat = repeat };
	Picture pic = XRenderCreatePicture(d->dpy, p, fmt, CPRepeat, &pa);
	XFreePixmap(d->dpy, p);
	return pic;
}

/* Premultiplied ARGB: colour across, alpha down. */
static unsigned long xd_px_argb(int i, int j, int w, int h)
{
	unsigned a = (unsigned)(j * 255 / (h - 1));
	unsigned r = (unsigned)(i * 255 / (w - 1)), g = 255 - r, b = (unsigned)((i ^ j) * 16 & 255);
	return (unsigned long)a << 24 | (r * a / 255) << 16 | (g * a / 255) << 8 | b * a / 255;
}

/* Coverage across, with a hole in the middle. */
static unsigned long xd_px_mask(int i, int j, int w, int h)
{
	int cx = 2 * i - w, cy = 2 * j - h;
	unsigned a = cx * cx + cy * cy < w * h / 4 ? 0 : (unsigned)(i * 255 / (w - 1));
	return (unsigned long)a << 24;
}

/* Quadrants of four colours, opaque and not, for the repeats and scales. */
static unsigned long xd_px_quads(int i, int j, int w, int h)
{
	static const unsigned long q[4] = { 0xffff0000, 0xff00ff00, 0x800000ff, 0xc0c0c000 };
	return q[(i >= w / 2) + 2 * (j >= h / 2)] ^ (unsigned long)((i + j) & 1) * 0x00101010;
}

static int xd_scene_render(struct xd *d, int x, int y, int w, int h)
{
	static const int ops[] = {
		PictOpClear, PictOpSrc, PictOpDst, PictOpOver, PictOpOverReverse, PictOpIn,
		PictOpInReverse, PictOpOut, PictOpOutReverse, PictOpAtop, PictOpAtopReverse,
		PictOpXor, PictOpAdd, PictOpSaturate,
	};
	enum { NOPS = 14, NROWS = 5 };
	Display *dpy = d->dpy;
	int top = h * 5 / 8;
	int cw = w / NOPS, ch = top / NROWS;
	if (cw < 2 || ch < 2)
		return 0;

	xd_blocks(d, d->root, x, y, w, h);
	XRenderColor solid_c = { 0x6000, 0x2000, 0x4000, 0x9000 };
	Picture solid = XRenderCreateSolidFill(dpy, &solid_c);
	Picture one = xd_picture(d, d->argb, 1, 1, xd_px_quads, RepeatNormal);
	Picture argb = xd_picture(d, d->argb, cw, ch, xd_px_argb, RepeatNone);
	Picture mask = xd_picture(d, d->a8, cw, ch, xd_px_mask, RepeatNone);

	/* rows: solid fill, 1x1 repeat, ARGB32, solid through A8, ARGB32
	 * through A8; a column per operator */
	for (unsigned r = 0; r < NROWS; r++)
		for (unsigned o = 0; o < NOPS; o++) {
			Picture src = r == 0 || r == 3 ? solid : r == 1 ? one : argb;
			XRenderComposite(dpy, ops[o], src, r >= 3 ? mask : None, d->rootpic, 0, 0,
					 0, 0, x + (int)o * cw + 1, y + (int)r * ch + 1,
					 (unsigned)(cw - 2), (unsigned)(ch - 2));
		}

	/* repeats of a 16x16 picture from (-8, -8), none, normal, pad and
	 * reflect; then scaled 2x and 3x (nearest: no sample on a texel's
	 * edge) */
	int by = y + top, bw = w / 6, bh = (h - top) / 2;
	Picture q = xd_picture(d, d->argb, 16, 16, xd_px_quads, RepeatNone);
	static const int repeats[] = { RepeatNone, RepeatNormal, RepeatPad, RepeatReflect };
	for (unsigned i = 0; i < 4; i++) {
		XRenderPictureAttributes pa = { .repeat = repeats[i] };
		XRenderChangePicture(dpy, q, CPRepeat, &pa);
		XRenderComposite(dpy, PictOpOver, q, None, d->rootpic, -8, -8, 0, 0,
				 x + (int)i * bw + 1, by + 1, (unsigned)(bw - 2), (unsigned)(bh - 2));
	}
	XRenderPictureAttributes none = { .repeat = RepeatNone };
	XRenderChangePicture(dpy, q, CPRepeat, &none);
	for (unsigned s = 2; s <= 3; s++) {
		XTransform t = { { { XDoubleToFixed(1.0 / s), 0, 0 },
				   { 0, XDoubleToFixed(1.0 / s), 0 },
				   { 0, 0, XDoubleToFixed(1) } } };
		XRenderSetPictureTransform(dpy, q, &t);
		XRenderComposite(dpy, PictOpOver, q, None, d->rootpic, 0, 0, 0, 0,
				 x + (int)(s + 2) * bw + 1, by + 1, (unsigned)(bw - 2),
				 (unsigned)(bh - 2));
	}

	/* into an ARGB32 pixmap that starts translucent (the destination has
	 * alpha here), from the window (as x11perf -compositewinpix), then
	 * Over the window */
	int py = by + bh, pw = w / 2, ph = h - top - bh;
	Pixmap pp = XCreatePixmap(dpy, d->root, (unsigned)pw, (unsigned)ph, 32);
	Picture pix = XRenderCreatePicture(dpy, pp, d->argb, 0, NULL);
	XFreePixmap(dpy, pp);
	XRenderColor clear = { 0x1000, 0x3000, 0x2000, 0x4000 };
	XRenderFillRectangle(dpy, PictOpSrc, pix, &clear, 0, 0, (unsigned)pw, (unsigned)ph);
	XRenderComposite(dpy, PictOpOver, d->rootpic, mask, pix, x, y, 0, 0, 2, 2,
			 (unsigned)(cw), (unsigned)(ch));
	XRenderComposite(dpy, PictOpAdd, argb, None, pix, 0, 0, 0, 0, pw / 2, 0,
			 (unsigned)(pw / 2), (unsigned)ph);
	XRenderComposite(dpy, PictOpOver, pix, None, d->rootpic, 0, 0, 0, 0, x, py,
			 (unsigned)pw, (unsigned)ph);

	/* FillRectangles: one request of several, with Src, Over and Add */
	XRectangle rs[6];
	for (unsigned i = 0; i < 6; i++)
		rs[i] = (XRectangle){ (short)(x + pw + (int)i * (w - pw) / 8),
				      (short)(py + (int)i * 3),
				      (unsigned short)((w - pw) / 4), (unsigned short)(ph / 2) };
	static const XRenderColor fills[] = {
		{ 0xffff, 0x8000, 0x0000, 0xffff }, { 0x2000, 0x2000, 0x6000, 0x6000 },
		{ 0x0800, 0x3000, 0x0800, 0x3000 },
	};
	static const int fill_ops[] = { PictOpSrc, PictOpOver, PictOpAdd };
	for (unsigned i = 0; i < 3; i++) {
		XRectangle moved[6];
		for (unsigned k = 0; k < 6; k++) {
			moved[k] = rs[k];
			moved[k].y = (short)(rs[k].y + (int)i * ph / 6);
		}
		XRenderFillRectangles(dpy, fill_ops[i], d->rootpic, &fills[i], moved, 6);
	}

	XRenderFreePicture(dpy, pix);
	XRenderFreePicture(dpy, q);
	XRenderFreePicture(dpy, mask);
	XRenderFreePicture(dpy, argb);
	XRenderFreePicture(dpy, one);
	XRenderFreePicture(dpy, solid);
	return 0;
}

/* ---- pictures ---- */

/* The Render format of this depth, type and channel masks (shift, bits),
 * or NULL. */
static XRenderPictFormat *xd_format(struct xd *d, int depth, int ash, int abits, int rsh,
				    int gsh, int bsh, int rgbbits, int gbits)
{
	XRenderPictFormat t = { .type = PictTypeDirect, .depth = depth };
	t.direct.alpha = (short)ash;
	t.direct.alphaMask = (short)((1 << abits) - 1);
	t.direct.red = (short)rsh;
	t.direct.redMask = (short)((1 << rgbbits) - 1);
	t.direct.green = (short)gsh;
	t.direct.greenMask = (short)((1 << gbits) - 1);
	t.direct.blue = (short)bsh;
	t.direct.blueMask = (short)((1 << rgbbits) - 1);
	unsigned long m = PictFormatType | PictFormatDepth | PictFormatAlpha | PictFormatAlphaMask |
			  PictFormatRed | PictFormatRedMask | PictFormatGreen |
			  PictFormatGreenMask | PictFormatBlue | PictFormatBlueMask;
	return XRenderFindFormat(d->dpy, m, &t, 0);
}

/* A perspective that keeps the scenes' source coordinates positive. */
static XTransform xd_persp = {
	{ { XDoubleToFixed(0.9), XDoubleToFixed(0.3), XDoubleToFixed(4) },
	  { XDoubleToFixed(-0.1), XDoubleToFixed(0.8), XDoubleToFixed(20) },
	  { XDoubleToFixed(0.004), XDoubleToFixed(0.002), XDoubleToFixed(1) } }
};

/* Smooth colour and alpha everywhere: what bilinear filtering blends. */
static unsigned long xd_px_smooth(int i, int j, int w, int h)
{
	unsigned a = 96 + (unsigned)(i * 159 / (w - 1));
	unsigned r = (unsigned)(j * 255 / (h - 1)), g = (unsigned)((i * 7 + j * 3) & 255);
	unsigned b = 255 - (unsigned)(i * 255 / (w - 1));
	return (unsigned long)a << 24 | (r * a / 255) << 16 | (g * a / 255) << 8 | b * a / 255;
}

/* Per-channel coverage, as subpixel text has it. */
static unsigned long xd_px_ca(int i, int j, int w, int h)
{
	unsigned r = (unsigned)(i * 255 / (w - 1)), g = (unsigned)(j * 255 / (h - 1));
	unsigned b = (unsigned)(((i + j) * 16) & 255);
	unsigned a = r > g ? (r > b ? r : b) : (g > b ? g : b);
	return (unsigned long)a << 24 | r << 16 | g << 8 | b;
}

static int xd_scene_pictures(struct xd *d, int x, int y, int w, int h)
{
	Display *dpy = d->dpy;
	int cw = w / 8, ch = h / 4;
	if (cw < 8 || ch < 8)
		return 0;

	xd_blocks(d, d->root, x, y, w, h);
	/* the row of source formats, Over the blocks and through the A8
	 * mask */
	struct { const char *name; XRenderPictFormat *f; } fmts[] = {
		{ "a8r8g8b8", d->argb },
		{ "x8r8g8b8", xd_format(d, 24, 0, 0, 16, 8, 0, 8, 8) },
		{ "x8b8g8r8", xd_format(d, 24, 0, 0, 0, 8, 16, 8, 8) },
		{ "a1r5g5b5", xd_format(d, 16, 15, 1, 10, 5, 0, 5, 5) },
		{ "x1r5g5b5", xd_format(d, 15, 0, 0, 10, 5, 0, 5, 5) },
		{ "r5g6b5", xd_format(d, 16, 0, 0, 11, 5, 0, 5, 6) },
		{ "a8", d->a8 },
	};
	Picture mask = xd_picture(d, d->a8, cw, ch / 2, xd_px_mask, RepeatNone);
	for (unsigned i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		if (!fmts[i].f) {
			fprintf(stderr, "x-draw: pictures: the server has no %s format\n",
				fmts[i].name);
			continue;
		}
		Picture p = xd_picture(d, fmts[i].f, cw, ch, xd_px_argb, RepeatNone);
		XRenderComposite(dpy, PictOpOver, p, None, d->rootpic, 0, 0, 0, 0,
				 x + (int)i * cw + 1, y + 1, (unsigned)(cw - 2), (unsigned)(ch / 2 - 2));
		XRenderComposite(dpy, PictOpOver, p, mask, d->rootpic, 0, ch / 2, 0, 0,
				 x + (int)i * cw + 1, y + ch / 2 + 1, (unsigned)(cw - 2),
				 (unsigned)(ch / 2 - 2));
		XRenderFreePicture(dpy, p);
	}

	/* bilinear: 2.5x up and 0.75x down, pad and none; a projective
	 * transform, repeating (its source coordinates stay positive: pixman
	 * wraps negative ones of a projective transform to other rows) */
	int by = y + ch, bw = w / 4;
	Picture sm = xd_picture(d, d->argb, 16, 12, xd_px_smooth, RepeatNone);
	XRenderSetPictureFilter(dpy, sm, FilterBilinear, NULL, 0);
	static const double scales[2] = { 1 / 2.5, 1 / 0.75 };
	static const int srep[2] = { RepeatPad, RepeatNone };
	for (unsigned i = 0; i < 2; i++) {
		XTransform t = { { { XDoubleToFixed(scales[i]), 0, 0 },
				   { 0, XDoubleToFixed(scales[i]), 0 },
				   { 0, 0, XDoubleToFixed(1) } } };
		XRenderPictureAttributes pa = { .repeat = srep[i] };
		XRenderChangePicture(dpy, sm, CPRepeat, &pa);
		XRenderSetPictureTransform(dpy, sm, &t);
		XRenderComposite(dpy, PictOpOver, sm, None, d->rootpic, 0, 0, 0, 0,
				 x + (int)i * bw + 1, by + 1, (unsigned)(bw - 2), (unsigned)(ch - 2));
	}
	XRenderPictureAttributes rep = { .repeat = RepeatNormal };
	XRenderChangePicture(dpy, sm, CPRepeat, &rep);
	XRenderSetPictureTransform(dpy, sm, &xd_persp);
	XRenderComposite(dpy, PictOpOver, sm, None, d->rootpic, 0, 0, 0, 0, x + 2 * bw + 1,
			 by + 1, (unsigned)(bw - 2), (unsigned)(ch - 2));
	/* the mask transformed: nearest would pick other texels than pixman
	 * where a sample falls on a texel's edge, after both round */
	Picture q = xd_picture(d, d->argb, 16, 16, xd_px_quads, RepeatNormal);
	XRenderSetPictureTransform(dpy, mask, &xd_persp);
	XRenderSetPictureFilter(dpy, mask, FilterBilinear, NULL, 0);
	XRenderComposite(dpy, PictOpOver, q, mask, d->rootpic, 0, 0, 0, 0, x + 3 * bw + 1,
			 by + 1, (unsigned)(w - 3 * bw - 2), (unsigned)(ch - 2));

	/* component alpha: Src, Add, In, OutReverse, InReverse and Over (two
	 * passes), from a solid and from an ARGB32 source */
	static const int ca_ops[] = { PictOpSrc, PictOpAdd, PictOpIn, PictOpOutReverse,
				      PictOpInReverse, PictOpOver };
	enum { NCA = sizeof(ca_ops) / sizeof(ca_ops[0]) };
	int cy = y + 2 * ch, ccw = w / NCA;
	Picture ca = xd_picture(d, d->argb, ccw, ch / 2, xd_px_ca, RepeatNone);
	XRenderPictureAttributes cav = { .component_alpha = True };
	XRenderChangePicture(dpy, ca, CPComponentAlpha, &cav);
	XRenderColor solid_c = { 0x8000, 0x4000, 0xc000, 0xe000 };
	Picture solid = XRenderCreateSolidFill(dpy, &solid_c);
	Picture argb = xd_picture(d, d->argb, ccw, ch / 2, xd_px_argb, RepeatNone);
	for (unsigned i = 0; i < NCA; i++)
		for (unsigned r = 0; r < 2; r++)
			XRenderComposite(dpy, ca_ops[i], r ? argb : solid, ca, d->rootpic, 0, 0, 0, 0,
					 x + (int)i * ccw + 1, cy + (int)r * (ch / 2) + 1,
					 (unsigned)(ccw - 2), (unsigned)(ch / 2 - 2));

	/* an a8 destination (the card's B8): Src, Over, In, Out, Atop, Xor and
	 * Add into a8 pixmaps that start half covered, each then the mask of
	 * a solid Over the blocks */
	static const int a8_ops[] = { PictOpSrc, PictOpOver, PictOpIn, PictOpOut, PictOpAtop,
				      PictOpXor, PictOpAdd };
	enum { NA8 = sizeof(a8_ops) / sizeof(a8_ops[0]) };
	int ay = y + 3 * ch, aw = w / NA8, ah = h - 3 * ch - 2;
	XRenderColor half = { 0, 0, 0, 0x8000 };
	for (unsigned i = 0; i < NA8; i++) {
		Pixmap pa8 = XCreatePixmap(dpy, d->root, (unsigned)aw, (unsigned)ah, 8);
		Picture a8 = XRenderCreatePicture(dpy, pa8, d->a8, 0, NULL);
		XFreePixmap(dpy, pa8);
		XRenderFillRectangle(dpy, PictOpSrc, a8, &half, 0, 0, (unsigned)aw, (unsigned)ah);
		XRenderComposite(dpy, a8_ops[i], argb, i % 2 ? mask : None, a8, 0, 0, 0, 0, 0, 0,
				 (unsigned)aw, (unsigned)ah);
		XRenderComposite(dpy, PictOpOver, solid, a8, d->rootpic, 0, 0, 0, 0,
				 x + (int)i * aw, ay, (unsigned)aw, (unsigned)ah);
		XRenderFreePicture(dpy, a8);
	}

	XRenderFreePicture(dpy, argb);
	XRenderFreePicture(dpy, solid);
	XRenderFreePicture(dpy, ca);
	XRenderFreePicture(dpy, q);
	XRenderFreePicture(dpy, sm);
	XRenderFreePicture(dpy, mask);
	return 0;
}

/* ---- depth16 ---- */

/* Render into r5g6b5 pixmaps (a solid fill, Over, Add, through a mask),
 * each shown on the root with Src. */
static int xd_scene_depth16(struct xd *d, int x, int y, int w, int h)
{
	Display *dpy = d->dpy;
	XRenderPictFormat *f565 = xd_format(d, 16, 0, 0, 11, 5, 0, 5, 6);
	int pw = w / 2, ph = h / 2;

	xd_blocks(d, d->root, x, y, w, h);
	if (!f565) {
		fprintf(stderr, "x-draw: depth16: the server has no r5g6b5 format\n");
		return 0;
	}
	Picture argb = xd_picture(d, d->argb, pw / 2, ph, xd_px_argb, RepeatNone);
	Picture sm = xd_picture(d, d->argb, 16, 12, xd_px_smooth, RepeatReflect);
	XTransform up = { { { XDoubleToFixed(1 / 3.5), 0, 0 }, { 0, XDoubleToFixed(1 / 3.5), 0 },
			    { 0, 0, XDoubleToFixed(1) } } };
	XRenderSetPictureTransform(dpy, sm, &up);
	XRenderSetPictureFilter(dpy, sm, FilterBilinear, NULL, 0);
	Picture mask = xd_picture(d, d->a8, pw, ph, xd_px_mask, RepeatNone);
	static const XRenderColor greys[2] = { { 0x7000, 0x9000, 0x5000, 0xffff },
					       { 0x2000, 0x1000, 0x3800, 0xffff } };
	for (int k = 0; k < 4; k++) {
		Pixmap p16 = XCreatePixmap(dpy, d->root, (unsigned)pw, (unsigned)ph, 16);
		Picture d16 = XRenderCreatePicture(dpy, p16, f565, 0, NULL);
		XFreePixmap(dpy, p16);
		XRenderFillRectangle(dpy, PictOpSrc, d16, &greys[k & 1], 0, 0, (unsigned)pw,
				     (unsigned)ph);
		if (k < 2) {
			XRenderComposite(dpy, PictOpOver, argb, None, d16, 0, 0, 0, 0, 0, 0,
					 (unsigned)(pw / 2), (unsigned)ph);
			XRenderComposite(dpy, PictOpAdd, sm, None, d16, 0, 0, 0, 0, pw / 2, 0,
					 (unsigned)(pw / 2), (unsigned)ph);
		} else {
			XRenderComposite(dpy, k == 2 ? PictOpOver : PictOpIn, sm, mask, d16, 0, 0,
					 0, 0, 0, 0, (unsigned)pw, (unsigned)ph);
		}
		XRenderComposite(dpy, PictOpSrc, d16, None, d->rootpic, 0, 0, 0, 0,
				 x + k % 2 * pw, y + k / 2 * ph, (unsigned)pw, (unsigned)ph);
		XRenderFreePicture(dpy, d16);
	}
	XRenderFreePicture(dpy, mask);
	XRenderFreePicture(dpy, sm);
	XRenderFreePicture(dpy, argb);
	return 0;
}

/* ---- lowdepth ---- */

/* Pixmap p (depth 16 or 8) read back and put on the root at (x, y), its
 * pixels widened in this client (565 by bit replication, 8 bits as grey):
 * what the server stored, exactly. */
static int xd_show_low(struct xd *d, Pixmap p, int depth, int w, int h, int x, int y)
{
	XImage *in = XGetImage(d->dpy, p, 0, 0, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
	XImage *out = xd_image(d, d->depth, w, h);
	if (!in || !out) {
		if (in)
			XDestroyImage(in);
		if (out)
			XDestroyImage(out);
		return -EIO;
	}
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++) {
			unsigned long v = XGetPixel(in, i, j);
			unsigned r, g, b;
			if (depth == 16) {
				r = (unsigned)(v >> 11 & 31), g = (unsigned)(v >> 5 & 63), b = (unsigned)(v & 31);
				r = r << 3 | r >> 2, g = g << 2 | g >> 4, b = b << 3 | b >> 2;
			} else {
				r = g = b = (unsigned)(v & 255);
			}
			XPutPixel(out, i, j, xd_pixel(d, r, g, b));
		}
	XPutImage(d->dpy, d->root, d->gc, out, 0, 0, x, y, (unsigned)w, (unsigned)h);
	XDestroyImage(in);
	XDestroyImage(out);
	return 0;
}

/* Fills and copies with every GC function, with and without a plane mask,
 * in a depth 16 and a depth 8 pixmap: the 2D engine's raster operations
 * (at 32 bpp only the plain copy is the card's). */
static int xd_scene_lowdepth(struct xd *d, int x, int y, int w, int h)
{
	static const int funcs[] = {
		GXclear, GXand, GXandReverse, GXcopy, GXandInverted, GXnoop, GXxor, GXor,
		GXnor, GXequiv, GXinvert, GXorReverse, GXcopyInverted, GXorInverted, GXnand,
		GXset,
	};
	static const int depths[2] = { 16, 8 };
	Display *dpy = d->dpy;
	int pw = w, ph = h / 2;

	for (unsigned k = 0; k < 2; k++) {
		int depth = depths[k];
		unsigned long all = depth == 16 ? 0xffff : 0xff;
		Pixmap p = XCreatePixmap(dpy, d->root, (unsigned)pw, (unsigned)ph, (unsigned)depth);
		GC gc = XCreateGC(dpy, p, 0, NULL);
		/* a background of blocks of many values */
		for (int j = 0; j < ph; j += 8)
			for (int i = 0; i < pw; i += 8) {
				XSetForeground(dpy, gc, (unsigned long)(i * 97 + j * 31 + i * j) & all);
				XFillRectangle(dpy, p, gc, i, j, 8, 8);
			}
		int cw = pw / 16, rh = ph / 4;
		for (unsigned f = 0; f < 16; f++) {
			XSetFunction(dpy, gc, funcs[f]);
			XSetForeground(dpy, gc, 0xa5c3 & all);
			XFillRectangle(dpy, p, gc, (int)f * cw + 1, 1, (unsigned)(cw - 2),
				       (unsigned)(rh - 2));
			XSetPlaneMask(dpy, gc, 0xf0f3 & all);
			XSetForeground(dpy, gc, 0x5a3c & all);
			XFillRectangle(dpy, p, gc, (int)f * cw + 1, rh + 1, (unsigned)(cw - 2),
				       (unsigned)(rh - 2));
			/* copies from the blocks below, plain and through the mask */
			XCopyArea(dpy, p, p, gc, (int)f * cw + 3, 3 * rh + 2, (unsigned)(cw - 2),
				  (unsigned)(rh - 2), (int)f * cw + 1, 2 * rh + 1);
			XSetPlaneMask(dpy, gc, AllPlanes);
			XCopyArea(dpy, p, p, gc, (int)f * cw + 5, 3 * rh + 4, (unsigned)(cw - 6),
				  (unsigned)(rh / 2), (int)f * cw + 3, 3 * rh + 1);
		}
		XFreeGC(dpy, gc);
		int r = xd_show_low(d, p, depth, pw, ph, x, y + (int)k * ph);
		XFreePixmap(dpy, p);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- the scenes ---- */

struct xd_scene {
	const char *name;
	int (*draw)(struct xd *d, int x, int y, int w, int h);
};

static const struct xd_scene xd_scenes[] = {
	{ "fill", xd_scene_fill },
	{ "copy", xd_scene_copy },
	{ "put", xd_scene_put },
	{ "get", xd_scene_get },
	{ "text", xd_scene_text },
	{ "render", xd_scene_render },
	{ "pictures", xd_scene_pictures },
	{ "depth16", xd_scene_depth16 },
	{ "lowdepth", xd_scene_lowdepth },
};
#define XD_NSCENES (sizeof(xd_scenes) / sizeof(xd_scenes[0]))

static int xd_draw(struct xd *d, const char *scene, int w, int h)
{
	if (!strcmp(scene, "all")) {
		/* two rows of cells, each scene seeded as when drawn alone */
		int cols = (int)(XD_NSCENES + 1) / 2;
		for (unsigned i = 0; i < XD_NSCENES; i++) {
			int cx = (int)i % cols * (w / cols), cy = (int)i / cols * (h / 2);
			d->seed = 0x2545f491u + i;
			int r = xd_scenes[i].draw(d, cx, cy, w / cols, h / 2);
			if (r < 0) {
				fprintf(stderr, "x-draw: %s: %s\n", xd_scenes[i].name, strerror(-r));
				return r;
			}
		}
		return 0;
	}
	for (unsigned i = 0; i < XD_NSCENES; i++)
		if (!strcmp(scene, xd_scenes[i].name)) {
			d->seed = 0x2545f491u + i;
			int r = xd_scenes[i].draw(d, 0, 0, w, h);
			if (r < 0)
				fprintf(stderr, "x-draw: %s: %s\n", scene, strerror(-r));
			return r;
		}
	fprintf(stderr, "x-draw: no scene \"%s\" (x-draw --list)\n", scene);
	return -ENOENT;
}

static int xd_open(struct xd *d)
{
	int ev, er;
	d->dpy = XOpenDisplay(NULL);
	if (!d->dpy) {
		fprintf(stderr, "x-draw: cannot open display \"%s\"\n", XDisplayName(NULL));
		return -1;
	}
	XSetErrorHandler(xd_on_error);
	int scr = DefaultScreen(d->dpy);
	d->root = RootWindow(d->dpy, scr);
	d->vis = DefaultVisual(d->dpy, scr);
	d->depth = DefaultDepth(d->dpy, scr);
	if (d->vis->class != TrueColor || d->depth < 15) {
		fprintf(stderr, "x-draw: the root visual is not TrueColor of 15 bits or more\n");
		return -1;
	}
	d->rmask = d->vis->red_mask;
	d->gmask = d->vis->green_mask;
	d->bmask = d->vis->blue_mask;
	if (!XRenderQueryExtension(d->dpy, &ev, &er)) {
		fprintf(stderr, "x-draw: the server has no RENDER\n");
		return -1;
	}
	d->fmt = XRenderFindVisualFormat(d->dpy, d->vis);
	d->argb = XRenderFindStandardFormat(d->dpy, PictStandardARGB32);
	d->a8 = XRenderFindStandardFormat(d->dpy, PictStandardA8);
	if (!d->fmt || !d->argb || !d->a8) {
		fprintf(stderr, "x-draw: RENDER lacks the root's, ARGB32 or A8 format\n");
		return -1;
	}
	XGCValues v = { .graphics_exposures = False };
	d->gc = XCreateGC(d->dpy, d->root, GCGraphicsExposures, &v);
	d->rootpic = XRenderCreatePicture(d->dpy, d->root, d->fmt, 0, NULL);

	/* the root black and without a visible cursor; both stay after we go */
	static const char nothing[1];
	Pixmap empty = XCreateBitmapFromData(d->dpy, d->root, nothing, 1, 1);
	XColor black = { 0 };
	Cursor c = XCreatePixmapCursor(d->dpy, empty, empty, &black, &black, 0, 0);
	XDefineCursor(d->dpy, d->root, c);
	XFreeCursor(d->dpy, c);
	XFreePixmap(d->dpy, empty);
	XSetWindowBackground(d->dpy, d->root, BlackPixel(d->dpy, scr));
	XClearWindow(d->dpy, d->root);
	return 0;
}

static void xd_usage(FILE *f)
{
	fprintf(f, "usage: x-draw [--scene NAME] [--size WxH]   (default: all, %dx%d)\n"
		   "       x-draw --list\n"
		   "Draws the scene on the root window of $DISPLAY at 0,0 and exits.\n",
		XD_W, XD_H);
}

int main(int argc, char **argv)
{
	const char *scene = "all";
	int w = XD_W, h = XD_H;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			for (unsigned s = 0; s < XD_NSCENES; s++)
				printf("%s\n", xd_scenes[s].name);
			printf("all\n");
			return 0;
		} else if (!strcmp(argv[i], "--scene") && i + 1 < argc) {
			scene = argv[++i];
		} else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			char *end;
			w = (int)strtol(argv[++i], &end, 10);
			h = *end == 'x' ? (int)strtol(end + 1, &end, 10) : 0;
			if (*end || w < 96 || h < 96 || w > 8192 || h > 8192) {
				fprintf(stderr, "x-draw: --size WxH, 96x96 to 8192x8192\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--help")) {
			xd_usage(stdout);
			return 0;
		} else {
			xd_usage(stderr);
			return 2;
		}
	}

	struct xd d = { 0 };
	if (xd_open(&d) < 0)
		return 1;
	int sw = DisplayWidth(d.dpy, DefaultScreen(d.dpy));
	int sh = DisplayHeight(d.dpy, DefaultScreen(d.dpy));
	if (w > sw || h > sh) {
		fprintf(stderr, "x-draw: %dx%d does not fit the %dx%d screen\n", w, h, sw, sh);
		return 1;
	}
	int r = xd_draw(&d, scene, w, h);
	XRenderFreePicture(d.dpy, d.rootpic);
	XFreeGC(d.dpy, d.gc);
	XSync(d.dpy, False);
	XCloseDisplay(d.dpy);
	if (r < 0 || xd_errors) {
		if (xd_errors)
			fprintf(stderr, "x-draw: %d X errors\n", xd_errors);
		return 1;
	}
	return 0;
}
