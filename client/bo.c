/* Buffer objects: memfds the daemon allocates and places in VRAM or GART. */
#include "client/priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int nvc_bo_new(struct nvc *c, uint64_t size, unsigned domain, struct nvc_bo **out)
{
	struct nvd_req_bo_new rq = { .size = size, .domain = domain };
	struct nvd_rep_bo_new r;
	struct nvc_bo *bo;
	int fd, ret;

	*out = NULL;
	if (domain != NVC_VRAM && domain != NVC_GART)
		return nvc_fail(-EINVAL, "nvc_bo_new: domain must be NVC_VRAM or NVC_GART");
	bo = calloc(1, sizeof(*bo));
	if (!bo)
		return nvc_fail(-ENOMEM, "out of memory");
	ret = nvc_call(c, NVD_MSG_BO_NEW, &rq, &r, &fd);
	if (ret < 0) {
		free(bo);
		return ret;
	}
	bo->c = c;
	bo->handle = r.handle;
	bo->domain = r.domain;
	bo->addr = r.addr;
	bo->size = r.size;
	bo->fd = fd;
	pthread_mutex_lock(&c->lock);
	bo->next = c->bos;
	c->bos = bo;
	pthread_mutex_unlock(&c->lock);
	*out = bo;
	return 0;
}

int nvc_bo_free(struct nvc_bo *bo)
{
	struct nvc *c;
	struct nvd_req_bo_free rq;
	struct nvd_rep_none r;
	int ret;

	if (!bo)
		return 0;
	c = bo->c;
	rq.handle = bo->handle;
	ret = nvc_call(c, NVD_MSG_BO_FREE, &rq, &r, NULL);
	pthread_mutex_lock(&c->lock);
	for (struct nvc_bo **p = &c->bos; *p; p = &(*p)->next)
		if (*p == bo) {
			*p = bo->next;
			break;
		}
	pthread_mutex_unlock(&c->lock);
	if (bo->map)
		munmap(bo->map, bo->size);
	close(bo->fd);
	free(bo);
	return ret;
}

void *nvc_bo_map(struct nvc_bo *bo)
{
	pthread_mutex_lock(&bo->c->lock);
	if (!bo->map) {
		void *p = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, bo->fd, 0);
		if (p == MAP_FAILED)
			nvc_fail(-errno, "nvc_bo_map: %s", strerror(errno));
		else
			bo->map = p;
	}
	void *m = bo->map;
	pthread_mutex_unlock(&bo->c->lock);
	return m;
}

uint32_t nvc_bo_handle(const struct nvc_bo *bo) { return bo->handle; }
unsigned nvc_bo_domain(const struct nvc_bo *bo) { return bo->domain; }
uint64_t nvc_bo_addr(const struct nvc_bo *bo) { return bo->addr; }
uint64_t nvc_bo_size(const struct nvc_bo *bo) { return bo->size; }
