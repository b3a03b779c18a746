/* The NV40 fragment program interpreter (sim/3d/fp.c): Mesa's golden blit
 * shader, every opcode from hand-assembled instructions (a small assembler
 * on hw/fp-isa.h) against hand-computed values, the modifiers (swizzle,
 * negate, abs, saturate, DST_SCALE, write mask, precision, H registers),
 * condition codes, KIL, quad derivatives, texture requests, outputs, flow
 * control, and random programs that must stay bounded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "hw/disasm.h"
#include "hw/fp-isa.h"
#include "hw/ramin.h"
#include "sim/3d/fp.h"

/* ---- a tiny assembler ---- */

#define SRCV(type, reg, swz) (NV40_FP_SRC_SET(TYPE, type) | NV40_FP_SRC_SET(REG, reg) | \
			      NV40_FP_SRC_SET(SWZ, swz))
#define R(n)      SRCV(NV40_FP_SRC_TEMP, n, NV40_FP_SWZ_IDENTITY)
#define H(n)      (R(n) | NV40_FP_SRC_SET(HALF, 1))
#define IN        SRCV(NV40_FP_SRC_INPUT, 0, NV40_FP_SWZ_IDENTITY)
#define CST       SRCV(NV40_FP_SRC_CONST, 0, NV40_FP_SWZ_IDENTITY)
#define NEG(s)    ((s) | NV40_FP_SRC_SET(NEG, 1))
#define SWZ(s, x, y, z, w) (((s) & ~NV40_FP_SRC_SET(SWZ, 0xff)) | \
			    NV40_FP_SRC_SET(SWZ, (x) | (y) << 2 | (z) << 4 | (w) << 6))
enum { X = 0, Y = 1, Z = 2, W = 3 };
#define MASK_ALL 0xf

struct ins {
	unsigned op, dst, half, mask, input, unit, prec, sat, scale, cc, none, end;
	unsigned cond, cswz, abs, abs_d23, texexp, index, index_off;
	uint32_t src[3];
	int has_const;
	float c[4];
};

static struct ins I(unsigned op, unsigned dst, unsigned mask, uint32_t s0, uint32_t s1, uint32_t s2)
{
	struct ins i = { .op = op, .dst = dst, .mask = mask, .cond = NV40_FP_COND_TR,
			 .cswz = NV40_FP_SWZ_IDENTITY, .src = { s0, s1, s2 } };
	return i;
}

struct prog {
	uint8_t b[8192];
	size_t len;
};

static void put_words(struct prog *p, const uint32_t *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++, p->len += 4)
		nv_wr32le(p->b + p->len, w[i]);
}

/* Returns the dword offset the instruction was placed at. */
static uint32_t emit(struct prog *p, struct ins i)
{
	uint32_t w[4] = { 0 }, at = (uint32_t)(p->len / 4);

	NV40_FP_SET(w, OPCODE, i.op);
	NV40_FP_SET(w, DST, i.dst);
	NV40_FP_SET(w, DST_HALF, i.half);
	NV40_FP_SET(w, MASK, i.mask);
	NV40_FP_SET(w, INPUT, i.input);
	NV40_FP_SET(w, TEX_UNIT, i.unit);
	NV40_FP_SET(w, TEX_EXPAND, i.texexp);
	NV40_FP_SET(w, PRECISION, i.prec);
	NV40_FP_SET(w, SAT, i.sat);
	NV40_FP_SET(w, DST_SCALE, i.scale);
	NV40_FP_SET(w, CC_UPDATE, i.cc);
	NV40_FP_SET(w, OUT_NONE, i.none);
	NV40_FP_SET(w, END, i.end);
	NV40_FP_SET(w, COND, i.cond);
	NV40_FP_SET(w, COND_SWZ, i.cswz);
	NV40_FP_SET(w, SRC0, i.src[0]);
	NV40_FP_SET(w, SRC1, i.src[1]);
	NV40_FP_SET(w, SRC2, i.src[2]);
	NV40_FP_SET(w, INDEX_INPUT, i.index);
	NV40_FP_SET(w, INDEX_OFFSET, i.index_off);
	if (i.abs & 1)
		NV40_FP_SET(w, SRC0_ABS, 1);
	if (i.abs & 2)
		NV40_FP_SET(w, SRC1_ABS_D1, 1);   /* Mesa's emitter placement */
	if (i.abs & 4)
		NV40_FP_SET(w, SRC2_ABS_D1, 1);
	if (i.abs_d23 & 2)
		NV40_FP_SET(w, SRC1_ABS, 1);      /* header comment / RSX placement */
	if (i.abs_d23 & 4)
		NV40_FP_SET(w, SRC2_ABS, 1);
	put_words(p, w, 4);
	if (i.has_const) {
		uint32_t c[4];
		for (int k = 0; k < 4; k++)
			memcpy(&c[k], &i.c[k], 4);
		put_words(p, c, 4);
	}
	return at;
}

/* MOV Rdst = {a, b, c, d} (inline constant) */
static void movc(struct prog *p, unsigned dst, float a, float b, float c, float d)
{
	struct ins i = I(NV40_FP_OP_MOV, dst, MASK_ALL, CST, IN, IN);
	i.has_const = 1;
	i.c[0] = a; i.c[1] = b; i.c[2] = c; i.c[3] = d;
	emit(p, i);
}

/* Flow-control instruction; returns its dword offset for patching. */
static uint32_t bra(struct prog *p, unsigned op, unsigned cond, unsigned cswz, uint32_t d2, uint32_t d3)
{
	uint32_t w[4] = { 0 }, at = (uint32_t)(p->len / 4);
	NV40_FP_SET(w, OPCODE, op);
	NV40_FP_SET(w, COND, cond);
	NV40_FP_SET(w, COND_SWZ, cswz);
	NV40_FP_SET(w, IS_BRANCH, 1);
	w[2] |= d2;
	w[3] |= d3;
	put_words(p, w, 4);
	return at;
}

static void patch_or(struct prog *p, uint32_t dword, uint32_t v)
{
	nv_wr32le(p->b + 4 * dword, nv_rd32le(p->b + 4 * dword) | v);
}

static uint32_t here(const struct prog *p)
{
	return (uint32_t)(p->len / 4);
}

static void end(struct prog *p)
{
	struct ins i = I(NV40_FP_OP_NOP, 0, 0, IN, IN, IN);
	i.end = 1;
	emit(p, i);
}

#define BR (1u << NV40_FP_IS_BRANCH__SHIFT)

/* ---- running ---- */

struct tex_log {
	int calls;
	struct sim_tex_req rq;
	float out[4][4];
};

static void stub_sample(void *ctx, const struct sim_tex_req *rq, float out[4][4])
{
	struct tex_log *l = ctx;
	l->calls++;
	l->rq = *rq;
	memcpy(out, l->out, sizeof(l->out));
}

static void quad_init(struct sim_fp_quad *q)
{
	memset(q, 0, sizeof(*q));
	q->live = 0xf;
	for (int p = 0; p < 4; p++) {
		q->in[p][NV40_FP_INPUT_WPOS][0] = (float)(p & 1);
		q->in[p][NV40_FP_INPUT_WPOS][1] = (float)(p >> 1);
	}
}

static int run(const struct prog *p, uint32_t control, struct sim_fp_quad *q, struct tex_log *l)
{
	return sim_fp_run(p->b, p->len, control, q, l ? stub_sample : NULL, l);
}

static int same(float a, float b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return a == b;
}

