/* glx-probe: the libc calls libnvd-drm.so wraps, exercised from inside a
 * process it is preloaded into (test_glx runs it under nvd-run).
 *
 *   glx-probe real      prints what the wrapped calls return for paths and
 *                       fds that are not ours; test_glx compares the output
 *                       with a run without the interposer: it must be equal
 *   glx-probe NAME      runs the checks NAME (sysfs, fds, gem, fork,
 *                       threads, names, realnodes, lost) and exits 0 when all
 *                       pass
 *
 * Each check prints "ok - ..." or "not ok - ...". */
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <stdint.h>
#include <unistd.h>

#include <drm.h>
#include <nouveau_drm.h>

/* glibc's fortified realpath, which libdrm calls; it has no public prototype. */
char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen);

#define DRM_IOCTL_NOUVEAU(nr, type) DRM_IOWR(DRM_COMMAND_BASE + (nr), type)

static int failures;

#define CHECK(cond, ...) do { \
	if (cond) { printf("ok - "); } else { printf("not ok - "); failures++; } \
	printf(__VA_ARGS__); printf("\n"); } while (0)

static char render[300], primary[300];
static unsigned render_minor, primary_minor;

/* Our nodes, from the /dev/dri listing. */
static int find_nodes(void)
{
	DIR *d = opendir("/dev/dri");
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!render[0] && sscanf(e->d_name, "renderD%u", &render_minor) == 1)
			snprintf(render, sizeof(render), "/dev/dri/%s", e->d_name);
		if (!primary[0] && sscanf(e->d_name, "card%u", &primary_minor) == 1)
			snprintf(primary, sizeof(primary), "/dev/dri/%s", e->d_name);
	}
	closedir(d);
	return render[0] && primary[0] ? 0 : -1;
}

static int drm_version(int fd, char *name, size_t len, int *maj, int *min, int *pat)
{
	struct drm_version v = { .name = name, .name_len = len - 1 };
	memset(name, 0, len);
	int r = ioctl(fd, DRM_IOCTL_VERSION, &v);
	*maj = v.version_major;
	*min = v.version_minor;
	*pat = v.version_patchlevel;
	return r;
}

static int works(int fd)
{
	char n[32];
	int a, b, c;
	return drm_version(fd, n, sizeof(n), &a, &b, &c) == 0 && !strcmp(n, "nouveau");
}

static uint32_t gem_new(int fd, uint64_t size, uint32_t domain, struct drm_nouveau_gem_info *out)
{
	struct drm_nouveau_gem_new rq = { .info = { .size = size, .domain = domain } };
	if (ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_NEW, struct drm_nouveau_gem_new), &rq) < 0)
		return 0;
	if (out)
		*out = rq.info;
	return rq.info.handle;
}

static void *gem_map(int fd, uint32_t handle, size_t *size)
{
	struct drm_nouveau_gem_info i = { .handle = handle };
	if (ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_INFO, struct drm_nouveau_gem_info), &i) < 0)
		return MAP_FAILED;
	*size = i.size;
	return mmap(NULL, i.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, i.map_handle);
}

static int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };
	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static char *slurp_fopen(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static char *slurp_open(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = 0;
	return buf;
}

/* ---- real: the same calls on paths that are not ours ---- */

static void print_stat(const char *what, int r, const struct stat *st, int with_ino)
{
	if (r < 0)
		printf("%s: -1 %s\n", what, strerror(errno));
	else
		printf("%s: mode %o size %lld ino %llu rdev %llx\n", what, st->st_mode,
		       (long long)st->st_size, with_ino ? (unsigned long long)st->st_ino : 0ull,
		       (unsigned long long)st->st_rdev);
}

/* Each call on its own line: the order of evaluation is the program's. */
#define SHOW(what, call) do { errno = 0; long r_ = (long)(call); int e_ = errno; \
	printf("%s: %ld%s%s\n", what, r_, r_ < 0 ? " " : "", r_ < 0 ? strerror(e_) : ""); } while (0)

