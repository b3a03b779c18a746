/* The simulated card as a whole: life cycle, BAR0 dispatch by block, the
 * interrupt line, and the worker thread that runs PFIFO and PGRAPH. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "priv.h"
#include "3d/bands.h"
#include "3d/jit.h"

/* Words per chunk: the worker drops the lock this often so MMIO gets in
 * (and inside a long method, between its pieces: sim_gr_piece). */
#define SIM_CHUNK_WORDS 256
/* sim_run gives up after this many words, so a channel looping on a JUMP
 * cannot hang a unit test forever. */
#define SIM_RUN_MAX_WORDS (64ul << 20)
/* What a PUT write may run on the writing thread (sim_brief). */
#define SIM_BRIEF_WORDS 64

struct sim_block {
	uint32_t base, size;
	uint32_t (*rd)(struct sim *s, uint32_t reg);
	void (*wr)(struct sim *s, uint32_t reg, uint32_t val);
	/* Byte access; NULL: a byte of the 32-bit register. */
	uint8_t (*rd8)(struct sim *s, uint32_t reg);
	void (*wr8)(struct sim *s, uint32_t reg, uint8_t val);
};

static const struct sim_block sim_blocks[] = {
	{ NV_PMC_BASE,    NV_PMC_SIZE,    sim_pmc_rd,    sim_pmc_wr, NULL, NULL },
	{ NV_PBUS_BASE,   NV_PBUS_SIZE,   sim_pbus_rd,   sim_pbus_wr, NULL, NULL },
	{ NV_PFIFO_BASE,  NV_PFIFO_SIZE,  sim_pfifo_rd,  sim_pfifo_wr, NULL, NULL },
	{ NV_PTIMER_BASE, NV_PTIMER_SIZE, sim_ptimer_rd, sim_ptimer_wr, NULL, NULL },
	{ NV_PFIFO_CACHE1_SLOTS_BASE, NV_PFIFO_CACHE1_SLOTS_SIZE, sim_pfifo_rd, sim_pfifo_wr, NULL, NULL },
	{ NV_PFB_BASE,    NV_PFB_SIZE,    sim_pbus_rd,   sim_pbus_wr, NULL, NULL },
	{ NV_PEXTDEV_BASE, NV_PEXTDEV_SIZE, sim_pbus_rd, sim_pbus_wr, NULL, NULL },
	{ NV_PGRAPH_BASE, NV_PGRAPH_SIZE, sim_pgraph_rd, sim_pgraph_wr, NULL, NULL },
	{ NV_PRAMIN,      NV_PRAMIN_SIZE, sim_pramin_rd, sim_pramin_wr, NULL, NULL },
	{ NV40_USER_BASE, NV40_USER_AREA_SIZE, sim_user_rd, sim_user_wr, NULL, NULL },
	{ NV_PCRTC_BASE,  NV_PCRTC_SIZE,  sim_pcrtc_rd,  sim_pcrtc_wr, sim_crtc_rd08, sim_crtc_wr08 },
	{ NV_PRAMDAC_BASE, NV_PRAMDAC_SIZE, sim_pramdac_rd, sim_pramdac_wr, sim_crtc_rd08, sim_crtc_wr08 },
	{ NV_PRMVIO_BASE, NV_PRMVIO_SIZE, sim_prmvio_rd, sim_prmvio_wr, sim_crtc_rd08, sim_crtc_wr08 },
};
#define SIM_NBLOCKS (sizeof(sim_blocks) / sizeof(sim_blocks[0]))
_Static_assert(sizeof(((struct sim_config *)0)->edid) / sizeof(const uint8_t *) == NV_DDC_BUSES,
	       "one EDID per DDC bus");

static const struct sim_block *sim_block_of(uint32_t reg)
{
	for (unsigned i = 0; i < SIM_NBLOCKS; i++)
		if (reg - sim_blocks[i].base < sim_blocks[i].size)
			return &sim_blocks[i];
	return NULL;
}

