/* The display: its outputs and their monitors, set up at start and
 * answered to clients; framebuffers over clients' buffers; what a client
 * leaves behind when it goes.  Heads (crtc.c), cursors (cursor.c), DDC
 * (ddc.c), flips and events (flip.c) and screenshots (screenshot.c) have
 * rooms of their own.  Output i is wired to head i. */
#include "nvd/disp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(NVD_DISP_HEADS == NV_PCRTC_HEADS, "the protocol's heads are the card's");
_Static_assert(NVD_DISP_OUTPUTS <= NV_DDC_BUSES, "every output has a DDC bus");
_Static_assert(NVD_CARD_OUTPUTS == NVD_DISP_OUTPUTS, "the card's outputs are the protocol's");

#define FOURCC_XR24 0x34325258u
#define FOURCC_AR24 0x34325241u
#define FOURCC_RG16 0x36314752u

/* Scanout limits: the CRTC shows at most 4096 x 4096 (horizontal display
 * end is 9 bits of characters); a framebuffer may be larger for panning
 * up to the pitch register's reach. */
#define FB_MAX_HEIGHT 8192

/* ---- set-up ---- */

void nvd_disp_init(struct nvd *d)
{
	struct nvd_disp *ds = &d->disp;
	memset(ds, 0, sizeof(*ds));
	/* The cursor images live in nvd's VRAM, out of the clients' reach
	 * (nvd.h, d->cursors). */
	uint64_t addr = d->cursors;
	if (!d->card->vram) {
		nvd_log(0, "display: no VRAM mapping, no cursors or screenshots");
	} else {
		ds->cursor_bytes = NVD_CURSOR_AREA;
		memset(d->card->vram + addr, 0, NVD_CURSOR_AREA);
	}
	for (unsigned i = 0; i < NVD_DISP_HEADS; i++) {
		ds->cursor_addr[i] = addr + (uint64_t)i * DISP_CURSOR_BYTES;
		disp_head_unlock(d, i);
		disp_head_hw_off(d, i);
		if (ds->cursor_bytes)
			disp_cursor_init(d, i);
	}
	for (unsigned i = 0; i < NVD_DISP_OUTPUTS; i++) {
		struct nvd_output *o = &ds->out[i];
		char why[128];
		snprintf(o->name, sizeof(o->name), "VGA-%u", i);
		if (disp_ddc_read_edid(d, i, o->edid) < 0) {
			memset(o->edid, 0, sizeof(o->edid));
			nvd_log(0, "output %s: no monitor", o->name);
			continue;
		}
		if (nvd_edid_parse(o->edid, &o->info, why, sizeof(why)) < 0) {
			nvd_log(0, "output %s: a monitor with an unusable EDID (%s)", o->name, why);
			memset(&o->info, 0, sizeof(o->info));
			continue;
		}
		o->connected = 1;
		const struct nvd_mode *p = &o->info.modes[0];
		nvd_log(0, "output %s: monitor %s, %u modes, preferred %ux%u@%u", o->name,
			o->info.name[0] ? o->info.name : "(unnamed)", o->info.nmodes, p->hdisplay,
			p->vdisplay, nvd_mode_hz(p));
	}
}

static void fb_destroy(struct nvd *d, struct nvd_fb *fb)
{
	for (unsigned i = 0; i < NVD_DISP_HEADS; i++)
		if (d->disp.head[i].fb == fb || d->disp.head[i].flip_fb == fb)
			disp_head_off(d, i);
	for (struct nvd_fb **p = &d->disp.fbs; *p; p = &(*p)->next)
		if (*p == fb) {
			*p = fb->next;
			break;
		}
	nvd_bo_unref(d, fb->bo);
	free(fb);
}

void nvd_disp_fini(struct nvd *d)
{
	while (d->disp.listeners) {
		struct nvd_disp_listener *l = d->disp.listeners;
		d->disp.listeners = l->next;
		close(l->fd);
		free(l);
	}
	while (d->disp.fbs)
		fb_destroy(d, d->disp.fbs);
	d->disp.cursor_bytes = 0;
}

void nvd_disp_client_gone(struct nvd_client *cl)
{
	struct nvd *d = cl->d;
	for (struct nvd_disp_listener **p = &d->disp.listeners; *p;) {
		struct nvd_disp_listener *l = *p;
		if (l->cl != cl) {
			p = &l->next;
			continue;
		}
		*p = l->next;
		close(l->fd);
		free(l);
	}
	for (unsigned i = 0; i < NVD_DISP_HEADS; i++) {
		struct nvd_head *h = &d->disp.head[i];
		for (struct nvd_vblank_wait **p = &h->waits; *p;) {
			struct nvd_vblank_wait *w = *p;
			if (w->cl != cl) {
				p = &w->next;
				continue;
			}
			*p = w->next;
			free(w);
		}
		disp_vblank_irq(d, i);
		if (h->flip_cl == cl)
			disp_flip_cancel(d, i);
	}
	for (struct nvd_fb *fb = d->disp.fbs, *next; fb; fb = next) {
		next = fb->next;
		if (fb->cl == cl) {
			if (fb->heads)
				nvd_clog(cl, NULL, "framebuffer %u was shown: head off", fb->id);
			fb_destroy(d, fb);
		}
	}
}

/* ---- requests ---- */

