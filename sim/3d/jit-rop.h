/* The ROP as LLVM IR (jit-rop.c), for jit.c: one function per state of
 * the tests, blend and stores, the 8-bit-channel colour buffers' case. */
#ifndef NV_SIM_3D_JIT_ROP_H
#define NV_SIM_3D_JIT_ROP_H

#include <llvm-c/Core.h>
#include <stdint.h>

#include "pipe.h"

/* What changes the code: the fields of draw_setup rop.c branches on.
 * Values rop.c reads as numbers (the alpha reference, the blend constant,
 * the X byte, the surfaces' addresses and pitches) are read at run time.
 * A multiple of 16 bytes, zero where unused: it is its own cache key. */
struct jit_rop_key {
	uint32_t alpha_func;           /* 0: no alpha test */
	uint32_t zbits, depth_test, depth_func, depth_write, query;
	uint32_t bufs;                 /* the colour buffers written */
	uint32_t cmask[4], blend[4];
	int8_t at[4][4];               /* sim_rt8's, per buffer */
	uint32_t bsrc_rgb, bsrc_a, bdst_rgb, bdst_a, beq_rgb, beq_a;
	uint32_t pad[3];
};

_Static_assert(sizeof(struct jit_rop_key) % 16 == 0, "jit.c keys by 16-byte words");

/* d's key; -1 when rop.c alone handles the state (stencil, depth bounds,
 * logic op, a buffer without 8-bit channels, a swizzled surface). */
int jit_rop_key_of(const struct draw_setup *d, struct jit_rop_key *k);

/* Adds functions `name` (a sim_jit_rop_fn) and, when k has a depth test,
 * `name`_z (a sim_jit_ez_fn) for k to m; when jit_rop_splits(k) also
 * `name`_zw, the early test writing the depths that pass, and `name`_c,
 * the quad without depth.  perturb: added to the red byte of buffer 0
 * (sim_jit_perturb). */
int jit_rop_build(LLVMModuleRef m, const char *name, const struct jit_rop_key *k, int perturb);
/* Does k's ROP split into _zw and _c: a depth test and write, no alpha
 * test? */
int jit_rop_splits(const struct jit_rop_key *k);

#endif
