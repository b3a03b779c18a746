/* The NV40 vertex program engine ("Curie" ISA): one vertex through the
 * program held in the channel's program RAM.  Pure functions of their
 * arguments; the instruction fields are in hw/vp-isa.h. */
#ifndef NV_SIM_3D_VP_H
#define NV_SIM_3D_VP_H

#include <stdint.h>

#include "hw/vp-isa.h"

#define NV40_VP_INSNS     544    /* program RAM slots, 4 words each */
#define NV40_VP_CONSTS    468    /* vec4 constants */
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

#endif
