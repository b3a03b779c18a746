/* The 3D engine's per-channel state beyond its method slots: program RAM,
 * constants, query counters and the pipeline's in-flight vertices.  Part of
 * struct sim_grctx, so it is saved and restored with the channel. */
#ifndef NV_SIM_3D_STATE_H
#define NV_SIM_3D_STATE_H

#include <stdint.h>

#include "vp.h"

/* What the pipeline carries between methods, saved with the channel's
 * context (uint32_t only: floats as bit patterns). */
#define SIM_DRAW_HELD      4      /* vertices primitive assembly keeps */
#define SIM_DRAW_INLINE_MAX (NV40_VP_INPUTS * 4)   /* words of one inline vertex */
struct sim_draw_state {
	uint32_t prim;                /* VERTEX_BEGIN_END in progress, 0 = none */
	uint32_t nverts;              /* vertices of the primitive so far (since a restart) */
	uint32_t attr[NV40_VP_INPUTS][4];     /* constant attribute values */
	uint32_t vdata[SIM_DRAW_INLINE_MAX];  /* VERTEX_DATA words of a partial vertex */
	uint32_t vdata_n;
	uint32_t stipple;             /* line stipple counter: fragments since its reset */
	/* Post-VP vertices assembly still needs (roles per primitive type, see
	 * draw.c): the first vertex of fans/loops, the last ones of strips. */
	uint32_t held[SIM_DRAW_HELD][NV40_VP_OUTPUTS][4];
};

struct sim_3d_state {
	uint32_t vp_code[NV40_VP_INSNS][4];
	uint32_t vp_const[NV40_VP_CONSTS][4];    /* float bit patterns */
	uint32_t vp_upload_inst;                 /* next slot VP_UPLOAD_INST fills */
	uint32_t vp_upload_const;                /* next constant VP_UPLOAD_CONST fills */
	uint32_t vp_serial;                      /* instructions uploaded: draw.c looks up
						    compiled code again after one */
	uint32_t query_samples;                  /* samples passed since QUERY_RESET */
	struct sim_draw_state draw;
};

#endif
