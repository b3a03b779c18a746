/* The card through its registers: bring-up, instance memory (RAMHT, RAMFC,
 * ctxdmas, grctx), channel start/stop and the interrupt handler.  The same
 * writes a nouveau kernel makes on NV40 (fifo/nv40.c, instmem/nv40.c). */
#include "nvd/nvd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "hw/display.h"
#include "hw/pushbuf.h"
#include "hw/regs.h"

#define RAMHT_BITS 12

uint8_t *nvd_ramin(struct nvd *d, uint32_t off)
{
	return d->card->vram + nv40_ramin_to_vram(d->card->vram_size, off);
}

static void ramin_wr32(struct nvd *d, uint32_t off, uint32_t v)
{
	nv_wr32le(nvd_ramin(d, off), v);
}

static uint32_t ramin_rd32(struct nvd *d, uint32_t off)
{
	return nv_rd32le(nvd_ramin(d, off));
}

/* A piece per RAMIN block, inside which RAMIN is linear: a word at a time
 * costs a channel's 128 KiB grctx dearly (channels come and go per client). */
void nvd_ramin_zero(struct nvd *d, uint32_t off, uint32_t size)
{
	while (size) {
		uint32_t n = NV40_RAMIN_BLOCK - (off & (NV40_RAMIN_BLOCK - 1));
		if (n > size)
			n = size;
		memset(nvd_ramin(d, off), 0, n);
		off += n;
		size -= n;
	}
}

/* Copies in the same pieces. */
void nvd_ramin_read(struct nvd *d, uint32_t off, void *buf, uint32_t size)
{
	for (uint8_t *p = buf; size;) {
		uint32_t n = NV40_RAMIN_BLOCK - (off & (NV40_RAMIN_BLOCK - 1));
		if (n > size)
			n = size;
		memcpy(p, nvd_ramin(d, off), n);
		off += n;
		p += n;
		size -= n;
	}
}

void nvd_ramin_write(struct nvd *d, uint32_t off, const void *buf, uint32_t size)
{
	for (const uint8_t *p = buf; size;) {
		uint32_t n = NV40_RAMIN_BLOCK - (off & (NV40_RAMIN_BLOCK - 1));
		if (n > size)
			n = size;
		memcpy(nvd_ramin(d, off), p, n);
		off += n;
		p += n;
		size -= n;
	}
}

/* Objects never straddle a RAMIN block: the card sees RAMIN in 512 KiB pieces. */
int nvd_ramin_alloc(struct nvd *d, uint32_t size, uint32_t align, uint32_t *off)
{
	uint64_t a;
	int r = nvd_ra_alloc(&d->ramin, size, align, &a);
	if (r < 0)
		return r;
	*off = (uint32_t)a;
	nvd_ramin_zero(d, *off, size);
	return 0;
}

void nvd_ramin_free(struct nvd *d, uint32_t off, uint32_t size)
{
	nvd_ramin_zero(d, off, size);
	nvd_ra_free(&d->ramin, off);
}

void nvd_ctxdma_write(struct nvd *d, uint32_t inst, unsigned cls, unsigned target,
		      unsigned access, uint64_t base, uint64_t size)
{
	uint32_t frame = (uint32_t)(base & ~0xfffull) | (access != NV_DMA_ACCESS_RO ? NV_DMA_W2_WRITABLE : 0);
	ramin_wr32(d, inst + 0, NV_DMA_W0(cls, target, access, base & 0xfff));
	ramin_wr32(d, inst + 4, (uint32_t)(size - 1));
	ramin_wr32(d, inst + 8, frame);
	ramin_wr32(d, inst + 12, frame);
}

int nvd_ramht_insert(struct nvd *d, unsigned chid, uint32_t handle, unsigned engine,
		     uint32_t inst, uint32_t *slot)
{
	uint32_t h = nv40_ramht_hash(handle, chid, RAMHT_BITS);
	for (unsigned i = 0; i < NV40_RAMHT_SEARCH; i++) {
		uint32_t s = (h + i) & ((1u << RAMHT_BITS) - 1);
		uint32_t e = NV40_RAMIN_RAMHT + s * NV40_RAMHT_ENTRY_SIZE;
		if (ramin_rd32(d, e + 4) == 0) {
			ramin_wr32(d, e + 0, handle);
			ramin_wr32(d, e + 4, NV40_RAMHT_CTX(chid, engine, inst));
			*slot = s;
			return 0;
		}
	}
	return -ENOSPC;
}

