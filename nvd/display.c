/* The display: monitors read over DDC like on real hardware, framebuffers
 * over clients' buffers, heads programmed through the CRTC registers (as
 * nouveau's dispnv04 does), and screenshots composed from what the
 * registers say the head scans out.  Output i is wired to head i. */
#include "nvd/nvd.h"

#include "hw/display.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
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
#define CLOCK_MIN_KHZ 10000
#define CLOCK_MAX_KHZ 400000      /* NV4x's RAMDAC */

/* ---- register access ---- */

static uint8_t cr_rd(struct nvd *d, unsigned head, uint8_t idx)
{
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMCIO_CRX, head), idx);
	return nvd_rd08(d->card, NV_HEAD_REG(NV_PRMCIO_CR, head));
}

static void cr_wr(struct nvd *d, unsigned head, uint8_t idx, uint8_t v)
{
	d->disp.scanout_gen++;
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMCIO_CRX, head), idx);
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMCIO_CR, head), v);
}

static uint8_t sr_rd(struct nvd *d, unsigned head, uint8_t idx)
{
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMVIO_SRX, head), idx);
	return nvd_rd08(d->card, NV_HEAD_REG(NV_PRMVIO_SR, head));
}

static void sr_wr(struct nvd *d, unsigned head, uint8_t idx, uint8_t v)
{
	d->disp.scanout_gen++;
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMVIO_SRX, head), idx);
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMVIO_SR, head), v);
}

/* ---- DDC: I2C bit-banged through head 0's CR port (nvkm busnv04) ---- */

struct ddc {
	struct nvd *d;
	unsigned bus;
	uint8_t wr;                /* what the drive register holds */
};

static void ddc_drive(struct ddc *b, int scl, int sda)
{
	b->wr = (uint8_t)((b->wr & ~(NV_DDC_WR_SCL | NV_DDC_WR_SDA)) | (scl ? NV_DDC_WR_SCL : 0) |
			  (sda ? NV_DDC_WR_SDA : 0) | NV_DDC_WR_ENABLE);
	cr_wr(b->d, 0, NV_DDC_WR(b->bus), b->wr);
}

static int ddc_sda(struct ddc *b)
{
	return !!(cr_rd(b->d, 0, NV_DDC_STATUS(b->bus)) & NV_DDC_STATUS_SDA);
}

static void ddc_start(struct ddc *b)
{
	ddc_drive(b, 1, 1);
	ddc_drive(b, 1, 0);
	ddc_drive(b, 0, 0);
}

static void ddc_stop(struct ddc *b)
{
	ddc_drive(b, 0, 0);
	ddc_drive(b, 1, 0);
	ddc_drive(b, 1, 1);
}

/* 1 if the slave acknowledged. */
static int ddc_put(struct ddc *b, uint8_t v)
{
	for (int i = 7; i >= 0; i--) {
		int bit = (v >> i) & 1;
		ddc_drive(b, 0, bit);
		ddc_drive(b, 1, bit);
		ddc_drive(b, 0, bit);
	}
	ddc_drive(b, 0, 1);        /* let go of SDA for the acknowledge */
	ddc_drive(b, 1, 1);
	int ack = !ddc_sda(b);
	ddc_drive(b, 0, 1);
	return ack;
}

static uint8_t ddc_get(struct ddc *b, int ack)
{
	uint8_t v = 0;
	ddc_drive(b, 0, 1);
	for (int i = 0; i < 8; i++) {
		ddc_drive(b, 1, 1);
		v = (uint8_t)(v << 1 | ddc_sda(b));
		ddc_drive(b, 0, 1);
	}
	ddc_drive(b, 0, !ack);
	ddc_drive(b, 1, !ack);
	ddc_drive(b, 0, !ack);
	return v;
}

/* The EEPROM at NV_DDC_EDID_ADDR: offset 0, then 128 bytes.  -ENODEV when
 * nothing acknowledges (no monitor). */
