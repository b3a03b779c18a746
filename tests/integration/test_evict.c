/* The memory manager under pressure, on a card with little room (--vram 32
 * --gart 48: some 16 MiB of each for clients).  Clients write addresses
 * through relocations, as Mesa does; every buffer is compared byte for
 * byte with its CPU reference.  Idle buffers make room in LRU order and
 * keep their bytes wherever they go; a buffer in use never moves; scattered
 * free room is gathered for a large buffer; a working set larger than the
 * card is refused with the sizes; the accounting comes back to zero. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "tests/lib/nvt-test.h"

#define MIB (1u << 20)

/* The status row of the client called name. */
static void client_row(struct nvc *c, const char *name, struct nvc_client *row)
{
	unsigned count = 1;
	for (unsigned i = 0; i < count; i++) {
		NVT_OK(nvc_client_at(c, i, row, &count));
		if (!strcmp(row->name, name))
			return;
	}
	fail_msg("no client called %s", name);
}

static const char *const small[] = { "--vram", "32", "--gart", "48", NULL };

/* Two clients use more than VRAM and GART hold together: the older
 * buffers go to GART, then to host memory, and come back exact. */
static void test_idle_buffers_make_room_and_keep_their_bytes(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client a, b;
	struct nvt_buf ab[6], bb[4];
	struct nvc_status st;
	struct nvc_client row;

	NVT_OK(nvt_client_open_mesa(&a, d->sock, "first"));
	for (unsigned i = 0; i < 6; i++) {
		NVT_OK(nvt_buf_new(a.c, 4 * MIB, NVC_VRAM, i, &ab[i]));
		nvt_touch_vram(&a.p, &ab[i]);
		NVT_OK(nvt_finish(&a.p));
	}
	NVT_OK(nvt_client_open_mesa(&b, d->sock, "second"));
	for (unsigned i = 0; i < 4; i++) {
		NVT_OK(nvt_buf_new(b.c, 4 * MIB, NVC_VRAM, 10 + i, &bb[i]));
		nvt_touch_vram(&b.p, &bb[i]);
		NVT_OK(nvt_finish(&b.p));
	}
	NVT_OK(nvc_status(a.c, &st));
	/* 40 MiB of buffers, 32 of apertures: some wait in host memory */
	assert_true(st.host_client >= 8 * MIB);
	assert_true(st.evictions >= 4);
	/* the first client's again, the oldest last */
	for (unsigned i = 6; i--;) {
		nvt_touch_vram(&a.p, &ab[i]);
		NVT_OK(nvt_finish(&a.p));
	}
	for (unsigned i = 0; i < 4; i++) {
		nvt_touch_vram(&b.p, &bb[i]);
		NVT_OK(nvt_finish(&b.p));
	}
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(nvt_buf_check(&ab[i], "a buffer of the first client"), 0);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(nvt_buf_check(&bb[i], "a buffer of the second client"), 0);
	client_row(a.c, "first", &row);
	assert_true(row.evicted >= 2);
	assert_int_equal(row.vram + row.gart + row.host, 24 * MIB + nvc_bo_size(a.p.bo));
	assert_false(nvt_log_contains(d, "refused"));
	for (unsigned i = 0; i < 6; i++)
		nvt_buf_free(&ab[i]);
	for (unsigned i = 0; i < 4; i++)
		nvt_buf_free(&bb[i]);
	nvt_client_close(&a);
	nvt_client_close(&b);
	nvt_end(d);
}

/* Free VRAM in 1 MiB pieces, none of them 4 MiB: idle buffers move out to
 * make one. */
static void test_scattered_free_room_is_gathered(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client a;
	struct nvt_buf piece[16], big;

	NVT_OK(nvt_client_open_mesa(&a, d->sock, "scattered"));
	for (unsigned i = 0; i < 16; i++) {
		NVT_OK(nvt_buf_new(a.c, MIB, NVC_VRAM, i, &piece[i]));
		nvt_touch_vram(&a.p, &piece[i]);
	}
	NVT_OK(nvt_finish(&a.p));
	for (unsigned i = 1; i < 16; i += 2)
		nvt_buf_free(&piece[i]);
	NVT_OK(nvt_buf_new(a.c, 4 * MIB, NVC_VRAM, 99, &big));
	nvt_touch_vram(&a.p, &big);
	NVT_OK(nvt_finish(&a.p));
	NVT_OK(nvc_bo_refresh(big.bo));
	assert_int_equal(nvc_bo_domain(big.bo), NVC_VRAM);
	assert_int_equal(nvt_buf_check(&big, "the large buffer"), 0);
	for (unsigned i = 0; i < 16; i += 2) {
		nvt_touch_vram(&a.p, &piece[i]);
		NVT_OK(nvt_finish(&a.p));
		assert_int_equal(nvt_buf_check(&piece[i], "a piece"), 0);
		nvt_buf_free(&piece[i]);
	}
	nvt_buf_free(&big);
	nvt_client_close(&a);
	nvt_end(d);
}

