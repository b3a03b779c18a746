/* Inside the simulated card: what the blocks (pfifo, pgraph, the engines)
 * share.  Nothing here is visible to a host. */
#ifndef NV_SIM_PRIV_H
#define NV_SIM_PRIV_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "hw/access.h"
#include "hw/chips.h"
#include "hw/display.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "hw/regs.h"
#include "sim.h"
#include "3d/state.h"

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
	struct sim_3d_state c3d;              /* sim/3d/: program RAM, queries, pipeline */
	/* engine-private state */
	uint32_t ifc_pixel;                   /* pixels of the current IFC image received */
	uint32_t notify_pending;              /* NOTIFY written, notifier due after the next operation */
};
_Static_assert(sizeof(struct sim_grctx) % 4 == 0, "grctx is a word array");
_Static_assert(0x20 + sizeof(struct sim_grctx) <= NV40_GRCTX_SIZE, "grctx fits its image");

/* Registers nobody models: stored and returned (PGRAPH debug, PFB config,
 * PCRTC until a display block exists...).  Open addressing; when full, new
 * registers read 0 and writes are dropped. */
#define SIM_MISC_SLOTS 4096
struct sim_misc {
	uint32_t reg[SIM_MISC_SLOTS];     /* reg + 1, 0 = empty */
	uint32_t val[SIM_MISC_SLOTS];
};

/* One DDC bus: the slave side of an I2C bus in front of a 128-byte EDID
 * EEPROM (i2c.c).  The master drives through a CR register of head 0. */
struct sim_i2c {
	int present;                        /* a monitor (EEPROM) is connected */
	uint8_t rom[NV_EDID_SIZE];
	uint8_t scl, sda;                   /* master's outputs (1: released) */
	uint8_t slave_low;                  /* the slave pulls SDA low */
	uint8_t state, bits, shift, ptr, rd, acked;
};

/* One head's display registers (crtc.c). */
struct sim_head {
	uint32_t intr, intr_en, start, config, cursor_config;
	uint32_t cu_start_pos, gen_ctrl;
	uint8_t crx, cr[NV_CR_COUNT];
	uint8_t srx, sr[256], grx, gr[256], misc;
	uint8_t arx, ar[32], ar_data;       /* attribute controller, ar_data: flip-flop */
	uint8_t pal[256 * 3], pal_mask;
	uint16_t pal_w, pal_r;              /* palette positions, 3 per entry */
	uint8_t vga_other[3][0x1000];       /* other PRMCIO / PRMDIO / PRMVIO bytes: stored */
	/* Timing derived from the registers (sim_crtc_retime). */
	int running;
	struct nv_crtc_timing t;            /* as the CRs say */
	uint32_t vbs, clock_khz;            /* vblank start line; 0: VPLL unset */
	uint64_t period_ns, vbs_ns;         /* frame, line 0 to vblank start */
	uint64_t t_frame0;                  /* PTIMER ns at which a frame began */
	uint64_t vblanks;                   /* vblank starts since t_frame0, counted */
};

struct sim {
	const struct nv_chip *chip;
	uint8_t *vram;
	uint64_t vram_size;
	uint8_t *sysmem;
	uint64_t sysmem_size;
	int manual;
	int (*irq_hook)(void *arg, struct sim *s, uint32_t pfifo_fresh);
	void *irq_arg;

	/* One lock for everything: MMIO, the worker's chunks and the pieces
	 * of a long method (sim_gr_piece), sim_run. */
	pthread_mutex_t lock;
	pthread_cond_t wake;                /* work may be runnable */
	pthread_t thread;
	int thread_started, stop;
	int mmio_waiting;                   /* host threads queued on the lock (atomic) */
	int worker_idle;                    /* the worker sleeps on wake */
	int brief, brief_stop;              /* a PUT write's run (sim.c: sim_brief); it
					       reached a method that touches memory */

	int irq_fd;
	uint32_t irq_seen[4];               /* pending bits at the last update */
	int line;                           /* the line then (read without the lock) */

	/* PMC */
	uint32_t pmc_enable, pmc_intr_en, pmc_boot_1;

	/* PTIMER */
	struct timespec t0;
	int64_t ptimer_offset;              /* host writes of TIME_LO/HI */
	uint32_t ptimer_hi_latch, ptimer_hi_wr;
	uint32_t ptimer_intr, ptimer_intr_en, ptimer_num, ptimer_den;

	/* PBUS, PFB, PEXTDEV */
	uint32_t pbus_intr, pbus_intr_en;

