/* The compiled fragment pipeline's cache and compiler (jit.h).  Programs
 * are keyed by their instruction words (not their inline constants, which
 * the code reads at run time) and FP_CONTROL's depth bits.  One ORC LLJIT
 * holds all code until sim_jit_free; a single lock serialises compiles,
 * since LLVM's target machine is not thread-safe (ref/llvm-jit.md §2.5).
 * The draw path reads a program's function with an acquire load and
 * interprets until it is there. */
#include "jit.h"
#include "jit-fp.h"
#include "half.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/fp-isa.h"

#define JIT_MAX_PROGRAMS 1024    /* keys kept; later programs are interpreted */
#define JIT_BUCKETS      256

enum { JE_QUEUED, JE_READY, JE_REFUSED, JE_FAILED };

struct jit_entry {
	struct jit_entry *next;      /* in its bucket */
	struct jit_entry *qnext;     /* in the compile queue */
	uint32_t hash, control;
	unsigned n, id;
	int perturb;
	uint32_t *words;             /* the n instructions' words */
	uint8_t *slot;
	struct sim_fp_dec *dec;      /* the compiler's copy */
	sim_jit_fp_fn *fn;           /* atomic: set once, when ready */
};

struct sim_jit {
	unsigned mode;
	uint64_t serial;             /* unique in the process: caches name their compiler by it */
	pthread_mutex_t lock;        /* the table, the queue, the statistics */
	pthread_cond_t wake;
	pthread_t thread;
	int started, stop;
	struct jit_entry *bucket[JIT_BUCKETS];
	struct jit_entry *qhead, **qtail;
	struct jit_entry full;       /* what lookups get once the table is full */
	unsigned nentries;
	int perturb;
	struct sim_jit_stats st;     /* lookups and hits: atomic */

	pthread_mutex_t compile;     /* the LLVM objects below */
	LLVMOrcLLJITRef lljit;
	LLVMTargetMachineRef tm;     /* the passes' */
	char *triple;
};

/* ---- helpers the code calls ---- */

static void jit_half4(float v[4])
{
	for (unsigned i = 0; i < 4; i++)
		v[i] = sim_h2f(sim_f2h(v[i]));
}

static const uint32_t jit_signs[8] __attribute__((aligned(16))) = {
	0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u,
	0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu,
};

static LLVMErrorRef jit_define_helpers(LLVMOrcLLJITRef J)
{
	static const struct { const char *name; const void *fn; } h[] = {
		{ JIT_FP_EXP2F, (void *)exp2f }, { JIT_FP_LOG2F, (void *)log2f },
		{ JIT_FP_SINF, (void *)sinf },   { JIT_FP_COSF, (void *)cosf },
		{ JIT_FP_HALF4, (void *)jit_half4 }, { JIT_FP_SIGNS, jit_signs },
	};
	LLVMOrcCSymbolMapPair p[sizeof(h) / sizeof(h[0])];

	for (unsigned i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		p[i].Name = LLVMOrcLLJITMangleAndIntern(J, h[i].name);
		p[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)h[i].fn;
		p[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
		p[i].Sym.Flags.TargetFlags = 0;
	}
	return LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(J),
				     LLVMOrcAbsoluteSymbols(p, sizeof(h) / sizeof(h[0])));
}

/* ---- set-up ---- */

static void jit_target_init(void)
{
	LLVMInitializeNativeTarget();
	LLVMInitializeNativeAsmPrinter();
}

static void jit_error(LLVMErrorRef e, char *err, size_t errlen)
{
	char *msg = LLVMGetErrorMessage(e);
	snprintf(err, errlen, "LLVM: %s", msg);
	LLVMDisposeErrorMessage(msg);
}

/* The host's CPU and every feature it has: LLVM calls this VM's CPU
 * "generic" while it has AVX-512.  No fusion can come of it: the IR holds
 * no fmuladd and no contract flags. */
static LLVMTargetMachineRef jit_tm(const char *triple)
{
	LLVMTargetRef t;
	char *msg = NULL;

	if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
		LLVMDisposeMessage(msg);
		return NULL;
	}
	char *cpu = LLVMGetHostCPUName(), *feat = LLVMGetHostCPUFeatures();
	LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, triple, cpu, feat, LLVMCodeGenLevelDefault,
							  LLVMRelocDefault, LLVMCodeModelJITDefault);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(feat);
	return tm;
}

