/* What the card touches, and when: for every operation of every engine, the
 * memory it reads and writes, given the channel's method state.  One model:
 * the simulator maps exactly these regions when it runs the operation
 * (sim/), the validator checks exactly these regions, at the same method,
 * against the submission's buffers (nvd/validate*.c).  A rule written
 * here is written nowhere else.
 *
 * An access is a region through the ctxdma a method of some class holds:
 * `rows` lines of `len` bytes, line i at off + i * pitch (pitch signed).
 * Offsets are computed in 64 bits from the 32-bit method values.
 *
 * Which methods act (NV_ACC_LAUNCHES): the card touches memory only when
 * one of them is executed.  Each names the function that lists what it
 * touches.  What the functions read (NV_ACC_INPUTS): the method values the
 * model may look at; test_hw_access proves it looks at no other, so the
 * validator need keep only these.  Handle methods (the ctxdmas and linked
 * objects) are read too; a state view answers for the class of the object
 * a handle slot names.
 *
 * Facts: rnndb (nv_m2mf.xml, nv4_pgraph.xml, nv30-40_3d.xml), the nouveau
 * DDX and Mesa nv30 sources, ../shared/ref/nv40-hardware.md and ddx-2d.md,
 * as recorded beside each function. */
#ifndef NV_HW_ACCESS_H
#define NV_HW_ACCESS_H

#include <stdint.h>

#include "methods.h"

enum { NV_ACC_READ = 1, NV_ACC_WRITE = 2, NV_ACC_RW = 3 };

/* What an access is for: messages, and the validator's special cases. */
#define NV_ACC_KINDS(K) \
	K(M2MF_IN, "M2MF input") K(M2MF_OUT, "M2MF output") \
	K(GDI_DST, "GDI rectangle") K(BLIT_SRC, "BLIT source") K(BLIT_DST, "BLIT destination") \
	K(IFC_DST, "IFC destination") K(SIFM_SRC, "SIFM source") K(SIFM_DST, "SIFM destination") \
	K(NOTIFY, "notification") \
	K(COLOR, "colour buffer") K(ZETA, "zeta buffer") K(TEXTURE, "texture") \
	K(PROGRAM, "fragment program") K(COND, "render condition report") \
	K(VERTEX, "vertex buffer") K(INDEX, "index buffer") \
	K(QUERY, "query report") K(FENCE, "fence")
#define NV_ACC_KIND_ENUM_(id, s) NV_ACC_##id,
enum nv_acc_kind { NV_ACC_KINDS(NV_ACC_KIND_ENUM_) NV_ACC_NKINDS };
extern const char *const nv_acc_kind_name[NV_ACC_NKINDS];

struct nv_acc {
	uint8_t table;             /* enum nv_table_id of the handle method naming the ctxdma */
	uint8_t dir;               /* NV_ACC_READ / WRITE / RW */
	uint8_t kind;              /* enum nv_acc_kind */
	uint8_t unit;              /* colour buffer, texture unit, vertex attribute */
	uint16_t dma;              /* that method's slot (NV_<T>_<NAME>__SLOT) */
	uint32_t rows;             /* 0: touches nothing */
	int64_t off, pitch;
	uint64_t len;
	int32_t x, y;              /* 2D: the pixel the region starts at */
};

/* The bytes [*lo, *lo + *span) a region covers.  -1 when it reaches below
 * offset 0 or past 2^48 (nothing the card can address). */
int nv_acc_bounds(const struct nv_acc *a, uint64_t *lo, uint64_t *span);

/* Why an operation traps instead (the simulator raises it, the validator
 * refuses the submission): PGRAPH's NSOURCE reasons. */
enum nv_acc_trap { NV_ACC_OK, NV_ACC_DATA_ERROR, NV_ACC_STATE_INVALID };

#define NV_ACC_MAX 24              /* the most one operation touches (a 3D draw) */
struct nv_acc_list {
	unsigned n;
	uint8_t trap;              /* enum nv_acc_trap: then n is 0 */
	const char *why;           /* the trap's reason, for logs */
	struct nv_acc a[NV_ACC_MAX];
};

/* A channel's method state: each table's slots as hw/methods.h numbers
 * them (NULL for a table never used), and the class of the object a handle
 * slot names (0 for none, the null object or a ctxdma). */
struct nv_acc_state {
	const uint32_t *t[NV_TABLE_COUNT];
	unsigned (*cls)(const struct nv_acc_state *st, uint32_t handle_value);
	void *ctx;
};

/* ---- the operations ---- */

/* Each fills l (l->n accesses, or l->trap).  elem and data: the launching
 * method's array element and value. */
typedef void nv_acc_fn(const struct nv_acc_state *st, unsigned elem, uint32_t data,
		       struct nv_acc_list *l);