#define expect_vec(got, a, b, c, d) expect_vec_(got, a, b, c, d, __LINE__)
static void expect_vec_(const float *g, float a, float b, float c, float d, int line)
{
	if (!same(g[0], a) || !same(g[1], b) || !same(g[2], c) || !same(g[3], d))
		fail_msg("line %d: got {%.9g, %.9g, %.9g, %.9g} want {%.9g, %.9g, %.9g, %.9g}", line,
			 g[0], g[1], g[2], g[3], a, b, c, d);
}

/* Run a program whose result is left in R0 (output colour 0). */
static void run_ok(const struct prog *p, struct sim_fp_quad *q)
{
	assert_int_equal(run(p, 0, q, NULL), 0);
}

/* ---- golden encodings ---- */

static const uint32_t blit_fp[8] = {
	0x17009e00, 0x1c9dc801, 0x0001c800, 0x3fe1c800,   /* texr r0, i[tex0], texture[0] */
	0x01401e81, 0x1c9dc800, 0x0001c800, 0x0001c800,   /* movh h0, r0; end */
};

static void mesa_blit_shader_samples_unit0_and_writes_fp16_colour(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	struct tex_log l = { 0 };
	char txt[160];

	put_words(&p, blit_fp, 8);
	memset(p.b + p.len, 0xff, 32);              /* garbage after END is never fetched */
	p.len += 32;
	quad_init(&q);
	for (int px = 0; px < 4; px++) {
		q.in[px][NV40_FP_INPUT_TC0][0] = 10.5f + px;
		q.in[px][NV40_FP_INPUT_TC0][1] = 20.5f;
		q.in[px][NV40_FP_INPUT_TC0][2] = 0.0f;
		q.in[px][NV40_FP_INPUT_TC0][3] = 1.0f;
		l.out[px][0] = 0.25f * px;
		l.out[px][1] = 0.1f;                    /* not a half: rounds */
		l.out[px][2] = 1.0f;
		l.out[px][3] = 100000.0f;               /* past fp16 range: inf */
	}
	assert_int_equal(sim_fp_run(p.b, p.len, 0x02000000, &q, stub_sample, &l), 0);
	assert_int_equal(l.calls, 1);
	assert_int_equal(l.rq.unit, 0);
	assert_int_equal(l.rq.op, SIM_TEX);
	for (int px = 0; px < 4; px++) {
		expect_vec(l.rq.coord[px], 10.5f + px, 20.5f, 0.0f, 1.0f);
		expect_vec(q.color[px][0], 0.25f * px, 0.0999755859375f, 1.0f, INFINITY);
	}
	assert_int_equal(q.kill, 0);
	assert_int_equal(q.depth_written, 0);

	hw_fp_disasm(p.b, p.len, txt, sizeof(txt));
	assert_non_null(strstr(txt, "TEX"));
	assert_non_null(strstr(txt, "f[TEX0]"));
	assert_non_null(strstr(txt, "texture[0]"));
	hw_fp_disasm(p.b + 16, p.len - 16, txt, sizeof(txt));
	assert_non_null(strstr(txt, "MOVH H0"));
	assert_non_null(strstr(txt, "END"));
}

static void golden_words_decode_to_the_documented_fields(void **state)
{
	(void)state;
	const uint32_t *t = blit_fp, *e = blit_fp + 4;
	assert_int_equal(NV40_FP_GET(t, OPCODE), NV40_FP_OP_TEX);
	assert_int_equal(NV40_FP_GET(t, INPUT), NV40_FP_INPUT_TC0);
	assert_int_equal(NV40_FP_GET(t, MASK), 0xf);
	assert_int_equal(NV40_FP_GET(t, END), 0);
	assert_int_equal(NV40_FP_SRC_GET(nv40_fp_src(t, 0), TYPE), NV40_FP_SRC_INPUT);
	assert_int_equal(NV40_FP_GET(t, COND), NV40_FP_COND_TR);
	assert_int_equal(NV40_FP_GET(t, COND_SWZ), NV40_FP_SWZ_IDENTITY);
	assert_int_equal(NV40_FP_GET(t, INDEX_INPUT), 0);
	assert_int_equal(NV40_FP_GET(e, OPCODE), NV40_FP_OP_MOV);
	assert_int_equal(NV40_FP_GET(e, DST_HALF), 1);
	assert_int_equal(NV40_FP_GET(e, DST), 0);
	assert_int_equal(NV40_FP_GET(e, PRECISION), NV40_FP_PREC_FP16);
	assert_int_equal(NV40_FP_GET(e, OUT_NONE), 0);
	assert_int_equal(NV40_FP_GET(e, END), 1);
	assert_int_equal(nv40_fp_src(e, 0), R(0));
	/* the assembler reproduces both words */
	struct prog p = { .len = 0 };
	struct ins i = I(NV40_FP_OP_TEX, 0, MASK_ALL, IN, R(0), R(0));
	i.input = NV40_FP_INPUT_TC0;
	emit(&p, i);
	assert_int_equal(nv_rd32le(p.b), blit_fp[0]);
	assert_int_equal(nv_rd32le(p.b + 4), blit_fp[1]);
	assert_int_equal(nv_rd32le(p.b + 8), blit_fp[2]);
	i = I(NV40_FP_OP_MOV, 0, MASK_ALL, R(0), R(0), R(0));
	i.half = 1; i.prec = NV40_FP_PREC_FP16; i.end = 1;
	emit(&p, i);
	for (int k = 4; k < 8; k++)
		assert_int_equal(nv_rd32le(p.b + 4 * k), blit_fp[k]);
}

/* ---- arithmetic ---- */

struct alu_case {
	unsigned op;
	float a[4], b[4], c[4], r[4];
};

static const float NaN = NAN;

