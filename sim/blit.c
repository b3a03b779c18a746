/* NV15_IMAGE_BLIT: screen to screen copies, run when SIZE is written.
 *
 * W x H (SIZE W 15:0, H 31:16) pixels from POINT_IN (X 15:0, Y 31:16) of
 * the SURF2D source (DMA_IMAGE_SOURCE, OFFSET_SOURCE, PITCH 15:0) to
 * POINT_OUT (signed) of the destination (DMA_IMAGE_DESTIN, OFFSET_DESTIN,
 * PITCH 31:16), both in the SURF2D FORMAT.  The surface offsets are read
 * at SIZE, so each blit latches them (nouveau's large-copy split rewrites
 * OFFSET_DESTIN between blits).  A connected CLIP object clips the
 * destination.  SRCCOPY copies raw bits (alpha included); ROP_AND takes
 * S = the source pixel.  Overlap behaves like memmove: when the
 * destination starts after the source in memory, rows go bottom-up (and
 * pixels right to left), otherwise top-down, which is exact for any
 * overlap of two rectangles of one surface. */
#include "surface.h"

#include <string.h>

void sim_blit_mthd(struct sim *s, struct sim_grctx *g, uint32_t mthd, unsigned elem,
		   uint32_t data)
{
	const uint32_t *st = g->blit, *sf = g->surf2d;
	struct sim_2d_op op;
	struct sim_span src, dst;
	struct nv_acc_state view;
	struct nv_acc_list l;
	uint32_t err, len;
	unsigned bpp;
	int back;

	if (mthd != NV_BLIT_SIZE)
		return;
	sim_acc_view(s, g, &view);
	nv_acc_blit(&view, elem, data, &l);
	if (l.trap) {
		sim_gr_trap(s, sim_acc_nsource(l.trap));
		return;
	}
	if (l.n != 2)
		return;
	bpp = sim_surf_fmt(sf[NV_SURF2D_FORMAT__SLOT])->bpp;
	err = sim_2d_op_setup(s, g, &op, st[NV_BLIT_OPERATION__SLOT], st[NV_BLIT_ROP__SLOT],
			      st[NV_BLIT_PATTERN__SLOT], bpp);
	if (err) {
		sim_gr_trap(s, err);
		return;
	}

	/* the destination clipped, the source moving with it: the model's */
	struct nv_rect r = { l.a[1].x, l.a[1].y, (uint32_t)(l.a[1].len / bpp), l.a[1].rows };
	len = r.w * bpp;
	err = sim_span_acc(&src, s, &view, &l.a[0]);
	if (!err)
		err = sim_span_acc(&dst, s, &view, &l.a[1]);
	if (err) {
		sim_gr_trap(s, err);
		return;
	}

	back = sim_span_row(&dst, 0) > sim_span_row(&src, 0);
	for (uint32_t n = 0; n < r.h; n++) {
		if (n && sim_gr_preempted(s, 1))
			return;        /* a row is a piece: PGRAPH was reset meanwhile */
		uint32_t y = back ? r.h - 1 - n : n;
		const uint8_t *srow = sim_span_row(&src, y);
		uint8_t *drow = sim_span_row(&dst, y);

		if (!srow || !drow) {
			sim_gr_trap(s, !srow ? NV_PGRAPH_NSOURCE_DMA_R_PROTECTION
					     : NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
			return;
		}
		if (op.op == NV_2D_OPERATION_SRCCOPY) {
			memmove(drow, srow, len);
			continue;
		}
		for (uint32_t m = 0; m < r.w; m++) {
			uint32_t x = back ? r.w - 1 - m : m;
			uint8_t *p = drow + (size_t)x * bpp;
			uint32_t sv = sim_px_load(srow + (size_t)x * bpp, bpp);
			sim_px_store(p, bpp, sim_2d_apply(&op, (uint32_t)r.x + x, (uint32_t)r.y + y, sv,
							  sim_px_load(p, bpp)));
		}
	}
}
