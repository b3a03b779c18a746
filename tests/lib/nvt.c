/* nvt: a real nvd, child processes, buffers with shadows, the push-buffer
 * writer and the leak check.  See nvt.h. */
#include "tests/lib/nvt.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hw/ramin.h"

/* make check-asan looks for leaks in nvd, not in the tests: a test keeps
 * what it made (its buffers' shadows...) until it exits.  Only a leak
 * checker calls this. */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return 1;
}

/* ---- processes the watchdog kills ---- */

#define NVT_MAX_PIDS 64
static volatile pid_t nvt_pids[NVT_MAX_PIDS];
static char nvt_watch_log[128];
static char nvt_watch_what[128];

static void nvt_pid_add(pid_t pid)
{
	for (unsigned i = 0; i < NVT_MAX_PIDS; i++)
		if (!nvt_pids[i]) {
			nvt_pids[i] = pid;
			return;
		}
}

static void nvt_pid_del(pid_t pid)
{
	for (unsigned i = 0; i < NVT_MAX_PIDS; i++)
		if (nvt_pids[i] == pid)
			nvt_pids[i] = 0;
}

static void nvt_say(const char *s)
{
	ssize_t r = write(2, s, strlen(s));
	(void)r;
}

static void nvt_on_alarm(int sig)
{
	(void)sig;
	nvt_say("\nnvt: TIMEOUT in ");
	nvt_say(nvt_watch_what);
	nvt_say(": killing the daemon and the test's children\n");
	for (unsigned i = 0; i < NVT_MAX_PIDS; i++)
		if (nvt_pids[i] > 0)
			kill(nvt_pids[i], SIGKILL);
	if (nvt_watch_log[0]) {
		int fd = open(nvt_watch_log, O_RDONLY);
		if (fd >= 0) {
			char buf[4096];
			ssize_t n;
			nvt_say("---- nvd log ----\n");
			while ((n = read(fd, buf, sizeof(buf))) > 0) {
				ssize_t r = write(2, buf, (size_t)n);
				(void)r;
			}
			close(fd);
			nvt_say("---- end of nvd log ----\n");
		}
	}
	_exit(1);
}

void nvt_watchdog(unsigned seconds, const char *what)
{
	snprintf(nvt_watch_what, sizeof(nvt_watch_what), "%s", what ? what : "?");
	signal(SIGALRM, nvt_on_alarm);
	alarm(seconds);
}

static int64_t nvt_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* ---- the daemon ---- */

void nvt_daemon_print_log(const struct nvt_daemon *d)
{
	FILE *f = fopen(d->log, "r");
	char line[1024];

	fprintf(stderr, "---- nvd log (%s) ----\n", d->log);
	if (!f) {
		fprintf(stderr, "(cannot open: %s)\n", strerror(errno));
	} else {
		while (fgets(line, sizeof(line), f))
			fputs(line, stderr);
		fclose(f);
	}
	fprintf(stderr, "---- end of nvd log ----\n");
}

int nvt_file_contains(const char *path, const char *text)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, text) != NULL;
	fclose(f);
	return found;
}

int nvt_log_contains(const struct nvt_daemon *d, const char *text)
{
	return nvt_file_contains(d->log, text);
}

int nvt_daemon_jit(const struct nvt_daemon *d, struct nvt_jit *j)
{
	FILE *f = fopen(d->log, "r");
	char line[2048];
	int found = 0;

	memset(j, 0, sizeof(*j));
	while (f && !found && fgets(line, sizeof(line), f)) {
		const char *at = strstr(line, "sim-jit: "), *v = at ? strstr(at, "verified ") : NULL;
		const char *vp = v ? strstr(v, "vertex programs: ") : NULL;
		const char *vv = vp ? strstr(vp, "verified ") : NULL;
		const char *rp = vv ? strstr(vv, "ROP states: ") : NULL;
		const char *rv = rp ? strstr(rp, "verified ") : NULL;
		found = rv && sscanf(at, "sim-jit: fragment programs: %u, %u compiled", &j->programs,
				     &j->compiled) == 2 &&
			sscanf(v, "verified %llu quads: %llu differed", &j->quads, &j->differed) == 2 &&
			sscanf(vp, "vertex programs: %u, %u compiled", &j->vp_programs,
			       &j->vp_compiled) == 2 &&
			sscanf(vv, "verified %llu vertices: %llu differed", &j->vertices,
			       &j->vp_differed) == 2 &&
			sscanf(rp, "ROP states: %u, %u compiled", &j->rop_states, &j->rop_compiled) == 2 &&
			sscanf(rv, "verified %llu quads: %llu differed", &j->rop_quads,
			       &j->rop_differed) == 2;
		if (found)
			snprintf(j->line, sizeof(j->line), "%.*s", (int)strcspn(at, "\n"), at);
	}
	if (f)
		fclose(f);
	return found ? 0 : -1;
}

int nvt_sim_check = 1;

const char *nvt_sim_check_arg(void)
{
	const char *e = getenv("NVD_SIM_CHECK");
	return nvt_sim_check && !(e && !strcmp(e, "0")) ? "--sim-check" : NULL;
}

int nvt_daemon_oracle(struct nvt_daemon *d)
{
	FILE *f = fopen(d->log, "r");
	char line[2048];
	int n = 0;

	d->oracle_seen = 1;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "ORACLE:")) {
			if (!n++)
				fprintf(stderr, "nvt: FAIL: the card touched memory nvd did not admit "
					"(%s):\n", d->log);
			fputs(line, stderr);
		}
	fclose(f);
	return n;
}

static void nvt_daemon_reap(struct nvt_daemon *d, int st)
{
	d->reaped = 1;
	d->status = st;
	nvt_pid_del(d->pid);
}

static void nvt_describe_status(int st, char *buf, size_t len)
{
	if (WIFEXITED(st))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "was killed by signal %d (%s)%s", WTERMSIG(st),
			 strsignal(WTERMSIG(st)), WCOREDUMP(st) ? ", core dumped" : "");
	else
		snprintf(buf, len, "ended with wait status 0x%x", st);
}