static const struct alu_case alu_cases[] = {
	{ NV40_FP_OP_MOV, {1, -2, 3.5f, 0}, {0}, {0}, {1, -2, 3.5f, 0} },
	{ NV40_FP_OP_MUL, {1, -2, 3, 4}, {2, 3, -0.5f, 0}, {0}, {2, -6, -1.5f, 0} },
	{ NV40_FP_OP_ADD, {1, -2, 3, 4}, {2, 3, -0.5f, -4}, {0}, {3, 1, 2.5f, 0} },
	{ NV40_FP_OP_MAD, {1, 2, 3, 4}, {2, 3, 4, 5}, {1, 1, -12, 0.5f}, {3, 7, 0, 20.5f} },
	{ NV40_FP_OP_DP2, {1, 2, 3, 4}, {5, 6, 7, 8}, {0}, {17, 17, 17, 17} },
	{ NV40_FP_OP_DP2A, {1, 2, 3, 4}, {5, 6, 7, 8}, {0.5f, 9, 9, 9}, {17.5f, 17.5f, 17.5f, 17.5f} },
	{ NV40_FP_OP_DP3, {1, 2, 3, 4}, {5, 6, 7, 8}, {0}, {38, 38, 38, 38} },
	{ NV40_FP_OP_DP4, {1, 2, 3, 4}, {5, 6, 7, 8}, {0}, {70, 70, 70, 70} },
	{ NV40_FP_OP_DST, {9, 2, 3, 9}, {9, 5, 9, 7}, {0}, {1, 10, 3, 7} },
	{ NV40_FP_OP_MIN, {1, -2, 3, 4}, {2, -3, 3, 0}, {0}, {1, -3, 3, 0} },
	{ NV40_FP_OP_MAX, {1, -2, 3, 4}, {2, -3, 3, 0}, {0}, {2, -2, 3, 4} },
	{ NV40_FP_OP_SLT, {1, 2, 3, NaN}, {2, 2, 1, 0}, {0}, {1, 0, 0, 0} },
	{ NV40_FP_OP_SGE, {1, 2, 3, NaN}, {2, 2, 1, 0}, {0}, {0, 1, 1, 0} },
	{ NV40_FP_OP_SLE, {1, 2, 3, NaN}, {2, 2, 1, 0}, {0}, {1, 1, 0, 0} },
	{ NV40_FP_OP_SGT, {1, 2, 3, NaN}, {2, 2, 1, 0}, {0}, {0, 0, 1, 0} },
	{ NV40_FP_OP_SNE, {1, 2, 3, NaN}, {2, 2, 1, 0}, {0}, {1, 0, 1, 1} },
	{ NV40_FP_OP_SEQ, {1, 2, 3, NaN}, {2, 2, 1, 0}, {0}, {0, 1, 0, 0} },
	{ NV40_FP_OP_STR, {0}, {0}, {0}, {1, 1, 1, 1} },
	{ NV40_FP_OP_SFL, {5, 5, 5, 5}, {0}, {0}, {0, 0, 0, 0} },
	{ NV40_FP_OP_FRC, {1.25f, -1.25f, 3, -0.5f}, {0}, {0}, {0.25f, 0.75f, 0, 0.5f} },
	{ NV40_FP_OP_FLR, {1.25f, -1.25f, 3, -0.5f}, {0}, {0}, {1, -2, 3, -1} },
	{ NV40_FP_OP_RCP, {4, 9, 9, 9}, {0}, {0}, {0.25f, 0.25f, 0.25f, 0.25f} },
	{ NV40_FP_OP_RCP, {0, 9, 9, 9}, {0}, {0}, {INFINITY, INFINITY, INFINITY, INFINITY} },
	{ NV40_FP_OP_RSQ, {-4, 9, 9, 9}, {0}, {0}, {0.5f, 0.5f, 0.5f, 0.5f} },
	{ NV40_FP_OP_EX2, {3, 9, 9, 9}, {0}, {0}, {8, 8, 8, 8} },
	{ NV40_FP_OP_EX2, {-2, 9, 9, 9}, {0}, {0}, {0.25f, 0.25f, 0.25f, 0.25f} },
	{ NV40_FP_OP_LG2, {8, 9, 9, 9}, {0}, {0}, {3, 3, 3, 3} },
	{ NV40_FP_OP_POW, {2, 9, 9, 9}, {10, 0, 0, 0}, {0}, {1024, 1024, 1024, 1024} },
	{ NV40_FP_OP_COS, {0, 9, 9, 9}, {0}, {0}, {1, 1, 1, 1} },
	{ NV40_FP_OP_SIN, {0, 9, 9, 9}, {0}, {0}, {0, 0, 0, 0} },
	{ NV40_FP_OP_DIV, {1, 2, -3, 4}, {4, 9, 9, 9}, {0}, {0.25f, 0.5f, -0.75f, 1} },
	{ NV40_FP_OP_DIVSQ, {1, 0, -3, 4}, {16, 9, 9, 9}, {0}, {0.25f, 0, -0.75f, 1} },
	{ NV40_FP_OP_DIVSQ, {0, 0, 0, 0}, {0, 9, 9, 9}, {0}, {0, 0, 0, 0} },
	{ NV40_FP_OP_NRM, {3, 0, 4, 9}, {0}, {0}, {0.6f, 0, 0.8f, 0.8f} },
	{ NV40_FP_OP_LRP, {0.25f, 0, 1, 0.5f}, {4, 4, 4, 4}, {8, 8, 8, 8}, {7, 8, 4, 6} },
	{ NV40_FP_OP_RFL, {0, 0, 2, 0}, {1, 2, 3, 4}, {0}, {-1, -2, 3, 4} },
	{ NV40_FP_OP_LIT, {0.5f, 0.25f, 9, 2}, {0}, {0}, {1, 0.5f, 0.0625f, 1} },
	{ NV40_FP_OP_LIT, {-0.5f, 0.25f, 9, 2}, {0}, {0}, {1, 0, 0, 1} },
	{ NV40_FP_OP_LITEX2, {0.5f, 0.5f, -3, -3}, {0}, {0}, {1, 0.5f, 0.125f, 1} },
	{ NV40_FP_OP_LITEX2, {0, 0, -3, -3}, {0}, {0}, {1, 0, 0, 1} },
};

/* R1 = a, R2 = b, R3 = c; op R0, R1, R2, R3 */
static void build_alu(struct prog *p, unsigned op, const float *a, const float *b, const float *c)
{
	p->len = 0;
	movc(p, 1, a[0], a[1], a[2], a[3]);
	movc(p, 2, b[0], b[1], b[2], b[3]);
	movc(p, 3, c[0], c[1], c[2], c[3]);
	emit(p, I(op, 0, MASK_ALL, R(1), R(2), R(3)));
	end(p);
}

static void every_alu_opcode_gives_the_hand_computed_result(void **state)
{
	(void)state;
	struct prog p;
	struct sim_fp_quad q;

	for (size_t k = 0; k < sizeof(alu_cases) / sizeof(alu_cases[0]); k++) {
		const struct alu_case *t = &alu_cases[k];
		build_alu(&p, t->op, t->a, t->b, t->c);
		quad_init(&q);
		run_ok(&p, &q);
		for (int px = 0; px < 4; px++) {
			const float *g = q.color[px][0];
			for (int c = 0; c < 4; c++)
				if (!same(g[c], t->r[c]) && !(fabsf(g[c] - t->r[c]) <= 1e-6f * fabsf(t->r[c])))
					fail_msg("case %zu op %#x comp %d: got %.9g want %.9g", k, t->op, c,
						 g[c], t->r[c]);
		}
	}
}

static void pack_ops_give_the_documented_bits_and_unpack_back(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	uint32_t u;

	movc(&p, 1, 1.0f, 0.0f, -1.0f, 0.5f);
	emit(&p, I(NV40_FP_OP_PK4UB, 2, MASK_ALL, R(1), IN, IN));
	emit(&p, I(NV40_FP_OP_PK4B, 3, MASK_ALL, R(1), IN, IN));
	emit(&p, I(NV40_FP_OP_PK2H, 4, MASK_ALL, R(1), IN, IN));
	emit(&p, I(NV40_FP_OP_PK2US, 5, MASK_ALL, SWZ(R(1), W, X, X, X), IN, IN));
	emit(&p, I(NV40_FP_OP_UP4UB, 6, MASK_ALL, R(2), IN, IN));
	emit(&p, I(NV40_FP_OP_UP4B, 7, MASK_ALL, R(3), IN, IN));
	emit(&p, I(NV40_FP_OP_UP2H, 8, MASK_ALL, R(4), IN, IN));
	emit(&p, I(NV40_FP_OP_UP2US, 9, MASK_ALL, R(5), IN, IN));
	/* move the packed words to outputs 0/2/3/4 to read them */
	emit(&p, I(NV40_FP_OP_MOV, 0, MASK_ALL, SWZ(R(2), X, X, X, X), IN, IN));
	emit(&p, I(NV40_FP_OP_MOV, 0, 0x2, SWZ(R(3), X, X, X, X), IN, IN));
	emit(&p, I(NV40_FP_OP_MOV, 0, 0x4, SWZ(R(4), X, X, X, X), IN, IN));
	emit(&p, I(NV40_FP_OP_MOV, 0, 0x8, SWZ(R(5), X, X, X, X), IN, IN));
	emit(&p, I(NV40_FP_OP_MOV, 2, MASK_ALL, R(6), IN, IN));
	emit(&p, I(NV40_FP_OP_MOV, 3, MASK_ALL, R(7), IN, IN));
	emit(&p, I(NV40_FP_OP_MOV, 4, MASK_ALL, R(8), IN, IN));
	emit(&p, I(NV40_FP_OP_MOV, 4, 0xc, R(9), IN, IN));
	end(&p);
	quad_init(&q);
	run_ok(&p, &q);
	memcpy(&u, &q.color[0][0][0], 4);
	assert_int_equal(u, 0x800000ffu);         /* round(0.5 * 255) = 128 */
	memcpy(&u, &q.color[0][0][1], 4);
	assert_int_equal(u, 0xc00180ffu);         /* 127*x + 128: 255, 128, 1, 191.5 -> 192 */
	memcpy(&u, &q.color[0][0][2], 4);
	assert_int_equal(u, 0x00003c00u);         /* half(1) | half(0) << 16 */
	memcpy(&u, &q.color[0][0][3], 4);
	assert_int_equal(u, 0xffff8000u);         /* round(0.5 * 65535) = 32768, 65535 */
	expect_vec(q.color[0][1], 1.0f, 0.0f, 0.0f, 128.0f / 255.0f);
	expect_vec(q.color[0][2], 1.0f, 0.0f, -1.0f, 64.0f / 127.0f);
	/* UP2H then UP2US over zw */
	expect_vec(q.color[0][3], 1.0f, 0.0f, 32768.0f / 65535.0f, 1.0f);
}

