/* Copy + validate + relocate: turns a client's push ranges into words the
 * card may execute, in one pass, reading every client word exactly once (it
 * is copied into the output, relocations are patched into the copy, and the
 * copy is what gets checked).
 *
 * Rules (../shared/DESIGN.md, "Nothing the card executes is client memory"):
 *  - every command word is decoded with hw/pushbuf.h; invalid words (SLI
 *    conditionals included) and CALLs are refused (-EINVAL);
 *  - a push range runs as if the daemon had CALLed it (as the NV40 kernel
 *    does): its end or a RETURN ends it, a JUMP (or old-style jump) must land
 *    on a word inside one of this submission's push ranges (card address =
 *    buffer addr + offset; -EFAULT) and is followed, so the output is
 *    straight-line and holds no JUMP/CALL/RETURN; a packet must end inside
 *    its range (-EINVAL); output beyond `cap` words is -E2BIG, or -ELOOP once
 *    a jump was taken (so are more than `cap` jumps);
 *  - methods must exist for the class bound to the subchannel (hw/methods.h;
 *    -EINVAL, also for a subchannel with nothing bound), every method on
 *    NVD_SUBC_DAEMON and every PRIV method is -EPERM (a count-0 header names
 *    no method and passes anywhere);
 *  - OBJECT must name a GR object of a bindable class (-ENOENT unknown,
 *    -EINVAL otherwise); handle methods named DMA_* take a ctxdma or the null
 *    object, the others a GR object or the null object; DMA_NOTIFY only a
 *    DMA_BO of 16 bytes or more or the null object, as the card writes
 *    notifications to it (-EFAULT);
 *  - at every method where the card touches memory (hw/access.h
 *    NV_ACC_LAUNCHES: M2MF BUF_NOTIFY, GDI rectangles, BLIT, IFC COLOR
 *    packets, SIFM, the 3D clears, reports, and every vertex method while
 *    a primitive is open), what the card model says it reads and writes,
 *    computed from the shadowed state in 64 bits with the state as it is
 *    then, must lie inside one buffer of the submission in the ctxdma's
 *    domain, listed for writing where the card writes (for reading or
 *    writing where it only reads), or inside a DMA_BO ctxdma (-EFAULT); an
 *    operation the card would trap on instead is refused (-EINVAL).
 *    Addresses are not checked when they are written: only when used;
 *  - FP_ACTIVE_PROGRAM is rewritten to the channel's program shadow (struct
 *    nvd_vfp), the daemon's copies inserted before it;
 *  - relocations patch the word before it is validated (-EINVAL for a bad
 *    index, an unaligned word or one outside its buffer, two on one word).
 * Validator state (per channel: bound classes, and the method values and
 * handles hw/access.h reads, one slot array per class table as the card's
 * grctx) persists across submissions; a refused submission leaves it
 * untouched. */
#ifndef NVD_VALIDATE_H
#define NVD_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "proto/ring.h"

#define NVD_SUBC_DAEMON 1          /* the daemon's software object lives here */

/* Domains, access bits, push ranges and relocations are the wire layouts of
 * proto/ring.h (struct nvd_submit_push, nvd_submit_reloc), used as they
 * arrive. */

/* A buffer on the submission's list. */
struct nvd_vbo {
	uint64_t addr;             /* card address: offset in VRAM or in the GART ctxdma */
	uint64_t size;
	uint8_t domain;            /* NVD_DOMAIN_* */
	uint8_t access;            /* NVD_ACCESS_* the client declared */
	const uint8_t *map;        /* the daemon's view of its bytes (push ranges are read here) */
};

/* An object of the channel, as the validator needs to know it. */
enum nvd_vobj_kind {
	NVD_VOBJ_GR,               /* graphics object of class cls */
	NVD_VOBJ_NULL,             /* class 0x30 */
	NVD_VOBJ_DMA_VRAM,         /* ctxdma over all of VRAM */
	NVD_VOBJ_DMA_GART,         /* ctxdma over all of GART */
	NVD_VOBJ_DMA_BO,           /* ctxdma over [base, base+size) of one client buffer's
				      memory in domain `domain` (notifiers); always safe */
};
struct nvd_vobj {
	uint32_t handle;
	uint16_t cls;
	uint8_t kind;              /* enum nvd_vobj_kind */
	uint8_t domain;            /* DMA_BO */
	uint64_t base, size;       /* DMA_BO: card address range */
};
typedef const struct nvd_vobj *nvd_vobj_lookup_fn(void *ctx, uint32_t handle);

