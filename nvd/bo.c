/* Buffer objects: a memfd each, placed in VRAM or GART by mapping it into
 * the card's window at an address from the range allocator.  The daemon
 * creates and seals the memfd, so a client can neither shrink it under the
 * card nor hand us something else. */
#include "nvd/nvd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BO_ALIGN 4096

static struct nvd_ra *bo_ra(struct nvd *d, unsigned domain)
{
	return domain == NVD_DOMAIN_VRAM ? &d->vram : &d->gart;
}

int nvd_bo_new(struct nvd_client *cl, uint64_t size, unsigned domain, struct nvd_bo **out,
	       char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_bo *bo;
	uint64_t addr;
	int fd, r;

	if (domain != NVD_DOMAIN_VRAM && domain != NVD_DOMAIN_GART) {
		snprintf(why, whylen, "domain %u is neither VRAM (1) nor GART (2)", domain);
		return -EINVAL;
	}
	if (!size || size > bo_ra(d, domain)->size) {
		snprintf(why, whylen, "size %llu is outside 1..%llu", (unsigned long long)size,
			 (unsigned long long)bo_ra(d, domain)->size);
		return size ? -E2BIG : -EINVAL;
	}
	size = (size + BO_ALIGN - 1) & ~(uint64_t)(BO_ALIGN - 1);
	if (cl->vram + cl->gart + size > d->o.quota) {
		snprintf(why, whylen, "client quota of %llu MiB reached",
			 (unsigned long long)(d->o.quota >> 20));
		return -EDQUOT;
	}
	if (cl->nbos >= d->o.max_bos) {
		snprintf(why, whylen, "client limit of %u buffers reached", d->o.max_bos);
		return -EMFILE;
	}
	r = nvd_ra_alloc(bo_ra(d, domain), size, BO_ALIGN, &addr);
	if (r < 0) {
		snprintf(why, whylen, "no room for %llu KiB in %s", (unsigned long long)(size >> 10),
			 domain == NVD_DOMAIN_VRAM ? "VRAM" : "GART");
		return r;
	}
	fd = memfd_create("nvd-bo", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
		r = -errno;
		snprintf(why, whylen, "memfd: %s", strerror(errno));
		goto fail;
	}
	r = d->card->ops->place(d->card, domain == NVD_DOMAIN_GART, addr, size, fd);
	if (r < 0) {
		snprintf(why, whylen, "cannot place the buffer: %s", strerror(-r));
		goto fail;
	}
	/* handle = slot + 1 */
	unsigned slot = 0;
	while (slot < cl->bos_cap && cl->bos[slot])
		slot++;
	if (slot == cl->bos_cap) {
		unsigned cap = cl->bos_cap ? cl->bos_cap * 2 : 64;
		struct nvd_bo **n = realloc(cl->bos, cap * sizeof(*n));
		if (!n) {
			d->card->ops->unplace(d->card, domain == NVD_DOMAIN_GART, addr, size);
			r = -ENOMEM;
			snprintf(why, whylen, "out of memory");
			goto fail;
		}
		memset(n + cl->bos_cap, 0, (cap - cl->bos_cap) * sizeof(*n));
		cl->bos = n;
		cl->bos_cap = cap;
	}
	bo = calloc(1, sizeof(*bo));
	if (!bo) {
		d->card->ops->unplace(d->card, domain == NVD_DOMAIN_GART, addr, size);
		r = -ENOMEM;
		snprintf(why, whylen, "out of memory");
		goto fail;
	}
	bo->refs = 1;
	bo->owner = cl;
	bo->handle = slot + 1;
	bo->domain = domain;
	bo->addr = addr;
	bo->size = size;
	bo->fd = fd;
	bo->map = (domain == NVD_DOMAIN_GART ? d->card->gart : d->card->vram) + addr;
	cl->bos[slot] = bo;
	cl->nbos++;
	if (domain == NVD_DOMAIN_VRAM)
		cl->vram += size;
	else
		cl->gart += size;
	*out = bo;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	nvd_ra_free(bo_ra(d, domain), addr);
	return r;
}

struct nvd_bo *nvd_bo_get(struct nvd_client *cl, uint32_t handle)
{
	if (handle == 0 || handle > cl->bos_cap)
		return NULL;
	return cl->bos[handle - 1];
}

void nvd_bo_ref(struct nvd_bo *bo)
{
	bo->refs++;
}

void nvd_bo_unref(struct nvd *d, struct nvd_bo *bo)
{
	if (--bo->refs)
		return;
	d->card->ops->unplace(d->card, bo->domain == NVD_DOMAIN_GART, bo->addr, bo->size);
	nvd_ra_free(bo_ra(d, bo->domain), bo->addr);
	if (bo->domain == NVD_DOMAIN_VRAM)
		bo->owner->vram -= bo->size;
	else
		bo->owner->gart -= bo->size;
	close(bo->fd);
	free(bo);
}

/* The client lets go of its handle; the memory goes when the card is done. */
int nvd_bo_close(struct nvd_client *cl, uint32_t handle)
{
	struct nvd_bo *bo = nvd_bo_get(cl, handle);
	if (!bo)
		return -ENOENT;
	cl->bos[handle - 1] = NULL;
	cl->nbos--;
	nvd_bo_unref(cl->d, bo);
	return 0;
}
