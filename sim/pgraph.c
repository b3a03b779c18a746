/* PGRAPH: subchannel bindings, method routing into the per-class state of
 * struct sim_grctx and the engines' hooks, notifiers, traps, and the
 * context switch.
 *
 * Context switching is the "simpler, honest model" of nv40-hardware.md §6:
 * the uploaded ctxprog is stored, never run; struct sim_grctx is saved word
 * by word, little-endian, at grctx image offset 0x20 (magic and version
 * first).  An image without the magic loads as power-on defaults (all
 * zero); the defaults a driver writes into a fresh image are ignored.
 *
 * Notifiers (kept simple): NOTIFY arms one; the next NOP, or the next
 * operation (M2MF BUF_NOTIFY, GDI rectangle, BLIT SIZE, SIFM POINT), of an
 * object of that class writes {u64 PTIMER ns, u32 0, u32 status 0} at
 * offset 0 of the class's DMA_NOTIFY ctxdma, and raises PGRAPH_INTR NOTIFY
 * if NOTIFY's value was 1 (WRITE_THEN_AWAKEN).  IFC and the 3D class
 * notify on NOP only. */
#include <stddef.h>
#include <string.h>

#include "priv.h"
#include "3d/bands.h"
#include "3d/curie.h"

#define PG(reg) SIM_PGRAPH(s, reg)

/* Every class table starts with NV_OBJ_METHODS: same offsets, same slots. */
#define GR_NOP             ((uint32_t)NV_M2MF_NOP)
#define GR_NOTIFY          ((uint32_t)NV_M2MF_NOTIFY)
#define GR_DMA_NOTIFY_SLOT ((unsigned)NV_M2MF_DMA_NOTIFY__SLOT)
_Static_assert((uint32_t)NV_CURIE_NOP == GR_NOP && (uint32_t)NV_CURIE_NOTIFY == GR_NOTIFY &&
	       (unsigned)NV_CURIE_DMA_NOTIFY__SLOT == GR_DMA_NOTIFY_SLOT &&
	       (unsigned)NV_BETA4_DMA_NOTIFY__SLOT == GR_DMA_NOTIFY_SLOT, "object methods are shared");

#define NOTIFY_ARMED   1u
#define NOTIFY_AWAKEN  2u

struct gr_class {
	uint32_t cls;
	size_t off;            /* slot array in struct sim_grctx */
	unsigned nslots, table;
	sim_mthd_fn *hook;
	uint32_t trigger;      /* the operation that completes a notifier, 0: NOP only */
};

#define GR_SLOTS(arr, P) offsetof(struct sim_grctx, arr), NV_##P##__NSLOTS, NV_TABLE_##P
static const struct gr_class gr_classes[] = {
	{ NV_CLASS_M2MF,       GR_SLOTS(m2mf, M2MF),       sim_m2mf_mthd, NV_M2MF_BUF_NOTIFY },
	{ NV_CLASS_SURF2D,     GR_SLOTS(surf2d, SURF2D),   NULL, 0 },
	{ NV_CLASS_SWZSURF,    GR_SLOTS(swzsurf, SWZSURF), NULL, 0 },
	{ NV_CLASS_SIFM,       GR_SLOTS(sifm, SIFM),       sim_sifm_mthd, NV_SIFM_POINT },
	{ NV_CLASS_GDI,        GR_SLOTS(gdi, GDI),         sim_gdi_mthd, NV_GDI_UNCLIPPED_RECTANGLE_SIZE },
	{ NV_CLASS_BLIT,       GR_SLOTS(blit, BLIT),       sim_blit_mthd, NV_BLIT_SIZE },
	{ NV_CLASS_IFC,        GR_SLOTS(ifc, IFC),         sim_ifc_mthd, 0 },
	{ NV_CLASS_ROP,        GR_SLOTS(rop, ROP),         NULL, 0 },
	{ NV_CLASS_PATT,       GR_SLOTS(patt, PATT),       NULL, 0 },
	{ NV_CLASS_CLIP,       GR_SLOTS(clip, CLIP),       NULL, 0 },
	{ NV_CLASS_BETA1,      GR_SLOTS(beta1, BETA1),     NULL, 0 },
	{ NV_CLASS_BETA4,      GR_SLOTS(beta4, BETA4),     NULL, 0 },
	{ NV_CLASS_CURIE_NV40, GR_SLOTS(curie, CURIE),     sim_curie_mthd, 0 },
	{ NV_CLASS_CURIE_NV44, GR_SLOTS(curie, CURIE),     sim_curie_mthd, 0 },
};
#define GR_NCLASSES (sizeof(gr_classes) / sizeof(gr_classes[0]))

