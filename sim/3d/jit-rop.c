/* The ROP for one state as LLVM IR: rop.c's sim_rop_quad and
 * sim_rop_early_z where every colour buffer written has 8-bit channels,
 * their switches decided when the code is built.  Each pixel is a chain
 * of blocks that a failed test or an address outside its surface leaves
 * for the next pixel, as rop.c's `continue` does.  The values are rop.c's:
 * the saturation as its compares and selects, a byte's value as a
 * division by 255 (what rt.c's table holds), blending in its operand
 * order, bytes through a truncating conversion of c * 255 + 0.5, depth
 * through double as it computes it. */
#include "jit-rop.h"
#include "jit-ir.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "hw/enums-3d-pipe.h"

struct jr {
	struct jit_ir ir;
	const struct jit_rop_key *k;
	LLVMTypeRef i1, i8, i16, i64, f64, v4i8;
	LLVMValueRef d, samples, x, y, live, z, q;   /* the arguments */
	int perturb;
};

#define JR_RT(field) offsetof(struct draw_setup, rts.field)
#define JR_COLOR(p, i) (offsetof(struct sim_fp_quad, color) + ((p) * NV40_FP_RTS + (i)) * 16)

int jit_rop_key_of(const struct draw_setup *d, struct jit_rop_key *k)
{
	memset(k, 0, sizeof(*k));
	if (d->logic_enable)
		return -1;
	if (d->zbits && (d->zbounds || d->rts.zeta.swizzled))
		return -1;
	if (d->zbits == 24 && (d->st[0].enable || (d->two_sided_stencil && d->st[1].enable)))
		return -1;
	k->alpha_func = d->alpha_enable ? d->alpha_func : 0;
	k->zbits = d->zbits;
	if (d->zbits) {
		k->depth_test = !!d->depth_test;
		k->depth_func = d->depth_test ? d->depth_func : 0;
		k->depth_write = !!d->depth_write;
	}
	k->query = !!d->query;
	int blends = 0;
	for (unsigned i = 0; i < 4; i++) {
		if (!(d->rt_mask >> i & 1) || !d->cmask[i])
			continue;
		if (!d->rt8[i].on || d->rts.color[i].swizzled)
			return -1;
		k->bufs |= 1u << i;
		k->cmask[i] = d->cmask[i];
		k->blend[i] = !!d->blend[i];
		memcpy(k->at[i], d->rt8[i].at, 4);
		blends |= k->blend[i];
	}
	if (blends) {
		k->bsrc_rgb = d->bsrc_rgb;
		k->bsrc_a = d->bsrc_a;
		k->bdst_rgb = d->bdst_rgb;
		k->bdst_a = d->bdst_a;
		k->beq_rgb = d->beq_rgb;
		k->beq_a = d->beq_a;
	}
	return 0;
}

/* ---- values ---- */

static LLVMValueRef jr_i32(struct jr *j, uint32_t v)
{
	return LLVMConstInt(j->ir.i32, v, 0);
}

static LLVMValueRef jr_ld(struct jr *j, LLVMTypeRef t, LLVMValueRef base, size_t off)
{
	LLVMValueRef v = LLVMBuildLoad2(j->ir.b, t, jit_ir_at(&j->ir, base, off), "");
	LLVMSetAlignment(v, 1);
	return v;
}

static void jr_st(struct jr *j, LLVMValueRef v, LLVMValueRef base, size_t off)
{
	LLVMSetAlignment(LLVMBuildStore(j->ir.b, v, jit_ir_at(&j->ir, base, off)), 1);
}

static LLVMValueRef jr_lane(struct jr *j, LLVMValueRef v, unsigned c)
{
	return LLVMBuildExtractElement(j->ir.b, v, jr_i32(j, c), "");
}

/* Continue at a new block when cond holds, else at `out`. */
static void jr_require(struct jr *j, LLVMValueRef cond, LLVMBasicBlockRef out)
{
	LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "");
	LLVMBuildCondBr(j->ir.b, cond, go, out);
	LLVMPositionBuilderAtEnd(j->ir.b, go);
}

/* rop_test of compare function func: a float (rop_cmp) or unsigned
 * (rop_cmpu) compare; a NaN is none of less, equal, greater. */
