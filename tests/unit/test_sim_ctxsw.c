/* Channel switching: two channels interleaving under a 4-word timeslice keep
 * their own PFIFO and PGRAPH state; RAMFC save/restore round-trips; USER
 * reads of a channel that is not current come from its RAMFC; semaphores
 * and YIELD switch. */
#include "sim-host.h"

#define SUBC_SURF 2
#define SUBC_M2MF 3
#define SW_SUBC   1
#define H_SURF    0xbeef6201u
#define H_M2MF    0xbeef3901u
#define H_SEM     0xbeef0301u
#define SEM_DMA   0x40200u
#define SEM_AT    0x300000u         /* sysmem offset of the semaphore page */
#define OBJ_SURF(c) HOST_OBJ(1 + 2 * (c))
#define OBJ_M2MF(c) HOST_OBJ(2 + 2 * (c))
#define N_ITER    12

static int setup(void **state)
{
	struct host *h = calloc(1, sizeof(*h));
	host_new(h);
	host_ctxdma(h, SEM_DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RW,
		    SEM_AT, 0xfff);
	for (unsigned c = 0; c < 3; c++) {
		host_grobj(h, OBJ_SURF(c), NV_CLASS_SURF2D);
		host_grobj(h, OBJ_M2MF(c), NV_CLASS_M2MF);
		host_chan_new(h, c, HOST_PB_DMA);
		host_ramht_add(h, H_SURF, c, NV_ENGINE_GR, OBJ_SURF(c));
		host_ramht_add(h, H_M2MF, c, NV_ENGINE_GR, OBJ_M2MF(c));
		host_ramht_add(h, H_SEM, c, NV_ENGINE_SW, SEM_DMA);
		host_mthd(h, c, SW_SUBC, NV_FIFO_OBJECT, HOST_SW_HANDLE);
	}
	*state = h;
	return 0;
}


static unsigned cur_chid(struct host *h)
{
	return NV_PFIFO_CACHE1_PUSH1_CHID(sim_rd32(h->s, NV_PFIFO_CACHE1_PUSH1));
}

static void set_timeslice(struct host *h, unsigned chid, uint32_t us)
{
	host_ramin_wr32(h, NV40_RAMIN_RAMFC + chid * NV40_RAMFC_SIZE + NV40_RAMFC_DMA_TIMESLICE, us);
}

/* Channel c's stream: per iteration two 2-word INC packets on PGRAPH and a
 * REF; in the middle channel 0 stops on a software method; a 10-word
 * NONINC packet at the end. */
static void emit_stream(struct host *h, unsigned c)
{
	host_mthd(h, c, SUBC_SURF, NV_FIFO_OBJECT, H_SURF);
	host_mthd(h, c, SUBC_M2MF, NV_FIFO_OBJECT, H_M2MF);
	for (uint32_t i = 0; i < N_ITER; i++) {
		host_emit(h, c, NV_CMD_INC_WORD(SUBC_SURF, NV_SURF2D_FORMAT, 2));
		host_emit(h, c, 0xa + c);
		host_emit(h, c, (c + 1) << 16 | i);
		host_emit(h, c, NV_CMD_INC_WORD(SUBC_M2MF, NV_M2MF_OFFSET_IN, 2));
		host_emit(h, c, c << 24 | i);
		host_emit(h, c, c << 24 | i << 4);
		host_mthd(h, c, 0, NV_FIFO_REF_CNT, c << 16 | i);
		if (c == 0 && i == N_ITER / 2)
			host_mthd(h, c, SW_SUBC, 0x150, 0x5150);
	}
	host_emit(h, c, NV_CMD_NONINC_WORD(0, NV_FIFO_REF_CNT, 10));
	for (uint32_t k = 0; k < 10; k++)
		host_emit(h, c, c << 16 | (0x1000 + k));
}

/* USER registers of chid equal its RAMFC words (it is not current). */
static void assert_user_from_ramfc(struct host *h, unsigned chid)
{
	assert_int_not_equal(cur_chid(h), chid);
	assert_int_equal(host_user(h, chid, NV40_USER_DMA_PUT), host_ramfc_rd(h, chid, 0x00));
	assert_int_equal(host_user(h, chid, NV40_USER_DMA_GET), host_ramfc_rd(h, chid, 0x04));
	assert_int_equal(host_user(h, chid, NV40_USER_REF), host_ramfc_rd(h, chid, 0x08));
}

