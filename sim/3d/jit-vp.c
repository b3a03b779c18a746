/* A straight vertex program as LLVM IR: one vertex a call, a register's
 * x y z w the four lanes of a <4 x float>, so swizzles and write masks are
 * shuffles.  Temps live in SSA values and start at zero, outputs are
 * stored once at the end.  Every operation is vp.c's, in its order: the
 * product with zero's rule as compare and select, dot products added from
 * +0 one term at a time, min/max as compare and select, no fused
 * multiply-add, no fast-math flags; |x| and -x as sign-bit masks LLVM
 * cannot see (jit-ir.h says why); libm through private names, and vp.c's
 * own sim_vp_sca for RCC, EXP, LOG and LIT.  Constants and inputs are read
 * at run time. */
#include "jit-vp.h"
#include "jit-fp.h"
#include "jit-ir.h"

#include <string.h>

#include "hw/vp-isa.h"

struct jv {
	struct jit_ir ir;
	LLVMValueRef cst, in, outp;            /* the arguments */
	LLVMValueRef sarg, sres;               /* allocas: sim_vp_sca's s and d */
	LLVMValueRef r[NV40_VP_TEMPS];         /* NULL: still zero */
	LLVMValueRef out[NV40_VP_OUTPUTS];     /* NULL: not written */
};

static LLVMValueRef jv_idx(struct jv *j, unsigned i)
{
	return LLVMConstInt(j->ir.i32, i, 0);
}

static LLVMValueRef jv_lane(struct jv *j, LLVMValueRef v, unsigned c)
{
	return LLVMBuildExtractElement(j->ir.b, v, jv_idx(j, c), "");
}

/* The vec4 at base + off. */
static LLVMValueRef jv_load4(struct jv *j, LLVMValueRef base, size_t off)
{
	LLVMValueRef v = LLVMBuildLoad2(j->ir.b, j->ir.v4, jit_ir_at(&j->ir, base, off), "");
	LLVMSetAlignment(v, 4);
	return v;
}

static void jv_store4(struct jv *j, LLVMValueRef v, LLVMValueRef base, size_t off)
{
	LLVMSetAlignment(LLVMBuildStore(j->ir.b, v, jit_ir_at(&j->ir, base, off)), 4);
}

/* ---- sources ---- */

/* vp.c's vp_straight_read: the register, swizzled, |x|, then negated. */
static LLVMValueRef jv_src(struct jv *j, const struct sim_vp_dec *d, unsigned n)
{
	const struct sim_vp_src_dec *sd = &d->src[n];
	LLVMValueRef raw = jit_ir_splat(&j->ir, 0.0f);

	if (sd->type == NV40_VP_SRC_TEMP && j->r[sd->reg])
		raw = j->r[sd->reg];
	else if (sd->type == NV40_VP_SRC_INPUT && d->input < NV40_VP_INPUTS)
		raw = jv_load4(j, j->in, (size_t)d->input * 16);
	else if (sd->type == NV40_VP_SRC_CONST && d->cnst < NV40_VP_CONSTS)
		raw = jv_load4(j, j->cst, (size_t)d->cnst * 16);
	LLVMValueRef v = jit_ir_shuffle(&j->ir, raw, NULL,
				    (const unsigned[4]){ sd->swz[0], sd->swz[1], sd->swz[2], sd->swz[3] });
	if (sd->abs)
		v = jit_ir_signbit(&j->ir, v, LLVMAnd, j->ir.abs_mask);
	return sd->neg ? jit_ir_signbit(&j->ir, v, LLVMXor, j->ir.neg_mask) : v;
}

/* ---- the vector half (vp.c's vp_vec_op) ---- */

