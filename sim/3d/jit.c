/* The compiled shader pipeline's cache and compiler (jit.h).  Programs
 * are keyed by their kind and instruction words (not a fragment program's
 * inline constants, which the code reads at run time) and FP_CONTROL's
 * depth bits.  One ORC LLJIT
 * holds all code until sim_jit_free; a single lock serialises compiles,
 * since LLVM's target machine is not thread-safe (ref/llvm-jit.md §2.5).
 * The draw path reads a program's function with an acquire load and
 * interprets until it is there. */
#include "jit.h"
#include "jit-fp.h"
#include "jit-vp.h"
#include "jit-rop.h"
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

/* The code has no loops and its registers are SSA values already (but
 * the ROP's counter): these passes make it as fast as default<O2> does
 * (bench/jit), in two thirds of the time (the rest is code generation) */
#define JIT_PASSES       "mem2reg,instcombine,simplifycfg"
#define JIT_MAX_PROGRAMS 1024    /* keys kept of each kind; later programs are interpreted */
#define JIT_BUCKETS      256

enum { JE_QUEUED, JE_READY, JE_REFUSED, JE_FAILED };
enum { JK_FP, JK_VP, JK_ROP };

struct jit_entry {
	struct jit_entry *next;      /* in its bucket */
	struct jit_entry *qnext;     /* in the compile queue */
	unsigned kind;
	uint32_t hash, control;
	unsigned n, id;
	int perturb;
	uint32_t *words;             /* the n instructions' words (JK_ROP: the jit_rop_key) */
	uint8_t *slot;               /* JK_FP: */
	struct sim_fp_dec *dec;      /*   the compiler's copy */
	struct sim_vp_dec *vdec;     /* JK_VP: the compiler's copy */
	struct sim_jit_rop rop;      /* JK_ROP: the code fn points at */
	void *fn;                    /* atomic: set once, when ready */
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
		{ JIT_VP_SCA, (void *)sim_vp_sca },
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

static void jit_entry_free(struct jit_entry *e)
{
	free(e->words);
	free(e->slot);
	free(e->dec);
	free(e->vdec);
	free(e);
}

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
			jit_entry_free(e);
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
	struct jit_fp_prog fp = { e->n, e->dec, e->slot, e->control, e->perturb };
	struct jit_vp_prog vp = { e->n, e->vdec, e->perturb };
	LLVMModuleRef m = LLVMModuleCreateWithNameInContext(name, cx);
	char *msg = NULL;

	LLVMSetTarget(m, j->triple);
	LLVMTargetDataRef td = LLVMCreateTargetDataLayout(j->tm);
	LLVMSetModuleDataLayout(m, td);
	LLVMDisposeTargetData(td);
	int r = e->kind == JK_VP ? jit_vp_build(m, name, &vp) :
		e->kind == JK_ROP ? jit_rop_build(m, name, (const struct jit_rop_key *)e->words, e->perturb) :
		jit_fp_build(m, name, &fp);
	if (r < 0) {
		*state = JE_REFUSED;
		LLVMDisposeModule(m);
		return NULL;
	}
	/* LLVM hands back a message, empty or not, either way */
	int bad = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
	LLVMDisposeMessage(msg);
	if (!bad) {
		LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
		LLVMErrorRef err = LLVMRunPasses(m, JIT_PASSES, j->tm, o);
		LLVMDisposePassBuilderOptions(o);
		if (!err)
			return m;
		LLVMConsumeError(err);
	}
	*state = JE_FAILED;
	LLVMDisposeModule(m);
	return NULL;
}

static struct sim_jit_kind *jit_kind(struct sim_jit *j, unsigned kind)
{
	return kind == JK_VP ? &j->st.vp : kind == JK_ROP ? &j->st.rop : &j->st.fp;
}

/* The address of function `name``suffix`. */
static LLVMErrorRef jit_lookup(struct sim_jit *j, const char *name, const char *suffix,
			       LLVMOrcExecutorAddress *addr)
{
	char full[40];

	snprintf(full, sizeof(full), "%s%s", name, suffix);
	return LLVMOrcLLJITLookup(j->lljit, addr, full);
}

/* A ROP entry's code: quad at *addr, its early depth test beside it when
 * there is one, and the split pair when the key has it; *addr then the
 * set's. */
static LLVMErrorRef jit_rop_code(struct sim_jit *j, struct jit_entry *e, const char *name,
				 LLVMOrcExecutorAddress *addr)
{
	const struct jit_rop_key *k = (const struct jit_rop_key *)e->words;
	LLVMOrcExecutorAddress z = 0, zw = 0, c = 0;
	LLVMErrorRef err = NULL;

	if (k->zbits && k->depth_test)
		err = jit_lookup(j, name, "_z", &z);
	if (!err && jit_rop_splits(k)) {
		err = jit_lookup(j, name, "_zw", &zw);
		if (!err)
			err = jit_lookup(j, name, "_c", &c);
	}
	if (err)
		return err;
	e->rop.quad = (sim_jit_rop_fn *)(uintptr_t)*addr;
	e->rop.early_z = (sim_jit_ez_fn *)(uintptr_t)z;
	e->rop.early_zw = (sim_jit_ez_fn *)(uintptr_t)zw;
	e->rop.quad_c = (sim_jit_rop_fn *)(uintptr_t)c;
	*addr = (LLVMOrcExecutorAddress)(uintptr_t)&e->rop;
	return NULL;
}

