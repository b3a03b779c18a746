/* A range allocator: hands out aligned, non-overlapping pieces of one address
 * range (VRAM, GART, instance memory) and takes them back, coalescing free
 * neighbours so fragmentation does not build up.
 *
 * Policy: best fit (the smallest free range the request fits in, alignment
 * padding included), lowest address on ties, the piece placed at the lowest
 * aligned address of that range.  Every operation is O(log n) expected in
 * the number of ranges (treaps); see nvd/alloc.c for the one bounded
 * exception.  Addresses are absolute: alignment applies to base + offset.
 * Thread safety is the caller's job. */
#ifndef NVD_ALLOC_H
#define NVD_ALLOC_H

#include <stdint.h>

struct nvd_ra_node;

struct nvd_ra {
	uint64_t base, size;
	uint64_t used;           /* bytes allocated */
	unsigned nallocs;
	unsigned nfree;          /* free ranges (1 when all is free: coalesced) */
	/* implementation's */
	struct nvd_ra_node *free_by_addr, *free_by_size, *allocs;
	uint64_t rng;
};

/* 0 or -errno (-EINVAL for size 0 or base + size overflowing, -ENOMEM). */
int nvd_ra_init(struct nvd_ra *ra, uint64_t base, uint64_t size);
void nvd_ra_fini(struct nvd_ra *ra);
/* size > 0, align a power of two (0 means 1).  -EINVAL, -ENOSPC, -ENOMEM. */
int nvd_ra_alloc(struct nvd_ra *ra, uint64_t size, uint64_t align, uint64_t *addr);
/* addr must be the start of an allocation: -ENOENT otherwise. */
int nvd_ra_free(struct nvd_ra *ra, uint64_t addr);
/* Size of the allocation at addr, 0 if none. */
uint64_t nvd_ra_size(const struct nvd_ra *ra, uint64_t addr);
uint64_t nvd_ra_largest_free(const struct nvd_ra *ra);
/* Walks every structure (O(n)) and checks the invariants: trees ordered,
 * free and allocated ranges disjoint, inside [base, base + size), covering
 * it exactly, no two free ranges adjacent, counters exact.  0, -EUCLEAN
 * (broken) or -ENOMEM.
 * For tests and debug builds. */
int nvd_ra_check(const struct nvd_ra *ra);

#endif
