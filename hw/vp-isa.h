/* The NV40 vertex program ISA ("Curie" encoding, as the VP_UPLOAD_INST
 * methods carry it): instruction fields, source fields, opcodes and output
 * slots, each as one X-macro table, plus inline extractors and inserters
 * generated from them.  Used by the interpreter (sim/3d/vp.c), its tests and
 * nvd-decode.
 *
 * Facts: Mesa nv30/nv40_vertprog.h, nvfx_shader.h, nvfx_vertprog.c (the
 * emitter) and envytools docs/hw/graph/xf/isa.rst (the Curie column of its
 * bit table; bit n of that table is word 3 - n / 32, bit n % 32 here).
 * Where the two name a bit differently the envytools reading is kept and
 * Mesa's name noted:
 *   d0 bit 14 / 29 (Mesa: both COND_UPDATE_ENABLE, "uncertain"): envytools
 *     CDST_WM (write the condition register) and CDST_IS_VEC (from the
 *     vector half's result, else the scalar half's).
 *   d3 bits 12:7 (Mesa: SCA_RESULT at 12, SCA_DEST_TEMP 11:7): envytools
 *     DST_SCA, one 6-bit temp field with 0x3f = none, like VEC_DST_TEMP.
 *     Mesa's "scalar result to an output" (bit 12 | 0x1f) is exactly 0x3f,
 *     and the output then takes the scalar result because VEC_RESULT
 *     (envytools OUT_IS_VEC) is clear.
 *   d1 bits 21:12 CONST_SRC: 10 bits (envytools XFCTX_ADDR; Mesa's
 *     relocation writes 9 of them).
 *   d0 bit 28: envytools OUT_INDEXED (the output slot is indexed by the
 *     address register); Mesa never sets it.
 *   d0 bit 31: envytools WAS_CURIE, internal to the NV40 combined ISA. */
#ifndef NV_HW_VP_ISA_H
#define NV_HW_VP_ISA_H

#include <stdint.h>

#define NV40_VP_INPUTS 16         /* attribute slots (VTXFMT / VTX_ATTR_*) */

/* X(name, word, shift, bits) */
#define NV40_VP_FIELDS(X) \
	X(ADDR_SWZ,        0,  0,  2)  /* component of A used for indexing */ \
	X(COND_SWZ,        0,  2,  8)  /* x 9:8, y 7:6, z 5:4, w 3:2 */ \
	X(COND,            0, 10,  3)  /* NV40_VP_COND_* */ \
	X(COND_TEST_EN,    0, 13,  1)  /* conditional write / branch */ \
	X(COND_UPDATE_EN,  0, 14,  1)  /* write the condition register */ \
	X(VEC_DST_TEMP,    0, 15,  6)  /* 0x3f = none; ARL/ARR/ARA: A reg */ \
	X(SRC0_ABS,        0, 21,  1) \
	X(SRC1_ABS,        0, 22,  1) \
	X(SRC2_ABS,        0, 23,  1) \
	X(ADDR_REG_SEL,    0, 24,  1)  /* A0 / A1 for indexing, PUSHA, POPA */ \
	X(COND_REG_SEL,    0, 25,  1)  /* CC0 / CC1, read and written */ \
	X(SAT,             0, 26,  1) \
	X(INDEX_INPUT,     0, 27,  1) \
	X(INDEX_OUTPUT,    0, 28,  1) \
	X(COND_UPDATE_VEC, 0, 29,  1)  /* CC from the vector half */ \
	X(VEC_RESULT,      0, 30,  1)  /* output DEST takes the vector half */ \
	X(SRC0H,           1,  0,  8)  /* source 0 bits 16:9 */ \
	X(INPUT_SRC,       1,  8,  4) \
	X(CONST_SRC,       1, 12, 10) \
	X(VEC_OPCODE,      1, 22,  5) \
	X(SCA_OPCODE,      1, 27,  5) \
	X(SRC2H,           2,  0,  6)  /* source 2 bits 16:11; branch target 8:3 */ \
	X(SRC1,            2,  6, 17) \
	X(SRC0L,           2, 23,  9)  /* source 0 bits 8:0 */ \
	X(LAST,            3,  0,  1) \
	X(INDEX_CONST,     3,  1,  1) \
	X(DEST,            3,  2,  5)  /* output slot, 0x1f = none */ \
	X(SCA_DST_TEMP,    3,  7,  6)  /* 0x3f = none (Mesa: bit 12 SCA_RESULT) */ \
	X(VEC_WRITEMASK,   3, 13,  4)  /* x = bit 3 .. w = bit 0 */ \
	X(SCA_WRITEMASK,   3, 17,  4) \
	X(SRC2L,           3, 21, 11)  /* source 2 bits 10:0; branch target 2:0 in 31:29 */

