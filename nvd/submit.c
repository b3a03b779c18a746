/* Submission: copy and validate an entry's push ranges into the channel's
 * private ring, relocated, and close it with the daemon's fence.  sched.c
 * decides which entry comes when and retires it. */
#include "nvd/nvd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/enums-3d.h"
#include "hw/pushbuf.h"
#include "hw/regs.h"

#define FENCE_WORDS 4   /* REF_CNT = seq; NVSW FENCE = seq */
#define JUMP_WORDS  1

/* Scratch for one entry: the arrays are copied out of shared memory once. */
static union {
	uint8_t b[NVD_SUBMIT_MAX_BOS * sizeof(struct nvd_submit_bo) +
		  NVD_SUBMIT_MAX_PUSH * sizeof(struct nvd_submit_push) +
		  NVD_SUBMIT_MAX_RELOCS * sizeof(struct nvd_submit_reloc)];
	uint64_t align;
} scratch;
/* The listed buffers, then (up to NVD_IMPLICIT_MAX) the client's other
 * buffers and those it closed since its last submission: Mesa names
 * buffers it lists only in a later submission when a flush falls between. */
#define NVD_IMPLICIT_MAX 4096
static struct nvd_vbo vbos[NVD_SUBMIT_MAX_BOS + NVD_IMPLICIT_MAX];
static struct nvd_bo *implicit[NVD_IMPLICIT_MAX];
static uint8_t implicit_used[NVD_IMPLICIT_MAX];
static uint32_t list_stamp;
static struct nvd_bo *bo_list[NVD_SUBMIT_MAX_BOS];
static uint32_t list_access[NVD_SUBMIT_MAX_BOS];   /* by a buffer's first entry: all its entries' */

/* nvd_validate into the ring at wptr, its time added to *ns. */
static long validate(struct nvd_chan *ch, const struct nvd_vsubmit *vs, uint32_t words,
		     struct nvd_verror *e, uint64_t *ns)
{
	uint64_t t0 = nvd_now_ns();
	long n = nvd_validate(ch->vs, vs, &ch->ring[ch->wptr / 4], words, e);
	*ns += nvd_now_ns() - t0;
	return n;
}

/* Contiguous bytes free at wptr, leaving room for a wrap JUMP.  The card is
 * done with everything before hw_free_from (or everything, when idle). */
static uint32_t ring_space(struct nvd_chan *ch)
{
	uint32_t end = ch->wptr >= ch->hw_free_from ? NVD_HW_RING_SIZE : ch->hw_free_from;
	uint32_t keep = ch->wptr >= ch->hw_free_from ? 4 * JUMP_WORDS : 4;
	return end - ch->wptr > keep ? end - ch->wptr - keep : 0;
}

/* Start again at the ring's beginning when that gives more room. */
static int ring_wrap(struct nvd_chan *ch)
{
	if (ch->wptr < ch->hw_free_from || ch->hw_free_from <= 4 || ch->wptr == 0)
		return 0;
	if (ch->hw_free_from - 4 <= ring_space(ch))
		return 0;
	nv_wr32le(&ch->ring[ch->wptr / 4], NV_CMD_JUMP_WORD(0));
	ch->wptr = 0;
	return 1;
}

static void put_fence(struct nvd_chan *ch, uint32_t seq)
{
	uint32_t *w = &ch->ring[ch->wptr / 4];
	nv_wr32le(&w[0], NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_FIFO_REF_CNT, 1));
	nv_wr32le(&w[1], seq);
	nv_wr32le(&w[2], NV_CMD_INC_WORD(NVD_SUBC_DAEMON, NV_NVSW_FENCE, 1));
	nv_wr32le(&w[3], seq);
	ch->wptr += FENCE_WORDS * 4;
}

static void refuse_log(struct nvd_chan *ch, uint32_t seq, const struct nvd_verror *e)
{
	const struct nv_class_desc *c = nv_class_find(e->cls);
	const struct nv_mthd_desc *m = nv_mthd_find(c, e->mthd, NULL);
	nvd_clog(ch->cl, ch, "refused submission %u: %s %s 0x%08x at push %u +0x%x (subc %u, "
		 "method 0x%04x): %s", seq, c ? c->name : "-", m ? m->name : "?", e->data, e->push,
		 e->offset, e->subc, e->mthd, e->why[0] ? e->why : strerror(-e->err));
}