static int ddc_read_edid(struct nvd *d, unsigned bus, uint8_t *edid)
{
	struct ddc b = { d, bus, cr_rd(d, 0, NV_DDC_WR(bus)) };
	int r = -ENODEV;

	ddc_start(&b);
	if (!ddc_put(&b, NV_DDC_EDID_ADDR << 1) || !ddc_put(&b, 0))
		goto out;
	ddc_start(&b);             /* repeated start, to read */
	if (!ddc_put(&b, NV_DDC_EDID_ADDR << 1 | 1))
		goto out;
	for (unsigned i = 0; i < NV_EDID_SIZE; i++)
		edid[i] = ddc_get(&b, i + 1 < NV_EDID_SIZE);
	r = 0;
out:
	ddc_stop(&b);
	return r;
}

/* ---- heads ---- */

static void head_unlock(struct nvd *d, unsigned head)
{
	cr_wr(d, head, NV_CR1F_LOCK, NV_CR1F_UNLOCK);
}

/* DPMS off, as nouveau's nv_crtc_dpms: blank, stop the syncs. */
static void head_hw_off(struct nvd *d, unsigned head)
{
	sr_wr(d, head, NV_SR01_CLOCK, sr_rd(d, head, NV_SR01_CLOCK) | NV_SR01_SCREEN_OFF);
	cr_wr(d, head, NV_CR17_MODE, cr_rd(d, head, NV_CR17_MODE) & ~NV_CR17_SYNC_ENABLE);
	cr_wr(d, head, NV_CR1A_RPC1,
	      cr_rd(d, head, NV_CR1A_RPC1) | NV_CR1A_HSYNC_OFF | NV_CR1A_VSYNC_OFF);
}

/* The CRTC counts horizontal timings in characters of 8 pixels: the sync
 * and total of a mode like CEA 1080p (hsync end 2052) drop to the character
 * below, as nouveau's CR values do; the width itself must be whole. */
static void mode_to_timing(const struct nvd_mode *m, struct nv_crtc_timing *t)
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

static uint32_t fb_start(const struct nvd_fb *fb, uint32_t x, uint32_t y)
{
	return (uint32_t)(fb->bo->addr + fb->offset + (uint64_t)y * fb->pitch + (uint64_t)x * fb->cpp);
}

/* nouveau's order: blank, timings, format, pitch, clock, start, then on. */
static void head_hw_on(struct nvd *d, unsigned head, const struct nvd_head *h, uint32_t vpll)
{
	struct nv_crtc_timing t;
	uint8_t cr[NV_CR_COUNT] = { 0 };
	const struct nvd_fb *fb = h->fb;

	mode_to_timing(&h->mode, &t);
	head_hw_off(d, head);
	sr_wr(d, head, NV_SR01_CLOCK, NV_SR01_VALUE);
	nv_crtc_timing_to_cr(&t, fb->pitch, cr);
	cr[NV_CR1A_RPC1] |= NV_CR1A_HSYNC_OFF | NV_CR1A_VSYNC_OFF;   /* still off */
#define CR_WRITE_(idx) cr_wr(d, head, idx, cr[idx]);
	NV_CR_MODE_REGS(CR_WRITE_)
#undef CR_WRITE_
	cr_wr(d, head, NV_CR28_PIXEL, nv_cr28_for_depth(fb->cpp == 2 ? 16 : 24));
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMVIO_MISC_WRITE, head), nv_misc_out(&t));
	nvd_wr32(d->card, NV_HEAD_REG(NV_PRAMDAC_GENERAL_CONTROL, head),
		 NV_PRAMDAC_GENERAL_CONTROL_NV40 |
		 (fb->cpp == 2 ? NV_PRAMDAC_GENERAL_CONTROL_ALT_MODE_SEL : 0));
	nvd_wr32(d->card, NV_PRAMDAC_VPLL_COEFF(head), vpll);
	nvd_wr32(d->card, NV_PRAMDAC_VPLL_COEFF_B(head), 0);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_CONFIG, head), NV_PCRTC_CONFIG_START_ADDRESS_HSYNC);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_START, head), fb_start(fb, h->x, h->y));
	cr_wr(d, head, NV_CR17_MODE, cr[NV_CR17_MODE] | NV_CR17_SYNC_ENABLE);
	cr_wr(d, head, NV_CR1A_RPC1, cr[NV_CR1A_RPC1] & ~(NV_CR1A_HSYNC_OFF | NV_CR1A_VSYNC_OFF));
	/* mode_set_vga's SR01 comes blanked; unblanking (NVBlankScreen) is last */
	sr_wr(d, head, NV_SR01_CLOCK, NV_SR01_VALUE & ~NV_SR01_SCREEN_OFF);
}