static int probe_real(const char *dir)
{
	char path[PATH_MAX], buf[256];
	struct stat st, st2;
	snprintf(path, sizeof(path), "%s/file", dir);
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0640);
	printf("open(O_CREAT 0640): %s\n", fd >= 0 ? "ok" : strerror(errno));
	SHOW("write", write(fd, "hello, world\n", 13));
	print_stat("fstat", fstat(fd, &st), &st, 0);
	print_stat("stat", stat(path, &st2), &st2, 0);
	printf("same inode: %d\n", st.st_ino == st2.st_ino && st.st_dev == st2.st_dev);
	print_stat("lstat", lstat(path, &st), &st, 0);
	print_stat("fstatat", fstatat(AT_FDCWD, path, &st, 0), &st, 0);
	int d = dup(fd);
	int d2 = dup2(fd, 100);
	int d3 = dup3(fd, 101, O_CLOEXEC);
	int d4 = fcntl(fd, F_DUPFD_CLOEXEC, 50);
	printf("dup %d dup2 %d dup3 %d F_DUPFD_CLOEXEC %d\n", d >= 0, d2, d3, d4 >= 50);
	SHOW("dup3 FD_CLOEXEC", fcntl(d3, F_GETFD));
	SHOW("F_GETFL", fcntl(fd, F_GETFL) & O_ACCMODE);
	void *m = mmap(NULL, 13, PROT_READ, MAP_SHARED, fd, 0);
	printf("mmap: %.12s\n", m == MAP_FAILED ? "failed" : (char *)m);
	int nread = -1;
	SHOW("ioctl FIONREAD on a file", ioctl(fd, FIONREAD, &nread));
	printf("FIONREAD value %d\n", nread);
	SHOW("ioctl DRM VERSION on a file", ioctl(fd, DRM_IOCTL_VERSION, buf));
	close(d);
	close(d2);
	close(d3);
	close(d4);
	SHOW("close", close(fd));
	SHOW("close again", close(fd));
	printf("fopen: %s", slurp_fopen(path, buf, sizeof(buf)) ? buf : "failed\n");
	printf("open+read: %s", slurp_open(path, buf, sizeof(buf)) ? buf : "failed\n");
	SHOW("access R_OK", access(path, R_OK));
	SHOW("access X_OK", access(path, X_OK));
	snprintf(buf, sizeof(buf), "%s/link", dir);
	SHOW("symlink", symlink("file", buf));
	char lb[64] = { 0 };
	SHOW("readlink", readlink(buf, lb, sizeof(lb) - 1));
	printf("readlink target %s\n", lb);
	char *rp = realpath(buf, NULL);
	printf("realpath %s\n", rp && !strcmp(rp + strlen(rp) - 5, "/file") ? "ends in /file" : "wrong");
	free(rp);
	DIR *dd = opendir(dir);
	unsigned n = 0;
	while (dd && readdir(dd))
		n++;
	printf("opendir/readdir entries %u\n", n);
	SHOW("closedir", dd ? closedir(dd) : -1);
	print_stat("stat /dev/null", stat("/dev/null", &st), &st, 1);
	print_stat("stat /sys/dev/char/1:3", stat("/sys/dev/char/1:3", &st), &st, 1);
	print_stat("stat /dev/dri/renderD200", stat("/dev/dri/renderD200", &st), &st, 1);
	SHOW("open /sys/dev/char/226:250/device/vendor", open("/sys/dev/char/226:250/device/vendor", O_RDONLY));
	SHOW("fopen nonexistent", fopen("/nonexistent/x", "r") ? 0 : -1);
	int sv[2];
	SHOW("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	SHOW("dup2 over a socket", dup2(sv[0], sv[1]) == sv[1]);
	unlink(buf);
	unlink(path);
	return 0;
}

/* ---- sysfs and nodes, as libdrm and the Mesa loader read them ---- */