	/* PFIFO: the whole block as a register file (store-and-return; the
	 * registers with behaviour are handled in pfifo.c), CACHE1 slots. */
	uint32_t pfifo[NV_PFIFO_SIZE / 4];
	uint32_t cache1_mthd[NV_PFIFO_CACHE1_SIZE];
	uint32_t cache1_data[NV_PFIFO_CACHE1_SIZE];
	uint32_t slice_used;                /* words since the channel's slice began */
	uint64_t slice_t0;                  /* when it began (monotonic clock, ns) */
	uint64_t pieces, slice_pieces;      /* pieces of long methods the worker ran; as
					       many when the slice's clock was last read */
	int yield;                          /* YIELD seen: switch if someone waits */
	int acquire_waiting;                /* a channel is blocked on a semaphore */

	/* PGRAPH */
	uint32_t pgraph[NV_PGRAPH_SIZE / 4];
	uint32_t ctxprog[256];              /* uploaded ctxprog, stored, never run */
	struct sim_grctx gr;                /* the loaded context */
	unsigned gr_chid, gr_subc;          /* the method being executed (traps) */
	uint32_t gr_mthd, gr_data;
	/* PGRAPH busy: methods or queued fragment work in progress (a depth,
	 * sim_gr_begin/end).  While busy the worker lets MMIO in at pieces
	 * (sim_gr_piece); a PMC reset then sets gr_abort (atomic) and the
	 * method is abandoned at the next piece (sim_gr_end). */
	int gr_busy;
	int gr_abort;
	/* Busy time (sim_busy_ns): PFIFO's chunks that made progress, PGRAPH's
	 * spans from the method that found it idle to the end of the chunk
	 * that left nothing in progress or queued.  *_t0: when the open one
	 * began (0: none), for a reader between pieces of a long method. */
	uint64_t fifo_busy_ns, fifo_t0;
	uint64_t gr_busy_ns, gr_t0;
	uint64_t chan_busy_ns[NV40_FIFO_CHANNELS];   /* PFIFO's, by the chunk's channel */

	/* Display: two heads, two DDC buses */
	struct sim_head head[NV_PCRTC_HEADS];
	struct sim_i2c ddc[NV_DDC_BUSES];

	struct sim_misc misc;
	struct sim_bands *bands;            /* 3D fragment threads (3d/bands.c), NULL: none */
	struct sim_jit *jit;                /* the fragment program compiler (3d/jit.h), NULL: none */

	/* The access oracle (oracle.c), NULL when off, and what the card is
	 * executing, for it: set by the pusher and the puller. */
	struct sim_oracle *orc;
	struct sim_oracle_ctx {
		unsigned chid, subc;
		uint32_t mthd, get;         /* method; push buffer offset of its data word */
		int pusher;                 /* the pusher reads command words */
		int defer;                  /* maps whose use the caller checks itself */
	} orc_ctx;
};

#define SIM_PFIFO(s, reg) ((s)->pfifo[((reg) - NV_PFIFO_BASE) >> 2])
#define SIM_PGRAPH(s, reg) ((s)->pgraph[((reg) - NV_PGRAPH_BASE) >> 2])

/* ---- sim.c ---- */

/* Recompute the interrupt line and signal the eventfd if it is (re)asserted.
 * host_ack: called after a host write to an interrupt register. Lock held. */
void sim_irq_update(struct sim *s, int host_ack);
/* Work may have become runnable: wake the worker.  Lock held. */
void sim_kick(struct sim *s);
uint32_t sim_misc_rd(struct sim *s, uint32_t reg);
void sim_misc_wr(struct sim *s, uint32_t reg, uint32_t val);

/* ---- blocks: MMIO handlers, called with the lock held ---- */
uint32_t sim_pmc_rd(struct sim *s, uint32_t reg);
void sim_pmc_wr(struct sim *s, uint32_t reg, uint32_t val);
uint32_t sim_pmc_intr(struct sim *s);          /* PMC_INTR as it reads */
uint32_t sim_ptimer_rd(struct sim *s, uint32_t reg);
void sim_ptimer_wr(struct sim *s, uint32_t reg, uint32_t val);
void sim_ptimer_init(struct sim *s);
uint32_t sim_pbus_rd(struct sim *s, uint32_t reg);      /* PBUS, PFB, PEXTDEV */
void sim_pbus_wr(struct sim *s, uint32_t reg, uint32_t val);
uint32_t sim_pramin_rd(struct sim *s, uint32_t reg);
void sim_pramin_wr(struct sim *s, uint32_t reg, uint32_t val);
uint32_t sim_pfifo_rd(struct sim *s, uint32_t reg);     /* PFIFO + CACHE1 slots */
void sim_pfifo_wr(struct sim *s, uint32_t reg, uint32_t val);
uint32_t sim_user_rd(struct sim *s, uint32_t reg);
void sim_user_wr(struct sim *s, uint32_t reg, uint32_t val);
void sim_pfifo_reset(struct sim *s);
uint32_t sim_pgraph_rd(struct sim *s, uint32_t reg);
void sim_pgraph_wr(struct sim *s, uint32_t reg, uint32_t val);
void sim_pgraph_reset(struct sim *s);
/* Display (crtc.c): PCRTC + PRMCIO, PRAMDAC + PRMDIO, PRMVIO.  The 32-bit
 * handlers split accesses to the VGA byte ports into bytes. */
