/* Fragment threads (bands.h).  The worker queues each triangle set up
 * (sim_raster_setup) in a batch; lane k of n rasterises, in queue order,
 * the rows of every queued triangle that lie in the bands of BANDS_ROWS
 * rows a pattern repeating every BANDS_PERIOD bands gives it, so each
 * pixel is written by one thread in submission order and the result is
 * the single-threaded one bit for bit.  The pattern is fixed for a batch;
 * between batches the worker's part grows or shrinks by a band after
 * whoever waited for the other (bands_balance).  Lane 0 is the worker;
 * every lane has its own scratch (quad, program decode, sample count; the
 * worker's counts into the channel's query counter directly, the
 * helpers' are summed after the batch).
 *
 * A batch spans draws: each triangle carries its draw's setup, and the
 * setups stay as they are while queued (they come from a ring here,
 * sim_bands_setup, which syncs before it hands out one the batch holds).
 * A draw joins the batch when sim_draw_may_follow says the bands of both
 * map to the same bytes and neither reads (samples, runs as its program)
 * what the other writes, and when only state and vertices of the same 3D
 * object came between (sim_3d_sync_mthd); a draw that writes its own
 * program is never split (bands_fix_program).  The
 * helpers join a batch only once its triangles cover BANDS_SPLIT_AREA
 * pixels of bounding box: small batches stay on the worker, which
 * rasterises them whole at sync, without a hand-over.  Once joined, the
 * helpers follow the queue as it grows and the worker does its own share
 * every BANDS_WORKER_STEP triangles or BANDS_WORKER_AREA pixels of
 * bounding box (large triangles: the helpers would run out of queue
 * while the worker shades 32 of them) and at sync.  There the batch
 * closes: each helper finishes the jobs left in its bands a band at a
 * time, the worker taking the bands a helper has not begun (bands_tail),
 * and then waits for them (spinning briefly, then sleeping).  A band's
 * jobs still run on one thread, in queue order.
 *
 * Other work on rows (a clear) goes the same way as one job without a
 * setup (sim_bands_rows): queued alone, each lane calling back for its
 * bands, done by the time sim_bands_rows returns.
 *
 * A fragment program failure (sim_raster_run's lane fail) traps at sync,
 * on the last method executed, and stops that lane's part of the draw: the
 * pixels a failing draw leaves may differ from one thread's then, but
 * nothing is ever written outside the draw's render targets. */
#include "bands.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "curie.h"
#include "hw/enums-3d.h"
#include "pipe.h"

#define BANDS_ROWS         16       /* even: 2x2 quads never straddle bands */
#define BANDS_PERIOD       12       /* bands the ownership pattern repeats after: the
					   worker's share moves by a twelfth */
#define BANDS_JOBS         4096     /* triangles one batch holds */
#define BANDS_SETUPS       32       /* draws one batch may span */
#define BANDS_SPLIT_AREA   4096     /* bounding-box pixels before helpers join */
#define BANDS_WORKER_STEP  32
#define BANDS_WORKER_AREA  65536    /* or bounding-box pixels queued since */
#define BANDS_ROWS_AREA    65536    /* pixels before sim_bands_rows shares the rows */
#define BANDS_SPIN_NS      200000   /* spin this long before sleeping */
#define BANDS_MAX          6        /* lanes; each owns a band of a period at least */
#define BANDS_BALANCE_NS   20000    /* difference in waits that moves a band */
#define BANDS_CLAIMS       (DRAW_CLIP_MAX / BANDS_ROWS)  /* bands of the rows a draw's clip keeps */

/* A lane's scratch and the first draw whose program failed on it. */
struct bands_lane {
	struct draw_lane l;
	struct sim_fp_quad quad;
	struct sim_fp_cache fpc;
	const struct draw_setup *failed;
};

