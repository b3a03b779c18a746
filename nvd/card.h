/* The daemon's view of a card: registers, the VRAM aperture, the memory the
 * card reaches over the bus, and an interrupt eventfd.  card-sim.c drives the
 * simulator, card-pci.c real silicon; nothing else knows which one it has. */
#ifndef NVD_CARD_H
#define NVD_CARD_H

#include <stddef.h>
#include <stdint.h>

#include "hw/chips.h"

struct nvd_card;

#define NVD_CARD_OUTPUTS 2       /* VGA outputs with a DDC bus each */

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

struct nvd_card_opts {
	const char *spec;        /* "sim", "sim:NV44", "pci", "pci:0000:01:00.0" */
	uint64_t vram_size;      /* sim: bytes (0 = 128 MiB) */
	uint64_t gart_size;      /* bytes (0 = 512 MiB) */
	int map_bars;            /* pci: map BAR0/BAR1 (the daemon asks once it will drive the card) */
	unsigned sim_threads;    /* sim: fragment threads (sim_config.threads, 0 = automatic) */
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
