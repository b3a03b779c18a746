/* Attacks with descriptors a client sends nvd (SCM_RIGHTS): a file on the
 * attacker's own FUSE mount, whose server stops answering, imported as a
 * buffer and sent where no descriptor belongs.  fstat and close of such a
 * file wait for the FUSE server (GETATTR, FLUSH); nvd must keep serving
 * everyone meanwhile, tell the attacker its import is no buffer, and close
 * the descriptors once the server answers again.  The FUSE server is a
 * small one written against /dev/fuse (no libfuse here), in a child
 * process; mounting needs root, without it the test is skipped.  It runs
 * beside an honest client whose bytes must be those it has alone, and nvd
 * must hold the descriptors it held before once the attack is over. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "proto/proto.h"
#include "tests/lib/nvt-test.h"

/* ---- a FUSE server with one file, "f", that can stop answering ---- */

#define FUSE_FILE_INO 2

struct fusefs {
	char mnt[160];
	pid_t pid;
	int cmd;                     /* to the server: 'F' freeze, 'T' thaw, 'Q' quit */
	int ev;                      /* from the server: 'R' ready, 'H' a request held */
};

static void fuse_attr(struct fuse_attr *a, uint64_t ino)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->mode = ino == FUSE_ROOT_ID ? S_IFDIR | 0755 : S_IFREG | 0644;
	a->nlink = ino == FUSE_ROOT_ID ? 2 : 1;
	a->size = ino == FUSE_ROOT_ID ? 0 : 4096;
	a->blksize = 4096;
}

static void fuse_reply(int fd, uint64_t unique, int error, const void *body, size_t len)
{
	uint8_t out[sizeof(struct fuse_out_header) + 256];
	struct fuse_out_header h = { (uint32_t)(sizeof(h) + (error ? 0 : len)), error, unique };
	memcpy(out, &h, sizeof(h));
	if (!error && len)      /* an empty body may be NULL */
		memcpy(out + sizeof(h), body, len);
	if (write(fd, out, h.len) < 0) {
		/* the kernel dropped the request (interrupted): nothing to do */
	}
}

/* Answer one request; attributes are never cached, so every fstat asks. */
static void fuse_answer(int fd, const struct fuse_in_header *in, const void *arg)
{
	switch (in->opcode) {
	case FUSE_INIT: {
		const struct fuse_init_in *i = arg;
		struct fuse_init_out o = { .major = FUSE_KERNEL_VERSION,
					   .minor = FUSE_KERNEL_MINOR_VERSION,
					   .max_readahead = i->max_readahead, .max_background = 16,
					   .congestion_threshold = 12, .max_write = 4096,
					   .time_gran = 1 };
		fuse_reply(fd, in->unique, 0, &o, sizeof(o));
		return;
	}
	case FUSE_LOOKUP: {
		struct fuse_entry_out o = { .nodeid = FUSE_FILE_INO, .generation = 1 };
		if (in->nodeid != FUSE_ROOT_ID || strcmp(arg, "f")) {
			fuse_reply(fd, in->unique, -ENOENT, NULL, 0);
			return;
		}
		fuse_attr(&o.attr, FUSE_FILE_INO);
		fuse_reply(fd, in->unique, 0, &o, sizeof(o));
		return;
	}
	case FUSE_GETATTR: {
		struct fuse_attr_out o = { 0 };
		fuse_attr(&o.attr, in->nodeid);
		fuse_reply(fd, in->unique, 0, &o, sizeof(o));
		return;
	}
	case FUSE_OPEN: {
		struct fuse_open_out o = { .fh = 1 };
		fuse_reply(fd, in->unique, 0, &o, sizeof(o));
		return;
	}
	case FUSE_FLUSH: case FUSE_RELEASE: case FUSE_ACCESS:
		fuse_reply(fd, in->unique, 0, NULL, 0);
		return;
	case FUSE_FORGET: case FUSE_BATCH_FORGET: case FUSE_INTERRUPT:
		return;   /* no reply */
	default:
		fuse_reply(fd, in->unique, -ENOSYS, NULL, 0);
	}
}

struct fuse_child {
	int fuse, cmd, ev;
};

/* While frozen, what nvd could block on (the file's GETATTR, every FLUSH)
 * is held, and answered on thaw. */
