/* The NV40 fragment program engine: one 2x2 quad of fragments through the
 * program fetched from card memory (fp.c; pure: the caller resolves the
 * program's memory and supplies the sampler).  Instruction fields are in
 * hw/fp-isa.h. */
#ifndef NV_SIM_3D_FP_H
#define NV_SIM_3D_FP_H

#include <stddef.h>
#include <stdint.h>

#include "tex.h"

#define NV40_FP_INPUTS    16     /* INPUT_SRC: 0 WPOS, 1 COL0, 2 COL1, 3 FOGC,
                                    4..11 TC0..7, 14 FACING */
#define NV40_FP_RTS       4
#define NV40_FP_MAX_STEPS 16384  /* instructions one quad may execute */

struct sim_fp_quad {
	float in[4][NV40_FP_INPUTS][4];    /* [pixel][input][xyzw], interpolated */
	unsigned live;                     /* pixels covered (bit i); the others
	                                      run for derivatives only */
	/* results */
	float color[4][NV40_FP_RTS][4];    /* [pixel][render target][rgba] */
	float depth[4];                    /* written when FP_CONTROL says so */
	unsigned depth_written;            /* 1 when the program wrote depth */
	unsigned kill;                     /* pixels KIL discarded (bit i) */
};

typedef void sim_fp_sample_fn(void *ctx, const struct sim_tex_req *rq, float out[4][4]);

/* Run the program at prog (len bytes available there, little-endian words,
 * inline constants after the instructions that use them) with FP_CONTROL
 * control.  0 at PROGRAM_END; -1 when the program runs past len or
 * NV40_FP_MAX_STEPS or holds an opcode that does not exist. */
int sim_fp_run(const uint8_t *prog, size_t len, uint32_t control, struct sim_fp_quad *q,
	       sim_fp_sample_fn *sample, void *ctx);

/* The same with a per-caller cache of decoded instructions (fp.c's internal
 * form), so a program is decoded once instead of on every quad.  The cache
 * keeps a copy of the bytes it decoded: sim_fp_cache_check (once per
 * primitive, say) drops it when they changed, and so does a different len
 * or different bytes at another address (the same bytes elsewhere keep
 * it).  Results are those of sim_fp_run. */
#define SIM_FP_CACHE_SLOTS 128   /* 16-byte slots from the program's start */
struct sim_fp_dec {
	uint32_t w[4];
	int8_t size;                 /* bytes with the constant; -1: refused */
	uint8_t branch, end, op, kind, nsrc;
	uint8_t none, half, prec, sat, mask, ccu, tr, scaled, dst;
	uint8_t direct;              /* FP_DIRECT_*: the result goes to dst unconditioned */
	float scale;
	float cst[4];
	struct {
		uint8_t type, reg, half, abs, neg, plain, indexed, in;
		uint8_t mod;             /* abs or neg */
		uint8_t swz[4];
	} src[3];
};
struct sim_fp_cache {
	const uint8_t *prog;
	size_t len;
	size_t hi;                   /* raw holds prog[0, hi) */
	int simple;                  /* straight line to END: cannot fail */
	uint32_t inputs;             /* bit i: input i may be read (simple: those it reads) */
	int kills;                   /* simple: a KIL among its instructions */
	unsigned nseq;               /* simple: its instructions' slots, in order */
	uint8_t seq[SIM_FP_CACHE_SLOTS];
	uint8_t have[SIM_FP_CACHE_SLOTS];
	uint8_t raw[SIM_FP_CACHE_SLOTS * 16 + 16];
	struct sim_fp_dec dec[SIM_FP_CACHE_SLOTS];
	const void *jit;             /* simple: jit.c's entry for it, NULL until asked */
	uint32_t jit_control;        /* the FP_CONTROL it was asked with */
	uint64_t jit_serial;         /* of the compiler asked: a cache may outlive a card */
};
void sim_fp_cache_reset(struct sim_fp_cache *c);
/* Drops what the cache holds unless prog[0, hi) is what it decoded; then
 * 1 when the program is simple (as above), else 0. */
int sim_fp_cache_check(struct sim_fp_cache *c, const uint8_t *prog, size_t len);
int sim_fp_run_cached(struct sim_fp_cache *c, const uint8_t *prog, size_t len, uint32_t control,
		      struct sim_fp_quad *q, sim_fp_sample_fn *sample, void *ctx);

#endif
