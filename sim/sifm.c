/* NV40_SIFM: scaled image from memory, run when POINT (0x40c) is written.
 *
 * Source: SIZE (w 15:0, even; h 31:16) texels at DMA_IMAGE + OFFSET, pitch
 * FORMAT 15:0, COLOR_FORMAT; FORMAT 23:16 origin (CENTER 1 / CORNER 2),
 * 31:24 filter (POINT_SAMPLE 0 / BILINEAR 1).  Destination: OUT_POINT /
 * OUT_SIZE (X/W 15:0, Y/H 31:16, points signed) clipped by CLIP_POINT /
 * CLIP_SIZE, in the surface the SURFACE object names: a SURF2D (linear:
 * DMA_IMAGE_DESTIN, OFFSET_DESTIN, PITCH 31:16, FORMAT) or a SWZSURF
 * (swizzled: DMA_IMAGE, OFFSET, FORMAT colour 15:0, log2 w 23:16, log2 h
 * 31:24; texel addresses from swizzle.c, pixels outside it clipped).
 *
 * Output pixel (OUT_POINT.x + i, OUT_POINT.y + j) samples the source at
 * POINT (U 15:0, V 31:16, 12.4) + i * DU_DX, j * DV_DY (12.20), taken at
 * the pixel's centre (+ 1/2 step) for the centre origin and at its corner
 * for the corner origin (surface.c: nv_sifm_pos, exact in 2^-21 texels).
 * Point sampling takes the texel the position falls in; bilinear is
 * sim_sifm_bilinear.  Coordinates clamp to the image's edges.  Mesa's
 * uploads (nv30_transfer_rect_sifm: centre origin, point sampling, POINT =
 * x0 << 4, steps of 1.0) and DirectFB's/nouveau's corner-origin copies
 * therefore fetch texel (x0 + i, y0 + j) exactly, and same-layout formats
 * (A8R8G8B8 -> A8R8G8B8, R5G6B5 -> R5G6B5, AY8 -> Y8) copy raw bits.
 * OPERATION SRCCOPY or ROP_AND (surface.h).  Only the texels the operation
 * samples are read, only the pixels it writes are written; either must be
 * inside its ctxdma (a fault does nothing), and the sampled source window
 * must be one contiguous mapping. */
#include "surface.h"
#include "swizzle.h"

#include <string.h>

/* The destination, linear or swizzled. */
struct sim_sifm_dst {
	const struct sim_pixfmt *fmt;
	int swz;
	unsigned lw, lh;
};

static uint32_t sim_sifm_dst_setup(struct sim *s, const struct sim_grctx *g,
				   struct sim_sifm_dst *d)
{
	uint32_t inst = g->sifm[NV_SIFM_SURFACE__SLOT];

	memset(d, 0, sizeof(*d));
	if (sim_obj_is(s, inst, NV_CLASS_SURF2D)) {
		d->fmt = sim_surf_fmt(g->surf2d[NV_SURF2D_FORMAT__SLOT]);
	} else if (sim_obj_is(s, inst, NV_CLASS_SWZSURF)) {
		uint32_t f = g->swzsurf[NV_SWZSURF_FORMAT__SLOT];
		d->fmt = sim_surf_fmt(NV_SWZSURF_FORMAT_COLOR(f));
		d->swz = 1;
		d->lw = NV_SWZSURF_FORMAT_LOG2W(f);
		d->lh = NV_SWZSURF_FORMAT_LOG2H(f);
		if (d->lw > NV_SWZSURF_LOG2_MAX || d->lh > NV_SWZSURF_LOG2_MAX)
			return NV_PGRAPH_NSOURCE_DATA_ERROR;
	} else {
		return NV_PGRAPH_NSOURCE_STATE_INVALID;
	}
	return d->fmt ? 0 : NV_PGRAPH_NSOURCE_DATA_ERROR;
}

/* A same-layout 1:1 copy into a swizzled surface, 16x16 texels at a time:
 * an aligned block's texels are contiguous in the surface, so the writes
 * stay in cache (row by row they would touch a new line every few texels).
 * src points at the source texel of r's first pixel. */
