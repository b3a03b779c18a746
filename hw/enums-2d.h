/* Values and bit fields of the 2D objects' method data, beyond the pixel
 * formats in formats.h: operations, the GDI/IFC/PATTERN colour formats, the
 * pattern's shapes, SIFM origin and filter, the SWZSURF and M2MF FORMAT
 * fields and the packed coordinate words.  Facts from envytools rnndb
 * (graph/nv1_2d.xml, nv1_ctxobj.xml, nv1_ifc.xml, nv1_ifm.xml, nv3_gdi.xml,
 * nv_m2mf.xml), envytools hwtest (pgraph_class_*.cc: the value checks) and
 * ../shared/ref/ddx-2d.md §3.3. */
#ifndef NV_HW_ENUMS_2D_H
#define NV_HW_ENUMS_2D_H

#include <stdint.h>

/* OPERATION: GDI, BLIT, IFC 0x2fc; SIFM 0x304. */
#define NV_2D_OPERATIONS(X) \
	X(SRCCOPY_AND,     0) \
	X(ROP_AND,         1) \
	X(BLEND_AND,       2) \
	X(SRCCOPY,         3) \
	X(SRCCOPY_PREMULT, 4) \
	X(BLEND_PREMULT,   5)

/* GDI COLOR_FORMAT (0x300) and PATTERN COLOR_FORMAT (0x300): how a colour
 * word is read.  X(name, value, bytes of colour that matter) */
#define NV_GDI_COLOR_FORMATS(X) \
	X(A16R5G6B5,   1, 2) \
	X(X16A1R5G5B5, 2, 2) \
	X(A8R8G8B8,    3, 4)

/* IFC COLOR_FORMAT (0x300): the pixels in COLOR(i), packed little-endian
 * (two 16-bit pixels per word, the first in bits 15:0).
 * X(name, value, bytes per pixel) */
#define NV_IFC_COLOR_FORMATS(X) \
	X(R5G6B5,   1, 2) \
	X(A1R5G5B5, 2, 2) \
	X(X1R5G5B5, 3, 2) \
	X(A8R8G8B8, 4, 4) \
	X(X8R8G8B8, 5, 4)

/* PATTERN: MONOCHROME_FORMAT (CGA6 stores the bits of each byte reversed),
 * MONOCHROME_SHAPE, PATTERN_SELECT.  rnndb (nv1_ctxobj.xml) numbering;
 * envytools' pattern.rst swaps CGA6/LE. */
#define NV_PATT_MONO_FORMAT_CGA6  1
#define NV_PATT_MONO_FORMAT_LE    2
#define NV_PATT_SHAPE_8X8         0
#define NV_PATT_SHAPE_64X1        1
#define NV_PATT_SHAPE_1X64        2
#define NV_PATT_SELECT_MONO       1
#define NV_PATT_SELECT_COLOR      2

/* ROP ROP (0x300): an 8-bit ternary raster operation; bit (P<<2 | S<<1 | D)
 * of the code is the result for those input bits. */
#define NV_ROP_MAX                0xff

/* SIFM */
#define NV_SIFM_COLOR_CONVERSION_DITHER   0
#define NV_SIFM_COLOR_CONVERSION_TRUNCATE 1
#define NV_SIFM_COLOR_CONVERSION_SUBTR_TRUNCATE 2
#define NV_SIFM_FORMAT_PITCH(v)   ((uint32_t)(v) & 0xffff)
#define NV_SIFM_FORMAT_ORIGIN(v)  (((uint32_t)(v) >> 16) & 0xff)
#define NV_SIFM_FORMAT_FILTER(v)  ((uint32_t)(v) >> 24)
#define NV_SIFM_ORIGIN_CENTER     1
#define NV_SIFM_ORIGIN_CORNER     2
#define NV_SIFM_FILTER_POINT_SAMPLE 0
#define NV_SIFM_FILTER_BILINEAR   1
#define NV_SIFM_SIZE_MAX          0x7ff    /* SIZE w and h; w even, neither 0 */
/* POINT: U 15:0, V 31:16, signed 12.4 fixed point; DU_DX, DV_DY: signed
 * 12.20 fixed point. */
