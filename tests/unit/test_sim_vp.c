/* The NV40 vertex program interpreter (sim/3d/vp.c): Mesa's golden
 * encodings, every opcode against hand-computed results, source modifiers,
 * masks, co-issue, condition codes, address registers, branches and the
 * call stack, the error exits, programs encoded the way Mesa's
 * nvfx_vertprog.c emits them, and random words that must never crash.
 * Instructions are assembled from hw/vp-isa.h by the small helpers below.
 * Expected values are chosen exactly representable so that no rounding or
 * fused multiply-add on any host can change them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/disasm.h"
#include "hw/vp-isa.h"
#include "sim/3d/vp.h"
#include "tests/lib/vp-random.h"

static uint32_t code[NV40_VP_INSNS][4];
static uint32_t cst[NV40_VP_CONSTS][4];
static float in[NV40_VP_INPUTS][4];
static float out[NV40_VP_OUTPUTS][4];

#define SENTINEL 7.0f

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	return u;
}

static float u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

/* Bit-exact float comparison: the card model is exact, not close. */
#define assert_f(a, b) assert_int_equal(f2u(a), f2u(b))
#define assert_near(a, b) assert_true(fabsf((a) - (b)) < 1e-5f)

static void assert_vec(const float v[4], float x, float y, float z, float w)
{
	assert_f(v[0], x);
	assert_f(v[1], y);
	assert_f(v[2], z);
	assert_f(v[3], w);
}

static void set_cst(unsigned i, float x, float y, float z, float w)
{
	cst[i][0] = f2u(x);
	cst[i][1] = f2u(y);
	cst[i][2] = f2u(z);
	cst[i][3] = f2u(w);
}

static void set_in(unsigned i, float x, float y, float z, float w)
{
	in[i][0] = x;
	in[i][1] = y;
	in[i][2] = z;
	in[i][3] = w;
}

static int reset(void **state)
{
	(void)state;
	memset(code, 0, sizeof code);
	memset(cst, 0, sizeof cst);
	memset(in, 0, sizeof in);
	for (unsigned o = 0; o < NV40_VP_OUTPUTS; o++)
		for (unsigned c = 0; c < 4; c++)
			out[o][c] = SENTINEL;
	return 0;
}

static int run(unsigned start)
{
	return sim_vp_run((const uint32_t (*)[4])code, start, (const uint32_t (*)[4])cst,
			  (const float (*)[4])in, out);
}

/* ---- a tiny assembler over hw/vp-isa.h ---- */

#define X_ 8u
#define Y_ 4u
#define Z_ 2u
#define W_ 1u
#define XYZW 0xfu

/* Swizzle from text ("wzyx"). */
static uint32_t swz(const char *s)
{
	uint32_t v = 0;

	for (unsigned c = 0; c < 4; c++)
		v = v << 2 | (uint32_t)(strchr("xyzw", s[c]) - "xyzw");
	return v;
}

static uint32_t R(unsigned r)  { return nv40_vp_src_make(NV40_VP_SRC_TEMP, r, NV40_VP_SWZ_IDENTITY, 0); }
static uint32_t V(void)        { return nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0); }
static uint32_t C(void)        { return nv40_vp_src_make(NV40_VP_SRC_CONST, 0, NV40_VP_SWZ_IDENTITY, 0); }
static uint32_t S(uint32_t src, const char *s) { return (src & ~(0xffu << 8)) | swz(s) << 8; }
static uint32_t NEG(uint32_t src) { return src ^ (1u << 16); }

/* An instruction that does nothing: no temps, no output, no condition,
 * unused sources reading v[0] as Mesa encodes them. */
static uint32_t *blank(unsigned slot)
{
	uint32_t *i = code[slot];

	memset(i, 0, 4 * sizeof *i);
	nv40_vp_set_VEC_DST_TEMP(i, NV40_VP_NONE_TEMP);
	nv40_vp_set_SCA_DST_TEMP(i, NV40_VP_NONE_TEMP);
	nv40_vp_set_DEST(i, NV40_VP_NONE_DEST);
	nv40_vp_set_COND(i, NV40_VP_COND_TR);
	nv40_vp_set_COND_SWZ(i, NV40_VP_SWZ_IDENTITY);
	for (unsigned n = 0; n < 3; n++)
		nv40_vp_set_src(i, n, V());
	return i;
}

/* Vector op: dst temp (-1 none) and/or output (-1 none). */
static uint32_t *vec(unsigned slot, unsigned op, int temp, int o, unsigned mask,
		     uint32_t s0, uint32_t s1, uint32_t s2)
{
	uint32_t *i = blank(slot);

	nv40_vp_set_VEC_OPCODE(i, op);
	nv40_vp_set_VEC_WRITEMASK(i, mask);
	if (temp >= 0)
		nv40_vp_set_VEC_DST_TEMP(i, (uint32_t)temp);
	if (o >= 0) {
		nv40_vp_set_VEC_RESULT(i, 1);
		nv40_vp_set_DEST(i, (uint32_t)o);
	}
	nv40_vp_set_src(i, 0, s0);
	nv40_vp_set_src(i, 1, s1);
	nv40_vp_set_src(i, 2, s2);
	return i;
}

/* Scalar op on SRC2, added to whatever the slot holds. */
static uint32_t *sca(uint32_t *i, unsigned op, int temp, int o, unsigned mask, uint32_t s2)
{
	nv40_vp_set_SCA_OPCODE(i, op);
	nv40_vp_set_SCA_WRITEMASK(i, mask);
	if (temp >= 0)
		nv40_vp_set_SCA_DST_TEMP(i, (uint32_t)temp);
	if (o >= 0) {
		nv40_vp_set_VEC_RESULT(i, 0);
		nv40_vp_set_DEST(i, (uint32_t)o);
	}
	nv40_vp_set_src(i, 2, s2);
	return i;
}

static uint32_t *end(unsigned slot)
{
	uint32_t *i = blank(slot);

	nv40_vp_set_LAST(i, 1);
	return i;
}

static uint32_t *flow(unsigned slot, unsigned op, unsigned target)
{
	uint32_t *i = sca(blank(slot), op, -1, -1, 0, V());

	nv40_vp_set_target(i, target);
	return i;
}

static void cond(uint32_t *i, unsigned reg, unsigned c, const char *s)
{
	nv40_vp_set_COND_TEST_EN(i, 1);
	nv40_vp_set_COND_REG_SEL(i, reg);
	nv40_vp_set_COND(i, c);
	nv40_vp_set_COND_SWZ(i, swz(s));
}

static void cc_update(uint32_t *i, unsigned reg, int from_vec)
{
	nv40_vp_set_COND_UPDATE_EN(i, 1);
	nv40_vp_set_COND_UPDATE_VEC(i, (uint32_t)from_vec);
	nv40_vp_set_COND_REG_SEL(i, reg);
}

static uint32_t *with_in(uint32_t *i, unsigned v)   { nv40_vp_set_INPUT_SRC(i, v); return i; }
static uint32_t *with_c(uint32_t *i, unsigned c)    { nv40_vp_set_CONST_SRC(i, c); return i; }

/* ---- golden encodings ---- */

