/* DRM ioctls on our nodes: the core ones Mesa, libdrm and an X server use,
 * and the nouveau driver's legacy ("abi16") interface.  We report driver
 * version 1.3.0: libdrm_nouveau then stays on abi16 and never issues NVIF
 * (mesa-nouveau-uapi.md §0).  Each request is matched on number and size,
 * as the kernel does, and handled under the file's lock. */
#include "glx/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <nouveau_drm.h>

#include "hw/enums-3d.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"

#define NTFY_BLOCK       4096           /* the notifier block of a channel */

static int chan_of(struct drm_file *f, int id, struct chan **out)
{
	if (id < 1 || id > FILE_CHANS || !f->chans[id - 1])
		return -ENOENT;
	*out = f->chans[id - 1];
	return 0;
}

/* As much of src as the caller has room for (none when dst is NULL). */
static int copy_str(char *dst, size_t len, const char *src)
{
	return dst ? shim_put_user((uintptr_t)dst, src, strlen(src) < len ? strlen(src) : len) : 0;
}

static int drm_version(struct drm_version *v)
{
	static const char name[] = "nouveau", date[] = "20120801",
			  desc[] = "nVidia Riva/TNT/GeForce/Quadro/Tesla/Tegra K1+ (nvd)";
	int r;
	v->version_major = 1;
	v->version_minor = 3;
	v->version_patchlevel = 0;
	if ((r = copy_str(v->name, v->name_len, name)) < 0 ||
	    (r = copy_str(v->date, v->date_len, date)) < 0 ||
	    (r = copy_str(v->desc, v->desc_len, desc)) < 0)
		return r;
	v->name_len = strlen(name);
	v->date_len = strlen(date);
	v->desc_len = strlen(desc);
	return 0;
}

