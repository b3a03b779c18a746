/* Virtual channels: clients open more channels than the card has (ref
 * memory-sched-recovery.md §2).  A channel runs on a hardware channel
 * (chid 1..30) or is virtual.  What is the hardware channel's (its grctx
 * image and ring ctxdma in RAMIN, its ring, its fragment program shadow
 * area) stays with the chid; what is the channel's own (its objects'
 * RAMIN instances, so that the grctx and the validator's shadow may keep
 * naming them) stays in RAMIN: 160 bytes of the daemon's objects a
 * channel, and 16 or 32 bytes an object (576 bytes for the standard 2D
 * set, bench/sched).
 *
 * Unloading an idle channel (nothing in flight, nothing of it in the
 * card's FIFO or on PGRAPH, no freed handle still hashed) saves its RAMFC,
 * its grctx image up to the last non-zero word and the bytes its bound
 * fragment program may fetch from the shadow, and takes its RAMHT entries
 * out (their hash and context word hold the chid).  Loading it onto a chid
 * writes them back there: RAMFC bound to that chid's ring ctxdma and grctx,
 * the grctx image (word 0 naming itself), every entry hashed for the new
 * chid, the program bytes at the same place in the new area, and the
 * area's ctxdma over the new area.  Two things are the ring's position:
 * the ring starts again at 0 (the channel was idle, nothing in it is
 * pending), and the program address the grctx holds is in the old area,
 * so the ring starts with daemon methods that bind the channel's 3D object
 * on the daemon's subchannel, point FP_ACTIVE_PROGRAM at the new area and
 * bind the software object back.  A new channel's ring starts by binding
 * the software object, as before.
 *
 * A channel with an entry to take and no hardware channel gets a free one,
 * else the least recently used idle one is unloaded for it (preferring
 * channels with nothing waiting in their submit ring); a client holds at
 * most NVD_CLIENT_HW_CHANS, so one client's busy channels leave room for
 * others.  While the oldest entry waits for a hardware channel nothing
 * younger is taken (the order sync.c keeps on shared buffers holds); the
 * next retirement, or the interrupt that makes a channel quiet, looks
 * again. */
#include "nvd/nvd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/access.h"
#include "hw/methods-3d.h"
#include "hw/pushbuf.h"

enum {
	NVD_VCHAN_SW = 1,      /* the ring binds the software object first */
	NVD_VCHAN_FP = 2,      /* FP_ACTIVE_PROGRAM follows the shadow area */
};

int nvd_vchan_init(struct nvd *d, char *err, size_t errlen)
{
	for (unsigned chid = NVD_FIRST_CHID; chid < NVD_CHID_NONE; chid++) {
		struct nvd_hwchan *hw = &d->hw[chid];
		hw->ring_addr = d->gart_client_size + (uint64_t)chid * NVD_HW_RING_SIZE;
		hw->fp_area = (uint32_t)(d->fp_areas + (uint64_t)(chid - NVD_FIRST_CHID) * NVD_FP_AREA_SIZE);
		if (nvd_ramin_alloc(d, NV40_GRCTX_SIZE, NV40_GRCTX_SIZE, &hw->grctx_inst) < 0 ||
		    nvd_ramin_alloc(d, NV_DMA_SIZE, NV_DMA_SIZE, &hw->pb_dma_inst) < 0) {
			snprintf(err, errlen, "instance memory too small for %u channels' grctx",
				 NVD_CLIENT_CHIDS);
			return -ENOMEM;
		}
		hw->fp_dirty = 1;
		/* The pusher may read this chid's ring and nothing else. */
		nvd_ctxdma_write(d, hw->pb_dma_inst, NV_CLASS_DMA_FROM_MEMORY, NV_DMA_TARGET_PCI,
				 NV_DMA_ACCESS_RO, d->card->gart_bus + hw->ring_addr, NVD_HW_RING_SIZE);
	}
	return 0;
}

/* ---- the state saved while virtual ---- */

static void saved_free(struct nvd *d, struct nvd_chan *ch)
{
	d->vchan_saved -= ch->saved_grctx_len + ch->saved_fp_len;
	free(ch->saved_grctx);
	free(ch->saved_fp);
	ch->saved_grctx = ch->saved_fp = NULL;
	ch->saved_grctx_len = ch->saved_fp_len = 0;
}

/* The grctx image up to its last non-zero word (the rest reads as zero);
 * the image is left zero for the chid's next channel.  An image never
 * straddles a RAMIN block (it is aligned to its size). */
