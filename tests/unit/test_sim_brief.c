/* A DMA_PUT written while the card is idle runs the channel on the writing
 * thread (sim_wr32): state methods and software methods complete within
 * the write, so a small submission costs no wake-up of the worker, while a
 * method that touches memory, and whatever exceeds a few dozen words, are
 * the worker's.  The interrupt hook, which runs on the thread that raised
 * the line, tells which thread ran a submission's closing software method. */
#include <pthread.h>
#include <unistd.h>

#include "sim-host.h"

#define SW_SUBC   1
#define M2MF_SUBC 2
#define H_M2MF    0xbeef3901u
#define H_SYS     0xbeef0202u
#define H_VRAM    0xbeef0201u
#define OBJ_M2MF  HOST_OBJ(1)

/* What the hook saw last: written under the model's lock, n last. */
struct seen {
	pthread_t thread;
	uint32_t data;
	unsigned n;
};

static struct seen seen;

/* The daemon's hook in short: take the software method and ack it. */
static int hook(void *arg, struct sim *s, uint32_t fresh)
{
	struct seen *w = arg;
	if (!(fresh & NV_PFIFO_INTR_CACHE_ERROR))
		return 0;
	uint32_t get = sim_rd32_locked(s, NV_PFIFO_CACHE1_GET);
	w->data = sim_rd32_locked(s, NV_PFIFO_CACHE1_DATA((get & NV_PFIFO_CACHE1_PTR_MASK) >> 2));
	w->thread = pthread_self();
	__atomic_add_fetch(&w->n, 1, __ATOMIC_RELEASE);
	sim_wr32_locked(s, NV_PFIFO_INTR, NV_PFIFO_INTR_CACHE_ERROR);
	sim_wr32_locked(s, NV_PFIFO_CACHE1_GET, get + 4);
	sim_wr32_locked(s, NV_PFIFO_CACHE1_PULL0, NV_PULL0_ACCESS);
	return 1;
}

static unsigned seen_n(void)
{
	return __atomic_load_n(&seen.n, __ATOMIC_ACQUIRE);
}

/* Submission n's end: a software method with data n. */
static void fence(struct host *h, unsigned n)
{
	host_mthd(h, 0, SW_SUBC, 0x150, n);
	host_kick(h, 0);
}

/* Whether the hook saw n, waiting up to 5 s; and whether on this thread. */
static int fence_seen(unsigned n, int *here)
{
	for (int i = 0; i < 5000 && seen_n() < n; i++)
		usleep(1000);
	if (seen_n() < n)
		return 0;
	assert_int_equal(seen.data, n);
	*here = pthread_equal(seen.thread, pthread_self());
	return 1;
}

/* Once the worker is out of work it sleeps, and a submission that ends
 * within the write leaves it asleep: fences until one does. */
static void settle(struct host *h)
{
	int here = 0;
	for (int i = 0; i < 1000 && !here; i++) {
		usleep(1000);
		unsigned n = seen_n() + 1;
		fence(h, n);
		assert_true(fence_seen(n, &here));
	}
	assert_true(here);
}

static int setup(void **state)
{
	struct host *h = calloc(1, sizeof(*h));
	memset(&seen, 0, sizeof(seen));
	host_new_config(h, (struct sim_config){ .chipset = 0x43, .irq_hook = hook,
						.irq_arg = &seen });
	host_grobj(h, OBJ_M2MF, NV_CLASS_M2MF);
	host_chan_new(h, 0, HOST_PB_DMA);
	host_ramht_add(h, H_M2MF, 0, NV_ENGINE_GR, OBJ_M2MF);
	host_ramht_add(h, H_SYS, 0, NV_ENGINE_SW, HOST_SYS_DMA);
	host_ramht_add(h, H_VRAM, 0, NV_ENGINE_SW, HOST_VRAM_DMA);
	host_mthd(h, 0, SW_SUBC, NV_FIFO_OBJECT, HOST_SW_HANDLE);
	host_mthd(h, 0, M2MF_SUBC, NV_FIFO_OBJECT, H_M2MF);
	settle(h);
	*state = h;
	return 0;
}

/* State for an M2MF copy of 4 bytes, sysmem 0x200000 to VRAM 0x10000,
 * short of the method that starts it. */
static void copy_state(struct host *h)
{
	host_mthd(h, 0, M2MF_SUBC, NV_M2MF_DMA_BUFFER_IN, H_SYS);
	host_mthd(h, 0, M2MF_SUBC, NV_M2MF_DMA_BUFFER_OUT, H_VRAM);
	host_emit(h, 0, NV_CMD_INC_WORD(M2MF_SUBC, NV_M2MF_OFFSET_IN, 7));
	host_emit(h, 0, 0x200000);      /* OFFSET_IN */
	host_emit(h, 0, 0x10000);       /* OFFSET_OUT */
	host_emit(h, 0, 4);             /* PITCH_IN */
	host_emit(h, 0, 4);             /* PITCH_OUT */
	host_emit(h, 0, 4);             /* LINE_LENGTH_IN */
	host_emit(h, 0, 1);             /* LINE_COUNT */
	host_emit(h, 0, 0x101);         /* FORMAT */
}

static void test_state_and_fences_run_within_the_write(void **state)
{
	struct host *h = *state;
	for (unsigned i = 0; i < 100; i++) {
		unsigned n = seen_n() + 1;
		copy_state(h);
		host_mthd(h, 0, M2MF_SUBC, NV_M2MF_NOP, 0);
		host_mthd(h, 0, 0, NV_FIFO_REF_CNT, n);
		fence(h, n);
		/* no waiting: done when the write returns, on this thread */
		assert_int_equal(seen_n(), n);
		assert_true(pthread_equal(seen.thread, pthread_self()));
		assert_int_equal(host_ref(h, 0), n);
	}
}

static void test_a_copy_is_the_workers(void **state)
{
	struct host *h = *state;
	uint8_t *src = h->sysmem + 0x200000, *dst = sim_vram(h->s) + 0x10000;
	int here = 1;

	for (int i = 0; i < 4; i++)
		src[i] = (uint8_t)(0x5a + i);
	unsigned n = seen_n() + 1;
	copy_state(h);
	host_mthd(h, 0, M2MF_SUBC, NV_M2MF_BUF_NOTIFY, 0);
	fence(h, n);
	assert_true(fence_seen(n, &here));
	assert_false(here);
	assert_memory_equal(dst, src, 4);
	/* and the worker, out of work again, leaves small ones to the writer */
	settle(h);
}

static void test_the_writer_runs_a_bounded_number_of_words(void **state)
{
	struct host *h = *state;
	int here = 1;

	unsigned n = seen_n() + 1;
	host_emit(h, 0, NV_CMD_NONINC_WORD(M2MF_SUBC, NV_M2MF_NOP, 200));
	for (int i = 0; i < 200; i++)
		host_emit(h, 0, 0);
	fence(h, n);
	assert_true(fence_seen(n, &here));
	assert_false(here);
	settle(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, host_teardown)
		T(test_state_and_fences_run_within_the_write),
		T(test_a_copy_is_the_workers),
		T(test_the_writer_runs_a_bounded_number_of_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
