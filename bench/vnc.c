/* bench/vnc: what the live view (nvd --vnc) gives and costs, head 0 at
 * 1920x1080 and a viewer (tests/lib/nvt-rfb.c) that asks for the next
 * incremental update as soon as one has come.
 *
 * - Updates a second while the whole picture changes all the time (the
 *   CPU rewrites the framebuffer): each is up to a full 1920x1080 frame.
 * - The card's throughput (2D fills and blits a second, one client,
 *   nvt_vc_draw, 256 a submission) while a 64x64 square moves across the
 *   screen every 16 ms, without a viewer and with one, alternately: the
 *   median ratio of a round with one to the round before it, and the CPU
 *   time nvd spent in each (the live view's thread's share).
 *
 * Starts its own nvd ($NVD_BIN, else ../bin/nvd beside it).  Prints; never
 * passes or fails. */
#include <dirent.h>
#include <getopt.h>
#include <pthread.h>

#include "bench/glbench.h"
#include "hw/ramin.h"
#include "tests/lib/nvt-rfb.h"
#include "tests/lib/nvt-vc.h"

#define VB_W 1920
#define VB_H 1080
#define VB_SECONDS_DEFAULT 2
#define VB_ROUNDS 6                   /* without and with a viewer, alternately */
#define VB_DRAWS 256                  /* fills and blits a submission */

static uint16_t vb_port;
static uint32_t *vb_fb;               /* the master's mapping of head 0's framebuffer */
static volatile int vb_stop_scribble, vb_stop_view;

static void vb_usage(FILE *f)
{
	fprintf(f,
"usage: vnc [OPTION]...\n"
"The live view's updates a second at 1920x1080 and the card's throughput with\n"
"and without a viewer, on an nvd of its own started with --vnc.\n"
"\n"
"  -t, --seconds N   measure each figure for N seconds (default %u)\n"
"  -h, --help        show this help\n"
"      --version     show the version\n", VB_SECONDS_DEFAULT);
}

/* Rewrite the whole picture, again and again. */
static void *vb_scribble_all(void *arg)
{
	(void)arg;
	for (uint32_t v = 1; !vb_stop_scribble; v += 0x010203) {
		for (size_t i = 0; i < (size_t)VB_W * VB_H; i++)
			vb_fb[i] = v;
		usleep(2000);
	}
	return NULL;
}

/* A 64x64 square that moves every 16 ms. */
static void *vb_scribble_square(void *arg)
{
	(void)arg;
	for (uint32_t n = 0; !vb_stop_scribble; n++) {
		uint32_t x0 = (n * 37) % (VB_W - 64), y0 = (n * 23) % (VB_H - 64);
		for (uint32_t y = y0; y < y0 + 64; y++)
			for (uint32_t x = x0; x < x0 + 64; x++)
				vb_fb[(size_t)y * VB_W + x] = n * 0x10101;
		usleep(16000);
	}
	return NULL;
}

struct vb_view {
	unsigned long updates;
	uint64_t pixels;
	int failed;
};

static void *vb_view(void *arg)
{
	struct vb_view *v = arg;
	struct nvt_rfb *r = calloc(1, sizeof(*r));
	uint8_t types[16];
	unsigned n;

	if (!r || nvt_rfb_open(r, vb_port, types, &n) < 0 || nvt_rfb_init(r) < 0 ||
	    nvt_rfb_request(r, 0) < 0 || nvt_rfb_update(r, 5000) < 0) {
		v->failed = 1;
		goto out;
	}
	while (!vb_stop_view) {
		if (nvt_rfb_request(r, 1) < 0 || nvt_rfb_update(r, 5000) < 0) {
			v->failed = 1;
			break;
		}
		v->updates++;
		for (unsigned i = 0; i < r->nrects; i++)
			v->pixels += (uint64_t)r->rects[i].w * r->rects[i].h;
	}
out:
	if (r)
		nvt_rfb_close(r);
	free(r);
	return NULL;
}