static int save_grctx(struct nvd *d, struct nvd_chan *ch)
{
	const uint8_t *img = nvd_ramin(d, ch->grctx_inst);
	uint32_t len = NV40_GRCTX_SIZE;
	while (len >= 4 && !nv_rd32le(img + len - 4))
		len -= 4;
	if (len && !(ch->saved_grctx = malloc(len)))
		return -ENOMEM;
	nvd_ramin_read(d, ch->grctx_inst, ch->saved_grctx, len);
	nvd_ramin_zero(d, ch->grctx_inst, len);
	ch->saved_grctx_len = len;
	return 0;
}

/* The bytes the bound program may fetch: from its slot to the end of the
 * card's fetch window (or of the area). */
static int save_fp(struct nvd *d, struct nvd_chan *ch)
{
	uint32_t addr = nvd_vstate_fp_program(ch->vs) & ~3u;
	if (addr < ch->fp_area || addr - ch->fp_area >= NVD_FP_AREA_SIZE)
		return 0;
	uint32_t off = addr - ch->fp_area;
	uint32_t len = NVD_FP_AREA_SIZE - off < NV40_FP_FETCH_MAX ? NVD_FP_AREA_SIZE - off
								  : NV40_FP_FETCH_MAX;
	ch->saved_fp = malloc(len);
	if (!ch->saved_fp)
		return -ENOMEM;
	memcpy(ch->saved_fp, d->card->vram + ch->fp_area + off, len);
	ch->saved_fp_off = off;
	ch->saved_fp_len = len;
	return 0;
}

/* ---- unloading ---- */

static uint64_t vchan_card_ns(const struct nvd *d, unsigned chid)
{
	return d->card->ops->chan_busy_ns ? d->card->ops->chan_busy_ns(d->card, chid) : 0;
}

uint64_t nvd_vchan_busy_ns(const struct nvd_chan *ch)
{
	const struct nvd *d = ch->cl->d;
	if (ch->chid == NVD_CHID_NONE)
		return 0;
	return vchan_card_ns(d, ch->chid) - d->hw[ch->chid].busy_base;
}

/* The hardware channel is free again (its grctx image zero): its shadow
 * area needs filling for the next one only if this one copied programs
 * there. */
static void vchan_hw_leave(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;

	ch->cl->card_ns += nvd_vchan_busy_ns(ch);
	d->hw[ch->chid].fp_dirty |= ch->vfp.head != 0;
	d->hw[ch->chid].ch = NULL;
	d->chid[ch->chid] = NULL;
	d->nchans_hw--;
	ch->chid = NVD_CHID_NONE;
	ch->ring = NULL;
}

static unsigned client_hw_chans(const struct nvd *d, const struct nvd_client *cl)
{
	unsigned n = 0;
	for (unsigned chid = NVD_FIRST_CHID; chid < NVD_CHID_NONE; chid++)
		n += d->hw[chid].ch && d->hw[chid].ch->cl == cl;
	return n;
}

/* Idle as far as the daemon knows; the card's registers say the rest. */
static int vchan_idle(const struct nvd_chan *ch)
{
	return !ch->lost && !ch->if_count && !ch->nhashed && !ch->took;
}

static int vchan_has_entries(const struct nvd_chan *ch)
{
	return __atomic_load_n(&ch->ctl->head, __ATOMIC_ACQUIRE) != ch->tail;
}

static int vchan_unload(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;
	unsigned chid = ch->chid;
	uint64_t t0 = nvd_now_ns();
	int r;

	nvd_oracle_forget(ch);
	nvd_fifo_chan_unload(d, ch);
	if ((r = save_grctx(d, ch)) < 0 || (r = save_fp(d, ch)) < 0) {
		saved_free(d, ch);
		return r;
	}
	d->vchan_saved += ch->saved_grctx_len + ch->saved_fp_len;
	nvd_chan_unhash(ch);
	vchan_hw_leave(ch);
	d->chan_unloads++;
	d->vchan_switch_ns += nvd_now_ns() - t0;
	nvd_log(2, "chan %u of client %u unloaded from chid %u (%u bytes saved)", ch->id,
		ch->cl->id, chid, ch->saved_grctx_len + ch->saved_fp_len);
	return 0;
}

/* ---- loading ---- */