int nvd_disp_output(struct nvd_client *cl, const struct nvd_req_disp_output *rq,
		    struct nvd_rep_disp_output *p, char *why, size_t whylen)
{
	if (rq->output >= NVD_DISP_OUTPUTS) {
		snprintf(why, whylen, "no output %u (the card has %u)", rq->output, NVD_DISP_OUTPUTS);
		return -EINVAL;
	}
	const struct nvd_output *o = &cl->d->disp.out[rq->output];
	memcpy(p->name, o->name, sizeof(p->name));
	p->connected = (uint32_t)o->connected;
	p->head = rq->output;
	p->mm_width = o->info.mm_width;
	p->mm_height = o->info.mm_height;
	p->nmodes = o->info.nmodes;
	memcpy(p->edid, o->edid, sizeof(p->edid));
	return 0;
}

int nvd_disp_mode(struct nvd_client *cl, const struct nvd_req_disp_mode *rq,
		  struct nvd_rep_disp_mode *p, char *why, size_t whylen)
{
	if (rq->output >= NVD_DISP_OUTPUTS) {
		snprintf(why, whylen, "no output %u (the card has %u)", rq->output, NVD_DISP_OUTPUTS);
		return -EINVAL;
	}
	const struct nvd_output *o = &cl->d->disp.out[rq->output];
	if (rq->index >= o->info.nmodes) {
		snprintf(why, whylen, "output %s has %u modes, no mode %u", o->name, o->info.nmodes,
			 rq->index);
		return -ENOENT;
	}
	p->mode = o->info.modes[rq->index];
	return 0;
}

struct nvd_fb *disp_fb_get(struct nvd_client *cl, uint32_t id)
{
	for (struct nvd_fb *fb = cl->d->disp.fbs; fb; fb = fb->next)
		if (fb->id == id && fb->cl == cl)
			return fb;
	return NULL;
}

int nvd_fb_new(struct nvd_client *cl, const struct nvd_req_fb_new *rq, uint32_t *out, char *why,
	       size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_bo *bo = nvd_bo_get(cl, rq->bo);
	uint32_t cpp;
	unsigned n = 0;

	if (!bo) {
		snprintf(why, whylen, "no buffer %u", rq->bo);
		return -ENOENT;
	}
	switch (rq->fourcc) {
	case FOURCC_XR24: case FOURCC_AR24: cpp = 4; break;
	case FOURCC_RG16: cpp = 2; break;
	default:
		snprintf(why, whylen, "pixel format 0x%08x is not XR24, AR24 or RG16", rq->fourcc);
		return -EINVAL;
	}
	if (!rq->width || !rq->height || rq->height > FB_MAX_HEIGHT) {
		snprintf(why, whylen, "size %ux%u: width and height must be 1 to %u", rq->width,
			 rq->height, FB_MAX_HEIGHT);
		return -EINVAL;
	}
	if (rq->pitch % 8 || rq->pitch > NV_CRTC_MAX_PITCH) {
		snprintf(why, whylen, "pitch %u: the CRTC takes multiples of 8 up to %u", rq->pitch,
			 NV_CRTC_MAX_PITCH);
		return -EINVAL;
	}
	if ((uint64_t)rq->width * cpp > rq->pitch) {
		snprintf(why, whylen, "pitch %u is less than %u pixels of %u bytes", rq->pitch,
			 rq->width, cpp);
		return -EINVAL;
	}
	if (rq->offset % 256) {
		snprintf(why, whylen, "offset %u is not 256-byte aligned", rq->offset);
		return -EINVAL;
	}
	uint64_t end = (uint64_t)rq->offset + (uint64_t)(rq->height - 1) * rq->pitch +
		       (uint64_t)rq->width * cpp;
	if (end > bo->size) {
		snprintf(why, whylen, "%ux%u at offset %u, pitch %u ends at %llu, past the buffer's "
			 "%llu bytes", rq->width, rq->height, rq->offset, rq->pitch,
			 (unsigned long long)end, (unsigned long long)bo->size);
		return -EINVAL;
	}
	for (struct nvd_fb *f = d->disp.fbs; f; f = f->next)
		n += f->cl == cl;
	if (n >= NVD_CLIENT_FBS) {
		snprintf(why, whylen, "client limit of %u framebuffers reached", NVD_CLIENT_FBS);
		return -EMFILE;
	}
	struct nvd_fb *fb = calloc(1, sizeof(*fb));
	if (!fb) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	do
		fb->id = ++d->disp.next_fb;
	while (!fb->id);
	fb->cl = cl;
	fb->bo = bo;
	nvd_bo_ref(bo);
	fb->offset = rq->offset;
	fb->width = rq->width;
	fb->height = rq->height;
	fb->pitch = rq->pitch;
	fb->fourcc = rq->fourcc;
	fb->cpp = cpp;
	fb->next = d->disp.fbs;
	d->disp.fbs = fb;
	*out = fb->id;
	return 0;
}

int nvd_fb_free(struct nvd_client *cl, uint32_t id, char *why, size_t whylen)
{
	struct nvd_fb *fb = disp_fb_get(cl, id);
	if (!fb) {
		snprintf(why, whylen, "no framebuffer %u", id);
		return -ENOENT;
	}
	fb_destroy(cl->d, fb);
	return 0;
}
