/* The fragment program as LLVM IR (jit-fp.c), for jit.c. */
#ifndef NV_SIM_3D_JIT_FP_H
#define NV_SIM_3D_JIT_FP_H

#include <llvm-c/Core.h>
#include <stdint.h>

#include "fp.h"

/* A straight-line program (sim_fp_cache_check said simple): its n
 * instructions decoded, slot[i] the 16-byte slot dec[i] came from. */
struct jit_fp_prog {
	unsigned n;
	const struct sim_fp_dec *dec;
	const uint8_t *slot;
	uint32_t control;
	int perturb;                 /* sim_jit_perturb's ulps */
};

/* Helpers the code calls, under these names (jit.c defines them as
 * absolute symbols): private, so that LLVM does not rewrite libm calls
 * into others (exp2f(x * log2f(y)) into powf, say). */
#define JIT_FP_EXP2F "nvd_jit_exp2f"
#define JIT_FP_LOG2F "nvd_jit_log2f"
#define JIT_FP_SINF  "nvd_jit_sinf"
#define JIT_FP_COSF  "nvd_jit_cosf"
#define JIT_FP_HALF4 "nvd_jit_half4"   /* void (float v[4]): each through fp16 */
#define JIT_FP_SIGNS "nvd_jit_signs"   /* uint32_t[8]: 4 x 0x80000000, 4 x 0x7fffffff */

/* Adds function `name` (a sim_jit_fp_fn) for p to m.  0, or -1 when the
 * program uses what the compiler does not handle. */
int jit_fp_build(LLVMModuleRef m, const char *name, const struct jit_fp_prog *p);

#endif
