/* PFIFO: the USER area, the DMA pusher (command words from the channel's
 * push buffer into CACHE1), the puller (CACHE1 into the FIFO's own methods,
 * the software engine and PGRAPH), RAMFC save/restore and the channel
 * switch.  The puller runs each method as soon as it is pushed (as xemu
 * does), so CACHE1 holds at most the one method the puller stalled on.
 *
 * Documented deviations from the silicon:
 * - Every instance register (RAMHT, RAMFC, DMA_INSTANCE, GRCTX_INSTANCE)
 *   holds a RAMIN offset, on all chips; NV44's "0x2220 holds a VRAM
 *   address" variant is not modelled.
 * - DMA_TIMESLICE 16:0 is the card time, in microseconds, a channel may
 *   run before a switch is due (0 counts as 1); the silicon's unit is not
 *   documented.  The model reads the host's monotonic clock every 16
 *   command words and after every piece of a long method (M2MF copies,
 *   2D operations, draws), so that a slice ends between methods soon after
 *   its time is up; a method, once begun, runs to its end (as on NV40).
 * - CACHE1_SEMAPHORE uses the model's own layout: bit 0 valid, bit 1 an
 *   acquire is waiting, 11:2 offset, 31:12 the ctxdma's RAMIN offset >> 4.
 * - OBJECT on a software (engine 0) entry just sets the subchannel's engine
 *   nibble to 0; the silicon raises CACHE_ERROR and lets the host do that.
 *   Methods 0x180-0x1fc on software subchannels reach the host untranslated.
 *   Engines other than PGRAPH count as software.
 * - Push buffers are always little-endian (DMA_FETCH bit 31 is ignored).
 * - CACHE1_DMA_PUSH bit 12 (suspended) reads as "the current channel has a
 *   pusher error"; the pusher runs again once the host clears DMA_STATE. */
#include <string.h>
#include <time.h>

#include "priv.h"
#include "3d/bands.h"

#define PF(reg) SIM_PFIFO(s, reg)

#define SEM_VALID      (1u << 0)
#define SEM_ACQUIRE    (1u << 1)
#define SEM_OFFSET(v)  ((v) & 0xffcu)
#define SEM_INST(v)    ((v) >> 12 << 4)
#define SEM_WORD(inst) (((inst) >> 4) << 12)

#define TIMESLICE_MASK 0x1ffffu
#define SLICE_CLOCK_WORDS 16u       /* words between readings of the slice's clock */
#define INST_MASK      0xfffffu     /* 20-bit instance >> 4 fields */

static const struct {
	uint16_t off;
	uint32_t reg, mask;
} sim_ramfc[] = {
#define SIM_RAMFC_ROW_(o, r, b) { o, r, NV40_RAMFC_MASK(b) },
	NV40_RAMFC(SIM_RAMFC_ROW_)
#undef SIM_RAMFC_ROW_
};
#define SIM_NRAMFC (sizeof(sim_ramfc) / sizeof(sim_ramfc[0]))

static int ramfc_off(uint32_t reg)
{
	switch (reg) {
#define SIM_RAMFC_CASE_(o, r, b) case r: return o;
	NV40_RAMFC(SIM_RAMFC_CASE_)
#undef SIM_RAMFC_CASE_
	}
	return -1;
}

static uint32_t ramfc_base(struct sim *s, unsigned chid)
{
	return NV40_PFIFO_RAMFC_ADDR(PF(NV_PFIFO_RAMFC)) + chid * NV40_RAMFC_SIZE;
}

/* The channel PFIFO holds, NV40_FIFO_CHID_NONE when none. */
static unsigned cur_chid(struct sim *s)
{
	unsigned c = NV_PFIFO_CACHE1_PUSH1_CHID(PF(NV_PFIFO_CACHE1_PUSH1));
	return c < NV40_FIFO_CHID_NONE ? c : NV40_FIFO_CHID_NONE;
}

static int chan_in_mode(struct sim *s, unsigned chid)
{
	return chid < NV40_FIFO_CHID_NONE && (PF(NV_PFIFO_MODE) >> chid & 1);
}

/* A channel register: live if the channel is current, else its RAMFC word. */
static uint32_t chan_rd(struct sim *s, unsigned chid, uint32_t reg)
{
	if (chid < NV40_FIFO_CHID_NONE && chid == cur_chid(s))
		return PF(reg);
	int off = ramfc_off(reg);
	return off < 0 ? 0 : sim_ramin_rd32(s, ramfc_base(s, chid) + (uint32_t)off);
}

