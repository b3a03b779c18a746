/* NV40_3D 0x4097 / NV44_3D 0x4497 ("Curie"): the method table.
 *
 * Every method rnndb graph/nv30-40_3d.xml gives the NV40 variants (as
 * generated into Mesa's nv30/nv30-40_3d.xml.h), the NV40 methods Mesa keeps
 * in nv30_winsys.h / nv30_state.c, and the raw offsets Mesa 22.3's nv30
 * driver and xf86-video-nouveau's nv40_exa.c write without a name
 * (../shared/ref/nv40-hardware.md §2.2-2.3, ddx-2d.md §4).  Unnamed ones are
 * UNK<offset>.  NV30-only methods (fixed-function lighting, matrices,
 * register combiners, TEX_UNITS_ENABLE, 0x17e0, 0x1d80, 0x1f80) are absent:
 * an NV40 never sees them from Mesa.  Of the vertex-texture block 0x900-0x91c
 * (stride 0x20, 4 units) only VTXTEX_ENABLE exists here: Mesa exposes no
 * vertex samplers and only ever writes ENABLE = 0, so the address-bearing
 * VTXTEX_OFFSET stays refused.
 *
 * Arrays: rnndb stripes of consecutive words (VIEWPORT_TRANSLATE xyzw,
 * VTX_ATTR_2F xy x16, VTX_ATTR_4F xyzw x16, VP_UPLOAD_CONST xyzw x4) are one
 * row of consecutive words, element = attribute * components + component.
 * Stripes with holes (VTX_ATTR_3F: xyz in a 16-byte stride) are one row per
 * component.  The 16 fragment texture units (Mesa: 16 samplers on NV40) give
 * TEX_*, TEX_SIZE1 and TEX_FILTER_OPTIMIZATION 16 elements although rnndb
 * lists NV30's 8.
 *
 * ADDR rows name the ctxdma method of their default space; the validator
 * must apply the data's own selector:
 *   TEX_OFFSET(i)      TEX_FORMAT(i) bit 0 = DMA_TEXTURE0, bit 1 = DMA_TEXTURE1
 *   FP_ACTIVE_PROGRAM  own bits 1:0 (1 = DMA_TEXTURE0, 2 = DMA_TEXTURE1),
 *                      offset = data & ~3
 *   VTXBUF(i)          own bit 31 = DMA_VTXBUF1, offset in bits 27:0
 *   IDXBUF_OFFSET      IDXBUF_FORMAT bit 0 = DMA_VTXBUF1
 *   QUERY_GET          offset in bits 23:0, report type in 31:24
 *   UNK1E98            render condition: 0x01000000 always, 0x02000000 |
 *                      offset = read the DMA_QUERY report at offset (23:0)
 *
 * Class 0x4497 lacks the index-buffer fetch (IDXBUF_OFFSET/FORMAT,
 * VB_INDEX_BATCH; Mesa streams indices inline there): NV_CURIE_NV44_ABSENT
 * lists them and nv_mthd_find() refuses them on that class. */
#ifndef NV_HW_METHODS_3D_H
#define NV_HW_METHODS_3D_H

