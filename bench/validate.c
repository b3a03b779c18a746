/* bench/validate: throughput of nvd_validate (copy + validate + reloc) on a
 * realistic stream against memcpy of the same bytes, measured in the same
 * run (best of N, CLOCK_MONOTONIC).
 *
 * The stream mixes what Mesa's nv30 driver and xf86-video-nouveau emit:
 * many short state packets (2D surface setup, GDI fills, blits, M2MF
 * copies with relocated offsets, 3D viewport / blend / texture / vertex
 * state, vertex program uploads) between long inline data packets (IFC
 * COLOR rows, 3D VERTEX_DATA).  It is cut into submissions of about
 * 128 KiB with at most 1024 relocations each, as the submit ring would carry
 * them.  `validate [RUNS [MIB]]` (default 20 runs of 4 MiB: the stream sits
 * in the cache, as a client's freshly written push buffer does; a stream
 * larger than the last-level cache measures memory-bound copies instead).
 * Prints the figures; never passes or fails. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/formats.h"
#include "hw/fp-isa.h"
#include "hw/methods.h"
#include "hw/tex.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "nvd/validate.h"
#include "bench/glbench.h"

#define BENCH_MIB        4              /* stream size, default */
#define BENCH_SUB_BYTES  (128u << 10)   /* one submission's push range, about */
#define BENCH_SUB_RELOCS 1024
#define BENCH_RUNS       20

#define B_PB_ADDR   0x02000000u         /* GART: the push buffer */
#define B_VRAM_ADDR 0x00100000u
#define B_VRAM_SIZE (64u << 20)
#define B_GART_ADDR 0x01000000u
#define B_GART_SIZE (16u << 20)

enum { B_BO_PUSH, B_BO_VRAM, B_BO_GART, B_NBOS };

/* The client holds bench_held buffers: the stream's three, listed, and the
 * others unlisted, as the daemon passes them (4 KiB each in VRAM above the
 * stream's; never touched). */
#define B_HELD_MAX  4096u
#define B_HELD_ADDR 0x08000000u
static unsigned bench_held = B_NBOS;

enum {
	B_H_NULL = 0, B_H_VRAM = 0xbeef0201, B_H_GART = 0xbeef0202, B_H_NTFY = 0xd8000003,
	B_H_M2MF = 0x80000018, B_H_SURF2D = 0x80000010, B_H_GDI = 0x80000016,
	B_H_BLIT = 0x80000015, B_H_IFC = 0x8000001a, B_H_CLIP = 0x80000013, B_H_3D = 0x80000019,
};
enum { B_S_M2MF = 0, B_S_SF2D = 2, B_S_GDI = 3, B_S_BLIT = 4, B_S_IFC = 5, B_S_MISC = 6,
       B_S_3D = 7 };

static const struct nvd_vobj bench_objs[] = {
	{ B_H_NULL, NV_CLASS_NULL_OBJ, NVD_VOBJ_NULL, 0, 0, 0 },
	{ B_H_VRAM, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_VRAM, 0, 0, 0 },
	{ B_H_GART, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_GART, 0, 0, 0 },
	{ B_H_NTFY, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_BO, NVD_DOMAIN_GART, B_GART_ADDR, 32 },
	{ B_H_M2MF, NV_CLASS_M2MF, NVD_VOBJ_GR, 0, 0, 0 },
	{ B_H_SURF2D, NV_CLASS_SURF2D, NVD_VOBJ_GR, 0, 0, 0 },
	{ B_H_GDI, NV_CLASS_GDI, NVD_VOBJ_GR, 0, 0, 0 },
	{ B_H_BLIT, NV_CLASS_BLIT, NVD_VOBJ_GR, 0, 0, 0 },
	{ B_H_IFC, NV_CLASS_IFC, NVD_VOBJ_GR, 0, 0, 0 },
	{ B_H_CLIP, NV_CLASS_CLIP, NVD_VOBJ_GR, 0, 0, 0 },
	{ B_H_3D, NV_CLASS_CURIE_NV40, NVD_VOBJ_GR, 0, 0, 0 },
};

