/* Order between channels, as the kernel's implicit fence sync gives it.
 *
 * Entries are taken oldest first across channels, by the time their
 * client published them (a stamp in the entry: a client that learnt of
 * another's submission, through a DRI2 reply say, published after it).
 * A client that lies about the time only reorders itself against those it
 * shares buffers with; the rules below still hold.
 *
 * An entry is taken (copied into its channel's ring) only when no other
 * channel's submission in flight writes a buffer it lists, or, when it
 * writes the buffer, uses it at all: the X server's blit from a GL
 * client's back buffer waits for the frame, the client's next frame waits
 * for the blit.  What is in flight is on the card, so such a wait ends.
 *
 * An entry that waits (for buffers, or for room in its ring) keeps its
 * place: it holds back the later entries of other channels that conflict
 * with it on a buffer it lists (the client that got its swap reply must
 * not overtake the blit still waiting for its last frame).  Older waits go
 * first, so waits never form a cycle. */
#include "nvd/nvd.h"

#include <stdlib.h>

static void busy(struct nvd_bo *bo, uint32_t access, int delta)
{
	if (access & NVD_ACCESS_READ)
		bo->busy_read += delta;
	if (access & NVD_ACCESS_WRITE)
		bo->busy_write += delta;
}

void nvd_sync_hold(struct nvd_chan *ch, struct nvd_bo *bo, uint32_t access)
{
	if (!bo->busy_read && !bo->busy_write)
		bo->busy_chan = ch;
	else if (bo->busy_chan != ch)
		bo->busy_chan = NVD_CHAN_MANY;
	busy(bo, access, 1);
}

int nvd_sync_release(struct nvd_bo *bo, uint32_t access)
{
	busy(bo, access, -1);
	if (bo->busy_read || bo->busy_write)
		return 0;
	bo->busy_chan = NULL;
	return 1;
}

/* What ch, with access, must leave to others first on bo. */
static int conflicts(const struct nvd_chan *ch, const struct nvd_bo *bo, uint32_t access)
{
	int write = (access & NVD_ACCESS_WRITE) != 0;
	if (bo->busy_chan && bo->busy_chan != ch && (write || bo->busy_write))
		return 1;
	const struct nvd_chan *w = bo->waiter;
	return w && w != ch && (write || bo->waiter_write) &&
	       (!ch->stall_stamp || w->stall_stamp < ch->stall_stamp);
}

int nvd_sync_wait(struct nvd_chan *ch, struct nvd_bo *const *bos, const struct nvd_submit_bo *sb,
		  unsigned n)
{
	unsigned i;
	for (i = 0; i < n && !conflicts(ch, bos[i], sb[i].access); i++)
		;
	if (i == n)
		return 0;
	nvd_log(2, "client %u chan %u waits for buffer %u, in use on another channel", ch->cl->id,
		ch->id, sb[i].handle);
	nvd_sync_stall(ch, bos, sb, n);
	return 1;
}

/* Let go of what ch's waiting entry holds back. */
static void unmark(struct nvd_chan *ch)
{
	for (unsigned i = 0; i < ch->nmarked; i++) {
		if (ch->marked[i]->waiter == ch)
			ch->marked[i]->waiter = NULL;
		nvd_bo_unref(ch->cl->d, ch->marked[i]);
	}
	ch->nmarked = 0;
}

void nvd_sync_stall(struct nvd_chan *ch, struct nvd_bo *const *bos, const struct nvd_submit_bo *sb,
		    unsigned n)
{
	if (!ch->stall_stamp)
		ch->stall_stamp = ++ch->cl->d->stall_clock;
	if (!ch->marked && !(ch->marked = malloc(NVD_SUBMIT_MAX_BOS * sizeof(*ch->marked))))
		return;   /* waits all the same, only without holding others back */
	/* The entry is read from shared memory again at every look, and an
	 * older waiter may have taken a mark and let it go since: the marks
	 * are made anew from this list (each bo in it is held by a handle, so
	 * none goes here), never more than the list has. */
	unmark(ch);
	for (unsigned i = 0; i < n && ch->nmarked < NVD_SUBMIT_MAX_BOS; i++) {
		struct nvd_bo *bo = bos[i];
		int write = (sb[i].access & NVD_ACCESS_WRITE) != 0;
		if (bo->waiter == ch) {
			bo->waiter_write |= write;
			continue;
		}
		if (bo->waiter && bo->waiter->stall_stamp < ch->stall_stamp)
			continue;
		bo->waiter = ch;   /* a younger waiter yields: it looks again when woken */
		bo->waiter_write = write;
		nvd_bo_ref(bo);
		ch->marked[ch->nmarked++] = bo;
	}
}

void nvd_sync_taken(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;
	if (!ch->stall_stamp)
		return;
	unmark(ch);
	ch->stall_stamp = 0;
	d->sync_released = 1;
}
