/* A straight vertex program as LLVM IR (jit-vp.c), for jit.c. */
#ifndef NV_SIM_3D_JIT_VP_H
#define NV_SIM_3D_JIT_VP_H

#include <llvm-c/Core.h>

#include "vp.h"

struct jit_vp_prog {
	unsigned n;
	const struct sim_vp_dec *dec;   /* sim_vp_straight_of's, n of them */
	int perturb;                    /* sim_jit_perturb's ulps */
};

/* The helper the code calls for the scalar ops it does not inline: int
 * (unsigned op, const float s[4], float d[4]), vp.c's sim_vp_sca. */
#define JIT_VP_SCA "nvd_jit_vp_sca"

/* Adds function `name` (a sim_jit_vp_fn) for p to m.  0, or -1 when the
 * program uses what the compiler does not handle. */
int jit_vp_build(LLVMModuleRef m, const char *name, const struct jit_vp_prog *p);

#endif
