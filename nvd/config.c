/* nvd's options.  One table: each row is a command-line option and a key
 * of the config file, so the two cannot drift apart.  Values are taken in
 * three layers, each overriding the one before: the row's default, the
 * file (INI, read with inih), the command line. */
#include "nvd/config.h"

#include <errno.h>
#include <getopt.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#define STR_(x) #x
#define STR(x) STR_(x)

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvd [OPTION]...\n"
"Own an NVIDIA GeForce 6 (NV4x) card and serve nvd clients on a socket.\n"
"\n"
"  -s, --socket PATH     listen on PATH (default: $NVD_SOCKET, /run/nvd/socket\n"
"                        for root, else $XDG_RUNTIME_DIR/nvd/socket); a socket\n"
"                        systemd passes (socket activation) comes first\n"
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
"      --sim-jit MODE    compile the simulated card's shader programs with LLVM:\n"
"                        on (in the background, interpreted until compiled), off,\n"
"                        sync (at first use), verify (sync, each quad and vertex\n"
"                        checked against the interpreter: slow) or auto (the\n"
"                        default: on when nvd is built with LLVM); results do not\n"
"                        depend on it\n"
"      --sim-check       check every memory access of the simulated card against\n"
"                        the buffers nvd admitted for the commands it runs; log\n"
"                        each one outside as an ORACLE: line (slower; for tests)\n"
"  -v, --verbose         log more (repeat for even more)\n"
"      --vnc [ADDR:]PORT show the heads to VNC viewers on PORT of ADDR (default\n"
"                        127.0.0.1), side by side, cursors included; viewers only\n"
"                        look (their keyboard and pointer are ignored).  An ADDR\n"
"                        other than loopback needs --vnc-password-file\n"
"      --vnc-password-file FILE\n"
"                        viewers must give the password on FILE's first line\n"
"                        (VNC authentication: its first 8 characters count)\n"
"      --config FILE     read settings from FILE (default " NVD_CONFIG_FILE ",\n"
"                        if it exists); the command line overrides them\n"
"                        (nvd.conf(5))\n"
"      --check-config    print the settings nvd would run with and where each\n"
"                        comes from, and every error; start nothing (exit 0 when\n"
"                        clean)\n"
"  -h, --help            show this help\n"
"      --version         show the version\n");
}

typedef int set_fn(struct nvd_config *c, unsigned i, const char *v, char *why, size_t len);

enum { ARG, FLAG, COUNT };   /* takes a value, is a yes/no flag, counts repeats */

/* One option: --name on the command line, [section] key in the file. */
struct row {
	const char *name;
	char short_name;
	int kind;
	const char *section, *key;   /* key NULL: one key per output, named by its number */
	const char *def;             /* the default as a value; NULL: see default_of, print_settings */
	set_fn *set;                 /* parse a value into nvd_config.o: 0, or -EINVAL and why */
};

