/* KMS on the primary node: the mode-setting ioctls libdrm's drmMode* calls
 * issue (glmark2-drm, modetest, a compositor), answered from nvd's display
 * (client/nvd.h "display").  One CRTC per head, one DAC encoder and one VGA
 * connector per output; object ids are unique across types as in the
 * kernel:
 *
 *   crtcs      KMS_CRTC0 + head        1, 2
 *   encoders   KMS_ENC0 + output       3, 4
 *   connectors KMS_CONN0 + output      5, 6
 *   fbs        KMS_FB0 - 1 + nvd's fb  7 ...
 *   property   KMS_PROP_EDID           0x7fff0000 (connectors' EDID blob)
 *   blobs      KMS_BLOB0 + output      0x7fff0100 ... (a monitor's EDID)
 *
 * The rules are the kernel's (drm_mode_config.c, drm_crtc.c, drm_connector.c,
 * drm_framebuffer.c, drm_dumb_buffers.c and nouveau's display code): the
 * same checks in the same order, the same errors.  Mode ioctls are refused
 * on render nodes (-EACCES), changing a CRTC needs the master.  Arrays the
 * caller gives are read and written as the kernel does (user.c), so a bad
 * pointer is -EFAULT and never a crash inside the program.  A connector's only
 * property is its monitor's EDID; there are no gamma tables or cursors.
 * PAGE_FLIP goes to nvd's flips; their events and vblank waits are
 * event.c's. */
#include "glx/shim.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <drm.h>
#include <drm_mode.h>
#include <nouveau_drm.h>

#define KMS_CRTC0 1u
#define KMS_ENC0  (KMS_CRTC0 + NVC_DISP_HEADS)
#define KMS_CONN0 (KMS_ENC0 + NVC_DISP_OUTPUTS)
#define KMS_FB0   (KMS_CONN0 + NVC_DISP_OUTPUTS)
/* Far above any fb id nvd hands out in practice. */
#define KMS_PROP_EDID 0x7fff0000u
#define KMS_BLOB0     0x7fff0100u
#define KMS_EDID_LEN  128u

/* nouveau's limits for NV4x (nouveau_display.c) and its dumb-buffer pitch. */
#define KMS_MAX_SIZE   4096u
#define DUMB_PITCH_ALIGN 256u
#define KMS_MAX_MODES  256u             /* more than an EDID can list */

/* The kernel's enum drm_connector_status and enum subpixel_order (uapi
 * headers have only libdrm's copies, whose subpixel values are off by one). */
#define KMS_CONNECTED    1u
#define KMS_DISCONNECTED 2u
#define KMS_SUBPIXEL_UNKNOWN 0u

/* ---- the caller's memory (user.c) ---- */

/* GETRESOURCES' lists: as many ids as the caller has room for. */
static int put_ids(uint64_t uptr, uint32_t room, const uint32_t *ids, uint32_t n)
{
	return shim_put_user(uptr, ids, (size_t)(room < n ? room : n) * sizeof(*ids));
}

/* ---- modes ---- */

static void mode_to_drm(const struct nvc_mode *m, struct drm_mode_modeinfo *d)
{
	memset(d, 0, sizeof(*d));
	d->clock = m->clock;
	d->hdisplay = m->hdisplay;
	d->hsync_start = m->hsync_start;
	d->hsync_end = m->hsync_end;
	d->htotal = m->htotal;
	d->vdisplay = m->vdisplay;
	d->vsync_start = m->vsync_start;
	d->vsync_end = m->vsync_end;
	d->vtotal = m->vtotal;
	/* drm_mode_vrefresh: the clock over the frame, rounded to nearest */
	uint64_t frame = (uint64_t)m->htotal * m->vtotal;
	d->vrefresh = frame ? (uint32_t)(((uint64_t)m->clock * 1000 + frame / 2) / frame) : 0;
	d->flags = m->flags & (DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_NHSYNC | DRM_MODE_FLAG_PVSYNC |
			       DRM_MODE_FLAG_NVSYNC);
	d->type = DRM_MODE_TYPE_DRIVER | (m->preferred ? DRM_MODE_TYPE_PREFERRED : 0);
	snprintf(d->name, sizeof(d->name), "%ux%u", m->hdisplay, m->vdisplay);
}

