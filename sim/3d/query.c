/* Fences and query reports of the 3D class.
 *
 * FENCE_VALUE writes its value (u32, little-endian) into DMA_FENCE at
 * FENCE_OFFSET; Mesa polls the mapped notifier for it.  Everything before it
 * has completed by then: the model executes methods in order.
 *
 * QUERY_GET (report << 24 | offset) writes 16 bytes into DMA_QUERY at
 * offset: u64 PTIMER ns, u32 value, u32 status 0.  Report 1 (occlusion) is
 * the samples passed since QUERY_RESET(1), counted by the ROP while
 * QUERY_ENABLE is set; the zcull reports (2-5) read 0, as the model has no
 * zcull.  Mesa presets the status word to 0x01000000 and spins until its top
 * byte clears, so status is written last.  A target outside its ctxdma traps
 * DMA_W_PROTECTION and writes nothing. */
#include "curie.h"

#include "hw/enums-3d.h"

/* Where the model says a report or a fence lands. */
static uint8_t *query_map(struct sim *s, struct sim_grctx *g, nv_acc_fn *fn, uint32_t data)
{
	struct nv_acc_state view;
	struct nv_acc_list l;
	sim_acc_view(s, g, &view);
	fn(&view, 0, data, &l);
	return l.n == 1 ? sim_dma_map(s, g->curie[l.a[0].dma], (uint64_t)l.a[0].off, l.a[0].len, 1)
			: NULL;
}

void sim_3d_fence(struct sim *s, struct sim_grctx *g, uint32_t value)
{
	uint8_t *p = query_map(s, g, nv40_acc_fence, value);
	if (!p) {
		sim_gr_trap(s, NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
		return;
	}
	nv_wr32le(p, value);
}

void sim_3d_query_reset(struct sim *s, struct sim_grctx *g, uint32_t report)
{
	(void)s;
	if (report == NV40_QUERY_REPORT_SAMPLES)
		g->c3d.query_samples = 0;
}

void sim_3d_query_get(struct sim *s, struct sim_grctx *g, uint32_t data)
{
	uint8_t *p = query_map(s, g, nv40_acc_query, data);
	if (!p) {
		sim_gr_trap(s, NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
		return;
	}
	uint64_t ns = sim_ptimer_ns(s);
	uint32_t value = NV40_QUERY_GET_REPORT(data) == NV40_QUERY_REPORT_SAMPLES ?
			 g->c3d.query_samples : 0;
	nv_wr32le(p, (uint32_t)ns);
	nv_wr32le(p + 4, (uint32_t)(ns >> 32));
	nv_wr32le(p + 8, value);
	nv_wr32le(p + 12, 0);
}
