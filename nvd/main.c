/* nvd: the daemon that owns an NV4x card (or the simulated one) and runs
 * unprivileged clients' command buffers on it after validating them. */
#include "nvd/nvd.h"
#include "nvd/vnc.h"

#include <errno.h>
#include <event2/event.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvd [OPTION]...\n"
"Own an NVIDIA GeForce 6 (NV4x) card and serve nvd clients on a socket.\n"
"\n"
"  -s, --socket PATH     listen on PATH (default: $NVD_SOCKET, /run/nvd/socket\n"
"                        for root, else $XDG_RUNTIME_DIR/nvd/socket)\n"
"  -c, --card SPEC       sim[:CHIP]  the simulated card (default sim:" NV_DEFAULT_CHIP "; CHIP is\n"
"                                    NV40, NV43 or NV44)\n"
"                        pci[:BDF]   a real card found with libpciaccess\n"
"      --vram MIB        simulated VRAM size (default 128)\n"
"      --gart MIB        size of the GART window (default 512)\n"
"      --timeslice US    card time each busy channel runs in turn, in microseconds\n"
"                        (1..131071, default 100)\n"
"      --gpu-timeout MS  card time one submission may take before its channel is\n"
"                        stopped (PGRAPH reset) and its client told EIO\n"
"                        (default 2000; 0: no limit)\n"
"      --quota MIB       buffer memory each client may hold (default 512)\n"
"      --max-bos N       buffers each client may hold (default 16384)\n"
"      --monitor OUTPUT=SPEC\n"
"                        the monitor on output OUTPUT (0 or 1) of the simulated\n"
"                        card; SPEC is 'none' or WxH[@HZ][,WxH[@HZ]...][:NAME], the\n"
"                        first mode preferred, HZ 60 by default, e.g.\n"
"                        --monitor 0=1600x1200,1280x1024@75:BigCRT.  Default:\n"
"                        0=1920x1080,1680x1050,1280x1024,1024x768,800x600,640x480\n"
"                        and 1=1280x1024,1024x768,800x600,640x480\n"
"      --sim-threads N   threads for the simulated 3D engine's fragments (default 0:\n"
"                        one per CPU nvd may run on, at most 6; results do not\n"
"                        depend on it)\n"
"      --sim-jit MODE    compile the simulated card's fragment programs with LLVM:\n"
"                        on (in the background, interpreted until compiled; the\n"
"                        default when nvd is built with LLVM), off, sync (at\n"
"                        first use) or verify (sync, each quad checked against\n"
"                        the interpreter: slow); results do not depend on it\n"
"      --sim-check       check every memory access of the simulated card against\n"
"                        the buffers nvd admitted for the commands it runs; log\n"
"                        each one outside as an ORACLE: line (slower; for tests)\n"
"      --vnc [ADDR:]PORT show the heads to VNC viewers on PORT of ADDR (default\n"
"                        127.0.0.1), side by side, cursors included; viewers only\n"
"                        look (their keyboard and pointer are ignored).  An ADDR\n"
"                        other than loopback needs --vnc-password-file\n"
"      --vnc-password-file FILE\n"
"                        viewers must give the password on FILE's first line\n"
"                        (VNC authentication: its first 8 characters count)\n"
"  -v, --verbose         log more (repeat for even more)\n"
"  -h, --help            show this help\n"
"      --version         show the version\n");
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end || v > max || s[0] == '-')
		return -1;
	*out = v;
	return 0;
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct nvd *d = arg;
	(void)what;
	nvd_log(0, "%s: shutting down", strsignal((int)sig));
	snprintf(d->stop_why, sizeof(d->stop_why), "nvd is shutting down (%s)", strsignal((int)sig));
	event_base_loopbreak(d->base);
}