/* drm_mode_convert_umode + drm_mode_validate_basic, for what a head can
 * show: progressive modes with sync polarities only. */
static int mode_from_drm(const struct drm_mode_modeinfo *d, struct nvc_mode *m)
{
	if (d->clock > INT_MAX || d->vrefresh > INT_MAX)
		return -ERANGE;
	if (d->type & ~DRM_MODE_TYPE_ALL)
		return -EINVAL;
	if (d->flags & ~(DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_NHSYNC | DRM_MODE_FLAG_PVSYNC |
			 DRM_MODE_FLAG_NVSYNC))
		return -EINVAL;
	if (!d->clock || !d->hdisplay || d->hsync_start < d->hdisplay ||
	    d->hsync_end < d->hsync_start || d->htotal < d->hsync_end || !d->vdisplay ||
	    d->vsync_start < d->vdisplay || d->vsync_end < d->vsync_start ||
	    d->vtotal < d->vsync_end || d->vscan > 1)
		return -EINVAL;
	*m = (struct nvc_mode){
		.clock = d->clock,
		.hdisplay = d->hdisplay, .hsync_start = d->hsync_start,
		.hsync_end = d->hsync_end, .htotal = d->htotal,
		.vdisplay = d->vdisplay, .vsync_start = d->vsync_start,
		.vsync_end = d->vsync_end, .vtotal = d->vtotal,
		.flags = d->flags,
		.preferred = !!(d->type & DRM_MODE_TYPE_PREFERRED),
	};
	return 0;
}

/* ---- objects ---- */

int kms_crtc_head(uint32_t id, unsigned *head)
{
	if (id < KMS_CRTC0 || id - KMS_CRTC0 >= NVC_DISP_HEADS)
		return -ENOENT;
	*head = id - KMS_CRTC0;
	return 0;
}

uint32_t kms_head_crtc(unsigned head)
{
	return KMS_CRTC0 + head;
}

static int encoder_of(uint32_t id, unsigned *out)
{
	if (id < KMS_ENC0 || id - KMS_ENC0 >= NVC_DISP_OUTPUTS)
		return -ENOENT;
	*out = id - KMS_ENC0;
	return 0;
}

static int connector_of(uint32_t id, unsigned *out)
{
	if (id < KMS_CONN0 || id - KMS_CONN0 >= NVC_DISP_OUTPUTS)
		return -ENOENT;
	*out = id - KMS_CONN0;
	return 0;
}

static uint32_t fb_kms_id(uint32_t nvd_fb)
{
	return nvd_fb ? KMS_FB0 - 1 + nvd_fb : 0;
}

static struct kms_fb *fb_find(struct drm_file *f, uint32_t id)
{
	for (unsigned i = 0; i < f->nfbs; i++)
		if (fb_kms_id(f->fbs[i].nvd) == id)
			return &f->fbs[i];
	return NULL;
}

/* The head driving output `out` now, or -1. */
static int output_head(struct drm_file *f, unsigned out)
{
	for (unsigned h = 0; h < NVC_DISP_HEADS; h++) {
		struct nvc_head hd;
		if (nvc_disp_head(f->c, h, &hd) == 0 && hd.fb && (hd.outputs & (1u << out)))
			return (int)h;
	}
	return -1;
}

/* ---- the ioctls ---- */

