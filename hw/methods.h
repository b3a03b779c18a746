/* Object classes and their method tables: the single source of truth for
 * every method number.  Rows are X-macros
 *
 *     M(P, NAME, offset, count, stride, kind, dma)
 *
 * P is the table prefix, passed in by the expander; kind is PLAIN, HANDLE
 * (an object or ctxdma handle, RAMHT-translated), ADDR (a byte offset into
 * the ctxdma that method `dma` of the same class selects) or PRIV (refused
 * from clients).  `dma` is `_` for every kind but ADDR.
 *
 * From these rows come: NV_<P>_<NAME> (the method offset),
 * NV_<P>_<NAME>__STRIDE, NV_<P>_<NAME>__SLOT (index into a compact per-class
 * state array, elements consecutive), NV_<P>__NSLOTS, and at run time the
 * descriptor tables in methods.c.  Facts from envytools rnndb
 * (nv_m2mf.xml, nv3_gdi.xml, nv4_pgraph.xml, nv30-40_3d.xml) and
 * ../shared/ref/{nv40-hardware,ddx-2d}.md. */
#ifndef NV_HW_METHODS_H
#define NV_HW_METHODS_H

#include <stdint.h>

enum nv_mthd_kind { NV_MK_PLAIN, NV_MK_HANDLE, NV_MK_ADDR, NV_MK_PRIV };

/* The method space (byte offsets): below NV_MTHD_FIFO_END the puller's own
 * methods; the data of methods NV_MTHD_HANDLE_FIRST..LAST is a handle the
 * puller translates through RAMHT before the engine sees it. */
#define NV_MTHD_FIFO_END        0x0100
#define NV_MTHD_HANDLE_FIRST    0x0180
#define NV_MTHD_HANDLE_LAST     0x01fc
#define NV_MTHD_END             0x2000

/* Methods the FIFO puller executes itself, on any subchannel (0x000-0x0fc). */
#define NV_FIFO_METHODS(M, P) \
	M(P, OBJECT,            0x0000, 1, 4, HANDLE, _) \
	M(P, REF_CNT,           0x0050, 1, 4, PRIV,   _) \
	M(P, DMA_SEMAPHORE,     0x0060, 1, 4, PRIV,   _) \
	M(P, SEMAPHORE_OFFSET,  0x0064, 1, 4, PRIV,   _) \
	M(P, SEMAPHORE_ACQUIRE, 0x0068, 1, 4, PRIV,   _) \
	M(P, SEMAPHORE_RELEASE, 0x006c, 1, 4, PRIV,   _) \
	M(P, YIELD,             0x0080, 1, 4, PLAIN,  _)

/* What every NV4+ graphics object answers to. */
#define NV_OBJ_METHODS(M, P) \
	M(P, NOP,               0x0100, 1, 4, PLAIN,  _) \
	M(P, NOTIFY,            0x0104, 1, 4, PLAIN,  _) \
	M(P, DMA_NOTIFY,        0x0180, 1, 4, HANDLE, _)

#define NV_NONE_METHODS(M, P)

/* The objects a 2D operation is connected to, on GDI and SIFM from 0x188, */
#define NV_2D_LINKS_188(M, P) \
	M(P, PATTERN,           0x0188, 1, 4, HANDLE, _) \
	M(P, ROP,               0x018c, 1, 4, HANDLE, _) \
	M(P, BETA1,             0x0190, 1, 4, HANDLE, _) \
	M(P, BETA4,             0x0194, 1, 4, HANDLE, _) \
	M(P, SURFACE,           0x0198, 1, 4, HANDLE, _)

/* and on BLIT and IFC from 0x184 (a colour key and a clip first, the
 * surface object after them at 0x19c). */
