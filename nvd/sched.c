/* The submission lifecycle.  Entries are taken from the clients' submit
 * rings oldest first across channels, as far as sync.c's order on shared
 * buffers allows; submit.c copies and validates each into its channel's
 * ring; the channels that took something are kicked; the card's fences
 * retire them, and retiring wakes what waited: BO_WAITs (wait.c), entries
 * held back for ring space or buffers, and requests parked behind their
 * client's submissions.  A channel's work ends here too, when the channel
 * is lost or closed. */
#include "nvd/nvd.h"

#include <errno.h>
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- requests parked behind their client's submissions ---- */

/* Entries published before the request are still in a ring, waiting for
 * the card to free space.  (A head the client moved back since counts as
 * taken: a client can only stall itself.) */
int nvd_sched_behind(const struct nvd_client *cl, const struct nvd_park *pk)
{
	for (unsigned i = 0; i < NVD_CLIENT_CHANS; i++) {
		const struct nvd_chan *ch = cl->chans[i];
		if (ch && !ch->lost && (int32_t)(pk->head[i] - ch->tail) > 0 &&
		    __atomic_load_n(&ch->ctl->head, __ATOMIC_ACQUIRE) != ch->tail)
			return 1;
	}
	return 0;
}

/* The channel took entries: the parked request may run, from the event
 * loop, where no caller is in the middle of a channel. */
void nvd_sched_unpark_soon(struct nvd_client *cl)
{
	if (cl->parked && !nvd_sched_behind(cl, cl->parked))
		event_active(cl->parked->resume, EV_TIMEOUT, 0);
}

int nvd_sched_request(struct nvd_client *cl, struct nvd_park *pk)
{
	for (unsigned i = 0; i < NVD_CLIENT_CHANS; i++) {
		struct nvd_chan *ch = cl->chans[i];
		if (!ch || !ch->fence)
			continue;
		/* The card's worker may have published fences whose interrupt
		 * the loop has not handled yet: the client has seen them, so
		 * its request finds them retired (a handle freed behind one
		 * is free again). */
		nvd_chan_fence(ch, __atomic_load_n(&ch->fence->completed, __ATOMIC_ACQUIRE));
		pk->head[i] = __atomic_load_n(&ch->ctl->head, __ATOMIC_ACQUIRE);
	}
	nvd_take(cl->d);
	return nvd_sched_behind(cl, pk);
}

/* ---- taking entries ---- */

/* The channel's next entry's header (PAD entries skipped): 1, or 0 when it
 * has none (or its ring is corrupt: then the channel is lost). */
static int chan_head(struct nvd_chan *ch, struct nvd_submit_hdr *h)
{
	while (!ch->lost) {
		uint32_t head = __atomic_load_n(&ch->ctl->head, __ATOMIC_ACQUIRE);
		uint32_t avail = head - ch->tail, pos = ch->tail % NVD_RING_DATA_SIZE;
		const char *bad = NULL;

		if (!avail)
			return 0;
		if (NVD_RING_DATA_SIZE - pos < sizeof(*h) && avail <= NVD_RING_DATA_SIZE &&
		    avail >= NVD_RING_DATA_SIZE - pos) {
			ch->tail += NVD_RING_DATA_SIZE - pos;   /* too short for an entry */
			__atomic_store_n(&ch->ctl->tail, ch->tail, __ATOMIC_RELEASE);
			continue;
		}
		if (avail > NVD_RING_DATA_SIZE || avail < sizeof(*h) || (avail & 7))
			bad = "the submit ring's head is out of range";
		else {
			memcpy(h, ch->sring + pos, sizeof(*h));
			if (h->size < sizeof(*h) || (h->size & 7) || h->size > avail ||
			    h->size > NVD_RING_DATA_SIZE - pos)
				bad = "a submit entry has an impossible size";
			else if (!(h->flags & NVD_SUBMIT_PAD) &&
				 (h->flags || h->seq != ch->seq + 1 || h->nr_bos > NVD_SUBMIT_MAX_BOS ||
				  h->nr_push > NVD_SUBMIT_MAX_PUSH ||
				  h->nr_relocs > NVD_SUBMIT_MAX_RELOCS ||
				  h->size != nvd_submit_size(h->nr_bos, h->nr_push, h->nr_relocs)))
				bad = "a submit entry is malformed (sequence, counts or size)";
			else if ((h->flags & NVD_SUBMIT_PAD) && h->size != NVD_RING_DATA_SIZE - pos)
				bad = "a pad entry does not reach the end of the ring";
		}
		if (bad) {
			nvd_chan_lose(ch, -EPROTO, bad);
			return 0;
		}
		if (!(h->flags & NVD_SUBMIT_PAD))
			return 1;
		ch->tail += h->size;
		__atomic_store_n(&ch->ctl->tail, ch->tail, __ATOMIC_RELEASE);
	}
	return 0;
}

