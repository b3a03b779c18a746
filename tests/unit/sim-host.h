/* A tiny host for the simulator's unit tests: programs the card through
 * sim_wr32 and instance memory exactly as the daemon does (bring-up, RAMHT,
 * ctxdmas, grobjs, RAMFC, push buffers in system memory). */
#ifndef TEST_SIM_HOST_H
#define TEST_SIM_HOST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "hw/regs.h"
#include "hw/methods.h"
#include "hw/vp-isa.h"
#include "sim/sim.h"
#include "sim/priv.h"

#define HOST_VRAM      (32u << 20)
#define HOST_SYSMEM    (4u << 20)
#define HOST_RAMHT_BITS 12
/* RAMIN layout of the tests (above the kernel-style fixed areas) */
#define HOST_PB_DMA    0x40000u        /* push buffer ctxdma: all of sysmem, PCI */
#define HOST_VRAM_DMA  0x40010u        /* all of VRAM */
#define HOST_SYS_DMA   0x40020u        /* all of sysmem, read-write */
#define HOST_OBJ(i)    (0x41000u + (i) * NV_GROBJ_SIZE)
#define HOST_GRCTX(c)  (0x100000u + (c) * NV40_GRCTX_SIZE)
#define HOST_RING(c)   ((uint32_t)(c) * 0x10000u)  /* ring start in sysmem */
#define HOST_SW_HANDLE 0x5157f000u

struct host {
	struct sim *s;
	uint8_t *sysmem;
	uint32_t put[NV40_FIFO_CHANNELS];    /* where the next word goes */
};

static inline void host_ramin_wr32(struct host *h, uint32_t off, uint32_t v)
{
	nv_wr32le(sim_vram(h->s) + nv40_ramin_to_vram(sim_vram_size(h->s), off), v);
}

static inline uint32_t host_ramin_rd32(struct host *h, uint32_t off)
{
	return nv_rd32le(sim_vram(h->s) + nv40_ramin_to_vram(sim_vram_size(h->s), off));
}

static inline void host_bringup(struct host *h)
{
	struct sim *s = h->s;
	sim_wr32(s, NV_PMC_ENABLE, ~0u);
	sim_wr32(s, NV_PMC_INTR_EN, 1);
	sim_wr32(s, NV_PFIFO_DELAY_0, 0xff);
	sim_wr32(s, NV_PFIFO_DMA_TIMESLICE, 0x2101ffff);
	sim_wr32(s, NV_PFIFO_RAMHT, (3u << 24) | ((HOST_RAMHT_BITS - 9) << 16) | (NV40_RAMIN_RAMHT >> 8));
	sim_wr32(s, NV_PFIFO_RAMRO, NV40_RAMIN_RAMRO >> 8);
	sim_wr32(s, NV_PFIFO_RAMFC, (NV40_RAMIN_RAMFC >> 16) | (3u << 16));
	sim_wr32(s, NV_PFIFO_INTR, ~0u);
	sim_wr32(s, NV_PFIFO_INTR_EN, ~0u);
	sim_wr32(s, NV_PFIFO_CACHE1_PUSH1, NV40_FIFO_CHID_NONE | NV_PFIFO_CACHE1_PUSH1_DMA);
	sim_wr32(s, NV_PFIFO_CACHE1_PUSH0, 1);
	sim_wr32(s, NV_PFIFO_CACHE1_PULL0, 1);
	sim_wr32(s, NV_PFIFO_CACHE1_DMA_PUSH, 1);
	sim_wr32(s, NV_PFIFO_CACHES, 1);
	sim_wr32(s, NV_PGRAPH_INTR, ~0u);
	sim_wr32(s, NV_PGRAPH_INTR_EN, ~0u);
	sim_wr32(s, NV_PGRAPH_FIFO, 1);
	sim_wr32(s, NV_PGRAPH_CTXCTL_CUR, 0);
}

static inline void host_ctxdma(struct host *h, uint32_t inst, uint32_t cls, unsigned target,
			       unsigned access, uint64_t base, uint32_t limit)
{
	uint32_t frame = (uint32_t)(base & ~0xfffull) |
			 (access == NV_DMA_ACCESS_RO ? 0 : NV_DMA_W2_WRITABLE);
	host_ramin_wr32(h, inst + 0, NV_DMA_W0(cls, target, access, base & 0xfff));
	host_ramin_wr32(h, inst + 4, limit);
	host_ramin_wr32(h, inst + 8, frame);
	host_ramin_wr32(h, inst + 12, frame);
}

static inline void host_grobj(struct host *h, uint32_t inst, uint32_t cls)
{
	host_ramin_wr32(h, inst, cls);
	for (unsigned i = 4; i < NV_GROBJ_SIZE; i += 4)
		host_ramin_wr32(h, inst + i, 0);
}