void nvd_ramht_remove(struct nvd *d, uint32_t slot)
{
	uint32_t e = NV40_RAMIN_RAMHT + slot * NV40_RAMHT_ENTRY_SIZE;
	ramin_wr32(d, e + 0, 0);
	ramin_wr32(d, e + 4, 0);
}

/* PGRAPH after power-on or a reset (nv40_gr_init's part the model has):
 * interrupts acked and on, no context loaded, methods accepted. */
static void gr_init(struct nvd_card *c)
{
	nvd_wr32(c, NV_PGRAPH_INTR, ~0u);
	nvd_wr32(c, NV_PGRAPH_INTR_EN, ~0u);
	nvd_wr32(c, NV_PGRAPH_CTXCTL_CUR, 0);
	nvd_wr32(c, NV_PGRAPH_FIFO, 1);
}

/* Reset PGRAPH through PMC as nvkm_mc_reset does (clear, set, read back):
 * the method it runs is abandoned with the context it had loaded; the
 * other channels' contexts are in their grctx images and survive. */
static void gr_reset(struct nvd_card *c)
{
	uint32_t en = nvd_rd32(c, NV_PMC_ENABLE);
	nvd_wr32(c, NV_PMC_ENABLE, en & ~NV_PMC_UNIT_PGRAPH);
	nvd_wr32(c, NV_PMC_ENABLE, en | NV_PMC_UNIT_PGRAPH);
	(void)nvd_rd32(c, NV_PMC_ENABLE);
	gr_init(c);
}

int nvd_fifo_init(struct nvd *d, char *err, size_t errlen)
{
	struct nvd_card *c = d->card;
	uint32_t boot0 = nvd_rd32(c, NV_PMC_BOOT_0);

	if (((boot0 >> 20) & 0xff) != c->chip->chipset) {
		snprintf(err, errlen, "card reports PMC_BOOT_0 %08x, expected chipset %02x", boot0,
			 c->chip->chipset);
		return -ENODEV;
	}
	/* Memory (nvd.h): RAMIN at the top of VRAM, the cursors and the
	 * channels' program shadows below it, the channels' rings at the top
	 * of the bus window; the clients' buffers lie below them all. */
	d->cursors = c->vram_size - NV40_RAMIN_SIZE - NVD_CURSOR_AREA;
	d->fp_areas = d->cursors - (uint64_t)NVD_CLIENT_CHIDS * NVD_FP_AREA_SIZE;
	d->vram_client_size = d->fp_areas;
	d->gart_client_size = c->gart_size - (uint64_t)NV40_FIFO_CHANNELS * NVD_HW_RING_SIZE;
	d->vram_daemon = c->vram_size - d->vram_client_size;
	d->gart_daemon = (uint64_t)NV40_FIFO_CHANNELS * NVD_HW_RING_SIZE;
	if (nvd_ra_init(&d->vram, 0, d->vram_client_size) < 0 ||
	    nvd_ra_init(&d->gart, 0, d->gart_client_size) < 0 ||
	    nvd_ra_init(&d->ramin, NV40_RAMIN_HEAP, NV40_RAMIN_SIZE - NV40_RAMIN_HEAP) < 0) {
		snprintf(err, errlen, "cannot set up the memory managers");
		return -ENOMEM;
	}
	nvd_ramin_zero(d, 0, NV40_RAMIN_HEAP);
	d->ramht_bits = RAMHT_BITS;

	/* PMC: reset and enable every engine, then take interrupts. */
	nvd_wr32(c, NV_PMC_ENABLE, 0);
	nvd_wr32(c, NV_PMC_ENABLE, ~0u);

	/* PFIFO */
	nvd_wr32(c, NV_PFIFO_CACHES, 0);
	nvd_wr32(c, NV_PFIFO_DELAY_0, 0xff);
	nvd_wr32(c, NV_PFIFO_DMA_TIMESLICE, d->o.timeslice);
	nvd_wr32(c, NV_PFIFO_RAMHT, 3u << 24 | (RAMHT_BITS - 9) << 16 | NV40_RAMIN_RAMHT >> 8);
	nvd_wr32(c, NV_PFIFO_RAMRO, NV40_RAMIN_RAMRO >> 8);
	nvd_wr32(c, NV_PFIFO_RAMFC, NV40_RAMIN_RAMFC >> 16 | 3u << 16);
	nvd_wr32(c, NV_PFIFO_INTR, ~0u);
	nvd_wr32(c, NV_PFIFO_INTR_EN, ~0u);
	nvd_wr32(c, NV_PFIFO_CACHE1_PUSH1, (NV40_FIFO_CHANNELS - 1) | NV_PFIFO_CACHE1_PUSH1_DMA);
	nvd_wr32(c, NV_PFIFO_CACHE1_DMA_PUSH, NV_PFIFO_CACHE1_DMA_PUSH_ACCESS);
	nvd_wr32(c, NV_PFIFO_CACHE1_PUSH0, NV_PFIFO_CACHE1_PUSH0_ACCESS);
	nvd_wr32(c, NV_PFIFO_CACHE1_PULL0, NV_PULL0_ACCESS);
	nvd_wr32(c, NV_PFIFO_CACHES, NV_PFIFO_CACHES_REASSIGN);

	gr_init(c);
	nvd_wr32(c, NV_PMC_INTR_EN, 1);
	return nvd_vchan_init(d, err, errlen);
}

