/* NV03_M2MF: memory to memory copies between two ctxdmas, started by
 * BUF_NOTIFY.
 *
 * For line i < LINE_COUNT, LINE_LENGTH_IN bytes of input at
 * DMA_BUFFER_IN + OFFSET_IN + i * PITCH_IN go to DMA_BUFFER_OUT +
 * OFFSET_OUT + i * PITCH_OUT (pitches signed 32-bit).  FORMAT's increments
 * (input 7:0, output 15:8; 1, 2 or 4) are strides: byte k of a line is read
 * at k * INPUT_INC while k * INPUT_INC < LINE_LENGTH_IN, and written at
 * k * OUTPUT_INC; the bytes in between are neither read nor written
 * (gathering or scattering one channel; RPCS3's NV47 model,
 * rpcs3/Emu/RSX/NV47/HW/nv0039.cpp, and rnndb nv_m2mf.xml).  Lines are
 * copied in order, each with memmove semantics (strided lines: back to
 * front when the destination starts inside the source line), so
 * overlapping source and destination lines behave.  Every line is checked
 * against both ctxdmas before a byte moves: a fault copies nothing.
 * Invalid values (hwtest pgraph_class_m2mf.cc): an increment other than
 * 1/2/4 or other FORMAT bits, LINE_LENGTH_IN >= 4 MiB, LINE_COUNT >= 2048
 * trap DATA_ERROR.  The notifier that follows is PGRAPH's. */
#include "surface.h"

#include <string.h>

static int sim_m2mf_inc_ok(uint32_t inc)
{
	return inc == 1 || inc == 2 || inc == 4;
}

void sim_m2mf_mthd(struct sim *s, struct sim_grctx *g, uint32_t mthd, unsigned elem,
		   uint32_t data)
{
	const uint32_t *st = g->m2mf;
	uint32_t fmt = st[NV_M2MF_FORMAT__SLOT];
	uint32_t iinc = NV_M2MF_FORMAT_INPUT_INC(fmt), oinc = NV_M2MF_FORMAT_OUTPUT_INC(fmt);
	uint32_t len = st[NV_M2MF_LINE_LENGTH_IN__SLOT], count = st[NV_M2MF_LINE_COUNT__SLOT];
	int64_t ipitch = (int32_t)st[NV_M2MF_PITCH_IN__SLOT];
	int64_t opitch = (int32_t)st[NV_M2MF_PITCH_OUT__SLOT];
	struct sim_span in, out;
	uint64_t n, ilen, olen;
	uint32_t err;

	(void)elem;
	(void)data;
	if (mthd != NV_M2MF_BUF_NOTIFY)
		return;
	if (!sim_m2mf_inc_ok(iinc) || !sim_m2mf_inc_ok(oinc) || (fmt & ~NV_M2MF_FORMAT_VALID_MASK) ||
	    len > NV_M2MF_LINE_LENGTH_MAX || count > NV_M2MF_LINE_COUNT_MAX) {
		sim_gr_trap(s, NV_PGRAPH_NSOURCE_DATA_ERROR);
		return;
	}
	if (!len || !count)
		return;

	n = (len + iinc - 1) / iinc;          /* bytes moved per line */
	ilen = (n - 1) * iinc + 1;
	olen = (n - 1) * oinc + 1;
	err = sim_span_map(&in, s, st[NV_M2MF_DMA_BUFFER_IN__SLOT], st[NV_M2MF_OFFSET_IN__SLOT],
			   ipitch, ilen, count, SIM_SPAN_R);
	if (!err)
		err = sim_span_map(&out, s, st[NV_M2MF_DMA_BUFFER_OUT__SLOT],
				   st[NV_M2MF_OFFSET_OUT__SLOT], opitch, olen, count, SIM_SPAN_W);
	if (err) {
		sim_gr_trap(s, err);
		return;
	}

	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *src = sim_span_row(&in, i);
		uint8_t *dst = sim_span_row(&out, i);

		if (!src || !dst) {
			sim_gr_trap(s, !src ? NV_PGRAPH_NSOURCE_DMA_R_PROTECTION
					    : NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
			return;
		}
		if (iinc == 1 && oinc == 1) {
			memmove(dst, src, n);
		} else if (dst > src && dst < src + ilen) {
			/* overlapping, destination ahead: back to front */
			for (uint64_t k = n; k-- > 0;)
				dst[k * oinc] = src[k * iinc];
		} else {
			for (uint64_t k = 0; k < n; k++)
				dst[k * oinc] = src[k * iinc];
		}
	}
}
