/* NV4x MMIO registers (BAR0): the one list the daemon, the simulator and the
 * tools share.  Offsets follow envytools rnndb and the nouveau kernel driver;
 * see ../shared/ref/nv40-hardware.md §1, §6, §8. */
#ifndef NV_HW_REGS_H
#define NV_HW_REGS_H

/* PCI BARs */
#define NV_PCI_BAR_MMIO          0        /* BAR0: the registers below */
#define NV_PCI_BAR_MMIO_SIZE     0x1000000
#define NV_PCI_BAR_VRAM          1        /* BAR1: the VRAM aperture */

/* PMC: master control */
#define NV_PMC_BOOT_0            0x000000 /* chipset << 20 | 0xa1 */
#define   NV_PMC_BOOT_0_CHIPSET(v) (((v) >> 20) & 0x1ff)
#define NV_PMC_BOOT_1            0x000004 /* 0: card is little-endian */
#define NV_PMC_INTR              0x000100 /* pending, one bit per unit */
#define NV_PMC_INTR_EN           0x000140 /* bit 0: deliver to the host */
#define   NV_PMC_INTR_EN_HOST    (1u << 0)
#define NV_PMC_ENABLE            0x000200 /* engine enable/reset */
#define   NV_PMC_UNIT_PFIFO      (1u << 8)
#define   NV_PMC_UNIT_PGRAPH     (1u << 12)
#define   NV_PMC_UNIT_PTIMER     (1u << 20)
#define   NV_PMC_UNIT_PCRTC0     (1u << 24)
#define   NV_PMC_UNIT_PCRTC1     (1u << 25)
#define   NV_PMC_UNIT_PBUS       (1u << 28)

/* PBUS */
#define NV_PBUS_INTR             0x001100
#define NV_PBUS_INTR_EN          0x001140
#define NV_PBUS_UNITS            0x001540 /* 15:8 vertex units, 7:0 shader pipes */

/* PTIMER: nanoseconds since power-on */
#define NV_PTIMER_INTR           0x009100
#define NV_PTIMER_INTR_EN        0x009140
#define NV_PTIMER_NUMERATOR      0x009200
#define NV_PTIMER_DENOMINATOR    0x009210
#define NV_PTIMER_TIME_LO        0x009400
#define NV_PTIMER_TIME_HI        0x009410

/* PFB */
#define NV_PFB_CFG0              0x100200
#define NV_PFB_CFG1              0x100204
#define NV_PFB_CSTATUS           0x10020c /* VRAM size in bytes */
#define   NV_PFB_CSTATUS_SIZE_MASK 0xff000000u /* counted in 16 MiB units */

/* PEXTDEV */
#define NV_PEXTDEV_BOOT_0        0x101000 /* straps */