static void *jit_thread(void *arg);

int sim_jit_built(void)
{
	return 1;
}

struct sim_jit *sim_jit_new(unsigned mode, char *err, size_t errlen)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	static uint64_t serials;
	struct sim_jit *j;

	if (mode == SIM_JIT_OFF)
		return NULL;
	pthread_once(&once, jit_target_init);
	j = calloc(1, sizeof(*j));
	if (!j) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	j->mode = mode;
	j->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	j->qtail = &j->qhead;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->wake, NULL);
	pthread_mutex_init(&j->compile, NULL);
	j->triple = LLVMGetDefaultTargetTriple();
	j->tm = jit_tm(j->triple);
	LLVMTargetMachineRef jtm = jit_tm(j->triple);
	if (!j->tm || !jtm) {
		snprintf(err, errlen, "LLVM has no target for %s", j->triple);
		if (jtm)
			LLVMDisposeTargetMachine(jtm);
		sim_jit_free(j);
		return NULL;
	}
	LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(b, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jtm));
	LLVMErrorRef e = LLVMOrcCreateLLJIT(&j->lljit, b);
	if (!e)
		e = jit_define_helpers(j->lljit);
	if (e) {
		jit_error(e, err, errlen);
		sim_jit_free(j);
		return NULL;
	}
	if (mode == SIM_JIT_ON) {
		int r = pthread_create(&j->thread, NULL, jit_thread, j);
		if (r) {
			snprintf(err, errlen, "compile thread: %s", strerror(r));
			sim_jit_free(j);
			return NULL;
		}
		j->started = 1;
	}
	return j;
}

void sim_jit_free(struct sim_jit *j)
{
	if (!j)
		return;
	if (j->started) {
		pthread_mutex_lock(&j->lock);
		j->stop = 1;
		pthread_cond_signal(&j->wake);
		pthread_mutex_unlock(&j->lock);
		pthread_join(j->thread, NULL);
	}
	for (unsigned b = 0; b < JIT_BUCKETS; b++)
		for (struct jit_entry *e = j->bucket[b], *n; e; e = n) {
			n = e->next;
			free(e->words);
			free(e->slot);
			free(e->dec);
			free(e);
		}
	if (j->lljit)
		LLVMOrcDisposeLLJIT(j->lljit);
	if (j->tm)
		LLVMDisposeTargetMachine(j->tm);
	LLVMDisposeMessage(j->triple);
	pthread_mutex_destroy(&j->compile);
	pthread_cond_destroy(&j->wake);
	pthread_mutex_destroy(&j->lock);
	free(j);
}

/* ---- compiling ---- */

static double jit_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The entry's module: built, verified, optimised; NULL with *state set
 * when the compiler refuses the program or LLVM fails. */
static LLVMModuleRef jit_module(struct sim_jit *j, struct jit_entry *e, LLVMContextRef cx,
				const char *name, int *state)
{
	struct jit_fp_prog p = { e->n, e->dec, e->slot, e->control, e->perturb };
	LLVMModuleRef m = LLVMModuleCreateWithNameInContext(name, cx);
	char *msg = NULL;

	LLVMSetTarget(m, j->triple);
	LLVMTargetDataRef td = LLVMCreateTargetDataLayout(j->tm);
	LLVMSetModuleDataLayout(m, td);
	LLVMDisposeTargetData(td);
	if (jit_fp_build(m, name, &p) < 0) {
		*state = JE_REFUSED;
		LLVMDisposeModule(m);
		return NULL;
	}
	/* LLVM hands back a message, empty or not, either way */
	int bad = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
	LLVMDisposeMessage(msg);
	if (!bad) {
		LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
		LLVMErrorRef err = LLVMRunPasses(m, "default<O2>", j->tm, o);
		LLVMDisposePassBuilderOptions(o);
		if (!err)
			return m;
		LLVMConsumeError(err);
	}
	*state = JE_FAILED;
	LLVMDisposeModule(m);
	return NULL;
}

