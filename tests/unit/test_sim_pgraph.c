/* PGRAPH core: illegal-method traps, notifiers, fresh and dropped contexts,
 * the user save/load transfer, FIFO access gating, and the engine hook
 * dispatch (an M2MF copy pushed through the FIFO). */
#include "sim-host.h"

#define SUBC_M2MF 3
#define SUBC_SURF 2
#define H_M2MF    0xbeef3901u
#define H_SURF    0xbeef6201u
#define H_NTFY    0xbeef1e00u
#define H_SYS     0xbeef0202u
#define H_VRAM    0xbeef0201u
#define NTFY_DMA  0x40300u
#define NTFY_AT   0x310000u
#define OBJ_M2MF  HOST_OBJ(1)
#define OBJ_SURF  HOST_OBJ(2)
#define OBJ_CURIE HOST_OBJ(3)

static int setup(void **state)
{
	struct host *h = calloc(1, sizeof(*h));
	host_new(h);
	host_grobj(h, OBJ_M2MF, NV_CLASS_M2MF);
	host_grobj(h, OBJ_SURF, NV_CLASS_SURF2D);
	host_ctxdma(h, NTFY_DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RW,
		    NTFY_AT, 0xfff);
	for (unsigned c = 0; c < 2; c++) {
		host_chan_new(h, c, HOST_PB_DMA);
		host_ramht_add(h, H_M2MF, c, NV_ENGINE_GR, OBJ_M2MF);
		host_ramht_add(h, H_SURF, c, NV_ENGINE_GR, OBJ_SURF);
		host_ramht_add(h, H_NTFY, c, NV_ENGINE_SW, NTFY_DMA);
		host_ramht_add(h, H_SYS, c, NV_ENGINE_SW, HOST_SYS_DMA);
		host_ramht_add(h, H_VRAM, c, NV_ENGINE_SW, HOST_VRAM_DMA);
		host_mthd(h, c, SUBC_M2MF, NV_FIFO_OBJECT, H_M2MF);
		host_mthd(h, c, SUBC_SURF, NV_FIFO_OBJECT, H_SURF);
	}
	*state = h;
	return 0;
}


static void run(struct host *h, unsigned chid)
{
	host_kick(h, chid);
	sim_run(h->s);
}

static void test_illegal_method_traps_without_stalling(void **state)
{
	struct host *h = *state;
	struct sim *s = h->s;

	host_mthd(h, 0, SUBC_SURF, 0x0200, 0xabcd);      /* no such SURF2D method */
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 1);
	run(h, 0);
	assert_int_equal(sim_rd32(s, NV_PGRAPH_INTR), NV_PGRAPH_INTR_ERROR);
	assert_int_equal(sim_rd32(s, NV_PGRAPH_NSOURCE), NV_PGRAPH_NSOURCE_ILLEGAL_MTHD);
	assert_int_equal(sim_rd32(s, NV_PGRAPH_TRAPPED_ADDR), 0 << 20 | SUBC_SURF << 13 | 0x200);
	assert_int_equal(sim_rd32(s, NV_PGRAPH_TRAPPED_DATA), 0xabcd);
	assert_int_equal(sim_rd32(s, NV_PMC_INTR), NV_PMC_UNIT_PGRAPH);
	assert_int_equal(host_ref(h, 0), 1);              /* carried on */
	sim_wr32(s, NV_PGRAPH_INTR, NV_PGRAPH_INTR_ERROR);
	assert_int_equal(sim_rd32(s, NV_PMC_INTR), 0);

	/* a subchannel PGRAPH owns with nothing bound there (its context lost
	 * the binding): channel 1, subchannel 5 */
	host_mthd(h, 1, 5, NV_FIFO_OBJECT, H_SURF);
	run(h, 1);
	sim_wr32(s, NV_PGRAPH_CTXCTL_CUR, 0);              /* drop: fresh context */
	host_ramin_wr32(h, HOST_GRCTX(1) + 0x20, 0);       /* and no saved one */
	host_mthd(h, 1, 5, NV_SURF2D_FORMAT, 0x77);
	run(h, 1);
	assert_int_equal(sim_rd32(s, NV_PGRAPH_INTR), NV_PGRAPH_INTR_ERROR);
	assert_int_equal(sim_rd32(s, NV_PGRAPH_TRAPPED_ADDR), 1u << 20 | 5 << 13 | NV_SURF2D_FORMAT);
}