static void chan_wr(struct sim *s, unsigned chid, uint32_t reg, uint32_t val)
{
	if (chid < NV40_FIFO_CHID_NONE && chid == cur_chid(s)) {
		PF(reg) = val;
		return;
	}
	int off = ramfc_off(reg);
	if (off >= 0)
		sim_ramin_wr32(s, ramfc_base(s, chid) + (uint32_t)off, val);
}

static void ramfc_save(struct sim *s, unsigned chid)
{
	uint32_t base = ramfc_base(s, chid);
	for (unsigned i = 0; i < SIM_NRAMFC; i++)
		sim_ramin_wr32(s, base + sim_ramfc[i].off, PF(sim_ramfc[i].reg) & sim_ramfc[i].mask);
}

static void ramfc_load(struct sim *s, unsigned chid)
{
	uint32_t base = ramfc_base(s, chid);
	for (unsigned i = 0; i < SIM_NRAMFC; i++)
		PF(sim_ramfc[i].reg) = sim_ramin_rd32(s, base + sim_ramfc[i].off) & sim_ramfc[i].mask;
}

static int cache1_empty(struct sim *s)
{
	return PF(NV_PFIFO_CACHE1_GET) == PF(NV_PFIFO_CACHE1_PUT);
}

/* ---- semaphores ---- */

/* The semaphore word, NULL when the ctxdma does not give it. */
static uint8_t *sem_map(struct sim *s, uint32_t sem, int write)
{
	if (!(sem & SEM_VALID))
		return NULL;
	return sim_dma_map(s, SEM_INST(sem), SEM_OFFSET(sem), 4, write);
}

/* A waiting acquire is satisfied?  A semaphore that no longer maps keeps
 * the channel waiting: the host has to notice and tear it down.  For the
 * access oracle the read is the ACQUIRE's, the word before the channel's
 * DMA_GET. */
static int sem_acquired(struct sim *s, unsigned chid, uint32_t sem, uint32_t value)
{
	struct sim_oracle_ctx keep = s->orc_ctx;
	uint32_t st = chan_rd(s, chid, NV_PFIFO_CACHE1_DMA_STATE);

	s->orc_ctx = (struct sim_oracle_ctx){ chid, NV_DMA_STATE_SUBC(st), NV_FIFO_SEMAPHORE_ACQUIRE,
					      chan_rd(s, chid, NV_PFIFO_CACHE1_DMA_GET) - 4, 0,
					      keep.defer };
	const uint8_t *p = sem_map(s, sem, 0);
	s->orc_ctx = keep;
	return p && nv_rd32le(p) == value;
}

/* ---- scheduling state ---- */

enum chan_state {
	CH_IDLE,      /* nothing to do (or not a channel) */
	CH_ACQUIRE,   /* waiting on a semaphore: another channel may run */
	CH_HALTED,    /* pusher error, waiting for the host */
	CH_READY,
};

static enum chan_state chan_state(struct sim *s, unsigned chid)
{
	if (!chan_in_mode(s, chid))
		return CH_IDLE;
	if (NV_DMA_STATE_ERROR(chan_rd(s, chid, NV_PFIFO_CACHE1_DMA_STATE)))
		return CH_HALTED;
	uint32_t sem = chan_rd(s, chid, NV_PFIFO_CACHE1_SEMAPHORE);
	if (sem & SEM_ACQUIRE)
		return sem_acquired(s, chid, sem, chan_rd(s, chid, NV_PFIFO_CACHE1_ACQUIRE_VALUE)) ?
			CH_READY : CH_ACQUIRE;
	if (chan_rd(s, chid, NV_PFIFO_CACHE1_DMA_GET) != chan_rd(s, chid, NV_PFIFO_CACHE1_DMA_PUT))
		return CH_READY;
	PF(NV_PFIFO_DMA) &= ~(1u << chid);
	return CH_IDLE;
}