static int probe_sysfs(void)
{
	struct stat st;
	char p[160], buf[512], lb[128];
	CHECK(find_nodes() == 0, "/dev/dri lists a render node (%s) and a primary node (%s)", render, primary);
	CHECK(stat(render, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 226 &&
	      minor(st.st_rdev) == render_minor && render_minor >= 128, "stat render node: char 226:%u", render_minor);
	CHECK(lstat(primary, &st) == 0 && S_ISCHR(st.st_mode) && minor(st.st_rdev) == primary_minor &&
	      primary_minor < 64, "lstat primary node: char 226:%u", primary_minor);
	CHECK(fstatat(AT_FDCWD, render, &st, 0) == 0 && S_ISCHR(st.st_mode), "fstatat render node");
	CHECK(access(render, R_OK | W_OK) == 0, "access render node rw");
	snprintf(p, sizeof(p), "/sys/dev/char/226:%u/device/drm", render_minor);
	CHECK(stat(p, &st) == 0 && S_ISDIR(st.st_mode), "stat %s is a directory", p);
	DIR *d = opendir(p);
	int seen = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		seen += !strcmp(e->d_name, render + 9) + !strcmp(e->d_name, primary + 9);
	CHECK(d && seen == 2 && closedir(d) == 0, "opendir device/drm lists both nodes");
	snprintf(p, sizeof(p), "/sys/dev/char/226:%u/device/subsystem", render_minor);
	ssize_t n = readlink(p, lb, sizeof(lb) - 1);
	lb[n > 0 ? n : 0] = 0;
	CHECK(n > 0 && strstr(lb, "/pci"), "readlink device/subsystem = %s", lb);
	snprintf(p, sizeof(p), "/sys/dev/char/226:%u/device", render_minor);
	char *rp = realpath(p, NULL);
	CHECK(rp && !strcmp(rp, p), "realpath device");
	free(rp);
	char rbuf[PATH_MAX];
	CHECK(__realpath_chk(p, rbuf, sizeof(rbuf)) == rbuf && !strcmp(rbuf, p), "__realpath_chk device");
	snprintf(p, sizeof(p), "/sys/dev/char/226:%u/device/uevent", render_minor);
	unsigned dom, bus, dev, fn;
	char *s = slurp_fopen(p, buf, sizeof(buf));
	s = s ? strstr(s, "PCI_SLOT_NAME=") : NULL;
	CHECK(s && sscanf(s, "PCI_SLOT_NAME=%04x:%02x:%02x.%1u", &dom, &bus, &dev, &fn) == 4,
	      "fopen device/uevent has PCI_SLOT_NAME");
	snprintf(rbuf, sizeof(rbuf), "/sys/bus/pci/devices/%04x:%02x:%02x.%u", dom, bus, dev, fn);
	CHECK(stat(rbuf, &st) < 0, "the PCI slot %s is no real device's", rbuf + 21);
	snprintf(p, sizeof(p), "/sys/dev/char/226:%u/device/vendor", render_minor);
	unsigned v = 0;
	CHECK(slurp_fopen(p, buf, sizeof(buf)) && sscanf(buf, "%x", &v) == 1 && v == 0x10de, "fopen vendor 0x%x", v);
	CHECK(slurp_open(p, buf, sizeof(buf)) && sscanf(buf, "%x", &v) == 1 && v == 0x10de, "open+read vendor");
	snprintf(p, sizeof(p), "/sys/dev/char/226:%u/device/device", primary_minor);
	CHECK(slurp_open(p, buf, sizeof(buf)) && sscanf(buf, "%x", &v) == 1 && (v & 0xff00) && v < 0x300,
	      "open+read device 0x%04x (primary node's sysfs)", v);
	snprintf(p, sizeof(p), "/sys/dev/char/226:%u/uevent", render_minor);
	CHECK(slurp_fopen(p, buf, sizeof(buf)) && strstr(buf, "DEVNAME=dri/renderD"), "fopen node uevent DEVNAME");
	snprintf(p, sizeof(p), "/sys/dev/char/226:%u/device/vendor", render_minor);
	errno = 0;
	CHECK(fopen(p, "w") == NULL && errno == EACCES, "fopen vendor for writing: EACCES");
	CHECK(open(p, O_WRONLY) < 0 && errno == EACCES, "open vendor for writing: EACCES");
	snprintf(p, sizeof(p), "/sys/dev/char/226:%u/device/nosuchfile", render_minor);
	CHECK(stat(p, &st) < 0 && errno == ENOENT, "an unknown file under the device: ENOENT");
	return failures ? 1 : 0;
}

/* ---- fds: open, fstat, dup family, fcntl, close, ioctl, mmap ---- */

static int probe_fds(void)
{
	char name[32];
	int a, b, c;
	struct stat st;
	find_nodes();
	int fd = open(render, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "open %s", render);
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC, "O_CLOEXEC gives FD_CLOEXEC");
	CHECK(fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && minor(st.st_rdev) == render_minor, "fstat: the node");
	struct stat st2;
	int fd2 = openat(AT_FDCWD, render, O_RDWR);
	CHECK(fd2 >= 0 && fstat(fd2, &st2) == 0 && st2.st_ino == st.st_ino && st2.st_dev == st.st_dev,
	      "openat: same st_dev/st_ino for every open (one screen per device)");
	CHECK(fcntl(fd2, F_GETFD) == 0, "without O_CLOEXEC: no FD_CLOEXEC");
	CHECK(drm_version(fd, name, sizeof(name), &a, &b, &c) == 0 && !strcmp(name, "nouveau") &&
	      ((a << 24) | (b << 8) | c) < 0x01000301, "VERSION: %s %d.%d.%d (below 1.3.1: no NVIF)", name, a, b, c);
	int d1 = dup(fd), d2 = dup2(fd, 200), d3 = dup3(fd, 201, O_CLOEXEC);
	int d4 = fcntl(fd, F_DUPFD_CLOEXEC, 3), d5 = fcntl(fd, F_DUPFD, 300);
	CHECK(works(d1) && d2 == 200 && works(d2) && d3 == 201 && works(d3) && works(d4) && d5 >= 300 &&
	      works(d5), "dup, dup2, dup3, F_DUPFD_CLOEXEC, F_DUPFD name the device");
	uint32_t h = gem_new(fd, 8192, NOUVEAU_GEM_DOMAIN_GART, NULL);
	struct drm_nouveau_gem_info i = { .handle = h };
	CHECK(h && ioctl(d4, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_INFO, struct drm_nouveau_gem_info), &i) == 0 &&
	      i.size == 8192, "a handle made on one fd is known on its dups (one DRM file)");
	i.handle = h;
	CHECK(ioctl(fd2, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_INFO, struct drm_nouveau_gem_info), &i) < 0 &&
	      errno == ENOENT, "but not on another open (a different file): ENOENT");
	close(fd);
	CHECK(works(d1) && works(d5), "closing the first fd leaves the dups working");
	CHECK(dup2(d2, d2) == d2 && works(d2), "dup2 onto itself");
	int other = open("/dev/null", O_RDONLY);
	CHECK(dup2(other, d3) == d3 && ioctl(d3, DRM_IOCTL_VERSION, &(struct drm_version){0}) < 0,
	      "dup2 of /dev/null over a device fd: no longer the device");
	close(other);
	int ttyarg;
	CHECK(ioctl(d1, TIOCGWINSZ, &ttyarg) < 0 && errno == ENOTTY, "a tty ioctl on the device: ENOTTY");
	CHECK(ioctl(d1, _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE, 0x00, 8), name) < 0 && errno == EINVAL,
	      "VERSION with the wrong size: EINVAL");
	CHECK(ioctl(d1, DRM_IOWR(0x99, struct drm_version), name) < 0 && errno == EINVAL,
	      "an unknown DRM ioctl: EINVAL");
	CHECK(mmap(NULL, 4096, PROT_READ, MAP_SHARED, d1, (off_t)0x7777 << 32) == MAP_FAILED && errno == EINVAL,
	      "mmap of an offset no buffer has: EINVAL");
	close(d1); close(d2); close(d3); close(d4); close(d5);
	CHECK(ioctl(d1, DRM_IOCTL_VERSION, &(struct drm_version){0}) < 0 && errno == EBADF,
	      "after close: EBADF, as for any closed fd");
	close(fd2);
	return failures ? 1 : 0;
}