int nvt_daemon_alive(struct nvt_daemon *d)
{
	int st;
	if (!d->pid || d->reaped)
		return 0;
	pid_t r = waitpid(d->pid, &st, WNOHANG);
	if (r == d->pid) {
		nvt_daemon_reap(d, st);
		return 0;
	}
	return r == 0;
}

static int nvt_sock_accepts(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	int ok;

	if (fd < 0)
		return 0;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		close(fd);
		return 0;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

int nvt_daemon_dir(struct nvt_daemon *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "/tmp/nvt-XXXXXX");
	if (!mkdtemp(d->dir)) {
		fprintf(stderr, "nvt: mkdtemp: %s\n", strerror(errno));
		d->dir[0] = 0;
		return -errno;
	}
	snprintf(d->sock, sizeof(d->sock), "%s/nvd.sock", d->dir);
	snprintf(d->log, sizeof(d->log), "%s/nvd.log", d->dir);
	return 0;
}

int nvt_daemon_start(struct nvt_daemon *d, const char *const *extra)
{
	int r = nvt_daemon_dir(d);
	return r < 0 ? r : nvt_daemon_run(d, extra);
}

int nvt_daemon_run(struct nvt_daemon *d, const char *const *extra)
{
	const char *bin = getenv("NVD_BIN");
	const char *argv[32];
	unsigned n = 0;
	char why[128];

	if (!bin || !*bin)
		bin = "build/bin/nvd";
	argv[n++] = bin;
	argv[n++] = "--socket";
	argv[n++] = d->sock;
	if (nvt_sim_check_arg())
		argv[n++] = nvt_sim_check_arg();
	/* $NVD_SIM_JIT (off, on, sync, verify): every test must pass the same */
	if (getenv("NVD_SIM_JIT") && *getenv("NVD_SIM_JIT")) {
		argv[n++] = "--sim-jit";
		argv[n++] = getenv("NVD_SIM_JIT");
	}
	for (unsigned i = 0; extra && extra[i] && n < 31; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;

	fflush(stdout);
	fflush(stderr);
	/* again after a kill (nvt_daemon_kill): a new process */
	d->reaped = d->status = d->stopped_ok = d->oracle_seen = d->log_shown = 0;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "nvt: fork: %s\n", strerror(errno));
		return -errno;
	}
	if (pid == 0) {
		/* The daemon dies with the test, whatever happens to it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		signal(SIGALRM, SIG_DFL);
		int log = open(d->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (log < 0 || null < 0)
			_exit(127);
		dup2(null, 0);
		dup2(log, 1);
		dup2(log, 2);
		execv(bin, (char *const *)argv);
		fprintf(stderr, "nvt: cannot run %s: %s\n", bin, strerror(errno));
		_exit(127);
	}
	d->pid = pid;
	nvt_pid_add(pid);
	snprintf(nvt_watch_log, sizeof(nvt_watch_log), "%s", d->log);

	int64_t deadline = nvt_now_ms() + 5000;
	while (nvt_now_ms() < deadline) {
		if (!nvt_daemon_alive(d)) {
			nvt_describe_status(d->status, why, sizeof(why));
			fprintf(stderr, "nvt: %s %s before it listened\n", bin, why);
			nvt_daemon_print_log(d);
			d->log_shown = 1;
			return -ECHILD;
		}
		if (nvt_sock_accepts(d->sock))
			return 0;
		nvt_sleep_ms(5);
	}
	fprintf(stderr, "nvt: %s does not accept on %s after 5 s\n", bin, d->sock);
	nvt_daemon_print_log(d);
	d->log_shown = 1;
	kill(d->pid, SIGKILL);
	int st;
	waitpid(d->pid, &st, 0);
	nvt_daemon_reap(d, st);
	return -ETIMEDOUT;
}

int nvt_daemon_kill(struct nvt_daemon *d, int sig)
{
	int st;
	if (!nvt_daemon_alive(d) || kill(d->pid, sig) < 0)
		return -ECHILD;
	int64_t deadline = nvt_now_ms() + 5000;
	pid_t r;
	while ((r = waitpid(d->pid, &st, WNOHANG)) == 0 && nvt_now_ms() < deadline)
		nvt_sleep_ms(2);
	if (r != d->pid) {
		kill(d->pid, SIGKILL);
		waitpid(d->pid, &st, 0);
		nvt_daemon_reap(d, st);
		return -ETIMEDOUT;
	}
	nvt_daemon_reap(d, st);
	d->stopped_ok = 1;      /* as the test meant: its log is no finding */
	return st;
}

int nvt_daemon_stop(struct nvt_daemon *d)
{
	char why[128];
	int st;

	if (!d->pid) {
		fprintf(stderr, "nvt: no daemon to stop\n");
		return -ECHILD;
	}
	if (!nvt_daemon_alive(d)) {
		nvt_describe_status(d->status, why, sizeof(why));
		fprintf(stderr, "nvt: FAIL: nvd died during the test: it %s\n", why);
		nvt_daemon_print_log(d);
		d->log_shown = 1;
		return -ECHILD;
	}
	kill(d->pid, SIGTERM);
	int64_t deadline = nvt_now_ms() + 5000;
	for (;;) {
		pid_t r = waitpid(d->pid, &st, WNOHANG);
		if (r == d->pid)
			break;
		if (nvt_now_ms() >= deadline) {
			fprintf(stderr, "nvt: FAIL: nvd does not exit 5 s after SIGTERM\n");
			kill(d->pid, SIGKILL);
			waitpid(d->pid, &st, 0);
			nvt_daemon_reap(d, st);
			nvt_daemon_print_log(d);
			d->log_shown = 1;
			return -ETIMEDOUT;
		}
		nvt_sleep_ms(5);
	}
	nvt_daemon_reap(d, st);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		nvt_describe_status(st, why, sizeof(why));
		fprintf(stderr, "nvt: FAIL: nvd %s on SIGTERM\n", why);
		nvt_daemon_print_log(d);
		d->log_shown = 1;
		return -EIO;
	}
	if (nvt_daemon_oracle(d)) {
		d->log_shown = 1;
		return -EIO;
	}
	d->stopped_ok = 1;
	return 0;
}