/* nv30_transfer.c: "mov o[hpos], a[0]" and "mov o[tex0], a[8]; end". */
static void golden_encodings_decode_and_copy_inputs(void **state)
{
	static const uint32_t g[2][4] = {
		{ 0x401f9c6c, 0x0040000d, 0x8106c083, 0x6041ff80 },
		{ 0x401f9c6c, 0x0040080d, 0x8106c083, 0x6041ff9d },
	};
	char buf[128];

	(void)state;
	assert_int_equal(nv40_vp_VEC_OPCODE(g[0]), NV40_VP_VEC_MOV);
	assert_int_equal(nv40_vp_SCA_OPCODE(g[0]), NV40_VP_SCA_NOP);
	assert_int_equal(nv40_vp_VEC_RESULT(g[0]), 1);
	assert_int_equal(nv40_vp_VEC_DST_TEMP(g[0]), NV40_VP_NONE_TEMP);
	assert_int_equal(nv40_vp_SCA_DST_TEMP(g[0]), NV40_VP_NONE_TEMP);
	assert_int_equal(nv40_vp_DEST(g[0]), NV40_VP_OUT_POS);
	assert_int_equal(nv40_vp_VEC_WRITEMASK(g[0]), XYZW);
	assert_int_equal(nv40_vp_COND_TEST_EN(g[0]), 0);
	assert_int_equal(nv40_vp_INPUT_SRC(g[0]), 0);
	assert_int_equal(nv40_vp_src(g[0], 0),
			 nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0));
	assert_int_equal(nv40_vp_LAST(g[0]), 0);
	assert_int_equal(nv40_vp_DEST(g[1]), NV40_VP_OUT_TC0);
	assert_int_equal(nv40_vp_INPUT_SRC(g[1]), 8);
	assert_int_equal(nv40_vp_LAST(g[1]), 1);

	memcpy(code[10], g, sizeof g);
	set_in(0, 1, 2, 3, 4);
	set_in(8, 0.5f, 0.25f, -1, 9);
	assert_int_equal(run(10), 0);
	assert_vec(out[NV40_VP_OUT_POS], 1, 2, 3, 4);
	assert_vec(out[NV40_VP_OUT_TC0], 0.5f, 0.25f, -1, 9);
	assert_vec(out[NV40_VP_OUT_COL0], SENTINEL, SENTINEL, SENTINEL, SENTINEL);

	assert_string_equal(hw_vp_disasm(g[0], buf, sizeof buf), "MOV o[POS], v[0];");
	assert_string_equal(hw_vp_disasm(g[1], buf, sizeof buf), "MOV o[TC0], v[8]; END");
}

/* ---- vector ops ---- */

/* R1 = v[1], R2 = v[2], R3 = v[3]; OP o[TC0], R1, R2, R3. */
static void run_vec(unsigned op, const float a[4], const float b[4], const float c[4])
{
	reset(NULL);
	set_in(1, a[0], a[1], a[2], a[3]);
	set_in(2, b[0], b[1], b[2], b[3]);
	set_in(3, c[0], c[1], c[2], c[3]);
	for (unsigned n = 1; n <= 3; n++)
		with_in(vec(n - 1, NV40_VP_VEC_MOV, (int)n, -1, XYZW, V(), V(), V()), n);
	vec(3, op, -1, NV40_VP_OUT_TC0, XYZW, R(1), R(2), R(3));
	end(4);
	assert_int_equal(run(0), 0);
}

static void arithmetic_vector_ops_match_hand_results(void **state)
{
	static const float a[4] = { 1.5f, -2, 3, 0.25f };
	static const float b[4] = { 2, 4, -1, 8 };
	static const float c[4] = { 0.5f, 1, -3, 2 };
	const float *o = out[NV40_VP_OUT_TC0];

	(void)state;
	run_vec(NV40_VP_VEC_MOV, a, b, c); assert_vec(o, 1.5f, -2, 3, 0.25f);
	run_vec(NV40_VP_VEC_MUL, a, b, c); assert_vec(o, 3, -8, -3, 2);
	run_vec(NV40_VP_VEC_ADD, a, b, c); assert_vec(o, 2, -1, 0, 2.25f);   /* SRC0 + SRC2 */
	run_vec(NV40_VP_VEC_MAD, a, b, c); assert_vec(o, 3.5f, -7, -6, 4);
	run_vec(NV40_VP_VEC_DP3, a, b, c); assert_vec(o, -8, -8, -8, -8);
	run_vec(NV40_VP_VEC_DPH, a, b, c); assert_vec(o, 0, 0, 0, 0);        /* -8 + b.w */
	run_vec(NV40_VP_VEC_DP4, a, b, c); assert_vec(o, -6, -6, -6, -6);
	run_vec(NV40_VP_VEC_DST, a, b, c); assert_vec(o, 1, -8, 3, 8);
	run_vec(NV40_VP_VEC_MIN, a, b, c); assert_vec(o, 1.5f, -2, -1, 0.25f);
	run_vec(NV40_VP_VEC_MAX, a, b, c); assert_vec(o, 2, 4, 3, 8);
	run_vec(NV40_VP_VEC_NOP, a, b, c); assert_vec(o, SENTINEL, SENTINEL, SENTINEL, SENTINEL);
}

static void set_on_vector_ops_compare_src0_with_src1(void **state)
{
	static const float a[4] = { 1, 2, 3, 4 };
	static const float b[4] = { 2, 2, 2, 5 };
	const float *o = out[NV40_VP_OUT_TC0];

	(void)state;
	run_vec(NV40_VP_VEC_SLT, a, b, b); assert_vec(o, 1, 0, 0, 1);
	run_vec(NV40_VP_VEC_SGE, a, b, b); assert_vec(o, 0, 1, 1, 0);
	run_vec(NV40_VP_VEC_SEQ, a, b, b); assert_vec(o, 0, 1, 0, 0);
	run_vec(NV40_VP_VEC_SFL, a, b, b); assert_vec(o, 0, 0, 0, 0);
	run_vec(NV40_VP_VEC_SGT, a, b, b); assert_vec(o, 0, 0, 1, 0);
	run_vec(NV40_VP_VEC_SLE, a, b, b); assert_vec(o, 1, 1, 0, 1);
	run_vec(NV40_VP_VEC_SNE, a, b, b); assert_vec(o, 1, 0, 1, 1);
	run_vec(NV40_VP_VEC_STR, a, b, b); assert_vec(o, 1, 1, 1, 1);
}

static void rounding_and_sign_vector_ops(void **state)
{
	static const float a[4] = { 1.25f, -1.25f, 3, -0.5f };
	static const float s[4] = { 1.5f, -2, 0, 7 };
	const float *o = out[NV40_VP_OUT_TC0];

	(void)state;
	run_vec(NV40_VP_VEC_FRC, a, a, a); assert_vec(o, 0.25f, 0.75f, 0, 0.5f);
	run_vec(NV40_VP_VEC_FLR, a, a, a); assert_vec(o, 1, -2, 3, -1);
	run_vec(NV40_VP_VEC_SSG, s, s, s); assert_vec(o, 1, -1, 0, 1);
}

/* ---- scalar ops ---- */

/* Mesa's shape: R3 = v[3]; OP o[TC0], R3.x on the scalar unit (SRC2). */
static void run_sca(unsigned op, float x, float y, float z, float w)
{
	reset(NULL);
	set_in(3, x, y, z, w);
	with_in(vec(0, NV40_VP_VEC_MOV, 3, -1, XYZW, V(), V(), V()), 3);
	sca(blank(1), op, -1, NV40_VP_OUT_TC0, XYZW, R(3));
	end(2);
	assert_int_equal(run(0), 0);
}

