/* nvd-demo: draw a picture with the NV4x 2D engine through nvd and save it
 * as a PNG.
 *
 * The same steps xf86-video-nouveau takes on NV40 (../shared/ref/ddx-2d.md
 * §3.2-3.4): a SURF2D context, a GDI rectangle fill (Y32 surface format with
 * the A8R8G8B8 colour format, so alpha is written as given), BLIT copies
 * (one of them overlapping its own source), then an M2MF download from VRAM
 * to a GART staging buffer.  The picture is also drawn on the CPU, and every
 * pixel the card produced is checked against it; --cpu writes that drawing
 * alone, without nvd, for tests to compare the card's PNG with. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/nvd.h"
#include "hw/chips.h"
#include "hw/enums-2d.h"
#include "hw/formats.h"
#include "hw/methods.h"
#include "hw/ramin.h"
#include "proto/proto.h"

/* nouveau's handles (nv_dma.h) and subchannels (nv04_accel.h). */
#define DEMO_H_NULL    0x00000000u
#define DEMO_H_SURF2D  0x80000010u
#define DEMO_H_ROP     0x80000011u
#define DEMO_H_PATT    0x80000012u
#define DEMO_H_BLIT    0x80000015u
#define DEMO_H_GDI     0x80000016u
#define DEMO_H_M2MF    0x80000018u

#define DEMO_SUBC_M2MF   0
#define DEMO_SUBC_SURF2D 2
#define DEMO_SUBC_GDI    3
#define DEMO_SUBC_BLIT   4
#define DEMO_SUBC_MISC   6

#define DEMO_PUSH_SIZE   (64u << 10)
#define DEMO_MIN_SIDE    32
#define DEMO_MAX_SIDE    4096      /* pitch (16 bits) and GDI sizes stay in range */
#define DEMO_TIMEOUT_NS  (30ll * 1000000000)
#define DEMO_POISON      0x5a0ff0a5u

/* The ternary ROP code for a plain copy (S), nv_rop.h's GXcopy. */
#define DEMO_ROP_COPY    0xcc

struct demo {
	const char *socket, *out;
	int cpu;                  /* --cpu: the CPU's drawing only, no nvd */
	unsigned w, h, pitch;
	struct nvc *c;
	struct nvc_chan *ch;
	struct nvc_bo *surf, *stage;
	struct nvc_pushbuf *pb;   /* NULL with --cpu: the words go nowhere */
	unsigned nrelocs;         /* in the pending submission */
	uint32_t *ref;            /* the CPU's picture, host-order A8R8G8B8 */
	unsigned nsubmits;
};

/* ---- push buffer ---- */

static void demo_mthd(struct demo *d, unsigned subc, uint32_t mthd, unsigned n)
{
	if (d->pb)
		nvc_pushbuf_mthd(d->pb, subc, mthd, n);
}

static void demo_word(struct demo *d, uint32_t v)
{
	if (d->pb)
		nvc_pushbuf_data(d->pb, v);
}

/* An address word: bo's card address + delta, relocated by the daemon. */
static void demo_addr(struct demo *d, struct nvc_bo *bo, unsigned access, uint32_t delta)
{
	if (!d->pb)
		return;
	nvc_pushbuf_reloc(d->pb, bo, access, (struct nvc_reloc){ .flags = NVC_RELOC_LOW,
								 .data = delta });
	d->nrelocs++;
}

/* Run what has been pushed and wait for it.  Every submission lists both
 * buffers: the surface state set by an earlier one still names them. */
static int demo_kick(struct demo *d, const char *what)
{
	uint32_t fence, words;

	if (d->cpu)
		return 0;
	nvc_pushbuf_refn(d->pb, d->surf, NVC_READ | NVC_WRITE);
	nvc_pushbuf_refn(d->pb, d->stage, NVC_WRITE);
	nvc_pushbuf_pending(d->pb, &words);
	if (nvc_pushbuf_kick(d->pb, &fence) < 0 ||
	    nvc_fence_wait(d->ch, fence, DEMO_TIMEOUT_NS) < 0) {
		fprintf(stderr, "nvd-demo: %s: %s\n", what, nvc_error());
		return -1;
	}
	printf("  %-44s %5u words, %2u relocations, fence %u done\n", what, words, d->nrelocs,
	       fence);
	d->nrelocs = 0;
	d->nsubmits++;
	return 0;
}