static const struct nvd_vobj *bench_lookup(void *ctx, uint32_t handle)
{
	(void)ctx;
	for (unsigned i = 0; i < sizeof(bench_objs) / sizeof(bench_objs[0]); i++)
		if (bench_objs[i].handle == handle)
			return &bench_objs[i];
	return NULL;
}

/* The channel's fragment program shadow (nvd_vfp): every bind takes a slot. */
#define B_FP_AREA (256u << 10)
static struct nvd_vfp bench_fp = {
	0, 0x7f000000u, B_FP_AREA,
	0x80000101, 0x80000102, 0x80000103, 0x80000104, 0x80000105, 0x80000106, -1,
};

/* ---- building the stream ---- */

struct bench_sub { uint32_t offset, length, rel0, nrel; };

static uint8_t *pb;
static uint32_t pw;                      /* words written */
static struct nvd_submit_reloc *rels;
static uint32_t nrels;
static uint32_t bench_total;            /* stream bytes */
static struct bench_sub *subs;
static unsigned subs_cap;
static unsigned nsubs;
static uint32_t sub_start, sub_rel0;
static unsigned long long n_packets, n_inline_words;
static uint32_t rng = 12345;

static uint32_t bench_rand(void)
{
	rng = rng * 1103515245 + 12345;
	return rng >> 8;
}

static void w(uint32_t v)
{
	nv_wr32le(pb + 4 * (size_t)pw++, v);
}

static void hdr(int ni, unsigned subc, uint32_t mthd, unsigned n)
{
	w(ni ? NV_CMD_NONINC_WORD(subc, mthd, n) : NV_CMD_INC_WORD(subc, mthd, n));
	n_packets++;
}

#define BENCH_NARGS(...) (sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4)
#define INC(s, m, ...) do { \
	const uint32_t d_[] = { __VA_ARGS__ }; \
	hdr(0, s, m, BENCH_NARGS(__VA_ARGS__)); \
	for (unsigned i_ = 0; i_ < BENCH_NARGS(__VA_ARGS__); i_++) \
		w(d_[i_]); \
} while (0)

/* Word `back` words before the end gets bo's address + data (and the OR choice). */
static void reloc_at(uint32_t back, unsigned bo, uint32_t flags, uint32_t data, uint32_t vor,
		     uint32_t tor)
{
	rels[nrels++] = (struct nvd_submit_reloc){ B_BO_PUSH, (pw - back) * 4, bo, flags,
						   data, vor, tor };
}

static void reloc_last(unsigned bo, uint32_t flags, uint32_t data, uint32_t vor, uint32_t tor)
{
	reloc_at(1, bo, flags, data, vor, tor);
}

static void bench_init_objects(void)
{
	INC(B_S_M2MF, NV_FIFO_OBJECT, B_H_M2MF);
	INC(B_S_M2MF, NV_M2MF_DMA_NOTIFY, B_H_NTFY);
	INC(B_S_SF2D, NV_FIFO_OBJECT, B_H_SURF2D);
	INC(B_S_SF2D, NV_SURF2D_DMA_NOTIFY, B_H_NULL, B_H_VRAM, B_H_VRAM);
	INC(B_S_GDI, NV_FIFO_OBJECT, B_H_GDI);
	INC(B_S_GDI, NV_GDI_DMA_NOTIFY, B_H_NTFY, B_H_NULL);
	INC(B_S_GDI, NV_GDI_SURFACE, B_H_SURF2D);
	INC(B_S_GDI, NV_GDI_OPERATION, 3);
	INC(B_S_BLIT, NV_FIFO_OBJECT, B_H_BLIT);
	INC(B_S_BLIT, NV_BLIT_DMA_NOTIFY, B_H_NTFY, B_H_NULL);
	INC(B_S_BLIT, NV_BLIT_SURFACES, B_H_SURF2D);
	INC(B_S_BLIT, NV_BLIT_OPERATION, 3);
	INC(B_S_IFC, NV_FIFO_OBJECT, B_H_IFC);
	INC(B_S_IFC, NV_IFC_DMA_NOTIFY, B_H_NTFY);
	INC(B_S_IFC, NV_IFC_SURFACE, B_H_SURF2D);
	INC(B_S_3D, NV_FIFO_OBJECT, B_H_3D);
	INC(B_S_3D, NV_CURIE_DMA_NOTIFY, B_H_NTFY, B_H_VRAM, B_H_GART);
	INC(B_S_3D, NV_CURIE_DMA_COLOR0, B_H_VRAM, B_H_VRAM, B_H_VRAM, B_H_GART, B_H_NTFY);
}