static int pfifo_enabled(struct sim *s)
{
	return (s->pmc_enable & NV_PMC_UNIT_PFIFO) &&
	       (PF(NV_PFIFO_CACHES) & NV_PFIFO_CACHES_REASSIGN) &&
	       (PF(NV_PFIFO_CACHE1_PUSH0) & NV_PFIFO_CACHE1_PUSH0_ACCESS) &&
	       (PF(NV_PFIFO_CACHE1_PULL0) & NV_PULL0_ACCESS) &&
	       (PF(NV_PFIFO_CACHE1_DMA_PUSH) & NV_PFIFO_CACHE1_DMA_PUSH_ACCESS);
}

/* Round robin: the next ready channel after cur, -1 if none. */
static int pfifo_pick(struct sim *s, unsigned cur)
{
	for (unsigned i = 1; i < NV40_FIFO_CHANNELS; i++) {
		unsigned c = (cur + i) % NV40_FIFO_CHANNELS;
		if (c == cur)
			continue;
		enum chan_state st = chan_state(s, c);
		if (st == CH_READY)
			return (int)c;
		if (st == CH_ACQUIRE)
			s->acquire_waiting = 1;
	}
	return -1;
}

static void slice_start(struct sim *s)
{
	s->slice_used = 0;
	s->slice_t0 = sim_clock_ns();
	s->slice_pieces = s->pieces;
	s->yield = 0;
}

/* Whether the slice of slice_us microseconds is over (or a YIELD ended it). */
static int slice_over(struct sim *s, uint32_t slice_us)
{
	if (s->yield)
		return 1;
	if (s->slice_used % SLICE_CLOCK_WORDS && s->pieces == s->slice_pieces)
		return 0;
	s->slice_pieces = s->pieces;
	return sim_clock_ns() - s->slice_t0 >= (uint64_t)slice_us * 1000u;
}

static void pfifo_switch(struct sim *s, unsigned old, unsigned chid)
{
	/* A channel that is no longer in DMA mode was torn down: its RAMFC is
	 * the host's now, so it is not saved. */
	if (chan_in_mode(s, old))
		ramfc_save(s, old);
	ramfc_load(s, chid);
	PF(NV_PFIFO_CACHE1_PUSH1) = chid | NV_PFIFO_CACHE1_PUSH1_DMA;
	slice_start(s);
}

/* ---- puller ---- */

/* Stop the puller on the method at CACHE1_GET and tell the host why. */
static int cache_error(struct sim *s, uint32_t why)
{
	PF(NV_PFIFO_CACHE1_PULL0) = (PF(NV_PFIFO_CACHE1_PULL0) & ~NV_PULL0_ACCESS) | why;
	PF(NV_PFIFO_INTR) |= NV_PFIFO_INTR_CACHE_ERROR;
	return 1;
}

static int sem_error(struct sim *s)
{
	PF(NV_PFIFO_CACHE1_PULL0) &= ~NV_PULL0_ACCESS;
	PF(NV_PFIFO_INTR) |= NV_PFIFO_INTR_SEMAPHORE;
	return 1;
}

/* The FIFO's own methods.  0: done, 1: stalled (method stays in CACHE1). */
static int fifo_mthd(struct sim *s, unsigned chid, unsigned subc, uint32_t mthd, uint32_t data)
{
	uint32_t ctx, *sem = &PF(NV_PFIFO_CACHE1_SEMAPHORE);
	uint8_t *p;

	switch (mthd) {
	case NV_FIFO_OBJECT: {
		if (sim_ramht_find(s, chid, data, &ctx))
			return cache_error(s, NV_PULL0_HASH_FAILED);
		unsigned engine = NV40_RAMHT_CTX_ENGINE(ctx);
		if (engine == NV_ENGINE_GR) {
			if (!sim_pgraph_ready(s))
				return 1;
			sim_pgraph_bind(s, chid, subc, NV40_RAMHT_CTX_INST(ctx));
		}
		uint32_t *eng = &PF(NV_PFIFO_CACHE1_ENGINE);
		*eng = (*eng & ~(0xfu << subc * 4)) | (uint32_t)engine << subc * 4;
		return 0;
	}
	case NV_FIFO_REF_CNT:
		/* Engines finish each method synchronously: nothing to wait for. */
		PF(NV_PFIFO_CACHE1_REF) = data;
		return 0;
	case NV_FIFO_DMA_SEMAPHORE:
		if (sim_ramht_find(s, chid, data, &ctx))
			return cache_error(s, NV_PULL0_HASH_FAILED);
		*sem = SEM_OFFSET(*sem) | SEM_WORD(NV40_RAMHT_CTX_INST(ctx)) | SEM_VALID;
		return 0;
	case NV_FIFO_SEMAPHORE_OFFSET:
		if (data & ~0xffcu)
			return sem_error(s);
		*sem = (*sem & ~0xffcu) | data;
		return 0;
	case NV_FIFO_SEMAPHORE_ACQUIRE:
		p = sem_map(s, *sem, 0);
		if (!p)
			return sem_error(s);
		if (nv_rd32le(p) != data) {
			/* Consumed; the channel waits in SEMAPHORE/ACQUIRE_VALUE,
			 * which RAMFC saves, so others can run meanwhile. */
			PF(NV_PFIFO_CACHE1_ACQUIRE_VALUE) = data;
			*sem |= SEM_ACQUIRE;
		}
		return 0;
	case NV_FIFO_SEMAPHORE_RELEASE:
		p = sem_map(s, *sem, 1);
		if (!p)
			return sem_error(s);
		nv_wr32le(p, data);
		return 0;
	case NV_FIFO_YIELD:
		s->yield = 1;
		return 0;
	}
	return 0;      /* not reachable through the pusher, which filters */
}

