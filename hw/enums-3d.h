/* Values the 3D class's methods carry (Curie 0x4097/0x4497): render target
 * formats, clears, primitives, vertex formats.  Facts from rnndb
 * graph/nv30-40_3d.xml (as generated into Mesa's nv30-40_3d.xml.h) and
 * ../shared/ref/nv40-hardware.md §2.2, §4. */
#ifndef NV_HW_ENUMS_3D_H
#define NV_HW_ENUMS_3D_H

#include <stdint.h>

/* RT_FORMAT (0x208) fields */
#define NV40_RT_FORMAT_COLOR(v)    ((v) & 0x1f)
#define NV40_RT_FORMAT_ZETA(v)     (((v) >> 5) & 0x7)
#define NV40_RT_FORMAT_TYPE(v)     (((v) >> 8) & 0xf)
#define NV40_RT_FORMAT_MSAA(v)     (((v) >> 12) & 0xf)
#define NV40_RT_FORMAT_LOG2W(v)    (((v) >> 16) & 0xff)
#define NV40_RT_FORMAT_LOG2H(v)    (((v) >> 24) & 0xff)
#define NV40_RT_FORMAT_ZETA_SHIFT  5
#define NV40_RT_FORMAT_TYPE_SHIFT  8
enum { NV40_RT_TYPE_LINEAR = 1, NV40_RT_TYPE_SWIZZLED = 2 };

/* RT_FORMAT COLOR: X(name, value, bytes per pixel) */
#define NV40_RT_COLOR_FORMATS(X) \
	X(X1R5G5B5_Z1R5G5B5,   0x01, 2) \
	X(X1R5G5B5_O1R5G5B5,   0x02, 2) \
	X(R5G6B5,              0x03, 2) \
	X(X8R8G8B8_Z8R8G8B8,   0x04, 4) \
	X(X8R8G8B8_O8R8G8B8,   0x05, 4) \
	X(A8R8G8B8,            0x08, 4) \
	X(B8,                  0x09, 1) \
	X(G8B8,                0x0a, 2) \
	X(A16B16G16R16_FLOAT,  0x0b, 8) \
	X(A32B32G32R32_FLOAT,  0x0c, 16) \
	X(R32_FLOAT,           0x0d, 4) \
	X(X8B8G8R8_Z8B8G8R8,   0x0e, 4) \
	X(X8B8G8R8_O8B8G8R8,   0x0f, 4) \
	X(A8B8G8R8,            0x10, 4)

/* RT_FORMAT ZETA: X(name, value, bytes per pixel) */
#define NV40_RT_ZETA_FORMATS(X) \
	X(Z16,                 0x1, 2) \
	X(Z24S8,               0x2, 4)

#define NV40_RT_COLOR_ENUM_(nm, v, bpp) NV40_RT_COLOR_##nm = (v),
enum { NV40_RT_COLOR_FORMATS(NV40_RT_COLOR_ENUM_) };
#define NV40_RT_ZETA_ENUM_(nm, v, bpp) NV40_RT_ZETA_##nm = (v),
enum { NV40_RT_ZETA_FORMATS(NV40_RT_ZETA_ENUM_) };

/* Bytes per pixel, 0 for a value that is no format. */
#define NV40_FORMAT_BPP_CASE_(nm, v, bpp) case (v): return (bpp);
static inline unsigned nv40_rt_color_bpp(uint32_t fmt)
{
	switch (fmt) { NV40_RT_COLOR_FORMATS(NV40_FORMAT_BPP_CASE_) default: return 0; }
}
static inline unsigned nv40_rt_zeta_bpp(uint32_t fmt)
{
	switch (fmt) { NV40_RT_ZETA_FORMATS(NV40_FORMAT_BPP_CASE_) default: return 0; }
}

/* RT_ENABLE (0x220) */
#define NV40_RT_ENABLE_COLOR(i)    (1u << (i))
#define NV40_RT_ENABLE_MRT         0x10u

/* RT_HORIZ / RT_VERT, SCISSOR_*, VIEWPORT_HORIZ/VERT: x | w << 16 */
#define NV40_RECT_ORIGIN(v)        ((v) & 0xffff)
#define NV40_RECT_SIZE(v)          ((v) >> 16)