/* vp_mul: a product with a zero factor is +0. */
static LLVMValueRef jv_mul(struct jv *j, LLVMValueRef a, LLVMValueRef b)
{
	LLVMValueRef zero = jit_ir_splat(&j->ir, 0.0f);
	LLVMValueRef z = LLVMBuildOr(j->ir.b, LLVMBuildFCmp(j->ir.b, LLVMRealOEQ, a, zero, ""),
				     LLVMBuildFCmp(j->ir.b, LLVMRealOEQ, b, zero, ""), "");
	return LLVMBuildSelect(j->ir.b, z, zero, LLVMBuildFMul(j->ir.b, a, b, ""), "");
}

/* vp_dot of the first n lanes, as a scalar. */
static LLVMValueRef jv_dot(struct jv *j, LLVMValueRef a, LLVMValueRef b, unsigned n)
{
	LLVMValueRef p = jv_mul(j, a, b), s = LLVMConstReal(j->ir.f32, 0.0);
	for (unsigned c = 0; c < n; c++)
		s = LLVMBuildFAdd(j->ir.b, s, jv_lane(j, p, c), "");
	return s;
}

static LLVMValueRef jv_set(struct jv *j, LLVMRealPredicate pr, LLVMValueRef a, LLVMValueRef b)
{
	return jit_ir_sel(&j->ir, pr, a, b, jit_ir_splat(&j->ir, 1.0f), jit_ir_splat(&j->ir, 0.0f));
}

/* The vector half's result, NULL when it writes none (NOP). */
static LLVMValueRef jv_vec(struct jv *j, unsigned op, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
	LLVMBuilderRef bd = j->ir.b;

	switch (op) {
	case NV40_VP_VEC_MOV: return a;
	case NV40_VP_VEC_MUL: return jv_mul(j, a, b);
	case NV40_VP_VEC_ADD: return LLVMBuildFAdd(bd, a, c, "");
	case NV40_VP_VEC_MAD: return LLVMBuildFAdd(bd, jv_mul(j, a, b), c, "");
	case NV40_VP_VEC_DP3: return jit_ir_fill(&j->ir, jv_dot(j, a, b, 3));
	case NV40_VP_VEC_DPH:
		return jit_ir_fill(&j->ir, LLVMBuildFAdd(bd, jv_dot(j, a, b, 3), jv_lane(j, b, 3), ""));
	case NV40_VP_VEC_DP4: return jit_ir_fill(&j->ir, jv_dot(j, a, b, 4));
	case NV40_VP_VEC_DST: {
		/* (1, a.y * b.y, a.z, b.w): lanes of a, b and the product */
		LLVMValueRef ab = jit_ir_shuffle(&j->ir, a, b, (const unsigned[4]){ 0, 1, 2, 7 });
		LLVMValueRef p = jv_mul(j, a, b);
		LLVMValueRef v = jit_ir_shuffle(&j->ir, ab, p, (const unsigned[4]){ 0, 5, 2, 3 });
		return LLVMBuildInsertElement(bd, v, LLVMConstReal(j->ir.f32, 1.0), jv_idx(j, 0), "");
	}
	case NV40_VP_VEC_MIN: return jit_ir_sel(&j->ir, LLVMRealOLT, a, b, a, b);
	case NV40_VP_VEC_MAX: return jit_ir_sel(&j->ir, LLVMRealOGT, a, b, a, b);
	case NV40_VP_VEC_FRC:
		return LLVMBuildFSub(bd, a, jit_ir_intrinsic(&j->ir, "llvm.floor", j->ir.v4, a), "");
	case NV40_VP_VEC_FLR: return jit_ir_intrinsic(&j->ir, "llvm.floor", j->ir.v4, a);
	case NV40_VP_VEC_SLT: return jv_set(j, LLVMRealOLT, a, b);
	case NV40_VP_VEC_SGE: return jv_set(j, LLVMRealOGE, a, b);
	case NV40_VP_VEC_SEQ: return jv_set(j, LLVMRealOEQ, a, b);
	case NV40_VP_VEC_SGT: return jv_set(j, LLVMRealOGT, a, b);
	case NV40_VP_VEC_SLE: return jv_set(j, LLVMRealOLE, a, b);
	case NV40_VP_VEC_SNE: return jv_set(j, LLVMRealUNE, a, b);
	case NV40_VP_VEC_STR: return jit_ir_splat(&j->ir, 1.0f);
	case NV40_VP_VEC_SFL: return jit_ir_splat(&j->ir, 0.0f);
	case NV40_VP_VEC_SSG: {
		LLVMValueRef zero = jit_ir_splat(&j->ir, 0.0f);
		LLVMValueRef neg = jit_ir_sel(&j->ir, LLVMRealOLT, a, zero, jit_ir_splat(&j->ir, -1.0f), zero);
		return jit_ir_sel(&j->ir, LLVMRealOGT, a, zero, jit_ir_splat(&j->ir, 1.0f), neg);
	}
	default:   /* NOP (the address ops are not straight) */
		return NULL;
	}
}

