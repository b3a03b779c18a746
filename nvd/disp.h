/* What the display's rooms (display.c, crtc.c, cursor.c, ddc.c, flip.c,
 * screenshot.c) share among themselves; the rest of nvd sees display.h. */
#ifndef NVD_DISP_H
#define NVD_DISP_H

#include "nvd/nvd.h"

#include <stdio.h>

#include "hw/display.h"

#define DISP_CURSOR_BYTES ((uint64_t)NVD_CURSOR_SIZE * NVD_CURSOR_SIZE * 4)
_Static_assert(NVD_CURSOR_AREA == NVD_DISP_HEADS * DISP_CURSOR_BYTES, "one cursor area");

/* The VGA CR and SR registers of a head, through its index port. */
static inline uint8_t disp_cr_rd(struct nvd *d, unsigned head, uint8_t idx)
{
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMCIO_CRX, head), idx);
	return nvd_rd08(d->card, NV_HEAD_REG(NV_PRMCIO_CR, head));
}

static inline void disp_cr_wr(struct nvd *d, unsigned head, uint8_t idx, uint8_t v)
{
	d->disp.scanout_gen++;
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMCIO_CRX, head), idx);
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMCIO_CR, head), v);
}

static inline uint8_t disp_sr_rd(struct nvd *d, unsigned head, uint8_t idx)
{
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMVIO_SRX, head), idx);
	return nvd_rd08(d->card, NV_HEAD_REG(NV_PRMVIO_SR, head));
}

static inline void disp_sr_wr(struct nvd *d, unsigned head, uint8_t idx, uint8_t v)
{
	d->disp.scanout_gen++;
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMVIO_SRX, head), idx);
	nvd_wr08(d->card, NV_HEAD_REG(NV_PRMVIO_SR, head), v);
}

/* Whether cl is the display master; if not, why says it may not do what
 * (the caller returns -EACCES). */
static inline int disp_master(struct nvd_client *cl, const char *what, char *why, size_t whylen)
{
	if (cl->d->master == cl)
		return 1;
	snprintf(why, whylen, "only the master may %s", what);
	return 0;
}

/* ddc.c: the 128-byte EDID of the monitor on DDC bus `bus`; -ENODEV when
 * nothing answers. */
int disp_ddc_read_edid(struct nvd *d, unsigned bus, uint8_t *edid);

/* crtc.c */
void disp_head_unlock(struct nvd *d, unsigned head);
void disp_head_hw_off(struct nvd *d, unsigned head);
void disp_head_off(struct nvd *d, unsigned head);
void disp_mode_timing(const struct nvd_mode *m, struct nv_crtc_timing *t);
uint32_t disp_fb_start(const struct nvd_fb *fb, uint32_t x, uint32_t y);
struct nvd_head *disp_head_get(struct nvd *d, uint32_t head, const char *off, char *why,
			       size_t whylen);
void disp_vblank_sync(struct nvd *d, unsigned head);
void disp_vblank_waits_due(struct nvd *d, unsigned head);
void disp_vblank_irq(struct nvd *d, unsigned head);

/* cursor.c: a head's cursor registers pointed at its image in nvd's VRAM. */
void disp_cursor_init(struct nvd *d, unsigned head);

/* display.c: client cl's framebuffer id, or NULL. */
struct nvd_fb *disp_fb_get(struct nvd_client *cl, uint32_t id);

/* flip.c */
void disp_flip_cancel(struct nvd *d, unsigned head);
void disp_flip_done(struct nvd *d, unsigned head);
void disp_event_send(struct nvd *d, struct nvd_client *cl, const struct nvd_disp_event *ev);

#endif
