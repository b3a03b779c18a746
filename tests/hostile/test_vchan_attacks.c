/* Hostile use of virtual channels: a client that opens and closes channels
 * as fast as it can, on every connection it has, holding as many as nvd
 * lets it.  An honest client that comes meanwhile still gets a channel
 * (idle ones are unloaded for it) and its bytes are those it gets alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <signal.h>
#include <time.h>

#include "tests/lib/nvt-test.h"

#define FLOOD_CONNS 4

/* Open until refused, close them all, again, until killed. */
static int channel_flooder(void *arg)
{
	const char *sock = arg;
	struct nvc *c[FLOOD_CONNS];
	struct nvc_chan *ch[FLOOD_CONNS][64];

	for (unsigned i = 0; i < FLOOD_CONNS; i++)
		if (nvc_connect(sock, "flooder", &c[i]) < 0)
			return 1;
	for (;;)
		for (unsigned i = 0; i < FLOOD_CONNS; i++) {
			unsigned n = 0;
			while (n < 64 && nvc_chan_new(c[i], &ch[i][n]) == 0)
				n++;
			while (n)
				nvc_chan_free(ch[i][--n]);
		}
}

static void test_channel_flood_does_not_starve_an_honest_client(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	uint8_t *ref = NULL, *got = NULL;
	size_t reflen = 0, gotlen = 0;
	struct nvt_honest h;
	struct nvc *c;
	struct nvc_status st;

	NVT_OK(nvt_honest_alone(d, 7, &ref, &reflen));
	pid_t pid = nvt_fork(channel_flooder, d->sock);
	assert_true(pid > 0);
	/* the flooder holds more channels than the card has before the
	 * honest client asks for one */
	NVT_OK(nvc_connect(d->sock, "watcher", &c));
	for (unsigned i = 0; i < 500; i++) {
		NVT_OK(nvc_status(c, &st));
		if (st.channels_used > st.hw_channels)
			break;
		struct timespec t = { 0, 10000000 };
		nanosleep(&t, NULL);
	}
	if (st.channels_used <= st.hw_channels)
		fail_msg("the flooder never held more than %u channels", st.channels_used);
	NVT_OK(nvt_honest_start(&h, d, 7));
	NVT_OK(nvt_honest_go(&h));
	NVT_OK(nvt_honest_finish(&h, &got, &gotlen));
	nvt_assert_same_bytes(ref, reflen, got, gotlen, "the honest client's buffers");
	kill(pid, SIGKILL);
	nvt_wait_child(pid, 10000);
	if (!nvt_daemon_alive(d))
		fail_msg("nvd died under the flood");
	free(ref);
	free(got);
	nvc_close(c);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_channel_flood_does_not_starve_an_honest_client),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
