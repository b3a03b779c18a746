/* The heads: modes checked and programmed through the CRTC registers (as
 * nouveau's dispnv04 does), and the vblanks they count. */
#include "nvd/disp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLOCK_MIN_KHZ 10000
#define CLOCK_MAX_KHZ 400000      /* NV4x's RAMDAC */

void disp_head_unlock(struct nvd *d, unsigned head)
{
	disp_cr_wr(d, head, NV_CR1F_LOCK, NV_CR1F_UNLOCK);
}

/* DPMS off, as nouveau's nv_crtc_dpms: blank, stop the syncs. */
void disp_head_hw_off(struct nvd *d, unsigned head)
{
	disp_sr_wr(d, head, NV_SR01_CLOCK, disp_sr_rd(d, head, NV_SR01_CLOCK) | NV_SR01_SCREEN_OFF);
	disp_cr_wr(d, head, NV_CR17_MODE, disp_cr_rd(d, head, NV_CR17_MODE) & ~NV_CR17_SYNC_ENABLE);
	disp_cr_wr(d, head, NV_CR1A_RPC1,
	      disp_cr_rd(d, head, NV_CR1A_RPC1) | NV_CR1A_HSYNC_OFF | NV_CR1A_VSYNC_OFF);
}

/* The CRTC counts horizontal timings in characters of 8 pixels: the sync
 * and total of a mode like CEA 1080p (hsync end 2052) drop to the character
 * below, as nouveau's CR values do; the width itself must be whole. */
void disp_mode_timing(const struct nvd_mode *m, struct nv_crtc_timing *t)
{
	t->hdisplay = m->hdisplay;
	t->hsync_start = m->hsync_start & ~7u;
	t->hsync_end = m->hsync_end & ~7u;
	if (t->hsync_end == t->hsync_start)
		t->hsync_end += 8;
	t->htotal = m->htotal & ~7u;
	t->vdisplay = m->vdisplay;
	t->vsync_start = m->vsync_start;
	t->vsync_end = m->vsync_end;
	t->vtotal = m->vtotal;
	t->flags = (m->flags & NVD_MODE_NHSYNC ? NV_CRTC_TIMING_NHSYNC : 0) |
		   (m->flags & NVD_MODE_NVSYNC ? NV_CRTC_TIMING_NVSYNC : 0);
}

uint32_t disp_fb_start(const struct nvd_fb *fb, uint32_t x, uint32_t y)
{
	return (uint32_t)(fb->bo->addr + fb->offset + (uint64_t)y * fb->pitch + (uint64_t)x * fb->cpp);
}

/* nouveau's order: blank, timings, format, pitch, clock, start, then on. */
static void head_hw_on(struct nvd *d, unsigned head, const struct nvd_head *h, uint32_t vpll)
{
	struct nv_crtc_timing t;
	uint8_t cr[NV_CR_COUNT] = { 0 };
	const struct nvd_fb *fb = h->fb;

	disp_mode_timing(&h->mode, &t);
	disp_head_hw_off(d, head);
	disp_sr_wr(d, head, NV_SR01_CLOCK, NV_SR01_VALUE);
	nv_crtc_timing_to_cr(&t, fb->pitch, cr);
	cr[NV_CR1A_RPC1] |= NV_CR1A_HSYNC_OFF | NV_CR1A_VSYNC_OFF;   /* still off */
#define CR_WRITE_(idx) disp_cr_wr(d, head, idx, cr[idx]);
	NV_CR_MODE_REGS(CR_WRITE_)
#undef CR_WRITE_
	disp_cr_wr(d, head, NV_CR28_PIXEL, nv_cr28_for_depth(fb->cpp == 2 ? 16 : 24));
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMVIO_MISC_WRITE, head), nv_misc_out(&t));
	nvd_wr32(d->card, NV_HEAD_REG(NV_PRAMDAC_GENERAL_CONTROL, head),
		 NV_PRAMDAC_GENERAL_CONTROL_NV40 |
		 (fb->cpp == 2 ? NV_PRAMDAC_GENERAL_CONTROL_ALT_MODE_SEL : 0));
	nvd_wr32(d->card, NV_PRAMDAC_VPLL_COEFF(head), vpll);
	nvd_wr32(d->card, NV_PRAMDAC_VPLL_COEFF_B(head), 0);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_CONFIG, head), NV_PCRTC_CONFIG_START_ADDRESS_HSYNC);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_START, head), disp_fb_start(fb, h->x, h->y));
	disp_cr_wr(d, head, NV_CR17_MODE, cr[NV_CR17_MODE] | NV_CR17_SYNC_ENABLE);
	disp_cr_wr(d, head, NV_CR1A_RPC1, cr[NV_CR1A_RPC1] & ~(NV_CR1A_HSYNC_OFF | NV_CR1A_VSYNC_OFF));
	/* mode_set_vga's SR01 comes blanked; unblanking (NVBlankScreen) is last */
	disp_sr_wr(d, head, NV_SR01_CLOCK, NV_SR01_VALUE & ~NV_SR01_SCREEN_OFF);
}

