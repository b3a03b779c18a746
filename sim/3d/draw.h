/* The 3D engine's geometry and pixel pipeline: vertex fetch (constant
 * attributes, vertex buffers, inline vertices and indices), the vertex
 * program, primitive assembly, clipping, viewport, rasterisation, the
 * fragment program and the ROP (draw.c and the files it names). */
#ifndef NV_SIM_3D_DRAW_H
#define NV_SIM_3D_DRAW_H

#include <stdint.h>

#include "sim/priv.h"

/* VERTEX_BEGIN_END, VTX_ATTR_*, VB_VERTEX_BATCH, VB_INDEX_BATCH,
 * VB_ELEMENT_U16/U32, VERTEX_DATA: the method's data is already in its slot. */
void sim_draw_mthd(struct sim *s, struct sim_grctx *g, uint32_t mthd, unsigned elem,
		   uint32_t data);

#endif