int nvt_daemon_finish(struct nvt_daemon *d)
{
	int r = 0;

	if (d->pid && !d->reaped && nvt_daemon_stop(d) < 0)
		r = -1;
	nvt_daemon_cleanup(d);
	return r;
}

void nvt_daemon_cleanup(struct nvt_daemon *d)
{
	if (!d->dir[0])
		return;
	if (d->pid && nvt_daemon_alive(d)) {
		int st;
		kill(d->pid, SIGKILL);
		waitpid(d->pid, &st, 0);
		nvt_daemon_reap(d, st);
	}
	if (d->pid && !d->stopped_ok && !d->log_shown) {
		nvt_daemon_print_log(d);
		d->log_shown = 1;
	}
	/* the directory holds the socket, the log and the honest clients' results */
	DIR *dir = opendir(d->dir);
	if (dir) {
		struct dirent *e;
		char path[320];
		while ((e = readdir(dir))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", d->dir, e->d_name);
			unlink(path);
		}
		closedir(dir);
	}
	rmdir(d->dir);
	if (!strcmp(nvt_watch_log, d->log))
		nvt_watch_log[0] = 0;
	d->dir[0] = 0;
}

int nvt_daemon_fds(const struct nvt_daemon *d)
{
	char path[64];
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)d->pid);
	DIR *dir = opendir(path);
	if (!dir)
		return -errno;
	struct dirent *e;
	while ((e = readdir(dir)))
		if (e->d_name[0] != '.')
			n++;
	closedir(dir);
	return n;
}

int nvt_daemon_fds_settled(const struct nvt_daemon *d)
{
	int last = nvt_daemon_fds(d);
	for (unsigned i = 0; i < 100; i++) {
		nvt_sleep_ms(20);
		int n = nvt_daemon_fds(d);
		if (n == last)
			return n;
		last = n;
	}
	return last;
}

/* /proc/PID/stat after the command's ")": the state first; NULL if gone. */
static const char *proc_stat(pid_t pid, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p + 2 : NULL;
}

long long nvt_cpu_ticks(pid_t pid)
{
	char buf[1024];
	unsigned long long ut, st;
	const char *p = proc_stat(pid, buf, sizeof(buf));
	/* state, then 10 fields before utime */
	if (!p || sscanf(p, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (long long)(ut + st);
}

int nvt_ending(pid_t pid)
{
	char buf[1024];
	const char *p = proc_stat(pid, buf, sizeof(buf));
	return !p || *p == 'Z' || *p == 'X';
}

/* ---- child processes ---- */

pid_t nvt_fork(int (*fn)(void *arg), void *arg)
{
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(126);
		/* The parent's watchdog is the parent's: a child only times out. */
		signal(SIGALRM, SIG_DFL);
		for (unsigned i = 0; i < NVT_MAX_PIDS; i++)
			nvt_pids[i] = 0;
		alarm(120);
		int r = fn(arg);
		fflush(stdout);
		fflush(stderr);
		_exit(r < 0 ? 1 : r & 0xff);
	}
	nvt_pid_add(pid);
	return pid;
}

int nvt_wait_child(pid_t pid, int timeout_ms)
{
	int64_t deadline = nvt_now_ms() + timeout_ms;
	int st;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			break;
		if (r < 0) {
			nvt_pid_del(pid);
			return -errno;
		}
		if (nvt_now_ms() >= deadline) {
			fprintf(stderr, "nvt: child %d still runs after %d ms: killed\n", (int)pid,
				timeout_ms);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			nvt_pid_del(pid);
			return -ETIMEDOUT;
		}
		nvt_sleep_ms(2);
	}
	nvt_pid_del(pid);
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int nvt_child_done(pid_t pid, int *code)
{
	int st;
	pid_t r = waitpid(pid, &st, WNOHANG);
	if (r == 0)
		return 0;
	nvt_pid_del(pid);
	if (r < 0)
		*code = -errno;
	else
		*code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return 1;
}

/* What a child wrote to a memfd, NUL-terminated and cut to fit. */
static void nvt_read_back(int fd, char *buf, size_t len)
{
	ssize_t n = len ? pread(fd, buf, len - 1, 0) : 0;
	if (len)
		buf[n > 0 ? n : 0] = 0;
	close(fd);
}

int nvt_run(const char *const *argv, char *out, size_t outlen, char *err, size_t errlen,
	    int timeout_ms)
{
	int o = memfd_create("nvt-stdout", MFD_CLOEXEC), e = memfd_create("nvt-stderr", MFD_CLOEXEC);
	if (o < 0 || e < 0) {
		int r = -errno;
		if (o >= 0)
			close(o);
		return r;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		int r = -errno;
		close(o);
		close(e);
		return r;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGALRM, SIG_DFL);
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	nvt_pid_add(pid);
	int code = nvt_wait_child(pid, timeout_ms);
	nvt_read_back(o, out, outlen);
	nvt_read_back(e, err, errlen);
	return code;
}

/* ---- where a test or bench finds nvd ---- */

int nvt_paths(struct nvt_paths *p, const char *bin)
{
	ssize_t n = readlink("/proc/self/exe", p->self, sizeof(p->self) - 1);
	if (n <= 0) {
		if (n == 0)
			errno = ENOENT;
		return -1;
	}
	p->self[n] = 0;
	snprintf(p->dir, sizeof(p->dir), "%s", p->self);
	*strrchr(p->dir, '/') = 0;
	const char *tools = getenv("NVD_TOOLS");
	if (tools && *tools)
		snprintf(p->nvd_run, sizeof(p->nvd_run), "%s/nvd-run", tools);
	else
		snprintf(p->nvd_run, sizeof(p->nvd_run), "%s/%s/nvd-run", p->dir, bin);
	const char *nvd = getenv("NVD_BIN");
	if (!nvd || !*nvd) {
		char path[PATH_MAX + 32];
		snprintf(path, sizeof(path), "%s/%s/nvd", p->dir, bin);
		setenv("NVD_BIN", path, 1);
	}
	return 0;
}

pid_t nvt_spawn_gl(const char *const *argv, int software, const char *out)
{
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		signal(SIGALRM, SIG_DFL);
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || null < 0)
			_exit(127);
		dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (software) {
			setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
			unsetenv("LD_PRELOAD");
		} else {
			unsetenv("LIBGL_ALWAYS_SOFTWARE");
		}
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);     /* as the child does: no race on who is first */
	return pid;
}

