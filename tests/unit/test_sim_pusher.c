/* The DMA pusher: every command form and every pusher error, observed as a
 * host observes them (USER registers, CACHE1, PFIFO_INTR, software-method
 * traps); plus the software-method path, the interrupt eventfd and the
 * worker thread. */
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "sim-host.h"

#define SW_SUBC 1

static int setup(void **state)
{
	struct host *h = calloc(1, sizeof(*h));
	host_new(h);
	host_chan_new(h, 0, HOST_PB_DMA);
	/* bind the software object on subchannel 1, as the daemon does */
	host_mthd(h, 0, SW_SUBC, NV_FIFO_OBJECT, HOST_SW_HANDLE);
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_INTR), 0);
	*state = h;
	return 0;
}


static void assert_idle(struct host *h, unsigned chid)
{
	assert_int_equal(host_user(h, chid, NV40_USER_DMA_GET), h->put[chid]);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_INTR), 0);
}

/* Expect a software-method trap for (mthd, data) on SW_SUBC, then ack it. */
static void expect_sw(struct host *h, uint32_t mthd, uint32_t data)
{
	struct sim *s = h->s;
	assert_int_equal(sim_rd32(s, NV_PFIFO_INTR) & NV_PFIFO_INTR_CACHE_ERROR,
			 NV_PFIFO_INTR_CACHE_ERROR);
	uint32_t pull0 = sim_rd32(s, NV_PFIFO_CACHE1_PULL0);
	assert_true(pull0 & NV_PULL0_DEVICE_SOFTWARE);
	assert_false(pull0 & NV_PULL0_ACCESS);
	assert_int_equal(host_cache1_mthd(h) & 0x1ffc, mthd);
	assert_int_equal((host_cache1_mthd(h) >> 13) & 7, SW_SUBC);
	assert_int_equal(host_cache1_data(h), data);
	/* stalled: nothing moves until the host acks */
	assert_int_equal(sim_run(s), 0);
	host_ack_sw(h);
	sim_run(s);
}

static void test_inc_packet_increments_method(void **state)
{
	struct host *h = *state;
	host_emit(h, 0, NV_CMD_INC_WORD(SW_SUBC, 0x150, 3));
	host_emit(h, 0, 0xa0);
	host_emit(h, 0, 0xa1);
	host_emit(h, 0, 0xa2);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 0x1234);
	host_kick(h, 0);
	sim_run(h->s);
	expect_sw(h, 0x150, 0xa0);
	expect_sw(h, 0x154, 0xa1);
	expect_sw(h, 0x158, 0xa2);
	assert_int_equal(host_ref(h, 0), 0x1234);
	assert_idle(h, 0);
}

static void test_noninc_packet_repeats_method(void **state)
{
	struct host *h = *state;
	host_emit(h, 0, NV_CMD_NONINC_WORD(SW_SUBC, 0x150, 2));
	host_emit(h, 0, 0xb0);
	host_emit(h, 0, 0xb1);
	/* and on a FIFO method: REF takes the last value */
	host_emit(h, 0, NV_CMD_NONINC_WORD(0, NV_FIFO_REF_CNT, 3));
	host_emit(h, 0, 1);
	host_emit(h, 0, 2);
	host_emit(h, 0, 3);
	host_kick(h, 0);
	sim_run(h->s);
	expect_sw(h, 0x150, 0xb0);
	expect_sw(h, 0x150, 0xb1);
	assert_int_equal(host_ref(h, 0), 3);
	assert_idle(h, 0);
}

static void test_count0_packet_is_noop(void **state)
{
	struct host *h = *state;
	host_emit(h, 0, 0);
	host_emit(h, 0, NV_CMD_INC_WORD(SW_SUBC, 0x150, 0));
	host_emit(h, 0, 0);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 5);
	host_kick(h, 0);
	assert_int_equal(sim_run(h->s), 5);
	assert_int_equal(host_ref(h, 0), 5);
	assert_idle(h, 0);
}

/* Both jump forms skip what lies between; a wrong path would set REF to
 * 0xbad or hit an invalid command. */
