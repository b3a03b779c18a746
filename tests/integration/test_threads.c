/* libnvd is thread-safe: threads of one process sharing one connection
 * allocate and free buffers, open channels, submit and wait, some of them
 * on a shared channel, and every copy comes out right. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"

#define THREADS     6
#define SHARED      2       /* threads 0 and 1 submit on one channel */
#define ROUNDS      40

struct worker {
	struct nvc *c;
	struct nvc_chan *ch;    /* shared or own */
	int own;
	unsigned id;
	int result;             /* 0, or the step that went wrong */
	char why[160];
};

static int worker_fail(struct worker *w, int step, const char *what)
{
	snprintf(w->why, sizeof(w->why), "thread %u: %s: %s", w->id, what, nvc_error());
	w->result = step;
	return step;
}

static int worker_run(struct worker *w)
{
	struct nvt_push p;
	struct nvt_buf g, v;
	uint32_t seed = 0x1000 + w->id;

	if (w->own && (nvc_chan_new(w->c, &w->ch) < 0 || nvt_chan_objects(w->ch) < 0))
		return worker_fail(w, 1, "channel");
	if (nvt_push_init(&p, w->c, w->ch, 64 << 10) < 0)
		return worker_fail(w, 2, "push buffer");
	nvt_bind_standard(&p);
	if (nvt_buf_new(w->c, 256 << 10, NVC_GART, seed, &g) < 0 ||
	    nvt_buf_new(w->c, 256 << 10, NVC_VRAM, seed + 1, &v) < 0)
		return worker_fail(w, 3, "buffers");
	for (unsigned r = 0; r < ROUNDS; r++) {
		/* a buffer that comes and goes while others work */
		struct nvc_bo *tmp;
		if (nvc_bo_new(w->c, 8192 + 4096 * (r % 5), r & 1 ? NVC_VRAM : NVC_GART, &tmp) < 0)
			return worker_fail(w, 4, "temporary buffer");
		nvt_m2mf(&p, &g, (r * 4096) % (200 << 10), 1024, &v, (r * 2048) % (200 << 10),
			 2048, 512 + r, 16);
		int e = r % 4 == 3 ? nvt_finish(&p) : nvt_submit(&p, NULL);
		if (e < 0)
			return worker_fail(w, 5, "submission");
		if (nvc_bo_free(tmp) < 0)
			return worker_fail(w, 6, "freeing the temporary buffer");
	}
	if (nvt_finish(&p) < 0)
		return worker_fail(w, 7, "last fence");
	if (nvt_buf_check(&v, "a thread's copies") < 0)
		return worker_fail(w, 8, "results differ from the CPU reference");
	nvt_buf_free(&g);
	nvt_buf_free(&v);
	nvt_push_fini(&p);
	if (w->own && nvc_chan_free(w->ch) < 0)
		return worker_fail(w, 9, "closing the channel");
	return 0;
}

static void *worker_main(void *arg)
{
	worker_run(arg);
	return NULL;
}

static void test_threads_share_a_connection_and_a_channel(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct worker w[THREADS];
	pthread_t t[THREADS];
	struct nvc *c;
	struct nvc_chan *shared;

	NVT_OK(nvc_connect(d->sock, "threads", &c));
	NVT_OK(nvc_chan_new(c, &shared));
	NVT_OK(nvt_chan_objects(shared));
	for (unsigned i = 0; i < THREADS; i++) {
		w[i] = (struct worker){ .c = c, .ch = shared, .own = i >= SHARED, .id = i };
		assert_int_equal(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
	}
	for (unsigned i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (unsigned i = 0; i < THREADS; i++)
		if (w[i].result)
			fail_msg("%s", w[i].why);
	struct nvc_status st;
	NVT_OK(nvc_status(c, &st));
	assert_int_equal(st.channels_used, 1);
	nvc_close(c);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_threads_share_a_connection_and_a_channel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