void nvd_fifo_fini(struct nvd *d)
{
	if (!d->card)
		return;
	nvd_wr32(d->card, NV_PMC_INTR_EN, 0);
	nvd_ra_fini(&d->vram);
	nvd_ra_fini(&d->gart);
	nvd_ra_fini(&d->ramin);
}

/* The live register of each RAMFC word, and its valid bits. */
static const struct {
	uint16_t off;
	uint32_t reg, mask;
} fifo_ramfc[] = {
#define FIFO_RAMFC_ROW_(o, r, b) { o, r, NV40_RAMFC_MASK(b) },
	NV40_RAMFC(FIFO_RAMFC_ROW_)
#undef FIFO_RAMFC_ROW_
};

static uint32_t ramfc_of(unsigned chid)
{
	return NV40_RAMIN_RAMFC + chid * NV40_RAMFC_SIZE;
}

/* The channel's saved RAMFC into its chid's, bound to that hardware
 * channel's ring ctxdma and grctx, then DMA mode on (nv04_fifo_dma_init). */
void nvd_fifo_chan_load(struct nvd *d, struct nvd_chan *ch)
{
	uint32_t fc = ramfc_of(ch->chid);

	for (unsigned i = 0; i < NV40_RAMFC_SIZE / 4; i++)
		ramin_wr32(d, fc + i * 4, ch->saved_ramfc[i]);
	ramin_wr32(d, fc + NV40_RAMFC_DMA_INSTANCE, ch->pb_dma_inst >> 4);
	ramin_wr32(d, fc + NV40_RAMFC_GRCTX_INSTANCE, ch->grctx_inst >> 4);
	nvd_wr32(d->card, NV_PFIFO_MODE, nvd_rd32(d->card, NV_PFIFO_MODE) | 1u << ch->chid);
	if (d->card->ops->fence_target)
		d->card->ops->fence_target(d->card, ch->chid, ch->fence, ch->fence_ev);
}

int nvd_fifo_chan_quiet(struct nvd *d, const struct nvd_chan *ch)
{
	struct nvd_card *c = d->card;

	if ((nvd_rd32(c, NV_PFIFO_CACHE1_PUSH1) & 0x1f) == ch->chid &&
	    ((nvd_rd32(c, NV_PFIFO_INTR) & (NV_PFIFO_INTR_CACHE_ERROR | NV_PFIFO_INTR_DMA_PUSHER)) ||
	     nvd_rd32(c, NV_PFIFO_CACHE1_GET) != nvd_rd32(c, NV_PFIFO_CACHE1_PUT)))
		return 0;
	if (nvd_fifo_gr_running(d) == (int)ch->chid)
		return 0;
	return nvd_rd32(c, NV40_USER(ch->chid) + NV40_USER_DMA_GET) ==
	       nvd_rd32(c, NV40_USER(ch->chid) + NV40_USER_DMA_PUT);
}

/* Unload a quiet channel as nv04_fifo_dma_fini does, but keeping its state:
 * with switching and the pusher and puller stopped, the live registers go
 * to its RAMFC if it is current, PFIFO is left on "no channel" and DMA
 * mode goes off; RAMFC is read into the channel and cleared.  PGRAPH, its
 * FIFO access off, saves the grctx image if it holds the context
 * (nv40_gr_chan_fini), which the caller reads from RAMIN. */