/* ---- the scalar half (vp.c's sim_vp_sca) ---- */

static LLVMValueRef jv_libm(struct jv *j, const char *name, LLVMValueRef x)
{
	return jit_ir_call(&j->ir, name, LLVMFunctionType(j->ir.f32, &j->ir.f32, 1, 0), &x, 1);
}

/* The scalar half's result on source s, NULL when it writes none. */
static LLVMValueRef jv_sca(struct jv *j, unsigned op, LLVMValueRef s)
{
	LLVMValueRef x = jv_lane(j, s, 0), one = LLVMConstReal(j->ir.f32, 1.0);
	LLVMValueRef ax = jv_lane(j, jit_ir_signbit(&j->ir, s, LLVMAnd, j->ir.abs_mask), 0);

	switch (op) {
	case NV40_VP_SCA_NOP: return NULL;
	case NV40_VP_SCA_MOV: return jit_ir_fill(&j->ir, x);
	case NV40_VP_SCA_RCP: return jit_ir_fill(&j->ir, LLVMBuildFDiv(j->ir.b, one, x, ""));
	case NV40_VP_SCA_RSQ:
		return jit_ir_fill(&j->ir, LLVMBuildFDiv(j->ir.b, one, jit_ir_intrinsic(&j->ir, "llvm.sqrt", j->ir.f32, ax), ""));
	case NV40_VP_SCA_LG2: return jit_ir_fill(&j->ir, jv_libm(j, JIT_FP_LOG2F, ax));
	case NV40_VP_SCA_EX2: return jit_ir_fill(&j->ir, jv_libm(j, JIT_FP_EXP2F, x));
	case NV40_VP_SCA_SIN: return jit_ir_fill(&j->ir, jv_libm(j, JIT_FP_SINF, x));
	case NV40_VP_SCA_COS: return jit_ir_fill(&j->ir, jv_libm(j, JIT_FP_COSF, x));
	}
	/* RCC, EXP, LOG, LIT: vp.c's code through memory */
	LLVMTypeRef args[3] = { j->ir.i32, j->ir.ptr, j->ir.ptr };
	LLVMValueRef a[3] = { jv_idx(j, op), j->sarg, j->sres };
	LLVMSetAlignment(LLVMBuildStore(j->ir.b, s, j->sarg), 16);
	jit_ir_call(&j->ir, JIT_VP_SCA, LLVMFunctionType(j->ir.i32, args, 3, 0), a, 3);   /* these write d */
	LLVMValueRef d = LLVMBuildLoad2(j->ir.b, j->ir.v4, j->sres, "");
	LLVMSetAlignment(d, 16);
	return d;
}

/* ---- writes ---- */

/* sim_sat: NaN and -0 give +0. */
static LLVMValueRef jv_sat(struct jv *j, LLVMValueRef v)
{
	LLVMValueRef one = jit_ir_splat(&j->ir, 1.0f), zero = jit_ir_splat(&j->ir, 0.0f);
	LLVMValueRef lo = jit_ir_sel(&j->ir, LLVMRealOLT, v, one, v, one);
	return jit_ir_sel(&j->ir, LLVMRealOGT, v, zero, lo, zero);
}

