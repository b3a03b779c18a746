/* The half of the 2D engines' shared helpers that reads the card: 2D
 * regions of memory through ctxdmas, and the ROP / PATTERN / CLIP state
 * objects an operation is connected to (see surface.h). */
#include "surface.h"

#include "3d/bands.h"

static uint8_t *sim_span_map1(struct sim *s, uint32_t dma, int64_t off, uint64_t len, int access)
{
	uint8_t *p = NULL;

	if (off < 0)
		return NULL;
	if (access & SIM_SPAN_W)
		p = sim_dma_map(s, dma, (uint64_t)off, len, 1);
	if (access & SIM_SPAN_R) {
		uint8_t *q = sim_dma_map(s, dma, (uint64_t)off, len, 0);
		if (!q || (p && p != q))
			return NULL;
		p = q;
	}
	return p;
}

static uint32_t sim_span_fault(int access)
{
	return access & SIM_SPAN_W ? NV_PGRAPH_NSOURCE_DMA_W_PROTECTION
				   : NV_PGRAPH_NSOURCE_DMA_R_PROTECTION;
}

uint32_t sim_span_map(struct sim_span *sp, struct sim *s, uint32_t dma, int64_t off,
		      int64_t pitch, uint64_t len, uint32_t rows, int access)
{
	int64_t last, lo;
	uint64_t span;
	uint8_t *p;

	*sp = (struct sim_span){ NULL, s, dma, off, pitch, len, access };
	if (!rows || !len || rows > SIM_SPAN_ROWS_MAX || pitch > SIM_SPAN_PITCH_MAX ||
	    pitch < -SIM_SPAN_PITCH_MAX || len > SIM_SPAN_LEN_MAX)
		return sim_span_fault(access);
	last = (int64_t)(rows - 1) * pitch;     /* < 2^48: no overflow below */
	lo = off + (last < 0 ? last : 0);
	span = (uint64_t)(last < 0 ? -last : last) + len;
	/* One mapping when the ctxdma is linear over the whole region (the
	 * usual case: VRAM or a linear GART window). */
	p = sim_span_map1(s, dma, lo, span, access);
	if (p) {
		sp->row0 = p + (off - lo);
		sim_3d_sync_touch(s, p, span);
		return 0;
	}
	/* Otherwise every row on its own (paged ctxdmas), all checked first. */
	for (uint32_t r = 0; r < rows; r++)
		if (!sim_span_map1(s, dma, off + (int64_t)r * pitch, len, access)) {
			/* report the direction that failed */
			if (access == SIM_SPAN_RW &&
			    sim_span_map1(s, dma, off + (int64_t)r * pitch, len, SIM_SPAN_W))
				return NV_PGRAPH_NSOURCE_DMA_R_PROTECTION;
			return sim_span_fault(access);
		}
	sim_3d_sync_touch(s, NULL, 0);     /* in pieces: it may */
	return 0;
}

uint32_t sim_span_acc(struct sim_span *sp, struct sim *s, const struct nv_acc_state *st,
		      const struct nv_acc *a)
{
	return sim_span_map(sp, s, st->t[a->table][a->dma], a->off, a->pitch, a->len, a->rows,
			    a->dir);
}

uint8_t *sim_span_row_slow(struct sim_span *sp, uint32_t r)
{
	return sim_span_map1(sp->s, sp->dma, sp->off + (int64_t)r * sp->pitch, sp->len, sp->access);
}

uint32_t sim_2d_op_setup(struct sim *s, const struct sim_grctx *g, struct sim_2d_op *op,
			 uint32_t operation, uint32_t rop_inst, uint32_t patt_inst, unsigned bpp)
{
	*op = (struct sim_2d_op){ .op = operation, .mask = sim_px_mask(bpp) };
	if (operation == NV_2D_OPERATION_SRCCOPY)
		return 0;
	if (operation != NV_2D_OPERATION_ROP_AND)
		return NV_PGRAPH_NSOURCE_STATE_INVALID;   /* blends: not modelled */
	if (!sim_obj_is(s, rop_inst, NV_CLASS_ROP))
		return NV_PGRAPH_NSOURCE_STATE_INVALID;
	op->rop = g->rop[NV_ROP_ROP__SLOT] & NV_ROP_MAX;
	if (sim_obj_is(s, patt_inst, NV_CLASS_PATT)) {
		if (g->patt[NV_PATT_PATTERN_SELECT__SLOT] == NV_PATT_SELECT_COLOR)
			return NV_PGRAPH_NSOURCE_STATE_INVALID;   /* colour patterns: not modelled */
		op->has_patt = 1;
		sim_patt_load(&op->patt, g->patt);
	}
	return 0;
}