static int getresources(struct drm_file *f, struct drm_mode_card_res *r)
{
	uint32_t ids[NVC_DISP_HEADS > NVC_DISP_OUTPUTS ? NVC_DISP_HEADS : NVC_DISP_OUTPUTS];
	uint32_t *fbs = NULL;
	int e;
	if (f->nfbs && !(fbs = malloc(f->nfbs * sizeof(*fbs))))
		return -ENOMEM;
	for (unsigned i = 0; i < f->nfbs; i++)
		fbs[i] = fb_kms_id(f->fbs[i].nvd);
	e = put_ids(r->fb_id_ptr, r->count_fbs, fbs, f->nfbs);
	free(fbs);
	if (e < 0)
		return e;
	r->count_fbs = f->nfbs;
	for (unsigned i = 0; i < NVC_DISP_HEADS; i++)
		ids[i] = KMS_CRTC0 + i;
	if ((e = put_ids(r->crtc_id_ptr, r->count_crtcs, ids, NVC_DISP_HEADS)) < 0)
		return e;
	r->count_crtcs = NVC_DISP_HEADS;
	for (unsigned i = 0; i < NVC_DISP_OUTPUTS; i++)
		ids[i] = KMS_ENC0 + i;
	if ((e = put_ids(r->encoder_id_ptr, r->count_encoders, ids, NVC_DISP_OUTPUTS)) < 0)
		return e;
	r->count_encoders = NVC_DISP_OUTPUTS;
	for (unsigned i = 0; i < NVC_DISP_OUTPUTS; i++)
		ids[i] = KMS_CONN0 + i;
	if ((e = put_ids(r->connector_id_ptr, r->count_connectors, ids, NVC_DISP_OUTPUTS)) < 0)
		return e;
	r->count_connectors = NVC_DISP_OUTPUTS;
	r->min_width = r->min_height = 0;
	r->max_width = r->max_height = KMS_MAX_SIZE;
	return 0;
}

/* The arrays are written only when all of them fit (libdrm asks for the
 * counts first, then again with room). */
static int getconnector(struct drm_file *f, struct drm_mode_get_connector *c)
{
	unsigned out;
	struct nvc_output o;
	int e = connector_of(c->connector_id, &out);
	if (e < 0 || (e = nvc_disp_output(f->c, out, &o)) < 0)
		return e;
	uint32_t enc = KMS_ENC0 + out;
	if (c->count_encoders >= 1 && (e = shim_put_user(c->encoders_ptr, &enc, sizeof(enc))) < 0)
		return e;
	c->count_encoders = 1;
	/* A disconnected connector has no modes, as after the kernel's probe. */
	unsigned n = o.connected ? (o.nmodes < KMS_MAX_MODES ? o.nmodes : KMS_MAX_MODES) : 0;
	struct drm_mode_modeinfo *modes = n ? calloc(n, sizeof(*modes)) : NULL;
	if (n && !modes)
		return -ENOMEM;
	unsigned got = 0;
	for (unsigned i = 0; i < n; i++) {
		struct nvc_mode m;
		if (nvc_disp_mode(f->c, out, i, &m) < 0)
			break;                  /* the list changed: what there is */
		mode_to_drm(&m, &modes[got++]);
	}
	if (c->count_modes >= got && got)
		e = shim_put_user(c->modes_ptr, modes, got * sizeof(*modes));
	free(modes);
	if (e < 0)
		return e;
	c->count_modes = got;
	/* drm_mode_object_get_properties: as many as there is room for */
	uint32_t prop = KMS_PROP_EDID;
	uint64_t val = o.connected ? KMS_BLOB0 + out : 0;
	if (c->count_props >= 1 && ((e = shim_put_user(c->props_ptr, &prop, sizeof(prop))) < 0 ||
				    (e = shim_put_user(c->prop_values_ptr, &val, sizeof(val))) < 0))
		return e;
	c->count_props = 1;
	int head = output_head(f, out);
	c->encoder_id = head >= 0 ? enc : 0;
	c->connector_type = DRM_MODE_CONNECTOR_VGA;
	c->connector_type_id = out + 1;
	c->connection = o.connected ? KMS_CONNECTED : KMS_DISCONNECTED;
	c->mm_width = o.connected ? o.mm_width : 0;
	c->mm_height = o.connected ? o.mm_height : 0;
	c->subpixel = KMS_SUBPIXEL_UNKNOWN;
	c->pad = 0;
	return 0;
}