/* Insert like the kernel: first free slot probing linearly from the hash.
 * Returns the entry index. */
static inline unsigned host_ramht_add(struct host *h, uint32_t handle, unsigned chid,
				      unsigned engine, uint32_t inst)
{
	unsigned n = 1u << HOST_RAMHT_BITS;
	unsigned i = nv40_ramht_hash(handle, chid, HOST_RAMHT_BITS);
	for (unsigned k = 0; k < n; k++, i = (i + 1) % n) {
		uint32_t at = NV40_RAMIN_RAMHT + i * NV40_RAMHT_ENTRY_SIZE;
		if (!host_ramin_rd32(h, at + 4)) {
			host_ramin_wr32(h, at, handle);
			host_ramin_wr32(h, at + 4, NV40_RAMHT_CTX(chid, engine, inst));
			return i;
		}
	}
	fail_msg("RAMHT full");
	return 0;
}

static inline void host_ramht_set(struct host *h, unsigned index, uint32_t handle, uint32_t ctx)
{
	uint32_t at = NV40_RAMIN_RAMHT + index * NV40_RAMHT_ENTRY_SIZE;
	host_ramin_wr32(h, at, handle);
	host_ramin_wr32(h, at + 4, ctx);
}

static inline uint32_t host_ramfc_rd(struct host *h, unsigned chid, uint32_t off)
{
	return host_ramin_rd32(h, NV40_RAMIN_RAMFC + chid * NV40_RAMFC_SIZE + off);
}

/* Channel creation as the daemon does it (nv40.c order), with a software
 * object on subchannel 1 ready to be bound. */
static inline void host_chan_new(struct host *h, unsigned chid, uint32_t pb_dma)
{
	uint32_t fc = NV40_RAMIN_RAMFC + chid * NV40_RAMFC_SIZE;
	for (unsigned i = 0; i < NV40_RAMFC_SIZE; i += 4)
		host_ramin_wr32(h, fc + i, 0);
	host_ramin_wr32(h, fc + 0x00, HOST_RING(chid));
	host_ramin_wr32(h, fc + 0x04, HOST_RING(chid));
	host_ramin_wr32(h, fc + 0x0c, pb_dma >> 4);
	host_ramin_wr32(h, fc + 0x18, 0x30000000 | 0x80000 | 0x1f00 | 0xf8);
	host_ramin_wr32(h, fc + 0x38, HOST_GRCTX(chid) >> 4);
	host_ramin_wr32(h, fc + 0x3c, 0x1ffff);
	host_ramin_wr32(h, HOST_GRCTX(chid), HOST_GRCTX(chid) >> 4);
	host_ramht_add(h, HOST_SW_HANDLE, chid, NV_ENGINE_SW, HOST_OBJ(0));
	h->put[chid] = HOST_RING(chid);
	sim_wr32(h->s, NV_PFIFO_MODE, sim_rd32(h->s, NV_PFIFO_MODE) | 1u << chid);
}

/* $NVD_SIM_JIT (on, sync, verify) runs the card's fragment programs compiled:
 * every test must pass the same with it. */
static inline unsigned host_jit(void)
{
	const char *e = getenv("NVD_SIM_JIT");
	return !e ? SIM_JIT_OFF : !strcmp(e, "sync") ? SIM_JIT_SYNC : !strcmp(e, "on") ? SIM_JIT_ON :
	       !strcmp(e, "verify") ? SIM_JIT_VERIFY : SIM_JIT_OFF;
}

/* cfg: chipset, manual, threads and the hook set; the rest is filled in */
static inline void host_new_config(struct host *h, struct sim_config cfg)
{
	char err[128];

	memset(h, 0, sizeof(*h));
	h->sysmem = calloc(1, HOST_SYSMEM);
	assert_non_null(h->sysmem);
	cfg.vram_size = HOST_VRAM;
	cfg.sysmem = h->sysmem;
	cfg.sysmem_size = HOST_SYSMEM;
	cfg.jit = host_jit();
	h->s = sim_new(&cfg, err, sizeof(err));
	if (!h->s)
		fail_msg("sim_new: %s", err);
	host_bringup(h);
	host_ctxdma(h, HOST_PB_DMA, NV_CLASS_DMA_FROM_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RO,
		    0, HOST_SYSMEM - 1);
	host_ctxdma(h, HOST_VRAM_DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RW,
		    0, HOST_VRAM - 1);
	host_ctxdma(h, HOST_SYS_DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RW,
		    0, HOST_SYSMEM - 1);
	host_grobj(h, HOST_OBJ(0), 0x506e);     /* the software object */
}

/* threads: sim_config's (0 = automatic) */
static inline void host_new_threads(struct host *h, unsigned chipset, int manual, unsigned threads)
{
	host_new_config(h, (struct sim_config){ .chipset = chipset, .manual = manual,
						.threads = threads });
}