static void swizzle_negate_and_both_abs_placements_apply(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	struct ins i;

	movc(&p, 1, 1.0f, -2.0f, 3.0f, -4.0f);
	emit(&p, I(NV40_FP_OP_MOV, 0, MASK_ALL, SWZ(R(1), W, Z, Y, X), IN, IN));
	i = I(NV40_FP_OP_MOV, 2, MASK_ALL, NEG(R(1)), IN, IN);
	i.abs = 1;                                 /* -|R1| */
	emit(&p, i);
	i = I(NV40_FP_OP_ADD, 3, MASK_ALL, R(1), R(1), IN);
	i.abs = 2;                                 /* R1 + |R1|, Mesa's d1 bit 30 */
	emit(&p, i);
	i = I(NV40_FP_OP_MAD, 4, MASK_ALL, R(1), SWZ(R(1), X, X, X, X), NEG(R(1)));
	i.abs_d23 = 4;                             /* R1 * R1.x - |R1|, d3 bit 18 */
	emit(&p, i);
	end(&p);
	quad_init(&q);
	run_ok(&p, &q);
	expect_vec(q.color[0][0], -4.0f, 3.0f, -2.0f, 1.0f);
	expect_vec(q.color[0][1], -1.0f, -2.0f, -3.0f, -4.0f);
	expect_vec(q.color[0][2], 2.0f, 0.0f, 6.0f, 0.0f);
	expect_vec(q.color[0][3], 0.0f, -4.0f, 0.0f, -8.0f);
}

static void inline_constant_is_shared_by_sources_and_skipped(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	struct ins i = I(NV40_FP_OP_MAD, 0, MASK_ALL, CST, SWZ(CST, Y, Y, Y, Y), SWZ(CST, W, W, W, W));
	i.has_const = 1;
	i.c[0] = 1; i.c[1] = 2; i.c[2] = 3; i.c[3] = 0.5f;
	emit(&p, i);                               /* c * c.y + c.w */
	end(&p);
	quad_init(&q);
	run_ok(&p, &q);
	expect_vec(q.color[1][0], 2.5f, 4.5f, 6.5f, 1.5f);
	/* the disassembler shows it */
	char txt[200];
	hw_fp_disasm(p.b, p.len, txt, sizeof(txt));
	assert_non_null(strstr(txt, "c = {1, 2, 3, 0.5}"));
}

static void saturate_scale_mask_and_precision_shape_the_result(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	struct ins i;

	movc(&p, 0, 9.0f, 9.0f, 9.0f, 9.0f);
	movc(&p, 1, 0.3f, -5.0f, 3.0f, 0.75f);
	i = I(NV40_FP_OP_MOV, 0, 0x5, R(1), IN, IN);    /* write mask x, z */
	emit(&p, i);
	i = I(NV40_FP_OP_MOV, 2, MASK_ALL, R(1), IN, IN);
	i.scale = NV40_FP_SCALE_X2; i.sat = 1;          /* sat(2x) */
	emit(&p, i);
	i = I(NV40_FP_OP_MOV, 3, MASK_ALL, R(1), IN, IN);
	i.scale = NV40_FP_SCALE_D4; i.prec = NV40_FP_PREC_FX12;
	emit(&p, i);
	i = I(NV40_FP_OP_MOV, 4, MASK_ALL, R(1), IN, IN);
	i.prec = NV40_FP_PREC_FX12;
	emit(&p, i);
	end(&p);
	quad_init(&q);
	run_ok(&p, &q);
	expect_vec(q.color[0][0], 0.3f, 9.0f, 3.0f, 9.0f);
	expect_vec(q.color[0][1], 0.6f, 0.0f, 1.0f, 1.0f);
	/* 0.075 -> 77/1024, -1.25 -> -1280/1024, 0.75 -> 768/1024, 0.1875 */
	expect_vec(q.color[0][2], 77.0f / 1024, -1.25f, 0.75f, 0.1875f);
	/* 0.3 -> 307/1024; clamps to [-2, 2 - 1/1024] */
	expect_vec(q.color[0][3], 307.0f / 1024, -2.0f, 2047.0f / 1024, 0.75f);

	/* fx9 and fp16 precision on an R destination; saturate flushes NaN */
	p.len = 0;
	movc(&p, 1, 0.3f, -5.0f, 1.0f / 3.0f, NaN);
	i = I(NV40_FP_OP_MOV, 0, MASK_ALL, R(1), IN, IN);
	i.prec = NV40_FP_PREC_FX9;
	emit(&p, i);
	i = I(NV40_FP_OP_MOV, 2, MASK_ALL, R(1), IN, IN);
	i.prec = NV40_FP_PREC_FP16;
	emit(&p, i);
	i = I(NV40_FP_OP_MOV, 3, MASK_ALL, R(1), IN, IN);
	i.sat = 1;
	emit(&p, i);
	end(&p);
	quad_init(&q);
	run_ok(&p, &q);
	expect_vec(q.color[0][0], 77.0f / 256, -1.0f, 85.0f / 256, 0.0f);
	expect_vec(q.color[0][1], 0.300048828125f, -5.0f, 0.333251953125f, NaN);
	expect_vec(q.color[0][2], 0.3f, 0.0f, 1.0f / 3.0f, 0.0f);
}

static void h_registers_round_to_fp16_and_alias_even_r(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	struct ins i;

	movc(&p, 1, 1.0f / 3.0f, 65519.0f, 65520.0f, 1e-8f);
	i = I(NV40_FP_OP_MOV, 4, MASK_ALL, R(1), IN, IN);   /* H4 = R2 */
	i.half = 1;
	emit(&p, i);
	movc(&p, 5, 0x1.8p-24f, 0x1.4p-24f, -0x1.8p-25f, 0x1p-14f);
	i = I(NV40_FP_OP_MOV, 6, MASK_ALL, R(5), IN, IN);   /* H6 = R3 */
	i.half = 1;
	emit(&p, i);
	i = I(NV40_FP_OP_MOV, 9, MASK_ALL, R(1), IN, IN);   /* H9: its own storage */
	i.half = 1;
	emit(&p, i);
	emit(&p, I(NV40_FP_OP_ADD, 0, MASK_ALL, H(9), H(8), IN)); /* H8 = R4 = 0 */
	end(&p);
	quad_init(&q);
	run_ok(&p, &q);
	expect_vec(q.color[0][1], 0.333251953125f, 65504.0f, INFINITY, 0.0f);
	/* denormal halves: 1.5 ulp -> 2 ulp (even), 1.25 -> 1, -0.75 ulp -> -1 ulp */
	expect_vec(q.color[0][2], 0x1p-23f, 0x1p-24f, -0x1p-24f, 0x1p-14f);
	expect_vec(q.color[0][3], 0.0f, 0.0f, 0.0f, 0.0f);   /* R4 untouched by H9 */
	expect_vec(q.color[0][0], 0.333251953125f, 65504.0f, INFINITY, 0.0f);
}

