/* cmocka glue for the integration and hostile tests: a fresh nvd per test
 * (its arguments are the test's prestate), a watchdog, assertion helpers
 * and the honest-client-beside-an-attacker pattern.  Include after
 * <cmocka.h>. */
#ifndef NVT_TEST_H
#define NVT_TEST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/nvt.h"

#ifndef CMOCKA_H_
#error "include <cmocka.h> first"
#endif

#define NVT_TEST_TIMEOUT_S 90

/* Fails the test with the call, its errno and libnvd's reason. */
#define NVT_OK(expr)                                                                      \
	do {                                                                              \
		int nvt_r_ = (int)(expr);                                                 \
		if (nvt_r_ < 0)                                                           \
			fail_msg("%s = %d (%s): %s", #expr, nvt_r_, strerror(-nvt_r_),    \
				 nvc_error());                                            \
	} while (0)

/* The call must fail with exactly `err` (-EFAULT ...). */
#define NVT_ERR(expr, err)                                                                \
	do {                                                                              \
		int nvt_r_ = (int)(expr);                                                 \
		if (nvt_r_ != (err))                                                      \
			fail_msg("%s = %d (%s), expected %d (%s); libnvd says: %s", #expr,  \
				 nvt_r_, nvt_r_ <= 0 ? strerror(-nvt_r_) : "positive", (err), \
				 strerror(-(err)), nvc_error());                          \
	} while (0)