/* PFIFO */
#define NV_PFIFO_DELAY_0         0x002040
#define NV_PFIFO_DMA_TIMESLICE   0x002044 /* 16:0 the slice (the model: microseconds) */
#define NV_PFIFO_INTR            0x002100 /* write 1 to clear */
#define NV_PFIFO_INTR_EN         0x002140
#define   NV_PFIFO_INTR_CACHE_ERROR  (1u << 0)
#define   NV_PFIFO_INTR_RUNOUT       (1u << 4)
#define   NV_PFIFO_INTR_DMA_PUSHER   (1u << 12)
#define   NV_PFIFO_INTR_DMA_PT       (1u << 16)
#define   NV_PFIFO_INTR_SEMAPHORE    (1u << 20)
#define NV_PFIFO_RAMHT           0x002210 /* search<<24 | (bits-9)<<16 | addr>>8 */
#define   NV_PFIFO_RAMHT_ADDR(r)   (((r) & 0xffffu) << 8)
#define   NV_PFIFO_RAMHT_BITS(r)   ((((r) >> 16) & 3) + 9)
#define   NV_PFIFO_RAMHT_SEARCH(r) (16u << (((r) >> 24) & 3))
#define NV_PFIFO_RAMRO           0x002218 /* addr >> 8 */
#define NV_PFIFO_RAMFC           0x002220 /* NV40: addr >> 16 | 3 << 16 */
#define   NV40_PFIFO_RAMFC_ADDR(r) (((r) & 0xffffu) << 16)
#define NV_PFIFO_CACHES          0x002500 /* bit 0: REASSIGN */
#define   NV_PFIFO_CACHES_REASSIGN (1u << 0)
#define NV_PFIFO_MODE            0x002504 /* bit per channel: DMA mode */
#define NV_PFIFO_DMA             0x002508 /* bit per channel: work pending */
#define NV_PFIFO_CACHE1_PUSH0    0x003200 /* bit 0: access */
#define   NV_PFIFO_CACHE1_PUSH0_ACCESS (1u << 0)
#define NV_PFIFO_CACHE1_PUSH1    0x003204 /* 8:0 chid, bit 16 DMA mode */
#define   NV_PFIFO_CACHE1_PUSH1_DMA  (1u << 16)
#define   NV_PFIFO_CACHE1_PUSH1_CHID(v) ((v) & 0x1ff)
#define NV_PFIFO_CACHE1_PUT      0x003210
#define NV_PFIFO_CACHE1_DMA_PUSH 0x003220 /* bit 0 access, bit 12 suspended */
#define   NV_PFIFO_CACHE1_DMA_PUSH_ACCESS    (1u << 0)
#define   NV_PFIFO_CACHE1_DMA_PUSH_SUSPENDED (1u << 12)
#define NV_PFIFO_CACHE1_DMA_FETCH 0x003224
#define   NV_DMA_FETCH_TRIG_128_BYTES 0x00000078
#define   NV_DMA_FETCH_SIZE_128_BYTES 0x00006000
#define   NV_DMA_FETCH_MAX_REQS_8     0x00080000
#define   NV_DMA_FETCH_BIG_ENDIAN     0x80000000
#define   NV_PFIFO_DMA_FETCH_DEFAULT  (0x30000000 | NV_DMA_FETCH_TRIG_128_BYTES | \
				       NV_DMA_FETCH_SIZE_128_BYTES | NV_DMA_FETCH_MAX_REQS_8)
#define NV_PFIFO_CACHE1_DMA_STATE 0x003228
#define   NV_DMA_STATE_METHOD(s)    ((s) & 0x1ffc)
#define   NV_DMA_STATE_SUBC(s)      (((s) >> 13) & 7)
#define   NV_DMA_STATE_COUNT(s)     (((s) >> 18) & 0x7ff)
#define   NV_DMA_STATE_NONINC       (1u << 0)
#define   NV_DMA_STATE_SUBR_ACTIVE  (1u << 17) /* RAMFC DMA_STATE bit, see ref §1.5 */
#define   NV_DMA_STATE_ERROR(s)     (((s) >> 29) & 7)
#define   NV_DMA_STATE_ERROR_SHIFT  29
#define   NV_DMA_STATE(mthd, subc, count, ni) \
	(((uint32_t)(mthd) & 0x1ffc) | ((uint32_t)(subc) & 7) << 13 | \
	 ((uint32_t)(count) & 0x7ff) << 18 | ((ni) ? NV_DMA_STATE_NONINC : 0))
