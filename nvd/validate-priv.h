/* What validate.c (the stream walk, handles, addresses, relocations) and
 * validate-2d.c (the extent checks of the memory operations) share. */
#ifndef NVD_VALIDATE_PRIV_H
#define NVD_VALIDATE_PRIV_H

#include <stdint.h>

#include "nvd/validate.h"

/* Method values the extent checks read, stored in nvd_vshadow.val[]:
 * W(table, method).  Arrays keep every element. */
#define NVD_VWATCH(W) \
	W(M2MF, OFFSET_IN) W(M2MF, OFFSET_OUT) W(M2MF, PITCH_IN) W(M2MF, PITCH_OUT) \
	W(M2MF, LINE_LENGTH_IN) W(M2MF, LINE_COUNT) W(M2MF, FORMAT) \
	W(SURF2D, FORMAT) W(SURF2D, PITCH) W(SURF2D, OFFSET_SOURCE) W(SURF2D, OFFSET_DESTIN) \
	W(SWZSURF, FORMAT) W(SWZSURF, OFFSET) \
	W(SIFM, COLOR_FORMAT) W(SIFM, CLIP_POINT) W(SIFM, CLIP_SIZE) W(SIFM, OUT_POINT) \
	W(SIFM, OUT_SIZE) W(SIFM, SIZE) W(SIFM, FORMAT) W(SIFM, OFFSET) \
	W(SIFM, OPERATION) W(SIFM, DU_DX) W(SIFM, DV_DY) \
	W(GDI, OPERATION) W(GDI, COLOR_FORMAT) W(GDI, UNCLIPPED_RECTANGLE_POINT) \
	W(BLIT, OPERATION) W(BLIT, POINT_IN) W(BLIT, POINT_OUT) \
	W(IFC, OPERATION) W(IFC, COLOR_FORMAT) W(IFC, POINT) W(IFC, SIZE_OUT) \
	NVD_VWATCH_3D(W)

/* The 3D state validate-3d.c reads at clears, draws, fences and queries. */
#define NVD_VWATCH_3D(W) \
	W(CURIE, RT_HORIZ) W(CURIE, RT_VERT) W(CURIE, RT_FORMAT) W(CURIE, RT_ENABLE) \
	W(CURIE, COLOR0_PITCH) W(CURIE, COLOR0_OFFSET) W(CURIE, COLOR1_PITCH) W(CURIE, COLOR1_OFFSET) \
	W(CURIE, COLOR2_PITCH) W(CURIE, COLOR2_OFFSET) W(CURIE, COLOR3_PITCH) W(CURIE, COLOR3_OFFSET) \
	W(CURIE, ZETA_PITCH) W(CURIE, ZETA_OFFSET) \
	W(CURIE, DEPTH_TEST_ENABLE) W(CURIE, DEPTH_WRITE_ENABLE) W(CURIE, STENCIL_ENABLE) \
	W(CURIE, FENCE_OFFSET) W(CURIE, FP_ACTIVE_PROGRAM) W(CURIE, VERTEX_BEGIN_END) \
	W(CURIE, VTXFMT) W(CURIE, VTXBUF) W(CURIE, VB_ELEMENT_BASE) W(CURIE, VP_ATTRIB_EN) \
	W(CURIE, IDXBUF_OFFSET) W(CURIE, IDXBUF_FORMAT) \
	W(CURIE, PRIMITIVE_RESTART_ENABLE) W(CURIE, PRIMITIVE_RESTART_INDEX) \
	W(CURIE, TEX_OFFSET) W(CURIE, TEX_FORMAT) W(CURIE, TEX_ENABLE) W(CURIE, TEX_NPOT_SIZE) \
	W(CURIE, TEX_SIZE1)

/* Words the daemon puts before a rewritten FP_ACTIVE_PROGRAM
 * (validate-fp.c): bind its M2MF, two ctxdmas, eight copy methods, the
 * source ctxdma and eight methods again for the END template, and the
 * software object back. */
#define NVD_VFP_INSERT_WORDS 27

/* The operations that touch memory: T(table, method, check, once).  once:
 * checked once per packet (inline data whose extent the packet cannot
 * change), else at every word. */
