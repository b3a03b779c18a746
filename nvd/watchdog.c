/* The watchdog: a channel whose submission keeps the card busy for more
 * than --gpu-timeout of card time is stopped as silicon is recovered, and
 * only it is lost (ref memory-sched-recovery.md §3).
 *
 * Like drm_sched's timer it measures the oldest submission in flight, and
 * like i915's hangcheck it samples: every tick, the channel the card works
 * for (the one whose method PGRAPH is in, else the one PFIFO holds) has
 * its oldest submission charged the tick if the card was busy on it or its
 * ring position moved; the tick it is first seen in is charged whole, so
 * the charge never falls behind the card time and a runaway is stopped
 * within its limit, not a tick after (an honest client waiting behind it
 * waits at most what remains of the limit).  Time spent waiting behind
 * other channels is not charged, so a small submission queued behind a
 * runaway is innocent.
 * When the charge passes the limit the submission's status becomes -EIO
 * and the channel is lost with -EIO; nvd_fifo_chan_stop resets PGRAPH
 * through PMC if it is still in the channel's method.  Every other
 * channel's context is in its grctx image and goes on. */
#include "nvd/nvd.h"

#include <errno.h>
#include <event2/event.h>
#include <time.h>

#include "hw/regs.h"

#define WD_TICK_MIN_MS 5
#define WD_TICK_MAX_MS 64       /* a submission is charged at most this much early */

static unsigned wd_tick_ms(const struct nvd *d)
{
	unsigned ms = d->o.gpu_timeout_ms / 32;
	return ms < WD_TICK_MIN_MS ? WD_TICK_MIN_MS : ms > WD_TICK_MAX_MS ? WD_TICK_MAX_MS : ms;
}

static void wd_fire(struct nvd *d, struct nvd_chan *ch, uint32_t seq)
{
	struct nvd_card *c = d->card;
	uint32_t addr = nvd_rd32(c, NV_PGRAPH_TRAPPED_ADDR);
	uint32_t mthd = 0, cls = 0;

	/* the method PGRAPH is in, or the last one it ran for the channel */
	if (NV_PGRAPH_TRAPPED_ADDR_CHID(addr) == ch->chid) {
		mthd = NV_PGRAPH_TRAPPED_ADDR_MTHD(addr);
		cls = NV_PGRAPH_CTX_CACHE1_CLASS(
			nvd_rd32(c, NV_PGRAPH_CTX_CACHE1(NV_PGRAPH_TRAPPED_ADDR_SUBC(addr))));
	}
	nvd_clog(ch->cl, ch, "watchdog: submission %u: method 0x%04x of class 0x%04x ran for "
		 "%llu ms: stopped", seq, mthd, cls,
		 (unsigned long long)(ch->wd_busy_ns / 1000000u));
	__atomic_store_n(&ch->fence->status[seq % NVD_FENCE_STATUS], -EIO, __ATOMIC_RELAXED);
	nvd_chan_lose(ch, -EIO, "its work ran past --gpu-timeout");
}

static void wd_tick(evutil_socket_t fd, short what, void *arg)
{
	struct nvd *d = arg;
	uint64_t now = nvd_now_ns(), dt = now - d->wd_last_ns;
	(void)fd;
	(void)what;

	d->wd_last_ns = now;
	int chid = nvd_fifo_gr_running(d), busy = chid >= 0;
	if (!busy)
		chid = (int)(nvd_rd32(d->card, NV_PFIFO_CACHE1_PUSH1) & 0x1f);
	struct nvd_chan *ch = chid < NV40_FIFO_CHANNELS ? d->chid[chid] : NULL;
	if (!ch || ch->lost || !ch->if_count)
		return;
	/* the live pusher registers are the current channel's */
	uint32_t get = nvd_rd32(d->card, NV_PFIFO_CACHE1_DMA_GET);
	uint32_t seq = ch->inflight[ch->if_head].seq;
	if (seq != ch->wd_seq) {
		/* started within the last tick (or the loop was late): one tick */
		uint64_t tick = wd_tick_ms(d) * 1000000ull;
		ch->wd_seq = seq;
		ch->wd_busy_ns = dt < tick ? dt : tick;
	} else if (busy || get != ch->wd_get) {
		ch->wd_busy_ns += dt;
	}
	ch->wd_get = get;
	if (ch->wd_busy_ns >= (uint64_t)d->o.gpu_timeout_ms * 1000000u)
		wd_fire(d, ch, seq);
}

int nvd_watchdog_start(struct nvd *d)
{
	if (!d->o.gpu_timeout_ms)
		return 0;
	unsigned ms = wd_tick_ms(d);
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	d->watchdog = event_new(d->base, -1, EV_PERSIST, wd_tick, d);
	if (!d->watchdog || event_add(d->watchdog, &tv) < 0)
		return -ENOMEM;
	d->wd_last_ns = nvd_now_ns();
	return 0;
}

void nvd_watchdog_stop(struct nvd *d)
{
	if (d->watchdog)
		event_free(d->watchdog);
	d->watchdog = NULL;
}
