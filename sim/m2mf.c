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
 * trap DATA_ERROR.  The notifier that follows is PGRAPH's.
 *
 * The 3D engine's queued fragment work goes on past M2MF's methods
 * (sim_3d_sync_mthd); mapping the spans finishes it where the copy
 * touches its memory (sim_span_map), as the notifier does (gr_notify). */
#include "surface.h"

#include <string.h>

void sim_m2mf_mthd(struct sim *s, struct sim_grctx *g, uint32_t mthd, unsigned elem,
		   uint32_t data)
{
	uint32_t fmt = g->m2mf[NV_M2MF_FORMAT__SLOT];
	uint32_t iinc = NV_M2MF_FORMAT_INPUT_INC(fmt), oinc = NV_M2MF_FORMAT_OUTPUT_INC(fmt);
	struct nv_acc_state st;
	struct nv_acc_list l;
	struct sim_span in, out;
	uint32_t err;

	if (mthd != NV_M2MF_BUF_NOTIFY)
		return;
	sim_acc_view(s, g, &st);
	nv_acc_m2mf(&st, elem, data, &l);
	if (l.trap) {
		sim_gr_trap(s, sim_acc_nsource(l.trap));
		return;
	}
	if (l.n != 2)
		return;
	/* the regions: count lines of (n - 1) * inc + 1 bytes */
	uint32_t count = l.a[0].rows;
	uint64_t ilen = l.a[0].len, n = (ilen - 1) / iinc + 1;
	err = sim_span_acc(&in, s, &st, &l.a[0]);
	if (!err)
		err = sim_span_acc(&out, s, &st, &l.a[1]);
	if (err) {
		sim_gr_trap(s, err);
		return;
	}

	for (uint32_t i = 0; i < count; i++) {
		if (i && sim_gr_preempted(s, 1))
			return;        /* a line is a piece: PGRAPH was reset meanwhile */
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