/* ---- what the card draws, and the CPU's copy of it ---- */

static void demo_surface(struct demo *d, uint32_t fmt)
{
	demo_mthd(d, DEMO_SUBC_SURF2D, NV_SURF2D_FORMAT, 4);
	demo_word(d, fmt);
	demo_word(d, d->pitch << 16 | d->pitch);
	demo_addr(d, d->surf, NVC_READ | NVC_WRITE, 0);
	demo_addr(d, d->surf, NVC_READ | NVC_WRITE, 0);
}

/* GDI: one colour, n rectangles in one burst of POINT/SIZE pairs. */
static void demo_fill(struct demo *d, uint32_t color, unsigned n, const unsigned (*r)[4])
{
	demo_mthd(d, DEMO_SUBC_GDI, NV_GDI_COLOR1_A, 1);
	demo_word(d, color);
	demo_mthd(d, DEMO_SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2 * n);
	for (unsigned i = 0; i < n; i++) {
		/* X 31:16, Y 15:0; W 31:16, H 15:0 */
		demo_word(d, r[i][0] << 16 | r[i][1]);
		demo_word(d, r[i][2] << 16 | r[i][3]);
		for (unsigned y = r[i][1]; y < r[i][1] + r[i][3]; y++)
			for (unsigned x = r[i][0]; x < r[i][0] + r[i][2]; x++)
				d->ref[y * d->w + x] = color;
	}
}

/* BLIT: a w x h copy; overlap behaves like memmove. */
static int demo_blit(struct demo *d, unsigned sx, unsigned sy, unsigned dx, unsigned dy,
		     unsigned w, unsigned h)
{
	uint32_t *tmp = malloc((size_t)w * h * sizeof(*tmp));

	if (!tmp) {
		fprintf(stderr, "nvd-demo: out of memory\n");
		return -1;
	}
	demo_mthd(d, DEMO_SUBC_BLIT, NV_BLIT_POINT_IN, 3);
	demo_word(d, sy << 16 | sx);    /* X 15:0, Y 31:16 */
	demo_word(d, dy << 16 | dx);
	demo_word(d, h << 16 | w);
	for (unsigned y = 0; y < h; y++)
		memcpy(&tmp[y * w], &d->ref[(sy + y) * d->w + sx], w * sizeof(*tmp));
	for (unsigned y = 0; y < h; y++)
		memcpy(&d->ref[(dy + y) * d->w + dx], &tmp[y * w], w * sizeof(*tmp));
	free(tmp);
	return 0;
}

