/* A straight-line fragment program as LLVM IR: the quad's four pixels are
 * the four lanes of a <4 x float>, one vector per register component, so
 * DDX/DDY are shuffles.  Registers live in SSA values (no flow control);
 * they start at zero like fp.c's.  Every operation is fp.c's, in its order
 * and with its operand order (NaN payloads follow the first operand): no
 * fused multiply-add, no fast-math flags, min/max as compare and select,
 * libm through private names; texturing calls the caller's sampler.  The
 * inline constants are read from the decode cache at run time, and the
 * inputs interpolated from the rasteriser's planes as raster.c does. */
#include "jit-fp.h"
#include "jit-ir.h"
#include "jit.h"

#include <stddef.h>
#include <string.h>

#include "hw/fp-isa.h"
#include "tex.h"

#define JF_REGS 64
#define JF_HODD 32

struct jf {
	struct jit_ir ir;
	LLVMValueRef q, dec, sample, ctx, ip;  /* the arguments */
	LLVMValueRef dx, dy, w;                /* the pixels' offsets from the planes' origin, w */
	LLVMValueRef rq, out, tmp;             /* allocas: a sampler request, its result, fp16 lanes */
	LLVMValueRef r[JF_REGS][4], hodd[JF_HODD][4], cc[4];
	LLVMValueRef kill;                     /* <4 x i1>: lanes a KIL took, NULL: none */
	LLVMValueRef in[NV40_FP_INPUTS][4];    /* inputs loaded so far */
	const struct jit_fp_prog *p;
};

/* ---- values ---- */

static LLVMValueRef jf_load(struct jf *j, LLVMValueRef base, size_t off)
{
	LLVMValueRef v = LLVMBuildLoad2(j->ir.b, j->ir.f32, jit_ir_at(&j->ir, base, off), "");
	LLVMSetAlignment(v, 4);
	return v;
}

static void jf_store(struct jf *j, LLVMValueRef v, LLVMValueRef base, size_t off)
{
	LLVMSetAlignment(LLVMBuildStore(j->ir.b, v, jit_ir_at(&j->ir, base, off)), 4);
}

/* The 4x4 transpose of a[] into t[]: lane p of t[k] is lane k of a[p]. */
static void jf_transpose(struct jf *j, LLVMValueRef a[4], LLVMValueRef t[4])
{
	struct jit_ir *ir = &j->ir;
	LLVMValueRef lo01 = jit_ir_shuffle(ir, a[0], a[1], (const unsigned[4]){ 0, 4, 1, 5 });
	LLVMValueRef lo23 = jit_ir_shuffle(ir, a[2], a[3], (const unsigned[4]){ 0, 4, 1, 5 });
	LLVMValueRef hi01 = jit_ir_shuffle(ir, a[0], a[1], (const unsigned[4]){ 2, 6, 3, 7 });
	LLVMValueRef hi23 = jit_ir_shuffle(ir, a[2], a[3], (const unsigned[4]){ 2, 6, 3, 7 });
	static const unsigned first[4] = { 0, 1, 4, 5 }, second[4] = { 2, 3, 6, 7 };

	t[0] = jit_ir_shuffle(ir, lo01, lo23, first);
	t[1] = jit_ir_shuffle(ir, lo01, lo23, second);
	t[2] = jit_ir_shuffle(ir, hi01, hi23, first);
	t[3] = jit_ir_shuffle(ir, hi01, hi23, second);
}

/* Four components c (lanes: the pixels) as each pixel's four floats at
 * base + off + p stride, a pixel at a time, and back: whoever reads a
 * pixel's vector (the sampler, the ROP) reads one store, not four (a
 * store-forwarding stall each), and a pixel's four come in one load. */
static void jf_rows(struct jf *j, LLVMValueRef c[4], LLVMValueRef base, size_t off, size_t stride)
{
	LLVMValueRef row[4];

	jf_transpose(j, c, row);
	for (unsigned p = 0; p < 4; p++)
		jf_store(j, row[p], base, off + p * stride);
}

static void jf_cols(struct jf *j, LLVMValueRef base, size_t off, size_t stride, LLVMValueRef c[4])
{
	LLVMValueRef row[4];

	for (unsigned p = 0; p < 4; p++) {
		row[p] = LLVMBuildLoad2(j->ir.b, j->ir.v4, jit_ir_at(&j->ir, base, off + p * stride), "");
		LLVMSetAlignment(row[p], 4);
	}
	jf_transpose(j, row, c);
}

/* A libm function of one float (private name) on every lane. */
static LLVMValueRef jf_libm(struct jf *j, const char *name, LLVMValueRef a)
{
	LLVMTypeRef ft = LLVMFunctionType(j->ir.f32, &j->ir.f32, 1, 0);
	LLVMValueRef v = LLVMGetUndef(j->ir.v4);

	for (unsigned p = 0; p < 4; p++) {
		LLVMValueRef i = LLVMConstInt(j->ir.i32, p, 0);
		LLVMValueRef x = LLVMBuildExtractElement(j->ir.b, a, i, "");
		v = LLVMBuildInsertElement(j->ir.b, v, jit_ir_call(&j->ir, name, ft, &x, 1), i, "");
	}
	return v;
}

