/* Hostile use of virtual channels: a client that opens and closes channels
 * as fast as it can, on every connection it has, holding as many as nvd
 * lets it; a client whose channels fill the card's hash table (RAMHT, one
 * for all channels) with objects.  An honest client that comes meanwhile
 * still gets a channel and room for its objects (idle channels are
 * unloaded for it, their entries with them) and its bytes are those it
 * gets alone. */
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

/* The honest client now: its bytes must be ref (taken alone); frees ref. */
static void honest_exact(struct nvt_daemon *d, uint32_t seed, uint8_t *ref, size_t reflen)
{
	uint8_t *got = NULL;
	size_t gotlen = 0;
	struct nvt_honest h;

	NVT_OK(nvt_honest_start(&h, d, seed));
	NVT_OK(nvt_honest_go(&h));
	NVT_OK(nvt_honest_finish(&h, &got, &gotlen));
	nvt_assert_same_bytes(ref, reflen, got, gotlen, "the honest client's buffers");
	free(ref);
	free(got);
}

static void test_channel_flood_does_not_starve_an_honest_client(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	uint8_t *ref = NULL;
	size_t reflen = 0;
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
	honest_exact(d, 7, ref, reflen);
	kill(pid, SIGKILL);
	nvt_wait_child(pid, 10000);
	if (!nvt_daemon_alive(d))
		fail_msg("nvd died under the flood");
	nvc_close(c);
	nvt_end(d);
}

/* Its 32 channels, each with as many null objects as nvd lets it create
 * (1024 a channel, or until the hash table is full around a handle). */
static void hash_hog(struct nvt_daemon *d, struct nvc **c)
{
	struct nvc_chan *ch;
	unsigned made = 0;

	NVT_OK(nvc_connect(d->sock, "hash-hog", c));
	for (unsigned k = 0; k < 32; k++) {
		NVT_OK(nvc_chan_new(*c, &ch));
		for (uint32_t h = 1; h <= 1024 && nvc_obj_new(ch, 0x10000 * k + h, NV_CLASS_NULL_OBJ) == 0; h++)
			made++;
	}
	if (made < 4096)
		fail_msg("the hog made only %u objects: the hash table was not filled", made);
}

static void test_hash_table_hog_does_not_cost_an_honest_client_its_channel(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	uint8_t *ref = NULL;
	size_t reflen = 0;
	struct nvc *hog;

	NVT_OK(nvt_honest_alone(d, 9, &ref, &reflen));
	hash_hog(d, &hog);
	honest_exact(d, 9, ref, reflen);
	assert_false(nvt_log_contains(d, "channel lost"));
	nvc_close(hog);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_channel_flood_does_not_starve_an_honest_client),
		NVT_TEST(test_hash_table_hog_does_not_cost_an_honest_client_its_channel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
