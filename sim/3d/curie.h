/* The 3D class's method handler (curie.c) and the operations it starts:
 * clears (clear.c), fences and query reports (query.c). */
#ifndef NV_SIM_3D_CURIE_H
#define NV_SIM_3D_CURIE_H

#include <stdint.h>

#include "sim/priv.h"

/* NV40_3D 0x4097 / NV44_3D 0x4497, for pgraph.c's class table. */
sim_mthd_fn sim_curie_mthd;
/* 1 when mthd goes to the pipeline (draw.c): VERTEX_BEGIN_END, vertex data. */
int sim_curie_is_draw(uint32_t mthd);
/* 1 when mthd draws or only stores state that queued fragments do not
 * read (they read their draw's setup and memory): it need not wait for
 * them (bands.c).  Clears, fences, queries, NOP and NOTIFY do. */
int sim_curie_keeps_queue(uint32_t mthd);

/* CLEAR_BUFFERS with the value `mode` (hw/enums-3d.h NV40_CLEAR_*). */
void sim_3d_clear(struct sim *s, struct sim_grctx *g, uint32_t mode);
/* FENCE_VALUE: the value goes to DMA_FENCE at FENCE_OFFSET. */
void sim_3d_fence(struct sim *s, struct sim_grctx *g, uint32_t value);
/* QUERY_RESET, QUERY_GET. */
void sim_3d_query_reset(struct sim *s, struct sim_grctx *g, uint32_t report);
void sim_3d_query_get(struct sim *s, struct sim_grctx *g, uint32_t data);

#endif