/* ---- buffers: GEM_NEW/INFO/mmap/CPU_PREP/CLOSE, PRIME ---- */

static int probe_gem(void)
{
	find_nodes();
	int fd = open(render, O_RDWR | O_CLOEXEC), fd2 = open(render, O_RDWR | O_CLOEXEC);
	struct drm_nouveau_gem_info vi, gi;
	uint32_t hv = gem_new(fd, 100000, NOUVEAU_GEM_DOMAIN_VRAM, &vi);
	uint32_t hg = gem_new(fd, 4096, NOUVEAU_GEM_DOMAIN_GART | NOUVEAU_GEM_DOMAIN_MAPPABLE, &gi);
	CHECK(hv && vi.domain == NOUVEAU_GEM_DOMAIN_VRAM && vi.size >= 100000 && !(vi.size & 4095) &&
	      !(vi.map_handle & 4095) && !(vi.offset & 255), "GEM_NEW VRAM: one domain bit, page-rounded size");
	CHECK(hg && gi.domain == NOUVEAU_GEM_DOMAIN_GART && gi.handle != hv, "GEM_NEW GART");
	size_t sz;
	uint8_t *m = gem_map(fd, hv, &sz);
	CHECK(m != MAP_FAILED, "mmap of a VRAM buffer");
	if (m == MAP_FAILED)
		return 1;
	memset(m, 0x5a, sz);
	struct drm_nouveau_gem_cpu_prep cp = { .handle = hv, .flags = NOUVEAU_GEM_CPU_PREP_WRITE };
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_CPU_PREP, struct drm_nouveau_gem_cpu_prep), &cp) == 0,
	      "CPU_PREP of an idle buffer returns at once");
	cp.flags |= NOUVEAU_GEM_CPU_PREP_NOWAIT;
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_CPU_PREP, struct drm_nouveau_gem_cpu_prep), &cp) == 0,
	      "CPU_PREP NOWAIT of an idle buffer: 0");
	struct drm_prime_handle ph = { .handle = hv, .flags = DRM_CLOEXEC | DRM_RDWR };
	CHECK(ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph) == 0 && ph.fd >= 0 &&
	      fcntl(ph.fd, F_GETFD) == FD_CLOEXEC, "PRIME export: a close-on-exec fd");
	uint8_t *pm = mmap(NULL, sz, PROT_READ, MAP_SHARED, ph.fd, 0);
	CHECK(pm != MAP_FAILED && pm[0] == 0x5a && pm[sz - 1] == 0x5a, "the exported fd maps the same memory");
	struct drm_prime_handle back = { .fd = ph.fd };
	CHECK(ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &back) == 0 && back.handle == hv,
	      "PRIME import into the same file: the same handle");
	struct drm_prime_handle other = { .fd = ph.fd };
	CHECK(ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &other) == 0 && other.handle, "PRIME import into another file");
	size_t sz2;
	uint8_t *m2 = gem_map(fd2, other.handle, &sz2);
	CHECK(m2 != MAP_FAILED && sz2 == sz && m2[12345] == 0x5a, "the importer sees the exporter's bytes");
	if (m2 != MAP_FAILED)
		m2[777] = 0xa5;
	CHECK(m[777] == 0xa5, "and the exporter the importer's writes");
	int pipefd[2];
	CHECK(pipe(pipefd) == 0, "pipe");
	struct drm_prime_handle bad = { .fd = pipefd[0] };
	CHECK(ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &bad) < 0 && errno == EINVAL,
	      "PRIME import of a pipe: EINVAL");
	struct drm_gem_flink fl = { .handle = hv };
	CHECK(ioctl(fd, DRM_IOCTL_GEM_FLINK, &fl) < 0 && errno == EACCES, "FLINK on a render node: EACCES");
	struct drm_auth au;
	CHECK(ioctl(fd, DRM_IOCTL_GET_MAGIC, &au) < 0 && errno == EACCES, "GET_MAGIC on a render node: EACCES");
	CHECK(gem_close(fd, hv) == 0, "GEM_CLOSE");
	CHECK(gem_close(fd, hv) < 0 && errno == EINVAL, "GEM_CLOSE again: EINVAL");
	CHECK(m[1000] == 0x5a && (m2 == MAP_FAILED || m2[1000] == 0x5a), "mappings outlive the handle");
	struct drm_nouveau_gem_info i = { .handle = hv };
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_INFO, struct drm_nouveau_gem_info), &i) < 0 &&
	      errno == ENOENT, "GEM_INFO of a closed handle: ENOENT");
	struct drm_nouveau_getparam gp = { .param = NOUVEAU_GETPARAM_CHIPSET_ID };
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GETPARAM, struct drm_nouveau_getparam), &gp) == 0 &&
	      (gp.value & 0xf0) == 0x40, "GETPARAM CHIPSET_ID 0x%llx", (unsigned long long)gp.value);
	gp.param = NOUVEAU_GETPARAM_FB_SIZE;
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GETPARAM, struct drm_nouveau_getparam), &gp) == 0 &&
	      gp.value > 0, "GETPARAM FB_SIZE %llu MiB", (unsigned long long)gp.value >> 20);
	gp.param = 1234;
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GETPARAM, struct drm_nouveau_getparam), &gp) < 0 &&
	      errno == EINVAL, "GETPARAM of an unknown parameter: EINVAL");
	close(fd);
	close(fd2);
	return failures ? 1 : 0;
}