static void jit_compile(struct sim_jit *j, struct jit_entry *e)
{
	char name[32];
	int state = JE_READY;
	LLVMOrcExecutorAddress addr = 0;

	static const char *const prefix[] = { [JK_FP] = "fp", [JK_VP] = "vp", [JK_ROP] = "rop" };
	snprintf(name, sizeof(name), "nvd_%s%u", prefix[e->kind], e->id);
	pthread_mutex_lock(&j->compile);
	double t0 = jit_now_ms();
	LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
	LLVMModuleRef m = jit_module(j, e, LLVMOrcThreadSafeContextGetContext(tsc), name, &state);
	if (m) {
		LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m, tsc);
		LLVMErrorRef err = LLVMOrcLLJITAddLLVMIRModule(j->lljit, LLVMOrcLLJITGetMainJITDylib(j->lljit), tsm);
		if (!err)
			err = jit_lookup(j, name, "", &addr);
		if (!err && e->kind == JK_ROP)
			err = jit_rop_code(j, e, name, &addr);
		if (err) {
			LLVMConsumeError(err);
			state = JE_FAILED;
		}
	}
	LLVMOrcDisposeThreadSafeContext(tsc);
	double ms = jit_now_ms() - t0;
	pthread_mutex_unlock(&j->compile);

	pthread_mutex_lock(&j->lock);
	struct sim_jit_kind *k = jit_kind(j, e->kind);
	if (state == JE_READY) {
		__atomic_store_n(&e->fn, (void *)(uintptr_t)addr, __ATOMIC_RELEASE);
		k->compiled++;
		if (k->ntimes < SIM_JIT_TIMES)
			k->compile_ms[k->ntimes++] = (float)ms;
	} else if (state == JE_REFUSED) {
		k->refused++;
	} else {
		k->failed++;
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

/* What a lookup looks for: a fragment program (c, and FP_CONTROL's bits
 * in control), a vertex program (p) or a ROP state (rop). */
struct jit_key {
	unsigned kind, n;
	uint32_t control;
	const struct sim_fp_cache *c;
	const struct sim_vp_straight *p;
	const struct jit_rop_key *rop;
};

static const uint32_t *jit_key_insn(const struct jit_key *k, unsigned i)
{
	if (k->kind == JK_ROP)
		return (const uint32_t *)k->rop + 4 * i;
	return k->kind == JK_VP ? k->p->words[i] : k->c->dec[k->c->seq[i]].w;
}

static uint32_t jit_hash(const struct jit_key *k)
{
	uint32_t h = (2166136261u ^ k->control) * 16777619u ^ k->kind;

	for (unsigned i = 0; i < k->n; i++)
		for (unsigned w = 0; w < 4; w++)
			h = (h ^ jit_key_insn(k, i)[w]) * 16777619u;
	return h;
}

static int jit_same(const struct jit_entry *e, const struct jit_key *k, uint32_t hash)
{
	if (e->hash != hash || e->kind != k->kind || e->control != k->control || e->n != k->n)
		return 0;
	for (unsigned i = 0; i < e->n; i++)
		if (memcmp(&e->words[4 * i], jit_key_insn(k, i), 16))
			return 0;
	return 1;
}

static struct jit_entry *jit_entry_new(struct sim_jit *j, const struct jit_key *k, uint32_t hash)
{
	struct jit_entry *e = calloc(1, sizeof(*e));
	int fp = k->kind == JK_FP;

	if (!e)
		return NULL;
	e->words = malloc(sizeof(uint32_t) * 4 * k->n + 1);
	if (fp) {
		e->slot = malloc(k->n + 1);
		e->dec = malloc(sizeof(*e->dec) * k->n + 1);
	} else if (k->kind == JK_VP) {
		e->vdec = malloc(sizeof(*e->vdec) * k->n + 1);
	}
	if (!e->words || (fp ? !e->slot || !e->dec : k->kind == JK_VP && !e->vdec)) {
		jit_entry_free(e);
		return NULL;
	}
	e->kind = k->kind;
	e->hash = hash;
	e->control = k->control;
	e->n = k->n;
	e->id = j->nentries;
	e->perturb = j->perturb;
	for (unsigned i = 0; i < e->n; i++) {
		memcpy(&e->words[4 * i], jit_key_insn(k, i), 16);
		if (fp) {
			e->slot[i] = k->c->seq[i];
			e->dec[i] = k->c->dec[k->c->seq[i]];
		} else if (k->kind == JK_VP) {
			e->vdec[i] = k->p->dec[i];
		}
	}
	return e;
}

/* The entry for k's program, made (and queued or compiled) on a miss. */
static struct jit_entry *jit_find(struct sim_jit *j, const struct jit_key *k)
{
	uint32_t hash = jit_hash(k);
	struct jit_entry **b = &j->bucket[hash % JIT_BUCKETS], *e;

	pthread_mutex_lock(&j->lock);
	for (e = *b; e; e = e->next)
		if (jit_same(e, k, hash))
			break;
	if (!e && jit_kind(j, k->kind)->programs < JIT_MAX_PROGRAMS &&
	    (e = jit_entry_new(j, k, hash))) {
		e->next = *b;
		*b = e;
		j->nentries++;
		jit_kind(j, k->kind)->programs++;
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

/* e's code, counted in its kind's statistics. */
static void *jit_code(struct sim_jit *j, unsigned kind, const struct jit_entry *e)
{
	struct sim_jit_kind *k = jit_kind(j, kind);
	void *fn = __atomic_load_n(&e->fn, __ATOMIC_ACQUIRE);

	__atomic_fetch_add(&k->lookups, 1, __ATOMIC_RELAXED);
	if (fn)
		__atomic_fetch_add(&k->hits, 1, __ATOMIC_RELAXED);
	return fn;
}

sim_jit_fp_fn *sim_jit_fp(struct sim_jit *j, struct sim_fp_cache *c, uint32_t control)
{
	if (!j || c->simple != 1)
		return NULL;
	control &= NV40_FP_CONTROL_DEPTH;
	/* a thread's cache (draw.c's without fragment threads) outlives a card
	 * and its compiler: its entry is another's unless the serial is ours */
	if (!c->jit || c->jit_control != control || c->jit_serial != j->serial) {
		const struct jit_key k = { JK_FP, c->nseq, control, c, NULL, NULL };
		c->jit = jit_find(j, &k);
		c->jit_control = control;
		c->jit_serial = j->serial;
	}
	return (sim_jit_fp_fn *)(uintptr_t)jit_code(j, JK_FP, c->jit);
}

sim_jit_vp_fn *sim_jit_vp(struct sim_jit *j, const struct sim_vp_straight *p)
{
	if (!j || !p->ok)
		return NULL;
	const struct jit_key k = { JK_VP, p->n, 0, NULL, p, NULL };
	return (sim_jit_vp_fn *)(uintptr_t)jit_code(j, JK_VP, jit_find(j, &k));
}

const void *sim_jit_rop_find(struct sim_jit *j, const struct draw_setup *d)
{
	struct jit_rop_key rk;

	if (!j)
		return NULL;
	if (jit_rop_key_of(d, &rk) < 0) {
		pthread_mutex_lock(&j->lock);
		j->st.rop.refused++;
		pthread_mutex_unlock(&j->lock);
		return NULL;
	}
	const struct jit_key k = { JK_ROP, sizeof(rk) / 16, 0, NULL, NULL, &rk };
	return jit_find(j, &k);
}

const struct sim_jit_rop *sim_jit_rop(struct sim_jit *j, const void *entry)
{
	if (!j || !entry)
		return NULL;
	return jit_code(j, JK_ROP, entry);
}

static void jit_kind_read(struct sim_jit_kind *to, const struct sim_jit_kind *k)
{
	*to = *k;
	to->lookups = __atomic_load_n(&k->lookups, __ATOMIC_RELAXED);
	to->hits = __atomic_load_n(&k->hits, __ATOMIC_RELAXED);
	to->verified = __atomic_load_n(&k->verified, __ATOMIC_RELAXED);
	to->mismatches = __atomic_load_n(&k->mismatches, __ATOMIC_RELAXED);
	to->nan_payloads = __atomic_load_n(&k->nan_payloads, __ATOMIC_RELAXED);
}

void sim_jit_stats(struct sim_jit *j, struct sim_jit_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!j)
		return;
	pthread_mutex_lock(&j->lock);
	jit_kind_read(&st->fp, &j->st.fp);
	jit_kind_read(&st->vp, &j->st.vp);
	jit_kind_read(&st->rop, &j->st.rop);
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

/* One verified quad or vertex that jit_differ said d of. */
static void jit_count(struct sim_jit_kind *k, int d)
{
	__atomic_fetch_add(&k->verified, 1, __ATOMIC_RELAXED);
	if (d == 2)
		__atomic_fetch_add(&k->mismatches, 1, __ATOMIC_RELAXED);
	else if (d == 1)
		__atomic_fetch_add(&k->nan_payloads, 1, __ATOMIC_RELAXED);
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
	jit_count(&j->st.fp, d);
}

void sim_jit_verify_vp(struct sim_jit *j, const float compiled[NV40_VP_OUTPUTS][4],
		       const float interpreted[NV40_VP_OUTPUTS][4])
{
	jit_count(&j->st.vp, jit_differ(&compiled[0][0], &interpreted[0][0], NV40_VP_OUTPUTS * 4));
}

void sim_jit_verify_rop(struct sim_jit *j, int differ)
{
	jit_count(&j->st.rop, differ ? 2 : 0);
}

void sim_jit_perturb(struct sim_jit *j, int ulps)
{
	pthread_mutex_lock(&j->lock);
	j->perturb = ulps;
	pthread_mutex_unlock(&j->lock);
}