/* The card's head number head, or NULL with why (-EINVAL for the caller);
 * with off, a head that shows nothing is refused too, off ending why. */
static struct nvd_head *head_get(struct nvd *d, uint32_t head, const char *off, char *why,
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

	mode_to_timing(&h->mode, &t);
	nv_crtc_timing_to_cr(&t, h->fb->pitch, cr);
	h->vtotal = t.vtotal;
	h->vbs = nv_crtc_vblank_start(cr);
	if (h->vbs >= t.vtotal)
		h->vbs = t.vtotal - 1;
	h->period_ns = khz ? (uint64_t)t.htotal * t.vtotal * 1000000u / khz : 0;
	h->vblank_ns = 0;
}

/* Bring the head's count up to now (a head that is on). */
static void vblank_sync(struct nvd *d, unsigned head)
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
static void vblank_irq(struct nvd *d, unsigned head)
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

static void event_send(struct nvd *d, struct nvd_client *cl, const struct nvd_disp_event *ev);

static void vblank_wait_send(struct nvd *d, unsigned head, struct nvd_vblank_wait *w)
{
	const struct nvd_head *h = &d->disp.head[head];
	struct nvd_disp_event ev = { NVD_DISP_EVENT_VBLANK, head, w->user_data, h->vblanks,
				     h->vblank_ns };
	event_send(d, w->cl, &ev);
	free(w);
}

/* Send the events whose vblank has come (the count is up to date). */
static void vblank_waits_due(struct nvd *d, unsigned head)
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
	vblank_sync(d, head);
	while (h->waits) {
		struct nvd_vblank_wait *w = h->waits;
		h->waits = w->next;
		vblank_wait_send(d, head, w);
	}
	vblank_irq(d, head);
}

/* A pending flip is dropped (a new mode, the head off): no event. */
static void flip_cancel(struct nvd *d, unsigned head)
{
	struct nvd_head *h = &d->disp.head[head];
	if (!h->flip_fb)
		return;
	nvd_bo_unpin(h->flip_fb->bo);
	h->flip_fb = NULL;
	h->flip_cl = NULL;
	vblank_irq(d, head);
}

/* The head leaves its framebuffer: the buffer may move again. */
static void head_release(struct nvd *d, unsigned head)
{
	struct nvd_head *h = &d->disp.head[head];
	flip_cancel(d, head);
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

static void head_off(struct nvd *d, unsigned head)
{
	vblank_waits_end(d, head);   /* counted while the CRTC still runs */
	head_hw_off(d, head);
	head_release(d, head);
}

/* ---- cursors (nouveau's nv04_cursor_* for NV40) ---- */

#define CURSOR_BYTES ((uint64_t)NVD_CURSOR_SIZE * NVD_CURSOR_SIZE * 4)
_Static_assert(NVD_CURSOR_AREA == NVD_DISP_HEADS * CURSOR_BYTES, "one cursor area");

/* NV40 takes cursor register changes at the next CU_START_POS write. */
static void cursor_kick(struct nvd *d, unsigned head)
{
	uint32_t reg = NV_HEAD_REG(NV_PRAMDAC_CU_START_POS, head);
	nvd_wr32(d->card, reg, nvd_rd32(d->card, reg));
}

static void cursor_hw_init(struct nvd *d, unsigned head)
{
	uint8_t cr2f, cr30, cr31 = cr_rd(d, head, NV_CR31_HCUR_ADDR1) & ~NV_CR31_ENABLE;
	nv_cr_cursor_addr_split((uint32_t)d->disp.cursor_addr[head], &cr2f, &cr30, &cr31);
	cr_wr(d, head, NV_CR2F_HCUR_ADDR2, cr2f);
	cr_wr(d, head, NV_CR30_HCUR_ADDR0, cr30);
	cr_wr(d, head, NV_CR31_HCUR_ADDR1, cr31);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_CURSOR_CONFIG, head), NV_PCRTC_CURSOR_CONFIG_NV40);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PRAMDAC_CU_START_POS, head), 0);
}

