/* NV40_SIFM (scaled image from memory): which output pixels one POINT
 * draws and which source texels they sample.  One source of truth for the
 * simulator (sim/sifm.c, which reads exactly this window) and the
 * validator (nvd/validate-2d.c, which checks exactly this window).
 *
 * Output: OUT_POINT / OUT_SIZE (X/W 15:0, Y/H 31:16, points signed)
 * clipped by CLIP_POINT / CLIP_SIZE (the same encoding), by the
 * coordinate range [0, 2^24), and for a swizzled destination by its
 * 2^lw x 2^lh texels.  Output pixel (OUT_POINT.x + i, OUT_POINT.y + j)
 * samples the source at POINT (U 15:0, V 31:16, signed 12.4) + i * DU_DX,
 * j * DV_DY (12.20), at the pixel's centre (+ 1/2 step) for the centre
 * origin and at its corner for the corner origin.  Positions are in
 * 2^-21 texel units (12.4 and 12.20 inputs and the half step are exact).
 * Point sampling takes the texel the position falls in, bilinear the one
 * after it too (the grid shifted by half a texel for the centre origin);
 * coordinates clamp to the SIZE image's edges; YUV formats read whole
 * pixel pairs. */
#ifndef NV_HW_SIFM_H
#define NV_HW_SIFM_H

#include <stdint.h>

/* beside this file, as installed in include/nvd/hw/ too */
#include "enums-2d.h"
#include "formats.h"
#include "rect.h"

#define NV_SIFM_POS_FRAC 21

/* Source position of output pixel i (0 = the OUT_POINT column/row). */
static inline int64_t nv_sifm_pos(int32_t start_12_4, int32_t step_12_20, int64_t i, int center)
{
	return (int64_t)start_12_4 * ((int64_t)1 << (NV_SIFM_POS_FRAC - 4)) +
	       (2 * i + (center ? 1 : 0)) * (int64_t)step_12_20;
}

/* Floor of a position to a texel index. */
static inline int64_t nv_sifm_floor(int64_t pos)
{
	return pos >= 0 ? pos >> NV_SIFM_POS_FRAC
			: -((-pos + ((int64_t)1 << NV_SIFM_POS_FRAC) - 1) >> NV_SIFM_POS_FRAC);
}

/* The texel range [*lo, *hi] one axis of n texels samples for output
 * pixels i0..i1. */
static inline void nv_sifm_axis(int32_t start, int32_t step, int64_t i0, int64_t i1, int center,
				int bilinear, uint32_t n, uint32_t *lo, uint32_t *hi)
{
	const int64_t half = bilinear && center ? (int64_t)1 << (NV_SIFM_POS_FRAC - 1) : 0;
	int64_t a = nv_sifm_floor(nv_sifm_pos(start, step, i0, center) - half);
	int64_t b = nv_sifm_floor(nv_sifm_pos(start, step, i1, center) - half);
	if (a > b) {
		int64_t t = a;
		a = b;
		b = t;
	}
	if (bilinear)
		b++;
	a = a < 0 ? 0 : a >= n ? n - 1 : a;
	b = b < 0 ? 0 : b >= n ? n - 1 : b;
	*lo = (uint32_t)a;
	*hi = (uint32_t)b;
}

/* What one POINT draws and samples. */
struct nv_sifm_window {
	struct nv_rect out;     /* OUT_POINT / OUT_SIZE as given */
	struct nv_rect r;       /* the pixels drawn */
	uint32_t ulo, uhi, vlo, vhi; /* the source texels they sample (inclusive) */
};

/* The SIFM state (method values) and POINT's data; swz: a swizzled
 * destination of 2^lw x 2^lh.  1 and *win when pixels are drawn, 0 when
 * none (then only win->out and win->r are set).  SIZE must be valid
 * (w, h > 0). */
static inline int nv_sifm_window(uint32_t size, uint32_t format, uint32_t color_format,
				 uint32_t out_point, uint32_t out_size, uint32_t clip_point,
				 uint32_t clip_size, uint32_t du_dx, uint32_t dv_dy, uint32_t point,
				 int swz, unsigned lw, unsigned lh, struct nv_sifm_window *win)
{
	struct nv_rect clip = { nv_s16(NV_2D_LO16(clip_point)),
				     nv_s16(NV_2D_HI16(clip_point)), NV_2D_LO16(clip_size),
				     NV_2D_HI16(clip_size) };
	struct nv_rect all = NV_RECT_ALL;
	int center = NV_SIFM_FORMAT_ORIGIN(format) == NV_SIFM_ORIGIN_CENTER;
	int bilinear = NV_SIFM_FORMAT_FILTER(format) == NV_SIFM_FILTER_BILINEAR;

	win->out = (struct nv_rect){ nv_s16(NV_2D_LO16(out_point)),
					  nv_s16(NV_2D_HI16(out_point)), NV_2D_LO16(out_size),
					  NV_2D_HI16(out_size) };
	win->r = win->out;
	nv_rect_clip(&win->r, &clip);
	nv_rect_clip(&win->r, &all);
	if (swz) {
		struct nv_rect surf = { 0, 0, 1u << lw, 1u << lh };
		nv_rect_clip(&win->r, &surf);
	}
	if (!win->r.w || !win->r.h)
		return 0;
	int64_t i0 = (int64_t)win->r.x - win->out.x, j0 = (int64_t)win->r.y - win->out.y;
	nv_sifm_axis(nv_s16(NV_2D_LO16(point)), (int32_t)du_dx, i0, i0 + win->r.w - 1, center,
		     bilinear, NV_2D_LO16(size), &win->ulo, &win->uhi);
	nv_sifm_axis(nv_s16(NV_2D_HI16(point)), (int32_t)dv_dy, j0, j0 + win->r.h - 1, center,
		     bilinear, NV_2D_HI16(size), &win->vlo, &win->vhi);
	if (color_format == NV_SIFM_COLOR_FORMAT_V8YB8U8YA8 ||
	    color_format == NV_SIFM_COLOR_FORMAT_YB8V8YA8U8) {
		win->ulo &= ~1u;                 /* whole pixel pairs */
		win->uhi |= 1u;
	}
	return 1;
}

#endif
