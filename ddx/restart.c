/* nvd's events, and the server living through nvd's death.
 *
 * The display event socket is the one fd of the connection X's main loop
 * watches; it hangs up when nvd dies.  Then (or when a call fails as libnvd
 * fails them once nvd is gone) the server stops asking nvd for anything:
 * EXA falls back to software on the buffers' memory, which the server
 * still maps (memfds outlive the daemon), and the heads keep what X wants
 * them to show in the xf86Crtc state.  A timer reconnects with backoff.  A
 * new nvd knows none of the old memfds, so each buffer is made again on
 * the new connection and its contents copied over; the old connection is
 * then closed (its calls fail at once: nothing waits on the dead daemon). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ddx/nvdx.h"

#define RETRY_FIRST_MS 50
#define RETRY_MAX_MS   1000


static CARD32 reconnect_timer(OsTimerPtr timer, CARD32 now, void *arg);

static void lost(ScrnInfoPtr scrn, const char *why)
{
	struct nvdx *nx = nvdx(scrn);

	nx->lost = TRUE;
	nx->lost_ms = GetTimeInMillis();
	nx->attempts = 0;
	xf86DrvMsg(scrn->scrnIndex, X_WARNING,
		   "nvd is gone (%s): drawing in software until it is back\n", why);
	if (!nx->push.err)
		nx->push.err = -ENOTCONN;
	nvdx_unwatch(xf86ScrnToScreen(scrn));
	/* the rest from the main loop: this may be the middle of a request */
	nx->retry_ms = RETRY_FIRST_MS;
	nx->reconnect = TimerSet(nx->reconnect, 0, 1, reconnect_timer, scrn);
}

Bool nvdx_nvd_gone(ScrnInfoPtr scrn, int err)
{
	struct nvdx *nx = nvdx(scrn);

	if (nx->lost)
		return TRUE;
	/* libnvd's -ENOTCONN, or its own look at the connection (-ENODEV
	 * alone is one channel lost to nvd's watchdog) */
	if (nvc_check(nx->c) == 0 && err != -ENOTCONN)
		return FALSE;
	lost(scrn, nvc_error());
	return TRUE;
}

/* ---- events ---- */

static void events(int fd, int ready, void *arg)
{
	ScreenPtr screen = arg;
	ScrnInfoPtr scrn = xf86ScreenToScrn(screen);
	struct nvdx *nx = nvdx(scrn);
	struct nvc_disp_event ev;
	int r;

	(void)fd;
	while ((r = nvc_disp_event_read(nx->c, &ev)) == 1)
		nvdx_dri2_event(screen, &ev);
	if ((r < 0 || (ready & X_NOTIFY_ERROR)) && !nvdx_nvd_gone(scrn, r)) {
		/* a socket that misbehaves is not watched: X would spin on it */
		xf86DrvMsg(scrn->scrnIndex, X_WARNING, "nvd's display events stop: %s\n",
			   r < 0 ? nvc_error() : "socket error");
		nvdx_unwatch(screen);
	}
}

Bool nvdx_watch(ScreenPtr screen)
{
	ScrnInfoPtr scrn = xf86ScreenToScrn(screen);
	struct nvdx *nx = nvdx(scrn);
	int fd = nvc_disp_event_fd(nx->c);

	nx->event_fd = -1;
	if (fd < 0 || !SetNotifyFd(fd, events, X_NOTIFY_READ, screen)) {
		xf86DrvMsg(scrn->scrnIndex, X_WARNING,
			   "nvd's display events unwatched (%s): swaps go at once, a restart "
			   "of nvd is seen late\n", fd < 0 ? nvc_error() : "cannot watch them");
		return FALSE;
	}
	nx->event_fd = fd;
	return TRUE;
}

void nvdx_unwatch(ScreenPtr screen)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(screen));

	if (nx->event_fd >= 0)
		RemoveNotifyFd(nx->event_fd);
	nx->event_fd = -1;
}

void nvdx_restart_fini(ScreenPtr screen)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(screen));

	nvdx_unwatch(screen);
	TimerFree(nx->reconnect);
	nx->reconnect = NULL;
}

/* ---- the buffers, again ---- */

/* Where the server keeps a pointer to one of its buffers, and the buffer
 * that replaces it. */
struct rebuf {
	struct nvc_bo **slot;
	struct nvc_bo *bo;
};

static unsigned collect(ScrnInfoPtr scrn, struct rebuf *r)
{
	struct nvdx *nx = nvdx(scrn);
	xf86CrtcConfigPtr config = XF86_CRTC_CONFIG_PTR(scrn);
	struct nvdx_pixmap *np;
	unsigned n = 0;

	if (nx->fb.bo)
		r[n++].slot = &nx->fb.bo;   /* first: nvdx_fb's */
	for (int i = 0; i < config->num_crtc; i++) {
		struct nvdx_crtc *nc = config->crtc[i]->driver_private;
		if (nc->cursor)
			r[n++].slot = &nc->cursor;
	}
	xorg_list_for_each_entry(np, &nx->pixmaps, link)
		r[n++].slot = &np->bo;
	return n;
}