static void test_two_channels_interleave_and_keep_their_state(void **state)
{
	struct host *h = *state;

	for (unsigned c = 0; c < 2; c++) {
		set_timeslice(h, c, 4);
		emit_stream(h, c);
	}
	host_kick(h, 0);
	host_kick(h, 1);
	sim_run(h->s);

	/* channel 0 stopped half way, on its software method */
	assert_int_equal(cur_chid(h), 0);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_INTR), NV_PFIFO_INTR_CACHE_ERROR);
	assert_int_equal(host_cache1_data(h), 0x5150);
	assert_int_equal(host_ref(h, 0), N_ITER / 2);
	/* meanwhile channel 1 ran part of its stream: they interleaved */
	uint32_t ref1 = host_ref(h, 1);
	assert_int_equal(ref1 >> 16, 1);
	assert_true((ref1 & 0xffff) >= N_ITER / 2 - 2 && (ref1 & 0xffff) <= N_ITER / 2 + 2);
	assert_user_from_ramfc(h, 1);
	/* the current channel's USER reads are the live registers */
	assert_int_equal(host_user(h, 0, NV40_USER_REF), sim_rd32(h->s, NV_PFIFO_CACHE1_REF));
	assert_int_equal(host_user(h, 0, NV40_USER_DMA_GET), sim_rd32(h->s, NV_PFIFO_CACHE1_DMA_GET));

	host_ack_sw(h);
	sim_run(h->s);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_INTR), 0);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_INTR), 0);

	/* REF, GET and PUT per channel */
	for (unsigned c = 0; c < 2; c++) {
		assert_int_equal(host_ref(h, c), c << 16 | 0x1009);
		assert_int_equal(host_user(h, c, NV40_USER_DMA_GET), h->put[c]);
		assert_int_equal(host_user(h, c, NV40_USER_DMA_PUT), h->put[c]);
	}
	unsigned last = cur_chid(h);
	assert_true(last < 2);
	assert_user_from_ramfc(h, !last);

	/* PGRAPH state per channel: the loaded one (PGRAPH switches on PGRAPH
	 * methods only, so not necessarily `last`) saved by hand, the other
	 * saved by the switch */
	uint32_t cur = sim_rd32(h->s, NV_PGRAPH_CTXCTL_CUR);
	assert_true(cur == (NV_PGRAPH_CTXCTL_LOADED | HOST_GRCTX(0) >> 4) ||
		    cur == (NV_PGRAPH_CTXCTL_LOADED | HOST_GRCTX(1) >> 4));
	host_gr_save(h, NV_PGRAPH_CTXCTL_INST(cur) << 4);
	for (unsigned c = 0; c < 2; c++) {
		uint32_t img = HOST_GRCTX(c);
		assert_int_equal(HOST_GR_WORD(h, img, magic), SIM_GRCTX_MAGIC);
		assert_int_equal(HOST_GR_WORD(h, img, subc_class[SUBC_SURF]), NV_CLASS_SURF2D);
		assert_int_equal(HOST_GR_WORD(h, img, subc_inst[SUBC_SURF]), OBJ_SURF(c));
		assert_int_equal(HOST_GR_WORD(h, img, subc_class[SUBC_M2MF]), NV_CLASS_M2MF);
		assert_int_equal(HOST_GR_WORD(h, img, subc_inst[SUBC_M2MF]), OBJ_M2MF(c));
		assert_int_equal(HOST_GR_WORD(h, img, surf2d[NV_SURF2D_FORMAT__SLOT]), 0xa + c);
		assert_int_equal(HOST_GR_WORD(h, img, surf2d[NV_SURF2D_PITCH__SLOT]),
				 (c + 1) << 16 | (N_ITER - 1));
		assert_int_equal(HOST_GR_WORD(h, img, m2mf[NV_M2MF_OFFSET_IN__SLOT]),
				 c << 24 | (N_ITER - 1));
		assert_int_equal(HOST_GR_WORD(h, img, m2mf[NV_M2MF_OFFSET_OUT__SLOT]),
				 c << 24 | (N_ITER - 1) << 4);
		/* word 0 is the host's */
		assert_int_equal(host_ramin_rd32(h, img), img >> 4);
	}
}

/* Every RAMFC field survives load + save; a packet in progress is saved
 * in DMA_STATE and finishes after the switch back. */