static void simple_scalar_ops_broadcast_their_result(void **state)
{
	const float *o = out[NV40_VP_OUT_TC0];

	(void)state;
	run_sca(NV40_VP_SCA_MOV, 2.5f, 9, 9, 9); assert_vec(o, 2.5f, 2.5f, 2.5f, 2.5f);
	run_sca(NV40_VP_SCA_RCP, 4, 9, 9, 9);    assert_vec(o, 0.25f, 0.25f, 0.25f, 0.25f);
	run_sca(NV40_VP_SCA_RSQ, 4, 9, 9, 9);    assert_vec(o, 0.5f, 0.5f, 0.5f, 0.5f);
	run_sca(NV40_VP_SCA_RSQ, -16, 9, 9, 9);  assert_f(o[0], 0.25f);   /* of |x| */
	run_sca(NV40_VP_SCA_LG2, 8, 9, 9, 9);    assert_vec(o, 3, 3, 3, 3);
	run_sca(NV40_VP_SCA_LG2, -0.25f, 9, 9, 9); assert_f(o[0], -2);
	run_sca(NV40_VP_SCA_EX2, -2, 9, 9, 9);   assert_vec(o, 0.25f, 0.25f, 0.25f, 0.25f);
	run_sca(NV40_VP_SCA_EX2, 3, 9, 9, 9);    assert_f(o[3], 8);
	run_sca(NV40_VP_SCA_SIN, 0, 9, 9, 9);    assert_vec(o, 0, 0, 0, 0);
	run_sca(NV40_VP_SCA_COS, 0, 9, 9, 9);    assert_vec(o, 1, 1, 1, 1);
	run_sca(NV40_VP_SCA_SIN, 1.5707964f, 9, 9, 9); assert_near(o[1], 1.0f);
	run_sca(NV40_VP_SCA_COS, 3.1415927f, 9, 9, 9); assert_near(o[2], -1.0f);
	run_sca(NV40_VP_SCA_NOP, 1, 1, 1, 1);    assert_vec(o, SENTINEL, SENTINEL, SENTINEL, SENTINEL);
}

static void rcp_and_rsq_give_signed_infinity_and_rcc_clamps(void **state)
{
	const float *o = out[NV40_VP_OUT_TC0];
	const float two64 = 18446744073709551616.0f;

	(void)state;
	run_sca(NV40_VP_SCA_RCP, 0, 0, 0, 0);     assert_f(o[0], INFINITY);
	run_sca(NV40_VP_SCA_RCP, -0.0f, 0, 0, 0); assert_f(o[0], -INFINITY);
	run_sca(NV40_VP_SCA_RCP, INFINITY, 0, 0, 0); assert_f(o[0], 0);
	run_sca(NV40_VP_SCA_RSQ, 0, 0, 0, 0);     assert_f(o[0], INFINITY);
	run_sca(NV40_VP_SCA_RCC, 0, 0, 0, 0);     assert_f(o[0], two64);
	run_sca(NV40_VP_SCA_RCC, -0.0f, 0, 0, 0); assert_f(o[0], -two64);
	run_sca(NV40_VP_SCA_RCC, ldexpf(1, -70), 0, 0, 0); assert_f(o[0], two64);
	run_sca(NV40_VP_SCA_RCC, ldexpf(1, 70), 0, 0, 0);  assert_f(o[0], 1 / two64);
	run_sca(NV40_VP_SCA_RCC, -0.5f, 0, 0, 0); assert_vec(o, -2, -2, -2, -2);
}

static void exp_log_lit_produce_their_vectors(void **state)
{
	const float *o = out[NV40_VP_OUT_TC0];

	(void)state;
	run_sca(NV40_VP_SCA_EXP, 3, 0, 0, 0);     assert_vec(o, 8, 0, 8, 1);
	run_sca(NV40_VP_SCA_EXP, -1.5f, 0, 0, 0);
	assert_f(o[0], 0.25f); assert_f(o[1], 0.5f); assert_near(o[2], 0.35355339f); assert_f(o[3], 1);
	run_sca(NV40_VP_SCA_LOG, 10, 0, 0, 0);
	assert_f(o[0], 3); assert_f(o[1], 1.25f); assert_near(o[2], 3.3219281f); assert_f(o[3], 1);
	run_sca(NV40_VP_SCA_LOG, -8, 0, 0, 0);    assert_vec(o, 3, 1, 3, 1);
	run_sca(NV40_VP_SCA_LOG, 0, 0, 0, 0);     assert_vec(o, -INFINITY, 1, -INFINITY, 1);
	/* LIT (x, y, -, w) = (1, max(x,0), x > 0 ? max(y,0)^w : 0, 1) */
	run_sca(NV40_VP_SCA_LIT, 0.5f, 4, 9, 0.5f); assert_vec(o, 1, 0.5f, 2, 1);
	run_sca(NV40_VP_SCA_LIT, -1, 4, 9, 0.5f);   assert_vec(o, 1, 0, 0, 1);
	run_sca(NV40_VP_SCA_LIT, 1, -4, 9, 2);      assert_vec(o, 1, 1, 0, 1);
	run_sca(NV40_VP_SCA_LIT, 1, 0, 9, 0);       assert_vec(o, 1, 1, 1, 1);   /* 0^0 */
	run_sca(NV40_VP_SCA_LIT, 1, 2, 9, 200);     /* exponent clamped below 128 */
	assert_true(isfinite(o[2]) && o[2] > 1e38f);
}

/* ---- modifiers and masks ---- */

static void swizzle_negate_abs_apply_in_that_order(void **state)
{
	(void)state;
	set_in(1, 1, -2, 3, -4);
	with_in(vec(0, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, S(V(), "wzyx"), V(), V()), 1);
	nv40_vp_set_SRC0_ABS(code[0], 1);
	nv40_vp_set_src(code[0], 0, NEG(nv40_vp_src(code[0], 0)));
	with_in(vec(1, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC1, XYZW, NEG(S(V(), "xxyy")), V(), V()), 1);
	with_in(vec(2, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC2, XYZW, S(V(), "wwzx"), V(), V()), 1);
	nv40_vp_set_SRC0_ABS(code[2], 1);
	end(3);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], -4, -3, -2, -1);   /* -|v.wzyx| */
	assert_vec(out[NV40_VP_OUT_TC1], -1, -1, 2, 2);
	assert_vec(out[NV40_VP_OUT_TC2], 4, 4, 3, 1);
}

static void saturate_clamps_both_halves_and_nan_to_zero(void **state)
{
	(void)state;
	set_in(1, -0.5f, 0.5f, 2, u2f(0x7fc00000));
	with_in(vec(0, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, V(), V(), V()), 1);
	nv40_vp_set_SAT(code[0], 1);
	with_in(sca(blank(1), NV40_VP_SCA_MOV, -1, NV40_VP_OUT_TC1, XYZW, S(V(), "zzzz")), 1);
	nv40_vp_set_SAT(code[1], 1);
	end(2);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 0, 0.5f, 1, 0);
	assert_vec(out[NV40_VP_OUT_TC1], 1, 1, 1, 1);
}

static void write_masks_limit_temps_and_outputs_per_half(void **state)
{
	(void)state;
	set_in(1, 1, 2, 3, 4);
	set_in(2, 8, 8, 8, 8);
	/* R1.xz = v[1] (vector) and R1.yw = 1/v[1].w (scalar), one instruction each */
	with_in(vec(0, NV40_VP_VEC_MOV, 1, -1, X_ | Z_, V(), V(), V()), 1);
	with_in(sca(blank(1), NV40_VP_SCA_RCP, 1, -1, Y_ | W_, S(V(), "wwww")), 1);
	vec(2, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, R(1), V(), V());
	with_in(vec(3, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_COL0, Y_ | W_, V(), V(), V()), 2);
	end(4);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 1, 0.25f, 3, 0.25f);
	assert_vec(out[NV40_VP_OUT_COL0], SENTINEL, 8, SENTINEL, 8);
}

/* One instruction: vector R1 = R2 and scalar R2 = R1.x: a swap, because
 * both halves read before either writes. */