#define NVD_VTRIGGERS(T) \
	T(M2MF, BUF_NOTIFY, nvd_v2d_m2mf, 0) \
	T(GDI, UNCLIPPED_RECTANGLE_SIZE, nvd_v2d_gdi, 0) \
	T(BLIT, SIZE, nvd_v2d_blit, 0) \
	T(IFC, COLOR, nvd_v2d_ifc, 1) \
	T(SIFM, POINT, nvd_v2d_sifm, 0) \
	T(CURIE, CLEAR_BUFFERS, nvd_v3d_clear, 0) \
	T(CURIE, VERTEX_BEGIN_END, nvd_v3d_begin, 0) \
	T(CURIE, VB_VERTEX_BATCH, nvd_v3d_vertex_batch, 0) \
	T(CURIE, VB_INDEX_BATCH, nvd_v3d_index_batch, 0) \
	T(CURIE, VB_ELEMENT_U16, nvd_v3d_elements16, 0) \
	T(CURIE, VB_ELEMENT_U32, nvd_v3d_elements32, 0) \
	T(CURIE, VERTEX_DATA, nvd_v3d_vertex_data, 1) \
	T(CURIE, QUERY_GET, nvd_v3d_query, 0) \
	T(CURIE, FENCE_VALUE, nvd_v3d_fence, 0) \
	T(CURIE, UNK1E98, nvd_v3d_cond, 0) \
	T(CURIE, FP_ACTIVE_PROGRAM, nvd_v3d_fp_bind, 0)

#define NVD_VW_ENUM_(T, N) NVD_W_##T##_##N, \
	NVD_W_##T##_##N##__LAST = NVD_W_##T##_##N + NV_##T##_##N##__SLOT_LAST - NV_##T##_##N##__SLOT,
enum { NVD_VWATCH(NVD_VW_ENUM_) NVD_NWATCH };

/* Every element of every HANDLE row, an upper bound of the handle records. */
#define NVD_VH_ROW_(P, nm, off, n, st, kind, dma) + (NV_MK_##kind == NV_MK_HANDLE ? (n) : 0)
#define NVD_VH_TABLE_(P, rows) rows(NVD_VH_ROW_, P)
enum { NVD_NHANDLES = 0 NV_TABLES(NVD_VH_TABLE_) };

/* What a handle method last named, as the checks need it. */
struct nvd_vhobj {
	uint8_t kind;              /* enum nvd_vobj_kind + 1; 0: never set */
	uint8_t domain;            /* DMA_BO */
	uint16_t cls;              /* GR */
	uint32_t _pad;
	uint64_t size;             /* DMA_BO: bytes */
};
#define NVD_VH_UNSET 0
#define NVD_VH(kind) ((kind) + 1)

/* A notification the card writes (DMA_NOTIFY at offset 0): 16 bytes. */
#define NVD_VNOTIFY_SIZE 16

#define NVD_VCLS_ROW_(id, num, tb, kd, nm) + 1
enum { NVD_NCLASSES = 0 NV_CLASSES(NVD_VCLS_ROW_) };

/* The per-channel shadow: copied before a submission, kept on success.
 * Method values and handle records are per table, as the simulator keeps
 * its grctx (one state per class per channel). */
struct nvd_vshadow {
	uint8_t subc_ci[NV_SUBCHANNELS];      /* nv_class_at() index; NVD_NCLASSES: nothing bound */
	uint16_t subc_cls[NV_SUBCHANNELS];
	uint32_t val[NVD_NWATCH];
	struct nvd_vhobj obj[NVD_NHANDLES];
};

