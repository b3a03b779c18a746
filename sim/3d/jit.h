/* The compiled shader pipeline (jit.c, jit-fp.c, jit-vp.c, jit-rop.c;
 * jit-off.c without LLVM): straight-line fragment and vertex programs
 * compiled per program, and the ROP per state, with LLVM on a background
 * thread, giving bit for bit what fp.c's and vp.c's interpreters and
 * rop.c give.  Until the code is ready, or when the compiler refuses a
 * program or state, those run it. */
#ifndef NV_SIM_3D_JIT_H
#define NV_SIM_3D_JIT_H

#include <stddef.h>
#include <stdint.h>

#include "fp.h"
#include "vp.h"
#include "sim/sim.h"

struct sim_jit;

/* The rasteriser's planes of one primitive and the quad being shaded,
 * from which the compiled program interpolates the inputs it reads as
 * raster.c's sim_raster_inputs does; an input in mode SIM_JIT_IN_QUAD is
 * read from the quad (the defaults, FACING, WPOS). */
enum { SIM_JIT_IN_QUAD, SIM_JIT_IN_FLAT, SIM_JIT_IN_SMOOTH };
struct sim_jit_vary {
	uint32_t mode;
	float a0[4], dx[4], dy[4];        /* FLAT: the value in dx */
};
struct sim_jit_interp {
	int32_t qx, qy;               /* the quad's top-left pixel */
	float fx0, fy0;               /* the planes' origin */
	float pq[3];                  /* 1/w's plane: a0, dx, dy */
	uint32_t affine;              /* pq's dx and dy are 0: w is winv */
	float winv;
	struct sim_jit_vary in[NV40_FP_INPUTS];
	/* for sim_raster_inputs: the inputs not in SIM_JIT_IN_QUAD in the
	 * order it writes them, and WPOS (when wpos) as COORD_CONV says */
	unsigned n;
	uint8_t slot[NV40_FP_INPUTS];
	unsigned wpos, wy_inv;
	float wy_h, wc;
};

/* One quad through the program: what sim_fp_run_cached leaves in q (colours,
 * depth, depth_written, kill) for the program and FP_CONTROL it was
 * compiled for, its inputs interpolated from ip.  dec: the cache's decoded
 * slots, whose inline constants it reads (they are not part of the code:
 * Mesa rewrites them per uniform). */
typedef void sim_jit_fp_fn(struct sim_fp_quad *q, const struct sim_fp_dec *dec,
			   sim_fp_sample_fn *sample, void *ctx, const struct sim_jit_interp *ip);

/* mode: enum sim_jit_mode.  NULL when it is SIM_JIT_OFF, or with a message in err when the
 * compiler cannot start (then the interpreter does everything). */
struct sim_jit *sim_jit_new(unsigned mode, char *err, size_t errlen);
/* Joins the compile thread; no compiled code may be running. */
void sim_jit_free(struct sim_jit *j);

/* The code for c's program (sim_fp_cache_check'd) with FP_CONTROL control,
 * or NULL: the interpreter runs it.  A miss queues the program once (SYNC:
 * compiles it now).  c remembers the answer until its program changes.
 * Any thread may call it. */
sim_jit_fp_fn *sim_jit_fp(struct sim_jit *j, struct sim_fp_cache *c, uint32_t control);

/* One vertex through a straight program (sim_vp_straight_of's ok): what
 * sim_vp_run leaves in out for it. */
typedef void sim_jit_vp_fn(const uint32_t cst[NV40_VP_CONSTS][4],
			   const float in[NV40_VP_INPUTS][4], float out[NV40_VP_OUTPUTS][4]);

/* The code for straight program p, or NULL: the interpreter runs it.  A
 * miss queues the program once (SYNC: compiles it now).  The caller keeps
 * the answer while the program stays (a lookup hashes its words). */
sim_jit_vp_fn *sim_jit_vp(struct sim_jit *j, const struct sim_vp_straight *p);

/* The ROP for one draw's state (jit-rop.c): what sim_rop_quad and
 * sim_rop_early_z do for it, the 8-bit-channel colour buffers' case. */
struct draw_setup;
typedef void sim_jit_rop_fn(const struct draw_setup *d, uint32_t *samples, int x, int y,
			    unsigned live, const float z[4], const struct sim_fp_quad *q);
typedef unsigned sim_jit_ez_fn(const struct draw_setup *d, int x, int y, unsigned live,
			       const float z[4]);
struct sim_jit_rop {
	sim_jit_rop_fn *quad;
	sim_jit_ez_fn *early_z;      /* NULL without a depth test */
	/* With a depth test and write and no alpha test, also quad split in
	 * two (else NULL): early_zw, early_z writing the depths that pass,
	 * then quad_c, the rest; for a program that cannot kill, the bytes
	 * early_z and quad leave. */
	sim_jit_ez_fn *early_zw;
	sim_jit_rop_fn *quad_c;
};

/* At set-up, on the thread that resolves d: the entry for d's ROP state
 * (a miss queues it once; SYNC: compiles it now), NULL when rop.c alone
 * handles the state.  The entry lives as long as j. */
const void *sim_jit_rop_find(struct sim_jit *j, const struct draw_setup *d);
/* Per primitive, any thread: the entry's code once it is ready, else NULL. */
const struct sim_jit_rop *sim_jit_rop(struct sim_jit *j, const void *entry);

/* What the compiler did, for each kind of program; compile_ms: up to
 * SIM_JIT_TIMES compile times, in the order they finished. */
#define SIM_JIT_TIMES 1024
struct sim_jit_kind {
	uint64_t lookups;        /* sim_jit_fp and sim_jit_rop calls (one per primitive and thread), sim_jit_vp calls */
	uint64_t hits;           /* of those, code was ready */
	unsigned programs;       /* keys seen */
	unsigned compiled, refused, failed;   /* rop: refused counts set-ups rop.c keeps */
	uint64_t verified;       /* SIM_JIT_VERIFY: quads or vertices checked, */
	uint64_t mismatches;     /* those whose results differed */
	uint64_t nan_payloads;   /* values that differed only as one NaN for another */
	unsigned ntimes;
	float compile_ms[SIM_JIT_TIMES];
};
struct sim_jit_stats {
	struct sim_jit_kind fp, vp, rop;    /* rop: "programs" are ROP states */
};
void sim_jit_stats(struct sim_jit *j, struct sim_jit_stats *st);

/* SIM_JIT_VERIFY: whether to check the code against the interpreter, and
 * the check (one quad: the code's results and the interpreter's, the
 * same inputs), counted in the statistics. */
int sim_jit_verifying(const struct sim_jit *j);
void sim_jit_verify(struct sim_jit *j, const struct sim_fp_quad *compiled,
		    const struct sim_fp_quad *interpreted);
/* The same for one vertex's outputs. */
void sim_jit_verify_vp(struct sim_jit *j, const float compiled[NV40_VP_OUTPUTS][4],
		       const float interpreted[NV40_VP_OUTPUTS][4]);

/* The same for one quad through the ROP: differ, whether the compiled
 * code left other bytes or another sample count than rop.c (rop.c's
 * sim_rop_verify compares). */
void sim_jit_verify_rop(struct sim_jit *j, int differ);

/* Tests only: code compiled from now on adds `ulps` to colour 0's red bits
 * (a vertex program's: to the position's x, when it writes it; the ROP's:
 * to the red byte it stores in buffer 0), so a differential test can show
 * it notices. */
void sim_jit_perturb(struct sim_jit *j, int ulps);

#endif
