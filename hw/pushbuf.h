/* The NV4x DMA pusher command-word grammar (envytools dma-pusher.rst).
 * Decoded once here for the simulator's pusher, the daemon's validator and
 * nvd-decode. */
#ifndef NV_HW_PUSHBUF_H
#define NV_HW_PUSHBUF_H

#include <stdint.h>

enum nv_cmd_type {
	NV_CMD_INC,       /* increasing methods */
	NV_CMD_NONINC,    /* non-increasing methods */
	NV_CMD_OLD_JUMP,
	NV_CMD_JUMP,
	NV_CMD_CALL,
	NV_CMD_RETURN,
	NV_CMD_INVALID,   /* raises DMA_PUSHER INVALID_CMD */
};

struct nv_cmd {
	enum nv_cmd_type type;
	uint32_t mthd;    /* byte offset, INC/NONINC */
	unsigned subc;
	unsigned count;
	uint32_t target;  /* JUMP/CALL/OLD_JUMP: byte address in the pushbuf ctxdma */
};

#define NV_CMD_MAX_COUNT    0x7ff
#define NV_CMD_RETURN_WORD  0x00020000u
#define NV_CMD_INC_WORD(subc, mthd, n) \
	((uint32_t)(n) << 18 | (uint32_t)(subc) << 13 | (uint32_t)(mthd))
#define NV_CMD_NONINC_WORD(subc, mthd, n) (0x40000000u | NV_CMD_INC_WORD(subc, mthd, n))
#define NV_CMD_JUMP_WORD(addr)     (((uint32_t)(addr) & ~3u) | 1)
#define NV_CMD_CALL_WORD(addr)     (((uint32_t)(addr) & ~3u) | 2)
#define NV_CMD_OLD_JUMP_WORD(addr) (0x20000000u | ((uint32_t)(addr) & 0x1ffffffc))
#define NV_SUBCHANNELS      8

/* The match order is the hardware's: old jump, jump, call, return, then
 * methods; anything else is an invalid command. */
static inline struct nv_cmd nv_cmd_decode(uint32_t w)
{
	struct nv_cmd c = { NV_CMD_INVALID, 0, 0, 0, 0 };

	if ((w & 0xe0000003) == 0x20000000) {
		c.type = NV_CMD_OLD_JUMP;
		c.target = w & 0x1ffffffc;
	} else if ((w & 3) == 1) {
		c.type = NV_CMD_JUMP;
		c.target = w & ~3u;
	} else if ((w & 3) == 2) {
		c.type = NV_CMD_CALL;
		c.target = w & ~3u;
	} else if (w == NV_CMD_RETURN_WORD) {
		c.type = NV_CMD_RETURN;
	} else if ((w & 0xe0030003) == 0 || (w & 0xe0030003) == 0x40000000) {
		c.type = (w & 0x40000000) ? NV_CMD_NONINC : NV_CMD_INC;
		c.mthd = w & 0x1ffc;
		c.subc = (w >> 13) & 7;
		c.count = (w >> 18) & 0x7ff;
	}
	return c;
}

#endif
