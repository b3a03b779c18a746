/* RandR 1.2 through xf86Crtc: nvd's two heads are the CRTCs, its two
 * outputs (output i wired to head i) the outputs.  Modes come from the
 * monitors' EDID as nvd read it over DDC; a mode set is one
 * nvc_disp_set_head on the screen's framebuffer. */
#include <string.h>

#include "ddx/nvdx.h"

#include <xf86DDC.h>
#include <xf86Modes.h>
#include <X11/extensions/dpmsconst.h>

/* ---- modes: nvd's and the server's ---- */

static DisplayModePtr mode_from_nvc(const struct nvc_mode *m)
{
	DisplayModePtr mode = calloc(1, sizeof(*mode));
	if (!mode)
		return NULL;
	mode->Clock = m->clock;
	mode->HDisplay = m->hdisplay;
	mode->HSyncStart = m->hsync_start;
	mode->HSyncEnd = m->hsync_end;
	mode->HTotal = m->htotal;
	mode->VDisplay = m->vdisplay;
	mode->VSyncStart = m->vsync_start;
	mode->VSyncEnd = m->vsync_end;
	mode->VTotal = m->vtotal;
	/* NVC_MODE_* are DRM's flags, which are X's V_[PN][HV]SYNC */
	mode->Flags = m->flags & (V_PHSYNC | V_NHSYNC | V_PVSYNC | V_NVSYNC);
	mode->type = M_T_DRIVER | (m->preferred ? M_T_PREFERRED : 0);
	xf86SetModeDefaultName(mode);
	xf86SetModeCrtc(mode, 0);
	return mode;
}

static void mode_to_nvc(const DisplayModeRec *mode, struct nvc_mode *m)
{
	memset(m, 0, sizeof(*m));
	m->clock = mode->Clock;
	m->hdisplay = mode->HDisplay;
	m->hsync_start = mode->HSyncStart;
	m->hsync_end = mode->HSyncEnd;
	m->htotal = mode->HTotal;
	m->vdisplay = mode->VDisplay;
	m->vsync_start = mode->VSyncStart;
	m->vsync_end = mode->VSyncEnd;
	m->vtotal = mode->VTotal;
	m->flags = mode->Flags & (V_PHSYNC | V_NHSYNC | V_PVSYNC | V_NVSYNC);
}

/* ---- the framebuffer ---- */

Bool nvdx_fb_alloc(ScrnInfoPtr scrn, struct nvdx_fb *fb, unsigned width, unsigned height)
{
	struct nvdx *x = nvdx(scrn);
	unsigned pitch = (width * NVDX_CPP + NVDX_PITCH_ALIGN - 1) & ~(NVDX_PITCH_ALIGN - 1);

	memset(fb, 0, sizeof(*fb));
	if (nvc_bo_new(x->c, (uint64_t)pitch * height, NVC_VRAM, &fb->bo) < 0)
		goto fail;
	if (!(fb->map = nvc_bo_map(fb->bo)))
		goto fail;
	if (nvc_fb_new(x->c, fb->bo, 0, width, height, pitch, NVC_FB_XRGB8888, &fb->id) < 0)
		goto fail;
	fb->width = width;
	fb->height = height;
	fb->pitch = pitch;
	return TRUE;
fail:
	xf86DrvMsg(scrn->scrnIndex, X_ERROR, "cannot make a %ux%u framebuffer: %s\n", width,
		   height, nvc_error());
	nvdx_fb_release(scrn, fb);
	return FALSE;
}

void nvdx_fb_release(ScrnInfoPtr scrn, struct nvdx_fb *fb)
{
	if (fb->id)
		nvc_fb_free(nvdx(scrn)->c, fb->id);
	if (fb->bo)
		nvc_bo_free(fb->bo);
	memset(fb, 0, sizeof(*fb));
}

/* ---- CRTCs ---- */

static Bool head_show(xf86CrtcPtr crtc, const DisplayModeRec *mode, int x, int y)
{
	struct nvdx *nx = nvdx(crtc->scrn);
	struct nvdx_crtc *nc = crtc->driver_private;
	struct nvc_head h = { .fb = nx->fb.id, .x = x, .y = y, .outputs = 1u << nc->head };

	mode_to_nvc(mode, &h.mode);
	if (nvc_disp_set_head(nx->c, nc->head, &h) < 0) {
		xf86DrvMsg(crtc->scrn->scrnIndex, X_ERROR, "head %u: %dx%d at (%d, %d): %s\n",
			   nc->head, mode->HDisplay, mode->VDisplay, x, y, nvc_error());
		return FALSE;
	}
	return TRUE;
}