static int pull_one(struct sim *s, unsigned chid, unsigned subc, uint32_t mthd, uint32_t data)
{
	s->orc_ctx.chid = chid;
	s->orc_ctx.subc = subc;
	s->orc_ctx.mthd = mthd;
	int gr = mthd >= NV_FIFO_MTHD_END && (PF(NV_PFIFO_CACHE1_ENGINE) >> subc * 4 & 0xf) == NV_ENGINE_GR;

	/* fragment work queued by the draw in progress ends unless this is more
	 * of its vertex data */
	sim_3d_sync_mthd(s, chid, subc, mthd, gr);
	if (mthd < NV_FIFO_MTHD_END)
		return fifo_mthd(s, chid, subc, mthd, data);
	if (!gr)
		return cache_error(s, NV_PULL0_DEVICE_SOFTWARE);
	if (!sim_pgraph_ready(s))
		return 1;
	if (s->brief && !sim_pgraph_state_only(s, subc, mthd)) {
		s->brief_stop = 1;
		return 1;        /* stays in CACHE1 for the worker */
	}
	if (mthd >= 0x180 && mthd < 0x200) {
		/* Object and ctxdma arguments: PGRAPH sees the instance. */
		uint32_t ctx;
		if (sim_ramht_find(s, chid, data, &ctx))
			return cache_error(s, NV_PULL0_HASH_FAILED);
		data = NV40_RAMHT_CTX_INST(ctx);
	}
	sim_pgraph_mthd(s, chid, subc, mthd, data);
	return 0;
}

/* Execute what CACHE1 holds.  Returns the number of methods retired. */
static unsigned pull(struct sim *s, unsigned chid)
{
	unsigned n = 0;

	while (!cache1_empty(s) && (PF(NV_PFIFO_CACHE1_PULL0) & NV_PULL0_ACCESS)) {
		uint32_t get = PF(NV_PFIFO_CACHE1_GET);
		uint32_t m = s->cache1_mthd[get >> 2];
		if (pull_one(s, chid, (m >> 13) & 7, m & 0x1ffc, s->cache1_data[get >> 2]))
			break;
		/* The host may have emptied CACHE1 between two pieces of a long
		 * method (its channel torn down): the slot is gone already, and
		 * GET moving on would make stale slots run again. */
		if (PF(NV_PFIFO_CACHE1_GET) == get)
			PF(NV_PFIFO_CACHE1_GET) = (get + 4) & NV_PFIFO_CACHE1_PTR_MASK;
		n++;
	}
	return n;
}

static void cache1_push(struct sim *s, unsigned subc, uint32_t mthd, uint32_t data)
{
	unsigned i = PF(NV_PFIFO_CACHE1_PUT) >> 2;

	s->cache1_mthd[i] = subc << 13 | mthd;
	s->cache1_data[i] = data;
	PF(NV_PFIFO_CACHE1_PUT) = (PF(NV_PFIFO_CACHE1_PUT) + 4) & NV_PFIFO_CACHE1_PTR_MASK;
}

/* ---- pusher ---- */