nv_acc_fn nv_acc_m2mf;         /* M2MF BUF_NOTIFY: the copy */
nv_acc_fn nv_acc_gdi;          /* GDI UNCLIPPED_RECTANGLE_SIZE(i): rectangle i */
nv_acc_fn nv_acc_blit;         /* BLIT SIZE */
nv_acc_fn nv_acc_ifc;          /* IFC COLOR: the image's pixels land in POINT/SIZE_OUT */
nv_acc_fn nv_acc_sifm;         /* SIFM POINT */
nv_acc_fn nv40_acc_clear;      /* CLEAR_BUFFERS */
nv_acc_fn nv40_acc_vertex;     /* a vertex without fetches (immediate, inline) */
nv_acc_fn nv40_acc_begin;      /* VERTEX_BEGIN_END */
nv_acc_fn nv40_acc_batch;      /* VB_VERTEX_BATCH: vertices start .. start+count-1 */
nv_acc_fn nv40_acc_elements16; /* VB_ELEMENT_U16: two inline indices */
nv_acc_fn nv40_acc_elements32; /* VB_ELEMENT_U32 */
nv_acc_fn nv40_acc_index_batch;/* VB_INDEX_BATCH: the indices it reads; their vertices */
nv_acc_fn nv40_acc_query;      /* QUERY_GET */
nv_acc_fn nv40_acc_fence;      /* FENCE_VALUE */

/* The methods at which the card acts: L(table, method, function).  The 3D
 * vertex methods draw (what a primitive's pixels touch, nv40_acc_draw)
 * while a primitive is open; VTX_ATTR_* emit a vertex when attribute 0 is
 * complete.  NOTIFY arms a notification the next operation writes: every
 * class's NOTIFY is a launch (nv_acc_notify). */
#define NV_ACC_LAUNCHES(L) \
	L(M2MF,  BUF_NOTIFY,                nv_acc_m2mf) \
	L(GDI,   UNCLIPPED_RECTANGLE_SIZE,  nv_acc_gdi) \
	L(BLIT,  SIZE,                      nv_acc_blit) \
	L(IFC,   COLOR,                     nv_acc_ifc) \
	L(SIFM,  POINT,                     nv_acc_sifm) \
	L(CURIE, CLEAR_BUFFERS,             nv40_acc_clear) \
	L(CURIE, VERTEX_BEGIN_END,          nv40_acc_begin) \
	L(CURIE, VB_VERTEX_BATCH,           nv40_acc_batch) \
	L(CURIE, VB_INDEX_BATCH,            nv40_acc_index_batch) \
	L(CURIE, VB_ELEMENT_U16,            nv40_acc_elements16) \
	L(CURIE, VB_ELEMENT_U32,            nv40_acc_elements32) \
	L(CURIE, VERTEX_DATA,               nv40_acc_vertex) \
	NV40_ACC_ATTR_LAUNCHES(L, nv40_acc_vertex) \
	L(CURIE, QUERY_GET,                 nv40_acc_query) \
	L(CURIE, FENCE_VALUE,               nv40_acc_fence)

#define NV40_ACC_ATTR_LAUNCHES(L, fn) \
	L(CURIE, VTX_ATTR_1F, fn) L(CURIE, VTX_ATTR_2F, fn) L(CURIE, VTX_ATTR_3F_X, fn) \
	L(CURIE, VTX_ATTR_3F_Y, fn) L(CURIE, VTX_ATTR_3F_Z, fn) L(CURIE, VTX_ATTR_4F, fn) \
	L(CURIE, VTX_ATTR_2I, fn) L(CURIE, VTX_ATTR_4UB, fn) L(CURIE, VTX_ATTR_3I_XY, fn) \
	L(CURIE, VTX_ATTR_3I_Z, fn) L(CURIE, VTX_ATTR_4I_XY, fn) L(CURIE, VTX_ATTR_4I_ZW, fn)

/* The launch function of method mthd (a byte offset) of table t, NULL if
 * the card touches no memory there. */
nv_acc_fn *nv_acc_launch(unsigned table, uint32_t mthd);

/* The notification the next operation writes after NOTIFY: 16 bytes at
 * offset 0 of the class's DMA_NOTIFY (every class has it at one slot). */
void nv_acc_notify(unsigned table, struct nv_acc_list *l);

/* ---- the pieces of a 3D draw, for the simulator's pipeline ---- */

/* Everything the pixels of a primitive touch: the colour buffers
 * RT_ENABLE names, zeta when a test reads it or a write updates it, each
 * enabled texture unit through the ctxdma its format selects, the render
 * condition's report, and the fragment program's fetch window (kind
 * PROGRAM: its first NV40_FP_FETCH_MAX bytes at most; the card stops at
 * its END instruction).  Nothing when the render target rectangle is
 * empty: no pixel is drawn. */
void nv40_acc_draw(const struct nv_acc_state *st, struct nv_acc_list *l);
#define NV40_FP_FETCH_MAX (64u << 10)