void nvd_fifo_chan_unload(struct nvd *d, struct nvd_chan *ch)
{
	struct nvd_card *c = d->card;
	uint32_t caches = nvd_rd32(c, NV_PFIFO_CACHES);
	uint32_t push0 = nvd_rd32(c, NV_PFIFO_CACHE1_PUSH0);
	uint32_t pull0 = nvd_rd32(c, NV_PFIFO_CACHE1_PULL0);
	uint32_t fc = ramfc_of(ch->chid);

	if (c->ops->fence_target)
		c->ops->fence_target(c, ch->chid, NULL, -1);
	nvd_wr32(c, NV_PFIFO_CACHES, 0);
	nvd_wr32(c, NV_PFIFO_CACHE1_PUSH0, 0);
	nvd_wr32(c, NV_PFIFO_CACHE1_PULL0, pull0 & ~NV_PULL0_ACCESS);
	if ((nvd_rd32(c, NV_PFIFO_CACHE1_PUSH1) & 0x1f) == ch->chid) {
		for (unsigned i = 0; i < sizeof(fifo_ramfc) / sizeof(fifo_ramfc[0]); i++)
			ramin_wr32(d, fc + fifo_ramfc[i].off,
				   nvd_rd32(c, fifo_ramfc[i].reg) & fifo_ramfc[i].mask);
		nvd_wr32(c, NV_PFIFO_CACHE1_PUSH1,
			 NV40_FIFO_CHID_NONE | NV_PFIFO_CACHE1_PUSH1_DMA);
	}
	nvd_wr32(c, NV_PFIFO_MODE, nvd_rd32(c, NV_PFIFO_MODE) & ~(1u << ch->chid));
	nvd_wr32(c, NV_PFIFO_CACHE1_PUSH0, push0);
	nvd_wr32(c, NV_PFIFO_CACHE1_PULL0, pull0);
	nvd_wr32(c, NV_PFIFO_CACHES, caches);
	for (unsigned i = 0; i < NV40_RAMFC_SIZE / 4; i++)
		ch->saved_ramfc[i] = ramin_rd32(d, fc + i * 4);
	nvd_ramin_zero(d, fc, NV40_RAMFC_SIZE);

	uint32_t loaded = NV_PGRAPH_CTXCTL_LOADED | ch->grctx_inst >> 4;
	uint32_t fifo = nvd_rd32(c, NV_PGRAPH_FIFO);
	nvd_wr32(c, NV_PGRAPH_FIFO, fifo & ~NV_PGRAPH_FIFO_ACCESS);
	if (nvd_rd32(c, NV_PGRAPH_CTXCTL_CUR) == loaded) {
		nvd_wr32(c, NV_PGRAPH_CTXCTL_USER_INST, ch->grctx_inst >> 4);
		nvd_wr32(c, NV_PGRAPH_CTXCTL_CMD, NV_PGRAPH_CTXCTL_CMD_SAVE);
		nvd_wr32(c, NV_PGRAPH_CTXCTL_XFER, 1);
		/* The model saves within the write; silicon's ctxprog takes
		 * microseconds, a bounded number of reads. */
		for (unsigned i = 0; i < 1000 && (nvd_rd32(c, NV_PGRAPH_CTXCTL_BUSY) & 1); i++)
			;
		nvd_wr32(c, NV_PGRAPH_CTXCTL_CUR, 0);
	}
	nvd_wr32(c, NV_PGRAPH_FIFO, fifo);
}

void nvd_fifo_kick(struct nvd *d, struct nvd_chan *ch)
{
	nvd_wr32(d->card, NV40_USER(ch->chid) + NV40_USER_DMA_PUT, ch->wptr);
	/* The simulated card may have run it within the write, fences and
	 * all, without signalling its eventfd (sim_wr32): they are taken
	 * once this pass of kicks is done. */
	if (d->card->ops->fences && d->irq_evt)
		event_active(d->irq_evt, EV_READ, 0);
}

/* As nv04_fifo_chan_fini: stop switching, take the channel out of DMA mode,
 * forget it if it is current, and drop its PGRAPH context unsaved.  The
 * puller's state is put back as it was, unless it stopped on a method of
 * this channel: that is dropped with what else CACHE1 holds of it and its
 * interrupt acked here.  It is most often the channel's last fence, which
 * the card already published to the fence page (card-sim.c): the client
 * saw it complete and closed the channel before the loop took the
 * interrupt, which then found PFIFO on "no channel" (chid 31).  Another
 * channel may be stalled on a software method whose interrupt is still on
 * its way: its state is left alone.  PGRAPH still running one of the
 * channel's methods (a long draw) is reset first: once this returns the
 * card touches none of its memory.  A virtual channel is not on the card. */
