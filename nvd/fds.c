/* Descriptors clients send (SCM_RIGHTS) can be anything.  On a FUSE file
 * fstat and close block until the file system's server answers (GETATTR,
 * FLUSH), and the server may be the client; other kinds block in close too
 * (a TCP socket lingering).  The loop never makes such a call: F_GET_SEALS
 * tells a memfd (shmem or hugetlbfs, which nvd's buffers are) without
 * asking any file system, so only memfds are looked at or closed here;
 * every other descriptor goes to a thread of its own that closes them, for
 * as long as each close takes.  The thread touches nothing of the daemon's
 * but its queue. */
#include "nvd/nvd.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t closer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t closer_cond = PTHREAD_COND_INITIALIZER;
static int *closer_queue;
static unsigned closer_len, closer_cap;
static int closer_started;

int nvd_fd_is_memfd(int fd)
{
	return fcntl(fd, F_GET_SEALS) >= 0;
}

static void *closer_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&closer_lock);
	for (;;) {
		while (!closer_len)
			pthread_cond_wait(&closer_cond, &closer_lock);
		int fd = closer_queue[--closer_len];
		pthread_mutex_unlock(&closer_lock);
		close(fd);
		pthread_mutex_lock(&closer_lock);
	}
	return NULL;
}

/* Signals stay with the loop's thread (SIGTERM ends nvd there). */
static int closer_start(void)
{
	sigset_t all, old;
	pthread_t t;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int r = pthread_create(&t, NULL, closer_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r)
		return -r;
	pthread_detach(t);
	return 0;
}

void nvd_fd_release(int fd)
{
	if (fd < 0)
		return;
	if (nvd_fd_is_memfd(fd)) {
		close(fd);   /* shmem has no flush: this cannot wait */
		return;
	}
	pthread_mutex_lock(&closer_lock);
	int r = closer_started ? 0 : closer_start();
	closer_started |= r == 0;
	if (!r && closer_len == closer_cap) {
		unsigned cap = closer_cap ? closer_cap * 2 : 64;
		int *q = realloc(closer_queue, cap * sizeof(*q));
		if (q) {
			closer_queue = q;
			closer_cap = cap;
		} else {
			r = -ENOMEM;
		}
	}
	if (!r) {
		closer_queue[closer_len++] = fd;
		pthread_cond_signal(&closer_cond);
	}
	pthread_mutex_unlock(&closer_lock);
	if (r)   /* kept open rather than risk the loop */
		nvd_log(0, "cannot hand descriptor %d to the closing thread: %s; it stays open", fd,
			strerror(-r));
}
