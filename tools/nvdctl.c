/* nvdctl: ask a running nvd what it holds — the card, its memory, channels,
 * clients, outputs and monitors — and take screenshots of its heads.
 * Human-readable by default; `status --raw`, `clients --raw` and `outputs
 * --raw` print key=value lines for scripts and tests. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "client/nvd.h"
#include "hw/chips.h"
#include "hw/edid.h"
#include "proto/proto.h"

enum { NVDCTL_OK = 0, NVDCTL_FAIL = 1, NVDCTL_USAGE = 2 };

static void nvdctl_usage(FILE *f)
{
	fprintf(f,
"usage: nvdctl [--socket PATH] COMMAND [ARGS] [--raw]\n"
"Show what a running nvd holds.\n"
"\n"
"Commands:\n"
"  status      the card, VRAM and GART use, channels (open, on the card's\n"
"              hardware channels, virtual), clients, buffers, submissions\n"
"              and refusals, uptime\n"
"  clients     one line per connected client: id, pid, uid, name, channels,\n"
"              buffers, VRAM, GART, submissions, refusals, then each\n"
"              channel's state (on hardware chid N, or virtual)\n"
"  outputs     each output: its head, the monitor on it (name, size) and the\n"
"              modes its EDID lists, the preferred one first; what each head\n"
"              shows\n"
"  screenshot HEAD FILE.png\n"
"              write what head HEAD (0 or 1) scans out as an RGB PNG; only\n"
"              root and the user nvd runs as may\n"
"  help        show this help\n"
"\n"
"Options:\n"
"  -s, --socket PATH   nvd's socket (default: $NVD_SOCKET, /run/nvd/socket for\n"
"                      root, else $XDG_RUNTIME_DIR/nvd/socket)\n"
"  -r, --raw           key=value lines (sizes in bytes) instead of text\n"
"  -h, --help          show this help\n"
"      --version       show the version\n"
"\n"
"Exit status: 0 on success, 1 when nvd cannot be reached or refuses, 2 on\n"
"bad usage.\n");
}

/* Bytes as MiB with one decimal. */
static double nvdctl_mib(uint64_t b)
{
	return (double)b / (1024.0 * 1024.0);
}

static uint64_t nvdctl_free(uint64_t size, uint64_t a, uint64_t b)
{
	return a > size || b > size - a ? 0 : size - a - b;
}

static void nvdctl_print_mem(const char *what, uint64_t size, uint64_t client, uint64_t daemon)
{
	printf("%-10s %.1f MiB total, %.1f MiB used by clients, %.1f MiB held by nvd, "
	       "%.1f MiB free\n", what, nvdctl_mib(size), nvdctl_mib(client),
	       nvdctl_mib(daemon), nvdctl_mib(nvdctl_free(size, client, daemon)));
}

static void nvdctl_print_uptime(uint64_t ms)
{
	uint64_t s = ms / 1000;
	uint64_t d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60;

	printf("%-10s ", "uptime:");
	if (d)
		printf("%" PRIu64 "d ", d);
	if (d || h)
		printf("%" PRIu64 "h %02" PRIu64 "m %02" PRIu64 "s\n", h, m, s % 60);
	else if (m)
		printf("%" PRIu64 "m %02" PRIu64 "s\n", m, s % 60);
	else
		printf("%" PRIu64 ".%01" PRIu64 "s\n", s, ms % 1000 / 100);
}

