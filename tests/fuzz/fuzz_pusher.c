/* libFuzzer target: the simulator's DMA pusher (sim/pfifo.c push()) on
 * random command streams, against a reference model of the grammar.
 *
 * Each input makes a fresh simulated card in manual mode with one channel
 * (tests/unit/sim-host.h, as the pusher's unit tests do) whose push buffer
 * ctxdma is linear or paged (pages of system memory in any order, some
 * absent), with a limit of the input's choosing.  The stream is built from
 * the input with hw/pushbuf.h's word macros: method headers (FIFO methods
 * most of the time, counts small most of the time) and their data, JUMP,
 * OLD_JUMP, CALL and RETURN to targets mostly inside the stream, semaphore
 * sequences, object binds, invalid and raw words.
 *
 * The target is the host: it runs the pusher in chunks (sim_pfifo_work,
 * as sim_run does, but with a word budget of its own), skips the methods
 * that trap to software (CACHE_ERROR) or fault a semaphore, and releases a
 * semaphore a channel waits on.  Oracles, besides the sanitizers:
 *  - no chunk reads more words than it was allowed, CACHE1 holds at most
 *    the one method the puller stalled on;
 *  - a reference pusher (ref_step below: GET, the packet, the subroutine,
 *    the errors of envytools' dma-pusher.rst) reads the same number of
 *    words: a program that ends (PUT reached or a pusher error) must end
 *    after exactly as many words in the simulator, with the same GET,
 *    packet state, subroutine state and error; a program that loops must
 *    still run, in the same state, when the budget stops it.  Reading a
 *    word more than the reference is a runaway. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim-host.h"
#include "tests/fuzz/fuzz.h"

#define PB_DMA      0x40100u         /* the push buffer's ctxdma (RAMIN) */
#define PB_PHYS     0x10000u         /* its pages in system memory */
#define PB_PAGES    16u
#define SEM_HANDLE  0x5e3a0001u      /* HOST_SYS_DMA: semaphores in sysmem [0, 4K) */
#define VRAM_HANDLE 0x5e3a0002u      /* HOST_VRAM_DMA */
#define MAX_WORDS   2048u
#define BUDGET      16384ul          /* words before a looping program is stopped */
#define CHUNK       256u

/* The push buffer as the card sees it through its ctxdma. */
struct pb {
	int paged;
	uint32_t limit;
	uint32_t pte[PB_PAGES];   /* paged: physical page | NV_DMA_PTE_* */
	uint8_t *sysmem;
};

/* The word at address a, or -1 when the ctxdma does not give it. */
static int64_t pb_word(const struct pb *pb, uint32_t a)
{
	if (a > pb->limit || pb->limit - a < 3)
		return -1;
	uint64_t phys;
	if (pb->paged) {
		if (a >> 12 >= PB_PAGES || !(pb->pte[a >> 12] & NV_DMA_PTE_PRESENT))
			return -1;
		phys = (pb->pte[a >> 12] & ~0xfffu) | (a & 0xfff);
	} else {
		phys = PB_PHYS + (uint64_t)a;
	}
	if (phys + 4 > HOST_SYSMEM)
		return -1;
	return nv_rd32le(pb->sysmem + phys);
}

static void pb_put(struct pb *pb, uint32_t a, uint32_t w)
{
	uint64_t phys = pb->paged ? (pb->pte[a >> 12] & ~0xfffu) | (a & 0xfff) : PB_PHYS + (uint64_t)a;
	nv_wr32le(pb->sysmem + phys, w);
}

/* ---- the reference pusher ---- */

struct ref {
	uint32_t get, put;
	uint32_t mthd;
	unsigned subc, count;
	int ni, subr;
	uint32_t subr_ret;
	unsigned error;           /* NV_DMA_ERR_*, 0 while running */
};