static void test_class_without_table_traps(void **state)
{
	struct host *h = *state;
	host_grobj(h, OBJ_CURIE, 0x1234);                 /* a class nobody knows */
	host_ramht_add(h, 0xbeef9999, 0, NV_ENGINE_GR, OBJ_CURIE);
	host_mthd(h, 0, 6, NV_FIFO_OBJECT, 0xbeef9999);
	host_mthd(h, 0, 6, 0x100, 0);
	run(h, 0);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_INTR), NV_PGRAPH_INTR_ERROR);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_NSOURCE), NV_PGRAPH_NSOURCE_ILLEGAL_MTHD);
}

static void test_notify_then_nop_writes_notifier_and_awakens(void **state)
{
	struct host *h = *state;
	uint8_t *n = h->sysmem + NTFY_AT;

	memset(n, 0xff, 16);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_NOTIFY, H_NTFY);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_NOTIFY, 1);
	run(h, 0);
	assert_int_equal(nv_rd32le(n + 12), 0xffffffff);  /* armed, not yet written */
	sim_rd32(h->s, NV_PTIMER_TIME_LO);
	uint64_t before = sim_rd32(h->s, NV_PTIMER_TIME_HI);
	before = before << 32 | 0;
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_NOP, 0);
	run(h, 0);
	uint64_t t = (uint64_t)nv_rd32le(n + 4) << 32 | nv_rd32le(n);
	assert_true(t >= before && t != 0xffffffffffffffffull);
	assert_int_equal(nv_rd32le(n + 8), 0);
	assert_int_equal(nv_rd32le(n + 12), 0);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_INTR), NV_PGRAPH_INTR_NOTIFY);
	assert_int_equal(sim_rd32(h->s, NV_PMC_INTR), NV_PMC_UNIT_PGRAPH);
	sim_wr32(h->s, NV_PGRAPH_INTR, NV_PGRAPH_INTR_NOTIFY);

	/* NOTIFY 0: written, no interrupt; only once */
	memset(n, 0xff, 16);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_NOTIFY, 0);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_NOP, 0);
	run(h, 0);
	assert_int_equal(nv_rd32le(n + 12), 0);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_INTR), 0);
	memset(n, 0xff, 16);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_NOP, 0);
	run(h, 0);
	assert_int_equal(nv_rd32le(n + 12), 0xffffffff);
}

static void test_notifier_without_ctxdma_traps(void **state)
{
	struct host *h = *state;
	host_mthd(h, 0, SUBC_SURF, NV_SURF2D_NOTIFY, 0);
	host_mthd(h, 0, SUBC_SURF, NV_SURF2D_NOP, 0);
	run(h, 0);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_INTR), NV_PGRAPH_INTR_ERROR);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_NSOURCE), NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
}

/* The engine hook runs with the stored state: an M2MF copy, sysmem to
 * VRAM, two lines with pitches, then its notifier. */
