/* nvt-vc: a client whose 2D state (surface format, pitch, colour format)
 * is set once, in its first submission, and which then draws fills and
 * blits with it, each applied to the CPU shadow: a channel context
 * restored wrongly shows as wrong bytes.  For the virtual channel tests
 * and bench/sched. */
#ifndef NVT_VC_H
#define NVT_VC_H

#include "tests/lib/nvt.h"

struct nvt_vc {
	struct nvc *c;
	struct nvc_chan *ch;
	struct nvt_push p;
	struct nvt_buf buf;
	struct nvt_surf s;
	uint32_t rng;
};

/* Connect as name, open a channel with the standard objects and a surface
 * whose format, size and colour format follow index (neighbours differ);
 * the state is written, not submitted.  0 or -errno. */
int nvt_vc_open(struct nvt_vc *x, const char *sock, const char *name, unsigned index);
/* n random fills, each followed by a blit of it, submitted (not waited). */
int nvt_vc_draw(struct nvt_vc *x, unsigned n);

#endif