/* ---- registers nobody models ---- */

static unsigned sim_misc_slot(const struct sim_misc *m, uint32_t reg, int insert)
{
	unsigned h = (reg >> 2) * 2654435761u % SIM_MISC_SLOTS;
	for (unsigned i = 0; i < SIM_MISC_SLOTS; i++) {
		unsigned j = (h + i) % SIM_MISC_SLOTS;
		if (m->reg[j] == reg + 1 || (insert && !m->reg[j]))
			return j;
		if (!m->reg[j])
			break;
	}
	return SIM_MISC_SLOTS;
}

uint32_t sim_misc_rd(struct sim *s, uint32_t reg)
{
	unsigned j = sim_misc_slot(&s->misc, reg & ~3u, 0);
	return j < SIM_MISC_SLOTS ? s->misc.val[j] : 0;
}

void sim_misc_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	reg &= ~3u;
	unsigned j = sim_misc_slot(&s->misc, reg, 1);
	if (j < SIM_MISC_SLOTS) {
		s->misc.reg[j] = reg + 1;
		s->misc.val[j] = val;
	}
}

/* ---- interrupts ---- */

static void sim_irq_now(struct sim *s, uint32_t now[4])
{
	now[0] = SIM_PFIFO(s, NV_PFIFO_INTR) & SIM_PFIFO(s, NV_PFIFO_INTR_EN);
	now[1] = SIM_PGRAPH(s, NV_PGRAPH_INTR) & SIM_PGRAPH(s, NV_PGRAPH_INTR_EN);
	now[2] = s->ptimer_intr & s->ptimer_intr_en;
	now[3] = sim_pmc_intr(s);
}

void sim_irq_update(struct sim *s, int host_ack)
{
	uint32_t now[4];
	sim_irq_now(s, now);
	int line = now[3] && (s->pmc_intr_en & NV_PMC_INTR_EN_HOST);
	uint32_t pfifo_fresh = now[0] & ~s->irq_seen[0];
	int fresh = 0;

	for (unsigned i = 0; i < 4; i++) {
		fresh |= (now[i] & ~s->irq_seen[i]) != 0;
		s->irq_seen[i] = now[i];
	}
	if (line && (fresh || host_ack)) {
		uint64_t one = 1;
		/* What the hook acked is not up: the same bit raised again
		 * must be fresh. */
		if (s->irq_hook && s->irq_hook(s->irq_arg, s, pfifo_fresh)) {
			sim_irq_now(s, s->irq_seen);
			line = s->irq_seen[3] && (s->pmc_intr_en & NV_PMC_INTR_EN_HOST);
		}
		/* Before the eventfd: a host that finds the line down after
		 * reading it is woken again by the next rise.  Nonblocking; a
		 * full counter is still readable, which is all the host needs. */
		__atomic_store_n(&s->line, line, __ATOMIC_RELEASE);
		if ((line || !s->brief) && write(s->irq_fd, &one, sizeof(one)) < 0) {
		}
	} else {
		__atomic_store_n(&s->line, line, __ATOMIC_RELEASE);
	}
}

int sim_irq_line(struct sim *s)
{
	return __atomic_load_n(&s->line, __ATOMIC_ACQUIRE);
}

int sim_irq_fd(struct sim *s)
{
	return s->irq_fd;
}

void sim_kick(struct sim *s)
{
	if (!s->manual)
		pthread_cond_signal(&s->wake);
}

/* Writes after which the host expects the line to be re-evaluated. */
static int sim_reg_is_intr(uint32_t reg)
{
	switch (reg) {
	case NV_PMC_INTR_EN:
	case NV_PFIFO_INTR: case NV_PFIFO_INTR_EN:
	case NV_PGRAPH_INTR: case NV_PGRAPH_INTR_EN:
	case NV_PTIMER_INTR: case NV_PTIMER_INTR_EN:
	case NV_PBUS_INTR: case NV_PBUS_INTR_EN:
	case NV_PCRTC_INTR_0: case NV_PCRTC_INTR_EN_0:
	case NV_PCRTC_INTR_0 + NV_PCRTC_HEAD_STRIDE:
	case NV_PCRTC_INTR_EN_0 + NV_PCRTC_HEAD_STRIDE:
		return 1;
	}
	return 0;
}