/* The card's head number head, or NULL with why (-EINVAL for the caller);
 * with off, a head that shows nothing is refused too, off ending why. */
struct nvd_head *disp_head_get(struct nvd *d, uint32_t head, const char *off, char *why,
				 size_t whylen)
{
	if (head >= NVD_DISP_HEADS) {
		snprintf(why, whylen, "no head %u (the card has %u)", head, NVD_DISP_HEADS);
		return NULL;
	}
	struct nvd_head *h = &d->disp.head[head];
	if (off && !h->fb) {
		snprintf(why, whylen, "head %u is off%s", head, off);
		return NULL;
	}
	return h;
}

/* ---- vblanks ----
 *
 * The CRTC raises a vblank interrupt once a frame but counts nothing, as
 * on nouveau's NV04-class display; DRM counts from the interrupts while
 * someone waits and from timestamps in between.  nvd does the same: the
 * interrupt is on only while a flip or an event waits (a head that nobody
 * watches costs no wake-ups), and the count is brought up to date from the
 * raster position whenever it is read: the time of the last vblank is now
 * less the lines since vblank start, and the vblanks since the one counted
 * last are that time's distance over the frame period. */

/* The frame of a head just set: period, vtotal and vblank start as the
 * CRTC times them (the VPLL's clock, the character-rounded htotal). */
static void head_frame(struct nvd *d, unsigned head, uint32_t vpll)
{
	struct nvd_head *h = &d->disp.head[head];
	struct nv_crtc_timing t;
	uint8_t cr[NV_CR_COUNT] = { 0 };
	uint32_t ref = nv_crystal_khz(nvd_rd32(d->card, NV_PEXTDEV_BOOT_0));
	uint32_t khz = nv_vpll_khz(vpll, 0, ref);

	disp_mode_timing(&h->mode, &t);
	nv_crtc_timing_to_cr(&t, h->fb->pitch, cr);
	h->vtotal = t.vtotal;
	h->vbs = nv_crtc_vblank_start(cr);
	if (h->vbs >= t.vtotal)
		h->vbs = t.vtotal - 1;
	h->period_ns = khz ? (uint64_t)t.htotal * t.vtotal * 1000000u / khz : 0;
	h->vblank_ns = 0;
}

/* Bring the head's count up to now (a head that is on). */
void disp_vblank_sync(struct nvd *d, unsigned head)
{
	struct nvd_head *h = &d->disp.head[head];
	if (!h->fb || !h->period_ns || !h->vtotal)
		return;
	uint32_t line = NV_PCRTC_RASTER_POSITION(nvd_rd32(d->card,
							  NV_HEAD_REG(NV_PCRTC_RASTER, head)));
	uint64_t now = nvd_now_ns();
	if (line >= h->vtotal)
		line = h->vtotal - 1;
	uint64_t since = (uint64_t)((line + h->vtotal - h->vbs) % h->vtotal) * h->period_ns /
			 h->vtotal;
	uint64_t last = now > since ? now - since : 0;
	if (!h->vblank_ns) {                 /* the first look since the head came on */
		h->vblank_ns = last;
		return;
	}
	if (last <= h->vblank_ns + h->period_ns / 2)
		return;                      /* still the vblank counted last */
	h->vblanks += (last - h->vblank_ns + h->period_ns / 2) / h->period_ns;
	h->vblank_ns = last;
}

/* The vblank interrupt is on while a flip or an event waits. */
void disp_vblank_irq(struct nvd *d, unsigned head)
{
	const struct nvd_head *h = &d->disp.head[head];
	uint32_t reg = NV_HEAD_REG(NV_PCRTC_INTR_EN_0, head);
	uint32_t want = h->fb && (h->flip_fb || h->waits) ? NV_PCRTC_INTR_EN_0_VBLANK : 0;
	if (nvd_rd32(d->card, reg) == want)
		return;
	if (want)   /* a vblank from before is no news */
		nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_INTR_0, head), NV_PCRTC_INTR_0_VBLANK);
	nvd_wr32(d->card, reg, want);
}

