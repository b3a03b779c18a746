/* Buffer objects: memfds the daemon allocates and places in VRAM or GART;
 * sharing them by name or fd, and waiting for the card to be done with them. */
#include "client/priv.h"

#include <errno.h>
#include <fcntl.h>
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

int nvc_bo_refresh(struct nvc_bo *bo)
{
	struct nvd_req_bo_info rq = { bo->handle };
	struct nvd_rep_bo_info r;
	int ret = nvc_call(bo->c, NVD_MSG_BO_INFO, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	int moved = r.domain != bo->domain || r.addr != bo->addr;
	bo->domain = r.domain;
	bo->addr = r.addr;
	return moved;
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

_Static_assert(NVC_VRAM == (int)NVD_DOMAIN_VRAM && NVC_GART == (int)NVD_DOMAIN_GART &&
	       NVC_HOST == (int)NVD_DOMAIN_HOST, "libnvd's domains are the protocol's");
_Static_assert(NVC_WAIT_NOWAIT == NVD_WAIT_NOWAIT && NVC_WAIT_WRITE == NVD_WAIT_WRITE,
	       "libnvd's wait flags are the protocol's");

/* OPEN and IMPORT: the connection's buffer for the reply's handle, the one
 * it has if the daemon gave back a handle already held. */
static int bo_adopt(struct nvc *c, const struct nvd_rep_bo_new *r, int fd, struct nvc_bo **out)
{
	struct nvc_bo *bo;
	pthread_mutex_lock(&c->lock);
	for (bo = c->bos; bo; bo = bo->next)
		if (bo->handle == r->handle)
			break;
	if (bo) {
		pthread_mutex_unlock(&c->lock);
		close(fd);
		*out = bo;
		return 0;
	}
	bo = calloc(1, sizeof(*bo));
	if (!bo) {
		pthread_mutex_unlock(&c->lock);
		close(fd);
		struct nvd_req_bo_free f = { r->handle };
		struct nvd_rep_none n;
		nvc_call(c, NVD_MSG_BO_FREE, &f, &n, NULL);
		return nvc_fail(-ENOMEM, "out of memory");
	}
	bo->c = c;
	bo->handle = r->handle;
	bo->domain = r->domain;
	bo->addr = r->addr;
	bo->size = r->size;
	bo->fd = fd;
	bo->next = c->bos;
	c->bos = bo;
	pthread_mutex_unlock(&c->lock);
	*out = bo;
	return 0;
}

int nvc_bo_fd(const struct nvc_bo *bo) { return bo->fd; }

int nvc_bo_flink(struct nvc_bo *bo, uint32_t *name)
{
	struct nvd_req_bo_flink rq = { bo->handle };
	struct nvd_rep_bo_flink r;
	int ret = nvc_call(bo->c, NVD_MSG_BO_FLINK, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	*name = r.name;
	return 0;
}

int nvc_bo_open(struct nvc *c, uint32_t name, struct nvc_bo **out)
{
	struct nvd_req_bo_open rq = { name };
	struct nvd_rep_bo_new r;
	int fd;

	*out = NULL;
	int ret = nvc_call(c, NVD_MSG_BO_OPEN, &rq, &r, &fd);
	return ret < 0 ? ret : bo_adopt(c, &r, fd, out);
}

int nvc_bo_import(struct nvc *c, int fd, struct nvc_bo **out)
{
	struct nvd_req_bo_import rq = { 0 };
	struct nvd_rep_bo_new r;
	int bo_fd;

	*out = NULL;
	if (fd < 0 || fcntl(fd, F_GETFD) < 0)
		return nvc_fail(-EINVAL, "nvc_bo_import: %d is not an open file descriptor", fd);
	int ret = nvc_call_fd(c, NVD_MSG_BO_IMPORT, &rq, &r, &bo_fd, fd);
	return ret < 0 ? ret : bo_adopt(c, &r, bo_fd, out);
}

int nvc_bo_wait(struct nvc_bo *bo, unsigned flags, int64_t timeout_ns)
{
	struct nvd_req_bo_wait rq = { bo->handle, flags, timeout_ns };
	struct nvd_rep_none r;
	if (flags & ~(unsigned)(NVC_WAIT_NOWAIT | NVC_WAIT_WRITE))
		return nvc_fail(-EINVAL, "nvc_bo_wait: unknown flags 0x%x", flags);
	return nvc_call(bo->c, NVD_MSG_BO_WAIT, &rq, &r, NULL);
}

int nvc_set_master(struct nvc *c)
{
	struct nvd_req_none rq = { 0 };
	struct nvd_rep_none r;
	return nvc_call(c, NVD_MSG_SET_MASTER, &rq, &r, NULL);
}

int nvc_drop_master(struct nvc *c)
{
	struct nvd_req_none rq = { 0 };
	struct nvd_rep_none r;
	return nvc_call(c, NVD_MSG_DROP_MASTER, &rq, &r, NULL);
}

int nvc_get_magic(struct nvc *c, uint32_t *magic)
{
	struct nvd_req_none rq = { 0 };
	struct nvd_rep_magic r;
	int ret = nvc_call(c, NVD_MSG_GET_MAGIC, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	*magic = r.magic;
	return 0;
}

int nvc_auth_magic(struct nvc *c, uint32_t magic)
{
	struct nvd_req_auth_magic rq = { magic };
	struct nvd_rep_none r;
	return nvc_call(c, NVD_MSG_AUTH_MAGIC, &rq, &r, NULL);
}

uint32_t nvc_bo_handle(const struct nvc_bo *bo) { return bo->handle; }
unsigned nvc_bo_domain(const struct nvc_bo *bo) { return bo->domain; }
uint64_t nvc_bo_addr(const struct nvc_bo *bo) { return bo->addr; }
uint64_t nvc_bo_size(const struct nvc_bo *bo) { return bo->size; }