struct bands_helper {
	struct sim_bands *b;
	pthread_t th;
	unsigned idx;                     /* lane number, 1.. */
	struct bands_lane lane;
	uint32_t samples;
	uint64_t done;                    /* last epoch finished (atomic) */
	/* atomics: in epoch tail_epoch it ran the jobs before tail_from in all
	 * its bands, job tail_from in those below row tail_row, then let its
	 * bands be claimed (bands_tail) */
	uint64_t tail_epoch;
	unsigned tail_from;
	int tail_row;
	uint64_t idle_ns;                 /* waiting for the worker's triangles, this epoch */
} __attribute__((aligned(64)));

struct sim_bands {
	struct sim *s;
	unsigned n;                       /* lanes, the worker's included */
	unsigned nstarted;
	struct bands_helper *h;           /* n - 1 of them */
	struct draw_tri_job *jobs;

	/* the worker's */
	int pending, engaged;
	unsigned njobs, wpos;
	uint64_t area;                    /* bounding-box pixels queued (engaged: since its share) */
	int ylo, yhi;                     /* rows the queued jobs span */
	struct draw_setup *setups;        /* BANDS_SETUPS, a ring (sim_bands_setup) */
	unsigned cur;
	struct draw_setup *ds[BANDS_SETUPS];  /* the setups of the queued triangles */
	unsigned nds;
	struct sim_grctx *g;
	unsigned chid, subc;
	struct bands_lane wl;
	unsigned share;                   /* bands of a period the worker owns */
	sim_bands_rows_fn *rows;          /* sim_bands_rows' */
	void *rows_arg;

	/* shared: the owners of a period's bands, set before an epoch starts */
	uint8_t own[BANDS_PERIOD];
	uint64_t claimed[BANDS_CLAIMS];   /* atomics: the epoch whose tail took the band */
	/* atomics */
	uint64_t epoch, closed;           /* 64 bits: an old claim never reads as this epoch's */
	unsigned published;
	int stop, sleepers, wwait;
	int running;                      /* helpers inside a job (sim_bands_quiesce) */
	pthread_mutex_t mu;
	pthread_cond_t work, done;
};

/* ---- waiting ---- */

static uint64_t bands_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void bands_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

#define LD(x)    __atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define ST(x, v) __atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)

/* Spin on ready(b, arg), then sleep on cv counted in *count; whoever
 * makes ready true stores (seq_cst) and then wakes cv when *count is set,
 * so either the sleeper sees its store or it sees the sleeper. */
static void bands_wait(struct sim_bands *b, pthread_cond_t *cv, int *count,
		       int (*ready)(struct sim_bands *b, void *arg), void *arg)
{
	uint64_t t0 = 0;

	for (unsigned i = 0;; i++) {
		if (ready(b, arg))
			return;
		bands_pause();
		if ((i & 255) == 255) {
			uint64_t t = bands_now();
			if (!t0)
				t0 = t;
			else if (t - t0 > BANDS_SPIN_NS)
				break;
			sched_yield();       /* a thread we wait for may share the core */
		}
	}
	pthread_mutex_lock(&b->mu);
	__atomic_add_fetch(count, 1, __ATOMIC_SEQ_CST);
	while (!ready(b, arg))
		pthread_cond_wait(cv, &b->mu);
	__atomic_sub_fetch(count, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&b->mu);
}

static void bands_wake(struct sim_bands *b, pthread_cond_t *cv, int *count)
{
	if (LD(*count)) {
		pthread_mutex_lock(&b->mu);
		pthread_cond_broadcast(cv);
		pthread_mutex_unlock(&b->mu);
	}
}

/* ---- one lane's share ---- */

static void bands_lane_init(struct bands_lane *bl, uint32_t *samples, struct sim *s, int worker)
{
	bl->l = (struct draw_lane){ &bl->quad, &bl->fpc, samples, 0, NULL, s, worker };
	bl->failed = NULL;
}

/* Rows [lo, hi) of j on lane bl.  The quad's inputs start from the
 * defaults at each new draw (those its varyings do not write read so). */