/* Take that entry into the card's ring: 1, or 0 when it waits. */
static int chan_take(struct nvd_chan *ch, const struct nvd_submit_hdr *h)
{
	int r = nvd_submit(ch, h);
	if (r == 0)
		return 0;
	ch->seq = h->seq;
	__atomic_store_n(&ch->fence->consumed, h->seq, __ATOMIC_RELEASE);
	ch->tail += h->size;
	__atomic_store_n(&ch->ctl->tail, ch->tail, __ATOMIC_RELEASE);
	ch->took = 1;
	/* Lost before the card sees the refused entry's fence: the client
	 * must find the channel lost, not that fence completed. */
	if (r < 0)
		nvd_chan_lose(ch, -EPERM, "too many refused submissions");
	return 1;
}

/* Heavy channels queue work while their earlier work is still on the card
 * (a game, a flood); the others submit and wait (a client that submits
 * little), or are the master (the X server).  At most NVD_HEAVY_ON_CARD
 * heavy channels have work on the card at once (more drain first), and one
 * that has keeps adding only while no other heavy one waits to get on: the card's
 * timeslices then go round among few channels, and whoever submits
 * little finds its turn within a few slices however many flood the card.
 * A single heavy channel runs unbounded.  A channel is heavy from
 * when nvd sees an entry of it queued behind its own work in flight until
 * that work retires with nothing queued: facts nvd sees, not the entries'
 * stamps, which the client writes. */
static int chan_heavy(const struct nvd_chan *ch)
{
	return ch->cl->d->master != ch->cl && (ch->if_count || ch->heavy);
}

/* Its newest submission in flight is not done as far as its client can
 * tell: an entry queued now was queued behind work (the loop may not yet
 * have retired what the card's worker published). */
static int chan_behind_work(const struct nvd_chan *ch)
{
	if (!ch->if_count || !ch->fence)
		return 0;
	uint32_t last = ch->inflight[(ch->if_head + ch->if_count - 1) % NVD_FENCE_STATUS].seq;
	return (int32_t)(__atomic_load_n(&ch->fence->completed, __ATOMIC_ACQUIRE) - last) < 0;
}

/* A virtual channel's entry first gets it a hardware channel (vchan.c);
 * while the oldest entry waits for one, no younger one is taken. */
void nvd_take(struct nvd *d)
{
	if (d->taking) {
		d->take_again = 1;   /* a channel lost while taking: the loop looks again */
		return;
	}
	d->taking = 1;
	do {
		uint32_t pass = ++d->take_pass;
		d->take_again = d->sync_released = d->vchan_waiting = 0;
		for (;;) {
			struct nvd_chan *best = NULL;
			struct nvd_submit_hdr h, bh;
			unsigned on_card = 0, waiting = 0;
			for (struct nvd_chan *ch = d->chans; ch; ch = ch->all_next) {
				if (ch->lost)
					continue;
				if (chan_head(ch, &h)) {
					ch->heavy |= ch->cl->d->master != ch->cl && chan_behind_work(ch);
					waiting += !ch->if_count && ch->waited_pass != pass && ch->heavy;
				}
				on_card += ch->heavy && ch->if_count;
			}
			for (struct nvd_chan *ch = d->chans; ch; ch = ch->all_next) {
				if (ch->lost || ch->waited_pass == pass || !chan_head(ch, &h))
					continue;
				if (chan_heavy(ch) && (ch->if_count ? waiting || on_card > NVD_HEAVY_ON_CARD
								    : on_card >= NVD_HEAVY_ON_CARD))
					continue;
				if (!best || (int64_t)(h.stamp - bh.stamp) < 0) {
					best = ch;
					bh = h;
				}
			}
			if (!best || nvd_vchan_get(best) == -EBUSY)
				break;
			if (best->lost)
				continue;
			if (!chan_take(best, &bh))
				best->waited_pass = pass;
		}
	} while (d->take_again || d->sync_released);
	for (struct nvd_chan *ch = d->chans; ch; ch = ch->all_next) {
		if (!ch->took)
			continue;
		ch->took = 0;
		nvd_vchan_used(ch);
		if (!ch->lost)
			nvd_fifo_kick(d, ch);
		if (ch->cl->parked)
			nvd_sched_unpark_soon(ch->cl);
	}
	d->taking = 0;
}

