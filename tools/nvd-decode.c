/* nvd-decode: print an NV4x push buffer one word per line, naming methods
 * by the tables of hw/methods.h.
 *
 * The class bound to each subchannel comes from -s, or from OBJECT binds
 * whose handle is known (-o, or the handles Mesa's nv30 driver and
 * xf86-video-nouveau create: ../shared/ref/nv40-hardware.md §1.4, §2.1,
 * ddx-2d.md §3.1-3.2).  The stream is read word by word, so input of any
 * length and content decodes without holding it in memory.  Vertex program
 * instructions uploaded in the stream are disassembled where they complete;
 * --fragment-program and --vertex-program disassemble a program file
 * instead. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hw/chips.h"
#include "hw/disasm.h"
#include "hw/fp-isa.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "proto/proto.h"

#define NVDD_MAX_HANDLES 256
#define NVDD_3D          0xffff /* built-in handle whose class is the chip's 3D class */
#define NVDD_TEXT        256    /* one disassembled instruction */

struct nvdd_handle {
	uint32_t handle;
	uint16_t cls;          /* 0: not an object (a ctxdma or notifier) */
	const char *label;
};

/* The handle conventions of the drivers nvd serves. */
static const struct nvdd_handle nvdd_builtin[] = {
	{ 0x00000000, 0x0030,   "NULL object" },
	{ 0xbeef0201, 0,        "VRAM ctxdma" },
	{ 0xbeef0202, 0,        "GART ctxdma" },
	{ 0xbeef1e00, 0,        "fence notifier" },
	{ 0xbeef0301, 0,        "sync notifier" },
	{ 0xbeef0351, 0,        "query notifier" },
	{ 0xbeef3097, NVDD_3D,  "Mesa 3D" },
	{ 0xbeef3901, 0x0039,   "Mesa M2MF" },
	{ 0xbeef6201, 0x0062,   "Mesa SURF2D" },
	{ 0xbeef5201, 0x309e,   "Mesa SWZSURF" },
	{ 0xbeef7701, 0x3089,   "Mesa SIFM" },
	{ 0x80000010, 0x0062,   "NvContextSurfaces" },
	{ 0x80000011, 0x0043,   "NvRop" },
	{ 0x80000012, 0x0044,   "NvImagePattern" },
	{ 0x80000013, 0x0019,   "NvClipRectangle" },
	{ 0x80000015, 0x009f,   "NvImageBlit" },
	{ 0x80000016, 0x004a,   "NvRectangle" },
	{ 0x80000017, 0x3089,   "NvScaledImage" },
	{ 0x80000018, 0x0039,   "NvMemFormat" },
	{ 0x80000019, NVDD_3D,  "Nv3D" },
	{ 0x8000001a, 0x008a,   "NvImageFromCpu" },
	{ 0x8000001b, 0x0012,   "NvContextBeta1" },
	{ 0x8000001c, 0x0072,   "NvContextBeta4" },
	{ 0xd8000003, 0,        "NvDmaNotifier0" },
};
#define NVDD_NBUILTIN (sizeof(nvdd_builtin) / sizeof(nvdd_builtin[0]))

struct nvdd {
	/* options */
	int hex;
	uint32_t base;
	uint16_t cls3d;
	struct nvdd_handle user[NVDD_MAX_HANDLES];
	unsigned nuser;
	const struct nv_class_desc *sub[NV_SUBCHANNELS];
	const char *fp_file, *vp_file;  /* disassemble a program file instead */

	/* input */
	FILE *in;
	unsigned line;         /* --hex: for error messages */

	/* packet state */
	unsigned left, subc;
	uint32_t mthd;
	int noninc;

	/* the 3D class's vertex program upload, as the card keeps it */
	uint32_t vp_slot;      /* VP_UPLOAD_FROM_ID, + 1 per instruction */
	uint32_t vp_insn[4];   /* VP_UPLOAD_INST[0..3] */
};

