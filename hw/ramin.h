/* Structures the card reads from instance memory (RAMIN): RAMHT entries,
 * DMA objects (ctxdmas) and graphics objects.  All little-endian.
 * See ../shared/ref/nv40-hardware.md §1.4, §1.7, §1.8, §2.1. */
#ifndef NV_HW_RAMIN_H
#define NV_HW_RAMIN_H

#include <stdint.h>

/* The kernel's NV40 RAMIN layout (instmem/nv40.c), offsets into RAMIN. */
#define NV40_RAMIN_RAMHT         0x10000
#define NV40_RAMIN_RAMHT_SIZE    0x8000   /* 4096 entries, 12 bits */
#define NV40_RAMIN_RAMRO         0x18000
#define NV40_RAMIN_RAMRO_SIZE    0x8000
#define NV40_RAMIN_RAMFC         0x20000
#define NV40_RAMIN_RAMFC_SIZE    0x20000
#define NV40_RAMIN_HEAP          0x40000  /* ctxdmas, grobjs, grctx */
#define NV40_RAMIN_BLOCK         0x80000  /* RAMIN maps VRAM in reverse 512K blocks */

/* The daemon's grctx image per channel (the simulator's PGRAPH state must fit). */
#define NV40_GRCTX_SIZE          0x20000
/* Instance memory the daemon keeps at the top of VRAM. */
#define NV40_RAMIN_SIZE          (8u << 20)

/* RAMIN grows down from the end of VRAM in 512 KiB blocks, each forward. */
static inline uint64_t nv40_ramin_to_vram(uint64_t vram_size, uint32_t ramin)
{
	return vram_size - ((uint64_t)(ramin >> 19) + 1) * NV40_RAMIN_BLOCK + (ramin & 0x7ffff);
}

/* RAMHT: 8-byte entries, hashed by handle and chid, probed linearly. */
#define NV40_RAMHT_ENTRY_SIZE    8
#define NV40_RAMHT_SEARCH        128
#define NV40_RAMHT_CTX(chid, engine, inst) \
	((uint32_t)(chid) << 23 | (uint32_t)(engine) << 20 | ((inst) >> 4))
#define NV40_RAMHT_CTX_CHID(c)   (((c) >> 23) & 0x1f)
#define NV40_RAMHT_CTX_ENGINE(c) (((c) >> 20) & 7)
#define NV40_RAMHT_CTX_INST(c)   (((c) & 0xfffff) << 4)
#define NV_ENGINE_SW             0
#define NV_ENGINE_GR             1
#define NV_ENGINE_MPEG           2

static inline uint32_t nv40_ramht_hash(uint32_t handle, unsigned chid, unsigned bits)
{
	uint32_t h = 0;
	while (handle) {
		h ^= handle & ((1u << bits) - 1);
		handle >>= bits;
	}
	return (h ^ (uint32_t)chid << (bits - 4)) & ((1u << bits) - 1);
}

/* DMA object: 16 bytes, 16-byte aligned. */
#define NV_DMA_SIZE              16
#define NV_DMA_W0_CLASS(w)       ((w) & 0xfff)
#define NV_DMA_W0_PT_PRESENT     (1u << 12)
#define NV_DMA_W0_PT_LINEAR      (1u << 13)
#define NV_DMA_W0_ACCESS(w)      (((w) >> 14) & 3)
#define NV_DMA_W0_TARGET(w)      (((w) >> 16) & 3)
#define NV_DMA_W0_ADJUST(w)      ((w) >> 20)
#define NV_DMA_ACCESS_RW         0
#define NV_DMA_ACCESS_RO         1
#define NV_DMA_ACCESS_WO         2
#define NV_DMA_TARGET_VRAM       0
#define NV_DMA_TARGET_PCI        2
#define NV_DMA_TARGET_AGP        3
#define NV_DMA_W0(cls, target, access, adjust) \
	((uint32_t)(cls) | NV_DMA_W0_PT_PRESENT | NV_DMA_W0_PT_LINEAR | \
	 (uint32_t)(access) << 14 | (uint32_t)(target) << 16 | ((uint32_t)(adjust) & 0xfff) << 20)
#define NV_DMA_W2_WRITABLE       (1u << 1)
#define NV_DMA_PTE_PRESENT       (1u << 0)
#define NV_DMA_PTE_RW            (1u << 1)

/* Graphics object: 20 bytes (word 0 = class; word 2 bit 24 = big-endian). */
#define NV_GROBJ_SIZE            32
#define NV_GROBJ_W2_BIG_ENDIAN   (1u << 24)

/* Little-endian access to card memory, whatever the host. */
static inline uint32_t nv_rd32le(const void *p)
{
	const uint8_t *b = p;
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline void nv_wr32le(void *p, uint32_t v)
{
	uint8_t *b = p;
	b[0] = v; b[1] = v >> 8; b[2] = v >> 16; b[3] = v >> 24;
}

#endif