/* One word: 1 when it was read, 0 when the pusher stops (idle or error). */
static int ref_step(struct ref *r, const struct pb *pb)
{
	if (r->error || r->get == r->put)
		return 0;
	int64_t w = pb_word(pb, r->get);
	if (w < 0) {
		r->error = NV_DMA_ERR_MEM_FAULT;
		return 0;
	}
	if (r->count) {
		if (r->mthd < NV_MTHD_FIFO_END && !nv_mthd_find(nv_fifo_desc(), r->mthd, NULL)) {
			r->error = NV_DMA_ERR_INVALID_MTHD;
			return 0;
		}
		r->get += 4;
		r->count--;
		if (!r->ni)
			r->mthd = (r->mthd + 4) & 0x1ffc;
		return 1;
	}
	struct nv_cmd c = nv_cmd_decode((uint32_t)w);
	switch (c.type) {
	case NV_CMD_INC:
	case NV_CMD_NONINC:
		r->get += 4;
		r->mthd = c.mthd;
		r->subc = c.subc;
		r->count = c.count;
		r->ni = c.type == NV_CMD_NONINC;
		return 1;
	case NV_CMD_OLD_JUMP:
	case NV_CMD_JUMP:
		r->get = c.target;
		return 1;
	case NV_CMD_CALL:
		if (r->subr) {
			r->error = NV_DMA_ERR_CALL_SUBR_ACTIVE;
			return 0;
		}
		r->subr = 1;
		r->subr_ret = r->get + 4;
		r->get = c.target;
		return 1;
	case NV_CMD_RETURN:
		if (!r->subr) {
			r->error = NV_DMA_ERR_RET_SUBR_INACTIVE;
			return 0;
		}
		r->subr = 0;
		r->get = r->subr_ret;
		return 1;
	case NV_CMD_INVALID:
		break;
	}
	r->error = NV_DMA_ERR_INVALID_CMD;
	return 0;
}

/* ---- the stream ---- */

static const uint32_t fifo_mthds[] = {
	NV_FIFO_OBJECT, NV_FIFO_REF_CNT, NV_FIFO_DMA_SEMAPHORE, NV_FIFO_SEMAPHORE_OFFSET,
	NV_FIFO_SEMAPHORE_ACQUIRE, NV_FIFO_SEMAPHORE_RELEASE, NV_FIFO_YIELD,
};
#define NFIFO (sizeof(fifo_mthds) / sizeof(fifo_mthds[0]))

static uint32_t pick_handle(struct fuzz_input *in)
{
	uint8_t b = fuzz_u8(in);
	switch (b % 4) {
	case 0: return HOST_SW_HANDLE;
	case 1: return SEM_HANDLE;
	case 2: return VRAM_HANDLE;
	}
	return fuzz_u32(in);
}

static uint32_t pick_mthd(struct fuzz_input *in)
{
	uint8_t b = fuzz_u8(in);
	if (b < 0xa0)
		return fifo_mthds[b % NFIFO];
	if (b < 0xe0)
		return 0x100 + 4 * (fuzz_u8(in) % 64);
	return fuzz_u32(in) & 0x1ffc;
}

static unsigned pick_count(struct fuzz_input *in)
{
	uint8_t b = fuzz_u8(in);
	return b < 0xf0 ? b % 5 : (b & 0xf) << 7 | fuzz_u8(in) % 128;
}

/* A jump target: a word of the stream (or just past it) most of the time. */
static uint32_t pick_target(struct fuzz_input *in)
{
	uint8_t b = fuzz_u8(in);
	if (b < 0xf0)
		return 4 * ((b | (uint32_t)fuzz_u8(in) << 8) % (MAX_WORDS + 8));
	return fuzz_u32(in);
}

struct stream {
	uint32_t w[MAX_WORDS + NV_CMD_MAX_COUNT + 8];
	unsigned n;
};

static void emit(struct stream *s, uint32_t w)
{
	if (s->n < MAX_WORDS)
		s->w[s->n++] = w;
}