/* ---- BAR0 ---- */

static int sim_brief(struct sim *s);

/* A channel's DMA_PUT in the USER area. */
static int sim_reg_is_put(uint32_t reg)
{
	return reg - NV40_USER_BASE < NV40_USER_AREA_SIZE &&
	       (reg - NV40_USER_BASE) % NV40_USER_SIZE == NV40_USER_DMA_PUT;
}

/* MMIO takes the lock the worker holds per chunk; the worker steps aside
 * between chunks while a host thread is waiting (mutexes are not fair). */
static void sim_mmio_lock(struct sim *s)
{
	__atomic_add_fetch(&s->mmio_waiting, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&s->lock);
	__atomic_sub_fetch(&s->mmio_waiting, 1, __ATOMIC_RELAXED);
}

/* Time passes for the display before every access: raise the vblanks due
 * (a manual-mode host sees them on its next read). */
static void sim_mmio_tick(struct sim *s)
{
	if (sim_crtc_tick(s))
		sim_irq_update(s, 0);
}

void sim_host_lock(struct sim *s)
{
	sim_mmio_lock(s);
}

uint32_t sim_rd32_locked(struct sim *s, uint32_t reg)
{
	const struct sim_block *b = sim_block_of(reg & ~3u);
	return b ? b->rd(s, reg & ~3u) : sim_misc_rd(s, reg);
}

void sim_wr32_locked(struct sim *s, uint32_t reg, uint32_t val)
{
	const struct sim_block *b = sim_block_of(reg & ~3u);

	if (b)
		b->wr(s, reg & ~3u, val);
	else
		sim_misc_wr(s, reg, val);
}

uint32_t sim_rd32(struct sim *s, uint32_t reg)
{
	uint32_t v;

	sim_mmio_lock(s);
	sim_mmio_tick(s);
	v = sim_rd32_locked(s, reg);
	pthread_mutex_unlock(&s->lock);
	return v;
}

void sim_wr32(struct sim *s, uint32_t reg, uint32_t val)
{
	reg &= ~3u;
	sim_mmio_lock(s);
	sim_mmio_tick(s);
	sim_wr32_locked(s, reg, val);
	/* An interrupt ack makes no work runnable: the worker sleeps on
	 * (woken, it would only fight the host's next access for the lock).
	 * A CRTC's is the exception: the worker times a head's next vblank
	 * only once its last one is acked (or enabled). */
	int ack = sim_reg_is_intr(reg);
	sim_irq_update(s, ack);
	int work = !ack || (reg & ~NV_PCRTC_HEAD_STRIDE) == NV_PCRTC_INTR_0 ||
		   (reg & ~NV_PCRTC_HEAD_STRIDE) == NV_PCRTC_INTR_EN_0;
	if (work && s->worker_idle && sim_reg_is_put(reg))
		work = sim_brief(s);
	if (work)
		sim_kick(s);
	pthread_mutex_unlock(&s->lock);
}

uint8_t sim_rd08(struct sim *s, uint32_t reg)
{
	const struct sim_block *b = sim_block_of(reg & ~3u);
	uint8_t v;

	sim_mmio_lock(s);
	sim_mmio_tick(s);
	if (b && b->rd8)
		v = b->rd8(s, reg);
	else
		v = (uint8_t)((b ? b->rd(s, reg & ~3u) : sim_misc_rd(s, reg)) >> (8 * (reg & 3)));
	pthread_mutex_unlock(&s->lock);
	return v;
}