static void test_ramfc_round_trip(void **state)
{
	struct host *h = *state;
	const uint32_t fc = NV40_RAMIN_RAMFC + 2 * NV40_RAMFC_SIZE;

	/* values the model keeps but never changes by itself */
	host_ramin_wr32(h, fc + 0x10, 0x1234);        /* DMA_DCOUNT */
	host_ramin_wr32(h, fc + 0x18, 0xf0345678);     /* DMA_FETCH, 28 bits kept */
	host_ramin_wr32(h, fc + 0x20, 0x8765);         /* PULL1 */
	host_ramin_wr32(h, fc + 0x28, 0x1111);         /* ACQUIRE_TIMESTAMP */
	host_ramin_wr32(h, fc + 0x2c, 0x2222);         /* ACQUIRE_TIMEOUT */
	host_ramin_wr32(h, fc + 0x3c, 0xfffe1234);     /* TIMESLICE, 17 bits kept */

	/* channel 2: a REF, then a header whose data comes later */
	host_mthd(h, 2, 0, NV_FIFO_REF_CNT, 0x100);
	host_emit(h, 2, NV_CMD_INC_WORD(0, NV_FIFO_REF_CNT, 1));
	host_kick(h, 2);
	sim_run(h->s);
	assert_int_equal(cur_chid(h), 2);
	/* channel 0 has work: switch away, which saves channel 2 */
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 0x200);
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(cur_chid(h), 0);
	assert_int_equal(host_ramfc_rd(h, 2, 0x00), h->put[2]);
	assert_int_equal(host_ramfc_rd(h, 2, 0x04), h->put[2]);
	assert_int_equal(host_ramfc_rd(h, 2, 0x08), 0x100);
	assert_int_equal(host_ramfc_rd(h, 2, 0x0c), HOST_PB_DMA >> 4);
	assert_int_equal(host_ramfc_rd(h, 2, 0x10), 0x1234);
	uint32_t st = host_ramfc_rd(h, 2, 0x14);
	assert_int_equal(NV_DMA_STATE_METHOD(st), NV_FIFO_REF_CNT);
	assert_int_equal(NV_DMA_STATE_COUNT(st), 1);
	assert_int_equal(NV_DMA_STATE_ERROR(st), 0);
	assert_int_equal(host_ramfc_rd(h, 2, 0x18), 0x00345678);
	assert_int_equal(host_ramfc_rd(h, 2, 0x1c), NV_ENGINE_SW);     /* SW on subc 1: all 0 */
	assert_int_equal(host_ramfc_rd(h, 2, 0x20), 0x8765);
	assert_int_equal(host_ramfc_rd(h, 2, 0x28), 0x1111);
	assert_int_equal(host_ramfc_rd(h, 2, 0x2c), 0x2222);
	assert_int_equal(host_ramfc_rd(h, 2, 0x38), HOST_GRCTX(2) >> 4);
	assert_int_equal(host_ramfc_rd(h, 2, 0x3c), 0x1234);
	assert_user_from_ramfc(h, 2);
	assert_int_equal(host_ref(h, 0), 0x200);

	/* the data word: channel 2 comes back and finishes its packet */
	host_emit(h, 2, 0x300);
	host_kick(h, 2);
	sim_run(h->s);
	assert_int_equal(cur_chid(h), 2);
	assert_int_equal(host_ref(h, 2), 0x300);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_CACHE1_DMA_FETCH), 0x00345678);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_DMA_TIMESLICE), 0x1234);
	assert_user_from_ramfc(h, 0);
	assert_int_equal(host_ref(h, 0), 0x200);
}

/* USER writes for a channel that is not current go to its RAMFC. */
static void test_user_write_to_other_channel_lands_in_ramfc(void **state)
{
	struct host *h = *state;
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 1);
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(cur_chid(h), 0);
	sim_wr32(h->s, NV40_USER(1) + NV40_USER_DMA_PUT, HOST_RING(1) + 0x40);
	assert_int_equal(host_ramfc_rd(h, 1, 0x00), HOST_RING(1) + 0x40);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_CACHE1_DMA_PUT), h->put[0]);
	assert_true(sim_rd32(h->s, NV_PFIFO_DMA) & 2);
	/* reset it before anything runs */
	sim_wr32(h->s, NV40_USER(1) + NV40_USER_DMA_PUT, HOST_RING(1));
}

static void test_semaphore_acquire_lets_other_channel_run(void **state)
{
	struct host *h = *state;
	uint8_t *sem = h->sysmem + SEM_AT + 0x40;

	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 1);
	host_mthd(h, 0, 0, NV_FIFO_DMA_SEMAPHORE, H_SEM);
	host_mthd(h, 0, 0, NV_FIFO_SEMAPHORE_OFFSET, 0x40);
	host_mthd(h, 0, 0, NV_FIFO_SEMAPHORE_ACQUIRE, 5);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 2);
	host_kick(h, 0);
	sim_run(h->s);
	/* blocked: REF stays, nothing pending for the host */
	assert_int_equal(host_ref(h, 0), 1);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_INTR), 0);
	assert_int_equal(sim_run(h->s), 0);

	host_mthd(h, 1, 0, NV_FIFO_REF_CNT, 0x11);
	host_mthd(h, 1, 0, NV_FIFO_DMA_SEMAPHORE, H_SEM);
	host_mthd(h, 1, 0, NV_FIFO_SEMAPHORE_OFFSET, 0x40);
	host_mthd(h, 1, 0, NV_FIFO_SEMAPHORE_RELEASE, 5);
	host_mthd(h, 1, 0, NV_FIFO_REF_CNT, 0x12);
	host_kick(h, 1);
	sim_run(h->s);
	assert_int_equal(nv_rd32le(sem), 5);
	assert_int_equal(host_ref(h, 1), 0x12);
	assert_int_equal(host_ref(h, 0), 2);

	/* released by the host CPU this time */
	host_mthd(h, 0, 0, NV_FIFO_SEMAPHORE_ACQUIRE, 6);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 3);
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(host_ref(h, 0), 2);
	nv_wr32le(sem, 6);
	sim_run(h->s);
	assert_int_equal(host_ref(h, 0), 3);
}