/* ---- number formats (fp.c's fp_half, fp_fixed, fp_sat) ---- */

/* A normal half's rounding inline (zeros and infinities too); the other
 * lanes (rare) through the helper, which does fp.c's sim_f2h then sim_h2f. */
static LLVMValueRef jf_half(struct jf *j, LLVMValueRef v)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef u = LLVMBuildBitCast(b, v, j->ir.v4i, "");
	LLVMValueRef a = LLVMBuildAnd(b, u, jit_ir_splat_i(&j->ir, 0x7fffffff), "");
	/* the rounding leaves zeros and infinities as they are, as fp.c does */
	LLVMValueRef normal = LLVMBuildOr(b, LLVMBuildAnd(b,
		LLVMBuildICmp(b, LLVMIntUGE, a, jit_ir_splat_i(&j->ir, 0x38800000), ""),
		LLVMBuildICmp(b, LLVMIntULT, a, jit_ir_splat_i(&j->ir, 0x477ff000), ""), ""),
		LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, a, jit_ir_splat_i(&j->ir, 0), ""),
			    LLVMBuildICmp(b, LLVMIntEQ, a, jit_ir_splat_i(&j->ir, 0x7f800000), ""), ""), "");
	LLVMValueRef odd = LLVMBuildAnd(b, LLVMBuildLShr(b, a, jit_ir_splat_i(&j->ir, 13), ""), jit_ir_splat_i(&j->ir, 1), "");
	LLVMValueRef rnd = LLVMBuildAnd(b, LLVMBuildAdd(b, LLVMBuildAdd(b, a, jit_ir_splat_i(&j->ir, 0x0fff), ""),
							odd, ""), jit_ir_splat_i(&j->ir, ~0x1fffu), "");
	LLVMValueRef inl = LLVMBuildBitCast(b, LLVMBuildOr(b, LLVMBuildAnd(b, u, jit_ir_splat_i(&j->ir, 0x80000000u), ""),
							    rnd, ""), j->ir.v4, "");

	/* any lane not normal: the slow block */
	LLVMValueRef bits = LLVMBuildBitCast(b, normal, LLVMIntTypeInContext(j->ir.cx, 4), "");
	LLVMValueRef all = LLVMBuildICmp(b, LLVMIntEQ, bits, LLVMConstInt(LLVMIntTypeInContext(j->ir.cx, 4), 0xf, 0), "");
	LLVMBasicBlockRef here = LLVMGetInsertBlock(b);
	LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "half_slow");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "half_join");
	LLVMBuildCondBr(b, all, join, slow);

	LLVMPositionBuilderAtEnd(b, slow);
	LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(j->ir.cx), &j->ir.ptr, 1, 0);
	LLVMSetAlignment(LLVMBuildStore(b, v, j->tmp), 4);
	jit_ir_call(&j->ir, JIT_FP_HALF4, ft, &j->tmp, 1);
	LLVMValueRef h = LLVMBuildLoad2(b, j->ir.v4, j->tmp, "");
	LLVMSetAlignment(h, 4);
	LLVMValueRef mixed = LLVMBuildSelect(b, normal, inl, h, "");
	LLVMBuildBr(b, join);

	LLVMPositionBuilderAtEnd(b, join);
	LLVMValueRef phi = LLVMBuildPhi(b, j->ir.v4, "");
	LLVMValueRef vals[2] = { inl, mixed };
	LLVMBasicBlockRef from[2] = { here, slow };
	LLVMAddIncoming(phi, vals, from, 2);
	return phi;
}

static LLVMValueRef jf_fixed(struct jf *j, LLVMValueRef v, float lo, float hi, float steps)
{
	LLVMValueRef c = jit_ir_sel(&j->ir, LLVMRealOLT, v, jit_ir_splat(&j->ir, lo), jit_ir_splat(&j->ir, lo), v);
	c = jit_ir_sel(&j->ir, LLVMRealOGT, c, jit_ir_splat(&j->ir, hi), jit_ir_splat(&j->ir, hi), c);
	LLVMValueRef f = jit_ir_intrinsic(&j->ir, "llvm.floor", j->ir.v4,
				      LLVMBuildFAdd(j->ir.b, LLVMBuildFMul(j->ir.b, c, jit_ir_splat(&j->ir, steps), ""),
						    jit_ir_splat(&j->ir, 0.5f), ""));
	f = LLVMBuildFDiv(j->ir.b, f, jit_ir_splat(&j->ir, steps), "");
	return jit_ir_sel(&j->ir, LLVMRealUNO, v, v, jit_ir_splat(&j->ir, 0.0f), f);
}

static LLVMValueRef jf_precision(struct jf *j, LLVMValueRef v, unsigned prec)
{
	switch (prec) {
	case NV40_FP_PREC_FP16: return jf_half(j, v);
	case NV40_FP_PREC_FX12: return jf_fixed(j, v, -2.0f, 2.0f - 1.0f / 1024, 1024.0f);
	case NV40_FP_PREC_FX9:  return jf_fixed(j, v, -1.0f, 1.0f - 1.0f / 256, 256.0f);
	default:                return v;
	}
}

