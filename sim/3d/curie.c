/* NV40_3D 0x4097 / NV44_3D 0x4497 ("Curie"): what the 3D class does beyond
 * storing each method in its g->curie[] slot (pgraph.c has done that before
 * this runs).
 *
 *  - VP_UPLOAD_FROM_ID / VP_UPLOAD_INST: the slot the next instruction goes
 *    to; each complete 4-word instruction (element 3 written) is stored in
 *    program RAM and the slot advances.  VP_UPLOAD_CONST_ID /
 *    VP_UPLOAD_CONST: the same for constants, one vec4 per 4 words; a packet
 *    of 8 or 16 words from VP_UPLOAD_CONST(0) uploads 2 or 4 consecutive
 *    constants (the id advances per vec4; Mesa sends one id + one vec4).
 *    Uploads past the end of program or constant RAM are dropped: the
 *    address counter is taken to stop there (544 slots is no power of two
 *    to wrap at), and nothing is ever written out of bounds.
 *  - CLEAR_BUFFERS clears (clear.c); FENCE_VALUE, QUERY_RESET, QUERY_GET
 *    write fences and reports (query.c).
 *  - the vertex methods go to the pipeline (draw.c).
 *  - everything else is state only. */
#include "curie.h"

#include <string.h>

#include "draw.h"

/* Is mthd an element of row NAME of the table? */
#define CURIE_IN(NAME, m) \
	((m) >= NV_CURIE_##NAME && \
	 ((m) - NV_CURIE_##NAME) % NV_CURIE_##NAME##__STRIDE == 0 && \
	 ((m) - NV_CURIE_##NAME) / NV_CURIE_##NAME##__STRIDE <= \
		 (uint32_t)(NV_CURIE_##NAME##__SLOT_LAST - NV_CURIE_##NAME##__SLOT))

int sim_curie_is_draw(uint32_t m)
{
	return m == NV_CURIE_VERTEX_BEGIN_END || m == NV_CURIE_VB_VERTEX_BATCH ||
	       m == NV_CURIE_VB_INDEX_BATCH || m == NV_CURIE_VB_ELEMENT_U16 ||
	       m == NV_CURIE_VB_ELEMENT_U32 || m == NV_CURIE_VERTEX_DATA ||
	       CURIE_IN(VTX_ATTR_1F, m) || CURIE_IN(VTX_ATTR_2F, m) ||
	       CURIE_IN(VTX_ATTR_3F_X, m) || CURIE_IN(VTX_ATTR_3F_Y, m) ||
	       CURIE_IN(VTX_ATTR_3F_Z, m) || CURIE_IN(VTX_ATTR_4F, m) ||
	       CURIE_IN(VTX_ATTR_2I, m) || CURIE_IN(VTX_ATTR_4UB, m) ||
	       CURIE_IN(VTX_ATTR_3I_XY, m) || CURIE_IN(VTX_ATTR_3I_Z, m) ||
	       CURIE_IN(VTX_ATTR_4I_XY, m) || CURIE_IN(VTX_ATTR_4I_ZW, m);
}

static void curie_vp_inst(struct sim_grctx *g)
{
	struct sim_3d_state *c = &g->c3d;

	if (c->vp_upload_inst >= NV40_VP_INSNS)
		return;
	memcpy(c->vp_code[c->vp_upload_inst], &g->curie[NV_CURIE_VP_UPLOAD_INST__SLOT],
	       sizeof(c->vp_code[0]));
	c->vp_upload_inst++;
	c->vp_serial++;
}

static void curie_vp_const(struct sim_grctx *g, unsigned elem)
{
	struct sim_3d_state *c = &g->c3d;

	if (c->vp_upload_const >= NV40_VP_CONSTS)
		return;
	memcpy(c->vp_const[c->vp_upload_const], &g->curie[NV_CURIE_VP_UPLOAD_CONST__SLOT + elem - 3],
	       sizeof(c->vp_const[0]));
	c->vp_upload_const++;
}

/* The methods that start an operation with their data. */
static const struct {
	uint32_t mthd;
	void (*op)(struct sim *s, struct sim_grctx *g, uint32_t data);
} curie_ops[] = {
	{ NV_CURIE_CLEAR_BUFFERS, sim_3d_clear },
	{ NV_CURIE_FENCE_VALUE, sim_3d_fence },
	{ NV_CURIE_QUERY_RESET, sim_3d_query_reset },
	{ NV_CURIE_QUERY_GET, sim_3d_query_get },
};

int sim_curie_keeps_queue(uint32_t mthd)
{
	if (sim_curie_is_draw(mthd))
		return 1;
	if (mthd < NV_CURIE_DMA_NOTIFY)      /* the object, NOP, NOTIFY */
		return 0;
	for (size_t i = 0; i < sizeof(curie_ops) / sizeof(curie_ops[0]); i++)
		if (mthd == curie_ops[i].mthd)
			return 0;
	return 1;
}

void sim_curie_mthd(struct sim *s, struct sim_grctx *g, uint32_t mthd, unsigned elem,
		    uint32_t data)
{
	switch (mthd) {
	case NV_CURIE_VP_UPLOAD_FROM_ID:
		g->c3d.vp_upload_inst = data;
		return;
	case NV_CURIE_VP_UPLOAD_CONST_ID:
		g->c3d.vp_upload_const = data;
		return;
	}
	for (size_t i = 0; i < sizeof(curie_ops) / sizeof(curie_ops[0]); i++)
		if (mthd == curie_ops[i].mthd) {
			curie_ops[i].op(s, g, data);
			return;
		}
	if (CURIE_IN(VP_UPLOAD_INST, mthd)) {
		if (elem == 3)
			curie_vp_inst(g);
		return;
	}
	if (CURIE_IN(VP_UPLOAD_CONST, mthd)) {
		if (elem % 4 == 3)
			curie_vp_const(g, elem);
		return;
	}
	if (sim_curie_is_draw(mthd))
		sim_draw_mthd(s, g, mthd, elem, data);
}