void sim_wr08(struct sim *s, uint32_t reg, uint8_t val)
{
	const struct sim_block *b = sim_block_of(reg & ~3u);
	uint32_t word = reg & ~3u, shift = 8 * (reg & 3);

	sim_mmio_lock(s);
	sim_mmio_tick(s);
	if (b && b->wr8) {
		b->wr8(s, reg, val);
	} else {
		uint32_t w = b ? b->rd(s, word) : sim_misc_rd(s, word);
		w = (w & ~(0xffu << shift)) | (uint32_t)val << shift;
		if (b)
			b->wr(s, word, w);
		else
			sim_misc_wr(s, word, w);
	}
	sim_irq_update(s, sim_reg_is_intr(word));
	sim_kick(s);
	pthread_mutex_unlock(&s->lock);
}

uint8_t *sim_vram(struct sim *s)
{
	return s->vram;
}

uint64_t sim_vram_size(const struct sim *s)
{
	return s->vram_size;
}

/* ---- running ---- */

int sim_gr_piece(struct sim *s)
{
	if (__atomic_load_n(&s->mmio_waiting, __ATOMIC_RELAXED)) {
		pthread_mutex_unlock(&s->lock);
		for (int i = 0; i < 100 && __atomic_load_n(&s->mmio_waiting, __ATOMIC_RELAXED); i++)
			sched_yield();
		pthread_mutex_lock(&s->lock);
	}
	return sim_gr_abandoned(s);
}

/* The channel PFIFO works for (a chunk switches, if it does, first). */
static unsigned sim_cur_chid(struct sim *s)
{
	return SIM_PFIFO(s, NV_PFIFO_CACHE1_PUSH1) & (NV40_FIFO_CHANNELS - 1);
}

/* One chunk of PFIFO work: its time is PFIFO's busy time when it made
 * progress (the methods it handed PGRAPH included, as the silicon's PFIFO
 * is busy while its puller waits for PGRAPH), and the channel's. */
static int sim_chunk(struct sim *s, unsigned budget, unsigned long *words)
{
	s->fifo_t0 = sim_clock_ns();
	int more = sim_pfifo_work(s, budget, words);
	if (more) {
		uint64_t dt = sim_clock_ns() - s->fifo_t0;
		s->fifo_busy_ns += dt;
		s->chan_busy_ns[sim_cur_chid(s)] += dt;
	}
	s->fifo_t0 = 0;
	return more;
}

/* A PUT written while the worker sleeps runs at once on the writing thread
 * for as long as the methods only set state (the FIFO's, and PGRAPH's that
 * hw/access.h lists as no launch), as silicon starts fetching at once: a
 * small submission, a fence say, completes without waking the worker.  It
 * stops before the first method that touches memory, after
 * SIM_BRIEF_WORDS words, or where the card waits (a semaphore, the host);
 * so the writer waits no longer than a register access.  Returns whether
 * the worker has work. */
static int sim_brief(struct sim *s)
{
	unsigned long words = 0;
	int more = 1;

	s->brief = 1;
	s->brief_stop = 0;
	while (more && words < SIM_BRIEF_WORDS && !s->brief_stop) {
		more = sim_chunk(s, SIM_BRIEF_WORDS - (unsigned)words, &words);
		sim_irq_update(s, 0);     /* the hook may ack a fence: go on */
	}
	s->brief = 0;
	sim_gr_idle(s);
	return more || s->acquire_waiting;
}