uint32_t sim_pcrtc_rd(struct sim *s, uint32_t reg);
void sim_pcrtc_wr(struct sim *s, uint32_t reg, uint32_t val);
uint32_t sim_pramdac_rd(struct sim *s, uint32_t reg);
void sim_pramdac_wr(struct sim *s, uint32_t reg, uint32_t val);
uint32_t sim_prmvio_rd(struct sim *s, uint32_t reg);
void sim_prmvio_wr(struct sim *s, uint32_t reg, uint32_t val);
uint8_t sim_crtc_rd08(struct sim *s, uint32_t reg);
void sim_crtc_wr08(struct sim *s, uint32_t reg, uint8_t val);
void sim_crtc_reset(struct sim *s);
/* Raise the vblank interrupts due by now.  Nonzero if one was raised. */
int sim_crtc_tick(struct sim *s);
/* PMC_INTR bits of the heads (NV_PMC_UNIT_PCRTC0/1). */
uint32_t sim_crtc_intr(struct sim *s);
/* Nanoseconds until the next vblank that would raise a new interrupt,
 * UINT64_MAX if none will. */
uint64_t sim_crtc_wait_ns(struct sim *s);
/* DDC (i2c.c) */
void sim_i2c_reset(struct sim_i2c *b, const uint8_t *edid);
void sim_i2c_drive(struct sim_i2c *b, uint8_t scl, uint8_t sda);
uint8_t sim_i2c_scl(const struct sim_i2c *b);
uint8_t sim_i2c_sda(const struct sim_i2c *b);

/* ---- PFIFO scheduling (pfifo.c) ---- */

/* Run one chunk: pick a channel (switching if due) and process up to
 * `budget` command words.  Adds the words processed to *words.  Returns
 * nonzero if anything changed (so calling again may make progress). */
int sim_pfifo_work(struct sim *s, unsigned budget, unsigned long *words);

/* ---- RAMHT (ramht.c) ---- */

/* Look handle up for chid in the table PFIFO_RAMHT names; *ctx gets the
 * context word.  0 when found, -1 on a miss. */
int sim_ramht_find(struct sim *s, unsigned chid, uint32_t handle, uint32_t *ctx);

/* ---- PGRAPH entry points for the puller (pgraph.c) ---- */
void sim_pgraph_bind(struct sim *s, unsigned chid, unsigned subc, uint32_t inst);
void sim_pgraph_mthd(struct sim *s, unsigned chid, unsigned subc, uint32_t mthd, uint32_t data);
/* Can PGRAPH take a method now (PMC enabled, FIFO access on)? */
int sim_pgraph_ready(struct sim *s);
/* Whether method mthd of the object on subc only sets state: no launch or
 * NOTIFY in hw/access.h, so it is quick whatever the state (sim_brief). */
int sim_pgraph_state_only(struct sim *s, unsigned subc, uint32_t mthd);

/* ---- memory (mem.c) ---- */

/* Little-endian word of instance memory; reads 0 / drops the write outside RAMIN. */
uint32_t sim_ramin_rd32(struct sim *s, uint32_t off);
void sim_ramin_wr32(struct sim *s, uint32_t off, uint32_t val);

/* Host pointer to [off, off+len) of instance memory, NULL if outside RAMIN
 * or across a 512 KiB RAMIN block. */
uint8_t *sim_ramin(struct sim *s, uint32_t off, uint32_t len);

/* Resolve [off, off+len) of the ctxdma whose instance is at RAMIN offset
 * `inst` to host memory.  NULL (a fault) when inst is not a DMA object, the
 * range passes its limit, the access (write != 0) is not allowed, the target
 * lies outside VRAM or system memory, or a paged range is not contiguous.
 * len 0 is checked as 1 byte. */
uint8_t *sim_dma_map(struct sim *s, uint32_t inst, uint64_t off, uint64_t len, int write);