static const struct gr_class *gr_class_find(uint32_t cls)
{
	for (unsigned i = 0; i < GR_NCLASSES; i++)
		if (gr_classes[i].cls == cls)
			return &gr_classes[i];
	return NULL;
}

/* A class's tables, the last ones looked up remembered (every method
 * asks; the tables are constant). */
static void gr_class_lookup(uint32_t cls, const struct gr_class **gc,
			    const struct nv_class_desc **desc)
{
	static __thread uint32_t last_cls;
	static __thread const struct gr_class *last_gc;
	static __thread const struct nv_class_desc *last_desc;

	if (!last_gc || last_cls != cls) {
		last_cls = cls;
		last_gc = gr_class_find(cls);
		last_desc = nv_class_find(cls);
	}
	*gc = last_gc;
	*desc = last_desc;
}

/* ---- the model's view ---- */

static unsigned gr_acc_cls(const struct nv_acc_state *st, uint32_t inst)
{
	return inst ? sim_obj_class(st->ctx, inst) : 0;
}

void sim_acc_view(struct sim *s, struct sim_grctx *g, struct nv_acc_state *st)
{
	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < GR_NCLASSES; i++)
		st->t[gr_classes[i].table] = (const uint32_t *)((const char *)g + gr_classes[i].off);
	st->cls = gr_acc_cls;
	st->ctx = s;
}

uint32_t sim_acc_nsource(unsigned trap)
{
	return trap == NV_ACC_STATE_INVALID ? NV_PGRAPH_NSOURCE_STATE_INVALID
					    : NV_PGRAPH_NSOURCE_DATA_ERROR;
}

/* ---- traps ---- */

void sim_gr_trap(struct sim *s, uint32_t nsource)
{
	if (sim_gr_abandoned(s))
		return;              /* what went wrong after a reset is nobody's */
	PG(NV_PGRAPH_INTR) |= NV_PGRAPH_INTR_ERROR;
	PG(NV_PGRAPH_NSOURCE) = nsource;
	PG(NV_PGRAPH_TRAPPED_ADDR) = NV_PGRAPH_TRAPPED_ADDR_VAL(s->gr_chid, s->gr_subc, s->gr_mthd);
	PG(NV_PGRAPH_TRAPPED_DATA) = s->gr_data;
}

/* ---- context save / restore ---- */

#define GR_WORDS (sizeof(struct sim_grctx) / 4)
#define GR_IMAGE_STATE 0x20      /* word 0 and the rest up to here: the host's */

static void gr_save(struct sim *s, uint32_t image)
{
	uint32_t w[GR_WORDS];

	s->gr.magic = SIM_GRCTX_MAGIC;
	s->gr.version = SIM_GRCTX_VERSION;
	memcpy(w, &s->gr, sizeof(w));
	for (unsigned i = 0; i < GR_WORDS; i++)
		sim_ramin_wr32(s, image + GR_IMAGE_STATE + i * 4, w[i]);
}

static void gr_load(struct sim *s, uint32_t image)
{
	uint32_t w[GR_WORDS];

	if (sim_ramin_rd32(s, image + GR_IMAGE_STATE) != SIM_GRCTX_MAGIC ||
	    sim_ramin_rd32(s, image + GR_IMAGE_STATE + 4) != SIM_GRCTX_VERSION) {
		memset(&s->gr, 0, sizeof(s->gr));
		s->gr.magic = SIM_GRCTX_MAGIC;
		s->gr.version = SIM_GRCTX_VERSION;
		return;
	}
	for (unsigned i = 0; i < GR_WORDS; i++)
		w[i] = sim_ramin_rd32(s, image + GR_IMAGE_STATE + i * 4);
	memcpy(&s->gr, w, sizeof(w));
}

/* Before a method runs: make the current channel's context PGRAPH's. */
static void gr_ctx_switch(struct sim *s)
{
	uint32_t want = NV_PGRAPH_CTXCTL_INST(SIM_PFIFO(s, NV_PFIFO_GRCTX_INSTANCE));
	uint32_t cur = PG(NV_PGRAPH_CTXCTL_CUR);

	if ((cur & NV_PGRAPH_CTXCTL_LOADED) && NV_PGRAPH_CTXCTL_INST(cur) == want)
		return;
	if (cur & NV_PGRAPH_CTXCTL_LOADED)
		gr_save(s, NV_PGRAPH_CTXCTL_INST(cur) << 4);
	gr_load(s, want << 4);
	PG(NV_PGRAPH_CTXCTL_CUR) = NV_PGRAPH_CTXCTL_LOADED | want;
}