static void *sim_worker(void *arg)
{
	struct sim *s = arg;
	unsigned long words;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		words = 0;
		int more = sim_chunk(s, SIM_CHUNK_WORDS, &words);
		/* before anything lets the host in: the hook sees first what
		 * the card raised */
		sim_irq_update(s, 0);
		/* nobody waits for the lock: queued fragment work may go on
		 * into the next chunk */
		if (more && !__atomic_load_n(&s->mmio_waiting, __ATOMIC_RELAXED))
			continue;
		sim_3d_sync(s);          /* nothing queued while the lock is free */
		sim_gr_idle(s);
		if (more) {
			/* Let MMIO in between chunks. */
			pthread_mutex_unlock(&s->lock);
			for (int i = 0; i < 100 && __atomic_load_n(&s->mmio_waiting, __ATOMIC_RELAXED); i++)
				sched_yield();
			pthread_mutex_lock(&s->lock);
			continue;
		}
		sim_crtc_tick(s);
		sim_irq_update(s, 0);
		/* The semaphore may be released by the host CPU, which tells
		 * nobody: poll.  A head's next vblank wakes us too. */
		uint64_t wait = sim_crtc_wait_ns(s);
		if (s->acquire_waiting && wait > 200000)
			wait = 200000;
		s->worker_idle = 1;
		if (wait != UINT64_MAX) {
			struct timespec ts;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			ts.tv_sec += (time_t)(wait / 1000000000u);
			ts.tv_nsec += (long)(wait % 1000000000u);
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&s->wake, &s->lock, &ts);
		} else {
			pthread_cond_wait(&s->wake, &s->lock);
		}
		s->worker_idle = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

unsigned long sim_run(struct sim *s)
{
	unsigned long words = 0;

	pthread_mutex_lock(&s->lock);
	/* the lock is held throughout: queued fragment work may go on
	 * from chunk to chunk */
	while (words < SIM_RUN_MAX_WORDS && sim_chunk(s, SIM_CHUNK_WORDS, &words))
		sim_irq_update(s, 0);
	sim_3d_sync(s);
	sim_gr_idle(s);
	sim_crtc_tick(s);
	sim_irq_update(s, 0);
	pthread_mutex_unlock(&s->lock);
	return words;
}

void sim_busy_ns(struct sim *s, uint64_t ns[SIM_ENGINES])
{
	sim_mmio_lock(s);
	uint64_t now = sim_clock_ns();
	ns[SIM_ENGINE_PFIFO] = s->fifo_busy_ns + (s->fifo_t0 ? now - s->fifo_t0 : 0);
	ns[SIM_ENGINE_PGRAPH] = s->gr_busy_ns + (s->gr_t0 ? now - s->gr_t0 : 0);
	pthread_mutex_unlock(&s->lock);
}

uint64_t sim_chan_busy_ns(struct sim *s, unsigned chid)
{
	chid &= NV40_FIFO_CHANNELS - 1;
	sim_mmio_lock(s);
	uint64_t ns = s->chan_busy_ns[chid];
	if (s->fifo_t0 && sim_cur_chid(s) == chid)
		ns += sim_clock_ns() - s->fifo_t0;
	pthread_mutex_unlock(&s->lock);
	return ns;
}

/* ---- life cycle ---- */

struct sim *sim_new(const struct sim_config *cfg, char *err, size_t errlen)
{
	const struct nv_chip *chip = nv_chip_by_chipset(cfg->chipset);
	struct sim *s;
	pthread_condattr_t ca;

	if (!chip) {
		snprintf(err, errlen, "unknown chipset 0x%02x", cfg->chipset);
		return NULL;
	}
	if (cfg->vram_size < (16u << 20) || (cfg->vram_size & (cfg->vram_size - 1)) ||
	    cfg->vram_size < NV40_RAMIN_SIZE || cfg->vram_size > (1ull << 31)) {
		snprintf(err, errlen, "VRAM size %llu is not a power of two in [16 MiB, 2 GiB]",
			 (unsigned long long)cfg->vram_size);
		return NULL;
	}
	if (!cfg->sysmem && cfg->sysmem_size) {
		snprintf(err, errlen, "system memory size without memory");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->chip = chip;
	s->vram_size = cfg->vram_size;
	s->sysmem = cfg->sysmem;
	s->sysmem_size = cfg->sysmem_size;
	s->manual = cfg->manual;
	s->irq_hook = cfg->irq_hook;
	s->irq_arg = cfg->irq_arg;
	s->vram = mmap(NULL, s->vram_size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->vram == MAP_FAILED) {
		snprintf(err, errlen, "mapping %llu bytes of VRAM: %s",
			 (unsigned long long)s->vram_size, strerror(errno));
		free(s);
		return NULL;
	}
	s->irq_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->irq_fd < 0) {
		snprintf(err, errlen, "eventfd: %s", strerror(errno));
		munmap(s->vram, s->vram_size);
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);