static void coissued_halves_read_old_values(void **state)
{
	uint32_t *i;

	(void)state;
	set_in(1, 1, 1, 1, 1);
	set_in(2, 5, 6, 7, 8);
	with_in(vec(0, NV40_VP_VEC_MOV, 1, -1, XYZW, V(), V(), V()), 1);
	with_in(vec(1, NV40_VP_VEC_MOV, 2, -1, XYZW, V(), V(), V()), 2);
	i = vec(2, NV40_VP_VEC_MOV, 1, -1, XYZW, R(2), V(), V());
	sca(i, NV40_VP_SCA_MOV, 2, -1, XYZW, S(R(1), "xxxx"));
	/* co-issue with outputs: vector to o[TC0], scalar to temp R3; the
	 * vector half's MAD shares SRC2 with the scalar half */
	i = vec(3, NV40_VP_VEC_MAD, -1, NV40_VP_OUT_TC0, XYZW, R(1), R(2), R(2));
	sca(i, NV40_VP_SCA_RCP, 3, -1, XYZW, S(R(1), "yyyy"));
	vec(4, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC1, XYZW, R(2), V(), V());
	vec(5, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC2, XYZW, R(3), V(), V());
	end(6);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 11, 12, 13, 14);        /* R1 * R2 + R1.y */
	assert_vec(out[NV40_VP_OUT_TC1], 1, 1, 1, 1);            /* R2 got old R1.x */
	assert_vec(out[NV40_VP_OUT_TC2], 1.0f / 6, 1.0f / 6, 1.0f / 6, 1.0f / 6);
}

/* ---- condition codes ---- */

/* Mesa's CMP: MOVC (cc only); MOV dst (GE), src2; MOV dst (LT), src1. */
static void cc_update_then_conditional_writes(void **state)
{
	uint32_t *i;

	(void)state;
	set_in(1, -1, 0, 2, u2f(0x7fc00000));
	set_in(2, 10, 20, 30, 40);
	set_in(3, -10, -20, -30, -40);
	i = with_in(vec(0, NV40_VP_VEC_MOV, -1, -1, XYZW, V(), V(), V()), 1);
	cc_update(i, 0, 1);
	i = with_in(vec(1, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, V(), V(), V()), 2);
	cond(i, 0, NV40_VP_COND_GE, "xyzw");
	i = with_in(vec(2, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, V(), V(), V()), 3);
	cond(i, 0, NV40_VP_COND_LT, "xyzw");
	/* NaN is unordered: passes NE, fails EQ; swizzle replicates cc.w / cc.y */
	i = with_in(vec(3, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC1, XYZW, V(), V(), V()), 2);
	cond(i, 0, NV40_VP_COND_NE, "wwyy");
	i = with_in(vec(4, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC2, XYZW, V(), V(), V()), 2);
	cond(i, 0, NV40_VP_COND_EQ, "wwyy");
	/* CC1 was never written: all EQ */
	i = with_in(vec(5, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC3, XYZW, V(), V(), V()), 2);
	cond(i, 1, NV40_VP_COND_EQ, "xyzw");
	end(6);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], -10, 20, 30, SENTINEL);
	assert_vec(out[NV40_VP_OUT_TC1], 10, 20, SENTINEL, SENTINEL);
	assert_vec(out[NV40_VP_OUT_TC2], SENTINEL, SENTINEL, 30, 40);
	assert_vec(out[NV40_VP_OUT_TC3], 10, 20, 30, 40);
}

/* CC written from the scalar half, into CC1, under the scalar mask. */
static void cc_update_from_scalar_half_respects_mask_and_register(void **state)
{
	uint32_t *i;

	(void)state;
	set_in(1, -3, 0, 0, 0);
	set_in(2, 1, 2, 3, 4);
	i = with_in(sca(blank(0), NV40_VP_SCA_MOV, -1, -1, X_ | Y_, V()), 1);   /* -3 */
	cc_update(i, 1, 0);
	i = with_in(vec(1, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, V(), V(), V()), 2);
	cond(i, 1, NV40_VP_COND_LT, "xyzw");
	i = with_in(vec(2, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC1, XYZW, V(), V(), V()), 2);
	cond(i, 0, NV40_VP_COND_LT, "xyzw");   /* CC0 untouched */
	end(3);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 1, 2, SENTINEL, SENTINEL);
	assert_vec(out[NV40_VP_OUT_TC1], SENTINEL, SENTINEL, SENTINEL, SENTINEL);
}

/* ---- address registers ---- */

static void arl_indexes_constants_with_offset_and_swizzle(void **state)
{
	uint32_t *i;

	(void)state;
	for (unsigned k = 0; k < 40; k++)
		set_cst(k, (float)k, (float)k + 0.5f, 0, 1);
	set_cst(88, 88, 88, 88, 88);
	set_in(1, 2.7f, -1.5f, 7, 30);
	/* ARL A0, v[1] -> (2, -2, 7, 30) */
	with_in(vec(0, NV40_VP_VEC_ARL, 0, -1, XYZW, V(), V(), V()), 1);
	with_c(vec(1, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, C(), V(), V()), 3);
	nv40_vp_set_INDEX_CONST(code[1], 1);                       /* c[A0.x + 3] = c[5] */
	i = with_c(vec(2, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC1, XYZW, C(), V(), V()), 3);
	nv40_vp_set_INDEX_CONST(i, 1);
	nv40_vp_set_ADDR_SWZ(i, 1);                                /* c[A0.y + 3] = c[1] */
	i = with_c(vec(3, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC2, XYZW, C(), V(), V()), 460);
	nv40_vp_set_INDEX_CONST(i, 1);
	nv40_vp_set_ADDR_SWZ(i, 2);                                /* c[467] (last) */
	i = with_c(vec(4, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC3, XYZW, C(), V(), V()), 440);
	nv40_vp_set_INDEX_CONST(i, 1);
	nv40_vp_set_ADDR_SWZ(i, 3);                                /* c[470]: outside */
	end(5);
	set_cst(467, -1, -2, -3, -4);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 5, 5.5f, 0, 1);
	assert_vec(out[NV40_VP_OUT_TC1], 1, 1.5f, 0, 1);
	assert_vec(out[NV40_VP_OUT_TC2], -1, -2, -3, -4);
	assert_vec(out[NV40_VP_OUT_TC3], 0, 0, 0, 0);
}