int nvd_disp_cursor_set(struct nvd_client *cl, uint32_t head, uint32_t handle, uint32_t offset,
			char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	if (d->master != cl) {
		snprintf(why, whylen, "only the master may set a cursor");
		return -EACCES;
	}
	if (!head_get(d, head, NULL, why, whylen))
		return -EINVAL;
	if (!d->disp.cursor_bytes) {
		snprintf(why, whylen, "this card has no cursor memory");
		return -ENODEV;
	}
	uint8_t cr31 = cr_rd(d, head, NV_CR31_HCUR_ADDR1);
	if (!handle) {
		cr_wr(d, head, NV_CR31_HCUR_ADDR1, cr31 & ~NV_CR31_ENABLE);
		cursor_kick(d, head);
		return 0;
	}
	struct nvd_bo *bo = nvd_bo_get(cl, handle);
	if (!bo) {
		snprintf(why, whylen, "no buffer %u", handle);
		return -ENOENT;
	}
	if (offset % 4 || offset > bo->size || CURSOR_BYTES > bo->size - offset) {
		snprintf(why, whylen, "a %ux%u cursor at offset %u leaves the %llu-byte buffer (or is "
			 "unaligned)", NVD_CURSOR_SIZE, NVD_CURSOR_SIZE, offset,
			 (unsigned long long)bo->size);
		return -EINVAL;
	}
	/* The copy nouveau makes, alpha nudged: the hardware misbehaves when
	 * alpha equals a premultiplied colour (nv11_cursor_upload). */
	const uint8_t *src = bo->map + offset;
	uint8_t *dst = d->card->vram + d->disp.cursor_addr[head];
	for (unsigned i = 0; i < CURSOR_BYTES; i += 4) {
		uint32_t px = nv_rd32le(src + i), a = px >> 24;
		if (a > 0 && a < 255)
			px = (px & 0x00ffffffu) | (a + 1) << 24;
		nv_wr32le(dst + i, px);
	}
	cr_wr(d, head, NV_CR31_HCUR_ADDR1, cr31 | NV_CR31_ENABLE);
	cursor_kick(d, head);
	return 0;
}