void nvd_fifo_chan_stop(struct nvd *d, struct nvd_chan *ch)
{
	struct nvd_card *c = d->card;

	if (ch->chid == NVD_CHID_NONE)
		return;
	uint32_t caches = nvd_rd32(c, NV_PFIFO_CACHES);
	uint32_t push0 = nvd_rd32(c, NV_PFIFO_CACHE1_PUSH0);
	uint32_t pull0 = nvd_rd32(c, NV_PFIFO_CACHE1_PULL0);

	if (c->ops->fence_target)
		c->ops->fence_target(c, ch->chid, NULL, -1);
	nvd_wr32(c, NV_PFIFO_CACHES, 0);
	nvd_wr32(c, NV_PFIFO_CACHE1_PUSH0, 0);
	nvd_wr32(c, NV_PFIFO_CACHE1_PULL0, pull0 & ~NV_PULL0_ACCESS);
	if (nvd_fifo_gr_running(d) == (int)ch->chid)
		gr_reset(c);
	nvd_wr32(c, NV_PFIFO_MODE, nvd_rd32(c, NV_PFIFO_MODE) & ~(1u << ch->chid));
	if ((nvd_rd32(c, NV_PFIFO_CACHE1_PUSH1) & 0x1f) == ch->chid) {
		uint32_t mine = nvd_rd32(c, NV_PFIFO_INTR) &
				(NV_PFIFO_INTR_CACHE_ERROR | NV_PFIFO_INTR_DMA_PUSHER);
		nvd_wr32(c, NV_PFIFO_CACHE1_GET, nvd_rd32(c, NV_PFIFO_CACHE1_PUT));
		if (mine & NV_PFIFO_INTR_DMA_PUSHER) {
			nvd_wr32(c, NV_PFIFO_CACHE1_DMA_STATE, 0);
			nvd_wr32(c, NV_PFIFO_CACHE1_DMA_PUSH, NV_PFIFO_CACHE1_DMA_PUSH_ACCESS);
		}
		if (mine)
			nvd_wr32(c, NV_PFIFO_INTR, mine);
		pull0 = NV_PULL0_ACCESS;
		nvd_wr32(c, NV_PFIFO_CACHE1_PUSH1, NV40_FIFO_CHID_NONE | NV_PFIFO_CACHE1_PUSH1_DMA);
	}
	nvd_ramin_zero(d, ramfc_of(ch->chid), NV40_RAMFC_SIZE);
	/* PGRAPH's context and traps are read and written while the puller
	 * is still stopped: no method starts meanwhile, so no other channel's
	 * context comes in between the read and the write (once the puller
	 * ran again, CUR could be another channel's live context, dropped
	 * unsaved: an honest client's state lost mid-operation). */
	if (nvd_rd32(c, NV_PGRAPH_CTXCTL_CUR) == (NV_PGRAPH_CTXCTL_LOADED | ch->grctx_inst >> 4))
		nvd_wr32(c, NV_PGRAPH_CTXCTL_CUR, 0);
	/* A trap of the channel's the loop has not read yet is its own: taken
	 * now, not blamed on the next channel given the chid. */
	uint32_t addr = nvd_rd32(c, NV_PGRAPH_TRAPPED_ADDR);
	if ((nvd_rd32(c, NV_PGRAPH_INTR) & NV_PGRAPH_INTR_ERROR) &&
	    NV_PGRAPH_TRAPPED_ADDR_CHID(addr) == ch->chid) {
		nvd_wr32(c, NV_PGRAPH_INTR, NV_PGRAPH_INTR_ERROR);
		nvd_clog(ch->cl, ch, "a trap as the channel stopped: method 0x%04x",
			 NV_PGRAPH_TRAPPED_ADDR_MTHD(addr));
	}
	nvd_wr32(c, NV_PFIFO_CACHE1_PUSH0, push0);
	nvd_wr32(c, NV_PFIFO_CACHE1_PULL0, pull0);
	nvd_wr32(c, NV_PFIFO_CACHES, caches);
}

