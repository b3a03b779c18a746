/* NV04_GDI_RECTANGLE_TEXT: solid rectangles, drawn when
 * UNCLIPPED_RECTANGLE_SIZE(i) is written.
 *
 * Rectangle i: POINT(i) X 31:16, Y 15:0 (signed), SIZE(i) W 31:16, H 15:0,
 * in the SURF2D destination (DMA_IMAGE_DESTIN, OFFSET_DESTIN, PITCH 31:16,
 * FORMAT) of the SURFACE object.  The colour is COLOR1_A read in
 * COLOR_FORMAT and converted to the surface format (surface.h); OPERATION
 * SRCCOPY writes it, ROP_AND combines it as S with the pattern (P) and the
 * destination (D).  The pairs nouveau uses (Y32 + A8R8G8B8, R5G6B5 +
 * A16R5G6B5, X1R5G5B5_Z1R5G5B5 + X16A1R5G5B5, Y8 + any) are same-layout or
 * index copies: the colour's low bits unchanged.  Into an A8R8G8B8 surface
 * the hardware forces alpha to 0xff (nouveau nv04_exa.c: "the alpha channel
 * gets forced to 0xFF for some reason", hence its Y32 workaround); so does
 * the simulator. */
#include "surface.h"

#include <string.h>

void sim_gdi_mthd(struct sim *s, struct sim_grctx *g, uint32_t mthd, unsigned elem,
		  uint32_t data)
{
	const uint32_t *st = g->gdi, *sf = g->surf2d;
	const struct sim_pixfmt *df, *cf;
	struct sim_2d_op op;
	struct sim_span dst;
	struct nv_acc_state view;
	struct nv_acc_list l;
	uint32_t err, color, len;
	unsigned bpp;

	if (elem >= 32 ||
	    mthd != NV_GDI_UNCLIPPED_RECTANGLE_SIZE + elem * NV_GDI_UNCLIPPED_RECTANGLE_SIZE__STRIDE)
		return;
	sim_acc_view(s, g, &view);
	nv_acc_gdi(&view, elem, data, &l);
	if (l.trap) {
		sim_gr_trap(s, sim_acc_nsource(l.trap));
		return;
	}
	if (!l.n)
		return;
	df = sim_surf_fmt(sf[NV_SURF2D_FORMAT__SLOT]);
	cf = sim_gdi_fmt(st[NV_GDI_COLOR_FORMAT__SLOT]);
	bpp = df->bpp;
	err = sim_2d_op_setup(s, g, &op, st[NV_GDI_OPERATION__SLOT], st[NV_GDI_ROP__SLOT],
			      st[NV_GDI_PATTERN__SLOT], bpp);
	if (err) {
		sim_gr_trap(s, err);
		return;
	}
	color = sim_px_convert(cf, df, st[NV_GDI_COLOR1_A__SLOT]);
	if (df->layout == SIM_LY_8888 && df->xbits == SIM_X_ALPHA)
		color |= 0xff000000u;

	/* the rectangle, clipped: the model's region */
	const struct nv_acc *a = &l.a[0];
	struct nv_rect r = { a->x, a->y, (uint32_t)(a->len / bpp), a->rows };
	len = r.w * bpp;
	err = sim_span_acc(&dst, s, &view, a);
	if (err) {
		sim_gr_trap(s, err);
		return;
	}

	for (uint32_t y = 0; y < r.h; y++) {
		if (y && sim_gr_preempted(s, 1))
			return;        /* a row is a piece: PGRAPH was reset meanwhile */
		uint8_t *row = sim_span_row(&dst, y);
		if (!row) {
			sim_gr_trap(s, NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
			return;
		}
		if (op.op == NV_2D_OPERATION_SRCCOPY) {
			/* rows after the first are copies of it (memmove: a
			 * pitch below the row length overlaps them) */
			if (y && dst.row0)
				memmove(row, dst.row0, len);
			else
				sim_px_fill(row, bpp, color, r.w);
			continue;
		}
		for (uint32_t x = 0; x < r.w; x++) {
			uint8_t *p = row + (size_t)x * bpp;
			sim_px_store(p, bpp, sim_2d_apply(&op, (uint32_t)r.x + x, (uint32_t)r.y + y,
							  color, sim_px_load(p, bpp)));
		}
	}
}
