/* A fragment program that runs as long as the card lets one: REP 255 over
 * NVT_FPLOOP_BODY moves of the colour, then the colour out.  Each pixel
 * executes about 255 * (NVT_FPLOOP_BODY + 1) instructions, just under the
 * simulator's per-quad bound (no trap: a runaway, not a fault). */
#ifndef NVT_FPLOOP_H
#define NVT_FPLOOP_H

#include <stdint.h>

#include "hw/fp-isa.h"
#include "hw/ramin.h"

#define NVT_FPLOOP_BODY  56
#define NVT_FPLOOP_BYTES ((NVT_FPLOOP_BODY + 2) * NV40_FP_INSN_BYTES)

/* Writes NVT_FPLOOP_BYTES at p, little-endian as the card fetches it. */
static inline void nvt_fploop(uint8_t *p)
{
	/* mov r0, i[col0] (END clear), as Mesa encodes it */
	static const uint32_t mov[4] = { 0x01003e00, 0x1c9dc801, 0x0001c800, 0x0001c800 };
	uint32_t rep[4] = { 0 };

	NV40_FP_SET(rep, OPCODE, NV40_FP_BRA_REP);
	NV40_FP_SET(rep, COND, NV40_FP_COND_TR);
	NV40_FP_SET(rep, COND_SWZ, NV40_FP_SWZ_IDENTITY);
	NV40_FP_SET(rep, IS_BRANCH, 1);
	NV40_FP_SET(rep, LOOP_COUNT, 255);
	NV40_FP_SET(rep, END_OFFSET, 4 * (1 + NVT_FPLOOP_BODY));   /* dwords */
	for (unsigned i = 0; i < 4; i++)
		nv_wr32le(p + 4 * i, rep[i]);
	for (unsigned k = 0; k <= NVT_FPLOOP_BODY; k++)
		for (unsigned i = 0; i < 4; i++)
			nv_wr32le(p + NV40_FP_INSN_BYTES * (1 + k) + 4 * i,
				  i == 0 && k == NVT_FPLOOP_BODY ? mov[0] | 1u : mov[i]);
}

#endif