/* Whose method PGRAPH is in: the channel whose context is loaded, as
 * nv40_gr_intr finds it.  TRAPPED_ADDR is no guide: it stays latched on
 * another channel's method while that one's interrupt waits to be read. */
int nvd_fifo_gr_running(struct nvd *d)
{
	if (!(nvd_rd32(d->card, NV_PGRAPH_STATUS) & NV_PGRAPH_STATUS_BUSY))
		return -1;
	uint32_t cur = nvd_rd32(d->card, NV_PGRAPH_CTXCTL_CUR);
	for (unsigned i = 0; (cur & NV_PGRAPH_CTXCTL_LOADED) && i < NV40_FIFO_CHANNELS; i++)
		if (d->chid[i] && d->chid[i]->grctx_inst >> 4 == NV_PGRAPH_CTXCTL_INST(cur))
			return (int)i;
	return (int)NV_PGRAPH_TRAPPED_ADDR_CHID(nvd_rd32(d->card, NV_PGRAPH_TRAPPED_ADDR));
}

static void nvd_irq_pfifo(struct nvd *d)
{
	struct nvd_card *c = d->card;
	uint32_t st = nvd_rd32(c, NV_PFIFO_INTR) & nvd_rd32(c, NV_PFIFO_INTR_EN);
	unsigned chid = nvd_rd32(c, NV_PFIFO_CACHE1_PUSH1) & 0x1f;
	struct nvd_chan *ch = d->chid[chid];

	if (st & NV_PFIFO_INTR_CACHE_ERROR) {
		uint32_t pull0 = nvd_rd32(c, NV_PFIFO_CACHE1_PULL0);
		uint32_t get = nvd_rd32(c, NV_PFIFO_CACHE1_GET);
		unsigned ptr = (get & NV_PFIFO_CACHE1_PTR_MASK) >> 2;
		uint32_t m = nvd_rd32(c, NV_PFIFO_CACHE1_METHOD(ptr));
		uint32_t data = nvd_rd32(c, NV_PFIFO_CACHE1_DATA(ptr));
		unsigned subc = NV_PFIFO_CACHE1_METHOD_SUBC(m);
		int fence = nvd_slot_is_fence(m);

		/* Acked before GET moves: the card's fence_target hook looks at
		 * the method at GET while CACHE_ERROR is up. */
		nvd_wr32(c, NV_PFIFO_INTR, NV_PFIFO_INTR_CACHE_ERROR);
		nvd_wr32(c, NV_PFIFO_CACHE1_GET, get + 4);
		nvd_wr32(c, NV_PFIFO_CACHE1_PULL0, NV_PULL0_ACCESS);
		if (fence && ch)
			nvd_chan_fence(ch, data);
		else if (ch) {
			nvd_clog(ch->cl, ch, "CACHE_ERROR subc %u method 0x%04x data 0x%08x%s", subc,
				 NV_PFIFO_CACHE1_METHOD_MTHD(m), data, pull0 & NV_PULL0_HASH_FAILED ? " (object not found)" : "");
			nvd_chan_lose(ch, -EFAULT, "the card could not run the channel's commands");
		} else
			nvd_log(0, "CACHE_ERROR on idle chid %u method 0x%04x", chid,
				NV_PFIFO_CACHE1_METHOD_MTHD(m));
		st &= ~NV_PFIFO_INTR_CACHE_ERROR;
	}
	if (st & NV_PFIFO_INTR_DMA_PUSHER) {
		uint32_t get = nvd_rd32(c, NV_PFIFO_CACHE1_DMA_GET);
		uint32_t put = nvd_rd32(c, NV_PFIFO_CACHE1_DMA_PUT);
		uint32_t state = nvd_rd32(c, NV_PFIFO_CACHE1_DMA_STATE);

		nvd_wr32(c, NV_PFIFO_CACHE1_DMA_GET, put);
		nvd_wr32(c, NV_PFIFO_CACHE1_DMA_STATE, 0);
		nvd_wr32(c, NV_PFIFO_CACHE1_DMA_PUSH, NV_PFIFO_CACHE1_DMA_PUSH_ACCESS);
		nvd_wr32(c, NV_PFIFO_INTR, NV_PFIFO_INTR_DMA_PUSHER);
		if (ch) {
			nvd_clog(ch->cl, ch, "DMA_PUSHER get 0x%08x put 0x%08x state 0x%08x (error %u)",
				 get, put, state, NV_DMA_STATE_ERROR(state));
			nvd_chan_lose(ch, -EFAULT, "the card's pusher faulted on the channel");
		}
		st &= ~NV_PFIFO_INTR_DMA_PUSHER;
	}
	if (st) {
		nvd_log(0, "PFIFO interrupt 0x%08x on chid %u", st, chid);
		nvd_wr32(c, NV_PFIFO_INTR, st);
	}
}

