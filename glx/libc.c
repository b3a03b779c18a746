/* The interposed libc calls.  Each classifies its path or fd and passes
 * anything not ours to libc untouched. */
#undef _FORTIFY_SOURCE
#include "glx/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* Which of our paths this is; relative paths are never ours (Mesa and
 * libdrm name devices and sysfs absolutely). */
static enum path_kind classify(const char *path, enum node_kind *node)
{
	*node = NODE_NONE;
	return path && path[0] == '/' ? node_path(path, node) : PATH_OTHER;
}

static int fail(int err)
{
	errno = err;
	return -1;
}

/* A read-only fd holding a fake sysfs file (Mesa's loader reads vendor and
 * device ids with open+read). */
static int open_sysfile(const char *path, int flags)
{
	size_t len;
	const char *data = node_file(path, &len);
	if (!data)
		return fail(ENOENT);
	if ((flags & O_ACCMODE) != O_RDONLY)
		return fail(EACCES);
	int fd = memfd_create("nvd-sysfs", (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
	if (fd < 0)
		return -1;
	if (write(fd, data, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) != 0) {
		int e = errno;
		real.close(fd);
		return fail(e ? e : EIO);
	}
	return fd;
}

static int open_node(enum node_kind node, int flags)
{
	struct drm_file *f;
	int r = file_open(node, &f);
	if (r < 0)
		return fail(r == -ENOENT || r == -ECONNREFUSED ? ENODEV : -r);
	int fd = event_fd_new(f, flags);
	if (fd < 0) {
		int e = errno;
		f->refs = 1;
		file_put(f);
		return fail(e);
	}
	r = file_bind(fd, f);
	if (r < 0) {
		real.close(fd);
		f->refs = 1;
		file_put(f);
		return fail(-r);
	}
	if (shim_debug)
		shim_log("libnvd-drm: open %s node -> fd %d", node == NODE_RENDER ? "render" : "primary", fd);
	return fd;
}

static int do_open(int dirfd, const char *path, int flags, mode_t mode, int at)
{
	shim_init();
	enum node_kind node;
	enum path_kind k = classify(path, &node);
	switch (k) {
	case PATH_NODE:
		return open_node(node, flags);
	case PATH_SYS_FILE:
		return open_sysfile(path, flags);
	case PATH_OTHER:
		break;
	default:
		return fail(EACCES);   /* our directories and links are not opened as files */
	}
	return at ? real.openat(dirfd, path, flags, mode) : real.open(path, flags, mode);
}

#define OPEN_MODE(flags) ({ mode_t m_ = 0; \
	if ((flags) & (O_CREAT | __O_TMPFILE)) { va_list ap; va_start(ap, flags); \
	m_ = va_arg(ap, mode_t); va_end(ap); } m_; })

int open(const char *path, int flags, ...) { return do_open(AT_FDCWD, path, flags, OPEN_MODE(flags), 0); }
int open64(const char *path, int flags, ...) { return do_open(AT_FDCWD, path, flags, OPEN_MODE(flags), 0); }
int __open_2(const char *path, int flags) { return do_open(AT_FDCWD, path, flags, 0, 0); }
int __open64_2(const char *path, int flags) { return do_open(AT_FDCWD, path, flags, 0, 0); }
int openat(int d, const char *path, int flags, ...) { return do_open(d, path, flags, OPEN_MODE(flags), 1); }
int openat64(int d, const char *path, int flags, ...) { return do_open(d, path, flags, OPEN_MODE(flags), 1); }
int __openat_2(int d, const char *path, int flags) { return do_open(d, path, flags, 0, 1); }
int __openat64_2(int d, const char *path, int flags) { return do_open(d, path, flags, 0, 1); }

int close(int fd)
{
	shim_init();
	if (file_is_ours(fd))
		file_unbind(fd);
	return real.close(fd);
}

/* new is a copy of old: it names old's file, if any. */
static int dup_result(int old, int fd)
{
	if (fd < 0)
		return fd;
	struct drm_file *f = file_get(old);
	if (f) {
		int r = file_bind(fd, f);
		file_put(f);
		if (r < 0) {
			real.close(fd);
			return fail(-r);
		}
	}
	return fd;
}

int dup(int fd)
{
	shim_init();
	return dup_result(fd, real.dup(fd));
}

int dup2(int old, int new)
{
	shim_init();
	if (old != new && file_is_ours(new))
		file_unbind(new);
	int r = real.dup2(old, new);
	return old == new ? r : dup_result(old, r);
}

int dup3(int old, int new, int flags)
{
	shim_init();
	if (old != new && file_is_ours(new))
		file_unbind(new);
	return dup_result(old, real.dup3(old, new, flags));
}

