/* libnvsim: a simulated GeForce 6 (NV4x) that answers to the same registers
 * as the silicon.  It knows nothing of the daemon: a host programs it through
 * MMIO exactly as it would program a real card. */
#ifndef NV_SIM_H
#define NV_SIM_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* sim_config.jit: whether fragment programs are compiled (sim/3d/jit.h). */
enum sim_jit_mode {
	SIM_JIT_OFF,
	SIM_JIT_ON,      /* on a background thread, interpreted until ready */
	SIM_JIT_SYNC,    /* at first use, on the thread that needs it (tests) */
	SIM_JIT_VERIFY,  /* SYNC, and the interpreter run beside the code on
	                    every quad, the differences counted (slow) */
};

struct sim_config {
	unsigned chipset;     /* 0x40, 0x43 or 0x44 (hw/chips.h) */
	uint64_t vram_size;   /* bytes, a power of two, >= 16 MiB */
	/* Host memory the card reaches over the bus (ctxdma TARGET PCI/AGP):
	 * bus address b is sysmem[b].  May be NULL with size 0. */
	uint8_t *sysmem;
	uint64_t sysmem_size;
	/* No worker thread: the host calls sim_run() to make progress.  For
	 * deterministic unit tests. */
	int manual;
	/* The monitor on each VGA output: its 128-byte EDID, answered over
	 * that output's DDC bus (hw/display.h NV_DDC_*), or NULL: nothing
	 * connected.  Copied by sim_new. */
	const uint8_t *edid[2];
	/* Threads the 3D engine's fragment work runs on, the worker included
	 * (or sim_run's caller): 0 = automatic, one per CPU this process may
	 * run on, at most 6 (1 in manual mode); 1 = the worker alone.  Results
	 * are the same. */
	unsigned threads;
	/* enum sim_jit_mode.  Results are the same in every mode; sim_new
	 * fails when the compiler cannot start. */
	unsigned jit;
	/* Called whenever the eventfd is signalled, before it is, with the
	 * model's lock held, on the thread that raised the line (the worker
	 * or a host register access): the host's first look at the interrupt,
	 * without a thread hop.  pfifo_fresh: the PFIFO_INTR bits raised since
	 * the line was last evaluated, which no host thread can have seen yet
	 * (the worker evaluates it before it lets the host in).  It may use
	 * sim_rd32_locked, and sim_wr32_locked to handle those fresh bits as
	 * the host would; it returns nonzero when it acked anything.  When
	 * that leaves the line down on a host thread's DMA_PUT write (which
	 * may run the channel at once: sim_wr32), the eventfd is not
	 * signalled: that host collects what the hook took after its write.
	 * NULL: none. */
	int (*irq_hook)(void *arg, struct sim *s, uint32_t pfifo_fresh);
	void *irq_arg;
};

/* NULL on failure, with a message in err. */
struct sim *sim_new(const struct sim_config *cfg, char *err, size_t errlen);
void sim_free(struct sim *s);

/* What the program compiler did, in one line (fragment and vertex
 * programs, how many compiled, their compile times, the lookups that
 * found code ready, what verify mode compared); "" when it is off. */
void sim_jit_describe(struct sim *s, char *buf, size_t len);
/* 1 when this build has the compiler (LLVM), 0 when every mode but off
 * fails (sim/3d/jit-off.c). */
int sim_jit_built(void);

/* BAR0 */
uint32_t sim_rd32(struct sim *s, uint32_t reg);
/* A channel's DMA_PUT written while the card is idle runs that channel
 * on the calling thread, for a bounded number of words and only up to the
 * first method that touches memory (the worker goes on from there), as
 * silicon starts fetching at once. */
void sim_wr32(struct sim *s, uint32_t reg, uint32_t val);
/* Byte access, for the display's VGA ports (hw/display.h).  Elsewhere a
 * byte of the 32-bit register (writes: read-modify-write). */
uint8_t sim_rd08(struct sim *s, uint32_t reg);
void sim_wr08(struct sim *s, uint32_t reg, uint8_t val);

/* BAR1: VRAM, page aligned.  The host may mmap(MAP_FIXED) its own pages over
 * parts of it (that is how the daemon places buffer objects). */
uint8_t *sim_vram(struct sim *s);
uint64_t sim_vram_size(const struct sim *s);

/* An eventfd that becomes readable whenever the interrupt line is asserted
 * (PMC_INTR & PMC_INTR_EN).  The host reads it, then PMC_INTR, and acks the
 * units' INTR registers; if the line is still up after an ack it fires again. */
int sim_irq_fd(struct sim *s);
/* Whether the line was up when last evaluated, without the lock: the host
 * need not read PMC_INTR when it is down (it is woken again when it rises). */
