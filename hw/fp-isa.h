/* The NV40 fragment program ISA: instruction fields, source operand fields,
 * opcodes and the FP_CONTROL (0x1d60) bits the program depends on.
 *
 * Facts from Mesa nv30/nvfx_shader.h + nvfx_fragprog.c (the emitter),
 * nv30_transfer.c (the blit shader), envytools rnndb graph/nv30-40_3d.xml
 * (FP_CONTROL) and ../shared/ref/nv40-hardware.md §3.2; RPCS3's RSX
 * (NV47-derived) decoder for the opcodes Mesa never emits and the fields of
 * the flow-control instructions.
 *
 * An instruction is four little-endian 32-bit words d0..d3.  When a source
 * the opcode reads has TYPE = CONST, the next four words are that vec4
 * constant (IEEE floats) and the following instruction comes after it. */
#ifndef NV_HW_FP_ISA_H
#define NV_HW_FP_ISA_H

#include <stdint.h>

#include "ramin.h"

#define NV40_FP_INSN_WORDS 4
#define NV40_FP_INSN_BYTES 16
#define NV40_FP_CONST_BYTES 16

/* Instruction fields: X(name, word, low bit, bits).  Branch instructions
 * (IS_BRANCH) reuse d1's condition fields and put offsets and counts where
 * the sources would be (the *_OFFSET and LOOP_* rows). */
#define NV40_FP_FIELDS(X) \
	X(END,          0,  0,  1) /* PROGRAM_END: last instruction */ \
	X(DST,          0,  1,  6) /* R0-R63, or H0-H63 with DST_HALF */ \
	X(DST_HALF,     0,  7,  1) /* OUT_REG_HALF */ \
	X(CC_UPDATE,    0,  8,  1) /* COND_WRITE_ENABLE */ \
	X(MASK,         0,  9,  4) /* write mask, x = bit 9 .. w = bit 12 */ \
	X(INPUT,        0, 13,  4) /* INPUT_SRC, see NV40_FP_INPUT_* */ \
	X(TEX_UNIT,     0, 17,  4) \
	X(TEX_EXPAND,   0, 21,  1) /* texture result * 2 - 1 (_bx2) */ \
	X(PRECISION,    0, 22,  2) /* NV40_FP_PREC_* */ \
	X(OPCODE,       0, 24,  6) \
	X(OUT_NONE,     0, 30,  1) /* no destination (CC only) */ \
	X(SAT,          0, 31,  1) \
	X(SRC0,         1,  0, 18) \
	X(COND,         1, 18,  3) /* execute if CC is: bit 0 LT, 1 EQ, 2 GT */ \
	X(COND_SWZ,     1, 21,  8) /* CC swizzle, 2 bits per x y z w */ \
	X(SRC0_ABS,     1, 29,  1) \
	X(SRC1_ABS_D1,  1, 30,  1) /* where Mesa's emitter puts SRC1 ABS */ \
	X(SRC2_ABS_D1,  1, 31,  1) /* where Mesa's emitter puts SRC2 ABS */ \
	X(SRC1,         2,  0, 18) \
	X(SRC1_ABS,     2, 18,  1) /* where the header comment / RSX put it */ \
	X(DST_SCALE,    2, 28,  3) /* NV40_FP_SCALE_* */ \
	X(IS_BRANCH,    2, 31,  1) /* OPCODE is a NV40_FP_BRANCHES op */ \
	X(SRC2,         3,  0, 18) \
	X(SRC2_ABS,     3, 18,  1) \
	X(INDEX_OFFSET, 3, 19, 11) /* INDEX_INPUT: input = TC0 + this + aL */ \
	X(INDEX_INPUT,  3, 30,  1) \
	X(PERSP,        3, 31,  1) /* "disable perspective"? (ignored) */ \
	X(ELSE_OFFSET,  2,  0, 31) /* IF: else, CAL: target (dwords) */ \
	X(LOOP_COUNT,   2,  2,  8) /* LOOP/REP: iterations */ \
	X(LOOP_INIT,    2, 10,  8) /* LOOP: first aL */ \
	X(LOOP_INCR,    2, 19,  8) /* LOOP: aL step (signed) */ \
	X(END_OFFSET,   3,  0, 31) /* IF: endif, LOOP/REP: end (dwords) */

