/* RAMHT: the hash against hand-computed values, and lookups through the
 * puller (OBJECT binds and handle arguments): linear probing, wrap-around,
 * chid matching, the search length, misses. */
#include "sim-host.h"

#define OBJ_M2MF   HOST_OBJ(1)
#define OBJ_SURF2D HOST_OBJ(2)
#define OBJ_SWZ    HOST_OBJ(3)

static int setup(void **state)
{
	struct host *h = calloc(1, sizeof(*h));
	host_new(h);
	host_grobj(h, OBJ_M2MF, NV_CLASS_M2MF);
	host_grobj(h, OBJ_SURF2D, NV_CLASS_SURF2D);
	host_grobj(h, OBJ_SWZ, NV_CLASS_SWZSURF);
	host_chan_new(h, 0, HOST_PB_DMA);
	*state = h;
	return 0;
}


/* Hand-computed: fold the handle into `bits`-wide pieces, XOR them, XOR
 * chid << (bits - 4). */
static void test_hash_hand_computed(void **state)
{
	(void)state;
	/* 0xbeef3901: 0x901 ^ 0xef3 ^ 0x0be = 0x7f2 ^ 0x0be = 0x74c */
	assert_int_equal(nv40_ramht_hash(0xbeef3901, 0, 12), 0x74c);
	/* chid 1: 0x74c ^ 0x100 = 0x64c */
	assert_int_equal(nv40_ramht_hash(0xbeef3901, 1, 12), 0x64c);
	/* chid 31: 0x74c ^ 0x1f00, masked to 12 bits = 0x84c */
	assert_int_equal(nv40_ramht_hash(0xbeef3901, 31, 12), 0x84c);
	/* 0xbeef0201: 0x201 ^ 0xef0 ^ 0x0be = 0xcf1 ^ 0x0be = 0xc4f */
	assert_int_equal(nv40_ramht_hash(0xbeef0201, 0, 12), 0xc4f);
	/* 0x12345678: 0x678 ^ 0x345 ^ 0x012 = 0x53d ^ 0x012 = 0x52f */
	assert_int_equal(nv40_ramht_hash(0x12345678, 0, 12), 0x52f);
	/* handle 0 (Mesa's NULL object): only the chid term, 3 << 8 */
	assert_int_equal(nv40_ramht_hash(0, 3, 12), 0x300);
	/* 9 bits: 0x101 ^ 0x19c ^ 0x1bb ^ 0x017 = 0x09d ^ 0x1bb ^ 0x017 = 0x126 ^ 0x017 = 0x131;
	 * chid 2: ^ 2 << 5 = 0x171 */
	assert_int_equal(nv40_ramht_hash(0xbeef3901, 0, 9), 0x131);
	assert_int_equal(nv40_ramht_hash(0xbeef3901, 2, 9), 0x171);
}

/* Bind handle on subc and report the class PGRAPH bound there (read back
 * from a user save of the context), 0 if the lookup failed. */
static uint32_t bind(struct host *h, unsigned chid, unsigned subc, uint32_t handle)
{
	host_mthd(h, chid, subc, NV_FIFO_OBJECT, handle);
	host_kick(h, chid);
	sim_run(h->s);
	if (sim_rd32(h->s, NV_PFIFO_INTR))
		return 0;
	host_gr_save(h, HOST_GRCTX(chid));
	return HOST_GR_WORD(h, HOST_GRCTX(chid), subc_class[subc]);
}

static void test_direct_hit_binds_object(void **state)
{
	struct host *h = *state;
	assert_int_equal(host_ramht_add(h, 0xbeef3901, 0, NV_ENGINE_GR, OBJ_M2MF), 0x74c);
	assert_int_equal(bind(h, 0, 3, 0xbeef3901), NV_CLASS_M2MF);
	assert_int_equal(HOST_GR_WORD(h, HOST_GRCTX(0), subc_inst[3]), OBJ_M2MF);
	/* the engine goes into CACHE1_ENGINE, 4 bits per subchannel */
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_CACHE1_ENGINE), NV_ENGINE_GR << 12);
	/* a software object sets its subchannel's nibble to 0 */
	bind(h, 0, 3, HOST_SW_HANDLE);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_CACHE1_ENGINE), 0);
}

