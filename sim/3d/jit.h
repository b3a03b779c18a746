/* The compiled shader pipeline (jit.c, jit-fp.c, jit-vp.c; jit-off.c
 * without LLVM): straight-line fragment and vertex programs compiled per
 * program with LLVM, on a background thread, giving bit for bit what
 * fp.c's and vp.c's interpreters give.  Until a program's code is ready,
 * or when the compiler refuses it, the interpreter runs it. */
#ifndef NV_SIM_3D_JIT_H
#define NV_SIM_3D_JIT_H

#include <stddef.h>
#include <stdint.h>

#include "fp.h"
#include "vp.h"
#include "sim/sim.h"

struct sim_jit;

/* One quad through the program: what sim_fp_run_cached leaves in q (colours,
 * depth, depth_written, kill) for the program and FP_CONTROL it was
 * compiled for.  dec: the cache's decoded slots, whose inline constants it
 * reads (they are not part of the code: Mesa rewrites them per uniform). */
typedef void sim_jit_fp_fn(struct sim_fp_quad *q, const struct sim_fp_dec *dec,
			   sim_fp_sample_fn *sample, void *ctx);

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

/* What the compiler did, for each kind of program; compile_ms: up to
 * SIM_JIT_TIMES compile times, in the order they finished. */
#define SIM_JIT_TIMES 1024
struct sim_jit_kind {
	uint64_t lookups;        /* sim_jit_fp calls (one per primitive and thread), sim_jit_vp calls */
	uint64_t hits;           /* of those, code was ready */
	unsigned programs;       /* keys seen */
	unsigned compiled, refused, failed;
	uint64_t verified;       /* SIM_JIT_VERIFY: quads or vertices checked, */
	uint64_t mismatches;     /* those whose results differed */
	uint64_t nan_payloads;   /* values that differed only as one NaN for another */
	unsigned ntimes;
	float compile_ms[SIM_JIT_TIMES];
};
struct sim_jit_stats {
	struct sim_jit_kind fp, vp;
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

/* Tests only: code compiled from now on adds `ulps` to colour 0's red bits
 * (a vertex program's: to the position's x, when it writes it),
 * so a differential test can show it notices. */
void sim_jit_perturb(struct sim_jit *j, int ulps);

#endif
