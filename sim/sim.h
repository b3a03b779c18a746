/* libnvsim: a simulated GeForce 6 (NV4x) that answers to the same registers
 * as the silicon.  It knows nothing of the daemon: a host programs it through
 * MMIO exactly as it would program a real card. */
#ifndef NV_SIM_H
#define NV_SIM_H

#include <stddef.h>
#include <stdint.h>

struct sim;

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
	 * (or sim_run's caller): 0 = automatic, 2 when the host has 2+ CPUs
	 * (1 in manual mode); 1 = the worker alone.  Results are the same. */
	unsigned threads;
};

/* NULL on failure, with a message in err. */
struct sim *sim_new(const struct sim_config *cfg, char *err, size_t errlen);
void sim_free(struct sim *s);

/* BAR0 */
uint32_t sim_rd32(struct sim *s, uint32_t reg);
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

/* Manual mode: run the pusher, puller and engines until every channel is idle
 * or stalled.  Returns the number of command words processed. */
unsigned long sim_run(struct sim *s);

#endif