static void test_old_jump_and_jump(void **state)
{
	struct host *h = *state;
	uint32_t start = h->put[0];

	host_emit(h, 0, NV_CMD_OLD_JUMP_WORD(start + 0x100));
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 0xbad);
	h->put[0] = start + 0x100;
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 1);
	host_emit(h, 0, NV_CMD_JUMP_WORD(start + 0x200));
	host_emit(h, 0, 0xffffffff);    /* invalid command, skipped */
	h->put[0] = start + 0x200;
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 2);
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(host_ref(h, 0), 2);
	assert_idle(h, 0);
	/* a jump backwards: the ring wraps the way the kernel's does (JUMP at
	 * the end, new work at the start, then PUT) */
	host_emit(h, 0, NV_CMD_JUMP_WORD(start));
	h->put[0] = start;
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 3);
	host_kick(h, 0);
	assert_int_equal(sim_run(h->s), 3);
	assert_int_equal(host_ref(h, 0), 3);
	assert_idle(h, 0);
}

static void test_call_and_return(void **state)
{
	struct host *h = *state;
	uint32_t sub = 0x80000;       /* a "user push buffer" elsewhere in sysmem */
	uint32_t ret;

	host_emit_at(h, sub + 0, NV_CMD_INC_WORD(0, NV_FIFO_REF_CNT, 1));
	host_emit_at(h, sub + 4, 2);
	host_emit_at(h, sub + 8, NV_CMD_INC_WORD(SW_SUBC, 0x150, 1));
	host_emit_at(h, sub + 12, 0x5b);
	host_emit_at(h, sub + 16, NV_CMD_RETURN_WORD);

	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 1);
	host_emit(h, 0, NV_CMD_CALL_WORD(sub));
	ret = h->put[0];
	host_emit(h, 0, 0);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 3);
	host_kick(h, 0);
	sim_run(h->s);
	/* stopped inside the subroutine, on its software method */
	assert_int_equal(host_ref(h, 0), 2);
	assert_int_equal(host_user(h, 0, NV40_USER_DMA_GET), sub + 16);
	assert_int_equal(host_user(h, 0, NV40_USER_DMA_CGET), ret);
	assert_true(sim_rd32(h->s, NV_PFIFO_CACHE1_DMA_STATE) & NV_DMA_STATE_SUBR_ACTIVE);
	expect_sw(h, 0x150, 0x5b);
	assert_int_equal(host_ref(h, 0), 3);
	assert_false(sim_rd32(h->s, NV_PFIFO_CACHE1_DMA_STATE) & NV_DMA_STATE_SUBR_ACTIVE);
	assert_int_equal(host_user(h, 0, NV40_USER_DMA_CGET), h->put[0]);
	assert_idle(h, 0);
}

/* A packet whose data words arrive in a later kick: DMA_STATE holds it. */
static void test_packet_spans_kicks(void **state)
{
	struct host *h = *state;
	host_emit(h, 0, NV_CMD_INC_WORD(0, NV_FIFO_REF_CNT, 1));
	host_kick(h, 0);
	assert_int_equal(sim_run(h->s), 1);
	uint32_t st = sim_rd32(h->s, NV_PFIFO_CACHE1_DMA_STATE);
	assert_int_equal(NV_DMA_STATE_METHOD(st), NV_FIFO_REF_CNT);
	assert_int_equal(NV_DMA_STATE_COUNT(st), 1);
	assert_int_equal(host_ref(h, 0), 0);
	host_emit(h, 0, 0x77);
	host_kick(h, 0);
	assert_int_equal(sim_run(h->s), 1);
	assert_int_equal(host_ref(h, 0), 0x77);
	assert_int_equal(NV_DMA_STATE_COUNT(sim_rd32(h->s, NV_PFIFO_CACHE1_DMA_STATE)), 0);
	assert_idle(h, 0);
}

/* ---- pusher errors ---- */

static int irq_pending(struct host *h)
{
	uint64_t n;
	return read(sim_irq_fd(h->s), &n, sizeof(n)) == sizeof(n);
}