static LLVMValueRef jr_cmp(struct jr *j, uint32_t func, int fl, LLVMValueRef a, LLVMValueRef b)
{
	static const struct { uint32_t func; LLVMRealPredicate r; LLVMIntPredicate i; } t[] = {
		{ NV40_CMP_LESS, LLVMRealOLT, LLVMIntULT },    { NV40_CMP_EQUAL, LLVMRealOEQ, LLVMIntEQ },
		{ NV40_CMP_LEQUAL, LLVMRealOLE, LLVMIntULE },  { NV40_CMP_GREATER, LLVMRealOGT, LLVMIntUGT },
		{ NV40_CMP_NOTEQUAL, LLVMRealUNE, LLVMIntNE }, { NV40_CMP_GEQUAL, LLVMRealOGE, LLVMIntUGE },
	};
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].func == func)
			return fl ? LLVMBuildFCmp(j->ir.b, t[i].r, a, b, "") :
				    LLVMBuildICmp(j->ir.b, t[i].i, a, b, "");
	return LLVMConstInt(j->i1, func != NV40_CMP_NEVER, 0);
}

/* sim_sat / rop_sat4: x > 0 ? x : 0 (NaN 0), then below 1 or 1. */
static LLVMValueRef jr_sat(struct jr *j, LLVMValueRef x, LLVMValueRef zero, LLVMValueRef one)
{
	x = jit_ir_sel(&j->ir, LLVMRealOGT, x, zero, x, zero);
	return jit_ir_sel(&j->ir, LLVMRealOLT, x, one, x, one);
}

/* rop_pixel of the linear surface at offset rt in draw_setup: the
 * address of pixel (px, py), both >= 0; *ok whether it is inside. */
static LLVMValueRef jr_pixel(struct jr *j, size_t rt, LLVMValueRef px, LLVMValueRef py,
			     LLVMValueRef *ok)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef mem = jr_ld(j, j->ir.ptr, j->d, rt + offsetof(struct sim_rt, mem));
	LLVMValueRef len = jr_ld(j, j->i64, j->d, rt + offsetof(struct sim_rt, len));
	LLVMValueRef pitch = LLVMBuildZExt(b, jr_ld(j, j->ir.i32, j->d, rt + offsetof(struct sim_rt, pitch)), j->i64, "");
	LLVMValueRef bpp = LLVMBuildZExt(b, jr_ld(j, j->ir.i32, j->d, rt + offsetof(struct sim_rt, bpp)), j->i64, "");
	LLVMValueRef off = LLVMBuildAdd(b, LLVMBuildMul(b, LLVMBuildZExt(b, py, j->i64, ""), pitch, ""),
					LLVMBuildMul(b, LLVMBuildZExt(b, px, j->i64, ""), bpp, ""), "");

	*ok = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntULT, off, len, ""),
			   LLVMBuildICmp(b, LLVMIntUGE, LLVMBuildSub(b, len, off, ""), bpp, ""), "");
	return LLVMBuildGEP2(b, j->i8, mem, &off, 1, "");
}

/* The pixel's position with the viewport origin: px, py, and whether
 * both are >= 0. */
static LLVMValueRef jr_position(struct jr *j, unsigned p, LLVMValueRef *px, LLVMValueRef *py)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef tx = jr_ld(j, j->ir.i32, j->d, offsetof(struct draw_setup, tx));
	LLVMValueRef ty = jr_ld(j, j->ir.i32, j->d, offsetof(struct draw_setup, ty));

	*px = LLVMBuildAdd(b, LLVMBuildAdd(b, j->x, jr_i32(j, p & 1), ""), tx, "");
	*py = LLVMBuildAdd(b, LLVMBuildAdd(b, j->y, jr_i32(j, p >> 1), ""), ty, "");
	return LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntSGE, *px, jr_i32(j, 0), ""),
			    LLVMBuildICmp(b, LLVMIntSGE, *py, jr_i32(j, 0), ""), "");
}

/* The zeta buffer's word at zp and the depth in it. */
static LLVMValueRef jr_zword(struct jr *j, LLVMValueRef zp, LLVMValueRef *zb)
{
	LLVMBuilderRef b = j->ir.b;

	if (j->k->zbits == 24) {
		LLVMValueRef w = jr_ld(j, j->ir.i32, zp, 0);
		*zb = LLVMBuildLShr(b, w, jr_i32(j, 8), "");
		return w;
	}
	*zb = LLVMBuildZExt(b, jr_ld(j, j->i16, zp, 0), j->ir.i32, "");
	return *zb;
}