static LLVMValueRef jf_sat(struct jf *j, LLVMValueRef v)
{
	LLVMValueRef hi = jit_ir_sel(&j->ir, LLVMRealOGT, v, jit_ir_splat(&j->ir, 1.0f), jit_ir_splat(&j->ir, 1.0f), v);
	return jit_ir_sel(&j->ir, LLVMRealOGE, v, jit_ir_splat(&j->ir, 0.0f), hi, jit_ir_splat(&j->ir, 0.0f));
}

/* fp.c's fp_cond_pass on every lane. */
static LLVMValueRef jf_cond(struct jf *j, unsigned cond, LLVMValueRef v)
{
	static const LLVMRealPredicate pr[8] = {
		LLVMRealPredicateFalse, LLVMRealOLT, LLVMRealOEQ, LLVMRealOLE,
		LLVMRealOGT, LLVMRealUNE, LLVMRealOGE, LLVMRealPredicateTrue,
	};
	return LLVMBuildFCmp(j->ir.b, pr[cond & 7], v, jit_ir_splat(&j->ir, 0.0f), "");
}

/* ---- registers and sources ---- */

static LLVMValueRef *jf_reg(struct jf *j, unsigned reg, unsigned half)
{
	if (half && (reg & 1))
		return j->hodd[(reg >> 1) % JF_HODD];
	return j->r[(half ? reg >> 1 : reg) % JF_REGS];
}

static LLVMValueRef jf_get(struct jf *j, LLVMValueRef v)
{
	return v ? v : jit_ir_splat(&j->ir, 0.0f);
}

/* A float of the interpolation block, on every lane. */
static LLVMValueRef jf_ip(struct jf *j, size_t off)
{
	return jit_ir_fill(&j->ir, jf_load(j, j->ip, off));
}

/* sim_raster_inputs' dx, dy and w of the four pixels, once. */
static void jf_planes(struct jf *j)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef xy[2];

	if (j->dx)
		return;
	for (unsigned a = 0; a < 2; a++) {        /* (float)(qx + (p & 1)) + 0.5f - fx0 */
		LLVMValueRef v = LLVMBuildLoad2(b, j->ir.i32, jit_ir_at(&j->ir, j->ip, a * 4), "");
		LLVMSetAlignment(v, 4);
		v = jit_ir_fill(&j->ir, v);
		LLVMValueRef step[4];
		for (unsigned p = 0; p < 4; p++)
			step[p] = LLVMConstInt(j->ir.i32, a ? p >> 1 : p & 1, 0);
		v = LLVMBuildSIToFP(b, LLVMBuildAdd(b, v, LLVMConstVector(step, 4), ""), j->ir.v4, "");
		v = LLVMBuildFAdd(b, v, jit_ir_splat(&j->ir, 0.5f), "");
		xy[a] = LLVMBuildFSub(b, v, jf_ip(j, offsetof(struct sim_jit_interp, fx0) + 4 * a), "");
	}
	j->dx = xy[0];
	j->dy = xy[1];
	size_t pq = offsetof(struct sim_jit_interp, pq);
	LLVMValueRef qq = LLVMBuildFAdd(b, LLVMBuildFAdd(b, jf_ip(j, pq),
		LLVMBuildFMul(b, jf_ip(j, pq + 4), j->dx, ""), ""),
		LLVMBuildFMul(b, jf_ip(j, pq + 8), j->dy, ""), "");
	LLVMValueRef aff = LLVMBuildLoad2(b, j->ir.i32, jit_ir_at(&j->ir, j->ip, offsetof(struct sim_jit_interp, affine)), "");
	LLVMSetAlignment(aff, 4);
	j->w = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, aff, LLVMConstInt(j->ir.i32, 0, 0), ""),
			       jf_ip(j, offsetof(struct sim_jit_interp, winv)),
			       LLVMBuildFDiv(b, jit_ir_splat(&j->ir, 1.0f), qq, ""), "");
}

/* Input `in`, component c: read from the quad, or interpolated as
 * sim_raster_inputs does ((dx * x + a0 + dy * y) * w; flat: dx). */
static LLVMValueRef jf_input(struct jf *j, unsigned in, unsigned c)
{
	LLVMBuilderRef b = j->ir.b;
	size_t at = offsetof(struct sim_jit_interp, in) + in * sizeof(struct sim_jit_vary);

	if (j->in[in][c])
		return j->in[in][c];
	jf_planes(j);
	LLVMValueRef mode = LLVMBuildLoad2(b, j->ir.i32, jit_ir_at(&j->ir, j->ip, at), "");
	LLVMSetAlignment(mode, 4);
	LLVMValueRef quad = jit_ir_gather(&j->ir, j->q, offsetof(struct sim_fp_quad, in) + (in * 4 + c) * 4,
				      NV40_FP_INPUTS * 16);
	LLVMValueRef vx = jf_ip(j, at + offsetof(struct sim_jit_vary, dx) + 4 * c);
	LLVMValueRef vy = jf_ip(j, at + offsetof(struct sim_jit_vary, dy) + 4 * c);
	LLVMValueRef a0 = jf_ip(j, at + offsetof(struct sim_jit_vary, a0) + 4 * c);
	LLVMValueRef smooth = LLVMBuildFMul(b, LLVMBuildFAdd(b, LLVMBuildFAdd(b,
		LLVMBuildFMul(b, vx, j->dx, ""), a0, ""), LLVMBuildFMul(b, vy, j->dy, ""), ""), j->w, "");
	LLVMValueRef v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, mode,
			 LLVMConstInt(j->ir.i32, SIM_JIT_IN_FLAT, 0), ""), vx, quad, "");
	j->in[in][c] = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, mode,
				       LLVMConstInt(j->ir.i32, SIM_JIT_IN_SMOOTH, 0), ""), smooth, v, "");
	return j->in[in][c];
}