static void on_irq(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	nvd_irq(arg);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "socket", required_argument, 0, 's' }, { "card", required_argument, 0, 'c' },
		{ "vram", required_argument, 0, 'V' },   { "gart", required_argument, 0, 'G' },
		{ "timeslice", required_argument, 0, 'T' }, { "quota", required_argument, 0, 'Q' },
		{ "gpu-timeout", required_argument, 0, 'W' },
		{ "max-bos", required_argument, 0, 'B' }, { "monitor", required_argument, 0, 'M' }, { "verbose", no_argument, 0, 'v' },
		{ "sim-threads", required_argument, 0, 'H' }, { "sim-check", no_argument, 0, 'K' },
		{ "sim-jit", required_argument, 0, 'J' },
		{ "vnc", required_argument, 0, 'X' }, { "vnc-password-file", required_argument, 0, 'Y' },
		{ "help", no_argument, 0, 'h' },         { "version", no_argument, 0, 'R' },
		{ 0, 0, 0, 0 }
	};
	static struct nvd d;
	static struct nvd_monitor mon[NVD_CARD_OUTPUTS];
	static uint8_t edid[NVD_CARD_OUTPUTS][EDID_SIZE];
	char err[256];
	const char *vnc_listen = NULL, *vnc_password = NULL;
	struct nvd_vnc *vnc = NULL;
	uint64_t v;
	int c;

	d.o.card.spec = "sim";
	d.o.quota = 512ull << 20;
	d.o.timeslice = NVD_TIMESLICE_US;
	d.o.max_bos = 16384;
	d.o.gpu_timeout_ms = 2000;
	d.listen_fd = -1;
	for (unsigned i = 0; i < NVD_CARD_OUTPUTS; i++)
		nvd_monitor_default(i, &mon[i]);
	argv[0] = program_invocation_short_name;   /* getopt's messages: "nvd: ...", not a path */
	while ((c = getopt_long(argc, argv, "s:c:vh", lo, NULL)) != -1) {
		switch (c) {
		case 's': d.o.socket = optarg; break;
		case 'c': d.o.card.spec = optarg; break;
		case 'V':
			if (parse_u64(optarg, 1024, &v) < 0)
				goto bad;
			d.o.card.vram_size = v << 20;
			break;
		case 'G':
			if (parse_u64(optarg, 4096, &v) < 0)
				goto bad;
			d.o.card.gart_size = v << 20;
			break;
		case 'T':
			if (parse_u64(optarg, 0x1ffff, &v) < 0 || !v)
				goto bad;
			d.o.timeslice = (unsigned)v;
			break;
		case 'W':
			if (parse_u64(optarg, 3600000, &v) < 0)
				goto bad;
			d.o.gpu_timeout_ms = (unsigned)v;
			break;
		case 'Q':
			if (parse_u64(optarg, 1u << 20, &v) < 0 || !v)
				goto bad;
			d.o.quota = v << 20;
			break;
		case 'B':
			if (parse_u64(optarg, 1u << 20, &v) < 0 || !v)
				goto bad;
			d.o.max_bos = (unsigned)v;
			break;
		case 'M': {
			char *eq = strchr(optarg, '=');
			if (!eq || eq - optarg != 1 || optarg[0] < '0' ||
			    optarg[0] >= '0' + NVD_CARD_OUTPUTS) {
				fprintf(stderr, "nvd: --monitor %s: expected OUTPUT=SPEC with OUTPUT "
					"0 to %u\n", optarg, NVD_CARD_OUTPUTS - 1);
				return 2;
			}
			unsigned o = (unsigned)(optarg[0] - '0');
			if (nvd_monitor_parse(eq + 1, &mon[o], err, sizeof(err)) < 0 ||
			    (mon[o].nmodes && (nvd_edid_build(&mon[o], edid[o], err, sizeof(err)) < 0 ||
					       nvd_disp_monitor_check(edid[o], err, sizeof(err)) < 0))) {
				fprintf(stderr, "nvd: --monitor %s: %s\n", optarg, err);
				return 2;
			}
			break;
		}
		case 'H':
			if (parse_u64(optarg, 16, &v) < 0)
				goto bad;
			d.o.card.sim_threads = (unsigned)v;
			break;
		case 'K': d.o.card.sim_check = 1; break;
		case 'J':
			if (!strcmp(optarg, "off"))
				d.o.card.sim_jit = NVD_SIM_JIT_OFF;
			else if (!strcmp(optarg, "on"))
				d.o.card.sim_jit = NVD_SIM_JIT_ON;
			else if (!strcmp(optarg, "sync"))
				d.o.card.sim_jit = NVD_SIM_JIT_SYNC;
			else if (!strcmp(optarg, "verify"))
				d.o.card.sim_jit = NVD_SIM_JIT_VERIFY;
			else
				goto bad;
			break;
		case 'X': vnc_listen = optarg; break;
		case 'Y': vnc_password = optarg; break;
		case 'v': nvd_verbose++; break;
		case 'h': usage(stdout); return 0;
		case 'R': printf("nvd %s (protocol %u)\n", NVD_VERSION, NVD_PROTO_VERSION); return 0;
		default: usage(stderr); return 2;
		}
		continue;
bad:
		fprintf(stderr, "nvd: invalid value '%s' for --%s\n", optarg,
			c == 'V' ? "vram" : c == 'G' ? "gart" : c == 'T' ? "timeslice" :
			c == 'Q' ? "quota" : c == 'H' ? "sim-threads" : c == 'W' ? "gpu-timeout" : c == 'J' ? "sim-jit" : "max-bos");
		return 2;
	}
	if (optind < argc) {
		fprintf(stderr, "nvd: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	/* A card nvd could never open is bad usage, not a failure of the card. */
	if (nvd_card_check(&d.o.card, err, sizeof(err)) < 0) {
		fprintf(stderr, "nvd: %s\n", err);
		return 2;
	}
	if ((vnc_listen || vnc_password) &&
	    !(vnc = nvd_vnc_new(vnc_listen, vnc_password, err, sizeof(err)))) {
		fprintf(stderr, "nvd: %s\n", err);
		return 2;
	}
	if (d.o.socket)
		snprintf(d.sock_path, sizeof(d.sock_path), "%s", d.o.socket);
	else
		nvd_default_socket(d.sock_path, sizeof(d.sock_path));

	signal(SIGPIPE, SIG_IGN);
	/* Every client holds a socket and four fds per channel. */
	struct rlimit rl;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	d.base = event_base_new();
	if (!d.base) {
		fprintf(stderr, "nvd: cannot create the event loop\n");
		return 1;
	}
	for (unsigned i = 0; i < NVD_CARD_OUTPUTS; i++) {
		if (!mon[i].nmodes)
			continue;
		if (nvd_edid_build(&mon[i], edid[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "nvd: monitor %u: %s\n", i, err);
			return 2;
		}
		d.o.card.edid[i] = edid[i];
	}
	d.o.card.map_bars = 1;
	d.card = nvd_card_open(&d.o.card, err, sizeof(err));
	if (!d.card) {
		fprintf(stderr, "nvd: %s\n", err);
		return 1;
	}
	if (d.card->irq_fd < 0) {
		fprintf(stderr, "nvd: %s: no interrupt delivery for this card yet\n", d.card->desc);
		d.card->ops->destroy(d.card);
		return 1;
	}
	/* Watched before the socket exists: whoever sees it may stop nvd at once */
	struct event *sigint = evsignal_new(d.base, SIGINT, on_signal, &d);
	struct event *sigterm = evsignal_new(d.base, SIGTERM, on_signal, &d);
	if (!sigint || !sigterm || event_add(sigint, NULL) < 0 || event_add(sigterm, NULL) < 0) {
		fprintf(stderr, "nvd: cannot watch signals\n");
		d.card->ops->destroy(d.card);
		return 1;
	}
	if (vnc && nvd_vnc_start(vnc, &d, err, sizeof(err)) < 0) {
		fprintf(stderr, "nvd: %s\n", err);
		nvd_vnc_free(vnc);
		d.card->ops->destroy(d.card);
		return 1;
	}
	if (nvd_fifo_init(&d, err, sizeof(err)) < 0 ||
	    (nvd_disp_init(&d), nvd_server_listen(&d, err, sizeof(err)) < 0)) {
		fprintf(stderr, "nvd: %s\n", err);
		d.card->ops->destroy(d.card);
		return 1;
	}
	d.irq_evt = event_new(d.base, d.card->irq_fd, EV_READ | EV_PERSIST, on_irq, &d);
	if (!d.irq_evt || event_add(d.irq_evt, NULL) < 0) {
		fprintf(stderr, "nvd: cannot watch the card's interrupts\n");
		return 1;
	}
	if (nvd_watchdog_start(&d) < 0) {
		fprintf(stderr, "nvd: cannot start the watchdog\n");
		return 1;
	}
	nvd_log(0, "%s%s; listening on %s", d.card->desc,
		d.o.card.sim_check ? ", accesses checked (--sim-check)" : "", d.sock_path);
	event_base_dispatch(d.base);
	nvd_oracle_poll(&d);
	nvd_vnc_free(vnc);

	nvd_watchdog_stop(&d);
	nvd_server_close(&d, d.stop_why[0] ? d.stop_why : "nvd is shutting down");
	nvd_disp_fini(&d);
	nvd_fifo_fini(&d);
	event_free(d.irq_evt);
	event_free(sigint);
	event_free(sigterm);
	d.card->ops->destroy(d.card);
	event_base_free(d.base);
	return 0;
}