/* (uint32_t)((double)sim_sat(fz) * zmax + 0.5) */
static LLVMValueRef jr_zfixed(struct jr *j, LLVMValueRef fz)
{
	LLVMBuilderRef b = j->ir.b;
	double zmax = j->k->zbits == 24 ? 16777215.0 : 65535.0;

	fz = jr_sat(j, fz, LLVMConstReal(j->ir.f32, 0.0), LLVMConstReal(j->ir.f32, 1.0));
	LLVMValueRef v = LLVMBuildFMul(b, LLVMBuildFPExt(b, fz, j->f64, ""), LLVMConstReal(j->f64, zmax), "");
	return LLVMBuildFPToUI(b, LLVMBuildFAdd(b, v, LLVMConstReal(j->f64, 0.5), ""), j->ir.i32, "");
}

/* ---- blending (rop_factor4, rop_eq4, ROP_SPLIT) ---- */

static LLVMValueRef jr_factor(struct jr *j, uint32_t f, LLVMValueRef s, LLVMValueRef d,
			      LLVMValueRef k)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef one = jit_ir_splat(&j->ir, 1.0f);

	switch (f) {
	case NV40_BF_ONE: return one;
	case NV40_BF_SRC_COLOR: return s;
	case NV40_BF_ONE_MINUS_SRC_COLOR: return LLVMBuildFSub(b, one, s, "");
	case NV40_BF_SRC_ALPHA: return jit_ir_fill(&j->ir, jr_lane(j, s, 3));
	case NV40_BF_ONE_MINUS_SRC_ALPHA: return LLVMBuildFSub(b, one, jit_ir_fill(&j->ir, jr_lane(j, s, 3)), "");
	case NV40_BF_DST_ALPHA: return jit_ir_fill(&j->ir, jr_lane(j, d, 3));
	case NV40_BF_ONE_MINUS_DST_ALPHA: return LLVMBuildFSub(b, one, jit_ir_fill(&j->ir, jr_lane(j, d, 3)), "");
	case NV40_BF_DST_COLOR: return d;
	case NV40_BF_ONE_MINUS_DST_COLOR: return LLVMBuildFSub(b, one, d, "");
	case NV40_BF_SRC_ALPHA_SATURATE: {
		LLVMValueRef sa = jr_lane(j, s, 3);
		LLVMValueRef ida = LLVMBuildFSub(b, LLVMConstReal(j->ir.f32, 1.0), jr_lane(j, d, 3), "");
		LLVMValueRef m = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, sa, ida, ""), sa, ida, "");
		return LLVMBuildInsertElement(b, jit_ir_fill(&j->ir, m), LLVMConstReal(j->ir.f32, 1.0),
					      jr_i32(j, 3), "");
	}
	case NV40_BF_CONSTANT_COLOR: return k;
	case NV40_BF_ONE_MINUS_CONSTANT_COLOR: return LLVMBuildFSub(b, one, k, "");
	case NV40_BF_CONSTANT_ALPHA: return jit_ir_fill(&j->ir, jr_lane(j, k, 3));
	case NV40_BF_ONE_MINUS_CONSTANT_ALPHA: return LLVMBuildFSub(b, one, jit_ir_fill(&j->ir, jr_lane(j, k, 3)), "");
	default: return jit_ir_splat(&j->ir, 0.0f);
	}
}

static LLVMValueRef jr_eq(struct jr *j, uint32_t eq, LLVMValueRef s, LLVMValueRef fs,
			  LLVMValueRef d, LLVMValueRef fd)
{
	LLVMBuilderRef b = j->ir.b;

	switch (eq) {
	case NV40_BEQ_MIN: return jit_ir_sel(&j->ir, LLVMRealOLT, s, d, s, d);
	case NV40_BEQ_MAX: return jit_ir_sel(&j->ir, LLVMRealOGT, s, d, s, d);
	case NV40_BEQ_FUNC_SUBTRACT:
		return LLVMBuildFSub(b, LLVMBuildFMul(b, s, fs, ""), LLVMBuildFMul(b, d, fd, ""), "");
	case NV40_BEQ_FUNC_REVERSE_SUBTRACT:
		return LLVMBuildFSub(b, LLVMBuildFMul(b, d, fd, ""), LLVMBuildFMul(b, s, fs, ""), "");
	default:
		return LLVMBuildFAdd(b, LLVMBuildFMul(b, s, fs, ""), LLVMBuildFMul(b, d, fd, ""), "");
	}
}

