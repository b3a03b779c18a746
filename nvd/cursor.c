/* The heads' hardware cursors, as nouveau's nv04_cursor_* for NV40: the
 * images in nvd's own VRAM, set and moved by the master. */
#include "nvd/disp.h"

#include <errno.h>
#include <stdio.h>

/* NV40 takes cursor register changes at the next CU_START_POS write. */
static void cursor_kick(struct nvd *d, unsigned head)
{
	uint32_t reg = NV_HEAD_REG(NV_PRAMDAC_CU_START_POS, head);
	nvd_wr32(d->card, reg, nvd_rd32(d->card, reg));
}

void disp_cursor_init(struct nvd *d, unsigned head)
{
	uint8_t cr2f, cr30, cr31 = disp_cr_rd(d, head, NV_CR31_HCUR_ADDR1) & ~NV_CR31_ENABLE;
	nv_cr_cursor_addr_split((uint32_t)d->disp.cursor_addr[head], &cr2f, &cr30, &cr31);
	disp_cr_wr(d, head, NV_CR2F_HCUR_ADDR2, cr2f);
	disp_cr_wr(d, head, NV_CR30_HCUR_ADDR0, cr30);
	disp_cr_wr(d, head, NV_CR31_HCUR_ADDR1, cr31);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_CURSOR_CONFIG, head), NV_PCRTC_CURSOR_CONFIG_NV40);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PRAMDAC_CU_START_POS, head), 0);
}

int nvd_disp_cursor_set(struct nvd_client *cl, uint32_t head, uint32_t handle, uint32_t offset,
			char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	if (!disp_master(cl, "set a cursor", why, whylen))
		return -EACCES;
	if (!disp_head_get(d, head, NULL, why, whylen))
		return -EINVAL;
	if (!d->disp.cursor_bytes) {
		snprintf(why, whylen, "this card has no cursor memory");
		return -ENODEV;
	}
	uint8_t cr31 = disp_cr_rd(d, head, NV_CR31_HCUR_ADDR1);
	if (!handle) {
		disp_cr_wr(d, head, NV_CR31_HCUR_ADDR1, cr31 & ~NV_CR31_ENABLE);
		cursor_kick(d, head);
		return 0;
	}
	struct nvd_bo *bo = nvd_bo_get(cl, handle);
	if (!bo) {
		snprintf(why, whylen, "no buffer %u", handle);
		return -ENOENT;
	}
	if (offset % 4 || offset > bo->size || DISP_CURSOR_BYTES > bo->size - offset) {
		snprintf(why, whylen, "a %ux%u cursor at offset %u leaves the %llu-byte buffer (or is "
			 "unaligned)", NVD_CURSOR_SIZE, NVD_CURSOR_SIZE, offset,
			 (unsigned long long)bo->size);
		return -EINVAL;
	}
	/* The copy nouveau makes, alpha nudged: the hardware misbehaves when
	 * alpha equals a premultiplied colour (nv11_cursor_upload). */
	const uint8_t *src = bo->map + offset;
	uint8_t *dst = d->card->vram + d->disp.cursor_addr[head];
	for (unsigned i = 0; i < DISP_CURSOR_BYTES; i += 4) {
		uint32_t px = nv_rd32le(src + i), a = px >> 24;
		if (a > 0 && a < 255)
			px = (px & 0x00ffffffu) | (a + 1) << 24;
		nv_wr32le(dst + i, px);
	}
	disp_cr_wr(d, head, NV_CR31_HCUR_ADDR1, cr31 | NV_CR31_ENABLE);
	cursor_kick(d, head);
	return 0;
}

int nvd_disp_cursor_move(struct nvd_client *cl, uint32_t head, int32_t x, int32_t y, char *why,
			 size_t whylen)
{
	struct nvd *d = cl->d;
	if (!disp_master(cl, "move a cursor", why, whylen))
		return -EACCES;
	if (!disp_head_get(d, head, NULL, why, whylen))
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