/* The error is reported, the channel stops, and the host's ack resumes it. */
static void expect_pusher_error(struct host *h, unsigned code)
{
	struct sim *s = h->s;

	assert_int_equal(NV_DMA_STATE_ERROR(sim_rd32(s, NV_PFIFO_CACHE1_DMA_STATE)), code);
	assert_int_equal(sim_rd32(s, NV_PFIFO_INTR), NV_PFIFO_INTR_DMA_PUSHER);
	assert_true(sim_rd32(s, NV_PMC_INTR) & NV_PMC_UNIT_PFIFO);
	assert_true(sim_rd32(s, NV_PFIFO_CACHE1_DMA_PUSH) & NV_PFIFO_CACHE1_DMA_PUSH_SUSPENDED);
	assert_true(irq_pending(h));
	/* stopped: more work is not executed */
	uint32_t get = host_user(h, 0, NV40_USER_DMA_GET);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 0xdead);
	host_kick(h, 0);
	assert_int_equal(sim_run(s), 0);
	assert_int_equal(host_user(h, 0, NV40_USER_DMA_GET), get);
	assert_int_not_equal(host_ref(h, 0), 0xdead);

	host_ack_pusher(h);
	assert_int_equal(sim_rd32(s, NV_PFIFO_INTR), 0);
	assert_false(sim_rd32(s, NV_PMC_INTR));
	assert_false(sim_rd32(s, NV_PFIFO_CACHE1_DMA_PUSH) & NV_PFIFO_CACHE1_DMA_PUSH_SUSPENDED);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 0x600d);
	host_kick(h, 0);
	sim_run(s);
	assert_int_equal(host_ref(h, 0), 0x600d);
	assert_idle(h, 0);
}

static void test_error_call_while_subroutine_active(void **state)
{
	struct host *h = *state;
	host_emit_at(h, 0x80000, NV_CMD_CALL_WORD(0x90000));
	host_emit_at(h, 0x90000, NV_CMD_RETURN_WORD);
	host_emit(h, 0, NV_CMD_CALL_WORD(0x80000));
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(host_user(h, 0, NV40_USER_DMA_GET), 0x80000);
	expect_pusher_error(h, NV_DMA_ERR_CALL_SUBR_ACTIVE);
}

static void test_error_return_without_call(void **state)
{
	struct host *h = *state;
	host_emit(h, 0, NV_CMD_RETURN_WORD);
	host_kick(h, 0);
	sim_run(h->s);
	expect_pusher_error(h, NV_DMA_ERR_RET_SUBR_INACTIVE);
}

static void test_error_invalid_command(void **state)
{
	struct host *h = *state;
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 1);
	host_emit(h, 0, 0x80000000);    /* 100 in 31:29: no such command */
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(host_ref(h, 0), 1);
	expect_pusher_error(h, NV_DMA_ERR_INVALID_CMD);
}

static void test_error_invalid_command_sli_form(void **state)
{
	struct host *h = *state;
	host_emit(h, 0, 0x00010000);    /* SLI conditional: not enabled, invalid */
	host_kick(h, 0);
	sim_run(h->s);
	expect_pusher_error(h, NV_DMA_ERR_INVALID_CMD);
}

static void test_error_invalid_fifo_method(void **state)
{
	struct host *h = *state;
	/* 0x50 is REF_CNT; its INC neighbour 0x54 is no FIFO method */
	host_emit(h, 0, NV_CMD_INC_WORD(0, NV_FIFO_REF_CNT, 2));
	host_emit(h, 0, 7);
	host_emit(h, 0, 8);
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(host_ref(h, 0), 7);
	expect_pusher_error(h, NV_DMA_ERR_INVALID_MTHD);
}

static void test_error_mem_fault_past_limit(void **state)
{
	struct host *h = *state;
	/* jump past the push buffer ctxdma's limit */
	host_emit(h, 0, NV_CMD_JUMP_WORD(HOST_SYSMEM));
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(host_user(h, 0, NV40_USER_DMA_GET), HOST_SYSMEM);
	expect_pusher_error(h, NV_DMA_ERR_MEM_FAULT);
}

static void test_error_mem_fault_small_ctxdma(void **state)
{
	struct host *h = *state;
	/* a second channel whose push buffer ctxdma covers 64 words of its ring */
	uint32_t dma = 0x40100;
	host_ctxdma(h, dma, NV_CLASS_DMA_FROM_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RO,
		    0, HOST_RING(2) + 64 * 4 - 1);
	host_chan_new(h, 2, dma);
	for (unsigned i = 0; i < 63; i++)
		host_emit(h, 2, 0);
	host_mthd(h, 2, 0, NV_FIFO_REF_CNT, 9);   /* header is the last word in range */
	host_kick(h, 2);
	sim_run(h->s);
	assert_int_equal(host_user(h, 2, NV40_USER_DMA_GET), HOST_RING(2) + 64 * 4);
	assert_int_equal(NV_DMA_STATE_ERROR(sim_rd32(h->s, NV_PFIFO_CACHE1_DMA_STATE)),
			 NV_DMA_ERR_MEM_FAULT);
	assert_int_equal(NV_PFIFO_CACHE1_PUSH1_CHID(sim_rd32(h->s, NV_PFIFO_CACHE1_PUSH1)), 2);
	assert_int_equal(host_ref(h, 2), 0);
}