int nvd_disp_cursor_move(struct nvd_client *cl, uint32_t head, int32_t x, int32_t y, char *why,
			 size_t whylen)
{
	struct nvd *d = cl->d;
	if (d->master != cl) {
		snprintf(why, whylen, "only the master may move a cursor");
		return -EACCES;
	}
	if (!head_get(d, head, NULL, why, whylen))
		return -EINVAL;
	if (x < INT16_MIN || x > INT16_MAX || y < INT16_MIN || y > INT16_MAX) {
		snprintf(why, whylen, "cursor position (%d, %d) outside -32768..32767", x, y);
		return -EINVAL;
	}
	nvd_wr32(d->card, NV_HEAD_REG(NV_PRAMDAC_CU_START_POS, head),
		 NV_PRAMDAC_CU_START_POS_VAL(x, y));
	d->disp.scanout_gen++;
	return 0;
}

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
		ds->cursor_addr[i] = addr + (uint64_t)i * CURSOR_BYTES;
		head_unlock(d, i);
		head_hw_off(d, i);
		if (ds->cursor_bytes)
			cursor_hw_init(d, i);
	}
	for (unsigned i = 0; i < NVD_DISP_OUTPUTS; i++) {
		struct nvd_output *o = &ds->out[i];
		char why[128];
		snprintf(o->name, sizeof(o->name), "VGA-%u", i);
		if (ddc_read_edid(d, i, o->edid) < 0) {
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
			head_off(d, i);
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
		vblank_irq(d, i);
		if (h->flip_cl == cl)
			flip_cancel(d, i);
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

static struct nvd_fb *fb_get(struct nvd_client *cl, uint32_t id)
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
	struct nvd_fb *fb = fb_get(cl, id);
	if (!fb) {
		snprintf(why, whylen, "no framebuffer %u", id);
		return -ENOENT;
	}
	fb_destroy(cl->d, fb);
	return 0;
}

int nvd_disp_head(struct nvd_client *cl, uint32_t head, struct nvd_head_state *s, char *why,
		  size_t whylen)
{
	const struct nvd_head *h = head_get(cl->d, head, NULL, why, whylen);
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
	mode_to_timing(m, &t);
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

	if (d->master != cl) {
		snprintf(why, whylen, "only the master may set a head");
		return -EACCES;
	}
	struct nvd_head *h = head_get(d, head, NULL, why, whylen);
	if (!h)
		return -EINVAL;
	if (!s->fb) {
		if (h->fb)
			nvd_clog(cl, NULL, "head %u off", head);
		head_off(d, head);
		return 0;
	}
	struct nvd_fb *fb = fb_get(cl, s->fb);
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
	flip_cancel(d, head);
	vblank_sync(d, head);      /* the count goes on from here in the new mode */
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
	vblank_sync(d, head);
	nvd_clog(cl, NULL, "head %u: framebuffer %u (%ux%u) at (%u, %u), %ux%u@%u", head, fb->id,
		 fb->width, fb->height, s->x, s->y, s->mode.hdisplay, s->mode.vdisplay,
		 nvd_mode_hz(&s->mode));
	return 0;
}

/* ---- page flips and their events ---- */

int nvd_disp_events(struct nvd_client *cl, int *fd, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_disp_listener *l = NULL;
	int sv[2];

	for (l = d->disp.listeners; l && l->cl != cl; l = l->next)
		;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv) < 0) {
		snprintf(why, whylen, "socketpair: %s", strerror(errno));
		return -errno;
	}
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l) {
			close(sv[0]);
			close(sv[1]);
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
		l->cl = cl;
		l->next = d->disp.listeners;
		d->disp.listeners = l;
	} else {
		close(l->fd);   /* a new socket replaces the old one */
	}
	shutdown(sv[0], SHUT_RD);
	l->fd = sv[0];
	*fd = sv[1];
	return 0;
}

static void event_send(struct nvd *d, struct nvd_client *cl, const struct nvd_disp_event *ev)
{
	for (struct nvd_disp_listener *l = d->disp.listeners; l; l = l->next)
		if (l->cl == cl) {
			/* A client that does not read loses events, never stalls nvd
			 * (nor fills its log: the first drop and every 1024th). */
			if (send(l->fd, ev, sizeof(*ev), MSG_DONTWAIT | MSG_NOSIGNAL) < 0 &&
			    (++l->dropped == 1 || l->dropped % 1024 == 0))
				nvd_clog(cl, NULL, "display event dropped: %s (%lu so far)",
					 strerror(errno), l->dropped);
			return;
		}
}

