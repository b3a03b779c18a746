/* The libc functions the wrappers stand in front of. */
#include "glx/shim.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct real real;
int shim_debug;
const char *shim_dump;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *next(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	if (!p) {
		/* Without the real function nothing works; say which. */
		static const char msg[] = "libnvd-drm: libc lacks a function it wraps\n";
		(void)!write(2, msg, sizeof(msg) - 1);
		abort();
	}
	return p;
}

static void resolve(void)
{
#define R(f) real.f = next(#f)
	R(open); R(openat); R(close); R(dup); R(dup2); R(dup3); R(fcntl); R(ioctl); R(mmap);
	R(stat); R(lstat); R(fstat); R(fstatat); R(access); R(opendir); R(readdir); R(closedir);
	R(readlink); R(realpath); R(fopen); R(sched_yield); R(read);
#undef R
	const char *d = getenv("NVD_DRM_DEBUG");
	shim_debug = d && *d && strcmp(d, "0") != 0;
	const char *dump = getenv("NVD_DRM_DUMP");
	shim_dump = dump && *dump ? dump : NULL;
}

void shim_init(void)
{
	pthread_once(&once, resolve);
}