static int nvdctl_status(struct nvc *c, int raw)
{
	struct nvc_status st;

	if (nvc_status(c, &st) < 0) {
		fprintf(stderr, "nvdctl: %s\n", nvc_error());
		return NVDCTL_FAIL;
	}
	if (raw) {
		printf("card=%s\n", st.card);
		printf("chipset=0x%02x\n", st.chipset);
		printf("pci_vendor=0x%04x\n", st.pci_vendor);
		printf("pci_device=0x%04x\n", st.pci_device);
		printf("bus_id=%s\n", st.bus_id);
		printf("vram_size=%" PRIu64 "\n", st.vram_size);
		printf("vram_client=%" PRIu64 "\n", st.vram_client);
		printf("vram_daemon=%" PRIu64 "\n", st.vram_daemon);
		printf("gart_size=%" PRIu64 "\n", st.gart_size);
		printf("gart_client=%" PRIu64 "\n", st.gart_client);
		printf("gart_daemon=%" PRIu64 "\n", st.gart_daemon);
		printf("host_client=%" PRIu64 "\n", st.host_client);
		printf("evictions=%" PRIu64 "\n", st.evictions);
		printf("evicted_bytes=%" PRIu64 "\n", st.evicted_bytes);
		printf("channels_total=%u\n", st.channels_total);
		printf("channels_used=%u\n", st.channels_used);
		printf("clients=%u\n", st.clients);
		printf("bos=%u\n", st.bos);
		printf("orphaned=%" PRIu64 "\n", st.orphaned);
		printf("submits=%" PRIu64 "\n", st.submits);
		printf("refused=%" PRIu64 "\n", st.refused);
		printf("uptime_ms=%" PRIu64 "\n", st.uptime_ms);
		if (st.oracle)
			printf("oracle_violations=%" PRIu64 "\n", st.oracle_violations);
		printf("hw_channels=%u\n", st.hw_channels);
		printf("hw_channels_used=%u\n", st.hw_channels_used);
		printf("virtual_channels=%u\n", st.channels_used - st.hw_channels_used);
		printf("chan_loads=%" PRIu64 "\n", st.chan_loads);
		printf("chan_unloads=%" PRIu64 "\n", st.chan_unloads);
		printf("vchan_saved=%" PRIu64 "\n", st.vchan_saved);
		printf("ramin_size=%" PRIu64 "\n", st.ramin_size);
		printf("ramin_used=%" PRIu64 "\n", st.ramin_used);
		return NVDCTL_OK;
	}
	const struct nv_chip *chip = nv_chip_by_chipset(st.chipset);
	printf("%-10s %s\n", "card:", st.card);
	printf("%-10s %s (chipset 0x%02x)\n", "chip:", chip ? chip->name : "unknown NV4x",
	       st.chipset);
	printf("%-10s %04x:%04x at %s\n", "PCI:", st.pci_vendor, st.pci_device,
	       st.bus_id[0] ? st.bus_id : "(no bus id)");
	nvdctl_print_mem("VRAM:", st.vram_size, st.vram_client, st.vram_daemon);
	nvdctl_print_mem("GART:", st.gart_size, st.gart_client, st.gart_daemon);
	printf("%-10s %.1f MiB of client buffers; %" PRIu64 " evictions (%.1f MiB)\n", "host:",
	       nvdctl_mib(st.host_client), st.evictions, nvdctl_mib(st.evicted_bytes));
	printf("%-10s %u of %u open: %u on the card's %u hardware channels, %u virtual\n",
	       "channels:", st.channels_used, st.channels_total, st.hw_channels_used, st.hw_channels,
	       st.channels_used - st.hw_channels_used);
	printf("%-10s %" PRIu64 " loads, %" PRIu64 " unloads, %" PRIu64 " bytes saved\n",
	       "virtual:", st.chan_loads, st.chan_unloads, st.vchan_saved);
	printf("%-10s %u (counting this nvdctl)\n", "clients:", st.clients);
	if (st.orphaned)
		printf("%-10s %u (%.1f MiB of them held on by others after their creators left)\n",
		       "buffers:", st.bos, nvdctl_mib(st.orphaned));
	else
		printf("%-10s %u\n", "buffers:", st.bos);
	printf("%-10s %" PRIu64 " (%" PRIu64 " refused)\n", "submits:", st.submits, st.refused);
	if (st.oracle)
		printf("%-10s %" PRIu64 " violations\n", "oracle:", st.oracle_violations);
	nvdctl_print_uptime(st.uptime_ms);
	return NVDCTL_OK;
}

/* Names come from clients: print only printable ASCII. */
static void nvdctl_clean_name(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e || *s == ' ')
			*s = '_';
}