/* The call must fail (any -errno). */
#define NVT_FAILS(expr)                                                                   \
	do {                                                                              \
		int nvt_r_ = (int)(expr);                                                 \
		if (nvt_r_ >= 0)                                                          \
			fail_msg("%s = %d, expected an error", #expr, nvt_r_);            \
	} while (0)

struct nvt_fixture {
	struct nvt_daemon d;
};

/* prestate: a NULL-terminated array of extra nvd arguments, or NULL. */
static inline int nvt_setup(void **state)
{
	const char *const *args = *state;
	struct nvt_fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	nvt_watchdog(NVT_TEST_TIMEOUT_S, program_invocation_short_name);
	if (nvt_daemon_start(&f->d, args) < 0) {
		nvt_daemon_cleanup(&f->d);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static inline int nvt_teardown(void **state)
{
	struct nvt_fixture *f = *state;
	int r = 0;
	if (f) {
		/* a test that never stopped its daemon: the oracle's findings */
		if (f->d.pid && !f->d.oracle_seen && !f->d.log_shown && nvt_daemon_oracle(&f->d))
			r = -1;
		nvt_daemon_cleanup(&f->d);
		free(f);
	}
	alarm(0);
	return r;
}

static inline struct nvt_daemon *nvt_d(void **state)
{
	return &((struct nvt_fixture *)*state)->d;
}

/* The end of every test: nothing leaked, the daemon alive until now and it
 * exits 0 on SIGTERM. */
static inline void nvt_end(struct nvt_daemon *d)
{
	if (!nvt_daemon_alive(d))
		fail_msg("nvd is not running any more");
	if (nvt_leak_check(d->sock) < 0)
		fail_msg("nvd kept client resources after the clients left");
	if (nvt_daemon_stop(d) < 0)
		fail_msg("nvd did not stop cleanly");
}

#define NVT_TEST(fn) cmocka_unit_test_prestate_setup_teardown(fn, nvt_setup, nvt_teardown, NULL)
#define NVT_TEST_ARGS(fn, args) \
	cmocka_unit_test_prestate_setup_teardown(fn, nvt_setup, nvt_teardown, (void *)(args))

/* Compare two results; on a difference say where. */
static inline void nvt_assert_same_bytes(const uint8_t *a, size_t alen, const uint8_t *b,
					 size_t blen, const char *what)
{
	if (alen != blen)
		fail_msg("%s: %zu bytes, expected %zu", what, blen, alen);
	for (size_t i = 0; i < alen; i++)
		if (a[i] != b[i])
			fail_msg("%s: byte 0x%zx is 0x%02x, 0x%02x without the attacker", what, i,
				 b[i], a[i]);
}

/* A bare SOCK_SEQPACKET connection to the daemon, for writing the protocol
 * by hand. */
static inline int nvt_raw_connect(const struct nvt_daemon *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_true(strlen(d->sock) < sizeof(sa.sun_path));
	memcpy(sa.sun_path, d->sock, strlen(d->sock) + 1);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* The daemon's descriptors come back to `base` (within 2 s). */
static inline void nvt_assert_daemon_fds(const struct nvt_daemon *d, int base)
{
	int n = -1;
	for (unsigned i = 0; i < 200; i++) {
		if ((n = nvt_daemon_fds(d)) == base)
			return;
		nvt_sleep_ms(10);
	}
	fail_msg("nvd holds %d descriptors, %d before the attack: it kept what it was sent", n,
		 base);
}

/* An attack beside an honest client: the honest workload runs alone first
 * (its bytes are the reference), then again while attack(d, h, arg) runs;
 * the honest bytes must be identical, the daemon must survive, and nothing
 * may leak; with same_fds the daemon must also hold exactly the descriptors
 * it held before (every fd it was sent or made for the attacker closed).
 * The attack asserts its own error. */
static inline void nvt_attack_fds(struct nvt_daemon *d,
				  void (*attack)(struct nvt_daemon *d, struct nvt_honest *h,
						 void *arg),
				  void *arg, int same_fds)
{
	uint8_t *ref = NULL, *got = NULL;
	size_t reflen = 0, gotlen = 0;
	struct nvt_honest h;

	NVT_OK(nvt_honest_alone(d, 7, &ref, &reflen));
	int base = same_fds ? nvt_daemon_fds_settled(d) : 0;
	NVT_OK(nvt_honest_start(&h, d, 7));
	NVT_OK(nvt_honest_go(&h));
	attack(d, &h, arg);
	if (!nvt_daemon_alive(d))
		fail_msg("nvd died under the attack");
	NVT_OK(nvt_honest_finish(&h, &got, &gotlen));
	nvt_assert_same_bytes(ref, reflen, got, gotlen, "the honest client's buffers");
	free(ref);
	free(got);
	if (same_fds)
		nvt_assert_daemon_fds(d, base);
	nvt_end(d);
}

static inline void nvt_attack(struct nvt_daemon *d,
			      void (*attack)(struct nvt_daemon *d, struct nvt_honest *h, void *arg),
			      void *arg)
{
	nvt_attack_fds(d, attack, arg, 0);
}

/* A --sim-jit verify daemon, stopped: its compiled fragment programs ran
 * (at least min_compiled of them, on min_quads quads that the interpreter
 * shaded too) and gave the interpreter's bits on every quad; its compiled
 * vertex programs (at least one) on every vertex too, and its compiled ROP
 * (at least one state) rop.c's bytes.  what: whose draws they were. */
static inline void nvt_assert_jit_lockstep(const struct nvt_daemon *d, unsigned min_compiled,
					   unsigned long long min_quads, const char *what)
{
	struct nvt_jit j;
	if (nvt_daemon_jit(d, &j) < 0)
		fail_msg("nvd logged no sim-jit statistics at exit");
	printf("# %s\n", j.line);
	if (j.compiled < min_compiled || j.quads < min_quads)
		fail_msg("only %u programs compiled and %llu quads compared: %s did not run on "
			 "compiled code", j.compiled, j.quads, what);
	if (j.differed)
		fail_msg("%llu of %llu quads shaded by compiled code differ from the interpreter's",
			 j.differed, j.quads);
	if (!j.vp_compiled || !j.vertices)
		fail_msg("no vertex of %s ran on a compiled vertex program", what);
	if (j.vp_differed)
		fail_msg("%llu of %llu vertices transformed by compiled code differ from the "
			 "interpreter's", j.vp_differed, j.vertices);
	if (!j.rop_compiled || !j.rop_quads)
		fail_msg("no quad of %s went through a compiled ROP", what);
	if (j.rop_differed)
		fail_msg("%llu of %llu quads through the compiled ROP left other bytes than rop.c's",
			 j.rop_differed, j.rop_quads);
}

#endif