#define   NV_DMA_STATE_PACKET_MASK  0x1ffcfffdu /* mthd, subc, count, NI */
#define NV_PFIFO_CACHE1_DMA_INSTANCE 0x00322c
#define NV_PFIFO_CACHE1_DMA_PUT  0x003240
#define NV_PFIFO_CACHE1_DMA_GET  0x003244
#define NV_PFIFO_CACHE1_REF      0x003248
#define NV_PFIFO_CACHE1_DMA_SUBROUTINE 0x00324c
#define NV_PFIFO_CACHE1_PULL0    0x003250
#define   NV_PULL0_ACCESS          (1u << 0)
#define   NV_PULL0_HASH_FAILED     (1u << 4)
#define   NV_PULL0_DEVICE_SOFTWARE (1u << 8)
#define   NV_PULL0_HASH_BUSY       (1u << 12)
#define NV_PFIFO_CACHE1_PULL1    0x003254
#define NV_PFIFO_CACHE1_HASH     0x003258
#define NV_PFIFO_CACHE1_ACQUIRE_TIMEOUT   0x003260
#define NV_PFIFO_CACHE1_ACQUIRE_TIMESTAMP 0x003264
#define NV_PFIFO_CACHE1_ACQUIRE_VALUE     0x003268
#define NV_PFIFO_CACHE1_SEMAPHORE 0x00326c
#define NV_PFIFO_CACHE1_GET      0x003270
#define NV_PFIFO_CACHE1_ENGINE   0x003280 /* 4 bits per subchannel */
#define NV_PFIFO_CACHE1_DMA_DCOUNT 0x0032a0
#define NV_PFIFO_GRCTX_INSTANCE  0x0032e0
#define NV_PFIFO_CACHE1_METHOD(i) (0x090000 + (i) * 8) /* 512 slots */
#define NV_PFIFO_CACHE1_DATA(i)   (0x090004 + (i) * 8)
#define   NV_PFIFO_CACHE1_METHOD_SUBC(v) (((v) >> 13) & 7)   /* a METHOD slot's fields */
#define   NV_PFIFO_CACHE1_METHOD_MTHD(v) ((v) & 0x1ffc)
#define NV_PFIFO_CACHE1_SIZE     512
#define NV_PFIFO_CACHE1_PTR_MASK ((NV_PFIFO_CACHE1_SIZE - 1) << 2) /* CACHE1_PUT/GET */

/* DMA pusher error codes (CACHE1_DMA_STATE 31:29) */
#define NV_DMA_PUSHER_ERRORS(X) \
	X(NONE,             0) \
	X(CALL_SUBR_ACTIVE, 1) \
	X(INVALID_MTHD,     2) \
	X(RET_SUBR_INACTIVE,3) \
	X(INVALID_CMD,      4) \
	X(IB_EMPTY,         5) \
	X(MEM_FAULT,        6)
#define NV_DMA_ERR_ENUM(name, v) NV_DMA_ERR_##name = v,
enum { NV_DMA_PUSHER_ERRORS(NV_DMA_ERR_ENUM) };
#undef NV_DMA_ERR_ENUM

/* RAMFC (NV40, 128 bytes per channel): image offset -> live PFIFO register.
 * X(ramfc offset, register, valid bits). One table walked by save and restore. */
#define NV40_RAMFC_SIZE 128
/* The mask of a row's valid bits (1..32), without a shift by 32. */
#define NV40_RAMFC_MASK(bits) ((uint32_t)(~0ull >> (64 - (bits))))
#define NV40_RAMFC_DMA_PUT        0x00
#define NV40_RAMFC_DMA_GET        0x04
#define NV40_RAMFC_DMA_INSTANCE   0x0c
#define NV40_RAMFC_DMA_FETCH      0x18
#define NV40_RAMFC_GRCTX_INSTANCE 0x38
#define NV40_RAMFC_DMA_TIMESLICE  0x3c
#define NV40_RAMFC(X) \
	X(NV40_RAMFC_DMA_PUT,        NV_PFIFO_CACHE1_DMA_PUT,           32) \
	X(NV40_RAMFC_DMA_GET,        NV_PFIFO_CACHE1_DMA_GET,           32) \
	X(0x08,                      NV_PFIFO_CACHE1_REF,               32) \
	X(NV40_RAMFC_DMA_INSTANCE,   NV_PFIFO_CACHE1_DMA_INSTANCE,      32) \
	X(0x10,                      NV_PFIFO_CACHE1_DMA_DCOUNT,        32) \
	X(0x14,                      NV_PFIFO_CACHE1_DMA_STATE,         32) \
	X(NV40_RAMFC_DMA_FETCH,      NV_PFIFO_CACHE1_DMA_FETCH,         28) \
	X(0x1c,                      NV_PFIFO_CACHE1_ENGINE,            32) \
	X(0x20,                      NV_PFIFO_CACHE1_PULL1,             32) \
	X(0x24,                      NV_PFIFO_CACHE1_ACQUIRE_VALUE,     32) \
	X(0x28,                      NV_PFIFO_CACHE1_ACQUIRE_TIMESTAMP, 32) \
	X(0x2c,                      NV_PFIFO_CACHE1_ACQUIRE_TIMEOUT,   32) \
	X(0x30,                      NV_PFIFO_CACHE1_SEMAPHORE,         32) \
	X(0x34,                      NV_PFIFO_CACHE1_DMA_SUBROUTINE,    32) \
	X(NV40_RAMFC_GRCTX_INSTANCE, NV_PFIFO_GRCTX_INSTANCE,           32) \
	X(NV40_RAMFC_DMA_TIMESLICE,  NV_PFIFO_DMA_TIMESLICE,            17)