/* Each open channel: "<slot>:chid<N>" or "<slot>:virtual", comma-separated. */
static void nvdctl_print_chans(const struct nvc_client *cl)
{
	const char *sep = "";
	for (unsigned i = 0; i < sizeof(cl->chan_chid); i++) {
		if (cl->chan_chid[i] == NVC_CHAN_NONE)
			continue;
		if (cl->chan_chid[i] == NVC_CHAN_VIRTUAL)
			printf("%s%u:virtual", sep, i);
		else
			printf("%s%u:chid%u", sep, i, cl->chan_chid[i]);
		sep = ",";
	}
	if (!*sep)
		printf("-");
	printf("\n");
}

static int nvdctl_clients(struct nvc *c, int raw)
{
	struct nvc_client cl;
	unsigned count = 0;
	int r;

	if (!raw)
		printf("%5s %7s %6s  %-16s %4s %6s %10s %10s %10s %7s %10s %8s %9s %9s\n", "ID",
		       "PID", "UID", "NAME", "CHAN", "BUFS", "VRAM MiB", "GART MiB", "HOST MiB",
		       "EVICTED", "SUBMITS", "REFUSED", "VALID us", "MAX us");
	/* The list can change between requests; stop at the first index past
	 * the end, whatever count said before. */
	for (unsigned i = 0;; i++) {
		r = nvc_client_at(c, i, &cl, &count);
		if (r == -ENOENT)
			break;
		if (r < 0) {
			fprintf(stderr, "nvdctl: %s\n", nvc_error());
			return NVDCTL_FAIL;
		}
		nvdctl_clean_name(cl.name);
		if (raw)
			printf("id=%u pid=%u uid=%u name=%s channels=%u bos=%u vram=%" PRIu64
			       " gart=%" PRIu64 " host=%" PRIu64 " evicted=%" PRIu64
			       " submits=%" PRIu64 " refused=%" PRIu64
			       " validate_ns=%" PRIu64 " validate_max_ns=%" PRIu64 " chans=",
			       cl.id, cl.pid, cl.uid, cl.name[0] ? cl.name : "-", cl.channels,
			       cl.bos, cl.vram, cl.gart, cl.host, cl.evicted, cl.submits, cl.refused,
			       cl.validate_ns, cl.validate_max_ns);
		else    /* validation per submission: the mean, the longest */
			printf("%5u %7u %6u  %-16s %4u %6u %10.1f %10.1f %10.1f %7" PRIu64 " %10" PRIu64
			       " %8" PRIu64 " %9.1f %9.1f\n", cl.id, cl.pid, cl.uid,
			       cl.name[0] ? cl.name : "-", cl.channels, cl.bos, nvdctl_mib(cl.vram),
			       nvdctl_mib(cl.gart), nvdctl_mib(cl.host), cl.evicted, cl.submits, cl.refused,
			       cl.submits ? cl.validate_ns / 1e3 / (double)cl.submits : 0.0,
			       cl.validate_max_ns / 1e3);
		if (!raw)
			printf("%5s channels: ", "");
		nvdctl_print_chans(&cl);
		if (i + 1 >= count)
			break;
	}
	return NVDCTL_OK;
}

static unsigned nvdctl_hz(const struct nvc_mode *m)
{
	uint64_t px = (uint64_t)m->htotal * m->vtotal;
	return px ? (unsigned)(((uint64_t)m->clock * 1000 + px / 2) / px) : 0;
}

