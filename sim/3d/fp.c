/* The NV40 fragment program interpreter (fp.h): one 2x2 quad per call, the
 * four pixels in lockstep so DDX/DDY and the sampler's implicit derivatives
 * see their neighbours.  Fields and opcodes are hw/fp-isa.h.
 *
 * Model choices (hardware rule unknown or unobservable through Mesa):
 * - Registers start at zero.  R0-R63 are fp32 vec4s; H(2n) is the same
 *   logical vec4 as R(n), rounded to fp16 when written through H; H(2n+1)
 *   is storage of its own.  Colour outputs are R0/R2/R3/R4 (= H0/H4/H6/H8,
 *   so Mesa's OUT_REG_HALF outputs and its fp32 blit shader both work),
 *   depth R1.z when FP_CONTROL has NV40_FP_CONTROL_DEPTH bits.
 * - Result pipeline: op -> DST_SCALE -> PRECISION (fp16 rounds to nearest
 *   even half; fx12 = [-2, 2) in 1/1024 steps, fx9 = [-1, 1) in 1/256, NaN
 *   -> 0) -> SAT ([0, 1], NaN -> 0) -> fp16 rounding for an H destination.
 *   Components are written where the write mask, the condition test and the
 *   pixel's execution mask agree; CC is updated from the same final values
 *   on the same components.  CC tests: LT/EQ/GT of the value against 0, a
 *   NaN passes only NE and TR; flow ops and KIL pass when any of the four
 *   swizzled components passes.
 * - DDX = p1 - p0 (top pair) / p3 - p2 (bottom), DDY = p2 - p0 / p3 - p1:
 *   towards the next pixel and the next row in the caller's quad numbering
 *   (tex.h), which is the render target's memory order, whatever
 *   COORD_CONVENTIONS says; Mesa's state tracker flips dFdy itself for
 *   window-system (y-up) framebuffers.  All four components are computed.
 * - Textures: the sampler gets every pixel's raw src0 (TXP: it divides by
 *   q; TXB/TXL: bias/lod in w, as Mesa emits them; TXD: src1/src2 are the
 *   derivatives).  Without a sampler the result is 0.
 * - Flow control is structured and per pixel: IF/ELSE/ENDIF, LOOP/REP, BRK,
 *   CAL/RET keep a mask stack; a frame closes when the program counter
 *   reaches its else/end offset.  Offsets are dwords from the program start
 *   (low two bits ignored).  RET outside a call ends the pixel.  (Mesa 22.3
 *   emits every GLSL loop as REP 255 with end offset 0 -- nir_to_tgsi leaves
 *   BGNLOOP's label 0 and nvfx_fragprog.c uses it as the end -- so its BRK
 *   lands on the program's start and such a program runs into the bound.)
 * Every step is bounded: NV40_FP_MAX_STEPS instructions, NV40_FP_STACK
 * frames, every fetch checked against len. */
#include "fp.h"
#include "half.h"

#include <math.h>
#include <string.h>

#include "hw/fp-isa.h"
#include "hw/ramin.h"

#define FP_REGS   64             /* R registers (6-bit index) */
#define FP_HODD   32             /* H1, H3 .. H63 */
#define FP_STACK  32             /* flow-control frames */

enum { FR_IF, FR_ELSE, FR_LOOP, FR_CALL };

struct fp_frame {
	uint8_t type;
	uint8_t outer;               /* execution mask before the construct */
	uint8_t alt;                 /* IF: pixels for the else part */
	uint32_t count;              /* LOOP/REP iterations left */
	int32_t index, incr;         /* aL */
	uint64_t a, b;               /* IF: else, end; LOOP: body, end; CALL: return */
};

struct fp_machine {
	float r[FP_REGS][4][4];      /* [reg][pixel][xyzw] */
	float hodd[FP_HODD][4][4];
	uint64_t r_live;             /* registers written so far (others read 0) */
	uint32_t hodd_live;
	float cc[4][4];              /* [pixel][xyzw] */
	unsigned exec;               /* pixels executing (bit i) */
	unsigned depth;
	struct fp_frame st[FP_STACK];
};

/* ---- number formats ---- */

static inline float fp_half(float f)
{
	uint32_t u = sim_f2u(f), a = u & 0x7fffffff;

	/* a normal half: round the float's mantissa to 10 bits in place (what
	 * sim_f2h then sim_h2f give, without the trip) */
	if (sim_h_normal(a))
		return sim_u2f((u & 0x80000000u) | sim_h_round(a));
	return sim_h2f(sim_f2h(f));
}

static float fp_fixed(float v, float lo, float hi, float steps)
{
	if (v != v)
		return 0.0f;
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	return floorf(v * steps + 0.5f) / steps;
}

static float fp_precision(float v, unsigned prec)
{
	switch (prec) {
	case NV40_FP_PREC_FP16: return fp_half(v);
	case NV40_FP_PREC_FX12: return fp_fixed(v, -2.0f, 2.0f - 1.0f / 1024, 1024.0f);
	case NV40_FP_PREC_FX9:  return fp_fixed(v, -1.0f, 1.0f - 1.0f / 256, 256.0f);
	default:                return v;
	}
}