int nvd_disp_page_flip(struct nvd_client *cl, uint32_t head, uint32_t id, uint64_t user_data,
		       char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	if (d->master != cl) {
		snprintf(why, whylen, "only the master may flip");
		return -EACCES;
	}
	struct nvd_head *h = head_get(d, head, ": set it first", why, whylen);
	if (!h)
		return -EINVAL;
	if (h->flip_fb) {
		snprintf(why, whylen, "head %u has a flip pending", head);
		return -EBUSY;
	}
	struct nvd_fb *fb = fb_get(cl, id);
	if (!fb) {
		snprintf(why, whylen, "no framebuffer %u", id);
		return -ENOENT;
	}
	if (fb->cpp != h->fb->cpp) {
		snprintf(why, whylen, "framebuffer %u has another pixel size than the one shown", id);
		return -EINVAL;
	}
	if ((uint64_t)h->x + h->mode.hdisplay > fb->width ||
	    (uint64_t)h->y + h->mode.vdisplay > fb->height ||
	    (((uint64_t)fb->offset + (uint64_t)h->y * fb->pitch + (uint64_t)h->x * fb->cpp) & 3)) {
		snprintf(why, whylen, "the %ux%u screen at (%u, %u) does not fit framebuffer %u",
			 h->mode.hdisplay, h->mode.vdisplay, h->x, h->y, id);
		return -EINVAL;
	}
	char how[NVD_REPLY_WHY];
	int r = nvd_bo_pin(d, fb->bo, NVD_DOMAIN_VRAM, how, sizeof(how));
	if (r < 0) {
		snprintf(why, whylen, "cannot move framebuffer %u to VRAM: %s", id, how);
		return r;
	}
	h->flip_fb = fb;
	h->flip_cl = cl;
	h->flip_data = user_data;
	/* The start address (and pitch) latch at the next vblank; its interrupt
	 * says the new picture is up. */
	if (fb->pitch != h->fb->pitch) {
		uint8_t cr[NV_CR_COUNT] = { 0 };
		struct nv_crtc_timing t;
		mode_to_timing(&h->mode, &t);
		nv_crtc_timing_to_cr(&t, fb->pitch, cr);
		cr_wr(d, head, NV_CR13_OFFSET, cr[NV_CR13_OFFSET]);
		cr_wr(d, head, NV_CR19_RPC0, cr[NV_CR19_RPC0]);
		cr_wr(d, head, NV_CR42, cr[NV_CR42]);
	}
	vblank_sync(d, head);      /* the interrupt cleared next may be theirs */
	vblank_waits_due(d, head);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_INTR_0, head), NV_PCRTC_INTR_0_VBLANK);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_START, head), fb_start(fb, h->x, h->y));
	d->disp.scanout_gen++;
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_INTR_EN_0, head), NV_PCRTC_INTR_EN_0_VBLANK);
	return 0;
}

int nvd_disp_vblank(struct nvd_client *cl, uint32_t head, uint64_t *sequence, uint64_t *time_ns,
		    char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_head *h = head_get(d, head, ": it counts no vblanks", why, whylen);
	if (!h)
		return -EINVAL;
	vblank_sync(d, head);
	vblank_waits_due(d, head);
	vblank_irq(d, head);
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

	if (d->master != cl) {
		snprintf(why, whylen, "only the master may wait for vblanks");
		return -EACCES;
	}
	if (rq->flags & ~(uint32_t)NVD_VBLANK_RELATIVE) {
		snprintf(why, whylen, "vblank flags 0x%x: only RELATIVE (0x%x) is known", rq->flags,
			 NVD_VBLANK_RELATIVE);
		return -EINVAL;
	}
	struct nvd_head *h = head_get(d, rq->head, ": it counts no vblanks", why, whylen);
	if (!h)
		return -EINVAL;
	vblank_sync(d, rq->head);
	vblank_waits_due(d, rq->head);
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
	vblank_irq(d, rq->head);
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
		vblank_sync(d, i);
		vblank_waits_due(d, i);
		if (!h->flip_fb) {
			vblank_irq(d, i);
			continue;
		}
		struct nvd_disp_event ev = { NVD_DISP_EVENT_FLIP, i, h->flip_data, h->vblanks,
					     h->vblank_ns };
		struct nvd_client *cl = h->flip_cl;
		/* the old framebuffer's pin goes, the new one's stays as the head's */
		h->fb->heads &= ~(1u << i);
		nvd_bo_unpin(h->fb->bo);
		h->fb = h->flip_fb;
		h->fb->heads |= 1u << i;
		h->flip_fb = NULL;
		h->flip_cl = NULL;
		vblank_irq(d, i);
		event_send(d, cl, &ev);
	}
}

/* ---- screenshots: what the registers say the head scans out ---- */

static uint32_t px_convert(const uint8_t *p, uint32_t cpp, int is565)
{
	if (cpp == 4)
		return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8, r, g, b;
	if (is565) {
		r = (v >> 11) & 31;
		g = (v >> 5) & 63;
		b = v & 31;
		g = g << 2 | g >> 4;
	} else {
		r = (v >> 10) & 31;
		g = (v >> 5) & 31;
		b = v & 31;
		g = g << 3 | g >> 2;
	}
	r = r << 3 | r >> 2;
	b = b << 3 | b >> 2;
	return r << 16 | g << 8 | b;
}