/* ---- buffers with a shadow ---- */

int nvt_buf_new(struct nvc *c, uint64_t size, unsigned domain, uint32_t seed, struct nvt_buf *b)
{
	memset(b, 0, sizeof(*b));
	int r = nvc_bo_new(c, size, domain, &b->bo);
	if (r < 0) {
		fprintf(stderr, "nvt: nvc_bo_new(%llu, %u): %s\n", (unsigned long long)size, domain,
			nvc_error());
		return r;
	}
	b->size = nvc_bo_size(b->bo);
	b->addr = nvc_bo_addr(b->bo);
	b->domain = nvc_bo_domain(b->bo);
	b->map = nvc_bo_map(b->bo);
	b->shadow = malloc(b->size);
	if (!b->map || !b->shadow) {
		fprintf(stderr, "nvt: cannot map or shadow a buffer: %s\n", nvc_error());
		nvt_buf_free(b);
		return -ENOMEM;
	}
	uint32_t s = seed * 2654435761u + 1;
	for (uint64_t i = 0; i < b->size; i += 4) {
		uint32_t v = nvt_rand(&s);
		memcpy(b->shadow + i, &v, 4);
	}
	memcpy(b->map, b->shadow, b->size);
	return 0;
}

int nvt_buf_wrap(struct nvc_bo *bo, struct nvt_buf *b)
{
	memset(b, 0, sizeof(*b));
	b->bo = bo;
	b->size = nvc_bo_size(bo);
	b->addr = nvc_bo_addr(bo);
	b->domain = nvc_bo_domain(bo);
	b->map = nvc_bo_map(bo);
	b->shadow = malloc(b->size);
	if (!b->map || !b->shadow) {
		fprintf(stderr, "nvt: cannot map or shadow a shared buffer: %s\n", nvc_error());
		free(b->shadow);
		memset(b, 0, sizeof(*b));
		return -ENOMEM;
	}
	memcpy(b->shadow, b->map, b->size);
	return 0;
}

void nvt_buf_free(struct nvt_buf *b)
{
	if (b->bo)
		nvc_bo_free(b->bo);
	free(b->shadow);
	memset(b, 0, sizeof(*b));
}

int nvt_buf_check(const struct nvt_buf *b, const char *what)
{
	if (!memcmp(b->map, b->shadow, b->size))
		return 0;
	uint64_t first = 0, last = 0, count = 0;
	for (uint64_t i = 0; i < b->size; i++)
		if (b->map[i] != b->shadow[i]) {
			if (!count)
				first = i;
			last = i;
			count++;
		}
	fprintf(stderr, "nvt: %s: %llu of %llu bytes differ from the CPU reference, first at "
		"0x%llx, last at 0x%llx:\n", what, (unsigned long long)count,
		(unsigned long long)b->size, (unsigned long long)first, (unsigned long long)last);
	unsigned shown = 0;
	for (uint64_t i = first; i <= last && shown < 8; i++)
		if (b->map[i] != b->shadow[i]) {
			fprintf(stderr, "  +0x%06llx: expected 0x%02x, card wrote 0x%02x\n",
				(unsigned long long)i, b->shadow[i], b->map[i]);
			shown++;
		}
	return -1;
}

/* ---- the push buffer ---- */

int nvt_push_init(struct nvt_push *p, struct nvc *c, struct nvc_chan *ch, uint32_t bytes)
{
	memset(p, 0, sizeof(*p));
	p->c = c;
	p->ch = ch;
	int r = nvc_pushbuf_new(ch, bytes, &p->pb);
	if (r < 0) {
		fprintf(stderr, "nvt: push buffer: %s\n", nvc_error());
		return r;
	}
	p->bo = nvc_pushbuf_bo(p->pb);
	p->map = nvc_bo_map(p->bo);
	p->cap = bytes / 4;
	return 0;
}

void nvt_push_fini(struct nvt_push *p)
{
	nvc_pushbuf_free(p->pb);
	p->pb = NULL;
	p->bo = NULL;
	p->map = NULL;
}

static void nvt_push_fail(struct nvt_push *p, int err, const char *what)
{
	if (!p->err) {
		p->err = err;
		fprintf(stderr, "nvt: push buffer: %s: %s\n", what, strerror(-err));
	}
}

void nvt_space(struct nvt_push *p, uint32_t words)
{
	/* a packet has at most a few relocations */
	nvc_pushbuf_space(p->pb, words, 0, 8);
}

void nvt_word(struct nvt_push *p, uint32_t w)
{
	nvc_pushbuf_raw(p->pb, w);
}

void nvt_out(struct nvt_push *p, uint32_t v)
{
	nvc_pushbuf_raw(p->pb, v);
}

void nvt_begin(struct nvt_push *p, unsigned subc, uint32_t mthd, unsigned n)
{
	nvt_space(p, 1 + n);
	nvc_pushbuf_mthd(p->pb, subc, mthd, n);
}

void nvt_mthd(struct nvt_push *p, unsigned subc, uint32_t mthd, uint32_t v)
{
	nvt_begin(p, subc, mthd, 1);
	nvt_out(p, v);
}

void nvt_ref(struct nvt_push *p, struct nvc_bo *bo, unsigned access)
{
	nvc_pushbuf_refn(p->pb, bo, access);
}

uint32_t nvt_pos(const struct nvt_push *p)
{
	return nvc_pushbuf_offset(p->pb) / 4;
}

uint64_t nvt_here(const struct nvt_push *p)
{
	return nvc_bo_addr(p->bo) + nvc_pushbuf_offset(p->pb);
}

void nvt_taken(struct nvt_push *p)
{
	nvc_pushbuf_drop(p->pb);
}