static inline float fp_sat(float v)
{
	if (!(v >= 0.0f))
		return 0.0f;
	return v > 1.0f ? 1.0f : v;
}

static inline float fp_clampf(float v, float lo, float hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* ---- condition codes ---- */

static inline int fp_cond_pass(unsigned cond, float v)
{
	if (cond == NV40_FP_COND_TR)
		return 1;
	if (v < 0.0f)
		return cond & 1;
	if (v == 0.0f)
		return (cond >> 1) & 1;
	if (v > 0.0f)
		return (cond >> 2) & 1;
	return cond == NV40_FP_COND_NE;          /* unordered (NaN) */
}

/* Per-component test result for pixel p: bit c set when component c passes. */
static unsigned fp_cond_mask(const struct fp_machine *m, const uint32_t *w, unsigned p)
{
	unsigned cond = NV40_FP_GET(w, COND), swz = NV40_FP_GET(w, COND_SWZ), bits = 0;

	if (cond == NV40_FP_COND_TR)
		return 0xf;
	for (unsigned c = 0; c < 4; c++)
		if (fp_cond_pass(cond, m->cc[p][nv40_fp_swz(swz, c)]))
			bits |= 1u << c;
	return bits;
}

/* Pixels of the execution mask for which any swizzled component passes. */
static unsigned fp_cond_pixels(const struct fp_machine *m, const uint32_t *w)
{
	unsigned pix = 0;

	for (unsigned p = 0; p < 4; p++)
		if ((m->exec >> p & 1) && fp_cond_mask(m, w, p))
			pix |= 1u << p;
	return pix;
}

/* ---- registers ---- */

static const float fp_zero[4][4];

static const float (*fp_reg_read(const struct fp_machine *m, unsigned reg, unsigned half))[4]
{
	if (half && (reg & 1))
		return (m->hodd_live >> (reg >> 1) & 1) ? m->hodd[reg >> 1] : fp_zero;
	if (half)
		reg >>= 1;
	return (m->r_live >> reg & 1) ? m->r[reg] : fp_zero;
}

static inline float (*fp_reg_write(struct fp_machine *m, unsigned reg, unsigned half))[4]
{
	if (half && (reg & 1)) {
		reg >>= 1;
		if (!(m->hodd_live >> reg & 1)) {
			memset(m->hodd[reg], 0, sizeof(m->hodd[reg]));
			m->hodd_live |= 1u << reg;
		}
		return m->hodd[reg];
	}
	if (half)
		reg >>= 1;
	if (!(m->r_live >> reg & 1)) {
		memset(m->r[reg], 0, sizeof(m->r[reg]));
		m->r_live |= 1ull << reg;
	}
	return m->r[reg];
}

static int32_t fp_loop_index(const struct fp_machine *m)
{
	for (unsigned i = m->depth; i-- > 0;)
		if (m->st[i].type == FR_LOOP)
			return m->st[i].index;
	return 0;
}

/* Source n of the instruction for all four pixels, swizzled, |abs|, -neg. */
static void fp_read_src(const struct fp_machine *m, const uint32_t *w, unsigned n,
			const float cst[4], const struct sim_fp_quad *q, float out[4][4])
{
	uint32_t s = nv40_fp_src(w, n), swz = NV40_FP_SRC_GET(s, SWZ);
	unsigned abs = nv40_fp_src_abs(w, n), neg = NV40_FP_SRC_GET(s, NEG);
	float v[4][4];

	switch (NV40_FP_SRC_GET(s, TYPE)) {
	case NV40_FP_SRC_TEMP:
		memcpy(v, fp_reg_read(m, NV40_FP_SRC_GET(s, REG), NV40_FP_SRC_GET(s, HALF)), sizeof(v));
		break;
	case NV40_FP_SRC_INPUT: {
		unsigned in = NV40_FP_GET(w, INPUT);
		int inside = 1;
		if (NV40_FP_GET(w, INDEX_INPUT)) {
			/* fragment.texcoord[aL + n]: TC0 + offset + loop index */
			int64_t i = (int64_t)NV40_FP_GET(w, INDEX_OFFSET) + fp_loop_index(m);
			inside = i >= 0 && i < NV40_FP_INPUT_TC_COUNT;
			in = inside ? NV40_FP_INPUT_TC0 + (unsigned)i : 0;
		}
		for (unsigned p = 0; p < 4; p++) {
			if (inside) {
				memcpy(v[p], q->in[p][in], sizeof(v[p]));
			} else {
				v[p][0] = v[p][1] = v[p][2] = 0.0f;
				v[p][3] = 1.0f;
			}
		}
		break;
	}
	default: /* NV40_FP_SRC_CONST (type 3 is refused before) */
		for (unsigned p = 0; p < 4; p++)
			memcpy(v[p], cst, sizeof(v[p]));
		break;
	}
	for (unsigned p = 0; p < 4; p++) {
		for (unsigned c = 0; c < 4; c++) {
			float x = v[p][nv40_fp_swz(swz, c)];
			if (abs)
				x = fabsf(x);
			out[p][c] = neg ? -x : x;
		}
	}
}

/* The same from the decoded instruction: fields read once per program. */
static inline void fp_read_src_d(const struct fp_machine *m, const struct sim_fp_dec *d, unsigned n,
			  const struct sim_fp_quad *q, float out[4][4])
{
	const __typeof__(d->src[0]) *sr = &d->src[n];

	if (sr->indexed) {
		fp_read_src(m, d->w, n, d->cst, q, out);
		return;
	}
	if (sr->type == NV40_FP_SRC_TEMP) {
		const float (*v)[4] = fp_reg_read(m, sr->reg, sr->half);
		if (sr->plain) {
			memcpy(out, v, sizeof(float) * 16);
			return;
		}
		for (unsigned p = 0; p < 4; p++)
			for (unsigned c = 0; c < 4; c++) {
				float x = v[p][sr->swz[c]];
				if (sr->abs)
					x = fabsf(x);
				out[p][c] = sr->neg ? -x : x;
			}
		return;
	}
	for (unsigned p = 0; p < 4; p++) {
		const float *v = sr->type == NV40_FP_SRC_INPUT ? q->in[p][sr->in] : d->cst;
		if (sr->plain) {
			memcpy(out[p], v, sizeof(out[p]));
			continue;
		}
		if (!sr->mod) {
			for (unsigned c = 0; c < 4; c++)
				out[p][c] = v[sr->swz[c]];
			continue;
		}
		for (unsigned c = 0; c < 4; c++) {
			float x = v[sr->swz[c]];
			if (sr->abs)
				x = fabsf(x);
			out[p][c] = sr->neg ? -x : x;
		}
	}
}

/* ---- arithmetic ---- */

static inline void fp_splat(float r[4], float v)
{
	r[0] = r[1] = r[2] = r[3] = v;
}

static inline void fp_bits_splat(float r[4], uint32_t u)
{
	fp_splat(r, sim_u2f(u));
}

static inline uint32_t fp_round_u(float v, float scale)
{
	return (uint32_t)floorf(v * scale + 0.5f);
}

/* One pixel of an ALU op: a, b, c are the sources, r the result. */
static void fp_alu(unsigned op, const float a[4], const float b[4], const float c[4], float r[4])
{
	float t;
	uint32_t u;

	switch (op) {
	case NV40_FP_OP_MOV: memcpy(r, a, 16); break;
	case NV40_FP_OP_MUL: for (int i = 0; i < 4; i++) r[i] = a[i] * b[i]; break;
	case NV40_FP_OP_ADD: for (int i = 0; i < 4; i++) r[i] = a[i] + b[i]; break;
	case NV40_FP_OP_MAD: for (int i = 0; i < 4; i++) r[i] = a[i] * b[i] + c[i]; break;
	case NV40_FP_OP_DP2: fp_splat(r, a[0] * b[0] + a[1] * b[1]); break;
	case NV40_FP_OP_DP2A: fp_splat(r, a[0] * b[0] + a[1] * b[1] + c[0]); break;
	case NV40_FP_OP_DP3: fp_splat(r, a[0] * b[0] + a[1] * b[1] + a[2] * b[2]); break;
	case NV40_FP_OP_DP4: fp_splat(r, a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]); break;
	case NV40_FP_OP_DST: r[0] = 1.0f; r[1] = a[1] * b[1]; r[2] = a[2]; r[3] = b[3]; break;
	case NV40_FP_OP_MIN: for (int i = 0; i < 4; i++) r[i] = a[i] < b[i] ? a[i] : b[i]; break;
	case NV40_FP_OP_MAX: for (int i = 0; i < 4; i++) r[i] = a[i] > b[i] ? a[i] : b[i]; break;
	case NV40_FP_OP_SLT: for (int i = 0; i < 4; i++) r[i] = a[i] < b[i]; break;
	case NV40_FP_OP_SGE: for (int i = 0; i < 4; i++) r[i] = a[i] >= b[i]; break;
	case NV40_FP_OP_SLE: for (int i = 0; i < 4; i++) r[i] = a[i] <= b[i]; break;
	case NV40_FP_OP_SGT: for (int i = 0; i < 4; i++) r[i] = a[i] > b[i]; break;
	case NV40_FP_OP_SNE: for (int i = 0; i < 4; i++) r[i] = a[i] != b[i]; break;
	case NV40_FP_OP_SEQ: for (int i = 0; i < 4; i++) r[i] = a[i] == b[i]; break;
	case NV40_FP_OP_STR: fp_splat(r, 1.0f); break;
	case NV40_FP_OP_SFL: fp_splat(r, 0.0f); break;
	case NV40_FP_OP_FRC: for (int i = 0; i < 4; i++) r[i] = a[i] - floorf(a[i]); break;
	case NV40_FP_OP_FLR: for (int i = 0; i < 4; i++) r[i] = floorf(a[i]); break;
	case NV40_FP_OP_RCP: fp_splat(r, 1.0f / a[0]); break;
	case NV40_FP_OP_RSQ: fp_splat(r, 1.0f / sqrtf(fabsf(a[0]))); break; /* RSX: sign ignored */
	case NV40_FP_OP_EX2: fp_splat(r, exp2f(a[0])); break;
	case NV40_FP_OP_LG2: fp_splat(r, log2f(a[0])); break;
	case NV40_FP_OP_POW: fp_splat(r, exp2f(b[0] * log2f(a[0]))); break;
	case NV40_FP_OP_COS: fp_splat(r, cosf(a[0])); break;
	case NV40_FP_OP_SIN: fp_splat(r, sinf(a[0])); break;
	case NV40_FP_OP_DIV: for (int i = 0; i < 4; i++) r[i] = a[i] / b[0]; break;
	case NV40_FP_OP_DIVSQ: /* RSX: a zero numerator gives 0 whatever b */
		t = sqrtf(fabsf(b[0]));
		for (int i = 0; i < 4; i++) r[i] = a[i] == 0.0f ? a[i] : a[i] / t;
		break;
	case NV40_FP_OP_NRM:
		t = 1.0f / sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
		r[0] = a[0] * t; r[1] = a[1] * t; r[2] = a[2] * t; r[3] = r[2];
		break;
	case NV40_FP_OP_RFL: /* NV30 RFL: reflect b about the axis a */
		t = 2.0f * (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) /
		    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
		for (int i = 0; i < 3; i++) r[i] = t * a[i] - b[i];
		r[3] = b[3];
		break;
	case NV40_FP_OP_LRP: for (int i = 0; i < 4; i++) r[i] = a[i] * b[i] + (1.0f - a[i]) * c[i]; break;
	case NV40_FP_OP_LIT: {
		float x = a[0] > 0.0f ? a[0] : 0.0f, y = a[1] > 0.0f ? a[1] : 0.0f;
		float e = fp_clampf(a[3], -128.0f + 1.0f / 256, 128.0f - 1.0f / 256);
		r[0] = 1.0f; r[1] = x; r[2] = x > 0.0f ? exp2f(e * log2f(y)) : 0.0f; r[3] = 1.0f;
		break;
	}
	case NV40_FP_OP_LITEX2: /* LIT's last step (RSX "LIF"): y diffuse, w log of specular */
		r[0] = 1.0f; r[1] = a[1]; r[2] = a[1] > 0.0f ? exp2f(a[3]) : 0.0f; r[3] = 1.0f;
		break;
	case NV40_FP_OP_PK4B: /* NV_fragment_program: biased signed bytes */
		u = 0;
		for (int i = 0; i < 4; i++)
			u |= fp_round_u(fp_clampf(a[i] != a[i] ? 0.0f : a[i], -128.0f / 127, 1.0f) * 127.0f
					+ 128.0f, 1.0f) << (8 * i);
		fp_bits_splat(r, u);
		break;
	case NV40_FP_OP_UP4B:
		u = sim_f2u(a[0]);
		for (int i = 0; i < 4; i++) r[i] = ((float)(u >> (8 * i) & 0xff) - 128.0f) / 127.0f;
		break;
	case NV40_FP_OP_PK4UB:
		u = 0;
		for (int i = 0; i < 4; i++) u |= fp_round_u(fp_sat(a[i]), 255.0f) << (8 * i);
		fp_bits_splat(r, u);
		break;
	case NV40_FP_OP_UP4UB:
		u = sim_f2u(a[0]);
		for (int i = 0; i < 4; i++) r[i] = (float)(u >> (8 * i) & 0xff) / 255.0f;
		break;
	case NV40_FP_OP_PK2H:
		fp_bits_splat(r, (uint32_t)sim_f2h(a[0]) | (uint32_t)sim_f2h(a[1]) << 16);
		break;
	case NV40_FP_OP_UP2H:
		u = sim_f2u(a[0]);
		r[0] = r[2] = sim_h2f((uint16_t)u);
		r[1] = r[3] = sim_h2f((uint16_t)(u >> 16));
		break;
	case NV40_FP_OP_PK2US:
		fp_bits_splat(r, fp_round_u(fp_sat(a[0]), 65535.0f) | fp_round_u(fp_sat(a[1]), 65535.0f) << 16);
		break;
	case NV40_FP_OP_UP2US:
		u = sim_f2u(a[0]);
		r[0] = r[2] = (float)(u & 0xffff) / 65535.0f;
		r[1] = r[3] = (float)(u >> 16) / 65535.0f;
		break;
	default: /* NOP-kind ops never get here */
		fp_splat(r, 0.0f);
		break;
	}
}