static int getparam(struct drm_file *f, struct drm_nouveau_getparam *p)
{
	struct timespec ts;
	switch (p->param) {
	case NOUVEAU_GETPARAM_CHIPSET_ID:   p->value = f->info.chipset; return 0;
	case NOUVEAU_GETPARAM_PCI_VENDOR:   p->value = f->info.pci_vendor; return 0;
	case NOUVEAU_GETPARAM_PCI_DEVICE:   p->value = f->info.pci_device; return 0;
	case NOUVEAU_GETPARAM_BUS_TYPE:     p->value = 2; return 0;   /* PCI Express */
	case NOUVEAU_GETPARAM_FB_SIZE:      p->value = f->info.vram_size; return 0;
	case NOUVEAU_GETPARAM_AGP_SIZE:     p->value = f->info.gart_size; return 0;
	case NOUVEAU_GETPARAM_HAS_BO_USAGE: p->value = 1; return 0;
	case NOUVEAU_GETPARAM_HAS_PAGEFLIP: p->value = 0; return 0;
	case NOUVEAU_GETPARAM_PTIMER_TIME:
		/* The card's PTIMER counts nanoseconds of the host's monotonic
		 * clock (the simulated one does; Mesa only takes an offset). */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		p->value = (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
		return 0;
	}
	return -EINVAL;
}

static int channel_alloc(struct drm_file *f, struct drm_nouveau_channel_alloc *rq)
{
	unsigned i = 0;
	while (i < FILE_CHANS && f->chans[i])
		i++;
	if (i == FILE_CHANS)
		return -ENOSPC;
	struct chan *ch = calloc(1, sizeof(*ch));
	if (!ch)
		return -ENOMEM;
	int r = nvc_chan_new(f->c, &ch->ch);
	if (r < 0)
		goto fail;
	/* nvd names the channel's ctxdmas as the kernel does; Mesa asks for
	 * exactly those handles. */
	if (rq->fb_ctxdma_handle != nvc_chan_vram_dma(ch->ch) ||
	    rq->tt_ctxdma_handle != nvc_chan_gart_dma(ch->ch)) {
		shim_log("libnvd-drm: CHANNEL_ALLOC wants ctxdmas %#x/%#x, nvd has %#x/%#x",
			 rq->fb_ctxdma_handle, rq->tt_ctxdma_handle, nvc_chan_vram_dma(ch->ch),
			 nvc_chan_gart_dma(ch->ch));
		r = -EINVAL;
		goto fail_chan;
	}
	struct gem *g;
	if ((r = nvc_bo_new(f->c, NTFY_BLOCK, NVC_GART, &ch->notify_bo)) < 0)
		goto fail_chan;
	if ((r = gem_add(f, ch->notify_bo, &g)) < 0) {
		nvc_bo_free(ch->notify_bo);
		goto fail_chan;
	}
	ch->notify_handle = g->handle;
	f->chans[i] = ch;
	rq->channel = i + 1;
	rq->pushbuf_domains = NOUVEAU_GEM_DOMAIN_GART;
	rq->notifier_handle = g->handle;
	rq->nr_subchan = 0;
	return 0;
fail_chan:
	nvc_chan_free(ch->ch);
fail:
	free(ch);
	return r;
}

static int channel_free(struct drm_file *f, struct drm_nouveau_channel_free *rq)
{
	struct chan *ch;
	int r = chan_of(f, rq->channel, &ch);
	if (r < 0)
		return r;
	r = nvc_chan_free(ch->ch);
	lost_pending_free(ch);
	f->chans[rq->channel - 1] = NULL;
	for (unsigned i = 0; i < f->ngems; i++)
		f->gems[i].seq[rq->channel - 1] = 0;
	free(ch);
	return r;
}

/* ---- failures, as the kernel reports them ----
 *
 * The kernel refuses a pushbuf in the ioctl; nvd decides after it, since a
 * submission is only queued.  What nvd decided reaches the program as the
 * kernel's errors (-EINVAL refused, -EIO a fault on the card, -ENODEV the
 * channel lost), once each: from the submission's own GEM_PUSHBUF when nvd
 * had decided by then (always with NVD_DRM_SYNC), else from the next
 * GEM_PUSHBUF on the channel, or CPU_PREP or GEM_INFO of a buffer it
 * listed there since. */

static int drm_error(int e)
{
	return e == -ENOTCONN ? -ENODEV : e == -ENODEV || e == -EIO ? e : -EINVAL;
}

/* Take the oldest failure nvd reports for the channel, unless one is
 * already waiting to be told. */
static void chan_poll(struct chan *ch)
{
	uint32_t seq;
	int e;
	if (ch->err || (e = nvc_chan_error(ch->ch, &seq)) == 0)
		return;
	ch->err = drm_error(e);
	ch->err_seq = seq;
	ch->lost |= ch->err == -ENODEV;
}

static int chan_take_error(struct chan *ch)
{
	int e = ch->err;
	ch->err = 0;
	return e;
}

int gem_take_error(struct drm_file *f, struct gem *g)
{
	for (unsigned i = 0; i < FILE_CHANS; i++) {
		struct chan *ch = f->chans[i];
		if (!ch || !g->seq[i])
			continue;
		chan_poll(ch);
		if (ch->err && (!ch->err_seq || (int32_t)(g->seq[i] - ch->err_seq) >= 0))
			return chan_take_error(ch);
	}
	return 0;
}

/* First fit in the notifier block, as the kernel's heap gives Mesa offsets
 * 0, 32 and 64 for its three notifiers. */
static int notifier_alloc(struct drm_file *f, struct drm_nouveau_notifierobj_alloc *rq)
{
	struct chan *ch;
	int r = chan_of(f, rq->channel, &ch);
	if (r < 0)
		return r;
	if (!ch->notify_bo)
		return -ENOENT;
	if (!rq->size || rq->size > NTFY_BLOCK || ch->nntfy == sizeof(ch->ntfy) / sizeof(ch->ntfy[0]))
		return -EINVAL;
	uint32_t off = 0;
	for (unsigned again = 1; again;) {
		again = 0;
		for (unsigned i = 0; i < ch->nntfy; i++)
			if (off < ch->ntfy[i].offset + ch->ntfy[i].size &&
			    ch->ntfy[i].offset < off + rq->size) {
				off = ch->ntfy[i].offset + ch->ntfy[i].size;
				again = 1;
			}
	}
	if (off + rq->size > NTFY_BLOCK)
		return -ENOMEM;
	r = nvc_dma_new(ch->ch, rq->handle, ch->notify_bo, off, rq->size, NV_CLASS_DMA_IN_MEMORY, 0);
	if (r < 0)
		return r;
	ch->ntfy[ch->nntfy++] = (struct notifier){ rq->handle, off, rq->size };
	rq->offset = off;
	return 0;
}

static int gpuobj_free(struct drm_file *f, struct drm_nouveau_gpuobj_free *rq)
{
	struct chan *ch;
	int r = chan_of(f, rq->channel, &ch);
	if (r < 0)
		return r;
	for (unsigned i = 0; i < ch->nntfy; i++)
		if (ch->ntfy[i].handle == rq->handle) {
			ch->ntfy[i] = ch->ntfy[--ch->nntfy];
			break;
		}
	return nvc_obj_free(ch->ch, rq->handle);
}

static int grobj_alloc(struct drm_file *f, struct drm_nouveau_grobj_alloc *rq)
{
	struct chan *ch;
	int r = chan_of(f, rq->channel, &ch);
	return r < 0 ? r : nvc_obj_new(ch->ch, rq->handle, rq->class);
}

/* Push range k of a request, as lost.c reads it. */
static struct push_range range_of(const struct drm_nouveau_gem_pushbuf_bo *b,
				  const struct drm_nouveau_gem_pushbuf_push *p)
{
	return (struct push_range){ b[p->bo_index].handle, p->offset, p->length };
}

/* The channel is lost: nothing of this request will run (lost.c).  Only
 * push ranges whose buffer index is on its list: it may not be checked. */
static void lost_request(struct drm_file *f, struct chan *ch, const struct drm_nouveau_gem_pushbuf_bo *b,
			 const struct drm_nouveau_gem_pushbuf_push *p,
			 const struct drm_nouveau_gem_pushbuf *rq)
{
	lost_pending_complete(f, ch);
	for (unsigned k = 0; k < rq->nr_push; k++)
		if (p[k].bo_index < rq->nr_buffers) {
			struct push_range r = range_of(b, &p[k]);
			lost_complete(f, ch, &r);
		}
}

/* NVD_DRM_DUMP: the push ranges' words as they are, appended (the file is
 * opened each time: a program may close every descriptor it did not open). */
static void dump_push(struct drm_file *f, const struct drm_nouveau_gem_pushbuf_bo *b,
		      const struct drm_nouveau_gem_pushbuf_push *p, unsigned nr_push)
{
	int fd = real.open(shim_dump, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	for (unsigned k = 0; k < nr_push; k++) {
		uint32_t n;
		struct push_range r = range_of(b, &p[k]);
		const uint8_t *w = push_range_words(f, &r, &n);
		if (w)
			(void)!write(fd, w, (size_t)n * 4);
	}
	real.close(fd);
}

/* A copy of the program's array of n elements at uptr (as the kernel's
 * u_memcpya makes), NULL with *r set when it cannot be read. */
static void *copy_in(uint64_t uptr, uint32_t n, size_t elem, int *r)
{
	void *a = malloc(n ? (size_t)n * elem : 1);
	if (!a) {
		*r = -ENOMEM;
		return NULL;
	}
	if ((*r = shim_get_user(uptr, a, (size_t)n * elem)) < 0) {
		free(a);
		return NULL;
	}
	return a;
}

/* How long GEM_PUSHBUF waits for nvd to place a submission's buffers. */
#define TAKEN_WAIT_NS 2000000000ll

/* GEM_PUSHBUF: libdrm's buffer list, push ranges and relocations become one
 * nvd submission.  The suffix words are 0: libdrm then ends each range with
 * nothing, and nvd runs exactly [offset, offset + length).  nvd moves a
 * buffer into the valid domains a submission gives it, as the kernel does,
 * and applies every relocation with the buffer's address at that moment;
 * the new place goes back to libdrm as the kernel's presumed write-back.
 * The three arrays are copied in first, and the presumed places written
 * back, as the kernel does: a bad pointer is -EFAULT. */
static int pushbuf(struct drm_file *f, struct drm_nouveau_gem_pushbuf *rq)
{
	struct chan *ch;
	int r = chan_of(f, rq->channel, &ch);
	if (r < 0)
		return r == -ENOENT ? -ENODEV : r;
	rq->suffix0 = rq->suffix1 = 0;
	rq->vram_available = f->info.vram_size;
	rq->gart_available = f->info.gart_size;
	/* An earlier submission's failure first (also with no push: libdrm's
	 * nouveau_check_dead_channel asks so).  This one is then refused as
	 * the kernel refuses a pushbuf: nothing of it runs, and what Mesa
	 * polls for is written as for a lost channel, lest it wait for ever. */
	chan_poll(ch);
	int dead = ch->err || ch->lost;
	if (!dead && !rq->nr_push)
		return 0;
	int bad = rq->nr_buffers > NOUVEAU_GEM_MAX_BUFFERS || rq->nr_push > NOUVEAU_GEM_MAX_PUSH ||
		  rq->nr_relocs > NOUVEAU_GEM_MAX_RELOCS;
	if (!dead && bad)
		return -EINVAL;
	struct drm_nouveau_gem_pushbuf_bo *b = NULL;
	struct drm_nouveau_gem_pushbuf_push *p = NULL;
	struct drm_nouveau_gem_pushbuf_reloc *rl = NULL;
	if (!bad && (b = copy_in(rq->buffers, rq->nr_buffers, sizeof(*b), &r)) &&
	    (p = copy_in(rq->push, rq->nr_push, sizeof(*p), &r)))
		rl = copy_in(rq->relocs, rq->nr_relocs, sizeof(*rl), &r);
	if (dead) {
		r = ch->err ? chan_take_error(ch) : -ENODEV;
		if (p)
			lost_request(f, ch, b, p, rq);
		goto out;
	}
	if (!rl)
		goto out;
	struct nvc_bo_ref refs[NOUVEAU_GEM_MAX_BUFFERS];
	struct gem *gems[NOUVEAU_GEM_MAX_BUFFERS];
	struct nvc_push push[NOUVEAU_GEM_MAX_PUSH];
	struct nvc_reloc rel[NOUVEAU_GEM_MAX_RELOCS];
	for (unsigned i = 0; i < rq->nr_buffers; i++) {
		struct gem *g = gems[i] = gem_find(f, b[i].handle);
		if (!g) {
			r = -ENOENT;
			goto out;
		}
		refs[i].bo = g->bo;
		refs[i].access = (b[i].read_domains ? NVC_READ : 0) | (b[i].write_domains ? NVC_WRITE : 0);
		if (!refs[i].access)
			refs[i].access = NVC_READ;
		/* The kernel moves a buffer into the submission's valid domains
		 * (Mesa relies on it: a GART staging buffer becomes a VRAM render
		 * target); nvd does the same. */
		uint32_t valid = b[i].valid_domains & (NOUVEAU_GEM_DOMAIN_VRAM | NOUVEAU_GEM_DOMAIN_GART);
		if (valid == NOUVEAU_GEM_DOMAIN_VRAM)
			refs[i].access |= NVC_IN_VRAM;
		else if (valid == NOUVEAU_GEM_DOMAIN_GART)
			refs[i].access |= NVC_IN_GART;
	}
	r = -EINVAL;
	for (unsigned i = 0; i < rq->nr_push; i++) {
		if (p[i].bo_index >= rq->nr_buffers || p[i].offset > UINT32_MAX ||
		    p[i].length > UINT32_MAX)
			goto out;
		push[i] = (struct nvc_push){ p[i].bo_index, p[i].offset, p[i].length };
	}
	for (unsigned i = 0; i < rq->nr_relocs; i++) {
		if (rl[i].reloc_bo_index >= rq->nr_buffers || rl[i].bo_index >= rq->nr_buffers)
			goto out;
		rel[i] = (struct nvc_reloc){ rl[i].reloc_bo_index, rl[i].reloc_bo_offset, rl[i].bo_index,
					     rl[i].flags, rl[i].data, rl[i].vor, rl[i].tor };
	}
	if (shim_dump)
		dump_push(f, b, p, rq->nr_push);
	struct nvc_submission s = { refs, rq->nr_buffers, push, rq->nr_push, rel, rq->nr_relocs };
	uint32_t fence;
	if ((r = nvc_submit(ch->ch, &s, &fence)) < 0) {
		if (r == -ENODEV || r == -ENOTCONN) {
			lost_request(f, ch, b, p, rq);
			ch->lost = 1;
			r = -ENODEV;
		}
		goto out;
	}
	struct push_range ranges[NOUVEAU_GEM_MAX_PUSH];
	for (unsigned i = 0; i < rq->nr_push; i++)
		ranges[i] = range_of(b, &p[i]);
	if (lost_pending_add(ch, fence, ranges, rq->nr_push) < 0)
		shim_log("libnvd-drm: out of memory: submission %u cannot be completed if nvd goes", fence);
	for (unsigned i = 0; i < rq->nr_buffers; i++)
		gems[i]->seq[rq->channel - 1] = fence;
	/* A buffer that moved: tell libdrm its new place, as the kernel does
	 * (presumed.valid = 0).  libdrm writes addresses it has not yet
	 * turned into relocations straight from bo->offset.  nvd places the
	 * buffers as it takes the submission, so this returns once it has, as
	 * the kernel's ioctl returns once it has validated (bounded: a
	 * submission nvd holds back longer is told about next time).  nvd
	 * also evicts idle buffers whenever it needs room: after a move it
	 * counts on the channel, every listed buffer is asked where it is. */
	nvc_fence_taken(ch->ch, fence, TAKEN_WAIT_NS);
	uint32_t moves = nvc_chan_moves(ch->ch);
	int moved = moves != ch->moves_seen;
	ch->moves_seen = moves;
	for (unsigned i = 0; i < rq->nr_buffers; i++) {
		struct nvc_bo *bo = refs[i].bo;
		unsigned want = refs[i].access & NVC_IN_VRAM ? NVC_VRAM :
				refs[i].access & NVC_IN_GART ? NVC_GART : 0;
		if (moved || (want && want != nvc_bo_domain(bo)))
			nvc_bo_refresh(bo);   /* failing, the place known stays */
		uint32_t dom = nvc_bo_domain(bo) == NVC_VRAM ? NOUVEAU_GEM_DOMAIN_VRAM
							     : NOUVEAU_GEM_DOMAIN_GART;
		/* in host memory (nowhere on the card): told where it lands next */
		if (nvc_bo_domain(bo) == NVC_HOST ||
		    (b[i].presumed.offset == nvc_bo_addr(bo) && b[i].presumed.domain == dom))
			continue;
		b[i].presumed.valid = 0;
		b[i].presumed.domain = dom;
		b[i].presumed.offset = nvc_bo_addr(bo);
		if (shim_put_user(rq->buffers + i * sizeof(*b) +
				  offsetof(struct drm_nouveau_gem_pushbuf_bo, presumed),
				  &b[i].presumed, sizeof(b[i].presumed)) < 0)
			r = -EFAULT;
	}
	/* NVD_DRM_SYNC=1: wait for each submission and report how it ended
	 * (libdrm prints "kernel rejected pushbuf"; we print nvd's reason). */
	int w = 0;
	if ((shim_debug || getenv("NVD_DRM_SYNC")) && (w = nvc_fence_wait(ch->ch, fence, -1)) < 0)
		shim_log("libnvd-drm: nvd refused submission %u: %s", fence, nvc_error());
	/* Its own failure, if nvd has decided by now; an older one that came
	 * meanwhile waits for the next call. */
	chan_poll(ch);
	if (ch->err && ch->err_seq == fence)
		r = chan_take_error(ch);
	else if (!r && w < 0)
		r = drm_error(w);
out:
	free(b);
	free(p);
	free(rl);
	return r;
}

/* Nouveau's ioctl numbers, as libdrm issues them (its nouveau_drm.h gives
 * only the command indices). */
#define NVIOC(cmd, type) DRM_IOWR(DRM_COMMAND_BASE + DRM_NOUVEAU_##cmd, type)

/* X(name, request as libdrm defines it, handler): the number and the size a
 * request must have both come from the request. */
#define IOCTLS(X) \
	X("VERSION",            DRM_IOCTL_VERSION,            io_version) \
	X("GET_MAGIC",          DRM_IOCTL_GET_MAGIC,          io_get_magic) \
	X("GEM_CLOSE",          DRM_IOCTL_GEM_CLOSE,          io_gem) \
	X("GEM_FLINK",          DRM_IOCTL_GEM_FLINK,          io_gem) \
	X("GEM_OPEN",           DRM_IOCTL_GEM_OPEN,           io_gem) \
	X("GET_CAP",            DRM_IOCTL_GET_CAP,            io_get_cap) \
	X("SET_CLIENT_CAP",     DRM_IOCTL_SET_CLIENT_CAP,     io_set_client_cap) \
	X("AUTH_MAGIC",         DRM_IOCTL_AUTH_MAGIC,         io_auth_magic) \
	X("SET_MASTER",         DRM_IOCTL_SET_MASTER,         io_set_master) \
	X("DROP_MASTER",        DRM_IOCTL_DROP_MASTER,        io_drop_master) \
	X("PRIME_HANDLE_TO_FD", DRM_IOCTL_PRIME_HANDLE_TO_FD, io_gem) \
	X("PRIME_FD_TO_HANDLE", DRM_IOCTL_PRIME_FD_TO_HANDLE, io_gem) \
	X("MODE_GETRESOURCES",  DRM_IOCTL_MODE_GETRESOURCES,  io_kms) \
	X("MODE_GETCRTC",       DRM_IOCTL_MODE_GETCRTC,       io_kms) \
	X("MODE_SETCRTC",       DRM_IOCTL_MODE_SETCRTC,       io_kms) \
	X("MODE_GETENCODER",    DRM_IOCTL_MODE_GETENCODER,    io_kms) \
	X("MODE_GETCONNECTOR",  DRM_IOCTL_MODE_GETCONNECTOR,  io_kms) \
	X("MODE_GETPROPERTY",   DRM_IOCTL_MODE_GETPROPERTY,   io_kms) \
	X("MODE_GETPROPBLOB",   DRM_IOCTL_MODE_GETPROPBLOB,   io_kms) \
	X("MODE_GETFB",         DRM_IOCTL_MODE_GETFB,         io_kms) \
	X("MODE_ADDFB",         DRM_IOCTL_MODE_ADDFB,         io_kms) \
	X("MODE_RMFB",          DRM_IOCTL_MODE_RMFB,          io_kms) \
	X("MODE_PAGE_FLIP",     DRM_IOCTL_MODE_PAGE_FLIP,     io_kms) \
	X("WAIT_VBLANK",        DRM_IOCTL_WAIT_VBLANK,        io_kms) \
	X("CRTC_GET_SEQUENCE",  DRM_IOCTL_CRTC_GET_SEQUENCE,  io_kms) \
	X("CRTC_QUEUE_SEQUENCE", DRM_IOCTL_CRTC_QUEUE_SEQUENCE, io_kms) \
	X("MODE_CREATE_DUMB",   DRM_IOCTL_MODE_CREATE_DUMB,   io_kms) \
	X("MODE_MAP_DUMB",      DRM_IOCTL_MODE_MAP_DUMB,      io_kms) \
	X("MODE_DESTROY_DUMB",  DRM_IOCTL_MODE_DESTROY_DUMB,  io_kms) \
	X("MODE_GETPLANERESOURCES", DRM_IOCTL_MODE_GETPLANERESOURCES, io_kms) \
	X("MODE_GETPLANE",      DRM_IOCTL_MODE_GETPLANE,      io_kms) \
	X("MODE_ADDFB2",        DRM_IOCTL_MODE_ADDFB2,        io_kms) \
	X("MODE_OBJ_GETPROPERTIES", DRM_IOCTL_MODE_OBJ_GETPROPERTIES, io_kms) \
	X("NOUVEAU_GETPARAM",          NVIOC(GETPARAM, struct drm_nouveau_getparam),          io_getparam) \
	X("NOUVEAU_CHANNEL_ALLOC",     NVIOC(CHANNEL_ALLOC, struct drm_nouveau_channel_alloc), io_channel_alloc) \
	X("NOUVEAU_CHANNEL_FREE",      NVIOC(CHANNEL_FREE, struct drm_nouveau_channel_free),  io_channel_free) \
	X("NOUVEAU_GROBJ_ALLOC",       NVIOC(GROBJ_ALLOC, struct drm_nouveau_grobj_alloc),    io_grobj_alloc) \
	X("NOUVEAU_NOTIFIEROBJ_ALLOC", NVIOC(NOTIFIEROBJ_ALLOC, struct drm_nouveau_notifierobj_alloc), io_notifier_alloc) \
	X("NOUVEAU_GPUOBJ_FREE",       NVIOC(GPUOBJ_FREE, struct drm_nouveau_gpuobj_free),    io_gpuobj_free) \
	X("NOUVEAU_GEM_NEW",           NVIOC(GEM_NEW, struct drm_nouveau_gem_new),            io_gem) \
	X("NOUVEAU_GEM_PUSHBUF",       NVIOC(GEM_PUSHBUF, struct drm_nouveau_gem_pushbuf),    io_pushbuf) \
	X("NOUVEAU_GEM_CPU_PREP",      NVIOC(GEM_CPU_PREP, struct drm_nouveau_gem_cpu_prep),  io_gem) \
	X("NOUVEAU_GEM_CPU_FINI",      NVIOC(GEM_CPU_FINI, struct drm_nouveau_gem_cpu_fini),  io_gem) \
	X("NOUVEAU_GEM_INFO",          NVIOC(GEM_INFO, struct drm_nouveau_gem_info),          io_gem)

typedef int io_fn(struct drm_file *f, unsigned nr, void *arg);

static int io_version(struct drm_file *f, unsigned nr, void *a) { (void)f; (void)nr; return drm_version(a); }
static int io_gem(struct drm_file *f, unsigned nr, void *a) { return gem_ioctl(f, nr, a); }
static int io_kms(struct drm_file *f, unsigned nr, void *a) { return kms_ioctl(f, nr, a); }
static int io_getparam(struct drm_file *f, unsigned nr, void *a) { (void)nr; return getparam(f, a); }
static int io_channel_alloc(struct drm_file *f, unsigned nr, void *a) { (void)nr; return channel_alloc(f, a); }
static int io_channel_free(struct drm_file *f, unsigned nr, void *a) { (void)nr; return channel_free(f, a); }
static int io_grobj_alloc(struct drm_file *f, unsigned nr, void *a) { (void)nr; return grobj_alloc(f, a); }
static int io_notifier_alloc(struct drm_file *f, unsigned nr, void *a) { (void)nr; return notifier_alloc(f, a); }
static int io_gpuobj_free(struct drm_file *f, unsigned nr, void *a) { (void)nr; return gpuobj_free(f, a); }
static int io_pushbuf(struct drm_file *f, unsigned nr, void *a) { (void)nr; return pushbuf(f, a); }

static int io_get_cap(struct drm_file *f, unsigned nr, void *a)
{
	(void)nr;
	return kms_get_cap(f, a);
}

static int io_set_client_cap(struct drm_file *f, unsigned nr, void *a)
{
	(void)f; (void)nr; (void)a;
	return -EINVAL;       /* no stereo, universal planes or atomic here */
}

/* Magic cookies live on primary nodes only, as in the kernel. */
static int io_get_magic(struct drm_file *f, unsigned nr, void *a)
{
	(void)nr;
	return f->node == NODE_PRIMARY ? nvc_get_magic(f->c, &((struct drm_auth *)a)->magic) : -EACCES;
}

static int io_auth_magic(struct drm_file *f, unsigned nr, void *a)
{
	(void)nr;
	return f->node == NODE_PRIMARY ? nvc_auth_magic(f->c, ((struct drm_auth *)a)->magic) : -EACCES;
}

/* Render nodes are never the master (no DRM_RENDER_ALLOW on these). */
static int io_set_master(struct drm_file *f, unsigned nr, void *a)
{
	(void)nr; (void)a;
	if (f->node != NODE_PRIMARY)
		return -EACCES;
	int r = nvc_set_master(f->c);
	if (r == 0)
		f->master = 1;
	return r;
}

static int io_drop_master(struct drm_file *f, unsigned nr, void *a)
{
	(void)nr; (void)a;
	if (f->node != NODE_PRIMARY)
		return -EACCES;
	int r = nvc_drop_master(f->c);
	if (r == 0)
		f->master = 0;
	return r;
}

static const struct { const char *name; unsigned nr, size, dir; io_fn *fn; } table[] = {
#define ROW_(name, req, fn) { name, _IOC_NR(req), _IOC_SIZE(req), _IOC_DIR(req), fn },
	IOCTLS(ROW_)
#undef ROW_
};

/* The largest request's struct, copied in and out as drm_ioctl does. */
#define KDATA_MAX 128
#define KDATA_FITS_(name, req, fn) _Static_assert(_IOC_SIZE(req) <= KDATA_MAX, name " fits");
IOCTLS(KDATA_FITS_)
#undef KDATA_FITS_

int shim_ioctl(struct drm_file *f, unsigned long req, void *arg)
{
	unsigned type = _IOC_TYPE(req), nr = _IOC_NR(req), size = _IOC_SIZE(req);
	union { uint8_t b[KDATA_MAX]; uint64_t align; } k;
	int r = -EINVAL;
	if (type != DRM_IOCTL_BASE)
		return -ENOTTY;       /* tty and other ioctls: we are no such device */
	const char *name = "?";
	pthread_mutex_lock(&f->lock);
	if (f->gone) {
		r = lost_ioctl(f);
		pthread_mutex_unlock(&f->lock);
		return r;
	}
	for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].nr == nr) {
			name = table[i].name;
			/* The program's struct, and the arrays it points to, are
			 * reached as the kernel reaches them: a bad pointer is
			 * -EFAULT, not a crash inside the program. */
			if (size != table[i].size || (r = shim_get_user((uintptr_t)arg, k.b, size)) < 0)
				break;
			r = table[i].fn(f, nr, size ? k.b : NULL);
			if ((table[i].dir & _IOC_READ) && shim_put_user((uintptr_t)arg, k.b, size) < 0)
				r = -EFAULT;
			/* nvd seen gone on the way (the watcher may not have yet) */
			if (r < 0 && lost_file_gone(f))
				r = -ENODEV;
			f->magic_last = req == DRM_IOCTL_GET_MAGIC && r == 0;
			break;
		}
	pthread_mutex_unlock(&f->lock);
	if (shim_debug)
		shim_log("libnvd-drm: ioctl %s (%#lx) -> %d", name, req, r);
	return r;
}
