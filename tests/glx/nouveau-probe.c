/* nouveau-probe: libdrm_nouveau as Mesa's nouveau driver uses it (an
 * immediate push buffer, nouveau_pushbuf_kick, nouveau_bo_wait), run by
 * test_glx under nvd-run, checking that nvd's refusals reach the program
 * through the nouveau interface as the kernel's errors, once each.
 *
 *   nouveau-probe errors     exits 0 when every check passes
 *   nouveau-probe watchdog   the same for a runaway submission, under an
 *                            nvd with a short --gpu-timeout
 *   nouveau-probe evict      a buffer's new place after eviction reaches
 *                            libdrm, under an nvd with --vram 32
 *   nouveau-probe death PID  SIGKILLs nvd (PID) while CPU_PREP waits for a
 *                            runaway: the wait ends within 1 s with -ENODEV,
 *                            without spinning, and so does every later
 *                            ioctl (NVD_LOST=continue), under an nvd with
 *                            a long --gpu-timeout
 *
 * libdrm ignores GEM_PUSHBUF's answer in nouveau_pushbuf_kick on an
 * immediate push buffer (it prints "kernel rejected pushbuf"), so the probe
 * counts those answers by wrapping drmCommandWriteRead, which libdrm_nouveau
 * calls in libdrm.  Each check prints "ok - ..." or "not ok - ...". */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <nouveau.h>
#include <nouveau_drm.h>
#include <nvif/cl0080.h>
#include <nvif/class.h>
#include <xf86drm.h>

static int failures;

#define CHECK(cond, ...) do { \
	if (cond) { printf("ok - "); } else { printf("not ok - "); failures++; } \
	printf(__VA_ARGS__); printf("\n"); } while (0)

/* ---- GEM_PUSHBUF's answers ---- */

static int pushbufs, last_pushbuf;

int drmCommandWriteRead(int fd, unsigned long index, void *data, unsigned long size)
{
	static int (*real)(int, unsigned long, void *, unsigned long);
	if (!real)
		real = (int (*)(int, unsigned long, void *, unsigned long))dlsym(RTLD_NEXT,
										  "drmCommandWriteRead");
	int r = real(fd, index, data, size);
	if (index == DRM_NOUVEAU_GEM_PUSHBUF && ((struct drm_nouveau_gem_pushbuf *)data)->nr_push) {
		pushbufs++;
		last_pushbuf = r;
	}
	return r;
}

/* ---- a channel ---- */

#define M2MF_HANDLE 0xbeef3901u

static struct nouveau_drm *drm;
static struct nouveau_device *dev;
static struct nouveau_client *client;
static struct nouveau_object *chan, *m2mf;
static struct nouveau_pushbuf *push;

/* nvd's render node, among whatever /dev/dri holds. */
static int open_render(void)
{
	DIR *d = opendir("/dev/dri");
	struct dirent *e;
	int fd = -1;
	while (d && fd < 0 && (e = readdir(d))) {
		char path[300];
		if (strncmp(e->d_name, "renderD", 7))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", e->d_name);
		if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
			continue;
		drmVersionPtr v = drmGetVersion(fd);
		if (!v || strcmp(v->name, "nouveau") || !strstr(v->desc, "(nvd)")) {
			close(fd);
			fd = -1;
		}
		drmFreeVersion(v);
	}
	if (d)
		closedir(d);
	return fd;
}

static int setup(void)
{
	int fd = open_render();
	struct nv_device_v0 dv = { .device = ~0ULL };
	struct nv04_fifo fifo = { .vram = 0xbeef0201, .gart = 0xbeef0202 };
	CHECK(fd >= 0, "nvd's render node");
	if (fd < 0)
		return -1;
	int r = nouveau_drm_new(fd, &drm);
	if (!r)
		r = nouveau_device_new(&drm->client, NV_DEVICE, &dv, sizeof(dv), &dev);
	if (!r)
		r = nouveau_client_new(dev, &client);
	if (!r)
		r = nouveau_object_new(&dev->object, 0, NOUVEAU_FIFO_CHANNEL_CLASS, &fifo,
				       sizeof(fifo), &chan);
	if (!r)
		r = nouveau_object_new(chan, M2MF_HANDLE, 0x39, NULL, 0, &m2mf);
	if (!r)
		r = nouveau_pushbuf_new(client, chan, 2, 32768, true, &push);
	CHECK(r == 0, "device, channel, M2MF and an immediate push buffer, as Mesa makes them (%d)", r);
	return r;
}

