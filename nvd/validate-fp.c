/* The fragment program goes to the card as the channel's shadow copy
 * (validate.h, struct nvd_vfp).
 *
 * NV4x fetches a fragment program from FP_ACTIVE_PROGRAM through
 * DMA_TEXTURE0/1, 16 bytes an instruction (32 with an inline constant),
 * until one has END; branch offsets reach anywhere after the start.  The
 * ctxdmas cover whole apertures, so a program without END in its buffer,
 * or rewritten after it was checked (through the client's mapping, or by
 * an M2MF earlier in the same submission) would run on into whatever
 * memory follows.  So no client's program address reaches the card: each
 * FP_ACTIVE_PROGRAM word is replaced by
 *
 *   the daemon's M2MF (bound on NVD_SUBC_DAEMON, its own ctxdmas):
 *     len bytes from the client's program to a slot of the channel's area,
 *     then the two NOP|END instructions of the area's first bytes (a
 *     template no slot covers) to slot + len;
 *   the software object back on NVD_SUBC_DAEMON;
 *   FP_ACTIVE_PROGRAM = the slot, through whichever DMA_TEXTURE0/1 is the
 *     channel's VRAM ctxdma (checked again at every draw).
 *
 * The card runs the copies in order, so it copies what the commands before
 * them (a staging upload into the program's buffer, as Mesa's
 * pipe_buffer_write does) left there, and whatever the client writes
 * meanwhile, a straight run of its bytes ends in the daemon's END (two of
 * them: the client's last instruction may take the first as its constant).
 * Branches may jump past it: the card's fetch window from a slot
 * (NV40_FP_FETCH_MAX bytes, hw/access.h) ends inside the channel's area, so
 * what it may run is this channel's earlier copies or the END fill the
 * daemon writes when the channel is made.  Slots start in the area's first
 * size - NV40_FP_FETCH_MAX bytes for that; the fetch ctxdma itself covers
 * every channel's area.
 *
 * Only the card writes slots, in the channel's command order, and a slot
 * is fetched only by the draws between its bind and the next: by the time
 * a copy lands, every draw of the channel that could fetch what it
 * overwrites has run.  So slots simply go round the area, as many in one
 * submission as it binds (Mesa's nv30 copies its program again after every
 * change of a constant: a few KiB per draw).
 *
 * len is the program as this validation reads it (through the M2MF copies
 * recorded so far, as inline indices are read) up to its END instruction
 * and that one's constant: the cost follows the program, not its buffer.
 * Without an END, min(bytes left in the buffer, NV40_FP_MAX_BYTES).  A
 * program bound again in the same submission, no recorded copy having
 * written its buffer since and no later slot over its own, reuses its slot
 * (Mesa rebinds programs often) without being read again.  One submission
 * reads at most NVD_VFP_READ_MAX instructions of programs: without that
 * bound, binds that each miss the slots kept here (programs without END
 * in large buffers, read through 32 recorded copies) held the loop for
 * seconds (fuzz_stream found it).
 *
 * The daemon's copies leave their values in the channel's M2MF state (one
 * per channel, whichever object sets it): the shadow takes them, and
 * DMA_BUFFER_IN/OUT read as not set, so a client's copy must set them
 * again (Mesa's always do) and never writes through the daemon's ctxdma.
 * A notification the client armed before the bind fires at the daemon's
 * first copy, into the client's own M2MF notifier. */
#include <errno.h>
#include <string.h>

#include "hw/enums-2d.h"
#include "hw/enums-3d.h"
#include "hw/fp-isa.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "nvd/validate-priv.h"

#define OBJ(name) nvd_v_rec(x, NV_TABLE_CURIE, NV_CURIE_##name##__SLOT)

#define NVD_VFP_SLOT_ALIGN 64u
#define NVD_VFP_TAIL (2 * NV40_FP_INSN_BYTES)      /* the two END instructions */
#define NVD_VFP_FIRST NVD_VFP_SLOT_ALIGN           /* the template's room; slots after it */
_Static_assert(NVD_VFP_READ_MAX == 16 * NV40_FP_MAX_SLOTS, "16 of the longest programs");

static void nvd_vfp_end(uint8_t *p)
{
	uint32_t w[NV40_FP_INSN_WORDS] = { 0 };
	NV40_FP_SET(w, OPCODE, NV40_FP_OP_NOP);
	NV40_FP_SET(w, END, 1);
	for (unsigned i = 0; i < NV40_FP_INSN_WORDS; i++)
		nv_wr32le(p + 4 * i, w[i]);
}

/* One END encoded, then what is filled copied after itself: a whole
 * shadow area is filled for every new channel. */
void nvd_vfp_fill(uint8_t *area, uint32_t bytes)
{
	bytes &= ~(NV40_FP_INSN_BYTES - 1);
	if (!bytes)
		return;
	nvd_vfp_end(area);
	for (uint32_t o = NV40_FP_INSN_BYTES; o < bytes; o *= 2)
		memcpy(area + o, area, o < bytes - o ? o : bytes - o);
}