static void vblank_wait_send(struct nvd *d, unsigned head, struct nvd_vblank_wait *w)
{
	const struct nvd_head *h = &d->disp.head[head];
	struct nvd_disp_event ev = { NVD_DISP_EVENT_VBLANK, head, w->user_data, h->vblanks,
				     h->vblank_ns };
	disp_event_send(d, w->cl, &ev);
	free(w);
}

/* Send the events whose vblank has come (the count is up to date). */
void disp_vblank_waits_due(struct nvd *d, unsigned head)
{
	struct nvd_head *h = &d->disp.head[head];
	while (h->waits && h->waits->target <= h->vblanks) {
		struct nvd_vblank_wait *w = h->waits;
		h->waits = w->next;
		vblank_wait_send(d, head, w);
	}
}

/* The head goes off or changes mode: its events go now, with the count
 * as it stands, so that nobody waits for a vblank that will not come. */
static void vblank_waits_end(struct nvd *d, unsigned head)
{
	struct nvd_head *h = &d->disp.head[head];
	if (!h->waits)
		return;
	disp_vblank_sync(d, head);
	while (h->waits) {
		struct nvd_vblank_wait *w = h->waits;
		h->waits = w->next;
		vblank_wait_send(d, head, w);
	}
	disp_vblank_irq(d, head);
}

/* The head leaves its framebuffer: the buffer may move again. */
static void head_release(struct nvd *d, unsigned head)
{
	struct nvd_head *h = &d->disp.head[head];
	disp_flip_cancel(d, head);
	vblank_waits_end(d, head);
	if (!h->fb)
		return;
	h->fb->heads &= ~(1u << head);
	nvd_bo_unpin(h->fb->bo);
	h->fb = NULL;
	memset(&h->mode, 0, sizeof(h->mode));
	h->x = h->y = h->outputs = 0;
	h->vblank_ns = 0;
}

void disp_head_off(struct nvd *d, unsigned head)
{
	vblank_waits_end(d, head);   /* counted while the CRTC still runs */
	disp_head_hw_off(d, head);
	head_release(d, head);
}

int nvd_disp_head(struct nvd_client *cl, uint32_t head, struct nvd_head_state *s, char *why,
		  size_t whylen)
{
	const struct nvd_head *h = disp_head_get(cl->d, head, NULL, why, whylen);
	if (!h)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	if (!h->fb)
		return 0;
	s->fb = h->fb->id;
	s->x = h->x;
	s->y = h->y;
	s->outputs = h->outputs;
	s->mode = h->mode;
	return 0;
}

int nvd_disp_mode_fits(const struct nvd_mode *m, char *why, size_t whylen)
{
	struct nv_crtc_timing t;
	const uint32_t known = NVD_MODE_PHSYNC | NVD_MODE_NHSYNC | NVD_MODE_PVSYNC | NVD_MODE_NVSYNC;

	if (m->flags & ~known ||
	    (m->flags & (NVD_MODE_PHSYNC | NVD_MODE_NHSYNC)) == (NVD_MODE_PHSYNC | NVD_MODE_NHSYNC) ||
	    (m->flags & (NVD_MODE_PVSYNC | NVD_MODE_NVSYNC)) == (NVD_MODE_PVSYNC | NVD_MODE_NVSYNC)) {
		snprintf(why, whylen, "mode flags 0x%x: only one polarity per sync, nothing else",
			 m->flags);
		return -EINVAL;
	}
	disp_mode_timing(m, &t);
	if (!nv_crtc_timing_fits(&t)) {
		snprintf(why, whylen, "mode %u %u %u %u / %u %u %u %u: the CRTC needs display <= "
			 "sync start < sync end <= total, a width in multiples of 8, "
			 "htotal <= %u, vtotal <= %u", m->hdisplay, m->hsync_start, m->hsync_end,
			 m->htotal, m->vdisplay, m->vsync_start, m->vsync_end, m->vtotal,
			 NV_CRTC_MAX_HTOTAL, NV_CRTC_MAX_VTOTAL);
		return -EINVAL;
	}
	if (m->clock < CLOCK_MIN_KHZ || m->clock > CLOCK_MAX_KHZ) {
		snprintf(why, whylen, "pixel clock %u kHz outside the RAMDAC's %u..%u kHz", m->clock,
			 CLOCK_MIN_KHZ, CLOCK_MAX_KHZ);
		return -EINVAL;
	}
	return 0;
}