/* ---- retiring ---- */

static void retire_one(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;
	struct nvd_inflight *f = &ch->inflight[ch->if_head];
	for (unsigned i = 0; i < f->nbos; i++) {
		struct nvd_bo *bo = f->bos[i].bo;
		if (nvd_sync_release(bo, f->bos[i].access))
			nvd_bo_idle(d, bo);
		nvd_bo_wake(d, bo);
		nvd_bo_unref(d, bo);
	}
	free(f->bos);
	f->bos = NULL;
	f->nbos = 0;
	ch->hw_free_from = f->ring_end;
	ch->if_head = (ch->if_head + 1) % NVD_FENCE_STATUS;
	ch->if_count--;
}

void nvd_fence_publish(struct nvd_fence_page *f, int ev, uint32_t seq)
{
	uint32_t old = __atomic_load_n(&f->completed, __ATOMIC_RELAXED);
	while ((int32_t)(seq - old) > 0)
		if (__atomic_compare_exchange_n(&f->completed, &old, seq, 0, __ATOMIC_RELEASE,
						__ATOMIC_RELAXED)) {
			uint64_t one = 1;
			if (write(ev, &one, sizeof(one)) < 0) {
				/* EAGAIN: the counter is saturated, the client wakes anyway */
			}
			return;
		}
}

/* The card ran the fence of submission seq: it is done with everything up to it. */
void nvd_chan_fence(struct nvd_chan *ch, uint32_t seq)
{
	if (!ch->if_count || (int32_t)(seq - ch->inflight[ch->if_head].seq) < 0)
		return;
	/* Published before retiring: retiring answers BO_WAITs, whose clients
	 * may look at the fence page at once. */
	ch->completed = seq;
	nvd_fence_publish(ch->fence, ch->fence_ev, seq);
	while (ch->if_count && (int32_t)(seq - ch->inflight[ch->if_head].seq) >= 0) {
		retire_one(ch);
		ch->cl->fences++;
		ch->cl->d->fences++;
	}
	if (!ch->if_count && __atomic_load_n(&ch->ctl->head, __ATOMIC_ACQUIRE) == ch->tail)
		ch->heavy = 0;
	if (ch->nhashed)
		nvd_obj_retired(ch);
	nvd_oracle_retire(ch, seq);
	/* Entries may be waiting for the ring space or the buffers this freed. */
	struct nvd *d = ch->cl->d;
	nvd_take(d);
	if (ch->cl->parked)
		nvd_sched_unpark_soon(ch->cl);
	if (d->pending_waits)
		nvd_waits_recheck(d);
}

/* The channel is stopped: nothing in flight will run. */
static void retire_all(struct nvd_chan *ch)
{
	while (ch->if_count)
		retire_one(ch);
}

/* ---- channels that end ---- */

/* The card runs the channel no more: what it had in flight retires, and
 * what it holds of the card goes back. */
static void chan_stop(struct nvd_chan *ch)
{
	nvd_fifo_chan_stop(ch->cl->d, ch);
	retire_all(ch);
	nvd_chan_release(ch);
}

void nvd_chan_tell_lost(struct nvd_chan *ch, int err)
{
	uint64_t one = 1;
	if (!ch->fence)
		return;
	__atomic_store_n(&ch->fence->lost, err, __ATOMIC_RELEASE);
	if (write(ch->fence_ev, &one, sizeof(one)) < 0) {
		/* the counter is already high: the client will wake */
	}
}

/* Stop the card running the channel and give back everything it holds; the
 * client keeps a dead channel whose fence page says why. */
void nvd_chan_lose(struct nvd_chan *ch, int err, const char *why)
{
	struct nvd *d = ch->cl->d;

	if (ch->lost)
		return;
	nvd_clog(ch->cl, ch, "channel lost: %s", why);
	ch->lost = err;
	/* Told before retiring: retiring answers BO_WAITs, and a client woken
	 * by one must not find the channel still open for a new submission. */
	nvd_chan_tell_lost(ch, err);
	chan_stop(ch);
	/* A request parked behind this channel's entries waits no more, nor
	 * do other channels' entries it held back. */
	nvd_sched_unpark_soon(ch->cl);
	nvd_take(d);
}

void nvd_chan_free(struct nvd_chan *ch)
{
	if (!ch->lost)
		chan_stop(ch);
	nvd_chan_delete(ch);
}