static void build(struct fuzz_input *in, struct stream *s)
{
	while (in->n && s->n < MAX_WORDS) {
		uint8_t op = fuzz_u8(in);
		unsigned subc = op >> 5;
		switch (op % 16) {
		case 0: case 1: case 2: case 3: case 4: case 5: {
			uint32_t m = pick_mthd(in);
			unsigned count = pick_count(in);
			int ni = op % 16 == 5;
			emit(s, ni ? NV_CMD_NONINC_WORD(subc, m, count) : NV_CMD_INC_WORD(subc, m, count));
			for (unsigned i = 0; i < count; i++) {
				uint32_t mi = ni ? m : (m + 4 * i) & 0x1ffc;
				/* handle methods get handles, the offset a valid one mostly */
				if (mi == NV_FIFO_OBJECT || mi == NV_FIFO_DMA_SEMAPHORE)
					emit(s, pick_handle(in));
				else if (mi == NV_FIFO_SEMAPHORE_OFFSET)
					emit(s, fuzz_u8(in) < 0xf0 ? 4u * (fuzz_u8(in) % 8) : fuzz_u32(in));
				else
					emit(s, fuzz_u8(in) < 0xc0 ? fuzz_u8(in) % 4 : fuzz_u32(in));
			}
			break;
		}
		case 6: emit(s, NV_CMD_JUMP_WORD(pick_target(in))); break;
		case 7: emit(s, NV_CMD_OLD_JUMP_WORD(pick_target(in))); break;
		case 8: emit(s, NV_CMD_CALL_WORD(pick_target(in))); break;
		case 9: emit(s, NV_CMD_RETURN_WORD); break;
		case 10: emit(s, 0x80000000u | fuzz_u32(in)); break;      /* no such command */
		case 11: emit(s, fuzz_u32(in)); break;
		case 12:
			/* a semaphore: its ctxdma, offset, then acquire or release */
			emit(s, NV_CMD_INC_WORD(subc, NV_FIFO_DMA_SEMAPHORE, 2));
			emit(s, pick_handle(in));
			emit(s, 4u * (fuzz_u8(in) % 8));
			emit(s, NV_CMD_INC_WORD(subc, fuzz_u8(in) & 1 ? NV_FIFO_SEMAPHORE_ACQUIRE
								      : NV_FIFO_SEMAPHORE_RELEASE, 1));
			emit(s, fuzz_u8(in) % 4);
			break;
		case 13:
			emit(s, NV_CMD_INC_WORD(subc, NV_FIFO_OBJECT, 1));
			emit(s, pick_handle(in));
			break;
		case 14:
			emit(s, NV_CMD_INC_WORD(subc, NV_FIFO_REF_CNT, 1));
			emit(s, fuzz_u32(in));
			break;
		case 15:
			emit(s, 0);
			break;
		}
	}
}

/* ---- the host ---- */

/* A method the puller stalled on (a software method, an object or
 * semaphore it could not use): skipped, as nouveau's handlers do. */
static void skip_method(struct sim *s, uint32_t intr)
{
	sim_wr32(s, NV_PFIFO_CACHE1_GET, sim_rd32(s, NV_PFIFO_CACHE1_GET) + 4);
	sim_wr32(s, NV_PFIFO_INTR, intr);
	sim_wr32(s, NV_PFIFO_CACHE1_PULL0, NV_PULL0_ACCESS);
}

/* Another channel releases the semaphore this one waits on. */
static int release_semaphore(struct host *h)
{
	uint32_t sem = sim_rd32(h->s, NV_PFIFO_CACHE1_SEMAPHORE);
	uint32_t inst = sem >> 12 << 4, off = sem & 0xffc;
	uint8_t *p;
	if (!(sem & 2))
		return 0;
	if (inst == HOST_SYS_DMA)
		p = h->sysmem + off;
	else if (inst == HOST_VRAM_DMA)
		p = sim_vram(h->s) + off;
	else
		fuzz_finding("channel waits on a semaphore in ctxdma 0x%x, which has none", inst);
	nv_wr32le(p, sim_rd32(h->s, NV_PFIFO_CACHE1_ACQUIRE_VALUE));
	return 1;
}

