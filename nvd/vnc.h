/* The live view (nvd --vnc): the heads served over RFB with libvncserver,
 * side by side as one desktop, to viewers that only look. */
#ifndef NVD_VNC_H
#define NVD_VNC_H

#include <stddef.h>

struct nvd;
struct nvd_vnc;

/* Check --vnc [ADDR:]PORT and --vnc-password-file FILE (NULL: none) and
 * read the password: NULL with why when they are bad usage (an address
 * other than loopback wants a password).  Nothing is opened yet. */
struct nvd_vnc *nvd_vnc_new(const char *listen, const char *password_file, char *why,
			    size_t whylen);
/* Listen and serve d's heads from a thread of the live view's own; the
 * heads' registers are read on d's loop.  0, or -errno with why. */
int nvd_vnc_start(struct nvd_vnc *v, struct nvd *d, char *why, size_t whylen);
/* Stop (viewers are disconnected) and free; NULL is fine. */
void nvd_vnc_free(struct nvd_vnc *v);

#endif