static void head_off(xf86CrtcPtr crtc)
{
	struct nvdx_crtc *nc = crtc->driver_private;
	struct nvc_head h = { 0 };

	if (!nvdx(crtc->scrn)->lost && nvc_disp_set_head(nvdx(crtc->scrn)->c, nc->head, &h) < 0)
		xf86DrvMsg(crtc->scrn->scrnIndex, X_WARNING, "head %u off: %s\n", nc->head,
			   nvc_error());
}

static Bool crtc_set_mode_major(xf86CrtcPtr crtc, DisplayModePtr mode, Rotation rotation, int x,
				int y)
{
	struct nvdx_crtc *nc = crtc->driver_private;

	(void)rotation;   /* only RR_Rotate_0: there is no shadow_allocate */
	if (!nvdx(crtc->scrn)->fb.id) {
		/* before ScreenInit: xf86SetDesiredModes comes again later */
		return TRUE;
	}
	/* nvd gone: xf86Crtc keeps the mode, shown when nvd is back */
	if (!nvdx(crtc->scrn)->lost && !head_show(crtc, mode, x, y))
		return FALSE;
	nc->on = TRUE;
	return TRUE;
}

static void crtc_dpms(xf86CrtcPtr crtc, int mode)
{
	struct nvdx_crtc *nc = crtc->driver_private;

	if (mode == DPMSModeOn) {
		if (!nc->on && crtc->enabled && nvdx(crtc->scrn)->fb.id)
			nc->on = nvdx(crtc->scrn)->lost ||
				 head_show(crtc, &crtc->mode, crtc->x, crtc->y);
	} else if (nc->on) {
		head_off(crtc);
		nc->on = FALSE;
	}
}

static void crtc_set_cursor_colors(xf86CrtcPtr crtc, int bg, int fg)
{
	(void)crtc, (void)bg, (void)fg;   /* ARGB only: two-colour cursors come converted */
}

static void crtc_set_cursor_position(xf86CrtcPtr crtc, int x, int y)
{
	struct nvdx_crtc *nc = crtc->driver_private;

	nc->cursor_x = x;
	nc->cursor_y = y;
	if (!nvdx(crtc->scrn)->lost)
		nvc_disp_cursor_move(nvdx(crtc->scrn)->c, nc->head, x, y);
}

static Bool crtc_show_cursor_check(xf86CrtcPtr crtc)
{
	struct nvdx_crtc *nc = crtc->driver_private;

	if (!nc->cursor)
		return FALSE;
	if (!nvdx(crtc->scrn)->lost &&
	    nvc_disp_cursor_set(nvdx(crtc->scrn)->c, nc->head, nc->cursor, 0) < 0)
		return FALSE;
	nc->cursor_shown = TRUE;
	return TRUE;
}

static void crtc_hide_cursor(xf86CrtcPtr crtc)
{
	struct nvdx_crtc *nc = crtc->driver_private;

	if (!nvdx(crtc->scrn)->lost)
		nvc_disp_cursor_set(nvdx(crtc->scrn)->c, nc->head, NULL, 0);
	nc->cursor_shown = FALSE;
}

/* X's ARGB cursors are premultiplied, as nvd wants them; nvd copies the
 * image when it is set, so a shown cursor is set again. */
static Bool crtc_load_cursor_argb_check(xf86CrtcPtr crtc, CARD32 *image)
{
	struct nvdx_crtc *nc = crtc->driver_private;
	struct nvdx *nx = nvdx(crtc->scrn);

	if (!nc->cursor) {
		if (nx->lost || nvc_bo_new(nx->c, NVC_CURSOR_SIZE * NVC_CURSOR_SIZE * 4, NVC_VRAM,
			       &nc->cursor) < 0)
			return FALSE;
		if (!nvc_bo_map(nc->cursor)) {
			nvc_bo_free(nc->cursor);
			nc->cursor = NULL;
			return FALSE;
		}
	}
	memcpy(nvc_bo_map(nc->cursor), image, NVC_CURSOR_SIZE * NVC_CURSOR_SIZE * 4);
	if (nc->cursor_shown && !nx->lost)
		return nvc_disp_cursor_set(nx->c, nc->head, nc->cursor, 0) == 0;
	return TRUE;
}

static void crtc_destroy(xf86CrtcPtr crtc)
{
	struct nvdx_crtc *nc = crtc->driver_private;

	if (nc->cursor)
		nvc_bo_free(nc->cursor);
	free(nc);
	crtc->driver_private = NULL;
}