static void test_m2mf_copy_through_the_fifo(void **state)
{
	struct host *h = *state;
	uint8_t *src = h->sysmem + 0x200000, *dst = sim_vram(h->s) + 0x10000;
	uint8_t *n = h->sysmem + NTFY_AT;

	for (int i = 0; i < 64; i++)
		src[i] = (uint8_t)(i * 7 + 1);
	memset(n, 0xff, 16);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_NOTIFY, H_NTFY);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, H_SYS);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_DMA_BUFFER_OUT, H_VRAM);
	host_emit(h, 0, NV_CMD_INC_WORD(SUBC_M2MF, NV_M2MF_OFFSET_IN, 8));
	host_emit(h, 0, 0x200000);      /* OFFSET_IN */
	host_emit(h, 0, 0x10000);       /* OFFSET_OUT */
	host_emit(h, 0, 32);            /* PITCH_IN */
	host_emit(h, 0, 16);            /* PITCH_OUT */
	host_emit(h, 0, 8);             /* LINE_LENGTH_IN */
	host_emit(h, 0, 2);             /* LINE_COUNT */
	host_emit(h, 0, 0x101);         /* FORMAT */
	host_emit(h, 0, 0);             /* BUF_NOTIFY: go */
	run(h, 0);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_INTR), 0);
	assert_memory_equal(dst, src, 8);
	assert_memory_equal(dst + 16, src + 32, 8);
	assert_int_equal(dst[8], 0);
	/* with NOTIFY armed, BUF_NOTIFY completes the notifier */
	assert_int_equal(nv_rd32le(n + 12), 0xffffffff);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_NOTIFY, 0);
	host_mthd(h, 0, SUBC_M2MF, NV_M2MF_BUF_NOTIFY, 0);
	run(h, 0);
	assert_int_equal(nv_rd32le(n + 12), 0);
}

/* A fresh image (no magic) loads power-on defaults, whatever garbage it
 * holds; the host's word 0 is never touched. */
static void test_fresh_grctx_loads_defaults(void **state)
{
	struct host *h = *state;
	uint32_t img = HOST_GRCTX(0);

	for (uint32_t i = 0x24; i < 0x4000; i += 4)
		host_ramin_wr32(h, img + i, 0xdeadbeef);
	run(h, 0);                   /* binds M2MF on 3, SURF2D on 2 */
	host_gr_save(h, img);
	assert_int_equal(host_ramin_rd32(h, img), img >> 4);
	assert_int_equal(HOST_GR_WORD(h, img, magic), SIM_GRCTX_MAGIC);
	assert_int_equal(HOST_GR_WORD(h, img, version), SIM_GRCTX_VERSION);
	assert_int_equal(HOST_GR_WORD(h, img, subc_class[0]), 0);
	assert_int_equal(HOST_GR_WORD(h, img, subc_class[SUBC_M2MF]), NV_CLASS_M2MF);
	assert_int_equal(HOST_GR_WORD(h, img, surf2d[NV_SURF2D_PITCH__SLOT]), 0);
	assert_int_equal(HOST_GR_WORD(h, img, m2mf[NV_M2MF_OFFSET_IN__SLOT]), 0);
	assert_int_equal(HOST_GR_WORD(h, img, notify_pending), 0);
}

/* CTXCTL_CUR = 0 drops the loaded context without saving it: the next
 * method reloads the last saved image. */
static void test_drop_context_without_save(void **state)
{
	struct host *h = *state;
	uint32_t img = HOST_GRCTX(0);

	host_mthd(h, 0, SUBC_SURF, NV_SURF2D_PITCH, 0x111);
	run(h, 0);
	host_mthd(h, 1, SUBC_SURF, NV_SURF2D_PITCH, 0x999);
	run(h, 1);                   /* switch: channel 0's context saved */
	assert_int_equal(HOST_GR_WORD(h, img, surf2d[NV_SURF2D_PITCH__SLOT]), 0x111);
	host_mthd(h, 0, SUBC_SURF, NV_SURF2D_PITCH, 0x222);
	run(h, 0);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_CTXCTL_CUR), NV_PGRAPH_CTXCTL_LOADED | img >> 4);
	sim_wr32(h->s, NV_PGRAPH_CTXCTL_CUR, 0);
	host_mthd(h, 0, SUBC_SURF, NV_SURF2D_FORMAT, 0xa);
	run(h, 0);
	host_gr_save(h, img);
	assert_int_equal(HOST_GR_WORD(h, img, surf2d[NV_SURF2D_PITCH__SLOT]), 0x111);
	assert_int_equal(HOST_GR_WORD(h, img, surf2d[NV_SURF2D_FORMAT__SLOT]), 0xa);
	/* channel 1's state was saved when channel 0 came back */
	assert_int_equal(HOST_GR_WORD(h, HOST_GRCTX(1), surf2d[NV_SURF2D_PITCH__SLOT]), 0x999);
}

