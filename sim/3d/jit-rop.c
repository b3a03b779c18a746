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
	/* the code takes a Z24S8 pixel as 4 bytes, a Z16 one as 2 */
	if (d->zbits && (d->zbounds || d->rts.zeta.swizzled || d->rts.zeta.bpp != (d->zbits == 24 ? 4u : 2u)))
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
		if (!d->rt8[i].on || d->rts.color[i].swizzled || d->rts.color[i].bpp != 4)
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

/* A field of the draw's setup (read-only while the code runs). */
static LLVMValueRef jr_setup(struct jr *j, LLVMTypeRef t, size_t off)
{
	return jr_ld(j, t, j->d, off);
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
	LLVMValueRef c = LLVMConstInt(j->i1, func != NV40_CMP_NEVER, 0), l[4] = { c, c, c, c };
	return LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMVectorTypeKind ? LLVMConstVector(l, 4) : c;
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
	LLVMValueRef mem = jr_setup(j, j->ir.ptr, rt + offsetof(struct sim_rt, mem));
	LLVMValueRef len = jr_setup(j, j->i64, rt + offsetof(struct sim_rt, len));
	LLVMValueRef pitch = LLVMBuildZExt(b, jr_setup(j, j->ir.i32, rt + offsetof(struct sim_rt, pitch)), j->i64, "");
	LLVMValueRef bpp = LLVMBuildZExt(b, jr_setup(j, j->ir.i32, rt + offsetof(struct sim_rt, bpp)), j->i64, "");
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
	LLVMValueRef tx = jr_setup(j, j->ir.i32, offsetof(struct draw_setup, tx));
	LLVMValueRef ty = jr_setup(j, j->ir.i32, offsetof(struct draw_setup, ty));

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

/* (uint32_t)((double)sim_sat(fz) * zmax + 0.5) of a float, or of four */
static LLVMValueRef jr_zfixed(struct jr *j, LLVMValueRef fz)
{
	LLVMBuilderRef b = j->ir.b;
	int four = LLVMGetTypeKind(LLVMTypeOf(fz)) == LLVMVectorTypeKind;
	LLVMValueRef zmax = LLVMConstReal(j->f64, j->k->zbits == 24 ? 16777215.0 : 65535.0);
	LLVMValueRef half = LLVMConstReal(j->f64, 0.5);
	LLVMValueRef zero = LLVMConstReal(j->ir.f32, 0.0), one = LLVMConstReal(j->ir.f32, 1.0);

	if (four) {
		zmax = jit_ir_fill(&j->ir, zmax);
		half = jit_ir_fill(&j->ir, half);
		zero = jit_ir_fill(&j->ir, zero);
		one = jit_ir_fill(&j->ir, one);
	}
	fz = jr_sat(j, fz, zero, one);
	LLVMValueRef v = LLVMBuildFMul(b, LLVMBuildFPExt(b, fz, LLVMTypeOf(zmax), ""), zmax, "");
	return LLVMBuildFPToUI(b, LLVMBuildFAdd(b, v, half, ""), four ? j->ir.v4i : j->ir.i32, "");
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
	LLVMValueRef kc = jr_setup(j, j->ir.v4, offsetof(struct draw_setup, bconst));
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

/* rop_read8: R G B A from the pixel's word (A 1 for the X formats). */
static LLVMValueRef jr_read8(struct jr *j, unsigned i, LLVMValueRef word)
{
	LLVMBuilderRef b = j->ir.b;
	const int8_t *at = j->k->at[i];
	LLVMValueRef bytes = LLVMBuildBitCast(b, word, j->v4i8, "");
	LLVMValueRef v = LLVMBuildUIToFP(b, LLVMBuildZExt(b, bytes, j->ir.v4i, ""), j->ir.v4, "");

	v = LLVMBuildFDiv(b, v, jit_ir_splat(&j->ir, 255.0f), "");
	return jit_ir_shuffle(&j->ir, v, jit_ir_splat(&j->ir, 1.0f),
			      (const unsigned[4]){ (unsigned)at[0], (unsigned)at[1], (unsigned)at[2],
						   at[3] < 0 ? 4u : (unsigned)at[3] });
}

/* rop_write8 of saturated c to the pixel word old of buffer i: the word
 * with the bytes it writes (byte at[k] channel k under the colour mask,
 * byte 3 A, or x for the X formats whenever the pixel is written). */
static LLVMValueRef jr_write8(struct jr *j, unsigned i, LLVMValueRef c, LLVMValueRef old)
{
	LLVMBuilderRef b = j->ir.b;
	const int8_t *at = j->k->at[i];
	LLVMValueRef x = jr_setup(j, j->i8, offsetof(struct draw_setup, rt8) +
				  i * sizeof(struct sim_rt8) + offsetof(struct sim_rt8, x));
	LLVMValueRef v = LLVMBuildFAdd(b, LLVMBuildFMul(b, c, jit_ir_splat(&j->ir, 255.0f), ""),
				       jit_ir_splat(&j->ir, 0.5f), "");
	LLVMValueRef bi = LLVMBuildFPToSI(b, v, j->ir.v4i, "");
	unsigned mask = j->k->cmask[i], lane[4] = { 0, 0, 0, 3 };
	uint32_t bytes = at[3] < 0 ? 0xff000000u : 0;

	if (i == 0 && j->perturb)
		bi = LLVMBuildAdd(b, bi, LLVMConstVector((LLVMValueRef[4]){
			jr_i32(j, (uint32_t)j->perturb), jr_i32(j, 0), jr_i32(j, 0), jr_i32(j, 0) }, 4), "");
	for (unsigned k = 0; k < 4; k++)
		if (at[k] >= 0) {
			lane[at[k]] = k;
			bytes |= (mask >> k & 1) ? 0xffu << (8 * at[k]) : 0;
		}
	LLVMValueRef m[4];
	for (unsigned k = 0; k < 4; k++)
		m[k] = jr_i32(j, lane[k]);
	LLVMValueRef w = LLVMBuildShuffleVector(b, LLVMBuildTrunc(b, bi, j->v4i8, ""),
						LLVMGetUndef(j->v4i8), LLVMConstVector(m, 4), "");
	if (at[3] < 0)
		w = LLVMBuildInsertElement(b, w, x, jr_i32(j, 3), "");
	w = LLVMBuildBitCast(b, w, j->ir.i32, "");
	if (bytes == 0xffffffffu)
		return w;
	return LLVMBuildOr(b, LLVMBuildAnd(b, old, jr_i32(j, ~bytes), ""),
			   LLVMBuildAnd(b, w, jr_i32(j, bytes), ""), "");
}

/* rop_color8 of pixel p into buffer i's word old: the new word. */
static LLVMValueRef jr_color8(struct jr *j, unsigned i, unsigned p, LLVMValueRef old)
{
	LLVMValueRef c = LLVMBuildLoad2(j->ir.b, j->ir.v4, jit_ir_at(&j->ir, j->q, JR_COLOR(p, i)), "");
	LLVMSetAlignment(c, 4);
	c = jr_sat(j, c, jit_ir_splat(&j->ir, 0.0f), jit_ir_splat(&j->ir, 1.0f));
	if (j->k->blend[i])
		c = jr_blend(j, c, jr_read8(j, i, old));
	return jr_write8(j, i, c, old);
}

/* rop_color8 for buffer i at pixel p of the quad, when inside the buffer. */
static void jr_color(struct jr *j, unsigned i, unsigned p, LLVMValueRef px, LLVMValueRef py)
{
	LLVMValueRef ok;
	LLVMValueRef p8 = jr_pixel(j, JR_RT(color) + i * sizeof(struct sim_rt), px, py, &ok);
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "");

	jr_require(j, ok, done);
	jr_st(j, jr_color8(j, i, p, jr_ld(j, j->ir.i32, p8, 0)), p8, 0);
	LLVMBuildBr(j->ir.b, done);
	LLVMPositionBuilderAtEnd(j->ir.b, done);
}

/* ---- the functions ---- */

/* The zeta word with depth zf (the stencil byte of a Z24S8 one kept), of
 * one pixel or four. */
static LLVMValueRef jr_znew(struct jr *j, LLVMValueRef word, LLVMValueRef zf)
{
	LLVMBuilderRef b = j->ir.b;
	int four = LLVMGetTypeKind(LLVMTypeOf(zf)) == LLVMVectorTypeKind;

	if (j->k->zbits != 24)
		return zf;
	return LLVMBuildOr(b, LLVMBuildAnd(b, word, four ? jit_ir_splat_i(&j->ir, 0xff) : jr_i32(j, 0xff), ""),
			   LLVMBuildShl(b, zf, four ? jit_ir_splat_i(&j->ir, 8) : jr_i32(j, 8), ""), "");
}

/* Pixel zp's depth write: rop.c writes the word when it changes. */
static void jr_zwrite(struct jr *j, LLVMValueRef zp, LLVMValueRef word, LLVMValueRef zf)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef nw = jr_znew(j, word, zf);
	LLVMBasicBlockRef kept = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "");

	jr_require(j, LLVMBuildICmp(b, LLVMIntNE, nw, word, ""), kept);
	jr_st(j, j->k->zbits == 24 ? nw : LLVMBuildTrunc(b, nw, j->i16, ""), zp, 0);
	LLVMBuildBr(b, kept);
	LLVMPositionBuilderAtEnd(b, kept);
}

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
		LLVMValueRef ref = jr_setup(j, j->ir.f32, offsetof(struct draw_setup, alpha_ref));
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
		if (k->depth_write)
			jr_zwrite(j, zp, word, zf);
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
 * cannot pass; write: a pixel that passes writes its depth as
 * sim_rop_quad would. */