/* Source n of instruction i (fp.c's fp_read_src_d), per component. */
static void jf_src(struct jf *j, unsigned i, unsigned n, LLVMValueRef out[4])
{
	const struct sim_fp_dec *d = &j->p->dec[i];
	const __typeof__(d->src[0]) *sr = &d->src[n];
	LLVMValueRef v[4];

	for (unsigned c = 0; c < 4; c++) {
		if (sr->type == NV40_FP_SRC_TEMP) {
			v[c] = jf_get(j, jf_reg(j, sr->reg, sr->half)[c]);
		} else if (sr->type == NV40_FP_SRC_INPUT) {
			unsigned in = sr->in;
			if (sr->indexed) {        /* no loop: aL is 0 */
				unsigned k = (unsigned)NV40_FP_GET(d->w, INDEX_OFFSET);
				if (k >= NV40_FP_INPUT_TC_COUNT) {
					v[c] = jit_ir_splat(&j->ir, c == 3 ? 1.0f : 0.0f);
					continue;
				}
				in = NV40_FP_INPUT_TC0 + k;
			}
			v[c] = jf_input(j, in, c);
		} else {
			size_t off = (size_t)j->p->slot[i] * sizeof(struct sim_fp_dec) +
				     offsetof(struct sim_fp_dec, cst) + 4 * c;
			v[c] = jit_ir_fill(&j->ir, jf_load(j, j->dec, off));
		}
	}
	for (unsigned c = 0; c < 4; c++) {
		LLVMValueRef x = v[sr->swz[c]];
		if (sr->abs)
			x = jit_ir_signbit(&j->ir, x, LLVMAnd, j->ir.abs_mask);
		out[c] = sr->neg ? jit_ir_signbit(&j->ir, x, LLVMXor, j->ir.neg_mask) : x;
	}
}

/* ---- instructions ---- */

static void jf_fill(LLVMValueRef r[4], LLVMValueRef v)
{
	r[0] = r[1] = r[2] = r[3] = v;
}

static LLVMValueRef jf_dot(struct jf *j, const LLVMValueRef a[4], const LLVMValueRef b[4], unsigned n)
{
	LLVMValueRef s = LLVMBuildFMul(j->ir.b, a[0], b[0], "");
	for (unsigned c = 1; c < n; c++)
		s = LLVMBuildFAdd(j->ir.b, s, LLVMBuildFMul(j->ir.b, a[c], b[c], ""), "");
	return s;
}

/* fp.c's fp_round_u: floor(v * scale + 0.5) as an integer (v is clamped
 * to where that is exact). */
static LLVMValueRef jf_round_u(struct jf *j, LLVMValueRef v, float scale)
{
	LLVMValueRef x = scale == 1.0f ? v : LLVMBuildFMul(j->ir.b, v, jit_ir_splat(&j->ir, scale), "");
	x = jit_ir_intrinsic(&j->ir, "llvm.floor", j->ir.v4, LLVMBuildFAdd(j->ir.b, x, jit_ir_splat(&j->ir, 0.5f), ""));
	return LLVMBuildFPToUI(j->ir.b, x, j->ir.v4i, "");
}

/* PK4B, PK4UB, PK2US: the packed bits, as a float. */
static LLVMValueRef jf_pack(struct jf *j, unsigned op, LLVMValueRef a[4])
{
	LLVMBuilderRef b = j->ir.b;
	unsigned n = op == NV40_FP_OP_PK2US ? 2 : 4, bits = op == NV40_FP_OP_PK2US ? 16 : 8;
	LLVMValueRef u = jit_ir_splat_i(&j->ir, 0);

	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef v;
		if (op == NV40_FP_OP_PK4B) {
			LLVMValueRef lo = jit_ir_splat(&j->ir, -128.0f / 127), hi = jit_ir_splat(&j->ir, 1.0f);
			v = jit_ir_sel(&j->ir, LLVMRealUNO, a[i], a[i], jit_ir_splat(&j->ir, 0.0f), a[i]);
			v = jit_ir_sel(&j->ir, LLVMRealOLT, v, lo, lo, jit_ir_sel(&j->ir, LLVMRealOGT, v, hi, hi, v));
			v = LLVMBuildFAdd(b, LLVMBuildFMul(b, v, jit_ir_splat(&j->ir, 127.0f), ""), jit_ir_splat(&j->ir, 128.0f), "");
			v = jf_round_u(j, v, 1.0f);
		} else {
			v = jf_round_u(j, jf_sat(j, a[i]), op == NV40_FP_OP_PK4UB ? 255.0f : 65535.0f);
		}
		u = LLVMBuildOr(b, u, LLVMBuildShl(b, v, jit_ir_splat_i(&j->ir, bits * i), ""), "");
	}
	return LLVMBuildBitCast(b, u, j->ir.v4, "");
}