/* CLEAR_BUFFERS (0x1d94) */
#define NV40_CLEAR_DEPTH           0x01u
#define NV40_CLEAR_STENCIL         0x02u
#define NV40_CLEAR_COLOR_R         0x10u
#define NV40_CLEAR_COLOR_G         0x20u
#define NV40_CLEAR_COLOR_B         0x40u
#define NV40_CLEAR_COLOR_A         0x80u

/* QUERY_GET (0x1800): report << 24 | offset into DMA_QUERY */
#define NV40_QUERY_GET_OFFSET(v)   ((v) & 0xffffff)
#define NV40_QUERY_GET_REPORT(v)   ((v) >> 24)
enum { NV40_QUERY_REPORT_SAMPLES = 1 };
#define NV40_QUERY_REPORT_SIZE     16   /* u64 ns, u32 value, u32 status */

/* VERTEX_BEGIN_END (0x1808) */
#define NV40_PRIMS(X) \
	X(STOP,           0x0) \
	X(POINTS,         0x1) \
	X(LINES,          0x2) \
	X(LINE_LOOP,      0x3) \
	X(LINE_STRIP,     0x4) \
	X(TRIANGLES,      0x5) \
	X(TRIANGLE_STRIP, 0x6) \
	X(TRIANGLE_FAN,   0x7) \
	X(QUADS,          0x8) \
	X(QUAD_STRIP,     0x9) \
	X(POLYGON,        0xa)
#define NV40_PRIM_ENUM_(nm, v) NV40_PRIM_##nm = (v),
enum { NV40_PRIMS(NV40_PRIM_ENUM_) };

/* VTXFMT[i] (0x1740): type 3:0, components 7:4 (0 = slot off), stride 15:8.
 * X(name, value, bytes per component) */
#define NV40_VTXFMT_TYPES(X) \
	X(B8G8R8A8_UNORM, 0x0, 1) \
	X(V16_SNORM,      0x1, 2) \
	X(V32_FLOAT,      0x2, 4) \
	X(V16_FLOAT,      0x3, 2) \
	X(U8_UNORM,       0x4, 1) \
	X(V16_SSCALED,    0x5, 2) \
	X(U8_USCALED,     0x7, 1)
#define NV40_VTXFMT_ENUM_(nm, v, sz) NV40_VTXFMT_##nm = (v),
enum { NV40_VTXFMT_TYPES(NV40_VTXFMT_ENUM_) };
#define NV40_VTXFMT_TYPE(v)        ((v) & 0xf)
#define NV40_VTXFMT_SIZE(v)        (((v) >> 4) & 0xf)
#define NV40_VTXFMT_STRIDE(v)      (((v) >> 8) & 0xff)

/* VTXBUF[i] (0x1680): offset 27:0, bit 31 = DMA_VTXBUF1 */
#define NV40_VTXBUF_OFFSET(v)      ((v) & 0x0fffffff)
#define NV40_VTXBUF_DMA1           0x80000000u

/* VB_VERTEX_BATCH / VB_INDEX_BATCH: start 23:0, count - 1 in 31:24 */
#define NV40_BATCH_START(v)        ((v) & 0xffffff)
#define NV40_BATCH_COUNT(v)        (((v) >> 24) + 1)

/* IDXBUF_FORMAT (0x1820): bit 0 DMA_VTXBUF1, type 7:4 (0 u32, 1 u16) */
#define NV40_IDXBUF_DMA1           0x1u
#define NV40_IDXBUF_TYPE_U16       0x10u

/* FP_ACTIVE_PROGRAM (0x8e4): offset | 1 = DMA_TEXTURE0, | 2 = DMA_TEXTURE1 */
#define NV40_FP_PROGRAM_DMA0       0x1u
#define NV40_FP_PROGRAM_DMA1       0x2u

/* SHADE_MODEL (0x368) */
enum { NV40_SHADE_FLAT = 0x1d00, NV40_SHADE_SMOOTH = 0x1d01 };

#endif