/* ---- interrupts ---- */

static void test_irq_fires_on_new_bits_and_after_ack_if_still_up(void **state)
{
	struct host *h = *state;
	struct sim *s = h->s;

	assert_false(irq_pending(h));
	host_mthd(h, 0, SW_SUBC, 0x150, 1);
	host_kick(h, 0);
	sim_run(s);
	assert_true(irq_pending(h));
	assert_int_equal(sim_rd32(s, NV_PMC_INTR), NV_PMC_UNIT_PFIFO);
	/* any host write to an interrupt register while the line is up fires */
	sim_wr32(s, NV_PGRAPH_INTR_EN, 0);
	sim_wr32(s, NV_PGRAPH_INTR_EN, ~0u);
	assert_true(irq_pending(h));           /* host write to INTR_EN, line still up */
	/* ack only part: still up, so the eventfd fires again */
	sim_wr32(s, NV_PFIFO_INTR, NV_PFIFO_INTR_DMA_PUSHER);
	assert_true(irq_pending(h));
	/* masked: the line drops, nothing fires */
	sim_wr32(s, NV_PMC_INTR_EN, 0);
	assert_false(irq_pending(h));
	sim_wr32(s, NV_PMC_INTR_EN, 1);
	assert_true(irq_pending(h));
	host_ack_sw(h);
	sim_run(s);
	assert_false(irq_pending(h));
	assert_int_equal(sim_rd32(s, NV_PMC_INTR), 0);
}

/* Teardown the way the daemon does it: the worker never touches the
 * channel again, and its pending work and stalled method are dropped. */
static void test_teardown_current_channel(void **state)
{
	struct host *h = *state;
	struct sim *s = h->s;

	host_mthd(h, 0, SW_SUBC, 0x150, 1);        /* stalls the puller */
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 0xdead);
	host_kick(h, 0);
	sim_run(s);
	assert_int_equal(sim_rd32(s, NV_PFIFO_INTR), NV_PFIFO_INTR_CACHE_ERROR);

	sim_wr32(s, NV_PFIFO_CACHES, 0);
	sim_wr32(s, NV_PFIFO_CACHE1_PUSH0, 0);
	sim_wr32(s, NV_PFIFO_CACHE1_PULL0, 0);
	sim_wr32(s, NV_PFIFO_MODE, sim_rd32(s, NV_PFIFO_MODE) & ~1u);
	sim_wr32(s, NV_PFIFO_CACHE1_PUSH1, NV40_FIFO_CHID_NONE | NV_PFIFO_CACHE1_PUSH1_DMA);
	for (unsigned i = 0; i < NV40_RAMFC_SIZE; i += 4)
		host_ramin_wr32(h, NV40_RAMIN_RAMFC + i, 0);
	sim_wr32(s, NV_PFIFO_CACHE1_PUSH0, 1);
	sim_wr32(s, NV_PFIFO_CACHE1_PULL0, 1);
	sim_wr32(s, NV_PFIFO_CACHES, 1);
	sim_wr32(s, NV_PFIFO_INTR, ~0u);
	if (sim_rd32(s, NV_PGRAPH_CTXCTL_CUR) == (NV_PGRAPH_CTXCTL_LOADED | HOST_GRCTX(0) >> 4))
		sim_wr32(s, NV_PGRAPH_CTXCTL_CUR, 0);

	/* another channel runs; channel 0's RAMFC stays zero */
	host_chan_new(h, 3, HOST_PB_DMA);
	host_mthd(h, 3, 0, NV_FIFO_REF_CNT, 0x33);
	host_kick(h, 3);
	sim_run(s);
	assert_int_equal(host_ref(h, 3), 0x33);
	for (unsigned i = 0; i < NV40_RAMFC_SIZE; i += 4)
		assert_int_equal(host_ramin_rd32(h, NV40_RAMIN_RAMFC + i), 0);
	assert_int_equal(sim_rd32(s, NV_PFIFO_INTR), 0);
	/* a kick on the dead channel does nothing */
	host_kick(h, 0);
	assert_int_equal(sim_run(s), 0);
	assert_int_equal(host_ref(h, 3), 0x33);
}

/* ---- the worker thread ---- */

