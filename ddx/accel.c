/* The server's channel on the card: the 2D objects nouveau's DDX uses on
 * NV40, bound to the same subchannels, and a push buffer.  Commands pile
 * up in the push buffer and go to nvd as one submission when the server
 * blocks, when the CPU needs a buffer, or when the push buffer is full.
 * Surface addresses are relocations: nvd may move a buffer between
 * submissions. */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ddx/nvdx.h"

#include "hw/enums-2d.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"

#define PUSH_BYTES (512 * 1024)

static const struct { uint32_t handle, cls; } objects[] = {
	{ NVDX_H_NULL, NV_CLASS_NULL_OBJ }, { NVDX_H_M2MF, NV_CLASS_M2MF },
	{ NVDX_H_SURF2D, NV_CLASS_SURF2D }, { NVDX_H_GDI, NV_CLASS_GDI },
	{ NVDX_H_BLIT, NV_CLASS_BLIT },     { NVDX_H_IFC, NV_CLASS_IFC },
	{ NVDX_H_ROP, NV_CLASS_ROP },       { NVDX_H_PATT, NV_CLASS_PATT },
	{ NVDX_H_CLIP, NV_CLASS_CLIP },
};

static void push_fail(struct nvdx_push *p, int err)
{
	if (!p->err) {
		p->err = err;
		ErrorF("nvd: acceleration stops: %s\n", nvc_error());
	}
}

/* The fence; libnvd's wait ends when nvd goes. */
static int push_wait(struct nvdx_push *p, uint32_t fence)
{
	int r = nvc_fence_wait(p->ch, fence, -1);
	return r < 0 && nvdx_nvd_gone(p->scrn, r) ? -ENOTCONN : r;
}

/* ---- the push buffer ---- */

void nvdx_push_word(struct nvdx_push *p, uint32_t w)
{
	if (p->pos < p->cap)
		p->map[p->pos++] = htole32(w);
	else
		push_fail(p, -ENOSPC);
}

/* Room for `words` more words, a buffer list with `bos` more entries and
 * `relocs` more relocations in this submission; otherwise submit what is
 * there, and when the buffer is used up wait for it and start over. */
void nvdx_push_space(struct nvdx_push *p, uint32_t words, unsigned bos, unsigned relocs)
{
	if (p->pos + words <= p->cap && p->nrefs + bos < NVDX_PUSH_REFS &&
	    p->nrelocs + relocs <= NVDX_PUSH_RELOCS)
		return;
	nvdx_push_kick(p);
	if (p->pos + words > p->cap) {
		if (push_wait(p, p->fence) < 0)
			push_fail(p, -EIO);
		p->pos = p->start = 0;
	}
}

void nvdx_push_mthd(struct nvdx_push *p, unsigned subc, uint32_t mthd, unsigned n)
{
	nvdx_push_word(p, NV_CMD_INC_WORD(subc, mthd, n));
}

/* The buffer's index on this submission's list, with access merged in. */
static unsigned push_ref(struct nvdx_push *p, struct nvc_bo *bo, unsigned access)
{
	for (unsigned i = 0; i < p->nrefs; i++)
		if (p->refs[i].bo == bo) {
			p->refs[i].access |= access;
			return i;
		}
	p->refs[p->nrefs] = (struct nvc_bo_ref){ bo, access };
	return p->nrefs++;
}

void nvdx_push_ref(struct nvdx_push *p, struct nvc_bo *bo, unsigned access)
{
	push_ref(p, bo, access);
}

/* A word that nvd makes bo's address + delta. */
void nvdx_push_reloc(struct nvdx_push *p, struct nvc_bo *bo, uint32_t delta, unsigned access)
{
	unsigned i = push_ref(p, bo, access);
	p->relocs[p->nrelocs++] = (struct nvc_reloc){
		.reloc_bo = 0, .offset = p->pos * 4, .bo = i, .flags = NVC_RELOC_LOW, .data = delta,
	};
	nvdx_push_word(p, (uint32_t)nvc_bo_addr(bo) + delta);
}

/* NVD_DRM_DUMP=FILE: each submission's words appended, as the interposer
 * does for Mesa (for nvd-decode and the stream fuzzer's seeds). */
static void push_dump(const struct nvdx_push *p)
{
	const char *path = getenv("NVD_DRM_DUMP");
	int fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
	if (fd < 0)
		return;
	(void)!write(fd, p->map + p->start, (size_t)(p->pos - p->start) * 4);
	close(fd);
}

int nvdx_push_kick(struct nvdx_push *p)
{
	if (p->err)
		return p->err;
	if (p->pos == p->start)
		return 0;
	struct nvc_push range = { 0, p->start * 4, (p->pos - p->start) * 4 };
	struct nvc_submission s = { p->refs, p->nrefs, &range, 1, p->relocs, p->nrelocs };
	push_dump(p);
	int r = nvc_submit(p->ch, &s, &p->fence);
	if (r < 0) {
		if (!nvdx_nvd_gone(p->scrn, r))
			push_fail(p, r);
		return r;
	}
	p->start = p->pos;
	p->nrefs = 1;   /* the push buffer itself stays first */
	p->nrelocs = 0;
	p->gen++;
	return 0;
}

/* Whether commands not yet submitted use the buffer. */
static int push_pending(const struct nvdx_push *p, const struct nvc_bo *bo)
{
	for (unsigned i = 1; i < p->nrefs; i++)
		if (p->refs[i].bo == bo)
			return 1;
	return 0;
}

/* Before the CPU (or nvd) touches bo: what uses it goes to the card, and
 * for READ the card has written it, for RW it has done with it.  With nvd
 * gone the memory is the CPU's alone. */