static void bench_fill(void)
{
	INC(B_S_SF2D, NV_SURF2D_FORMAT, NV_SURF_FORMAT_Y32, 0x1000 << 16 | 0x1000, 0, 0);
	reloc_at(2, B_BO_VRAM, NVD_RELOC_LOW, 0, 0, 0);      /* OFFSET_SOURCE */
	reloc_at(1, B_BO_VRAM, NVD_RELOC_LOW, 0, 0, 0);      /* OFFSET_DESTIN */
	INC(B_S_GDI, NV_GDI_COLOR_FORMAT, 3);
	for (unsigned i = 0; i < 8; i++) {
		uint32_t x = bench_rand() % 900, y = bench_rand() % 700;
		INC(B_S_GDI, NV_GDI_COLOR1_A, bench_rand());
		INC(B_S_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, x << 16 | y, 100 << 16 | 60);
	}
}

static void bench_blit(void)
{
	INC(B_S_SF2D, NV_SURF2D_FORMAT, NV_SURF_FORMAT_A8R8G8B8, 0x1000 << 16 | 0x1000,
	    B_VRAM_ADDR, B_VRAM_ADDR);
	for (unsigned i = 0; i < 8; i++)
		INC(B_S_BLIT, NV_BLIT_POINT_IN, (bench_rand() % 700) << 16 | bench_rand() % 900,
		    (bench_rand() % 700) << 16 | bench_rand() % 900, 64 << 16 | 128);
}

static void bench_m2mf(void)
{
	INC(B_S_M2MF, NV_M2MF_DMA_BUFFER_IN, B_H_VRAM, B_H_GART);
	hdr(0, B_S_M2MF, NV_M2MF_OFFSET_IN, 8);
	w(0);
	reloc_last(B_BO_VRAM, NVD_RELOC_LOW, (bench_rand() % 512) * 0x1000, 0, 0);
	w(0);
	reloc_last(B_BO_GART, NVD_RELOC_LOW, (bench_rand() % 64) * 0x1000, 0, 0);
	w(0x1000);
	w(0x400);
	w(0x400);
	w(32);
	w(0x101);
	w(0);
	INC(B_S_M2MF, NV_M2MF_NOP, 0);
	INC(B_S_M2MF, NV_M2MF_OFFSET_OUT, 0);
}

/* An upload of rows of 256 pixels, one COLOR packet per row. */
static void bench_ifc(void)
{
	uint32_t x = bench_rand() % 700, y = bench_rand() % 600;
	INC(B_S_MISC, NV_FIFO_OBJECT, B_H_CLIP);
	INC(B_S_MISC, NV_CLIP_POINT, y << 16 | x, 64 << 16 | 256);
	INC(B_S_SF2D, NV_SURF2D_FORMAT, NV_SURF_FORMAT_A8R8G8B8, 0x1000 << 16 | 0x1000,
	    B_VRAM_ADDR, B_VRAM_ADDR);
	INC(B_S_IFC, NV_IFC_OPERATION, 3, 4, y << 16 | x, 64 << 16 | 256, 64 << 16 | 256);
	for (unsigned r = 0; r < 64; r++) {
		hdr(0, B_S_IFC, NV_IFC_COLOR, 256);
		for (unsigned i = 0; i < 256; i++)
			w(bench_rand());
		n_inline_words += 256;
	}
}