static void jr_early_z_pixel(struct jr *j, unsigned p, LLVMValueRef m, int write)
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
	LLVMValueRef word = jr_zword(j, zp, &zb);
	LLVMBasicBlockRef pass = next;
	if (write)
		pass = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "");
	LLVMBuildCondBr(b, jr_cmp(j, j->k->depth_func, 0, zf, zb), pass, drop);
	if (write) {
		LLVMPositionBuilderAtEnd(b, pass);
		jr_zwrite(j, zp, word, zf);
		LLVMBuildBr(b, next);
	}

	LLVMPositionBuilderAtEnd(b, drop);
	LLVMValueRef v = LLVMBuildLoad2(b, j->ir.i32, m, "");
	LLVMBuildStore(b, LLVMBuildAnd(b, v, jr_i32(j, ~(1u << p)), ""), m);
	LLVMBuildBr(b, next);
	LLVMPositionBuilderAtEnd(b, next);
}

/* ---- the quad at once ---- */

/* Where the quad's pixels are when all four are inside every surface it
 * touches (at positions >= 0, its last pixel inside: then the others
 * are): each surface's first pixel and its pitch. */
struct jr_quad {
	LLVMValueRef z, zpitch, c[4], cpitch[4];
};

/* Pixel (px, py)'s address in the surface at offset rt and its pitch;
 * and in *fits whether (px + 1, py + 1) is inside. */