/* Bytes of the program at start (in buffer bo, max readable) up to and
 * with its END instruction, as the card will find them after this
 * submission's recorded copies; max when no END comes first.  0 when the
 * submission's reading would pass NVD_VFP_READ_MAX. */
static uint32_t nvd_vfp_length(struct nvd_vctx *x, unsigned bo, uint64_t start, uint32_t max)
{
	const struct nvd_vbo *b = &x->sub->bos[bo];

	max &= ~(NV40_FP_INSN_BYTES - 1);
	if (!b->map)
		return max;
	for (uint32_t pos = 0; pos + NV40_FP_INSN_BYTES <= max;) {
		if (++x->fp_read > NVD_VFP_READ_MAX)
			return 0;
		const uint8_t *q = x->ncopies ? nvd_v3d_forward(x, bo, start + pos, NV40_FP_INSN_BYTES)
					      : NULL;
		if (!q)
			q = b->map + (start - b->addr) + pos;
		uint32_t w[NV40_FP_INSN_WORDS];
		for (unsigned i = 0; i < NV40_FP_INSN_WORDS; i++)
			w[i] = nv_rd32le(q + 4 * i);
		unsigned size = nv40_fp_insn_size(w);
		if (!size || NV40_FP_GET(w, END)) {
			uint32_t end = pos + (size ? size : NV40_FP_INSN_BYTES);
			return end < max ? end : max;
		}
		pos += size;
	}
	return max;
}

/* No copy recorded since e's bind wrote its buffer. */
static int nvd_vfp_unwritten(const struct nvd_vctx *x, const struct nvd_vfpslot *e)
{
	if (x->copies_lost != e->lost)
		return 0;
	for (unsigned k = e->ncopies; k < x->ncopies; k++)
		if (x->copies[k].dst == e->bo)
			return 0;
	return 1;
}

/* The daemon's copy of len bytes from off (through h_src) to the slot, and
 * of the END template after them. */
static void nvd_vfp_copy(struct nvd_vctx *x, const struct nvd_vfp *fp, uint32_t h_src, uint32_t off,
			 uint32_t slot, uint32_t len)
{
	uint32_t *o = x->fp_ins;
	unsigned n = 0;

	o[n++] = NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_FIFO_OBJECT, 1);
	o[n++] = fp->h_m2mf;
	o[n++] = NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_M2MF_DMA_BUFFER_IN, 2);
	o[n++] = h_src;
	o[n++] = fp->h_dst;
	const uint32_t copies[2][3] = { { off, slot, len }, { 0, slot + len, NVD_VFP_TAIL } };
	for (unsigned c = 0; c < 2; c++) {
		if (c) {
			o[n++] = NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_M2MF_DMA_BUFFER_IN, 1);
			o[n++] = fp->h_dst;
		}
		o[n++] = NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_M2MF_OFFSET_IN, 8);
		o[n++] = copies[c][0];              /* OFFSET_IN */
		o[n++] = copies[c][1];              /* OFFSET_OUT */
		o[n++] = copies[c][2];              /* PITCH_IN */
		o[n++] = copies[c][2];              /* PITCH_OUT */
		o[n++] = copies[c][2];              /* LINE_LENGTH_IN */
		o[n++] = 1;                         /* LINE_COUNT */
		o[n++] = NV_M2MF_FORMAT(1, 1);
		o[n++] = 0;                         /* BUF_NOTIFY */
	}
	o[n++] = NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_FIFO_OBJECT, 1);
	o[n++] = fp->h_sw;
	_Static_assert(NVD_VFP_INSERT_WORDS == 27, "the copies are 27 words");
	x->fp_nins = n;

	/* what the channel's M2MF state now holds: the second copy, through
	 * ctxdmas no client may name (its DMA_BUFFER_IN/OUT read as not set) */
	nvd_v_set(x, &NVD_V(x, M2MF, OFFSET_IN), 0);
	nvd_v_set(x, &NVD_V(x, M2MF, OFFSET_OUT), slot + len);
	nvd_v_set(x, &NVD_V(x, M2MF, PITCH_IN), NVD_VFP_TAIL);
	nvd_v_set(x, &NVD_V(x, M2MF, PITCH_OUT), NVD_VFP_TAIL);
	nvd_v_set(x, &NVD_V(x, M2MF, LINE_LENGTH_IN), NVD_VFP_TAIL);
	nvd_v_set(x, &NVD_V(x, M2MF, LINE_COUNT), 1);
	nvd_v_set(x, &NVD_V(x, M2MF, FORMAT), NV_M2MF_FORMAT(1, 1));
	nvd_v_set(x, &NVD_V(x, M2MF, DMA_BUFFER_IN), 0);
	nvd_v_set(x, &NVD_V(x, M2MF, DMA_BUFFER_OUT), 0);
}