static void bench_3d_draw(void)
{
	INC(B_S_3D, NV_CURIE_RT_HORIZ, 1024 << 16, 768 << 16, 0x148, 0x1000);
	INC(B_S_3D, NV_CURIE_COLOR0_OFFSET, 0);
	reloc_last(B_BO_VRAM, NVD_RELOC_LOW, 0, 0, 0);
	/* the depth test below needs a zeta buffer: 1024x768 Z24S8 */
	INC(B_S_3D, NV_CURIE_ZETA_OFFSET, 0);
	reloc_last(B_BO_VRAM, NVD_RELOC_LOW, 0x800000, 0, 0);
	INC(B_S_3D, NV_CURIE_ZETA_PITCH, 0x1000);
	INC(B_S_3D, NV_CURIE_VIEWPORT_TRANSLATE, 0x44000000, 0x43c00000, 0x3f000000, 0,
	    0x44000000, 0xc3c00000, 0x3f000000, 0);
	INC(B_S_3D, NV_CURIE_BLEND_FUNC_ENABLE, 1, 0x03020302, 0x03030303);
	INC(B_S_3D, NV_CURIE_DEPTH_FUNC, 0x201, 1, 1);
	INC(B_S_3D, NV_CURIE_SCISSOR_HORIZ, 1024 << 16, 768 << 16);
	INC(B_S_3D, NV_CURIE_SHADE_MODEL, 0x1d01);
	INC(B_S_3D, NV_CURIE_CULL_FACE_ENABLE, 0);
	/* one texture unit: the 8-word block, offset relocated */
	hdr(0, B_S_3D, NV_CURIE_TEX_OFFSET, 8);
	w(0);
	reloc_last(B_BO_VRAM, NVD_RELOC_LOW, 0x400000, 0, 0);
	w(NV40_TEX_FORMAT_DMA0 | 2u << NV40_TEX_FORMAT_DIMS_SHIFT | NV40_TEX_FORMAT_UNK15 |
	  NV40_TEX_FMT_A8R8G8B8 << NV40_TEX_FORMAT_FORMAT_SHIFT |
	  1u << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT);
	w(0x00030101);
	w(0x80000000);
	w(0x0000aae4);
	w(0x02022000);
	w(256 << 16 | 256);
	w(0);
	INC(B_S_3D, NV_CURIE_TEX_CACHE_CTL, 2);
	INC(B_S_3D, NV_CURIE_TEX_CACHE_CTL, 1);
	/* vertex program: 24 instructions, one packet each, as Mesa uploads */
	INC(B_S_3D, NV_CURIE_VP_UPLOAD_FROM_ID, 0);
	for (unsigned i = 0; i < 24; i++)
		INC(B_S_3D, NV_CURIE_VP_UPLOAD_INST, 0x401f9c6c, 0x0040000d, 0x8106c083,
		    0x6041ff80 + i);
	INC(B_S_3D, NV_CURIE_VP_START_FROM_ID, 0);
	INC(B_S_3D, NV_CURIE_FP_ACTIVE_PROGRAM, 0);
	reloc_last(B_BO_GART, NVD_RELOC_LOW | NVD_RELOC_OR, 0x100, 1, 2);
	/* vertex formats and buffers, then inline vertices */
	hdr(0, B_S_3D, NV_CURIE_VTXFMT, 16);
	for (unsigned i = 0; i < 16; i++)
		w(i < 2 ? 0x42 | (i * 0x10) << 8 : 0x2);
	INC(B_S_3D, NV_CURIE_VTXBUF, 0, 0);
	reloc_at(2, B_BO_GART, NVD_RELOC_LOW | NVD_RELOC_OR, 0x1000, 0, 1u << 31);
	reloc_last(B_BO_VRAM, NVD_RELOC_LOW | NVD_RELOC_OR, 0x2000, 0, 1u << 31);
	INC(B_S_3D, NV_CURIE_VERTEX_BEGIN_END, 5);
	unsigned n = 256 + bench_rand() % 768;
	hdr(1, B_S_3D, NV_CURIE_VERTEX_DATA, n);
	for (unsigned i = 0; i < n; i++)
		w(0x3f000000 + bench_rand() % 0x1000000);
	n_inline_words += n;
	INC(B_S_3D, NV_CURIE_VERTEX_BEGIN_END, 0);
	INC(B_S_3D, NV_CURIE_FENCE_OFFSET, 0x10, pw);
}