static inline void host_new_cfg(struct host *h, unsigned chipset, int manual)
{
	host_new_threads(h, chipset, manual, 0);
}

static inline void host_new(struct host *h)
{
	host_new_cfg(h, 0x43, 1);
}

static inline void host_free(struct host *h)
{
	sim_free(h->s);
	free(h->sysmem);
}

/* ---- vertex programs ---- */

/* One VP instruction "vec op dst[mask], src0, src1" on outputs. */
static inline void host_vp_insn(uint32_t o[4], unsigned op, unsigned dest, unsigned mask,
				uint32_t s0, uint32_t s1, unsigned input, unsigned cst, int last)
{
	nv40_vp_vec_to_output(o, op, dest, mask, s0, s1, input, cst, last);
}

/* ---- push buffer ---- */

static inline void host_emit_at(struct host *h, uint32_t at, uint32_t w)
{
	nv_wr32le(h->sysmem + at, w);
}

static inline void host_emit(struct host *h, unsigned chid, uint32_t w)
{
	host_emit_at(h, h->put[chid], w);
	h->put[chid] += 4;
}

static inline void host_mthd(struct host *h, unsigned chid, unsigned subc, uint32_t mthd, uint32_t data)
{
	host_emit(h, chid, NV_CMD_INC_WORD(subc, mthd, 1));
	host_emit(h, chid, data);
}

static inline void host_kick(struct host *h, unsigned chid)
{
	sim_wr32(h->s, NV40_USER(chid) + NV40_USER_DMA_PUT, h->put[chid]);
}

static inline uint32_t host_user(struct host *h, unsigned chid, uint32_t off)
{
	return sim_rd32(h->s, NV40_USER(chid) + off);
}

static inline uint32_t host_ref(struct host *h, unsigned chid)
{
	return host_user(h, chid, NV40_USER_REF);
}

/* The software-method ack the daemon performs. */
static inline void host_ack_sw(struct host *h)
{
	struct sim *s = h->s;
	sim_wr32(s, NV_PFIFO_CACHE1_GET, sim_rd32(s, NV_PFIFO_CACHE1_GET) + 4);
	sim_wr32(s, NV_PFIFO_INTR, NV_PFIFO_INTR_CACHE_ERROR);
	sim_wr32(s, NV_PFIFO_CACHE1_PULL0, 1);
}

/* The pusher-error ack (nv04_fifo_dma_pusher). */
static inline void host_ack_pusher(struct host *h)
{
	struct sim *s = h->s;
	sim_wr32(s, NV_PFIFO_CACHE1_DMA_GET, sim_rd32(s, NV_PFIFO_CACHE1_DMA_PUT));
	sim_wr32(s, NV_PFIFO_CACHE1_DMA_STATE, 0);
	sim_wr32(s, NV_PFIFO_CACHE1_DMA_PUSH, 1);
	sim_wr32(s, NV_PFIFO_INTR, NV_PFIFO_INTR_DMA_PUSHER);
}

/* The method waiting in CACHE1 (at GET). */
static inline uint32_t host_cache1_mthd(struct host *h)
{
	return sim_rd32(h->s, NV_PFIFO_CACHE1_METHOD((sim_rd32(h->s, NV_PFIFO_CACHE1_GET) & 0x7ff) >> 2));
}

static inline uint32_t host_cache1_data(struct host *h)
{
	return sim_rd32(h->s, NV_PFIFO_CACHE1_DATA((sim_rd32(h->s, NV_PFIFO_CACHE1_GET) & 0x7ff) >> 2));
}

/* Save PGRAPH's loaded context into `image` through CTXCTL_XFER, as the
 * kernel's nv40_gr_chan_fini does, and read a word of saved state. */
static inline void host_gr_save(struct host *h, uint32_t image)
{
	sim_wr32(h->s, NV_PGRAPH_CTXCTL_USER_INST, NV_PGRAPH_CTXCTL_LOADED | image >> 4);
	sim_wr32(h->s, NV_PGRAPH_CTXCTL_CMD, NV_PGRAPH_CTXCTL_CMD_SAVE);
	sim_wr32(h->s, NV_PGRAPH_CTXCTL_XFER, 1);
}

#define HOST_GR_WORD(h, image, field) \
	host_ramin_rd32((h), (image) + 0x20 + (uint32_t)offsetof(struct sim_grctx, field))

/* cmocka fixtures: a fresh host per test. */
static inline int host_setup(void **state)
{
	struct host *h = calloc(1, sizeof(*h));
	if (!h)
		return -1;
	host_new(h);
	*state = h;
	return 0;
}

static inline int host_teardown(void **state)
{
	struct host *h = *state;
	host_free(h);
	free(h);
	return 0;
}

#endif