/* The daemon methods the ring starts with; their words. */
static uint32_t vchan_prologue(struct nvd_chan *ch)
{
	uint32_t n = 0;

	if (ch->prologue & NVD_VCHAN_SW) {
		nv_wr32le(&ch->ring[n++], NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_FIFO_OBJECT, 1));
		nv_wr32le(&ch->ring[n++], NVD_SW_HANDLE);
	}
	uint32_t fp = nvd_vstate_fp_program(ch->vs), h3d = nvd_chan_3d_handle(ch);
	if ((ch->prologue & NVD_VCHAN_FP) && h3d) {
		nv_wr32le(&ch->ring[n++], NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_FIFO_OBJECT, 1));
		nv_wr32le(&ch->ring[n++], h3d);
		nv_wr32le(&ch->ring[n++], NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_CURIE_FP_ACTIVE_PROGRAM, 1));
		nv_wr32le(&ch->ring[n++], fp);
		nv_wr32le(&ch->ring[n++], NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_FIFO_OBJECT, 1));
		nv_wr32le(&ch->ring[n++], NVD_SW_HANDLE);
	} else if (ch->prologue & NVD_VCHAN_FP) {
		/* No 3D object to set it through: draws refuse the program
		 * until the client binds one again. */
		nvd_vstate_fp_set_program(ch->vs, 0);
	}
	return n * 4;
}

/* The shadow area moved: the program's bytes and address follow. */
static void vchan_fp_move(struct nvd *d, struct nvd_chan *ch, struct nvd_hwchan *hw)
{
	uint32_t old = ch->fp_area, area = hw->fp_area;

	/* nothing of the chid's last channels may be fetched by this one */
	if (hw->fp_dirty)
		nvd_vfp_fill(d->card->vram + area, NVD_FP_AREA_SIZE);
	hw->fp_dirty = ch->saved_fp != NULL;
	if (ch->saved_fp)
		memcpy(d->card->vram + area + ch->saved_fp_off, ch->saved_fp, ch->saved_fp_len);
	ch->fp_area = area;
	ch->vfp.addr = area;
	nvd_ctxdma_write(d, ch->fp_inst[NVD_FP_AREA_HANDLE - NVD_FP_M2MF_HANDLE], NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_VRAM,
			 NV_DMA_ACCESS_RW, area, NVD_FP_AREA_SIZE);
	uint32_t fp = nvd_vstate_fp_program(ch->vs), addr = fp & ~3u;
	if (old && addr >= old && addr - old < NVD_FP_AREA_SIZE) {
		nvd_vstate_fp_set_program(ch->vs, (addr - old + area) | (fp & 3u));
		ch->prologue |= NVD_VCHAN_FP;
	}
}

static int vchan_load(struct nvd_chan *ch, unsigned chid)
{
	struct nvd *d = ch->cl->d;
	struct nvd_hwchan *hw = &d->hw[chid];
	uint64_t t0 = nvd_now_ns();

	ch->chid = chid;
	ch->grctx_inst = hw->grctx_inst;
	ch->pb_dma_inst = hw->pb_dma_inst;
	ch->ring_addr = hw->ring_addr;
	ch->ring = (uint32_t *)(d->card->gart + hw->ring_addr);
	int r = nvd_chan_hash(ch);
	if (r < 0) {
		ch->chid = NVD_CHID_NONE;
		ch->ring = NULL;
		return r;
	}
	hw->ch = ch;
	hw->busy_base = vchan_card_ns(d, chid);
	d->chid[chid] = ch;
	d->nchans_hw++;

	vchan_fp_move(d, ch, hw);
	if (ch->saved_grctx_len)
		nvd_ramin_write(d, ch->grctx_inst, ch->saved_grctx, ch->saved_grctx_len);
	nv_wr32le(nvd_ramin(d, ch->grctx_inst), ch->grctx_inst >> 4);
	saved_free(d, ch);

	/* idle: the ring starts again, with the daemon's methods */
	ch->wptr = ch->hw_free_from = vchan_prologue(ch);
	ch->saved_ramfc[NV40_RAMFC_DMA_PUT / 4] = ch->saved_ramfc[NV40_RAMFC_DMA_GET / 4] = 0;
	nvd_fifo_chan_load(d, ch);
	nvd_chan_oracle(ch);
	d->chan_loads++;
	d->vchan_switch_ns += nvd_now_ns() - t0;
	return 0;
}

/* ---- which hardware channel ---- */

static int vchan_free_chid(struct nvd *d)
{
	for (unsigned chid = NVD_FIRST_CHID; chid < NVD_CHID_NONE; chid++)
		if (!d->hw[chid].ch)
			return (int)chid;
	return -1;
}

/* The idle channel to unload for ch: for its chid, ch's client's own when
 * it holds its share, else anyone's (any: for room in RAMHT, anyone's);
 * channels without waiting entries first, then the least recently used.
 * Only the one chosen is asked of the card (a few register reads) whether
 * it is quiet; if not, the next is. */