static void arr_ara_second_register_and_clamping(void **state)
{
	uint32_t *i;

	(void)state;
	for (unsigned k = 0; k < 100; k++)
		set_cst(k, (float)k, (float)k, (float)k, (float)k);
	set_in(1, 2.5f, -2.5f, 10, 20);
	set_in(2, -1e9f, 1e9f, u2f(0x7fc00000), 0);
	/* ARR A1, v[1] -> (3, -2, 10, 20) */
	with_in(vec(0, NV40_VP_VEC_ARR, 1, -1, XYZW, V(), V(), V()), 1);
	i = with_c(vec(1, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, X_, C(), V(), V()), 0);
	nv40_vp_set_INDEX_CONST(i, 1);
	nv40_vp_set_ADDR_REG_SEL(i, 1);                            /* c[A1.x] = c[3] */
	i = with_c(vec(2, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, Y_, C(), V(), V()), 10);
	nv40_vp_set_INDEX_CONST(i, 1);
	nv40_vp_set_ADDR_REG_SEL(i, 1);
	nv40_vp_set_ADDR_SWZ(i, 1);                                /* c[A1.y + 10] = c[8] */
	/* ARA A0.xy, A1: A0 = (3 + 10, -2 + 20) */
	i = vec(3, NV40_VP_VEC_ARA, 0, -1, X_ | Y_, V(), V(), V());
	nv40_vp_set_ADDR_REG_SEL(i, 1);
	i = with_c(vec(4, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC1, X_, C(), V(), V()), 0);
	nv40_vp_set_INDEX_CONST(i, 1);                             /* c[13] */
	i = with_c(vec(5, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC1, Y_, C(), V(), V()), 0);
	nv40_vp_set_INDEX_CONST(i, 1);
	nv40_vp_set_ADDR_SWZ(i, 1);                                /* c[18] */
	/* ARL A0, v[2]: clamped to (-512, 511, 0 for NaN, 0) */
	with_in(vec(6, NV40_VP_VEC_ARL, 0, -1, XYZW, V(), V(), V()), 2);
	i = with_c(vec(7, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC2, X_, C(), V(), V()), 600);
	nv40_vp_set_INDEX_CONST(i, 1);                             /* c[88] */
	i = with_c(vec(8, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC2, Y_, C(), V(), V()), 0);
	nv40_vp_set_INDEX_CONST(i, 1);
	nv40_vp_set_ADDR_SWZ(i, 1);                                /* c[511]: outside */
	i = with_c(vec(9, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC2, Z_, C(), V(), V()), 7);
	nv40_vp_set_INDEX_CONST(i, 1);
	nv40_vp_set_ADDR_SWZ(i, 2);                                /* c[7] */
	end(10);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 3, 8, SENTINEL, SENTINEL);
	assert_vec(out[NV40_VP_OUT_TC1], 13, 18, SENTINEL, SENTINEL);
	assert_vec(out[NV40_VP_OUT_TC2], 88, 0, 7, SENTINEL);
}

static void indexed_inputs_and_outputs(void **state)
{
	uint32_t *i;

	(void)state;
	set_in(0, 2, 3, 20, -1);
	set_in(3, 33, 33, 33, 33);
	set_in(4, 44, 44, 44, 44);
	with_in(vec(0, NV40_VP_VEC_ARL, 0, -1, XYZW, V(), V(), V()), 0);      /* A0 = (2,3,20,-1) */
	i = with_in(vec(1, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, V(), V(), V()), 1);
	nv40_vp_set_INDEX_INPUT(i, 1);                             /* v[A0.x + 1] = v[3] */
	i = with_in(vec(2, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, V(), V(), V()), 1);
	nv40_vp_set_INDEX_INPUT(i, 1);
	nv40_vp_set_INDEX_OUTPUT(i, 1);
	nv40_vp_set_ADDR_SWZ(i, 1);                                /* o[TC0 + 3] = v[4] */
	i = with_in(vec(3, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, V(), V(), V()), 1);
	nv40_vp_set_INDEX_INPUT(i, 1);
	nv40_vp_set_INDEX_OUTPUT(i, 1);
	nv40_vp_set_ADDR_SWZ(i, 2);                                /* v[21], o[27]: neither exist */
	i = with_in(vec(4, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_COL0, XYZW, V(), V(), V()), 1);
	nv40_vp_set_INDEX_INPUT(i, 1);
	nv40_vp_set_ADDR_SWZ(i, 2);                                /* v[21] reads zero */
	end(5);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 33, 33, 33, 33);
	assert_vec(out[NV40_VP_OUT_TC3], 44, 44, 44, 44);
	assert_vec(out[NV40_VP_OUT_COL0], 0, 0, 0, 0);
	assert_vec(out[NV40_VP_OUT_TC7], SENTINEL, SENTINEL, SENTINEL, SENTINEL);
}

/* ---- flow control ---- */

static void cal_and_ret_run_a_subroutine(void **state)
{
	(void)state;
	set_cst(1, 1, 1, 1, 1);
	set_cst(2, 2, 2, 2, 2);
	flow(0, NV40_VP_SCA_CAL, 3);
	with_c(vec(1, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, C(), V(), V()), 1);
	end(2);
	with_c(vec(3, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC1, XYZW, C(), V(), V()), 2);
	flow(4, NV40_VP_SCA_RET, 0);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 1, 1, 1, 1);
	assert_vec(out[NV40_VP_OUT_TC1], 2, 2, 2, 2);
}

/* Mesa's IF: MOVC x; BRA (EQ.xxxx) else. */
static void build_if(float x)
{
	uint32_t *i;

	reset(NULL);
	set_cst(1, 1, 1, 1, 1);
	set_cst(2, 2, 2, 2, 2);
	set_in(1, x, 5, 5, 5);
	i = with_in(vec(0, NV40_VP_VEC_MOV, -1, -1, X_, V(), V(), V()), 1);
	cc_update(i, 0, 1);
	cond(flow(1, NV40_VP_SCA_BRA, 300), 0, NV40_VP_COND_EQ, "xxxx");
	with_c(vec(2, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, C(), V(), V()), 1);
	end(3);
	with_c(vec(300, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, C(), V(), V()), 2);
	end(301);
}

static void conditional_bra_follows_the_condition(void **state)
{
	(void)state;
	build_if(0);                  /* x == 0: taken */
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 2, 2, 2, 2);
	build_if(-3);                 /* x < 0: not taken */
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 1, 1, 1, 1);
	build_if(0);                  /* target 300 is bits 8:3 and 2:0 of the field */
	assert_int_equal(nv40_vp_target(code[1]), 300);
}

/* Even slots 0, 2 .. 14 each call the next even slot (eight nested calls);
 * every odd slot returns, so the returns unwind 17 -> 15 -> .. -> 1 and
 * the last RET finds the stack empty and ends the program.  A ninth level
 * overflows the stack. */
static void call_stack_holds_eight_returns(void **state)
{
	(void)state;
	set_in(1, 4, 4, 4, 4);
	for (unsigned k = 0; k < 8; k++) {
		flow(2 * k, NV40_VP_SCA_CAL, 2 * k + 2);
		flow(2 * k + 1, NV40_VP_SCA_RET, 0);
	}
	with_in(vec(16, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, V(), V(), V()), 1);
	flow(17, NV40_VP_SCA_RET, 0);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 4, 4, 4, 4);

	reset(NULL);
	for (unsigned k = 0; k < 9; k++)
		flow(2 * k, NV40_VP_SCA_CAL, 2 * k + 2);
	end(18);
	assert_int_equal(run(0), -1);
}

static void ret_on_empty_stack_ends_the_program(void **state)
{
	(void)state;
	set_in(1, 3, 3, 3, 3);
	with_in(vec(0, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, V(), V(), V()), 1);
	flow(1, NV40_VP_SCA_RET, 0);
	vec(2, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC1, XYZW, V(), V(), V());   /* not reached */
	end(3);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 3, 3, 3, 3);
	assert_vec(out[NV40_VP_OUT_TC1], SENTINEL, SENTINEL, SENTINEL, SENTINEL);
}

static void pusha_popa_save_and_restore_an_address_register(void **state)
{
	uint32_t *i;

	(void)state;
	for (unsigned k = 0; k < 10; k++)
		set_cst(k, (float)k, (float)k, (float)k, (float)k);
	set_in(1, 4, 0, 0, 0);
	set_in(2, 9, 0, 0, 0);
	with_in(vec(0, NV40_VP_VEC_ARL, 0, -1, XYZW, V(), V(), V()), 1);     /* A0.x = 4 */
	sca(blank(1), NV40_VP_SCA_PUSHA, -1, -1, 0, V());
	with_in(vec(2, NV40_VP_VEC_ARL, 0, -1, XYZW, V(), V(), V()), 2);     /* A0.x = 9 */
	i = with_c(vec(3, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, X_, C(), V(), V()), 0);
	nv40_vp_set_INDEX_CONST(i, 1);
	sca(blank(4), NV40_VP_SCA_POPA, -1, -1, XYZW, V());                  /* A0.x = 4 */
	i = with_c(vec(5, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, Y_, C(), V(), V()), 0);
	nv40_vp_set_INDEX_CONST(i, 1);
	sca(blank(6), NV40_VP_SCA_POPA, -1, -1, XYZW, V());                  /* empty: error */
	end(7);
	assert_int_equal(run(0), -1);
	assert_vec(out[NV40_VP_OUT_TC0], 9, 4, SENTINEL, SENTINEL);
}