int nvdx_push_sync(struct nvdx_push *p, struct nvc_bo *bo, enum nvdx_sync how)
{
	if (p->scrn && nvdx(p->scrn)->lost)
		return 0;
	if (push_pending(p, bo))
		nvdx_push_kick(p);
	if (how == NVDX_SYNC_SUBMIT)
		return 0;
	int r = nvc_bo_wait(bo, how == NVDX_SYNC_RW ? NVC_WAIT_WRITE : 0, -1);
	return r < 0 && p->scrn && nvdx_nvd_gone(p->scrn, r) ? 0 : r;
}

/* ---- the channel ---- */

/* Bind the objects and set the state that never changes, as nouveau's
 * NVAccelCommonInit does on NV40. */
static void bind_objects(struct nvdx_push *p)
{
	uint32_t vram = nvc_chan_vram_dma(p->ch);

	nvdx_push_space(p, 64, 0, 0);
	nvdx_push_mthd(p, NVDX_SUBC_M2MF, NV_FIFO_OBJECT, 1);
	nvdx_push_word(p, NVDX_H_M2MF);

	nvdx_push_mthd(p, NVDX_SUBC_SURF, NV_FIFO_OBJECT, 1);
	nvdx_push_word(p, NVDX_H_SURF2D);
	nvdx_push_mthd(p, NVDX_SUBC_SURF, NV_SURF2D_DMA_IMAGE_SOURCE, 2);
	nvdx_push_word(p, vram);
	nvdx_push_word(p, vram);

	/* the pattern: every bit set, so P is MONOCHROME_COLOR(1) (the planemask) */
	nvdx_push_mthd(p, NVDX_SUBC_MISC, NV_FIFO_OBJECT, 1);
	nvdx_push_word(p, NVDX_H_PATT);
	nvdx_push_mthd(p, NVDX_SUBC_MISC, NV_PATT_MONOCHROME_FORMAT, 3);
	nvdx_push_word(p, NV_PATT_MONO_FORMAT_CGA6);
	nvdx_push_word(p, NV_PATT_SHAPE_8X8);
	nvdx_push_word(p, NV_PATT_SELECT_MONO);
	nvdx_push_mthd(p, NVDX_SUBC_MISC, NV_PATT_MONOCHROME_COLOR, 4);
	for (unsigned i = 0; i < 4; i++)
		nvdx_push_word(p, ~0u);

	nvdx_push_mthd(p, NVDX_SUBC_GDI, NV_FIFO_OBJECT, 1);
	nvdx_push_word(p, NVDX_H_GDI);
	nvdx_push_mthd(p, NVDX_SUBC_GDI, NV_GDI_PATTERN, 2);
	nvdx_push_word(p, NVDX_H_PATT);
	nvdx_push_word(p, NVDX_H_ROP);
	nvdx_push_mthd(p, NVDX_SUBC_GDI, NV_GDI_SURFACE, 1);
	nvdx_push_word(p, NVDX_H_SURF2D);

	nvdx_push_mthd(p, NVDX_SUBC_BLIT, NV_FIFO_OBJECT, 1);
	nvdx_push_word(p, NVDX_H_BLIT);
	nvdx_push_mthd(p, NVDX_SUBC_BLIT, NV_BLIT_PATTERN, 2);
	nvdx_push_word(p, NVDX_H_PATT);
	nvdx_push_word(p, NVDX_H_ROP);
	nvdx_push_mthd(p, NVDX_SUBC_BLIT, NV_BLIT_SURFACES, 1);
	nvdx_push_word(p, NVDX_H_SURF2D);

	nvdx_push_mthd(p, NVDX_SUBC_IFC, NV_FIFO_OBJECT, 1);
	nvdx_push_word(p, NVDX_H_IFC);
	nvdx_push_mthd(p, NVDX_SUBC_IFC, NV_IFC_SURFACE, 1);
	nvdx_push_word(p, NVDX_H_SURF2D);
	nvdx_push_mthd(p, NVDX_SUBC_IFC, NV_IFC_OPERATION, 1);
	nvdx_push_word(p, NV_2D_OPERATION_SRCCOPY);
}

Bool nvdx_accel_init(ScrnInfoPtr scrn)
{
	struct nvdx *nx = nvdx(scrn);
	struct nvdx_push *p = &nx->push;

	memset(p, 0, sizeof(*p));
	p->scrn = scrn;
	if (nvc_chan_new(nx->c, &p->ch) < 0)
		goto fail;
	for (unsigned i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		if (nvc_obj_new(p->ch, objects[i].handle, objects[i].cls) < 0)
			goto fail;
	if (nvc_bo_new(nx->c, PUSH_BYTES, NVC_GART, &p->bo) < 0 || !(p->map = nvc_bo_map(p->bo)))
		goto fail;
	p->cap = PUSH_BYTES / 4;
	p->refs[0] = (struct nvc_bo_ref){ p->bo, NVC_READ };
	p->nrefs = 1;
	bind_objects(p);
	struct nvc_info info;
	if (nvc_info(nx->c, &info) == 0)
		nvdx_3d_init(scrn, info.chipset);
	if (nvdx_push_kick(p) < 0)
		goto fail;
	return TRUE;
fail:
	xf86DrvMsg(scrn->scrnIndex, X_WARNING, "no acceleration: %s\n", nvc_error());
	nvdx_accel_fini(scrn);
	return FALSE;
}

void nvdx_accel_fini(ScrnInfoPtr scrn)
{
	struct nvdx_push *p = &nvdx(scrn)->push;

	if (p->ch && p->fence && !nvdx_nvd_gone(scrn, 0))
		push_wait(p, p->fence);
	nvdx_3d_fini(scrn);
	if (p->bo)
		nvc_bo_free(p->bo);
	if (p->ch)
		nvc_chan_free(p->ch);
	memset(p, 0, sizeof(*p));
}