/* The CPU time of nvd's live view thread so far (its name: nvd-vnc), in
 * clock ticks; 0 when there is none. */
static long long vb_view_ticks(pid_t nvd)
{
	char path[320], buf[512];
	long long ticks = 0;
	struct dirent *e;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)nvd);
	DIR *dir = opendir(path);
	while (dir && (e = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", (int)nvd, e->d_name);
		FILE *f = fopen(path, "r");
		int ours = f && fgets(buf, sizeof(buf), f) && !strcmp(buf, "nvd-vnc\n");
		if (f)
			fclose(f);
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)nvd, e->d_name);
		f = ours ? fopen(path, "r") : NULL;
		const char *p = f && fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		unsigned long long ut, st;
		/* after the name: state, then 10 fields, then utime and stime */
		if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
				&st) == 2)
			ticks = (long long)(ut + st);
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return ticks;
}

static int vb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Fills and blits a second for the given seconds; nvd's CPU ticks in *ticks. */
static double vb_draws(struct nvt_vc *x, pid_t nvd, unsigned seconds, long long *ticks)
{
	unsigned long draws = 0;
	long long t0 = nvt_cpu_ticks(nvd);
	int64_t start = glb_now_ns(), end = start + (int64_t)seconds * 1000000000;
	while (glb_now_ns() < end) {
		if (nvt_vc_draw(x, VB_DRAWS) < 0 || nvt_finish(&x->p) < 0)
			return -1;
		draws += VB_DRAWS;
	}
	*ticks = nvt_cpu_ticks(nvd) - t0;
	return draws / ((glb_now_ns() - start) / 1e9);
}