static int nvdctl_outputs(struct nvc *c, int raw)
{
	for (unsigned i = 0; i < NVC_DISP_OUTPUTS; i++) {
		struct nvc_output o;
		if (nvc_disp_output(c, i, &o) < 0) {
			fprintf(stderr, "nvdctl: %s\n", nvc_error());
			return NVDCTL_FAIL;
		}
		/* the monitor's name from its EDID's name descriptor */
		char name[EDID_DESC_TEXT_LEN + 1] = "";
		for (unsigned d = 0; o.connected && d < EDID_DESC_COUNT; d++) {
			const uint8_t *p = o.edid + EDID_DESC + EDID_DESC_LEN * d;
			const uint8_t *t = p + EDID_DESC_TEXT_AT;
			if (p[0] || p[1] || p[EDID_DESC_TAG] != EDID_DESC_NAME)
				continue;
			unsigned n = 0;
			for (; n < EDID_DESC_TEXT_LEN && t[n] != 0x0a; n++)
				name[n] = t[n] >= 0x20 && t[n] < 0x7f ? (char)t[n] : '?';
			while (n && name[n - 1] == ' ')
				n--;
			name[n] = 0;
		}
		for (char *q = name; raw && *q; q++)
			if (*q == ' ' || *q == '=')
				*q = '_';        /* one token in key=value lines */
		if (raw)
			printf("output=%u name=%s head=%u connected=%u monitor=%s mm_width=%u "
			       "mm_height=%u modes=%u\n", i, o.name, o.head, o.connected,
			       name[0] ? name : "-", o.mm_width, o.mm_height, o.nmodes);
		else if (!o.connected)
			printf("%s (head %u): no monitor\n", o.name, o.head);
		else
			printf("%s (head %u): monitor %s, %u x %u mm, %u modes\n", o.name, o.head,
			       name[0] ? name : "(unnamed)", o.mm_width, o.mm_height, o.nmodes);
		for (unsigned k = 0; k < o.nmodes; k++) {
			struct nvc_mode m;
			if (nvc_disp_mode(c, i, k, &m) < 0) {
				fprintf(stderr, "nvdctl: %s\n", nvc_error());
				return NVDCTL_FAIL;
			}
			if (raw)
				printf("output=%u mode=%u width=%u height=%u hz=%u clock=%u "
				       "h=%u,%u,%u,%u v=%u,%u,%u,%u flags=0x%x preferred=%u\n", i, k,
				       m.hdisplay, m.vdisplay, nvdctl_hz(&m), m.clock, m.hdisplay,
				       m.hsync_start, m.hsync_end, m.htotal, m.vdisplay, m.vsync_start,
				       m.vsync_end, m.vtotal, m.flags, m.preferred);
			else
				printf("  %4ux%-4u %3u Hz %8.3f MHz  %4u %4u %4u %4u  %4u %4u %4u %4u"
				       "  %chsync %cvsync%s\n", m.hdisplay, m.vdisplay, nvdctl_hz(&m),
				       m.clock / 1000.0, m.hdisplay, m.hsync_start, m.hsync_end, m.htotal,
				       m.vdisplay, m.vsync_start, m.vsync_end, m.vtotal,
				       m.flags & NVC_MODE_PHSYNC ? '+' : '-',
				       m.flags & NVC_MODE_PVSYNC ? '+' : '-',
				       m.preferred ? "  preferred" : "");
		}
	}
	for (unsigned i = 0; i < NVC_DISP_HEADS; i++) {
		struct nvc_head h;
		if (nvc_disp_head(c, i, &h) < 0) {
			fprintf(stderr, "nvdctl: %s\n", nvc_error());
			return NVDCTL_FAIL;
		}
		if (raw)
			printf("head=%u fb=%u x=%u y=%u outputs=0x%x width=%u height=%u hz=%u\n", i,
			       h.fb, h.x, h.y, h.outputs, h.fb ? h.mode.hdisplay : 0,
			       h.fb ? h.mode.vdisplay : 0, h.fb ? nvdctl_hz(&h.mode) : 0);
		else if (!h.fb)
			printf("head %u: off\n", i);
		else
			printf("head %u: framebuffer %u from (%u, %u), %ux%u@%u\n", i, h.fb, h.x, h.y,
			       h.mode.hdisplay, h.mode.vdisplay, nvdctl_hz(&h.mode));
	}
	return NVDCTL_OK;
}

