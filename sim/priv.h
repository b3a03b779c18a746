/* Inside the simulated card: what the blocks (pfifo, pgraph, the engines)
 * share.  Nothing here is visible to a host. */
#ifndef NV_SIM_PRIV_H
#define NV_SIM_PRIV_H

#include <stdint.h>

#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "hw/regs.h"
#include "sim.h"

/* One channel's PGRAPH context: everything saved into and restored from the
 * channel's grctx image in instance memory on a context switch.  Only
 * uint32_t members, stored little-endian from grctx offset 0x20 on (word 0
 * belongs to the host, as on hardware). */
#define SIM_GRCTX_MAGIC   0x4e565347u /* "GSVN" */
#define SIM_GRCTX_VERSION 1

struct sim_grctx {
	uint32_t magic, version;
	uint32_t subc_inst[NV_SUBCHANNELS];   /* bound grobj (RAMIN offset), 0 = none */
	uint32_t subc_class[NV_SUBCHANNELS];
	/* Method state per class, indexed by NV_<P>_<NAME>__SLOT (+ element).
	 * Handle methods hold the RAMIN offset the puller translated. */
	uint32_t m2mf[NV_M2MF__NSLOTS];
	uint32_t surf2d[NV_SURF2D__NSLOTS];
	uint32_t swzsurf[NV_SWZSURF__NSLOTS];
	uint32_t sifm[NV_SIFM__NSLOTS];
	uint32_t gdi[NV_GDI__NSLOTS];
	uint32_t blit[NV_BLIT__NSLOTS];
	uint32_t ifc[NV_IFC__NSLOTS];
	uint32_t rop[NV_ROP__NSLOTS];
	uint32_t patt[NV_PATT__NSLOTS];
	uint32_t clip[NV_CLIP__NSLOTS];
	uint32_t beta1[NV_BETA1__NSLOTS];
	uint32_t beta4[NV_BETA4__NSLOTS];
	uint32_t curie[NV_CURIE__NSLOTS];
	/* engine-private state */
	uint32_t ifc_pixel;                   /* pixels of the current IFC image received */
	uint32_t notify_pending;              /* NOTIFY written, notifier due after the next operation */
};
_Static_assert(sizeof(struct sim_grctx) % 4 == 0, "grctx is a word array");
_Static_assert(0x20 + sizeof(struct sim_grctx) <= NV40_GRCTX_SIZE, "grctx fits its image");

/* ---- memory (mem.c) ---- */

/* Host pointer to [off, off+len) of instance memory, NULL if outside RAMIN
 * or across a 512 KiB RAMIN block. */
uint8_t *sim_ramin(struct sim *s, uint32_t off, uint32_t len);

/* Resolve [off, off+len) of the ctxdma whose instance is at RAMIN offset
 * `inst` to host memory.  NULL (a fault) when inst is not a DMA object, the
 * range passes its limit, the access (write != 0) is not allowed, the target
 * lies outside VRAM or system memory, or a paged range is not contiguous. */
uint8_t *sim_dma_map(struct sim *s, uint32_t inst, uint64_t off, uint64_t len, int write);

/* Class of the object at RAMIN offset inst (grobj or ctxdma word 0). */
uint32_t sim_obj_class(struct sim *s, uint32_t inst);

/* ---- PGRAPH (pgraph.c) ---- */

/* Raise PGRAPH_INTR ERROR for the method being executed: NSOURCE bits, trapped
 * address (chid, subchannel, method) and data. The method has no effect. */
void sim_gr_trap(struct sim *s, uint32_t nsource);

/* Nanoseconds of PTIMER, for notifiers and query reports. */
uint64_t sim_ptimer_ns(struct sim *s);

/* ---- engines: called by PGRAPH after it stored `data` into the class's
 * slot.  mthd is the byte offset, elem the array index. ---- */
typedef void sim_mthd_fn(struct sim *s, struct sim_grctx *g, uint32_t mthd, unsigned elem,
			 uint32_t data);
sim_mthd_fn sim_m2mf_mthd;    /* m2mf.c: BUF_NOTIFY runs the copy */
sim_mthd_fn sim_gdi_mthd;     /* gdi.c: UNCLIPPED_RECTANGLE_SIZE fills */
sim_mthd_fn sim_blit_mthd;    /* blit.c: SIZE copies */
sim_mthd_fn sim_ifc_mthd;     /* ifc.c: COLOR streams pixels */
sim_mthd_fn sim_sifm_mthd;    /* sifm.c: POINT scales and converts */

#endif