/* CTXCTL_XFER: the host's synchronous save/load of CTXCTL_USER_INST. */
static void gr_user_xfer(struct sim *s)
{
	uint32_t inst = NV_PGRAPH_CTXCTL_INST(PG(NV_PGRAPH_CTXCTL_USER_INST));
	uint32_t cmd = PG(NV_PGRAPH_CTXCTL_CMD);

	if (cmd & NV_PGRAPH_CTXCTL_CMD_SAVE)
		gr_save(s, inst << 4);
	if (cmd & NV_PGRAPH_CTXCTL_CMD_LOAD) {
		gr_load(s, inst << 4);
		PG(NV_PGRAPH_CTXCTL_CUR) = NV_PGRAPH_CTXCTL_LOADED | inst;
	}
	PG(NV_PGRAPH_CTXCTL_CMD) = cmd & ~(NV_PGRAPH_CTXCTL_CMD_SAVE | NV_PGRAPH_CTXCTL_CMD_LOAD);
}

/* ---- methods ---- */

int sim_pgraph_ready(struct sim *s)
{
	return (s->pmc_enable & NV_PMC_UNIT_PGRAPH) && (PG(NV_PGRAPH_FIFO) & NV_PGRAPH_FIFO_ACCESS);
}

void sim_pgraph_bind(struct sim *s, unsigned chid, unsigned subc, uint32_t inst)
{
	(void)chid;
	gr_ctx_switch(s);
	s->gr.subc_inst[subc] = inst;
	s->gr.subc_class[subc] = sim_obj_class(s, inst);
}