static const xf86CrtcFuncsRec crtc_funcs = {
	.dpms = crtc_dpms,
	.set_mode_major = crtc_set_mode_major,
	.set_cursor_colors = crtc_set_cursor_colors,
	.set_cursor_position = crtc_set_cursor_position,
	.show_cursor_check = crtc_show_cursor_check,
	.hide_cursor = crtc_hide_cursor,
	.load_cursor_argb_check = crtc_load_cursor_argb_check,
	.destroy = crtc_destroy,
};

/* ---- outputs ---- */

static xf86OutputStatus output_detect(xf86OutputPtr output)
{
	struct nvdx_output *no = output->driver_private;
	struct nvc_output o;

	if (nvdx(output->scrn)->lost || nvc_disp_output(nvdx(output->scrn)->c, no->index, &o) < 0)
		return no->connected ? XF86OutputStatusConnected : XF86OutputStatusUnknown;
	no->connected = o.connected;
	return o.connected ? XF86OutputStatusConnected : XF86OutputStatusDisconnected;
}

static DisplayModePtr output_get_modes(xf86OutputPtr output)
{
	struct nvdx_output *no = output->driver_private;
	struct nvc *c = nvdx(output->scrn)->c;
	DisplayModePtr modes = NULL;
	struct nvc_output o;
	struct nvc_mode m;

	if (nvdx(output->scrn)->lost)
		return xf86DuplicateModes(output->scrn, no->modes);
	if (nvc_disp_output(c, no->index, &o) < 0 || !o.connected)
		return NULL;
	/* the EDID property and the physical size */
	memcpy(no->edid, o.edid, sizeof(no->edid));
	xf86OutputSetEDID(output, xf86InterpretEDID(output->scrn->scrnIndex, no->edid));
	output->mm_width = o.mm_width;
	output->mm_height = o.mm_height;
	for (unsigned i = 0; i < o.nmodes && nvc_disp_mode(c, no->index, i, &m) == 0; i++) {
		DisplayModePtr mode = mode_from_nvc(&m);
		if (mode)
			modes = xf86ModesAdd(modes, mode);
	}
	/* the answer while nvd is gone */
	while (no->modes)
		xf86DeleteMode(&no->modes, no->modes);
	no->modes = xf86DuplicateModes(output->scrn, modes);
	return modes;
}

static int output_mode_valid(xf86OutputPtr output, DisplayModePtr mode)
{
	(void)output;
	if (mode->Flags & (V_INTERLACE | V_DBLSCAN))
		return MODE_NO_INTERLACE;
	return MODE_OK;
}

static void output_dpms(xf86OutputPtr output, int mode)
{
	(void)output, (void)mode;   /* the head's dpms turns the scanout off */
}

static void output_destroy(xf86OutputPtr output)
{
	struct nvdx_output *no = output->driver_private;

	while (no->modes)
		xf86DeleteMode(&no->modes, no->modes);
	free(no);
	output->driver_private = NULL;
}

static const xf86OutputFuncsRec output_funcs = {
	.dpms = output_dpms,
	.mode_valid = output_mode_valid,
	.detect = output_detect,
	.get_modes = output_get_modes,
	.destroy = output_destroy,
};

/* ---- the screen's size ---- */

/* RandR grows or shrinks the screen: a new framebuffer (the old picture
 * copied over), the heads moved onto it, then the old one freed. */