/* Zero times anything is +0 in the transform engine's multiplier, so
 * Mesa's pow(0, 0) = EX2(LG2(0) * 0) is 1 (fixed-function spot lights with
 * exponent 0 depend on it), and MUL/MAD/DP4 ignore Inf and NaN against a
 * zero factor.  Sums keep IEEE rules. */
static void zero_times_anything_is_zero(void **state)
{
	(void)state;
	set_in(1, 0, 0, 0, 0);
	set_in(2, INFINITY, NAN, -INFINITY, 2);
	set_cst(1, 0, 0, 0, 0);
	set_cst(3, 0, 0, 0, 3);
	with_in(sca(blank(0), NV40_VP_SCA_LG2, 1, -1, X_, S(V(), "xxxx")), 1);     /* R1.x = -inf */
	with_c(vec(1, NV40_VP_VEC_MUL, 1, -1, X_, S(R(1), "xxxx"), S(C(), "xxxx"), V()), 1);
	sca(blank(2), NV40_VP_SCA_EX2, -1, NV40_VP_OUT_TC0, XYZW, S(R(1), "xxxx"));
	with_c(with_in(vec(3, NV40_VP_VEC_MAD, -1, NV40_VP_OUT_TC1, XYZW, V(), C(), C()), 2), 3);
	with_c(with_in(vec(4, NV40_VP_VEC_DP4, -1, NV40_VP_OUT_TC2, XYZW, V(), C(), V()), 2), 3);
	with_in(vec(5, NV40_VP_VEC_ADD, -1, NV40_VP_OUT_TC3, XYZW, V(), V(), S(V(), "zzzz")), 2);
	end(6);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 1, 1, 1, 1);          /* 2^(-inf * 0) = 2^0 */
	assert_vec(out[NV40_VP_OUT_TC1], 0, 0, 0, 9);          /* (inf, nan, -inf, 2) * (0,0,0,3) + (0,0,0,3) */
	assert_vec(out[NV40_VP_OUT_TC2], 6, 6, 6, 6);
	assert_true(isnan(out[NV40_VP_OUT_TC3][0]));           /* inf + -inf */
}

/* ---- error exits ---- */

static void runaway_and_bad_programs_fail(void **state)
{
	(void)state;
	flow(0, NV40_VP_SCA_BRA, 0);                       /* loops forever: the watchdog */
	assert_int_equal(run(0), 1);
	reset(NULL);
	blank(NV40_VP_INSNS - 1);                          /* runs off the end */
	assert_int_equal(run(NV40_VP_INSNS - 1), -1);
	assert_int_equal(run(NV40_VP_INSNS), -1);          /* start outside */
	assert_int_equal(run(~0u), -1);
	end(5);
	assert_int_equal(run(5), 0);
	sca(end(5), 0x08, -1, -1, 0, V());                 /* unknown scalar op */
	assert_int_equal(run(5), -1);
	sca(end(5), 0x15, -1, -1, 0, V());
	assert_int_equal(run(5), -1);
	nv40_vp_set_VEC_OPCODE(end(5), NV40_VP_VEC_TXL);   /* not modelled */
	assert_int_equal(run(5), -1);
	nv40_vp_set_VEC_OPCODE(end(5), 0x1f);
	assert_int_equal(run(5), -1);
	/* a loop that ends by LAST on the branch itself still terminates */
	nv40_vp_set_LAST(flow(6, NV40_VP_SCA_BRA, 6), 1);
	assert_int_equal(run(6), 0);
}

/* A loop that never ends is stopped by the watchdog after exactly
 * NV40_VP_TIMEOUT instructions and the vertex keeps what it wrote: slot 0
 * writes TC0, then slots 1-2 (ADD R0 += 1 also into TC1; BRA 1) repeat.
 * Slot 0 plus (TIMEOUT - 1) / 2 ADD/BRA pairs fill the budget, so TC1 holds
 * that count; slot 3, after the loop, never runs. */
static void watchdog_stops_a_runaway_loop_and_keeps_its_outputs(void **state)
{
	(void)state;
	set_cst(1, 1, 1, 1, 1);
	set_in(1, 7, 7, 7, 7);
	with_in(vec(0, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC0, XYZW, V(), V(), V()), 1);
	with_c(vec(1, NV40_VP_VEC_ADD, 0, NV40_VP_OUT_TC1, XYZW, R(0), V(), C()), 1);
	flow(2, NV40_VP_SCA_BRA, 1);
	with_c(vec(3, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_TC2, XYZW, C(), V(), V()), 1);
	end(4);
	assert_int_equal(run(0), 1);
	assert_vec(out[NV40_VP_OUT_TC0], 7, 7, 7, 7);
	float adds = (float)((NV40_VP_TIMEOUT - 1) / 2);   /* 32767 */
	assert_vec(out[NV40_VP_OUT_TC1], adds, adds, adds, adds);
	assert_vec(out[NV40_VP_OUT_TC2], SENTINEL, SENTINEL, SENTINEL, SENTINEL);
}

/* A runaway loop whose whole state comes back (R0's components rotate:
 * every third round is the same machine) still ends exactly where the
 * watchdog stops it, rounds skipped or not: the rotations done tell the
 * count to the instruction.  With the loop R0 = R0.yzxw, BRA 1 after slot
 * 0: (TIMEOUT - 1) / 2 = 32767 rotations, 1 mod 3; with a NOP between
 * them, 21845 rotations (the last round cut after the NOP), 2 mod 3. */
static void watchdog_count_is_exact_through_a_repeating_loop(void **state)
{
	(void)state;
	for (unsigned nop = 0; nop < 2; nop++) {
		reset(NULL);
		set_cst(1, 1, 2, 3, 0);
		with_c(vec(0, NV40_VP_VEC_MOV, 0, -1, XYZW, C(), V(), V()), 1);
		vec(1, NV40_VP_VEC_MOV, 0, NV40_VP_OUT_TC1, XYZW, S(R(0), "yzxw"), V(), V());
		if (nop)
			blank(2);
		flow(2 + nop, NV40_VP_SCA_BRA, 1);
		assert_int_equal(run(0), 1);
		if (nop)
			assert_vec(out[NV40_VP_OUT_TC1], 3, 1, 2, 0);   /* 21845 rotations */
		else
			assert_vec(out[NV40_VP_OUT_TC1], 2, 3, 1, 0);   /* 32767 rotations */
	}
}

/* ---- programs as Mesa's nvfx_vertprog.c emits them ---- */

/* The emitter's choices, spelled out: cc test TR with identity cc swizzle;
 * unused sources are INPUT with identity swizzle; a vector-slot op sets
 * SCA_DEST_TEMP_MASK (0x1f in Mesa's 5-bit field), a scalar-slot op sets
 * VEC_DEST_TEMP 0x3f; an output destination sets VEC_RESULT (vector) or
 * SCA_RESULT (Mesa's bit 12) with the temp field all ones; a temp
 * destination sets DEST 0x1f; constants relocated to heap start + index. */
enum { M_NONE, M_TEMP, M_INPUT, M_CONST, M_OUT };
struct m_reg { int type, index; const char *swz; int neg; };
#define M_CONST_HEAP 6   /* Mesa reserves 0..5 for user clip planes */