static const float fp_scale[8] = { 1.0f, 2.0f, 4.0f, 8.0f, 1.0f, 0.5f, 0.25f, 0.125f };

/* Writes fp_write does without its tests: no condition, CC, scale or
 * saturation, a destination register, fp32 or fp16 precision. */
enum { FP_DIRECT_NO, FP_DIRECT_COPY, FP_DIRECT_HALF };

/* fp_write for d->direct: the value as the precision and an H
 * destination round it. */
static void fp_write_direct(struct fp_machine *m, const struct sim_fp_dec *d, float res[4][4])
{
	float (*dst)[4] = fp_reg_write(m, d->dst, d->half);
	unsigned mask = d->mask;

	if (m->exec == 0xf && mask == 0xf && d->direct == FP_DIRECT_COPY) {
		memcpy(dst, res, sizeof(float) * 16);
		return;
	}
	for (unsigned p = 0; p < 4; p++) {
		if (!(m->exec >> p & 1))
			continue;
		if (d->direct == FP_DIRECT_COPY) {
			for (unsigned c = 0; c < 4; c++)
				if (mask >> c & 1)
					dst[p][c] = res[p][c];
		} else {
			for (unsigned c = 0; c < 4; c++)
				if (mask >> c & 1)
					dst[p][c] = fp_half(res[p][c]);
		}
	}
}