int sim_irq_line(struct sim *s);
/* Register access from inside sim_config.irq_hook (the lock is held).  A
 * write re-evaluates no interrupt and wakes no worker: the hook runs on the
 * thread that evaluates them next. */
uint32_t sim_rd32_locked(struct sim *s, uint32_t reg);
void sim_wr32_locked(struct sim *s, uint32_t reg, uint32_t val);

/* Manual mode: run the pusher, puller and engines until every channel is idle
 * or stalled.  Returns the number of command words processed. */
unsigned long sim_run(struct sim *s);

/* Time each engine has been busy since sim_new, in nanoseconds of the
 * host's monotonic clock: PFIFO while it makes progress on a channel's
 * commands (the methods it hands PGRAPH included), PGRAPH from the method
 * that finds it idle until it has nothing running or queued again (so the
 * pusher's time between two of its methods counts as PGRAPH's).  Read
 * between pieces of a long method, the span in progress is counted. */
enum { SIM_ENGINE_PFIFO, SIM_ENGINE_PGRAPH, SIM_ENGINES };
void sim_busy_ns(struct sim *s, uint64_t ns[SIM_ENGINES]);
/* Of PFIFO's busy time, what it spent on channel chid's commands. */
uint64_t sim_chan_busy_ns(struct sim *s, unsigned chid);

/* ---- the access oracle ----
 *
 * A checking mode: every access the card makes to VRAM or to host memory
 * over the bus is compared with what the host admitted for the commands
 * being executed, and one that lies outside is recorded.  The host admits,
 * per channel:
 *  - areas, for as long as the channel lives: the ring the pusher reads,
 *    memory of its own that its methods use, buffers a ctxdma covers whole;
 *  - submissions: a range [ring_begin, ring_end) of the channel's push
 *    buffer (DMA_GET offsets) and the memory the methods read from there
 *    may touch, until it retires them.
 * A range says who may use it for what: methods on client subchannels
 * (CLIENT), methods on the host's own subchannel (HOST, given to
 * sim_oracle_enable), the pusher reading command words (PUSH).  An access
 * must lie inside one range that allows it.  One violation is recorded per
 * submission (and per channel for words outside every submission); all
 * are counted. */
enum sim_oracle_target { SIM_ORACLE_VRAM, SIM_ORACLE_BUS };

#define SIM_ORACLE_CLIENT_R 0x01
#define SIM_ORACLE_CLIENT_W 0x02
#define SIM_ORACLE_HOST_R   0x04
#define SIM_ORACLE_HOST_W   0x08
#define SIM_ORACLE_PUSH_R   0x10

struct sim_oracle_range {
	uint8_t target;            /* enum sim_oracle_target */
	uint8_t allow;             /* SIM_ORACLE_* */
	uint64_t addr, size;       /* VRAM offset or bus address (sysmem offset) */
};

/* What the card did, as recorded. */
struct sim_oracle_violation {
	unsigned chid, subc;
	uint32_t cls, mthd;        /* the object's class (0 for none) and method; the
				      pusher's own reads: mthd 0, pusher set */
	int pusher;
	uint32_t get;              /* push buffer offset of the method's data word */
	int in_sub;                /* the word belongs to submission `id` */
	uint32_t id;
	uint8_t target;            /* enum sim_oracle_target */
	int write;
	uint64_t addr, len;
	const char *what;          /* the engine's part ("colour buffer 0"), NULL: the method's */
};

/* Turn checking on (before any channel runs); host_subc is the subchannel
 * whose methods are the host's.  0, or -1 when out of memory. */
int sim_oracle_enable(struct sim *s, unsigned host_subc);
/* Nothing of these is kept when checking is off: they return at once. */
int sim_oracle_area(struct sim *s, unsigned chid, const struct sim_oracle_range *r);
/* ids increase by one (mod 2^32) per channel.  0 or -1 when out of memory
 * (the submission's accesses then count as violations). */
int sim_oracle_admit(struct sim *s, unsigned chid, uint32_t id, uint32_t ring_begin,
		     uint32_t ring_end, const struct sim_oracle_range *r, unsigned n);
/* The card is done with the channel's submissions up to and with id. */
void sim_oracle_retire(struct sim *s, unsigned chid, uint32_t id);
/* The channel is gone: forget its areas and submissions. */
void sim_oracle_forget(struct sim *s, unsigned chid);
/* Move up to max recorded violations (oldest first) into v; their number.
 * *total, if not NULL, gets every violation counted so far. */
unsigned sim_oracle_take(struct sim *s, struct sim_oracle_violation *v, unsigned max,
			 uint64_t *total);
/* One line: engine, method, subchannel, what, address, length, direction. */
void sim_oracle_describe(const struct sim_oracle_violation *v, char *buf, size_t len);

#endif
