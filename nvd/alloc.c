/* The range allocator behind VRAM, GART and instance memory (nvd/alloc.h).
 *
 * Every range, free or allocated, is one node.  Three treaps index them:
 *   free_by_addr  free ranges by address       (neighbours for coalescing)
 *   free_by_size  free ranges by (size, addr)  (best fit, largest free)
 *   allocs        allocations by address       (free, size lookup)
 * A free node sits in the first two (two link pairs), an allocated one only
 * in the third, through its address links.  Treaps keep the code short and
 * every operation O(log n) expected; priorities are random so no sequence
 * of requests a client makes can unbalance them.
 *
 * Best fit with alignment: a free range of at least size + align - 1 bytes
 * always fits; a smaller one fits only if its address happens to line up.
 * We walk ranges in size order from `size` up and take the first that fits.
 * To keep a flood of small misaligned fragments from making that walk
 * linear, after RA_SCAN misses we jump straight to the smallest range that
 * surely fits (a slightly worse fit, O(log n)).  Only when no such range
 * exists do we keep walking, since then a fragment may be the only fit and
 * -ENOSPC must mean that nothing fits. */
#include "nvd/alloc.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/random.h>

enum { RA_ADDR, RA_SIZE };
#define RA_SCAN 32

struct ra_link {
	struct nvd_ra_node *l, *r;
};

struct nvd_ra_node {
	uint64_t addr, size;
	uint32_t prio;
	struct ra_link t[2];     /* [RA_ADDR]: free_by_addr or allocs; [RA_SIZE]: free_by_size */
};

typedef struct nvd_ra_node node;

/* ---- treap primitives, parameterised by which key (k) ---- */

static bool ra_before(int k, const node *a, const node *b)
{
	if (k == RA_SIZE && a->size != b->size)
		return a->size < b->size;
	return a->addr < b->addr;
}

/* Splits t into nodes before key (*l) and the rest (*r). */
static void ra_split(int k, node *t, const node *key, node **l, node **r)
{
	while (t) {
		if (ra_before(k, t, key)) {
			*l = t;
			l = &t->t[k].r;
			t = t->t[k].r;
		} else {
			*r = t;
			r = &t->t[k].l;
			t = t->t[k].l;
		}
	}
	*l = *r = NULL;
}

/* Joins a and b, every key of a before every key of b. */
static node *ra_merge(int k, node *a, node *b)
{
	node *root = NULL, **p = &root;

	while (a && b) {
		if (a->prio >= b->prio) {
			*p = a;
			p = &a->t[k].r;
			a = a->t[k].r;
		} else {
			*p = b;
			p = &b->t[k].l;
			b = b->t[k].l;
		}
	}
	*p = a ? a : b;
	return root;
}

static void ra_insert(int k, node **root, node *n)
{
	node **p = root;

	while (*p && (*p)->prio >= n->prio)
		p = ra_before(k, n, *p) ? &(*p)->t[k].l : &(*p)->t[k].r;
	ra_split(k, *p, n, &n->t[k].l, &n->t[k].r);
	*p = n;
}

/* n must be in the tree. */
static void ra_erase(int k, node **root, node *n)
{
	node **p = root;

	while (*p != n)
		p = ra_before(k, n, *p) ? &(*p)->t[k].l : &(*p)->t[k].r;
	*p = ra_merge(k, n->t[k].l, n->t[k].r);
}

/* ---- queries ---- */

static node *ra_find(node *t, uint64_t addr)
{
	while (t && t->addr != addr)
		t = addr < t->addr ? t->t[RA_ADDR].l : t->t[RA_ADDR].r;
	return t;
}

/* The last node with an address below addr. */
static node *ra_below(node *t, uint64_t addr)
{
	node *best = NULL;

	while (t) {
		if (t->addr < addr) {
			best = t;
			t = t->t[RA_ADDR].r;
		} else {
			t = t->t[RA_ADDR].l;
		}
	}
	return best;
}

/* The first free range at or after (size, addr) in size order. */
static node *ra_ceil_size(node *t, uint64_t size, uint64_t addr)
{
	node *best = NULL;

	while (t) {
		if (t->size > size || (t->size == size && t->addr >= addr)) {
			best = t;
			t = t->t[RA_SIZE].l;
		} else {
			t = t->t[RA_SIZE].r;
		}
	}
	return best;
}

static uint64_t ra_pad(const node *n, uint64_t mask)
{
	return (0 - n->addr) & mask;
}

static bool ra_fits(const node *n, uint64_t size, uint64_t mask)
{
	uint64_t pad = ra_pad(n, mask);

	return pad <= n->size && n->size - pad >= size;
}