static void nvdd_usage(FILE *f)
{
	fprintf(f,
		"usage: nvd-decode [--hex] [-s SUBC=CLASS]... [-o HANDLE=CLASS]... [--base ADDR]\n"
		"                  [--chip NAME] [FILE|-]\n"
		"       nvd-decode --fragment-program FILE | --vertex-program FILE\n"
		"Print an NV4x push buffer one word per line: byte address, word, meaning;\n"
		"vertex program instructions it uploads (NV40_3D.VP_UPLOAD_INST) follow as\n"
		"\"vp[SLOT]: text\".  Or disassemble a program file, one instruction a line.\n"
		"\n"
		"  FILE, -          little-endian 32-bit words (default: standard input)\n"
		"  -x, --hex        input is whitespace-separated hex words instead; tokens\n"
		"                   ending in ':' (dump offsets) and '#' comments are skipped\n"
		"  -s SUBC=CLASS    subchannel 0-7 starts bound to CLASS; an OBJECT bind of an\n"
		"                   unknown handle leaves it so\n"
		"  -o HANDLE=CLASS  an OBJECT bind of HANDLE binds CLASS (before the built-in\n"
		"                   Mesa/DDX handles such as beef3097 = 3D, beef3901 = M2MF)\n"
		"  -b, --base ADDR  address of the first word (C syntax: 0x1000), so jump and\n"
		"                   call targets can be matched to lines\n"
		"  -c, --chip NAME  chip whose 3D class the built-in 3D handles bind\n"
		"                   (default NV40):");
	for (unsigned i = 0; i < NV_NCHIPS; i++)
		fprintf(f, " %s = %04x", nv_chips[i].name, nv_chips[i].gr_class);
	fprintf(f,
		"\n"
		"      --fragment-program FILE\n"
		"                   FILE is a fragment program as the card reads it from\n"
		"                   memory (little-endian words, inline constants after the\n"
		"                   instructions using them); lines are \"OFFSET: text\"\n"
		"      --vertex-program FILE\n"
		"                   FILE is a vertex program, 4 little-endian words per\n"
		"                   instruction; lines are \"vp[SLOT]: text\"\n"
		"  -h, --help       this text\n"
		"      --version    show the version\n"
		"HANDLE and CLASS are hex (with or without 0x); CLASS may also be a name\n"
		"such as NV40_3D or NV03_M2MF.\n");
}

static void __attribute__((noreturn, format(printf, 1, 2))) nvdd_bad_arg(const char *fmt, ...)
{
	va_list ap;

	fputs("nvd-decode: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(nvd-decode --help for usage)\n", stderr);
	exit(2);
}

/* Whole-string hex number of at most 32 bits. */
static int nvdd_parse_hex(const char *s, uint32_t *out)
{
	char *end;

	if (!isxdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 16);
	if (errno || *end || v > 0xffffffffull)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static const struct nv_class_desc *nvdd_parse_class(const char *s)
{
	uint32_t n;

	for (unsigned i = 0; nv_class_at(i); i++)
		if (!strcasecmp(nv_class_at(i)->name, s))
			return nv_class_at(i);
	if (nvdd_parse_hex(s, &n) == 0)
		return nv_class_find(n);
	return NULL;
}

/* "A=B" split into two strings, in place. */
static char *nvdd_split(char *arg, const char *opt, const char *what)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		nvdd_bad_arg("%s wants %s=CLASS, not '%s'", opt, what, arg);
	*eq = '\0';
	return eq + 1;
}