/* Objects as xf86-video-nouveau's NVAccelCommonInit sets them up. */
static void demo_setup(struct demo *d)
{
	uint32_t vram = d->ch ? nvc_chan_vram_dma(d->ch) : 0;
	uint32_t gart = d->ch ? nvc_chan_gart_dma(d->ch) : 0;

	demo_mthd(d, DEMO_SUBC_M2MF, NV_FIFO_OBJECT, 1);
	demo_word(d, DEMO_H_M2MF);
	demo_mthd(d, DEMO_SUBC_SURF2D, NV_FIFO_OBJECT, 1);
	demo_word(d, DEMO_H_SURF2D);
	demo_mthd(d, DEMO_SUBC_GDI, NV_FIFO_OBJECT, 1);
	demo_word(d, DEMO_H_GDI);
	demo_mthd(d, DEMO_SUBC_BLIT, NV_FIFO_OBJECT, 1);
	demo_word(d, DEMO_H_BLIT);

	demo_mthd(d, DEMO_SUBC_SURF2D, NV_SURF2D_DMA_NOTIFY, 3);
	demo_word(d, DEMO_H_NULL);
	demo_word(d, vram);                     /* DMA_IMAGE_SOURCE */
	demo_word(d, vram);                     /* DMA_IMAGE_DESTIN */

	/* A pattern of all ones in colour ~0 and a copy ROP: P plays no part. */
	demo_mthd(d, DEMO_SUBC_MISC, NV_FIFO_OBJECT, 1);
	demo_word(d, DEMO_H_PATT);
	demo_mthd(d, DEMO_SUBC_MISC, NV_PATT_MONOCHROME_FORMAT, 7);
	demo_word(d, NV_PATT_MONO_FORMAT_CGA6);
	demo_word(d, NV_PATT_SHAPE_8X8);
	demo_word(d, NV_PATT_SELECT_MONO);
	demo_word(d, ~0u);                      /* MONOCHROME_COLOR(0) */
	demo_word(d, ~0u);                      /* MONOCHROME_COLOR(1) */
	demo_word(d, ~0u);                      /* MONOCHROME_PATTERN(0) */
	demo_word(d, ~0u);                      /* MONOCHROME_PATTERN(1) */
	demo_mthd(d, DEMO_SUBC_MISC, NV_FIFO_OBJECT, 1);
	demo_word(d, DEMO_H_ROP);
	demo_mthd(d, DEMO_SUBC_MISC, NV_ROP_ROP, 1);
	demo_word(d, DEMO_ROP_COPY);

	demo_mthd(d, DEMO_SUBC_GDI, NV_GDI_DMA_NOTIFY, 4);
	demo_word(d, DEMO_H_NULL);
	demo_word(d, DEMO_H_NULL);              /* DMA_FONTS */
	demo_word(d, DEMO_H_PATT);              /* PATTERN */
	demo_word(d, DEMO_H_ROP);               /* ROP */
	demo_mthd(d, DEMO_SUBC_GDI, NV_GDI_SURFACE, 1);
	demo_word(d, DEMO_H_SURF2D);
	demo_mthd(d, DEMO_SUBC_GDI, NV_GDI_OPERATION, 3);
	demo_word(d, NV_2D_OPERATION_SRCCOPY);
	demo_word(d, NV_GDI_COLOR_FORMAT_A8R8G8B8);
	demo_word(d, NV_PATT_MONO_FORMAT_LE);   /* MONOCHROME_FORMAT */

	demo_mthd(d, DEMO_SUBC_BLIT, NV_BLIT_DMA_NOTIFY, 5);
	demo_word(d, DEMO_H_NULL);
	demo_word(d, DEMO_H_NULL);              /* COLOR_KEY */
	demo_word(d, DEMO_H_NULL);              /* CLIP */
	demo_word(d, DEMO_H_PATT);              /* PATTERN */
	demo_word(d, DEMO_H_ROP);               /* ROP */
	demo_mthd(d, DEMO_SUBC_BLIT, NV_BLIT_SURFACES, 1);
	demo_word(d, DEMO_H_SURF2D);
	demo_mthd(d, DEMO_SUBC_BLIT, NV_BLIT_OPERATION, 1);
	demo_word(d, NV_2D_OPERATION_SRCCOPY);

	demo_mthd(d, DEMO_SUBC_M2MF, NV_M2MF_DMA_NOTIFY, 3);
	demo_word(d, DEMO_H_NULL);
	demo_word(d, vram);                     /* DMA_BUFFER_IN */
	demo_word(d, gart);                     /* DMA_BUFFER_OUT */
}

static int demo_draw(struct demo *d)
{
	unsigned ux = d->w / 16, uy = d->h / 16, sx = ux / 2 ? ux / 2 : 1, sy = uy / 2 ? uy / 2 : 1;

	demo_setup(d);
	/* Y32 for fills: with A8R8G8B8 the GDI forces alpha to 0xff. */
	demo_surface(d, NV_SURF_FORMAT_Y32);
	const unsigned bg[1][4] = { { 0, 0, d->w, d->h } };
	demo_fill(d, 0xff203040, 1, bg);
	const unsigned red[1][4] = { { 2 * ux, 2 * uy, 5 * ux, 4 * uy } };
	demo_fill(d, 0xffd03030, 1, red);
	const unsigned green[1][4] = { { 8 * ux, 2 * uy, 6 * ux, 6 * uy } };
	demo_fill(d, 0xff30c050, 1, green);
	const unsigned blue[1][4] = { { 3 * ux, 8 * uy, 6 * ux, 5 * uy } };
	demo_fill(d, 0xff3070e0, 1, blue);
	/* Half-transparent: proves the fill writes alpha as given. */
	const unsigned yellow[1][4] = { { 6 * ux, 5 * uy, 4 * ux, 4 * uy } };
	demo_fill(d, 0x80f0d020, 1, yellow);
	unsigned row[8][4];
	for (unsigned i = 0; i < 8; i++) {
		row[i][0] = 2 * i * ux + ux / 2;
		row[i][1] = 14 * uy;
		row[i][2] = ux;
		row[i][3] = uy;
	}
	demo_fill(d, 0xffffffff, 8, (const unsigned (*)[4])row);
	if (demo_kick(d, "setup, background, 12 rectangles (GDI)") < 0)
		return -1;

	/* Copies use the surface's own format, as nouveau's PrepareCopy does. */
	demo_surface(d, NV_SURF_FORMAT_A8R8G8B8);
	if (demo_blit(d, 2 * ux, 2 * uy, 10 * ux, 9 * uy, 5 * ux, 4 * uy) < 0 ||
	    /* down and right over itself: must copy back to front */
	    demo_blit(d, 8 * ux, 2 * uy, 8 * ux + sx, 2 * uy + sy, 6 * ux, 6 * uy) < 0 ||
	    /* up and left over itself */
	    demo_blit(d, 3 * ux, 8 * uy, 3 * ux - sx, 8 * uy - sy, 6 * ux, 5 * uy) < 0)
		return -1;
	return demo_kick(d, "3 copies, 2 overlapping their source (BLIT)");
}