static int fuse_main(void *arg)
{
	const struct fuse_child *c = arg;
	static uint8_t buf[1 << 18];
	struct held { struct fuse_in_header in; uint8_t arg[64]; } held[64];
	unsigned nheld = 0;
	int frozen = 0;
	for (;;) {
		struct pollfd p[2] = { { c->fuse, POLLIN, 0 }, { c->cmd, POLLIN, 0 } };
		if (poll(p, 2, -1) < 0)
			continue;
		if (p[1].revents) {
			char k;
			if (read(c->cmd, &k, 1) != 1 || k == 'Q')
				return 0;
			frozen = k == 'F';
			for (unsigned i = 0; !frozen && i < nheld; i++)
				fuse_answer(c->fuse, &held[i].in, held[i].arg);
			if (!frozen)
				nheld = 0;
		}
		if (!p[0].revents)
			continue;
		ssize_t n = read(c->fuse, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == ENOENT || errno == EAGAIN))
			continue;
		if (n < (ssize_t)sizeof(struct fuse_in_header))
			return 0;   /* unmounted */
		struct fuse_in_header in;
		memcpy(&in, buf, sizeof(in));
		const uint8_t *a = buf + sizeof(in);
		int blocking = in.opcode == FUSE_FLUSH ||
			       (in.opcode == FUSE_GETATTR && in.nodeid == FUSE_FILE_INO);
		if (frozen && blocking && nheld < 64) {
			held[nheld].in = in;
			memcpy(held[nheld].arg, a, sizeof(held[nheld].arg));
			nheld++;
			if (write(c->ev, "H", 1) < 0)
				return 1;
			continue;
		}
		fuse_answer(c->fuse, &in, a);
		if (in.opcode == FUSE_INIT && write(c->ev, "R", 1) < 0)
			return 1;
	}
}

static char fuse_event(struct fusefs *fs, int timeout_ms)
{
	struct pollfd p = { fs->ev, POLLIN, 0 };
	char k = 0;
	if (poll(&p, 1, timeout_ms) == 1 && read(fs->ev, &k, 1) != 1)
		k = 0;
	return k;
}

static void fuse_cmd(struct fusefs *fs, char k)
{
	assert_int_equal(write(fs->cmd, &k, 1), 1);
}

/* 0, or -1 when this machine cannot mount FUSE (the test is then skipped). */
static int fuse_mount(struct fusefs *fs, const char *dir)
{
	int cmd[2], ev[2];
	snprintf(fs->mnt, sizeof(fs->mnt), "%s/fuse", dir);
	if (mkdir(fs->mnt, 0755) < 0)
		return -1;
	int fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	char opts[128];
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=%u,group_id=%u", fd,
		 (unsigned)getuid(), (unsigned)getgid());
	if (fd < 0 || mount("nvt", fs->mnt, "fuse.nvt", MS_NOSUID | MS_NODEV, opts) < 0) {
		fprintf(stderr, "cannot mount FUSE at %s: %s\n", fs->mnt, strerror(errno));
		if (fd >= 0)
			close(fd);
		rmdir(fs->mnt);
		return -1;
	}
	assert_int_equal(pipe2(cmd, O_CLOEXEC), 0);
	assert_int_equal(pipe2(ev, O_CLOEXEC), 0);
	struct fuse_child c = { fd, cmd[0], ev[1] };
	fs->pid = nvt_fork(fuse_main, &c);
	assert_true(fs->pid > 0);
	close(fd);
	close(cmd[0]);
	close(ev[1]);
	fs->cmd = cmd[1];
	fs->ev = ev[0];
	if (fuse_event(fs, 5000) != 'R')
		fail_msg("the FUSE server did not get INIT");
	return 0;
}

/* The server goes (a request still on its way then fails: ENOTCONN). */
static void fuse_unmount(struct fusefs *fs)
{
	if (write(fs->cmd, "Q", 1) < 0) {
		/* it has gone already */
	}
	umount2(fs->mnt, MNT_DETACH);
	nvt_wait_child(fs->pid, 5000);
	close(fs->cmd);
	close(fs->ev);
	rmdir(fs->mnt);
}

/* ---- the raw protocol, with a deadline ---- */

static void raw_send(int sock, uint32_t type, const void *body, size_t len, int fd)
{
	uint8_t buf[NVD_MSG_MAX];
	struct nvd_msg_hdr h = { type, 7 };
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), body, len);
	assert_int_equal(nvd_sendmsg(sock, buf, (uint32_t)(sizeof(h) + len), &fd, fd >= 0),
			 (long)(sizeof(h) + len));
}

