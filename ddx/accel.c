/* The server's channel on the card: the 2D objects nouveau's DDX uses on
 * NV40, bound to the same subchannels, and a push buffer.  Commands pile
 * up in the push buffer and go to nvd as one submission when the server
 * blocks, when the CPU needs a buffer, or when the push buffer is full.
 * Surface addresses are relocations: nvd may move a buffer between
 * submissions. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ddx/nvdx.h"

#include "hw/enums-2d.h"
#include "hw/methods.h"

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

/* Room for `words` more words, `bos` more buffers and `relocs` more
 * relocations in this submission, libnvd's writer submitting (and, when
 * the buffer is used up, waiting for the card) if need be. */
void nvdx_push_space(struct nvdx_push *p, uint32_t words, unsigned bos, unsigned relocs)
{
	if (p->err)
		return;
	int r = nvc_pushbuf_space(p->pb, words, bos, relocs);
	if (r < 0 && !nvdx_nvd_gone(p->scrn, r))
		push_fail(p, r);
}

/* Before each submission: NVD_DRM_DUMP=FILE appends its words, as the
 * interposer does for Mesa (for nvd-decode and the stream fuzzer's seeds);
 * the state the operations keep is written again after it. */
static void push_kicked(struct nvc_pushbuf *pb, void *data)
{
	struct nvdx_push *p = data;
	const char *path = getenv("NVD_DRM_DUMP");
	int fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;

	p->gen++;
	if (fd < 0)
		return;
	uint32_t n;
	const uint32_t *w = nvc_pushbuf_pending(pb, &n);
	(void)!write(fd, w, (size_t)n * 4);
	close(fd);
}

int nvdx_push_kick(struct nvdx_push *p)
{
	if (p->err)
		return p->err;
	int r = nvc_pushbuf_kick(p->pb, NULL);
	if (r < 0 && !nvdx_nvd_gone(p->scrn, r))
		push_fail(p, r);
	return r;
}

/* Before the CPU (or nvd) touches bo: what uses it goes to the card, and
 * for READ the card has written it, for RW it has done with it.  With nvd
 * gone the memory is the CPU's alone. */
int nvdx_push_sync(struct nvdx_push *p, struct nvc_bo *bo, enum nvdx_sync how)
{
	if (p->scrn && nvdx(p->scrn)->lost)
		return 0;
	if (nvc_pushbuf_refd(p->pb, bo))
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
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_M2MF, NV_FIFO_OBJECT, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_M2MF);

	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_SURF, NV_FIFO_OBJECT, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_SURF2D);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_SURF, NV_SURF2D_DMA_IMAGE_SOURCE, 2);
	nvc_pushbuf_data(p->pb, vram);
	nvc_pushbuf_data(p->pb, vram);

	/* the pattern: every bit set, so P is MONOCHROME_COLOR(1) (the planemask) */
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_MISC, NV_FIFO_OBJECT, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_PATT);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_MISC, NV_PATT_MONOCHROME_FORMAT, 3);
	nvc_pushbuf_data(p->pb, NV_PATT_MONO_FORMAT_CGA6);
	nvc_pushbuf_data(p->pb, NV_PATT_SHAPE_8X8);
	nvc_pushbuf_data(p->pb, NV_PATT_SELECT_MONO);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_MISC, NV_PATT_MONOCHROME_COLOR, 4);
	for (unsigned i = 0; i < 4; i++)
		nvc_pushbuf_data(p->pb, ~0u);

	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_GDI, NV_FIFO_OBJECT, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_GDI);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_GDI, NV_GDI_PATTERN, 2);
	nvc_pushbuf_data(p->pb, NVDX_H_PATT);
	nvc_pushbuf_data(p->pb, NVDX_H_ROP);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_GDI, NV_GDI_SURFACE, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_SURF2D);

	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_BLIT, NV_FIFO_OBJECT, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_BLIT);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_BLIT, NV_BLIT_PATTERN, 2);
	nvc_pushbuf_data(p->pb, NVDX_H_PATT);
	nvc_pushbuf_data(p->pb, NVDX_H_ROP);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_BLIT, NV_BLIT_SURFACES, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_SURF2D);

	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_IFC, NV_FIFO_OBJECT, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_IFC);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_IFC, NV_IFC_SURFACE, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_SURF2D);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_IFC, NV_IFC_OPERATION, 1);
	nvc_pushbuf_data(p->pb, NV_2D_OPERATION_SRCCOPY);
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
	if (nvc_pushbuf_new(p->ch, PUSH_BYTES, &p->pb) < 0)
		goto fail;
	nvc_pushbuf_notify(p->pb, push_kicked, p);
	p->cap = PUSH_BYTES / 4;
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

	if (p->pb && nvc_pushbuf_fence(p->pb) && !nvdx_nvd_gone(scrn, 0))
		push_wait(p, nvc_pushbuf_fence(p->pb));
	nvdx_3d_fini(scrn);
	nvc_pushbuf_free(p->pb);
	if (p->ch)
		nvc_chan_free(p->ch);
	memset(p, 0, sizeof(*p));
}