static int vb_measure(const char *sock, pid_t nvd, unsigned seconds)
{
	struct nvt_vc x;
	pthread_t scribbler, viewer;
	struct vb_view v = { 0 };

	/* updates a second, the whole picture changing */
	vb_stop_scribble = vb_stop_view = 0;
	if (pthread_create(&scribbler, NULL, vb_scribble_all, NULL))
		return -1;
	if (pthread_create(&viewer, NULL, vb_view, &v)) {
		vb_stop_scribble = 1;
		pthread_join(scribbler, NULL);
		return -1;
	}
	nanosleep(&(struct timespec){ .tv_sec = seconds }, NULL);
	vb_stop_view = 1;
	pthread_join(viewer, NULL);
	vb_stop_scribble = 1;
	pthread_join(scribbler, NULL);
	if (v.failed)
		return -1;
	printf("vnc: %.1f updates/s at %ux%u, the whole picture changing (%.0f%% of a frame "
	       "each, %.0f MB/s raw)\n", v.updates / (double)seconds, VB_W, VB_H,
	       v.updates ? 100.0 * v.pixels / v.updates / (VB_W * VB_H) : 0.0,
	       v.pixels * 4.0 / seconds / 1e6);

	/* the card's throughput without and with a viewer */
	if (nvt_vc_open(&x, sock, "vnc-bench", 0) < 0 || nvt_finish(&x.p) < 0)
		return -1;
	vb_stop_scribble = 0;
	if (pthread_create(&scribbler, NULL, vb_scribble_square, NULL))
		return -1;
	double base = 0, viewed = 0, ratio[VB_ROUNDS];
	long long base_ticks = 0, viewed_ticks = 0, view_ticks = 0, t;
	unsigned long updates = 0;
	int failed = 0;
	for (unsigned i = 0; i < VB_ROUNDS && !failed; i++) {
		double d = vb_draws(&x, nvd, seconds, &t), alone = d;
		base += d;
		base_ticks += t;
		struct vb_view w = { 0 };
		vb_stop_view = 0;
		if (d < 0 || pthread_create(&viewer, NULL, vb_view, &w)) {
			failed = 1;
			break;
		}
		usleep(300000);   /* connected and served its first frame */
		long long t0 = vb_view_ticks(nvd);
		d = vb_draws(&x, nvd, seconds, &t);
		view_ticks += vb_view_ticks(nvd) - t0;
		vb_stop_view = 1;
		pthread_join(viewer, NULL);
		viewed += d;
		viewed_ticks += t;
		ratio[i] = d / alone;
		updates += w.updates;
		failed = d < 0 || w.failed;
	}
	vb_stop_scribble = 1;
	pthread_join(scribbler, NULL);
	nvc_close(x.c);
	if (failed)
		return -1;
	double hz = (double)sysconf(_SC_CLK_TCK), span = (double)VB_ROUNDS * seconds;
	/* other loads on the machine come and go: the median of each round's
	 * ratio to the one just before it */
	qsort(ratio, VB_ROUNDS, sizeof(*ratio), vb_cmp_double);
	printf("vnc: card throughput %.0f draws/s without a viewer, %.0f with one "
	       "(%.1f updates/s): ratio %.3f (median of %u pairs, %.3f to %.3f)\n",
	       base / VB_ROUNDS, viewed / VB_ROUNDS, updates / span,
	       (ratio[(VB_ROUNDS - 1) / 2] + ratio[VB_ROUNDS / 2]) / 2, VB_ROUNDS, ratio[0],
	       ratio[VB_ROUNDS - 1]);
	printf("vnc: nvd's CPU %.0f%% of a core without a viewer, %.0f%% with one, of which "
	       "the live view's thread %.1f%%\n", 100.0 * base_ticks / hz / span,
	       100.0 * viewed_ticks / hz / span, 100.0 * view_ticks / hz / span);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, 0, 't' }, { "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },        { 0, 0, 0, 0 },
	};
	unsigned seconds = VB_SECONDS_DEFAULT;
	struct nvt_paths at;
	char listen[32];
	int c;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "vnc: ...", not a path */
	while ((c = getopt_long(argc, argv, "t:h", opts, NULL)) != -1) {
		if (c == 't') {
			if (glb_parse_count("--seconds", optarg, 1, 600, &seconds) < 0)
				return 2;
			continue;
		}
		return glb_other_option(c, vb_usage);
	}
	if (optind < argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);
	if (nvt_paths(&at, "../bin") < 0) {
		fprintf(stderr, "vnc: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	vb_port = nvt_rfb_free_port();
	snprintf(listen, sizeof(listen), "127.0.0.1:%u", vb_port);
	const char *const extra[] = { "--vnc", listen, NULL };
	const char *sock = NULL;
	struct nvt_daemon d;
	int own;
	if (glb_daemon_start(&d, &sock, 1, NULL, extra, &own)) {
		fprintf(stderr, "vnc: cannot start nvd (%s)\n", getenv("NVD_BIN"));
		return 1;
	}
	struct nvc *m;
	struct nvc_bo *bo;
	struct nvc_mode mode;
	uint32_t fb;
	if (nvc_connect(sock, "vnc-bench-master", &m) < 0 || nvc_set_master(m) < 0 ||
	    nvc_disp_mode(m, 0, 0, &mode) < 0 || mode.hdisplay != VB_W || mode.vdisplay != VB_H ||
	    nvc_bo_new(m, (uint64_t)VB_W * VB_H * 4, NVC_VRAM, &bo) < 0 || !(vb_fb = nvc_bo_map(bo)) ||
	    nvc_fb_new(m, bo, 0, VB_W, VB_H, VB_W * 4, NVC_FB_XRGB8888, &fb) < 0 ||
	    nvc_disp_set_head(m, 0, &(struct nvc_head){ .fb = fb, .outputs = 1, .mode = mode }) < 0 ||
	    vb_measure(sock, d.pid, seconds) < 0)
		printf("vnc: not measured (%s)\n", nvc_error());
	glb_daemon_stop(&d, own);
	return 0;
}