/* Where the submission needs the buffer (DRM's valid domains): move it
 * there first, and a buffer in host memory onto the card, into the
 * aperture it was made for if there is room.  A buffer a ctxdma pins
 * stays, and the validator judges the addresses the submission then uses.
 * 0, -EAGAIN (buffers in use are in the way) or -errno. */
static int place(struct nvd *d, struct nvd_bo *bo, uint32_t access, char *why, size_t whylen)
{
	unsigned want = access & NVD_ACCESS_IN_VRAM ? NVD_DOMAIN_VRAM :
			access & NVD_ACCESS_IN_GART ? NVD_DOMAIN_GART :
			bo->domain == NVD_DOMAIN_HOST ? bo->pref : bo->domain;
	int r = nvd_bo_move(d, bo, want, list_stamp, why, whylen);
	if (r == -ENOSPC && !(access & (NVD_ACCESS_IN_VRAM | NVD_ACCESS_IN_GART)) &&
	    bo->domain == NVD_DOMAIN_HOST)
		r = nvd_bo_move(d, bo, want == NVD_DOMAIN_VRAM ? NVD_DOMAIN_GART : NVD_DOMAIN_VRAM,
				list_stamp, why, whylen);
	return r == -EBUSY ? 0 : r;
}

static int by_size_desc(const void *a, const void *b)
{
	uint64_t x = bo_list[*(const unsigned *)a]->size, y = bo_list[*(const unsigned *)b]->size;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* Place every listed buffer (once: at its first entry), in list order.
 * When one finds no room only because the buffers placed before it split
 * the free space, those go back to host memory and all are placed again,
 * the largest first.  0, -EAGAIN, or -errno with why. */
static int place_all(struct nvd_chan *ch, const struct nvd_submit_bo *sb, unsigned n, char *why,
		     size_t whylen)
{
	static unsigned order[NVD_SUBMIT_MAX_BOS];
	struct nvd *d = ch->cl->d;
	unsigned m = 0;
	for (unsigned i = 0; i < n; i++)
		if (bo_list[i]->list_first == i)
			order[m++] = i;
	for (int pass = 0;; pass++) {
		unsigned i = 0;
		int r = 0;
		char how[NVD_REPLY_WHY];
		while (i < m && !(r = place(d, bo_list[order[i]], list_access[order[i]], how,
					     sizeof(how))))
			i++;
		if (!r)
			return 0;
		if (r != -ENOSPC || pass) {
			snprintf(why, whylen, "buffer %u (%llu KiB) cannot be placed: %s",
				 sb[order[i]].handle, (unsigned long long)(bo_list[order[i]]->size >> 10),
				 how);
			return r;
		}
		while (i--)
			nvd_bo_unplace(d, bo_list[order[i]]);
		qsort(order, m, sizeof(*order), by_size_desc);
	}
}

void nvd_chan_fp_pin(struct nvd_chan *ch, struct nvd_bo *bo)
{
	if (ch->fp_bo == bo)
		return;
	if (ch->fp_bo) {
		nvd_bo_unpin(ch->fp_bo);
		nvd_bo_unref(ch->cl->d, ch->fp_bo);
	}
	if ((ch->fp_bo = bo)) {
		nvd_bo_ref(bo);
		bo->pins++;
	}
}

/* The submission in flight holds the buffer until its fence. */
static void hold(struct nvd_chan *ch, struct nvd_inflight *f, struct nvd_bo *bo, uint32_t access)
{
	f->bos[f->nbos++] = (struct nvd_inflight_bo){ bo, access };
	nvd_bo_ref(bo);
	nvd_bo_used(ch->cl->d, bo);
	nvd_sync_hold(ch, bo, access);
}

int nvd_submit(struct nvd_chan *ch, const struct nvd_submit_hdr *h)
{
	struct nvd_client *cl = ch->cl;
	const uint8_t *src = ch->sring + ch->tail % NVD_RING_DATA_SIZE + sizeof(*h);
	uint32_t body = h->size - sizeof(*h);
	struct nvd_verror e = { 0 };
	long n = 0;
	int err = 0;

	/* One fence status slot each: a client keeps fewer submissions in
	 * flight (libnvd waits); the entries of one that does not wait here. */
	if (ch->if_count >= NVD_FENCE_STATUS - 1)
		return 0;
	memcpy(scratch.b, src, body);
	const struct nvd_submit_bo *sb = (const void *)scratch.b;
	const struct nvd_submit_push *sp = (const void *)(sb + h->nr_bos);
	const struct nvd_submit_reloc *sr = (const void *)(sp + h->nr_push);

	if (!++list_stamp)
		list_stamp = 1;
	/* A buffer is one buffer with one placement, however often it is
	 * listed: its entries' access is merged and it is placed once, before
	 * any address goes to the validator (a second entry moving it would
	 * free the range the first one's address was admitted in).  Entries
	 * asking for VRAM and for GART contradict each other: refused. */
	for (unsigned i = 0; i < h->nr_bos && !err; i++) {
		struct nvd_bo *bo = nvd_bo_get(cl, sb[i].handle);
		uint32_t *acc = NULL;
		if (bo)
			acc = &list_access[bo->list_stamp == list_stamp ? bo->list_first : i];
		if (!bo) {
			err = -ENOENT;
			snprintf(e.why, sizeof(e.why), "buffer %u (list entry %u) does not exist",
				 sb[i].handle, i);
		} else if (!(sb[i].access & NVD_ACCESS_RW) ||
			   sb[i].access & ~(NVD_ACCESS_RW | NVD_ACCESS_IN_VRAM | NVD_ACCESS_IN_GART) ||
			   (sb[i].access & NVD_ACCESS_IN_VRAM && sb[i].access & NVD_ACCESS_IN_GART)) {
			err = -EINVAL;
			snprintf(e.why, sizeof(e.why), "buffer %u has access 0x%x", sb[i].handle,
				 sb[i].access);
		} else if (bo->list_stamp != list_stamp) {
			bo->list_stamp = list_stamp;
			bo->list_first = i;
			*acc = sb[i].access;
		} else if ((*acc | sb[i].access) & NVD_ACCESS_IN_VRAM &&
			   (*acc | sb[i].access) & NVD_ACCESS_IN_GART) {
			err = -EINVAL;
			snprintf(e.why, sizeof(e.why), "buffer %u is listed for VRAM and for GART "
				 "(list entries %u and %u)", sb[i].handle, bo->list_first, i);
		} else {
			*acc |= sb[i].access;
		}
		bo_list[i] = bo;
	}
	if (!err && (err = place_all(ch, sb, h->nr_bos, e.why, sizeof(e.why))) == -EAGAIN) {
		/* room comes as what is in flight retires */
		nvd_sync_stall(ch, bo_list, sb, h->nr_bos);
		return 0;
	}
	for (unsigned i = 0; i < h->nr_bos && !err; i++) {
		struct nvd_bo *bo = bo_list[i];
		vbos[i] = (struct nvd_vbo){ bo->addr, bo->size, bo->domain,
					    list_access[bo->list_first] & NVD_ACCESS_RW, bo->map };
	}
	if (!err && nvd_sync_wait(ch, bo_list, sb, h->nr_bos))
		return 0;
	unsigned nvbos = h->nr_bos;
	unsigned nlisted = nvbos, nimpl = 0;
	uint64_t vns = 0;
	for (unsigned i = 0; !err && i < cl->bos_cap + cl->nkept && nimpl < NVD_IMPLICIT_MAX; i++) {
		struct nvd_bo *bo = i < cl->bos_cap ? cl->bos[i] : cl->kept[i - cl->bos_cap];
		if (!bo || bo->list_stamp == list_stamp || bo->domain == NVD_DOMAIN_HOST)
			continue;
		bo->list_stamp = list_stamp;    /* held under two handles: once */
		implicit[nimpl++] = bo;
		vbos[nvbos++] = (struct nvd_vbo){ bo->addr, bo->size, bo->domain, NVD_ACCESS_RW, bo->map };
	}
	/* The references are taken with the entry: no memory, no submission. */
	struct nvd_inflight_bo *held = NULL;
	if (!err && !(held = malloc((h->nr_bos + nimpl + 1) * sizeof(*held)))) {
		err = -ENOMEM;
		snprintf(e.why, sizeof(e.why), "out of memory");
	}
	if (!err) {
		struct nvd_vsubmit vs = { vbos, nvbos, sp, h->nr_push, sr, h->nr_relocs,
					  nvd_obj_lookup, ch, nlisted, implicit_used, &ch->vfp };
		memset(implicit_used, 0, nimpl);
		uint32_t space = ring_space(ch);
		if (space < FENCE_WORDS * 4 && !ring_wrap(ch)) {
			nvd_sync_stall(ch, bo_list, sb, h->nr_bos);
			free(held);
			return 0;
		}
		space = ring_space(ch);
		n = validate(ch, &vs, space / 4 - FENCE_WORDS, &e, &vns);
		if (n == -E2BIG && ring_wrap(ch)) {
			space = ring_space(ch);
			memset(implicit_used, 0, nimpl);
			n = validate(ch, &vs, space / 4 - FENCE_WORDS, &e, &vns);
		}
		/* its cost, stalled or not: the loop spent it */
		cl->validate_ns += vns;
		if (vns > cl->validate_max_ns)
			cl->validate_max_ns = vns;
		if (n == -E2BIG && ch->if_count) {
			nvd_sync_stall(ch, bo_list, sb, h->nr_bos);
			free(held);
			return 0;   /* the card is still busy with earlier work: retry later */
		}
		if (n < 0) {
			err = (int)n;
			e.err = err;
		}
	}
	nvd_sync_taken(ch);
	if (err) {
		refuse_log(ch, h->seq, &e);
		n = 0;
		ch->refused++;
		cl->refused++;
		cl->d->refused++;
		__atomic_store_n(&ch->fence->refused, ch->fence->refused + 1, __ATOMIC_RELAXED);
	}
	nvd_log(2, "submission %u: %ld words at ring 0x%x, validated in %llu us", h->seq, n,
		ch->wptr, (unsigned long long)(vns / 1000));
	uint32_t begin = ch->wptr;
	ch->wptr += (uint32_t)n * 4;
	put_fence(ch, h->seq);
	if (!err)
		nvd_oracle_admit(ch, h->seq, begin, ch->wptr, vbos, nlisted, nvbos, implicit_used);
	if (!err && ch->vfp.bound_bo >= 0)
		nvd_chan_fp_pin(ch, (unsigned)ch->vfp.bound_bo < h->nr_bos
				    ? bo_list[ch->vfp.bound_bo] : implicit[ch->vfp.bound_bo - h->nr_bos]);

	struct nvd_inflight *f = &ch->inflight[(ch->if_head + ch->if_count) % NVD_FENCE_STATUS];
	f->seq = h->seq;
	f->ring_end = ch->wptr;
	f->nbos = 0;
	f->bos = held;
	if (!err) {
		/* The buffers stay alive, and busy for BO_WAIT, until the fence. */
		for (unsigned i = 0; i < h->nr_bos; i++)
			if (bo_list[i]->list_first == i)   /* once per buffer */
				hold(ch, f, bo_list[i], list_access[i] & NVD_ACCESS_RW);
		for (unsigned i = 0; i < nimpl; i++)
			if (implicit_used[i])   /* reached though not listed: held all the same */
				hold(ch, f, implicit[i], implicit_used[i] & NVD_ACCESS_RW);
	} else {
		free(held);
		f->bos = NULL;
	}
	ch->if_count++;
	nvd_bo_kept_release(cl);
	__atomic_store_n(&ch->fence->status[h->seq % NVD_FENCE_STATUS], err, __ATOMIC_RELAXED);
	ch->submits++;
	cl->submits++;
	cl->d->submits++;
	if (err && ++ch->strikes >= NVD_STRIKES)
		return -EPERM;
	return 1;
}
