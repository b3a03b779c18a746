/* The NV40 vertex program interpreter: one vertex through the program RAM.
 *
 * Execution model (envytools xf/isa.rst, Mesa nvfx_vertprog.c, the
 * NV_vertex_program2/3 definitions):
 * - Each instruction reads its three sources, the address register and the
 *   condition register first; then the vector half (SRC0/1/2) and the
 *   scalar half (SRC2.x) compute; then both write.  So co-issued halves see
 *   each other's old values.  Where both write the same temp component the
 *   scalar write lands last.
 * - The vector result goes to temp VEC_DST_TEMP (0x3f none) and, when
 *   VEC_RESULT is set, to output DEST; the scalar result goes to temp
 *   SCA_DST_TEMP (0x3f none) and, when VEC_RESULT is clear, to output DEST
 *   (0x1f none).  Each half uses its own write mask, ANDed with the
 *   condition test when COND_TEST_EN is set.  SAT clamps both halves.
 * - COND_UPDATE_EN writes CC[COND_REG_SEL] from the result of the half
 *   COND_UPDATE_VEC names, under that half's (conditional) write mask.
 *   Codes: LT, EQ, GT, or UN for NaN; all EQ at program start.
 * - ARL (floor), ARR (round half up) and ARA (A.xy + A.zw) write address
 *   register VEC_DST_TEMP & 1 (Mesa puts the address register's number
 *   there) under the vector mask, and nothing else.  Components are
 *   clamped to [-512, 511] (the NV_vertex_program2 range); NaN gives 0.
 * - Indexed inputs/constants/outputs add A[ADDR_REG_SEL].ADDR_SWZ to the
 *   field.  An address outside the file reads (0,0,0,0) (NV_vertex_program's
 *   rule for out-of-range relative addressing) and writes nothing.
 * - BRA/CAL/RET/PUSHA/POPA execute when no condition test is enabled or
 *   the test passes for any of the four swizzled components.  The stack has
 *   8 entries shared by return addresses and pushed address registers;
 *   CAL/PUSHA on a full stack or POPA on an empty one is an error (-1);
 *   RET on an empty stack ends the program (Mesa emits RET for a TGSI RET
 *   in main).  RET to a slot outside the RAM is an error.
 * - LAST ends the program after its instruction.  A program still running
 *   after NV40_VP_TIMEOUT instructions is stopped there (the hardware's
 *   watchdog, vp.h): the vertex keeps the outputs written so far, which is
 *   what a looping program gives (Mesa 22.3 emits BRK as a BRA back near
 *   the program's start, so every GLSL loop it cannot unroll runs here).
 * - Temps are 32 (Mesa's cap); the 6-bit temp fields alias modulo 32.
 *   Source type 0 (unknown) reads zero.  Temps and A regs start at 0
 *   (envytools: the register file is cleared between programs).
 * Arithmetic is IEEE single precision (not the hardware's LUT
 * approximations: envytools nvhw/xf.c has those if bit-exactness is ever
 * wanted), except that a product with a zero factor is +0 (vp_mul);
 * RCP/RSQ give +-inf for +-0, RSQ and LG2 use |x| as LOG does. */
#include <math.h>
#include <string.h>

#include "hw/vp-isa.h"
#include "sim/3d/half.h"
#include "sim/3d/vp.h"

#define VP_TEMPS      NV40_VP_TEMPS
#define VP_STACK      8
#define VP_AREG_MIN   (-512)
#define VP_AREG_MAX   511

enum { CC_LT = 1, CC_EQ = 2, CC_GT = 4, CC_UN = 8 };

struct vp_stack_entry {
	int32_t v[4];
};

struct vp_state {
	float r[VP_TEMPS][4];
	int32_t a[2][4];
	uint8_t cc[2][4];
	struct vp_stack_entry stack[VP_STACK];
	unsigned sp;
};