/* XRGB8888 pixels to an 8-bit RGB PNG. */
static int nvdctl_write_png(const char *path, const uint32_t *px, uint32_t w, uint32_t h)
{
	FILE *f = fopen(path, "wb");
	png_structp png = NULL;
	png_infop info = NULL;
	uint8_t *row = malloc((size_t)w * 3);
	int ret = -1;

	if (!f || !row) {
		fprintf(stderr, "nvdctl: cannot write %s: %s\n", path, strerror(errno));
		goto out;
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	if (!info) {
		fprintf(stderr, "nvdctl: libpng: out of memory\n");
		goto out;
	}
	if (setjmp(png_jmpbuf(png))) {
		fprintf(stderr, "nvdctl: libpng failed writing %s\n", path);
		goto out;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			uint32_t v = px[(size_t)y * w + x];
			row[3 * x] = (uint8_t)(v >> 16);
			row[3 * x + 1] = (uint8_t)(v >> 8);
			row[3 * x + 2] = (uint8_t)v;
		}
		png_write_row(png, row);
	}
	png_write_end(png, info);
	ret = 0;
out:
	if (png)
		png_destroy_write_struct(&png, info ? &info : NULL);
	free(row);
	if (f && fclose(f) != 0 && ret == 0) {
		fprintf(stderr, "nvdctl: cannot write %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	return ret;
}

/* HEAD of `screenshot HEAD FILE.png`: 0, or -1 when it names no head. */
static int nvdctl_parse_head(const char *s, unsigned *head)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || v >= NVC_DISP_HEADS) {
		fprintf(stderr, "nvdctl: screenshot: '%s' is not a head (0 to %u)\n", s,
			NVC_DISP_HEADS - 1);
		return -1;
	}
	*head = (unsigned)v;
	return 0;
}

static int nvdctl_screenshot(struct nvc *c, unsigned head, const char *path)
{
	uint32_t *px, w, h;
	if (nvc_disp_screenshot(c, head, &px, &w, &h) < 0) {
		fprintf(stderr, "nvdctl: %s\n", nvc_error());
		return NVDCTL_FAIL;
	}
	int r = nvdctl_write_png(path, px, w, h);
	free(px);
	return r < 0 ? NVDCTL_FAIL : NVDCTL_OK;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "socket", required_argument, 0, 's' },
		{ "raw", no_argument, 0, 'r' },
		{ "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 }
	};
	const char *socket = NULL, *cmd;
	int raw = 0, o, ret;
	struct nvc *c;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "nvdctl: ...", not a path */
	while ((o = getopt_long(argc, argv, "s:rh", lo, NULL)) != -1) {
		switch (o) {
		case 's': socket = optarg; break;
		case 'r': raw = 1; break;
		case 'h': nvdctl_usage(stdout); return NVDCTL_OK;
		case 'V': printf("nvdctl %s\n", NVD_VERSION); return NVDCTL_OK;
		default: nvdctl_usage(stderr); return NVDCTL_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "nvdctl: no command given\n");
		nvdctl_usage(stderr);
		return NVDCTL_USAGE;
	}
	cmd = argv[optind];
	int nargs = !strcmp(cmd, "screenshot") ? 2 : 0;
	if (argc - optind - 1 != nargs) {
		if (argc - optind - 1 > nargs)
			fprintf(stderr, "nvdctl: unexpected argument '%s'\n", argv[optind + 1 + nargs]);
		else
			fprintf(stderr, "nvdctl: %s needs HEAD and FILE.png\n", cmd);
		return NVDCTL_USAGE;
	}
	if (!strcmp(cmd, "help")) {
		nvdctl_usage(stdout);
		return NVDCTL_OK;
	}
	if (strcmp(cmd, "status") && strcmp(cmd, "clients") && strcmp(cmd, "outputs") &&
	    strcmp(cmd, "screenshot")) {
		fprintf(stderr, "nvdctl: unknown command '%s' (try 'nvdctl help')\n", cmd);
		return NVDCTL_USAGE;
	}
	unsigned head = 0;
	if (nargs && nvdctl_parse_head(argv[optind + 1], &head) < 0)
		return NVDCTL_USAGE;
	if (nvc_connect(socket, "nvdctl", &c) < 0) {
		fprintf(stderr, "nvdctl: %s\n", nvc_error());
		return NVDCTL_FAIL;
	}
	if (!strcmp(cmd, "status"))
		ret = nvdctl_status(c, raw);
	else if (!strcmp(cmd, "clients"))
		ret = nvdctl_clients(c, raw);
	else if (!strcmp(cmd, "outputs"))
		ret = nvdctl_outputs(c, raw);
	else
		ret = nvdctl_screenshot(c, head, argv[optind + 2]);
	nvc_close(c);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "nvdctl: cannot write output: %s\n", strerror(errno));
		return NVDCTL_FAIL;
	}
	return ret;
}