static int do_fcntl(int fd, int cmd, va_list ap)
{
	shim_init();
	/* Every fcntl argument is an int or a pointer; pass the word on. */
	uintptr_t arg = va_arg(ap, uintptr_t);
	int r = real.fcntl(fd, cmd, arg);
	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		return dup_result(fd, r);
	return r;
}

int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	int r = do_fcntl(fd, cmd, ap);
	va_end(ap);
	return r;
}

int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	int r = do_fcntl(fd, cmd, ap);
	va_end(ap);
	return r;
}

/* Mesa's nouveau waits for a fence by reading it in memory with a
 * sched_yield every eighth look (nouveau_fence_wait).  nvd's card is
 * simulated on the same CPUs, so that spin takes a core from it: a yield
 * while this process has work on nvd sleeps until some of it completes,
 * a millisecond at most. */
int sched_yield(void)
{
	shim_init();
	return lost_yield(1000000) ? 0 : real.sched_yield();
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	shim_init();
	struct drm_file *f = file_get(fd);
	if (!f)
		return real.ioctl(fd, req, arg);
	int r = f->c ? shim_ioctl(f, req, arg) : -EIO;
	file_put(f);
	return r < 0 ? fail(-r) : r;
}

/* A primary node's events (event.c); any other read is libc's. */
ssize_t read(int fd, void *buf, size_t len)
{
	shim_init();
	struct drm_file *f = file_get(fd);
	if (!f)
		return real.read(fd, buf, len);
	ssize_t r;
	if (f->node != NODE_PRIMARY)
		r = real.read(fd, buf, len);
	else if (f->c)
		r = event_read(f, fd, buf, len);
	else
		r = fail(EIO);
	file_put(f);
	return r;
}

extern void __chk_fail(void) __attribute__((noreturn));
ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen)
{
	if (len > buflen)
		__chk_fail();    /* what glibc's own does */
	return read(fd, buf, len);
}

static void *do_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	shim_init();
	struct drm_file *f = file_get(fd);
	if (!f)
		return real.mmap(addr, len, prot, flags, fd, off);
	void *p = f->c ? gem_mmap(f, addr, len, prot, flags, off) : (errno = EIO, MAP_FAILED);
	file_put(f);
	return p;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return do_mmap(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return do_mmap(addr, len, prot, flags, fd, off);
}

/* ---- stat family ---- */

static int fake_stat(const char *path, struct stat *st, int *handled)
{
	enum node_kind node;
	enum path_kind k = classify(path, &node);
	*handled = k != PATH_OTHER;
	if (*handled)
		node_stat(k, node, st);
	return 0;
}

static int do_stat(const char *path, struct stat *st, int follow)
{
	int handled;
	shim_init();
	fake_stat(path, st, &handled);
	if (handled)
		return 0;
	return follow ? real.stat(path, st) : real.lstat(path, st);
}

static int do_fstat(int fd, struct stat *st)
{
	shim_init();
	struct drm_file *f = file_get(fd);
	if (!f)
		return real.fstat(fd, st);
	node_stat(PATH_NODE, f->node, st);
	file_put(f);
	return 0;
}

static int do_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	shim_init();
	if (path && !path[0] && (flags & AT_EMPTY_PATH) && file_is_ours(dirfd))
		return do_fstat(dirfd, st);
	int handled;
	fake_stat(path, st, &handled);
	return handled ? 0 : real.fstatat(dirfd, path, st, flags);
}

int stat(const char *p, struct stat *st) { return do_stat(p, st, 1); }
int stat64(const char *p, struct stat64 *st) { return do_stat(p, (struct stat *)st, 1); }
int lstat(const char *p, struct stat *st) { return do_stat(p, st, 0); }
int lstat64(const char *p, struct stat64 *st) { return do_stat(p, (struct stat *)st, 0); }
int fstat(int fd, struct stat *st) { return do_fstat(fd, st); }
int fstat64(int fd, struct stat64 *st) { return do_fstat(fd, (struct stat *)st); }
int fstatat(int d, const char *p, struct stat *st, int fl) { return do_fstatat(d, p, st, fl); }
int fstatat64(int d, const char *p, struct stat64 *st, int fl)
{
	return do_fstatat(d, p, (struct stat *)st, fl);
}
_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "stat64 is stat on this ABI");

int access(const char *path, int mode)
{
	shim_init();
	enum node_kind node;
	enum path_kind k = classify(path, &node);
	if (k == PATH_OTHER)
		return real.access(path, mode);
	if ((mode & X_OK) && k != PATH_DRI_DIR && k != PATH_SYS_DIR)
		return fail(EACCES);
	if ((mode & W_OK) && k != PATH_NODE)
		return fail(EACCES);
	return 0;
}

/* ---- directories: /dev/dri gains our nodes, first; sysfs dirs are ours ---- */

