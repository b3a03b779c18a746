/* The NV40 program disassemblers: one fragment or vertex program
 * instruction as text, for nvd-decode, the simulator's traces and test
 * failures.  The text is cut to fit buf (always NUL-terminated when buflen
 * is not 0). */
#ifndef NV_HW_DISASM_H
#define NV_HW_DISASM_H

#include <stddef.h>
#include <stdint.h>

/* A fragment program instruction at insn (len bytes available there, the
 * card's little-endian words) with its inline constant when it has one:
 * "MADR R0.xy, R1, f[TEX0], c c = {1, 2, 3, 4}; END".  Shorter than an
 * instruction: "(truncated)".  Returns buf. */
char *hw_fp_disasm(const uint8_t *insn, size_t len, char *buf, unsigned buflen);

/* A vertex program instruction (four words, host order, as the
 * VP_UPLOAD_INST methods carry them): "MAD R0.xy, v[3], c[6], R1;".
 * Returns buf. */
char *hw_vp_disasm(const uint32_t insn[4], char *buf, unsigned buflen);

#endif