static int getencoder(struct drm_file *f, struct drm_mode_get_encoder *en)
{
	unsigned out;
	struct nvc_output o;
	int e = encoder_of(en->encoder_id, &out);
	if (e < 0 || (e = nvc_disp_output(f->c, out, &o)) < 0)
		return e;
	int head = output_head(f, out);
	en->encoder_type = DRM_MODE_ENCODER_DAC;
	en->crtc_id = head >= 0 ? KMS_CRTC0 + head : 0;
	en->possible_crtcs = o.head < NVC_DISP_HEADS ? 1u << o.head : 0;
	en->possible_clones = 0;
	return 0;
}

static int getcrtc(struct drm_file *f, struct drm_mode_crtc *c)
{
	unsigned head;
	struct nvc_head h;
	int e = kms_crtc_head(c->crtc_id, &head);
	if (e < 0 || (e = nvc_disp_head(f->c, head, &h)) < 0)
		return e;
	c->fb_id = fb_kms_id(h.fb);
	c->x = h.fb ? h.x : 0;
	c->y = h.fb ? h.y : 0;
	c->gamma_size = 0;              /* no GETGAMMA / SETGAMMA */
	c->mode_valid = !!h.fb;
	if (h.fb)
		mode_to_drm(&h.mode, &c->mode);
	else
		memset(&c->mode, 0, sizeof(c->mode));
	return 0;
}

/* drm_mode_setcrtc: a mode needs a framebuffer and connectors, no mode
 * turns the CRTC off; the screen must lie inside the framebuffer
 * (drm_crtc_check_viewport: -ENOSPC). */
static int setcrtc(struct drm_file *f, struct drm_mode_crtc *c)
{
	unsigned head;
	int e;
	if (!f->master)
		return -EACCES;
	if ((c->x & 0xffff0000u) || (c->y & 0xffff0000u))
		return -ERANGE;
	if ((e = kms_crtc_head(c->crtc_id, &head)) < 0)
		return e;
	struct nvc_head h = { 0 };
	if (c->mode_valid) {
		uint32_t fbw = 0, fbh = 0;
		if (c->fb_id == UINT32_MAX) {   /* -1: keep the framebuffer it shows */
			struct nvc_head cur;
			if ((e = nvc_disp_head(f->c, head, &cur)) < 0)
				return e;
			if (!cur.fb)
				return -EINVAL;
			h.fb = cur.fb;
		} else {
			struct kms_fb *fb = fb_find(f, c->fb_id);
			if (!fb)
				return -ENOENT;
			h.fb = fb->nvd;
			fbw = fb->width;
			fbh = fb->height;
		}
		if ((e = mode_from_drm(&c->mode, &h.mode)) < 0)
			return e;
		if (fbw && (h.mode.hdisplay > fbw || h.mode.vdisplay > fbh ||
			    c->x > fbw - h.mode.hdisplay || c->y > fbh - h.mode.vdisplay))
			return -ENOSPC;
		h.x = c->x;
		h.y = c->y;
	}
	if (c->count_connectors == 0 && c->mode_valid)
		return -EINVAL;
	if (c->count_connectors > 0 && !c->mode_valid)
		return -EINVAL;
	if (c->count_connectors > NVC_DISP_OUTPUTS)
		return -EINVAL;
	for (uint32_t i = 0; i < c->count_connectors; i++) {
		uint32_t id;
		unsigned out;
		struct nvc_output o;
		if ((e = shim_get_user(c->set_connectors_ptr + 4 * (uint64_t)i, &id, sizeof(id))) < 0)
			return e;
		if ((e = connector_of(id, &out)) < 0)
			return e;
		/* the encoder's possible_crtcs (drm_crtc_helper_set_config) */
		if ((e = nvc_disp_output(f->c, out, &o)) < 0)
			return e;
		if (o.head != head)
			return -EINVAL;
		h.outputs |= 1u << out;
	}
	return nvc_disp_set_head(f->c, head, &h);
}