/* USER area: per-channel control, BAR0 + 0xC00000 + chid * 0x1000 */
#define NV40_USER(chid)          (0xc00000 + (chid) * 0x1000)
#define NV40_USER_SIZE           0x1000
#define NV40_USER_DMA_PUT        0x40
#define NV40_USER_DMA_GET        0x44
#define NV40_USER_REF            0x48
#define NV40_USER_DMA_CGET       0x54
#define NV40_FIFO_CHANNELS       32
#define NV40_FIFO_CHID_NONE      (NV40_FIFO_CHANNELS - 1) /* reserved "no channel" */

/* PRAMIN: the first MiB of instance memory through BAR0 */
#define NV_PRAMIN                0x700000
#define NV_PRAMIN_SIZE           0x100000

/* PGRAPH */
#define NV_PGRAPH_DEBUG_0        0x400080
#define NV_PGRAPH_INTR           0x400100 /* write 1 to clear */
#define   NV_PGRAPH_INTR_NOTIFY      (1u << 0)
#define   NV_PGRAPH_INTR_MISSING_HW  (1u << 4)
#define   NV_PGRAPH_INTR_CONTEXT_SWITCH (1u << 12)
#define   NV_PGRAPH_INTR_ERROR       (1u << 20)
#define NV_PGRAPH_NSTATUS        0x400104
#define NV_PGRAPH_NSOURCE        0x400108
#define   NV_PGRAPH_NSOURCE_NOTIFICATION   (1u << 0)
#define   NV_PGRAPH_NSOURCE_DATA_ERROR     (1u << 1)
#define   NV_PGRAPH_NSOURCE_PROTECTION_ERROR (1u << 2)
#define   NV_PGRAPH_NSOURCE_RANGE_EXCEPTION (1u << 3)
#define   NV_PGRAPH_NSOURCE_ILLEGAL_MTHD   (1u << 6)
#define   NV_PGRAPH_NSOURCE_DMA_R_PROTECTION (1u << 7)
#define   NV_PGRAPH_NSOURCE_DMA_W_PROTECTION (1u << 8)
#define   NV_PGRAPH_NSOURCE_STATE_INVALID  (1u << 11)
#define NV_PGRAPH_INTR_EN        0x400140
/* Word 0 (class 15:0) of the object bound on each subchannel of the loaded
 * context: what nouveau's nv40_gr_intr names a trapped method's class by. */