static struct nvd_chan *vchan_victim(struct nvd_chan *ch, int any)
{
	struct nvd *d = ch->cl->d;
	int own = !any && client_hw_chans(d, ch->cl) >= NVD_CLIENT_HW_CHANS;
	uint32_t noisy = 0;

	for (;;) {
		struct nvd_chan *best = NULL;
		int best_busy = 0;
		for (unsigned chid = NVD_FIRST_CHID; chid < NVD_CHID_NONE; chid++) {
			struct nvd_chan *v = d->hw[chid].ch;
			if (!v || v == ch || (noisy >> chid & 1) || (own && v->cl != ch->cl) ||
			    !vchan_idle(v))
				continue;
			int busy = vchan_has_entries(v);
			if (!best || busy < best_busy ||
			    (busy == best_busy && v->used_stamp < best->used_stamp)) {
				best = v;
				best_busy = busy;
			}
		}
		if (!best || nvd_fifo_chan_quiet(d, best))
			return best;
		noisy |= 1u << best->chid;
	}
}

/* Unload an idle channel for ch: its chid, or -1 (then ch waits). */
static int vchan_evict(struct nvd_chan *ch, int any)
{
	struct nvd_chan *v = vchan_victim(ch, any);
	if (!v)
		return -1;
	int chid = (int)v->chid, r = vchan_unload(v);
	if (r < 0) {
		nvd_chan_lose(v, r, "out of memory saving the channel's state");
		return -1;
	}
	return chid;
}

int nvd_vchan_get(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;

	if (ch->chid != NVD_CHID_NONE)
		return 0;
	if (ch->lost)
		return ch->lost;
	int chid = client_hw_chans(d, ch->cl) < NVD_CLIENT_HW_CHANS ? vchan_free_chid(d) : -1;
	if (chid < 0 && (chid = vchan_evict(ch, 0)) < 0) {
		d->vchan_waiting = 1;
		return -EBUSY;
	}
	/* RAMHT full around the channel's handles (another client's objects
	 * fill it): idle channels' entries leave until they fit, else it
	 * waits for more to become idle; with none left on the card they
	 * never will. */
	while (vchan_load(ch, (unsigned)chid) == -ENOSPC) {
		if (vchan_evict(ch, 1) >= 0)
			continue;
		if (d->nchans_hw) {
			d->vchan_waiting = 1;
			return -EBUSY;
		}
		nvd_chan_lose(ch, -ENOSPC, "its objects do not fit the card's hash table");
		return -ENOSPC;
	}
	return 0;
}

int nvd_vchan_ramht_room(struct nvd_chan *ch)
{
	return vchan_evict(ch, 1) < 0 ? -ENOSPC : 0;
}

void nvd_vchan_used(struct nvd_chan *ch)
{
	ch->used_stamp = ++ch->cl->d->vchan_clock;
	ch->prologue = 0;
}

void nvd_vchan_add(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;

	/* a fresh RAMFC (nv40 dma_new) and an empty grctx */
	memset(ch->saved_ramfc, 0, sizeof(ch->saved_ramfc));
	ch->saved_ramfc[NV40_RAMFC_DMA_FETCH / 4] = NV_PFIFO_DMA_FETCH_DEFAULT;
	ch->saved_ramfc[NV40_RAMFC_DMA_TIMESLICE / 4] = d->o.timeslice;
	ch->chid = NVD_CHID_NONE;
	ch->prologue = NVD_VCHAN_SW;
	ch->used_stamp = ++d->vchan_clock;
	ch->all_next = d->chans;
	if (d->chans)
		d->chans->all_prev = ch;
	d->chans = ch;
	d->nchans++;
	int chid = client_hw_chans(d, ch->cl) < NVD_CLIENT_HW_CHANS ? vchan_free_chid(d) : -1;
	if (chid >= 0 && vchan_load(ch, (unsigned)chid) < 0)
		nvd_clog(ch->cl, ch, "stays virtual: no room in the hash table now");
}

void nvd_vchan_remove(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;

	if (ch->chid != NVD_CHID_NONE && d->hw[ch->chid].ch == ch) {
		nvd_ramin_zero(d, ch->grctx_inst, NV40_GRCTX_SIZE);
		vchan_hw_leave(ch);
	}
	saved_free(d, ch);
	if (ch->all_prev || ch->all_next || d->chans == ch) {
		if (ch->all_prev)
			ch->all_prev->all_next = ch->all_next;
		else
			d->chans = ch->all_next;
		if (ch->all_next)
			ch->all_next->all_prev = ch->all_prev;
		ch->all_prev = ch->all_next = NULL;
		d->nchans--;
	}
}