static LLVMValueRef jr_quad_at(struct jr *j, size_t rt, LLVMValueRef px, LLVMValueRef py,
			       LLVMValueRef *pitch, LLVMValueRef *fits)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef ok, one = jr_i32(j, 1);
	LLVMValueRef p0 = jr_pixel(j, rt, px, py, &ok);

	jr_pixel(j, rt, LLVMBuildAdd(b, px, one, ""), LLVMBuildAdd(b, py, one, ""), fits);
	*pitch = LLVMBuildZExt(b, jr_setup(j, j->ir.i32, rt + offsetof(struct sim_rt, pitch)), j->i64, "");
	return p0;
}

/* Whether the quad is inside every surface it touches, qd filled. */
static LLVMValueRef jr_quad_fits(struct jr *j, struct jr_quad *qd)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef px, py, f;
	LLVMValueRef fits = jr_position(j, 0, &px, &py);

	if (j->k->zbits) {
		qd->z = jr_quad_at(j, JR_RT(zeta), px, py, &qd->zpitch, &f);
		fits = LLVMBuildAnd(b, fits, f, "");
	}
	for (unsigned i = 0; i < 4; i++)
		if (j->k->bufs >> i & 1) {
			qd->c[i] = jr_quad_at(j, JR_RT(color) + i * sizeof(struct sim_rt), px, py,
					      &qd->cpitch[i], &f);
			fits = LLVMBuildAnd(b, fits, f, "");
		}
	return fits;
}

