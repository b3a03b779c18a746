/* What the sanitizer build (make check-asan) found, one test per finding,
 * named for it.  Built without sanitizers they pass either way; under
 * ASan and UBSan each fails without its fix (nvd's report makes it exit
 * other than 0, nvt_end fails; a client's report aborts the test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"

/* libnvd's request copied a reply's fds with memcpy(NULL, ..., 0) when
 * none came (HELLO, STATUS...): UBSan's report in every client.  (No
 * nvt_end: the test is the client's.) */
static void test_reply_without_fds_copies_from_no_null(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c;
	struct nvc_status st;
	NVT_OK(nvc_connect(d->sock, "no-fds", &c));
	NVT_OK(nvc_status(c, &st));
	assert_int_equal(st.clients, 1);
	nvc_close(c);
}

/* nvd_server_listen's event for the listening socket was never freed:
 * LeakSanitizer's report at every exit. */
static void test_nvd_frees_its_listening_event_at_exit(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c;
	NVT_OK(nvc_connect(d->sock, "listen-event", &c));
	nvc_close(c);
	nvt_end(d);
}

/* CHAN_NEW looked up its first ctxdma's handle with bsearch over the
 * channel's object table while it was still NULL (and empty): UBSan's
 * report at every channel (the fuzz target fuzz_proto found it too). */
static void test_first_object_of_a_channel_found_without_bsearch_on_null(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c;
	struct nvc_chan *ch;
	NVT_OK(nvc_connect(d->sock, "first-object", &c));
	NVT_OK(nvc_chan_new(c, &ch));
	NVT_OK(nvc_obj_new(ch, 0x1000, NV_CLASS_M2MF));
	NVT_OK(nvc_chan_free(ch));
	nvc_close(c);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_reply_without_fds_copies_from_no_null),
		NVT_TEST(test_nvd_frees_its_listening_event_at_exit),
		NVT_TEST(test_first_object_of_a_channel_found_without_bsearch_on_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
