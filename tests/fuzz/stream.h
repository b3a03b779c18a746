/* fuzz_stream's world and input format, shared with the tool that turns
 * recorded push buffers into its seeds (tests/fuzz/stream-seeds.c). */
#ifndef NVD_FUZZ_STREAM_H
#define NVD_FUZZ_STREAM_H

#include "hw/methods.h"
#include "hw/ramin.h"

/* The buffers, victims' (V) and the attacker's (A). */
enum {
	STREAM_V_VRAM0, STREAM_A_SURF, STREAM_V_VRAM1, STREAM_A_DATA, STREAM_V_VRAM2,
	STREAM_V_GART0, STREAM_A_PUSH, STREAM_V_GART1, STREAM_A_GDATA, STREAM_A_NOTIFY,
	STREAM_V_GART2, STREAM_NBUFS
};
#define STREAM_SURF_SIZE    (256u << 10)   /* VRAM: render targets, textures, copies */
#define STREAM_DATA_SIZE    (64u << 10)    /* VRAM: programs, vertices, indices */
#define STREAM_PUSH_SIZE    (64u << 10)    /* GART: the push buffer, a region per submission */
#define STREAM_GDATA_SIZE   (64u << 10)    /* GART: vertices, indices, copies */
#define STREAM_NOTIFY_SIZE  (4u << 10)     /* GART: the notifier block */

#define STREAM_MAX_SUBS     4
#define STREAM_REGION_WORDS (STREAM_PUSH_SIZE / 4 / STREAM_MAX_SUBS)
#define STREAM_MAX_RELOCS   16

/* The attacker channel's objects: the ones Mesa's nv30 driver and our DDX
 * create (../shared/ref/mesa-nouveau-uapi.md, ddx/nvdx.h), with their
 * handles, so that recorded streams bind them as they are; a few more
 * classes and ctxdmas over its buffers.  O(handle, class, buffer or -1,
 * offset, size, NV_DMA_ACCESS_*); class 0x4097 is the chip's 3D class. */
#define STREAM_OBJECTS(O) \
	O(0x00000000u, NV_CLASS_NULL_OBJ, -1, 0, 0, 0) \
	O(0xbeef3097u, NV_CLASS_CURIE_NV40, -1, 0, 0, 0) \
	O(0xbeef3901u, NV_CLASS_M2MF, -1, 0, 0, 0) \
	O(0xbeef6201u, NV_CLASS_SURF2D, -1, 0, 0, 0) \
	O(0xbeef5201u, NV_CLASS_SWZSURF, -1, 0, 0, 0) \
	O(0xbeef7701u, NV_CLASS_SIFM, -1, 0, 0, 0) \
	O(0xbeef1e00u, NV_CLASS_DMA_IN_MEMORY, STREAM_A_NOTIFY, 0, 32, NV_DMA_ACCESS_RW) \
	O(0xbeef0301u, NV_CLASS_DMA_IN_MEMORY, STREAM_A_NOTIFY, 32, 32, NV_DMA_ACCESS_RW) \
	O(0xbeef0351u, NV_CLASS_DMA_IN_MEMORY, STREAM_A_NOTIFY, 128, 3968, NV_DMA_ACCESS_RW) \
	O(0x4e580039u, NV_CLASS_M2MF, -1, 0, 0, 0) \
	O(0x4e580062u, NV_CLASS_SURF2D, -1, 0, 0, 0) \
	O(0x4e58004au, NV_CLASS_GDI, -1, 0, 0, 0) \
	O(0x4e58009fu, NV_CLASS_BLIT, -1, 0, 0, 0) \
	O(0x4e58008au, NV_CLASS_IFC, -1, 0, 0, 0) \
	O(0x4e580043u, NV_CLASS_ROP, -1, 0, 0, 0) \
	O(0x4e580044u, NV_CLASS_PATT, -1, 0, 0, 0) \
	O(0x4e580019u, NV_CLASS_CLIP, -1, 0, 0, 0) \
	O(0x4e584097u, NV_CLASS_CURIE_NV40, -1, 0, 0, 0) \
	O(0x5a000012u, NV_CLASS_BETA1, -1, 0, 0, 0) \
	O(0x5a000072u, NV_CLASS_BETA4, -1, 0, 0, 0) \
	O(0x5a00d0a0u, NV_CLASS_DMA_IN_MEMORY, STREAM_A_SURF, 4096, 8192, NV_DMA_ACCESS_RW) \
	O(0x5a00d0a1u, NV_CLASS_DMA_FROM_MEMORY, STREAM_A_GDATA, 0, 65536, NV_DMA_ACCESS_RO) \
	O(0x5a00d0a2u, NV_CLASS_DMA_TO_MEMORY, STREAM_A_DATA, 60, 8, NV_DMA_ACCESS_WO)

/* The ops: an op byte is one of these modulo STREAM_NOPS, its top 3 bits
 * the subchannel. */
enum {
	STREAM_OP_BIND, STREAM_OP_METHOD, STREAM_OP_METHOD2, STREAM_OP_LAUNCH, STREAM_OP_RT,
	STREAM_OP_FP, STREAM_OP_IMM_DRAW, STREAM_OP_ARRAY_DRAW, STREAM_OP_TEXTURE,
	STREAM_OP_REPORT, STREAM_OP_CLEAR, STREAM_OP_M2MF, STREAM_OP_2D, STREAM_OP_DATA,
	STREAM_OP_PACKET, STREAM_OP_JUMP, STREAM_OP_RELOC, STREAM_OP_RAW, STREAM_OP_NEXT,
	STREAM_OP_METHOD3, STREAM_OP_LAUNCH2, STREAM_NOPS
};

/* op_packet's data word tags: a literal, or an offset into buffer
 * tag - STREAM_TAG_BUF. */
#define STREAM_TAG_LITERAL 0
#define STREAM_TAG_BUF     1

#endif