static int32_t vp_areg_from(float f)
{
	if (f != f)
		return 0;
	if (f <= (float)VP_AREG_MIN)
		return VP_AREG_MIN;
	if (f >= (float)VP_AREG_MAX)
		return VP_AREG_MAX;
	return (int32_t)f;
}

static int32_t vp_areg_clamp(int32_t v)
{
	return v < VP_AREG_MIN ? VP_AREG_MIN : v > VP_AREG_MAX ? VP_AREG_MAX : v;
}

static uint8_t vp_cc_of(float f)
{
	if (f != f)
		return CC_UN;
	return f < 0.0f ? CC_LT : f > 0.0f ? CC_GT : CC_EQ;
}

static int vp_cc_pass(uint8_t code, unsigned cond)
{
	if (code == CC_UN)
		return cond == NV40_VP_COND_NE || cond == NV40_VP_COND_TR;
	return (code & cond) != 0;
}

/* The address register component used for indexing this instruction. */
static int32_t vp_index(const struct vp_state *st, const uint32_t insn[4])
{
	return st->a[nv40_vp_ADDR_REG_SEL(insn)][nv40_vp_ADDR_SWZ(insn)];
}

static void vp_read_src(const struct vp_state *st, const uint32_t insn[4], unsigned n,
			const uint32_t cst[NV40_VP_CONSTS][4], const float in[NV40_VP_INPUTS][4],
			float v[4])
{
	uint32_t src = nv40_vp_src(insn, n);
	float raw[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
	int32_t idx;
	int is_abs = (int)nv40_vp_src_abs(insn, n);

	switch (nv40_vp_src_TYPE(src)) {
	case NV40_VP_SRC_TEMP:
		memcpy(raw, st->r[nv40_vp_src_REG(src) % VP_TEMPS], sizeof raw);
		break;
	case NV40_VP_SRC_INPUT:
		idx = (int32_t)nv40_vp_INPUT_SRC(insn);
		if (nv40_vp_INDEX_INPUT(insn))
			idx += vp_index(st, insn);
		if (idx >= 0 && idx < NV40_VP_INPUTS)
			memcpy(raw, in[idx], sizeof raw);
		break;
	case NV40_VP_SRC_CONST:
		idx = (int32_t)nv40_vp_CONST_SRC(insn);
		if (nv40_vp_INDEX_CONST(insn))
			idx += vp_index(st, insn);
		if (idx >= 0 && idx < NV40_VP_CONSTS)
			for (unsigned c = 0; c < 4; c++)
				raw[c] = sim_u2f(cst[idx][c]);
		break;
	default:
		break;
	}
	for (unsigned c = 0; c < 4; c++) {
		float f = raw[nv40_vp_swz(nv40_vp_src_SWZ(src), c)];

		if (is_abs)
			f = fabsf(f);
		if (nv40_vp_src_NEG(src))
			f = -f;
		v[c] = f;
	}
}

/* A product as the transform engine forms it: zero times anything, Inf
 * and NaN included, is +0 (envytools models Rankine's XF multiplier this
 * way, "FP_ZERO_WINS", unless an IEEE mode bit is set that Mesa never
 * sets; NV_vertex_program asks for it).  Mesa relies on it: its
 * pow(x, y) = EX2(LG2(x) * y) must give 1 for pow(0, 0), so a spot light
 * with exponent 0 lights where the spot cosine is 0 instead of going NaN. */
static inline float vp_mul(float a, float b)
{
	return a == 0.0f || b == 0.0f ? 0.0f : a * b;
}

static float vp_dot(const float a[4], const float b[4], unsigned n)
{
	float s = 0.0f;

	for (unsigned c = 0; c < n; c++)
		s += vp_mul(a[c], b[c]);
	return s;
}

static float vp_set(unsigned op, float a, float b)
{
	switch (op) {
	case NV40_VP_VEC_SLT: return a < b;
	case NV40_VP_VEC_SGE: return a >= b;
	case NV40_VP_VEC_SEQ: return a == b;
	case NV40_VP_VEC_SGT: return a > b;
	case NV40_VP_VEC_SLE: return a <= b;
	case NV40_VP_VEC_SNE: return a != b;
	case NV40_VP_VEC_STR: return 1.0f;
	default:              return 0.0f;   /* SFL */
	}
}

/* The vector half's float result; 0 when the op writes no float. */
static int vp_vec_op(unsigned op, const float s[3][4], float d[4])
{
	const float *a = s[0], *b = s[1], *c2 = s[2];

	switch (op) {
	case NV40_VP_VEC_MOV:
		memcpy(d, a, 4 * sizeof *d);
		return 1;
	case NV40_VP_VEC_MUL:
		for (unsigned c = 0; c < 4; c++)
			d[c] = vp_mul(a[c], b[c]);
		return 1;
	case NV40_VP_VEC_ADD:
		for (unsigned c = 0; c < 4; c++)
			d[c] = a[c] + c2[c];
		return 1;
	case NV40_VP_VEC_MAD:
		for (unsigned c = 0; c < 4; c++)
			d[c] = vp_mul(a[c], b[c]) + c2[c];
		return 1;
	case NV40_VP_VEC_DP3:
		d[0] = d[1] = d[2] = d[3] = vp_dot(a, b, 3);
		return 1;
	case NV40_VP_VEC_DPH:
		d[0] = d[1] = d[2] = d[3] = vp_dot(a, b, 3) + b[3];
		return 1;
	case NV40_VP_VEC_DP4:
		d[0] = d[1] = d[2] = d[3] = vp_dot(a, b, 4);
		return 1;
	case NV40_VP_VEC_DST:
		d[0] = 1.0f;
		d[1] = vp_mul(a[1], b[1]);
		d[2] = a[2];
		d[3] = b[3];
		return 1;
	case NV40_VP_VEC_MIN:
		for (unsigned c = 0; c < 4; c++)
			d[c] = a[c] < b[c] ? a[c] : b[c];
		return 1;
	case NV40_VP_VEC_MAX:
		for (unsigned c = 0; c < 4; c++)
			d[c] = a[c] > b[c] ? a[c] : b[c];
		return 1;
	case NV40_VP_VEC_FRC:
		for (unsigned c = 0; c < 4; c++)
			d[c] = a[c] - floorf(a[c]);
		return 1;
	case NV40_VP_VEC_FLR:
		for (unsigned c = 0; c < 4; c++)
			d[c] = floorf(a[c]);
		return 1;
	case NV40_VP_VEC_SLT: case NV40_VP_VEC_SGE: case NV40_VP_VEC_SEQ:
	case NV40_VP_VEC_SFL: case NV40_VP_VEC_SGT: case NV40_VP_VEC_SLE:
	case NV40_VP_VEC_SNE: case NV40_VP_VEC_STR:
		for (unsigned c = 0; c < 4; c++)
			d[c] = vp_set(op, a[c], b[c]);
		return 1;
	case NV40_VP_VEC_SSG:
		for (unsigned c = 0; c < 4; c++)
			d[c] = a[c] > 0.0f ? 1.0f : a[c] < 0.0f ? -1.0f : 0.0f;
		return 1;
	default:   /* NOP, ARL, ARR, ARA */
		return 0;
	}
}

/* RCC: 1/x with its magnitude clamped to [2^-64, 2^64]
 * (NV_vertex_program1_1). */
static float vp_rcc(float x)
{
	const float hi = 18446744073709551616.0f, lo = 1.0f / hi;
	float r = 1.0f / x, m = fabsf(r);

	if (r != r)
		return r;
	if (m > hi)
		m = hi;
	else if (m < lo)
		m = lo;
	return signbit(r) ? -m : m;
}

/* LOG: (floor(log2|x|), |x| / 2^floor(log2|x|), log2|x|, 1). */
static void vp_log(float x, float d[4])
{
	float t = fabsf(x);
	int e;

	d[3] = 1.0f;
	if (t == 0.0f) {
		d[0] = d[2] = -INFINITY;
		d[1] = 1.0f;
	} else if (isinf(t) || t != t) {
		d[0] = d[2] = t;
		d[1] = t != t ? t : 1.0f;
	} else {
		float m = frexpf(t, &e);   /* t = m * 2^e, m in [0.5, 1) */

		d[0] = (float)(e - 1);
		d[1] = 2.0f * m;
		d[2] = log2f(t);
	}
}

/* LIT: (1, max(x,0), x > 0 ? max(y,0)^w : 0, 1), w clamped to +-(128-eps). */
static void vp_lit(const float s[4], float d[4])
{
	const float wmax = 127.99609375f;
	float x = s[0] > 0.0f ? s[0] : 0.0f;
	float y = s[1] > 0.0f ? s[1] : 0.0f;
	float w = s[3] < -wmax ? -wmax : s[3] > wmax ? wmax : s[3];

	if (s[3] != s[3])
		w = s[3];
	d[0] = d[3] = 1.0f;
	d[1] = x;
	d[2] = s[0] > 0.0f ? powf(y, w) : 0.0f;
}

/* The scalar half's float result; 0 when the op writes no float. */
int sim_vp_sca(unsigned op, const float s[4], float d[4])
{
	float x = s[0], r;

	switch (op) {
	case NV40_VP_SCA_MOV: r = x; break;
	case NV40_VP_SCA_RCP: r = 1.0f / x; break;
	case NV40_VP_SCA_RCC: r = vp_rcc(x); break;
	case NV40_VP_SCA_RSQ: r = 1.0f / sqrtf(fabsf(x)); break;
	case NV40_VP_SCA_LG2: r = log2f(fabsf(x)); break;
	case NV40_VP_SCA_EX2: r = exp2f(x); break;
	case NV40_VP_SCA_SIN: r = sinf(x); break;
	case NV40_VP_SCA_COS: r = cosf(x); break;
	case NV40_VP_SCA_EXP: {
		float t = floorf(x);

		d[0] = exp2f(t);
		d[1] = x - t;
		d[2] = exp2f(x);
		d[3] = 1.0f;
		return 1;
	}
	case NV40_VP_SCA_LOG:
		vp_log(x, d);
		return 1;
	case NV40_VP_SCA_LIT:
		vp_lit(s, d);
		return 1;
	default:   /* NOP and the flow/stack ops */
		return 0;
	}
	d[0] = d[1] = d[2] = d[3] = r;
	return 1;
}

static int vp_vec_op_exists(unsigned op)
{
	return op <= NV40_VP_VEC_ARA;   /* TXL (vertex textures) is not modelled */
}

static int vp_sca_op_exists(unsigned op)
{
	switch (op) {
#define VP_CASE_(name, value) case value:
	NV40_VP_SCA_OPS(VP_CASE_)
#undef VP_CASE_
		return 1;
	default:
		return 0;
	}
}

/* Write v to a temp (or output) under mask (x = bit 3). */
static void vp_write(float dst[4], const float v[4], unsigned mask)
{
	for (unsigned c = 0; c < 4; c++)
		if (mask & (8u >> c))
			dst[c] = v[c];
}

static void vp_write_out(const struct vp_state *st, const uint32_t insn[4],
			 float out[NV40_VP_OUTPUTS][4], const float v[4], unsigned mask)
{
	int32_t o = (int32_t)nv40_vp_DEST(insn);

	if (o == NV40_VP_NONE_DEST)
		return;
	if (nv40_vp_INDEX_OUTPUT(insn))
		o += vp_index(st, insn);
	if (o >= 0 && o < NV40_VP_OUTPUTS)
		vp_write(out[o], v, mask);
}

/* The watchdog's count, kept short: at each backward jump the whole
 * machine (registers, stack, outputs, where it is) is compared with a copy
 * saved at an earlier one, the copy moving on after 1, 2, 4 ... jumps
 * (Brent's cycle finding).  A match means the instructions since the copy
 * repeat unchanged until the watchdog, so whole rounds of them are skipped
 * and the vertex ends as if it had run them.  Mesa 22.3's GLSL loops never
 * end: such vertices were nearly all the time of the tests that have them. */
struct vp_cycle {
	struct vp_state st;
	float out[NV40_VP_OUTPUTS][4];
	unsigned pc, step, jumps, lap;
	int saved;
};

static void vp_cycle_at_jump(struct vp_cycle *c, const struct vp_state *st,
			     const float out[NV40_VP_OUTPUTS][4], unsigned pc, unsigned *step)
{
	if (c->saved && c->pc == pc && !memcmp(&c->st, st, sizeof *st) &&
	    !memcmp(c->out, out, sizeof c->out)) {
		unsigned round = *step - c->step;

		/* still short of the watchdog: this step runs */
		*step += (NV40_VP_TIMEOUT - 1 - *step) / round * round;
		c->saved = 0;
		c->lap = 0;
		return;
	}
	if (c->saved && ++c->jumps < c->lap)
		return;
	memcpy(&c->st, st, sizeof *st);
	memcpy(c->out, out, sizeof c->out);
	c->pc = pc;
	c->step = *step;
	c->jumps = 0;
	c->lap = c->lap ? 2 * c->lap : 1;
	c->saved = 1;
}

/* ---- straight programs ----
 *
 * A program that runs from its start to LAST without flow control, stack,
 * address register, condition test or indexing (Mesa's fixed-function
 * programs and most shaders are) has its fields decoded once, in a
 * per-thread cache keyed by its words, and runs without them being
 * looked at again: the same reads, the same arithmetic (vp_vec_op,
 * sim_vp_sca) and the same writes in the same order as the loop below.  Its
 * condition register updates are left out: nothing in it tests them. */
static __thread struct sim_vp_straight vp_straight;

static int vp_straight_op(const uint32_t insn[4])
{
	unsigned vop = nv40_vp_VEC_OPCODE(insn), sop = nv40_vp_SCA_OPCODE(insn);

	if (!vp_vec_op_exists(vop) || !vp_sca_op_exists(sop))
		return 0;
	if (vop == NV40_VP_VEC_ARL || vop == NV40_VP_VEC_ARR || vop == NV40_VP_VEC_ARA)
		return 0;
	if (sop == NV40_VP_SCA_BRA || sop == NV40_VP_SCA_CAL || sop == NV40_VP_SCA_RET ||
	    sop == NV40_VP_SCA_PUSHA || sop == NV40_VP_SCA_POPA)
		return 0;
	return !nv40_vp_COND_TEST_EN(insn) && !nv40_vp_INDEX_INPUT(insn) &&
	       !nv40_vp_INDEX_OUTPUT(insn) && !nv40_vp_INDEX_CONST(insn);
}

static void vp_straight_decode(const uint32_t insn[4], struct sim_vp_dec *d)
{
	d->vop = (uint8_t)nv40_vp_VEC_OPCODE(insn);
	d->sop = (uint8_t)nv40_vp_SCA_OPCODE(insn);
	d->sat = (uint8_t)nv40_vp_SAT(insn);
	d->vmask = (uint8_t)nv40_vp_VEC_WRITEMASK(insn);
	d->smask = (uint8_t)nv40_vp_SCA_WRITEMASK(insn);
	d->vtemp = (uint8_t)nv40_vp_VEC_DST_TEMP(insn);
	d->stemp = (uint8_t)nv40_vp_SCA_DST_TEMP(insn);
	d->vresult = (uint8_t)nv40_vp_VEC_RESULT(insn);
	d->dest = (uint8_t)nv40_vp_DEST(insn);
	d->input = (uint16_t)nv40_vp_INPUT_SRC(insn);
	d->cnst = (uint16_t)nv40_vp_CONST_SRC(insn);
	d->reads = (uint8_t)(nv40_vp_vec_reads(d->vop) | (d->sop != NV40_VP_SCA_NOP ? 4 : 0));
	for (unsigned n = 0; n < 3; n++) {
		uint32_t src = nv40_vp_src(insn, n);
		struct sim_vp_src_dec *sd = &d->src[n];
		sd->type = (uint8_t)nv40_vp_src_TYPE(src);
		sd->reg = (uint8_t)(nv40_vp_src_REG(src) % VP_TEMPS);
		sd->abs = (uint8_t)nv40_vp_src_abs(insn, n);
		sd->neg = (uint8_t)nv40_vp_src_NEG(src);
		for (unsigned c = 0; c < 4; c++)
			sd->swz[c] = (uint8_t)nv40_vp_swz(nv40_vp_src_SWZ(src), c);
	}
}

/* The cache for the program at start: decoded again when its words
 * changed (a program that is not straight is remembered as such). */
const struct sim_vp_straight *sim_vp_straight_of(const uint32_t code[NV40_VP_INSNS][4],
						 unsigned start)
{
	struct sim_vp_straight *p = &vp_straight;

	if (p->valid && p->start == start && !memcmp(p->words, code[start], p->n * sizeof(p->words[0])))
		return p;
	p->valid = 1;
	p->ok = 0;
	p->start = start;
	p->n = 0;
	for (unsigned pc = start; pc < NV40_VP_INSNS && p->n < SIM_VP_STRAIGHT_MAX; pc++) {
		memcpy(p->words[p->n], code[pc], sizeof(p->words[0]));
		if (!vp_straight_op(code[pc])) {
			p->n++;
			break;
		}
		vp_straight_decode(code[pc], &p->dec[p->n++]);
		if (nv40_vp_LAST(code[pc])) {
			p->ok = 1;
			break;
		}
	}
	return p;
}

/* vp_read_src for a decoded source (no indexing). */
static inline void vp_straight_read(const struct sim_vp_dec *d, unsigned n, const float r[VP_TEMPS][4],
				    const uint32_t cst[NV40_VP_CONSTS][4],
				    const float in[NV40_VP_INPUTS][4], float v[4])
{
	const struct sim_vp_src_dec *sd = &d->src[n];
	float raw[4] = { 0.0f, 0.0f, 0.0f, 0.0f };

	switch (sd->type) {
	case NV40_VP_SRC_TEMP:
		memcpy(raw, r[sd->reg], sizeof raw);
		break;
	case NV40_VP_SRC_INPUT:
		if (d->input < NV40_VP_INPUTS)
			memcpy(raw, in[d->input], sizeof raw);
		break;
	case NV40_VP_SRC_CONST:
		if (d->cnst < NV40_VP_CONSTS)
			for (unsigned c = 0; c < 4; c++)
				raw[c] = sim_u2f(cst[d->cnst][c]);
		break;
	}
	for (unsigned c = 0; c < 4; c++) {
		float f = raw[sd->swz[c]];

		if (sd->abs)
			f = fabsf(f);
		if (sd->neg)
			f = -f;
		v[c] = f;
	}
}

static void vp_straight_out(float out[NV40_VP_OUTPUTS][4], unsigned dest, const float v[4],
			    unsigned mask)
{
	if (dest != NV40_VP_NONE_DEST && dest < NV40_VP_OUTPUTS)
		vp_write(out[dest], v, mask);
}

static int vp_straight_run(const struct sim_vp_straight *p, const uint32_t cst[NV40_VP_CONSTS][4],
			   const float in[NV40_VP_INPUTS][4], float out[NV40_VP_OUTPUTS][4])
{
	float r[VP_TEMPS][4];

	memset(r, 0, sizeof r);
	for (unsigned i = 0; i < p->n; i++) {
		const struct sim_vp_dec *d = &p->dec[i];
		float s[3][4], vres[4], sres[4];

		for (unsigned n = 0; n < 3; n++)
			if (d->reads >> n & 1)
				vp_straight_read(d, n, (const float (*)[4])r, cst, in, s[n]);
		int has_v = vp_vec_op(d->vop, (const float (*)[4])s, vres);
		int has_s = sim_vp_sca(d->sop, s[2], sres);
		if (d->sat)
			for (unsigned c = 0; c < 4; c++) {
				vres[c] = sim_sat(vres[c]);
				sres[c] = sim_sat(sres[c]);
			}
		if (has_v) {
			if (d->vtemp != NV40_VP_NONE_TEMP)
				vp_write(r[d->vtemp % VP_TEMPS], vres, d->vmask);
			if (d->vresult)
				vp_straight_out(out, d->dest, vres, d->vmask);
		}
		if (has_s) {
			if (d->stemp != NV40_VP_NONE_TEMP)
				vp_write(r[d->stemp % VP_TEMPS], sres, d->smask);
			if (!d->vresult)
				vp_straight_out(out, d->dest, sres, d->smask);
		}
	}
	return 0;
}

int sim_vp_run(const uint32_t code[NV40_VP_INSNS][4], unsigned start,
	       const uint32_t cst[NV40_VP_CONSTS][4], const float in[NV40_VP_INPUTS][4],
	       float out[NV40_VP_OUTPUTS][4])
{
	if (start < NV40_VP_INSNS) {
		const struct sim_vp_straight *p = sim_vp_straight_of(code, start);
		if (p->ok)
			return vp_straight_run(p, cst, in, out);
	}
	return sim_vp_interpret(code, start, cst, in, out);
}

int sim_vp_interpret(const uint32_t code[NV40_VP_INSNS][4], unsigned start,
		     const uint32_t cst[NV40_VP_CONSTS][4], const float in[NV40_VP_INPUTS][4],
		     float out[NV40_VP_OUTPUTS][4])
{
	struct vp_state st;
	struct vp_cycle cyc;
	unsigned pc = start;
	int jumped = 0;

	memset(&st, 0, sizeof st);
	memset(st.cc, CC_EQ, sizeof st.cc);
	cyc.saved = 0;
	cyc.lap = 0;

	for (unsigned step = 0; step < NV40_VP_TIMEOUT; step++) {
		const uint32_t *insn;
		unsigned vop, sop, ccsel, next, cond_mask = 0xf, vmask, smask;
		float s[3][4], vres[4], sres[4];
		int has_v, has_s, flow_ok = 1;

		if (jumped)
			vp_cycle_at_jump(&cyc, &st, (const float (*)[4])out, pc, &step);
		if (pc >= NV40_VP_INSNS)
			return -1;
		insn = code[pc];
		next = pc + 1;
		vop = nv40_vp_VEC_OPCODE(insn);
		sop = nv40_vp_SCA_OPCODE(insn);
		if (!vp_vec_op_exists(vop) || !vp_sca_op_exists(sop))
			return -1;

		/* Read everything before anything is written. */
		for (unsigned n = 0; n < 3; n++)
			vp_read_src(&st, insn, n, cst, in, s[n]);
		ccsel = nv40_vp_COND_REG_SEL(insn);
		if (nv40_vp_COND_TEST_EN(insn)) {
			uint32_t swz = nv40_vp_COND_SWZ(insn);

			cond_mask = 0;
			for (unsigned c = 0; c < 4; c++)
				if (vp_cc_pass(st.cc[ccsel][nv40_vp_swz(swz, c)], nv40_vp_COND(insn)))
					cond_mask |= 8u >> c;
			flow_ok = cond_mask != 0;
		}
		vmask = nv40_vp_VEC_WRITEMASK(insn) & cond_mask;
		smask = nv40_vp_SCA_WRITEMASK(insn) & cond_mask;

		has_v = vp_vec_op(vop, s, vres);
		has_s = sim_vp_sca(sop, s[2], sres);
		if (nv40_vp_SAT(insn))
			for (unsigned c = 0; c < 4; c++) {
				vres[c] = sim_sat(vres[c]);
				sres[c] = sim_sat(sres[c]);
			}

		/* Address register ops (the vector half). */
		if (vop == NV40_VP_VEC_ARL || vop == NV40_VP_VEC_ARR || vop == NV40_VP_VEC_ARA) {
			const int32_t *src_a = st.a[nv40_vp_ADDR_REG_SEL(insn)];
			int32_t av[4];

			for (unsigned c = 0; c < 4; c++) {
				if (vop == NV40_VP_VEC_ARL)
					av[c] = vp_areg_from(floorf(s[0][c]));
				else if (vop == NV40_VP_VEC_ARR)
					av[c] = vp_areg_from(floorf(s[0][c] + 0.5f));
				else
					av[c] = vp_areg_clamp(c < 2 ? src_a[c] + src_a[c + 2] : src_a[c]);
			}
			if (nv40_vp_VEC_DST_TEMP(insn) != NV40_VP_NONE_TEMP) {
				int32_t *dst_a = st.a[nv40_vp_VEC_DST_TEMP(insn) & 1];

				for (unsigned c = 0; c < 4; c++)
					if (vmask & (8u >> c))
						dst_a[c] = av[c];
			}
		}

		/* Float results: temps, outputs, condition register. */
		if (has_v) {
			if (nv40_vp_VEC_DST_TEMP(insn) != NV40_VP_NONE_TEMP)
				vp_write(st.r[nv40_vp_VEC_DST_TEMP(insn) % VP_TEMPS], vres, vmask);
			if (nv40_vp_VEC_RESULT(insn))
				vp_write_out(&st, insn, out, vres, vmask);
		}
		if (has_s) {
			if (nv40_vp_SCA_DST_TEMP(insn) != NV40_VP_NONE_TEMP)
				vp_write(st.r[nv40_vp_SCA_DST_TEMP(insn) % VP_TEMPS], sres, smask);
			if (!nv40_vp_VEC_RESULT(insn))
				vp_write_out(&st, insn, out, sres, smask);
		}
		if (nv40_vp_COND_UPDATE_EN(insn)) {
			int vec = nv40_vp_COND_UPDATE_VEC(insn);
			const float *res = vec ? vres : sres;
			unsigned m = vec ? vmask : smask;

			if (vec ? has_v : has_s)
				for (unsigned c = 0; c < 4; c++)
					if (m & (8u >> c))
						st.cc[ccsel][c] = vp_cc_of(res[c]);
		}

		/* Flow control and the stack (the scalar half). */
		if (flow_ok) {
			switch (sop) {
			case NV40_VP_SCA_BRA:
				next = nv40_vp_target(insn);
				break;
			case NV40_VP_SCA_CAL:
				if (st.sp >= VP_STACK)
					return -1;
				memset(&st.stack[st.sp], 0, sizeof st.stack[st.sp]);
				st.stack[st.sp++].v[0] = (int32_t)next;
				next = nv40_vp_target(insn);
				break;
			case NV40_VP_SCA_RET:
				if (st.sp == 0)
					return 0;
				next = (unsigned)st.stack[--st.sp].v[0];   /* checked at the top */
				break;
			case NV40_VP_SCA_PUSHA:
				if (st.sp >= VP_STACK)
					return -1;
				memcpy(st.stack[st.sp++].v, st.a[nv40_vp_ADDR_REG_SEL(insn)],
				       sizeof st.stack[0].v);
				break;
			case NV40_VP_SCA_POPA: {
				int32_t *dst_a = st.a[nv40_vp_ADDR_REG_SEL(insn)];

				if (st.sp == 0)
					return -1;
				st.sp--;
				for (unsigned c = 0; c < 4; c++)
					if (nv40_vp_SCA_WRITEMASK(insn) & (8u >> c))
						dst_a[c] = vp_areg_clamp(st.stack[st.sp].v[c]);
				break;
			}
			default:
				break;
			}
		}

		if (nv40_vp_LAST(insn))
			return 0;
		jumped = next <= pc;
		pc = next;
	}
	return 1;   /* the watchdog */
}
