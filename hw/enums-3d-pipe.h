/* Values the 3D class's pipeline state methods carry (Curie 0x4097/0x4497):
 * the GL enums of the depth/stencil/alpha/blend/logic-op/rasteriser methods
 * and the bit fields of the masks and controls the geometry and pixel
 * pipeline reads.  Facts from rnndb graph/nv30-40_3d.xml (types
 * gl_comparison_op, gl_blend_factor, gl_blend_equation, gl_stencil_op,
 * gl_logic_op), Mesa nv30_state.c / nv30_state_validate.c and
 * ../shared/ref/nv40-hardware.md §2.2. */
#ifndef NV_HW_ENUMS_3D_PIPE_H
#define NV_HW_ENUMS_3D_PIPE_H

/* DEPTH_FUNC, ALPHA_FUNC_FUNC, STENCIL_FUNC_FUNC (gl_comparison_op) */
enum {
	NV40_CMP_NEVER = 0x200, NV40_CMP_LESS = 0x201, NV40_CMP_EQUAL = 0x202,
	NV40_CMP_LEQUAL = 0x203, NV40_CMP_GREATER = 0x204, NV40_CMP_NOTEQUAL = 0x205,
	NV40_CMP_GEQUAL = 0x206, NV40_CMP_ALWAYS = 0x207,
};

/* STENCIL_OP_* (gl_stencil_op) */
enum {
	NV40_STENCIL_ZERO = 0x0000, NV40_STENCIL_INVERT = 0x150a, NV40_STENCIL_KEEP = 0x1e00,
	NV40_STENCIL_REPLACE = 0x1e01, NV40_STENCIL_INCR = 0x1e02, NV40_STENCIL_DECR = 0x1e03,
	NV40_STENCIL_INCR_WRAP = 0x8507, NV40_STENCIL_DECR_WRAP = 0x8508,
};

/* BLEND_FUNC_SRC/DST: alpha << 16 | rgb (gl_blend_factor) */
#define NV40_BLEND_RGB(v)          ((v) & 0xffff)
#define NV40_BLEND_ALPHA(v)        ((v) >> 16)
enum {
	NV40_BF_ZERO = 0x0000, NV40_BF_ONE = 0x0001,
	NV40_BF_SRC_COLOR = 0x0300, NV40_BF_ONE_MINUS_SRC_COLOR = 0x0301,
	NV40_BF_SRC_ALPHA = 0x0302, NV40_BF_ONE_MINUS_SRC_ALPHA = 0x0303,
	NV40_BF_DST_ALPHA = 0x0304, NV40_BF_ONE_MINUS_DST_ALPHA = 0x0305,
	NV40_BF_DST_COLOR = 0x0306, NV40_BF_ONE_MINUS_DST_COLOR = 0x0307,
	NV40_BF_SRC_ALPHA_SATURATE = 0x0308,
	NV40_BF_CONSTANT_COLOR = 0x8001, NV40_BF_ONE_MINUS_CONSTANT_COLOR = 0x8002,
	NV40_BF_CONSTANT_ALPHA = 0x8003, NV40_BF_ONE_MINUS_CONSTANT_ALPHA = 0x8004,
};

/* BLEND_EQUATION (NV40: alpha << 16 | rgb, gl_blend_equation) */
enum {
	NV40_BEQ_FUNC_ADD = 0x8006, NV40_BEQ_MIN = 0x8007, NV40_BEQ_MAX = 0x8008,
	NV40_BEQ_FUNC_SUBTRACT = 0x800a, NV40_BEQ_FUNC_REVERSE_SUBTRACT = 0x800b,
};

/* COLOR_LOGIC_OP_OP (gl_logic_op): 0x1500 + the 4-bit op, CLEAR .. SET */
#define NV40_LOGIC_OP_BASE         0x1500u
#define NV40_LOGIC_OP_CODE(v)      ((v) & 0xf)

/* COLOR_MASK (0x324): one byte per channel */
#define NV40_COLOR_MASK_B          0x000000ffu
#define NV40_COLOR_MASK_G          0x0000ff00u
#define NV40_COLOR_MASK_R          0x00ff0000u
#define NV40_COLOR_MASK_A          0xff000000u
/* MRT_COLOR_MASK (0x370): buffer i (1..3) at bits 4i: A, R, G, B */
#define NV40_MRT_COLOR_MASK_A(i)   (1u << (4 * (i)))
#define NV40_MRT_COLOR_MASK_R(i)   (1u << (4 * (i) + 1))
#define NV40_MRT_COLOR_MASK_G(i)   (1u << (4 * (i) + 2))
#define NV40_MRT_COLOR_MASK_B(i)   (1u << (4 * (i) + 3))
/* BLEND_FUNC_ENABLE bit 0: buffer 0; MRT_BLEND_ENABLE bit i: buffer i (1..3) */
#define NV40_MRT_BLEND_ENABLE(i)   (1u << (i))