/* Scale, precision, saturate, write through the masks, update CC. */
static void fp_write(struct fp_machine *m, const struct sim_fp_dec *d, float res[4][4])
{
	unsigned none = d->none, half = d->half, prec = d->prec, sat = d->sat, mask = d->mask;
	unsigned ccu = d->ccu;
	float (*dst)[4] = NULL;

	if (!mask || (none && !ccu))
		return;
	if (!none)
		dst = fp_reg_write(m, d->dst, half);
	for (unsigned p = 0; p < 4; p++) {
		if (!(m->exec >> p & 1))
			continue;
		unsigned on = d->tr ? mask : mask & fp_cond_mask(m, d->w, p);
		for (unsigned c = 0; c < 4; c++) {
			if (!(on >> c & 1))
				continue;
			float v = res[p][c];
			if (d->scaled)          /* keeps packed bit patterns intact */
				v *= d->scale;
			v = fp_precision(v, prec);
			if (sat)
				v = fp_sat(v);
			if (half && !none && prec == NV40_FP_PREC_FP32)
				v = fp_half(v); /* fp16/fx12/fx9 values are halves already */
			if (dst)
				dst[p][c] = v;
			if (ccu)
				m->cc[p][c] = v;
		}
	}
}

/* The instruction at pc decoded (pc + 16 <= len).  A refusal is kept as
 * size -1: an arithmetic op that does not exist, a source of type 3, an
 * inline constant past len. */
