/* The NV40 vertex program engine ("Curie" ISA): one vertex through the
 * program held in the channel's program RAM.  Pure functions of their
 * arguments; the instruction fields are in hw/vp-isa.h. */
#ifndef NV_SIM_3D_VP_H
#define NV_SIM_3D_VP_H

#include <stdint.h>

#include "hw/vp-isa.h"

#define NV40_VP_INSNS     544    /* program RAM slots, 4 words each */
#define NV40_VP_CONSTS    468    /* vec4 constants */
#define NV40_VP_TEMPS     32     /* Mesa's cap; the 6-bit fields alias modulo 32 */
#define NV40_VP_OUTPUTS   16     /* DEST: 0 POS, 1 COL0, 2 COL1, 3 BFC0, 4 BFC1,
                                    5 FOGC, 6 PSZ, 7..14 TC0..7 */
/* The transform engine's watchdog: after TIMEOUT instructions the program
 * is forcibly stopped and the vertex leaves with the outputs written so far
 * (envytools xf/isa.rst, "ICNT" and "TIMEOUT [NV30:]": a 16-bit count; on
 * Curie part of the state bundles).  Mesa sets it once at init through
 * method 0x1ef8 (= 0x0020ffff, low 16 bits the count), so the model uses
 * that count always. */
#define NV40_VP_TIMEOUT   0xffff

/* Run the program from slot start for one vertex.  code holds the uploaded
 * words as the methods carried them; cst the constants as float bit
 * patterns.  out must be initialised by the caller (the hardware's default
 * for unwritten outputs); the program overwrites what it writes.
 * 0 on reaching an instruction with LAST set (or RET with an empty stack);
 * 1 when the watchdog stopped it after NV40_VP_TIMEOUT instructions (out
 * holds what it wrote; the vertex goes on); -1 when start is outside the
 * RAM, the program runs off its end, overflows its stack or uses an opcode
 * that does not exist (the caller raises a PGRAPH error). */
int sim_vp_run(const uint32_t code[NV40_VP_INSNS][4], unsigned start,
	       const uint32_t cst[NV40_VP_CONSTS][4], const float in[NV40_VP_INPUTS][4],
	       float out[NV40_VP_OUTPUTS][4]);
/* The same through the general loop, which decodes every instruction as it
 * steps: what sim_vp_run does for a program with flow control, indexing,
 * the address register or a condition test, and the reference for the
 * others, which it runs from a decoded copy (unit/test_sim_vp). */
int sim_vp_interpret(const uint32_t code[NV40_VP_INSNS][4], unsigned start,
		     const uint32_t cst[NV40_VP_CONSTS][4], const float in[NV40_VP_INPUTS][4],
		     float out[NV40_VP_OUTPUTS][4]);

/* A straight program: from its start to LAST without flow control, stack,
 * address register, condition test or indexing (Mesa's fixed-function
 * programs and most shaders), at most SIM_VP_STRAIGHT_MAX instructions.
 * Its fields decoded: what sim_vp_run runs, and the compiler (jit.h)
 * compiles. */
#define SIM_VP_STRAIGHT_MAX 128
struct sim_vp_src_dec {
	uint8_t type, reg, abs, neg;  /* reg: modulo NV40_VP_TEMPS */
	uint8_t swz[4];
};
struct sim_vp_dec {
	uint8_t vop, sop, sat, vmask, smask, vtemp, stemp, vresult;
	uint8_t dest;                /* output, NV40_VP_NONE_DEST none */
	uint8_t reads;               /* sources the two halves read: bit n = SRCn */
	uint16_t input, cnst;        /* INPUT_SRC, CONST_SRC */
	struct sim_vp_src_dec src[3];
};
struct sim_vp_straight {
	int valid, ok;               /* ok: straight, dec[] holds it */
	unsigned start, n;           /* the key: code[start .. start + n) */
	uint32_t words[SIM_VP_STRAIGHT_MAX][4];
	struct sim_vp_dec dec[SIM_VP_STRAIGHT_MAX];
};
/* The calling thread's decoded copy of the program at start (< NV40_VP_INSNS),
 * decoded again when its words changed; ok is 0 when it is not straight. */
const struct sim_vp_straight *sim_vp_straight_of(const uint32_t code[NV40_VP_INSNS][4],
						 unsigned start);
/* The scalar half's result d for op on its (swizzled) source s: 0 when the
 * op writes none.  Compiled programs call it for the ops they do not
 * inline. */
int sim_vp_sca(unsigned op, const float s[4], float d[4]);

#endif