#define NV_2D_LINKS_184(M, P) \
	M(P, COLOR_KEY,         0x0184, 1, 4, HANDLE, _) \
	M(P, CLIP,              0x0188, 1, 4, HANDLE, _) \
	M(P, PATTERN,           0x018c, 1, 4, HANDLE, _) \
	M(P, ROP,               0x0190, 1, 4, HANDLE, _) \
	M(P, BETA1,             0x0194, 1, 4, HANDLE, _) \
	M(P, BETA4,             0x0198, 1, 4, HANDLE, _)

/* NV03_M2MF 0x0039: memory to memory copies */
#define NV_M2MF_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, DMA_BUFFER_IN,     0x0184, 1, 4, HANDLE, _) \
	M(P, DMA_BUFFER_OUT,    0x0188, 1, 4, HANDLE, _) \
	M(P, OFFSET_IN,         0x030c, 1, 4, ADDR,   DMA_BUFFER_IN) \
	M(P, OFFSET_OUT,        0x0310, 1, 4, ADDR,   DMA_BUFFER_OUT) \
	M(P, PITCH_IN,          0x0314, 1, 4, PLAIN,  _) \
	M(P, PITCH_OUT,         0x0318, 1, 4, PLAIN,  _) \
	M(P, LINE_LENGTH_IN,    0x031c, 1, 4, PLAIN,  _) \
	M(P, LINE_COUNT,        0x0320, 1, 4, PLAIN,  _) \
	M(P, FORMAT,            0x0324, 1, 4, PLAIN,  _) \
	M(P, BUF_NOTIFY,        0x0328, 1, 4, PLAIN,  _)

/* NV10_SURFACE_2D 0x0062: source and destination of 2D operations */
#define NV_SURF2D_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, DMA_IMAGE_SOURCE,  0x0184, 1, 4, HANDLE, _) \
	M(P, DMA_IMAGE_DESTIN,  0x0188, 1, 4, HANDLE, _) \
	M(P, FORMAT,            0x0300, 1, 4, PLAIN,  _) \
	M(P, PITCH,             0x0304, 1, 4, PLAIN,  _) \
	M(P, OFFSET_SOURCE,     0x0308, 1, 4, ADDR,   DMA_IMAGE_SOURCE) \
	M(P, OFFSET_DESTIN,     0x030c, 1, 4, ADDR,   DMA_IMAGE_DESTIN)

/* NV40_SURFACE_SWZ 0x309e: swizzled (Morton) destination */
#define NV_SWZSURF_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, DMA_IMAGE,         0x0184, 1, 4, HANDLE, _) \
	M(P, FORMAT,            0x0300, 1, 4, PLAIN,  _) \
	M(P, OFFSET,            0x0304, 1, 4, ADDR,   DMA_IMAGE)

/* NV40_SIFM 0x3089: scaled image from memory */
#define NV_SIFM_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, DMA_IMAGE,         0x0184, 1, 4, HANDLE, _) \
	NV_2D_LINKS_188(M, P) \
	M(P, COLOR_CONVERSION,  0x02fc, 1, 4, PLAIN,  _) \
	M(P, COLOR_FORMAT,      0x0300, 1, 4, PLAIN,  _) \
	M(P, OPERATION,         0x0304, 1, 4, PLAIN,  _) \
	M(P, CLIP_POINT,        0x0308, 1, 4, PLAIN,  _) \
	M(P, CLIP_SIZE,         0x030c, 1, 4, PLAIN,  _) \
	M(P, OUT_POINT,         0x0310, 1, 4, PLAIN,  _) \
	M(P, OUT_SIZE,          0x0314, 1, 4, PLAIN,  _) \
	M(P, DU_DX,             0x0318, 1, 4, PLAIN,  _) \
	M(P, DV_DY,             0x031c, 1, 4, PLAIN,  _) \
	M(P, SIZE,              0x0400, 1, 4, PLAIN,  _) \
	M(P, FORMAT,            0x0404, 1, 4, PLAIN,  _) \
	M(P, OFFSET,            0x0408, 1, 4, ADDR,   DMA_IMAGE) \
	M(P, POINT,             0x040c, 1, 4, PLAIN,  _)

