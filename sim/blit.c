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
	const struct sim_pixfmt *f;
	struct nv_rect r, c, all = NV_RECT_ALL;
	struct sim_2d_op op;
	struct sim_span src, dst;
	uint32_t pin, pout, err, spitch, dpitch, len;
	int64_t sx, sy;
	unsigned bpp;
	int back;

	(void)elem;
	if (mthd != NV_BLIT_SIZE)
		return;
	pin = st[NV_BLIT_POINT_IN__SLOT];
	pout = st[NV_BLIT_POINT_OUT__SLOT];
	r = (struct nv_rect){ nv_s16(NV_2D_LO16(pout)), nv_s16(NV_2D_HI16(pout)),
			       NV_2D_LO16(data), NV_2D_HI16(data) };
	if (!r.w || !r.h)
		return;

	if (!sim_obj_is(s, st[NV_BLIT_SURFACES__SLOT], NV_CLASS_SURF2D)) {
		sim_gr_trap(s, NV_PGRAPH_NSOURCE_STATE_INVALID);
		return;
	}
	f = sim_surf_fmt(sf[NV_SURF2D_FORMAT__SLOT]);
	if (!f) {
		sim_gr_trap(s, NV_PGRAPH_NSOURCE_DATA_ERROR);
		return;
	}
	bpp = f->bpp;
	err = sim_2d_op_setup(s, g, &op, st[NV_BLIT_OPERATION__SLOT], st[NV_BLIT_ROP__SLOT],
			      st[NV_BLIT_PATTERN__SLOT], bpp);
	if (err) {
		sim_gr_trap(s, err);
		return;
	}

	/* clip the destination; the source moves with it */
	sx = NV_2D_LO16(pin) - (int64_t)r.x;
	sy = NV_2D_HI16(pin) - (int64_t)r.y;
	c = sim_clip_rect(s, g, st[NV_BLIT_CLIP__SLOT]);
	nv_rect_clip(&r, &c);
	nv_rect_clip(&r, &all);
	if (!r.w || !r.h)
		return;
	sx += r.x;
	sy += r.y;

	spitch = NV_SURF2D_PITCH_SOURCE(sf[NV_SURF2D_PITCH__SLOT]);
	dpitch = NV_SURF2D_PITCH_DESTIN(sf[NV_SURF2D_PITCH__SLOT]);
	len = r.w * bpp;
	err = sim_span_map(&src, s, sf[NV_SURF2D_DMA_IMAGE_SOURCE__SLOT],
			   (int64_t)sf[NV_SURF2D_OFFSET_SOURCE__SLOT] + sy * spitch + sx * bpp,
			   spitch, len, r.h, SIM_SPAN_R);
	if (!err)
		err = sim_span_map(&dst, s, sf[NV_SURF2D_DMA_IMAGE_DESTIN__SLOT],
				   (int64_t)sf[NV_SURF2D_OFFSET_DESTIN__SLOT] + (int64_t)r.y * dpitch +
					   (int64_t)r.x * bpp,
				   dpitch, len, r.h,
				   op.op == NV_2D_OPERATION_SRCCOPY ? SIM_SPAN_W : SIM_SPAN_RW);
	if (err) {
		sim_gr_trap(s, err);
		return;
	}

	back = sim_span_row(&dst, 0) > sim_span_row(&src, 0);
	for (uint32_t n = 0; n < r.h; n++) {
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
