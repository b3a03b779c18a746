/* A forked child's copy of a connection. */
#include "client/priv.h"

#include <unistd.h>

/* In the child: close this process's copies of the connection's socket and
 * channel fds without a word to the daemon, which goes on serving the
 * parent.  The structures are left as they are (another thread of the
 * parent may have been changing them when fork() copied them). */
void nvc_abandon(struct nvc *c)
{
	for (struct nvc_chan *ch = c->chans; ch; ch = ch->next) {
		close(ch->ring_fd);
		close(ch->fence_fd);
		close(ch->doorbell);
		close(ch->fence_ev);
	}
	for (struct nvc_bo *bo = c->bos; bo; bo = bo->next)
		close(bo->fd);
	if (c->disp_events >= 0)
		close(c->disp_events);
	close(c->sock);
}
