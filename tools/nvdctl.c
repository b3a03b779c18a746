/* nvdctl: ask a running nvd what it holds — the card, its memory, channels
 * and clients.  Human-readable by default; `status --raw` and
 * `clients --raw` print key=value lines for scripts and tests. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/nvd.h"
#include "hw/chips.h"

enum { NVDCTL_OK = 0, NVDCTL_FAIL = 1, NVDCTL_USAGE = 2 };

static void nvdctl_usage(FILE *f)
{
	fprintf(f,
"usage: nvdctl [--socket PATH] COMMAND [--raw]\n"
"Show what a running nvd holds.\n"
"\n"
"Commands:\n"
"  status      the card, VRAM and GART use, channels, clients, buffers,\n"
"              submissions and refusals, uptime\n"
"  clients     one line per connected client: id, pid, uid, name, channels,\n"
"              buffers, VRAM, GART, submissions, refusals\n"
"  help        show this help\n"
"\n"
"Options:\n"
"  -s, --socket PATH   nvd's socket (default: $NVD_SOCKET, /run/nvd/socket for\n"
"                      root, else $XDG_RUNTIME_DIR/nvd/socket)\n"
"  -r, --raw           key=value lines (sizes in bytes) instead of text\n"
"  -h, --help          show this help\n"
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
		printf("channels_total=%u\n", st.channels_total);
		printf("channels_used=%u\n", st.channels_used);
		printf("clients=%u\n", st.clients);
		printf("bos=%u\n", st.bos);
		printf("submits=%" PRIu64 "\n", st.submits);
		printf("refused=%" PRIu64 "\n", st.refused);
		printf("uptime_ms=%" PRIu64 "\n", st.uptime_ms);
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
	printf("%-10s %u of %u in use\n", "channels:", st.channels_used, st.channels_total);
	printf("%-10s %u (counting this nvdctl)\n", "clients:", st.clients);
	printf("%-10s %u\n", "buffers:", st.bos);
	printf("%-10s %" PRIu64 " (%" PRIu64 " refused)\n", "submits:", st.submits, st.refused);
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

static int nvdctl_clients(struct nvc *c, int raw)
{
	struct nvc_client cl;
	unsigned count = 0;
	int r;

	if (!raw)
		printf("%5s %7s %6s  %-16s %4s %6s %10s %10s %10s %8s\n", "ID", "PID", "UID",
		       "NAME", "CHAN", "BUFS", "VRAM MiB", "GART MiB", "SUBMITS", "REFUSED");
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
			       " gart=%" PRIu64 " submits=%" PRIu64 " refused=%" PRIu64 "\n",
			       cl.id, cl.pid, cl.uid, cl.name[0] ? cl.name : "-", cl.channels,
			       cl.bos, cl.vram, cl.gart, cl.submits, cl.refused);
		else
			printf("%5u %7u %6u  %-16s %4u %6u %10.1f %10.1f %10" PRIu64 " %8" PRIu64
			       "\n", cl.id, cl.pid, cl.uid, cl.name[0] ? cl.name : "-",
			       cl.channels, cl.bos, nvdctl_mib(cl.vram), nvdctl_mib(cl.gart),
			       cl.submits, cl.refused);
		if (i + 1 >= count)
			break;
	}
	return NVDCTL_OK;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "socket", required_argument, 0, 's' },
		{ "raw", no_argument, 0, 'r' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	const char *socket = NULL, *cmd;
	int raw = 0, o, ret;
	struct nvc *c;

	while ((o = getopt_long(argc, argv, "s:rh", lo, NULL)) != -1) {
		switch (o) {
		case 's': socket = optarg; break;
		case 'r': raw = 1; break;
		case 'h': nvdctl_usage(stdout); return NVDCTL_OK;
		default: nvdctl_usage(stderr); return NVDCTL_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "nvdctl: no command given\n");
		nvdctl_usage(stderr);
		return NVDCTL_USAGE;
	}
	if (argc - optind > 1) {
		fprintf(stderr, "nvdctl: unexpected argument '%s'\n", argv[optind + 1]);
		return NVDCTL_USAGE;
	}
	cmd = argv[optind];
	if (!strcmp(cmd, "help")) {
		nvdctl_usage(stdout);
		return NVDCTL_OK;
	}
	if (strcmp(cmd, "status") && strcmp(cmd, "clients")) {
		fprintf(stderr, "nvdctl: unknown command '%s' (try 'nvdctl help')\n", cmd);
		return NVDCTL_USAGE;
	}
	if (nvc_connect(socket, "nvdctl", &c) < 0) {
		fprintf(stderr, "nvdctl: %s\n", nvc_error());
		return NVDCTL_FAIL;
	}
	ret = !strcmp(cmd, "status") ? nvdctl_status(c, raw) : nvdctl_clients(c, raw);
	nvc_close(c);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "nvdctl: cannot write output: %s\n", strerror(errno));
		return NVDCTL_FAIL;
	}
	return ret;
}
