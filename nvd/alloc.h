/* A range allocator: hands out aligned, non-overlapping pieces of one address
 * range (VRAM, GART, instance memory) and takes them back, coalescing free
 * neighbours so fragmentation does not build up. */
#ifndef NVD_ALLOC_H
#define NVD_ALLOC_H

#include <stdint.h>

struct nvd_ra_node;

struct nvd_ra {
	uint64_t base, size;
	uint64_t used;           /* bytes allocated */
	unsigned nallocs;
	struct nvd_ra_node *nodes; /* implementation's */
};

/* 0 or -errno (-EINVAL for size 0 or base + size overflowing). */
int nvd_ra_init(struct nvd_ra *ra, uint64_t base, uint64_t size);
void nvd_ra_fini(struct nvd_ra *ra);
/* size > 0, align a power of two (0 means 1).  -EINVAL, -ENOSPC. */
int nvd_ra_alloc(struct nvd_ra *ra, uint64_t size, uint64_t align, uint64_t *addr);
/* addr must be the start of an allocation: -ENOENT otherwise. */
int nvd_ra_free(struct nvd_ra *ra, uint64_t addr);
/* Size of the allocation at addr, 0 if none. */
uint64_t nvd_ra_size(const struct nvd_ra *ra, uint64_t addr);
uint64_t nvd_ra_largest_free(const struct nvd_ra *ra);

#endif
