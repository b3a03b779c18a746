/* Buffer objects: a memfd each, placed in VRAM or GART by mapping it into
 * the card's window at an address from the range allocator, or in no
 * window at all (HOST).  The daemon creates and seals the memfd, so a client
 * can neither shrink it under the card nor hand us something else.
 *
 * The memory manager, after TTM: each aperture keeps its buffers in LRU
 * order (a submission that uses a buffer makes it the most recent); when a
 * placement finds no room, idle buffers are evicted from the head, VRAM's
 * to GART while GART has room and to host memory otherwise, GART's to host
 * memory.  A move is a remap: the memfd, which clients map, stays.  Busy
 * buffers (a queued or running submission uses them) and pinned ones
 * (scanout, ctxdmas) never move for another's sake. */
#include "nvd/nvd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define BO_ALIGN 4096

static struct nvd_ra *bo_ra(struct nvd *d, unsigned domain)
{
	return domain == NVD_DOMAIN_VRAM ? &d->vram : &d->gart;
}

static const char *domain_name(unsigned domain)
{
	return domain == NVD_DOMAIN_VRAM ? "VRAM" : domain == NVD_DOMAIN_GART ? "GART" : "host memory";
}

/* ---- LRU ---- */

static void lru_del(struct nvd *d, struct nvd_bo *bo)
{
	if (bo->domain == NVD_DOMAIN_HOST)
		return;
	struct nvd_lru *l = &d->lru[bo->domain - 1];
	*(bo->lru_prev ? &bo->lru_prev->lru_next : &l->head) = bo->lru_next;
	*(bo->lru_next ? &bo->lru_next->lru_prev : &l->tail) = bo->lru_prev;
	bo->lru_prev = bo->lru_next = NULL;
}

static void lru_add(struct nvd *d, struct nvd_bo *bo)
{
	if (bo->domain == NVD_DOMAIN_HOST)
		return;
	struct nvd_lru *l = &d->lru[bo->domain - 1];
	bo->lru_prev = l->tail;
	bo->lru_next = NULL;
	*(l->tail ? &l->tail->lru_next : &l->head) = bo;
	l->tail = bo;
}

void nvd_bo_used(struct nvd *d, struct nvd_bo *bo)
{
	lru_del(d, bo);
	lru_add(d, bo);
}

