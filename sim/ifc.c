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
	struct nv_rect clip, all = NV_RECT_ALL, out;
	struct sim_2d_op op;
	uint32_t in, win, total, pt, err, pitch, npx;
	int access;
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

	err = 0;
	pf = sim_ifc_fmt(st[NV_IFC_COLOR_FORMAT__SLOT]);
	df = sim_surf_fmt(sf[NV_SURF2D_FORMAT__SLOT]);
	if (!sim_obj_is(s, st[NV_IFC_SURFACE__SLOT], NV_CLASS_SURF2D))
		err = NV_PGRAPH_NSOURCE_STATE_INVALID;
	else if (!pf || !df)
		err = NV_PGRAPH_NSOURCE_DATA_ERROR;
	else
		err = sim_2d_op_setup(s, g, &op, st[NV_IFC_OPERATION__SLOT], st[NV_IFC_ROP__SLOT],
				      st[NV_IFC_PATTERN__SLOT], df->bpp);
	if (err) {
		g->ifc_pixel = total;
		sim_gr_trap(s, err);
		return;
	}

	bpp = df->bpp;
	pt = st[NV_IFC_POINT__SLOT];
	out = (struct nv_rect){ nv_s16(NV_2D_LO16(pt)), nv_s16(NV_2D_HI16(pt)),
				 NV_2D_LO16(st[NV_IFC_SIZE_OUT__SLOT]),
				 NV_2D_HI16(st[NV_IFC_SIZE_OUT__SLOT]) };
	clip = sim_clip_rect(s, g, st[NV_IFC_CLIP__SLOT]);
	nv_rect_clip(&clip, &all);
	nv_rect_clip(&clip, &out);
	pitch = NV_SURF2D_PITCH_DESTIN(sf[NV_SURF2D_PITCH__SLOT]);
	access = op.op == NV_2D_OPERATION_SRCCOPY ? SIM_SPAN_W : SIM_SPAN_RW;
	npx = 4 / pf->bpp;

	for (uint32_t k = 0; k < npx && g->ifc_pixel < total; k++) {
		uint32_t n = g->ifc_pixel++;
		uint32_t raw = pf->bpp == 2 ? data >> (16 * k) & 0xffff : data;
		int64_t x = out.x + (int64_t)(n % win), y = out.y + (int64_t)(n / win);
		struct sim_span px;
		uint8_t *p;

		if (x < clip.x || x >= clip.x + (int64_t)clip.w ||
		    y < clip.y || y >= clip.y + (int64_t)clip.h)
			continue;
		err = sim_span_map(&px, s, sf[NV_SURF2D_DMA_IMAGE_DESTIN__SLOT],
				   (int64_t)sf[NV_SURF2D_OFFSET_DESTIN__SLOT] + y * pitch + x * bpp,
				   0, bpp, 1, access);
		p = err ? NULL : sim_span_row(&px, 0);
		if (!p) {
			g->ifc_pixel = total;
			sim_gr_trap(s, err ? err : NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
			return;
		}
		sim_px_store(p, bpp, sim_2d_apply(&op, (uint32_t)x, (uint32_t)y,
						  sim_px_convert(pf, df, raw), sim_px_load(p, bpp)));
	}
}