int nvt_submit(struct nvt_push *p, uint32_t *fence)
{
	uint32_t f;

	if (p->err)
		return p->err;
	int r = nvc_pushbuf_kick(p->pb, &f);
	if (r < 0) {
		fprintf(stderr, "nvt: submit: %s\n", nvc_error());
		return r;
	}
	p->submits++;
	if (fence)
		*fence = f;
	return 0;
}

int nvt_wait(struct nvt_push *p, uint32_t fence)
{
	return nvc_fence_wait(p->ch, fence, 10ll * 1000 * 1000 * 1000);
}

int nvt_finish(struct nvt_push *p)
{
	int r = nvt_submit(p, NULL);
	if (r < 0)
		return r;
	r = nvt_wait(p, nvc_pushbuf_fence(p->pb));
	if (r < 0)
		fprintf(stderr, "nvt: fence %u: %s\n", nvc_pushbuf_fence(p->pb), nvc_error());
	return r;
}

/* ---- channels and the standard objects ---- */

int nvt_chan_objects(struct nvc_chan *ch)
{
	static const struct { uint32_t handle, cls; } objs[] = {
		{ NVT_H_NULL, NV_CLASS_NULL_OBJ },   { NVT_H_M2MF, NV_CLASS_M2MF },
		{ NVT_H_SURF2D, NV_CLASS_SURF2D },   { NVT_H_SWZSURF, NV_CLASS_SWZSURF },
		{ NVT_H_SIFM, NV_CLASS_SIFM },       { NVT_H_GDI, NV_CLASS_GDI },
		{ NVT_H_BLIT, NV_CLASS_BLIT },       { NVT_H_ROP, NV_CLASS_ROP },
		{ NVT_H_PATT, NV_CLASS_PATT },       { NVT_H_CLIP, NV_CLASS_CLIP },
		{ NVT_H_BETA1, NV_CLASS_BETA1 },     { NVT_H_BETA4, NV_CLASS_BETA4 },
		{ NVT_H_IFC, NV_CLASS_IFC },
	};
	for (unsigned i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		int r = nvc_obj_new(ch, objs[i].handle, objs[i].cls);
		if (r < 0) {
			fprintf(stderr, "nvt: object 0x%08x class 0x%04x: %s\n", objs[i].handle,
				objs[i].cls, nvc_error());
			return r;
		}
	}
	return 0;
}

void nvt_bind_standard(struct nvt_push *p)
{
	uint32_t vram = nvc_chan_vram_dma(p->ch);

	nvt_mthd(p, NVT_SUBC_M2MF, NV_FIFO_OBJECT, NVT_H_M2MF);
	nvt_mthd(p, NVT_SUBC_M2MF, NV_M2MF_DMA_NOTIFY, NVT_H_NULL);

	nvt_mthd(p, NVT_SUBC_SURF, NV_FIFO_OBJECT, NVT_H_SURF2D);
	nvt_mthd(p, NVT_SUBC_SURF, NV_SURF2D_DMA_NOTIFY, NVT_H_NULL);
	nvt_begin(p, NVT_SUBC_SURF, NV_SURF2D_DMA_IMAGE_SOURCE, 2);
	nvt_out(p, vram);
	nvt_out(p, vram);

	/* The state objects, set up as nouveau's DDX does on subchannel 6. */
	nvt_mthd(p, NVT_SUBC_SIFM, NV_FIFO_OBJECT, NVT_H_BETA1);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_BETA1_BETA_1D31, 0x7f800000);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_FIFO_OBJECT, NVT_H_BETA4);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_BETA4_BETA_FACTOR, 0xffff0000);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_FIFO_OBJECT, NVT_H_PATT);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_PATT_DMA_NOTIFY, NVT_H_NULL);
	nvt_begin(p, NVT_SUBC_SIFM, NV_PATT_MONOCHROME_FORMAT, 3);
	nvt_out(p, NV_PATT_MONO_FORMAT_CGA6);
	nvt_out(p, NV_PATT_SHAPE_8X8);
	nvt_out(p, NV_PATT_SELECT_MONO);
	nvt_begin(p, NVT_SUBC_SIFM, NV_PATT_MONOCHROME_COLOR, 4);
	nvt_out(p, ~0u);
	nvt_out(p, ~0u);
	nvt_out(p, ~0u);
	nvt_out(p, ~0u);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_FIFO_OBJECT, NVT_H_ROP);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_ROP_DMA_NOTIFY, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_ROP_ROP, 0xcc);   /* copy */
	nvt_mthd(p, NVT_SUBC_SIFM, NV_FIFO_OBJECT, NVT_H_CLIP);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_CLIP_DMA_NOTIFY, NVT_H_NULL);

	nvt_mthd(p, NVT_SUBC_GDI, NV_FIFO_OBJECT, NVT_H_GDI);
	nvt_mthd(p, NVT_SUBC_GDI, NV_GDI_DMA_NOTIFY, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_GDI, NV_GDI_DMA_FONTS, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_GDI, NV_GDI_PATTERN, NVT_H_PATT);
	nvt_mthd(p, NVT_SUBC_GDI, NV_GDI_ROP, NVT_H_ROP);
	nvt_mthd(p, NVT_SUBC_GDI, NV_GDI_SURFACE, NVT_H_SURF2D);
	nvt_mthd(p, NVT_SUBC_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY);
	nvt_mthd(p, NVT_SUBC_GDI, NV_GDI_MONOCHROME_FORMAT, NV_PATT_MONO_FORMAT_LE);

	nvt_mthd(p, NVT_SUBC_BLIT, NV_FIFO_OBJECT, NVT_H_BLIT);
	nvt_mthd(p, NVT_SUBC_BLIT, NV_BLIT_DMA_NOTIFY, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_BLIT, NV_BLIT_COLOR_KEY, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_BLIT, NV_BLIT_SURFACES, NVT_H_SURF2D);
	nvt_mthd(p, NVT_SUBC_BLIT, NV_BLIT_CLIP, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_BLIT, NV_BLIT_PATTERN, NVT_H_PATT);
	nvt_mthd(p, NVT_SUBC_BLIT, NV_BLIT_ROP, NVT_H_ROP);
	nvt_mthd(p, NVT_SUBC_BLIT, NV_BLIT_OPERATION, NV_2D_OPERATION_SRCCOPY);

	nvt_mthd(p, NVT_SUBC_IFC, NV_FIFO_OBJECT, NVT_H_IFC);
	nvt_mthd(p, NVT_SUBC_IFC, NV_IFC_DMA_NOTIFY, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_IFC, NV_IFC_CLIP, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_IFC, NV_IFC_PATTERN, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_IFC, NV_IFC_ROP, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_IFC, NV_IFC_BETA1, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_IFC, NV_IFC_BETA4, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_IFC, NV_IFC_SURFACE, NVT_H_SURF2D);
	nvt_mthd(p, NVT_SUBC_IFC, NV_IFC_OPERATION, NV_2D_OPERATION_SRCCOPY);

	nvt_mthd(p, NVT_SUBC_SWZ, NV_FIFO_OBJECT, NVT_H_SWZSURF);
	nvt_mthd(p, NVT_SUBC_SWZ, NV_SWZSURF_DMA_NOTIFY, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_SWZ, NV_SWZSURF_DMA_IMAGE, vram);

	/* SIFM stays on subchannel 6 from here on. */
	nvt_mthd(p, NVT_SUBC_SIFM, NV_FIFO_OBJECT, NVT_H_SIFM);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_SIFM_DMA_NOTIFY, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_SIFM_DMA_IMAGE, vram);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_SIFM_PATTERN, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_SIFM_ROP, NVT_H_NULL);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_SIFM_BETA1, NVT_H_BETA1);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_SIFM_BETA4, NVT_H_BETA4);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_SIFM_SURFACE, NVT_H_SWZSURF);
	nvt_mthd(p, NVT_SUBC_SIFM, NV_SIFM_OPERATION, NV_2D_OPERATION_SRCCOPY);
}