static void check_cache1(struct sim *s)
{
	uint32_t held = (sim_rd32(s, NV_PFIFO_CACHE1_PUT) - sim_rd32(s, NV_PFIFO_CACHE1_GET)) &
			NV_PFIFO_CACHE1_PTR_MASK;
	if (held > 4)
		fuzz_finding("CACHE1 holds %u methods", held / 4);
}

/* Run the channel until it is idle, stopped by an error, or has read
 * BUDGET words.  Returns the words read. */
static unsigned long run(struct host *h)
{
	struct sim *s = h->s;
	unsigned long words = 0;
	for (unsigned rounds = 0; words < BUDGET; rounds++) {
		if (rounds > 4 * BUDGET)
			fuzz_finding("the pusher makes no progress after %u host rounds", rounds);
		unsigned long before = words;
		unsigned budget = BUDGET - words < CHUNK ? (unsigned)(BUDGET - words) : CHUNK;
		pthread_mutex_lock(&s->lock);
		int progress = sim_pfifo_work(s, budget, &words);
		sim_irq_update(s, 0);
		pthread_mutex_unlock(&s->lock);
		if (words - before > budget)
			fuzz_finding("a chunk of %u words read %lu", budget, words - before);
		check_cache1(s);
		if (progress)
			continue;
		uint32_t intr = sim_rd32(s, NV_PFIFO_INTR);
		if (intr & (NV_PFIFO_INTR_CACHE_ERROR | NV_PFIFO_INTR_SEMAPHORE)) {
			skip_method(s, intr & (NV_PFIFO_INTR_CACHE_ERROR | NV_PFIFO_INTR_SEMAPHORE));
			continue;
		}
		if (intr & NV_PFIFO_INTR_DMA_PUSHER)
			break;
		if (intr)
			fuzz_finding("unexpected PFIFO_INTR 0x%08x", intr);
		if (!release_semaphore(h))
			break;
	}
	return words;
}

static void compare(struct sim *s, const struct ref *r, unsigned long words)
{
	uint32_t st = sim_rd32(s, NV_PFIFO_CACHE1_DMA_STATE);
	uint32_t get = sim_rd32(s, NV_PFIFO_CACHE1_DMA_GET);
	if (NV_DMA_STATE_ERROR(st) != r->error || get != r->get ||
	    NV_DMA_STATE_COUNT(st) != r->count || (r->count && (NV_DMA_STATE_METHOD(st) != r->mthd ||
	    NV_DMA_STATE_SUBC(st) != r->subc || !!(st & NV_DMA_STATE_NONINC) != r->ni)) ||
	    !!(st & NV_DMA_STATE_SUBR_ACTIVE) != r->subr ||
	    (r->subr && sim_rd32(s, NV_PFIFO_CACHE1_DMA_SUBROUTINE) != r->subr_ret))
		fuzz_finding("after %lu words: GET 0x%08x state 0x%08x (error %u), reference GET 0x%08x "
			     "mthd 0x%04x subc %u count %u ni %d subr %d error %u", words, get, st,
			     NV_DMA_STATE_ERROR(st), r->get, r->mthd, r->subc, r->count, r->ni, r->subr,
			     r->error);
}

/* The reference reads as many words as the simulator did, then says
 * whether it would read another (or stop, and why). */
static void check_against_reference(struct sim *s, const struct pb *pb, uint32_t end,
				    unsigned long words)
{
	struct ref r = { .get = 0, .put = end };
	unsigned long n = 0;
	while (n < words && ref_step(&r, pb))
		n++;
	if (n < words)
		fuzz_finding("runaway: the pusher read %lu words, the program %s after %lu", words,
			     r.error ? "faults" : "ends", n);
	struct ref next = r;
	int more = ref_step(&next, pb);
	if (words < BUDGET && more)
		fuzz_finding("the pusher stopped after %lu words, the program goes on", words);
	/* At the budget the simulator has not tried the next word yet. */
	compare(s, words < BUDGET ? &next : &r, words);
	if (getenv("FUZZ_PUSHER_TRACE"))   /* what an input does, for writing seeds */
		fprintf(stderr, "pusher: %lu words, GET 0x%x, %s, error %u, REF 0x%x\n", words,
			r.get, words >= BUDGET ? "looping" : "stopped", next.error,
			sim_rd32(s, NV40_USER(0) + NV40_USER_REF));
}