/* R G B of the first, A of the second. */
static LLVMValueRef jr_split(struct jr *j, LLVMValueRef rgb, LLVMValueRef a)
{
	return jit_ir_shuffle(&j->ir, rgb, a, (const unsigned[4]){ 0, 1, 2, 7 });
}

/* rop_blend8, saturated: c saturated, dst the buffer's. */
static LLVMValueRef jr_blend(struct jr *j, LLVMValueRef c, LLVMValueRef dst)
{
	const struct jit_rop_key *k = j->k;
	LLVMValueRef kc = jr_ld(j, j->ir.v4, j->d, offsetof(struct draw_setup, bconst));
	LLVMValueRef fs = jr_factor(j, k->bsrc_rgb, c, dst, kc);
	LLVMValueRef fd = jr_factor(j, k->bdst_rgb, c, dst, kc);

	if (k->bsrc_a != k->bsrc_rgb)
		fs = jr_split(j, fs, jr_factor(j, k->bsrc_a, c, dst, kc));
	if (k->bdst_a != k->bdst_rgb)
		fd = jr_split(j, fd, jr_factor(j, k->bdst_a, c, dst, kc));
	LLVMValueRef v = jr_eq(j, k->beq_rgb, c, fs, dst, fd);
	if (k->beq_a != k->beq_rgb)
		v = jr_split(j, v, jr_eq(j, k->beq_a, c, fs, dst, fd));
	return jr_sat(j, v, jit_ir_splat(&j->ir, 0.0f), jit_ir_splat(&j->ir, 1.0f));
}

/* ---- colour ---- */

/* rop_read8: R G B A from the bytes at p8 (A 1 for the X formats). */
static LLVMValueRef jr_read8(struct jr *j, unsigned i, LLVMValueRef p8)
{
	LLVMBuilderRef b = j->ir.b;
	const int8_t *at = j->k->at[i];
	LLVMValueRef bytes = LLVMBuildBitCast(b, jr_ld(j, j->ir.i32, p8, 0), j->v4i8, "");
	LLVMValueRef v = LLVMBuildUIToFP(b, LLVMBuildZExt(b, bytes, j->ir.v4i, ""), j->ir.v4, "");

	v = LLVMBuildFDiv(b, v, jit_ir_splat(&j->ir, 255.0f), "");
	return jit_ir_shuffle(&j->ir, v, jit_ir_splat(&j->ir, 1.0f),
			      (const unsigned[4]){ (unsigned)at[0], (unsigned)at[1], (unsigned)at[2],
						   at[3] < 0 ? 4u : (unsigned)at[3] });
}

/* rop_write8 of saturated c to buffer i's pixel at p8. */
static void jr_write8(struct jr *j, unsigned i, LLVMValueRef p8, LLVMValueRef c)
{
	LLVMBuilderRef b = j->ir.b;
	const int8_t *at = j->k->at[i];
	LLVMValueRef x = jr_ld(j, j->i8, j->d, offsetof(struct draw_setup, rt8) +
				      i * sizeof(struct sim_rt8) + offsetof(struct sim_rt8, x));
	LLVMValueRef v = LLVMBuildFAdd(b, LLVMBuildFMul(b, c, jit_ir_splat(&j->ir, 255.0f), ""),
				       jit_ir_splat(&j->ir, 0.5f), "");
	LLVMValueRef bi = LLVMBuildFPToSI(b, v, j->ir.v4i, "");
	unsigned mask = j->k->cmask[i];

	if (i == 0 && j->perturb)
		bi = LLVMBuildAdd(b, bi, LLVMConstVector((LLVMValueRef[4]){
			jr_i32(j, (uint32_t)j->perturb), jr_i32(j, 0), jr_i32(j, 0), jr_i32(j, 0) }, 4), "");
	LLVMValueRef by = LLVMBuildTrunc(b, bi, j->v4i8, "");
	if ((mask | (at[3] < 0 ? 8u : 0)) == 0xf) {
		/* every byte: byte at[k] is channel k, byte 3 A or x */
		unsigned lane[4] = { 0, 0, 0, 3 };
		for (unsigned k = 0; k < 3; k++)
			lane[at[k]] = k;
		LLVMValueRef m[4];
		for (unsigned k = 0; k < 4; k++)
			m[k] = jr_i32(j, lane[k]);
		LLVMValueRef w = LLVMBuildShuffleVector(b, by, LLVMGetUndef(j->v4i8), LLVMConstVector(m, 4), "");
		if (at[3] < 0)
			w = LLVMBuildInsertElement(b, w, x, jr_i32(j, 3), "");
		jr_st(j, LLVMBuildBitCast(b, w, j->ir.i32, ""), p8, 0);
		return;
	}
	for (unsigned k = 0; k < 4; k++)
		if ((mask >> k & 1) && at[k] >= 0)
			jr_st(j, LLVMBuildExtractElement(b, by, jr_i32(j, k), ""), p8, (size_t)at[k]);
	if (at[3] < 0)
		jr_st(j, x, p8, 3);
}