/* ---- condition codes ---- */

static void condition_codes_gate_writes_per_component(void **state)
{
	(void)state;
	static const struct { unsigned cond; float r[4]; } t[] = {
		{ NV40_FP_COND_FL, {0, 0, 0, 0} }, { NV40_FP_COND_LT, {1, 0, 0, 0} },
		{ NV40_FP_COND_EQ, {0, 1, 0, 0} }, { NV40_FP_COND_LE, {1, 1, 0, 0} },
		{ NV40_FP_COND_GT, {0, 0, 1, 0} }, { NV40_FP_COND_NE, {1, 0, 1, 1} },
		{ NV40_FP_COND_GE, {0, 1, 1, 0} }, { NV40_FP_COND_TR, {1, 1, 1, 1} },
	};
	struct prog p;
	struct sim_fp_quad q;

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct ins i = I(NV40_FP_OP_MOV, 0, MASK_ALL, CST, IN, IN);
		p.len = 0;
		i.none = 1; i.cc = 1; i.has_const = 1;      /* MOVC RC, {-1, 0, 2, NaN} */
		i.c[0] = -1; i.c[1] = 0; i.c[2] = 2; i.c[3] = NaN;
		emit(&p, i);
		i = I(NV40_FP_OP_STR, 0, MASK_ALL, IN, IN, IN);
		i.cond = t[k].cond;
		emit(&p, i);
		end(&p);
		quad_init(&q);
		run_ok(&p, &q);
		for (int px = 0; px < 4; px++)
			expect_vec(q.color[px][0], t[k].r[0], t[k].r[1], t[k].r[2], t[k].r[3]);
	}

	/* swizzled test, per-pixel CC from an input; CC follows the written value */
	p.len = 0;
	struct ins i = I(NV40_FP_OP_MOV, 1, 0x1, IN, IN, IN);
	i.cc = 1; i.input = NV40_FP_INPUT_TC0;         /* MOVC R1.x, f[TEX0] */
	emit(&p, i);
	i = I(NV40_FP_OP_STR, 0, MASK_ALL, IN, IN, IN);
	i.cond = NV40_FP_COND_GT; i.cswz = 0;           /* (GT.xxxx) */
	emit(&p, i);
	i = I(NV40_FP_OP_MOV, 2, MASK_ALL, IN, IN, IN);
	i.cc = 1; i.sat = 1; i.input = NV40_FP_INPUT_TC0;  /* MOVC_SAT: CC sees 0 for -3 */
	emit(&p, i);
	i = I(NV40_FP_OP_STR, 3, MASK_ALL, IN, IN, IN);
	i.cond = NV40_FP_COND_EQ;
	emit(&p, i);
	end(&p);
	quad_init(&q);
	const float x[4] = { -3.0f, 2.0f, 0.0f, 5.0f };
	for (int px = 0; px < 4; px++)
		q.in[px][NV40_FP_INPUT_TC0][0] = x[px];
	run_ok(&p, &q);
	for (int px = 0; px < 4; px++) {
		float v = x[px] > 0 ? 1.0f : 0.0f, e = x[px] > 0 ? 0.0f : 1.0f;
		expect_vec(q.color[px][0], v, v, v, v);
		expect_vec(q.color[px][2], e, 1.0f, 1.0f, 1.0f);
	}
}

static void kil_marks_live_pixels_passing_the_test(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	struct ins i = I(NV40_FP_OP_MOV, 0, MASK_ALL, IN, IN, IN);

	i.none = 1; i.cc = 1; i.input = NV40_FP_INPUT_TC0;
	emit(&p, i);                                  /* MOVC RC, f[TEX0] */
	i = I(NV40_FP_OP_KIL, 0, 0, IN, IN, IN);
	i.none = 1; i.cond = NV40_FP_COND_LT;          /* KIL (LT): any component < 0 */
	emit(&p, i);
	movc(&p, 0, 1, 2, 3, 4);                      /* execution goes on */
	end(&p);
	quad_init(&q);
	q.live = 0x7;                                 /* pixel 3 is a helper */
	const float v[4][4] = { {1, 1, -1, 1}, {1, 1, 1, 1}, {-2, 0, 0, 0}, {-5, 0, 0, 0} };
	memcpy(q.in[0][NV40_FP_INPUT_TC0], v[0], 16);
	memcpy(q.in[1][NV40_FP_INPUT_TC0], v[1], 16);
	memcpy(q.in[2][NV40_FP_INPUT_TC0], v[2], 16);
	memcpy(q.in[3][NV40_FP_INPUT_TC0], v[3], 16);
	run_ok(&p, &q);
	assert_int_equal(q.kill, 0x5);
	expect_vec(q.color[2][0], 1, 2, 3, 4);

	p.len = 0;                                    /* unconditional KIL */
	i = I(NV40_FP_OP_KIL, 0, 0, IN, IN, IN);
	i.none = 1;
	emit(&p, i);
	end(&p);
	quad_init(&q);
	q.live = 0xa;
	run_ok(&p, &q);
	assert_int_equal(q.kill, 0xa);
}

static void ddx_ddy_are_neighbour_differences_in_the_quad(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	struct ins i = I(NV40_FP_OP_DDX, 0, MASK_ALL, IN, IN, IN);

	i.input = NV40_FP_INPUT_TC0;
	emit(&p, i);
	i.op = NV40_FP_OP_DDY; i.dst = 2;
	emit(&p, i);
	i = I(NV40_FP_OP_DDX, 3, MASK_ALL, IN, IN, IN); /* linear gradient from WPOS */
	i.input = NV40_FP_INPUT_WPOS;
	emit(&p, i);
	end(&p);
	quad_init(&q);
	/* f = 1, 2, 4, 8 in pixels 0..3; g = 3x + 5y */
	const float f[4] = { 1, 2, 4, 8 };
	for (int px = 0; px < 4; px++) {
		q.in[px][NV40_FP_INPUT_TC0][0] = f[px];
		q.in[px][NV40_FP_INPUT_TC0][1] = 3.0f * (px & 1) + 5.0f * (px >> 1);
		q.in[px][NV40_FP_INPUT_TC0][2] = -f[px];
	}
	run_ok(&p, &q);
	expect_vec(q.color[0][0], 1, 3, -1, 0);
	expect_vec(q.color[1][0], 1, 3, -1, 0);
	expect_vec(q.color[2][0], 4, 3, -4, 0);
	expect_vec(q.color[3][0], 4, 3, -4, 0);
	expect_vec(q.color[0][1], 3, 5, -3, 0);
	expect_vec(q.color[2][1], 3, 5, -3, 0);
	expect_vec(q.color[1][1], 6, 5, -6, 0);
	expect_vec(q.color[3][1], 6, 5, -6, 0);
	for (int px = 0; px < 4; px++)
		expect_vec(q.color[px][2], 1, 0, 0, 0);
}

