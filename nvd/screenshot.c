/* Screenshots: what the registers say a head scans out, composed from
 * VRAM as the monitor would see it, cursor included. */
#include "nvd/disp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

	if (!disp_head_get(d, head, NULL, why, whylen))
		return -EINVAL;
	if (!d->card->vram) {
		snprintf(why, whylen, "VRAM is not mapped");
		return -ENODEV;
	}
#define CR_READ_(idx) cr[idx] = disp_cr_rd(d, head, idx);
	NV_CR_MODE_REGS(CR_READ_)
#undef CR_READ_
	cr[NV_CR28_PIXEL] = disp_cr_rd(d, head, NV_CR28_PIXEL);
	uint8_t misc = nvd_rd08(d->card, NV_HEAD_REG(NV_PRMVIO_MISC_READ, head));
	uint8_t sr01 = disp_sr_rd(d, head, NV_SR01_CLOCK);
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
	uint8_t c2f = disp_cr_rd(d, head, NV_CR2F_HCUR_ADDR2), c30 = disp_cr_rd(d, head, NV_CR30_HCUR_ADDR0);
	uint8_t c31 = disp_cr_rd(d, head, NV_CR31_HCUR_ADDR1);
	uint32_t cpos = nvd_rd32(d->card, NV_HEAD_REG(NV_PRAMDAC_CU_START_POS, head));
	uint64_t caddr = nv_cr_cursor_addr(c2f, c30, c31);
	if ((ccfg & NV_PCRTC_CURSOR_CONFIG_ENABLE) && (c31 & NV_CR31_ENABLE) &&
	    (ccfg & NV_PCRTC_CURSOR_CONFIG_BPP_32) && (ccfg & NV_PCRTC_CURSOR_CONFIG_PIXELS_64) &&
	    (ccfg & NV_PCRTC_CURSOR_CONFIG_LINES_MASK) == NV_PCRTC_CURSOR_CONFIG_LINES_64 &&
	    !(ccfg & NV_PCRTC_CURSOR_CONFIG_BLEND_ALPHA) && caddr + DISP_CURSOR_BYTES <= d->card->vram_size) {
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