/* A free handle slot in the client's table (grown as needed), or -ENOMEM. */
static int handle_slot(struct nvd_client *cl)
{
	unsigned slot = 0;
	while (slot < cl->bos_cap && cl->bos[slot])
		slot++;
	if (slot == cl->bos_cap) {
		unsigned cap = cl->bos_cap ? cl->bos_cap * 2 : 64;
		struct nvd_bo **n = realloc(cl->bos, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		memset(n + cl->bos_cap, 0, (cap - cl->bos_cap) * sizeof(*n));
		cl->bos = n;
		cl->bos_cap = cap;
	}
	return (int)slot;
}

static int holders_room(struct nvd_bo *bo)
{
	if (bo->nholders < bo->holders_cap)
		return 0;
	unsigned cap = bo->holders_cap ? bo->holders_cap * 2 : 2;
	struct nvd_bo_holder *n = realloc(bo->holders, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	bo->holders = n;
	bo->holders_cap = cap;
	return 0;
}

/* Enter bo in the client's table; room in bo->holders is already made. */
static uint32_t hold(struct nvd_client *cl, struct nvd_bo *bo, unsigned slot)
{
	cl->bos[slot] = bo;
	cl->nbos++;
	bo->holders[bo->nholders++] = (struct nvd_bo_holder){ cl, slot + 1 };
	return slot + 1;
}

/* Room is short: every client's closed buffers go first (an idle X server
 * would keep its last freed DRI2 buffers until it next submits).  Whether
 * any was kept. */
static int kept_release_all(struct nvd *d)
{
	int any = 0;
	for (struct nvd_client *c = d->clients; c; c = c->next) {
		any |= c->nkept != 0;
		nvd_bo_kept_release(c);
	}
	return any;
}

/* The payer's counter for the buffer's current domain: the creator while
 * it lives, afterwards the daemon-wide orphan count. */
static uint64_t *bo_payer(struct nvd *d, struct nvd_bo *bo)
{
	struct nvd_client *o = bo->owner;
	switch (bo->domain) {
	case NVD_DOMAIN_VRAM:
		return o ? &o->vram : &d->vram_orphaned;
	case NVD_DOMAIN_GART:
		return o ? &o->gart : &d->gart_orphaned;
	default:
		return o ? &o->host : &d->host_orphaned;
	}
}

/* Its holders learn that it moved through their channels' fence pages. */
static void tell_holders(struct nvd_bo *bo)
{
	for (unsigned i = 0; i < bo->nholders; i++) {
		struct nvd_client *c = bo->holders[i].cl;
		for (unsigned k = 0; k < NVD_CLIENT_CHANS; k++)
			if (c->chans[k] && c->chans[k]->fence)
				__atomic_add_fetch(&c->chans[k]->fence->moved, 1, __ATOMIC_RELEASE);
	}
}

/* The buffer now lives at addr in domain (mapped there already; HOST:
 * nowhere).  Its old range goes at once when it is idle; otherwise it stays
 * mapped for the submissions validated before, until the buffer is idle. */
static void set_place(struct nvd *d, struct nvd_bo *bo, unsigned domain, uint64_t addr)
{
	lru_del(d, bo);
	*bo_payer(d, bo) -= bo->size;
	if (bo->domain != NVD_DOMAIN_HOST) {
		bo->stale_domain = bo->domain;
		bo->stale_addr = bo->addr;
		d->lru[bo->domain - 1].settling += bo->size;
	}
	bo->domain = domain;
	bo->addr = domain == NVD_DOMAIN_HOST ? 0 : addr;
	bo->map = domain == NVD_DOMAIN_HOST ? NULL
		  : (domain == NVD_DOMAIN_GART ? d->card->gart : d->card->vram) + addr;
	*bo_payer(d, bo) += bo->size;
	lru_add(d, bo);
	tell_holders(bo);
	if (!bo->busy_read && !bo->busy_write)
		nvd_bo_idle(d, bo);
}

/* A range in domain's aperture, mapped to the buffer's memfd. */
static int map_at(struct nvd *d, struct nvd_bo *bo, unsigned domain, uint64_t addr)
{
	int r = d->card->ops->place(d->card, domain == NVD_DOMAIN_GART, addr, bo->size, bo->fd);
	if (r < 0)
		nvd_ra_free(bo_ra(d, domain), addr);
	return r;
}

/* An idle buffer leaves its aperture: VRAM's for GART when it has room,
 * otherwise (and GART's) for host memory. */
static void evict(struct nvd *d, struct nvd_bo *bo)
{
	unsigned to = NVD_DOMAIN_HOST, from = bo->domain;
	uint64_t addr = 0;
	if (from == NVD_DOMAIN_VRAM && nvd_ra_alloc(&d->gart, bo->size, BO_ALIGN, &addr) == 0 &&
	    map_at(d, bo, NVD_DOMAIN_GART, addr) == 0)
		to = NVD_DOMAIN_GART;
	set_place(d, bo, to, addr);
	d->evictions++;
	d->evicted_bytes += bo->size;
	if (bo->owner)
		bo->owner->evicted++;
	nvd_log(2, "evicted a buffer of %llu KiB (client %u) from %s to %s",
		(unsigned long long)(bo->size >> 10), bo->owner ? bo->owner->id : 0,
		domain_name(from), domain_name(to));
}

/* A range of size bytes in domain's aperture: while there is none, idle
 * buffers there are evicted, least recently used first.  Buffers listed by
 * the submission being placed (list_stamp == keep, 0: none), pinned, busy
 * or settling ones stay.  0 with *addr; -EAGAIN when busy buffers are in
 * the way (room comes as they retire); -ENOSPC. */
static int room(struct nvd *d, unsigned domain, uint64_t size, uint32_t keep, uint64_t *addr)
{
	struct nvd_ra *ra = bo_ra(d, domain);
	struct nvd_lru *l = &d->lru[domain - 1];
	if (nvd_ra_alloc(ra, size, BO_ALIGN, addr) == 0 ||
	    (kept_release_all(d) && nvd_ra_alloc(ra, size, BO_ALIGN, addr) == 0))
		return 0;
	int busy = l->settling != 0;
	for (struct nvd_bo *bo = l->head, *next; bo; bo = next) {
		next = bo->lru_next;
		if (bo->pins || (keep && bo->list_stamp == keep))
			continue;
		if (bo->busy_read || bo->busy_write || bo->stale_domain) {
			busy = 1;
			continue;
		}
		evict(d, bo);
		if (nvd_ra_alloc(ra, size, BO_ALIGN, addr) == 0)
			return 0;
	}
	return busy ? -EAGAIN : -ENOSPC;
}

/* Why room() found none: what holds the aperture. */
static void no_room_why(struct nvd *d, unsigned domain, uint64_t size, uint32_t keep, char *why,
			size_t whylen)
{
	struct nvd_ra *ra = bo_ra(d, domain);
	uint64_t pinned = 0, listed = 0;
	for (struct nvd_bo *bo = d->lru[domain - 1].head; bo; bo = bo->lru_next)
		if (bo->pins)
			pinned += bo->size;
		else if (keep && bo->list_stamp == keep)
			listed += bo->size;
	snprintf(why, whylen, "no room for %llu KiB in %s: of its %llu KiB, %llu are pinned, "
		 "%llu used by this submission, %llu free (largest piece %llu)",
		 (unsigned long long)(size >> 10), domain_name(domain),
		 (unsigned long long)(ra->size >> 10), (unsigned long long)(pinned >> 10),
		 (unsigned long long)(listed >> 10), (unsigned long long)((ra->size - ra->used) >> 10),
		 (unsigned long long)(nvd_ra_largest_free(ra) >> 10));
}

int nvd_bo_new(struct nvd_client *cl, uint64_t size, unsigned domain, struct nvd_bo **out,
	       uint32_t *handle, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_bo *bo = NULL;
	struct stat st;
	uint64_t addr = 0;
	int fd = -1, r;

	if (domain != NVD_DOMAIN_VRAM && domain != NVD_DOMAIN_GART) {
		snprintf(why, whylen, "domain %u is neither VRAM (1) nor GART (2)", domain);
		return -EINVAL;
	}
	if (!size || size > bo_ra(d, domain)->size) {
		snprintf(why, whylen, "size %llu is outside 1..%llu", (unsigned long long)size,
			 (unsigned long long)bo_ra(d, domain)->size);
		return size ? -E2BIG : -EINVAL;
	}
	size = (size + BO_ALIGN - 1) & ~(uint64_t)(BO_ALIGN - 1);
	/* What the client closed gives way before it is refused room. */
	if (cl->vram + cl->gart + cl->host + size > d->o.quota)
		nvd_bo_kept_release(cl);
	if (cl->vram + cl->gart + cl->host + size > d->o.quota) {
		snprintf(why, whylen, "client quota of %llu MiB reached",
			 (unsigned long long)(d->o.quota >> 20));
		return -EDQUOT;
	}
	if (cl->nbos >= d->o.max_bos) {
		snprintf(why, whylen, "client limit of %u buffers reached", d->o.max_bos);
		return -EMFILE;
	}
	int slot = handle_slot(cl);
	bo = calloc(1, sizeof(*bo));
	if (slot < 0 || !bo || holders_room(bo) < 0) {
		r = -ENOMEM;
		snprintf(why, whylen, "out of memory");
		goto fail;
	}
	fd = memfd_create("nvd-bo", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0 ||
	    fstat(fd, &st) < 0) {
		r = -errno;
		snprintf(why, whylen, "memfd: %s", strerror(errno));
		goto fail;
	}
	bo->refs = 1;
	bo->owner = cl;
	bo->domain = NVD_DOMAIN_HOST;
	bo->pref = (uint8_t)domain;
	bo->size = size;
	bo->fd = fd;
	bo->dev = (uint64_t)st.st_dev;
	bo->ino = (uint64_t)st.st_ino;
	if (nvd_bo_hash_add(&d->inos, bo, 0) < 0) {
		r = -ENOMEM;
		snprintf(why, whylen, "out of memory");
		goto fail;
	}
	/* No room in the aperture: the buffer waits in host memory until a
	 * submission needs it (overcommit is bounded by the quota). */
	if ((nvd_ra_alloc(bo_ra(d, domain), size, BO_ALIGN, &addr) == 0 ||
	     (kept_release_all(d) && nvd_ra_alloc(bo_ra(d, domain), size, BO_ALIGN, &addr) == 0)) &&
	    map_at(d, bo, domain, addr) == 0) {
		bo->domain = (uint8_t)domain;
		bo->addr = addr;
		bo->map = (domain == NVD_DOMAIN_GART ? d->card->gart : d->card->vram) + addr;
		lru_add(d, bo);
	}
	*handle = hold(cl, bo, (unsigned)slot);
	bo->own_next = cl->owned;
	if (cl->owned)
		cl->owned->own_prev = bo;
	cl->owned = bo;
	*bo_payer(d, bo) += size;
	d->nbos++;
	*out = bo;
	return 0;
fail:
	if (bo)
		free(bo->holders);
	free(bo);
	if (fd >= 0)
		close(fd);
	return r;
}

struct nvd_bo *nvd_bo_get(struct nvd_client *cl, uint32_t handle)
{
	if (handle == 0 || handle > cl->bos_cap)
		return NULL;
	return cl->bos[handle - 1];
}

uint32_t nvd_bo_handle_of(struct nvd_client *cl, struct nvd_bo *bo)
{
	for (unsigned i = 0; i < bo->nholders; i++)
		if (bo->holders[i].cl == cl)
			return bo->holders[i].handle;
	return 0;
}

int nvd_bo_hold(struct nvd_client *cl, struct nvd_bo *bo, uint32_t *handle, char *why,
		size_t whylen)
{
	uint32_t h = nvd_bo_handle_of(cl, bo);
	if (h) {
		*handle = h;
		return 0;
	}
	if (cl->nbos >= cl->d->o.max_bos) {
		snprintf(why, whylen, "client limit of %u buffers reached", cl->d->o.max_bos);
		return -EMFILE;
	}
	int slot = handle_slot(cl);
	if (slot < 0 || holders_room(bo) < 0) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	nvd_bo_ref(bo);
	*handle = hold(cl, bo, (unsigned)slot);
	return 0;
}

int nvd_bo_move(struct nvd *d, struct nvd_bo *bo, unsigned domain, uint32_t keep, char *why,
		size_t whylen)
{
	if (bo->domain == domain)
		return 0;
	if (bo->pins || (bo->stale_domain && bo->stale_domain != domain)) {
		snprintf(why, whylen, "it is %s in %s", bo->pins ? "pinned" : "still moving",
			 domain_name(bo->domain));
		return -EBUSY;
	}
	if (bo->stale_domain) {
		/* back to where it still is mapped */
		d->lru[domain - 1].settling -= bo->size;
		bo->stale_domain = 0;
		set_place(d, bo, domain, bo->stale_addr);
		return 0;
	}
	uint64_t addr;
	int r = room(d, domain, bo->size, keep, &addr);
	if (r == -ENOSPC)
		no_room_why(d, domain, bo->size, keep, why, whylen);
	else if (r == -EAGAIN)
		snprintf(why, whylen, "%s is full of buffers in use", domain_name(domain));
	else if (r == 0 && (r = map_at(d, bo, domain, addr)) < 0)
		snprintf(why, whylen, "cannot map it: %s", strerror(-r));
	if (r < 0)
		return r;
	set_place(d, bo, domain, addr);
	return 0;
}

int nvd_bo_pin(struct nvd *d, struct nvd_bo *bo, unsigned domain, char *why, size_t whylen)
{
	if (!domain)
		domain = bo->domain == NVD_DOMAIN_HOST ? bo->pref : bo->domain;
	int r = nvd_bo_move(d, bo, domain, 0, why, whylen);
	if (r < 0)
		return r;
	bo->pins++;
	return 0;
}

void nvd_bo_unplace(struct nvd *d, struct nvd_bo *bo)
{
	if (bo->domain != NVD_DOMAIN_HOST && !bo->pins && !bo->stale_domain && !bo->busy_read &&
	    !bo->busy_write)
		set_place(d, bo, NVD_DOMAIN_HOST, 0);
}

void nvd_bo_idle(struct nvd *d, struct nvd_bo *bo)
{
	if (!bo->stale_domain)
		return;
	d->card->ops->unplace(d->card, bo->stale_domain == NVD_DOMAIN_GART, bo->stale_addr, bo->size);
	nvd_ra_free(bo_ra(d, bo->stale_domain), bo->stale_addr);
	d->lru[bo->stale_domain - 1].settling -= bo->size;
	bo->stale_domain = 0;
}

void nvd_bo_ref(struct nvd_bo *bo)
{
	bo->refs++;
}

void nvd_bo_unref(struct nvd *d, struct nvd_bo *bo)
{
	if (--bo->refs)
		return;
	nvd_bo_idle(d, bo);
	if (bo->domain != NVD_DOMAIN_HOST) {
		lru_del(d, bo);
		d->card->ops->unplace(d->card, bo->domain == NVD_DOMAIN_GART, bo->addr, bo->size);
		nvd_ra_free(bo_ra(d, bo->domain), bo->addr);
	}
	*bo_payer(d, bo) -= bo->size;
	struct nvd_client *o = bo->owner;
	if (o) {
		if (bo->own_prev)
			bo->own_prev->own_next = bo->own_next;
		else
			o->owned = bo->own_next;
		if (bo->own_next)
			bo->own_next->own_prev = bo->own_prev;
	}
	if (bo->name)
		nvd_bo_hash_del(&d->names, bo, 1);
	nvd_bo_hash_del(&d->inos, bo, 0);
	d->nbos--;
	close(bo->fd);
	free(bo->holders);
	free(bo);
}

/* The client lets go of its handle; the memory goes when the card and every
 * other holder are done. */
int nvd_bo_close(struct nvd_client *cl, uint32_t handle)
{
	struct nvd_bo *bo = nvd_bo_get(cl, handle);
	if (!bo)
		return -ENOENT;
	cl->bos[handle - 1] = NULL;
	cl->nbos--;
	for (unsigned i = 0; i < bo->nholders; i++)
		if (bo->holders[i].cl == cl) {
			bo->holders[i] = bo->holders[--bo->nholders];
			break;
		}
	nvd_bo_unref(cl->d, bo);
	return 0;
}

/* A buffer its client closes stays reachable by the client's next
 * submission.  On a real card a freed buffer's memory keeps its contents
 * until something else is put there, and Mesa's nv30 relies on it: it names
 * an index buffer only by address, after the submission's list was made, so
 * glDeleteBuffers right after a draw closes the buffer before the draw is
 * submitted.  The oldest of NVD_KEPT_CLOSED goes first; a client with no
 * channel keeps none. */
int nvd_bo_close_kept(struct nvd_client *cl, uint32_t handle)
{
	struct nvd_bo *bo = nvd_bo_get(cl, handle);
	if (!bo)
		return -ENOENT;
	if (!cl->nchans)
		return nvd_bo_close(cl, handle);
	if (cl->nkept == NVD_KEPT_CLOSED) {
		nvd_bo_unref(cl->d, cl->kept[0]);
		memmove(cl->kept, cl->kept + 1, --cl->nkept * sizeof(*cl->kept));
	}
	nvd_bo_ref(bo);
	cl->kept[cl->nkept++] = bo;
	return nvd_bo_close(cl, handle);
}

/* The client's submission has been taken: what it closed before is gone. */
void nvd_bo_kept_release(struct nvd_client *cl)
{
	while (cl->nkept)
		nvd_bo_unref(cl->d, cl->kept[--cl->nkept]);
}

void nvd_bo_orphan_all(struct nvd_client *cl)
{
	struct nvd *d = cl->d;
	while (cl->owned) {
		struct nvd_bo *bo = cl->owned;
		cl->owned = bo->own_next;
		bo->own_prev = bo->own_next = NULL;
		*bo_payer(d, bo) -= bo->size;
		bo->owner = NULL;
		*bo_payer(d, bo) += bo->size;
	}
}

/* ---- buffers by flink name and by memfd identity (IMPORT) ---- */

static uint64_t hash_key(const struct nvd_bo *bo, int by_name)
{
	return by_name ? bo->name : bo->ino ^ (bo->dev << 40) ^ (bo->dev >> 24);
}

static struct nvd_bo **hash_next(struct nvd_bo *bo, int by_name)
{
	return by_name ? &bo->name_next : &bo->ino_next;
}

static unsigned hash_bucket(const struct nvd_bo_hash *h, uint64_t key)
{
	key *= 0x9e3779b97f4a7c15ull;
	return (unsigned)(key >> 32) & (h->nbuckets - 1);
}

/* Keep about one buffer per bucket; if growing fails, the chains get longer. */
static void hash_grow(struct nvd_bo_hash *h, int by_name)
{
	unsigned n = h->nbuckets ? h->nbuckets * 2 : 256;
	struct nvd_bo **b = calloc(n, sizeof(*b));
	if (!b)
		return;
	struct nvd_bo_hash g = { b, n, h->count };
	for (unsigned i = 0; i < h->nbuckets; i++)
		for (struct nvd_bo *bo = h->b[i], *next; bo; bo = next) {
			next = *hash_next(bo, by_name);
			unsigned k = hash_bucket(&g, hash_key(bo, by_name));
			*hash_next(bo, by_name) = b[k];
			b[k] = bo;
		}
	free(h->b);
	*h = g;
}

int nvd_bo_hash_add(struct nvd_bo_hash *h, struct nvd_bo *bo, int by_name)
{
	if (h->count >= h->nbuckets)
		hash_grow(h, by_name);
	if (!h->nbuckets)
		return -ENOMEM;
	unsigned k = hash_bucket(h, hash_key(bo, by_name));
	*hash_next(bo, by_name) = h->b[k];
	h->b[k] = bo;
	h->count++;
	return 0;
}

void nvd_bo_hash_del(struct nvd_bo_hash *h, struct nvd_bo *bo, int by_name)
{
	if (!h->nbuckets)
		return;
	for (struct nvd_bo **p = &h->b[hash_bucket(h, hash_key(bo, by_name))]; *p;
	     p = hash_next(*p, by_name))
		if (*p == bo) {
			*p = *hash_next(bo, by_name);
			h->count--;
			return;
		}
}

struct nvd_bo *nvd_bo_find_name(struct nvd *d, uint32_t name)
{
	struct nvd_bo_hash *h = &d->names;
	if (!h->nbuckets || !name)
		return NULL;
	for (struct nvd_bo *bo = h->b[hash_bucket(h, name)]; bo; bo = bo->name_next)
		if (bo->name == name)
			return bo;
	return NULL;
}

struct nvd_bo *nvd_bo_find_ino(struct nvd *d, uint64_t dev, uint64_t ino)
{
	struct nvd_bo_hash *h = &d->inos;
	struct nvd_bo key = { .dev = dev, .ino = ino };
	if (!h->nbuckets)
		return NULL;
	for (struct nvd_bo *bo = h->b[hash_bucket(h, hash_key(&key, 0))]; bo; bo = bo->ino_next)
		if (bo->ino == ino && bo->dev == dev)
			return bo;
	return NULL;
}

void nvd_bo_hash_fini(struct nvd *d)
{
	free(d->names.b);
	free(d->inos.b);
	memset(&d->names, 0, sizeof(d->names));
	memset(&d->inos, 0, sizeof(d->inos));
}