static void texture_ops_pass_unit_op_coords_and_derivatives(void **state)
{
	(void)state;
	struct prog p;
	struct sim_fp_quad q;
	struct tex_log l;
	static const struct { unsigned op, sim; } t[] = {
		{ NV40_FP_OP_TEX, SIM_TEX }, { NV40_FP_OP_TXP, SIM_TXP }, { NV40_FP_OP_TXB, SIM_TXB },
		{ NV40_FP_OP_TXL, SIM_TXL }, { NV40_FP_OP_TXD, SIM_TXD },
	};

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		p.len = 0;
		movc(&p, 1, 0.5f, 0.25f, 0.125f, 2.0f);      /* s t r q (or bias / lod in w) */
		movc(&p, 2, 1, 2, 3, 4);
		movc(&p, 3, 5, 6, 7, 8);
		struct ins i = I(t[k].op, 0, 0x3, R(1), R(2), R(3));
		i.unit = 13;
		emit(&p, i);
		end(&p);
		quad_init(&q);
		memset(&l, 0, sizeof(l));
		for (int px = 0; px < 4; px++)
			for (int c = 0; c < 4; c++)
				l.out[px][c] = (float)(10 * px + c);
		q.live = 0x1;                         /* helpers still ask for their coords */
		assert_int_equal(run(&p, 0, &q, &l), 0);
		assert_int_equal(l.calls, 1);
		assert_int_equal(l.rq.unit, 13);
		assert_int_equal(l.rq.op, t[k].sim);
		for (int px = 0; px < 4; px++) {
			expect_vec(l.rq.coord[px], 0.5f, 0.25f, 0.125f, 2.0f);   /* raw: TXP divides in tex */
			if (t[k].op == NV40_FP_OP_TXD) {
				expect_vec(l.rq.ddx[px], 1, 2, 3, 4);
				expect_vec(l.rq.ddy[px], 5, 6, 7, 8);
			}
			expect_vec(q.color[px][0], (float)(10 * px), (float)(10 * px + 1), 0, 0);
		}
	}

	/* TEX_EXPAND: 2x - 1; no sampler: 0 */
	p.len = 0;
	struct ins i = I(NV40_FP_OP_TEX, 0, MASK_ALL, IN, IN, IN);
	i.texexp = 1;
	emit(&p, i);
	i = I(NV40_FP_OP_TEX, 2, MASK_ALL, IN, IN, IN);
	emit(&p, i);
	end(&p);
	quad_init(&q);
	memset(&l, 0, sizeof(l));
	l.out[0][0] = 1.0f; l.out[0][1] = 0.5f; l.out[0][3] = 0.25f;
	assert_int_equal(run(&p, 0, &q, &l), 0);
	expect_vec(q.color[0][0], 1.0f, 0.0f, -1.0f, -0.5f);
	quad_init(&q);
	assert_int_equal(run(&p, 0, &q, NULL), 0);
	expect_vec(q.color[0][1], 0, 0, 0, 0);
	expect_vec(q.color[0][0], -1, -1, -1, -1);    /* expand still applies */
}

static void outputs_come_from_r0_r2_r3_r4_and_depth_from_r1z(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	static const unsigned h[4] = { 0, 4, 6, 8 };

	for (unsigned t = 0; t < 4; t++) {
		struct ins i = I(NV40_FP_OP_MOV, h[t], MASK_ALL, CST, IN, IN);
		i.half = 1; i.has_const = 1;
		i.c[0] = (float)t; i.c[1] = 0.5f; i.c[2] = 0.25f; i.c[3] = 1.0f;
		emit(&p, i);
	}
	/* depth = WPOS.x for the test */
	emit(&p, I(NV40_FP_OP_MOV, 1, 0x4, SWZ(IN, X, X, X, X), IN, IN));
	end(&p);
	quad_init(&q);
	assert_int_equal(run(&p, 0x0200000e, &q, NULL), 0);
	for (int px = 0; px < 4; px++) {
		for (unsigned t = 0; t < 4; t++)
			expect_vec(q.color[px][t], (float)t, 0.5f, 0.25f, 1.0f);
		assert_true(q.depth[px] == (float)(px & 1));
	}
	assert_int_equal(q.depth_written, 1);
	quad_init(&q);
	q.depth[0] = 7.0f;
	assert_int_equal(run(&p, 0x02000000, &q, NULL), 0);
	assert_int_equal(q.depth_written, 0);
	assert_true(q.depth[0] == 7.0f);
}

/* ---- program bounds ---- */

static void program_end_and_running_past_len(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;

	movc(&p, 0, 1, 1, 1, 1);
	quad_init(&q);
	assert_int_equal(run(&p, 0, &q, NULL), -1);          /* no END: runs off */
	struct ins i = I(NV40_FP_OP_MOV, 0, MASK_ALL, CST, IN, IN);
	p.len = 0;
	i.end = 1; i.has_const = 1; i.c[0] = 2;
	emit(&p, i);                                         /* END on a constant-carrying insn */
	movc(&p, 0, 3, 3, 3, 3);                             /* after END: not executed */
	quad_init(&q);
	run_ok(&p, &q);
	expect_vec(q.color[0][0], 2, 0, 0, 0);
	assert_int_equal(sim_fp_run(p.b, 20, 0, &q, NULL, NULL), -1);  /* constant cut off */
	assert_int_equal(sim_fp_run(p.b, 15, 0, &q, NULL, NULL), -1);  /* instruction cut off */
	assert_int_equal(sim_fp_run(p.b, 0, 0, &q, NULL, NULL), -1);
	assert_int_equal(sim_fp_run(NULL, 64, 0, &q, NULL, NULL), -1);

	p.len = 0;                                           /* an opcode that does not exist */
	i = I(0x3f, 0, MASK_ALL, IN, IN, IN);
	i.end = 1;
	emit(&p, i);
	assert_int_equal(run(&p, 0, &q, NULL), -1);
	p.len = 0;                                           /* source type 3 */
	i = I(NV40_FP_OP_MOV, 0, MASK_ALL, SRCV(3, 0, NV40_FP_SWZ_IDENTITY), IN, IN);
	i.end = 1;
	emit(&p, i);
	assert_int_equal(run(&p, 0, &q, NULL), -1);
	p.len = 0;                                           /* unknown branch op */
	bra(&p, 0x7, NV40_FP_COND_TR, NV40_FP_SWZ_IDENTITY, BR, 0);
	end(&p);
	assert_int_equal(run(&p, 0, &q, NULL), -1);
}

/* ---- flow control ---- */

static void if_else_endif_runs_each_side_for_its_pixels(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	struct ins i = I(NV40_FP_OP_MOV, 0, 0x1, IN, IN, IN);

	i.none = 1; i.cc = 1; i.input = NV40_FP_INPUT_TC0;   /* MOVC RC.x, f[TEX0] */
	emit(&p, i);
	uint32_t at = bra(&p, NV40_FP_BRA_IF, NV40_FP_COND_NE, 0, BR, 0);
	movc(&p, 0, 1, 1, 1, 1);                              /* then */
	uint32_t els = here(&p);
	movc(&p, 0, 2, 2, 2, 2);                              /* else */
	uint32_t endif = here(&p);
	emit(&p, I(NV40_FP_OP_ADD, 2, MASK_ALL, R(0), R(0), IN)); /* after: everyone */
	end(&p);
	patch_or(&p, at + 2, els);
	patch_or(&p, at + 3, endif);
	quad_init(&q);
	const float x[4] = { 0, 3, -1, 0 };
	for (int px = 0; px < 4; px++)
		q.in[px][NV40_FP_INPUT_TC0][0] = x[px];
	run_ok(&p, &q);
	for (int px = 0; px < 4; px++) {
		float v = x[px] != 0 ? 1.0f : 2.0f;
		expect_vec(q.color[px][0], v, v, v, v);
		expect_vec(q.color[px][1], 2 * v, 2 * v, 2 * v, 2 * v);
	}
	char txt[120];
	hw_fp_disasm(p.b + 16, 16, txt, sizeof(txt));
	assert_non_null(strstr(txt, "IF (NE.xxxx)"));
}

