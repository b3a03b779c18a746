/* The README's commands are tests.  Every fenced block of README.md follows
 * a marker that says what it is:
 *
 *   <!-- readme-test: quickstart -->   the quick start line, run as written
 *       from the top of the tree with NVD_SOCKET private; it must exit 0,
 *       print the NV4x renderer and leave a demo.png equal to the CPU's
 *       drawing (nvd-demo --cpu);
 *   <!-- readme-test: transcript [stop-after S] -->   commands after a `$ `
 *       (or, root only, `# `) prompt with the output they print: each runs
 *       in turn in a scratch directory where build/ is the build tree, with
 *       /tmp/nvd.sock and NVD_SOCKET private; one that ends in `&` runs in
 *       the background until the block ends (nvd and nvd-x: the next line
 *       waits until their socket answers); every other one must exit 0
 *       (or, with stop-after, still be running after S seconds, and is then
 *       stopped: the long examples run shortened) and print exactly the
 *       lines shown, `...` standing for any lines; no nvd of the block may
 *       refuse a submission;
 *   <!-- readme-test: skip REASON -->   not a command (a config file, a
 *       synopsis, a C fragment, a benchmark's sample output).
 *
 * A block without a marker fails, so a new example cannot go untested. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <png.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define README        "README.md"
#define MARK          "<!-- readme-test: "
#define README_SOCK   "/tmp/nvd.sock"   /* the socket the examples name */
#define CMD_TIMEOUT_S 120               /* a command that should end */
#define READY_S       60                /* nvd or X answering on its socket */
#define MAX_BLOCKS    64
#define MAX_BG        8

struct block {
	unsigned line;           /* of the opening fence */
	char kind[16];           /* quickstart, transcript, skip, or what the marker says */
	unsigned stop_after;     /* transcript: seconds a command may run before it is stopped */
	char *text;              /* the lines between the fences */
};

static struct block blocks[MAX_BLOCKS];
static unsigned nblocks;
static char top[PATH_MAX];       /* the source tree (tests/run runs us from there) */
static char build[PATH_MAX];     /* the build tree: $NVD_BIN/../.. */
/* What a test leaves for its teardown, even when it fails half-way. */
static char dir[64];             /* its scratch directory */
static pid_t bg[MAX_BG];         /* the commands it runs in the background */
static unsigned nbg;

/* ---- reading the README ---- */

static int readme_load(void)
{
	FILE *f = fopen(README, "r");
	char line[4096], prev[4096] = "";
	unsigned n = 0;
	struct block *b = NULL;
	size_t len = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (!strncmp(line, "```", 3)) {
			if (b) {                /* closing fence */
				b = NULL;
				continue;
			}
			if (nblocks == MAX_BLOCKS)
				break;
			b = &blocks[nblocks++];
			b->line = n;
			b->text = strdup("");
			len = 0;
			const char *m = strstr(prev, MARK);
			if (m)
				sscanf(m + strlen(MARK), "%15s stop-after %u", b->kind, &b->stop_after);
			continue;
		}
		if (b) {
			size_t l = strlen(line);
			b->text = realloc(b->text, len + l + 1);
			memcpy(b->text + len, line, l + 1);
			len += l;
		}
		if (line[0] != '\n')
			snprintf(prev, sizeof(prev), "%s", line);
	}
	fclose(f);
	return 0;
}

/* ---- running commands ---- */

/* Replace every `from` in s by `to` (a new string). */
static char *subst(const char *s, const char *from, const char *to)
{
	size_t n = 1, fl = strlen(from), tl = strlen(to);
	for (const char *p = s; (p = strstr(p, from)); p += fl)
		n++;
	char *out = malloc(strlen(s) + n * tl + 1), *o = out;
	for (const char *p; (p = strstr(s, from)); s = p + fl) {
		memcpy(o, s, (size_t)(p - s));
		o += p - s;
		memcpy(o, to, tl);
		o += tl;
	}
	strcpy(o, s);
	return out;
}