static void nvdd_parse_args(struct nvdd *d, int argc, char **argv, const char **file)
{
	static const struct option longopts[] = {
		{ "hex",  no_argument,       NULL, 'x' },
		{ "base", required_argument, NULL, 'b' },
		{ "chip", required_argument, NULL, 'c' },
		{ "fragment-program", required_argument, NULL, 'f' },
		{ "vertex-program", required_argument, NULL, 'v' },
		{ "help", no_argument,       NULL, 'h' },
		{ "version", no_argument,    NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const struct nv_chip *chip = nv_chip_by_name("NV40");
	int opt;

	d->cls3d = chip ? chip->gr_class : NV_CLASS_CURIE_NV40;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":xs:o:b:c:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'x':
			d->hex = 1;
			break;
		case 's': {
			char *cls = nvdd_split(optarg, "-s", "SUBC");
			char *end;
			long subc = strtol(optarg, &end, 10);
			if (*end || subc < 0 || subc >= NV_SUBCHANNELS)
				nvdd_bad_arg("-s: subchannel '%s' is not 0-%d", optarg, NV_SUBCHANNELS - 1);
			const struct nv_class_desc *c = nvdd_parse_class(cls);
			if (!c || !c->is_gr)
				nvdd_bad_arg("-s: '%s' is no graphics class nvd knows", cls);
			d->sub[subc] = c;
			break;
		}
		case 'o': {
			char *cls = nvdd_split(optarg, "-o", "HANDLE");
			uint32_t h;
			if (nvdd_parse_hex(optarg, &h))
				nvdd_bad_arg("-o: handle '%s' is not a 32-bit hex number", optarg);
			const struct nv_class_desc *c = nvdd_parse_class(cls);
			if (!c)
				nvdd_bad_arg("-o: '%s' is no class nvd knows", cls);
			if (d->nuser == NVDD_MAX_HANDLES)
				nvdd_bad_arg("-o: more than %d handles", NVDD_MAX_HANDLES);
			d->user[d->nuser++] = (struct nvdd_handle){ h, c->cls, NULL };
			break;
		}
		case 'b': {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(optarg, &end, 0);
			if (errno || *end || !*optarg || optarg[0] == '-' || v > 0xffffffffull || (v & 3))
				nvdd_bad_arg("--base: '%s' is not a 4-aligned 32-bit address", optarg);
			d->base = (uint32_t)v;
			break;
		}
		case 'c':
			chip = nv_chip_by_name(optarg);
			if (!chip)
				nvdd_bad_arg("--chip: unknown chip '%s'", optarg);
			d->cls3d = chip->gr_class;
			break;
		case 'f':
			d->fp_file = optarg;
			break;
		case 'v':
			d->vp_file = optarg;
			break;
		case 'h':
			nvdd_usage(stdout);
			exit(0);
		case 'V':
			printf("nvd-decode %s\n", NVD_VERSION);
			exit(0);
		case ':':
			if (optopt && strncmp(argv[optind - 1], "--", 2))
				nvdd_bad_arg("option '-%c' needs an argument", optopt);
			nvdd_bad_arg("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt)
				nvdd_bad_arg("unknown option '-%c'", optopt);
			nvdd_bad_arg("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		nvdd_bad_arg("one input file at most");
	if (d->fp_file && d->vp_file)
		nvdd_bad_arg("--fragment-program and --vertex-program: one program at a time");
	if ((d->fp_file || d->vp_file) && optind < argc)
		nvdd_bad_arg("a program file is disassembled alone, not with a push buffer ('%s')",
			     argv[optind]);
	*file = optind < argc ? argv[optind] : "-";
}

/* ---- input ---- */

/* 1: a word, 0: end of input, -1: error (reported). */
static int nvdd_next_bin(struct nvdd *d, uint32_t *w, unsigned *tail)
{
	unsigned char b[4];
	size_t n = fread(b, 1, 4, d->in);

	if (n == 4) {
		*w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		return 1;
	}
	if (ferror(d->in)) {
		fprintf(stderr, "nvd-decode: read error: %s\n", strerror(errno));
		return -1;
	}
	*tail = (unsigned)n;
	return 0;
}

static int nvdd_next_hex(struct nvdd *d, uint32_t *w)
{
	char tok[32];
	int ch;

	for (;;) {
		unsigned len = 0, toolong = 0;

		while ((ch = getc(d->in)) != EOF && (isspace(ch) || ch == ','))
			if (ch == '\n')
				d->line++;
		if (ch == EOF)
			break;
		if (ch == '#') {
			while ((ch = getc(d->in)) != EOF && ch != '\n')
				;
			if (ch == '\n')
				d->line++;
			continue;
		}
		do {
			if (len < sizeof(tok) - 1)
				tok[len++] = (char)ch;
			else
				toolong = 1;
		} while ((ch = getc(d->in)) != EOF && !isspace(ch) && ch != ',' && ch != '#');
		if (ch != EOF)
			ungetc(ch, d->in);
		tok[len] = '\0';
		if (!toolong && len > 1 && tok[len - 1] == ':')
			continue;       /* "00000010:" offset column of a dump */
		const char *digits = tok;
		if (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))
			digits += 2;
		size_t nd = strlen(digits);
		if (toolong || nd == 0 || nd > 8 || strspn(digits, "0123456789abcdefABCDEF") != nd) {
			fprintf(stderr, "nvd-decode: line %u: '%s%s' is not a 32-bit hex word\n",
				d->line, tok, toolong ? "..." : "");
			return -1;
		}
		*w = (uint32_t)strtoul(digits, NULL, 16);
		return 1;
	}
	if (ferror(d->in)) {
		fprintf(stderr, "nvd-decode: read error: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- decoding ---- */

static const struct nvdd_handle *nvdd_handle_find(const struct nvdd *d, uint32_t h)
{
	for (unsigned i = 0; i < d->nuser; i++)
		if (d->user[i].handle == h)
			return &d->user[i];
	for (unsigned i = 0; i < NVDD_NBUILTIN; i++)
		if (nvdd_builtin[i].handle == h)
			return &nvdd_builtin[i];
	return NULL;
}

static uint16_t nvdd_handle_class(const struct nvdd *d, const struct nvdd_handle *h)
{
	return h->cls == NVDD_3D ? d->cls3d : h->cls;
}

/* "NV40_3D.TEX_OFFSET[3]" or "NV40_3D.? (0x1f80)" for the method on subc. */
static const struct nv_mthd_desc *nvdd_name(const struct nvdd *d, unsigned subc, uint32_t mthd,
					    char *buf, size_t len)
{
	const struct nv_class_desc *c = mthd < NV_FIFO_MTHD_END ? nv_fifo_desc() : d->sub[subc];
	unsigned elem = 0;
	const struct nv_mthd_desc *m = c ? nv_mthd_find(c, mthd, &elem) : NULL;

	if (!m)
		snprintf(buf, len, "%s.? (0x%04x)", c ? c->name : "?", mthd);
	else if (m->count > 1)
		snprintf(buf, len, "%s.%s[%u]", c->name, m->name, elem);
	else
		snprintf(buf, len, "%s.%s", c->name, m->name);
	return m;
}

/* The 3D class's vertex program upload: an instruction is stored, and
 * printed, when its last word (VP_UPLOAD_INST[3]) arrives. */
static void nvdd_vp_upload(struct nvdd *d, const struct nv_class_desc *c, uint32_t w)
{
	char text[NVDD_TEXT];

	if (!c || c->table_id != NV_TABLE_CURIE)
		return;
	if (d->mthd == NV_CURIE_VP_UPLOAD_FROM_ID) {
		d->vp_slot = w;
		return;
	}
	if (d->mthd < NV_CURIE_VP_UPLOAD_INST || d->mthd >= NV_CURIE_VP_UPLOAD_INST + 16)
		return;
	unsigned elem = (d->mthd - NV_CURIE_VP_UPLOAD_INST) / 4;
	d->vp_insn[elem] = w;
	if (elem == 3)
		printf("%22svp[%" PRIu32 "]: %s\n", "", d->vp_slot++,
		       hw_vp_disasm(d->vp_insn, text, sizeof(text)));
}

static void nvdd_data(struct nvdd *d, uint32_t w)
{
	char name[96];
	const struct nv_mthd_desc *m = nvdd_name(d, d->subc, d->mthd, name, sizeof(name));
	const struct nv_class_desc *c = d->sub[d->subc];

	printf("  %s = 0x%08x", name, w);
	if (d->mthd == NV_FIFO_OBJECT) {
		const struct nvdd_handle *h = nvdd_handle_find(d, w);
		const struct nv_class_desc *bc = h ? nv_class_find(nvdd_handle_class(d, h)) : NULL;
		if (bc && bc->is_gr) {
			d->sub[d->subc] = bc;
			printf("  (bind %s%s%s)", bc->name, h->label ? ", " : "", h->label ? h->label : "");
		} else if (h) {
			printf("  (%s: not a graphics object)", h->label ? h->label : bc ? bc->name : "?");
		} else {
			printf("  (unknown handle; subchannel %u stays %s)", d->subc,
			       c ? c->name : "unknown");
		}
	} else if (m && m->kind == NV_MK_HANDLE) {
		const struct nvdd_handle *h = nvdd_handle_find(d, w);
		const struct nv_class_desc *hc = h ? nv_class_find(nvdd_handle_class(d, h)) : NULL;
		if (h && h->label)
			printf("  (%s)", h->label);
		else if (hc)
			printf("  (%s)", hc->name);
	} else if (m && m->kind == NV_MK_ADDR && c) {
		const struct nv_mthd_desc *dm = nv_mthd_find(c, m->dma, NULL);
		printf("  (address, %s)", dm ? dm->name : "?");
	} else if (m && m->kind == NV_MK_PRIV) {
		printf("  (privileged)");
	}
	putchar('\n');
	nvdd_vp_upload(d, c, w);
}

static void nvdd_word(struct nvdd *d, uint32_t w)
{
	if (d->left) {
		nvdd_data(d, w);
		d->left--;
		if (!d->noninc)
			d->mthd = (d->mthd + 4) & 0x1ffc;   /* the 11-bit method field wraps */
		return;
	}

	struct nv_cmd cmd = nv_cmd_decode(w);
	char name[96];

	switch (cmd.type) {
	case NV_CMD_INC:
	case NV_CMD_NONINC:
		nvdd_name(d, cmd.subc, cmd.mthd, name, sizeof(name));
		printf("%s subc %u %s x%u%s\n", cmd.type == NV_CMD_INC ? "INC" : "NINC", cmd.subc, name,
		       cmd.count, cmd.count ? "" : " (empty)");
		d->left = cmd.count;
		d->subc = cmd.subc;
		d->mthd = cmd.mthd;
		d->noninc = cmd.type == NV_CMD_NONINC;
		break;
	case NV_CMD_OLD_JUMP:
		printf("OLD_JUMP -> 0x%08x\n", cmd.target);
		break;
	case NV_CMD_JUMP:
		printf("JUMP -> 0x%08x\n", cmd.target);
		break;
	case NV_CMD_CALL:
		printf("CALL -> 0x%08x\n", cmd.target);
		break;
	case NV_CMD_RETURN:
		printf("RETURN\n");
		break;
	default:
		printf("INVALID command (DMA_PUSHER INVALID_CMD)\n");
		break;
	}
}

/* ---- program files ---- */

static void __attribute__((format(printf, 2, 3))) nvdd_prog_error(const char *file,
								  const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);   /* after the lines it is about */
	fprintf(stderr, "nvd-decode: %s: ", file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A fragment program, one instruction (with its inline constant) a line at
 * its byte offset.  0, or 1 after an error (reported): a read error, a
 * file that ends inside an instruction, or no instruction with END (the
 * card would run past the program). */
static int nvdd_fp_file(const struct nvdd *d, FILE *f, const char *file)
{
	uint8_t b[NV40_FP_INSN_BYTES + NV40_FP_CONST_BYTES];
	char text[NVDD_TEXT];
	uint32_t addr = d->base, w[4];
	size_t n;
	int end = 0;

	while ((n = fread(b, 1, NV40_FP_INSN_BYTES, f)) == NV40_FP_INSN_BYTES) {
		nv40_fp_load(b, w);
		size_t need = nv40_fp_insn_size(w) > NV40_FP_INSN_BYTES ? sizeof(b) : n;
		if (need > n)
			n += fread(b + n, 1, NV40_FP_CONST_BYTES, f);
		printf("%08" PRIx32 ": %s\n", addr, hw_fp_disasm(b, n, text, sizeof(text)));
		end |= NV40_FP_GET(w, END);
		if (n < need && !ferror(f)) {
			nvdd_prog_error(file, "ends inside the inline constant of the instruction at "
					"%08" PRIx32, addr);
			return 1;
		}
		addr += (uint32_t)n;
	}
	if (ferror(f)) {
		nvdd_prog_error(file, "read error: %s", strerror(errno));
		return 1;
	}
	if (n) {
		nvdd_prog_error(file, "%zu trailing byte%s at %08" PRIx32 ": not a whole instruction "
				"(16 bytes)", n, n == 1 ? "" : "s", addr);
		return 1;
	}
	if (!end) {
		nvdd_prog_error(file, "no instruction has END: the card would run past the program");
		return 1;
	}
	return 0;
}

/* A vertex program, one instruction a line at its slot.  0, or 1 after a
 * read error or a file that is not whole instructions (reported). */
static int nvdd_vp_file(FILE *f, const char *file)
{
	uint8_t b[16];
	char text[NVDD_TEXT];
	uint32_t w[4];
	unsigned slot = 0;
	size_t n;

	while ((n = fread(b, 1, sizeof(b), f)) == sizeof(b)) {
		for (int i = 0; i < 4; i++)
			w[i] = nv_rd32le(b + 4 * i);
		printf("vp[%u]: %s\n", slot++, hw_vp_disasm(w, text, sizeof(text)));
	}
	if (ferror(f)) {
		nvdd_prog_error(file, "read error: %s", strerror(errno));
		return 1;
	}
	if (n) {
		nvdd_prog_error(file, "%zu trailing byte%s: not a whole instruction (16 bytes)", n,
				n == 1 ? "" : "s");
		return 1;
	}
	return 0;
}

static int nvdd_prog(const struct nvdd *d)
{
	const char *file = d->fp_file ? d->fp_file : d->vp_file;
	FILE *f = fopen(file, "rb");
	int r;

	if (!f) {
		nvdd_prog_error(file, "%s", strerror(errno));
		return 1;
	}
	r = d->fp_file ? nvdd_fp_file(d, f, file) : nvdd_vp_file(f, file);
	fclose(f);
	return r;
}

static int nvdd_flush(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "nvd-decode: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct nvdd d;
	const char *file;
	uint32_t addr, w;
	unsigned tail = 0;
	int r;

	nvdd_parse_args(&d, argc, argv, &file);
	if (d.fp_file || d.vp_file) {
		r = nvdd_prog(&d);
		return nvdd_flush() || r;
	}
	d.line = 1;
	if (!strcmp(file, "-")) {
		d.in = stdin;
	} else if (!(d.in = fopen(file, "rb"))) {
		fprintf(stderr, "nvd-decode: %s: %s\n", file, strerror(errno));
		return 1;
	}

	addr = d.base;
	while ((r = d.hex ? nvdd_next_hex(&d, &w) : nvdd_next_bin(&d, &w, &tail)) > 0) {
		printf("%08x: %08x  ", addr, w);
		nvdd_word(&d, w);
		addr += 4;
	}
	if (d.left)
		printf("# input ends inside a packet: %u data word%s missing\n", d.left,
		       d.left == 1 ? "" : "s");
	if (tail)
		printf("# %u trailing byte%s ignored (not a whole word)\n", tail, tail == 1 ? "" : "s");
	if (d.in != stdin)
		fclose(d.in);
	if (nvdd_flush())
		return 1;
	return r < 0 ? 1 : 0;
}