static void bands_run_rows(const struct sim_bands *b, struct bands_lane *bl,
			   const struct draw_tri_job *j, int lo, int hi)
{
	const struct draw_setup *d = j->d;
	struct draw_lane *l = &bl->l;

	if (!d) {                    /* sim_bands_rows' job */
		b->rows(b->rows_arg, lo > j->y0 ? lo : j->y0, hi < j->y1 ? hi : j->y1);
		return;
	}
	if (l->d != d) {
		memcpy(l->q->in, d->quad.in, sizeof(l->q->in));
		l->d = d;
	}
	l->fail = bl->failed == d;
	sim_raster_run(d, l, j, lo, hi);
	if (l->fail && !bl->failed)
		bl->failed = d;
}

/* Lane k's rows of j: the bands of j's rows the pattern gives k (a test
 * per band of rows, not per pixel); k < 0: every row.  A helper's (epoch
 * not 0) stops before a band once the batch of that epoch is closed and
 * returns the first row it left; INT_MAX when it ran them all. */
static int bands_run(const struct sim_bands *b, struct bands_lane *bl, int k,
		     const struct draw_tri_job *j, uint64_t epoch)
{
	unsigned band = (unsigned)j->y0 / BANDS_ROWS, r = band % BANDS_PERIOD;

	if (k < 0) {
		bands_run_rows(b, bl, j, INT_MIN, INT_MAX);
		return INT_MAX;
	}
	for (; (int)(band * BANDS_ROWS) < j->y1; band++, r = r + 1 == BANDS_PERIOD ? 0 : r + 1)
		if (b->own[r] == k) {
			if (epoch && LD(b->closed) == epoch)
				return (int)(band * BANDS_ROWS);
			bands_run_rows(b, bl, j, (int)(band * BANDS_ROWS), (int)((band + 1) * BANDS_ROWS));
		}
	return INT_MAX;
}

/* ---- the tail of an epoch ---- */

/* Once the batch is closed, a helper stops going through the jobs one by
 * one (at the next of its bands) and finishes its bands one by one
 * instead, each band the jobs it has not run: from job tail_from, or the
 * one after it for the bands that start before row tail_row, where it
 * stopped in that job.  The worker, done with its own, claims the bands a
 * helper has not begun the same way (from the bottom).  Either way one
 * thread runs a band's jobs in queue order. */