/* POLYGON_MODE_FRONT/BACK, CULL_FACE, FRONT_FACE */
enum { NV40_POLYGON_MODE_POINT = 0x1b00, NV40_POLYGON_MODE_LINE = 0x1b01,
       NV40_POLYGON_MODE_FILL = 0x1b02 };
enum { NV40_CULL_FACE_FRONT = 0x0404, NV40_CULL_FACE_BACK = 0x0405,
       NV40_CULL_FACE_FRONT_AND_BACK = 0x0408 };
enum { NV40_FRONT_FACE_CW = 0x0900, NV40_FRONT_FACE_CCW = 0x0901 };

/* COORD_CONVENTIONS (0x1d88): they shape the fragment program's WPOS */
#define NV40_COORD_CONV_HEIGHT(v)  ((v) & 0xfff)
#define NV40_COORD_CONV_ORIGIN_INVERTED 0x00001000u
#define NV40_COORD_CONV_CENTER_INTEGER  0x00010000u

/* DEPTH_CONTROL (0x1d78): Mesa writes 0x1 (clip at near/far) or 0x10
 * (depth clamp, no near/far clipping) */
#define NV40_DEPTH_CONTROL_CLAMP   0x000000f0u

/* VP_CLIP_PLANES_ENABLE (0x1478): plane i (0..5) */
#define NV40_VP_CLIP_PLANE(i)      (2u << (4 * (i)))

/* VP_RESULT_EN (0x1ff4): which vertex program outputs reach the rasteriser */
#define NV40_VP_RESULT_COL0        (1u << 0)
#define NV40_VP_RESULT_COL1        (1u << 1)
#define NV40_VP_RESULT_BFC0        (1u << 2)
#define NV40_VP_RESULT_BFC1        (1u << 3)
#define NV40_VP_RESULT_COL(i)      (NV40_VP_RESULT_COL0 << (i))
#define NV40_VP_RESULT_BFC(i)      (NV40_VP_RESULT_BFC0 << (i))
#define NV40_VP_RESULT_FOGC        (1u << 4)
#define NV40_VP_RESULT_PSZ         (1u << 5)
#define NV40_VP_RESULT_CLIP(i)     (1u << (6 + (i)))
#define NV40_VP_RESULT_TC(i)       (0x4000u << (i))

/* Vertex program outputs (DEST) as the rasteriser reads them */
enum { NV40_VPO_POS = 0, NV40_VPO_COL0 = 1, NV40_VPO_COL1 = 2, NV40_VPO_BFC0 = 3,
       NV40_VPO_BFC1 = 4, NV40_VPO_FOGC = 5, NV40_VPO_PSZ = 6, NV40_VPO_TC0 = 7 };
/* Fragment program inputs (INPUT_SRC) */
enum { NV40_FPI_WPOS = 0, NV40_FPI_COL0 = 1, NV40_FPI_COL1 = 2, NV40_FPI_FOGC = 3,
       NV40_FPI_TC0 = 4, NV40_FPI_FACING = 14 };

/* ENGINE (0x1e94): Mesa writes 0x11 for its own vertex programs and 0x103
 * for the 3D blit and the swtnl (draw module) path, whose positions are
 * already in window space with w = 1/w_clip.  Which bit means what is
 * unknown [inferred]: bit 8 is taken to mean "positions are window
 * coordinates: no clipping and no perspective divide". */
#define NV40_ENGINE_WINDOW_SPACE   0x00000100u
/* rnndb's ENGINE.FP alone: what nouveau's DDX writes, with its own vertex
 * program running on clip-space positions (w = 1) */
#define NV40_ENGINE_FP             0x00000001u

/* POINT_SPRITE (0x1ee8) */
#define NV40_POINT_SPRITE_ENABLE   0x1u
#define NV40_POINT_SPRITE_COORD_REPLACE(i) (0x100u << (i))

/* LINE_WIDTH (0x3b8): width * 8; LINE_STIPPLE_PATTERN: pattern << 16 | factor */
#define NV40_LINE_WIDTH_FRAC       8
#define NV40_LINE_STIPPLE_FACTOR(v)  ((v) & 0xffff)
#define NV40_LINE_STIPPLE_PATTERN(v) ((v) >> 16)

/* UNK1E98, the render condition: 0x01000000 always; 0x02000000 | offset =
 * draw only if the DMA_QUERY report at offset counted samples */
#define NV40_RENDER_COND_MODE(v)   ((v) >> 24)
#define NV40_RENDER_COND_OFFSET(v) ((v) & 0xffffff)
enum { NV40_RENDER_COND_ALWAYS = 1, NV40_RENDER_COND_IF_SAMPLES = 2 };
#define NV40_QUERY_REPORT_VALUE    8    /* byte offset of the count in a report */

#endif