/* NV04_GDI_RECTANGLE_TEXT 0x004a: the solid fill nouveau's EXA uses.  Only
 * unclipped rectangles; the clipped and text forms (0x5f4 and up) are not
 * used by any driver we serve and are refused. */
#define NV_GDI_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, DMA_FONTS,         0x0184, 1, 4, HANDLE, _) \
	NV_2D_LINKS_188(M, P) \
	M(P, OPERATION,         0x02fc, 1, 4, PLAIN,  _) \
	M(P, COLOR_FORMAT,      0x0300, 1, 4, PLAIN,  _) \
	M(P, MONOCHROME_FORMAT, 0x0304, 1, 4, PLAIN,  _) \
	M(P, COLOR1_A,          0x03fc, 1, 4, PLAIN,  _) \
	M(P, UNCLIPPED_RECTANGLE_POINT, 0x0400, 32, 8, PLAIN, _) \
	M(P, UNCLIPPED_RECTANGLE_SIZE,  0x0404, 32, 8, PLAIN, _)

/* NV15_IMAGE_BLIT 0x009f: screen to screen copy */
#define NV_BLIT_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, WAIT_FOR_IDLE,     0x0108, 1, 4, PLAIN,  _) \
	M(P, FLIP_SET_READ,     0x0120, 1, 4, PLAIN,  _) \
	M(P, FLIP_SET_WRITE,    0x0124, 1, 4, PLAIN,  _) \
	M(P, FLIP_MAX,          0x0128, 1, 4, PLAIN,  _) \
	M(P, FLIP_INCR_WRITE,   0x012c, 1, 4, PLAIN,  _) \
	M(P, FLIP_WAIT,         0x0130, 1, 4, PLAIN,  _) \
	M(P, FLIP_CRTC_INCR_READ, 0x0134, 1, 4, PLAIN, _) \
	NV_2D_LINKS_184(M, P) \
	M(P, SURFACES,          0x019c, 1, 4, HANDLE, _) \
	M(P, OPERATION,         0x02fc, 1, 4, PLAIN,  _) \
	M(P, POINT_IN,          0x0300, 1, 4, PLAIN,  _) \
	M(P, POINT_OUT,         0x0304, 1, 4, PLAIN,  _) \
	M(P, SIZE,              0x0308, 1, 4, PLAIN,  _)

/* NV10_IFC 0x008a: image from CPU (pixels inline in the push buffer) */
#define NV_IFC_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	NV_2D_LINKS_184(M, P) \
	M(P, SURFACE,           0x019c, 1, 4, HANDLE, _) \
	M(P, OPERATION,         0x02fc, 1, 4, PLAIN,  _) \
	M(P, COLOR_FORMAT,      0x0300, 1, 4, PLAIN,  _) \
	M(P, POINT,             0x0304, 1, 4, PLAIN,  _) \
	M(P, SIZE_OUT,          0x0308, 1, 4, PLAIN,  _) \
	M(P, SIZE_IN,           0x030c, 1, 4, PLAIN,  _) \
	M(P, COLOR,             0x0400, 1792, 4, PLAIN, _)

/* NV03_ROP 0x0043, NV04_PATTERN 0x0044, NV01_CLIP 0x0019, NV01_BETA 0x0012,
 * NV04_BETA4 0x0072: state objects the 2D operations point at. */
#define NV_ROP_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, ROP,               0x0300, 1, 4, PLAIN,  _)