int nvt_client_open(struct nvt_client *t, const char *sock, const char *name)
{
	int r;

	memset(t, 0, sizeof(*t));
	if ((r = nvc_connect(sock, name, &t->c)) < 0) {
		fprintf(stderr, "nvt: nvc_connect(%s): %s\n", sock, nvc_error());
		return r;
	}
	if ((r = nvc_chan_new(t->c, &t->ch)) < 0) {
		fprintf(stderr, "nvt: nvc_chan_new: %s\n", nvc_error());
		goto fail;
	}
	if ((r = nvt_chan_objects(t->ch)) < 0)
		goto fail;
	if ((r = nvt_push_init(&t->p, t->c, t->ch, 1u << 20)) < 0)
		goto fail;
	nvt_bind_standard(&t->p);
	return 0;
fail:
	nvc_close(t->c);
	memset(t, 0, sizeof(*t));
	return r;
}

int nvt_client_open_mesa(struct nvt_client *t, const char *sock, const char *name)
{
	int r = nvt_client_open(t, sock, name);
	if (r < 0)
		return r;
	t->p.relocate = 1;
	nvt_bind_standard(&t->p);
	if ((r = nvt_finish(&t->p)) < 0)
		nvt_client_close(t);
	return r;
}

void nvt_client_close(struct nvt_client *t)
{
	if (!t->c)
		return;
	nvc_close(t->c);   /* frees the push buffer and the channel too */
	memset(t, 0, sizeof(*t));
}

/* ---- 2D operations ---- */

uint32_t nvt_dma(const struct nvt_push *p, const struct nvt_buf *b)
{
	return b->domain == NVC_VRAM ? nvc_chan_vram_dma(p->ch) : nvc_chan_gart_dma(p->ch);
}

static void nvt_out_reloc(struct nvt_push *p, const struct nvt_buf *b, uint32_t word,
			  struct nvc_reloc r)
{
	if (!p->relocate) {
		nvt_out(p, word);
		return;
	}
	if (!nvc_pushbuf_refd(p->pb, b->bo)) {
		nvt_push_fail(p, -EINVAL, "relocation to a buffer not on the list");
		return;
	}
	nvc_pushbuf_reloc(p->pb, b->bo, 0, r);
}

void nvt_out_dma(struct nvt_push *p, const struct nvt_buf *b)
{
	nvt_out_reloc(p, b, nvt_dma(p, b), (struct nvc_reloc){
		.flags = NVC_RELOC_OR, .vor = nvc_chan_vram_dma(p->ch),
		.tor = nvc_chan_gart_dma(p->ch) });
}

void nvt_out_addr(struct nvt_push *p, const struct nvt_buf *b, uint32_t off)
{
	nvt_out_reloc(p, b, (uint32_t)(b->addr + off), (struct nvc_reloc){
		.flags = NVC_RELOC_LOW, .data = off });
}

/* Whether [off + lo, off + hi) lies inside the buffer: a hostile test's
 * out-of-bounds operation is emitted but never applied to the shadow. */
static int nvt_fits(const struct nvt_buf *b, uint64_t off, int64_t lo, int64_t hi)
{
	return (int64_t)off + lo >= 0 && (int64_t)off + hi <= (int64_t)b->size && lo <= hi;
}

/* Bytes [lo, hi) a w x h rectangle at (x, y) touches from a surface's start. */
static int nvt_rect_fits(const struct nvt_buf *b, uint32_t off, uint32_t pitch, unsigned bpp,
			 uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
	if (!w || !h)
		return 1;
	int64_t lo = (int64_t)y * pitch + (int64_t)x * bpp;
	int64_t hi = (int64_t)(y + h - 1) * pitch + (int64_t)(x + w) * bpp;
	return nvt_fits(b, off, lo, hi);
}

static uint32_t nvt_xy(uint32_t lo, uint32_t hi)
{
	return (hi & 0xffff) << 16 | (lo & 0xffff);
}