/* ---- real DRM nodes beside ours (test_glx makes a private /dev with
 * renderD128 and card0 character devices that no driver serves) ---- */

static int probe_realnodes(void)
{
	char names[16][300];
	unsigned n = 0, ours = 0, real_seen = 0;
	DIR *d = opendir("/dev/dri");
	struct dirent *e;
	while (d && (e = readdir(d)) && n < 16)
		if (e->d_name[0] != '.')
			snprintf(names[n++], sizeof(names[0]), "%s", e->d_name);
	if (d)
		closedir(d);
	for (unsigned i = 0; i < n; i++) {
		char p[400], buf[64];
		unsigned minor;
		if (sscanf(names[i], "renderD%u", &minor) != 1 && sscanf(names[i], "card%u", &minor) != 1)
			continue;
		snprintf(p, sizeof(p), "/sys/dev/char/226:%u/device/vendor", minor);
		int is_ours = slurp_open(p, buf, sizeof(buf)) && strstr(buf, "0x10de");
		if (is_ours) {
			CHECK(i == ours, "our node %s is listed before the real ones", names[i]);
			ours++;
		} else {
			real_seen |= !strcmp(names[i], "renderD128") ? 1 : !strcmp(names[i], "card0") ? 2 : 0;
		}
	}
	CHECK(ours == 2, "both our nodes are listed (%u)", ours);
	CHECK(real_seen == 3, "the real renderD128 and card0 are still listed");
	CHECK(find_nodes() == 0 && render_minor != 128 && primary_minor != 0,
	      "ours take the next free minors (%s, %s)", render, primary);
	struct stat st;
	CHECK(stat("/dev/dri/renderD128", &st) == 0 && S_ISCHR(st.st_mode) && minor(st.st_rdev) == 128 &&
	      (st.st_ino & 0xfffff000u) != 0x4e56d000u, "stat of the real render node is the real one");
	errno = 0;
	int fd = open("/dev/dri/renderD128", O_RDWR);
	CHECK(fd < 0 && (errno == ENXIO || errno == ENODEV), "open of the real node reaches the kernel (%s)",
	      strerror(errno));
	CHECK(stat("/sys/dev/char/226:128/device/vendor", &st) < 0 && errno == ENOENT,
	      "the real node's sysfs is not faked");
	fd = open(render, O_RDWR);
	CHECK(fd >= 0 && works(fd), "our render node works beside them");
	close(fd);
	return failures ? 1 : 0;
}