#define NV_PATT_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, COLOR_FORMAT,      0x0300, 1, 4, PLAIN,  _) \
	M(P, MONOCHROME_FORMAT, 0x0304, 1, 4, PLAIN,  _) \
	M(P, MONOCHROME_SHAPE,  0x0308, 1, 4, PLAIN,  _) \
	M(P, PATTERN_SELECT,    0x030c, 1, 4, PLAIN,  _) \
	M(P, MONOCHROME_COLOR,  0x0310, 2, 4, PLAIN,  _) \
	M(P, MONOCHROME_PATTERN, 0x0318, 2, 4, PLAIN, _) \
	M(P, PATTERN_Y8,        0x0400, 16, 4, PLAIN, _) \
	M(P, PATTERN_R5G6B5,    0x0500, 32, 4, PLAIN, _) \
	M(P, PATTERN_X1R5G5B5,  0x0600, 32, 4, PLAIN, _) \
	M(P, PATTERN_X8R8G8B8,  0x0700, 64, 4, PLAIN, _)

#define NV_CLIP_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, POINT,             0x0300, 1, 4, PLAIN,  _) \
	M(P, SIZE,              0x0304, 1, 4, PLAIN,  _)

#define NV_BETA1_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, BETA_1D31,         0x0300, 1, 4, PLAIN,  _)

#define NV_BETA4_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, BETA_FACTOR,       0x0300, 1, 4, PLAIN,  _)

/* The software object the daemon binds on its own subchannel (RAMHT engine
 * SW): its methods reach the host as PFIFO CACHE_ERROR interrupts, as
 * nouveau's NV04-NV40 software class does for page flips. */
#define NV_NVSW_METHODS(M, P) \
	M(P, FENCE,             0x0150, 1, 4, PRIV,   _)

#include "methods-3d.h"

/* Every table, once: T(P, rows) */
#define NV_TABLES(T) \
	T(FIFO,    NV_FIFO_METHODS) \
	T(NONE,    NV_NONE_METHODS) \
	T(M2MF,    NV_M2MF_METHODS) \
	T(SURF2D,  NV_SURF2D_METHODS) \
	T(SWZSURF, NV_SWZSURF_METHODS) \
	T(SIFM,    NV_SIFM_METHODS) \
	T(GDI,     NV_GDI_METHODS) \
	T(BLIT,    NV_BLIT_METHODS) \
	T(IFC,     NV_IFC_METHODS) \
	T(ROP,     NV_ROP_METHODS) \
	T(PATT,    NV_PATT_METHODS) \
	T(CLIP,    NV_CLIP_METHODS) \
	T(BETA1,   NV_BETA1_METHODS) \
	T(BETA4,   NV_BETA4_METHODS) \
	T(NVSW,    NV_NVSW_METHODS) \
	T(CURIE,   NV_CURIE_METHODS)

/* Every class: X(ID, class number, table, kind, name).  kind: DMA (a ctxdma,
 * an argument of methods only), GR (a PGRAPH object bound to subchannels) or
 * SW (handled by the host). */
#define NV_CLASSES(X) \
	X(DMA_FROM_MEMORY, 0x0002, NONE,    DMA, "NV01_DMA_FROM_MEMORY") \
	X(DMA_TO_MEMORY,   0x0003, NONE,    DMA, "NV01_DMA_TO_MEMORY") \
	X(DMA_IN_MEMORY,   0x003d, NONE,    DMA, "NV03_DMA_IN_MEMORY") \
	X(NULL_OBJ,        0x0030, NONE,    DMA, "NV01_NULL") \
	X(BETA1,           0x0012, BETA1,   GR,  "NV01_BETA") \
	X(CLIP,            0x0019, CLIP,    GR,  "NV01_CLIP") \
	X(M2MF,            0x0039, M2MF,    GR,  "NV03_M2MF") \
	X(ROP,             0x0043, ROP,     GR,  "NV03_ROP") \
	X(PATT,            0x0044, PATT,    GR,  "NV04_PATTERN") \
	X(GDI,             0x004a, GDI,     GR,  "NV04_GDI_RECTANGLE_TEXT") \
	X(SURF2D,          0x0062, SURF2D,  GR,  "NV10_SURFACE_2D") \
	X(BETA4,           0x0072, BETA4,   GR,  "NV04_BETA4") \
	X(IFC,             0x008a, IFC,     GR,  "NV10_IFC") \
	X(BLIT,            0x009f, BLIT,    GR,  "NV15_IMAGE_BLIT") \
	X(SIFM,            0x3089, SIFM,    GR,  "NV40_SIFM") \
	X(SWZSURF,         0x309e, SWZSURF, GR,  "NV40_SURFACE_SWZ") \
	X(NVSW,            0x006e, NVSW,    SW,  "NV04_SW") \
	X(CURIE_NV40,      0x4097, CURIE,   GR,  "NV40_3D") \
	X(CURIE_NV44,      0x4497, CURIE,   GR,  "NV44_3D")