/* M2MF from the VRAM surface to the GART staging buffer, 2047 lines at a time. */
static int demo_download(struct demo *d)
{
	for (unsigned y = 0; y < d->h; y += NV_M2MF_LINE_COUNT_MAX) {
		unsigned n = d->h - y < NV_M2MF_LINE_COUNT_MAX ? d->h - y : NV_M2MF_LINE_COUNT_MAX;
		demo_mthd(d, DEMO_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8);
		demo_addr(d, d->surf, NVC_READ | NVC_WRITE, y * d->pitch);
		demo_addr(d, d->stage, NVC_WRITE, y * d->pitch);
		demo_word(d, d->pitch);                 /* PITCH_IN */
		demo_word(d, d->pitch);                 /* PITCH_OUT */
		demo_word(d, d->pitch);                 /* LINE_LENGTH_IN */
		demo_word(d, n);                        /* LINE_COUNT */
		demo_word(d, 1u | 1u << 8);             /* FORMAT: input and output increment 1 */
		demo_word(d, 0);                        /* BUF_NOTIFY: starts the copy */
	}
	return demo_kick(d, "surface VRAM -> GART staging (M2MF)");
}

/* ---- checks and output ---- */

/* Compare card memory (little-endian words) with the CPU's picture. */
static unsigned demo_compare(const struct demo *d, const uint8_t *mem, const char *what)
{
	unsigned bad = 0;

	for (unsigned y = 0; y < d->h; y++)
		for (unsigned x = 0; x < d->w; x++) {
			uint32_t got = nv_rd32le(mem + (size_t)y * d->pitch + x * 4u);
			uint32_t want = d->ref[y * d->w + x];
			if (got == want)
				continue;
			if (bad < 5)
				fprintf(stderr, "nvd-demo: %s pixel (%u,%u) is 0x%08x, drew 0x%08x\n",
					what, x, y, got, want);
			bad++;
		}
	return bad;
}

static int demo_write_png(const struct demo *d, const uint8_t *mem)
{
	png_image img;
	uint8_t *rgba = malloc((size_t)d->w * d->h * 4);

	if (!rgba) {
		fprintf(stderr, "nvd-demo: out of memory\n");
		return -1;
	}
	for (unsigned y = 0; y < d->h; y++)
		for (unsigned x = 0; x < d->w; x++) {
			uint32_t v = nv_rd32le(mem + (size_t)y * d->pitch + x * 4u);
			uint8_t *o = rgba + ((size_t)y * d->w + x) * 4;
			o[0] = v >> 16;
			o[1] = v >> 8;
			o[2] = v;
			o[3] = v >> 24;
		}
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	img.width = d->w;
	img.height = d->h;
	img.format = PNG_FORMAT_RGBA;
	int ok = png_image_write_to_file(&img, d->out, 0, rgba, 0, NULL);
	free(rgba);
	if (!ok) {
		fprintf(stderr, "nvd-demo: cannot write %s: %s\n", d->out, img.message);
		png_image_free(&img);
		return -1;
	}
	return 0;
}