/* ---- a lost channel: Mesa polls its fence word in memory; the interposer
 * writes what the card would have, so Mesa does not wait forever ---- */

static int pushbuf(int fd, int chan, uint32_t handle, uint32_t bytes)
{
	struct drm_nouveau_gem_pushbuf_bo bo = { .handle = handle, .read_domains = NOUVEAU_GEM_DOMAIN_GART,
						 .valid_domains = NOUVEAU_GEM_DOMAIN_GART };
	struct drm_nouveau_gem_pushbuf_push push = { .bo_index = 0, .offset = 0, .length = bytes };
	struct drm_nouveau_gem_pushbuf rq = { .channel = chan, .nr_buffers = 1,
					      .buffers = (uintptr_t)&bo, .nr_push = 1,
					      .push = (uintptr_t)&push };
	return ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_PUSHBUF, struct drm_nouveau_gem_pushbuf), &rq);
}

static int probe_lost(void)
{
	find_nodes();
	setenv("NVD_DRM_SYNC", "1", 1);        /* each refusal is known before the next */
	int fd = open(render, O_RDWR);
	struct drm_nouveau_channel_alloc ca = { .fb_ctxdma_handle = 0xbeef0201, .tt_ctxdma_handle = 0xbeef0202 };
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_CHANNEL_ALLOC, struct drm_nouveau_channel_alloc), &ca) == 0,
	      "CHANNEL_ALLOC");
	struct drm_nouveau_notifierobj_alloc na = { .channel = ca.channel, .handle = 0xbeef1e00, .size = 32 };
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_NOTIFIEROBJ_ALLOC, struct drm_nouveau_notifierobj_alloc),
		    &na) == 0 && na.offset == 0, "the fence notifier at offset 0");
	size_t nsz, psz;
	volatile uint32_t *ntfy = gem_map(fd, ca.notifier_handle, &nsz);
	uint32_t pb = gem_new(fd, 4096, NOUVEAU_GEM_DOMAIN_GART, NULL);
	uint32_t *w = gem_map(fd, pb, &psz);
	CHECK(ntfy != MAP_FAILED && w != MAP_FAILED, "notifier and push buffer mapped");
	if (ntfy == MAP_FAILED || w == MAP_FAILED)
		return 1;
	w[0] = (1u << 18) | (3u << 13) | 0x200;  /* a method on an empty subchannel */
	w[1] = 0;
	int refused = 0;
	for (int i = 0; i < 8; i++)
		refused += pushbuf(fd, ca.channel, pb, 8) < 0;
	CHECK(refused == 8, "8 bad submissions refused (%d)", refused);
	w[0] = (2u << 18) | (7u << 13) | 0x1d6c; /* FENCE_OFFSET, FENCE_VALUE */
	w[1] = 0;
	w[2] = 77;
	errno = 0;
	CHECK(pushbuf(fd, ca.channel, pb, 12) < 0 && errno == ENODEV, "then the channel is lost: ENODEV");
	CHECK(ntfy[0] == 77, "and the fence word holds the submission's value (%u), as if it had run", ntfy[0]);
	close(fd);
	return failures ? 1 : 0;
}

/* ---- a failed DRI2 authentication: Mesa closes the node right after
 * GET_MAGIC; the interposer says GL falls back to software (the test
 * counts the lines: one, for the first file only) ---- */

static int probe_magic(void)
{
	struct drm_auth a;
	char name[16];
	int maj, min, pat;
	find_nodes();
	int fd = open(primary, O_RDWR);
	CHECK(fd >= 0 && ioctl(fd, DRM_IOCTL_GET_MAGIC, &a) == 0, "GET_MAGIC, then close");
	close(fd);
	fd = open(primary, O_RDWR);
	CHECK(fd >= 0 && ioctl(fd, DRM_IOCTL_GET_MAGIC, &a) == 0 &&
	      drm_version(fd, name, sizeof(name), &maj, &min, &pat) == 0,
	      "GET_MAGIC and VERSION (as after a good authentication), then close");
	close(fd);
	return failures ? 1 : 0;
}