/* old with the lanes of mask (x = bit 3) from v. */
static LLVMValueRef jv_masked(struct jv *j, LLVMValueRef old, LLVMValueRef v, unsigned mask)
{
	unsigned l[4];
	for (unsigned c = 0; c < 4; c++)
		l[c] = mask & (8u >> c) ? 4 + c : c;
	return jit_ir_shuffle(&j->ir, old, v, l);
}

static void jv_write(struct jv *j, const struct sim_vp_dec *d, LLVMValueRef v, unsigned temp,
		     unsigned to_out, unsigned mask)
{
	if (temp != NV40_VP_NONE_TEMP) {
		LLVMValueRef *r = &j->r[temp % NV40_VP_TEMPS];
		*r = jv_masked(j, *r ? *r : jit_ir_splat(&j->ir, 0.0f), v, mask);
	}
	if (to_out && d->dest != NV40_VP_NONE_DEST && d->dest < NV40_VP_OUTPUTS) {
		LLVMValueRef *o = &j->out[d->dest];
		if (!*o)
			*o = jv_load4(j, j->outp, (size_t)d->dest * 16);
		*o = jv_masked(j, *o, v, mask);
	}
}

int jit_vp_build(LLVMModuleRef m, const char *name, const struct jit_vp_prog *p)
{
	struct jv j;

	memset(&j, 0, sizeof(j));
	jit_ir_begin(&j.ir, m, name, "vppp");
	j.cst = LLVMGetParam(j.ir.fn, 0);
	j.in = LLVMGetParam(j.ir.fn, 1);
	j.outp = LLVMGetParam(j.ir.fn, 2);
	j.sarg = LLVMBuildAlloca(j.ir.b, j.ir.v4, "");
	j.sres = LLVMBuildAlloca(j.ir.b, j.ir.v4, "");
	LLVMSetAlignment(j.sarg, 16);
	LLVMSetAlignment(j.sres, 16);

	for (unsigned i = 0; i < p->n; i++) {
		const struct sim_vp_dec *d = &p->dec[i];
		LLVMValueRef s[3] = { NULL, NULL, NULL };

		/* both halves read before either writes */
		for (unsigned n = 0; n < 3; n++)
			if (d->reads >> n & 1)
				s[n] = jv_src(&j, d, n);
		LLVMValueRef v = jv_vec(&j, d->vop, s[0], s[1], s[2]);
		LLVMValueRef sc = s[2] ? jv_sca(&j, d->sop, s[2]) : NULL;
		if (d->sat) {
			v = v ? jv_sat(&j, v) : NULL;
			sc = sc ? jv_sat(&j, sc) : NULL;
		}
		if (v)
			jv_write(&j, d, v, d->vtemp, d->vresult, d->vmask);
		if (sc)
			jv_write(&j, d, sc, d->stemp, !d->vresult, d->smask);
	}
	for (unsigned o = 0; o < NV40_VP_OUTPUTS; o++) {
		LLVMValueRef v = j.out[o];
		if (!v)
			continue;
		if (o == 0 && p->perturb) {
			LLVMValueRef u = LLVMBuildBitCast(j.ir.b, v, j.ir.v4i, "");
			LLVMValueRef x = LLVMBuildAdd(j.ir.b, LLVMBuildExtractElement(j.ir.b, u, jv_idx(&j, 0), ""),
						      LLVMConstInt(j.ir.i32, (unsigned long long)(long long)p->perturb, 1), "");
			v = LLVMBuildBitCast(j.ir.b, LLVMBuildInsertElement(j.ir.b, u, x, jv_idx(&j, 0), ""), j.ir.v4, "");
		}
		jv_store4(&j, v, j.outp, (size_t)o * 16);
	}
	LLVMBuildRetVoid(j.ir.b);
	LLVMDisposeBuilder(j.ir.b);
	return 0;
}