/* A buffer a submission on the card uses stays where it is: another
 * client that needs its room waits for that submission, then gets it. */
static void test_a_buffer_in_use_never_moves(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client a, b;
	struct nvt_buf src, dst, want[3];

	NVT_OK(nvt_client_open_mesa(&a, d->sock, "busy"));
	NVT_OK(nvt_buf_new(a.c, 4 * MIB, NVC_VRAM, 1, &src));
	NVT_OK(nvt_buf_new(a.c, 4 * MIB, NVC_VRAM, 2, &dst));
	nvt_touch_vram(&a.p, &src);
	nvt_touch_vram(&a.p, &dst);
	NVT_OK(nvt_finish(&a.p));
	NVT_OK(nvc_bo_refresh(dst.bo));
	uint64_t at = nvc_bo_addr(dst.bo);
	/* thousands of copies in one submission: their addresses as they are
	 * now (too many relocations), which the job keeps from moving */
	a.p.relocate = 0;
	uint32_t long_job = nvt_keep_busy(&a.p, &src, &dst, 1000);
	a.p.relocate = 1;
	assert_true(long_job);
	memcpy(dst.shadow, src.shadow, dst.size);

	/* 12 MiB in VRAM at once: only with src and dst gone */
	NVT_OK(nvt_client_open_mesa(&b, d->sock, "pressure"));
	for (unsigned i = 0; i < 3; i++) {
		NVT_OK(nvt_buf_new(b.c, 4 * MIB, NVC_VRAM, 10 + i, &want[i]));
		nvt_touch_vram(&b.p, &want[i]);
	}
	uint32_t f;
	NVT_OK(nvt_submit(&b.p, &f));
	nvt_sleep_ms(100);
	if (nvc_fence_done(a.ch, long_job))
		fail_msg("the long job ended before the test could look");
	assert_int_equal(nvc_fence_done(b.ch, f), 0);
	assert_int_equal(nvc_bo_refresh(dst.bo), 0);
	assert_int_equal(nvc_bo_addr(dst.bo), at);
	assert_int_equal(nvt_wait(&b.p, f), 0);
	assert_int_equal(nvc_fence_done(a.ch, long_job), 1);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(nvt_buf_check(&want[i], "the second client's buffer"), 0);
	assert_int_equal(nvt_buf_check(&dst, "the long job's destination"), 0);
	assert_false(nvt_log_contains(d, "refused"));
	for (unsigned i = 0; i < 3; i++)
		nvt_buf_free(&want[i]);
	nvt_buf_free(&src);
	nvt_buf_free(&dst);
	nvt_client_close(&a);
	nvt_client_close(&b);
	nvt_end(d);
}

/* 24 MiB in VRAM for one submission, on a card with some 16: refused with
 * the sizes, and the channel goes on. */
static void test_a_working_set_larger_than_the_card_is_refused(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client a;
	struct nvt_buf b[3];

	NVT_OK(nvt_client_open_mesa(&a, d->sock, "too-big"));
	for (unsigned i = 0; i < 3; i++) {
		NVT_OK(nvt_buf_new(a.c, 8 * MIB, NVC_VRAM, i, &b[i]));
		nvt_ref(&a.p, b[i].bo, NVC_IN_VRAM);
		nvt_m2mf_cmd(&a.p, &b[i], 0, 4096, &b[i], 4096, 4096, 4096, 1);
	}
	NVT_ERR(nvt_finish(&a.p), -ENOSPC);
	assert_true(nvt_log_contains(d, "no room for 8192 KiB in VRAM"));
	assert_true(nvt_log_contains(d, "used by this submission"));
	a.p.err = 0;
	nvt_touch_vram(&a.p, &b[0]);
	NVT_OK(nvt_finish(&a.p));
	assert_int_equal(nvt_buf_check(&b[0], "a buffer used alone"), 0);
	for (unsigned i = 0; i < 3; i++)
		nvt_buf_free(&b[i]);
	nvt_client_close(&a);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_idle_buffers_make_room_and_keep_their_bytes, small),
		NVT_TEST_ARGS(test_scattered_free_room_is_gathered, small),
		NVT_TEST_ARGS(test_a_buffer_in_use_never_moves, small),
		NVT_TEST_ARGS(test_a_working_set_larger_than_the_card_is_refused, small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