static void pusher_error(struct sim *s, unsigned code)
{
	uint32_t *st = &PF(NV_PFIFO_CACHE1_DMA_STATE);

	*st = (*st & ~(7u << NV_DMA_STATE_ERROR_SHIFT)) | code << NV_DMA_STATE_ERROR_SHIFT;
	PF(NV_PFIFO_INTR) |= NV_PFIFO_INTR_DMA_PUSHER;
}

/* Run the current channel's pusher for up to budget words.  Returns the
 * number of words read. */
static unsigned push(struct sim *s, unsigned chid, unsigned budget, uint32_t slice)
{
	uint32_t inst = (PF(NV_PFIFO_CACHE1_DMA_INSTANCE) & INST_MASK) << 4;
	const uint8_t *win = NULL;      /* push buffer words [win_start, win_end) */
	uint32_t win_start = 0, win_end = 0;
	unsigned n = 0;

	/* the host may have come in during a long method: it may have
	 * stopped the puller or taken the channel off.  The first word runs
	 * whatever the clock says: the caller renewed a slice that was over,
	 * and a clock tick since must not read as "no progress". */
	while (n < budget && (!n || !slice_over(s, slice)) && cache1_empty(s) &&
	       cur_chid(s) == chid && chan_in_mode(s, chid) && pfifo_enabled(s)) {
		uint32_t *state = &PF(NV_PFIFO_CACHE1_DMA_STATE);
		uint32_t *sem = &PF(NV_PFIFO_CACHE1_SEMAPHORE);
		uint32_t get = PF(NV_PFIFO_CACHE1_DMA_GET), put = PF(NV_PFIFO_CACHE1_DMA_PUT);

		if (NV_DMA_STATE_ERROR(*state))
			break;
		if (*sem & SEM_ACQUIRE) {
			if (!sem_acquired(s, chid, *sem, PF(NV_PFIFO_CACHE1_ACQUIRE_VALUE)))
				break;
			*sem &= ~SEM_ACQUIRE;
		}
		if (get == put)
			break;

		if (!win || get < win_start || get >= win_end) {
			/* Map up to the end of the page (paged ctxdmas are
			 * contiguous within one) or to PUT. */
			uint64_t end = ((uint64_t)get | 0xfff) + 1;
			if (put > get && put < end)
				end = put;
			s->orc_ctx.chid = chid;
			s->orc_ctx.pusher = 1;
			win = sim_dma_map(s, inst, get, end - get, 0);
			if (!win) {
				end = (uint64_t)get + 4;
				win = sim_dma_map(s, inst, get, 4, 0);
			}
			s->orc_ctx.pusher = 0;
			if (!win) {
				pusher_error(s, NV_DMA_ERR_MEM_FAULT);
				break;
			}
			win_start = get;
			win_end = (uint32_t)end;
			if (end > UINT32_MAX)
				win_end = UINT32_MAX;
		}
		uint32_t w = nv_rd32le(win + (get - win_start));

		if (NV_DMA_STATE_COUNT(*state)) {
			uint32_t mthd = NV_DMA_STATE_METHOD(*state);
			unsigned subc = NV_DMA_STATE_SUBC(*state);
			unsigned count = NV_DMA_STATE_COUNT(*state) - 1;
			int ni = *state & NV_DMA_STATE_NONINC;

			if (mthd < NV_FIFO_MTHD_END && !nv_mthd_find(nv_fifo_desc(), mthd, NULL)) {
				pusher_error(s, NV_DMA_ERR_INVALID_MTHD);
				break;
			}
			n++;
			s->slice_used++;
			PF(NV_PFIFO_CACHE1_DMA_GET) = get + 4;
			*state = (*state & ~NV_DMA_STATE_PACKET_MASK) |
				 NV_DMA_STATE(ni ? mthd : mthd + 4, subc, count, ni);
			s->orc_ctx.get = get;        /* the word's submission, for the oracle */
			cache1_push(s, subc, mthd, w);
			pull(s, chid);
			continue;
		}

		struct nv_cmd c = nv_cmd_decode(w);
		switch (c.type) {
		case NV_CMD_INC:
		case NV_CMD_NONINC:
			PF(NV_PFIFO_CACHE1_DMA_GET) = get + 4;
			*state = (*state & ~NV_DMA_STATE_PACKET_MASK) |
				 NV_DMA_STATE(c.mthd, c.subc, c.count, c.type == NV_CMD_NONINC);
			break;
		case NV_CMD_OLD_JUMP:
		case NV_CMD_JUMP:
			PF(NV_PFIFO_CACHE1_DMA_GET) = c.target;
			break;
		case NV_CMD_CALL:
			if (*state & NV_DMA_STATE_SUBR_ACTIVE) {
				pusher_error(s, NV_DMA_ERR_CALL_SUBR_ACTIVE);
				return n;
			}
			PF(NV_PFIFO_CACHE1_DMA_SUBROUTINE) = get + 4;
			*state |= NV_DMA_STATE_SUBR_ACTIVE;
			PF(NV_PFIFO_CACHE1_DMA_GET) = c.target;
			break;
		case NV_CMD_RETURN:
			if (!(*state & NV_DMA_STATE_SUBR_ACTIVE)) {
				pusher_error(s, NV_DMA_ERR_RET_SUBR_INACTIVE);
				return n;
			}
			*state &= ~NV_DMA_STATE_SUBR_ACTIVE;
			PF(NV_PFIFO_CACHE1_DMA_GET) = PF(NV_PFIFO_CACHE1_DMA_SUBROUTINE);
			break;
		case NV_CMD_INVALID:
			pusher_error(s, NV_DMA_ERR_INVALID_CMD);
			return n;
		}
		n++;
		s->slice_used++;
	}
	return n;
}