static void test_worker_thread_runs_and_interrupts(void **state)
{
	(void)state;
	struct host h;
	struct pollfd p;

	host_new_cfg(&h, 0x40, 0);
	host_chan_new(&h, 0, HOST_PB_DMA);
	host_mthd(&h, 0, SW_SUBC, NV_FIFO_OBJECT, HOST_SW_HANDLE);
	for (uint32_t seq = 1; seq <= 200; seq++) {
		/* a fence the way the daemon ends a submission */
		host_mthd(&h, 0, 0, NV_FIFO_REF_CNT, seq);
		host_mthd(&h, 0, SW_SUBC, 0x150, seq);
		host_kick(&h, 0);
		p.fd = sim_irq_fd(h.s);
		p.events = POLLIN;
		assert_int_equal(poll(&p, 1, 5000), 1);
		uint64_t n;
		assert_int_equal(read(p.fd, &n, sizeof(n)), sizeof(n));
		assert_int_equal(sim_rd32(h.s, NV_PMC_INTR), NV_PMC_UNIT_PFIFO);
		assert_int_equal(host_cache1_data(&h), seq);
		assert_int_equal(host_ref(&h, 0), seq);
		host_ack_sw(&h);
	}
	/* and plain work completes without anyone calling sim_run */
	host_mthd(&h, 0, 0, NV_FIFO_REF_CNT, 0x4242);
	host_kick(&h, 0);
	for (int i = 0; i < 5000 && host_ref(&h, 0) != 0x4242; i++)
		usleep(1000);
	assert_int_equal(host_ref(&h, 0), 0x4242);
	assert_int_equal(host_user(&h, 0, NV40_USER_DMA_GET), h.put[0]);
	host_free(&h);
}

static void test_identity_registers(void **state)
{
	struct host *h = *state;
	assert_int_equal(sim_rd32(h->s, NV_PMC_BOOT_0), 0x043000a1);
	assert_int_equal(sim_rd32(h->s, NV_PFB_CSTATUS), HOST_VRAM);
	/* NV43: three vertex units */
	assert_int_equal((sim_rd32(h->s, NV_PBUS_UNITS) >> 8) & 0xff, 0x7);
	/* store-and-return for the rest */
	sim_wr32(h->s, NV_PFB_CFG0, 0x1234);
	sim_wr32(h->s, NV_PGRAPH_DEBUG_0, 0x5678);
	assert_int_equal(sim_rd32(h->s, NV_PFB_CFG0), 0x1234);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_DEBUG_0), 0x5678);
	/* PTIMER: LO latches HI; time moves forward */
	uint32_t lo1 = sim_rd32(h->s, NV_PTIMER_TIME_LO);
	uint32_t hi1 = sim_rd32(h->s, NV_PTIMER_TIME_HI);
	usleep(2000);
	uint32_t lo2 = sim_rd32(h->s, NV_PTIMER_TIME_LO);
	uint32_t hi2 = sim_rd32(h->s, NV_PTIMER_TIME_HI);
	uint64_t t1 = (uint64_t)hi1 << 32 | lo1, t2 = (uint64_t)hi2 << 32 | lo2;
	assert_true(t2 > t1 + 1000000);
	assert_true(t2 < t1 + 1000000000);
	/* the kernel sets the time by HI then LO */
	sim_wr32(h->s, NV_PTIMER_TIME_HI, 5);
	sim_wr32(h->s, NV_PTIMER_TIME_LO, 0);
	sim_rd32(h->s, NV_PTIMER_TIME_LO);
	assert_int_equal(sim_rd32(h->s, NV_PTIMER_TIME_HI), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, host_teardown)
		T(test_inc_packet_increments_method),
		T(test_noninc_packet_repeats_method),
		T(test_count0_packet_is_noop),
		T(test_old_jump_and_jump),
		T(test_call_and_return),
		T(test_packet_spans_kicks),
		T(test_error_call_while_subroutine_active),
		T(test_error_return_without_call),
		T(test_error_invalid_command),
		T(test_error_invalid_command_sli_form),
		T(test_error_invalid_fifo_method),
		T(test_error_mem_fault_past_limit),
		T(test_error_mem_fault_small_ctxdma),
		T(test_irq_fires_on_new_bits_and_after_ack_if_still_up),
		T(test_teardown_current_channel),
		T(test_identity_registers),
		cmocka_unit_test(test_worker_thread_runs_and_interrupts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