/* setup's objects gone again; 1 when a check failed. */
static int teardown(void)
{
	nouveau_pushbuf_del(&push);
	nouveau_object_del(&m2mf);
	nouveau_object_del(&chan);
	nouveau_client_del(&client);
	nouveau_device_del(&dev);
	nouveau_drm_del(&drm);
	return failures ? 1 : 0;
}

/* One submission: bad, a method on a subchannel nothing is bound to (nvd
 * refuses it), else binding the M2MF; listing `bo` when not NULL.  The
 * answer of its GEM_PUSHBUF, or 1 when libdrm made none. */
static int kick(int bad, struct nouveau_bo *bo)
{
	struct nouveau_pushbuf_refn ref = { bo, NOUVEAU_BO_GART | NOUVEAU_BO_RD };
	if (bo)
		nouveau_pushbuf_refn(push, &ref, 1);
	nouveau_pushbuf_space(push, 4, 0, 0);
	*push->cur++ = 1u << 18 | (bad ? 3u : 0u) << 13 | (bad ? 0x200u : 0u);
	*push->cur++ = bad ? 0 : M2MF_HANDLE;
	int before = pushbufs;
	nouveau_pushbuf_kick(push, chan);
	return pushbufs > before ? last_pushbuf : 1;
}

/* CPU_PREP, as Mesa's nouveau_bo_map and fence waits ask it. */
static int cpu_prep(struct nouveau_bo *bo)
{
	return nouveau_bo_wait(bo, NOUVEAU_BO_RDWR, client);
}

static int probe_errors(void)
{
	struct nouveau_bo *data, *other;
	if (setup() < 0)
		return 1;
	CHECK(nouveau_bo_new(dev, NOUVEAU_BO_GART | NOUVEAU_BO_MAP, 0, 4096, NULL, &data) == 0 &&
	      nouveau_bo_new(dev, NOUVEAU_BO_GART | NOUVEAU_BO_MAP, 0, 4096, NULL, &other) == 0,
	      "two buffers");
	CHECK(!nouveau_check_dead_channel(drm, chan), "the channel is alive");
	CHECK(kick(0, NULL) == 0, "a good submission: GEM_PUSHBUF 0");

	/* Told by the next GEM_PUSHBUF when nvd had not decided in time. */
	int r1 = kick(1, NULL);
	CHECK(r1 == 0 || r1 == -EINVAL, "a refused submission: its GEM_PUSHBUF %d (0 or -EINVAL)", r1);
	CHECK(cpu_prep(other) == 0, "CPU_PREP of a buffer no submission listed: 0 (nvd has decided)");
	int r2 = kick(0, NULL);
	CHECK(r1 == -EINVAL ? r2 == 0 : r2 == -EINVAL,
	      "the refusal is told once: by its own GEM_PUSHBUF (%d) or the next (%d)", r1, r2);
	CHECK(kick(0, NULL) == 0, "then GEM_PUSHBUF 0 again");

	/* Told by CPU_PREP of a buffer it listed. */
	int r4 = kick(1, data);
	int w4 = cpu_prep(data);
	CHECK(r4 == -EINVAL ? w4 == 0 : w4 == -EINVAL,
	      "a refused submission listing a buffer: told once, by GEM_PUSHBUF (%d) or the "
	      "buffer's CPU_PREP (%d)", r4, w4);
	CHECK(cpu_prep(data) == 0, "the next CPU_PREP of that buffer: 0");
	CHECK(kick(0, NULL) == 0, "and the next GEM_PUSHBUF: 0");

	/* NVD_DRM_SYNC: always by its own GEM_PUSHBUF. */
	setenv("NVD_DRM_SYNC", "1", 1);
	CHECK(kick(1, data) == -EINVAL, "NVD_DRM_SYNC: a refused submission's GEM_PUSHBUF: -EINVAL");
	CHECK(cpu_prep(data) == 0, "NVD_DRM_SYNC: told once: CPU_PREP of its buffer 0");
	CHECK(kick(0, NULL) == 0, "NVD_DRM_SYNC: a good one: 0");

	/* Refused until nvd gives the channel up (8 strikes, 3 so far). */
	int refused = 0;
	for (int i = 0; i < 5; i++)
		refused += kick(1, NULL) == -EINVAL;
	CHECK(refused == 5, "5 more refusals, each -EINVAL (%d)", refused);
	CHECK(kick(0, NULL) == -ENODEV, "then the channel is lost: GEM_PUSHBUF -ENODEV");
	CHECK(kick(0, NULL) == -ENODEV, "and stays so: -ENODEV again");
	CHECK(nouveau_check_dead_channel(drm, chan), "nouveau_check_dead_channel says so");
	unsetenv("NVD_DRM_SYNC");
	nouveau_bo_ref(NULL, &data);
	nouveau_bo_ref(NULL, &other);
	return teardown();
}