/* Pixel p's address: row p >> 1, column p & 1 of bpp bytes. */
static LLVMValueRef jr_quad_pixel_at(struct jr *j, LLVMValueRef p0, LLVMValueRef pitch, unsigned p,
				     unsigned bpp)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef off = LLVMConstInt(j->i64, (p & 1) * bpp, 0);

	if (p >> 1)
		off = LLVMBuildAdd(b, pitch, off, "");
	return LLVMBuildGEP2(b, j->i8, p0, &off, 1, "");
}

/* The quad's live pixels as lanes. */
static LLVMValueRef jr_live4(struct jr *j)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef bit[4] = { jr_i32(j, 1), jr_i32(j, 2), jr_i32(j, 4), jr_i32(j, 8) };
	LLVMValueRef l = jit_ir_fill(&j->ir, j->live);
	return LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, l, LLVMConstVector(bit, 4), ""),
			     LLVMConstNull(j->ir.v4i), "");
}

/* The zeta buffer's four words and depths (lanes by pixel). */
static LLVMValueRef jr_zwords4(struct jr *j, const struct jr_quad *qd, LLVMValueRef *zb)
{
	LLVMBuilderRef b = j->ir.b;
	unsigned bpp = j->k->zbits == 24 ? 4 : 2;
	LLVMTypeRef t = LLVMVectorType(bpp == 4 ? j->ir.i32 : j->i16, 2);
	LLVMValueRef r[2];

	for (unsigned row = 0; row < 2; row++) {
		r[row] = LLVMBuildLoad2(b, t, jr_quad_pixel_at(j, qd->z, qd->zpitch, 2 * row, bpp), "");
		LLVMSetAlignment(r[row], 1);
	}
	LLVMValueRef m[4] = { jr_i32(j, 0), jr_i32(j, 1), jr_i32(j, 2), jr_i32(j, 3) };
	LLVMValueRef w = LLVMBuildShuffleVector(b, r[0], r[1], LLVMConstVector(m, 4), "");
	if (bpp == 2)
		w = LLVMBuildZExt(b, w, j->ir.v4i, "");
	*zb = bpp == 4 ? LLVMBuildLShr(b, w, jit_ir_splat_i(&j->ir, 8), "") : w;
	return w;
}

static void jr_zstore4(struct jr *j, const struct jr_quad *qd, LLVMValueRef w)
{
	LLVMBuilderRef b = j->ir.b;
	unsigned bpp = j->k->zbits == 24 ? 4 : 2;

	if (bpp == 2)
		w = LLVMBuildTrunc(b, w, LLVMVectorType(j->i16, 4), "");
	for (unsigned row = 0; row < 2; row++) {
		LLVMValueRef m[2] = { jr_i32(j, 2 * row), jr_i32(j, 2 * row + 1) };
		LLVMValueRef h = LLVMBuildShuffleVector(b, w, LLVMGetUndef(LLVMTypeOf(w)), LLVMConstVector(m, 2), "");
		LLVMSetAlignment(LLVMBuildStore(b, h, jr_quad_pixel_at(j, qd->z, qd->zpitch, 2 * row, bpp)), 1);
	}
}