int nvd_v3d_fp_bind(struct nvd_vctx *x, uint32_t v)
{
	struct nvd_vfp *fp = x->sub->fp;
	unsigned sel = v & (NV40_FP_PROGRAM_DMA0 | NV40_FP_PROGRAM_DMA1);
	uint32_t off = v & ~3u, h_src, bit, slot;
	uint64_t room;
	int r;

	if (!fp || fp->size < NVD_VFP_FIRST + NV40_FP_MAX_BYTES + NVD_VFP_TAIL + NVD_VFP_SLOT_ALIGN ||
	    fp->size < NVD_VFP_FIRST + NV40_FP_FETCH_MAX)
		return nvd_v_fail(x, EINVAL, "the channel has no fragment program shadow");
	if (sel != NV40_FP_PROGRAM_DMA0 && sel != NV40_FP_PROGRAM_DMA1)
		return nvd_v_fail(x, EINVAL, "FP_ACTIVE_PROGRAM names %s of DMA_TEXTURE0/1",
				  sel ? "both" : "neither");
	const struct nvd_vhobj *src = sel == NV40_FP_PROGRAM_DMA0 ? OBJ(DMA_TEXTURE0) : OBJ(DMA_TEXTURE1);
	if (src && src->kind == NVD_VH(NVD_VOBJ_DMA_VRAM))
		h_src = fp->h_src_vram;
	else if (src && src->kind == NVD_VH(NVD_VOBJ_DMA_GART))
		h_src = fp->h_src_gart;
	else
		return nvd_v_fail(x, EFAULT, "fragment program: DMA_TEXTURE%u is not the VRAM or GART "
				  "ctxdma", sel == NV40_FP_PROGRAM_DMA0 ? 0 : 1);
	/* the shadow is fetched through whichever of the two is VRAM */
	const struct nvd_vhobj *t0 = OBJ(DMA_TEXTURE0), *t1 = OBJ(DMA_TEXTURE1);
	bit = t0 && t0->kind == NVD_VH(NVD_VOBJ_DMA_VRAM) ? NV40_FP_PROGRAM_DMA0 :
	      t1 && t1->kind == NVD_VH(NVD_VOBJ_DMA_VRAM) ? NV40_FP_PROGRAM_DMA1 : 0;
	if (!bit)
		return nvd_v_fail(x, EFAULT, "fragment program: neither DMA_TEXTURE0 nor DMA_TEXTURE1 "
				  "is the VRAM ctxdma");
	/* Mesa may list the program's buffer only for the staging copy that
	 * writes it (its RD reference went with an earlier flush): listed for
	 * writing covers the copy's read */
	r = nvd_v_room(x, src, off, NVD_ACCESS_READ, "fragment program", &room);
	if (r)
		return r;
	if (room < NV40_FP_INSN_BYTES)
		return nvd_v_fail(x, EFAULT, "fragment program 0x%x: its first instruction runs past "
				  "its buffer", off);
	unsigned bo = x->hint;

	x->fp_nins = 0;
	/* the same bytes as then: the same program */
	for (unsigned k = 0; k < x->fp_nseen; k++) {
		const struct nvd_vfpslot *e = &x->fp_seen[k];
		if (e->val == v && e->bo == bo && nvd_vfp_unwritten(x, e)) {
			slot = e->slot;
			goto bound;
		}
	}
	uint32_t len = nvd_vfp_length(x, bo, off, room < NV40_FP_MAX_BYTES ? (uint32_t)room
									     : NV40_FP_MAX_BYTES);
	if (!len)
		return nvd_v_fail(x, EINVAL, "fragment programs: more than %u instructions read "
				  "in one submission", NVD_VFP_READ_MAX);
	uint32_t bytes = (len + NVD_VFP_TAIL + NVD_VFP_SLOT_ALIGN - 1) & ~(NVD_VFP_SLOT_ALIGN - 1);
	/* room for the slot's bytes and for the card's fetch window from it */
	uint32_t need = bytes > NV40_FP_FETCH_MAX ? bytes : NV40_FP_FETCH_MAX;
	slot = fp->head >= NVD_VFP_FIRST && fp->head + need <= fp->size ? fp->head : NVD_VFP_FIRST;
	fp->head = slot + bytes;
	/* a slot of this submission the new one lands on is not reused */
	for (unsigned k = 0; k < x->fp_nseen;) {
		const struct nvd_vfpslot *e = &x->fp_seen[k];
		if (e->slot < slot + bytes && slot < e->slot + e->bytes)
			x->fp_seen[k] = x->fp_seen[--x->fp_nseen];
		else
			k++;
	}
	nvd_vfp_copy(x, fp, h_src, off, slot, len);
	const unsigned nslots = sizeof(x->fp_seen) / sizeof(x->fp_seen[0]);
	struct nvd_vfpslot *e;
	if (x->fp_nseen < nslots) {
		e = &x->fp_seen[x->fp_nseen++];
	} else {
		e = &x->fp_seen[x->fp_next];
		x->fp_next = (x->fp_next + 1) % nslots;
	}
	*e = (struct nvd_vfpslot){ v, bo, x->copies_lost, x->ncopies, slot, bytes };
bound:
	fp->bound_bo = (int)bo;
	x->fp_val = (fp->addr + slot) | bit;
	nvd_v_set(x, &NVD_V(x, CURIE, FP_ACTIVE_PROGRAM), x->fp_val);
	x->fp_split = 1;
	return 0;
}