/* ---- bad pointers: the struct and the arrays it points to are reached as
 * the kernel reaches them, so a bad one is EFAULT and never a crash ---- */

#define BAD_PTR 16u    /* the zero page: never mapped */

static int probe_badptr(void)
{
	static const struct drm_nouveau_gem_info rodata = { 0 };
	find_nodes();
	int fd = open(render, O_RDWR);
	errno = 0;
	CHECK(ioctl(fd, DRM_IOCTL_VERSION, (void *)(uintptr_t)BAD_PTR) < 0 && errno == EFAULT,
	      "VERSION with its struct at address 16: EFAULT");
	struct drm_version v = { .name_len = 8, .name = (char *)(uintptr_t)BAD_PTR };
	CHECK(ioctl(fd, DRM_IOCTL_VERSION, &v) < 0 && errno == EFAULT,
	      "VERSION with its name at address 16: EFAULT");
	uint32_t h = gem_new(fd, 4096, NOUVEAU_GEM_DOMAIN_GART, NULL);
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_INFO, struct drm_nouveau_gem_info),
		    (void *)&rodata) < 0 && errno == EFAULT, "GEM_INFO into read-only memory: EFAULT");
	struct drm_nouveau_channel_alloc ca = { .fb_ctxdma_handle = 0xbeef0201, .tt_ctxdma_handle = 0xbeef0202 };
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_CHANNEL_ALLOC, struct drm_nouveau_channel_alloc), &ca) == 0,
	      "CHANNEL_ALLOC");
	struct drm_nouveau_gem_pushbuf_bo bo = { .handle = h, .read_domains = NOUVEAU_GEM_DOMAIN_GART };
	struct drm_nouveau_gem_pushbuf_push push = { .bo_index = 0, .offset = 0, .length = 0 };
	const uint64_t good[3] = { (uintptr_t)&bo, (uintptr_t)&push, (uintptr_t)&push };
	static const char *const what[3] = { "buffers", "push", "relocs" };
	for (unsigned k = 0; k < 3; k++) {
		struct drm_nouveau_gem_pushbuf rq = { .channel = ca.channel, .nr_buffers = 1,
						      .nr_push = 1, .nr_relocs = 1 };
		__u64 *ptr[3] = { &rq.buffers, &rq.push, &rq.relocs };
		for (unsigned j = 0; j < 3; j++)
			*ptr[j] = j == k ? BAD_PTR : good[j];
		errno = 0;
		CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_PUSHBUF, struct drm_nouveau_gem_pushbuf),
			    &rq) < 0 && errno == EFAULT, "GEM_PUSHBUF with its %s at address 16: EFAULT", what[k]);
	}
	struct drm_nouveau_gem_info i = { .handle = h };
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_INFO, struct drm_nouveau_gem_info), &i) == 0 &&
	      i.size == 4096, "the file works on");
	close(fd);
	return failures ? 1 : 0;
}

/* ---- fork: the child's inherited fds are inert; the parent carries on ---- */

static int probe_fork(void)
{
	find_nodes();
	int fd = open(render, O_RDWR);
	uint32_t h = gem_new(fd, 4096, NOUVEAU_GEM_DOMAIN_GART, NULL);
	size_t sz;
	uint8_t *m = gem_map(fd, h, &sz);
	CHECK(h && m != MAP_FAILED, "a buffer before fork");
	if (m == MAP_FAILED)
		return 1;
	m[0] = 1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int bad = 0;
		struct drm_nouveau_gem_info i = { .handle = h };
		if (ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_INFO, struct drm_nouveau_gem_info), &i) == 0 ||
		    errno != EIO)
			bad |= 1;
		int mine = open(render, O_RDWR);
		if (!gem_new(mine, 4096, NOUVEAU_GEM_DOMAIN_GART, NULL) || !works(mine))
			bad |= 2;
		close(fd);          /* must not close the parent's buffers */
		close(mine);
		_exit(bad);
	}
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && !(WEXITSTATUS(status) & 1), "in the child, the inherited fd fails with EIO");
	CHECK(WIFEXITED(status) && !(WEXITSTATUS(status) & 2), "in the child, a new open works");
	struct drm_nouveau_gem_info i = { .handle = h };
	CHECK(ioctl(fd, DRM_IOCTL_NOUVEAU(DRM_NOUVEAU_GEM_INFO, struct drm_nouveau_gem_info), &i) == 0 &&
	      works(fd) && m[0] == 1, "the parent's file and buffer are untouched");
	CHECK(gem_new(fd, 4096, NOUVEAU_GEM_DOMAIN_GART, NULL) != 0, "and the parent can still allocate");
	close(fd);
	return failures ? 1 : 0;
}