static void rep_loop_brk_and_loop_index_iterate(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	struct ins i;

	/* REP 3 { R0 += 1 } */
	movc(&p, 1, 1, 1, 1, 1);
	uint32_t at = bra(&p, NV40_FP_BRA_REP, NV40_FP_COND_TR, NV40_FP_SWZ_IDENTITY,
			  BR | 3u << NV40_FP_LOOP_COUNT__SHIFT | 3u << NV40_FP_LOOP_INIT__SHIFT |
			  3u << NV40_FP_LOOP_INCR__SHIFT, 0);
	emit(&p, I(NV40_FP_OP_ADD, 0, MASK_ALL, R(0), R(1), IN));
	patch_or(&p, at + 3, here(&p));
	/* LOOP {3, 1, 2}: aL = 1, 3, 5: R2 += f[TC0 + aL + 0] */
	at = bra(&p, NV40_FP_BRA_LOOP, NV40_FP_COND_TR, NV40_FP_SWZ_IDENTITY,
		 BR | 3u << NV40_FP_LOOP_COUNT__SHIFT | 1u << NV40_FP_LOOP_INIT__SHIFT |
		 2u << NV40_FP_LOOP_INCR__SHIFT, 0);
	i = I(NV40_FP_OP_ADD, 2, MASK_ALL, R(2), IN, IN);
	i.index = 1;
	emit(&p, i);
	patch_or(&p, at + 3, here(&p));
	/* REP 200 { R3 += 1; R4 = R3 - f[COL0].x; MOVC RC.x = R4; BRK (GE.x) } */
	at = bra(&p, NV40_FP_BRA_REP, NV40_FP_COND_TR, NV40_FP_SWZ_IDENTITY,
		 BR | 200u << NV40_FP_LOOP_COUNT__SHIFT, 0);
	emit(&p, I(NV40_FP_OP_ADD, 3, MASK_ALL, R(3), R(1), IN));
	i = I(NV40_FP_OP_ADD, 4, MASK_ALL, R(3), NEG(SWZ(IN, X, X, X, X)), IN);
	i.input = NV40_FP_INPUT_COL0;
	emit(&p, i);
	i = I(NV40_FP_OP_MOV, 0, 0x1, R(4), IN, IN);
	i.none = 1; i.cc = 1;
	emit(&p, i);
	bra(&p, NV40_FP_BRA_BRK, NV40_FP_COND_GE, 0, BR, 0);
	patch_or(&p, at + 3, here(&p));
	end(&p);

	quad_init(&q);
	for (int px = 0; px < 4; px++) {
		for (int t = 0; t < NV40_FP_INPUT_TC_COUNT; t++)
			q.in[px][NV40_FP_INPUT_TC0 + t][0] = (float)(1 << t);
		q.in[px][NV40_FP_INPUT_COL0][0] = (float)(px + 2);   /* breaks after px + 2 */
	}
	run_ok(&p, &q);
	for (int px = 0; px < 4; px++) {
		expect_vec(q.color[px][0], 3, 3, 3, 3);
		expect_vec(q.color[px][1], 2 + 8 + 32, 0, 0, 0);
		expect_vec(q.color[px][2], (float)(px + 2), (float)(px + 2), (float)(px + 2), (float)(px + 2));
	}
}

static void cal_ret_runs_a_subroutine_and_returns(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;

	movc(&p, 1, 1, 2, 3, 4);
	uint32_t cal = bra(&p, NV40_FP_BRA_CAL, NV40_FP_COND_TR, NV40_FP_SWZ_IDENTITY, BR, 0);
	emit(&p, I(NV40_FP_OP_ADD, 0, MASK_ALL, R(0), R(1), IN));      /* after return */
	end(&p);
	patch_or(&p, cal + 2, here(&p));
	emit(&p, I(NV40_FP_OP_MUL, 0, MASK_ALL, R(1), R(1), IN));      /* sub: R0 = R1 * R1 */
	bra(&p, NV40_FP_BRA_RET, NV40_FP_COND_TR, NV40_FP_SWZ_IDENTITY, BR, 0);
	quad_init(&q);
	run_ok(&p, &q);
	expect_vec(q.color[0][0], 2, 6, 12, 20);

	/* RET in main ends the program */
	p.len = 0;
	movc(&p, 0, 5, 5, 5, 5);
	bra(&p, NV40_FP_BRA_RET, NV40_FP_COND_TR, NV40_FP_SWZ_IDENTITY, BR, 0);
	movc(&p, 0, 6, 6, 6, 6);
	assert_int_equal(run(&p, 0, &q, NULL), 0);
	expect_vec(q.color[3][0], 5, 5, 5, 5);
}

static void runaway_flow_control_is_bounded(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;

	/* CAL to itself: the stack overflows */
	bra(&p, NV40_FP_BRA_CAL, NV40_FP_COND_TR, NV40_FP_SWZ_IDENTITY, BR | 0, 0);
	end(&p);
	assert_int_equal(run(&p, 0, &q, NULL), -1);
	p.len = 0;
	bra(&p, NV40_FP_BRA_IF, NV40_FP_COND_FL, NV40_FP_SWZ_IDENTITY, BR | 0, 0);
	end(&p);
	assert_int_equal(run(&p, 0, &q, NULL), -1);   /* IF jumps to itself forever */
	/* REP 255 { REP 255 { REP 255 { ADD } } }: 16M steps, more than the bound */
	p.len = 0;
	uint32_t at[3];
	for (int k = 0; k < 3; k++)
		at[k] = bra(&p, NV40_FP_BRA_REP, NV40_FP_COND_TR, NV40_FP_SWZ_IDENTITY,
			    BR | 255u << NV40_FP_LOOP_COUNT__SHIFT, 0);
	emit(&p, I(NV40_FP_OP_ADD, 0, MASK_ALL, R(0), R(0), IN));
	for (int k = 0; k < 3; k++)
		patch_or(&p, at[k] + 3, here(&p));
	end(&p);
	quad_init(&q);
	assert_int_equal(run(&p, 0, &q, NULL), -1);
	/* huge offsets are just places past len */
	p.len = 0;
	bra(&p, NV40_FP_BRA_CAL, NV40_FP_COND_TR, NV40_FP_SWZ_IDENTITY, BR | 0x7fffffffu, 0);
	end(&p);
	assert_int_equal(run(&p, 0, &q, NULL), -1);
}

/* shaders@ssa@fs-if-def-else-break as Mesa 22.3's nv30 emits it (words
 * captured from the simulated card):
 *   H0 = blue; do { if (t) {} else break; if (f == 0) { H0 = green; break; }
 *   H0 = green; } while (0)
 * Its REP has end offset 0: nir_to_tgsi leaves BGNLOOP's label at 0 and
 * nvfx_fragprog.c uses that label as the loop's end.  So the BRK goes to
 * the program's start and the program never ends; the interpreter stops it
 * at its step bound.  Patching the end offset to where the loop really ends
 * (the NOP + END Mesa appends) gives what GL asks for: the loop's body runs
 * once, green for t = 1, blue for t = 0 (the else part breaks out). */