static void jit_compile(struct sim_jit *j, struct jit_entry *e)
{
	char name[32];
	int state = JE_READY;
	LLVMOrcExecutorAddress addr = 0;

	snprintf(name, sizeof(name), "nvd_fp%u", e->id);
	pthread_mutex_lock(&j->compile);
	double t0 = jit_now_ms();
	LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
	LLVMModuleRef m = jit_module(j, e, LLVMOrcThreadSafeContextGetContext(tsc), name, &state);
	if (m) {
		LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m, tsc);
		LLVMErrorRef err = LLVMOrcLLJITAddLLVMIRModule(j->lljit, LLVMOrcLLJITGetMainJITDylib(j->lljit), tsm);
		if (!err)
			err = LLVMOrcLLJITLookup(j->lljit, &addr, name);
		if (err) {
			LLVMConsumeError(err);
			state = JE_FAILED;
		}
	}
	LLVMOrcDisposeThreadSafeContext(tsc);
	double ms = jit_now_ms() - t0;
	pthread_mutex_unlock(&j->compile);

	pthread_mutex_lock(&j->lock);
	if (state == JE_READY) {
		__atomic_store_n(&e->fn, (sim_jit_fp_fn *)(uintptr_t)addr, __ATOMIC_RELEASE);
		j->st.compiled++;
		if (j->st.ntimes < SIM_JIT_TIMES)
			j->st.compile_ms[j->st.ntimes++] = (float)ms;
	} else if (state == JE_REFUSED) {
		j->st.refused++;
	} else {
		j->st.failed++;
	}
	pthread_mutex_unlock(&j->lock);
}

static void *jit_thread(void *arg)
{
	struct sim_jit *j = arg;

	pthread_mutex_lock(&j->lock);
	for (;;) {
		while (!j->stop && !j->qhead)
			pthread_cond_wait(&j->wake, &j->lock);
		if (j->stop)
			break;
		struct jit_entry *e = j->qhead;
		j->qhead = e->qnext;
		if (!j->qhead)
			j->qtail = &j->qhead;
		pthread_mutex_unlock(&j->lock);
		jit_compile(j, e);
		pthread_mutex_lock(&j->lock);
	}
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/* ---- the cache ---- */

static uint32_t jit_hash(const struct sim_fp_cache *c, uint32_t control)
{
	uint32_t h = 2166136261u ^ control;

	for (unsigned i = 0; i < c->nseq; i++)
		for (unsigned k = 0; k < 4; k++)
			h = (h ^ c->dec[c->seq[i]].w[k]) * 16777619u;
	return h;
}

static int jit_same(const struct jit_entry *e, const struct sim_fp_cache *c, uint32_t hash,
		    uint32_t control)
{
	if (e->hash != hash || e->control != control || e->n != c->nseq)
		return 0;
	for (unsigned i = 0; i < e->n; i++)
		if (memcmp(&e->words[4 * i], c->dec[c->seq[i]].w, 16))
			return 0;
	return 1;
}

static struct jit_entry *jit_entry_new(struct sim_jit *j, const struct sim_fp_cache *c,
				       uint32_t hash, uint32_t control)
{
	struct jit_entry *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->words = malloc(sizeof(uint32_t) * 4 * c->nseq + 1);
	e->slot = malloc(c->nseq + 1);
	e->dec = malloc(sizeof(*e->dec) * c->nseq + 1);
	if (!e->words || !e->slot || !e->dec) {
		free(e->words);
		free(e->slot);
		free(e->dec);
		free(e);
		return NULL;
	}
	e->hash = hash;
	e->control = control;
	e->n = c->nseq;
	e->id = j->nentries;
	e->perturb = j->perturb;
	for (unsigned i = 0; i < e->n; i++) {
		e->slot[i] = c->seq[i];
		e->dec[i] = c->dec[c->seq[i]];
		memcpy(&e->words[4 * i], e->dec[i].w, 16);
	}
	return e;
}

/* The entry for c's program, made (and queued or compiled) on a miss. */
static struct jit_entry *jit_find(struct sim_jit *j, const struct sim_fp_cache *c, uint32_t control)
{
	uint32_t hash = jit_hash(c, control);
	struct jit_entry **b = &j->bucket[hash % JIT_BUCKETS], *e;

	pthread_mutex_lock(&j->lock);
	for (e = *b; e; e = e->next)
		if (jit_same(e, c, hash, control))
			break;
	if (!e && j->nentries < JIT_MAX_PROGRAMS && (e = jit_entry_new(j, c, hash, control))) {
		e->next = *b;
		*b = e;
		j->nentries++;
		j->st.programs++;
		if (j->mode == SIM_JIT_ON) {
			*j->qtail = e;
			j->qtail = &e->qnext;
			pthread_cond_signal(&j->wake);
		}
		pthread_mutex_unlock(&j->lock);
		if (j->mode != SIM_JIT_ON)
			jit_compile(j, e);
		return e;
	}
	pthread_mutex_unlock(&j->lock);
	return e ? e : &j->full;
}

sim_jit_fp_fn *sim_jit_fp(struct sim_jit *j, struct sim_fp_cache *c, uint32_t control)
{
	if (!j || c->simple != 1)
		return NULL;
	control &= NV40_FP_CONTROL_DEPTH;
	/* a thread's cache (draw.c's without fragment threads) outlives a card
	 * and its compiler: its entry is another's unless the serial is ours */
	if (!c->jit || c->jit_control != control || c->jit_serial != j->serial) {
		c->jit = jit_find(j, c, control);
		c->jit_control = control;
		c->jit_serial = j->serial;
	}
	sim_jit_fp_fn *fn = __atomic_load_n(&((const struct jit_entry *)c->jit)->fn, __ATOMIC_ACQUIRE);
	__atomic_fetch_add(&j->st.lookups, 1, __ATOMIC_RELAXED);
	if (fn)
		__atomic_fetch_add(&j->st.hits, 1, __ATOMIC_RELAXED);
	return fn;
}

void sim_jit_stats(struct sim_jit *j, struct sim_jit_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!j)
		return;
	pthread_mutex_lock(&j->lock);
	*st = j->st;
	st->lookups = __atomic_load_n(&j->st.lookups, __ATOMIC_RELAXED);
	st->hits = __atomic_load_n(&j->st.hits, __ATOMIC_RELAXED);
	st->verified = __atomic_load_n(&j->st.verified, __ATOMIC_RELAXED);
	st->mismatches = __atomic_load_n(&j->st.mismatches, __ATOMIC_RELAXED);
	st->nan_payloads = __atomic_load_n(&j->st.nan_payloads, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&j->lock);
}