#define NV_CURIE_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	/* 0x110: Mesa writes 0 before a waiting render condition (serialise) */ \
	M(P, UNK0110,                  0x0110, 1, 4, PLAIN,  _) \
	M(P, FLIP_SET_READ,            0x0120, 1, 4, PLAIN,  _) \
	M(P, FLIP_SET_WRITE,           0x0124, 1, 4, PLAIN,  _) \
	M(P, FLIP_MAX,                 0x0128, 1, 4, PLAIN,  _) \
	M(P, FLIP_INCR_WRITE,          0x012c, 1, 4, PLAIN,  _) \
	M(P, FLIP_WAIT,                0x0130, 1, 4, PLAIN,  _) \
	/* 0x184-0x1b8: ctxdma and object arguments (RAMHT-translated) */ \
	M(P, DMA_TEXTURE0,             0x0184, 1, 4, HANDLE, _) \
	M(P, DMA_TEXTURE1,             0x0188, 1, 4, HANDLE, _) \
	M(P, DMA_COLOR1,               0x018c, 1, 4, HANDLE, _) \
	M(P, DMA_UNK190,               0x0190, 1, 4, HANDLE, _) \
	M(P, DMA_COLOR0,               0x0194, 1, 4, HANDLE, _) \
	M(P, DMA_ZETA,                 0x0198, 1, 4, HANDLE, _) \
	M(P, DMA_VTXBUF0,              0x019c, 1, 4, HANDLE, _) \
	M(P, DMA_VTXBUF1,              0x01a0, 1, 4, HANDLE, _) \
	M(P, DMA_FENCE,                0x01a4, 1, 4, HANDLE, _) \
	M(P, DMA_QUERY,                0x01a8, 1, 4, HANDLE, _) \
	M(P, DMA_UNK1AC,               0x01ac, 1, 4, HANDLE, _) \
	M(P, DMA_UNK1B0,               0x01b0, 1, 4, HANDLE, _) \
	M(P, DMA_COLOR2,               0x01b4, 1, 4, HANDLE, _) \
	M(P, DMA_COLOR3,               0x01b8, 1, 4, HANDLE, _) \
	/* render targets */ \
	M(P, RT_HORIZ,                 0x0200, 1, 4, PLAIN,  _) \
	M(P, RT_VERT,                  0x0204, 1, 4, PLAIN,  _) \
	M(P, RT_FORMAT,                0x0208, 1, 4, PLAIN,  _) \
	M(P, COLOR0_PITCH,             0x020c, 1, 4, PLAIN,  _) \
	M(P, COLOR0_OFFSET,            0x0210, 1, 4, ADDR,   DMA_COLOR0) \
	M(P, ZETA_OFFSET,              0x0214, 1, 4, ADDR,   DMA_ZETA) \
	M(P, COLOR1_OFFSET,            0x0218, 1, 4, ADDR,   DMA_COLOR1) \
	M(P, COLOR1_PITCH,             0x021c, 1, 4, PLAIN,  _) \
	M(P, RT_ENABLE,                0x0220, 1, 4, PLAIN,  _) \
	M(P, ZETA_PITCH,               0x022c, 1, 4, PLAIN,  _) \
	M(P, COLOR2_PITCH,             0x0280, 1, 4, PLAIN,  _) \
	M(P, COLOR3_PITCH,             0x0284, 1, 4, PLAIN,  _) \
	M(P, COLOR2_OFFSET,            0x0288, 1, 4, ADDR,   DMA_COLOR2) \
	M(P, COLOR3_OFFSET,            0x028c, 1, 4, ADDR,   DMA_COLOR3) \
	M(P, VIEWPORT_TX_ORIGIN,       0x02b8, 1, 4, PLAIN,  _) \
	M(P, VIEWPORT_CLIP_MODE,       0x02bc, 1, 4, PLAIN,  _) \
	M(P, VIEWPORT_CLIP_HORIZ,      0x02c0, 8, 8, PLAIN,  _) \
	M(P, VIEWPORT_CLIP_VERT,       0x02c4, 8, 8, PLAIN,  _) \
	/* blend, alpha, stencil (STENCIL[0] front, [1] back) */ \
	M(P, DITHER_ENABLE,            0x0300, 1, 4, PLAIN,  _) \
	M(P, ALPHA_FUNC_ENABLE,        0x0304, 1, 4, PLAIN,  _) \
	M(P, ALPHA_FUNC_FUNC,          0x0308, 1, 4, PLAIN,  _) \
	M(P, ALPHA_FUNC_REF,           0x030c, 1, 4, PLAIN,  _) \
	M(P, BLEND_FUNC_ENABLE,        0x0310, 1, 4, PLAIN,  _) \
	M(P, BLEND_FUNC_SRC,           0x0314, 1, 4, PLAIN,  _) \
	M(P, BLEND_FUNC_DST,           0x0318, 1, 4, PLAIN,  _) \
	M(P, BLEND_COLOR,              0x031c, 1, 4, PLAIN,  _) \
	M(P, BLEND_EQUATION,           0x0320, 1, 4, PLAIN,  _) \
	M(P, COLOR_MASK,               0x0324, 1, 4, PLAIN,  _) \
	M(P, STENCIL_ENABLE,           0x0328, 2, 0x20, PLAIN, _) \
	M(P, STENCIL_MASK,             0x032c, 2, 0x20, PLAIN, _) \
	M(P, STENCIL_FUNC_FUNC,        0x0330, 2, 0x20, PLAIN, _) \
	M(P, STENCIL_FUNC_REF,         0x0334, 2, 0x20, PLAIN, _) \
	M(P, STENCIL_FUNC_MASK,        0x0338, 2, 0x20, PLAIN, _) \
	M(P, STENCIL_OP_FAIL,          0x033c, 2, 0x20, PLAIN, _) \
	M(P, STENCIL_OP_ZFAIL,         0x0340, 2, 0x20, PLAIN, _) \
	M(P, STENCIL_OP_ZPASS,         0x0344, 2, 0x20, PLAIN, _) \
	M(P, SHADE_MODEL,              0x0368, 1, 4, PLAIN,  _) \
	M(P, MRT_BLEND_ENABLE,         0x036c, 1, 4, PLAIN,  _) \
	M(P, MRT_COLOR_MASK,           0x0370, 1, 4, PLAIN,  _) \
	M(P, COLOR_LOGIC_OP_ENABLE,    0x0374, 1, 4, PLAIN,  _) \
	M(P, COLOR_LOGIC_OP_OP,        0x0378, 1, 4, PLAIN,  _) \
	/* 0x37c: fp16 B,A of the blend colour for fp16/fp32 targets */ \
	M(P, UNK037C,                  0x037c, 1, 4, PLAIN,  _) \
	M(P, DEPTH_BOUNDS_TEST_ENABLE, 0x0380, 1, 4, PLAIN,  _) \
	M(P, DEPTH_BOUNDS_TEST_ZMIN,   0x0384, 1, 4, PLAIN,  _) \
	M(P, DEPTH_BOUNDS_TEST_ZMAX,   0x0388, 1, 4, PLAIN,  _) \
	M(P, DEPTH_RANGE_NEAR,         0x0394, 1, 4, PLAIN,  _) \
	M(P, DEPTH_RANGE_FAR,          0x0398, 1, 4, PLAIN,  _) \
	M(P, MIPMAP_ROUNDING,          0x03b0, 1, 4, PLAIN,  _) \
	M(P, LINE_WIDTH,               0x03b8, 1, 4, PLAIN,  _) \
	M(P, LINE_SMOOTH_ENABLE,       0x03bc, 1, 4, PLAIN,  _) \
	M(P, SCISSOR_HORIZ,            0x08c0, 1, 4, PLAIN,  _) \
	M(P, SCISSOR_VERT,             0x08c4, 1, 4, PLAIN,  _) \
	M(P, FOG_MODE,                 0x08cc, 1, 4, PLAIN,  _) \
	M(P, FOG_EQUATION_CONSTANT,    0x08d0, 1, 4, PLAIN,  _) \
	M(P, FOG_EQUATION_LINEAR,      0x08d4, 1, 4, PLAIN,  _) \
	M(P, FOG_EQUATION_QUADRATIC,   0x08d8, 1, 4, PLAIN,  _) \
	M(P, FP_ACTIVE_PROGRAM,        0x08e4, 1, 4, ADDR,   DMA_TEXTURE0) \
	M(P, VTXTEX_ENABLE,            0x090c, 4, 0x20, PLAIN, _) \
	/* viewport, polygon offset, depth */ \
	M(P, VIEWPORT_HORIZ,           0x0a00, 1, 4, PLAIN,  _) \
	M(P, VIEWPORT_VERT,            0x0a04, 1, 4, PLAIN,  _) \
	M(P, VIEWPORT_TRANSLATE,       0x0a20, 4, 4, PLAIN,  _) \
	M(P, VIEWPORT_SCALE,           0x0a30, 4, 4, PLAIN,  _) \
	M(P, POLYGON_OFFSET_POINT_ENABLE, 0x0a60, 1, 4, PLAIN, _) \
	M(P, POLYGON_OFFSET_LINE_ENABLE,  0x0a64, 1, 4, PLAIN, _) \
	M(P, POLYGON_OFFSET_FILL_ENABLE,  0x0a68, 1, 4, PLAIN, _) \
	M(P, DEPTH_FUNC,               0x0a6c, 1, 4, PLAIN,  _) \
	M(P, DEPTH_WRITE_ENABLE,       0x0a70, 1, 4, PLAIN,  _) \
	M(P, DEPTH_TEST_ENABLE,        0x0a74, 1, 4, PLAIN,  _) \
	M(P, POLYGON_OFFSET_FACTOR,    0x0a78, 1, 4, PLAIN,  _) \
	M(P, POLYGON_OFFSET_UNITS,     0x0a7c, 1, 4, PLAIN,  _) \
	M(P, VTX_ATTR_3I_XY,           0x0a80, 16, 8, PLAIN, _) \
	M(P, VTX_ATTR_3I_Z,            0x0a84, 16, 8, PLAIN, _) \
	M(P, TEX_FILTER_OPTIMIZATION,  0x0b00, 16, 4, PLAIN, _) \
	/* 0xb40: 0 after an FP bind; the 3D blit writes 1 for textures of depth < 2 */ \
	M(P, UNK0B40,                  0x0b40, 8, 4, PLAIN,  _) \
	M(P, VP_UPLOAD_INST,           0x0b80, 4, 4, PLAIN,  _) \
	M(P, VERTEX_TWO_SIDE_ENABLE,   0x142c, 1, 4, PLAIN,  _) \
	M(P, FP_REG_CONTROL,           0x1450, 1, 4, PLAIN,  _) \
	M(P, FLATSHADE_FIRST,          0x1454, 1, 4, PLAIN,  _) \
	M(P, EDGEFLAG,                 0x145c, 1, 4, PLAIN,  _) \
	M(P, VP_CLIP_PLANES_ENABLE,    0x1478, 1, 4, PLAIN,  _) \
	M(P, POLYGON_STIPPLE_ENABLE,   0x147c, 1, 4, PLAIN,  _) \
	M(P, POLYGON_STIPPLE_PATTERN,  0x1480, 32, 4, PLAIN, _) \
	M(P, VTX_ATTR_3F_X,            0x1500, 16, 0x10, PLAIN, _) \
	M(P, VTX_ATTR_3F_Y,            0x1504, 16, 0x10, PLAIN, _) \
	M(P, VTX_ATTR_3F_Z,            0x1508, 16, 0x10, PLAIN, _) \
	/* vertex input */ \
	M(P, VTXBUF,                   0x1680, 16, 4, ADDR,  DMA_VTXBUF0) \
	M(P, VTX_CACHE_INVALIDATE_1710, 0x1710, 1, 4, PLAIN, _) \
	M(P, VTX_CACHE_INVALIDATE,     0x1714, 1, 4, PLAIN,  _) \
	M(P, UNK1718,                  0x1718, 1, 4, PLAIN,  _) \
	M(P, VB_ELEMENT_BASE,          0x173c, 1, 4, PLAIN,  _) \
	M(P, VTXFMT,                   0x1740, 16, 4, PLAIN, _) \
	M(P, QUERY_RESET,              0x17c8, 1, 4, PLAIN,  _) \
	M(P, QUERY_ENABLE,             0x17cc, 1, 4, PLAIN,  _) \
	M(P, QUERY_GET,                0x1800, 1, 4, ADDR,   DMA_QUERY) \
	/* 0x1804: zcull statistics enable (Mesa's ZCULL queries) */ \
	M(P, UNK1804,                  0x1804, 1, 4, PLAIN,  _) \
	M(P, VERTEX_BEGIN_END,         0x1808, 1, 4, PLAIN,  _) \
	M(P, VB_ELEMENT_U16,           0x180c, 1, 4, PLAIN,  _) \
	M(P, VB_ELEMENT_U32,           0x1810, 1, 4, PLAIN,  _) \
	M(P, VB_VERTEX_BATCH,          0x1814, 1, 4, PLAIN,  _) \
	M(P, VERTEX_DATA,              0x1818, 1, 4, PLAIN,  _) \
	M(P, IDXBUF_OFFSET,            0x181c, 1, 4, ADDR,   DMA_VTXBUF0) \
	M(P, IDXBUF_FORMAT,            0x1820, 1, 4, PLAIN,  _) \
	M(P, VB_INDEX_BATCH,           0x1824, 1, 4, PLAIN,  _) \
	M(P, POLYGON_MODE_FRONT,       0x1828, 1, 4, PLAIN,  _) \
	M(P, POLYGON_MODE_BACK,        0x182c, 1, 4, PLAIN,  _) \
	M(P, CULL_FACE,                0x1830, 1, 4, PLAIN,  _) \
	M(P, FRONT_FACE,               0x1834, 1, 4, PLAIN,  _) \
	M(P, POLYGON_SMOOTH_ENABLE,    0x1838, 1, 4, PLAIN,  _) \
	M(P, CULL_FACE_ENABLE,         0x183c, 1, 4, PLAIN,  _) \
	M(P, TEX_SIZE1,                0x1840, 16, 4, PLAIN, _) \
	M(P, VTX_ATTR_2F,              0x1880, 32, 4, PLAIN, _) \
	M(P, VTX_ATTR_2I,              0x1900, 16, 4, PLAIN, _) \
	M(P, VTX_ATTR_4UB,             0x1940, 16, 4, PLAIN, _) \
	M(P, VTX_ATTR_4I_XY,           0x1980, 16, 8, PLAIN, _) \
	M(P, VTX_ATTR_4I_ZW,           0x1984, 16, 8, PLAIN, _) \
	/* fragment texture units: one 8-word block per unit */ \
	M(P, TEX_OFFSET,               0x1a00, 16, 0x20, ADDR, DMA_TEXTURE0) \
	M(P, TEX_FORMAT,               0x1a04, 16, 0x20, PLAIN, _) \
	M(P, TEX_WRAP,                 0x1a08, 16, 0x20, PLAIN, _) \
	M(P, TEX_ENABLE,               0x1a0c, 16, 0x20, PLAIN, _) \
	M(P, TEX_SWIZZLE,              0x1a10, 16, 0x20, PLAIN, _) \
	M(P, TEX_FILTER,               0x1a14, 16, 0x20, PLAIN, _) \
	M(P, TEX_NPOT_SIZE,            0x1a18, 16, 0x20, PLAIN, _) \
	M(P, TEX_BORDER_COLOR,         0x1a1c, 16, 0x20, PLAIN, _) \
	M(P, VTX_ATTR_4F,              0x1c00, 64, 4, PLAIN, _) \
	M(P, FP_CONTROL,               0x1d60, 1, 4, PLAIN,  _) \
	M(P, UNK1D64,                  0x1d64, 1, 4, PLAIN,  _) \
	M(P, FENCE_OFFSET,             0x1d6c, 1, 4, ADDR,   DMA_FENCE) \
	M(P, FENCE_VALUE,              0x1d70, 1, 4, PLAIN,  _) \
	M(P, DEPTH_CONTROL,            0x1d78, 1, 4, PLAIN,  _) \
	M(P, MULTISAMPLE_CONTROL,      0x1d7c, 1, 4, PLAIN,  _) \
	M(P, COORD_CONVENTIONS,        0x1d88, 1, 4, PLAIN,  _) \
	M(P, CLEAR_DEPTH_VALUE,        0x1d8c, 1, 4, PLAIN,  _) \
	M(P, CLEAR_COLOR_VALUE,        0x1d90, 1, 4, PLAIN,  _) \
	M(P, CLEAR_BUFFERS,            0x1d94, 1, 4, PLAIN,  _) \
	/* 0x1da4: Mesa writes 0 before every framebuffer setup */ \
	M(P, UNK1DA4,                  0x1da4, 1, 4, PLAIN,  _) \
	M(P, PRIMITIVE_RESTART_ENABLE, 0x1dac, 1, 4, PLAIN,  _) \
	M(P, PRIMITIVE_RESTART_INDEX,  0x1db0, 1, 4, PLAIN,  _) \
	M(P, LINE_STIPPLE_ENABLE,      0x1db4, 1, 4, PLAIN,  _) \
	M(P, LINE_STIPPLE_PATTERN,     0x1db8, 1, 4, PLAIN,  _) \
	M(P, VTX_ATTR_1F,              0x1e40, 16, 4, PLAIN, _) \
	M(P, ENGINE,                   0x1e94, 1, 4, PLAIN,  _) \
	M(P, UNK1E98,                  0x1e98, 1, 4, ADDR,   DMA_QUERY) \
	/* vertex program upload and start */ \
	M(P, VP_UPLOAD_FROM_ID,        0x1e9c, 1, 4, PLAIN,  _) \
	M(P, VP_START_FROM_ID,         0x1ea0, 1, 4, PLAIN,  _) \
	/* 0x1ea4-0x1eac: zcull setup written once at init */ \
	M(P, UNK1EA4,                  0x1ea4, 1, 4, PLAIN,  _) \
	M(P, UNK1EA8,                  0x1ea8, 1, 4, PLAIN,  _) \
	M(P, UNK1EAC,                  0x1eac, 1, 4, PLAIN,  _) \
	M(P, POINT_SIZE,               0x1ee0, 1, 4, PLAIN,  _) \
	M(P, POINT_SPRITE,             0x1ee8, 1, 4, PLAIN,  _) \
	M(P, UNK1EF8,                  0x1ef8, 1, 4, PLAIN,  _) \
	M(P, VP_UPLOAD_CONST_ID,       0x1efc, 1, 4, PLAIN,  _) \
	M(P, VP_UPLOAD_CONST,          0x1f00, 16, 4, PLAIN, _) \
	/* 0x1fc4-0x1fd4: vertex program output routing, written once at init */ \
	M(P, UNK1FC4,                  0x1fc4, 1, 4, PLAIN,  _) \
	M(P, UNK1FC8,                  0x1fc8, 1, 4, PLAIN,  _) \
	M(P, UNK1FCC,                  0x1fcc, 1, 4, PLAIN,  _) \
	M(P, UNK1FD0,                  0x1fd0, 1, 4, PLAIN,  _) \
	M(P, UNK1FD4,                  0x1fd4, 1, 4, PLAIN,  _) \
	M(P, TEX_CACHE_CTL,            0x1fd8, 1, 4, PLAIN,  _) \
	M(P, VP_ATTRIB_EN,             0x1ff0, 1, 4, PLAIN,  _) \
	M(P, VP_RESULT_EN,             0x1ff4, 1, 4, PLAIN,  _)

/* Rows of NV_CURIE_METHODS that class 0x4497 does not have: X(P, NAME),
 * attached to the class by NV_CLASS_ABSENT in methods.h. */
#define NV_CURIE_NV44_ABSENT(X, P) \
	X(P, IDXBUF_OFFSET) \
	X(P, IDXBUF_FORMAT) \
	X(P, VB_INDEX_BATCH)

#endif
