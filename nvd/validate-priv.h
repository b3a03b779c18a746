/* What validate.c (the stream walk, handles, the launches, relocations),
 * validate-3d.c (the draw checks) and validate-fp.c (the program shadow)
 * share. */
#ifndef NVD_VALIDATE_PRIV_H
#define NVD_VALIDATE_PRIV_H

#include <stdint.h>

#include "hw/access.h"
#include "nvd/validate.h"

/* The channel's method state as the card keeps it (sim/priv.h's grctx):
 * one slot array per class table, laid out end to end.  NVD_VT_<P> is
 * where table P starts.  Only what hw/access.h reads is stored (its
 * NV_ACC_INPUTS and the handle methods); every other slot stays 0. */
#define NVD_VT_BASE_(P, rows) NVD_VT_##P, NVD_VT_##P##__END = NVD_VT_##P + NV_##P##__NSLOTS - 1,
enum { NV_TABLES(NVD_VT_BASE_) NVD_VSLOTS };

/* Every element of every HANDLE row, an upper bound of the handle records. */
#define NVD_VH_ROW_(P, nm, off, n, st, kind, dma) + (NV_MK_##kind == NV_MK_HANDLE ? (n) : 0)
#define NVD_VH_TABLE_(P, rows) rows(NVD_VH_ROW_, P)
enum { NVD_NHANDLES = 0 NV_TABLES(NVD_VH_TABLE_) };

/* What a handle method last named, as the checks need it.  Its slot holds
 * the record's index + 1 (0: never set). */
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

/* The per-channel shadow, kept across submissions; a refused submission's
 * changes are undone (struct nvd_vundo). */
struct nvd_vshadow {
	uint32_t subc_ci[NV_SUBCHANNELS];     /* nv_class_at() index; NVD_NCLASSES: nothing bound */
	uint32_t subc_cls[NV_SUBCHANNELS];
	uint32_t slot[NVD_VSLOTS];
	struct nvd_vhobj obj[NVD_NHANDLES];
};

/* One word of the shadow as it was before this submission changed it. */
struct nvd_vundo {
	uint32_t *p, old;
};

/* Words the daemon puts before a rewritten FP_ACTIVE_PROGRAM
 * (validate-fp.c): bind its M2MF, two ctxdmas, eight copy methods, the
 * source ctxdma and eight methods again for the END template, and the
 * software object back. */
#define NVD_VFP_INSERT_WORDS 27

/* One validation in progress. */
struct nvd_vctx {
	struct nvd_vshadow *sh;
	struct nv_acc_state view;  /* sh as hw/access.h reads it */
	const struct nvd_vsubmit *sub;
	struct nvd_verror *e;
	struct nvd_vundo *undo;    /* what this submission changed, to undo a refusal */
	size_t nundo, undo_cap;
	int undo_broken;           /* the log could not grow: refuse */
	int quiet;                 /* a check whose failure is no refusal: no message */
	/* the handle word just looked at goes to the card as subst_val */
	int subst;
	uint32_t subst_val;
	/* the word being looked at, for the error report */
	unsigned push, subc;
	uint32_t off, mthd, data;
	uint16_t cls;
	unsigned hint;             /* buffer the last extent fell in */
	uint32_t *order;           /* the buffers by domain and address (NULL: search linearly) */
	int ordered;
	uint32_t gen;              /* counts stored values: the checks' caches */
	/* validate-3d.c: x->gen when the draw's surfaces, textures and program
	 * last passed and when vtx_max (the largest vertex index every fetched
	 * attribute's buffer holds) was computed; 0: not in this submission */
	uint32_t gen3d_draw, gen3d_vtx;
	uint64_t vtx_max;
	unsigned vtx_max_attr;       /* the attribute that sets vtx_max */
	/* this submission's plain M2MF copies so far, so that validate-3d.c
	 * can read indices the card will have copied by the time it draws
	 * (Mesa uploads an index buffer and draws from it in one submission)
	 * from where the copy takes them */
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
		uint32_t val;                /* as the client wrote it */
		uint32_t bo;
		uint32_t lost, ncopies;      /* copies_lost and ncopies then */
		uint32_t slot, bytes;        /* its place in the area */
	} fp_seen[8];
	unsigned fp_nseen, fp_next;
	uint32_t fp_read;            /* program instructions read (NVD_VFP_READ_MAX) */
};

/* A method value of the shadow: V(x, CURIE, RT_FORMAT), VE(... , i). */
#define NVD_V(x, T, NAME) ((x)->sh->slot[NVD_VT_##T + NV_##T##_##NAME##__SLOT])
#define NVD_VE(x, T, NAME, i) ((x)->sh->slot[NVD_VT_##T + NV_##T##_##NAME##__SLOT + (i)])

/* Change a word of the shadow, remembering what it was.  Inline: most
 * stores write the value the shadow holds already. */
void nvd_v_change(struct nvd_vctx *x, uint32_t *p, uint32_t v);

static inline void nvd_v_set(struct nvd_vctx *x, uint32_t *p, uint32_t v)
{
	if (*p != v)
		nvd_v_change(x, p, v);
}

/* Fill *x->e and return -err.  why: printf-style, short. */
int nvd_v_fail(struct nvd_vctx *x, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The record of the handle slot `slot` of table t (NULL: never set). */
const struct nvd_vhobj *nvd_v_rec(const struct nvd_vctx *x, unsigned table, unsigned slot);

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

/* One access of hw/access.h, checked: its region inside one buffer of the
 * submission through the ctxdma its method names. */
int nvd_v_acc(struct nvd_vctx *x, const struct nv_acc *a);
/* Every access of a list, or the trap the card would take, refused. */
int nvd_v_acc_list(struct nvd_vctx *x, const struct nv_acc_list *l);

/* validate-3d.c: a launch of the 3D class (hw/access.h NV_ACC_LAUNCHES),
 * with the state before the method's own value is stored. */
int nvd_v3d_launch(struct nvd_vctx *x, nv_acc_fn *fn, uint32_t mthd, unsigned elem, uint32_t data);

/* validate-3d.c: the bytes [a, a+n) of submission buffer bo as the card
 * will find them after the M2MF copies recorded so far (NULL: not known). */
const uint8_t *nvd_v3d_forward(const struct nvd_vctx *x, unsigned bo, uint64_t a, unsigned n);

/* validate-3d.c: before the submission, texture units left enabled over
 * memory this submission may not read are turned off (out: room for 2
 * words a unit; *n: words written).  A VB_INDEX_BATCH data word as an
 * inline VB_ELEMENT_U32 packet on subchannel subc into out (room words): 0
 * and *n, 1 when the batch must stay as it is, -errno. */
void nvd_v3d_prologue(struct nvd_vctx *x, uint32_t *out, size_t cap, size_t *n);
int nvd_v3d_index_expand(struct nvd_vctx *x, unsigned subc, uint32_t data, uint32_t *out,
			 size_t room, size_t *n);

/* validate-fp.c: FP_ACTIVE_PROGRAM = v goes to the card as the shadow. */
int nvd_v3d_fp_bind(struct nvd_vctx *x, uint32_t v);

#endif
