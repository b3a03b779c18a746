/* Channels: objects, the submit ring and fences. */
#include "client/priv.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

_Static_assert(NVC_HANDLE_NVD_FIRST == NVD_HANDLE_DAEMON_FIRST &&
	       NVC_HANDLE_NVD_LAST == NVD_HANDLE_DAEMON_LAST, "one range of daemon handles");

int nvc_chan_new(struct nvc *c, struct nvc_chan **out)
{
	struct nvd_req_chan_new rq = { 0 };
	struct nvc_chan *ch;
	int fds[4], ret;

	*out = NULL;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return nvc_fail(-ENOMEM, "out of memory");
	ret = nvc_call(c, NVD_MSG_CHAN_NEW, &rq, &ch->info, fds);
	if (ret < 0) {
		free(ch);
		return ret;
	}
	ch->c = c;
	ch->ring_fd = fds[0];
	ch->fence_fd = fds[1];
	ch->doorbell = fds[2];
	ch->fence_ev = fds[3];
	void *ring = mmap(NULL, NVD_RING_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, ch->ring_fd, 0);
	void *fence = mmap(NULL, NVD_FENCE_PAGE_SIZE, PROT_READ, MAP_SHARED, ch->fence_fd, 0);
	if (ring == MAP_FAILED || fence == MAP_FAILED || ch->info.ring_size != NVD_RING_SIZE) {
		ret = nvc_fail(-EPROTO, "nvc_chan_new: cannot map the channel's rings");
		if (ring != MAP_FAILED)
			munmap(ring, NVD_RING_SIZE);
		if (fence != MAP_FAILED)
			munmap(fence, NVD_FENCE_PAGE_SIZE);
		ch->ctl = NULL;
		ch->fence = NULL;
		goto fail;
	}
	ch->ctl = ring;
	ch->ring = (uint8_t *)ring + NVD_RING_CTL_SIZE;
	ch->fence = fence;
	ch->head = __atomic_load_n(&ch->ctl->head, __ATOMIC_ACQUIRE);
	ch->seq = __atomic_load_n(&ch->fence->consumed, __ATOMIC_ACQUIRE);
	ch->err_scan = ch->seq;
	pthread_mutex_init(&ch->submit_lock, NULL);
	pthread_mutex_init(&ch->wait_lock, NULL);
	pthread_mutex_init(&ch->err_lock, NULL);
	pthread_mutex_lock(&c->lock);
	ch->next = c->chans;
	c->chans = ch;
	pthread_mutex_unlock(&c->lock);
	*out = ch;
	return 0;
fail: {
	struct nvd_req_chan_free f = { ch->info.chan };
	struct nvd_rep_none r;
	nvc_call(c, NVD_MSG_CHAN_FREE, &f, &r, NULL);
	for (int i = 0; i < 4; i++)
		close(fds[i]);
	free(ch);
	return ret;
	}
}

int nvc_chan_free(struct nvc_chan *ch)
{
	struct nvc *c;
	int ret;

	if (!ch)
		return 0;
	c = ch->c;
	struct nvd_req_chan_free rq = { ch->info.chan };
	struct nvd_rep_none r;
	ret = nvc_call(c, NVD_MSG_CHAN_FREE, &rq, &r, NULL);
	pthread_mutex_lock(&c->lock);
	for (struct nvc_chan **p = &c->chans; *p; p = &(*p)->next)
		if (*p == ch) {
			*p = ch->next;
			break;
		}
	pthread_mutex_unlock(&c->lock);
	munmap(ch->ctl, NVD_RING_SIZE);
	munmap((void *)ch->fence, NVD_FENCE_PAGE_SIZE);
	close(ch->ring_fd);
	close(ch->fence_fd);
	close(ch->doorbell);
	close(ch->fence_ev);
	pthread_mutex_destroy(&ch->submit_lock);
	pthread_mutex_destroy(&ch->wait_lock);
	pthread_mutex_destroy(&ch->err_lock);
	free(ch);
	return ret;
}

uint32_t nvc_chan_vram_dma(const struct nvc_chan *ch) { return ch->info.vram_handle; }
uint32_t nvc_chan_gart_dma(const struct nvc_chan *ch) { return ch->info.gart_handle; }
uint32_t nvc_chan_moves(const struct nvc_chan *ch)
{
	return __atomic_load_n(&ch->fence->moved, __ATOMIC_ACQUIRE);
}