static void bench_cut(void)
{
	subs[nsubs++] = (struct bench_sub){ sub_start * 4, (pw - sub_start) * 4, sub_rel0,
					    nrels - sub_rel0 };
	sub_start = pw;
	sub_rel0 = nrels;
}

static void bench_build(void)
{
	subs_cap = bench_total / (BENCH_SUB_BYTES / 2) + 16;
	pb = calloc(1, bench_total + (64u << 10));
	rels = calloc(bench_total / 16, sizeof *rels);
	subs = calloc(subs_cap, sizeof *subs);
	if (!pb || !rels || !subs) {
		fprintf(stderr, "validate: out of memory\n");
		exit(0);
	}
	bench_init_objects();
	while (pw * 4 < bench_total && nsubs < subs_cap - 1) {
		unsigned k = bench_rand() % 16;
		if (k < 7)
			bench_3d_draw();
		else if (k < 10)
			bench_fill();
		else if (k < 12)
			bench_blit();
		else if (k < 15)
			bench_m2mf();
		else
			bench_ifc();
		if ((pw - sub_start) * 4 >= BENCH_SUB_BYTES || nrels - sub_rel0 > BENCH_SUB_RELOCS - 16)
			bench_cut();
	}
	if (pw != sub_start)
		bench_cut();
}

/* ---- timing ---- */

