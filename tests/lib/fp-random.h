/* Random straight-line NV40 fragment programs and quads full of the
 * values IEEE treats specially, for the tests and bench of the compiled
 * and straight-line fragment programs (tests/unit/test_sim_jit.c,
 * test_sim_fastpaths.c, bench/jit.c).  Static: each program includes it
 * once. */
#ifndef NV_TESTS_FP_RANDOM_H
#define NV_TESTS_FP_RANDOM_H

#include <stdint.h>
#include <string.h>

#include "hw/fp-isa.h"
#include "hw/ramin.h"
#include "sim/3d/fp.h"

/* ---- random numbers that find the corners ---- */

static uint64_t rng_state;      /* seed it */

static uint32_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33);
}

static unsigned rnd_below(unsigned n)
{
	return rnd() % n;
}

static float bits_f(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* Mostly ordinary values, often the ones IEEE treats specially. */
static float rnd_float(void)
{
	static const uint32_t special[] = {
		0x7fc00000, 0xffc00001, 0x7f800001, 0x7fa5a5a5, /* NaNs, quiet and signalling payloads */
		0x7f800000, 0xff800000, 0x00000000, 0x80000000, /* inf, zeros */
		0x00000001, 0x807fffff, 0x00400000, 0x3f800000, /* denormals, 1 */
		0xbf800000, 0x3f000000, 0x477fefff, 0x477ff000, /* -1, 0.5, the fp16 overflow edge */
		0x38800000, 0x387fffff, 0x33000000, 0x7f7fffff, /* the fp16 normal and zero edges, max */
	};
	switch (rnd_below(4)) {
	case 0:
		return bits_f(special[rnd_below(sizeof(special) / sizeof(special[0]))]);
	case 1:
		return (float)((int)rnd_below(2001) - 1000) / 256.0f;
	case 2:
		return bits_f(rnd());
	default:
		return ((float)rnd() / 4294967296.0f) * 4.0f - 2.0f;
	}
}

/* ---- random straight-line programs ---- */

/* Every opcode of a straight program fp.c knows, but the NOPs. */
static const unsigned ops[] = {
	NV40_FP_OP_KIL,
	NV40_FP_OP_MOV, NV40_FP_OP_MUL, NV40_FP_OP_ADD, NV40_FP_OP_MAD, NV40_FP_OP_DP3,
	NV40_FP_OP_DP4, NV40_FP_OP_DST, NV40_FP_OP_MIN, NV40_FP_OP_MAX, NV40_FP_OP_SLT,
	NV40_FP_OP_SGE, NV40_FP_OP_SLE, NV40_FP_OP_SGT, NV40_FP_OP_SNE, NV40_FP_OP_SEQ,
	NV40_FP_OP_FRC, NV40_FP_OP_FLR, NV40_FP_OP_PK4B, NV40_FP_OP_UP4B, NV40_FP_OP_DDX,
	NV40_FP_OP_DDY, NV40_FP_OP_TEX, NV40_FP_OP_TXP, NV40_FP_OP_TXD, NV40_FP_OP_RCP,
	NV40_FP_OP_RSQ, NV40_FP_OP_EX2, NV40_FP_OP_LG2, NV40_FP_OP_LIT, NV40_FP_OP_LRP,
	NV40_FP_OP_STR, NV40_FP_OP_SFL, NV40_FP_OP_COS, NV40_FP_OP_SIN, NV40_FP_OP_PK2H,
	NV40_FP_OP_UP2H, NV40_FP_OP_POW, NV40_FP_OP_PK4UB, NV40_FP_OP_UP4UB, NV40_FP_OP_PK2US,
	NV40_FP_OP_UP2US, NV40_FP_OP_DP2A, NV40_FP_OP_TXL, NV40_FP_OP_TXB, NV40_FP_OP_RFL,
	NV40_FP_OP_DP2, NV40_FP_OP_NRM, NV40_FP_OP_DIV, NV40_FP_OP_DIVSQ, NV40_FP_OP_LITEX2,
};

struct prog {
	uint8_t b[4096];
	size_t len;
};

static void put32(struct prog *p, uint32_t v)
{
	nv_wr32le(p->b + p->len, v);
	p->len += 4;
}

static uint32_t rnd_src(int *has_const)
{
	unsigned type = rnd_below(3);
	uint32_t swz = rnd_below(3) ? NV40_FP_SWZ_IDENTITY : rnd_below(256);

	if (type == NV40_FP_SRC_CONST)
		*has_const = 1;
	return NV40_FP_SRC_SET(TYPE, type) | NV40_FP_SRC_SET(REG, rnd_below(12)) |
	       NV40_FP_SRC_SET(HALF, rnd_below(4) == 0) | NV40_FP_SRC_SET(SWZ, swz) |
	       NV40_FP_SRC_SET(NEG, rnd_below(4) == 0);
}

/* One instruction of opcode op, the rest random; the constant after it
 * when a source reads one. */
static void rnd_insn(struct prog *p, unsigned op, int last)
{
	uint32_t w[4] = { 0 };
	int has_const[3] = { 0 }, nsrc = nv40_fp_op_nsrc(op);

	NV40_FP_SET(w, OPCODE, op);
	NV40_FP_SET(w, DST, rnd_below(6));
	NV40_FP_SET(w, DST_HALF, rnd_below(4) == 0);
	NV40_FP_SET(w, MASK, rnd_below(3) ? 0xf : rnd_below(16));
	NV40_FP_SET(w, INPUT, rnd_below(16));
	NV40_FP_SET(w, TEX_UNIT, rnd_below(16));
	NV40_FP_SET(w, TEX_EXPAND, rnd_below(4) == 0);
	NV40_FP_SET(w, PRECISION, rnd_below(2) ? 0 : rnd_below(4));
	NV40_FP_SET(w, SAT, rnd_below(4) == 0);
	NV40_FP_SET(w, DST_SCALE, rnd_below(2) ? 0 : rnd_below(8));
	NV40_FP_SET(w, CC_UPDATE, rnd_below(3) == 0);
	NV40_FP_SET(w, OUT_NONE, rnd_below(10) == 0);
	NV40_FP_SET(w, END, last);
	NV40_FP_SET(w, COND, rnd_below(2) ? NV40_FP_COND_TR : rnd_below(8));
	NV40_FP_SET(w, COND_SWZ, rnd_below(2) ? NV40_FP_SWZ_IDENTITY : rnd_below(256));
	NV40_FP_SET(w, SRC0, rnd_src(&has_const[0]));
	NV40_FP_SET(w, SRC1, rnd_src(&has_const[1]));
	NV40_FP_SET(w, SRC2, rnd_src(&has_const[2]));
	NV40_FP_SET(w, SRC0_ABS, rnd_below(5) == 0);
	NV40_FP_SET(w, SRC1_ABS_D1, rnd_below(5) == 0);
	NV40_FP_SET(w, SRC2_ABS, rnd_below(5) == 0);
	NV40_FP_SET(w, INDEX_INPUT, rnd_below(8) == 0);
	NV40_FP_SET(w, INDEX_OFFSET, rnd_below(12));
	for (unsigned i = 0; i < 4; i++)
		put32(p, w[i]);
	/* a constant follows when a source the opcode reads is one */
	if ((nsrc > 0 && has_const[0]) || (nsrc > 1 && has_const[1]) || (nsrc > 2 && has_const[2]))
		for (unsigned i = 0; i < 4; i++) {
			float f = rnd_float();
			uint32_t u;
			memcpy(&u, &f, 4);
			put32(p, u);
		}
}

static void rnd_prog(struct prog *p, unsigned n)
{
	p->len = 0;
	for (unsigned i = 0; i < n; i++)
		rnd_insn(p, ops[rnd_below(sizeof(ops) / sizeof(ops[0]))], i == n - 1);
}

/* OP R0, src0, src1; END: unconditioned, every channel written, INPUT
 * sources reading f[input]; then the constant (k, k, k, k) when k is not
 * NULL.  For tests that want one known result. */
static inline void fp_prog1(struct prog *p, unsigned op, unsigned input, uint32_t src0,
			    uint32_t src1, const float *k)
{
	uint32_t w[4] = { 0 }, u;

	NV40_FP_SET(w, OPCODE, op);
	NV40_FP_SET(w, MASK, 0xf);
	NV40_FP_SET(w, INPUT, input);
	NV40_FP_SET(w, COND, NV40_FP_COND_TR);
	NV40_FP_SET(w, COND_SWZ, NV40_FP_SWZ_IDENTITY);
	NV40_FP_SET(w, SRC0, src0);
	NV40_FP_SET(w, SRC1, src1);
	NV40_FP_SET(w, END, 1);
	p->len = 0;
	for (unsigned i = 0; i < 4; i++)
		put32(p, w[i]);
	if (!k)
		return;
	memcpy(&u, k, 4);
	for (unsigned i = 0; i < 4; i++)
		put32(p, u);
}

/* An fp_prog1 source: type, no swizzle, no modifier. */
#define FP_SRC_PLAIN(type) (NV40_FP_SRC_SET(TYPE, type) | NV40_FP_SRC_SET(SWZ, NV40_FP_SWZ_IDENTITY))

static void rnd_quad(struct sim_fp_quad *q)
{
	memset(q, 0, sizeof(*q));
	for (unsigned p = 0; p < 4; p++)
		for (unsigned i = 0; i < NV40_FP_INPUTS; i++)
			for (unsigned c = 0; c < 4; c++)
				q->in[p][i][c] = rnd_float();
	q->live = 1 + rnd_below(15);
}

#endif
