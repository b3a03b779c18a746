/* The NV40 program disassemblers (disasm.h): fragment programs in Mesa's
 * nvfx notation (R/H registers, f[] inputs, precision suffixes R H X B),
 * vertex programs in NV_vertex_program's (v[], c[], o[]).  Fields are
 * fp-isa.h's and vp-isa.h's. */
#include "disasm.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fp-isa.h"
#include "ramin.h"
#include "vp-isa.h"

/* Text appended to a fixed buffer, cut at its end. */
struct dis_text {
	char *buf;
	unsigned cap, pos;
};

static void dis_put(struct dis_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void dis_put(struct dis_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->pos + 1 >= t->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->pos, t->cap - t->pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->pos = t->pos + (unsigned)n >= t->cap ? t->cap - 1 : t->pos + (unsigned)n;
}

/* An inline constant's IEEE bits as the float the card reads. */
static float dis_float(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

/* ---- fragment programs ---- */

#define FP_NAME_CASE_(nm, v, ns, k) case (v): return #nm;
static const char *fp_op_name(unsigned op)
{
	switch (op) { NV40_FP_OPCODES(FP_NAME_CASE_) default: return NULL; }
}
#define FP_BRA_NAME_CASE_(nm, v) case (v): return #nm;
static const char *fp_bra_name(unsigned op)
{
	switch (op) { NV40_FP_BRANCHES(FP_BRA_NAME_CASE_) default: return NULL; }
}

static const char fp_xyzw[] = "xyzw";

static void fp_put_swz(struct dis_text *t, uint32_t swz)
{
	if (swz == NV40_FP_SWZ_IDENTITY)
		return;
	dis_put(t, ".%c%c%c%c", fp_xyzw[nv40_fp_swz(swz, 0)], fp_xyzw[nv40_fp_swz(swz, 1)],
	       fp_xyzw[nv40_fp_swz(swz, 2)], fp_xyzw[nv40_fp_swz(swz, 3)]);
}

static void fp_put_cond(struct dis_text *t, const uint32_t *w)
{
	static const char *names[8] = { "FL", "LT", "EQ", "LE", "GT", "NE", "GE", "TR" };
	unsigned cond = NV40_FP_GET(w, COND), swz = NV40_FP_GET(w, COND_SWZ);

	if (cond == NV40_FP_COND_TR && swz == NV40_FP_SWZ_IDENTITY)
		return;
	dis_put(t, " (%s", names[cond]);
	fp_put_swz(t, swz);
	dis_put(t, ")");
}

static void fp_put_input(struct dis_text *t, const uint32_t *w)
{
	unsigned in = NV40_FP_GET(w, INPUT);
	static const char *names[4] = { "WPOS", "COL0", "COL1", "FOGC" };

	if (NV40_FP_GET(w, INDEX_INPUT))
		dis_put(t, "f[TC0+aL+%u]", (unsigned)NV40_FP_GET(w, INDEX_OFFSET));
	else if (in < 4)
		dis_put(t, "f[%s]", names[in]);
	else if (in < NV40_FP_INPUT_TC0 + NV40_FP_INPUT_TC_COUNT)
		dis_put(t, "f[TEX%u]", in - NV40_FP_INPUT_TC0);
	else if (in == NV40_FP_INPUT_FACING)
		dis_put(t, "f[FACING]");
	else
		dis_put(t, "f[%u]", in);
}

char *hw_fp_disasm(const uint8_t *insn, size_t len, char *buf, unsigned buflen)
{
	struct dis_text t = { buf, buflen, 0 };
	uint32_t w[4];

	if (!buf || !buflen)
		return buf;
	buf[0] = 0;
	if (!insn || len < NV40_FP_INSN_BYTES) {
		dis_put(&t, "(truncated)");
		return buf;
	}
	nv40_fp_load(insn, w);

	if (NV40_FP_GET(w, IS_BRANCH)) {
		unsigned op = NV40_FP_GET(w, OPCODE);
		const char *nm = fp_bra_name(op);
		if (!nm)
			dis_put(&t, "BRANCH?%#x", op);
		else
			dis_put(&t, "%s", nm);
		fp_put_cond(&t, w);
		switch (op) {
		case NV40_FP_BRA_IF:
			dis_put(&t, " else %#x endif %#x", (unsigned)NV40_FP_GET(w, ELSE_OFFSET),
			       (unsigned)NV40_FP_GET(w, END_OFFSET));
			break;
		case NV40_FP_BRA_CAL:
			dis_put(&t, " %#x", (unsigned)NV40_FP_GET(w, ELSE_OFFSET));
			break;
		case NV40_FP_BRA_LOOP:
			dis_put(&t, " {%u, %u, %d} end %#x", (unsigned)NV40_FP_GET(w, LOOP_COUNT),
			       (unsigned)NV40_FP_GET(w, LOOP_INIT), (int8_t)NV40_FP_GET(w, LOOP_INCR),
			       (unsigned)NV40_FP_GET(w, END_OFFSET));
			break;
		case NV40_FP_BRA_REP:
			dis_put(&t, " %u end %#x", (unsigned)NV40_FP_GET(w, LOOP_COUNT),
			       (unsigned)NV40_FP_GET(w, END_OFFSET));
			break;
		}
		if (NV40_FP_GET(w, END))
			dis_put(&t, "; END");
		return buf;
	}

	unsigned op = NV40_FP_GET(w, OPCODE);
	const char *nm = fp_op_name(op);
	int nsrc = nv40_fp_op_nsrc(op), has_const = 0;
	static const char prec_sfx[4] = { 'R', 'H', 'X', 'B' };
	static const char *scale[8] = { "", "_x2", "_x4", "_x8", "_x1?", "_d2", "_d4", "_d8" };

	if (!nm) {
		dis_put(&t, "OP?%#x", op);
		nsrc = 3;
	} else {
		dis_put(&t, "%s", nm);
	}
	dis_put(&t, "%c%s%s%s", prec_sfx[NV40_FP_GET(w, PRECISION)], NV40_FP_GET(w, CC_UPDATE) ? "C" : "",
	       NV40_FP_GET(w, SAT) ? "_SAT" : "", scale[NV40_FP_GET(w, DST_SCALE)]);

	unsigned mask = NV40_FP_GET(w, MASK);
	if (NV40_FP_GET(w, OUT_NONE))
		dis_put(&t, " %cC", NV40_FP_GET(w, DST_HALF) ? 'H' : 'R');
	else
		dis_put(&t, " %c%u", NV40_FP_GET(w, DST_HALF) ? 'H' : 'R', (unsigned)NV40_FP_GET(w, DST));
	if (mask != 0xf) {
		dis_put(&t, ".");
		for (unsigned c = 0; c < 4; c++)
			if (mask >> c & 1)
				dis_put(&t, "%c", fp_xyzw[c]);
	}
	fp_put_cond(&t, w);

	for (int n = 0; n < nsrc; n++) {
		uint32_t s = nv40_fp_src(w, (unsigned)n);
		unsigned abs = nv40_fp_src_abs(w, (unsigned)n);
		dis_put(&t, ", %s%s", NV40_FP_SRC_GET(s, NEG) ? "-" : "", abs ? "|" : "");
		switch (NV40_FP_SRC_GET(s, TYPE)) {
		case NV40_FP_SRC_TEMP:
			dis_put(&t, "%c%u", NV40_FP_SRC_GET(s, HALF) ? 'H' : 'R', (unsigned)NV40_FP_SRC_GET(s, REG));
			break;
		case NV40_FP_SRC_INPUT:
			fp_put_input(&t, w);
			break;
		case NV40_FP_SRC_CONST:
			dis_put(&t, "c");
			has_const = 1;
			break;
		default:
			dis_put(&t, "?3");
			break;
		}
		fp_put_swz(&t, NV40_FP_SRC_GET(s, SWZ));
		if (abs)
			dis_put(&t, "|");
	}
	if (nv40_fp_op_kind(op) == NV40_FP_KIND_TEX)
		dis_put(&t, ", texture[%u]%s", (unsigned)NV40_FP_GET(w, TEX_UNIT),
		       NV40_FP_GET(w, TEX_EXPAND) ? "_bx2" : "");
	if (has_const) {
		if (len < NV40_FP_INSN_BYTES + NV40_FP_CONST_BYTES) {
			dis_put(&t, " c = {truncated}");
		} else {
			float c[4];
			for (int i = 0; i < 4; i++)
				c[i] = dis_float(nv_rd32le(insn + NV40_FP_INSN_BYTES + 4 * i));
			dis_put(&t, " c = {%g, %g, %g, %g}", c[0], c[1], c[2], c[3]);
		}
	}
	if (NV40_FP_GET(w, END))
		dis_put(&t, "; END");
	return buf;
}

/* ---- vertex programs ---- */

static const char *vp_vec_name(unsigned op)
{
	switch (op) {
#define VP_NAME_(name, value, ...) case value: return #name;
	NV40_VP_VEC_OPS(VP_NAME_)
#undef VP_NAME_
	default: return NULL;
	}
}

static const char *vp_sca_name(unsigned op)
{
	switch (op) {
#define VP_NAME_(name, value) case value: return #name;
	NV40_VP_SCA_OPS(VP_NAME_)
#undef VP_NAME_
	default: return NULL;
	}
}

static const char *vp_out_name(unsigned o)
{
	switch (o) {
#define VP_NAME_(name, value) case value: return #name;
	NV40_VP_DESTS(VP_NAME_)
#undef VP_NAME_
	default: return NULL;
	}
}

static const char *vp_cond_name(unsigned c)
{
	switch (c) {
#define VP_NAME_(name, value) case value: return #name;
	NV40_VP_CONDS(VP_NAME_)
#undef VP_NAME_
	default: return "?";
	}
}

static void vp_put_mask(struct dis_text *t, unsigned mask)
{
	if (mask == 0xf)
		return;
	dis_put(t, ".");
	for (unsigned c = 0; c < 4; c++)
		if (mask & (8u >> c))
			dis_put(t, "%c", "xyzw"[c]);
}

static void vp_put_swz(struct dis_text *t, uint32_t swz)
{
	if (swz == NV40_VP_SWZ_IDENTITY)
		return;
	dis_put(t, ".");
	for (unsigned c = 0; c < 4; c++)
		dis_put(t, "%c", "xyzw"[nv40_vp_swz(swz, c)]);
}

static void vp_put_addr(struct dis_text *t, const uint32_t insn[4])
{
	dis_put(t, "A%u.%c+", nv40_vp_ADDR_REG_SEL(insn), "xyzw"[nv40_vp_ADDR_SWZ(insn)]);
}

static void vp_put_src(struct dis_text *t, const uint32_t insn[4], unsigned n)
{
	uint32_t src = nv40_vp_src(insn, n);
	int is_abs = (int)nv40_vp_src_abs(insn, n);

	dis_put(t, ", %s%s", nv40_vp_src_NEG(src) ? "-" : "", is_abs ? "|" : "");
	switch (nv40_vp_src_TYPE(src)) {
	case NV40_VP_SRC_TEMP:
		dis_put(t, "R%u", nv40_vp_src_REG(src));
		break;
	case NV40_VP_SRC_INPUT:
		dis_put(t, "v[");
		if (nv40_vp_INDEX_INPUT(insn))
			vp_put_addr(t, insn);
		dis_put(t, "%u]", nv40_vp_INPUT_SRC(insn));
		break;
	case NV40_VP_SRC_CONST:
		dis_put(t, "c[");
		if (nv40_vp_INDEX_CONST(insn))
			vp_put_addr(t, insn);
		dis_put(t, "%u]", nv40_vp_CONST_SRC(insn));
		break;
	default:
		dis_put(t, "?%u", nv40_vp_src_REG(src));
		break;
	}
	vp_put_swz(t, nv40_vp_src_SWZ(src));
	if (is_abs)
		dis_put(t, "|");
}

/* "MOV" "_SAT" "C" "0/1" and the condition, e.g. "MOVC1_SAT (GT0.xxxx)". */
static void vp_put_op(struct dis_text *t, const uint32_t insn[4], const char *name,
		      unsigned number, int cc_half)
{
	if (name)
		dis_put(t, "%s", name);
	else
		dis_put(t, "%s?%02x", cc_half == 1 ? "VEC" : "SCA", number);
	if (nv40_vp_COND_UPDATE_EN(insn) && (int)nv40_vp_COND_UPDATE_VEC(insn) == cc_half)
		dis_put(t, "C%u", nv40_vp_COND_REG_SEL(insn));
	if (nv40_vp_SAT(insn))
		dis_put(t, "_SAT");
	if (nv40_vp_COND_TEST_EN(insn)) {
		dis_put(t, " (%s%u", vp_cond_name(nv40_vp_COND(insn)), nv40_vp_COND_REG_SEL(insn));
		vp_put_swz(t, nv40_vp_COND_SWZ(insn));
		dis_put(t, ")");
	}
}

static void vp_put_dst(struct dis_text *t, const uint32_t insn[4], unsigned temp,
		       int to_out, unsigned mask)
{
	int any = 0;

	if (temp != NV40_VP_NONE_TEMP) {
		dis_put(t, " R%u", temp);
		vp_put_mask(t, mask);
		any = 1;
	}
	if (to_out && nv40_vp_DEST(insn) != NV40_VP_NONE_DEST) {
		const char *o = vp_out_name(nv40_vp_DEST(insn));

		dis_put(t, "%s o[", any ? " &" : "");
		if (nv40_vp_INDEX_OUTPUT(insn))
			vp_put_addr(t, insn);
		if (o)
			dis_put(t, "%s]", o);
		else
			dis_put(t, "%u]", nv40_vp_DEST(insn));
		vp_put_mask(t, mask);
		any = 1;
	}
	if (!any)
		dis_put(t, " _");
}

char *hw_vp_disasm(const uint32_t insn[4], char *buf, unsigned buflen)
{
	struct dis_text t = { buf, buflen, 0 };
	unsigned vop = nv40_vp_VEC_OPCODE(insn), sop = nv40_vp_SCA_OPCODE(insn);
	int shown = 0;

	if (!buf || !buflen)
		return buf;
	buf[0] = 0;
	if (vop != NV40_VP_VEC_NOP || sop == NV40_VP_SCA_NOP) {
		const char *name = vp_vec_name(vop);
		unsigned reads = nv40_vp_vec_reads(vop);

		vp_put_op(&t, insn, name, vop, 1);
		if (vop == NV40_VP_VEC_ARL || vop == NV40_VP_VEC_ARR || vop == NV40_VP_VEC_ARA) {
			if (nv40_vp_VEC_DST_TEMP(insn) == NV40_VP_NONE_TEMP)
				dis_put(&t, " _");
			else
				dis_put(&t, " A%u", nv40_vp_VEC_DST_TEMP(insn) & 1);
			vp_put_mask(&t, nv40_vp_VEC_WRITEMASK(insn));
			if (vop == NV40_VP_VEC_ARA)
				dis_put(&t, ", A%u", nv40_vp_ADDR_REG_SEL(insn));
		} else if (vop != NV40_VP_VEC_NOP) {
			vp_put_dst(&t, insn, nv40_vp_VEC_DST_TEMP(insn), nv40_vp_VEC_RESULT(insn),
				   nv40_vp_VEC_WRITEMASK(insn));
		}
		for (unsigned n = 0; n < 3; n++)
			if (reads & (1u << n))
				vp_put_src(&t, insn, n);
		shown = 1;
	}
	if (sop != NV40_VP_SCA_NOP) {
		const char *name = vp_sca_name(sop);

		if (shown)
			dis_put(&t, " + ");
		vp_put_op(&t, insn, name, sop, 0);
		switch (sop) {
		case NV40_VP_SCA_BRA:
		case NV40_VP_SCA_CAL:
			dis_put(&t, " %u", nv40_vp_target(insn));
			break;
		case NV40_VP_SCA_RET:
			break;
		case NV40_VP_SCA_PUSHA:
			dis_put(&t, " A%u", nv40_vp_ADDR_REG_SEL(insn));
			break;
		case NV40_VP_SCA_POPA:
			dis_put(&t, " A%u", nv40_vp_ADDR_REG_SEL(insn));
			vp_put_mask(&t, nv40_vp_SCA_WRITEMASK(insn));
			break;
		default:
			vp_put_dst(&t, insn, nv40_vp_SCA_DST_TEMP(insn), !nv40_vp_VEC_RESULT(insn),
				   nv40_vp_SCA_WRITEMASK(insn));
			vp_put_src(&t, insn, 2);
			break;
		}
	}
	dis_put(&t, ";%s", nv40_vp_LAST(insn) ? " END" : "");
	return buf;
}