static uint32_t m_src(uint32_t *hw, struct m_reg r)
{
	uint32_t type = NV40_VP_SRC_INPUT, reg = 0;

	switch (r.type) {
	case M_TEMP:  type = NV40_VP_SRC_TEMP; reg = (uint32_t)r.index; break;
	case M_INPUT: nv40_vp_set_INPUT_SRC(hw, (uint32_t)r.index); break;
	case M_CONST: type = NV40_VP_SRC_CONST;
		      nv40_vp_set_CONST_SRC(hw, M_CONST_HEAP + (uint32_t)r.index); break;
	default: break;
	}
	return nv40_vp_src_make(type, reg, r.swz ? swz(r.swz) : NV40_VP_SWZ_IDENTITY,
				(uint32_t)r.neg);
}

static void m_emit(unsigned slot, int is_sca, unsigned op, struct m_reg dst, unsigned mask,
		   struct m_reg s0, struct m_reg s1, struct m_reg s2)
{
	uint32_t *hw = code[slot];

	memset(hw, 0, 4 * sizeof *hw);
	nv40_vp_set_COND(hw, NV40_VP_COND_TR);
	nv40_vp_set_COND_SWZ(hw, NV40_VP_SWZ_IDENTITY);
	if (!is_sca) {
		nv40_vp_set_VEC_OPCODE(hw, op);
		nv40_vp_set_SCA_DST_TEMP(hw, 0x1f);            /* Mesa's "none" */
		nv40_vp_set_VEC_WRITEMASK(hw, mask);
	} else {
		nv40_vp_set_SCA_OPCODE(hw, op);
		nv40_vp_set_VEC_DST_TEMP(hw, NV40_VP_NONE_TEMP);
		nv40_vp_set_SCA_WRITEMASK(hw, mask);
	}
	switch (dst.type) {
	case M_TEMP:
		nv40_vp_set_DEST(hw, NV40_VP_NONE_DEST);
		if (!is_sca)
			nv40_vp_set_VEC_DST_TEMP(hw, (uint32_t)dst.index);
		else
			nv40_vp_set_SCA_DST_TEMP(hw, (uint32_t)dst.index);
		break;
	case M_OUT:
		nv40_vp_set_DEST(hw, (uint32_t)dst.index);
		if (!is_sca) {
			nv40_vp_set_VEC_RESULT(hw, 1);
			nv40_vp_set_VEC_DST_TEMP(hw, NV40_VP_NONE_TEMP);
		} else {
			nv40_vp_set_SCA_DST_TEMP(hw, 0x20 | 0x1f);   /* SCA_RESULT | mask */
		}
		break;
	default:
		nv40_vp_set_DEST(hw, NV40_VP_NONE_DEST);
		if (!is_sca)
			nv40_vp_set_VEC_DST_TEMP(hw, NV40_VP_NONE_TEMP);
		else
			nv40_vp_set_SCA_DST_TEMP(hw, 0x1f);
		break;
	}
	nv40_vp_set_src(hw, 0, m_src(hw, s0));
	nv40_vp_set_src(hw, 1, m_src(hw, s1));
	nv40_vp_set_src(hw, 2, m_src(hw, s2));
}

#define MN       ((struct m_reg){ M_NONE, 0, NULL, 0 })
#define MT(i)    ((struct m_reg){ M_TEMP, (i), NULL, 0 })
#define MI(i)    ((struct m_reg){ M_INPUT, (i), NULL, 0 })
#define MC(i)    ((struct m_reg){ M_CONST, (i), NULL, 0 })
#define MO(i)    ((struct m_reg){ M_OUT, (i), NULL, 0 })
#define MS(r, s) ((struct m_reg){ (r).type, (r).index, (s), (r).neg })

/* gl_Position = mvp * pos; colour = col; as TGSI DP4 x4 + MOV + END (NOP|LAST). */
static void mesa_mvp_transform_matches_cpu_reference(void **state)
{
	static const float m[4][4] = {
		{ 2, 0, 0, 1 }, { 0, 3, 0, -2 }, { 1, 0, -1, 0.5f }, { 0, 0, 1, 4 },
	};
	static const float pos[4] = { 1, 2, 3, 1 };
	float ref[4];
	char buf[128];

	(void)state;
	for (unsigned r = 0; r < 4; r++) {
		set_cst(M_CONST_HEAP + r, m[r][0], m[r][1], m[r][2], m[r][3]);
		ref[r] = m[r][0] * pos[0] + m[r][1] * pos[1] + m[r][2] * pos[2] + m[r][3] * pos[3];
	}
	set_in(0, pos[0], pos[1], pos[2], pos[3]);
	set_in(3, 0.25f, 0.5f, 0.75f, 1);
	for (unsigned r = 0; r < 4; r++)
		m_emit(r, 0, NV40_VP_VEC_DP4, MO(NV40_VP_OUT_POS), 8u >> r, MI(0), MC(r), MN);
	m_emit(4, 0, NV40_VP_VEC_MOV, MO(NV40_VP_OUT_COL0), XYZW, MI(3), MN, MN);
	nv40_vp_set_LAST(code[4], 1);   /* Mesa marks the last real one and the NOP */
	m_emit(5, 0, NV40_VP_VEC_NOP, MN, 0, MN, MN, MN);
	nv40_vp_set_LAST(code[5], 1);

	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_POS], ref[0], ref[1], ref[2], ref[3]);
	assert_vec(out[NV40_VP_OUT_POS], 3, 4, -1.5f, 7);
	assert_vec(out[NV40_VP_OUT_COL0], 0.25f, 0.5f, 0.75f, 1);
	assert_string_equal(hw_vp_disasm(code[1], buf, sizeof buf), "DP4 o[POS].y, v[0], c[7];");
}

/* pow(x, y) = EX2(y * LG2(x)) and RCP to an output on the scalar slot, as
 * Mesa's POW and RCP emit them, then a user clip distance in FOGC.y. */
static void mesa_scalar_slot_programs_and_clip_distance(void **state)
{
	(void)state;
	set_in(1, 4, 1.5f, 0.125f, 0);
	set_in(0, 1, 2, 3, 1);
	set_cst(M_CONST_HEAP + 0, 1, 0, 0, 2);                         /* clip plane */
	m_emit(0, 1, NV40_VP_SCA_LG2, MT(0), X_, MN, MN, MS(MI(1), "xxxx"));
	m_emit(1, 0, NV40_VP_VEC_MUL, MT(0), X_, MS(MT(0), "xxxx"), MS(MI(1), "yyyy"), MN);
	m_emit(2, 1, NV40_VP_SCA_EX2, MO(NV40_VP_OUT_TC0), XYZW, MN, MN, MS(MT(0), "xxxx"));
	m_emit(3, 1, NV40_VP_SCA_RCP, MO(NV40_VP_OUT_TC1), X_ | W_, MN, MN, MS(MI(1), "zzzz"));
	/* hpos redirected to R1, copied to o[POS], then DP4 o[FOGC].y, R1, ucp0 */
	m_emit(4, 0, NV40_VP_VEC_MOV, MT(1), XYZW, MI(0), MN, MN);
	m_emit(5, 0, NV40_VP_VEC_MOV, MO(NV40_VP_OUT_POS), XYZW, MT(1), MN, MN);
	m_emit(6, 0, NV40_VP_VEC_DP4, MO(NV40_VP_OUT_FOGC), Y_, MT(1), MC(0), MN);
	nv40_vp_set_LAST(code[6], 1);
	assert_int_equal(run(0), 0);
	assert_vec(out[NV40_VP_OUT_TC0], 8, 8, 8, 8);
	assert_vec(out[NV40_VP_OUT_TC1], 8, SENTINEL, SENTINEL, 8);
	assert_vec(out[NV40_VP_OUT_POS], 1, 2, 3, 1);
	assert_vec(out[NV40_VP_OUT_FOGC], SENTINEL, 3, SENTINEL, SENTINEL);
}