/* 0x1 and 0x2003 (0x003 ^ 0x002) both hash to 1: the second lives at 2. */
static void test_collision_resolved_by_linear_probing(void **state)
{
	struct host *h = *state;
	assert_int_equal(host_ramht_add(h, 0x1, 0, NV_ENGINE_GR, OBJ_M2MF), 1);
	assert_int_equal(host_ramht_add(h, 0x2003, 0, NV_ENGINE_GR, OBJ_SURF2D), 2);
	assert_int_equal(bind(h, 0, 2, 0x2003), NV_CLASS_SURF2D);
	assert_int_equal(bind(h, 0, 3, 0x1), NV_CLASS_M2MF);
}

/* 0xfff and 0x1ffe (0xffe ^ 0x001) hash to the last entry: the second
 * wraps to entry 0. */
static void test_probe_wraps_at_table_end(void **state)
{
	struct host *h = *state;
	assert_int_equal(host_ramht_add(h, 0xfff, 0, NV_ENGINE_GR, OBJ_M2MF), 0xfff);
	assert_int_equal(host_ramht_add(h, 0x1ffe, 0, NV_ENGINE_GR, OBJ_SURF2D), 0);
	assert_int_equal(bind(h, 0, 4, 0x1ffe), NV_CLASS_SURF2D);
	assert_int_equal(bind(h, 0, 5, 0xfff), NV_CLASS_M2MF);
}

static void expect_hash_failed(struct host *h, unsigned subc, uint32_t mthd, uint32_t handle)
{
	struct sim *s = h->s;
	assert_int_equal(sim_rd32(s, NV_PFIFO_INTR), NV_PFIFO_INTR_CACHE_ERROR);
	uint32_t pull0 = sim_rd32(s, NV_PFIFO_CACHE1_PULL0);
	assert_true(pull0 & NV_PULL0_HASH_FAILED);
	assert_false(pull0 & NV_PULL0_DEVICE_SOFTWARE);
	assert_false(pull0 & NV_PULL0_ACCESS);
	assert_int_equal(host_cache1_mthd(h), subc << 13 | mthd);
	assert_int_equal(host_cache1_data(h), handle);
	/* the channel waits for the host */
	static uint32_t seq = 0x90;
	seq++;
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, seq);
	host_kick(h, 0);
	assert_int_equal(sim_run(s), 0);
	assert_int_not_equal(host_ref(h, 0), seq);
	/* skip the method as the kernel does; the channel carries on */
	host_ack_sw(h);
	sim_run(s);
	assert_int_equal(sim_rd32(s, NV_PFIFO_INTR), 0);
	assert_int_equal(host_ref(h, 0), seq);
}

static void test_chid_mismatch_not_matched(void **state)
{
	struct host *h = *state;
	uint32_t x = 0xbeef3901;
	/* channel 1's entry for x, planted where channel 0's probe starts */
	host_ramht_set(h, nv40_ramht_hash(x, 0, 12), x, NV40_RAMHT_CTX(1, NV_ENGINE_GR, OBJ_M2MF));
	assert_int_equal(bind(h, 0, 3, x), 0);
	expect_hash_failed(h, 3, NV_FIFO_OBJECT, x);
	/* channel 0's own entry, one further along, is found */
	assert_int_equal(host_ramht_add(h, x, 0, NV_ENGINE_GR, OBJ_SURF2D), 0x74d);
	assert_int_equal(bind(h, 0, 3, x), NV_CLASS_SURF2D);
}

/* The same handle in two channels names two objects (0xc49 and 0xd49). */
static void test_same_handle_per_channel(void **state)
{
	struct host *h = *state;
	host_chan_new(h, 1, HOST_PB_DMA);
	assert_int_equal(host_ramht_add(h, 0xbeef6201, 0, NV_ENGINE_GR, OBJ_SURF2D), 0xc49);
	assert_int_equal(host_ramht_add(h, 0xbeef6201, 1, NV_ENGINE_GR, OBJ_SWZ), 0xd49);
	assert_int_equal(bind(h, 1, 2, 0xbeef6201), NV_CLASS_SWZSURF);
	assert_int_equal(bind(h, 0, 2, 0xbeef6201), NV_CLASS_SURF2D);
}

static void test_miss_is_cache_error_hash_failed(void **state)
{
	struct host *h = *state;
	assert_int_equal(bind(h, 0, 6, 0xcafe0001), 0);
	expect_hash_failed(h, 6, NV_FIFO_OBJECT, 0xcafe0001);
}