	s->pmc_enable = ~0u;
	sim_ptimer_init(s);
	sim_pfifo_reset(s);
	sim_pgraph_reset(s);
	sim_crtc_reset(s);
	for (unsigned i = 0; i < NV_DDC_BUSES; i++)
		sim_i2c_reset(&s->ddc[i], cfg->edid[i]);

	unsigned threads = cfg->threads;
	if (!threads && !s->manual) {
		/* the CPUs this process may run on (a container's or taskset's
		 * share, not the machine's); bands caps them */
		cpu_set_t cpus;
		threads = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 ? (unsigned)CPU_COUNT(&cpus) : 1;
	}
	if (!threads)
		threads = 1;
	if (sim_bands_start(s, threads) < 0) {
		snprintf(err, errlen, "cannot start %u fragment threads", threads);
		sim_free(s);
		return NULL;
	}

	s->jit = sim_jit_new(cfg->jit, err, errlen);
	if (cfg->jit != SIM_JIT_OFF && !s->jit) {
		sim_free(s);
		return NULL;
	}

	if (!s->manual) {
		int e = pthread_create(&s->thread, NULL, sim_worker, s);
		if (e) {
			snprintf(err, errlen, "worker thread: %s", strerror(e));
			sim_free(s);
			return NULL;
		}
		s->thread_started = 1;
	}
	return s;
}

static int sim_cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return x < y ? -1 : x > y;
}

/* One kind's part of sim_jit_describe's line: its compile times sorted. */
static int sim_jit_kind_describe(char *buf, size_t len, const char *kind, struct sim_jit_kind *k,
				 const char *unit)
{
	qsort(k->compile_ms, k->ntimes, sizeof(float), sim_cmp_float);
	return snprintf(buf, len, "%s: %u, %u compiled (median %.1f ms, p99 %.1f ms), "
			"%u refused, %u failed; code ready for %llu of %llu primitives; verified "
			"%llu %s: %llu differed, %llu NaN payloads", kind, k->programs, k->compiled,
			k->ntimes ? k->compile_ms[k->ntimes / 2] : 0.0f,
			k->ntimes ? k->compile_ms[k->ntimes * 99 / 100] : 0.0f, k->refused, k->failed,
			(unsigned long long)k->hits, (unsigned long long)k->lookups,
			(unsigned long long)k->verified, unit, (unsigned long long)k->mismatches,
			(unsigned long long)k->nan_payloads);
}

void sim_jit_describe(struct sim *s, char *buf, size_t len)
{
	static struct sim_jit_stats st;     /* big; the caller's thread only */

	buf[0] = 0;
	if (!s->jit)
		return;
	sim_jit_stats(s->jit, &st);
	const struct { const char *what, *unit; struct sim_jit_kind *k; } k[] = {
		{ "fragment programs", "quads", &st.fp },
		{ "vertex programs", "vertices", &st.vp },
		{ "ROP states", "quads", &st.rop },
	};
	size_t n = 0;
	for (unsigned i = 0; i < sizeof(k) / sizeof(k[0]) && n + 2 < len; i++) {
		if (i) {
			memcpy(buf + n, "; ", 3);
			n += 2;
		}
		int w = sim_jit_kind_describe(buf + n, len - n, k[i].what, k[i].k, k[i].unit);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	if (s->thread_started) {
		pthread_mutex_lock(&s->lock);
		s->stop = 1;
		pthread_cond_signal(&s->wake);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
	}
	sim_bands_stop(s);
	sim_jit_free(s->jit);
	sim_oracle_free(s);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	close(s->irq_fd);
	munmap(s->vram, s->vram_size);
	free(s);
}
