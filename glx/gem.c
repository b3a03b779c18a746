/* A file's buffer handles.  The GEM handle is nvd's handle of the buffer on
 * the file's connection (nvd keeps one handle per buffer per connection, as
 * the kernel does per file), so PRIME import of a buffer the file already
 * holds gives back the same handle.  mmap offsets are handle << 32. */
#include "glx/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <drm.h>
#include <nouveau_drm.h>

#define MAP_SHIFT 32

static unsigned gem_index(struct drm_file *f, uint32_t handle)
{
	unsigned lo = 0, hi = f->ngems;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (f->gems[mid].handle < handle)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct gem *gem_find(struct drm_file *f, uint32_t handle)
{
	unsigned i = gem_index(f, handle);
	return i < f->ngems && f->gems[i].handle == handle ? &f->gems[i] : NULL;
}

int gem_add(struct drm_file *f, struct nvc_bo *bo, struct gem **out)
{
	uint32_t h = nvc_bo_handle(bo);
	struct gem *g = gem_find(f, h);
	if (g) {                     /* already held: one handle per buffer */
		*out = g;
		return 0;
	}
	if (f->ngems == f->gems_cap) {
		unsigned cap = f->gems_cap ? f->gems_cap * 2 : 64;
		struct gem *n = realloc(f->gems, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		f->gems = n;
		f->gems_cap = cap;
	}
	unsigned i = gem_index(f, h);
	memmove(&f->gems[i + 1], &f->gems[i], (f->ngems - i) * sizeof(*g));
	f->ngems++;
	g = &f->gems[i];
	memset(g, 0, sizeof(*g));
	g->handle = h;
	g->bo = bo;
	*out = g;
	return 0;
}

void gem_remove(struct drm_file *f, uint32_t handle)
{
	unsigned i = gem_index(f, handle);
	if (i < f->ngems && f->gems[i].handle == handle) {
		memmove(&f->gems[i], &f->gems[i + 1], (f->ngems - i - 1) * sizeof(f->gems[0]));
		f->ngems--;
	}
}

void gem_fill_info(struct drm_file *f, const struct gem *g, void *out)
{
	(void)f;
	struct drm_nouveau_gem_info *i = out;
	i->handle = g->handle;
	i->domain = nvc_bo_domain(g->bo) == NVC_VRAM ? NOUVEAU_GEM_DOMAIN_VRAM : NOUVEAU_GEM_DOMAIN_GART;
	i->size = nvc_bo_size(g->bo);
	i->offset = nvc_bo_addr(g->bo);
	i->map_handle = (uint64_t)g->handle << MAP_SHIFT;
	i->tile_mode = g->tile_mode;
	i->tile_flags = g->tile_flags;
}

void *gem_mmap(struct drm_file *f, void *addr, size_t len, int prot, int flags, off_t off)
{
	pthread_mutex_lock(&f->lock);
	struct gem *g = gem_find(f, (uint64_t)off >> MAP_SHIFT);
	uint64_t in = (uint64_t)off & ((1ull << MAP_SHIFT) - 1);
	int fd = g ? nvc_bo_fd(g->bo) : -1;
	uint64_t size = g ? nvc_bo_size(g->bo) : 0;
	pthread_mutex_unlock(&f->lock);
	if (!g || in > size || len > size - in) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	/* A fresh mapping of the buffer's memfd: the caller may munmap it. */
	return real.mmap(addr, len, prot, flags, fd, (off_t)in);
}

static int gem_new(struct drm_file *f, struct drm_nouveau_gem_new *rq)
{
	uint32_t dom = rq->info.domain & (NOUVEAU_GEM_DOMAIN_VRAM | NOUVEAU_GEM_DOMAIN_GART);
	if (!dom)
		dom = NOUVEAU_GEM_DOMAIN_VRAM | NOUVEAU_GEM_DOMAIN_GART;
	if (!rq->info.size)
		return -EINVAL;
	/* Like the pre-NV50 kernel: VRAM when allowed, GART when VRAM is full. */
	struct nvc_bo *bo;
	int r = nvc_bo_new(f->c, rq->info.size, dom & NOUVEAU_GEM_DOMAIN_VRAM ? NVC_VRAM : NVC_GART, &bo);
	if (r < 0 && r != -EDQUOT && r != -EMFILE && (dom & NOUVEAU_GEM_DOMAIN_VRAM) &&
	    (dom & NOUVEAU_GEM_DOMAIN_GART))
		r = nvc_bo_new(f->c, rq->info.size, NVC_GART, &bo);
	if (r < 0)
		return r;
	struct gem *g;
	if ((r = gem_add(f, bo, &g)) < 0) {
		nvc_bo_free(bo);
		return r;
	}
	g->tile_mode = rq->info.tile_mode;
	g->tile_flags = rq->info.tile_flags;
	gem_fill_info(f, g, &rq->info);
	if (shim_debug)
		shim_log("libnvd-drm: GEM_NEW %llu bytes domain %#x -> handle %u %s 0x%llx",
			 (unsigned long long)rq->info.size, dom, g->handle,
			 rq->info.domain == NOUVEAU_GEM_DOMAIN_VRAM ? "VRAM" : "GART",
			 (unsigned long long)rq->info.offset);
	return 0;
}

static int gem_close(struct drm_file *f, struct drm_gem_close *rq)
{
	struct gem *g = gem_find(f, rq->handle);
	if (!g)
		return -EINVAL;
	for (unsigned i = 0; i < FILE_CHANS; i++)
		if (f->chans[i] && f->chans[i]->notify_bo == g->bo)
			f->chans[i]->notify_bo = NULL;
	int r = nvc_bo_free(g->bo);
	gem_remove(f, rq->handle);
	return r;
}

/* A buffer that came from elsewhere (name or fd) joins the file. */
static int gem_adopt(struct drm_file *f, struct nvc_bo *bo, __u32 *handle, __u64 *size)
{
	struct gem *g;
	int r = gem_add(f, bo, &g);
	if (r < 0)
		return r;
	*handle = g->handle;
	if (size)
		*size = nvc_bo_size(bo);
	return 0;
}

int gem_ioctl(struct drm_file *f, unsigned nr, void *arg)
{
	struct nvc_bo *bo;
	struct gem *g;
	int r;

	switch (nr) {
	case DRM_COMMAND_BASE + DRM_NOUVEAU_GEM_NEW:
		return gem_new(f, arg);
	case DRM_COMMAND_BASE + DRM_NOUVEAU_GEM_INFO: {
		struct drm_nouveau_gem_info *i = arg;
		if (!(g = gem_find(f, i->handle)))
			return -ENOENT;
		if ((r = gem_take_error(f, g)) < 0)
			return r;
		/* where nvd has it now: buffers move under memory pressure */
		if ((r = nvc_bo_refresh(g->bo)) < 0)
			return r;
		gem_fill_info(f, g, i);
		return 0;
	}
	case DRM_COMMAND_BASE + DRM_NOUVEAU_GEM_CPU_PREP: {
		struct drm_nouveau_gem_cpu_prep *p = arg;
		if (!(g = gem_find(f, p->handle)))
			return -ENOENT;
		/* Waited for first: nvd has taken every submission before then. */
		r = nvc_bo_wait(g->bo, p->flags & (NOUVEAU_GEM_CPU_PREP_NOWAIT |
						   NOUVEAU_GEM_CPU_PREP_WRITE), -1);
		return r < 0 ? r : gem_take_error(f, g);
	}
	case DRM_COMMAND_BASE + DRM_NOUVEAU_GEM_CPU_FINI:
		return gem_find(f, ((struct drm_nouveau_gem_cpu_fini *)arg)->handle) ? 0 : -ENOENT;
	case _IOC_NR(DRM_IOCTL_GEM_CLOSE):
		return gem_close(f, arg);
	case _IOC_NR(DRM_IOCTL_GEM_FLINK): {   /* not on render nodes, as with the kernel */
		struct drm_gem_flink *fl = arg;
		if (f->node != NODE_PRIMARY)
			return -EACCES;
		if (!(g = gem_find(f, fl->handle)))
			return -ENOENT;
		return nvc_bo_flink(g->bo, &fl->name);
	}
	case _IOC_NR(DRM_IOCTL_GEM_OPEN): {
		struct drm_gem_open *o = arg;
		if (f->node != NODE_PRIMARY)
			return -EACCES;
		if ((r = nvc_bo_open(f->c, o->name, &bo)) < 0)
			return r;
		return gem_adopt(f, bo, &o->handle, &o->size);
	}
	case _IOC_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD): {
		struct drm_prime_handle *p = arg;
		if (p->flags & ~(DRM_CLOEXEC | DRM_RDWR))
			return -EINVAL;
		if (!(g = gem_find(f, p->handle)))
			return -ENOENT;
		int fd = real.fcntl(nvc_bo_fd(g->bo), (p->flags & DRM_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
		if (fd < 0)
			return -errno;
		p->fd = fd;
		return 0;
	}
	case _IOC_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE): {
		struct drm_prime_handle *p = arg;
		if ((r = nvc_bo_import(f->c, p->fd, &bo)) < 0)
			return r;
		return gem_adopt(f, bo, &p->handle, NULL);
	}
	}
	return -ENOTTY;
}