/* ---- robustness ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* Random program RAM, constants and inputs; 7 slots in 8 get opcodes that
 * exist so runs go deep (branches, calls, stack ops, indexing).  Every run
 * must end with 0 or -1 and leave outputs it did not write alone. */
static void random_words_never_crash(void **state)
{
	static const uint32_t sca_ok[] = {
#define SCA_(name, value) value,
		NV40_VP_SCA_OPS(SCA_)
#undef SCA_
	};
	char buf[200];
	unsigned runs = 0, ok = 0;

	(void)state;
	for (unsigned round = 0; round < 25; round++) {
		for (unsigned k = 0; k < NV40_VP_INSNS; k++) {
			for (unsigned w = 0; w < 4; w++)
				code[k][w] = rnd();
			if (rnd() % 8) {
				nv40_vp_set_VEC_OPCODE(code[k], rnd() % (NV40_VP_VEC_ARA + 1));
				nv40_vp_set_SCA_OPCODE(code[k], sca_ok[rnd() % (sizeof sca_ok / sizeof sca_ok[0])]);
			}
			if (rnd() % 8)
				nv40_vp_set_LAST(code[k], 0);
			hw_vp_disasm(code[k], buf, 1 + rnd() % sizeof buf);
		}
		for (unsigned k = 0; k < NV40_VP_CONSTS; k++)
			for (unsigned c = 0; c < 4; c++)
				cst[k][c] = (rnd() & 3) ? f2u((float)(int32_t)(rnd() % 2048) - 1024.0f) : rnd();
		for (unsigned k = 0; k < NV40_VP_INPUTS; k++)
			for (unsigned c = 0; c < 4; c++)
				in[k][c] = (rnd() & 3) ? (float)(rnd() % 64) / 8 - 4 : u2f(rnd());
		for (unsigned k = 0; k < 4000; k++) {
			int r = run(rnd() % (NV40_VP_INSNS + 8));

			assert_true(r == 0 || r == 1 || r == -1);   /* 1: the watchdog */
			ok += r == 0;
			runs++;
		}
	}
	assert_int_equal(runs, 100000);
	assert_true(ok > 0);
}

/* Values IEEE treats specially a quarter of the time: random bits. */
static uint32_t rnd_value(void)
{
	return (rnd() & 3) ? f2u((float)(int32_t)(rnd() % 2048) / 64 - 16.0f) : rnd();
}

/* sim_vp_run against sim_vp_interpret, the same program and inputs, but
 * constants c2 for the second: how many runs' results differ (return
 * code or any output bit). */
static unsigned straight_diff(const uint32_t (*c2)[4], unsigned runs)
{
	static float out2[NV40_VP_OUTPUTS][4];
	unsigned bad = 0;

	for (unsigned r = 0; r < runs; r++) {
		for (unsigned o = 0; o < NV40_VP_OUTPUTS; o++)
			for (unsigned c = 0; c < 4; c++)
				out[o][c] = out2[o][c] = u2f(rnd());
		int a = run(0);
		int b = sim_vp_interpret((const uint32_t (*)[4])code, 0, c2, (const float (*)[4])in, out2);
		bad += a != b || memcmp(out, out2, sizeof out) != 0;
	}
	return bad;
}

/* The decoded copy sim_vp_run keeps of a straight program gives the
 * general loop's bits, NaNs and signed zeros included; and the comparison
 * notices one ulp in a constant the program reads. */
static void straight_programs_run_as_the_interpreter_runs_them(void **state)
{
	static uint32_t cst2[NV40_VP_CONSTS][4];
	unsigned bad = 0;

	(void)state;
	for (unsigned prog = 0; prog < 3000; prog++) {
		vp_random_straight(code, 1 + rnd() % 16, rnd);
		for (unsigned k = 0; k < 16; k++)
			for (unsigned c = 0; c < 4; c++)
				in[k][c] = u2f(rnd_value());
		for (unsigned k = 0; k < NV40_VP_CONSTS; k++)
			for (unsigned c = 0; c < 4; c++)
				cst[k][c] = rnd_value();
		bad += straight_diff((const uint32_t (*)[4])cst, 4);
	}
	assert_int_equal(bad, 0);

	vec(0, NV40_VP_VEC_MOV, -1, NV40_VP_OUT_POS, XYZW, C(), V(), V());
	nv40_vp_set_LAST(code[0], 1);
	set_cst(0, 0.75f, 1.0f, 2.0f, 3.0f);
	memcpy(cst2, cst, sizeof cst2);
	assert_int_equal(straight_diff((const uint32_t (*)[4])cst2, 8), 0);
	cst2[0][0]++;
	assert_int_equal(straight_diff((const uint32_t (*)[4])cst2, 8), 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(golden_encodings_decode_and_copy_inputs, reset),
		cmocka_unit_test_setup(arithmetic_vector_ops_match_hand_results, reset),
		cmocka_unit_test_setup(set_on_vector_ops_compare_src0_with_src1, reset),
		cmocka_unit_test_setup(rounding_and_sign_vector_ops, reset),
		cmocka_unit_test_setup(simple_scalar_ops_broadcast_their_result, reset),
		cmocka_unit_test_setup(rcp_and_rsq_give_signed_infinity_and_rcc_clamps, reset),
		cmocka_unit_test_setup(exp_log_lit_produce_their_vectors, reset),
		cmocka_unit_test_setup(swizzle_negate_abs_apply_in_that_order, reset),
		cmocka_unit_test_setup(saturate_clamps_both_halves_and_nan_to_zero, reset),
		cmocka_unit_test_setup(write_masks_limit_temps_and_outputs_per_half, reset),
		cmocka_unit_test_setup(coissued_halves_read_old_values, reset),
		cmocka_unit_test_setup(cc_update_then_conditional_writes, reset),
		cmocka_unit_test_setup(cc_update_from_scalar_half_respects_mask_and_register, reset),
		cmocka_unit_test_setup(arl_indexes_constants_with_offset_and_swizzle, reset),
		cmocka_unit_test_setup(arr_ara_second_register_and_clamping, reset),
		cmocka_unit_test_setup(indexed_inputs_and_outputs, reset),
		cmocka_unit_test_setup(cal_and_ret_run_a_subroutine, reset),
		cmocka_unit_test_setup(conditional_bra_follows_the_condition, reset),
		cmocka_unit_test_setup(call_stack_holds_eight_returns, reset),
		cmocka_unit_test_setup(ret_on_empty_stack_ends_the_program, reset),
		cmocka_unit_test_setup(pusha_popa_save_and_restore_an_address_register, reset),
		cmocka_unit_test_setup(zero_times_anything_is_zero, reset),
		cmocka_unit_test_setup(runaway_and_bad_programs_fail, reset),
		cmocka_unit_test_setup(watchdog_stops_a_runaway_loop_and_keeps_its_outputs, reset),
		cmocka_unit_test_setup(watchdog_count_is_exact_through_a_repeating_loop, reset),
		cmocka_unit_test_setup(straight_programs_run_as_the_interpreter_runs_them, reset),
		cmocka_unit_test_setup(mesa_mvp_transform_matches_cpu_reference, reset),
		cmocka_unit_test_setup(mesa_scalar_slot_programs_and_clip_distance, reset),
		cmocka_unit_test_setup(random_words_never_crash, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