static void sim_sifm_swz_blocks(const uint8_t *src, int64_t pitch, uint8_t *dst,
				const struct nv_rect *r, unsigned lw, unsigned lh, unsigned bpp)
{
	enum { B = 16 };
	uint32_t rx = (uint32_t)r->x, ry = (uint32_t)r->y, rx1 = rx + r->w, ry1 = ry + r->h;
	for (uint32_t by = ry & ~(B - 1u); by < ry1; by += B)
		for (uint32_t bx = rx & ~(B - 1u); bx < rx1; bx += B) {
			uint32_t x0 = bx > rx ? bx : rx, x1 = bx + B < rx1 ? bx + B : rx1;
			uint32_t y0 = by > ry ? by : ry, y1 = by + B < ry1 ? by + B : ry1;
			for (uint32_t y = y0; y < y1; y++) {
				const uint8_t *sp = src + (int64_t)(y - ry) * pitch + (size_t)(x0 - rx) * bpp;
				struct sim_swz_row sw;
				sim_swz_row_init(&sw, x0, y, lw, lh);
				for (uint32_t x = x0; x < x1; x++, sp += bpp)
					memcpy(dst + (size_t)sim_swz_row_next(&sw) * bpp, sp, bpp);
			}
		}
}

void sim_sifm_mthd(struct sim *s, struct sim_grctx *g, uint32_t mthd, unsigned elem,
		   uint32_t data)
{
	const uint32_t *st = g->sifm;
	uint32_t size = st[NV_SIFM_SIZE__SLOT], fmt = st[NV_SIFM_FORMAT__SLOT];
	uint32_t w = NV_2D_LO16(size), h = NV_2D_HI16(size), spitch = NV_SIFM_FORMAT_PITCH(fmt);
	uint32_t origin = NV_SIFM_FORMAT_ORIGIN(fmt), filter = NV_SIFM_FORMAT_FILTER(fmt);
	uint32_t op_pt = st[NV_SIFM_OUT_POINT__SLOT], op_sz = st[NV_SIFM_OUT_SIZE__SLOT];
	uint32_t cl_pt = st[NV_SIFM_CLIP_POINT__SLOT], cl_sz = st[NV_SIFM_CLIP_SIZE__SLOT];
	int32_t u0 = nv_s16(NV_2D_LO16(data)), v0 = nv_s16(NV_2D_HI16(data));
	int32_t du = (int32_t)st[NV_SIFM_DU_DX__SLOT], dv = (int32_t)st[NV_SIFM_DV_DY__SLOT];
	const struct sim_pixfmt *sfmt = sim_sifm_fmt(st[NV_SIFM_COLOR_FORMAT__SLOT]);
	struct nv_rect out, r;
	struct sim_sifm_dst d;
	struct sim_sifm_src src;
	struct sim_span sspan, dspan;
	struct sim_2d_op op;
	uint32_t err, ulo, vlo, bpp;
	int center, bilinear, raw, yuv, fast;

	if (mthd != NV_SIFM_POINT)
		return;
	if (!sfmt || !w || !h || (w & 1) || w > NV_SIFM_SIZE_MAX || h > NV_SIFM_SIZE_MAX ||
	    (origin != NV_SIFM_ORIGIN_CENTER && origin != NV_SIFM_ORIGIN_CORNER) ||
	    filter > NV_SIFM_FILTER_BILINEAR) {
		sim_gr_trap(s, NV_PGRAPH_NSOURCE_DATA_ERROR);
		return;
	}
	err = sim_sifm_dst_setup(s, g, &d);
	if (!err)
		err = sim_2d_op_setup(s, g, &op, st[NV_SIFM_OPERATION__SLOT], st[NV_SIFM_ROP__SLOT],
				      st[NV_SIFM_PATTERN__SLOT], d.fmt->bpp);
	if (err) {
		sim_gr_trap(s, err);
		return;
	}
	bpp = d.fmt->bpp;
	center = origin == NV_SIFM_ORIGIN_CENTER;
	bilinear = filter == NV_SIFM_FILTER_BILINEAR;
	yuv = sfmt->layout == SIM_LY_YUY2 || sfmt->layout == SIM_LY_UYVY;
	raw = !bilinear && !yuv && sfmt->layout == d.fmt->layout;
	fast = raw && du == 1 << NV_SIFM_DXDY_FRAC_BITS && op.op == NV_2D_OPERATION_SRCCOPY;

	/* the pixels drawn and the source window they sample (hw/sifm.h,
	 * which the validator checks too) */
	struct nv_sifm_window win;
	if (!nv_sifm_window(size, fmt, st[NV_SIFM_COLOR_FORMAT__SLOT], op_pt, op_sz, cl_pt, cl_sz,
			    (uint32_t)du, (uint32_t)dv, data, d.swz, d.lw, d.lh, &win))
		return;
	out = win.out;
	r = win.r;
	ulo = win.ulo;
	vlo = win.vlo;
	int64_t i0 = (int64_t)r.x - out.x, j0 = (int64_t)r.y - out.y;
	/* what it reads and writes: the model's regions (the source window;
	 * the destination rectangle, or a swizzled surface whole) */
	struct nv_acc_state view;
	struct nv_acc_list l;
	sim_acc_view(s, g, &view);
	nv_acc_sifm(&view, elem, data, &l);
	err = l.trap ? sim_acc_nsource(l.trap) : l.n != 2 ? NV_PGRAPH_NSOURCE_DATA_ERROR : 0;
	if (!err)
		err = sim_span_acc(&sspan, s, &view, &l.a[0]);
	if (!err && !sspan.row0)
		err = NV_PGRAPH_NSOURCE_DMA_R_PROTECTION;
	if (!err)
		err = sim_span_acc(&dspan, s, &view, &l.a[1]);
	if (!err && d.swz && !dspan.row0)
		err = NV_PGRAPH_NSOURCE_DMA_W_PROTECTION;
	if (err) {
		sim_gr_trap(s, err);
		return;
	}
	src = (struct sim_sifm_src){ sspan.row0, spitch, sfmt, w, h, ulo, vlo };

	if (fast && d.swz && dv == du) {   /* the whole rectangle 1:1 from inside the source */
		int64_t us = nv_sifm_floor(nv_sifm_pos(u0, du, i0, center));
		int64_t vs = nv_sifm_floor(nv_sifm_pos(v0, dv, j0, center));
		if (us >= 0 && us + r.w <= w && vs >= 0 && vs + r.h <= h) {
			sim_sifm_swz_blocks(src.base + (vs - vlo) * src.pitch + (us - ulo) * bpp,
					    src.pitch, dspan.row0, &r, d.lw, d.lh, bpp);
			return;
		}
	}
	for (uint32_t y = 0; y < r.h; y++) {
		if (y && sim_gr_preempted(s, 1))
			return;        /* a row is a piece: PGRAPH was reset meanwhile */
		int64_t j = j0 + y, sv = nv_sifm_pos(v0, dv, j, center), tv = nv_sifm_floor(sv);
		uint32_t ay = (uint32_t)r.y + y;
		uint8_t *drow = d.swz ? dspan.row0 : sim_span_row(&dspan, y);

		if (!drow) {
			sim_gr_trap(s, NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
			return;
		}
		if (fast) {   /* a 1:1 row copy without clamping */
			int64_t us = nv_sifm_floor(nv_sifm_pos(u0, du, i0, center));
			if (us >= 0 && us + r.w <= w && tv >= 0 && tv < h) {
				const uint8_t *srow = src.base + (tv - vlo) * src.pitch +
						      (us - ulo) * bpp;
				if (!d.swz) {
					memmove(drow, srow, (size_t)r.w * bpp);
					continue;
				}
				/* same layout: the bytes move as they are */
				struct sim_swz_row sw;
				sim_swz_row_init(&sw, (uint32_t)r.x, ay, d.lw, d.lh);
				for (uint32_t x = 0; x < r.w; x++)
					memcpy(drow + (size_t)sim_swz_row_next(&sw) * bpp,
					       srow + (size_t)x * bpp, bpp);
				continue;
			}
		}
		for (uint32_t x = 0; x < r.w; x++) {
			int64_t su = nv_sifm_pos(u0, du, i0 + x, center);
			uint32_t ax = (uint32_t)r.x + x, v;
			uint8_t *p = d.swz ? drow + (size_t)sim_swz_index(ax, ay, d.lw, d.lh) * bpp
					   : drow + (size_t)x * bpp;

			if (raw)
				v = sim_sifm_texel_raw(&src, nv_sifm_floor(su), tv) & op.mask;
			else if (bilinear)
				v = sim_px_encode(d.fmt, sim_sifm_bilinear(&src, su, sv, center));
			else
				v = sim_px_encode(d.fmt, sim_sifm_texel(&src, nv_sifm_floor(su), tv));
			if (op.op != NV_2D_OPERATION_SRCCOPY)
				v = sim_2d_apply(&op, ax, ay, v, sim_px_load(p, bpp));
			sim_px_store(p, bpp, v);
		}
	}
}