static int fb_add(struct drm_file *f, uint32_t width, uint32_t height, uint32_t fourcc,
		  uint32_t handle, uint32_t pitch, uint32_t offset, uint32_t *id)
{
	unsigned cpp;
	switch (fourcc) {
	case NVC_FB_XRGB8888: case NVC_FB_ARGB8888: cpp = 4; break;
	case NVC_FB_RGB565: cpp = 2; break;
	default: return -EINVAL;
	}
	/* drm_internal_framebuffer_create and framebuffer_check */
	if (!width || width > KMS_MAX_SIZE || !height || height > KMS_MAX_SIZE)
		return -EINVAL;
	if (!handle)
		return -EINVAL;
	if ((uint64_t)height * pitch + offset > UINT32_MAX)
		return -ERANGE;
	if (pitch < width * cpp)
		return -EINVAL;
	struct gem *g = gem_find(f, handle);
	if (!g)
		return -ENOENT;
	if (f->nfbs == f->fbs_cap) {
		unsigned cap = f->fbs_cap ? 2 * f->fbs_cap : 8;
		struct kms_fb *n = realloc(f->fbs, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		f->fbs = n;
		f->fbs_cap = cap;
	}
	uint32_t nvd_fb;
	int e = nvc_fb_new(f->c, g->bo, offset, width, height, pitch, fourcc, &nvd_fb);
	if (e < 0)
		return e;
	if (!nvd_fb || nvd_fb > UINT32_MAX - KMS_FB0) {   /* no id left for it */
		nvc_fb_free(f->c, nvd_fb);
		return -ENOSPC;
	}
	f->fbs[f->nfbs++] = (struct kms_fb){ nvd_fb, handle, width, height, pitch, fourcc };
	*id = fb_kms_id(nvd_fb);
	return 0;
}

/* drm_mode_legacy_fb_format: depth and bpp name the format. */
static int addfb(struct drm_file *f, struct drm_mode_fb_cmd *c)
{
	uint32_t fourcc;
	if (c->bpp == 32 && c->depth == 24)
		fourcc = NVC_FB_XRGB8888;
	else if (c->bpp == 32 && c->depth == 32)
		fourcc = NVC_FB_ARGB8888;
	else if (c->bpp == 16 && c->depth == 16)
		fourcc = NVC_FB_RGB565;
	else
		return -EINVAL;
	return fb_add(f, c->width, c->height, fourcc, c->handle, c->pitch, 0, &c->fb_id);
}

static int addfb2(struct drm_file *f, struct drm_mode_fb_cmd2 *c)
{
	if (c->flags & ~(DRM_MODE_FB_INTERLACED | DRM_MODE_FB_MODIFIERS))
		return -EINVAL;
	if (c->flags & DRM_MODE_FB_MODIFIERS)   /* DRM_CAP_ADDFB2_MODIFIERS is 0 */
		return -EINVAL;
	return fb_add(f, c->width, c->height, c->pixel_format, c->handles[0], c->pitches[0],
		      c->offsets[0], &c->fb_id);
}

static int rmfb(struct drm_file *f, uint32_t *id)
{
	struct kms_fb *fb = fb_find(f, *id);
	if (!fb)
		return -ENOENT;
	int e = nvc_fb_free(f->c, fb->nvd);   /* a head showing it goes off */
	*fb = f->fbs[--f->nfbs];
	return e;
}

static int getfb(struct drm_file *f, struct drm_mode_fb_cmd *c)
{
	struct kms_fb *fb = fb_find(f, c->fb_id);
	if (!fb)
		return -ENOENT;
	c->width = fb->width;
	c->height = fb->height;
	c->pitch = fb->pitch;
	c->bpp = fb->fourcc == NVC_FB_RGB565 ? 16 : 32;
	c->depth = fb->fourcc == NVC_FB_RGB565 ? 16 : fb->fourcc == NVC_FB_ARGB8888 ? 32 : 24;
	c->handle = gem_find(f, fb->handle) ? fb->handle : 0;
	return 0;
}

/* Dumb buffers as nouveau makes them: VRAM, pitch a multiple of 256. */
static int create_dumb(struct drm_file *f, struct drm_mode_create_dumb *d)
{
	if (!d->width || !d->height || !d->bpp || d->flags)
		return -EINVAL;
	uint32_t cpp = (d->bpp + 7) / 8;
	if (!cpp || cpp > UINT32_MAX / d->width)
		return -EINVAL;
	uint64_t pitch = ((uint64_t)cpp * d->width + DUMB_PITCH_ALIGN - 1) & ~(uint64_t)(DUMB_PITCH_ALIGN - 1);
	if (pitch > UINT32_MAX || d->height > UINT32_MAX / pitch)
		return -EINVAL;
	uint64_t size = (pitch * d->height + 4095) & ~(uint64_t)4095;
	struct nvc_bo *bo;
	struct gem *g;
	int e = nvc_bo_new(f->c, size, NVC_VRAM, &bo);
	if (e < 0)
		return e;
	if ((e = gem_add(f, bo, &g)) < 0) {
		nvc_bo_free(bo);
		return e;
	}
	d->handle = g->handle;
	d->pitch = (uint32_t)pitch;
	d->size = size;
	return 0;
}

static int map_dumb(struct drm_file *f, struct drm_mode_map_dumb *m)
{
	struct gem *g = gem_find(f, m->handle);
	struct drm_nouveau_gem_info info;
	if (!g)
		return -ENOENT;
	gem_fill_info(f, g, &info);
	m->offset = info.map_handle;
	return 0;
}

static int destroy_dumb(struct drm_file *f, struct drm_mode_destroy_dumb *d)
{
	struct drm_gem_close c = { .handle = d->handle };
	return gem_ioctl(f, _IOC_NR(DRM_IOCTL_GEM_CLOSE), &c);
}

/* Objects with property lists (CRTCs, connectors) have empty ones; the
 * others have none (drm_mode_obj_get_properties_ioctl: -EINVAL). */
static int obj_getproperties(struct drm_file *f, struct drm_mode_obj_get_properties *p)
{
	unsigned i, out = 0;
	int crtc = kms_crtc_head(p->obj_id, &i) == 0, conn = connector_of(p->obj_id, &out) == 0;
	int enc = encoder_of(p->obj_id, &i) == 0, fb = fb_find(f, p->obj_id) != NULL;
	uint32_t t = p->obj_type;
	if (crtc && (t == DRM_MODE_OBJECT_ANY || t == DRM_MODE_OBJECT_CRTC)) {
		p->count_props = 0;
		return 0;
	}
	if (conn && (t == DRM_MODE_OBJECT_ANY || t == DRM_MODE_OBJECT_CONNECTOR)) {
		struct nvc_output o;
		int e = nvc_disp_output(f->c, out, &o);
		uint32_t prop = KMS_PROP_EDID;
		uint64_t val = o.connected ? KMS_BLOB0 + out : 0;
		if (e < 0)
			return e;
		if (p->count_props >= 1 && ((e = shim_put_user(p->props_ptr, &prop, sizeof(prop))) < 0 ||
					    (e = shim_put_user(p->prop_values_ptr, &val, sizeof(val))) < 0))
			return e;
		p->count_props = 1;
		return 0;
	}
	if ((enc && (t == DRM_MODE_OBJECT_ANY || t == DRM_MODE_OBJECT_ENCODER)) ||
	    (fb && (t == DRM_MODE_OBJECT_ANY || t == DRM_MODE_OBJECT_FB)))
		return -EINVAL;
	return -ENOENT;
}

/* The EDID property: an immutable blob, no values or enums. */
static int getproperty(struct drm_mode_get_property *p)
{
	if (p->prop_id != KMS_PROP_EDID)
		return -ENOENT;
	memset(p->name, 0, sizeof(p->name));
	snprintf(p->name, sizeof(p->name), "EDID");
	p->flags = DRM_MODE_PROP_BLOB | DRM_MODE_PROP_IMMUTABLE;
	p->count_values = 0;
	p->count_enum_blobs = 0;
	return 0;
}

/* A monitor's EDID: copied only when the caller's length is the blob's. */
static int getpropblob(struct drm_file *f, struct drm_mode_get_blob *b)
{
	struct nvc_output o;
	if (b->blob_id < KMS_BLOB0 || b->blob_id - KMS_BLOB0 >= NVC_DISP_OUTPUTS)
		return -ENOENT;
	int e = nvc_disp_output(f->c, b->blob_id - KMS_BLOB0, &o);
	if (e < 0)
		return e;
	if (!o.connected)
		return -ENOENT;
	if (b->length == KMS_EDID_LEN && (e = shim_put_user(b->data, o.edid, KMS_EDID_LEN)) < 0)
		return e;
	b->length = KMS_EDID_LEN;
	return 0;
}

/* drm_mode_page_flip_ioctl and nouveau's legacy flip: at the next vblank,
 * once the framebuffer's rendering is done (waited for here, where the
 * kernel queues the flip behind it on the channel).  nvd flips only at a
 * vblank: ASYNC is refused (DRM_CAP_ASYNC_PAGE_FLIP is 0), and no flip
 * targets a later one (DRM_CAP_PAGE_FLIP_TARGET is 0). */
static int page_flip(struct drm_file *f, struct drm_mode_crtc_page_flip *p)
{
	unsigned head;
	struct nvc_head cur;
	if (!f->master)
		return -EACCES;
	if ((p->flags & ~DRM_MODE_PAGE_FLIP_FLAGS) || p->reserved)
		return -EINVAL;
	if (p->flags & DRM_MODE_PAGE_FLIP_ASYNC)
		return -EINVAL;
	if ((p->flags & DRM_MODE_PAGE_FLIP_TARGET) == DRM_MODE_PAGE_FLIP_TARGET)
		return -EINVAL;
	int e = kms_crtc_head(p->crtc_id, &head);
	if (e < 0)
		return e;
	if (p->flags & DRM_MODE_PAGE_FLIP_TARGET)
		return -EINVAL;
	if ((e = nvc_disp_head(f->c, head, &cur)) < 0)
		return e;
	if (!cur.fb)
		return -EBUSY;          /* nothing shown to flip from */
	struct kms_fb *fb = fb_find(f, p->fb_id);
	if (!fb)
		return -ENOENT;
	/* drm_crtc_check_viewport */
	if (cur.mode.hdisplay > fb->width || cur.mode.vdisplay > fb->height ||
	    cur.x > fb->width - cur.mode.hdisplay || cur.y > fb->height - cur.mode.vdisplay)
		return -ENOSPC;
	struct kms_fb *shown = fb_find(f, fb_kms_id(cur.fb));
	if (shown && shown->fourcc != fb->fourcc)
		return -EINVAL;         /* a flip keeps the format */
	struct gem *g = gem_find(f, fb->handle);
	if (g && (e = nvc_bo_wait(g->bo, 0, -1)) < 0)
		return e;
	uint64_t serial = ++f->flip_serial;
	struct kms_flip *fl = &f->flips[head][serial % KMS_FLIPS_KEPT];
	struct kms_flip was = *fl;
	/* kept before nvd can send its event: read() waits for f->lock */
	*fl = (struct kms_flip){ serial, p->user_data, !!(p->flags & DRM_MODE_PAGE_FLIP_EVENT) };
	if ((e = nvc_disp_page_flip(f->c, head, fb->nvd, serial)) < 0)
		*fl = was;
	return e;
}

int kms_get_cap(struct drm_file *f, void *arg)
{
	struct drm_get_cap *c = arg;
	(void)f;
	switch (c->capability) {
	case DRM_CAP_PRIME:               c->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT; return 0;
	case DRM_CAP_TIMESTAMP_MONOTONIC: c->value = 1; return 0;
	case DRM_CAP_SYNCOBJ:             c->value = 0; return 0;
	case DRM_CAP_SYNCOBJ_TIMELINE:    c->value = 0; return 0;
	case DRM_CAP_DUMB_BUFFER:         c->value = 1; return 0;
	case DRM_CAP_VBLANK_HIGH_CRTC:    c->value = 1; return 0;
	case DRM_CAP_DUMB_PREFERRED_DEPTH: c->value = 24; return 0;
	case DRM_CAP_DUMB_PREFER_SHADOW:  c->value = 1; return 0;
	case DRM_CAP_ASYNC_PAGE_FLIP:     c->value = 0; return 0;   /* nvd flips at vblanks */
	case DRM_CAP_PAGE_FLIP_TARGET:    c->value = 0; return 0;
	case DRM_CAP_CURSOR_WIDTH:        c->value = 64; return 0;
	case DRM_CAP_CURSOR_HEIGHT:       c->value = 64; return 0;
	case DRM_CAP_ADDFB2_MODIFIERS:    c->value = 0; return 0;
	case DRM_CAP_CRTC_IN_VBLANK_EVENT: c->value = 1; return 0;   /* event.c fills it */
	}
	return -EINVAL;
}

int kms_ioctl(struct drm_file *f, unsigned nr, void *arg)
{
	if (f->node != NODE_PRIMARY)   /* no DRM_RENDER_ALLOW on mode ioctls */
		return -EACCES;
	switch (nr) {
	case _IOC_NR(DRM_IOCTL_MODE_GETRESOURCES):  return getresources(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_GETCONNECTOR):  return getconnector(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_GETENCODER):    return getencoder(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_GETCRTC):       return getcrtc(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_SETCRTC):       return setcrtc(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_ADDFB):         return addfb(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_ADDFB2):        return addfb2(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_RMFB):          return rmfb(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_GETFB):         return getfb(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_CREATE_DUMB):   return create_dumb(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_MAP_DUMB):      return map_dumb(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_DESTROY_DUMB):  return destroy_dumb(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_OBJ_GETPROPERTIES): return obj_getproperties(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_GETPROPERTY):   return getproperty(arg);
	case _IOC_NR(DRM_IOCTL_MODE_GETPROPBLOB):   return getpropblob(f, arg);
	case _IOC_NR(DRM_IOCTL_MODE_GETPLANERESOURCES):
		/* no overlay planes (and no universal planes without the client cap) */
		((struct drm_mode_get_plane_res *)arg)->count_planes = 0;
		return 0;
	case _IOC_NR(DRM_IOCTL_MODE_GETPLANE):      return -ENOENT;
	case _IOC_NR(DRM_IOCTL_MODE_PAGE_FLIP):     return page_flip(f, arg);
	case _IOC_NR(DRM_IOCTL_WAIT_VBLANK):
	case _IOC_NR(DRM_IOCTL_CRTC_GET_SEQUENCE):
	case _IOC_NR(DRM_IOCTL_CRTC_QUEUE_SEQUENCE): return event_ioctl(f, nr, arg);
	}
	return -EINVAL;
}