/* sim_rop_quad for a quad inside its surfaces: the tests on the four
 * pixels at once, then the stores, each pixel's masked by its tests (the
 * bytes of a pixel that fails are written back as they were). */
static void jr_quad_all(struct jr *j, const struct jr_quad *qd)
{
	const struct jit_rop_key *k = j->k;
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef mask = jr_live4(j);

	if (k->alpha_func) {
		LLVMValueRef a = jit_ir_gather(&j->ir, j->q, JR_COLOR(0, 0) + 12, NV40_FP_RTS * 16);
		LLVMValueRef ref = jit_ir_fill(&j->ir, jr_setup(j, j->ir.f32, offsetof(struct draw_setup, alpha_ref)));
		mask = LLVMBuildAnd(b, mask, jr_cmp(j, k->alpha_func, 1, a, ref), "");
	}
	if (k->zbits) {
		LLVMValueRef dw = jr_ld(j, j->ir.i32, j->q, offsetof(struct sim_fp_quad, depth_written)), zb;
		LLVMValueRef fz = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, dw, jr_i32(j, 0), ""),
			jr_ld(j, j->ir.v4, j->q, offsetof(struct sim_fp_quad, depth)),
			jr_ld(j, j->ir.v4, j->z, 0), "");
		LLVMValueRef zf = jr_zfixed(j, fz);
		LLVMValueRef word = jr_zwords4(j, qd, &zb);
		if (k->depth_test)
			mask = LLVMBuildAnd(b, mask, jr_cmp(j, k->depth_func, 0, zf, zb), "");
		if (k->depth_write)
			jr_zstore4(j, qd, LLVMBuildSelect(b, mask, jr_znew(j, word, zf), word, ""));
	}
	if (k->query) {
		LLVMValueRef n = jr_ld(j, j->ir.i32, j->samples, 0);
		for (unsigned p = 0; p < 4; p++)
			n = LLVMBuildAdd(b, n, LLVMBuildZExt(b, LLVMBuildExtractElement(b, mask, jr_i32(j, p), ""),
							      j->ir.i32, ""), "");
		jr_st(j, n, j->samples, 0);
	}
	for (unsigned i = 0; i < 4; i++)
		for (unsigned p = 0; (k->bufs >> i & 1) && p < 4; p++) {
			LLVMValueRef at = jr_quad_pixel_at(j, qd->c[i], qd->cpitch[i], p, 4);
			LLVMValueRef old = jr_ld(j, j->ir.i32, at, 0);
			LLVMValueRef keep = LLVMBuildExtractElement(b, mask, jr_i32(j, p), "");
			jr_st(j, LLVMBuildSelect(b, keep, jr_color8(j, i, p, old), old, ""), at, 0);
		}
}

/* sim_rop_early_z for a quad inside the zeta buffer: the live pixels
 * whose depth passes; write: their depths written (the others' words
 * as they were). */
static LLVMValueRef jr_early_z_all(struct jr *j, const struct jr_quad *qd, int write)
{
	LLVMBuilderRef b = j->ir.b;
	LLVMValueRef zb;

	LLVMValueRef word = jr_zwords4(j, qd, &zb);
	LLVMValueRef zf = jr_zfixed(j, jr_ld(j, j->ir.v4, j->z, 0));
	LLVMValueRef pass = LLVMBuildAnd(b, jr_live4(j), jr_cmp(j, j->k->depth_func, 0, zf, zb), "");
	if (write)
		jr_zstore4(j, qd, LLVMBuildSelect(b, pass, jr_znew(j, word, zf), word, ""));
	return LLVMBuildZExt(b, LLVMBuildBitCast(b, pass, LLVMIntTypeInContext(j->ir.cx, 4), ""),
			     j->ir.i32, "");
}

/* Start of a function: the quad at once when it fits (*fits's block),
 * pixel by pixel else (the builder left there). */