/* Classes that share a table but lack some of its rows: V(class id, table,
 * X-list of the absent rows).  nv_mthd_find() answers NULL for them. */
#define NV_CLASS_ABSENT(V) \
	V(CURIE_NV44,      CURIE,   NV_CURIE_NV44_ABSENT)

/* ---- expansions ---- */

#define NV_MTHD_ENUM_(P, name, off, n, st, kind, dma) \
	NV_##P##_##name = (off), NV_##P##_##name##__STRIDE = (st),
#define NV_MTHD_SLOT_(P, name, off, n, st, kind, dma) \
	NV_##P##_##name##__SLOT, NV_##P##_##name##__SLOT_LAST = NV_##P##_##name##__SLOT + (n) - 1,
#define NV_TABLE_ENUMS_(P, rows) \
	enum { NV_##P##__ = 0, rows(NV_MTHD_ENUM_, P) }; \
	enum { rows(NV_MTHD_SLOT_, P) NV_##P##__NSLOTS };
NV_TABLES(NV_TABLE_ENUMS_)

/* Table ids, in NV_TABLES order: nv_class_desc.table_id. */
#define NV_TABLE_ID_(P, rows) NV_TABLE_##P,
enum nv_table_id { NV_TABLES(NV_TABLE_ID_) NV_TABLE_COUNT };

#define NV_CLASS_ENUM_(id, num, table, kind, name) NV_CLASS_##id = (num),
enum { NV_CLASSES(NV_CLASS_ENUM_) };

/* ---- run-time descriptors (methods.c) ---- */

struct nv_mthd_desc {
	const char *name;
	uint16_t offset, count, stride;
	uint8_t kind;          /* enum nv_mthd_kind */
	uint16_t dma;          /* ADDR: offset of the ctxdma method */
	uint16_t slot;         /* first element's state slot */
};

struct nv_class_desc {
	const char *name;      /* "NV03_M2MF" */
	const char *table;     /* "M2MF" */
	uint16_t cls;
	uint8_t is_gr;         /* bindable to a subchannel */
	uint8_t table_id;
	const struct nv_mthd_desc *mthds;
	unsigned nmthds, nslots;
};

/* Methods below this are the FIFO's own, on whatever subchannel. */
#define NV_FIFO_MTHD_END 0x100u

/* Class by number, NULL when unknown. */
const struct nv_class_desc *nv_class_find(uint32_t cls);
/* Method of a class (or, below 0x100, of the FIFO) by byte offset; sets
 * *elem to the array index.  NULL when the class has no such method. */
const struct nv_mthd_desc *nv_mthd_find(const struct nv_class_desc *c, uint32_t mthd,
					unsigned *elem);
/* Whether the class (or, below 0x100, the FIFO) has this method. */
int nv_mthd_exists(const struct nv_class_desc *c, uint32_t mthd);
/* The FIFO's own methods (0x000-0x0fc). */
const struct nv_class_desc *nv_fifo_desc(void);
/* All classes, for tools and table tests. */
const struct nv_class_desc *nv_class_at(unsigned i);
const char *nv_mthd_kind_name(unsigned kind);

#endif