/* One card for every input (making one is slow: its memory is cleared),
 * reset between inputs as a driver does: PFIFO held in reset through
 * PMC_ENABLE, then brought up again on cleared instance and system
 * memory. */
static struct host *card(void)
{
	static struct host h;
	static int made;
	if (!made) {
		host_new(&h);
		made = 1;
		return &h;
	}
	sim_wr32(h.s, NV_PMC_ENABLE, ~NV_PMC_UNIT_PFIFO);
	memset(h.sysmem, 0, PB_PHYS + PB_PAGES * 0x1000u);
	memset(sim_vram(h.s), 0, 0x1000);
	/* RAMHT in one go: a word at a time was most of an input's cost */
	_Static_assert((NV40_RAMIN_RAMHT & 0x7ffff) + (NV40_RAMHT_ENTRY_SIZE << HOST_RAMHT_BITS) <=
		       NV40_RAMIN_BLOCK, "RAMHT within one block of RAMIN: linear in VRAM");
	memset(sim_vram(h.s) + nv40_ramin_to_vram(sim_vram_size(h.s), NV40_RAMIN_RAMHT), 0,
	       NV40_RAMHT_ENTRY_SIZE << HOST_RAMHT_BITS);
	host_bringup(&h);
	return &h;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_report_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct stream st;
	struct fuzz_input in = { data, size };
	struct pb pb = { .paged = 0 };

	uint8_t flags = fuzz_u8(&in);
	pb.paged = flags & 1;
	uint8_t lim = fuzz_u8(&in);
	for (unsigned i = 0; i < PB_PAGES; i++) {
		uint8_t b = pb.paged ? fuzz_u8(&in) : 0;
		pb.pte[i] = (PB_PHYS + 0x1000u * (b % PB_PAGES)) | NV_DMA_PTE_RW |
			    (b >= 0xf0 ? 0 : NV_DMA_PTE_PRESENT);
	}
	st.n = 0;
	build(&in, &st);
	/* The limit: the stream's end, plus up to a few pages of zeros past it
	 * (or the whole window), minus a few bytes now and then. */
	uint32_t end = 4 * st.n;
	pb.limit = lim >= 0xf0 ? PB_PAGES * 0x1000u - 1 : end + 0x400u * (lim >> 4) - 1 - (lim & 7);
	if (pb.limit >= PB_PAGES * 0x1000u)
		pb.limit = PB_PAGES * 0x1000u - 1;

	struct host *h = card();
	pb.sysmem = h->sysmem;
	for (unsigned i = 0; i < st.n; i++)
		if (!pb.paged || (pb.pte[i >> 10] & NV_DMA_PTE_PRESENT))
			pb_put(&pb, 4 * i, st.w[i]);
	if (pb.paged) {
		host_ramin_wr32(h, PB_DMA, NV_DMA_W0(NV_CLASS_DMA_FROM_MEMORY, NV_DMA_TARGET_PCI,
						     NV_DMA_ACCESS_RO, 0) & ~NV_DMA_W0_PT_LINEAR);
		host_ramin_wr32(h, PB_DMA + 4, pb.limit);
		for (unsigned i = 0; i < PB_PAGES; i++)
			host_ramin_wr32(h, PB_DMA + 8 + 4 * i, pb.pte[i]);
	} else {
		host_ctxdma(h, PB_DMA, NV_CLASS_DMA_FROM_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RO,
			    PB_PHYS, pb.limit);
	}
	host_chan_new(h, 0, PB_DMA);
	host_ramht_add(h, SEM_HANDLE, 0, NV_ENGINE_SW, HOST_SYS_DMA);
	host_ramht_add(h, VRAM_HANDLE, 0, NV_ENGINE_SW, HOST_VRAM_DMA);
	h->put[0] = end;
	host_kick(h, 0);
	check_against_reference(h->s, &pb, end, run(h));
	return 0;
}