/* UP4B, UP4UB, UP2US of a's bits. */
static void jf_unpack(struct jf *j, unsigned op, LLVMValueRef a, LLVMValueRef r[4])
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef u = LLVMBuildBitCast(b, a, j->ir.v4i, "");

	for (unsigned i = 0; i < 4; i++) {
		unsigned sh = op == NV40_FP_OP_UP2US ? 16 * (i & 1) : 8 * i;
		uint32_t m = op == NV40_FP_OP_UP2US ? 0xffff : 0xff;
		LLVMValueRef f = LLVMBuildUIToFP(b, LLVMBuildAnd(b, LLVMBuildLShr(b, u, jit_ir_splat_i(&j->ir, sh), ""),
							   jit_ir_splat_i(&j->ir, m), ""), j->ir.v4, "");
		if (op == NV40_FP_OP_UP4B)
			r[i] = LLVMBuildFDiv(b, LLVMBuildFSub(b, f, jit_ir_splat(&j->ir, 128.0f), ""), jit_ir_splat(&j->ir, 127.0f), "");
		else
			r[i] = LLVMBuildFDiv(b, f, jit_ir_splat(&j->ir, op == NV40_FP_OP_UP4UB ? 255.0f : 65535.0f), "");
	}
}

/* An ALU op (fp.c's fp_alu, DDX, DDY); 0, or -1 for one not compiled. */
static int jf_alu(struct jf *j, unsigned op, LLVMValueRef a[4], LLVMValueRef b[4], LLVMValueRef c[4],
		  LLVMValueRef r[4])
{
	static const unsigned ddx_hi[4] = { 1, 1, 3, 3 }, ddx_lo[4] = { 0, 0, 2, 2 };
	static const unsigned ddy_hi[4] = { 2, 3, 2, 3 }, ddy_lo[4] = { 0, 1, 0, 1 };
	static const LLVMRealPredicate set[] = {
		[NV40_FP_OP_SLT] = LLVMRealOLT, [NV40_FP_OP_SGE] = LLVMRealOGE,
		[NV40_FP_OP_SLE] = LLVMRealOLE, [NV40_FP_OP_SGT] = LLVMRealOGT,
		[NV40_FP_OP_SNE] = LLVMRealUNE, [NV40_FP_OP_SEQ] = LLVMRealOEQ,
	};
	LLVMBuilderRef bd = j->ir.b;
	LLVMValueRef one = jit_ir_splat(&j->ir, 1.0f), zero = jit_ir_splat(&j->ir, 0.0f), t;

	switch (op) {
	case NV40_FP_OP_MOV: memcpy(r, a, sizeof(LLVMValueRef) * 4); return 0;
	case NV40_FP_OP_DP2: jf_fill(r, jf_dot(j, a, b, 2)); return 0;
	case NV40_FP_OP_DP2A: jf_fill(r, LLVMBuildFAdd(bd, jf_dot(j, a, b, 2), c[0], "")); return 0;
	case NV40_FP_OP_DP3: jf_fill(r, jf_dot(j, a, b, 3)); return 0;
	case NV40_FP_OP_DP4: jf_fill(r, jf_dot(j, a, b, 4)); return 0;
	case NV40_FP_OP_DST:
		r[0] = one; r[1] = LLVMBuildFMul(bd, a[1], b[1], ""); r[2] = a[2]; r[3] = b[3];
		return 0;
	case NV40_FP_OP_STR: jf_fill(r, one); return 0;
	case NV40_FP_OP_SFL: jf_fill(r, zero); return 0;
	case NV40_FP_OP_RCP: jf_fill(r, LLVMBuildFDiv(bd, one, a[0], "")); return 0;
	case NV40_FP_OP_RSQ:
		t = jit_ir_intrinsic(&j->ir, "llvm.sqrt", j->ir.v4, jit_ir_intrinsic(&j->ir, "llvm.fabs", j->ir.v4, a[0]));
		jf_fill(r, LLVMBuildFDiv(bd, one, t, ""));
		return 0;
	case NV40_FP_OP_EX2: jf_fill(r, jf_libm(j, JIT_FP_EXP2F, a[0])); return 0;
	case NV40_FP_OP_LG2: jf_fill(r, jf_libm(j, JIT_FP_LOG2F, a[0])); return 0;
	case NV40_FP_OP_COS: jf_fill(r, jf_libm(j, JIT_FP_COSF, a[0])); return 0;
	case NV40_FP_OP_SIN: jf_fill(r, jf_libm(j, JIT_FP_SINF, a[0])); return 0;
	case NV40_FP_OP_POW:
		t = LLVMBuildFMul(bd, b[0], jf_libm(j, JIT_FP_LOG2F, a[0]), "");
		jf_fill(r, jf_libm(j, JIT_FP_EXP2F, t));
		return 0;
	case NV40_FP_OP_NRM:
		t = LLVMBuildFDiv(bd, one, jit_ir_intrinsic(&j->ir, "llvm.sqrt", j->ir.v4, jf_dot(j, a, a, 3)), "");
		for (unsigned i = 0; i < 3; i++)
			r[i] = LLVMBuildFMul(bd, a[i], t, "");
		r[3] = r[2];
		return 0;
	case NV40_FP_OP_LIT: {
		LLVMValueRef x = jit_ir_sel(&j->ir, LLVMRealOGT, a[0], zero, a[0], zero);
		LLVMValueRef y = jit_ir_sel(&j->ir, LLVMRealOGT, a[1], zero, a[1], zero);
		LLVMValueRef lo = jit_ir_splat(&j->ir, -128.0f + 1.0f / 256), hi = jit_ir_splat(&j->ir, 128.0f - 1.0f / 256);
		LLVMValueRef e = jit_ir_sel(&j->ir, LLVMRealOLT, a[3], lo, lo, jit_ir_sel(&j->ir, LLVMRealOGT, a[3], hi, hi, a[3]));
		t = jf_libm(j, JIT_FP_EXP2F, LLVMBuildFMul(bd, e, jf_libm(j, JIT_FP_LOG2F, y), ""));
		r[0] = one; r[1] = x; r[2] = jit_ir_sel(&j->ir, LLVMRealOGT, x, zero, t, zero); r[3] = one;
		return 0;
	}
	case NV40_FP_OP_LITEX2:
		t = jf_libm(j, JIT_FP_EXP2F, a[3]);
		r[0] = one; r[1] = a[1]; r[2] = jit_ir_sel(&j->ir, LLVMRealOGT, a[1], zero, t, zero); r[3] = one;
		return 0;
	case NV40_FP_OP_RFL:
		t = LLVMBuildFDiv(bd, LLVMBuildFMul(bd, jit_ir_splat(&j->ir, 2.0f), jf_dot(j, a, b, 3), ""),
				  jf_dot(j, a, a, 3), "");
		for (unsigned i = 0; i < 3; i++)
			r[i] = LLVMBuildFSub(bd, LLVMBuildFMul(bd, t, a[i], ""), b[i], "");
		r[3] = b[3];
		return 0;
	case NV40_FP_OP_PK4B: case NV40_FP_OP_PK4UB: case NV40_FP_OP_PK2US:
		jf_fill(r, jf_pack(j, op, a));
		return 0;
	case NV40_FP_OP_UP4B: case NV40_FP_OP_UP4UB: case NV40_FP_OP_UP2US:
		jf_unpack(j, op, a[0], r);
		return 0;
	case NV40_FP_OP_DIVSQ:
		t = jit_ir_intrinsic(&j->ir, "llvm.sqrt", j->ir.v4, jit_ir_intrinsic(&j->ir, "llvm.fabs", j->ir.v4, b[0]));
		for (unsigned i = 0; i < 4; i++)
			r[i] = jit_ir_sel(&j->ir, LLVMRealOEQ, a[i], zero, a[i], LLVMBuildFDiv(bd, a[i], t, ""));
		return 0;
	}
	for (unsigned i = 0; i < 4; i++) {
		switch (op) {
		case NV40_FP_OP_MUL: r[i] = LLVMBuildFMul(bd, a[i], b[i], ""); break;
		case NV40_FP_OP_ADD: r[i] = LLVMBuildFAdd(bd, a[i], b[i], ""); break;
		case NV40_FP_OP_MAD:
			r[i] = LLVMBuildFAdd(bd, LLVMBuildFMul(bd, a[i], b[i], ""), c[i], "");
			break;
		case NV40_FP_OP_MIN: r[i] = jit_ir_sel(&j->ir, LLVMRealOLT, a[i], b[i], a[i], b[i]); break;
		case NV40_FP_OP_MAX: r[i] = jit_ir_sel(&j->ir, LLVMRealOGT, a[i], b[i], a[i], b[i]); break;
		case NV40_FP_OP_SLT: case NV40_FP_OP_SGE: case NV40_FP_OP_SLE:
		case NV40_FP_OP_SGT: case NV40_FP_OP_SNE: case NV40_FP_OP_SEQ:
			r[i] = jit_ir_sel(&j->ir, set[op], a[i], b[i], one, zero);
			break;
		case NV40_FP_OP_FLR: r[i] = jit_ir_intrinsic(&j->ir, "llvm.floor", j->ir.v4, a[i]); break;
		case NV40_FP_OP_FRC:
			r[i] = LLVMBuildFSub(bd, a[i], jit_ir_intrinsic(&j->ir, "llvm.floor", j->ir.v4, a[i]), "");
			break;
		case NV40_FP_OP_DIV: r[i] = LLVMBuildFDiv(bd, a[i], b[0], ""); break;
		case NV40_FP_OP_LRP:
			r[i] = LLVMBuildFAdd(bd, LLVMBuildFMul(bd, a[i], b[i], ""),
					     LLVMBuildFMul(bd, LLVMBuildFSub(bd, one, a[i], ""), c[i], ""), "");
			break;
		case NV40_FP_OP_DDX:
			r[i] = LLVMBuildFSub(bd, jit_ir_shuffle(&j->ir, a[i], NULL, ddx_hi), jit_ir_shuffle(&j->ir, a[i], NULL, ddx_lo), "");
			break;
		case NV40_FP_OP_DDY:
			r[i] = LLVMBuildFSub(bd, jit_ir_shuffle(&j->ir, a[i], NULL, ddy_hi), jit_ir_shuffle(&j->ir, a[i], NULL, ddy_lo), "");
			break;
		default:
			return -1;
		}
	}
	return 0;
}