#define NV_PGRAPH_CTX_CACHE1(subc) (0x400160 + (subc) * 4)
#define   NV_PGRAPH_CTX_CACHE1_CLASS(v) ((v) & 0xffffu)
#define NV_PGRAPH_CTXCTL_BUSY    0x400300 /* bit 0: a context transfer runs */
#define NV_PGRAPH_CTXCTL_XFER    0x400304 /* write 1: user save/load */
#define NV_PGRAPH_CTXCTL_UCODE_STAT 0x400308
#define NV_PGRAPH_CTXCTL_CMD     0x400310 /* 0x20 SAVE, 0x40 LOAD */
#define   NV_PGRAPH_CTXCTL_CMD_SAVE  0x20
#define   NV_PGRAPH_CTXCTL_CMD_LOAD  0x40
#define NV_PGRAPH_CTXCTL_UCODE_INDEX 0x400324
#define NV_PGRAPH_CTXCTL_UCODE_DATA  0x400328
#define NV_PGRAPH_CTXCTL_CUR     0x40032c /* bit 24 LOADED | grctx inst >> 4 */
#define NV_PGRAPH_CTXCTL_NEXT    0x400330
#define   NV_PGRAPH_CTXCTL_LOADED    (1u << 24)
#define   NV_PGRAPH_CTXCTL_INST(v)   ((v) & 0x00ffffffu) /* grctx RAMIN offset >> 4 */
#define NV_PGRAPH_STATUS         0x400700 /* 0 = idle (SYNC_STALL masked, as nv04_gr_idle) */
#define   NV_PGRAPH_STATUS_BUSY      (1u << 0)
#define   NV_PGRAPH_STATUS_SYNC_STALL (1u << 14)
/* The method PGRAPH executes (latched as it starts one, frozen while an
 * ERROR or NOTIFY interrupt is pending: then the one that raised it). */
#define NV_PGRAPH_TRAPPED_ADDR   0x400704 /* chid 28:20, subc 15:13, mthd 12:2 */
#define   NV_PGRAPH_TRAPPED_ADDR_VAL(chid, subc, mthd) \
	(((uint32_t)(chid) & 0x1ff) << 20 | ((uint32_t)(subc) & 7) << 13 | ((uint32_t)(mthd) & 0x1ffc))
#define   NV_PGRAPH_TRAPPED_ADDR_CHID(v) (((v) >> 20) & 0x1ff)
#define   NV_PGRAPH_TRAPPED_ADDR_SUBC(v) (((v) >> 13) & 7)
#define   NV_PGRAPH_TRAPPED_ADDR_MTHD(v) ((v) & 0x1ffc)
#define NV_PGRAPH_TRAPPED_DATA   0x400708
#define NV_PGRAPH_FIFO           0x400720 /* bit 0: accept methods */
#define   NV_PGRAPH_FIFO_ACCESS    (1u << 0)
#define NV_PGRAPH_CTXCTL_USER_INST 0x400784

/* PCRTC, PRMCIO, PRMVIO, PRAMDAC: the display, see hw/display.h */

/* MMIO blocks: BAR0 ranges, for dispatch */
#define NV_PMC_BASE              0x000000
#define NV_PMC_SIZE              0x001000
#define NV_PBUS_BASE             0x001000
#define NV_PBUS_SIZE             0x001000
#define NV_PFIFO_BASE            0x002000
#define NV_PFIFO_SIZE            0x002000
#define NV_PTIMER_BASE           0x009000
#define NV_PTIMER_SIZE           0x001000
#define NV_PFIFO_CACHE1_SLOTS_BASE NV_PFIFO_CACHE1_METHOD(0)
#define NV_PFIFO_CACHE1_SLOTS_SIZE (NV_PFIFO_CACHE1_SIZE * 8)
#define NV_PFB_BASE              0x100000
#define NV_PFB_SIZE              0x001000
#define NV_PEXTDEV_BASE          0x101000
#define NV_PEXTDEV_SIZE          0x001000
#define NV_PGRAPH_BASE           0x400000
#define NV_PGRAPH_SIZE           0x010000
#define NV40_USER_BASE           NV40_USER(0)
#define NV40_USER_AREA_SIZE      (NV40_FIFO_CHANNELS * NV40_USER_SIZE)

#endif