int nvd_disp_monitor_check(const uint8_t edid[EDID_SIZE], char *why, size_t whylen)
{
	struct nvd_edid_info info;
	char fit[192];
	int r = nvd_edid_parse(edid, &info, why, whylen);

	if (r < 0)
		return r;
	for (unsigned i = 0; i < info.nmodes; i++) {
		const struct nvd_mode *m = &info.modes[i];
		if (nvd_disp_mode_fits(m, fit, sizeof(fit)) < 0) {
			snprintf(why, whylen, "mode %ux%u@%u: %s", m->hdisplay, m->vdisplay,
				 nvd_mode_hz(m), fit);
			return -EINVAL;
		}
	}
	return 0;
}

/* A mode this card's CRTC can show; 0 or -EINVAL with why.  *vpll: its
 * clock. */
static int mode_check(struct nvd *d, const struct nvd_mode *m, uint32_t *vpll, char *why,
		      size_t whylen)
{
	int r = nvd_disp_mode_fits(m, why, whylen);

	if (r < 0)
		return r;
	uint32_t ref = nv_crystal_khz(nvd_rd32(d->card, NV_PEXTDEV_BOOT_0));
	uint32_t got = nv_vpll_coeff(m->clock, ref, vpll);
	if (!got || (got > m->clock ? got - m->clock : m->clock - got) > m->clock / 200) {
		snprintf(why, whylen, "the VPLL cannot make %u kHz (closest %u)", m->clock, got);
		return -EINVAL;
	}
	return 0;
}

int nvd_disp_set_head(struct nvd_client *cl, uint32_t head, const struct nvd_head_state *s,
		      char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	uint32_t vpll;
	int r;

	if (!disp_master(cl, "set a head", why, whylen))
		return -EACCES;
	struct nvd_head *h = disp_head_get(d, head, NULL, why, whylen);
	if (!h)
		return -EINVAL;
	if (!s->fb) {
		if (h->fb)
			nvd_clog(cl, NULL, "head %u off", head);
		disp_head_off(d, head);
		return 0;
	}
	struct nvd_fb *fb = disp_fb_get(cl, s->fb);
	if (!fb) {
		snprintf(why, whylen, "no framebuffer %u", s->fb);
		return -ENOENT;
	}
	if (s->outputs != 1u << head) {
		snprintf(why, whylen, "outputs 0x%x: head %u drives output %u only (mask 0x%x)",
			 s->outputs, head, head, 1u << head);
		return -EINVAL;
	}
	if ((r = mode_check(d, &s->mode, &vpll, why, whylen)) < 0)
		return r;
	if ((uint64_t)s->x + s->mode.hdisplay > fb->width ||
	    (uint64_t)s->y + s->mode.vdisplay > fb->height) {
		snprintf(why, whylen, "%ux%u at (%u, %u) leaves the %ux%u framebuffer",
			 s->mode.hdisplay, s->mode.vdisplay, s->x, s->y, fb->width, fb->height);
		return -EINVAL;
	}
	if (((uint64_t)fb->offset + (uint64_t)s->y * fb->pitch + (uint64_t)s->x * fb->cpp) & 3) {
		snprintf(why, whylen, "the scanout start must be 4-byte aligned (an even x for RG16)");
		return -EINVAL;
	}
	disp_flip_cancel(d, head);
	disp_vblank_sync(d, head);      /* the count goes on from here in the new mode */
	vblank_waits_end(d, head);
	/* Scanout reads VRAM: the buffer goes there and stays while shown. */
	if (h->fb != fb) {
		char how[NVD_REPLY_WHY];
		r = nvd_bo_pin(d, fb->bo, NVD_DOMAIN_VRAM, how, sizeof(how));
		if (r < 0) {
			snprintf(why, whylen, "cannot move buffer %u to VRAM for scanout: %s", s->fb,
				 how);
			return r;
		}
		head_release(d, head);
		fb->heads |= 1u << head;
		h->fb = fb;
	}
	h->x = s->x;
	h->y = s->y;
	h->outputs = s->outputs;
	h->mode = s->mode;
	h->mode.preferred = 0;
	head_hw_on(d, head, h, vpll);
	head_frame(d, head, vpll);
	disp_vblank_sync(d, head);
	nvd_clog(cl, NULL, "head %u: framebuffer %u (%ux%u) at (%u, %u), %ux%u@%u", head, fb->id,
		 fb->width, fb->height, s->x, s->y, s->mode.hdisplay, s->mode.vdisplay,
		 nvd_mode_hz(&s->mode));
	return 0;
}