/* A texture op: the sampler called as fp.c calls it, through memory laid
 * out as struct sim_tex_req and float[4][4]. */
static void jf_tex(struct jf *j, const struct sim_fp_dec *d, LLVMValueRef s[3][4], LLVMValueRef r[4])
{
	unsigned op = d->op;
	unsigned rop = op == NV40_FP_OP_TXP ? SIM_TXP : op == NV40_FP_OP_TXB ? SIM_TXB :
		       op == NV40_FP_OP_TXL ? SIM_TXL : op == NV40_FP_OP_TXD ? SIM_TXD : SIM_TEX;
	LLVMBuilderRef b = j->ir.b;

	LLVMSetAlignment(LLVMBuildStore(b, LLVMConstInt(j->ir.i32, NV40_FP_GET(d->w, TEX_UNIT), 0),
					jit_ir_at(&j->ir, j->rq, offsetof(struct sim_tex_req, unit))), 4);
	LLVMSetAlignment(LLVMBuildStore(b, LLVMConstInt(j->ir.i32, rop, 0),
					jit_ir_at(&j->ir, j->rq, offsetof(struct sim_tex_req, op))), 4);
	jf_rows(j, s[0], j->rq, offsetof(struct sim_tex_req, coord), 16);
	if (op == NV40_FP_OP_TXD) {
		jf_rows(j, s[1], j->rq, offsetof(struct sim_tex_req, ddx), 16);
		jf_rows(j, s[2], j->rq, offsetof(struct sim_tex_req, ddy), 16);
	}
	for (unsigned p = 0; p < 4; p++)         /* zeros where a sampler writes nothing */
		jf_store(j, jit_ir_splat(&j->ir, 0.0f), j->out, 16 * p);
	LLVMTypeRef pt[3] = { j->ir.ptr, j->ir.ptr, j->ir.ptr };
	LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(j->ir.cx), pt, 3, 0);
	LLVMValueRef args[3] = { j->ctx, j->rq, j->out };
	LLVMBuildCall2(b, ft, j->sample, args, 3, "");
	jf_cols(j, j->out, 0, 16, r);
	for (unsigned c = 0; NV40_FP_GET(d->w, TEX_EXPAND) && c < 4; c++)
		r[c] = LLVMBuildFSub(b, LLVMBuildFMul(b, r[c], jit_ir_splat(&j->ir, 2.0f), ""),
				     jit_ir_splat(&j->ir, 1.0f), "");
}