int nvc_obj_new(struct nvc_chan *ch, uint32_t handle, uint32_t cls)
{
	struct nvd_req_obj_new rq = { ch->info.chan, handle, cls };
	struct nvd_rep_none r;
	return nvc_call(ch->c, NVD_MSG_OBJ_NEW, &rq, &r, NULL);
}

int nvc_obj_free(struct nvc_chan *ch, uint32_t handle)
{
	struct nvd_req_obj_free rq = { ch->info.chan, handle };
	struct nvd_rep_none r;
	return nvc_call(ch->c, NVD_MSG_OBJ_FREE, &rq, &r, NULL);
}

int nvc_dma_new(struct nvc_chan *ch, uint32_t handle, struct nvc_bo *bo, uint64_t offset,
		uint64_t size, unsigned cls, unsigned access)
{
	struct nvd_req_dma_new rq = { .chan = ch->info.chan, .handle = handle, .bo = bo->handle,
				      .cls = cls, .access = access, .offset = offset, .size = size };
	struct nvd_rep_none r;
	return nvc_call(ch->c, NVD_MSG_DMA_NEW, &rq, &r, NULL);
}

/* ---- fences ---- */

static inline void nvc_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

static int nvc_seq_passed(uint32_t a, uint32_t b) /* a >= b, wrapping */
{
	return (int32_t)(a - b) >= 0;
}

int nvc_fence_done(struct nvc_chan *ch, uint32_t fence)
{
	return nvc_seq_passed(__atomic_load_n(&ch->fence->completed, __ATOMIC_ACQUIRE), fence);
}

static int64_t nvc_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int nvc_fence_result(struct nvc_chan *ch, uint32_t fence)
{
	int32_t st = __atomic_load_n(&ch->fence->status[fence % NVD_FENCE_STATUS], __ATOMIC_ACQUIRE);
	if (st < 0)
		return nvc_fail(st, "nvd refused submission %u: %s", fence, strerror(-st));
	return 0;
}

/* The channel's fence page says it is lost: -ENODEV, or -ENOTCONN when
 * nvd went (its goodbye marks every channel -ESHUTDOWN). */
static int nvc_chan_lost(struct nvc_chan *ch, int32_t lost)
{
	if (lost != -ESHUTDOWN)
		return nvc_fail(-ENODEV, "nvd channel lost: %s", strerror(-lost));
	/* its goodbye follows on the socket, then the close */
	struct pollfd p = { ch->c->sock, 0, 0 };
	poll(&p, 1, 100);
	int r = nvc_poll_gone(ch->c);
	return r ? r : nvc_gone(ch->c, "nvd is shutting down");
}

/* Sleep until the daemon signals the channel (or deadline): 0, -ETIMEDOUT,
 * or -ENOTCONN when nvd has gone (its socket hangs up: no signal comes). */
static int nvc_sleep(struct nvc_chan *ch, int64_t deadline)
{
	int ms = -1;
	if (deadline >= 0) {
		int64_t left = deadline - nvc_now_ns();
		if (left <= 0)
			return -ETIMEDOUT;
		ms = (int)((left + 999999) / 1000000);
	}
	struct pollfd p[2] = { { ch->fence_ev, POLLIN, 0 }, { ch->c->sock, 0, 0 } };
	if (poll(p, 2, ms) > 0) {
		uint64_t v;
		if (p[1].revents)
			return nvc_poll_gone(ch->c);
		if (read(ch->fence_ev, &v, sizeof(v)) < 0 && errno != EAGAIN)
			return -errno;
	}
	return nvc_check_gone(ch->c);
}

/* Wait until *seqp passes fence: a completed fence wakes the sleeper
 * (the daemon signals it); a taken one does not, so that wait looks every
 * millisecond. */
