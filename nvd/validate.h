/* Copy + validate + relocate: turns a client's push ranges into words the
 * card may execute, in one pass, reading every client word exactly once.
 *
 * Rules (../shared/DESIGN.md, "Nothing the card executes is client memory"):
 *  - every command word is decoded with hw/pushbuf.h; invalid words, calls
 *    and old-style/SLI words the hardware would fault on are refused;
 *  - a push range runs as if the daemon had CALLed it (as the NV40 kernel
 *    does): RETURN ends it, a CALL inside it is refused (CALL_SUBR_ACTIVE on
 *    hardware), a JUMP must land on a word inside one of this submission's
 *    push ranges and is followed, so the output is straight-line and holds no
 *    client jump; a budget of output words stops loops (-ELOOP);
 *  - methods must exist for the class bound to the subchannel (hw/methods.h),
 *    subchannel NVD_SUBC_DAEMON is the daemon's, PRIV methods are refused;
 *  - HANDLE data must name an object of this channel (or 0, the null object
 *    where the class allows none); OBJECT binds must name a GR object;
 *  - ADDR data must lie inside a buffer of this submission, and at every
 *    operation that touches memory (M2MF, GDI, BLIT, IFC, SIFM, NOTIFY) the
 *    whole extent it reads or writes must lie inside one buffer of this
 *    submission with that access (or inside a ctxdma over a client buffer);
 *  - relocations patch the word before it is validated.
 * Validator state (per channel: bound classes, the methods the extent checks
 * need) persists across submissions and is rolled back when one is refused. */
#ifndef NVD_VALIDATE_H
#define NVD_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "proto/ring.h"

#define NVD_SUBC_DAEMON 1          /* the daemon's software object lives here */

/* Domains, access bits, push ranges and relocations are the wire layouts of
 * proto/ring.h, used as they arrive. */
#define nvd_vpush  nvd_submit_push
#define nvd_vreloc nvd_submit_reloc

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

struct nvd_vsubmit {
	const struct nvd_vbo *bos;     unsigned nr_bos;
	const struct nvd_vpush *push;  unsigned nr_push;
	const struct nvd_vreloc *relocs; unsigned nr_relocs;   /* any order */
	nvd_vobj_lookup_fn *lookup;    void *lookup_ctx;
};

/* Where a refusal happened, for the log line. */
struct nvd_verror {
	int err;                   /* -errno */
	unsigned push;             /* push range index */
	uint32_t offset;           /* byte offset of the word in its buffer */
	unsigned subc;
	uint16_t cls;
	uint32_t mthd, data;
	char why[96];
};

/* Validate the submission into out[0..cap).  Returns the number of words
 * written (all or nothing), or -errno with *e filled.  On refusal the state
 * is as before the call. */
long nvd_validate(struct nvd_vstate *vs, const struct nvd_vsubmit *sub, uint32_t *out,
		  size_t cap, struct nvd_verror *e);

#endif