/* fp.c's fp_write with every pixel executing: scale, precision, saturate,
 * then where the mask and the condition (on the CC before the write) pass,
 * the destination and the CC. */
static void jf_write(struct jf *j, const struct sim_fp_dec *d, LLVMValueRef res[4])
{
	LLVMValueRef on[4], v[4];

	if (!d->mask || (d->none && !d->ccu))
		return;
	for (unsigned c = 0; c < 4; c++) {
		if (!(d->mask >> c & 1))
			continue;
		on[c] = d->tr ? NULL : jf_cond(j, (unsigned)NV40_FP_GET(d->w, COND),
					      jf_get(j, j->cc[nv40_fp_swz((uint32_t)NV40_FP_GET(d->w, COND_SWZ), c)]));
		v[c] = res[c];
		if (d->scaled)
			v[c] = LLVMBuildFMul(j->ir.b, v[c], jit_ir_splat(&j->ir, d->scale), "");
		v[c] = jf_precision(j, v[c], d->prec);
		if (d->sat)
			v[c] = jf_sat(j, v[c]);
		if (d->half && !d->none && d->prec == NV40_FP_PREC_FP32)
			v[c] = jf_half(j, v[c]);
	}
	LLVMValueRef *dst = d->none ? NULL : jf_reg(j, d->dst, d->half);
	for (unsigned c = 0; c < 4; c++) {
		if (!(d->mask >> c & 1))
			continue;
		if (dst)
			dst[c] = on[c] ? LLVMBuildSelect(j->ir.b, on[c], v[c], jf_get(j, dst[c]), "") : v[c];
		if (d->ccu)
			j->cc[c] = on[c] ? LLVMBuildSelect(j->ir.b, on[c], v[c], jf_get(j, j->cc[c]), "") : v[c];
	}
}

/* fp.c's KIL with every pixel executing: the lanes where any swizzled CC
 * component passes the condition (all for TR), on the CC as it is now. */
static void jf_kil(struct jf *j, const struct sim_fp_dec *d)
{
	unsigned cond = (unsigned)NV40_FP_GET(d->w, COND), swz = (unsigned)NV40_FP_GET(d->w, COND_SWZ);

	for (unsigned c = 0; c < 4; c++) {
		LLVMValueRef pass = jf_cond(j, cond, jf_get(j, j->cc[nv40_fp_swz(swz, c)]));
		j->kill = j->kill ? LLVMBuildOr(j->ir.b, j->kill, pass, "") : pass;
	}
}

