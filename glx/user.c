/* The program's memory as the kernel reaches it from an ioctl: through
 * copy_from_user / copy_to_user, so that a bad pointer is -EFAULT and never
 * a crash inside the program. */
#include "glx/shim.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* A kernel without process_vm_* (seccomp) gets a plain copy: a bad pointer
 * then faults as it would in any library call. */
static int user_copy(uint64_t uptr, void *buf, size_t len, int to_user)
{
	if (!len)
		return 0;
	if (uptr > UINTPTR_MAX || uptr + len < uptr)
		return -EFAULT;
	struct iovec l = { buf, len }, r = { (void *)(uintptr_t)uptr, len };
	ssize_t n = to_user ? process_vm_writev(getpid(), &l, 1, &r, 1, 0)
			    : process_vm_readv(getpid(), &l, 1, &r, 1, 0);
	if (n == (ssize_t)len)
		return 0;
	if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
		if (to_user)
			memcpy(r.iov_base, buf, len);
		else
			memcpy(buf, r.iov_base, len);
		return 0;
	}
	return -EFAULT;
}

int shim_put_user(uint64_t uptr, const void *src, size_t len)
{
	return user_copy(uptr, (void *)src, len, 1);
}

int shim_get_user(uint64_t uptr, void *dst, size_t len)
{
	return user_copy(uptr, dst, len, 0);
}