/* rop_color8 for buffer i at pixel p of the quad. */
static void jr_color(struct jr *j, unsigned i, unsigned p, LLVMValueRef px, LLVMValueRef py)
{
	LLVMValueRef ok;
	LLVMValueRef p8 = jr_pixel(j, JR_RT(color) + i * sizeof(struct sim_rt), px, py, &ok);
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "");

	jr_require(j, ok, done);
	LLVMValueRef c = LLVMBuildLoad2(j->ir.b, j->ir.v4, jit_ir_at(&j->ir, j->q, JR_COLOR(p, i)), "");
	LLVMSetAlignment(c, 4);
	c = jr_sat(j, c, jit_ir_splat(&j->ir, 0.0f), jit_ir_splat(&j->ir, 1.0f));
	if (j->k->blend[i])
		c = jr_blend(j, c, jr_read8(j, i, p8));
	jr_write8(j, i, p8, c);
	LLVMBuildBr(j->ir.b, done);
	LLVMPositionBuilderAtEnd(j->ir.b, done);
}

/* ---- the functions ---- */

/* sim_rop_quad's loop body for pixel p; leaves the builder at the next. */
static void jr_quad_pixel(struct jr *j, unsigned p)
{
	const struct jit_rop_key *k = j->k;
	LLVMBuilderRef b = j->ir.b;
	LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "");
	LLVMValueRef px, py, ok;

	LLVMValueRef live = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, j->live, jr_i32(j, 1u << p), ""),
					  jr_i32(j, 0), "");
	jr_require(j, LLVMBuildAnd(b, live, jr_position(j, p, &px, &py), ""), next);
	if (k->alpha_func) {
		LLVMValueRef a = jr_ld(j, j->ir.f32, j->q, JR_COLOR(p, 0) + 12);
		LLVMValueRef ref = jr_ld(j, j->ir.f32, j->d, offsetof(struct draw_setup, alpha_ref));
		jr_require(j, jr_cmp(j, k->alpha_func, 1, a, ref), next);
	}
	if (k->zbits) {
		LLVMValueRef zp = jr_pixel(j, JR_RT(zeta), px, py, &ok), zb;
		jr_require(j, ok, next);
		LLVMValueRef dw = jr_ld(j, j->ir.i32, j->q, offsetof(struct sim_fp_quad, depth_written));
		LLVMValueRef fz = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, dw, jr_i32(j, 0), ""),
			jr_ld(j, j->ir.f32, j->q, offsetof(struct sim_fp_quad, depth) + 4 * p),
			jr_ld(j, j->ir.f32, j->z, 4 * p), "");
		LLVMValueRef zf = jr_zfixed(j, fz);
		LLVMValueRef word = jr_zword(j, zp, &zb);
		if (k->depth_test)
			jr_require(j, jr_cmp(j, k->depth_func, 0, zf, zb), next);
		if (k->depth_write) {
			/* rop.c writes the word when it changes */
			LLVMValueRef nw = k->zbits == 24 ?
				LLVMBuildOr(b, LLVMBuildAnd(b, word, jr_i32(j, 0xff), ""),
					    LLVMBuildShl(b, zf, jr_i32(j, 8), ""), "") : zf;
			LLVMBasicBlockRef kept = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "");
			jr_require(j, LLVMBuildICmp(b, LLVMIntNE, nw, word, ""), kept);
			jr_st(j, k->zbits == 24 ? nw : LLVMBuildTrunc(b, nw, j->i16, ""), zp, 0);
			LLVMBuildBr(b, kept);
			LLVMPositionBuilderAtEnd(b, kept);
		}
	}
	if (k->query) {
		LLVMValueRef n = jr_ld(j, j->ir.i32, j->samples, 0);
		jr_st(j, LLVMBuildAdd(b, n, jr_i32(j, 1), ""), j->samples, 0);
	}
	for (unsigned i = 0; i < 4; i++)
		if (k->bufs >> i & 1)
			jr_color(j, i, p, px, py);
	LLVMBuildBr(b, next);
	LLVMPositionBuilderAtEnd(b, next);
}