static double bench_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void bench_usage(FILE *f)
{
	fprintf(f,
"usage: validate [-b N] [RUNS [MIB]]\n"
"Time nvd's copy + validate + relocate of a MIB MiB command stream (default %u)\n"
"against memcpy of the same bytes, best of RUNS runs (default %u).\n"
"\n"
"  -b, --buffers N the client holds N buffers (%u to %u; default %u): the\n"
"                  stream's own, listed, and others it does not list\n"
"  -h, --help      show this help\n"
"      --version   show the version\n", BENCH_MIB, BENCH_RUNS, B_NBOS, B_HELD_MAX, B_NBOS);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "buffers", required_argument, 0, 'b' },
		{ "help", no_argument, 0, 'h' }, { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 }
	};
	unsigned runs = BENCH_RUNS, mib = BENCH_MIB;
	int o;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "validate: ...", not a path */
	while ((o = getopt_long(argc, argv, "b:h", lo, NULL)) != -1) {
		switch (o) {
		case 'b':
			if (glb_parse_count("--buffers", optarg, B_NBOS, B_HELD_MAX, &bench_held) < 0)
				return 2;
			break;
		default: return glb_other_option(o, bench_usage);
		}
	}
	if (argc - optind > 2)
		return glb_bad_usage("unexpected argument '%s'", argv[optind + 2]);
	if ((optind < argc && glb_parse_count("RUNS", argv[optind], 1, 100000, &runs) < 0) ||
	    (optind + 1 < argc && glb_parse_count("MIB", argv[optind + 1], 1, 1024, &mib) < 0))
		return 2;
	bench_total = mib << 20;
	bench_build();

	/* GART holds the fragment program the draws bind: one END at 0x100
	 * (nvd copies a program up to its END at every bind) */
	uint8_t *gart = calloc(1, B_GART_SIZE);
	if (!gart) {
		fprintf(stderr, "validate: out of memory\n");
		return 1;
	}
	nvd_vfp_fill(gart + 0x100, NV40_FP_INSN_BYTES);
	struct nvd_vbo *bos = calloc(bench_held, sizeof(*bos));
	uint8_t *used = calloc(bench_held, 1);
	size_t cap = pw + pw / 4 + 16;        /* and the daemon's program copies */
	uint32_t *out = malloc(cap * 4);
	struct nvd_vstate *vs = nvd_vstate_new();
	if (!bos || !used || !out || !vs) {
		fprintf(stderr, "validate: out of memory\n");
		return 0;
	}
	for (unsigned i = B_NBOS; i < bench_held; i++)
		bos[i] = (struct nvd_vbo){ B_HELD_ADDR + i * 0x1000u, 0x1000, NVD_DOMAIN_VRAM,
					   NVD_ACCESS_READ, NULL };
	bos[B_BO_PUSH] = (struct nvd_vbo){ B_PB_ADDR, bench_total + (64u << 10),
					       NVD_DOMAIN_GART, NVD_ACCESS_READ, pb };
	bos[B_BO_VRAM] = (struct nvd_vbo){ B_VRAM_ADDR, B_VRAM_SIZE, NVD_DOMAIN_VRAM,
					       NVD_ACCESS_READ | NVD_ACCESS_WRITE, NULL };
	bos[B_BO_GART] = (struct nvd_vbo){ B_GART_ADDR, B_GART_SIZE, NVD_DOMAIN_GART,
					       NVD_ACCESS_READ | NVD_ACCESS_WRITE, gart };

	double best_v = 1e9, best_m = 1e9;
	for (unsigned run = 0; run < runs; run++) {
		/* validate: every submission into the ring, in order */
		double t0 = bench_now();
		size_t at = 0;
		for (unsigned s = 0; s < nsubs; s++) {
			struct nvd_submit_push p = { B_BO_PUSH, subs[s].offset, subs[s].length };
			struct nvd_vsubmit sub = { bos, bench_held, &p, 1, rels + subs[s].rel0,
						   subs[s].nrel, bench_lookup, NULL, B_NBOS, used,
						   &bench_fp };
			struct nvd_verror e;
			long n = nvd_validate(vs, &sub, out + at, cap - at, &e);
			if (n < 0) {
				printf("validate: refused submission %u: %s (method 0x%04x data 0x%08x "
				       "at +0x%x)\n", s, e.why, e.mthd, e.data, e.offset);
				return 0;
			}
			at += n;
		}
		double t1 = bench_now();
		if (t1 - t0 < best_v)
			best_v = t1 - t0;

		/* memcpy: the same bytes, the same pieces */
		t0 = bench_now();
		at = 0;
		for (unsigned s = 0; s < nsubs; s++) {
			memcpy(out + at, pb + subs[s].offset, subs[s].length);
			at += subs[s].length / 4;
		}
		__asm__ volatile("" : : "r"(out) : "memory");
		t1 = bench_now();
		if (t1 - t0 < best_m)
			best_m = t1 - t0;
	}

	double bytes = (double)pw * 4;
	printf("validate: stream %.2f MiB in %u submissions, %llu packets (%.1f words/packet), "
	       "%u relocs, %.0f%% inline data\n", bytes / (1 << 20), nsubs, n_packets,
	       (double)pw / n_packets, nrels, 100.0 * n_inline_words / pw);
	printf("validate: %.2f GB/s, memcpy: %.2f GB/s, ratio %.2f\n", bytes / best_v / 1e9,
	       bytes / best_m / 1e9, best_m / best_v);
	printf("validate: %.1f us per submission of %.0f KiB, %u buffers held\n",
	       best_v * 1e6 / nsubs, bytes / nsubs / 1024, bench_held);
	nvd_vstate_free(vs);
	free(bos);
	free(used);
	free(out);
	free(gart);
	free(pb);
	free(rels);
	free(subs);
	return 0;
}