int nvd_disp_vblank(struct nvd_client *cl, uint32_t head, uint64_t *sequence, uint64_t *time_ns,
		    char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_head *h = disp_head_get(d, head, ": it counts no vblanks", why, whylen);
	if (!h)
		return -EINVAL;
	disp_vblank_sync(d, head);
	disp_vblank_waits_due(d, head);
	disp_vblank_irq(d, head);
	*sequence = h->vblanks;
	*time_ns = h->vblank_ns;
	return 0;
}

/* Events are the master's: one at a time per drawable is what DRI2 and
 * KMS clients need, and they go through the X server or are the master;
 * anyone else could only keep nvd taking interrupts. */
int nvd_disp_vblank_event(struct nvd_client *cl, const struct nvd_req_disp_vblank_event *rq,
			  uint64_t *target, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	unsigned n = 0;

	if (!disp_master(cl, "wait for vblanks", why, whylen))
		return -EACCES;
	if (rq->flags & ~(uint32_t)NVD_VBLANK_RELATIVE) {
		snprintf(why, whylen, "vblank flags 0x%x: only RELATIVE (0x%x) is known", rq->flags,
			 NVD_VBLANK_RELATIVE);
		return -EINVAL;
	}
	struct nvd_head *h = disp_head_get(d, rq->head, ": it counts no vblanks", why, whylen);
	if (!h)
		return -EINVAL;
	disp_vblank_sync(d, rq->head);
	disp_vblank_waits_due(d, rq->head);
	uint64_t t = rq->sequence;
	if (rq->flags & NVD_VBLANK_RELATIVE) {
		if (t > NVD_VBLANK_MAX_AHEAD) {
			snprintf(why, whylen, "%llu vblanks ahead: at most %llu",
				 (unsigned long long)t, (unsigned long long)NVD_VBLANK_MAX_AHEAD);
			return -EINVAL;
		}
		t += h->vblanks;
	} else if (t > h->vblanks && t - h->vblanks > NVD_VBLANK_MAX_AHEAD) {
		snprintf(why, whylen, "vblank %llu is %llu ahead of head %u's count %llu: at most "
			 "%llu", (unsigned long long)t, (unsigned long long)(t - h->vblanks),
			 rq->head, (unsigned long long)h->vblanks,
			 (unsigned long long)NVD_VBLANK_MAX_AHEAD);
		return -EINVAL;
	}
	for (unsigned i = 0; i < NVD_DISP_HEADS; i++)
		for (const struct nvd_vblank_wait *w = d->disp.head[i].waits; w; w = w->next)
			n += w->cl == cl;
	if (n >= NVD_VBLANK_EVENTS_MAX) {
		snprintf(why, whylen, "client limit of %u waiting vblank events reached",
			 NVD_VBLANK_EVENTS_MAX);
		return -EMFILE;
	}
	struct nvd_vblank_wait *w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	w->cl = cl;
	w->target = t;
	w->user_data = rq->user_data;
	if (t <= h->vblanks) {     /* passed already: at once, as DRM */
		*target = h->vblanks;
		vblank_wait_send(d, rq->head, w);
		return 0;
	}
	*target = t;
	struct nvd_vblank_wait **p = &h->waits;
	while (*p && (*p)->target <= t)
		p = &(*p)->next;
	w->next = *p;
	*p = w;
	disp_vblank_irq(d, rq->head);
	return 0;
}

void nvd_disp_irq(struct nvd *d, uint32_t pmc_intr)
{
	for (unsigned i = 0; i < NVD_DISP_HEADS; i++) {
		if (!(pmc_intr & (i ? NV_PMC_UNIT_PCRTC1 : NV_PMC_UNIT_PCRTC0)))
			continue;
		uint32_t st = nvd_rd32(d->card, NV_HEAD_REG(NV_PCRTC_INTR_0, i));
		nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_INTR_0, i), st);
		if (!(st & NV_PCRTC_INTR_0_VBLANK))
			continue;
		struct nvd_head *h = &d->disp.head[i];
		disp_vblank_sync(d, i);
		disp_vblank_waits_due(d, i);
		if (!h->flip_fb) {
			disp_vblank_irq(d, i);
			continue;
		}
		disp_flip_done(d, i);
	}
}