static LLVMBasicBlockRef jr_split_quad(struct jr *j, struct jr_quad *qd)
{
	LLVMBasicBlockRef all = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "quad");
	LLVMBasicBlockRef each = LLVMAppendBasicBlockInContext(j->ir.cx, j->ir.fn, "pixels");

	LLVMBuildCondBr(j->ir.b, jr_quad_fits(j, qd), all, each);
	LLVMPositionBuilderAtEnd(j->ir.b, each);
	return all;
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

/* Function `name` of signature sig (jit_ir_begin's) begun, its
 * arguments in the fields args[] point at. */
static void jr_begin(struct jr *j, LLVMModuleRef m, const char *name, const char *sig,
		     LLVMValueRef *const args[])
{
	jit_ir_begin(&j->ir, m, name, sig);
	jr_types(j);
	for (unsigned i = 0; sig[i + 1]; i++)
		*args[i] = LLVMGetParam(j->ir.fn, i);
}

/* Function `name`: sim_rop_quad for k. */
static void jr_build_quad(struct jr *j, LLVMModuleRef m, const char *name, const struct jit_rop_key *k)
{
	struct jr_quad qd;

	j->k = k;
	jr_begin(j, m, name, "vppiiipp",
		 (LLVMValueRef *const[]){ &j->d, &j->samples, &j->x, &j->y, &j->live, &j->z, &j->q });
	LLVMBasicBlockRef all = jr_split_quad(j, &qd);
	for (unsigned p = 0; p < 4; p++)
		jr_quad_pixel(j, p);
	LLVMBuildRetVoid(j->ir.b);
	LLVMPositionBuilderAtEnd(j->ir.b, all);
	jr_quad_all(j, &qd);
	LLVMBuildRetVoid(j->ir.b);
	LLVMDisposeBuilder(j->ir.b);
}

/* Function `name`: sim_rop_early_z for k, and with write its depth
 * writes. */
static void jr_build_early_z(struct jr *j, LLVMModuleRef m, const char *name,
			     const struct jit_rop_key *k, int write)
{
	struct jr_quad qd;

	jr_begin(j, m, name, "ipiiip", (LLVMValueRef *const[]){ &j->d, &j->x, &j->y, &j->live, &j->z });
	LLVMValueRef live = LLVMBuildAlloca(j->ir.b, j->ir.i32, "");
	LLVMBuildStore(j->ir.b, j->live, live);
	/* the zeta buffer alone */
	j->k = &(struct jit_rop_key){ .zbits = k->zbits, .depth_func = k->depth_func };
	LLVMBasicBlockRef all = jr_split_quad(j, &qd);
	for (unsigned p = 0; p < 4; p++)
		jr_early_z_pixel(j, p, live, write);
	LLVMBuildRet(j->ir.b, LLVMBuildLoad2(j->ir.b, j->ir.i32, live, ""));
	LLVMPositionBuilderAtEnd(j->ir.b, all);
	LLVMBuildRet(j->ir.b, jr_early_z_all(j, &qd, write));
	LLVMDisposeBuilder(j->ir.b);
	j->k = k;
}

int jit_rop_build(LLVMModuleRef m, const char *name, const struct jit_rop_key *k, int perturb)
{
	struct jr j = { .k = k, .perturb = perturb };
	char fname[64];

	jr_build_quad(&j, m, name, k);
	if (!k->zbits || !k->depth_test)
		return 0;
	snprintf(fname, sizeof(fname), "%s_z", name);
	jr_build_early_z(&j, m, fname, k, 0);
	if (!jit_rop_splits(k))
		return 0;
	/* the depth test and write before the program, the rest after */
	snprintf(fname, sizeof(fname), "%s_zw", name);
	jr_build_early_z(&j, m, fname, k, 1);
	struct jit_rop_key c = *k;
	c.zbits = c.depth_test = c.depth_func = c.depth_write = 0;
	snprintf(fname, sizeof(fname), "%s_c", name);
	jr_build_quad(&j, m, fname, &c);
	return 0;
}

int jit_rop_splits(const struct jit_rop_key *k)
{
	return k->zbits && k->depth_test && k->depth_write && !k->alpha_func;
}