static const uint32_t mesa_if_else_break_fp[] = {
	0x01001e80, 0x1c9ca002, 0x0001c801, 0x0001c801,   /* 0x00 MOVR H0, c.xxyy */
	0x00000000, 0x3f800000, 0x00000000, 0x00000000,
	0x44400000, 0x1c9c0000, 0x87fbfffc, 0x00000000,   /* 0x20 REP 255, end 0 */
	0x41000300, 0x1c9c0002, 0x0001c801, 0x0001c801,   /* 0x30 MOVRC RC.x, c.xxxx (t) */
	0x3f800000, 0x00000000, 0x00000000, 0x00000000,
	0x42400000, 0x00140000, 0x80000018, 0x0000001c,   /* 0x50 IF NE.xxxx else 0x60 endif 0x70 */
	0x40000000, 0x1c9c0000, 0x80000000, 0x00000000,   /* 0x60 BRK */
	0x01001e04, 0x1c9c0002, 0x0001c801, 0x0001c801,   /* 0x70 MOVR R2, c.xxxx (f) */
	0x00000000, 0x3f800000, 0x00000000, 0x00000000,
	0x0f000202, 0x1c9c0002, 0x0001c808, 0x0001c801,   /* 0x90 SEQR R1.x, c.xxxx, R2 */
	0x00000000, 0x00000000, 0x00000000, 0x00000000,
	0x41000300, 0x1c9c0004, 0x0001c801, 0x0001c801,   /* 0xb0 MOVRC RC.x, R1.xxxx */
	0x42400000, 0x00140000, 0x80000040, 0x00000040,   /* 0xc0 IF NE.xxxx else/endif 0x100 */
	0x01001e80, 0x1c9c8802, 0x0001c801, 0x0001c801,   /* 0xd0 MOVR H0, c.xyxy */
	0x00000000, 0x3f800000, 0x00000000, 0x00000000,
	0x40000000, 0x1c9c0000, 0x80000000, 0x00000000,   /* 0xf0 BRK */
	0x01001e81, 0x1c9c8802, 0x0001c801, 0x0001c801,   /* 0x100 MOVR H0, c.xyxy; END */
	0x00000000, 0x3f800000, 0x00000000, 0x00000000,
	0x00000001, 0x00000000, 0x00000000, 0x00000000,   /* 0x120 NOP; END */
};

static void mesa_loop_without_end_offset_is_bounded_and_with_one_runs(void **state)
{
	(void)state;
	struct prog p = { .len = 0 };
	struct sim_fp_quad q;
	const unsigned n = sizeof(mesa_if_else_break_fp) / 4;

	put_words(&p, mesa_if_else_break_fp, n);
	quad_init(&q);
	assert_int_equal(run(&p, 0, &q, NULL), -1);        /* as emitted: never ends */

	patch_or(&p, 0x20 / 4 + 3, 0x120 / 4);              /* REP's end: the NOP + END */
	quad_init(&q);
	run_ok(&p, &q);
	for (int px = 0; px < 4; px++)
		expect_vec(q.color[px][0], 0, 1, 0, 1);     /* t = 1, f = 0: green */

	nv_wr32le(p.b + 0x40, 0);                           /* t = 0: the else part breaks */
	quad_init(&q);
	run_ok(&p, &q);
	for (int px = 0; px < 4; px++)
		expect_vec(q.color[px][0], 0, 0, 1, 1);     /* blue */
}

/* ---- random programs ---- */

static uint32_t rng_state = 0x12345678;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static void random_bytes_never_crash_and_stay_bounded(void **state)
{
	(void)state;
	static uint8_t buf[512];
	struct sim_fp_quad q;
	struct tex_log l;
	char txt[96];
	unsigned ok = 0, bad = 0;

	for (int n = 0; n < 100000; n++) {
		size_t len = rnd() % sizeof(buf);
		for (size_t k = 0; k < len; k++)
			buf[k] = (uint8_t)rnd();
		/* bias towards plausible programs: valid opcodes, END somewhere, branches */
		for (size_t k = 0; k + 16 <= len; k += 16) {
			uint32_t d0 = nv_rd32le(buf + k), d2 = nv_rd32le(buf + k + 8);
			if (rnd() & 1)
				d0 = (d0 & 0xc0ffffff) | (rnd() % 0x3f) << 24;
			if ((rnd() & 7) && !(rnd() & 3))
				d2 &= ~BR;
			if (!(rnd() & 3))
				d2 = (d2 & 0xffffff00u) | (rnd() % (len / 4 + 1));
			if ((d2 & BR) && (rnd() & 1))                  /* mostly real flow ops */
				d0 = (d0 & 0xc0ffffff) | (rnd() % 6) << 24;
			d0 &= rnd() & 7 ? ~1u : ~0u;
			nv_wr32le(buf + k, d0);
			nv_wr32le(buf + k + 8, d2);
			for (int w = 1; w < 4 && (rnd() & 3); w++)   /* mostly no type-3 sources */
				nv_wr32le(buf + k + 4 * w, nv_rd32le(buf + k + 4 * w) & ~2u);
		}
		if (len >= 16 && (rnd() & 1)) {                        /* often an END at the tail */
			size_t last = (len / 16 - 1) * 16;
			nv_wr32le(buf + last, nv_rd32le(buf + last) | 1);
		}
		quad_init(&q);
		memset(&l, 0, sizeof(l));
		q.live = rnd() & 0xf;
		for (int px = 0; px < 4; px++)
			for (int i = 0; i < NV40_FP_INPUTS; i++)
				for (int c = 0; c < 4; c++)
					q.in[px][i][c] = (float)(int32_t)rnd() / 65536.0f;
		int r = sim_fp_run(buf, len, rnd(), &q, stub_sample, &l);
		assert_true(r == 0 || r == -1);
		if (r == 0) {
			ok++;
			assert_int_equal(q.kill & ~q.live, 0);
		} else {
			bad++;
		}
		unsigned cap = rnd() % sizeof(txt);
		hw_fp_disasm(buf, len, txt, cap);
		if (cap)
			assert_true(memchr(txt, 0, cap) != NULL);
	}
	print_message("random programs: %u ran to END, %u refused\n", ok, bad);
	assert_true(ok > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mesa_blit_shader_samples_unit0_and_writes_fp16_colour),
		cmocka_unit_test(golden_words_decode_to_the_documented_fields),
		cmocka_unit_test(every_alu_opcode_gives_the_hand_computed_result),
		cmocka_unit_test(pack_ops_give_the_documented_bits_and_unpack_back),
		cmocka_unit_test(swizzle_negate_and_both_abs_placements_apply),
		cmocka_unit_test(inline_constant_is_shared_by_sources_and_skipped),
		cmocka_unit_test(saturate_scale_mask_and_precision_shape_the_result),
		cmocka_unit_test(h_registers_round_to_fp16_and_alias_even_r),
		cmocka_unit_test(condition_codes_gate_writes_per_component),
		cmocka_unit_test(kil_marks_live_pixels_passing_the_test),
		cmocka_unit_test(ddx_ddy_are_neighbour_differences_in_the_quad),
		cmocka_unit_test(texture_ops_pass_unit_op_coords_and_derivatives),
		cmocka_unit_test(outputs_come_from_r0_r2_r3_r4_and_depth_from_r1z),
		cmocka_unit_test(program_end_and_running_past_len),
		cmocka_unit_test(if_else_endif_runs_each_side_for_its_pixels),
		cmocka_unit_test(rep_loop_brk_and_loop_index_iterate),
		cmocka_unit_test(cal_ret_runs_a_subroutine_and_returns),
		cmocka_unit_test(runaway_flow_control_is_bounded),
		cmocka_unit_test(mesa_loop_without_end_offset_is_bounded_and_with_one_runs),
		cmocka_unit_test(random_bytes_never_crash_and_stay_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