static void nvd_irq_pgraph(struct nvd *d)
{
	struct nvd_card *c = d->card;
	uint32_t st = nvd_rd32(c, NV_PGRAPH_INTR);
	uint32_t nsource = nvd_rd32(c, NV_PGRAPH_NSOURCE);
	uint32_t addr = nvd_rd32(c, NV_PGRAPH_TRAPPED_ADDR);
	uint32_t data = nvd_rd32(c, NV_PGRAPH_TRAPPED_DATA);

	unsigned chid = (addr >> 20) & 0x1f;
	struct nvd_chan *ch = st & NV_PGRAPH_INTR_ERROR ? d->chid[chid] : NULL;
	/* The card runs a channel's submissions in order: the trap belongs
	 * to the oldest one still in flight.  Its status is written before
	 * the ack: from then on the card may publish its fence. */
	uint32_t seq = ch && ch->if_count ? ch->inflight[ch->if_head].seq : ch ? ch->completed : 0;
	if (ch && ch->if_count)
		__atomic_store_n(&ch->fence->status[seq % NVD_FENCE_STATUS], -EIO, __ATOMIC_RELAXED);
	nvd_wr32(c, NV_PGRAPH_INTR, st);
	if (st & NV_PGRAPH_INTR_ERROR) {
		if (ch) {
			nvd_clog(ch->cl, ch, "submission %u: the card refused subc %u method 0x%04x "
				 "data 0x%08x (PGRAPH NSOURCE 0x%08x)", seq,
				 NV_PGRAPH_TRAPPED_ADDR_SUBC(addr), NV_PGRAPH_TRAPPED_ADDR_MTHD(addr), data,
				 nsource);
			if (++ch->strikes >= NVD_STRIKES)
				nvd_chan_lose(ch, -EFAULT, "too many graphics faults");
		} else
			nvd_log(0, "PGRAPH trap on chid %u method 0x%04x", chid,
				NV_PGRAPH_TRAPPED_ADDR_MTHD(addr));
	}
}

static void irq_fence(void *arg, unsigned chid, uint32_t seq)
{
	struct nvd *d = arg;
	if (d->chid[chid])
		nvd_chan_fence(d->chid[chid], seq);
}

void nvd_irq(struct nvd *d)
{
	uint64_t v;
	if (read(d->card->irq_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		nvd_log(0, "interrupt eventfd: %s", strerror(errno));
	/* a fence interrupt follows every submission: the oracle's findings
	 * reach the log that soon */
	nvd_oracle_poll(d);
	/* Fences the card acked itself come first: a trap after them
	 * belongs to a later submission. */
	if (d->card->ops->fences && !d->card->ops->fences(d->card, irq_fence, d))
		return;
	for (int round = 0; round < 64; round++) {
		uint32_t intr = nvd_rd32(d->card, NV_PMC_INTR);
		if (!intr)
			return;
		/* PGRAPH first: a trap precedes the fence of its submission. */
		if (intr & NV_PMC_UNIT_PGRAPH)
			nvd_irq_pgraph(d);
		if (intr & NV_PMC_UNIT_PFIFO)
			nvd_irq_pfifo(d);
		if (intr & NV_PMC_UNIT_PTIMER)
			nvd_wr32(d->card, NV_PTIMER_INTR, ~0u);
		if (intr & NV_PMC_UNIT_PBUS)
			nvd_wr32(d->card, NV_PBUS_INTR, ~0u);
		if (intr & (NV_PMC_UNIT_PCRTC0 | NV_PMC_UNIT_PCRTC1))
			nvd_disp_irq(d, intr);   /* vblank: crtc.c acks, flip.c finishes flips */
		/* A fence already retired from its page leaves its channel
		 * quiet only now: a channel waiting for a hardware one may
		 * take it. */
		if (d->vchan_waiting)
			nvd_take(d);
	}
	nvd_log(0, "interrupt storm: PMC_INTR 0x%08x stays up", nvd_rd32(d->card, NV_PMC_INTR));
}