static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *why,
		     size_t len)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max || s[0] == '-') {
		snprintf(why, len, "expected a number from %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int set_socket(struct nvd_config *c, unsigned i, const char *v, char *why, size_t len)
{
	(void)i;
	if (!*v || strlen(v) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		snprintf(why, len, "expected a path of 1 to %zu characters",
			 sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
		return -EINVAL;
	}
	c->o->socket = v;
	return 0;
}

/* Checked, and the password read, by nvd_vnc_new. */
static int set_vnc(struct nvd_config *c, unsigned i, const char *v, char *why, size_t len)
{
	(void)i, (void)why, (void)len;
	c->o->vnc = v;
	return 0;
}

static int set_vnc_password(struct nvd_config *c, unsigned i, const char *v, char *why, size_t len)
{
	(void)i, (void)why, (void)len;
	c->o->vnc_password_file = v;
	return 0;
}

static int set_card(struct nvd_config *c, unsigned i, const char *v, char *why, size_t len)
{
	(void)i, (void)why, (void)len;
	c->o->card.spec = v;   /* checked with the other card options (nvd_card_check) */
	return 0;
}

#define SET_NUM(fn, min, max, lvalue)                                                      \
	static int fn(struct nvd_config *c, unsigned i, const char *v, char *why, size_t len) \
	{                                                                                  \
		uint64_t n;                                                                \
		(void)c, (void)i;                                                          \
		if (parse_u64(v, min, max, &n, why, len) < 0)                              \
			return -EINVAL;                                                    \
		lvalue;                                                                    \
		return 0;                                                                  \
	}
SET_NUM(set_vram, 0, 1024, c->o->card.vram_size = n << 20)
SET_NUM(set_gart, 0, 4096, c->o->card.gart_size = n << 20)
SET_NUM(set_timeslice, 1, 0x1ffff, c->o->timeslice = (unsigned)n)
SET_NUM(set_gpu_timeout, 0, 3600000, c->o->gpu_timeout_ms = (unsigned)n)
SET_NUM(set_quota, 1, 1u << 20, c->o->quota = n << 20)
SET_NUM(set_max_bos, 1, 1u << 20, c->o->max_bos = (unsigned)n)
SET_NUM(set_sim_threads, 0, 16, c->o->card.sim_threads = (unsigned)n)
SET_NUM(set_verbosity, 0, 9, nvd_verbose = (int)n)

static int set_monitor(struct nvd_config *c, unsigned i, const char *v, char *why, size_t len)
{
	struct nvd_monitor *m = &c->mon[i];
	if (nvd_monitor_parse(v, m, why, len) < 0)
		return -EINVAL;
	if (!m->nmodes) {
		c->o->card.edid[i] = NULL;
		return 0;
	}
	if (nvd_edid_build(m, c->edid[i], why, len) < 0 ||
	    nvd_disp_monitor_check(c->edid[i], why, len) < 0)
		return -EINVAL;
	c->o->card.edid[i] = c->edid[i];
	return 0;
}

static int set_sim_jit(struct nvd_config *c, unsigned i, const char *v, char *why, size_t len)
{
	static const char *const modes[] = {
		[NVD_SIM_JIT_DEFAULT] = "auto", [NVD_SIM_JIT_OFF] = "off", [NVD_SIM_JIT_ON] = "on",
		[NVD_SIM_JIT_SYNC] = "sync", [NVD_SIM_JIT_VERIFY] = "verify",
	};
	(void)i;
	for (unsigned m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
		if (!strcmp(v, modes[m])) {
			c->o->card.sim_jit = m;
			return 0;
		}
	snprintf(why, len, "expected auto, on, off, sync or verify");
	return -EINVAL;
}

static int set_sim_check(struct nvd_config *c, unsigned i, const char *v, char *why, size_t len)
{
	(void)i;
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1"))
		c->o->card.sim_check = 1;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0"))
		c->o->card.sim_check = 0;
	else {
		snprintf(why, len, "expected yes or no");
		return -EINVAL;
	}
	return 0;
}

static const struct row rows[] = {
	{ "socket", 's', ARG, "daemon", "socket", NULL, set_socket },
	{ "verbose", 'v', COUNT, "daemon", "verbosity", "0", set_verbosity },
	{ "card", 'c', ARG, "card", "card", "sim", set_card },
	{ "vram", 0, ARG, "card", "vram", "128", set_vram },
	{ "gart", 0, ARG, "card", "gart", "512", set_gart },
	{ "sim-threads", 0, ARG, "card", "sim-threads", "0", set_sim_threads },
	{ "sim-jit", 0, ARG, "card", "sim-jit", "auto", set_sim_jit },
	{ "sim-check", 0, FLAG, "card", "sim-check", "no", set_sim_check },
	{ "timeslice", 0, ARG, "scheduler", "timeslice", STR(NVD_TIMESLICE_US), set_timeslice },
	{ "gpu-timeout", 0, ARG, "scheduler", "gpu-timeout", "2000", set_gpu_timeout },
	{ "quota", 0, ARG, "clients", "quota", "512", set_quota },
	{ "max-bos", 0, ARG, "clients", "max-bos", "16384", set_max_bos },
	{ "monitor", 0, ARG, "monitor", NULL, NULL, set_monitor },
	{ "vnc", 0, ARG, "vnc", "listen", NULL, set_vnc },
	{ "vnc-password-file", 0, ARG, "vnc", "password-file", NULL, set_vnc_password },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))
_Static_assert(NVD_CONFIG_SLOTS == NROWS - 1 + NVD_CARD_OUTPUTS,
	       "one slot per setting: one per row, one per output for --monitor");

static unsigned row_settings(const struct row *r)
{
	return r->key ? 1 : NVD_CARD_OUTPUTS;
}

static struct nvd_config_slot *slot_of(struct nvd_config *c, const struct row *r, unsigned i)
{
	unsigned n = 0;
	for (const struct row *p = rows; p < r; p++)
		n += row_settings(p);
	return &c->slot[n + i];
}

static const char *default_of(const struct row *r, unsigned i)
{
	return r->key ? r->def : nvd_monitor_default_spec(i);
}

/* The name of a setting in messages and --check-config: the file's key. */
static const char *key_of(const struct row *r, unsigned i, char *buf, size_t len)
{
	if (r->key)
		return r->key;
	snprintf(buf, len, "%u", i);
	return buf;
}

static void __attribute__((format(printf, 2, 3))) file_error(struct nvd_config *c,
							     const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	nvd_err("%s:%u: %s", c->file, c->line, msg);
	c->errors++;
}

static int section_known(const char *name)
{
	for (unsigned r = 0; r < NROWS; r++)
		if (!strcmp(rows[r].section, name))
			return 1;
	return 0;
}

/* inih's handler: every error is reported here, with its line, and the
 * parse goes on (so one run says them all). */
static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct nvd_config *c = user;
	const struct row *r;
	unsigned i = 0;
	char why[256];

	if (!*section) {
		file_error(c, "'%s' outside any [section]", name);
		return 1;
	}
	if (!section_known(section))
		return 1;   /* said once, at the section's line (read_line) */
	for (r = rows; r < rows + NROWS; r++) {
		if (strcmp(r->section, section))
			continue;
		if (r->key ? !strcmp(r->key, name)
			   : (name[0] >= '0' && name[0] < '0' + NVD_CARD_OUTPUTS && !name[1]))
			break;
	}
	if (r == rows + NROWS) {
		file_error(c, "unknown key '%s' in [%s]", name, section);
		return 1;
	}
	if (!r->key)
		i = (unsigned)(name[0] - '0');
	struct nvd_config_slot *s = slot_of(c, r, i);
	if (s->line) {
		file_error(c, "duplicate key '%s' in [%s] (first on line %u)", name, section,
			   s->line);
		return 1;
	}
	snprintf(s->val, sizeof(s->val), "%s", value);
	s->line = c->line;
	if (r->set(c, i, s->val, why, sizeof(why)) < 0)
		file_error(c, "invalid value '%s' for %s in [%s]: %s", value, name, section, why);
	return 1;
}

struct reader {
	struct nvd_config *c;
	FILE *f;
	char *buf;
	size_t cap;
};

/* inih's line reader.  It counts lines (for the messages), strips leading
 * blanks (inih would take an indented line as the previous value going on,
 * a switch only Debian's build has) and says, once each, the lines inih
 * would refuse or nvd does not know: too long, not KEY = VALUE, an unknown
 * [section]; inih then gets an empty line for the bad ones. */
static char *read_line(char *str, int num, void *stream)
{
	struct reader *rd = stream;
	struct nvd_config *c = rd->c;
	ssize_t n = getline(&rd->buf, &rd->cap, rd->f);
	if (n < 0)
		return NULL;
	c->line++;
	while (n && (rd->buf[n - 1] == '\n' || rd->buf[n - 1] == '\r'))
		rd->buf[--n] = 0;
	char *p = rd->buf;
	if (c->line == 1 && !strncmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	p += strspn(p, " \t");
	if (strlen(p) >= (size_t)num - 1) {
		file_error(c, "line longer than %d characters", num - 2);
		p = "";
	} else if (*p == '[') {
		char *end = strchr(p, ']');
		if (!end) {
			file_error(c, "expected ']' after the section name");
			p = "";
		} else {
			char name[NVD_CONFIG_VALUE];
			snprintf(name, sizeof(name), "%.*s", (int)(end - p - 1), p + 1);
			if (!section_known(name))
				file_error(c, "unknown section [%s]", name);
		}
	} else if (*p && *p != ';' && *p != '#' && !strpbrk(p, "=:")) {
		file_error(c, "expected KEY = VALUE, a [section] or a comment");
		p = "";
	}
	snprintf(str, (size_t)num, "%s\n", p);
	return str;
}

/* Errors are said and counted in c (a missing default file is none). */
static void read_file(struct nvd_config *c, const char *path, int explicit)
{
	struct reader rd = { .c = c };
	rd.f = fopen(path, "re");
	if (!rd.f) {
		if (errno == ENOENT && !explicit)
			return;
		nvd_err("cannot read the config file %s: %s", path, strerror(errno));
		c->errors++;
		return;
	}
	c->file = path;
	int r = ini_parse_stream(read_line, &rd, on_key, c);
	if (!r && ferror(rd.f)) {
		nvd_err("cannot read the config file %s: %s", path, strerror(errno));
		c->errors++;
	}
	else if (r > 0 && c->errors == 0) {
		/* read_line screens what inih refuses: this is a safety net. */
		c->line = (unsigned)r;
		file_error(c, "syntax error");
	}
	else if (r < 0) {
		nvd_err("cannot parse the config file %s (inih: %d)", path, r);
		c->errors++;
	}
	free(rd.buf);
	fclose(rd.f);
}

static void print_settings(struct nvd_config *c)
{
	const char *section = "";
	char key[8], def_socket[108], origin[PATH_MAX + 16];

	for (const struct row *r = rows; r < rows + NROWS; r++) {
		if (strcmp(section, r->section))
			printf("%s[%s]\n", r == rows ? "" : "\n", section = r->section);
		for (unsigned i = 0; i < row_settings(r); i++) {
			struct nvd_config_slot *s = slot_of(c, r, i);
			const char *v = s->cmd ? s->cmd : s->line ? s->val : default_of(r, i);
			if (s->cmd)
				snprintf(origin, sizeof(origin), "command line");
			else if (s->line)
				snprintf(origin, sizeof(origin), "%s:%u", c->file, s->line);
			else
				snprintf(origin, sizeof(origin), "default");
			if (!v) {   /* the socket: its default depends on who runs nvd */
				nvd_default_socket(def_socket, sizeof(def_socket));
				v = def_socket;
			}
			printf("%-12s = %-24s ; %s\n", key_of(r, i, key, sizeof(key)), v, origin);
		}
	}
}

int nvd_config_load(struct nvd_config *c, int argc, char **argv)
{
	enum { OPT_CONFIG = 256, OPT_CHECK, OPT_HELP, OPT_VERSION, OPT_ROW };
	struct option lo[NROWS + 5];
	char shorts[2 * NROWS + 2], *sp = shorts, why[256], key[8];
	const char *path = NULL;
	unsigned nlo = 0, verbose = 0;
	int ch;

	for (unsigned r = 0; r < NROWS; r++) {
		lo[nlo++] = (struct option){ rows[r].name,
					     rows[r].kind == ARG ? required_argument : no_argument,
					     NULL, rows[r].short_name ? rows[r].short_name
								      : OPT_ROW + (int)r };
		if (rows[r].short_name) {
			*sp++ = rows[r].short_name;
			if (rows[r].kind == ARG)
				*sp++ = ':';
		}
	}
	*sp++ = 'h';
	*sp = 0;
	lo[nlo++] = (struct option){ "config", required_argument, NULL, OPT_CONFIG };
	lo[nlo++] = (struct option){ "check-config", no_argument, NULL, OPT_CHECK };
	lo[nlo++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[nlo++] = (struct option){ "version", no_argument, NULL, OPT_VERSION };
	lo[nlo] = (struct option){ 0 };

	/* First the command line, kept aside: it names the file, and wins over it. */
	while ((ch = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct row *r = NULL;
		unsigned i = 0;
		switch (ch) {
		case OPT_CONFIG: path = optarg; continue;
		case OPT_CHECK: c->check = 1; continue;
		case 'h': usage(stdout); return 0;
		case OPT_VERSION: printf("nvd %s (protocol %u)\n", NVD_VERSION, NVD_PROTO_VERSION); return 0;
		case '?': usage(stderr); return 2;
		}
		for (unsigned k = 0; k < NROWS; k++)
			if (ch == rows[k].short_name || ch == OPT_ROW + (int)k)
				r = &rows[k];
		const char *v = optarg;
		if (!r->key) {   /* --monitor OUTPUT=SPEC */
			if (optarg[0] < '0' || optarg[0] >= '0' + NVD_CARD_OUTPUTS || optarg[1] != '=') {
				nvd_err("--%s %s: expected OUTPUT=SPEC with OUTPUT 0 to %u", r->name,
					optarg, NVD_CARD_OUTPUTS - 1);
				return 2;
			}
			i = (unsigned)(optarg[0] - '0');
			v = optarg + 2;
		}
		struct nvd_config_slot *s = slot_of(c, r, i);
		if (r->kind == FLAG)
			v = "yes";
		else if (r->kind == COUNT) {
			snprintf(s->cmd_buf, sizeof(s->cmd_buf), "%u", ++verbose);
			v = s->cmd_buf;
		}
		s->cmd = v;
	}
	if (optind < argc) {
		nvd_err("unexpected argument '%s'", argv[optind]);
		usage(stderr);
		return 2;
	}

	for (const struct row *r = rows; r < rows + NROWS; r++)
		for (unsigned i = 0; i < row_settings(r); i++)
			if (default_of(r, i) && r->set(c, i, default_of(r, i), why, sizeof(why)) < 0) {
				nvd_err("the default %s = %s: %s", key_of(r, i, key, sizeof(key)),
					default_of(r, i), why);
				return 1;
			}
	read_file(c, path ? path : NVD_CONFIG_FILE, path != NULL);
	for (const struct row *r = rows; r < rows + NROWS; r++)
		for (unsigned i = 0; i < row_settings(r); i++) {
			struct nvd_config_slot *s = slot_of(c, r, i);
			if (!s->cmd || r->set(c, i, s->cmd, why, sizeof(why)) == 0)
				continue;
			if (r->key)
				nvd_err("invalid value '%s' for --%s: %s", s->cmd, r->name, why);
			else
				nvd_err("--%s %u=%s: %s", r->name, i, s->cmd, why);
			c->errors++;
		}
	/* A card nvd could never open is bad usage, not a failure of the card. */
	if (nvd_card_check(&c->o->card, why, sizeof(why)) < 0) {
		nvd_err("%s", why);
		c->errors++;
	}
	if (c->check) {
		print_settings(c);
		return c->errors ? 1 : 0;
	}
	return c->errors ? 2 : -1;
}