static int bands_claim(struct sim_bands *b, unsigned band, uint64_t epoch)
{
	uint64_t old = LD(b->claimed[band]);
	return old != epoch && __atomic_compare_exchange_n(&b->claimed[band], &old, epoch, 0,
							   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/* Band `band`'s rows of the jobs left after a helper's tail_from and
 * tail_row (from, row), up to n. */
static void bands_run_band(const struct sim_bands *b, struct bands_lane *bl, unsigned band,
			   unsigned from, int row, unsigned n)
{
	int lo = (int)(band * BANDS_ROWS), hi = lo + BANDS_ROWS;

	for (unsigned i = from + (lo < row); i < n; i++)
		if (b->jobs[i].y0 < hi && b->jobs[i].y1 > lo)
			bands_run_rows(b, bl, &b->jobs[i], lo, hi);
}

/* The bands the closed batch's jobs reach, [*lo, *hi). */
static void bands_span(const struct sim_bands *b, unsigned *lo, unsigned *hi)
{
	*lo = (unsigned)b->ylo / BANDS_ROWS;
	*hi = ((unsigned)b->yhi + BANDS_ROWS - 1) / BANDS_ROWS;
}

/* Helper k's bands left after (from, row) in the closed batch, those no
 * one claimed before it; steal: the worker's, from the bottom, and none
 * past the claims (the clip keeps every row inside them). */
static void bands_tail(struct sim_bands *b, struct bands_lane *bl, unsigned k, unsigned from,
		       int row, int steal)
{
	uint64_t epoch = LD(b->epoch);
	unsigned n = LD(b->published), lo, hi;

	bands_span(b, &lo, &hi);
	if (steal && hi > BANDS_CLAIMS)
		hi = BANDS_CLAIMS;
	for (unsigned i = lo; i < hi; i++) {
		unsigned band = steal ? hi - 1 - (i - lo) : i;
		if (b->own[band % BANDS_PERIOD] == k &&
		    (band < BANDS_CLAIMS ? bands_claim(b, band, epoch) : !steal))
			bands_run_band(b, bl, band, from, row, n);
	}
}

/* ---- helpers ---- */

/* Helper h's part of the closed batch left after (from, row): its bands
 * one by one, the worker taking some.  It claims the first before the
 * worker may take any: a helper that began the batch always has a part
 * in its tail. */
static void bands_helper_tail(struct sim_bands *b, struct bands_helper *h, unsigned from, int row)
{
	uint64_t epoch = LD(b->epoch);
	unsigned band, hi;

	bands_span(b, &band, &hi);
	while (band < hi && !(b->own[band % BANDS_PERIOD] == h->idx && band < BANDS_CLAIMS &&
			      bands_claim(b, band, epoch)))
		band++;
	ST(h->tail_from, from);
	ST(h->tail_row, row);
	ST(h->tail_epoch, epoch);
	bands_wake(b, &b->done, &b->wwait);
	if (LD(b->s->gr_abort))
		return;
	if (band < hi)
		bands_run_band(b, &h->lane, band, from, row, LD(b->published));
	bands_tail(b, &h->lane, h->idx, from, row, 0);
}

struct bands_wait_new {
	uint64_t seen;
};

static int bands_new_epoch(struct sim_bands *b, void *arg)
{
	const struct bands_wait_new *w = arg;
	return LD(b->stop) || LD(b->epoch) != w->seen;
}

struct bands_wait_jobs {
	uint64_t epoch;
	unsigned have;
};

static int bands_more(struct sim_bands *b, void *arg)
{
	const struct bands_wait_jobs *w = arg;
	return LD(b->published) != w->have || LD(b->closed) == w->epoch;
}

static void *bands_helper_main(void *arg)
{
	struct bands_helper *h = arg;
	struct sim_bands *b = h->b;
	struct bands_wait_new wn = { 0 };

	for (;;) {
		bands_wait(b, &b->work, &b->sleepers, bands_new_epoch, &wn);
		if (LD(b->stop))
			break;
		wn.seen = LD(b->epoch);
		struct bands_wait_jobs wj = { wn.seen, 0 };
		for (;;) {
			unsigned np = LD(b->published);
			int row = INT_MAX;      /* where the close stopped a job */
			for (; wj.have < np && row == INT_MAX; wj.have += row == INT_MAX) {
				/* counted before the abandon is looked at: a reset
				 * either sees this job or it is skipped */
				__atomic_add_fetch(&b->running, 1, __ATOMIC_SEQ_CST);
				if (!LD(b->s->gr_abort))
					row = bands_run(b, &h->lane, (int)h->idx, &b->jobs[wj.have], wn.seen);
				__atomic_sub_fetch(&b->running, 1, __ATOMIC_SEQ_CST);
			}
			if (row != INT_MAX || LD(b->closed) == wn.seen) {
				__atomic_add_fetch(&b->running, 1, __ATOMIC_SEQ_CST);
				bands_helper_tail(b, h, wj.have, row == INT_MAX ? 0 : row);
				__atomic_sub_fetch(&b->running, 1, __ATOMIC_SEQ_CST);
				break;
			}
			uint64_t t0 = bands_now();
			bands_wait(b, &b->work, &b->sleepers, bands_more, &wj);
			h->idle_ns += bands_now() - t0;
		}
		ST(h->done, wn.seen);
		bands_wake(b, &b->done, &b->wwait);
	}
	return NULL;
}

/* ---- the worker's side ---- */

static int bands_all_done(struct sim_bands *b, void *arg)
{
	(void)arg;
	for (unsigned i = 0; i + 1 < b->n; i++)
		if (LD(b->h[i].done) != LD(b->epoch))
			return 0;
	return 1;
}

static void bands_engage(struct sim_bands *b)
{
	for (unsigned i = 0; i + 1 < b->n; i++) {
		struct bands_helper *h = &b->h[i];
		h->samples = 0;
		h->idle_ns = 0;
		bands_lane_init(&h->lane, &h->samples, b->s, 0);
	}
	b->engaged = 1;
	/* the worker's bands spread evenly over the period, the helpers' in
	 * turn between them: a draw over a few bands falls to all lanes */
	for (unsigned r = 0, k = 0; r < BANDS_PERIOD; r++)
		b->own[r] = (uint8_t)((r + 1) * b->share / BANDS_PERIOD != r * b->share / BANDS_PERIOD ? 0 :
				      1 + k++ % (b->n - 1));
	ST(b->published, b->njobs);
	ST(b->epoch, b->epoch + 1);
	bands_wake(b, &b->work, &b->sleepers);
}

static void bands_worker_share(struct sim_bands *b)
{
	b->area = 0;
	for (; b->wpos < b->njobs; b->wpos++)
		bands_run(b, &b->wl, 0, &b->jobs[b->wpos], 0);
}

/* Bands of the closed batch the helpers have not begun: each helper's
 * once it goes band by band (or is done). */
static int bands_in_tail(struct sim_bands *b, void *arg)
{
	const struct bands_helper *h = arg;
	return LD(h->tail_epoch) == b->epoch;
}

static void bands_steal(struct sim_bands *b)
{
	for (unsigned i = 0; i + 1 < b->n; i++) {
		struct bands_helper *h = &b->h[i];
		bands_wait(b, &b->done, &b->wwait, bands_in_tail, h);
		bands_tail(b, &b->wl, h->idx, LD(h->tail_from), LD(h->tail_row), 1);
	}
}

/* The worker also assembles, transforms and sets up every triangle: move
 * a band its way when it waited for the helpers at the end, the helpers'
 * way when they waited for its triangles longer. */
static void bands_balance(struct sim_bands *b, uint64_t waited, uint64_t idle)
{
	if (waited > idle + BANDS_BALANCE_NS && b->share + 1 < BANDS_PERIOD)
		b->share++;
	else if (idle > waited + BANDS_BALANCE_NS && b->share > 1)
		b->share--;
}

/* A draw whose program failed on a lane is over: it traps, once. */
static int bands_failed(struct sim_bands *b, const struct draw_setup *failed)
{
	for (unsigned i = 0; failed && i < b->nds; i++)
		if (b->ds[i] == failed)
			b->ds[i]->broken = 1;
	return failed != NULL;
}

void sim_bands_quiesce(struct sim *s)
{
	struct sim_bands *b = s->bands;

	while (b && LD(b->running))
		sched_yield();       /* a quad at most: each looks at gr_abort */
}

void sim_3d_sync(struct sim *s)
{
	struct sim_bands *b = s->bands;

	if (!b || !b->pending)
		return;
	sim_gr_begin(s);
	int fail;
	if (!b->engaged) {
		for (unsigned i = 0; i < b->njobs; i++)
			bands_run(b, &b->wl, -1, &b->jobs[i], 0);
		fail = bands_failed(b, b->wl.failed);
	} else {
		ST(b->closed, b->epoch);
		bands_wake(b, &b->work, &b->sleepers);
		bands_worker_share(b);
		bands_steal(b);
		uint64_t t0 = bands_now();
		/* PGRAPH is busy meanwhile; the host may come in */
		pthread_mutex_unlock(&s->lock);
		bands_wait(b, &b->done, &b->wwait, bands_all_done, NULL);
		pthread_mutex_lock(&s->lock);
		uint64_t waited = bands_now() - t0, idle = 0;
		fail = bands_failed(b, b->wl.failed);
		for (unsigned i = 0; i + 1 < b->n; i++) {
			b->g->c3d.query_samples += b->h[i].samples;
			fail |= bands_failed(b, b->h[i].lane.failed);
			idle = b->h[i].idle_ns > idle ? b->h[i].idle_ns : idle;
		}
		bands_balance(b, waited, idle);
	}
	b->pending = 0;
	b->engaged = 0;
	b->njobs = 0;
	b->nds = 0;
	if (fail)
		sim_gr_trap(s, NV_PGRAPH_NSOURCE_DATA_ERROR);
	sim_gr_end(s);
}

void sim_3d_sync_mthd(struct sim *s, unsigned chid, unsigned subc, uint32_t mthd, int gr)
{
	struct sim_bands *b = s->bands;

	if (!b || !b->pending)
		return;
	if (chid == b->chid && subc == b->subc && sim_curie_keeps_queue(mthd))
		return;
	/* Mesa uploads fragment programs (their constants inside) with small
	 * M2MF copies between draws */
	if (chid == b->chid && subc != b->subc &&
	    (mthd == NV_FIFO_OBJECT || (gr && s->gr.subc_class[subc] == NV_CLASS_M2MF)))
		return;
	sim_3d_sync(s);
}

void sim_3d_sync_touch(struct sim *s, const uint8_t *lo, uint64_t len)
{
	struct sim_bands *b = s->bands;

	for (unsigned i = 0; b && b->pending && i < b->nds; i++)
		if (!lo || sim_draw_touches(b->ds[i], lo, len)) {
			sim_3d_sync(s);
			return;
		}
}

static int bands_holds(const struct sim_bands *b, const struct draw_setup *d)
{
	for (unsigned i = 0; b && b->pending && i < b->nds; i++)
		if (b->ds[i] == d)
			return 1;
	return 0;
}

struct draw_setup *sim_bands_setup(struct sim *s, int fresh)
{
	struct sim_bands *b = s->bands;

	if (fresh) {
		b->cur = (b->cur + 1) % BANDS_SETUPS;
		if (bands_holds(b, &b->setups[b->cur]))
			sim_3d_sync(s);
	}
	return &b->setups[b->cur];
}

/* May d's triangles join the queued ones (d not among them)? */
static int bands_may_join(const struct sim_bands *b, const struct draw_setup *d)
{
	if (b->nds == BANDS_SETUPS)
		return 0;
	for (unsigned i = 0; i < b->nds; i++)
		if (!sim_draw_may_follow(b->ds[i], d))
			return 0;
	return 1;
}

static void bands_begin(struct sim_bands *b, struct sim_grctx *g)
{
	b->pending = 1;
	b->engaged = 0;
	b->njobs = 0;
	b->wpos = 0;
	b->area = 0;
	b->ylo = INT_MAX;
	b->yhi = 0;
	b->nds = 0;
	b->g = g;
	b->chid = b->s->gr_chid;
	b->subc = b->s->gr_subc;
	bands_lane_init(&b->wl, &g->c3d.query_samples, b->s, 1);
}

/* Fixes what of d's program the lanes read while it is queued: a straight
 * one up to its END (what its cache holds), any other the whole window;
 * those bytes stay as they are until the sync (sim_3d_sync_touch).  0
 * when d writes some of them itself (its pixels would depend on which
 * thread shades first): it is not split then. */
static int bands_fix_program(struct draw_setup *d)
{
	d->fp_used = sim_fp_cache_check(&d->fpc, d->fp, d->fp_len) == 1 ? d->fpc.hi : d->fp_len;
	return !sim_draw_writes_program(d);
}

int sim_bands_push(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
		   const struct draw_tri_job *j)
{
	struct sim_bands *b = s->bands;

	if (!b)
		return 0;
	int held = bands_holds(b, d), split = d->split && (held || bands_fix_program(d));
	if (b->pending && (b->g != g || b->chid != s->gr_chid || b->subc != s->gr_subc ||
			   b->njobs == BANDS_JOBS || !split || (!held && !bands_may_join(b, d)))) {
		sim_3d_sync(s);
		/* the queue may have written the program */
		held = 0;
		split = d->split && bands_fix_program(d);
	}
	if (d->broken)
		return 1;                    /* the sync trapped: the draw is over */
	if (!split)
		return 0;
	if (!b->pending)
		bands_begin(b, g);
	if (!held)
		b->ds[b->nds++] = d;
	/* the planes of the varyings the draw has */
	struct draw_tri_job *q = &b->jobs[b->njobs++];
	memcpy(q, j, offsetof(struct draw_tri_job, pv) + d->nvary * sizeof(j->pv[0]));
	q->d = d;
	b->area += (uint64_t)(j->x1 - j->x0) * (uint64_t)(j->y1 - j->y0);
	b->ylo = j->y0 < b->ylo ? j->y0 : b->ylo;
	b->yhi = j->y1 > b->yhi ? j->y1 : b->yhi;
	if (b->engaged) {
		ST(b->published, b->njobs);
		bands_wake(b, &b->work, &b->sleepers);
		if (b->njobs - b->wpos >= BANDS_WORKER_STEP || b->area >= BANDS_WORKER_AREA)
			bands_worker_share(b);
	} else if (b->area >= BANDS_SPLIT_AREA) {
		bands_engage(b);
	}
	return 1;
}

void sim_bands_rows(struct sim *s, struct sim_grctx *g, int y0, int y1, uint64_t area,
		    sim_bands_rows_fn *fn, void *arg)
{
	struct sim_bands *b = s->bands;

	if (!b || area < BANDS_ROWS_AREA) {
		fn(arg, y0, y1);
		return;
	}
	sim_3d_sync(s);
	bands_begin(b, g);
	b->rows = fn;
	b->rows_arg = arg;
	b->jobs[0] = (struct draw_tri_job){ .d = NULL, .y0 = y0, .y1 = y1 };
	b->njobs = 1;
	b->ylo = y0;
	b->yhi = y1;
	bands_engage(b);
	sim_3d_sync(s);
}

/* ---- life cycle ---- */

int sim_bands_start(struct sim *s, unsigned threads)
{
	struct sim_bands *b;

	s->bands = NULL;
	if (threads <= 1)
		return 0;
	if (threads > BANDS_MAX)
		threads = BANDS_MAX;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -1;
	b->s = s;
	b->n = threads;
	b->share = BANDS_PERIOD / threads > 0 ? BANDS_PERIOD / threads : 1;
	b->jobs = malloc(sizeof(*b->jobs) * BANDS_JOBS);
	b->setups = calloc(BANDS_SETUPS, sizeof(*b->setups));
	if (posix_memalign((void **)&b->h, 64, sizeof(*b->h) * (threads - 1)))
		b->h = NULL;
	if (!b->jobs || !b->setups || !b->h) {
		free(b->jobs);
		free(b->setups);
		free(b->h);
		free(b);
		return -1;
	}
	memset(b->h, 0, sizeof(*b->h) * (threads - 1));
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->work, NULL);
	pthread_cond_init(&b->done, NULL);
	s->bands = b;
	for (unsigned i = 0; i + 1 < threads; i++) {
		struct bands_helper *h = &b->h[i];
		h->b = b;
		h->idx = i + 1;
		if (pthread_create(&h->th, NULL, bands_helper_main, h)) {
			sim_bands_stop(s);
			return -1;
		}
		b->nstarted++;
	}
	return 0;
}

void sim_bands_stop(struct sim *s)
{
	struct sim_bands *b = s->bands;

	if (!b)
		return;
	ST(b->stop, 1);
	pthread_mutex_lock(&b->mu);
	pthread_cond_broadcast(&b->work);
	pthread_mutex_unlock(&b->mu);
	for (unsigned i = 0; i < b->nstarted; i++)
		pthread_join(b->h[i].th, NULL);
	pthread_cond_destroy(&b->work);
	pthread_cond_destroy(&b->done);
	pthread_mutex_destroy(&b->mu);
	free(b->jobs);
	free(b->setups);
	free(b->h);
	free(b);
	s->bands = NULL;
}