/* ---- threads: one file, many threads; fds opened and closed meanwhile ---- */

static int shared_fd;

static void *thread_main(void *arg)
{
	long bad = 0;
	(void)arg;
	for (int i = 0; i < 200; i++) {
		uint32_t h = gem_new(shared_fd, 4096 * (1 + i % 4), NOUVEAU_GEM_DOMAIN_GART, NULL);
		size_t sz;
		uint8_t *m = h ? gem_map(shared_fd, h, &sz) : MAP_FAILED;
		if (m == MAP_FAILED) {
			bad++;
			continue;
		}
		m[sz - 1] = (uint8_t)i;
		bad += m[sz - 1] != (uint8_t)i;
		munmap(m, sz);
		bad += gem_close(shared_fd, h) != 0;
		if (i % 20 == 0) {
			int fd = open(render, O_RDWR | O_CLOEXEC);
			bad += !works(fd);
			int d = dup(fd);
			close(fd);
			bad += !works(d);
			close(d);
		}
	}
	return (void *)bad;
}

static int probe_threads(void)
{
	find_nodes();
	shared_fd = open(render, O_RDWR);
	pthread_t t[8];
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, thread_main, NULL);
	long bad = 0;
	for (int i = 0; i < 8; i++) {
		void *r;
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	CHECK(bad == 0, "8 threads x 200 buffers on one file, opens and dups meanwhile: %ld failures", bad);
	close(shared_fd);
	return failures ? 1 : 0;
}

/* ---- names: FLINK / GEM_OPEN need authentication by the master ---- */

static int probe_names(void)
{
	find_nodes();
	int master = open(primary, O_RDWR), client = open(primary, O_RDWR), rnode = open(render, O_RDWR);
	uint32_t h = gem_new(master, 4096, NOUVEAU_GEM_DOMAIN_GART, NULL);
	size_t sz;
	uint8_t *m = gem_map(master, h, &sz);
	if (m != MAP_FAILED)
		m[100] = 0x77;
	struct drm_gem_flink fl = { .handle = h };
	CHECK(ioctl(master, DRM_IOCTL_GEM_FLINK, &fl) == 0 && fl.name, "FLINK on the primary node");
	struct drm_gem_open op = { .name = fl.name };
	CHECK(ioctl(client, DRM_IOCTL_GEM_OPEN, &op) < 0 && errno == EACCES,
	      "GEM_OPEN by an unauthenticated file: EACCES");
	CHECK(ioctl(rnode, DRM_IOCTL_GEM_OPEN, &op) < 0 && errno == EACCES, "GEM_OPEN on a render node: EACCES");
	struct drm_auth au = { 0 };
	CHECK(ioctl(client, DRM_IOCTL_GET_MAGIC, &au) == 0 && au.magic, "GET_MAGIC");
	CHECK(ioctl(client, DRM_IOCTL_AUTH_MAGIC, &au) < 0 && errno == EACCES,
	      "AUTH_MAGIC by a file that is not the master: EACCES");
	CHECK(ioctl(master, DRM_IOCTL_AUTH_MAGIC, &au) == 0, "AUTH_MAGIC by the master (the first opener)");
	CHECK(ioctl(client, DRM_IOCTL_GEM_OPEN, &op) == 0 && op.handle && op.size == 4096,
	      "GEM_OPEN once authenticated");
	uint8_t *m2 = gem_map(client, op.handle, &sz);
	CHECK(m2 != MAP_FAILED && m2[100] == 0x77, "the opened buffer holds the master's bytes");
	struct drm_gem_open forged = { .name = fl.name ^ 0x1 };
	CHECK(ioctl(client, DRM_IOCTL_GEM_OPEN, &forged) < 0 && errno == ENOENT, "GEM_OPEN of a forged name: ENOENT");
	close(client);
	close(rnode);
	close(master);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "real"))
		return probe_real(argv[2]);
	static const struct { const char *name; int (*fn)(void); } probes[] = {
		{ "sysfs", probe_sysfs }, { "fds", probe_fds }, { "gem", probe_gem },
		{ "fork", probe_fork }, { "threads", probe_threads }, { "names", probe_names },
		{ "realnodes", probe_realnodes }, { "lost", probe_lost }, { "badptr", probe_badptr },
		{ "magic", probe_magic },
	};
	for (unsigned i = 0; argc == 2 && i < sizeof(probes) / sizeof(probes[0]); i++)
		if (!strcmp(argv[1], probes[i].name)) {
			int r = probes[i].fn();
			printf("%d failures\n", failures);
			return r;
		}
	fprintf(stderr, "usage: glx-probe real DIR | sysfs | fds | gem | fork | threads | names | realnodes | lost | badptr | magic\n");
	return 2;
}