static int nvc_seq_wait(struct nvc_chan *ch, const uint32_t *seqp, uint32_t fence,
			int64_t timeout_ns)
{
	int64_t deadline = timeout_ns < 0 ? -1 : nvc_now_ns() + timeout_ns;
	int signalled = seqp == &ch->fence->completed;

	/* The card usually answers within microseconds: look before sleeping. */
	for (int spin = 0; spin < 2000; spin++) {
		if (nvc_seq_passed(__atomic_load_n(seqp, __ATOMIC_ACQUIRE), fence))
			return 0;
		if (__atomic_load_n(&ch->fence->lost, __ATOMIC_ACQUIRE))
			break;
		nvc_cpu_relax();
	}
	pthread_mutex_lock(&ch->wait_lock);
	for (;;) {
		if (nvc_seq_passed(__atomic_load_n(seqp, __ATOMIC_ACQUIRE), fence)) {
			pthread_mutex_unlock(&ch->wait_lock);
			return 0;
		}
		int32_t lost = __atomic_load_n(&ch->fence->lost, __ATOMIC_ACQUIRE);
		if (lost) {
			pthread_mutex_unlock(&ch->wait_lock);
			return nvc_chan_lost(ch, lost);
		}
		int64_t until = signalled ? deadline : nvc_now_ns() + 1000000;
		if (!signalled && deadline >= 0 && deadline < until)
			until = deadline;
		int r = nvc_sleep(ch, until);
		if (r == -ETIMEDOUT && !signalled && (deadline < 0 || nvc_now_ns() < deadline))
			r = 0;
		if (r < 0) {
			pthread_mutex_unlock(&ch->wait_lock);
			return r == -ENOTCONN ? r : nvc_fail(r, "fence %u: %s", fence, strerror(-r));
		}
	}
}

int nvc_fence_wait(struct nvc_chan *ch, uint32_t fence, int64_t timeout_ns)
{
	int r = nvc_seq_wait(ch, &ch->fence->completed, fence, timeout_ns);
	return r < 0 ? r : nvc_fence_result(ch, fence);
}

int nvc_fence_taken(struct nvc_chan *ch, uint32_t fence, int64_t timeout_ns)
{
	return nvc_seq_wait(ch, &ch->fence->consumed, fence, timeout_ns);
}

/* The daemon writes a submission's status when it takes it (a refusal)
 * and before its fence completes (a fault on the card), then publishes
 * consumed or completed: a status read after those is the one it wrote.
 * One that is not final yet (taken, not completed) may still turn into a
 * fault; once reported it is marked told, until err_scan passes it. */
int nvc_chan_error(struct nvc_chan *ch, uint32_t *fence)
{
	int err = 0;
	*fence = 0;
	pthread_mutex_lock(&ch->err_lock);
	uint32_t completed = __atomic_load_n(&ch->fence->completed, __ATOMIC_ACQUIRE);
	uint32_t consumed = __atomic_load_n(&ch->fence->consumed, __ATOMIC_ACQUIRE);
	if (consumed - ch->err_scan >= NVD_FENCE_STATUS) {
		/* not asked for a long time: the oldest statuses are overwritten */
		ch->err_scan = consumed - (NVD_FENCE_STATUS - 1);
		memset(ch->err_told, 0, sizeof(ch->err_told));
	}
	for (uint32_t s = ch->err_scan + 1; !err && nvc_seq_passed(consumed, s); s++) {
		unsigned slot = s % NVD_FENCE_STATUS;
		uint8_t bit = (uint8_t)(1u << (slot % 8)), *told = &ch->err_told[slot / 8];
		int32_t st = __atomic_load_n(&ch->fence->status[slot], __ATOMIC_ACQUIRE);
		if (st < 0 && !(*told & bit)) {
			err = st;
			*fence = s;
			*told |= bit;
		}
		if (s == ch->err_scan + 1 && nvc_seq_passed(completed, s)) {
			ch->err_scan = s;   /* final: never looked at again */
			*told &= (uint8_t)~bit;
		}
	}
	int32_t lost = __atomic_load_n(&ch->fence->lost, __ATOMIC_ACQUIRE);
	int gone = __atomic_load_n(&ch->c->gone, __ATOMIC_ACQUIRE);
	if (!err && !ch->lost_told && (lost || gone)) {
		ch->lost_told = 1;
		err = lost && lost != -ESHUTDOWN ? -ENODEV : -ENOTCONN;
	}
	pthread_mutex_unlock(&ch->err_lock);
	if (err == -ENOTCONN)
		return gone ? nvc_check_gone(ch->c) : nvc_chan_lost(ch, lost);
	if (err)
		return nvc_fail(err, "%s", err == -ENODEV ? "nvd channel lost" : strerror(-err));
	return 0;
}