/* Every buffer made again on c with the old one's contents, the
 * framebuffer too; nothing changes on failure. */
static Bool rebuffer(ScrnInfoPtr scrn, struct nvc *c, uint64_t *bytes)
{
	struct nvdx *nx = nvdx(scrn);
	unsigned max = 1 + XF86_CRTC_CONFIG_PTR(scrn)->num_crtc, n, i;
	struct nvdx_pixmap *np;
	uint32_t fb = 0;

	xorg_list_for_each_entry(np, &nx->pixmaps, link)
		max++;
	struct rebuf *r = calloc(max, sizeof(*r));
	if (!r)
		return FALSE;
	n = collect(scrn, r);
	*bytes = 0;
	for (i = 0; i < n; i++) {
		uint64_t size = nvc_bo_size(*r[i].slot);
		void *from = nvc_bo_map(*r[i].slot), *to;
		if (!from || nvc_bo_new(c, size, NVC_VRAM, &r[i].bo) < 0 || !(to = nvc_bo_map(r[i].bo)))
			break;
		memcpy(to, from, size);
		*bytes += size;
	}
	if (i < n || (nx->fb.bo && nvc_fb_new(c, r[0].bo, 0, nx->fb.width, nx->fb.height,
					      nx->fb.pitch, NVC_FB_XRGB8888, &fb) < 0)) {
		xf86DrvMsg(scrn->scrnIndex, X_WARNING, "nvd: cannot make buffer %u of %u again: %s\n",
			   i + 1, n, nvc_error());
		for (i = 0; i < n; i++)
			if (r[i].bo)
				nvc_bo_free(r[i].bo);
		free(r);
		return FALSE;
	}
	for (i = 0; i < n; i++)
		*r[i].slot = r[i].bo;
	free(r);
	if (nx->fb.bo) {
		nx->fb.map = nvc_bo_map(nx->fb.bo);
		nx->fb.id = fb;
	}
	return TRUE;
}

/* ---- reconnecting ---- */

static Bool reconnect(ScrnInfoPtr scrn)
{
	struct nvdx *nx = nvdx(scrn);
	struct nvc *c, *old = nx->c;
	uint64_t bytes;

	nx->attempts++;
	if (nvc_connect(nx->sock, "Xorg", &c) < 0)
		return FALSE;   /* not back yet: quietly */
	xf86DrvMsg(scrn->scrnIndex, X_INFO, "nvd is back: connected at attempt %u, %u ms after "
		   "the loss\n", nx->attempts, (unsigned)(GetTimeInMillis() - nx->lost_ms));
	if (nvc_set_master(c) < 0) {
		xf86DrvMsg(scrn->scrnIndex, X_WARNING, "nvd: cannot be its display master again: "
			   "%s\n", nvc_error());
		nvc_close(c);
		return FALSE;
	}
	xf86DrvMsg(scrn->scrnIndex, X_INFO, "nvd: display master again\n");
	if (!rebuffer(scrn, c, &bytes)) {
		nvc_close(c);
		return FALSE;
	}
	xf86DrvMsg(scrn->scrnIndex, X_INFO, "nvd: %.1f MiB of buffers registered again, "
		   "contents copied\n", bytes / 1048576.0);
	/* the old connection's channel, then all of it: no call waits on nvd */
	if (nx->accel)
		nvdx_accel_fini(scrn);
	nx->accel = FALSE;
	nx->c = c;
	nvc_close(old);
	nx->lost = FALSE;
	ScreenPtr screen = xf86ScrnToScreen(scrn);
	if (nx->exa)
		nvdx_exa_set_fb(screen);
	else   /* fb draws straight into the framebuffer's mapping */
		screen->ModifyPixmapHeader(screen->GetScreenPixmap(screen), -1, -1, -1, -1, -1,
					   nx->fb.map);
	nvdx_watch(screen);
	nvdx_display_restore(scrn);
	if (nx->exa) {
		nx->accel = nvdx_accel_init(scrn);
		xf86DrvMsg(scrn->scrnIndex, nx->accel ? X_INFO : X_WARNING,
			   "nvd: acceleration %s\n",
			   nx->accel ? "resumes: channel and objects made again" : "stays off");
		if (!nx->accel)
			nx->push.err = -ENODEV;   /* EXA's hooks look at this */
	}
	return TRUE;
}

static CARD32 reconnect_timer(OsTimerPtr timer, CARD32 now, void *arg)
{
	ScrnInfoPtr scrn = arg;
	struct nvdx *nx = nvdx(scrn);

	(void)timer, (void)now;
	nvdx_dri2_lost(xf86ScrnToScreen(scrn));
	if (reconnect(scrn))
		return 0;
	CARD32 next = nx->retry_ms;
	nx->retry_ms = next * 2 > RETRY_MAX_MS ? RETRY_MAX_MS : next * 2;
	return next;
}
