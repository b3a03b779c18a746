/* The simulated GeForce 6: the only file of the daemon that knows the card is
 * a model.  VRAM is the model's; the bus window is memory of ours that the
 * model reaches through PCI-target ctxdmas.  Placing a buffer maps its memfd
 * over the right pages of either. */
#include "nvd/card.h"
#include "nvd/nvd.h"
#include "nvd/validate.h"
#include "sim/sim.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hw/methods.h"
#include "hw/regs.h"

struct nvd_card_sim {
	struct nvd_card c;
	struct sim *sim;
	pthread_mutex_t fence_lock;   /* the hook's targets and fences against the loop */
	struct { struct nvd_fence_page *page; int ev; } fence[NV40_FIFO_CHANNELS];
	uint32_t done_mask;           /* channels with a fence the hook took ... */
	uint32_t done_seq[NV40_FIFO_CHANNELS];   /* ... and the newest one */
};

static struct sim *simof(struct nvd_card *c) { return ((struct nvd_card_sim *)c)->sim; }

static uint32_t sim_card_rd32(struct nvd_card *c, uint32_t reg) { return sim_rd32(simof(c), reg); }
static void sim_card_wr32(struct nvd_card *c, uint32_t reg, uint32_t v) { sim_wr32(simof(c), reg, v); }

static uint8_t sim_card_rd08(struct nvd_card *c, uint32_t reg) { return sim_rd08(simof(c), reg); }
static void sim_card_wr08(struct nvd_card *c, uint32_t reg, uint8_t v) { sim_wr08(simof(c), reg, v); }

static int sim_card_window(struct nvd_card *c, int gart, uint64_t addr, uint64_t size,
			   uint8_t **p)
{
	uint64_t lim = gart ? c->gart_size : c->vram_size;
	if ((addr | size) & 4095 || !size || addr > lim || size > lim - addr)
		return -EINVAL;
	*p = (gart ? c->gart : c->vram) + addr;
	return 0;
}