int sim_pfifo_work(struct sim *s, unsigned budget, unsigned long *words)
{
	int progress = 0;
	unsigned cur;
	enum chan_state st;

	s->acquire_waiting = 0;
	if (!pfifo_enabled(s))
		return 0;
	cur = cur_chid(s);
	if (!cache1_empty(s)) {
		if (!chan_in_mode(s, cur)) {
			/* Left over from a channel the host tore down. */
			PF(NV_PFIFO_CACHE1_GET) = PF(NV_PFIFO_CACHE1_PUT);
		} else {
			progress = pull(s, cur) > 0;
			if (!cache1_empty(s))
				return progress;     /* waiting for the host or PGRAPH */
		}
	}

	st = chan_state(s, cur);
	if (st == CH_HALTED)
		return progress;             /* the host acks the pusher error */
	uint32_t slice = PF(NV_PFIFO_DMA_TIMESLICE) & TIMESLICE_MASK;
	if (!slice)
		slice = 1;
	if (st != CH_READY || slice_over(s, slice)) {
		int next = pfifo_pick(s, cur);
		if (next >= 0) {
			pfifo_switch(s, cur, (unsigned)next);
			cur = (unsigned)next;
			st = CH_READY;
			slice = PF(NV_PFIFO_DMA_TIMESLICE) & TIMESLICE_MASK;
			if (!slice)
				slice = 1;
			progress = 1;
		} else {
			/* Nobody else waits: the slice starts again. */
			slice_start(s);
		}
	}
	if (st == CH_ACQUIRE)
		s->acquire_waiting = 1;
	if (st != CH_READY)
		return progress;

	uint32_t sem = PF(NV_PFIFO_CACHE1_SEMAPHORE), intr = PF(NV_PFIFO_INTR);
	unsigned n = push(s, cur, budget, slice);
	*words += n;
	return progress || n || sem != PF(NV_PFIFO_CACHE1_SEMAPHORE) ||
	       intr != PF(NV_PFIFO_INTR);
}

/* ---- MMIO ---- */

void sim_pfifo_reset(struct sim *s)
{
	memset(s->pfifo, 0, sizeof(s->pfifo));
	memset(s->cache1_mthd, 0, sizeof(s->cache1_mthd));
	memset(s->cache1_data, 0, sizeof(s->cache1_data));
	PF(NV_PFIFO_CACHE1_PUSH1) = NV40_FIFO_CHID_NONE | NV_PFIFO_CACHE1_PUSH1_DMA;
	PF(NV_PFIFO_DMA_TIMESLICE) = TIMESLICE_MASK;
	/* The kernel's init never sets DMA_PUSH access (only its pusher-error
	 * handler does), so it comes out of reset on. */
	PF(NV_PFIFO_CACHE1_DMA_PUSH) = NV_PFIFO_CACHE1_DMA_PUSH_ACCESS;
	slice_start(s);
}