/* One 17-bit source operand.  X(name, shift, bits) */
#define NV40_VP_SRC_FIELDS(X) \
	X(TYPE,  0, 2)  /* NV40_VP_SRC_* */ \
	X(REG,   2, 6)  /* temp index */ \
	X(SWZ,   8, 8)  /* x 7:6, y 5:4, z 3:2, w 1:0 */ \
	X(NEG,  16, 1)

enum {
	NV40_VP_SRC_UNK0  = 0,  /* unknown; the interpreter reads zero */
	NV40_VP_SRC_TEMP  = 1,
	NV40_VP_SRC_INPUT = 2,
	NV40_VP_SRC_CONST = 3,
};

#define NV40_VP_SWZ_IDENTITY 0x1b  /* x y z w */
#define NV40_VP_NONE_TEMP    0x3f  /* VEC_DST_TEMP / SCA_DST_TEMP: no temp */
#define NV40_VP_NONE_DEST    0x1f  /* DEST: no output */

/* Condition tests: bit 0 passes LT, bit 1 EQ, bit 2 GT (unordered passes
 * only NE and TR). */
#define NV40_VP_CONDS(X) \
	X(FL, 0) X(LT, 1) X(EQ, 2) X(LE, 3) X(GT, 4) X(NE, 5) X(GE, 6) X(TR, 7)

/* Vector opcodes: X(name, value, sources read: bit n = SRCn) */
#define NV40_VP_VEC_OPS(X) \
	X(NOP, 0x00, 0) \
	X(MOV, 0x01, 1) \
	X(MUL, 0x02, 3) \
	X(ADD, 0x03, 5)  /* SRC0 + SRC2 */ \
	X(MAD, 0x04, 7) \
	X(DP3, 0x05, 3) \
	X(DPH, 0x06, 3) \
	X(DP4, 0x07, 3) \
	X(DST, 0x08, 3) \
	X(MIN, 0x09, 3) \
	X(MAX, 0x0a, 3) \
	X(SLT, 0x0b, 3) \
	X(SGE, 0x0c, 3) \
	X(ARL, 0x0d, 1) \
	X(FRC, 0x0e, 1) \
	X(FLR, 0x0f, 1) \
	X(SEQ, 0x10, 3) \
	X(SFL, 0x11, 3) \
	X(SGT, 0x12, 3) \
	X(SLE, 0x13, 3) \
	X(SNE, 0x14, 3) \
	X(STR, 0x15, 3) \
	X(SSG, 0x16, 1) \
	X(ARR, 0x17, 1) \
	X(ARA, 0x18, 0)  /* reads the address register */ \
	X(TXL, 0x19, 1)  /* vertex texture fetch: not modelled */

/* Scalar opcodes (operand: SRC2): X(name, value).  0x08, 0x0a, 0x11, 0x12
 * are unknown. */
#define NV40_VP_SCA_OPS(X) \
	X(NOP,   0x00) \
	X(MOV,   0x01) \
	X(RCP,   0x02) \
	X(RCC,   0x03) \
	X(RSQ,   0x04) \
	X(EXP,   0x05) \
	X(LOG,   0x06) \
	X(LIT,   0x07) \
	X(BRA,   0x09) \
	X(CAL,   0x0b) \
	X(RET,   0x0c) \
	X(LG2,   0x0d) \
	X(EX2,   0x0e) \
	X(SIN,   0x0f) \
	X(COS,   0x10) \
	X(PUSHA, 0x13) \
	X(POPA,  0x14)

/* Output slots (DEST): X(name, value).  User clip distances 0-2 go in
 * FOGC.yzw, 3-5 in PSZ.yzw. */
#define NV40_VP_DESTS(X) \
	X(POS, 0) X(COL0, 1) X(COL1, 2) X(BFC0, 3) X(BFC1, 4) X(FOGC, 5) X(PSZ, 6) \
	X(TC0, 7) X(TC1, 8) X(TC2, 9) X(TC3, 10) X(TC4, 11) X(TC5, 12) X(TC6, 13) \
	X(TC7, 14)

#define NV40_VP_ENUM_(name, value, ...) NV40_VP_VEC_##name = value,
enum { NV40_VP_VEC_OPS(NV40_VP_ENUM_) };
#undef NV40_VP_ENUM_
#define NV40_VP_ENUM_(name, value) NV40_VP_SCA_##name = value,
enum { NV40_VP_SCA_OPS(NV40_VP_ENUM_) };
#undef NV40_VP_ENUM_

/* The sources a vector opcode reads (bit n = SRCn); all for one not known. */
static inline unsigned nv40_vp_vec_reads(unsigned vop)
{
	switch (vop) {
#define NV40_VP_READS_(name, value, reads) case value: return reads;
	NV40_VP_VEC_OPS(NV40_VP_READS_)
#undef NV40_VP_READS_
	}
	return 7;
}
#define NV40_VP_ENUM_(name, value) NV40_VP_COND_##name = value,
enum { NV40_VP_CONDS(NV40_VP_ENUM_) };
#undef NV40_VP_ENUM_
#define NV40_VP_ENUM_(name, value) NV40_VP_OUT_##name = value,
enum { NV40_VP_DESTS(NV40_VP_ENUM_) };
#undef NV40_VP_ENUM_