/* Fill the probe run from 0x100 with other channels' entries. */
static void fill_run(struct host *h, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		host_ramht_set(h, 0x100 + i, 0xdead0000 + i, NV40_RAMHT_CTX(5, NV_ENGINE_GR, OBJ_SWZ));
}

static void test_search_length_from_register(void **state)
{
	struct host *h = *state;
	uint32_t ramht = sim_rd32(h->s, NV_PFIFO_RAMHT) & ~(3u << 24);

	/* 16 entries: the 16th probe (index 0x10f) is found */
	sim_wr32(h->s, NV_PFIFO_RAMHT, ramht | 0u << 24);
	fill_run(h, 15);
	assert_int_equal(host_ramht_add(h, 0x100, 0, NV_ENGINE_GR, OBJ_M2MF), 0x10f);
	assert_int_equal(bind(h, 0, 2, 0x100), NV_CLASS_M2MF);

	/* the 17th (0x110) is not, with 16; it is with 32 */
	host_ramht_set(h, 0x10f, 0xdead010f, NV40_RAMHT_CTX(5, NV_ENGINE_GR, OBJ_SWZ));
	assert_int_equal(host_ramht_add(h, 0x100, 0, NV_ENGINE_GR, OBJ_SURF2D), 0x110);
	assert_int_equal(bind(h, 0, 3, 0x100), 0);
	expect_hash_failed(h, 3, NV_FIFO_OBJECT, 0x100);
	sim_wr32(h->s, NV_PFIFO_RAMHT, ramht | 1u << 24);
	assert_int_equal(bind(h, 0, 3, 0x100), NV_CLASS_SURF2D);

	/* 128 (the daemon's setting): entry 127 found, 128 not */
	sim_wr32(h->s, NV_PFIFO_RAMHT, ramht | 3u << 24);
	fill_run(h, 127);
	host_ramht_set(h, 0x17f, 0x100, NV40_RAMHT_CTX(0, NV_ENGINE_GR, OBJ_SWZ));
	assert_int_equal(bind(h, 0, 4, 0x100), NV_CLASS_SWZSURF);
	fill_run(h, 128);
	host_ramht_set(h, 0x180, 0x100, NV40_RAMHT_CTX(0, NV_ENGINE_GR, OBJ_M2MF));
	assert_int_equal(bind(h, 0, 4, 0x100), 0);
	expect_hash_failed(h, 4, NV_FIFO_OBJECT, 0x100);
}

/* Methods 0x180-0x1fc carry handles; PGRAPH stores the instance. */
static void test_handle_argument_translated_to_instance(void **state)
{
	struct host *h = *state;
	host_ramht_add(h, 0xbeef3901, 0, NV_ENGINE_GR, OBJ_M2MF);
	host_ramht_add(h, 0xbeef0202, 0, NV_ENGINE_SW, HOST_SYS_DMA);
	assert_int_equal(bind(h, 0, 3, 0xbeef3901), NV_CLASS_M2MF);
	host_mthd(h, 0, 3, NV_M2MF_DMA_BUFFER_IN, 0xbeef0202);
	host_mthd(h, 0, 3, NV_M2MF_PITCH_IN, 0xbeef0202);     /* plain: as is */
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_INTR), 0);
	host_gr_save(h, HOST_GRCTX(0));
	assert_int_equal(HOST_GR_WORD(h, HOST_GRCTX(0), m2mf[NV_M2MF_DMA_BUFFER_IN__SLOT]), HOST_SYS_DMA);
	assert_int_equal(HOST_GR_WORD(h, HOST_GRCTX(0), m2mf[NV_M2MF_PITCH_IN__SLOT]), 0xbeef0202);
	/* a handle nobody registered */
	host_mthd(h, 0, 3, NV_M2MF_DMA_BUFFER_OUT, 0xbeef0203);
	host_kick(h, 0);
	sim_run(h->s);
	expect_hash_failed(h, 3, NV_M2MF_DMA_BUFFER_OUT, 0xbeef0203);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_hand_computed),
#define T(f) cmocka_unit_test_setup_teardown(f, setup, host_teardown)
		T(test_direct_hit_binds_object),
		T(test_collision_resolved_by_linear_probing),
		T(test_probe_wraps_at_table_end),
		T(test_chid_mismatch_not_matched),
		T(test_same_handle_per_channel),
		T(test_miss_is_cache_error_hash_failed),
		T(test_search_length_from_register),
		T(test_handle_argument_translated_to_instance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
