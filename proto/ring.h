/* The per-channel shared memory between a client and the daemon: the submit
 * ring the client fills and the fence page the daemon publishes.  The
 * daemon copies every entry out of the ring before looking at it; nothing in
 * shared memory is trusted. */
#ifndef NVD_RING_H
#define NVD_RING_H

#include <stdint.h>

/* Submit ring memfd: a control page, then a power-of-two byte ring.
 * Positions are free-running byte counters; an entry starts at
 * (pos % NVD_RING_DATA_SIZE), is a multiple of 8 bytes and never wraps: a
 * client that cannot fit an entry before the end writes a PAD entry, or,
 * when fewer than a header's bytes remain, nothing: both sides skip a tail
 * shorter than struct nvd_submit_hdr. */
#define NVD_RING_CTL_SIZE   4096
#define NVD_RING_DATA_SIZE  (256u << 10)
#define NVD_RING_SIZE       (NVD_RING_CTL_SIZE + NVD_RING_DATA_SIZE)

struct nvd_ring_ctl {
	uint32_t head;           /* client: bytes published */
	uint32_t _pad0[15];
	uint32_t tail;           /* daemon: bytes consumed */
	uint32_t _pad1[15];
};

#define NVD_SUBMIT_PAD 1     /* flags: skip `size` bytes, nothing to run */
struct nvd_submit_hdr {
	uint32_t size;           /* whole entry, bytes, multiple of 8 */
	uint32_t seq;            /* 1, 2, 3 ... per channel, no gaps */
	uint16_t nr_bos, nr_push, nr_relocs, flags;
	uint64_t stamp;          /* CLOCK_MONOTONIC ns when published: the daemon takes
				    entries oldest first across channels */
	/* then nvd_submit_bo[nr_bos], nvd_submit_push[nr_push],
	 * nvd_submit_reloc[nr_relocs], zero padding to 8 bytes */
};

#define NVD_SUBMIT_MAX_BOS    1024
#define NVD_SUBMIT_MAX_PUSH   512
#define NVD_SUBMIT_MAX_RELOCS 1024

/* Where a buffer is: on the card in VRAM or GART, or only in its memfd
 * (HOST: evicted, or created when the card had no room), from where the
 * daemon places it before a submission that uses it runs. */
enum nvd_domain { NVD_DOMAIN_VRAM = 1, NVD_DOMAIN_GART = 2, NVD_DOMAIN_HOST = 3 };
/* access: how the submission uses the buffer, and where it needs it: with
 * IN_VRAM or IN_GART (not both) the daemon first moves the buffer there
 * (DRM's valid_domains); the new address takes effect through the
 * submission's relocations. */
enum { NVD_ACCESS_READ = 1, NVD_ACCESS_WRITE = 2, NVD_ACCESS_IN_VRAM = 4, NVD_ACCESS_IN_GART = 8 };
#define NVD_ACCESS_RW (NVD_ACCESS_READ | NVD_ACCESS_WRITE)
struct nvd_submit_bo { uint32_t handle, access; };
/* A push range: bytes [offset, offset+length) of buffer bos[bo]. */
struct nvd_submit_push { uint32_t bo, offset, length; };
/* Patch the word at byte reloc_offset of bos[reloc_bo] with bos[bo]'s card
 * address: LOW addr+data, HIGH (addr+data)>>32, neither: data; then with OR
 * |= (bos[bo] is in VRAM ? vor : tor). */
#define NVD_RELOC_LOW  1
#define NVD_RELOC_HIGH 2
#define NVD_RELOC_OR   4
struct nvd_submit_reloc { uint32_t reloc_bo, reloc_offset, bo, flags, data, vor, tor; };

static inline uint32_t nvd_submit_size(unsigned nr_bos, unsigned nr_push, unsigned nr_relocs)
{
	uint32_t n = sizeof(struct nvd_submit_hdr) + nr_bos * sizeof(struct nvd_submit_bo) +
		     nr_push * sizeof(struct nvd_submit_push) +
		     nr_relocs * sizeof(struct nvd_submit_reloc);
	return (n + 7) & ~7u;
}

/* Fence page memfd: the client maps it read-only (it is sealed against
 * writable mappings).  completed only grows; status[] tells how a completed
 * submission ended. */
#define NVD_FENCE_PAGE_SIZE 4096
#define NVD_FENCE_STATUS    1008   /* a client keeps fewer submissions in flight */
struct nvd_fence_page {
	uint32_t completed;      /* every seq <= completed has finished (or was refused) */
	uint32_t consumed;       /* the daemon has taken every seq <= consumed */
	int32_t lost;            /* 0, or -errno: the channel is gone */
	uint32_t refused;        /* submissions refused so far */
	uint32_t moved;          /* bumped whenever a buffer the client holds moves
				    (eviction, placement): where it thinks its buffers
				    are may be out of date */
	uint32_t _pad[11];
	int32_t status[NVD_FENCE_STATUS];   /* [seq % NVD_FENCE_STATUS]: 0 or -errno */
};

#endif