/* The reply's error within ms; 1 when none came (nvd is stuck). */
static int raw_reply(int sock, int ms)
{
	union { uint8_t b[NVD_MSG_MAX]; struct nvd_reply_hdr r; } in;
	int fds[NVD_MSG_MAX_FDS];
	unsigned nfds = 0;
	struct pollfd p = { sock, POLLIN, 0 };
	if (poll(&p, 1, ms) != 1)
		return 1;
	long n = nvd_recvmsg(sock, in.b, sizeof(in.b), fds, NVD_MSG_MAX_FDS, &nfds);
	for (unsigned i = 0; i < nfds; i++)
		close(fds[i]);
	return n >= (long)sizeof(in.r) ? in.r.error : -ENOTCONN;
}

static int raw_client(struct nvt_daemon *d)
{
	int sock = nvt_raw_connect(d);
	struct nvd_req_hello h = { NVD_PROTO_MAGIC, NVD_PROTO_VERSION, "fd-attacker" };
	raw_send(sock, NVD_MSG_HELLO, &h, sizeof(h), -1);
	assert_int_equal(raw_reply(sock, 5000), 0);
	return sock;
}

/* ---- the attack ---- */

static void attack_fuse_fd(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	struct fusefs *fs = arg;
	char why[256] = "", path[200];
	snprintf(path, sizeof(path), "%s/f", fs->mnt);
	int f = open(path, O_RDWR | O_CLOEXEC);
	assert_true(f >= 0);
	int imp = raw_client(d), bad = raw_client(d), over = raw_client(d), by = raw_client(d);
	fuse_cmd(fs, 'F');
	/* As a buffer: the attacker is told it is none, at once. */
	struct nvd_req_bo_import rq = { 0 };
	raw_send(imp, NVD_MSG_BO_IMPORT, &rq, sizeof(rq), f);
	int r = raw_reply(imp, 2000);
	if (r == 1)
		snprintf(why, sizeof(why), "nvd did not answer a BO_IMPORT of a frozen FUSE file "
			 "within 2 s: it waits for the FUSE server");
	else if (r != -EINVAL)
		snprintf(why, sizeof(why), "BO_IMPORT of a FUSE file gave %d, not -EINVAL", r);
	/* Where no descriptor belongs: the connection is dropped, the fd closed. */
	struct nvd_req_none none = { 0 };
	if (!why[0]) {
		raw_send(bad, NVD_MSG_STATUS, &none, sizeof(none), f);
		r = raw_reply(bad, 2000);
		if (r == 1)
			snprintf(why, sizeof(why), "nvd did not answer a STATUS carrying a frozen FUSE "
				 "file within 2 s");
		else if (r != -EPROTO)
			snprintf(why, sizeof(why), "STATUS with a descriptor gave %d, not -EPROTO", r);
	}
	/* With a datagram too long to read whole. */
	if (!why[0]) {
		static uint8_t big[NVD_MSG_MAX + 64];
		struct nvd_msg_hdr hd = { NVD_MSG_STATUS, 7 };
		memcpy(big, &hd, sizeof(hd));
		assert_int_equal(nvd_sendmsg(over, big, sizeof(big), &f, 1), (long)sizeof(big));
		r = raw_reply(over, 2000);
		if (r == 1)
			snprintf(why, sizeof(why), "nvd did not answer an oversized datagram carrying a "
				 "frozen FUSE file within 2 s");
		else if (r != -EPROTO)
			snprintf(why, sizeof(why), "an oversized datagram gave %d, not -EPROTO", r);
	}
	/* Everyone else is served while the FUSE server holds nvd's close. */
	if (!why[0]) {
		raw_send(by, NVD_MSG_STATUS, &none, sizeof(none), -1);
		if (raw_reply(by, 2000) != 0)
			snprintf(why, sizeof(why), "nvd did not answer a bystander's STATUS within 2 s "
				 "while the FUSE server held a request");
	}
	/* nvd did reach the file (a FLUSH from its closing thread is held). */
	if (!why[0] && fuse_event(fs, 2000) != 'H')
		snprintf(why, sizeof(why), "nvd never closed the FUSE file it was sent");
	fuse_cmd(fs, 'T');
	close(f);
	close(imp);
	close(bad);
	close(over);
	close(by);
	fuse_unmount(fs);
	if (why[0])
		fail_msg("%s", why);
}

static void test_fuse_fd_does_not_freeze_the_daemon(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct fusefs fs;
	if (fuse_mount(&fs, d->dir) < 0) {
		nvt_end(d);
		skip();
	}
	nvt_attack_fds(d, attack_fuse_fd, &fs, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_fuse_fd_does_not_freeze_the_daemon),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