#define NV_SIFM_POINT_FRAC_BITS   4
#define NV_SIFM_DXDY_FRAC_BITS    20

/* NV40_SURFACE_SWZ FORMAT: colour (formats.h NV_SURF_FORMAT_*) 15:0,
 * log2 width 23:16, log2 height 31:24 (hwtest: width 1..11, height 0..11). */
#define NV_SWZSURF_FORMAT_COLOR(v) ((uint32_t)(v) & 0xffff)
#define NV_SWZSURF_FORMAT_LOG2W(v) (((uint32_t)(v) >> 16) & 0xff)
#define NV_SWZSURF_FORMAT_LOG2H(v) (((uint32_t)(v) >> 24) & 0xff)
#define NV_SWZSURF_LOG2_MAX       11

/* NV10_SURFACE_2D PITCH: source 15:0, destination 31:16, bytes. */
#define NV_SURF2D_PITCH_SOURCE(v) ((uint32_t)(v) & 0xffff)
#define NV_SURF2D_PITCH_DESTIN(v) ((uint32_t)(v) >> 16)

/* M2MF FORMAT: input increment 7:0, output increment 15:8, each 1, 2 or 4.
 * A line is LINE_LENGTH_IN bytes of input: byte k of it (k*INPUT_INC <
 * LINE_LENGTH_IN) is read at k*INPUT_INC and written at k*OUTPUT_INC.
 * hwtest: LINE_LENGTH_IN < 4 MiB, LINE_COUNT < 2048, other bits zero. */
#define NV_M2MF_FORMAT_INPUT_INC(v)  ((uint32_t)(v) & 0xff)
#define NV_M2MF_FORMAT_OUTPUT_INC(v) (((uint32_t)(v) >> 8) & 0xff)
#define NV_M2MF_FORMAT(in, out)      ((uint32_t)(in) | (uint32_t)(out) << 8)
#define NV_M2MF_FORMAT_VALID_MASK    0x0000ffffu
#define NV_M2MF_LINE_LENGTH_MAX      0x3fffff
#define NV_M2MF_LINE_COUNT_MAX       0x7ff

/* Packed coordinates.  BLIT POINT_IN/POINT_OUT/SIZE, IFC POINT/SIZE_OUT/
 * SIZE_IN, CLIP POINT/SIZE, SIFM CLIP_*, OUT_* and SIZE: X (or W) 15:0,
 * Y (or H) 31:16.  GDI UNCLIPPED_RECTANGLE_POINT/SIZE the other way round:
 * Y (H) 15:0, X (W) 31:16. */
#define NV_2D_LO16(v)             ((uint32_t)(v) & 0xffff)
#define NV_2D_HI16(v)             ((uint32_t)(v) >> 16)

#define NV_2D_OPERATION_ENUM_(nm, v) NV_2D_OPERATION_##nm = (v),
enum { NV_2D_OPERATIONS(NV_2D_OPERATION_ENUM_) };
#define NV_GDI_COLOR_FORMAT_ENUM_(nm, v, b) NV_GDI_COLOR_FORMAT_##nm = (v),
enum { NV_GDI_COLOR_FORMATS(NV_GDI_COLOR_FORMAT_ENUM_) };
#define NV_IFC_COLOR_FORMAT_ENUM_(nm, v, b) NV_IFC_COLOR_FORMAT_##nm = (v),
enum { NV_IFC_COLOR_FORMATS(NV_IFC_COLOR_FORMAT_ENUM_) };

static inline unsigned nv_ifc_color_format_bpp(uint32_t fmt)
{
#define NV_IFC_BPP_CASE_(nm, v, b) case (v): return (b);
	switch (fmt) { NV_IFC_COLOR_FORMATS(NV_IFC_BPP_CASE_) default: return 0; }
#undef NV_IFC_BPP_CASE_
}

#endif