int sim_jit_verifying(const struct sim_jit *j)
{
	return j && j->mode == SIM_JIT_VERIFY;
}

/* n floats: 0 the same bits, 1 a NaN for another NaN (whose payload
 * depends on the operand order the interpreter's compiler chose when two
 * NaNs met), 2 different. */
static int jit_differ(const float *a, const float *b, unsigned n)
{
	int r = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!memcmp(&a[i], &b[i], 4))
			continue;
		if (a[i] != a[i] && b[i] != b[i])
			r = r > 1 ? r : 1;
		else
			return 2;
	}
	return r;
}

void sim_jit_verify(struct sim_jit *j, const struct sim_fp_quad *compiled,
		    const struct sim_fp_quad *interpreted)
{
	const struct sim_fp_quad *a = compiled, *b = interpreted;
	int d = jit_differ(&a->color[0][0][0], &b->color[0][0][0], 4 * NV40_FP_RTS * 4);

	if (a->depth_written != b->depth_written || a->kill != b->kill)
		d = 2;
	else if (a->depth_written && d < 2) {
		int dd = jit_differ(a->depth, b->depth, 4);
		d = dd > d ? dd : d;
	}
	__atomic_fetch_add(&j->st.verified, 1, __ATOMIC_RELAXED);
	if (d == 2)
		__atomic_fetch_add(&j->st.mismatches, 1, __ATOMIC_RELAXED);
	else if (d == 1)
		__atomic_fetch_add(&j->st.nan_payloads, 1, __ATOMIC_RELAXED);
}

void sim_jit_perturb(struct sim_jit *j, int ulps)
{
	pthread_mutex_lock(&j->lock);
	j->perturb = ulps;
	pthread_mutex_unlock(&j->lock);
}
