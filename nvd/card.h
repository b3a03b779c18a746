/* The daemon's view of a card: registers, the VRAM aperture, the memory the
 * card reaches over the bus, and an interrupt eventfd.  card-sim.c drives the
 * simulator, card-pci.c real silicon; nothing else knows which one it has. */
#ifndef NVD_CARD_H
#define NVD_CARD_H

#include <stddef.h>
#include <stdint.h>

#include "hw/chips.h"

struct nvd_card;
struct nvd_fence_page;

#define NVD_CARD_OUTPUTS 2       /* VGA outputs with a DDC bus each */

/* Memory the access oracle lets the card touch (--sim-check): who may use
 * it for what, NVD_ORACLE_* bits. */
#define NVD_ORACLE_CLIENT_R 0x01  /* methods on the client's subchannels */
#define NVD_ORACLE_CLIENT_W 0x02
#define NVD_ORACLE_DAEMON_R 0x04  /* methods on NVD_SUBC_DAEMON */
#define NVD_ORACLE_DAEMON_W 0x08
#define NVD_ORACLE_PUSH_R   0x10  /* the pusher fetching the ring */
struct nvd_card_range {
	int gart;                /* 0: VRAM offset, 1: GART (bus window) offset */
	uint8_t allow;
	uint64_t addr, size;
};
/* A violation, for nvd's log: the channel, the submission (has_seq) and a
 * description of the access. */
typedef void nvd_fence_fn(void *arg, unsigned chid, uint32_t seq);
typedef void nvd_oracle_fn(void *arg, unsigned chid, int has_seq, uint32_t seq,
			   const char *what);

struct nvd_card_ops {
	uint32_t (*rd32)(struct nvd_card *c, uint32_t reg);
	void (*wr32)(struct nvd_card *c, uint32_t reg, uint32_t val);
	/* Byte access, for the VGA ports of the display. */
	uint8_t (*rd08)(struct nvd_card *c, uint32_t reg);
	void (*wr08)(struct nvd_card *c, uint32_t reg, uint8_t val);
	/* Make `size` bytes of memfd `fd` (from file offset 0) appear at card
	 * address `addr` of VRAM (gart = 0) or of the bus window (gart = 1).
	 * addr and size are page aligned.  -errno on failure. */
	int (*place)(struct nvd_card *c, int gart, uint64_t addr, uint64_t size, int fd);
	/* Undo place(): the range reads as zero again. */
	int (*unplace)(struct nvd_card *c, int gart, uint64_t addr, uint64_t size);
	void (*destroy)(struct nvd_card *c);
	/* The access oracle (nvd_card_opts.sim_check; NULL for a card that has
	 * none): what channel chid's card accesses may touch as long as it
	 * lives (area), what those of the ring words [begin, end) may touch
	 * until the fence of submission seq (admit, retire); forget drops the
	 * channel.  -errno when out of memory.  poll hands the violations
	 * found since it last ran to fn, and returns how many there were in
	 * all. */
	int (*oracle_area)(struct nvd_card *c, unsigned chid, const struct nvd_card_range *r);
	int (*oracle_admit)(struct nvd_card *c, unsigned chid, uint32_t seq, uint32_t begin,
			    uint32_t end, const struct nvd_card_range *r, unsigned n);
	void (*oracle_retire)(struct nvd_card *c, unsigned chid, uint32_t seq);
	void (*oracle_forget)(struct nvd_card *c, unsigned chid);
	uint64_t (*oracle_poll)(struct nvd_card *c, nvd_oracle_fn *fn, void *arg);
	/* A simulated card opened with sim_manual: run it until every channel
	 * is idle or stalled (sim_run), the words it processed.  NULL for a
	 * card that runs by itself.  For tests and fuzzers: nvd never calls it. */
	unsigned long (*run)(struct nvd_card *c);
	/* Where channel chid's fences go, or page NULL: nowhere.  A card
	 * that sees the daemon's fence method on its own thread publishes it
	 * there and on ev at once (nvd_fence_publish): the client need not
	 * wait for the loop.  NULL for a card that cannot. */
	void (*fence_target)(struct nvd_card *c, unsigned chid, struct nvd_fence_page *page, int ev);
	/* The fences such a card also acked on its own thread since the last
	 * call, the newest per channel (older ones of the channel are
	 * implied): fn for each.  A channel retargeted since loses its
	 * entry.  Returns whether the interrupt line is still up: when it is
	 * not, PMC_INTR need not be read (which would wait for the card's
	 * thread).  NULL for a card that cannot. */
	int (*fences)(struct nvd_card *c, nvd_fence_fn *fn, void *arg);
	/* Nanoseconds PFIFO and PGRAPH have been busy since the card was
	 * opened, as the card measures them.  NULL for a card that cannot
	 * tell (nvd reports the busy time as unknown). */
	void (*busy_ns)(struct nvd_card *c, uint64_t *pfifo, uint64_t *pgraph);
	/* Of PFIFO's busy time, what went to hardware channel chid's
	 * commands; NULL with busy_ns. */
	uint64_t (*chan_busy_ns)(struct nvd_card *c, unsigned chid);
};