static int sim_card_place(struct nvd_card *c, int gart, uint64_t addr, uint64_t size, int fd)
{
	uint8_t *p;
	int r = sim_card_window(c, gart, addr, size, &p);
	if (r < 0)
		return r;
	if (mmap(p, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
		return -errno;
	return 0;
}

static int sim_card_unplace(struct nvd_card *c, int gart, uint64_t addr, uint64_t size)
{
	uint8_t *p;
	int r = sim_card_window(c, gart, addr, size, &p);
	if (r < 0)
		return r;
	if (mmap(p, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED |
		 MAP_NORESERVE, -1, 0) == MAP_FAILED)
		return -errno;
	return 0;
}

static void sim_card_destroy(struct nvd_card *c)
{
	char jit[1024];

	sim_jit_describe(simof(c), jit, sizeof(jit));
	if (jit[0])
		nvd_log(0, "sim-jit: %s", jit);
	sim_free(simof(c));
	munmap(c->gart, c->gart_size);
	free(c);
}

/* ---- the access oracle ---- */

_Static_assert(NVD_ORACLE_CLIENT_R == SIM_ORACLE_CLIENT_R && NVD_ORACLE_CLIENT_W == SIM_ORACLE_CLIENT_W &&
	       NVD_ORACLE_DAEMON_R == SIM_ORACLE_HOST_R && NVD_ORACLE_DAEMON_W == SIM_ORACLE_HOST_W &&
	       NVD_ORACLE_PUSH_R == SIM_ORACLE_PUSH_R, "the oracle's bits are the model's");

/* Card addresses to the model's: the bus window is sysmem from gart_bus. */
static struct sim_oracle_range sim_card_range(struct nvd_card *c, const struct nvd_card_range *r)
{
	return (struct sim_oracle_range){ r->gart ? SIM_ORACLE_BUS : SIM_ORACLE_VRAM, r->allow,
					  (r->gart ? c->gart_bus : 0) + r->addr, r->size };
}

static int sim_card_oracle_area(struct nvd_card *c, unsigned chid, const struct nvd_card_range *r)
{
	struct sim_oracle_range s = sim_card_range(c, r);
	return sim_oracle_area(simof(c), chid, &s) < 0 ? -ENOMEM : 0;
}

static int sim_card_oracle_admit(struct nvd_card *c, unsigned chid, uint32_t seq, uint32_t begin,
				 uint32_t end, const struct nvd_card_range *r, unsigned n)
{
	struct sim_oracle_range *s = n ? malloc(n * sizeof(*s)) : NULL;
	int ret;

	if (n && !s)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		s[i] = sim_card_range(c, &r[i]);
	ret = sim_oracle_admit(simof(c), chid, seq, begin, end, s, n) < 0 ? -ENOMEM : 0;
	free(s);
	return ret;
}

static void sim_card_oracle_retire(struct nvd_card *c, unsigned chid, uint32_t seq)
{
	sim_oracle_retire(simof(c), chid, seq);
}

static void sim_card_oracle_forget(struct nvd_card *c, unsigned chid)
{
	sim_oracle_forget(simof(c), chid);
}

static uint64_t sim_card_oracle_poll(struct nvd_card *c, nvd_oracle_fn *fn, void *arg)
{
	struct sim_oracle_violation v[16];
	uint64_t total;
	unsigned n;
	char what[320];

	do {
		n = sim_oracle_take(simof(c), v, 16, &total);
		for (unsigned i = 0; i < n; i++) {
			sim_oracle_describe(&v[i], what, sizeof(what));
			fn(arg, v[i].chid, v[i].in_sub, v[i].id, what);
		}
	} while (n == 16);
	return total;
}

static unsigned long sim_card_run(struct nvd_card *c)
{
	return sim_run(simof(c));
}

static void sim_card_fence_target(struct nvd_card *c, unsigned chid, struct nvd_fence_page *page,
				  int ev)
{
	struct nvd_card_sim *s = (struct nvd_card_sim *)c;
	pthread_mutex_lock(&s->fence_lock);
	s->fence[chid].page = page;
	s->fence[chid].ev = ev;
	s->done_mask &= ~(1u << chid);   /* what the hook took was the old owner's */
	pthread_mutex_unlock(&s->fence_lock);
}

/* The card stops on the daemon's fence method (a CACHE_ERROR, as for any
 * software method): publish it from here, wake the client and ack it as
 * the loop's interrupt handler would (nvd_irq_pfifo), so neither the
 * client nor the card waits for the loop, and the loop's register
 * accesses do not fight the worker for the model's lock.  It runs on the
 * worker, or on the loop itself within the PUT write of a submission the
 * card finished at once (sim_wr32; nvd_fifo_kick then looks for fences).  The loop
 * retires the submission when it takes the fences (sim_card_fences).  A
 * PGRAPH trap pending may be this submission's fault, whose status the
 * loop writes first; a CACHE_ERROR the loop may have seen already is the
 * loop's: both are left to it. */
static int sim_card_irq(void *arg, struct sim *m, uint32_t pfifo_fresh)
{
	struct nvd_card_sim *s = arg;
	int took = 0;

	if (!(pfifo_fresh & NV_PFIFO_INTR_CACHE_ERROR) || sim_rd32_locked(m, NV_PGRAPH_INTR))
		return 0;
	unsigned chid = sim_rd32_locked(m, NV_PFIFO_CACHE1_PUSH1) & 0x1f;
	uint32_t get = sim_rd32_locked(m, NV_PFIFO_CACHE1_GET);
	unsigned ptr = (get & NV_PFIFO_CACHE1_PTR_MASK) >> 2;
	if (!nvd_slot_is_fence(sim_rd32_locked(m, NV_PFIFO_CACHE1_METHOD(ptr))))
		return 0;
	uint32_t seq = sim_rd32_locked(m, NV_PFIFO_CACHE1_DATA(ptr));
	pthread_mutex_lock(&s->fence_lock);
	if (s->fence[chid].page) {
		nvd_fence_publish(s->fence[chid].page, s->fence[chid].ev, seq);
		s->done_seq[chid] = seq;
		s->done_mask |= 1u << chid;
		took = 1;
	}
	pthread_mutex_unlock(&s->fence_lock);
	if (!took)
		return 0;     /* a channel going away: the loop says so */
	sim_wr32_locked(m, NV_PFIFO_INTR, NV_PFIFO_INTR_CACHE_ERROR);
	sim_wr32_locked(m, NV_PFIFO_CACHE1_GET, get + 4);
	sim_wr32_locked(m, NV_PFIFO_CACHE1_PULL0, NV_PULL0_ACCESS);
	return 1;
}

static int sim_card_fences(struct nvd_card *c, nvd_fence_fn *fn, void *arg)
{
	struct nvd_card_sim *s = (struct nvd_card_sim *)c;
	uint32_t seq[NV40_FIFO_CHANNELS], mask;

	pthread_mutex_lock(&s->fence_lock);
	mask = s->done_mask;
	s->done_mask = 0;
	memcpy(seq, s->done_seq, sizeof(seq));
	pthread_mutex_unlock(&s->fence_lock);
	for (unsigned chid = 0; mask; chid++, mask >>= 1)
		if (mask & 1)
			fn(arg, chid, seq[chid]);
	return sim_irq_line(s->sim);
}

static void sim_card_busy_ns(struct nvd_card *c, uint64_t *pfifo, uint64_t *pgraph)
{
	uint64_t ns[SIM_ENGINES];
	sim_busy_ns(simof(c), ns);
	*pfifo = ns[SIM_ENGINE_PFIFO];
	*pgraph = ns[SIM_ENGINE_PGRAPH];
}

static uint64_t sim_card_chan_busy_ns(struct nvd_card *c, unsigned chid)
{
	return sim_chan_busy_ns(simof(c), chid);
}

static const struct nvd_card_ops sim_card_ops = {
	.rd32 = sim_card_rd32,
	.wr32 = sim_card_wr32,
	.rd08 = sim_card_rd08,
	.wr08 = sim_card_wr08,
	.place = sim_card_place,
	.unplace = sim_card_unplace,
	.destroy = sim_card_destroy,
	.oracle_area = sim_card_oracle_area,
	.oracle_admit = sim_card_oracle_admit,
	.oracle_retire = sim_card_oracle_retire,
	.oracle_forget = sim_card_oracle_forget,
	.oracle_poll = sim_card_oracle_poll,
	.run = sim_card_run,
	.fence_target = sim_card_fence_target,
	.fences = sim_card_fences,
	.busy_ns = sim_card_busy_ns,
	.chan_busy_ns = sim_card_chan_busy_ns,
};

#define SIM_VRAM_DEFAULT (128ull << 20)
#define SIM_GART_DEFAULT (512ull << 20)

int nvd_card_sim_check(const struct nvd_card_opts *o, const char *chip, char *err, size_t errlen)
{
	uint64_t vram = o->vram_size ? o->vram_size : SIM_VRAM_DEFAULT;
	uint64_t gart = o->gart_size ? o->gart_size : SIM_GART_DEFAULT;

	if (!nv_chip_by_name(chip)) {
		int n = snprintf(err, errlen, "unknown chip '%s' (simulated chips:", chip);
		for (unsigned i = 0; i < NV_NCHIPS && n >= 0 && (size_t)n < errlen; i++)
			n += snprintf(err + n, errlen - (size_t)n, "%s %s", i ? "," : "", nv_chips[i].name);
		if (n >= 0 && (size_t)n < errlen)
			snprintf(err + n, errlen - (size_t)n, ")");
		return -EINVAL;
	}
	if (vram < (32ull << 20) || (vram & (vram - 1)) || vram > (1ull << 30)) {
		snprintf(err, errlen, "VRAM size %llu MiB: must be a power of two from 32 MiB to 1 GiB",
			 (unsigned long long)(vram >> 20));
		return -EINVAL;
	}
	if (gart < (16ull << 20) || (gart & 4095) || gart > (4ull << 30)) {
		snprintf(err, errlen, "GART size %llu MiB: must be 16 MiB to 4 GiB, page aligned",
			 (unsigned long long)(gart >> 20));
		return -EINVAL;
	}
	return 0;
}

struct nvd_card *nvd_card_sim_open(const struct nvd_card_opts *o, const char *chip, char *err,
				   size_t errlen)
{
	const struct nv_chip *cp = nv_chip_by_name(chip);
	uint64_t vram = o->vram_size ? o->vram_size : SIM_VRAM_DEFAULT;
	uint64_t gart = o->gart_size ? o->gart_size : SIM_GART_DEFAULT;

	if (nvd_card_sim_check(o, chip, err, errlen) < 0)
		return NULL;
	struct nvd_card_sim *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&s->fence_lock, NULL);
	s->c.gart = mmap(NULL, gart, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->c.gart == MAP_FAILED) {
		snprintf(err, errlen, "cannot reserve %llu MiB of bus window: %s",
			 (unsigned long long)(gart >> 20), strerror(errno));
		free(s);
		return NULL;
	}
	struct sim_config cfg = { .chipset = cp->chipset, .vram_size = vram,
				  .sysmem = s->c.gart, .sysmem_size = gart,
				  .threads = o->sim_threads, .manual = o->sim_manual,
				  .irq_hook = sim_card_irq, .irq_arg = s,
				  .jit = o->sim_jit == NVD_SIM_JIT_VERIFY ? SIM_JIT_VERIFY :
					 o->sim_jit == NVD_SIM_JIT_SYNC ? SIM_JIT_SYNC :
					 o->sim_jit == NVD_SIM_JIT_ON ? SIM_JIT_ON :
					 o->sim_jit == NVD_SIM_JIT_DEFAULT && sim_jit_built() ?
					 SIM_JIT_ON : SIM_JIT_OFF };
	_Static_assert(sizeof(cfg.edid) / sizeof(cfg.edid[0]) == NVD_CARD_OUTPUTS, "outputs");
	for (unsigned i = 0; i < NVD_CARD_OUTPUTS; i++)
		cfg.edid[i] = o->edid[i];
	s->sim = sim_new(&cfg, err, errlen);
	if (!s->sim) {
		munmap(s->c.gart, gart);
		free(s);
		return NULL;
	}
	if (o->sim_check && sim_oracle_enable(s->sim, NVD_SUBC_DAEMON) < 0) {
		snprintf(err, errlen, "out of memory for the access oracle");
		sim_free(s->sim);
		munmap(s->c.gart, gart);
		free(s);
		return NULL;
	}
	s->c.ops = &sim_card_ops;
	s->c.chip = cp;
	snprintf(s->c.desc, sizeof(s->c.desc), "simulated %s (%s), %llu MiB VRAM", cp->name,
		 cp->product, (unsigned long long)(vram >> 20));
	snprintf(s->c.bus_id, sizeof(s->c.bus_id), "sim");
	s->c.pci_vendor = NV_PCI_VENDOR_NVIDIA;
	s->c.pci_device = cp->pci_id;
	s->c.vram = sim_vram(s->sim);
	s->c.vram_size = vram;
	s->c.gart_bus = 0;
	s->c.gart_size = gart;
	s->c.irq_fd = sim_irq_fd(s->sim);
	return &s->c;
}