static void fp_decode(const uint8_t *prog, size_t len, uint64_t pc, struct sim_fp_dec *d)
{
	const uint32_t *w = d->w;

	memset(d, 0, sizeof(*d));
	nv40_fp_load(prog + pc, d->w);
	d->branch = (uint8_t)NV40_FP_GET(w, IS_BRANCH);
	d->end = (uint8_t)NV40_FP_GET(w, END);
	d->op = (uint8_t)NV40_FP_GET(w, OPCODE);
	d->size = NV40_FP_INSN_BYTES;
	if (d->branch)
		return;
	int nsrc = nv40_fp_op_nsrc(d->op), kind = nv40_fp_op_kind(d->op);
	if (nsrc < 0) {
		d->size = -1;
		return;
	}
	d->nsrc = (uint8_t)nsrc;
	d->kind = (uint8_t)kind;
	for (int n = 0; n < nsrc; n++) {
		uint32_t sv = nv40_fp_src(w, (unsigned)n), swz = NV40_FP_SRC_GET(sv, SWZ);
		unsigned type = NV40_FP_SRC_GET(sv, TYPE);
		if (type == 3) {
			d->size = -1;
			return;
		}
		if (type == NV40_FP_SRC_CONST && d->size == NV40_FP_INSN_BYTES) {
			uint64_t at = pc + NV40_FP_INSN_BYTES;
			if (at > len || len - at < NV40_FP_CONST_BYTES) {
				d->size = -1;
				return;
			}
			for (int i = 0; i < 4; i++)
				d->cst[i] = sim_u2f(nv_rd32le(prog + at + 4 * i));
			d->size += NV40_FP_CONST_BYTES;
		}
		__typeof__(d->src[0]) *sr = &d->src[n];
		sr->type = (uint8_t)type;
		sr->reg = (uint8_t)NV40_FP_SRC_GET(sv, REG);
		sr->half = (uint8_t)NV40_FP_SRC_GET(sv, HALF);
		sr->abs = (uint8_t)nv40_fp_src_abs(w, (unsigned)n);
		sr->neg = (uint8_t)NV40_FP_SRC_GET(sv, NEG);
		sr->in = (uint8_t)NV40_FP_GET(w, INPUT);
		sr->indexed = type == NV40_FP_SRC_INPUT && NV40_FP_GET(w, INDEX_INPUT);
		for (unsigned c = 0; c < 4; c++)
			sr->swz[c] = (uint8_t)nv40_fp_swz(swz, c);
		sr->mod = sr->abs || sr->neg;
		sr->plain = swz == NV40_FP_SWZ_IDENTITY && !sr->mod;
	}
	d->none = (uint8_t)NV40_FP_GET(w, OUT_NONE);
	d->half = (uint8_t)NV40_FP_GET(w, DST_HALF);
	d->prec = (uint8_t)NV40_FP_GET(w, PRECISION);
	d->sat = (uint8_t)NV40_FP_GET(w, SAT);
	d->mask = (uint8_t)NV40_FP_GET(w, MASK);
	d->ccu = (uint8_t)NV40_FP_GET(w, CC_UPDATE);
	d->tr = NV40_FP_GET(w, COND) == NV40_FP_COND_TR;
	d->dst = (uint8_t)NV40_FP_GET(w, DST);
	d->scale = fp_scale[NV40_FP_GET(w, DST_SCALE)];
	d->scaled = d->scale != 1.0f;
	if (d->tr && !d->ccu && !d->scaled && !d->sat && !d->none && d->mask) {
		/* fp16 precision rounds as an H destination does, and once */
		if (d->prec == NV40_FP_PREC_FP16 || (d->prec == NV40_FP_PREC_FP32 && d->half))
			d->direct = FP_DIRECT_HALF;
		else if (d->prec == NV40_FP_PREC_FP32)
			d->direct = FP_DIRECT_COPY;
	}
}