/* Premultiplied "over": out = cursor + screen * (1 - alpha), on the part
 * w x h at (x, y) of the picture that out holds (with stride pixels a row). */
static void cursor_blend(uint32_t *out, size_t stride, uint32_t x, uint32_t y, uint32_t w,
			 uint32_t h, const uint8_t *img, int cx, int cy)
{
	for (int j = 0; j < NVD_CURSOR_SIZE; j++) {
		int64_t py = (int64_t)cy + j - y;
		if (py < 0 || py >= h)
			continue;
		for (int i = 0; i < NVD_CURSOR_SIZE; i++) {
			int64_t px = (int64_t)cx + i - x;
			if (px < 0 || px >= w)
				continue;
			uint32_t *o = out + (size_t)py * stride + (size_t)px;
			uint32_t c = nv_rd32le(img + 4 * (j * NVD_CURSOR_SIZE + i)), a = c >> 24;
			uint32_t s = *o, v = 0;
			for (unsigned k = 0; k < 24; k += 8) {
				uint32_t ch = ((c >> k) & 255) + (((s >> k) & 255) * (255 - a) + 127) / 255;
				v |= (ch > 255 ? 255 : ch) << k;
			}
			*o = v;
		}
	}
}

int nvd_disp_scanout(struct nvd *d, uint32_t head, struct nvd_scanout *so, char *why,
		     size_t whylen)
{
	uint8_t cr[NV_CR_COUNT] = { 0 };
	struct nv_crtc_timing t;

	if (!head_get(d, head, NULL, why, whylen))
		return -EINVAL;
	if (!d->card->vram) {
		snprintf(why, whylen, "VRAM is not mapped");
		return -ENODEV;
	}
#define CR_READ_(idx) cr[idx] = cr_rd(d, head, idx);
	NV_CR_MODE_REGS(CR_READ_)
#undef CR_READ_
	cr[NV_CR28_PIXEL] = cr_rd(d, head, NV_CR28_PIXEL);
	uint8_t misc = nvd_rd08(d->card, NV_HEAD_REG(NV_PRMVIO_MISC_READ, head));
	uint8_t sr01 = sr_rd(d, head, NV_SR01_CLOCK);
	uint32_t config = nvd_rd32(d->card, NV_HEAD_REG(NV_PCRTC_CONFIG, head));
	uint32_t start = nvd_rd32(d->card, NV_HEAD_REG(NV_PCRTC_START, head)) & NV_PCRTC_START_MASK;
	uint32_t gc = nvd_rd32(d->card, NV_HEAD_REG(NV_PRAMDAC_GENERAL_CONTROL, head));
	nv_crtc_timing_from_cr(cr, misc, &t);
	uint32_t pitch = nv_crtc_pitch_from_cr(cr), cpp = nv_crtc_cpp_from_cr(cr);

	if ((config & NV_PCRTC_CONFIG_START_ADDRESS_MASK) == NV_PCRTC_CONFIG_START_ADDRESS_VGA ||
	    !(cr[NV_CR17_MODE] & NV_CR17_SYNC_ENABLE) ||
	    cr[NV_CR1A_RPC1] & (NV_CR1A_HSYNC_OFF | NV_CR1A_VSYNC_OFF) ||
	    sr01 & NV_SR01_SCREEN_OFF || !t.htotal || !t.vtotal) {
		snprintf(why, whylen, "head %u is off", head);
		return -ENODATA;
	}
	if (cpp < 2) {
		snprintf(why, whylen, "head %u scans out %s, not a framebuffer", head,
			 cpp ? "8-bit palettised pixels" : "VGA text");
		return -ENODATA;
	}
	uint64_t end = (uint64_t)start + (uint64_t)(t.vdisplay - 1) * pitch +
		       (uint64_t)t.hdisplay * cpp;
	if (!t.hdisplay || !t.vdisplay || end > d->card->vram_size) {
		snprintf(why, whylen, "head %u scans out past the end of VRAM", head);
		return -ENODATA;
	}
	*so = (struct nvd_scanout){ .width = t.hdisplay, .height = t.vdisplay, .start = start,
				    .pitch = pitch, .cpp = cpp,
				    .is565 = !!(gc & NV_PRAMDAC_GENERAL_CONTROL_ALT_MODE_SEL) };
	/* The cursor, from its registers: on, 64x64 32 bpp, premultiplied. */
	uint32_t ccfg = nvd_rd32(d->card, NV_HEAD_REG(NV_PCRTC_CURSOR_CONFIG, head));
	uint8_t c2f = cr_rd(d, head, NV_CR2F_HCUR_ADDR2), c30 = cr_rd(d, head, NV_CR30_HCUR_ADDR0);
	uint8_t c31 = cr_rd(d, head, NV_CR31_HCUR_ADDR1);
	uint32_t cpos = nvd_rd32(d->card, NV_HEAD_REG(NV_PRAMDAC_CU_START_POS, head));
	uint64_t caddr = nv_cr_cursor_addr(c2f, c30, c31);
	if ((ccfg & NV_PCRTC_CURSOR_CONFIG_ENABLE) && (c31 & NV_CR31_ENABLE) &&
	    (ccfg & NV_PCRTC_CURSOR_CONFIG_BPP_32) && (ccfg & NV_PCRTC_CURSOR_CONFIG_PIXELS_64) &&
	    (ccfg & NV_PCRTC_CURSOR_CONFIG_LINES_MASK) == NV_PCRTC_CURSOR_CONFIG_LINES_64 &&
	    !(ccfg & NV_PCRTC_CURSOR_CONFIG_BLEND_ALPHA) && caddr + CURSOR_BYTES <= d->card->vram_size) {
		so->cursor = 1;
		so->cursor_addr = caddr;
		so->cursor_x = NV_PRAMDAC_CU_START_POS_X(cpos);
		so->cursor_y = NV_PRAMDAC_CU_START_POS_Y(cpos);
	}
	return 0;
}