/* ---- submission ---- */

int nvc_submit(struct nvc_chan *ch, const struct nvc_submission *s, uint32_t *fence)
{
	uint32_t size, pos, pad, seq;

	if (s->nr_bos > NVD_SUBMIT_MAX_BOS || s->nr_push > NVD_SUBMIT_MAX_PUSH ||
	    s->nr_relocs > NVD_SUBMIT_MAX_RELOCS)
		return nvc_fail(-E2BIG, "nvc_submit: too many buffers, push ranges or relocations");
	size = nvd_submit_size(s->nr_bos, s->nr_push, s->nr_relocs);
	int gone = nvc_check_gone(ch->c);
	if (gone)
		return gone;
	pthread_mutex_lock(&ch->submit_lock);
	seq = ch->seq + 1;
	pos = ch->head % NVD_RING_DATA_SIZE;
	pad = pos + size > NVD_RING_DATA_SIZE ? NVD_RING_DATA_SIZE - pos : 0;
	/* Room in the ring, and fewer submissions in flight than status slots. */
	for (;;) {
		int32_t lost = __atomic_load_n(&ch->fence->lost, __ATOMIC_ACQUIRE);
		if (lost) {
			pthread_mutex_unlock(&ch->submit_lock);
			return nvc_chan_lost(ch, lost);
		}
		uint32_t tail = __atomic_load_n(&ch->ctl->tail, __ATOMIC_ACQUIRE);
		uint32_t done = __atomic_load_n(&ch->fence->completed, __ATOMIC_ACQUIRE);
		if (ch->head - tail + pad + size <= NVD_RING_DATA_SIZE &&
		    seq - done < NVD_FENCE_STATUS - 1)
			break;
		int w = nvc_sleep(ch, nvc_now_ns() + 1000000);
		if (w < 0 && w != -ETIMEDOUT) {
			pthread_mutex_unlock(&ch->submit_lock);
			return w == -ENOTCONN ? w : nvc_fail(w, "nvc_submit: %s", strerror(-w));
		}
	}
	if (pad) {
		struct nvd_submit_hdr p = { .size = pad, .flags = NVD_SUBMIT_PAD };
		if (pad >= sizeof(p))
			memcpy(ch->ring + pos, &p, sizeof(p));
		ch->head += pad;
		pos = 0;
	}
	uint8_t *e = ch->ring + pos;
	/* The stamp orders this entry after everything published before it on
	 * any channel (the daemon takes entries oldest first). */
	struct nvd_submit_hdr h = { size, seq, s->nr_bos, s->nr_push, s->nr_relocs, 0,
				    (uint64_t)nvc_now_ns() };
	memcpy(e, &h, sizeof(h));
	struct nvd_submit_bo *b = (void *)(e + sizeof(h));
	for (unsigned i = 0; i < s->nr_bos; i++) {
		b[i].handle = s->bos[i].bo->handle;
		b[i].access = s->bos[i].access;
	}
	struct nvd_submit_push *p = (void *)(b + s->nr_bos);
	for (unsigned i = 0; i < s->nr_push; i++)
		p[i] = (struct nvd_submit_push){ s->push[i].bo, s->push[i].offset, s->push[i].length };
	struct nvd_submit_reloc *r = (void *)(p + s->nr_push);
	for (unsigned i = 0; i < s->nr_relocs; i++) {
		const struct nvc_reloc *q = &s->relocs[i];
		r[i] = (struct nvd_submit_reloc){ q->reloc_bo, q->offset, q->bo, q->flags, q->data,
						  q->vor, q->tor };
	}
	ch->head += size;
	ch->seq = seq;
	__atomic_store_n(&ch->ctl->head, ch->head, __ATOMIC_RELEASE);
	uint64_t one = 1;
	if (write(ch->doorbell, &one, sizeof(one)) < 0 && errno != EAGAIN) {
		pthread_mutex_unlock(&ch->submit_lock);
		return nvc_fail(-errno, "nvc_submit: doorbell: %s", strerror(errno));
	}
	pthread_mutex_unlock(&ch->submit_lock);
	if (fence)
		*fence = seq;
	return 0;
}
