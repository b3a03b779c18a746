/* Where a texture unit's texels are: dimensions, levels, faces, pitch and
 * the bytes from TEX_OFFSET it may read, as pure functions of the three
 * words that decide the layout: TEX_FORMAT, TEX_NPOT_SIZE and TEX_SIZE1.
 * The validator bounds a texture by nv40_tex_extent(); the simulator's
 * sampler addresses texels by nv40_tex_layout(), so the two cannot
 * disagree.
 *
 *   uint64_t nv40_tex_extent(uint32_t format, uint32_t npot_size, uint32_t size1);
 *       bytes from TEX_OFFSET the unit may read (every level and face),
 *       0 = not a texture the model (and the validator) accepts.
 *   int nv40_tex_layout(uint32_t format, uint32_t npot_size, uint32_t size1,
 *                       struct nv40_tex_layout *l);
 *       0 and *l filled, or -1 (extent 0).
 *
 * Neither looks at TEX_ENABLE, the offset or the ctxdma bits.  The rules
 * (Mesa nv30_miptree.c, which lays out what the card reads;
 * nv40-hardware.md §4.2):
 *  - level 0 is TEX_NPOT_SIZE w x h, depth TEX_SIZE1 31:20 for DIMS 3D
 *    (1 otherwise); each level halves every dimension, never below 1;
 *    MIPMAP_COUNT levels, 1 .. the full chain.
 *  - LINEAR: every level has rows of TEX_SIZE1 15:0 pitch bytes (>= the
 *    row's bytes); a level is pitch x rows x depth.
 *  - DXT without LINEAR: 4x4 blocks packed tightly, pitch = blocks x bytes.
 *  - otherwise swizzled: POT sizes only, a level is w x h x d x bytes.
 *  - levels back to back; CUBIC: six faces (DIMS 2D, w == h), each the
 *    whole chain, 128-byte aligned apart unless LINEAR.  Extent = 5 face
 *    strides + one chain.
 *  - refused: unknown FORMAT, DIMS not 1-3, zero sizes, w or h > 4096, any
 *    3D size > 512, swizzled NPOT, MIPMAP_COUNT 0 or beyond the chain, CUBIC
 *    3D or non-square, a LINEAR pitch shorter than a row, TEX_SIZE1 19:16
 *    set (rnndb gives the pitch 15:0; a card reading more bits must not
 *    see a pitch the validator did not). */
#ifndef NV_HW_TEX_LAYOUT_H
#define NV_HW_TEX_LAYOUT_H

#include <stdint.h>

#include "tex.h"

#define NV40_TEX_MAX_SIZE    4096
#define NV40_TEX_MAX_3D      512     /* every size of a 3D texture */
#define NV40_TEX_MAX_LEVELS  13      /* 4096 .. 1 */
#define NV40_TEX_CUBE_ALIGN  128

struct nv40_tex_level {
	uint32_t w, h, d;            /* texels */
	uint32_t pitch;              /* bytes per row of texels (of blocks for DXT) */
	uint32_t rows;               /* rows of texels (of blocks for DXT) */
	uint64_t offset;             /* from the face's start */
	uint64_t zslice;             /* bytes per z slice: pitch * rows */
	uint64_t size;               /* zslice * d */
};

struct nv40_tex_layout {
	unsigned code;               /* TEX_FORMAT FORMAT */
	unsigned bytes;              /* per texel, per 4x4 block for DXT */
	unsigned kind;               /* NV40_TEXK_* (tex.h) */
	unsigned dims;               /* 1, 2, 3 */
	unsigned cube, linear, swizzled, dxt, rect;
	unsigned levels, faces;
	unsigned log2w, log2h, log2d;/* level 0, when swizzled */
	uint64_t face_stride;
	uint64_t extent;
	struct nv40_tex_level level[NV40_TEX_MAX_LEVELS];
};

int nv40_tex_layout(uint32_t format, uint32_t npot_size, uint32_t size1,
		    struct nv40_tex_layout *l);
uint64_t nv40_tex_extent(uint32_t format, uint32_t npot_size, uint32_t size1);

/* Bytes per texel (*block 1) or per 4x4 block (*block 4, DXT); 0 for a
 * code that is no format. */
unsigned nv40_tex_format_bytes(unsigned code, unsigned *block);

#endif