/* sim_rop_early_z for pixel p: clears its bit in *m (an alloca) when it
 * cannot pass. */
static void jr_early_z_pixel(struct jr *j, unsigned p, LLVMValueRef m)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "");
	LLVMBasicBlockRef drop = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "");
	LLVMValueRef px, py, ok, zb;

	jr_require(j, LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, j->live, jr_i32(j, 1u << p), ""),
				    jr_i32(j, 0), ""), next);
	jr_require(j, jr_position(j, p, &px, &py), drop);
	LLVMValueRef zp = jr_pixel(j, JR_RT(zeta), px, py, &ok);
	jr_require(j, ok, drop);
	LLVMValueRef zf = jr_zfixed(j, jr_ld(j, j->ir.f32, j->z, 4 * p));
	jr_zword(j, zp, &zb);
	LLVMBuildCondBr(b, jr_cmp(j, j->k->depth_func, 0, zf, zb), next, drop);

	LLVMPositionBuilderAtEnd(b, drop);
	LLVMValueRef v = LLVMBuildLoad2(b, j->ir.i32, m, "");
	LLVMBuildStore(b, LLVMBuildAnd(b, v, jr_i32(j, ~(1u << p)), ""), m);
	LLVMBuildBr(b, next);
	LLVMPositionBuilderAtEnd(b, next);
}

static void jr_types(struct jr *j)
{
	LLVMContextRef cx = j->ir.cx;

	j->i1 = LLVMInt1TypeInContext(cx);
	j->i8 = LLVMInt8TypeInContext(cx);
	j->i16 = LLVMInt16TypeInContext(cx);
	j->i64 = LLVMInt64TypeInContext(cx);
	j->f64 = LLVMDoubleTypeInContext(cx);
	j->v4i8 = LLVMVectorType(j->i8, 4);
}

int jit_rop_build(LLVMModuleRef m, const char *name, const struct jit_rop_key *k, int perturb)
{
	struct jr j = { .k = k, .perturb = perturb };
	char zname[64];

	jit_ir_begin(&j.ir, m, name, "vppiiipp");
	jr_types(&j);
	j.d = LLVMGetParam(j.ir.fn, 0);
	j.samples = LLVMGetParam(j.ir.fn, 1);
	j.x = LLVMGetParam(j.ir.fn, 2);
	j.y = LLVMGetParam(j.ir.fn, 3);
	j.live = LLVMGetParam(j.ir.fn, 4);
	j.z = LLVMGetParam(j.ir.fn, 5);
	j.q = LLVMGetParam(j.ir.fn, 6);
	for (unsigned p = 0; p < 4; p++)
		jr_quad_pixel(&j, p);
	LLVMBuildRetVoid(j.ir.b);
	LLVMDisposeBuilder(j.ir.b);
	if (!k->zbits || !k->depth_test)
		return 0;

	snprintf(zname, sizeof(zname), "%s_z", name);
	jit_ir_begin(&j.ir, m, zname, "ipiiip");
	j.d = LLVMGetParam(j.ir.fn, 0);
	j.x = LLVMGetParam(j.ir.fn, 1);
	j.y = LLVMGetParam(j.ir.fn, 2);
	j.live = LLVMGetParam(j.ir.fn, 3);
	j.z = LLVMGetParam(j.ir.fn, 4);
	LLVMValueRef live = LLVMBuildAlloca(j.ir.b, j.ir.i32, "");
	LLVMBuildStore(j.ir.b, j.live, live);
	for (unsigned p = 0; p < 4; p++)
		jr_early_z_pixel(&j, p, live);
	LLVMBuildRet(j.ir.b, LLVMBuildLoad2(j.ir.b, j.ir.i32, live, ""));
	LLVMDisposeBuilder(j.ir.b);
	return 0;
}
