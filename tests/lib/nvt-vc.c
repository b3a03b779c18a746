#include "tests/lib/nvt-vc.h"

#include <string.h>

#include "hw/enums-2d.h"
#include "hw/formats.h"

int nvt_vc_open(struct nvt_vc *x, const char *sock, const char *name, unsigned index)
{
	static const struct { unsigned bpp, fmt, color; } f[3] = {
		{ 2, NV_SURF_FORMAT_R5G6B5, NV_GDI_COLOR_FORMAT_A16R5G6B5 },
		{ 4, NV_SURF_FORMAT_Y32, NV_GDI_COLOR_FORMAT_A8R8G8B8 },
		{ 1, NV_SURF_FORMAT_Y8, NV_GDI_COLOR_FORMAT_A8R8G8B8 },
	};
	unsigned k = index % 3, w = 40 + index % 7 * 8, h = 24 + index % 5 * 4;
	uint32_t pitch = (w * f[k].bpp + 63) & ~63u;
	int r;

	memset(x, 0, sizeof(*x));
	if ((r = nvc_connect(sock, name, &x->c)) < 0 || (r = nvc_chan_new(x->c, &x->ch)) < 0 ||
	    (r = nvt_chan_objects(x->ch)) < 0 || (r = nvt_push_init(&x->p, x->c, x->ch, 64u << 10)) < 0 ||
	    (r = nvt_buf_new(x->c, (uint64_t)pitch * h, NVC_VRAM, index, &x->buf)) < 0)
		return r;
	x->s = (struct nvt_surf){ &x->buf, 0, pitch, w, h, f[k].fmt, f[k].bpp };
	x->rng = index * 7919u + 1;
	nvt_bind_standard(&x->p);
	nvt_surf2d(&x->p, &x->s, &x->s);
	nvt_mthd(&x->p, NVT_SUBC_GDI, NV_GDI_COLOR_FORMAT, f[k].color);
	return 0;
}

int nvt_vc_draw(struct nvt_vc *x, unsigned n)
{
	struct nvt_push *p = &x->p;
	struct nvt_surf *s = &x->s;

	nvt_ref(p, x->buf.bo, NVC_READ | NVC_WRITE);
	for (unsigned i = 0; i < n; i++) {
		uint32_t r[4];
		nvt_fill_rand(p, s, &x->rng, s->w / 2, s->h / 2, r);
		uint32_t dx = nvt_range(&x->rng, 0, s->w - r[2]), dy = nvt_range(&x->rng, 0, s->h - r[3]);
		nvt_blit(p, s, s, r[0], r[1], dx, dy, r[2], r[3]);
	}
	return nvt_submit(p, NULL);
}