/* One arithmetic/texture instruction.  Returns its length in bytes, or -1. */
static int fp_exec(struct fp_machine *m, const struct sim_fp_dec *d, struct sim_fp_quad *q,
		   sim_fp_sample_fn *sample, void *ctx)
{
	unsigned op = d->op;
	int nsrc = d->nsrc, kind = d->kind;
	float s[3][4][4], res[4][4];

	if (d->size < 0)
		return -1;
	if (!m->exec || kind == NV40_FP_KIND_NOP)
		return d->size;
	if (kind == NV40_FP_KIND_KIL) {
		q->kill |= fp_cond_pixels(m, d->w) & q->live;
		return d->size;
	}
	for (int n = 0; n < nsrc; n++)
		fp_read_src_d(m, d, (unsigned)n, q, s[n]);

	if (kind == NV40_FP_KIND_TEX) {
		struct sim_tex_req rq;               /* ddx, ddy are TXD's only */
		rq.unit = NV40_FP_GET(d->w, TEX_UNIT);
		rq.op = op == NV40_FP_OP_TXP ? SIM_TXP : op == NV40_FP_OP_TXB ? SIM_TXB :
			op == NV40_FP_OP_TXL ? SIM_TXL : op == NV40_FP_OP_TXD ? SIM_TXD : SIM_TEX;
		memcpy(rq.coord, s[0], sizeof(rq.coord));
		if (op == NV40_FP_OP_TXD) {
			memcpy(rq.ddx, s[1], sizeof(rq.ddx));
			memcpy(rq.ddy, s[2], sizeof(rq.ddy));
		}
		memset(res, 0, sizeof(res));
		if (sample)
			sample(ctx, &rq, res);
		if (NV40_FP_GET(d->w, TEX_EXPAND))
			for (unsigned p = 0; p < 4; p++)
				for (unsigned c = 0; c < 4; c++)
					res[p][c] = res[p][c] * 2.0f - 1.0f;
	} else if (op == NV40_FP_OP_DDX || op == NV40_FP_OP_DDY) {
		for (unsigned c = 0; c < 4; c++) {
			if (op == NV40_FP_OP_DDX) {
				res[0][c] = res[1][c] = s[0][1][c] - s[0][0][c];
				res[2][c] = res[3][c] = s[0][3][c] - s[0][2][c];
			} else {
				res[0][c] = res[2][c] = s[0][2][c] - s[0][0][c];
				res[1][c] = res[3][c] = s[0][3][c] - s[0][1][c];
			}
		}
	} else if (op == NV40_FP_OP_MOV) {
		memcpy(res, s[0], sizeof(res));
	} else {
		for (unsigned p = 0; p < 4; p++)
			fp_alu(op, s[0][p], s[1][p], s[2][p], res[p]);
	}
	if (d->direct)
		fp_write_direct(m, d, res);
	else
		fp_write(m, d, res);
	return d->size;
}

/* ---- flow control ---- */

static inline uint64_t fp_target(uint32_t dwords)
{
	return (uint64_t)(dwords & ~3u) * 4;
}

static struct fp_frame *fp_push(struct fp_machine *m)
{
	if (m->depth >= FP_STACK)
		return NULL;
	struct fp_frame *f = &m->st[m->depth++];
	memset(f, 0, sizeof(*f));
	f->outer = (uint8_t)m->exec;
	return f;
}

/* Innermost frame of type t above any CALL frame (or any frame when t is
 * FR_CALL); -1 when there is none. */
static int fp_find(const struct fp_machine *m, unsigned t)
{
	for (int i = (int)m->depth - 1; i >= 0; i--) {
		if (m->st[i].type == t)
			return i;
		if (m->st[i].type == FR_CALL)
			return -1;
	}
	return -1;
}

/* Pixels pix leave every construct above frame `base`: the masks those
 * frames restore must not bring them back. */
static void fp_retire(struct fp_machine *m, int base, unsigned pix)
{
	m->exec &= ~pix;
	for (unsigned i = (unsigned)(base + 1); i < m->depth; i++) {
		m->st[i].outer &= (uint8_t)~pix;
		m->st[i].alt &= (uint8_t)~pix;
	}
}