/* Texture unit i: 1 and *a when it samples memory (enabled, a DMA bit in its
 * format, a format the card reads), else 0. */
int nv40_acc_texture(const struct nv_acc_state *st, unsigned i, struct nv_acc *a);

/* Vertex attribute i as the card fetches it: of vertex index v, `len`
 * bytes at off + v * pitch through the ctxdma of slot dma (rows 1).  0 and
 * *a when the attribute is fetched from memory; 1 when it is not (disabled
 * in VP_ATTRIB_EN: the default; VTXFMT size 0: the constant attribute
 * registers); -1: the format traps (DATA_ERROR). */
int nv40_acc_attr(const struct nv_acc_state *st, unsigned i, struct nv_acc *a);

/* An index from the stream (inline or from an index buffer): 1 and *v, the
 * vertex it fetches (the index plus VB_ELEMENT_BASE, signed); 0: the
 * primitive restart index, which fetches nothing; -1: the sum leaves
 * 0 .. 2^32 - 1 (the card traps, DATA_ERROR). */
int nv40_acc_index(const struct nv_acc_state *st, uint32_t raw, uint32_t *v);

/* The index buffer's element size, 2 or 4 bytes. */
unsigned nv40_acc_index_size(const struct nv_acc_state *st);

/* ---- what the model reads ---- */

/* I(table, method): every value above may depend on (besides handle
 * methods).  Arrays mean every element. */
#define NV_ACC_INPUTS(I) \
	I(M2MF, OFFSET_IN) I(M2MF, OFFSET_OUT) I(M2MF, PITCH_IN) I(M2MF, PITCH_OUT) \
	I(M2MF, LINE_LENGTH_IN) I(M2MF, LINE_COUNT) I(M2MF, FORMAT) \
	I(SURF2D, FORMAT) I(SURF2D, PITCH) I(SURF2D, OFFSET_SOURCE) I(SURF2D, OFFSET_DESTIN) \
	I(SWZSURF, FORMAT) I(SWZSURF, OFFSET) \
	I(SIFM, COLOR_FORMAT) I(SIFM, OPERATION) I(SIFM, CLIP_POINT) I(SIFM, CLIP_SIZE) \
	I(SIFM, OUT_POINT) I(SIFM, OUT_SIZE) I(SIFM, DU_DX) I(SIFM, DV_DY) I(SIFM, SIZE) \
	I(SIFM, FORMAT) I(SIFM, OFFSET) \
	I(GDI, OPERATION) I(GDI, COLOR_FORMAT) I(GDI, UNCLIPPED_RECTANGLE_POINT) \
	I(BLIT, OPERATION) I(BLIT, POINT_IN) I(BLIT, POINT_OUT) \
	I(IFC, OPERATION) I(IFC, COLOR_FORMAT) I(IFC, POINT) I(IFC, SIZE_OUT) \
	I(CLIP, POINT) I(CLIP, SIZE) \
	NV40_ACC_INPUTS(I)

#define NV40_ACC_INPUTS(I) \
	I(CURIE, RT_HORIZ) I(CURIE, RT_VERT) I(CURIE, RT_FORMAT) I(CURIE, RT_ENABLE) \
	I(CURIE, COLOR0_PITCH) I(CURIE, COLOR0_OFFSET) I(CURIE, COLOR1_PITCH) \
	I(CURIE, COLOR1_OFFSET) I(CURIE, COLOR2_PITCH) I(CURIE, COLOR2_OFFSET) \
	I(CURIE, COLOR3_PITCH) I(CURIE, COLOR3_OFFSET) I(CURIE, ZETA_PITCH) I(CURIE, ZETA_OFFSET) \
	I(CURIE, DEPTH_TEST_ENABLE) I(CURIE, DEPTH_WRITE_ENABLE) I(CURIE, STENCIL_ENABLE) \
	I(CURIE, DEPTH_BOUNDS_TEST_ENABLE) I(CURIE, UNK1E98) \
	I(CURIE, FENCE_OFFSET) I(CURIE, FP_ACTIVE_PROGRAM) I(CURIE, VERTEX_BEGIN_END) \
	I(CURIE, VTXFMT) I(CURIE, VTXBUF) I(CURIE, VB_ELEMENT_BASE) I(CURIE, VP_ATTRIB_EN) \
	I(CURIE, IDXBUF_OFFSET) I(CURIE, IDXBUF_FORMAT) \
	I(CURIE, PRIMITIVE_RESTART_ENABLE) I(CURIE, PRIMITIVE_RESTART_INDEX) \
	I(CURIE, TEX_OFFSET) I(CURIE, TEX_FORMAT) I(CURIE, TEX_ENABLE) I(CURIE, TEX_NPOT_SIZE) \
	I(CURIE, TEX_SIZE1)

#endif
