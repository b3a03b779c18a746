/* bench/evict: how fast nvd's memory manager moves buffers out of the
 * card's apertures and back, against memcpy of the same bytes.
 *
 * One client on nvd --vram 64 --gart 48 (some 48 MiB of VRAM and 16 of
 * GART for clients) uses N buffers of 4 MiB in VRAM round-robin, one
 * submission each (a 4 KiB M2MF copy inside the buffer): with more than
 * fit, every use places its buffer back and evicts the least recently used
 * one (VRAM to GART or host memory).  The same round with buffers that all
 * fit is the cost of a submission alone; the difference, over the bytes
 * nvd says it evicted plus as many restored, is the move throughput.  A
 * move is a remap of the buffer's memfd, not a copy, which is why it can
 * beat memcpy.  Prints the figures; never passes or fails. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/glbench.h"

#define EV_MIB       (1u << 20)
#define EV_BUF       (4 * EV_MIB)
#define EV_FIT       8            /* buffers that fit in VRAM together */
#define EV_OVER      24           /* 96 MiB: VRAM, GART and host memory */
#define EV_ROUNDS    4

/* Rounds of using n buffers in turn: seconds, and the bytes evicted. */
static int ev_rounds(struct nvt_client *t, struct nvt_buf *b, unsigned n, unsigned rounds,
		     double *secs, uint64_t *moved)
{
	struct nvc_status st;
	if (nvc_status(t->c, &st) < 0)
		return -1;
	uint64_t before = st.evicted_bytes;
	double t0 = glb_now_ns() / 1e9;
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned i = 0; i < n; i++) {
			nvt_touch_vram(&t->p, &b[i]);
			if (nvt_finish(&t->p) < 0)
				return -1;
		}
	*secs = glb_now_ns() / 1e9 - t0;
	if (nvc_status(t->c, &st) < 0)
		return -1;
	*moved = st.evicted_bytes - before;
	return 0;
}

static double ev_memcpy_gbs(struct nvt_buf *b, unsigned n)
{
	uint8_t *tmp = malloc(EV_BUF);
	double best = 0;
	if (!tmp)
		return 0;
	for (unsigned r = 0; r < EV_ROUNDS; r++) {
		double t0 = glb_now_ns() / 1e9;
		for (unsigned i = 0; i < n; i++) {
			memcpy(tmp, b[i].shadow, EV_BUF);
			memcpy(b[i].shadow, tmp, EV_BUF);
		}
		double gbs = 2.0 * n * EV_BUF / (glb_now_ns() / 1e9 - t0) / 1e9;
		best = gbs > best ? gbs : best;
	}
	free(tmp);
	return best;
}

static void ev_usage(FILE *f)
{
	fprintf(f,
		"usage: evict [-r ROUNDS] [-s PATH]\n"
		"  -r, --rounds N     rounds over the buffers per measurement (default %d)\n"
		"  -s, --socket PATH  use a running nvd started with --vram 64 --gart 48 (default:\n"
		"                     start one, $NVD_BIN or ../bin/nvd beside this program)\n"
		"  -h, --help         show this help\n"
		"      --version      show the version\n",
		EV_ROUNDS);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "rounds", required_argument, 0, 'r' }, { "socket", required_argument, 0, 's' },
		{ "help", no_argument, 0, 'h' },         { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	static const char *const args[] = { "--vram", "64", "--gart", "48", NULL };
	unsigned rounds = EV_ROUNDS;
	const char *sock = NULL;
	int c, own;

	argv[0] = program_invocation_short_name;
	while ((c = getopt_long(argc, argv, "r:s:h", lo, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (glb_parse_count("--rounds", optarg, 1, 1000, &rounds) < 0)
				return 2;
			break;
		case 's': sock = optarg; break;
		default: return glb_other_option(c, ev_usage);
		}
	}
	if (optind != argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);

	struct nvt_paths at;   /* $NVD_BIN: the nvd beside this program unless set */
	if (nvt_paths(&at, "../bin") < 0) {
		fprintf(stderr, "evict: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	struct nvt_daemon d;
	const char *why = glb_daemon_start(&d, &sock, 1, NULL, args, &own);
	struct nvt_client t;
	static struct nvt_buf b[EV_OVER];
	double fit_s, over_s;
	uint64_t fit_moved, over_moved;
	unsigned made = 0;
	if (why || nvt_client_open_mesa(&t, sock, "bench-evict") < 0) {
		printf("evict: no figure: %s\n", why ? why : "cannot open a client");
		glb_daemon_stop(&d, own);
		return 0;
	}
	while (made < EV_OVER && nvt_buf_new(t.c, EV_BUF, NVC_VRAM, made, &b[made]) == 0)
		made++;
	printf("%u buffers of 4 MiB used in turn, one submission each, %u rounds\n", made, rounds);
	if (made < EV_OVER || ev_rounds(&t, b, EV_FIT, 1, &fit_s, &fit_moved) < 0 ||
	    ev_rounds(&t, b, EV_FIT, rounds, &fit_s, &fit_moved) < 0 ||
	    ev_rounds(&t, b, EV_OVER, 1, &over_s, &over_moved) < 0 ||
	    ev_rounds(&t, b, EV_OVER, rounds, &over_s, &over_moved) < 0) {
		printf("evict: no figure: %s\n", nvc_error());
	} else {
		double per_use = fit_s / (EV_FIT * rounds);
		double moving = over_s - per_use * EV_OVER * rounds;
		double bytes = 2.0 * (double)over_moved;   /* evicted, and as many restored */
		double gbs = moving > 0 ? bytes / moving / 1e9 : 0;
		double mc = ev_memcpy_gbs(b, EV_OVER);
		printf("%-28s %8.1f us per submission\n", "all in VRAM:", per_use * 1e6);
		printf("%-28s %8.1f us per submission, %.0f MiB evicted\n", "over VRAM and GART:",
		       over_s / (EV_OVER * rounds) * 1e6, over_moved / (double)EV_MIB);
		printf("%-28s %8.2f GB/s\n", "evict + restore:", gbs);
		printf("%-28s %8.2f GB/s\n", "memcpy, same bytes:", mc);
		printf("ratio evict+restore/memcpy: %.2f\n", mc > 0 ? gbs / mc : 0);
	}
	for (unsigned i = 0; i < made; i++)
		nvt_buf_free(&b[i]);
	nvt_client_close(&t);
	glb_daemon_stop(&d, own);
	return 0;
}
