/* DRM files.  Each open() of a node is a file with its own nvd connection,
 * exactly as each open of a kernel DRM node is a struct drm_file with its
 * own GEM handles.  dup'd fds share the file; it ends with its last fd.
 * The fd itself is a real fd (event.c: a primary node's carries its
 * events, a render node's is an eventfd that never becomes readable), so
 * fd numbers, O_CLOEXEC, dup, kcmp and poll behave as for a device.
 *
 * After fork() the child inherits the fds but must not speak on the
 * parent's connection: its copies become inert (ioctls fail with EIO, close
 * is silent) and it lets go of the connection's sockets at once, so the
 * daemon still sees the parent alone.  A new open() in the child works. */
#include "glx/shim.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FD_MAX 65536

static struct drm_file *fdtab[FD_MAX];
static pthread_mutex_t tab_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

void shim_log(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	(void)!write(2, buf, n);
}

static void fork_prepare(void) { pthread_mutex_lock(&tab_lock); }
static void fork_parent(void) { pthread_mutex_unlock(&tab_lock); }

static void fork_child(void)
{
	pthread_mutex_init(&tab_lock, NULL);
	lost_fork_child();
	for (unsigned fd = 0; fd < FD_MAX; fd++) {
		struct drm_file *f = fdtab[fd];
		if (f && f->c) {
			nvc_abandon(f->c);   /* the parent's; nothing is sent */
			f->c = NULL;
		}
	}
}

static void fork_init(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static const char *progname(void)
{
	extern char *program_invocation_short_name;
	return program_invocation_short_name ? program_invocation_short_name : "gl";
}

int file_open(enum node_kind node, struct drm_file **out)
{
	pthread_once(&fork_once, fork_init);
	struct drm_file *f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	pthread_mutex_init(&f->lock, NULL);
	f->node = node;
	f->pid = getpid();
	int r = nvc_connect(NULL, progname(), &f->c);
	if (r == 0)
		r = nvc_info(f->c, &f->info);
	if (r < 0) {
		shim_log("libnvd-drm: cannot open the nvd device: %s", nvc_error());
		if (f->c)
			nvc_close(f->c);
		free(f);
		return r;
	}
	/* The first opener of a primary node becomes the DRM master, as with
	 * the kernel; on -EBUSY someone else is, on -EACCES someone dropped it
	 * and may take it back. */
	if (node == NODE_PRIMARY)
		f->master = nvc_set_master(f->c) == 0;
	lost_watch(f);
	*out = f;
	return 0;
}

static void file_free(struct drm_file *f)
{
	if (f->c && f->pid == getpid()) {
		/* Mesa's DRI2 loader closes the node right after a failed
		 * authentication and renders in software: never silently. */
		if (f->magic_last)
			shim_log("libnvd-drm: the X server did not authenticate this program with nvd "
				 "(DRI2): GL falls back to software rendering, not the NV4x");
		lost_unwatch(f);
		for (unsigned i = 0; i < FILE_CHANS; i++)
			if (f->chans[i]) {
				lost_pending_free(f->chans[i]);
				free(f->chans[i]);
			}
		nvc_close(f->c);    /* frees every buffer, channel and framebuffer */
		free(f->gems);
		free(f->fbs);
		pthread_mutex_destroy(&f->lock);
		free(f);
	}
	/* In a forked child the parent's structures may be mid-update by a
	 * thread that no longer exists: leave them. */
}

int file_bind(int fd, struct drm_file *f)
{
	if (fd < 0 || fd >= FD_MAX)
		return -EMFILE;
	pthread_mutex_lock(&tab_lock);
	struct drm_file *old = fdtab[fd];
	fdtab[fd] = f;
	f->refs++;
	int last = old && --old->refs == 0;
	pthread_mutex_unlock(&tab_lock);
	if (last)
		file_free(old);
	return 0;
}

struct drm_file *file_get(int fd)
{
	if (fd < 0 || fd >= FD_MAX)
		return NULL;
	pthread_mutex_lock(&tab_lock);
	struct drm_file *f = fdtab[fd];
	if (f)
		f->refs++;
	pthread_mutex_unlock(&tab_lock);
	return f;
}

int file_is_ours(int fd)
{
	if (fd < 0 || fd >= FD_MAX)
		return 0;
	pthread_mutex_lock(&tab_lock);
	int r = fdtab[fd] != NULL;
	pthread_mutex_unlock(&tab_lock);
	return r;
}

void file_put(struct drm_file *f)
{
	pthread_mutex_lock(&tab_lock);
	int last = --f->refs == 0;
	pthread_mutex_unlock(&tab_lock);
	if (last)
		file_free(f);
}

void file_unbind(int fd)
{
	if (fd < 0 || fd >= FD_MAX)
		return;
	pthread_mutex_lock(&tab_lock);
	struct drm_file *f = fdtab[fd];
	fdtab[fd] = NULL;
	int last = f && --f->refs == 0;
	pthread_mutex_unlock(&tab_lock);
	if (last)
		file_free(f);
}