/* M2MF packets of many 8 MiB copies inside a 16 MiB buffer (a runaway:
 * seconds of card time), the addresses relocated as Mesa's nv30 does. */
#define RUNAWAY_COPIES 2000u
#define RUNAWAY_PACKETS 3
static int kick_runaway(struct nouveau_bo *bo)
{
	struct nouveau_pushbuf_refn ref = { bo, NOUVEAU_BO_VRAM | NOUVEAU_BO_RDWR };
	nouveau_pushbuf_refn(push, &ref, 1);
	nouveau_pushbuf_space(push, 16 + RUNAWAY_PACKETS * (1 + RUNAWAY_COPIES), 2, 0);
	*push->cur++ = 2u << 18 | 0x184;                    /* DMA_BUFFER_IN, OUT */
	*push->cur++ = 0xbeef0201;
	*push->cur++ = 0xbeef0201;
	*push->cur++ = 8u << 18 | 0x30c;                    /* OFFSET_IN .. BUF_NOTIFY */
	nouveau_pushbuf_reloc(push, bo, 0, NOUVEAU_BO_LOW, 0, 0);
	nouveau_pushbuf_reloc(push, bo, 8u << 20, NOUVEAU_BO_LOW, 0, 0);
	*push->cur++ = 4096;
	*push->cur++ = 4096;
	*push->cur++ = 4096;
	*push->cur++ = 2047;
	*push->cur++ = 0x101;
	*push->cur++ = 0;
	for (unsigned k = 0; k < RUNAWAY_PACKETS; k++) {
		*push->cur++ = 0x40000000u | RUNAWAY_COPIES << 18 | 0x328;   /* NONINC BUF_NOTIFY */
		for (unsigned i = 0; i < RUNAWAY_COPIES; i++)
			*push->cur++ = 0;
	}
	int before = pushbufs;
	nouveau_pushbuf_kick(push, chan);
	return pushbufs > before ? last_pushbuf : 1;
}

static int probe_watchdog(void)
{
	struct nouveau_bo *big;
	if (setup() < 0)
		return 1;
	CHECK(nouveau_bo_new(dev, NOUVEAU_BO_VRAM | NOUVEAU_BO_MAP, 0, 16u << 20, NULL, &big) == 0,
	      "a 16 MiB VRAM buffer");
	CHECK(kick(0, NULL) == 0, "the M2MF bound: GEM_PUSHBUF 0");
	CHECK(kick_runaway(big) == 0, "the runaway submitted: GEM_PUSHBUF 0 (nvd decides later)");
	int w = cpu_prep(big);
	CHECK(w == -EIO, "CPU_PREP of its buffer: -EIO once the watchdog stopped it (%d)", w);
	CHECK(kick(0, NULL) == -ENODEV, "then the channel is lost: GEM_PUSHBUF -ENODEV");
	CHECK(nouveau_check_dead_channel(drm, chan), "nouveau_check_dead_channel says so");
	nouveau_bo_ref(NULL, &big);
	return teardown();
}

/* GEM_INFO's offset of the buffer (-1 on failure). */
static uint64_t gem_offset(struct nouveau_bo *bo)
{
	struct drm_nouveau_gem_info info = { .handle = bo->handle };
	if (drmCommandWriteRead(drm->fd, DRM_NOUVEAU_GEM_INFO, &info, sizeof(info)))
		return ~0ull;
	return info.offset;
}

/* One submission listing bo for VRAM, written to. */
static int kick_vram(struct nouveau_bo *bo)
{
	struct nouveau_pushbuf_refn ref = { bo, NOUVEAU_BO_VRAM | NOUVEAU_BO_WR };
	nouveau_pushbuf_refn(push, &ref, 1);
	return kick(0, NULL);
}

/* Under an nvd with 16.5 MiB of VRAM for clients (--vram 32): a buffer
 * evicted by four others and used again comes back elsewhere, and libdrm
 * learns its new place from GEM_PUSHBUF's presumed write-back, as from the
 * kernel's. */