struct nvd_card {
	const struct nvd_card_ops *ops;
	const struct nv_chip *chip;
	char desc[96];           /* "simulated NV43 (GeForce 6600)", "pci 0000:01:00.0 ..." */
	char bus_id[16];         /* PCI slot, "0000:01:00.0" */
	uint16_t pci_vendor, pci_device;
	uint8_t *vram;           /* the VRAM aperture, vram_size bytes */
	uint64_t vram_size;
	uint8_t *gart;           /* bus window: card bus address gart_bus + i is gart[i] */
	uint64_t gart_bus, gart_size;
	int irq_fd;              /* readable when the card interrupts; the reader drains it */
};

/* Compiling the simulated card's fragment programs: on when the sim is
 * built with the compiler (the default), off, on (in the background), sync
 * (at first use), verify (sync, and checked against the interpreter on
 * every quad). */
enum { NVD_SIM_JIT_DEFAULT, NVD_SIM_JIT_OFF, NVD_SIM_JIT_ON, NVD_SIM_JIT_SYNC,
       NVD_SIM_JIT_VERIFY };

struct nvd_card_opts {
	const char *spec;        /* "sim", "sim:NV44", "pci", "pci:0000:01:00.0" */
	uint64_t vram_size;      /* sim: bytes (0 = 128 MiB) */
	uint64_t gart_size;      /* bytes (0 = 512 MiB) */
	int map_bars;            /* pci: map BAR0/BAR1 (the daemon asks once it will drive the card) */
	unsigned sim_threads;    /* sim: fragment threads (sim_config.threads, 0 = automatic) */
	int sim_check;           /* sim: the access oracle on (a pci card refuses it) */
	int sim_manual;          /* sim: no worker thread, the host calls ops->run (tests) */
	unsigned sim_jit;        /* sim: NVD_SIM_JIT_* (sim_config.jit) */
	/* sim: the EDID (128 bytes) of the monitor on each output, NULL: none */
	const uint8_t *edid[NVD_CARD_OUTPUTS];
};

/* Open the card the spec names.  NULL with a message in err on failure. */
struct nvd_card *nvd_card_open(const struct nvd_card_opts *o, char *err, size_t errlen);
/* Whether the options name a card nvd_card_open could try, by the open's own
 * rules and without touching a card (a spec, chip, slot or size nvd can
 * refuse as bad usage): 0, or -EINVAL with a message in err. */
int nvd_card_check(const struct nvd_card_opts *o, char *err, size_t errlen);
int nvd_card_sim_check(const struct nvd_card_opts *o, const char *chip, char *err, size_t errlen);
struct nvd_card *nvd_card_sim_open(const struct nvd_card_opts *o, const char *chip,
				   char *err, size_t errlen);
struct nvd_card *nvd_card_pci_open(const struct nvd_card_opts *o, const char *bdf,
				   char *err, size_t errlen);

static inline uint32_t nvd_rd32(struct nvd_card *c, uint32_t reg) { return c->ops->rd32(c, reg); }
static inline void nvd_wr32(struct nvd_card *c, uint32_t reg, uint32_t v) { c->ops->wr32(c, reg, v); }
static inline uint8_t nvd_rd08(struct nvd_card *c, uint32_t reg) { return c->ops->rd08(c, reg); }
static inline void nvd_wr08(struct nvd_card *c, uint32_t reg, uint8_t v) { c->ops->wr08(c, reg, v); }

#endif