/* Close the constructs whose else/end the program counter has reached. */
static int fp_arrive(struct fp_machine *m, uint64_t *pc, unsigned *steps)
{
	while (m->depth) {
		struct fp_frame *f = &m->st[m->depth - 1];
		if (f->type == FR_IF && *pc == f->a) {
			f->type = FR_ELSE;
			m->exec = f->alt;
			if (!m->exec)
				*pc = f->b;
			if (++*steps > NV40_FP_MAX_STEPS)
				return -1;
			continue;
		}
		if ((f->type == FR_IF || f->type == FR_ELSE) && *pc == f->b) {
			m->exec = f->outer;
			m->depth--;
			continue;
		}
		if (f->type == FR_LOOP && *pc == f->b) {
			if (--f->count > 0 && m->exec) {
				f->index += f->incr;
				*pc = f->a;
				if (++*steps > NV40_FP_MAX_STEPS)
					return -1;
				continue;
			}
			m->exec = f->outer;
			m->depth--;
			continue;
		}
		break;
	}
	return 0;
}

/* One flow-control instruction: moves *pc.  1 when every pixel is done,
 * 0 to go on, -1 for a bad program. */
static int fp_branch(struct fp_machine *m, const uint32_t *w, uint64_t *pc)
{
	unsigned pix = fp_cond_pixels(m, w);
	uint64_t next = *pc + NV40_FP_INSN_BYTES;
	struct fp_frame *f;
	int i;

	switch (NV40_FP_GET(w, OPCODE)) {
	case NV40_FP_BRA_IF:
		if (!(f = fp_push(m)))
			return -1;
		f->type = FR_IF;
		f->a = fp_target(NV40_FP_GET(w, ELSE_OFFSET));
		f->b = fp_target(NV40_FP_GET(w, END_OFFSET));
		f->alt = (uint8_t)(m->exec & ~pix);
		m->exec = pix;
		*pc = pix ? next : f->a;
		return 0;
	case NV40_FP_BRA_LOOP:
	case NV40_FP_BRA_REP: {
		unsigned count = NV40_FP_GET(w, LOOP_COUNT);
		uint64_t end = fp_target(NV40_FP_GET(w, END_OFFSET));
		int is_loop = NV40_FP_GET(w, OPCODE) == NV40_FP_BRA_LOOP;
		int32_t outer_index = fp_loop_index(m);
		if (!count || !pix) {
			*pc = end;
			return 0;
		}
		if (!(f = fp_push(m)))
			return -1;
		f->type = FR_LOOP;
		f->count = count;
		f->index = is_loop ? (int32_t)NV40_FP_GET(w, LOOP_INIT) : outer_index;
		f->incr = is_loop ? (int8_t)NV40_FP_GET(w, LOOP_INCR) : 0;
		f->a = next;
		f->b = end;
		m->exec = pix;
		*pc = next;
		return 0;
	}
	case NV40_FP_BRA_BRK:
		*pc = next;
		if (!pix || (i = fp_find(m, FR_LOOP)) < 0)
			return 0;
		fp_retire(m, i, pix);
		if (!m->exec) {
			m->depth = (unsigned)i + 1;
			m->st[i].count = 1;     /* the end arrival leaves the loop */
			*pc = m->st[i].b;
		}
		return 0;
	case NV40_FP_BRA_CAL:
		*pc = next;
		if (!pix)
			return 0;
		if (!(f = fp_push(m)))
			return -1;
		f->type = FR_CALL;
		f->a = next;
		m->exec = pix;
		*pc = fp_target(NV40_FP_GET(w, ELSE_OFFSET));
		return 0;
	case NV40_FP_BRA_RET:
		*pc = next;
		if (!pix)
			return 0;
		i = fp_find(m, FR_CALL);
		fp_retire(m, i, pix);
		if (m->exec)
			return 0;
		if (i < 0)
			return 1;               /* every pixel returned from main */
		m->exec = m->st[i].outer;
		*pc = m->st[i].a;
		m->depth = (unsigned)i;
		return 0;
	default:
		return -1;
	}
}

/* ---- the program ---- */

/* The decoded instruction at pc: from the cache when it has the slot (it
 * decodes it on first use), else decoded into *tmp. */
static const struct sim_fp_dec *fp_fetch(struct sim_fp_cache *c, const uint8_t *prog, size_t len,
					 uint64_t pc, struct sim_fp_dec *tmp)
{
	uint64_t slot = pc / NV40_FP_INSN_BYTES;

	if (!c || pc % NV40_FP_INSN_BYTES || slot >= SIM_FP_CACHE_SLOTS) {
		fp_decode(prog, len, pc, tmp);
		return tmp;
	}
	if (!c->have[slot]) {
		/* what the decode read: the instruction and a constant after it */
		uint64_t need = pc + NV40_FP_INSN_BYTES + NV40_FP_CONST_BYTES;
		if (need > len)
			need = len;
		if (need > c->hi) {
			memcpy(c->raw + c->hi, prog + c->hi, (size_t)(need - c->hi));
			c->hi = (size_t)need;
		}
		fp_decode(prog, len, pc, &c->dec[slot]);
		c->have[slot] = 1;
	}
	return &c->dec[slot];
}

void sim_fp_cache_reset(struct sim_fp_cache *c)
{
	memset(c->have, 0, sizeof(c->have));
	c->hi = 0;
	c->simple = -1;
	c->inputs = ~0u;
	c->jit = NULL;
}