static void test_user_load_transfer(void **state)
{
	struct host *h = *state;
	uint32_t img = HOST_GRCTX(1);

	host_mthd(h, 1, SUBC_SURF, NV_SURF2D_PITCH, 0x4444);
	run(h, 1);
	host_gr_save(h, img);
	sim_wr32(h->s, NV_PGRAPH_CTXCTL_CUR, 0);
	sim_wr32(h->s, NV_PGRAPH_CTXCTL_USER_INST, img >> 4);
	sim_wr32(h->s, NV_PGRAPH_CTXCTL_CMD, NV_PGRAPH_CTXCTL_CMD_LOAD);
	sim_wr32(h->s, NV_PGRAPH_CTXCTL_XFER, 1);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_CTXCTL_BUSY), 0);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_CTXCTL_CUR), NV_PGRAPH_CTXCTL_LOADED | img >> 4);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_CTXCTL_CMD), 0);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_STATUS), 0);
}

/* PGRAPH FIFO access off: PGRAPH methods wait in CACHE1 (no interrupt);
 * FIFO methods before them have run. */
static void test_pgraph_fifo_access_gates_methods(void **state)
{
	struct host *h = *state;
	run(h, 0);
	sim_wr32(h->s, NV_PGRAPH_FIFO, 0);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 1);
	host_mthd(h, 0, SUBC_SURF, NV_SURF2D_PITCH, 0x55);
	host_mthd(h, 0, 0, NV_FIFO_REF_CNT, 2);
	run(h, 0);
	assert_int_equal(host_ref(h, 0), 1);
	assert_int_equal(sim_rd32(h->s, NV_PFIFO_INTR), 0);
	assert_int_equal(host_cache1_mthd(h), SUBC_SURF << 13 | NV_SURF2D_PITCH);
	sim_wr32(h->s, NV_PGRAPH_FIFO, 1);
	sim_run(h->s);
	assert_int_equal(host_ref(h, 0), 2);
	host_gr_save(h, HOST_GRCTX(0));
	assert_int_equal(HOST_GR_WORD(h, HOST_GRCTX(0), surf2d[NV_SURF2D_PITCH__SLOT]), 0x55);
}

static void test_ctxprog_upload_reads_back(void **state)
{
	struct host *h = *state;
	sim_wr32(h->s, NV_PGRAPH_CTXCTL_UCODE_INDEX, 0);
	for (uint32_t i = 0; i < 10; i++)
		sim_wr32(h->s, NV_PGRAPH_CTXCTL_UCODE_DATA, 0x00400000 | i);
	sim_wr32(h->s, NV_PGRAPH_CTXCTL_UCODE_INDEX, 3);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_CTXCTL_UCODE_DATA), 0x00400003);
	assert_int_equal(sim_rd32(h->s, NV_PGRAPH_CTXCTL_UCODE_DATA), 0x00400004);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, host_teardown)
		T(test_illegal_method_traps_without_stalling),
		T(test_class_without_table_traps),
		T(test_notify_then_nop_writes_notifier_and_awakens),
		T(test_notifier_without_ctxdma_traps),
		T(test_m2mf_copy_through_the_fifo),
		T(test_fresh_grctx_loads_defaults),
		T(test_drop_context_without_save),
		T(test_user_load_transfer),
		T(test_pgraph_fifo_access_gates_methods),
		T(test_ctxprog_upload_reads_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