struct nvd_vstate;             /* per-channel shadow, validate.c's */

struct nvd_vstate *nvd_vstate_new(void);
void nvd_vstate_free(struct nvd_vstate *vs);
/* The FP_ACTIVE_PROGRAM word the card holds for the channel (its shadow
 * slot | DMA_TEXTURE0/1), and its change when the shadow area moves (a
 * virtual channel on another hardware channel). */
uint32_t nvd_vstate_fp_program(const struct nvd_vstate *vs);
void nvd_vstate_fp_set_program(struct nvd_vstate *vs, uint32_t v);
/* The channel's fragment program shadow: a daemon-owned area of VRAM that
 * no client buffer overlaps and no validated address reaches, the last
 * bytes the channel's VRAM ctxdma covers.  Every FP_ACTIVE_PROGRAM a client
 * writes goes to the card as an address in it, right after M2MF copies
 * (the daemon's own objects, on NVD_SUBC_DAEMON) of the client's program
 * into it and of two NOP|END instructions after it: the card never fetches
 * a program byte outside the client's buffer, the area's padding or the
 * daemon's END (validate-fp.c). */
/* Program instructions one submission's binds may read to find their
 * ENDs (a program bound again unchanged is not read again): 16 of the
 * longest, hundreds of the ones Mesa writes.  Past it the submission is
 * refused (-EINVAL, not -E2BIG: waiting for room in the ring would not
 * help): reading is the validator's, on the daemon's loop. */
#define NVD_VFP_READ_MAX (16u * 4096u)

struct nvd_vfp {
	/* Where the next slot goes; slots go round the area after its first
	 * 64 bytes (the END template), only the card writing them, in command
	 * order.  A refused validation leaves head as it was. */
	uint32_t head;
	uint32_t addr, size;       /* its VRAM address and bytes */
	/* the daemon's objects in the channel: an M2MF, ctxdmas over the
	 * clients' VRAM and GART (read) and over the area (read and write),
	 * and the software object NVD_SUBC_DAEMON holds between copies */
	uint32_t h_m2mf, h_src_vram, h_src_gart, h_dst, h_sw;
	/* the read-only ctxdma over the clients' VRAM and every channel's
	 * area, which the card gets in DMA_TEXTURE0/1 in place of the VRAM
	 * ctxdma: the only client-reachable ctxdma over daemon memory, and it
	 * cannot write (0: the VRAM ctxdma stays) */
	uint32_t h_tex;
	/* out: the buffer (index in the submission's bos) the submission's
	 * last FP_ACTIVE_PROGRAM was copied from, -1 when it bound none */
	int bound_bo;
};
/* Fill an area with NOP|END instructions (a new channel's shadow; its
 * first two are the template the daemon's END copies take). */
void nvd_vfp_fill(uint8_t *area, uint32_t bytes);

struct nvd_vsubmit {
	const struct nvd_vbo *bos;     unsigned nr_bos;
	const struct nvd_submit_push *push;  unsigned nr_push;
	const struct nvd_submit_reloc *relocs; unsigned nr_relocs;   /* any order */
	nvd_vobj_lookup_fn *lookup;    void *lookup_ctx;
	/* bos[nr_listed, nr_bos) are buffers the client holds but did not list
	 * (0: all are listed).  Mesa writes addresses of buffers it lists only
	 * in a later submission when a flush falls between (the kernel never
	 * checked); an address may land in them, and used[i - nr_listed] gets
	 * the access each was reached with, so that the submission holds them
	 * until its fence.  Push ranges and relocations name listed ones only. */
	unsigned nr_listed;
	uint8_t *used;
	/* the channel's program shadow; NULL: FP_ACTIVE_PROGRAM is refused */
	struct nvd_vfp *fp;
};

/* Where a refusal happened, for the log line. */
struct nvd_verror {
	int err;                   /* -errno */
	unsigned push;             /* push range index */
	uint32_t offset;           /* byte offset of the word in its buffer */
	unsigned subc;
	uint16_t cls;
	uint32_t mthd, data;
	char why[192];
};

/* Validate the submission into out[0..cap).  Returns the number of words
 * written (all or nothing), or -errno with *e filled.  On refusal the state
 * is as before the call. */
long nvd_validate(struct nvd_vstate *vs, const struct nvd_vsubmit *sub, uint32_t *out,
		  size_t cap, struct nvd_verror *e);

#endif