static Bool config_resize(ScrnInfoPtr scrn, int width, int height)
{
	struct nvdx *nx = nvdx(scrn);
	xf86CrtcConfigPtr config = XF86_CRTC_CONFIG_PTR(scrn);
	struct nvdx_fb old = nx->fb, fb;

	if (scrn->virtualX == width && scrn->virtualY == height)
		return TRUE;
	if (!old.id) {
		scrn->virtualX = width;
		scrn->virtualY = height;
		return TRUE;
	}
	if (!nvdx_fb_alloc(scrn, &fb, width, height))
		return FALSE;
	unsigned rows = fb.height < old.height ? fb.height : old.height;
	unsigned bytes = (fb.width < old.width ? fb.width : old.width) * NVDX_CPP;
	if (nx->accel)
		nvdx_push_sync(&nx->push, old.bo, NVDX_SYNC_READ);
	for (unsigned y = 0; y < rows; y++)
		memcpy((char *)fb.map + (size_t)y * fb.pitch, (char *)old.map + (size_t)y * old.pitch,
		       bytes);

	/* with EXA the pixels are the pixmap's private, not a pointer */
	ScreenPtr screen = xf86ScrnToScreen(scrn);
	PixmapPtr root = screen->GetScreenPixmap(screen);
	if (!screen->ModifyPixmapHeader(root, width, height, -1, -1, fb.pitch,
					nx->exa ? NULL : fb.map)) {
		nvdx_fb_release(scrn, &fb);
		return FALSE;
	}
	nx->fb = fb;
	if (nx->exa)
		nvdx_exa_set_fb(screen);
	scrn->virtualX = width;
	scrn->virtualY = height;
	scrn->displayWidth = fb.pitch / NVDX_CPP;
	for (int i = 0; i < config->num_crtc; i++) {
		xf86CrtcPtr crtc = config->crtc[i];
		if (crtc->enabled)
			xf86CrtcSetMode(crtc, &crtc->mode, crtc->rotation, crtc->x, crtc->y);
	}
	if (nx->accel)
		nvdx_push_sync(&nx->push, old.bo, NVDX_SYNC_SUBMIT);
	nvdx_fb_release(scrn, &old);
	return TRUE;
}

static const xf86CrtcConfigFuncsRec config_funcs = {
	.resize = config_resize,
};

/* ---- PreInit ---- */

Bool nvdx_display_preinit(ScrnInfoPtr scrn)
{
	struct nvdx *nx = nvdx(scrn);

	xf86CrtcConfigInit(scrn, &config_funcs);
	xf86CrtcSetSizeRange(scrn, 320, 200, NVDX_MAX_WIDTH, NVDX_MAX_HEIGHT);
	for (unsigned i = 0; i < NVC_DISP_HEADS; i++) {
		struct nvdx_crtc *nc = calloc(1, sizeof(*nc));
		xf86CrtcPtr crtc = nc ? xf86CrtcCreate(scrn, &crtc_funcs) : NULL;
		if (!crtc) {
			free(nc);
			return FALSE;
		}
		nc->head = i;
		crtc->driver_private = nc;
	}
	for (unsigned i = 0; i < NVC_DISP_OUTPUTS; i++) {
		struct nvc_output o;
		if (nvc_disp_output(nx->c, i, &o) < 0) {
			xf86DrvMsg(scrn->scrnIndex, X_ERROR, "output %u: %s\n", i, nvc_error());
			return FALSE;
		}
		struct nvdx_output *no = calloc(1, sizeof(*no));
		xf86OutputPtr output = no ? xf86OutputCreate(scrn, &output_funcs, o.name) : NULL;
		if (!output) {
			free(no);
			return FALSE;
		}
		no->index = i;
		output->driver_private = no;
		output->possible_crtcs = 1u << o.head;
		output->possible_clones = 0;
		output->interlaceAllowed = FALSE;
		output->doubleScanAllowed = FALSE;
		output->subpixel_order = SubPixelUnknown;
	}
	return xf86InitialConfiguration(scrn, TRUE);
}

void nvdx_display_restore(ScrnInfoPtr scrn)
{
	xf86CrtcConfigPtr config = XF86_CRTC_CONFIG_PTR(scrn);
	struct nvc *c = nvdx(scrn)->c;
	unsigned on = 0, cursors = 0;

	for (int i = 0; i < config->num_crtc; i++) {
		xf86CrtcPtr crtc = config->crtc[i];
		struct nvdx_crtc *nc = crtc->driver_private;
		if (nc->on && crtc->enabled) {
			nc->on = head_show(crtc, &crtc->mode, crtc->x, crtc->y);
			on += nc->on;
		}
		if (nc->cursor_shown && nc->cursor &&
		    nvc_disp_cursor_set(c, nc->head, nc->cursor, 0) == 0 &&
		    nvc_disp_cursor_move(c, nc->head, nc->cursor_x, nc->cursor_y) == 0)
			cursors++;
	}
	xf86DrvMsg(scrn->scrnIndex, X_INFO, "nvd: %u heads show their modes again, %u cursors\n",
		   on, cursors);
}

void nvdx_display_off(ScrnInfoPtr scrn)
{
	xf86CrtcConfigPtr config = XF86_CRTC_CONFIG_PTR(scrn);

	for (int i = 0; i < config->num_crtc; i++) {
		xf86CrtcPtr crtc = config->crtc[i];
		struct nvdx_crtc *nc = crtc->driver_private;
		crtc_hide_cursor(crtc);
		head_off(crtc);
		nc->on = FALSE;
	}
}
