/* Buffers shared between clients, as the nouveau kernel shares them for
 * Mesa: global flink names (opened only by authenticated clients, auth.c)
 * and import by the buffer's memfd (PRIME). */
#include "nvd/nvd.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

int nvd_bo_flink(struct nvd_client *cl, uint32_t handle, uint32_t *name, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_bo *bo = nvd_bo_get(cl, handle);
	if (!bo) {
		snprintf(why, whylen, "no buffer %u", handle);
		return -ENOENT;
	}
	if (!bo->name) {
		uint32_t n = 0;
		for (int tries = 0; tries < 64 && !n; tries++) {
			n = nvd_random_u32();
			if (nvd_bo_find_name(d, n))
				n = 0;
		}
		if (!n) {
			snprintf(why, whylen, "no random name available");
			return -EIO;
		}
		bo->name = n;
		if (nvd_bo_hash_add(&d->names, bo, 1) < 0) {
			bo->name = 0;
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
		nvd_clog(cl, NULL, "buffer %u named 0x%08x", handle, n);
	}
	*name = bo->name;
	return 0;
}

int nvd_bo_open_name(struct nvd_client *cl, uint32_t name, struct nvd_bo **out, uint32_t *handle,
		     char *why, size_t whylen)
{
	/* Authentication first: the unauthenticated learn nothing about names. */
	if (!nvd_authenticated(cl)) {
		snprintf(why, whylen, "not authenticated: opening buffers by name needs the "
			 "master's AUTH_MAGIC");
		return -EACCES;
	}
	struct nvd_bo *bo = nvd_bo_find_name(cl->d, name);
	if (!bo) {
		snprintf(why, whylen, "no buffer is named 0x%08x", name);
		return -ENOENT;
	}
	int r = nvd_bo_hold(cl, bo, handle, why, whylen);
	if (r == 0)
		*out = bo;
	return r;
}

int nvd_bo_import(struct nvd_client *cl, int fd, struct nvd_bo **out, uint32_t *handle,
		  char *why, size_t whylen)
{
	struct stat st;
	/* Only a memfd is looked at: fstat on a client's FUSE file would wait
	 * for its server (nvd's buffers are memfds). */
	int r = nvd_fd_is_memfd(fd) ? fstat(fd, &st) : -1;
	nvd_fd_release(fd);
	if (r < 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "the file descriptor is not an nvd buffer");
		return -EINVAL;
	}
	struct nvd_bo *bo = nvd_bo_find_ino(cl->d, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
	if (!bo) {
		snprintf(why, whylen, "the file descriptor is not an nvd buffer");
		return -EINVAL;
	}
	r = nvd_bo_hold(cl, bo, handle, why, whylen);
	if (r == 0)
		*out = bo;
	return r;
}