/* The kill bits: lane p is pixel p, covered ones only (q->live). */
static LLVMValueRef jf_kill_bits(struct jf *j)
{
	if (!j->kill)
		return LLVMConstInt(j->ir.i32, 0, 0);
	LLVMValueRef bit[4], bits = NULL;
	for (unsigned p = 0; p < 4; p++)
		bit[p] = LLVMConstInt(j->ir.i32, 1u << p, 0);
	LLVMValueRef lanes = LLVMBuildSelect(j->ir.b, j->kill, LLVMConstVector(bit, 4), jit_ir_splat_i(&j->ir, 0), "");
	for (unsigned p = 0; p < 4; p++) {
		LLVMValueRef b = LLVMBuildExtractElement(j->ir.b, lanes, LLVMConstInt(j->ir.i32, p, 0), "");
		bits = bits ? LLVMBuildOr(j->ir.b, bits, b, "") : b;
	}
	LLVMValueRef live = LLVMBuildLoad2(j->ir.b, j->ir.i32, jit_ir_at(&j->ir, j->q, offsetof(struct sim_fp_quad, live)), "");
	LLVMSetAlignment(live, 4);
	return LLVMBuildAnd(j->ir.b, bits, live, "");
}

/* The results as fp_run leaves them in the quad. */
static void jf_outputs(struct jf *j)
{
	static const unsigned rt_reg[NV40_FP_RTS] = { 0, 2, 3, 4 };
	LLVMBuilderRef b = j->ir.b;

	if (j->p->perturb) {
		LLVMValueRef u = LLVMBuildBitCast(b, jf_get(j, j->r[0][0]), j->ir.v4i, "");
		u = LLVMBuildAdd(b, u, jit_ir_splat_i(&j->ir, (uint32_t)j->p->perturb), "");
		j->r[0][0] = LLVMBuildBitCast(b, u, j->ir.v4, "");
	}
	for (unsigned t = 0; t < NV40_FP_RTS; t++) {
		LLVMValueRef c[4];
		for (unsigned k = 0; k < 4; k++)
			c[k] = jf_get(j, j->r[rt_reg[t]][k]);
		jf_rows(j, c, j->q, offsetof(struct sim_fp_quad, color) + t * 16, NV40_FP_RTS * 16);
	}
	int depth = !!(j->p->control & NV40_FP_CONTROL_DEPTH);
	if (depth)
		jf_store(j, jf_get(j, j->r[1][2]), j->q, offsetof(struct sim_fp_quad, depth));
	LLVMSetAlignment(LLVMBuildStore(b, LLVMConstInt(j->ir.i32, (unsigned)depth, 0),
					jit_ir_at(&j->ir, j->q, offsetof(struct sim_fp_quad, depth_written))), 4);
	LLVMSetAlignment(LLVMBuildStore(b, jf_kill_bits(j),
					jit_ir_at(&j->ir, j->q, offsetof(struct sim_fp_quad, kill))), 4);
	LLVMBuildRetVoid(b);
}

static LLVMValueRef jf_alloca(struct jf *j, unsigned bytes)
{
	LLVMValueRef a = LLVMBuildAlloca(j->ir.b, LLVMArrayType(LLVMInt8TypeInContext(j->ir.cx), bytes), "");
	LLVMSetAlignment(a, 16);
	return a;
}

int jit_fp_build(LLVMModuleRef m, const char *name, const struct jit_fp_prog *p)
{
	struct jf j;

	memset(&j, 0, sizeof(j));
	j.p = p;
	jit_ir_begin(&j.ir, m, name, "vppppp");
	j.q = LLVMGetParam(j.ir.fn, 0);
	j.dec = LLVMGetParam(j.ir.fn, 1);
	j.sample = LLVMGetParam(j.ir.fn, 2);
	j.ctx = LLVMGetParam(j.ir.fn, 3);
	j.ip = LLVMGetParam(j.ir.fn, 4);
	j.rq = jf_alloca(&j, sizeof(struct sim_tex_req));
	j.out = jf_alloca(&j, sizeof(float) * 16);
	j.tmp = jf_alloca(&j, sizeof(float) * 4);

	int r = 0;
	for (unsigned i = 0; i < p->n && !r; i++) {
		const struct sim_fp_dec *d = &p->dec[i];
		LLVMValueRef s[3][4], res[4];
		if (d->kind == NV40_FP_KIND_NOP)
			continue;
		if (d->kind == NV40_FP_KIND_KIL) {
			jf_kil(&j, d);
			continue;
		}
		if (d->kind != NV40_FP_KIND_ALU && d->kind != NV40_FP_KIND_TEX) {
			r = -1;
			break;
		}
		for (unsigned n = 0; n < d->nsrc; n++)
			jf_src(&j, i, n, s[n]);
		if (d->kind == NV40_FP_KIND_TEX)
			jf_tex(&j, d, s, res);
		else if (jf_alu(&j, d->op, s[0], s[1], s[2], res) < 0)
			r = -1;
		if (!r)
			jf_write(&j, d, res);
	}
	if (!r)
		jf_outputs(&j);
	LLVMDisposeBuilder(j.ir.b);
	return r;
}
