/* Card memory as the engines see it: instance memory (RAMIN, at the top of
 * VRAM in reverse 512 KiB blocks), DMA objects (ctxdmas) over VRAM and
 * system memory, and the class word of objects. */
#include "priv.h"

uint8_t *sim_ramin(struct sim *s, uint32_t off, uint32_t len)
{
	if (!len)
		len = 1;
	if (off >= NV40_RAMIN_SIZE || len > NV40_RAMIN_BLOCK ||
	    (off & (NV40_RAMIN_BLOCK - 1)) + len > NV40_RAMIN_BLOCK)
		return NULL;
	return s->vram + nv40_ramin_to_vram(s->vram_size, off);
}

uint32_t sim_ramin_rd32(struct sim *s, uint32_t off)
{
	const uint8_t *p = sim_ramin(s, off, 4);
	return p ? nv_rd32le(p) : 0;
}

void sim_ramin_wr32(struct sim *s, uint32_t off, uint32_t val)
{
	uint8_t *p = sim_ramin(s, off, 4);
	if (p)
		nv_wr32le(p, val);
}

/* BAR0 PRAMIN: the first MiB of instance memory. */
uint32_t sim_pramin_rd(struct sim *s, uint32_t reg)
{
	return sim_ramin_rd32(s, reg - NV_PRAMIN);
}

void sim_pramin_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	sim_ramin_wr32(s, reg - NV_PRAMIN, val);
}

/* DMA class numbers share word 0 with flags in 31:12; graphics objects keep
 * a 16-bit class there (0x4097).  No NV4x graphics class ends in one of
 * the DMA numbers' low 12 bits, so those decide. */
uint32_t sim_obj_class(struct sim *s, uint32_t inst)
{
	uint32_t w0 = sim_ramin_rd32(s, inst);

	switch (NV_DMA_W0_CLASS(w0)) {
	case NV_CLASS_DMA_FROM_MEMORY:
	case NV_CLASS_DMA_TO_MEMORY:
	case NV_CLASS_DMA_IN_MEMORY:
		return NV_DMA_W0_CLASS(w0);
	}
	return w0 & 0xffff;
}

/* Which memory a ctxdma target names. */
static int sim_dma_target(struct sim *s, uint32_t w0, uint8_t **base, uint64_t *size)
{
	switch (NV_DMA_W0_TARGET(w0)) {
	case NV_DMA_TARGET_VRAM:
		*base = s->vram;
		*size = s->vram_size;
		return 0;
	case NV_DMA_TARGET_PCI:
	case NV_DMA_TARGET_AGP:
		*base = s->sysmem;
		*size = s->sysmem_size;
		return *base ? 0 : -1;
	}
	return -1;
}

/* Paged ctxdma (PT_PRESENT without PT_LINEAR): one PTE per 4 KiB page at
 * +8; the pages [off, off+len) touches must be present (and writable for
 * a write) and physically contiguous.  Returns the bus address or -1. */
static int64_t sim_dma_paged(struct sim *s, uint32_t inst, uint64_t off, uint64_t len, int write)
{
	uint64_t first = off >> 12, last = (off + len - 1) >> 12;
	uint64_t start = 0, prev = 0;

	for (uint64_t p = first; p <= last; p++) {
		uint64_t at = (uint64_t)inst + 8 + p * 4;
		if (at >= NV40_RAMIN_SIZE)
			return -1;
		uint32_t pte = sim_ramin_rd32(s, (uint32_t)at);
		if (!(pte & NV_DMA_PTE_PRESENT) || (write && !(pte & NV_DMA_PTE_RW)))
			return -1;
		uint64_t phys = pte & ~0xfffu;
		if (p == first)
			start = phys | (off & 0xfff);
		else if (phys != prev + 0x1000)
			return -1;
		prev = phys;
	}
	return (int64_t)start;
}

uint8_t *sim_dma_map(struct sim *s, uint32_t inst, uint64_t off, uint64_t len, int write)
{
	const uint8_t *o;
	uint32_t w0, limit;
	uint8_t *base;
	uint64_t size, addr;

	if (sim_gr_abandoned(s))
		return NULL;          /* a method abandoned by a reset maps nothing more */

	if (inst & (NV_DMA_SIZE - 1))
		return NULL;
	o = sim_ramin(s, inst, NV_DMA_SIZE);
	if (!o)
		return NULL;
	w0 = nv_rd32le(o);
	limit = nv_rd32le(o + 4);
	switch (NV_DMA_W0_CLASS(w0)) {
	case NV_CLASS_DMA_FROM_MEMORY:
	case NV_CLASS_DMA_TO_MEMORY:
	case NV_CLASS_DMA_IN_MEMORY:
		break;
	default:
		return NULL;
	}
	/* Access is what the object allows; the class name's direction is not
	 * enforced (the kernel makes FROM_MEMORY objects read-write). */
	if ((write && NV_DMA_W0_ACCESS(w0) == NV_DMA_ACCESS_RO) ||
	    (!write && NV_DMA_W0_ACCESS(w0) == NV_DMA_ACCESS_WO))
		return NULL;
	if (sim_dma_target(s, w0, &base, &size))
		return NULL;
	if (!len)
		len = 1;
	/* off + len - 1 <= limit, without overflow */
	if (off > limit || len - 1 > limit - off)
		return NULL;
	off += NV_DMA_W0_ADJUST(w0);
	if (w0 & NV_DMA_W0_PT_LINEAR) {
		addr = (nv_rd32le(o + 8) & ~0xfffu) + off;
	} else if (w0 & NV_DMA_W0_PT_PRESENT) {
		int64_t a = sim_dma_paged(s, inst, off, len, write);
		if (a < 0)
			return NULL;
		addr = (uint64_t)a;
	} else {
		return NULL;
	}
	if (addr > size || len > size - addr)
		return NULL;
	sim_oracle_check(s, NV_DMA_W0_TARGET(w0) == NV_DMA_TARGET_VRAM ? SIM_ORACLE_VRAM
								    : SIM_ORACLE_BUS,
			 addr, len, write, NULL);
	return base + addr;
}
