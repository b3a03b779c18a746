/* vnc.h without libvncserver (not installed at build time, and the
 * big-endian cross build): no live view, --vnc is refused. */
#include "nvd/vnc.h"

#include <errno.h>
#include <stdio.h>

struct nvd_vnc *nvd_vnc_new(const char *listen, const char *password_file, char *why,
			    size_t whylen)
{
	(void)listen;
	(void)password_file;
	snprintf(why, whylen, "--vnc: this nvd was built without libvncserver");
	return NULL;
}

int nvd_vnc_start(struct nvd_vnc *v, struct nvd *d, char *why, size_t whylen)
{
	(void)v;
	(void)d;
	snprintf(why, whylen, "VNC: built without libvncserver");
	return -ENOSYS;
}

void nvd_vnc_free(struct nvd_vnc *v)
{
	(void)v;
}