static void demo_print_card(struct nvc *c)
{
	struct nvc_info i;
	nvc_info(c, &i);
	const struct nv_chip *chip = nv_chip_by_chipset(i.chipset);
	printf("nvd-demo: %s, %s (chipset 0x%02x), PCI %04x:%04x, VRAM %.1f MiB, "
	       "GART %.1f MiB, client %u\n", i.card, chip ? chip->name : "NV4x", i.chipset,
	       i.pci_vendor, i.pci_device, (double)i.vram_size / (1 << 20),
	       (double)i.gart_size / (1 << 20), i.client_id);
}

static int demo_new_objects(struct demo *d)
{
	static const struct { uint32_t handle, cls; } objs[] = {
		{ DEMO_H_NULL,   NV_CLASS_NULL_OBJ },
		{ DEMO_H_SURF2D, NV_CLASS_SURF2D },
		{ DEMO_H_ROP,    NV_CLASS_ROP },
		{ DEMO_H_PATT,   NV_CLASS_PATT },
		{ DEMO_H_BLIT,   NV_CLASS_BLIT },
		{ DEMO_H_GDI,    NV_CLASS_GDI },
		{ DEMO_H_M2MF,   NV_CLASS_M2MF },
	};
	for (unsigned i = 0; i < sizeof(objs) / sizeof(objs[0]); i++)
		if (nvc_obj_new(d->ch, objs[i].handle, objs[i].cls) < 0) {
			fprintf(stderr, "nvd-demo: object 0x%08x of class 0x%04x: %s\n",
				objs[i].handle, objs[i].cls, nvc_error());
			return -1;
		}
	printf("nvd-demo: channel with null, SURF2D, ROP, PATTERN, BLIT, GDI and M2MF objects\n");
	return 0;
}

/* --cpu: draw on the CPU alone (the push words go nowhere) and write that. */
static int demo_run_cpu(struct demo *d)
{
	uint8_t *pic = malloc((size_t)d->pitch * d->h);

	int r = pic ? demo_draw(d) : -1;
	if (r == 0) {
		for (size_t i = 0; i < (size_t)d->w * d->h; i++)
			nv_wr32le(pic + i * 4, d->ref[i]);
		r = demo_write_png(d, pic);
	}
	if (!pic)
		fprintf(stderr, "nvd-demo: out of memory\n");
	else if (r == 0)
		printf("nvd-demo: wrote %s (%ux%u RGBA), drawn on the CPU\n", d->out, d->w, d->h);
	free(pic);
	return r;
}

static int demo_run(struct demo *d)
{
	uint64_t bytes = (uint64_t)d->pitch * d->h;
	uint8_t *surf, *stage;

	if (nvc_connect(d->socket, "nvd-demo", &d->c) < 0) {
		fprintf(stderr, "nvd-demo: %s\n", nvc_error());
		return -1;
	}
	demo_print_card(d->c);
	if (nvc_bo_new(d->c, bytes, NVC_VRAM, &d->surf) < 0 ||
	    nvc_bo_new(d->c, bytes, NVC_GART, &d->stage) < 0) {
		fprintf(stderr, "nvd-demo: buffers: %s\n", nvc_error());
		return -1;
	}
	surf = nvc_bo_map(d->surf);
	stage = nvc_bo_map(d->stage);
	if (!surf || !stage) {
		fprintf(stderr, "nvd-demo: map: %s\n", nvc_error());
		return -1;
	}
	if (nvc_chan_new(d->c, &d->ch) < 0 || nvc_pushbuf_new(d->ch, DEMO_PUSH_SIZE, &d->pb) < 0) {
		fprintf(stderr, "nvd-demo: channel: %s\n", nvc_error());
		return -1;
	}
	printf("nvd-demo: %ux%u A8R8G8B8 surface at VRAM 0x%08" PRIx64 ", staging at GART "
	       "0x%08" PRIx64 ", push buffer at GART 0x%08" PRIx64 "\n", d->w, d->h,
	       nvc_bo_addr(d->surf), nvc_bo_addr(d->stage), nvc_bo_addr(nvc_pushbuf_bo(d->pb)));
	/* Poison both, so a pixel nobody wrote cannot pass for a drawn one. */
	for (uint64_t off = 0; off + 4 <= bytes; off += 4) {
		nv_wr32le(surf + off, DEMO_POISON);
		nv_wr32le(stage + off, ~DEMO_POISON);
	}
	if (demo_new_objects(d) < 0 || demo_draw(d) < 0 || demo_download(d) < 0)
		return -1;
	if (demo_write_png(d, stage) < 0)
		return -1;
	printf("nvd-demo: wrote %s (%ux%u RGBA)\n", d->out, d->w, d->h);

	/* The surface tells a drawing fault from a download fault. */
	unsigned bad_surf = demo_compare(d, surf, "surface");
	unsigned bad_stage = demo_compare(d, stage, "staging");
	if (bad_surf || bad_stage) {
		fprintf(stderr, "nvd-demo: %u of %u pixels differ from what was drawn in the VRAM "
			"surface, %u in the GART staging copy\n", bad_surf, d->w * d->h, bad_stage);
		return -1;
	}
	printf("nvd-demo: all %u pixels match the CPU's drawing, in VRAM and in the copy\n",
	       d->w * d->h);
	return 0;
}