/* Source operand (SRC0/1/2, 18 bits): X(name, low bit, bits) */
#define NV40_FP_SRC_FIELDS(X) \
	X(TYPE,  0, 2) /* NV40_FP_SRC_* */ \
	X(REG,   2, 6) \
	X(HALF,  8, 1) /* temp is an H register */ \
	X(SWZ,   9, 8) /* 2 bits per x y z w */ \
	X(NEG,  17, 1)

#define NV40_FP_FIELD_ENUM_(nm, wd, lo, n) \
	NV40_FP_##nm##__WORD = (wd), NV40_FP_##nm##__SHIFT = (lo), \
	NV40_FP_##nm##__MASK = (int)((1ull << (n)) - 1),
enum { NV40_FP_FIELDS(NV40_FP_FIELD_ENUM_) };
#define NV40_FP_SRC_ENUM_(nm, lo, n) \
	NV40_FP_SRC_##nm##__SHIFT = (lo), NV40_FP_SRC_##nm##__MASK = (int)((1ull << (n)) - 1),
enum { NV40_FP_SRC_FIELDS(NV40_FP_SRC_ENUM_) };

/* w: the instruction's four words (host order, already loaded LE). */
#define NV40_FP_GET(w, nm) \
	(((w)[NV40_FP_##nm##__WORD] >> NV40_FP_##nm##__SHIFT) & (uint32_t)NV40_FP_##nm##__MASK)
#define NV40_FP_SET(w, nm, v) \
	((w)[NV40_FP_##nm##__WORD] |= ((uint32_t)(v) & (uint32_t)NV40_FP_##nm##__MASK) \
	                              << NV40_FP_##nm##__SHIFT)
#define NV40_FP_SRC_GET(s, nm) (((s) >> NV40_FP_SRC_##nm##__SHIFT) & (uint32_t)NV40_FP_SRC_##nm##__MASK)
#define NV40_FP_SRC_SET(nm, v) \
	(((uint32_t)(v) & (uint32_t)NV40_FP_SRC_##nm##__MASK) << NV40_FP_SRC_##nm##__SHIFT)

/* The instruction at p (card memory, little-endian) as its four words. */
static inline void nv40_fp_load(const uint8_t *p, uint32_t w[4])
{
	for (int i = 0; i < 4; i++)
		w[i] = nv_rd32le(p + 4 * i);
}

/* The SRCn field of an instruction, n = 0..2 (d1..d3 bits 17:0). */
static inline uint32_t nv40_fp_src(const uint32_t *w, unsigned n)
{
	return w[1 + n] & (uint32_t)NV40_FP_SRC0__MASK;
}
/* ABS of source n: Mesa's emitter writes d1 bit 29 + n; the header comment
 * (and RSX) put SRC1/SRC2's in d2/d3 bit 18.  Either sets it. */
static inline unsigned nv40_fp_src_abs(const uint32_t *w, unsigned n)
{
	return n == 0 ? NV40_FP_GET(w, SRC0_ABS) : ((w[1] >> (29 + n)) & 1) | ((w[1 + n] >> 18) & 1);
}
/* Component c (0 = x .. 3 = w) of a 2-bit-per-component swizzle. */
static inline unsigned nv40_fp_swz(uint32_t swz, unsigned c)
{
	return (swz >> (2 * c)) & 3;
}

enum { NV40_FP_SRC_TEMP = 0, NV40_FP_SRC_INPUT = 1, NV40_FP_SRC_CONST = 2 }; /* 3: invalid */
#define NV40_FP_SWZ_IDENTITY 0xe4u

/* PRECISION: X(name, value) */
#define NV40_FP_PRECISIONS(X) X(FP32, 0) X(FP16, 1) X(FX12, 2) X(FX9, 3)
#define NV40_FP_PREC_ENUM_(nm, v) NV40_FP_PREC_##nm = (v),
enum { NV40_FP_PRECISIONS(NV40_FP_PREC_ENUM_) };

/* COND bits; TR (7) passes always, FL (0) never. */
enum { NV40_FP_COND_FL = 0, NV40_FP_COND_LT = 1, NV40_FP_COND_EQ = 2, NV40_FP_COND_LE = 3,
       NV40_FP_COND_GT = 4, NV40_FP_COND_NE = 5, NV40_FP_COND_GE = 6, NV40_FP_COND_TR = 7 };

/* DST_SCALE: 0 x1, 1 x2, 2 x4, 3 x8, 4 (unknown: x1), 5 /2, 6 /4, 7 /8 */
enum { NV40_FP_SCALE_X1 = 0, NV40_FP_SCALE_X2 = 1, NV40_FP_SCALE_X4 = 2, NV40_FP_SCALE_X8 = 3,
       NV40_FP_SCALE_D2 = 5, NV40_FP_SCALE_D4 = 6, NV40_FP_SCALE_D8 = 7 };

/* INPUT_SRC values (NV40_FP_INPUTS slots of struct sim_fp_quad). */
enum { NV40_FP_INPUT_WPOS = 0, NV40_FP_INPUT_COL0 = 1, NV40_FP_INPUT_COL1 = 2,
       NV40_FP_INPUT_FOGC = 3, NV40_FP_INPUT_TC0 = 4,  /* TC(n) = 4 + n, n < 10 */
       NV40_FP_INPUT_FACING = 14 };
#define NV40_FP_INPUT_TC_COUNT 10

/* Arithmetic/texture opcodes (IS_BRANCH = 0): X(name, value, sources read,
 * kind).  Kinds: ALU, TEX (samples TEX_UNIT), KIL, NOP.  NV30's RSQ, LIT,
 * LRP, POW, RFL and the RSX-documented DP2, NRM, DIVSQ are present too: Mesa
 * expands them for NV40, but the NV47-derived RSX executes them. */
#define NV40_FP_OPCODES(X) \
	X(NOP,    0x00, 0, NOP) \
	X(MOV,    0x01, 1, ALU) \
	X(MUL,    0x02, 2, ALU) \
	X(ADD,    0x03, 2, ALU) \
	X(MAD,    0x04, 3, ALU) \
	X(DP3,    0x05, 2, ALU) \
	X(DP4,    0x06, 2, ALU) \
	X(DST,    0x07, 2, ALU) \
	X(MIN,    0x08, 2, ALU) \
	X(MAX,    0x09, 2, ALU) \
	X(SLT,    0x0a, 2, ALU) \
	X(SGE,    0x0b, 2, ALU) \
	X(SLE,    0x0c, 2, ALU) \
	X(SGT,    0x0d, 2, ALU) \
	X(SNE,    0x0e, 2, ALU) \
	X(SEQ,    0x0f, 2, ALU) \
	X(FRC,    0x10, 1, ALU) \
	X(FLR,    0x11, 1, ALU) \
	X(KIL,    0x12, 0, KIL) \
	X(PK4B,   0x13, 1, ALU) \
	X(UP4B,   0x14, 1, ALU) \
	X(DDX,    0x15, 1, ALU) \
	X(DDY,    0x16, 1, ALU) \
	X(TEX,    0x17, 1, TEX) \
	X(TXP,    0x18, 1, TEX) \
	X(TXD,    0x19, 3, TEX) \
	X(RCP,    0x1a, 1, ALU) \
	X(RSQ,    0x1b, 1, ALU) \
	X(EX2,    0x1c, 1, ALU) \
	X(LG2,    0x1d, 1, ALU) \
	X(LIT,    0x1e, 1, ALU) \
	X(LRP,    0x1f, 3, ALU) \
	X(STR,    0x20, 0, ALU) \
	X(SFL,    0x21, 0, ALU) \
	X(COS,    0x22, 1, ALU) \
	X(SIN,    0x23, 1, ALU) \
	X(PK2H,   0x24, 1, ALU) \
	X(UP2H,   0x25, 1, ALU) \
	X(POW,    0x26, 2, ALU) \
	X(PK4UB,  0x27, 1, ALU) \
	X(UP4UB,  0x28, 1, ALU) \
	X(PK2US,  0x29, 1, ALU) \
	X(UP2US,  0x2a, 1, ALU) \
	X(DP2A,   0x2e, 3, ALU) \
	X(TXL,    0x2f, 1, TEX) \
	X(TXB,    0x31, 1, TEX) \
	X(RFL,    0x36, 2, ALU) \
	X(DP2,    0x38, 2, ALU) \
	X(NRM,    0x39, 1, ALU) \
	X(DIV,    0x3a, 2, ALU) \
	X(DIVSQ,  0x3b, 2, ALU) \
	X(LITEX2, 0x3c, 1, ALU) \
	X(FENCT,  0x3d, 0, NOP) \
	X(FENCB,  0x3e, 0, NOP)

/* Flow-control opcodes (IS_BRANCH = 1), X(name, value) */
#define NV40_FP_BRANCHES(X) \
	X(BRK,  0x0) \
	X(CAL,  0x1) \
	X(IF,   0x2) \
	X(LOOP, 0x3) \
	X(REP,  0x4) \
	X(RET,  0x5)

#define NV40_FP_OP_ENUM_(nm, v, ns, k) NV40_FP_OP_##nm = (v),
enum { NV40_FP_OPCODES(NV40_FP_OP_ENUM_) };
#define NV40_FP_BRA_ENUM_(nm, v) NV40_FP_BRA_##nm = (v),
enum { NV40_FP_BRANCHES(NV40_FP_BRA_ENUM_) };
enum { NV40_FP_KIND_NOP, NV40_FP_KIND_ALU, NV40_FP_KIND_TEX, NV40_FP_KIND_KIL };

/* Sources an arithmetic opcode reads, -1 for an opcode that does not exist. */
#define NV40_FP_NSRC_CASE_(nm, v, ns, k) case (v): return (ns);
static inline int nv40_fp_op_nsrc(unsigned op)
{
	switch (op) { NV40_FP_OPCODES(NV40_FP_NSRC_CASE_) default: return -1; }
}
#define NV40_FP_KIND_CASE_(nm, v, ns, k) case (v): return NV40_FP_KIND_##k;
static inline int nv40_fp_op_kind(unsigned op)
{
	switch (op) { NV40_FP_OPCODES(NV40_FP_KIND_CASE_) default: return -1; }
}

/* The longest program the daemon lets the card run, in 16-byte slots
 * (instructions and inline constants): Mesa's nv30 limit of 4096
 * (nv30_screen.c, PIPE_SHADER_CAP_MAX_INSTRUCTIONS for fragment shaders).
 * The silicon's own limit is not documented. */
#define NV40_FP_MAX_SLOTS 4096u
#define NV40_FP_MAX_BYTES (NV40_FP_MAX_SLOTS * NV40_FP_INSN_BYTES)

/* Bytes instruction w (four words, host order) takes with its inline
 * constant: 16, or 32 when a source the opcode reads is a constant; 0 for
 * an opcode that does not exist or a source of type 3 (the engine stops
 * there).  Flow-control instructions carry no constant. */
static inline unsigned nv40_fp_insn_size(const uint32_t *w)
{
	if (NV40_FP_GET(w, IS_BRANCH))
		return NV40_FP_INSN_BYTES;
	int nsrc = nv40_fp_op_nsrc(NV40_FP_GET(w, OPCODE));
	unsigned size = NV40_FP_INSN_BYTES;
	if (nsrc < 0)
		return 0;
	for (int n = 0; n < nsrc; n++) {
		unsigned type = NV40_FP_SRC_GET(nv40_fp_src(w, (unsigned)n), TYPE);
		if (type == 3)
			return 0;
		if (type == NV40_FP_SRC_CONST)
			size = NV40_FP_INSN_BYTES + NV40_FP_CONST_BYTES;
	}
	return size;
}

/* FP_CONTROL (method 0x1d60) on NV40 */
#define NV40_FP_CONTROL_DEPTH       0x0000000eu  /* the program exports depth (R1.z) */
#define NV40_FP_CONTROL_KIL         0x00000080u  /* the program uses KIL */
#define NV40_FP_CONTROL_TEMP_COUNT(v) (((v) >> 24) & 0xff)  /* R registers used */
#define NV40_FP_CONTROL_TEMP_COUNT_SHIFT 24

#endif