static node *ra_node_new(struct nvd_ra *ra, uint64_t addr, uint64_t size)
{
	node *n = malloc(sizeof(*n));

	if (!n)
		return NULL;
	/* xorshift64: any spread of priorities will do. */
	ra->rng ^= ra->rng << 13;
	ra->rng ^= ra->rng >> 7;
	ra->rng ^= ra->rng << 17;
	n->addr = addr;
	n->size = size;
	n->prio = (uint32_t)(ra->rng >> 32);
	n->t[0].l = n->t[0].r = n->t[1].l = n->t[1].r = NULL;
	return n;
}

static void ra_free_nodes(node *t)
{
	while (t) {
		node *r = t->t[RA_ADDR].r;

		ra_free_nodes(t->t[RA_ADDR].l);
		free(t);
		t = r;
	}
}

static void ra_add_free(struct nvd_ra *ra, node *n)
{
	ra_insert(RA_ADDR, &ra->free_by_addr, n);
	ra_insert(RA_SIZE, &ra->free_by_size, n);
}

static void ra_del_free(struct nvd_ra *ra, node *n)
{
	ra_erase(RA_SIZE, &ra->free_by_size, n);
	ra_erase(RA_ADDR, &ra->free_by_addr, n);
}

/* ---- the API ---- */

int nvd_ra_init(struct nvd_ra *ra, uint64_t base, uint64_t size)
{
	node *n;

	*ra = (struct nvd_ra){ .base = base, .size = size };
	if (!size || size > UINT64_MAX - base)
		return -EINVAL;
	if (getrandom(&ra->rng, sizeof(ra->rng), GRND_NONBLOCK) != sizeof(ra->rng))
		ra->rng = (uintptr_t)ra;
	ra->rng |= 1;            /* xorshift must not start at 0 */
	n = ra_node_new(ra, base, size);
	if (!n)
		return -ENOMEM;
	ra_add_free(ra, n);
	ra->nfree = 1;
	return 0;
}

void nvd_ra_fini(struct nvd_ra *ra)
{
	ra_free_nodes(ra->free_by_addr);
	ra_free_nodes(ra->allocs);
	ra->free_by_addr = ra->free_by_size = ra->allocs = NULL;
	ra->used = 0;
	ra->nallocs = ra->nfree = 0;
}

int nvd_ra_alloc(struct nvd_ra *ra, uint64_t size, uint64_t align, uint64_t *addr)
{
	uint64_t mask, sure, pad, start, end, nend;
	node *n, *spare[2] = { NULL, NULL };
	unsigned misses = 0, nspare, i;
	bool sure_ok;

	if (!size)
		return -EINVAL;
	if (!align)
		align = 1;
	if (align & (align - 1))
		return -EINVAL;
	if (size > ra->size || ra->nallocs == UINT_MAX)
		return -ENOSPC;
	mask = align - 1;
	sure_ok = size <= UINT64_MAX - mask;
	sure = size + mask;

	for (n = ra_ceil_size(ra->free_by_size, size, 0); n;
	     n = ra_ceil_size(ra->free_by_size, n->size, n->addr + 1)) {
		if (ra_fits(n, size, mask))
			break;
		if (++misses == RA_SCAN && sure_ok) {
			node *g = ra_ceil_size(ra->free_by_size, sure, 0);

			if (g) {
				n = g;
				break;
			}
		}
	}
	if (!n)
		return -ENOSPC;

	/* n is split into [pad][size][rest]; n itself is reused for one
	 * piece, so at most two new nodes, taken before anything changes. */
	pad = ra_pad(n, mask);
	start = n->addr + pad;
	end = start + size;
	nend = n->addr + n->size;
	nspare = (pad != 0) + (end != nend);
	for (i = 0; i < nspare; i++) {
		spare[i] = ra_node_new(ra, 0, 0);
		if (!spare[i]) {
			free(spare[0]);
			return -ENOMEM;
		}
	}

	ra_del_free(ra, n);
	i = 0;
	if (pad) {
		n->size = pad;   /* addr unchanged */
		ra_add_free(ra, n);
		n = spare[i++];
	}
	if (end != nend) {
		node *r = n;

		n = spare[i++];
		r->addr = end;
		r->size = nend - end;
		ra_add_free(ra, r);
	}
	ra->nfree = ra->nfree - 1 + (pad != 0) + (end != nend);
	n->addr = start;
	n->size = size;
	ra_insert(RA_ADDR, &ra->allocs, n);
	ra->used += size;
	ra->nallocs++;
	*addr = start;
	return 0;
}

