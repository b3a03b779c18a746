/* NV10_IFC: an image from the CPU, its pixels inline in the push buffer.
 *
 * Writing POINT, SIZE_OUT or SIZE_IN starts a new image (g->ifc_pixel = 0).
 * Each COLOR(i) word, whatever i, appends pixels to it: two 16-bit pixels
 * (R5G6B5 1, A1R5G5B5 2, X1R5G5B5 3; the first in bits 15:0) or one 32-bit
 * pixel (A8R8G8B8 4, X8R8G8B8 5) per word.  The image is SIZE_IN.w pixels
 * wide, filled row-major from (0, 0), continuous across word boundaries;
 * pixel (c, r) goes to POINT + (c, r) of the SURF2D destination only when
 * c < SIZE_OUT.w and r < SIZE_OUT.h (that clip drops the row padding the
 * DDX sends), and inside a connected CLIP object's rectangle.  Data past
 * SIZE_IN.w * SIZE_IN.h pixels is dropped.  Pixels convert to the surface
 * format (surface.h): A8R8G8B8 into A8R8G8B8 and R5G6B5 into R5G6B5 are raw
 * copies, which is how the DDX places GPU programs (PUSH_DATAu).  The
 * object's big-endian flag is not modelled: our push buffers are
 * little-endian on every host.  After a fault or an invalid state the rest
 * of the image is dropped (one trap per image, not one per word). */
#include "surface.h"

void sim_ifc_mthd(struct sim *s, struct sim_grctx *g, uint32_t mthd, unsigned elem,
		  uint32_t data)
{
	const uint32_t *st = g->ifc, *sf = g->surf2d;
	const struct sim_pixfmt *pf, *df;
	struct sim_2d_op op;
	struct nv_acc_state view;
	struct nv_acc_list l;
	struct sim_span px;
	uint32_t in, win, total, pt, err, npx;
	unsigned bpp;

	(void)elem;
	if (mthd == NV_IFC_POINT || mthd == NV_IFC_SIZE_OUT || mthd == NV_IFC_SIZE_IN) {
		g->ifc_pixel = 0;
		return;
	}
	if (mthd < NV_IFC_COLOR || mthd >= NV_IFC_COLOR + 1792 * NV_IFC_COLOR__STRIDE)
		return;
	in = st[NV_IFC_SIZE_IN__SLOT];
	win = NV_2D_LO16(in);
	total = win * NV_2D_HI16(in);
	if (g->ifc_pixel >= total)
		return;

	/* the pixels land in the model's region (POINT, SIZE_OUT, the clip) */
	sim_acc_view(s, g, &view);
	nv_acc_ifc(&view, elem, data, &l);
	err = l.trap ? sim_acc_nsource(l.trap) : 0;
	pf = sim_ifc_fmt(st[NV_IFC_COLOR_FORMAT__SLOT]);
	df = sim_surf_fmt(sf[NV_SURF2D_FORMAT__SLOT]);
	if (!err)
		err = sim_2d_op_setup(s, g, &op, st[NV_IFC_OPERATION__SLOT], st[NV_IFC_ROP__SLOT],
				      st[NV_IFC_PATTERN__SLOT], df->bpp);
	if (!err && l.n)
		err = sim_span_acc(&px, s, &view, &l.a[0]);
	if (err) {
		g->ifc_pixel = total;
		sim_gr_trap(s, err);
		return;
	}

	bpp = df->bpp;
	pt = st[NV_IFC_POINT__SLOT];
	struct nv_rect clip = { 0, 0, 0, 0 };
	if (l.n)
		clip = (struct nv_rect){ l.a[0].x, l.a[0].y, (uint32_t)(l.a[0].len / bpp), l.a[0].rows };
	npx = 4 / pf->bpp;

	for (uint32_t k = 0; k < npx && g->ifc_pixel < total; k++) {
		uint32_t n = g->ifc_pixel++;
		uint32_t raw = pf->bpp == 2 ? data >> (16 * k) & 0xffff : data;
		int64_t x = nv_s16(NV_2D_LO16(pt)) + (int64_t)(n % win);
		int64_t y = nv_s16(NV_2D_HI16(pt)) + (int64_t)(n / win);
		uint8_t *p;

		if (x < clip.x || x >= clip.x + (int64_t)clip.w ||
		    y < clip.y || y >= clip.y + (int64_t)clip.h)
			continue;
		p = sim_span_row(&px, (uint32_t)(y - clip.y));
		if (!p) {
			g->ifc_pixel = total;
			sim_gr_trap(s, NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
			return;
		}
		p += (size_t)(x - clip.x) * bpp;
		sim_px_store(p, bpp, sim_2d_apply(&op, (uint32_t)x, (uint32_t)y,
						  sim_px_convert(pf, df, raw), sim_px_load(p, bpp)));
	}
}