static int probe_evict(void)
{
	struct nouveau_bo *a, *b[4];
	if (setup() < 0)
		return 1;
	CHECK(nouveau_bo_new(dev, NOUVEAU_BO_VRAM, 0, 4u << 20, NULL, &a) == 0, "a 4 MiB buffer");
	CHECK(kick_vram(a) == 0, "used in VRAM");
	uint64_t first = a->offset;
	for (unsigned i = 0; i < 4; i++)
		CHECK(nouveau_bo_new(dev, NOUVEAU_BO_VRAM, 0, 4u << 20, NULL, &b[i]) == 0 &&
		      kick_vram(b[i]) == 0, "another 4 MiB used in VRAM (%u)", i);
	CHECK(kick_vram(a) == 0, "the first one used again");
	CHECK(a->offset != first, "it came back elsewhere (0x%llx, first 0x%llx)",
	      (unsigned long long)a->offset, (unsigned long long)first);
	CHECK((a->flags & NOUVEAU_BO_VRAM) && a->offset == gem_offset(a),
	      "libdrm's offset 0x%llx is where nvd has it (GEM_INFO 0x%llx), in VRAM",
	      (unsigned long long)a->offset, (unsigned long long)gem_offset(a));
	for (unsigned i = 0; i < 4; i++)
		nouveau_bo_ref(NULL, &b[i]);
	nouveau_bo_ref(NULL, &a);
	return teardown();
}

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t cpu_ns(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
	       ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

static pid_t nvd_pid;
static int64_t killed_at;

/* nvd dies 200 ms into the wait. */
static void *killer(void *arg)
{
	(void)arg;
	struct timespec t = { 0, 200000000 };
	nanosleep(&t, NULL);
	__atomic_store_n(&killed_at, now_ns(), __ATOMIC_RELEASE);
	kill(nvd_pid, SIGKILL);
	return NULL;
}

static int probe_death(void)
{
	struct nouveau_bo *big, *other;
	pthread_t t;
	setenv("NVD_LOST", "continue", 1);
	if (setup() < 0)
		return 1;
	CHECK(nouveau_bo_new(dev, NOUVEAU_BO_VRAM | NOUVEAU_BO_MAP, 0, 16u << 20, NULL, &big) == 0,
	      "a 16 MiB VRAM buffer");
	CHECK(kick(0, NULL) == 0, "the M2MF bound: GEM_PUSHBUF 0");
	CHECK(kick_runaway(big) == 0, "a runaway submitted: GEM_PUSHBUF 0");
	CHECK(pthread_create(&t, NULL, killer, NULL) == 0, "a thread to kill nvd");
	int64_t cpu0 = cpu_ns();
	int w = cpu_prep(big);
	int64_t woke = now_ns(), cpu = cpu_ns() - cpu0;
	pthread_join(t, NULL);
	int64_t ms = (woke - killed_at) / 1000000;
	CHECK(w == -ENODEV, "CPU_PREP of the runaway's buffer: -ENODEV once nvd is gone (%d)", w);
	CHECK(ms < 1000, "%lld ms after nvd's SIGKILL", (long long)ms);
	CHECK(cpu < 300000000, "%lld ms of CPU while waiting", (long long)(cpu / 1000000));
	int64_t t0 = now_ns();
	cpu0 = cpu_ns();
	CHECK(kick(0, NULL) == -ENODEV, "then GEM_PUSHBUF -ENODEV");
	CHECK(nouveau_bo_new(dev, NOUVEAU_BO_GART, 0, 4096, NULL, &other) == -ENODEV,
	      "GEM_NEW -ENODEV");
	CHECK(cpu_prep(big) == -ENODEV, "CPU_PREP -ENODEV again");
	CHECK(nouveau_check_dead_channel(drm, chan), "nouveau_check_dead_channel says so");
	CHECK(now_ns() - t0 < 1000000000 && cpu_ns() - cpu0 < 300000000,
	      "all at once (%lld ms, %lld ms of CPU)", (long long)((now_ns() - t0) / 1000000),
	      (long long)((cpu_ns() - cpu0) / 1000000));
	nouveau_bo_ref(NULL, &big);
	return teardown();
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "errors")) {
		int r = probe_errors();
		printf("%d failures\n", failures);
		return r;
	}
	if (argc == 2 && !strcmp(argv[1], "watchdog")) {
		int r = probe_watchdog();
		printf("%d failures\n", failures);
		return r;
	}
	if (argc == 2 && !strcmp(argv[1], "evict")) {
		int r = probe_evict();
		printf("%d failures\n", failures);
		return r;
	}
	if (argc == 3 && !strcmp(argv[1], "death") && (nvd_pid = atoi(argv[2])) > 0) {
		int r = probe_death();
		printf("%d failures\n", failures);
		return r;
	}
	fprintf(stderr, "usage: nouveau-probe errors|watchdog|evict|death NVD-PID\n");
	return 2;
}