static void demo_usage(FILE *f)
{
	fprintf(f,
"usage: nvd-demo [--socket PATH] [--out FILE.png] [--size WxH] [--cpu]\n"
"Draw rectangles and copies with the NV4x 2D engine through nvd, download the\n"
"surface with M2MF, write it as a PNG and check every pixel.\n"
"\n"
"  -s, --socket PATH   nvd's socket (default: $NVD_SOCKET, /run/nvd/socket for\n"
"                      root, else $XDG_RUNTIME_DIR/nvd/socket)\n"
"  -o, --out FILE      the PNG to write (default demo.png)\n"
"  -S, --size WxH      surface size, %u to %u each way (default 256x256)\n"
"  -C, --cpu           only draw the picture on the CPU and write it (no nvd)\n"
"  -h, --help          show this help\n"
"      --version       show the version\n"
"\n"
"Exit status: 0 when the picture matches, 1 on any failure, 2 on bad usage.\n",
		DEMO_MIN_SIDE, DEMO_MAX_SIDE);
}

static int demo_parse_size(const char *s, unsigned *w, unsigned *h)
{
	char *end;
	unsigned long a, b;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	a = strtoul(s, &end, 10);
	if (errno || (*end != 'x' && *end != 'X') || end[1] < '0' || end[1] > '9')
		return -1;
	b = strtoul(end + 1, &end, 10);
	if (errno || *end || a < DEMO_MIN_SIDE || a > DEMO_MAX_SIDE || b < DEMO_MIN_SIDE ||
	    b > DEMO_MAX_SIDE)
		return -1;
	*w = (unsigned)a;
	*h = (unsigned)b;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "socket", required_argument, 0, 's' }, { "out", required_argument, 0, 'o' },
		{ "size", required_argument, 0, 'S' },   { "help", no_argument, 0, 'h' },
		{ "cpu", no_argument, 0, 'C' },          { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 }
	};
	struct demo d = { .out = "demo.png", .w = 256, .h = 256 };
	int o, ret;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "nvd-demo: ...", not a path */

	setvbuf(stdout, NULL, _IOLBF, 0);   /* progress lines interleave with errors */
	while ((o = getopt_long(argc, argv, "s:o:S:Ch", lo, NULL)) != -1) {
		switch (o) {
		case 's': d.socket = optarg; break;
		case 'o': d.out = optarg; break;
		case 'C': d.cpu = 1; break;
		case 'S':
			if (demo_parse_size(optarg, &d.w, &d.h) < 0) {
				fprintf(stderr, "nvd-demo: invalid size '%s' (WxH, %u to %u each)\n",
					optarg, DEMO_MIN_SIDE, DEMO_MAX_SIDE);
				return 2;
			}
			break;
		case 'h': demo_usage(stdout); return 0;
		case 'V': printf("nvd-demo %s\n", NVD_VERSION); return 0;
		default: demo_usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "nvd-demo: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	d.pitch = d.w * 4;
	d.ref = calloc((size_t)d.w * d.h, sizeof(*d.ref));
	if (!d.ref) {
		fprintf(stderr, "nvd-demo: out of memory\n");
		return 1;
	}
	ret = (d.cpu ? demo_run_cpu(&d) : demo_run(&d)) < 0 ? 1 : 0;
	if (!ret && !d.cpu)
		printf("nvd-demo: done, %u submissions\n", d.nsubmits);
	nvc_pushbuf_free(d.pb);
	nvc_close(d.c);   /* frees the channel and buffers */
	free(d.ref);
	return ret;
}