/* nv40_vp_FIELD(insn) reads a field, nv40_vp_set_FIELD(insn, v) replaces
 * it (v is truncated to the field's width). */
#define NV40_VP_ACCESSORS_(name, word, shift, bits) \
static inline uint32_t nv40_vp_##name(const uint32_t insn[4]) \
{ \
	return (insn[word] >> (shift)) & ((1u << (bits)) - 1); \
} \
static inline void nv40_vp_set_##name(uint32_t insn[4], uint32_t v) \
{ \
	uint32_t m = ((1u << (bits)) - 1) << (shift); \
	insn[word] = (insn[word] & ~m) | ((v << (shift)) & m); \
}
NV40_VP_FIELDS(NV40_VP_ACCESSORS_)
#undef NV40_VP_ACCESSORS_

#define NV40_VP_SRC_ACCESSORS_(name, shift, bits) \
static inline uint32_t nv40_vp_src_##name(uint32_t src) \
{ \
	return (src >> (shift)) & ((1u << (bits)) - 1); \
}
NV40_VP_SRC_FIELDS(NV40_VP_SRC_ACCESSORS_)
#undef NV40_VP_SRC_ACCESSORS_

/* Build a source word from its fields. */
static inline uint32_t nv40_vp_src_make(uint32_t type, uint32_t reg, uint32_t swz, uint32_t neg)
{
	return (type & 3) | (reg & 0x3f) << 2 | (swz & 0xff) << 8 | (neg & 1) << 16;
}

/* Component c (0 = x) of a 2-bit-per-component swizzle, x in the top bits. */
static inline unsigned nv40_vp_swz(uint32_t swz, unsigned c)
{
	return (swz >> (6 - 2 * c)) & 3;
}

/* Source n (0..2) as one 17-bit word, split across the words as above. */
static inline uint32_t nv40_vp_src(const uint32_t insn[4], unsigned n)
{
	switch (n) {
	case 0:  return nv40_vp_SRC0H(insn) << 9 | nv40_vp_SRC0L(insn);
	case 1:  return nv40_vp_SRC1(insn);
	default: return nv40_vp_SRC2H(insn) << 11 | nv40_vp_SRC2L(insn);
	}
}

/* Source n's absolute-value flag (SRC0_ABS .. SRC2_ABS). */
static inline uint32_t nv40_vp_src_abs(const uint32_t insn[4], unsigned n)
{
	switch (n) {
	case 0:  return nv40_vp_SRC0_ABS(insn);
	case 1:  return nv40_vp_SRC1_ABS(insn);
	default: return nv40_vp_SRC2_ABS(insn);
	}
}

static inline void nv40_vp_set_src(uint32_t insn[4], unsigned n, uint32_t src)
{
	switch (n) {
	case 0:  nv40_vp_set_SRC0H(insn, src >> 9); nv40_vp_set_SRC0L(insn, src); break;
	case 1:  nv40_vp_set_SRC1(insn, src); break;
	default: nv40_vp_set_SRC2H(insn, src >> 11); nv40_vp_set_SRC2L(insn, src); break;
	}
}

/* The vector instruction "op o[dest].mask, s0, s1": no temp and no scalar
 * half written, an input as the unread third source. */
static inline void nv40_vp_vec_to_output(uint32_t o[4], unsigned op, unsigned dest, unsigned mask,
					 uint32_t s0, uint32_t s1, unsigned input, unsigned cst,
					 int last)
{
	o[0] = o[1] = o[2] = o[3] = 0;
	nv40_vp_set_VEC_RESULT(o, 1);
	nv40_vp_set_VEC_DST_TEMP(o, NV40_VP_NONE_TEMP);
	nv40_vp_set_VEC_OPCODE(o, op);
	nv40_vp_set_INPUT_SRC(o, input);
	nv40_vp_set_CONST_SRC(o, cst);
	nv40_vp_set_src(o, 0, s0);
	nv40_vp_set_src(o, 1, s1);
	nv40_vp_set_src(o, 2, nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0));
	nv40_vp_set_DEST(o, dest);
	nv40_vp_set_SCA_DST_TEMP(o, NV40_VP_NONE_TEMP);
	nv40_vp_set_VEC_WRITEMASK(o, mask);
	nv40_vp_set_LAST(o, (uint32_t)last);
}

/* BRA/CAL target slot (9 bits): SRC2H holds bits 8:3, d3 31:29 bits 2:0. */
static inline uint32_t nv40_vp_target(const uint32_t insn[4])
{
	return nv40_vp_SRC2H(insn) << 3 | insn[3] >> 29;
}

static inline void nv40_vp_set_target(uint32_t insn[4], uint32_t t)
{
	nv40_vp_set_SRC2H(insn, t >> 3);
	insn[3] = (insn[3] & 0x1fffffffu) | (t & 7) << 29;
}

#endif