/* One validation in progress. */
struct nvd_vctx {
	struct nvd_vshadow *sh;
	const struct nvd_vsubmit *sub;
	struct nvd_verror *e;
	/* the word being looked at, for the error report */
	unsigned push, subc;
	uint32_t off, mthd, data;
	uint16_t cls;
	unsigned hint;             /* buffer the last extent fell in */
	uint32_t gen;              /* counts the looked-at writes: state changes */
	/* validate-3d.c: x->gen when the draw surfaces last passed and when
	 * vtx_max (the largest vertex index every enabled vertex buffer
	 * holds) was computed; 0: not in this submission */
	uint32_t gen3d_draw, gen3d_vtx;
	uint64_t vtx_max;
	unsigned vtx_max_attr;       /* the attribute that sets vtx_max */
	/* validate-2d.c: this submission's plain M2MF copies so far, so that
	 * validate-3d.c can read indices the card will have copied by the time
	 * it draws (Mesa uploads an index buffer and draws from it in one
	 * submission) from where the copy takes them */
	struct nvd_vcopy {
		uint16_t src, dst;           /* buffers of the submission */
		uint32_t in, out;            /* card addresses */
		uint32_t pitch_in, pitch_out, len, count;
	} copies[32];
	unsigned ncopies;
	unsigned copies_lost;                /* copies not recorded (too many, or not plain) */
	/* validate-fp.c: the FP_ACTIVE_PROGRAM word just looked at goes to
	 * the card as fp_val, after the fp_nins words fp_ins (the daemon's
	 * copy; 0: the slot was filled earlier in this submission) */
	int fp_split;
	unsigned fp_nins;
	uint32_t fp_ins[NVD_VFP_INSERT_WORDS];
	uint32_t fp_val;
	/* this submission's program copies, so a program bound again reuses
	 * its slot while no copy recorded since wrote its buffer */
	struct nvd_vfpslot {
		uint32_t val, len;           /* as the client wrote it; bytes copied */
		uint32_t bo;
		uint32_t lost, ncopies;      /* copies_lost and ncopies then */
		uint32_t slot, bytes;        /* its place in the area */
	} fp_seen[8];
	unsigned fp_nseen, fp_next;
};

/* validate-3d.c: the bytes [a, a+n) of submission buffer bo as the card
 * will find them after the M2MF copies recorded so far (NULL: not known). */
const uint8_t *nvd_v3d_forward(const struct nvd_vctx *x, unsigned bo, uint64_t a, unsigned n);

/* validate-3d.c: a VB_INDEX_BATCH data word as an inline VB_ELEMENT_U32
 * packet on subchannel subc into out (room words): 0 and *n, 1 when the
 * batch must stay as it is, -errno. */
void nvd_v3d_prologue(struct nvd_vctx *x, uint32_t *out, size_t cap, size_t *n);
int nvd_v3d_index_expand(struct nvd_vctx *x, unsigned subc, uint32_t data, uint32_t *out,
			 size_t room, size_t *n);

/* Fill *x->e and return err.  why: printf-style, short. */
int nvd_v_fail(struct nvd_vctx *x, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The record of handle method mthd of a table, NULL if it has none. */
const struct nvd_vhobj *nvd_v_obj(const struct nvd_vctx *x, unsigned table, uint32_t mthd);

/* [start, start+len) through ctxdma `dma` must lie inside one buffer of the
 * submission in the ctxdma's domain with `access` (NVD_ACCESS_*), or inside
 * a DMA_BO ctxdma's range.  len 0 touches nothing.  -EFAULT naming `what`. */
int nvd_v_extent(struct nvd_vctx *x, const struct nvd_vhobj *dma, uint64_t start,
		 uint64_t len, unsigned access, const char *what);

/* Bytes from `start` to the end of the buffer of the submission (or the
 * DMA_BO ctxdma) holding it with `access`, in *room (and the buffer's
 * index in x->hint); -EFAULT naming `what` when no buffer holds it. */
int nvd_v_room(struct nvd_vctx *x, const struct nvd_vhobj *dma, uint64_t start,
	       unsigned access, const char *what, uint64_t *room);

/* The operation checks (validate-2d.c, validate-3d.c): elem is the array index of the
 * trigger method, data its value (0 for once-per-packet checks, which do not
 * read the inline data). */
typedef int nvd_vtrig_fn(struct nvd_vctx *x, unsigned elem, uint32_t data);
#define NVD_VT_DECL_(T, N, fn, once) nvd_vtrig_fn fn;
NVD_VTRIGGERS(NVD_VT_DECL_)

#endif