/* bash -c cmd in dir, in its own process group, output to the file out. */
static pid_t spawn(const char *cmd, const char *dir, const char *out)
{
	pid_t pid = fork();
	if (pid)
		return pid;
	setpgid(0, 0);
	int fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0644);
	int in = open("/dev/null", O_RDONLY);
	if (fd < 0 || in < 0 || chdir(dir) < 0)
		_exit(125);
	dup2(in, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	execl("/bin/bash", "bash", "-c", cmd, (char *)NULL);
	_exit(127);
}

/* Wait for pid up to s seconds: its status, or -1 (still running). */
static int wait_s(pid_t pid, unsigned s)
{
	int st;
	for (unsigned i = 0; i < s * 10; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		usleep(100000);
	}
	return -1;
}

static void stop(pid_t pid)
{
	kill(-pid, SIGTERM);
	if (wait_s(pid, 10) == -1) {
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static int answers(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int ok = 0;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	for (int type = SOCK_STREAM; type <= SOCK_SEQPACKET && !ok; type += SOCK_SEQPACKET - SOCK_STREAM) {
		int fd = socket(AF_UNIX, type, 0);
		ok = fd >= 0 && !connect(fd, (struct sockaddr *)&sa, sizeof(sa));
		if (fd >= 0)
			close(fd);
	}
	return ok;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t n = 0;
	if (!f)
		return strdup("");
	if (getdelim(&s, &n, '\0', f) < 0) {
		free(s);
		s = strdup("");
	}
	fclose(f);
	return s;
}

/* The expected lines (`...`: any lines) against what a command printed. */
static int transcript_match(const char *want, const char *got, char *why, size_t whylen)
{
	char *w = strdup(want), *g = strdup(got), *ws, *gs;
	char *wl = strtok_r(w, "\n", &ws), *gl = strtok_r(g, "\n", &gs);
	int skip = 0, ok = 1;

	for (; wl; wl = strtok_r(NULL, "\n", &ws)) {
		if (!strcmp(wl, "...")) {
			skip = 1;
			continue;
		}
		while (gl && strcmp(wl, gl) && skip)
			gl = strtok_r(NULL, "\n", &gs);
		if (!gl || strcmp(wl, gl)) {
			snprintf(why, whylen, "expected \"%s\", got \"%s\"", wl, gl ? gl : "(end)");
			ok = 0;
			break;
		}
		gl = strtok_r(NULL, "\n", &gs);
		skip = 0;
	}
	if (ok && gl && !skip) {
		snprintf(why, whylen, "unexpected further output \"%s\"", gl);
		ok = 0;
	}
	free(w);
	free(g);
	return ok;
}

/* A scratch directory with build/ pointing at the build tree, and nvd's
 * socket in it, for NVD_SOCKET and the examples' /tmp/nvd.sock. */
static int scratch(void **state)
{
	char link[PATH_MAX], sock[96];
	snprintf(dir, sizeof(dir), "/tmp/nvd-readme-XXXXXX");
	snprintf(sock, sizeof(sock), "%s/nvd.sock", mkdtemp(dir) ? dir : "");
	snprintf(link, sizeof(link), "%s/build", dir);
	(void)state;
	nbg = 0;
	return symlink(build, link) || setenv("NVD_SOCKET", sock, 1) ? -1 : 0;
}

static int scratch_remove(void **state)
{
	char cmd[PATH_MAX + 16];
	(void)state;
	for (unsigned i = nbg; i-- > 0;)
		stop(bg[i]);
	nbg = 0;
	unsetenv("NVD_SOCKET");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* ---- the tests ---- */

static void test_every_block_is_marked(void **state)
{
	(void)state;
	unsigned bad = 0;
	for (unsigned i = 0; i < nblocks; i++) {
		const char *k = blocks[i].kind;
		if (strcmp(k, "quickstart") && strcmp(k, "transcript") && strcmp(k, "skip")) {
			fprintf(stderr, "README.md:%u: the block has no %s...--> marker "
				"(quickstart, transcript or skip)\n", blocks[i].line, MARK);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
	assert_true(nblocks > 0);
}

static int png_rgba(const char *path, png_image *img, uint8_t **px)
{
	memset(img, 0, sizeof(*img));
	img->version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(img, path))
		return -1;
	img->format = PNG_FORMAT_RGBA;
	*px = malloc(PNG_IMAGE_SIZE(*img));
	return png_image_finish_read(img, NULL, *px, 0, NULL) ? 0 : -1;
}

static void test_quickstart(void **state)
{
	const struct block *b = *state;
	char out[96], demo[PATH_MAX + 16], ref[96];

	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(demo, sizeof(demo), "%s/demo.png", top);
	unlink(demo);
	pid_t pid = bg[nbg++] = spawn(b->text, top, out);
	int st = wait_s(pid, 600);   /* make deps and make may have work to do */
	nbg--;
	if (st == -1)
		stop(pid);
	char *got = slurp(out);
	printf("%s", got);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("README.md:%u: the quick start failed (status 0x%x)", b->line, st);
	if (!strstr(got, "GL renderer: NV4"))
		fail_msg("the quick start did not print an NV4x GL renderer");
	free(got);

	/* demo.png is what the CPU draws: nvd-demo --cpu, without nvd */
	char cmd[PATH_MAX * 2];
	snprintf(ref, sizeof(ref), "%s/cpu.png", dir);
	snprintf(cmd, sizeof(cmd), "'%s/bin/nvd-demo' --cpu --out '%s' >/dev/null", build, ref);
	assert_int_equal(system(cmd), 0);
	png_image a, c;
	uint8_t *pa = NULL, *pc = NULL;
	if (png_rgba(demo, &a, &pa) < 0)
		fail_msg("%s: not a PNG the quick start wrote", demo);
	assert_int_equal(png_rgba(ref, &c, &pc), 0);
	assert_int_equal(a.width, c.width);
	assert_int_equal(a.height, c.height);
	if (memcmp(pa, pc, PNG_IMAGE_SIZE(a)))
		fail_msg("demo.png differs from the CPU's drawing of the same picture");
	printf("demo.png: %ux%u, equal to the CPU's drawing\n", a.width, a.height);
	free(pa);
	free(pc);
}

/* The socket a backgrounded nvd or nvd-x line will answer on ("" if none). */
static void ready_path(const char *cmd, const char *sock, char *path, size_t len)
{
	const char *x = strstr(cmd, "nvd-x"), *n;
	path[0] = 0;
	if (x && (n = strstr(x, " :")))
		snprintf(path, len, "/tmp/.X11-unix/X%u", (unsigned)strtoul(n + 2, NULL, 10));
	else if (strstr(cmd, "bin/nvd ") || strstr(cmd, "bin/nvd\n") || !strcmp(cmd, "build/bin/nvd"))
		snprintf(path, len, "%s", sock);
}

static void test_transcript(void **state)
{
	const struct block *b = *state;
	const char *sock = getenv("NVD_SOCKET");
	char out[128], path[PATH_MAX], why[512];
	unsigned ncmd = 0;

	if (strstr(b->text, "# ") == b->text && geteuid()) {
		printf("README.md:%u: skipped, the example is for root\n", b->line);
		skip();
	}
	char *text = subst(b->text, README_SOCK, sock), *save = NULL, *cmd = NULL;
	/* Commands with their expected output, in order; a command line may
	 * continue over lines ending in a backslash. */
	char *want = strdup(""), *line = strtok_r(text, "\n", &save);
	for (;; line = strtok_r(NULL, "\n", &save)) {
		int prompt = line && (!strncmp(line, "$ ", 2) || !strncmp(line, "# ", 2));
		if ((prompt || !line) && cmd) {
			size_t l = strlen(cmd);
			while (l && cmd[l - 1] == ' ')
				cmd[--l] = 0;
			snprintf(out, sizeof(out), "%s/out.%u", dir, ++ncmd);
			if (l && cmd[l - 1] == '&') {
				cmd[l - 1] = 0;
				assert_true(nbg < MAX_BG);
				bg[nbg++] = spawn(cmd, dir, out);
				ready_path(cmd, sock, path, sizeof(path));
				unsigned t = 0;
				while (path[0] && !answers(path) && t++ < READY_S * 10)
					usleep(100000);
				if (path[0] && !answers(path))
					fail_msg("README.md:%u: `%s` did not answer on %s", b->line, cmd, path);
			} else {
				pid_t pid = spawn(cmd, dir, out);
				int st = wait_s(pid, b->stop_after ? b->stop_after : CMD_TIMEOUT_S);
				if (st == -1)
					stop(pid);
				char *got = slurp(out);
				printf("%s %s\n%s", b->stop_after && st == -1 ? "(stopped)" : "$", cmd, got);
				if (st == -1 && !b->stop_after)
					fail_msg("README.md:%u: `%s` did not end in %u s", b->line, cmd,
						 CMD_TIMEOUT_S);
				if (st != -1 && (!WIFEXITED(st) || WEXITSTATUS(st)))
					fail_msg("README.md:%u: `%s` failed (status 0x%x)", b->line, cmd, st);
				if (want[0] && !transcript_match(want, got, why, sizeof(why)))
					fail_msg("README.md:%u: `%s`: %s", b->line, cmd, why);
				free(got);
			}
			free(cmd);
			cmd = NULL;
			want[0] = 0;
		}
		if (!line)
			break;
		if (prompt) {
			cmd = strdup(line + 2);
		} else if (cmd && !want[0] && cmd[strlen(cmd) - 1] == '\\') {
			cmd = realloc(cmd, strlen(cmd) + strlen(line) + 2);
			strcat(strcat(cmd, "\n"), line);
		} else {
			want = realloc(want, strlen(want) + strlen(line) + 2);
			strcat(strcat(want, line), "\n");
		}
	}
	for (; nbg; nbg--)
		stop(bg[nbg - 1]);
	/* nothing an example does may be refused */
	for (unsigned i = 1; i <= ncmd; i++) {
		snprintf(out, sizeof(out), "%s/out.%u", dir, i);
		char *log = slurp(out);
		if (strstr(log, "refused submission"))
			fail_msg("README.md:%u: nvd refused a submission:\n%s", b->line, log);
		free(log);
	}
	free(want);
	free(text);
}

int main(void)
{
	static struct CMUnitTest tests[MAX_BLOCKS + 1];
	static char names[MAX_BLOCKS][48];
	unsigned n = 0;

	if (!getcwd(top, sizeof(top)) || readme_load() < 0) {
		fprintf(stderr, "test_readme: cannot read %s in the current directory "
			"(tests/run runs tests from the top of the tree)\n", README);
		return 1;
	}
	const char *bin = getenv("NVD_BIN");
	if (!bin || !realpath(bin, build)) {
		fprintf(stderr, "test_readme: NVD_BIN must name the build's nvd (tests/run sets it)\n");
		return 1;
	}
	*strrchr(build, '/') = 0;   /* .../bin */
	*strrchr(build, '/') = 0;
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_every_block_is_marked);
	for (unsigned i = 0; i < nblocks; i++) {
		struct block *b = &blocks[i];
		if (strcmp(b->kind, "quickstart") && strcmp(b->kind, "transcript"))
			continue;
		char *name = names[n - 1];
		snprintf(name, sizeof(names[0]), "README.md:%u %s", b->line, b->kind);
		tests[n++] = (struct CMUnitTest){
			name, !strcmp(b->kind, "quickstart") ? test_quickstart : test_transcript,
			scratch, scratch_remove, b,
		};
	}
	return _cmocka_run_group_tests("readme", tests, n, NULL, NULL);
}