void nvt_m2mf_cmd(struct nvt_push *p, struct nvt_buf *src, uint32_t soff, int32_t spitch,
		  struct nvt_buf *dst, uint32_t doff, int32_t dpitch, uint32_t len,
		  uint32_t lines)
{
	nvt_space(p, 3 + 9);
	nvt_ref(p, src->bo, NVC_READ);
	nvt_ref(p, dst->bo, NVC_WRITE);
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, 2);
	nvt_out_dma(p, src);
	nvt_out_dma(p, dst);
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8);
	nvt_out_addr(p, src, soff);
	nvt_out_addr(p, dst, doff);
	nvt_out(p, (uint32_t)spitch);
	nvt_out(p, (uint32_t)dpitch);
	nvt_out(p, len);
	nvt_out(p, lines);
	nvt_out(p, 1 | 1 << 8);   /* FORMAT: input and output increment 1 */
	nvt_out(p, 0);            /* BUF_NOTIFY: go */
}

void nvt_m2mf(struct nvt_push *p, struct nvt_buf *src, uint32_t soff, int32_t spitch,
	      struct nvt_buf *dst, uint32_t doff, int32_t dpitch, uint32_t len, uint32_t lines)
{
	nvt_m2mf_cmd(p, src, soff, spitch, dst, doff, dpitch, len, lines);
	int64_t sl = (int64_t)(lines ? lines - 1 : 0) * spitch, dl = (int64_t)(lines ? lines - 1 : 0) * dpitch;
	if (lines && nvt_fits(src, soff, sl < 0 ? sl : 0, (sl > 0 ? sl : 0) + len) &&
	    nvt_fits(dst, doff, dl < 0 ? dl : 0, (dl > 0 ? dl : 0) + len))
		nvt_ref_m2mf(dst->shadow + doff, dpitch, src->shadow + soff, spitch, len, lines);
}

void nvt_touch_vram(struct nvt_push *p, struct nvt_buf *b)
{
	nvt_ref(p, b->bo, NVC_IN_VRAM);
	nvt_m2mf(p, b, 0, 4096, b, 4096, 4096, 4096, 1);
}

void nvt_surf2d(struct nvt_push *p, const struct nvt_surf *src, const struct nvt_surf *dst)
{
	nvt_space(p, 3 + 5);
	nvt_ref(p, src->buf->bo, NVC_READ);
	nvt_ref(p, dst->buf->bo, NVC_WRITE);
	nvt_begin(p, NVT_SUBC_SURF, NV_SURF2D_DMA_IMAGE_SOURCE, 2);
	nvt_out_dma(p, src->buf);
	nvt_out_dma(p, dst->buf);
	nvt_begin(p, NVT_SUBC_SURF, NV_SURF2D_FORMAT, 4);
	nvt_out(p, dst->fmt);
	nvt_out(p, dst->pitch << 16 | src->pitch);
	nvt_out_addr(p, src->buf, src->offset);
	nvt_out_addr(p, dst->buf, dst->offset);
}

void nvt_fill(struct nvt_push *p, const struct nvt_surf *dst, unsigned color_fmt, uint32_t color,
	      uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
	nvt_space(p, 2 + 2 + 3);
	nvt_ref(p, dst->buf->bo, NVC_WRITE);
	nvt_mthd(p, NVT_SUBC_GDI, NV_GDI_COLOR_FORMAT, color_fmt);
	nvt_mthd(p, NVT_SUBC_GDI, NV_GDI_COLOR1_A, color);
	nvt_begin(p, NVT_SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2);
	nvt_out(p, nvt_xy(y, x));   /* GDI: Y low, X high */
	nvt_out(p, nvt_xy(h, w));
	if (nvt_rect_fits(dst->buf, dst->offset, dst->pitch, dst->bpp, x, y, w, h))
		nvt_ref_fill(dst->buf->shadow + dst->offset, dst->pitch, dst->bpp, x, y, w, h, color);
}

void nvt_fill_rand(struct nvt_push *p, const struct nvt_surf *dst, uint32_t *rng, uint32_t maxw,
		   uint32_t maxh, uint32_t r[4])
{
	uint32_t w = nvt_range(rng, 1, maxw), h = nvt_range(rng, 1, maxh);
	uint32_t x = nvt_range(rng, 0, dst->w - w), y = nvt_range(rng, 0, dst->h - h);
	uint32_t color = nvt_rand(rng);

	nvt_space(p, 5);
	nvt_mthd(p, NVT_SUBC_GDI, NV_GDI_COLOR1_A, color);
	nvt_begin(p, NVT_SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2);
	nvt_out(p, nvt_xy(y, x));
	nvt_out(p, nvt_xy(h, w));
	nvt_ref_fill(dst->buf->shadow + dst->offset, dst->pitch, dst->bpp, x, y, w, h, color);
	if (r) {
		r[0] = x;
		r[1] = y;
		r[2] = w;
		r[3] = h;
	}
}

void nvt_blit(struct nvt_push *p, const struct nvt_surf *src, const struct nvt_surf *dst,
	      uint32_t sx, uint32_t sy, uint32_t dx, uint32_t dy, uint32_t w, uint32_t h)
{
	nvt_space(p, 4);
	nvt_ref(p, src->buf->bo, NVC_READ);
	nvt_ref(p, dst->buf->bo, NVC_WRITE);
	nvt_begin(p, NVT_SUBC_BLIT, NV_BLIT_POINT_IN, 3);
	nvt_out(p, nvt_xy(sx, sy));
	nvt_out(p, nvt_xy(dx, dy));
	nvt_out(p, nvt_xy(w, h));
	if (nvt_rect_fits(src->buf, src->offset, src->pitch, dst->bpp, sx, sy, w, h) &&
	    nvt_rect_fits(dst->buf, dst->offset, dst->pitch, dst->bpp, dx, dy, w, h))
		nvt_ref_blit(dst->buf->shadow + dst->offset, dst->pitch,
			     src->buf->shadow + src->offset, src->pitch, dst->bpp, sx, sy, dx, dy, w, h);
}