struct fakedir {
	struct fakedir *next;
	DIR *real;                       /* the real /dev/dri, or NULL */
	const char *const *ents;
	unsigned pos;
	struct dirent de;
};
static struct fakedir *dirs;
static pthread_mutex_t dir_lock = PTHREAD_MUTEX_INITIALIZER;

static struct fakedir *dir_find(DIR *d, int unlink)
{
	pthread_mutex_lock(&dir_lock);
	struct fakedir **pp = &dirs, *fd;
	while ((fd = *pp) && (DIR *)fd != d && fd->real != d)
		pp = &fd->next;
	if (fd && unlink)
		*pp = fd->next;
	pthread_mutex_unlock(&dir_lock);
	return fd;
}

DIR *opendir(const char *path)
{
	shim_init();
	enum node_kind node;
	enum path_kind k = classify(path, &node);
	const char *const *ents = k != PATH_OTHER || !strcmp(path, "/dev/dri") ? node_dir(path) : NULL;
	if (k != PATH_DRI_DIR && k != PATH_SYS_DIR && !ents)
		return real.opendir(path);
	struct fakedir *fd = calloc(1, sizeof(*fd));
	if (!fd)
		return NULL;
	fd->ents = ents;
	if (k == PATH_OTHER) {   /* a real /dev/dri */
		fd->real = real.opendir(path);
		if (!fd->real) {
			free(fd);
			return NULL;
		}
	}
	pthread_mutex_lock(&dir_lock);
	fd->next = dirs;
	dirs = fd;
	pthread_mutex_unlock(&dir_lock);
	return fd->real ? fd->real : (DIR *)fd;
}

static struct dirent *do_readdir(DIR *d)
{
	shim_init();
	struct fakedir *fd = dir_find(d, 0);
	if (!fd)
		return real.readdir(d);
	if (fd->ents && fd->ents[fd->pos]) {
		memset(&fd->de, 0, sizeof(fd->de));
		fd->de.d_ino = 0x4e56d000u + fd->pos;
		fd->de.d_reclen = sizeof(fd->de);
		fd->de.d_type = fd->real ? DT_CHR : DT_DIR;
		snprintf(fd->de.d_name, sizeof(fd->de.d_name), "%s", fd->ents[fd->pos++]);
		return &fd->de;
	}
	return fd->real ? real.readdir(fd->real) : NULL;
}

struct dirent *readdir(DIR *d) { return do_readdir(d); }
struct dirent64 *readdir64(DIR *d) { return (struct dirent64 *)do_readdir(d); }
_Static_assert(sizeof(struct dirent) == sizeof(struct dirent64), "dirent64 is dirent on this ABI");

int closedir(DIR *d)
{
	shim_init();
	struct fakedir *fd = dir_find(d, 1);
	if (!fd)
		return real.closedir(d);
	int r = fd->real ? real.closedir(fd->real) : 0;
	free(fd);
	return r;
}

/* ---- links and paths ---- */

ssize_t readlink(const char *path, char *buf, size_t len)
{
	shim_init();
	enum node_kind node;
	enum path_kind k = classify(path, &node);
	if (k == PATH_OTHER)
		return real.readlink(path, buf, len);
	if (k != PATH_SYS_LINK)
		return fail(EINVAL);
	size_t n = strlen(node_subsystem_link);
	if (n > len)
		n = len;
	memcpy(buf, node_subsystem_link, n);
	return n;
}

static char *do_realpath(const char *path, char *out)
{
	shim_init();
	enum node_kind node;
	enum path_kind k = classify(path, &node);
	if (k == PATH_OTHER)
		return real.realpath(path, out);
	/* Our paths are already canonical. */
	size_t n = strlen(path);
	if (n >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	if (!out && !(out = malloc(PATH_MAX)))
		return NULL;
	memcpy(out, path, n + 1);
	return out;
}

char *realpath(const char *path, char *out) { return do_realpath(path, out); }
char *__realpath_chk(const char *path, char *out, size_t outlen)
{
	(void)outlen;    /* glibc only calls it with outlen >= PATH_MAX */
	return do_realpath(path, out);
}

static FILE *do_fopen(const char *path, const char *mode)
{
	shim_init();
	enum node_kind node;
	enum path_kind k = classify(path, &node);
	if (k == PATH_OTHER)
		return real.fopen(path, mode);
	size_t len;
	const char *data = k == PATH_SYS_FILE ? node_file(path, &len) : NULL;
	if (!data || mode[0] != 'r' || strchr(mode, '+')) {
		errno = data ? EACCES : EISDIR;
		return NULL;
	}
	return fmemopen((void *)data, len, "r");
}

FILE *fopen(const char *path, const char *mode) { return do_fopen(path, mode); }
FILE *fopen64(const char *path, const char *mode) { return do_fopen(path, mode); }
