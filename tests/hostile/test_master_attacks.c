/* Attacks on the display master: an X server drops master (as its DDX does
 * on LeaveVT) and another, unprivileged, client takes it to show its own
 * framebuffer on X's head.  DRM's rules since Linux 5.8 hold: while a
 * client that has been master is connected, only such a client, or root,
 * may be master again; the attacker is told (-EACCES), X takes master back
 * and its head still shows its framebuffer.  Each runs beside an honest client, whose bytes must be
 * those it has alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sys/stat.h>

#include "tests/lib/nvt-test.h"

#define NOBODY 65534

/* A master showing a 640x480 framebuffer on head 0 (the default monitor's
 * smallest mode). */
struct shown {
	struct nvc *c;
	struct nvc_bo *bo;
	uint32_t fb;
	struct nvc_mode mode;
};

static void show(struct nvt_daemon *d, const char *name, struct shown *s)
{
	struct nvc_output o;
	NVT_OK(nvc_connect(d->sock, name, &s->c));
	NVT_OK(nvc_set_master(s->c));
	NVT_OK(nvc_disp_output(s->c, 0, &o));
	NVT_OK(nvc_disp_mode(s->c, 0, o.nmodes - 1, &s->mode));
	assert_int_equal(s->mode.hdisplay, 640);
	NVT_OK(nvc_bo_new(s->c, 640 * 480 * 4, NVC_VRAM, &s->bo));
	NVT_OK(nvc_fb_new(s->c, s->bo, 0, 640, 480, 2560, NVC_FB_XRGB8888, &s->fb));
	struct nvc_head h = { .fb = s->fb, .outputs = 1, .mode = s->mode };
	NVT_OK(nvc_disp_set_head(s->c, 0, &h));
}

/* The attacker, in a child that is not root (as root: nobody). */
struct intruder {
	const char *sock;
	int expect;                  /* what SET_MASTER must give */
};

static int intruder_main(void *arg)
{
	const struct intruder *in = arg;
	struct nvc *c;
	struct nvc_bo *bo;
	uint32_t fb;
	if (geteuid() == 0 && (setgid(NOBODY) < 0 || setuid(NOBODY) < 0))
		return 10;
	if (nvc_connect(in->sock, "intruder", &c) < 0)
		return 11;
	int r = nvc_set_master(c);
	if (r != in->expect) {
		fprintf(stderr, "intruder: SET_MASTER gave %d (%s), expected %d\n", r, nvc_error(),
			in->expect);
		return 12;
	}
	if (nvc_bo_new(c, 640 * 480 * 4, NVC_VRAM, &bo) < 0 ||
	    nvc_fb_new(c, bo, 0, 640, 480, 2560, NVC_FB_XRGB8888, &fb) < 0)
		return 13;
	struct nvc_head h = { .fb = fb, .outputs = 1 };
	struct nvc_output o;
	if (nvc_disp_output(c, 0, &o) < 0 || nvc_disp_mode(c, 0, o.nmodes - 1, &h.mode) < 0)
		return 14;
	r = nvc_disp_set_head(c, 0, &h);
	if (in->expect < 0 && r != -EACCES) {
		fprintf(stderr, "intruder: SET_HEAD gave %d, expected -EACCES\n", r);
		return 15;
	}
	if (in->expect == 0 && r < 0)
		return 16;
	nvc_close(c);
	return 0;
}

static void run_intruder(struct nvt_daemon *d, int expect)
{
	struct intruder in = { d->sock, expect };
	pid_t pid = nvt_fork(intruder_main, &in);
	assert_true(pid > 0);
	int st = nvt_wait_child(pid, 10000);
	if (st != 0)
		fail_msg("the intruder (not root) exited %d", st);
}

/* The daemon has seen the client called name hang up (2 s at most). */
static void wait_gone(struct nvt_daemon *d, const char *name)
{
	struct nvc *probe;
	NVT_OK(nvc_connect(d->sock, "probe", &probe));
	for (unsigned tries = 0; tries < 200; tries++) {
		struct nvc_client cl;
		unsigned n = 1, i, found = 0;
		for (i = 0; i < n && nvc_client_at(probe, i, &cl, &n) == 0; i++)
			found |= !strcmp(cl.name, name);
		if (!found) {
			nvc_close(probe);
			return;
		}
		nvt_sleep_ms(10);
	}
	fail_msg("nvd still lists %s 2 s after it hung up", name);
}

static void attack_take_dropped_master(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct shown x;
	struct nvc_head now;
	/* nobody must reach the socket in the test's private directory */
	assert_int_equal(chmod(d->dir, 0711), 0);
	show(d, "Xorg", &x);
	NVT_OK(nvc_drop_master(x.c));              /* LeaveVT */
	run_intruder(d, -EACCES);
	NVT_OK(nvc_disp_head(x.c, 0, &now));
	assert_int_equal(now.fb, x.fb);
	NVT_OK(nvc_set_master(x.c));               /* EnterVT */
	struct nvc_head back = { .fb = x.fb, .outputs = 1, .mode = x.mode };
	NVT_OK(nvc_disp_set_head(x.c, 0, &back));
	/* root may take a dropped master, as CAP_SYS_ADMIN may in DRM */
	if (geteuid() == 0) {
		struct nvc *admin;
		NVT_OK(nvc_drop_master(x.c));
		NVT_OK(nvc_connect(d->sock, "admin", &admin));
		NVT_OK(nvc_set_master(admin));
		NVT_ERR(nvc_set_master(x.c), -EBUSY);
		NVT_OK(nvc_drop_master(admin));
		NVT_OK(nvc_set_master(x.c));            /* it has been master */
		NVT_OK(nvc_drop_master(x.c));
		run_intruder(d, -EACCES);               /* two former masters now */
		NVT_OK(nvc_set_master(x.c));
		nvc_close(admin);
		wait_gone(d, "admin");
	}
	/* Once no former master is connected, the next to ask is master. */
	nvc_close(x.c);
	wait_gone(d, "Xorg");
	run_intruder(d, 0);
}

static void test_dropped_master_is_not_free_for_the_taking(void **state)
{
	nvt_attack(nvt_d(state), attack_take_dropped_master, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_dropped_master_is_not_free_for_the_taking),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