static void test_semaphore_bad_offset_raises_semaphore_intr(void **state)
{
	struct host *h = *state;
	host_mthd(h, 0, 0, NV_FIFO_SEMAPHORE_OFFSET, 0x1001);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 7);
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_INTR), NV_PFIFO_INTR_SEMAPHORE);
	assert_int_equal(host_cache1_mthd(h), NV_FIFO_SEMAPHORE_OFFSET);
	assert_int_equal(host_ref(h, 0), 0);
	/* the kernel's skip: GET += 4, PULL0 = 1 */
	sim_wr32(h->s, NV_PFIFO_INTR, NV_PFIFO_INTR_SEMAPHORE);
	sim_wr32(h->s, NV_PFIFO_CACHE1_GET, sim_rd32(h->s, NV_PFIFO_CACHE1_GET) + 4);
	sim_wr32(h->s, NV_PFIFO_CACHE1_PULL0, 1);
	sim_run(h->s);
	assert_int_equal(host_ref(h, 0), 7);
}

/* With a long timeslice only YIELD lets channel 1 in before channel 0's
 * software method. */
static void test_yield_switches_now(void **state)
{
	struct host *h = *state;
	for (int yield = 0; yield < 2; yield++) {
		uint32_t r1 = 0x20 + yield;
		/* make channel 0 current first */
		host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 1);
		host_kick(h, 0);
		sim_run(h->s);
		assert_int_equal(cur_chid(h), 0);
		if (yield)
			host_mthd(h, 0, 0, NV_FIFO_YIELD, 0);
		host_mthd(h, 0, SW_SUBC, 0x150, 0);
		host_mthd(h, 1, 0, NV_FIFO_REF_CNT, r1);
		host_kick(h, 0);
		host_kick(h, 1);
		sim_run(h->s);
		assert_int_equal(sim_rd32(h->s, NV_PFIFO_INTR), NV_PFIFO_INTR_CACHE_ERROR);
		assert_int_equal(cur_chid(h), 0);
		if (yield)
			assert_int_equal(host_ref(h, 1), r1);
		else
			assert_int_not_equal(host_ref(h, 1), r1);
		host_ack_sw(h);
		sim_run(h->s);
		assert_int_equal(host_ref(h, 1), r1);
	}
}

/* A channel not in MODE never runs, and DMA-mode channels only run with
 * CACHES.REASSIGN, PUSH0, PULL0 and DMA_PUSH on. */
static void test_gates_stop_the_pusher(void **state)
{
	struct host *h = *state;
	static const uint32_t gates[] = {
		NV_PFIFO_CACHES, NV_PFIFO_CACHE1_PUSH0, NV_PFIFO_CACHE1_PULL0,
		NV_PFIFO_CACHE1_DMA_PUSH,
	};
	for (unsigned i = 0; i < 4; i++) {
		sim_wr32(h->s, gates[i], 0);
		host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 0x40 + i);
		host_kick(h, 0);
		assert_int_equal(sim_run(h->s), 0);
		sim_wr32(h->s, gates[i], 1);
		sim_run(h->s);
		assert_int_equal(host_ref(h, 0), 0x40 + i);
	}
	sim_wr32(h->s, NV_PFIFO_MODE, sim_rd32(h->s, NV_PFIFO_MODE) & ~1u);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 0x50);
	host_kick(h, 0);
	assert_int_equal(sim_run(h->s), 0);
	assert_int_equal(host_ref(h, 0), 0x43);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, host_teardown)
		T(test_two_channels_interleave_and_keep_their_state),
		T(test_ramfc_round_trip),
		T(test_user_write_to_other_channel_lands_in_ramfc),
		T(test_semaphore_acquire_lets_other_channel_run),
		T(test_semaphore_bad_offset_raises_semaphore_intr),
		T(test_yield_switches_now),
		T(test_gates_stop_the_pusher),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