void nvt_ifc(struct nvt_push *p, const struct nvt_surf *dst, unsigned ifc_fmt, uint32_t x,
	     uint32_t y, uint32_t w, uint32_t h, const uint8_t *pixels)
{
	unsigned cpp = dst->bpp;
	uint32_t row = w * cpp, iw_bytes = (row + 7) & ~7u, id = iw_bytes / 4, iw = iw_bytes / cpp;

	nvt_space(p, 2 + 4 + h * (1 + id));
	nvt_ref(p, dst->buf->bo, NVC_WRITE);
	nvt_mthd(p, NVT_SUBC_IFC, NV_IFC_COLOR_FORMAT, ifc_fmt);
	nvt_begin(p, NVT_SUBC_IFC, NV_IFC_POINT, 3);
	nvt_out(p, nvt_xy(x, y));
	nvt_out(p, nvt_xy(w, h));
	nvt_out(p, nvt_xy(iw, h));
	/* A row per packet, as the DDX sends them, padded to 8 bytes. */
	for (uint32_t r = 0; r < h; r++) {
		nvt_begin(p, NVT_SUBC_IFC, NV_IFC_COLOR, id);
		for (uint32_t i = 0; i < id; i++) {
			uint32_t v = 0;
			for (unsigned b = 0; b < 4; b++) {
				uint32_t k = i * 4 + b;
				if (k < row)
					v |= (uint32_t)pixels[r * row + k] << (8 * b);
			}
			nvt_out(p, v);
		}
	}
	if (nvt_rect_fits(dst->buf, dst->offset, dst->pitch, cpp, x, y, w, h))
		nvt_ref_ifc(dst->buf->shadow + dst->offset, dst->pitch, cpp, x, y, w, h, pixels);
}

void nvt_sifm_swz(struct nvt_push *p, const struct nvt_surf *src, unsigned sifm_fmt,
		  uint32_t sx, uint32_t sy, const struct nvt_swz *dst, uint32_t dx, uint32_t dy,
		  uint32_t w, uint32_t h)
{
	nvt_space(p, 2 + 3 + 2 + 9 + 5);
	nvt_ref(p, src->buf->bo, NVC_READ);
	nvt_ref(p, dst->buf->bo, NVC_WRITE);
	nvt_begin(p, NVT_SUBC_SWZ, NV_SWZSURF_DMA_IMAGE, 1);
	nvt_out_dma(p, dst->buf);
	nvt_begin(p, NVT_SUBC_SWZ, NV_SWZSURF_FORMAT, 2);
	nvt_out(p, dst->fmt | dst->lw << 16 | dst->lh << 24);   /* colour, log2 w, log2 h */
	nvt_out_addr(p, dst->buf, dst->offset);
	nvt_begin(p, NVT_SUBC_SIFM, NV_SIFM_DMA_IMAGE, 1);
	nvt_out_dma(p, src->buf);
	nvt_begin(p, NVT_SUBC_SIFM, NV_SIFM_COLOR_FORMAT, 8);
	nvt_out(p, sifm_fmt);
	nvt_out(p, NV_2D_OPERATION_SRCCOPY);
	nvt_out(p, nvt_xy(dx, dy));               /* CLIP_POINT */
	nvt_out(p, nvt_xy(w, h));                 /* CLIP_SIZE */
	nvt_out(p, nvt_xy(dx, dy));               /* OUT_POINT */
	nvt_out(p, nvt_xy(w, h));                 /* OUT_SIZE */
	nvt_out(p, 1u << NV_SIFM_DXDY_FRAC_BITS); /* DU_DX = 1.0 */
	nvt_out(p, 1u << NV_SIFM_DXDY_FRAC_BITS); /* DV_DY = 1.0 */
	nvt_begin(p, NVT_SUBC_SIFM, NV_SIFM_SIZE, 4);
	nvt_out(p, nvt_xy((src->w + 1) & ~1u, (src->h + 1) & ~1u));
	nvt_out(p, src->pitch | NV_SIFM_ORIGIN_CENTER << 16 | NV_SIFM_FILTER_POINT_SAMPLE << 24);
	nvt_out_addr(p, src->buf, src->offset);
	nvt_out(p, nvt_xy(sx << NV_SIFM_POINT_FRAC_BITS, sy << NV_SIFM_POINT_FRAC_BITS));
	if (dst->lw + dst->lh <= 24 && dx + w <= 1u << dst->lw && dy + h <= 1u << dst->lh &&
	    nvt_fits(dst->buf, dst->offset, 0, (int64_t)dst->bpp << (dst->lw + dst->lh)) &&
	    nvt_rect_fits(src->buf, src->offset, src->pitch, src->bpp, sx, sy, w, h))
		nvt_ref_sifm_swz(dst->buf->shadow + dst->offset, dst->lw, dst->lh,
				 src->buf->shadow + src->offset, src->pitch, src->bpp, sx, sy, dx, dy,
				 w, h);
}

/* ---- leaks ---- */

int nvt_leak_check(const char *sock)
{
	struct nvc *c;
	struct nvc_status st;
	int r;

	if ((r = nvc_connect(sock, "nvt-leak-check", &c)) < 0) {
		fprintf(stderr, "nvt: leak check cannot connect: %s\n", nvc_error());
		return -1;
	}
	int64_t deadline = nvt_now_ms() + 2000;
	for (;;) {
		if ((r = nvc_status(c, &st)) < 0) {
			fprintf(stderr, "nvt: leak check: status: %s\n", nvc_error());
			nvc_close(c);
			return -1;
		}
		if (!st.vram_client && !st.gart_client && !st.host_client && !st.bos &&
		    !st.channels_used && st.clients == 1)
			break;
		if (nvt_now_ms() >= deadline) {
			fprintf(stderr, "nvt: LEAK: 2 s after the clients left nvd still counts "
				"vram_client=%llu gart_client=%llu host_client=%llu bos=%u "
				"channels_used=%u clients=%u (expected 0 0 0 0 0 1)\n",
				(unsigned long long)st.vram_client, (unsigned long long)st.gart_client,
				(unsigned long long)st.host_client, st.bos, st.channels_used,
				st.clients);
			nvc_close(c);
			return -1;
		}
		nvt_sleep_ms(10);
	}
	nvc_close(c);
	return 0;
}