int nvd_ra_free(struct nvd_ra *ra, uint64_t addr)
{
	node *a = ra_find(ra->allocs, addr), *p, *s, *cur;

	if (!a)
		return -ENOENT;
	ra_erase(RA_ADDR, &ra->allocs, a);
	ra->used -= a->size;
	ra->nallocs--;

	s = ra_find(ra->free_by_addr, a->addr + a->size);
	p = ra_below(ra->free_by_addr, a->addr);
	if (p && p->addr + p->size == a->addr) {
		ra_erase(RA_SIZE, &ra->free_by_size, p);
		p->size += a->size;
		free(a);
		cur = p;
	} else {
		cur = a;
		ra_insert(RA_ADDR, &ra->free_by_addr, cur);
		ra->nfree++;
	}
	if (s) {
		ra_del_free(ra, s);
		cur->size += s->size;
		free(s);
		ra->nfree--;
	}
	ra_insert(RA_SIZE, &ra->free_by_size, cur);
	return 0;
}

uint64_t nvd_ra_size(const struct nvd_ra *ra, uint64_t addr)
{
	const node *a = ra_find(ra->allocs, addr);

	return a ? a->size : 0;
}

uint64_t nvd_ra_largest_free(const struct nvd_ra *ra)
{
	const node *t = ra->free_by_size;

	while (t && t->t[RA_SIZE].r)
		t = t->t[RA_SIZE].r;
	return t ? t->size : 0;
}

/* ---- invariant check ---- */

struct ra_walk {
	const node **v;
	size_t n, cap;
	bool bad;
};

static void ra_collect(int k, const node *t, const node *parent, struct ra_walk *w)
{
	while (t) {
		if (parent && t->prio > parent->prio)
			w->bad = true;
		ra_collect(k, t->t[k].l, t, w);
		if (w->n == w->cap)
			w->bad = true;   /* more nodes than counted: stop */
		else
			w->v[w->n++] = t;
		if (w->bad)
			return;
		parent = t;
		t = t->t[k].r;
	}
}

/* In-order list of a tree that must hold exactly cap nodes, ordered, with
 * the heap property on priorities.  0 (w->v to free), -EUCLEAN, -ENOMEM. */
static int ra_walk_tree(int k, const node *root, size_t cap, struct ra_walk *w)
{
	*w = (struct ra_walk){ .v = calloc(cap ? cap : 1, sizeof(*w->v)), .cap = cap };
	if (!w->v)
		return -ENOMEM;
	ra_collect(k, root, NULL, w);
	for (size_t i = 1; !w->bad && i < w->n; i++)
		if (!ra_before(k, w->v[i - 1], w->v[i]))
			w->bad = true;
	if (w->bad || w->n != cap) {
		free(w->v);
		w->v = NULL;
		return -EUCLEAN;
	}
	return 0;
}

int nvd_ra_check(const struct nvd_ra *ra)
{
	struct ra_walk fa, fs, al;
	uint64_t at = ra->base, used = 0;
	size_t i = 0, j = 0;
	bool last_free = false;
	int ret;

	if ((ret = ra_walk_tree(RA_ADDR, ra->free_by_addr, ra->nfree, &fa)))
		return ret;
	if ((ret = ra_walk_tree(RA_SIZE, ra->free_by_size, ra->nfree, &fs))) {
		free(fa.v);
		return ret;
	}
	if ((ret = ra_walk_tree(RA_ADDR, ra->allocs, ra->nallocs, &al))) {
		free(fa.v);
		free(fs.v);
		return ret;
	}
	ret = -EUCLEAN;
	/* Both trees of free ranges hold the same nodes. */
	for (size_t k = 0; k < fs.n; k++)
		if (ra_find(ra->free_by_addr, fs.v[k]->addr) != fs.v[k])
			goto out;
	/* Free and allocated ranges tile [base, base + size) exactly. */
	while (i < fa.n || j < al.n) {
		bool take_free = j == al.n || (i < fa.n && fa.v[i]->addr < al.v[j]->addr);
		const node *n = take_free ? fa.v[i++] : al.v[j++];

		if (n->addr != at || !n->size || n->size > ra->base + ra->size - at)
			goto out;
		if (take_free && last_free)
			goto out;        /* two free neighbours not coalesced */
		last_free = take_free;
		if (!take_free)
			used += n->size;
		at += n->size;
	}
	if (at == ra->base + ra->size && used == ra->used)
		ret = 0;
out:
	free(fa.v);
	free(fs.v);
	free(al.v);
	return ret;
}
