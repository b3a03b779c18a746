/* nvdctl: ask a running nvd what it holds — the card, its memory, channels,
 * clients, outputs and monitors — watch it live (top) and take screenshots
 * of its heads.  Human-readable by default; `status --raw`, `clients --raw`
 * and `outputs --raw` print key=value lines, `--json` JSON documents, for
 * scripts and tests. */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <png.h>

#include "client/nvd.h"
#include "hw/chips.h"
#include "hw/edid.h"
#include "proto/proto.h"

enum { NVDCTL_OK = 0, NVDCTL_FAIL = 1, NVDCTL_USAGE = 2 };

static void nvdctl_usage(FILE *f)
{
	fprintf(f,
"usage: nvdctl [--socket PATH] COMMAND [ARGS] [--raw | --json]\n"
"Show what a running nvd holds.\n"
"\n"
"Commands:\n"
"  status      the card, VRAM and GART use, channels (open, on the card's\n"
"              hardware channels, virtual), clients, buffers, submissions\n"
"              and refusals, the engines' busy time, uptime\n"
"  clients     one line per connected client: id, pid, uid, name, channels,\n"
"              buffers, VRAM, GART, submissions, refusals, then each\n"
"              channel's state (on hardware chid N, or virtual)\n"
"  top [-d SECONDS] [-n ITERATIONS]\n"
"              a live view, refreshed every SECONDS (1): the engines' busy\n"
"              share, VRAM and GART use, and per client its channels\n"
"              (hardware, virtual), share of the card's time, buffer memory\n"
"              (VRAM, GART, host), submissions and fences per second,\n"
"              refusals and evictions; stops after ITERATIONS refreshes, or\n"
"              on 'q' from a terminal; a plain line per card and per client\n"
"              when stdout is no tty\n"
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
"  -j, --json          status, clients and top: JSON (sizes in bytes, times\n"
"                      in ns, rates per second, busy shares from 0 to 1),\n"
"                      one document per line\n"
"  -d, --delay SECONDS top: time between refreshes (0.1 to 3600)\n"
"  -n, --iterations N  top: stop after N refreshes\n"
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

/* ---- JSON: each document on one line of stdout ---- */

/* The deepest is top's: the refresh, clients, a client, its chans, a chan. */
#define JS_DEPTH 5

struct nvdctl_json {
	unsigned depth;
	int more[JS_DEPTH];      /* the open container at each depth has a member */
};

/* Every byte outside printable ASCII as \u00XX: valid JSON whatever nvd sent. */
static void js_string(const char *s)
{
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p > 0x7e)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

/* The comma before a member, and its key inside an object. */
static void js_member(struct nvdctl_json *j, const char *key)
{
	if (j->depth) {
		if (j->more[j->depth - 1])
			putchar(',');
		j->more[j->depth - 1] = 1;
	}
	if (key) {
		js_string(key);
		putchar(':');
	}
}

static void js_open(struct nvdctl_json *j, const char *key, char bracket)
{
	assert(j->depth < JS_DEPTH);   /* what this program nests, not its input */
	js_member(j, key);
	putchar(bracket);
	j->more[j->depth++] = 0;
}

static void js_close(struct nvdctl_json *j, char bracket)
{
	putchar(bracket);
	if (!--j->depth)
		putchar('\n');
}

static void js_u64(struct nvdctl_json *j, const char *key, uint64_t v)
{
	js_member(j, key);
	printf("%" PRIu64, v);
}

static void js_double(struct nvdctl_json *j, const char *key, double v)
{
	js_member(j, key);
	printf("%.3f", v);
}

static void js_str(struct nvdctl_json *j, const char *key, const char *s)
{
	js_member(j, key);
	js_string(s);
}

static void js_null(struct nvdctl_json *j, const char *key)
{
	js_member(j, key);
	printf("null");
}

/* The status reply's members, named as --raw names them. */
static void nvdctl_json_status(struct nvdctl_json *j, const struct nvc_status *st)
{
	const struct nv_chip *chip = nv_chip_by_chipset(st->chipset);
	js_str(j, "card", st->card);
	js_str(j, "chip", chip ? chip->name : "unknown NV4x");
	js_u64(j, "chipset", st->chipset);
	js_u64(j, "pci_vendor", st->pci_vendor);
	js_u64(j, "pci_device", st->pci_device);
	js_str(j, "bus_id", st->bus_id);
	js_u64(j, "vram_size", st->vram_size);
	js_u64(j, "vram_client", st->vram_client);
	js_u64(j, "vram_daemon", st->vram_daemon);
	js_u64(j, "gart_size", st->gart_size);
	js_u64(j, "gart_client", st->gart_client);
	js_u64(j, "gart_daemon", st->gart_daemon);
	js_u64(j, "host_client", st->host_client);
	js_u64(j, "evictions", st->evictions);
	js_u64(j, "evicted_bytes", st->evicted_bytes);
	js_u64(j, "channels_total", st->channels_total);
	js_u64(j, "channels_used", st->channels_used);
	js_u64(j, "hw_channels", st->hw_channels);
	js_u64(j, "hw_channels_used", st->hw_channels_used);
	js_u64(j, "virtual_channels", st->channels_used - st->hw_channels_used);
	js_u64(j, "chan_loads", st->chan_loads);
	js_u64(j, "chan_unloads", st->chan_unloads);
	js_u64(j, "vchan_saved", st->vchan_saved);
	js_u64(j, "ramin_size", st->ramin_size);
	js_u64(j, "ramin_used", st->ramin_used);
	js_u64(j, "clients", st->clients);
	js_u64(j, "bos", st->bos);
	js_u64(j, "orphaned", st->orphaned);
	js_u64(j, "submits", st->submits);
	js_u64(j, "refused", st->refused);
	js_u64(j, "fences", st->fences);
	js_u64(j, "uptime_ms", st->uptime_ms);
	if (st->oracle)
		js_u64(j, "oracle_violations", st->oracle_violations);
	else
		js_null(j, "oracle_violations");
	if (st->busy_known) {
		js_u64(j, "pfifo_busy_ns", st->pfifo_busy_ns);
		js_u64(j, "pgraph_busy_ns", st->pgraph_busy_ns);
	} else {
		js_null(j, "pfifo_busy_ns");
		js_null(j, "pgraph_busy_ns");
	}
}

static int nvdctl_status(struct nvc *c, int raw, int json)
{
	struct nvc_status st;

	if (nvc_status(c, &st) < 0) {
		fprintf(stderr, "nvdctl: %s\n", nvc_error());
		return NVDCTL_FAIL;
	}
	if (json) {
		struct nvdctl_json j = { 0 };
		js_open(&j, NULL, '{');
		nvdctl_json_status(&j, &st);
		js_close(&j, '}');
		return NVDCTL_OK;
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
		printf("fences=%" PRIu64 "\n", st.fences);
		if (st.busy_known) {
			printf("pfifo_busy_ns=%" PRIu64 "\n", st.pfifo_busy_ns);
			printf("pgraph_busy_ns=%" PRIu64 "\n", st.pgraph_busy_ns);
		}
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
	if (st.busy_known)
		printf("%-10s PFIFO %.3f s, PGRAPH %.3f s since nvd started\n", "busy:",
		       st.pfifo_busy_ns / 1e9, st.pgraph_busy_ns / 1e9);
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

/* Every connected client into *out (malloc'd, *n of them; names cleaned).
 * -1 when nvd fails us (said on stderr). */
static int nvdctl_get_clients(struct nvc *c, struct nvc_client **out, unsigned *n)
{
	struct nvc_client *all = NULL;
	unsigned count = 0, cap = 0;

	*n = 0;
	/* The list can change between requests; stop at the first index past
	 * the end, whatever count said before. */
	for (unsigned i = 0;; i++) {
		if (i == cap) {
			struct nvc_client *more = reallocarray(all, cap ? 2 * cap : 16, sizeof(*all));
			if (!more) {
				fprintf(stderr, "nvdctl: out of memory\n");
				free(all);
				return -1;
			}
			all = more;
			cap = cap ? 2 * cap : 16;
		}
		int r = nvc_client_at(c, i, &all[i], &count);
		if (r == -ENOENT)
			break;
		if (r < 0) {
			fprintf(stderr, "nvdctl: %s\n", nvc_error());
			free(all);
			return -1;
		}
		nvdctl_clean_name(all[i].name);
		*n = i + 1;
		if (i + 1 >= count)
			break;
	}
	*out = all;
	return 0;
}

/* Its channels on the card's hardware channels and virtual ones. */
static void nvdctl_count_chans(const struct nvc_client *cl, unsigned *hw, unsigned *virt)
{
	*hw = *virt = 0;
	for (unsigned i = 0; i < sizeof(cl->chan_chid); i++)
		if (cl->chan_chid[i] == NVC_CHAN_VIRTUAL)
			++*virt;
		else if (cl->chan_chid[i] != NVC_CHAN_NONE)
			++*hw;
}

/* A client's members (top adds its rates). */
static void nvdctl_json_client(struct nvdctl_json *j, const struct nvc_client *cl)
{
	unsigned hw, virt;
	nvdctl_count_chans(cl, &hw, &virt);
	js_u64(j, "id", cl->id);
	js_u64(j, "pid", cl->pid);
	js_u64(j, "uid", cl->uid);
	js_str(j, "name", cl->name);
	js_u64(j, "channels", cl->channels);
	js_u64(j, "hw_channels", hw);
	js_u64(j, "virtual_channels", virt);
	js_open(j, "chans", '[');
	for (unsigned i = 0; i < sizeof(cl->chan_chid); i++) {
		if (cl->chan_chid[i] == NVC_CHAN_NONE)
			continue;
		js_open(j, NULL, '{');
		js_u64(j, "slot", i);
		if (cl->chan_chid[i] == NVC_CHAN_VIRTUAL)
			js_null(j, "chid");
		else
			js_u64(j, "chid", cl->chan_chid[i]);
		js_close(j, '}');
	}
	js_close(j, ']');
	js_u64(j, "bos", cl->bos);
	js_u64(j, "vram", cl->vram);
	js_u64(j, "gart", cl->gart);
	js_u64(j, "host", cl->host);
	js_u64(j, "evicted", cl->evicted);
	js_u64(j, "submits", cl->submits);
	js_u64(j, "refused", cl->refused);
	js_u64(j, "fences", cl->fences);
	js_u64(j, "card_ns", cl->card_ns);
	js_u64(j, "validate_ns", cl->validate_ns);
	js_u64(j, "validate_max_ns", cl->validate_max_ns);
}

static int nvdctl_clients(struct nvc *c, int raw, int json)
{
	struct nvc_client *all;
	unsigned n;

	if (nvdctl_get_clients(c, &all, &n) < 0)
		return NVDCTL_FAIL;
	if (json) {
		struct nvdctl_json j = { 0 };
		js_open(&j, NULL, '[');
		for (unsigned i = 0; i < n; i++) {
			js_open(&j, NULL, '{');
			nvdctl_json_client(&j, &all[i]);
			js_close(&j, '}');
		}
		js_close(&j, ']');
		free(all);
		return NVDCTL_OK;
	}
	if (!raw)
		printf("%5s %7s %6s  %-16s %4s %6s %10s %10s %10s %7s %10s %8s %9s %9s\n", "ID",
		       "PID", "UID", "NAME", "CHAN", "BUFS", "VRAM MiB", "GART MiB", "HOST MiB",
		       "EVICTED", "SUBMITS", "REFUSED", "VALID us", "MAX us");
	for (unsigned i = 0; i < n; i++) {
		const struct nvc_client cl = all[i];
		if (raw)
			printf("id=%u pid=%u uid=%u name=%s channels=%u bos=%u vram=%" PRIu64
			       " gart=%" PRIu64 " host=%" PRIu64 " evicted=%" PRIu64
			       " submits=%" PRIu64 " refused=%" PRIu64 " fences=%" PRIu64
			       " card_ns=%" PRIu64 " validate_ns=%" PRIu64 " validate_max_ns=%" PRIu64
			       " chans=", cl.id, cl.pid, cl.uid, cl.name[0] ? cl.name : "-",
			       cl.channels, cl.bos, cl.vram, cl.gart, cl.host, cl.evicted, cl.submits,
			       cl.refused, cl.fences, cl.card_ns, cl.validate_ns, cl.validate_max_ns);
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
	}
	free(all);
	return NVDCTL_OK;
}

/* ---- top ---- */

struct nvdctl_snap {
	struct nvc_status st;
	struct nvc_client *cl;
	unsigned n;
};

static int nvdctl_snap(struct nvc *c, struct nvdctl_snap *s)
{
	if (nvc_status(c, &s->st) < 0) {
		fprintf(stderr, "nvdctl: %s\n", nvc_error());
		return -1;
	}
	return nvdctl_get_clients(c, &s->cl, &s->n);
}

/* Per second over dt_ns (counters only grow: a smaller one counts nothing). */
static double nvdctl_rate(uint64_t now, uint64_t then, uint64_t dt_ns)
{
	return now >= then && dt_ns ? (double)(now - then) * 1e9 / (double)dt_ns : 0.0;
}

/* A share of dt_ns, 0 to 1. */
static double nvdctl_share(uint64_t now, uint64_t then, uint64_t dt_ns)
{
	double r = nvdctl_rate(now, then, dt_ns) / 1e9;
	return r > 1.0 ? 1.0 : r;
}

/* The same client in the previous sample, or NULL: it is new. */
static const struct nvc_client *nvdctl_prev(const struct nvdctl_snap *p, unsigned id)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->cl[i].id == id)
			return &p->cl[i];
	return NULL;
}

struct nvdctl_rates {
	double interval_s, pfifo, pgraph, submits, fences;   /* the card's */
};

static void nvdctl_card_rates(const struct nvdctl_snap *p, const struct nvdctl_snap *s,
			      struct nvdctl_rates *r)
{
	uint64_t dt = s->st.now_ns > p->st.now_ns ? s->st.now_ns - p->st.now_ns : 0;
	r->interval_s = dt / 1e9;
	r->pfifo = nvdctl_share(s->st.pfifo_busy_ns, p->st.pfifo_busy_ns, dt);
	r->pgraph = nvdctl_share(s->st.pgraph_busy_ns, p->st.pgraph_busy_ns, dt);
	r->submits = nvdctl_rate(s->st.submits, p->st.submits, dt);
	r->fences = nvdctl_rate(s->st.fences, p->st.fences, dt);
}

/* Client i of s as top shows it: its channels and its rates since p. */
struct nvdctl_row {
	const struct nvc_client *cl;
	unsigned hw, virt;
	double submits, fences;
	double card;             /* share of the interval the card worked for it */
	char card_pct[8];        /* that in %, or "n/a" */
};

static void nvdctl_row(const struct nvdctl_snap *p, const struct nvdctl_snap *s, unsigned i,
		       struct nvdctl_row *r)
{
	static const struct nvc_client none;
	const struct nvc_client *old = nvdctl_prev(p, s->cl[i].id);
	uint64_t dt = s->st.now_ns > p->st.now_ns ? s->st.now_ns - p->st.now_ns : 0;
	if (!old)
		old = &none;    /* connected within the interval: all it did is new */
	r->cl = &s->cl[i];
	nvdctl_count_chans(r->cl, &r->hw, &r->virt);
	r->submits = nvdctl_rate(r->cl->submits, old->submits, dt);
	r->fences = nvdctl_rate(r->cl->fences, old->fences, dt);
	r->card = nvdctl_share(r->cl->card_ns, old->card_ns, dt);
	if (s->st.busy_known)
		snprintf(r->card_pct, sizeof(r->card_pct), "%.1f", r->card * 100.0);
	else
		snprintf(r->card_pct, sizeof(r->card_pct), "n/a");
}

static void nvdctl_top_json(const struct nvdctl_snap *p, const struct nvdctl_snap *s)
{
	struct nvdctl_json j = { 0 };
	struct nvdctl_rates r;

	nvdctl_card_rates(p, s, &r);
	js_open(&j, NULL, '{');
	js_double(&j, "interval_s", r.interval_s);
	js_open(&j, "card", '{');
	nvdctl_json_status(&j, &s->st);
	if (s->st.busy_known) {
		js_double(&j, "pfifo_busy", r.pfifo);
		js_double(&j, "pgraph_busy", r.pgraph);
	} else {
		js_null(&j, "pfifo_busy");
		js_null(&j, "pgraph_busy");
	}
	js_double(&j, "submits_per_s", r.submits);
	js_double(&j, "fences_per_s", r.fences);
	js_close(&j, '}');
	js_open(&j, "clients", '[');
	for (unsigned i = 0; i < s->n; i++) {
		struct nvdctl_row row;
		nvdctl_row(p, s, i, &row);
		js_open(&j, NULL, '{');
		nvdctl_json_client(&j, row.cl);
		js_double(&j, "submits_per_s", row.submits);
		js_double(&j, "fences_per_s", row.fences);
		if (s->st.busy_known)
			js_double(&j, "card_busy", row.card);
		else
			js_null(&j, "card_busy");
		js_close(&j, '}');
	}
	js_close(&j, ']');
	js_close(&j, '}');
}

/* The terminal top draws on: lines are cut to its width, and the last
 * row stays free so that it never scrolls. */
struct nvdctl_screen {
	unsigned rows, cols, used;
};

static void nvdctl_screen_size(struct nvdctl_screen *sc)
{
	struct winsize ws;
	int ok = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col;
	sc->rows = ok ? ws.ws_row : 24;
	sc->cols = ok ? ws.ws_col : 80;
	sc->used = 0;
}

static unsigned nvdctl_screen_room(const struct nvdctl_screen *sc)
{
	return sc->used + 1 < sc->rows ? sc->rows - 1 - sc->used : 0;
}

/* A line over the last screen's, the rest of it cleared. */
__attribute__((format(printf, 2, 3)))
static void nvdctl_line(struct nvdctl_screen *sc, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!nvdctl_screen_room(sc))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("%.*s\033[K\n", (int)(sc->cols < sizeof(buf) ? sc->cols : sizeof(buf)), buf);
	sc->used++;
}

/* "PFIFO   12.3% [###.......]", or n/a when the card does not measure it. */
static void nvdctl_busy_bar(char *buf, size_t len, const char *engine, int known, double share)
{
	char bar[26];
	unsigned fill = (unsigned)(share * (sizeof(bar) - 1) + 0.5);
	for (unsigned i = 0; i < sizeof(bar) - 1; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[sizeof(bar) - 1] = 0;
	if (known)
		snprintf(buf, len, "%-7s %5.1f%% [%s]", engine, share * 100.0, bar);
	else
		snprintf(buf, len, "%-7s   n/a  (the card does not measure it)", engine);
}

/* One screen, drawn over the last one. */
static void nvdctl_top_screen(const struct nvdctl_snap *p, const struct nvdctl_snap *s,
			      double delay)
{
	const struct nvc_status *st = &s->st;
	struct nvdctl_screen sc;
	struct nvdctl_rates r;
	char fifo[64], gr[64];

	nvdctl_screen_size(&sc);
	nvdctl_card_rates(p, s, &r);
	nvdctl_busy_bar(fifo, sizeof(fifo), "PFIFO", st->busy_known, r.pfifo);
	nvdctl_busy_bar(gr, sizeof(gr), "PGRAPH", st->busy_known, r.pgraph);
	printf("\033[H");
	nvdctl_line(&sc, "nvdctl top: %s, every %.1f s (q quits)", st->card, delay);
	nvdctl_line(&sc, "%s   %s", fifo, gr);
	nvdctl_line(&sc, "VRAM    %7.1f MiB of %.1f used by clients, %.1f held by nvd",
		    nvdctl_mib(st->vram_client), nvdctl_mib(st->vram_size),
		    nvdctl_mib(st->vram_daemon));
	nvdctl_line(&sc, "GART    %7.1f MiB of %.1f used by clients, %.1f held by nvd",
		    nvdctl_mib(st->gart_client), nvdctl_mib(st->gart_size),
		    nvdctl_mib(st->gart_daemon));
	nvdctl_line(&sc, "host    %7.1f MiB of client buffers, %" PRIu64 " evictions (%.1f MiB)",
		    nvdctl_mib(st->host_client), st->evictions, nvdctl_mib(st->evicted_bytes));
	nvdctl_line(&sc, "channels %u open: %u on hardware, %u virtual; %u clients; %.1f "
		    "submits/s, %.1f fences/s, %" PRIu64 " refused", st->channels_used,
		    st->hw_channels_used, st->channels_used - st->hw_channels_used, st->clients,
		    r.submits, r.fences, st->refused);
	nvdctl_line(&sc, "%s", "");
	/* what changes first, so that 80 columns show it */
	nvdctl_line(&sc, "%5s %7s  %-16s %5s %8s %8s %8s %8s %8s %5s %3s %4s %7s %7s", "ID",
		    "PID", "NAME", "CARD%", "SUBMIT/s", "FENCE/s", "VRAM MiB", "GART MiB",
		    "HOST MiB", "BUFS", "HW", "VIRT", "REFUSED", "EVICTED");
	for (unsigned i = 0; i < s->n; i++) {
		struct nvdctl_row w;
		if (nvdctl_screen_room(&sc) == 1 && i + 1 < s->n) {
			nvdctl_line(&sc, "(%u more clients)", s->n - i);
			break;
		}
		nvdctl_row(p, s, i, &w);
		nvdctl_line(&sc, "%5u %7u  %-16.16s %5s %8.1f %8.1f %8.1f %8.1f %8.1f %5u %3u %4u %7"
			    PRIu64 " %7" PRIu64, w.cl->id, w.cl->pid,
			    w.cl->name[0] ? w.cl->name : "-", w.card_pct, w.submits, w.fences,
			    nvdctl_mib(w.cl->vram), nvdctl_mib(w.cl->gart), nvdctl_mib(w.cl->host),
			    w.cl->bos, w.hw, w.virt, w.cl->refused, w.cl->evicted);
	}
	printf("\033[J");
}

/* Not a terminal: a line for the card and one per client, each refresh. */
static void nvdctl_top_lines(const struct nvdctl_snap *p, const struct nvdctl_snap *s)
{
	const struct nvc_status *st = &s->st;
	struct nvdctl_rates r;

	nvdctl_card_rates(p, s, &r);
	printf("card uptime_ms=%" PRIu64, st->uptime_ms);
	if (st->busy_known)
		printf(" pfifo=%.1f%% pgraph=%.1f%%", r.pfifo * 100.0, r.pgraph * 100.0);
	else
		printf(" pfifo=n/a pgraph=n/a");
	printf(" vram=%" PRIu64 " gart=%" PRIu64 " host=%" PRIu64 " evictions=%" PRIu64
	       " channels=%u virtual=%u clients=%u submits/s=%.1f fences/s=%.1f refused=%" PRIu64
	       "\n", st->vram_client, st->gart_client, st->host_client, st->evictions,
	       st->channels_used, st->channels_used - st->hw_channels_used, st->clients, r.submits,
	       r.fences, st->refused);
	for (unsigned i = 0; i < s->n; i++) {
		struct nvdctl_row w;
		nvdctl_row(p, s, i, &w);
		printf("client id=%u pid=%u name=%s card=%s%s hw=%u virtual=%u bos=%u vram=%" PRIu64
		       " gart=%" PRIu64 " host=%" PRIu64 " submits/s=%.1f fences/s=%.1f refused=%"
		       PRIu64 " evicted=%" PRIu64 "\n", w.cl->id, w.cl->pid,
		       w.cl->name[0] ? w.cl->name : "-", w.card_pct, s->st.busy_known ? "%" : "",
		       w.hw, w.virt, w.cl->bos, w.cl->vram, w.cl->gart, w.cl->host, w.submits,
		       w.fences, w.cl->refused, w.cl->evicted);
	}
}

static volatile sig_atomic_t nvdctl_stop;

static void nvdctl_on_signal(int sig)
{
	(void)sig;
	nvdctl_stop = 1;
}

static uint64_t nvdctl_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* Wait ms, watching a terminal's keys when keys is set: 1 when told to
 * stop ('q', SIGINT, SIGTERM), else 0. */
static int nvdctl_wait(uint64_t ms, int keys)
{
	uint64_t end = nvdctl_now_ms() + ms;
	for (;;) {
		uint64_t now = nvdctl_now_ms();
		if (nvdctl_stop)
			return 1;
		if (now >= end)
			return 0;
		struct pollfd pfd = { STDIN_FILENO, POLLIN, 0 };
		int r = poll(&pfd, keys ? 1 : 0, (int)(end - now));
		if (r > 0) {
			char k;
			ssize_t got = read(STDIN_FILENO, &k, 1);
			if (got == 1 && (k == 'q' || k == 'Q'))
				return 1;
			if (got == 0)
				keys = 0;    /* the terminal went: wait out the time */
		}
	}
}

static int nvdctl_top(struct nvc *c, double delay, unsigned long iterations, int json)
{
	struct nvdctl_snap prev, cur;
	struct termios saved, keys;
	int tty_out = !json && isatty(STDOUT_FILENO);
	int tty_in = tty_out && isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0;
	int ret = NVDCTL_OK;

	struct sigaction sa = { .sa_handler = nvdctl_on_signal };   /* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (nvdctl_snap(c, &prev) < 0)
		return NVDCTL_FAIL;
	if (tty_in) {
		keys = saved;
		keys.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		keys.c_cc[VMIN] = 1;
		keys.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &keys);
	}
	if (tty_out)
		printf("\033[?25l\033[2J\033[H(the first figures come in %.1f s)\n", delay);
	fflush(stdout);
	for (unsigned long i = 0; !iterations || i < iterations; i++) {
		if (nvdctl_wait((uint64_t)(delay * 1000.0 + 0.5), tty_in))
			break;
		if (nvdctl_snap(c, &cur) < 0) {
			ret = NVDCTL_FAIL;
			break;
		}
		if (json)
			nvdctl_top_json(&prev, &cur);
		else if (tty_out)
			nvdctl_top_screen(&prev, &cur, delay);
		else
			nvdctl_top_lines(&prev, &cur);
		fflush(stdout);
		free(prev.cl);
		prev = cur;
	}
	free(prev.cl);
	if (tty_in)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	if (tty_out)
		printf("\033[?25h");
	return ret;
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
		{ "json", no_argument, 0, 'j' },
		{ "delay", required_argument, 0, 'd' },
		{ "iterations", required_argument, 0, 'n' },
		{ "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 }
	};
	const char *socket = NULL, *cmd, *top_opt = NULL;
	int raw = 0, json = 0, o, ret;
	double delay = 1.0;
	unsigned long iterations = 0;
	char *end;
	struct nvc *c;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "nvdctl: ...", not a path */
	while ((o = getopt_long(argc, argv, "s:rjd:n:h", lo, NULL)) != -1) {
		switch (o) {
		case 's': socket = optarg; break;
		case 'r': raw = 1; break;
		case 'j': json = 1; break;
		case 'd':
			delay = strtod(optarg, &end);
			if (end == optarg || *end || !(delay >= 0.1 && delay <= 3600)) {
				fprintf(stderr, "nvdctl: --delay '%s': seconds from 0.1 to 3600\n", optarg);
				return NVDCTL_USAGE;
			}
			top_opt = "--delay";
			break;
		case 'n':
			iterations = strtoul(optarg, &end, 10);
			if (*optarg < '1' || *optarg > '9' || *end || iterations > 1000000000ul) {
				fprintf(stderr, "nvdctl: --iterations '%s': a count from 1\n", optarg);
				return NVDCTL_USAGE;
			}
			top_opt = "--iterations";
			break;
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
	    strcmp(cmd, "screenshot") && strcmp(cmd, "top")) {
		fprintf(stderr, "nvdctl: unknown command '%s' (try 'nvdctl help')\n", cmd);
		return NVDCTL_USAGE;
	}
	int is_top = !strcmp(cmd, "top");
	if (top_opt && !is_top) {
		fprintf(stderr, "nvdctl: %s is for top\n", top_opt);
		return NVDCTL_USAGE;
	}
	if (json && (raw || !(is_top || !strcmp(cmd, "status") || !strcmp(cmd, "clients")))) {
		fprintf(stderr, "nvdctl: --json is for status, clients and top, without --raw\n");
		return NVDCTL_USAGE;
	}
	if (raw && is_top) {
		fprintf(stderr, "nvdctl: top has no --raw (try --json)\n");
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
		ret = nvdctl_status(c, raw, json);
	else if (!strcmp(cmd, "clients"))
		ret = nvdctl_clients(c, raw, json);
	else if (is_top)
		ret = nvdctl_top(c, delay, iterations, json);
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
