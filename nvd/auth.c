/* DRM-style master and magic authentication: the master (the X server)
 * vouches for the clients it hands buffer names to. */
#include "nvd/nvd.h"

#include <errno.h>
#include <stdio.h>
#include <sys/random.h>

/* A random non-zero 32-bit value; 0 when the kernel gives none. */
uint32_t nvd_random_u32(void)
{
	uint32_t v = 0;
	for (int tries = 0; tries < 16 && !v; tries++)
		if (getrandom(&v, sizeof(v), 0) != sizeof(v))
			v = 0;
	return v;
}

int nvd_authenticated(const struct nvd_client *cl)
{
	return cl->authenticated || cl->d->master == cl;
}

/* DRM's rules since Linux 5.8 (drm_auth.c): dropping master does not hand
 * it to whoever asks next.  While a client that has been master is
 * connected (DRM's was_master), only such a client may be master again, or
 * a privileged one: DRM's CAP_SYS_ADMIN is uid 0 here (nvd's own user is no
 * better than any other: nvd often runs as the desktop's user, as every
 * client then does).  With none (none yet, or all gone) the first to ask
 * is master, as the first opener of a primary node is in DRM. */
int nvd_set_master(struct nvd_client *cl, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	if (d->master == cl)
		return 0;
	if (d->master) {
		snprintf(why, whylen, "client %u (%s) is the master", d->master->id, d->master->name);
		return -EBUSY;
	}
	if (d->former_masters && !cl->was_master && cl->uid != 0) {
		snprintf(why, whylen, "master was dropped by a client still connected: only a client "
			 "that has been master, or root, may take it");
		return -EACCES;
	}
	nvd_clog(cl, NULL, "is the master");
	d->master = cl;
	if (!cl->was_master) {
		cl->was_master = 1;
		d->former_masters++;
	}
	return 0;
}

int nvd_drop_master(struct nvd_client *cl, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	if (d->master != cl) {
		snprintf(why, whylen, "not the master");
		return -EINVAL;
	}
	d->master = NULL;
	nvd_clog(cl, NULL, "is no longer the master");
	return 0;
}

static struct nvd_client *find_magic(struct nvd *d, uint32_t magic)
{
	if (!magic)
		return NULL;
	for (struct nvd_client *c = d->clients; c; c = c->next)
		if (c->magic == magic)
			return c;
	return NULL;
}

int nvd_get_magic(struct nvd_client *cl, uint32_t *magic, char *why, size_t whylen)
{
	for (int tries = 0; tries < 64 && !cl->magic; tries++) {
		uint32_t m = nvd_random_u32();
		if (!find_magic(cl->d, m))
			cl->magic = m;
	}
	if (!cl->magic) {
		snprintf(why, whylen, "no random magic available");
		return -EIO;
	}
	*magic = cl->magic;
	return 0;
}

int nvd_auth_magic(struct nvd_client *cl, uint32_t magic, char *why, size_t whylen)
{
	if (cl->d->master != cl) {
		snprintf(why, whylen, "only the master authenticates");
		return -EACCES;
	}
	struct nvd_client *c = find_magic(cl->d, magic);
	if (!c) {
		snprintf(why, whylen, "no client has magic 0x%08x", magic);
		return -ENOENT;
	}
	if (!c->authenticated)
		nvd_clog(cl, NULL, "authenticated client %u (%s)", c->id, c->name);
	c->authenticated = 1;
	return 0;
}

void nvd_auth_client_gone(struct nvd_client *cl)
{
	struct nvd *d = cl->d;
	if (d->master == cl)
		d->master = NULL;
	if (cl->was_master)
		d->former_masters--;     /* with the last of them, master is free for the asking */
}