/* Keyed by the bytes, not the address: nvd copies every bind of a program
 * to a fresh slot, and the same bytes decode the same at any address. */
static void fp_cache_bind(struct sim_fp_cache *c, const uint8_t *prog, size_t len)
{
	if (c->prog == prog && c->len == len)
		return;
	if (c->len != len || !prog || (c->hi && memcmp(c->raw, prog, c->hi)))
		sim_fp_cache_reset(c);
	c->prog = prog;
	c->len = len;
}

int sim_fp_cache_check(struct sim_fp_cache *c, const uint8_t *prog, size_t len)
{
	fp_cache_bind(c, prog, len);
	if (c->hi && memcmp(c->raw, prog, c->hi))
		sim_fp_cache_reset(c);
	if (c->simple < 0) {
		/* straight line: every instruction from 0 in bounds and accepted,
		 * no flow control, an END inside the cached slots */
		uint64_t pc = 0, inputs = 0;
		c->simple = 0;
		c->nseq = 0;
		c->inputs = ~0u;
		c->kills = 0;
		for (unsigned i = 0; prog && i < SIM_FP_CACHE_SLOTS; i++) {
			struct sim_fp_dec tmp;
			if (pc > len || len - pc < NV40_FP_INSN_BYTES || pc / NV40_FP_INSN_BYTES >= SIM_FP_CACHE_SLOTS)
				break;
			const struct sim_fp_dec *d = fp_fetch(c, prog, len, pc, &tmp);
			if (d->branch || d->size < 0)
				break;
			c->seq[c->nseq++] = (uint8_t)(pc / NV40_FP_INSN_BYTES);
			c->kills |= d->kind == NV40_FP_KIND_KIL;
			for (unsigned n = 0; n < d->nsrc; n++)
				if (d->src[n].type == NV40_FP_SRC_INPUT)
					inputs |= d->src[n].indexed ? ((1u << NV40_FP_INPUT_TC_COUNT) - 1) << NV40_FP_INPUT_TC0 :
						  1u << d->src[n].in;
			if (d->end) {
				c->simple = 1;
				c->inputs = (uint32_t)inputs;
				break;
			}
			pc += (unsigned)d->size;
		}
	}
	return c->simple;
}

static int fp_run(struct sim_fp_cache *c, const uint8_t *prog, size_t len, uint32_t control,
		  struct sim_fp_quad *q, sim_fp_sample_fn *sample, void *ctx)
{
	struct fp_machine m;
	uint64_t pc = 0;
	unsigned steps = 0;

	m.r_live = 0;
	m.hodd_live = 0;
	memset(m.cc, 0, sizeof(m.cc));
	m.exec = 0xf;                           /* helper pixels run too */
	m.depth = 0;
	q->kill = 0;
	q->depth_written = 0;

	if (c && c->simple == 1) {
		/* checked straight through to END: no flow, every pixel on */
		for (unsigned i = 0; i < c->nseq; i++)
			fp_exec(&m, &c->dec[c->seq[i]], q, sample, ctx);
		goto done;
	}
	for (;;) {
		struct sim_fp_dec tmp;
		const struct sim_fp_dec *d;
		int r;

		if (fp_arrive(&m, &pc, &steps) < 0)
			return -1;
		if (++steps > NV40_FP_MAX_STEPS)
			return -1;
		if (!prog || pc > len || len - pc < NV40_FP_INSN_BYTES)
			return -1;
		d = fp_fetch(c, prog, len, pc, &tmp);
		if (d->branch) {
			r = fp_branch(&m, d->w, &pc);
		} else {
			r = fp_exec(&m, d, q, sample, ctx);
			if (r > 0)
				pc += (unsigned)r;
			r = r < 0 ? -1 : 0;
		}
		if (r < 0)
			return -1;
		if (r > 0 || d->end)
			break;
	}
done:;
	static const unsigned rt_reg[NV40_FP_RTS] = { 0, 2, 3, 4 };
	for (unsigned t = 0; t < NV40_FP_RTS; t++) {
		const float (*v)[4] = fp_reg_read(&m, rt_reg[t], 0);
		for (unsigned p = 0; p < 4; p++)
			memcpy(q->color[p][t], v[p], sizeof(q->color[p][t]));
	}
	if (control & NV40_FP_CONTROL_DEPTH) {
		const float (*v)[4] = fp_reg_read(&m, 1, 0);
		for (unsigned p = 0; p < 4; p++)
			q->depth[p] = v[p][2];
		q->depth_written = 1;
	}
	return 0;
}

int sim_fp_run(const uint8_t *prog, size_t len, uint32_t control, struct sim_fp_quad *q,
	       sim_fp_sample_fn *sample, void *ctx)
{
	return fp_run(NULL, prog, len, control, q, sample, ctx);
}

int sim_fp_run_cached(struct sim_fp_cache *c, const uint8_t *prog, size_t len, uint32_t control,
		      struct sim_fp_quad *q, sim_fp_sample_fn *sample, void *ctx)
{
	fp_cache_bind(c, prog, len);
	return fp_run(c, prog, len, control, q, sample, ctx);
}