uint32_t sim_pfifo_rd(struct sim *s, uint32_t reg)
{
	if (reg - NV_PFIFO_CACHE1_SLOTS_BASE < NV_PFIFO_CACHE1_SLOTS_SIZE) {
		unsigned i = (reg - NV_PFIFO_CACHE1_SLOTS_BASE) / 8;
		return reg == NV_PFIFO_CACHE1_DATA(i) ? s->cache1_data[i] : s->cache1_mthd[i];
	}
	switch (reg) {
	case NV_PFIFO_CACHE1_DMA_PUSH: {
		uint32_t v = PF(reg) & ~NV_PFIFO_CACHE1_DMA_PUSH_SUSPENDED;
		if (NV_DMA_STATE_ERROR(PF(NV_PFIFO_CACHE1_DMA_STATE)))
			v |= NV_PFIFO_CACHE1_DMA_PUSH_SUSPENDED;
		return v;
	}
	case NV_PFIFO_CACHE1_PULL0:
		return PF(reg) & ~NV_PULL0_HASH_BUSY;   /* lookups are instant */
	}
	return PF(reg);
}

void sim_pfifo_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	if (reg - NV_PFIFO_CACHE1_SLOTS_BASE < NV_PFIFO_CACHE1_SLOTS_SIZE) {
		unsigned i = (reg - NV_PFIFO_CACHE1_SLOTS_BASE) / 8;
		if (reg == NV_PFIFO_CACHE1_DATA(i))
			s->cache1_data[i] = val;
		else
			s->cache1_mthd[i] = val;
		return;
	}
	switch (reg) {
	case NV_PFIFO_INTR:
		PF(reg) &= ~val;
		return;
	case NV_PFIFO_CACHE1_DMA_PUT:
	case NV_PFIFO_CACHE1_DMA_GET:
	case NV_PFIFO_CACHE1_DMA_SUBROUTINE:
		val &= ~3u;
		break;
	case NV_PFIFO_CACHE1_PUT:
	case NV_PFIFO_CACHE1_GET:
		val &= NV_PFIFO_CACHE1_PTR_MASK;
		break;
	case NV_PFIFO_CACHE1_DMA_PUSH:
		val &= ~NV_PFIFO_CACHE1_DMA_PUSH_SUSPENDED;
		break;
	case NV_PFIFO_CACHE1_PUSH1:
		/* Makes chid current without saving or loading anything: how
		 * the host drops a channel. */
		slice_start(s);
		break;
	}
	PF(reg) = val;
}

/* USER area: a channel's PUT/GET/REF, live if current, else in RAMFC. */
uint32_t sim_user_rd(struct sim *s, uint32_t reg)
{
	unsigned chid = (reg - NV40_USER_BASE) / NV40_USER_SIZE;

	switch ((reg - NV40_USER_BASE) % NV40_USER_SIZE) {
	case NV40_USER_DMA_PUT:
		return chan_rd(s, chid, NV_PFIFO_CACHE1_DMA_PUT);
	case NV40_USER_DMA_GET:
		return chan_rd(s, chid, NV_PFIFO_CACHE1_DMA_GET);
	case NV40_USER_REF:
		return chan_rd(s, chid, NV_PFIFO_CACHE1_REF);
	case NV40_USER_DMA_CGET:
		if (chan_rd(s, chid, NV_PFIFO_CACHE1_DMA_STATE) & NV_DMA_STATE_SUBR_ACTIVE)
			return chan_rd(s, chid, NV_PFIFO_CACHE1_DMA_SUBROUTINE);
		return chan_rd(s, chid, NV_PFIFO_CACHE1_DMA_GET);
	}
	return 0;
}

void sim_user_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	unsigned chid = (reg - NV40_USER_BASE) / NV40_USER_SIZE;

	switch ((reg - NV40_USER_BASE) % NV40_USER_SIZE) {
	case NV40_USER_DMA_PUT:
		chan_wr(s, chid, NV_PFIFO_CACHE1_DMA_PUT, val & ~3u);
		PF(NV_PFIFO_DMA) |= 1u << chid;
		return;
	case NV40_USER_DMA_GET:
		chan_wr(s, chid, NV_PFIFO_CACHE1_DMA_GET, val & ~3u);
		return;
	case NV40_USER_REF:
		chan_wr(s, chid, NV_PFIFO_CACHE1_REF, val);
		return;
	}
	/* DMA_CGET and the rest are read-only. */
}