static void gr_notify(struct sim *s, const struct gr_class *gc, const uint32_t *slots)
{
	uint32_t how = s->gr.notify_pending;
	struct nv_acc_list l;
	uint8_t *p;

	s->gr.notify_pending = 0;
	nv_acc_notify(gc->table, &l);
	p = sim_dma_map(s, slots[l.a[0].dma], (uint64_t)l.a[0].off, l.a[0].len, 1);
	if (!slots[GR_DMA_NOTIFY_SLOT] || !p) {
		sim_gr_trap(s, NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
		return;
	}
	sim_3d_sync_touch(s, p, l.a[0].len);
	uint64_t ns = sim_ptimer_ns(s);
	nv_wr32le(p, (uint32_t)ns);
	nv_wr32le(p + 4, (uint32_t)(ns >> 32));
	nv_wr32le(p + 8, 0);
	nv_wr32le(p + 12, 0);
	if (how & NOTIFY_AWAKEN) {
		PG(NV_PGRAPH_INTR) |= NV_PGRAPH_INTR_NOTIFY;
		PG(NV_PGRAPH_NSOURCE) = NV_PGRAPH_NSOURCE_NOTIFICATION;
		PG(NV_PGRAPH_TRAPPED_ADDR) = NV_PGRAPH_TRAPPED_ADDR_VAL(s->gr_chid, s->gr_subc, s->gr_mthd);
		PG(NV_PGRAPH_TRAPPED_DATA) = s->gr_data;
	}
}

void sim_gr_begin(struct sim *s)
{
	if (!s->gr_busy++ && !s->gr_t0)
		s->gr_t0 = sim_clock_ns();
}

void sim_gr_idle(struct sim *s)
{
	if (s->gr_t0)
		s->gr_busy_ns += sim_clock_ns() - s->gr_t0;
	s->gr_t0 = 0;
}

void sim_gr_end(struct sim *s)
{
	if (s->gr_busy == 1 && sim_gr_abandoned(s)) {
		sim_3d_sync(s);     /* the abandoned draw's queue: nothing of it runs */
		memset(&s->gr, 0, sizeof(s->gr));
		__atomic_store_n(&s->gr_abort, 0, __ATOMIC_SEQ_CST);
	}
	s->gr_busy--;
}

static void gr_mthd(struct sim *s, unsigned subc, uint32_t mthd, uint32_t data)
{
	struct sim_grctx *g = &s->gr;
	const struct gr_class *gc;
	const struct nv_class_desc *desc;
	const struct nv_mthd_desc *md;
	unsigned elem;

	gr_class_lookup(g->subc_class[subc], &gc, &desc);
	md = desc && desc->is_gr && mthd >= NV_FIFO_MTHD_END ? nv_mthd_find(desc, mthd, &elem) : NULL;
	if (!gc || !md || md->slot + elem >= gc->nslots) {
		sim_gr_trap(s, NV_PGRAPH_NSOURCE_ILLEGAL_MTHD);
		return;
	}
	uint32_t *slots = (uint32_t *)((char *)g + gc->off);
	slots[md->slot + elem] = data;
	if (md->offset == GR_NOTIFY)
		g->notify_pending = NOTIFY_ARMED | (data == 1 ? NOTIFY_AWAKEN : 0);
	if (gc->hook)
		gc->hook(s, g, mthd, elem, data);
	if (sim_gr_abandoned(s))
		return;
	if (g->notify_pending && md->offset != GR_NOTIFY &&
	    (md->offset == GR_NOP || (gc->trigger && md->offset == gc->trigger)))
		gr_notify(s, gc, slots);
}

int sim_pgraph_state_only(struct sim *s, unsigned subc, uint32_t mthd)
{
	const struct gr_class *gc;
	const struct nv_class_desc *desc;

	gr_ctx_switch(s);      /* the channel's classes, as its method would */
	gr_class_lookup(s->gr.subc_class[subc], &gc, &desc);
	return desc && mthd != GR_NOTIFY && !nv_acc_launch(desc->table_id, mthd);
}

void sim_pgraph_mthd(struct sim *s, unsigned chid, unsigned subc, uint32_t mthd, uint32_t data)
{
	gr_ctx_switch(s);
	s->gr_chid = chid;
	s->gr_subc = subc;
	s->gr_mthd = mthd;
	s->gr_data = data;
	/* latched for the host (a watchdog names the method that ran long),
	 * unless it still has to read an interrupt's */
	if (!(PG(NV_PGRAPH_INTR) & (NV_PGRAPH_INTR_ERROR | NV_PGRAPH_INTR_NOTIFY))) {
		PG(NV_PGRAPH_TRAPPED_ADDR) = NV_PGRAPH_TRAPPED_ADDR_VAL(chid, subc, mthd);
		PG(NV_PGRAPH_TRAPPED_DATA) = data;
	}
	sim_gr_begin(s);
	gr_mthd(s, subc, mthd, data);
	sim_gr_end(s);
}

/* ---- MMIO ---- */

void sim_pgraph_reset(struct sim *s)
{
	memset(s->pgraph, 0, sizeof(s->pgraph));
	memset(s->ctxprog, 0, sizeof(s->ctxprog));
	if (!s->gr_busy) {
		memset(&s->gr, 0, sizeof(s->gr));
		return;
	}
	/* In the middle of a method (the host came in between two pieces):
	 * abandon it; no fragment helper touches memory once this returns,
	 * and the worker clears the context as it leaves the method. */
	__atomic_store_n(&s->gr_abort, 1, __ATOMIC_SEQ_CST);
	sim_bands_quiesce(s);
}

uint32_t sim_pgraph_rd(struct sim *s, uint32_t reg)
{
	if (reg - NV_PGRAPH_CTX_CACHE1(0) < NV_SUBCHANNELS * 4)
		return s->gr.subc_class[(reg - NV_PGRAPH_CTX_CACHE1(0)) / 4];
	switch (reg) {
	case NV_PGRAPH_STATUS:
		/* busy only as the host sees it between two pieces of a method */
		return s->gr_busy ? NV_PGRAPH_STATUS_BUSY : 0;
	case NV_PGRAPH_CTXCTL_BUSY:
		return 0;              /* transfers finish synchronously */
	case NV_PGRAPH_CTXCTL_UCODE_DATA: {
		uint32_t *i = &PG(NV_PGRAPH_CTXCTL_UCODE_INDEX);
		uint32_t v = s->ctxprog[*i % 256];
		*i = (*i + 1) % 256;
		return v;
	}
	}
	return PG(reg);
}

void sim_pgraph_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	switch (reg) {
	case NV_PGRAPH_INTR:
		PG(reg) &= ~val;
		return;
	case NV_PGRAPH_STATUS:
	case NV_PGRAPH_CTXCTL_BUSY:
		return;
	case NV_PGRAPH_CTXCTL_UCODE_INDEX:
		PG(reg) = val % 256;
		return;
	case NV_PGRAPH_CTXCTL_UCODE_DATA: {
		uint32_t *i = &PG(NV_PGRAPH_CTXCTL_UCODE_INDEX);
		s->ctxprog[*i % 256] = val;
		*i = (*i + 1) % 256;
		return;
	}
	case NV_PGRAPH_CTXCTL_XFER:
		/* the running method owns the context: a host waits for idle
		 * first, as nouveau's nv04_gr_idle; one that does not is
		 * ignored */
		if ((val & 1) && !s->gr_busy)
			gr_user_xfer(s);
		return;
	}
	PG(reg) = val;
}