/* Class of the object at RAMIN offset inst (grobj or ctxdma word 0). */
uint32_t sim_obj_class(struct sim *s, uint32_t inst);

/* ---- the access oracle (oracle.c) ---- */

/* Take the lock as a host thread does (sim.c). */
void sim_host_lock(struct sim *s);

void sim_oracle_free(struct sim *s);

/* Check an access of len bytes (0 counts as 1) at addr of target against
 * what was admitted for the command in s->orc_ctx; what names the engine's
 * part, NULL: the method says it.  No-ops when the oracle is off or maps
 * are deferred (sim_oracle_defer). */
void sim_oracle_check_(struct sim *s, unsigned target, uint64_t addr, uint64_t len, int write,
		       const char *what);
void sim_oracle_check_ptr_(struct sim *s, const void *p, uint64_t len, int write,
			   const char *what);
static inline void sim_oracle_check(struct sim *s, unsigned target, uint64_t addr, uint64_t len,
				    int write, const char *what)
{
	if (s->orc && !s->orc_ctx.defer)
		sim_oracle_check_(s, target, addr, len, write, what);
}
/* The same for a host pointer sim_dma_map gave. */
static inline void sim_oracle_check_ptr(struct sim *s, const void *p, uint64_t len, int write,
					const char *what)
{
	if (s->orc && !s->orc_ctx.defer)
		sim_oracle_check_ptr_(s, p, len, write, what);
}

/* What a draw's resolved state reads and writes (3d/oracle3d.c), checked at
 * every launch: the state outlives submissions.  built: d was resolved for
 * this launch. */
struct draw_setup;
void sim_oracle_draw(struct sim *s, struct sim_grctx *g, const struct draw_setup *d, int built);
/* A number for the submission the command being run came from, new for
 * every admission; 0 for none (or the oracle off). */
uint64_t sim_oracle_sub_serial(struct sim *s);
/* "vertex attribute <slot>" */
const char *sim_oracle_attr(unsigned slot);

/* Maps made between +1 and -1 are not checked: the caller checks the
 * accesses it makes through them (a window mapped ahead, surfaces resolved
 * that an operation may not touch). */
static inline void sim_oracle_defer(struct sim *s, int delta)
{
	s->orc_ctx.defer += delta;
}

/* ---- PGRAPH (pgraph.c) ---- */

/* The long work of a method (a draw's fragments, M2MF lines) runs in
 * pieces: between two, the worker releases the lock when a host thread
 * waits for it.  The ownership rule while PGRAPH is busy: the method's
 * state (s->gr, the bands' queue, what the engines mapped) stays the
 * worker's; MMIO in between sees registers, and a PGRAPH reset through
 * PMC only marks the method abandoned (gr_abort): from then on the engines
 * stop at their next piece, map nothing and raise no trap, and the
 * context is cleared when the method ends.  Lock held. */
void sim_gr_begin(struct sim *s);
void sim_gr_end(struct sim *s);
/* PGRAPH has nothing in progress or queued (sim_3d_sync ran): its busy
 * span ends.  Lock held. */
void sim_gr_idle(struct sim *s);
/* Between two pieces (worker, lock held): let a waiting host in.  Nonzero
 * when the method was abandoned: stop at once. */
int sim_gr_piece(struct sim *s);
static inline int sim_gr_abandoned(struct sim *s)
{
	return __atomic_load_n(&s->gr_abort, __ATOMIC_RELAXED);
}
/* Polled per piece: the worker (lock held) yields to MMIO, a fragment
 * helper only looks for the abandon. */
static inline int sim_gr_preempted(struct sim *s, int worker)
{
	if (worker) {
		s->pieces++;     /* PFIFO's slice clock is read after one */
		if (__atomic_load_n(&s->mmio_waiting, __ATOMIC_RELAXED))
			return sim_gr_piece(s);
	}
	return sim_gr_abandoned(s);
}

/* Raise PGRAPH_INTR ERROR for the method being executed: NSOURCE bits, trapped
 * address (chid, subchannel, method) and data. The method has no effect. */
void sim_gr_trap(struct sim *s, uint32_t nsource);

/* The host's monotonic clock, in nanoseconds. */
static inline uint64_t sim_clock_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

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

/* hw/access.h's view of the channel's method state (pgraph.c): what
 * every engine maps is the model's, from this. */
void sim_acc_view(struct sim *s, struct sim_grctx *g, struct nv_acc_state *st);
/* PGRAPH's NSOURCE for a trap of the model. */
uint32_t sim_acc_nsource(unsigned trap);

#endif