void nvd_disp_compose(struct nvd *d, const struct nvd_scanout *so, uint32_t x, uint32_t y,
		      uint32_t w, uint32_t h, uint32_t *out, size_t stride)
{
	for (uint32_t j = 0; j < h; j++) {
		const uint8_t *line = d->card->vram + so->start + (uint64_t)(y + j) * so->pitch +
				      (uint64_t)x * so->cpp;
		uint32_t *o = out + (size_t)j * stride;
		for (uint32_t i = 0; i < w; i++)
			o[i] = px_convert(line + (size_t)i * so->cpp, so->cpp, so->is565);
	}
	if (so->cursor)
		cursor_blend(out, stride, x, y, w, h, d->card->vram + so->cursor_addr, so->cursor_x,
			     so->cursor_y);
}

int nvd_disp_screenshot(struct nvd_client *cl, uint32_t head, uint32_t *w, uint32_t *hgt, int *fd,
			char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_scanout so;

	if (d->master != cl && cl->uid != geteuid() && cl->uid != 0) {
		snprintf(why, whylen, "only the master, root and nvd's user may take screenshots");
		return -EACCES;
	}
	int e = nvd_disp_scanout(d, head, &so, why, whylen);
	if (e < 0)
		return e;
	size_t bytes = (size_t)so.width * so.height * 4;
	int mfd = memfd_create("nvd-screenshot", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (mfd < 0 || ftruncate(mfd, (off_t)bytes) < 0) {
		snprintf(why, whylen, "memfd: %s", strerror(errno));
		if (mfd >= 0)
			close(mfd);
		return -ENOMEM;
	}
	uint32_t *out = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (out == MAP_FAILED) {
		snprintf(why, whylen, "mmap: %s", strerror(errno));
		close(mfd);
		return -ENOMEM;
	}
	nvd_disp_compose(d, &so, 0, 0, so.width, so.height, out, so.width);
	munmap(out, bytes);
	fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	*w = so.width;
	*hgt = so.height;
	*fd = mfd;
	return 0;
}
