/* The submission validator (nvd/validate.c, validate-2d.c): every command
 * form, every refusal rule named for the attack it stops, relocations,
 * state persistence and rollback, and a realistic stream that must come out
 * byte for byte.  Expected extents are computed by hand in the comments. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/enums-2d.h"
#include "hw/enums-3d.h"
#include "hw/formats.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "nvd/validate.h"

/* ---- the fixture: buffers, objects, a push buffer writer ---- */

#define PB_ADDR   0x00100000u
#define PB2_ADDR  0x00900000u
#define PB_SIZE   0x10000u
#define VRAM_ADDR 0x00200000u
#define VRAM_SIZE 0x00100000u
#define RO_ADDR   0x00400000u
#define RO_SIZE   0x1000u
#define GART_ADDR 0x00800000u
#define GART_SIZE 0x10000u
#define HIGH_ADDR 0x123456000ull   /* above 4 GiB: for HIGH relocations */

enum { BO_PUSH, BO_VRAM, BO_VRAM_RO, BO_GART, BO_PUSH2, BO_HIGH, BO_TOP, NBOS };

static uint8_t pushmem[PB_SIZE], push2mem[PB_SIZE];
static struct nvd_vbo bos[NBOS] = {
	[BO_PUSH]    = { PB_ADDR, PB_SIZE, NVD_DOMAIN_GART, NVD_ACCESS_READ, pushmem },
	[BO_VRAM]    = { VRAM_ADDR, VRAM_SIZE, NVD_DOMAIN_VRAM,
			 NVD_ACCESS_READ | NVD_ACCESS_WRITE, NULL },
	[BO_VRAM_RO] = { RO_ADDR, RO_SIZE, NVD_DOMAIN_VRAM, NVD_ACCESS_READ, NULL },
	[BO_GART]    = { GART_ADDR, GART_SIZE, NVD_DOMAIN_GART,
			 NVD_ACCESS_READ | NVD_ACCESS_WRITE, NULL },
	[BO_PUSH2]   = { PB2_ADDR, PB_SIZE, NVD_DOMAIN_GART, NVD_ACCESS_READ, push2mem },
	[BO_HIGH]    = { HIGH_ADDR, 0x1000, NVD_DOMAIN_GART, NVD_ACCESS_READ, NULL },
	/* straddles 4 GiB, which no 32-bit ctxdma offset can follow */
	[BO_TOP]     = { 0xfffff000u, 0x2000, NVD_DOMAIN_VRAM,
			 NVD_ACCESS_READ | NVD_ACCESS_WRITE, NULL },
};

enum {
	H_NULL = 0x00000000, H_VRAM = 0xbeef0201, H_GART = 0xbeef0202,
	H_NTFY = 0xd8000003, H_NTFY_SMALL = 0xd8000004, H_QUERY = 0xbeef0351,
	H_M2MF = 0x80000018, H_SURF2D = 0x80000010, H_SWZ = 0x80000020, H_SIFM = 0x80000017,
	H_GDI = 0x80000016, H_BLIT = 0x80000015, H_IFC = 0x8000001a, H_PATT = 0x80000012,
	H_ROP = 0x80000011, H_CLIP = 0x80000013, H_BETA1 = 0x8000001b, H_BETA4 = 0x8000001c,
	H_3D = 0x80000019, H_3D44 = 0x80000029, H_SW = 0x80000030, H_OTHER = 0x90000001,
};

#define GR(h, c) { h, c, NVD_VOBJ_GR, 0, 0, 0 }
static const struct nvd_vobj chan_a_objs[] = {
	{ H_NULL, NV_CLASS_NULL_OBJ, NVD_VOBJ_NULL, 0, 0, 0 },
	{ H_VRAM, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_VRAM, 0, 0, 0 },
	{ H_GART, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_GART, 0, 0, 0 },
	{ H_NTFY, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_BO, NVD_DOMAIN_GART, GART_ADDR, 32 },
	{ H_NTFY_SMALL, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_BO, NVD_DOMAIN_GART, GART_ADDR, 8 },
	{ H_QUERY, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_BO, NVD_DOMAIN_GART, GART_ADDR + 0x1000,
	  4096 - 128 },
	GR(H_M2MF, NV_CLASS_M2MF), GR(H_SURF2D, NV_CLASS_SURF2D), GR(H_SWZ, NV_CLASS_SWZSURF),
	GR(H_SIFM, NV_CLASS_SIFM), GR(H_GDI, NV_CLASS_GDI), GR(H_BLIT, NV_CLASS_BLIT),
	GR(H_IFC, NV_CLASS_IFC), GR(H_PATT, NV_CLASS_PATT), GR(H_ROP, NV_CLASS_ROP),
	GR(H_CLIP, NV_CLASS_CLIP), GR(H_BETA1, NV_CLASS_BETA1), GR(H_BETA4, NV_CLASS_BETA4),
	GR(H_3D, NV_CLASS_CURIE_NV40), GR(H_3D44, NV_CLASS_CURIE_NV44), GR(H_SW, NV_CLASS_NVSW),
};
static const struct nvd_vobj chan_b_objs[] = { GR(H_OTHER, NV_CLASS_M2MF) };

struct objs { const struct nvd_vobj *o; unsigned n; };
static struct objs chan_a = { chan_a_objs, sizeof(chan_a_objs) / sizeof(chan_a_objs[0]) };
static struct objs chan_b = { chan_b_objs, 1 };

static const struct nvd_vobj *lookup(void *ctx, uint32_t handle)
{
	const struct objs *l = ctx;
	for (unsigned i = 0; i < l->n; i++)
		if (l->o[i].handle == handle)
			return &l->o[i];
	return NULL;
}

#define OUT_CAP 0x8000
static struct nvd_vstate *vs;
static uint32_t out[OUT_CAP];
static struct nvd_verror err;
static uint32_t pn;                         /* words written to pushmem */
static struct nvd_submit_push push[8];
static unsigned npush;
static struct nvd_submit_reloc rel[16];
static unsigned nrel;
static struct objs *chan = &chan_a;

static void emit(uint32_t w)
{
	nv_wr32le(pushmem + 4 * pn++, w);
}

static void pkt(int ni, unsigned subc, uint32_t mthd, unsigned n, const uint32_t *d)
{
	emit(ni ? NV_CMD_NONINC_WORD(subc, mthd, n) : NV_CMD_INC_WORD(subc, mthd, n));
	for (unsigned i = 0; i < n; i++)
		emit(d[i]);
}
#define NARGS(...) (sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4)
#define INC(s, m, ...) pkt(0, s, m, NARGS(__VA_ARGS__), (const uint32_t[]){ __VA_ARGS__ })
#define NI(s, m, ...)  pkt(1, s, m, NARGS(__VA_ARGS__), (const uint32_t[]){ __VA_ARGS__ })

/* word index of the next word, and its byte offset */
#define HERE() (pn)

static void add_reloc(uint32_t word, uint32_t bo, uint32_t flags, uint32_t data, uint32_t vor,
		      uint32_t tor)
{
	rel[nrel++] = (struct nvd_submit_reloc){ BO_PUSH, word * 4, bo, flags, data, vor, tor };
}

/* The channel's fragment program shadow: a 256 KiB area. */
#define FP_AREA (256u << 10)
static struct nvd_vfp fpsh = { 0, 0x07000000u, FP_AREA,
			       0x8000f001, 0x8000f002, 0x8000f003, 0x8000f004, 0x8000f005,
			       0 /* DMA_TEXTURE0/1 go to the card as written */, -1 };

static long submit_cap(unsigned nbos, size_t cap)
{
	if (!npush) {
		push[0] = (struct nvd_submit_push){ BO_PUSH, 0, pn * 4 };
		npush = 1;
	}
	struct nvd_vsubmit s = { bos, nbos, push, npush, rel, nrel, lookup, chan, 0, NULL, &fpsh };
	memset(&err, 0, sizeof err);
	memset(out, 0xa5, sizeof out);
	return nvd_validate(vs, &s, out, cap, &err);
}

static long submit(void)
{
	return submit_cap(NBOS, OUT_CAP);
}

/* Start the next submission on the same channel state. */
static void next(void)
{
	pn = 0;
	npush = 0;
	nrel = 0;
	memset(pushmem, 0, sizeof pushmem);
}

static int setup(void **state)
{
	(void)state;
	vs = nvd_vstate_new();
	chan = &chan_a;
	next();
	memset(push2mem, 0, sizeof push2mem);
	return vs ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	nvd_vstate_free(vs);
	vs = NULL;
	return 0;
}

/* Subchannels as xf86-video-nouveau and Mesa use them (1 is the daemon's). */
enum { S_M2MF = 0, S_SF2D = 2, S_GDI = 3, S_BLIT = 4, S_IFC = 5, S_MISC = 6, S_3D = 7 };

static void bind(unsigned subc, uint32_t handle)
{
	INC(subc, NV_FIFO_OBJECT, handle);
}

/* A valid submission must come out as it went in (no jumps, no RETURN). */
static void assert_copied(long n)
{
	assert_int_equal(n, pn);
	assert_memory_equal(out, pushmem, pn * 4);
}

static void assert_refused(long n, int e, uint32_t mthd)
{
	if (n != e)
		print_error("got %ld (%s), want %d\n", n, err.why, e);
	assert_int_equal(n, e);
	assert_int_equal(err.err, e);
	assert_int_equal(err.mthd, mthd);
	assert_true(err.why[0] != 0);
}

/* M2MF bound on subchannel 0 with both ctxdmas set. */
static void m2mf_setup(uint32_t in, uint32_t outdma)
{
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_DMA_NOTIFY, H_NTFY, in, outdma);
}

/* SURF2D on subchannel 2, the VRAM ctxdma, format, pitches, offsets. */
static void surf2d_setup(uint32_t fmt, uint32_t pitch, uint32_t src, uint32_t dst)
{
	bind(S_SF2D, H_SURF2D);
	INC(S_SF2D, NV_SURF2D_DMA_NOTIFY, H_NULL, H_VRAM, H_VRAM);
	INC(S_SF2D, NV_SURF2D_FORMAT, fmt, pitch << 16 | pitch, src, dst);
}

/* ---- command forms ---- */

static void inc_noninc_and_empty_headers_are_copied(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	NI(S_M2MF, NV_M2MF_NOP, 1, 2, 3);
	emit(0);                                    /* INC, count 0: a no-op */
	emit(NV_CMD_INC_WORD(S_M2MF, 0x1230, 0));   /* count 0 names no method */
	INC(S_M2MF, NV_M2MF_PITCH_IN, 0x100, 0x200, 0x40);
	INC(S_M2MF, NV_FIFO_YIELD, 0);
	assert_copied(submit());
}

static void jump_and_old_jump_are_followed_not_copied(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);                       /* words 0-1 */
	emit(NV_CMD_JUMP_WORD(PB_ADDR + 5 * 4));    /* 2 */
	emit(0xffffffff);                           /* 3, 4: never run */
	emit(0xffffffff);
	INC(S_M2MF, NV_M2MF_NOP, 7);                /* 5-6 */
	emit(NV_CMD_OLD_JUMP_WORD(PB_ADDR + 9 * 4));/* 7 */
	emit(0xffffffff);                           /* 8 */
	INC(S_M2MF, NV_M2MF_NOP, 9);                /* 9-10 */
	long n = submit();
	assert_int_equal(n, 6);
	assert_memory_equal(out, pushmem, 8);
	assert_memory_equal(out + 2, pushmem + 5 * 4, 8);
	assert_memory_equal(out + 4, pushmem + 9 * 4, 8);
}

static void return_ends_the_range_and_is_not_copied(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	emit(NV_CMD_RETURN_WORD);
	emit(0xffffffff);                           /* past the RETURN: never run */
	push[0] = (struct nvd_submit_push){ BO_PUSH, 0, pn * 4 };
	uint32_t second = pn;
	INC(S_M2MF, NV_M2MF_NOP, 0);
	push[1] = (struct nvd_submit_push){ BO_PUSH, second * 4, (pn - second) * 4 };
	npush = 2;
	long n = submit();
	assert_int_equal(n, 4);
	assert_memory_equal(out, pushmem, 8);
	assert_memory_equal(out + 2, pushmem + second * 4, 8);
}

static void call_is_refused(void **state)
{
	(void)state;
	emit(NV_CMD_CALL_WORD(PB_ADDR + 8));
	emit(NV_CMD_RETURN_WORD);
	emit(NV_CMD_RETURN_WORD);
	assert_refused(submit(), -EINVAL, 0);
	assert_int_equal(err.offset, 0);
}

static void invalid_and_sli_words_are_refused(void **state)
{
	(void)state;
	emit(0xffffffff);
	assert_refused(submit(), -EINVAL, 0);
	next();
	emit(0x00010000);                           /* SLI conditional: off on NV4x */
	assert_refused(submit(), -EINVAL, 0);
	next();
	emit(0x80000000 | NV_CMD_INC_WORD(0, 0x100, 1));   /* top bits not a method form */
	emit(0);
	assert_refused(submit(), -EINVAL, 0);
}

static void packet_running_past_its_push_range_is_refused(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	emit(NV_CMD_INC_WORD(S_M2MF, NV_M2MF_NOP, 3));
	emit(0);
	emit(0);
	/* the third data word lies outside the range (though inside the buffer) */
	assert_refused(submit(), -EINVAL, NV_M2MF_NOP);
	assert_int_equal(err.offset, 8);
}

static void inc_packet_past_the_last_method_is_refused(void **state)
{
	(void)state;
	bind(S_3D, H_3D);
	INC(S_3D, NV_CURIE_VP_RESULT_EN, 0, 0, 0, 0);   /* 0x1ff4 .. 0x2000 */
	assert_refused(submit(), -EINVAL, NV_CURIE_VP_RESULT_EN);
	assert_non_null(strstr(err.why, "past method"));
}

/* ---- methods, subchannels, objects ---- */

static void unknown_method_is_refused(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_DMA_BUFFER_OUT, H_VRAM, 7);       /* 0x18c: no such method */
	long n = submit();
	assert_refused(n, -EINVAL, NV_M2MF_DMA_BUFFER_OUT + 4);
	assert_int_equal(err.cls, NV_CLASS_M2MF);
	assert_int_equal(err.subc, S_M2MF);
	assert_int_equal(err.data, 7);
	assert_string_equal(err.why, "unknown method");
	assert_int_equal(err.offset, 4 * 4);
}

static void unknown_fifo_method_is_refused(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_FIFO_OBJECT + 4, 0);
	assert_refused(submit(), -EINVAL, NV_FIFO_OBJECT + 4);
}

static void priv_fifo_methods_are_refused(void **state)
{
	static const uint32_t priv[] = { NV_FIFO_REF_CNT, NV_FIFO_DMA_SEMAPHORE,
		NV_FIFO_SEMAPHORE_OFFSET, NV_FIFO_SEMAPHORE_ACQUIRE, NV_FIFO_SEMAPHORE_RELEASE };
	(void)state;
	for (unsigned i = 0; i < sizeof(priv) / sizeof(priv[0]); i++) {
		next();
		bind(S_M2MF, H_M2MF);
		INC(S_M2MF, priv[i], 1);
		assert_refused(submit(), -EPERM, priv[i]);
		/* also on a subchannel with nothing bound */
		next();
		INC(5, priv[i], 1);
		assert_refused(submit(), -EPERM, priv[i]);
	}
}

static void daemon_subchannel_is_refused_even_for_object(void **state)
{
	(void)state;
	bind(NVD_SUBC_DAEMON, H_M2MF);
	assert_refused(submit(), -EPERM, NV_FIFO_OBJECT);
	assert_int_equal(err.subc, NVD_SUBC_DAEMON);
	next();
	INC(NVD_SUBC_DAEMON, NV_M2MF_NOP, 0);
	assert_refused(submit(), -EPERM, NV_M2MF_NOP);
}

static void method_on_an_unbound_subchannel_is_refused(void **state)
{
	(void)state;
	INC(S_BLIT, NV_BLIT_NOP, 0);
	assert_refused(submit(), -EINVAL, NV_BLIT_NOP);
	assert_non_null(strstr(err.why, "no object bound"));
}

static void object_of_an_unknown_handle_is_enoent(void **state)
{
	(void)state;
	bind(S_M2MF, 0x12345678);
	assert_refused(submit(), -ENOENT, NV_FIFO_OBJECT);
	assert_int_equal(err.data, 0x12345678);
}

static void object_of_a_ctxdma_or_null_is_einval(void **state)
{
	(void)state;
	bind(S_M2MF, H_VRAM);
	assert_refused(submit(), -EINVAL, NV_FIFO_OBJECT);
	next();
	bind(S_M2MF, H_NULL);
	assert_refused(submit(), -EINVAL, NV_FIFO_OBJECT);
}

static void object_of_the_software_class_is_einval(void **state)
{
	(void)state;
	bind(S_M2MF, H_SW);
	assert_refused(submit(), -EINVAL, NV_FIFO_OBJECT);
}

static void handle_of_another_channel_is_enoent(void **state)
{
	(void)state;
	bind(S_M2MF, H_OTHER);
	assert_refused(submit(), -ENOENT, NV_FIFO_OBJECT);
	chan = &chan_b;                               /* its own channel may */
	assert_copied(submit());
	next();
	chan = &chan_a;
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_DMA_BUFFER_IN, H_OTHER);
	assert_refused(submit(), -ENOENT, NV_M2MF_DMA_BUFFER_IN);
}

static void dma_method_needs_a_ctxdma_or_null(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_DMA_BUFFER_IN, H_VRAM, H_NULL);
	INC(S_M2MF, NV_M2MF_DMA_BUFFER_OUT, H_NTFY);
	assert_copied(submit());
	next();
	INC(S_M2MF, NV_M2MF_DMA_BUFFER_IN, H_SURF2D);
	assert_refused(submit(), -EINVAL, NV_M2MF_DMA_BUFFER_IN);
}

static void object_method_needs_a_graphics_object_or_null(void **state)
{
	(void)state;
	bind(S_GDI, H_GDI);
	INC(S_GDI, NV_GDI_PATTERN, H_PATT, H_ROP, H_BETA1, H_BETA4, H_SURF2D);
	INC(S_GDI, NV_GDI_PATTERN, H_NULL);
	assert_copied(submit());
	next();
	INC(S_GDI, NV_GDI_SURFACE, H_VRAM);
	assert_refused(submit(), -EINVAL, NV_GDI_SURFACE);
}

static void notify_needs_a_notifier_of_16_bytes(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	assert_copied(submit());                      /* kept: later refusals roll back to it */
	next();
	INC(S_M2MF, NV_M2MF_NOTIFY, 0);               /* DMA_NOTIFY never set */
	assert_refused(submit(), -EFAULT, NV_M2MF_NOTIFY);
	next();
	INC(S_M2MF, NV_M2MF_DMA_NOTIFY, H_NTFY_SMALL);  /* 8 bytes */
	assert_refused(submit(), -EFAULT, NV_M2MF_DMA_NOTIFY);
	next();
	INC(S_M2MF, NV_M2MF_DMA_NOTIFY, H_VRAM);        /* all of VRAM at offset 0 */
	assert_refused(submit(), -EFAULT, NV_M2MF_DMA_NOTIFY);
	next();
	INC(S_M2MF, NV_M2MF_DMA_NOTIFY, H_NTFY);
	INC(S_M2MF, NV_M2MF_NOTIFY, 0);
	INC(S_M2MF, NV_M2MF_DMA_NOTIFY, H_NULL);
	INC(S_M2MF, NV_M2MF_NOTIFY, 0);
	assert_copied(submit());
}

/* ---- addresses are checked where the card uses them ---- */

/* A 1-byte copy from VRAM_ADDR to out. */
static void copy_byte_to(uint32_t out)
{
	INC(S_M2MF, NV_M2MF_OFFSET_IN, VRAM_ADDR, out, 1, 1, 1, 1, NV_M2MF_FORMAT(1, 1));
	INC(S_M2MF, NV_M2MF_BUF_NOTIFY, 0);
}

static void address_at_the_last_byte_passes_one_past_fails(void **state)
{
	(void)state;
	m2mf_setup(H_VRAM, H_VRAM);
	copy_byte_to(VRAM_ADDR + VRAM_SIZE - 1);
	assert_copied(submit());
	next();
	/* set, never used: nothing to check */
	INC(S_M2MF, NV_M2MF_OFFSET_OUT, VRAM_ADDR + VRAM_SIZE);
	assert_copied(submit());
	next();
	copy_byte_to(VRAM_ADDR + VRAM_SIZE);
	uint32_t at = HERE() - 1;
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	assert_int_equal(err.offset, at * 4);
	assert_int_equal(err.push, 0);
}

static void address_in_a_buffer_not_on_the_list_fails(void **state)
{
	(void)state;
	m2mf_setup(H_VRAM, H_VRAM);
	assert_copied(submit());
	next();
	copy_byte_to(0x00600000);                             /* nobody's buffer */
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	next();
	copy_byte_to(GART_ADDR);                              /* listed, but GART */
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	next();
	copy_byte_to(VRAM_ADDR + 16);
	assert_refused(submit_cap(BO_VRAM, OUT_CAP), -EFAULT, NV_M2MF_BUF_NOTIFY);  /* not listed */
}

/* The listed buffers, then 4096 held but unlisted, 4 KiB apart with a 4 KiB
 * gap after each (VRAM from 0x01000000), in an order unlike their addresses:
 * every address is found in the one buffer that holds it, and only there. */
#define HELD 4096u
#define HELD_AT(k) (0x01000000u + (k) * 0x2000u)

static void address_in_any_of_4096_held_buffers_is_found_and_marked(void **state)
{
	(void)state;
	static struct nvd_vbo many[NBOS + HELD];
	static uint8_t used[HELD];
	memcpy(many, bos, sizeof bos);
	for (unsigned i = 0; i < HELD; i++) {
		unsigned k = (i * 2654435761u) % HELD;   /* a permutation (odd multiplier) */
		many[NBOS + i] = (struct nvd_vbo){ HELD_AT(k), 0x1000, NVD_DOMAIN_VRAM,
						   NVD_ACCESS_READ | NVD_ACCESS_WRITE, NULL };
	}
	m2mf_setup(H_VRAM, H_VRAM);
	static const unsigned ks[] = { 0, 1, 77, 2048, 4095 };
	for (unsigned j = 0; j < sizeof(ks) / sizeof(ks[0]); j++) {
		copy_byte_to(HELD_AT(ks[j]) + (j & 1 ? 0xfff : 0));   /* first, last byte */
		copy_byte_to(VRAM_ADDR + j);                /* and back to a listed one */
	}
	push[0] = (struct nvd_submit_push){ BO_PUSH, 0, pn * 4 };
	npush = 1;
	struct nvd_vsubmit s = { many, NBOS + HELD, push, npush, rel, nrel, lookup, chan, NBOS,
				 used, &fpsh };
	memset(used, 0, sizeof used);
	assert_copied(nvd_validate(vs, &s, out, OUT_CAP, &err));
	unsigned marked = 0;
	for (unsigned i = 0; i < HELD; i++) {
		if (!used[i])
			continue;
		marked++;
		unsigned k = (many[NBOS + i].addr - HELD_AT(0)) / 0x2000u;
		int listed = 0;
		for (unsigned j = 0; j < sizeof(ks) / sizeof(ks[0]); j++)
			listed |= k == ks[j];
		assert_true(listed);
		assert_int_equal(used[i], NVD_ACCESS_WRITE);
	}
	assert_int_equal(marked, sizeof(ks) / sizeof(ks[0]));
	/* the gap after a buffer, and a copy running from a buffer into it */
	next();
	copy_byte_to(HELD_AT(300) + 0x1000);
	assert_refused(nvd_validate(vs, &(struct nvd_vsubmit){ many, NBOS + HELD,
		&(struct nvd_submit_push){ BO_PUSH, 0, pn * 4 }, 1, rel, 0, lookup, chan, NBOS,
		used, &fpsh }, out, OUT_CAP, &err), -EFAULT, NV_M2MF_BUF_NOTIFY);
	next();
	INC(S_M2MF, NV_M2MF_OFFSET_IN, VRAM_ADDR, HELD_AT(300) + 0xff0, 1, 1, 0x20, 1,
	    NV_M2MF_FORMAT(1, 1));
	INC(S_M2MF, NV_M2MF_BUF_NOTIFY, 0);
	assert_refused(nvd_validate(vs, &(struct nvd_vsubmit){ many, NBOS + HELD,
		&(struct nvd_submit_push){ BO_PUSH, 0, pn * 4 }, 1, rel, 0, lookup, chan, NBOS,
		used, &fpsh }, out, OUT_CAP, &err), -EFAULT, NV_M2MF_BUF_NOTIFY);
}

static void m2mf_zero_offset_passes_at_set_time(void **state)
{
	(void)state;
	/* Mesa's nv30 writes NOP, OFFSET_OUT = 0 after every copy */
	m2mf_setup(H_VRAM, H_GART);
	INC(S_M2MF, NV_M2MF_NOP, 0);
	INC(S_M2MF, NV_M2MF_OFFSET_OUT, 0);
	assert_copied(submit());
}

/* ---- M2MF extents ---- */

static void m2mf_emit(uint32_t in, uint32_t outo, uint32_t pin, uint32_t pout, uint32_t len,
		      uint32_t count, uint32_t fmt)
{
	INC(S_M2MF, NV_M2MF_OFFSET_IN, in, outo, pin, pout, len, count, fmt, 0);
}

static void m2mf_copy_filling_both_buffers_passes(void **state)
{
	(void)state;
	m2mf_setup(H_GART, H_VRAM);
	/* 16 lines of 0x1000 at pitch 0x1000 = exactly the 64 KiB GART buffer */
	m2mf_emit(GART_ADDR, VRAM_ADDR + VRAM_SIZE - 0x10000, 0x1000, 0x1000, 0x1000, 16, 0x101);
	assert_copied(submit());
}

static void m2mf_line_count_times_pitch_past_the_buffer_fails(void **state)
{
	(void)state;
	m2mf_setup(H_GART, H_VRAM);
	assert_copied(submit());
	next();
	/* 17 lines: 0x11000 bytes from the start of a 0x10000 buffer */
	m2mf_emit(GART_ADDR, VRAM_ADDR, 0x1000, 0x1000, 0x1000, 17, 0x101);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	assert_non_null(strstr(err.why, "M2MF input"));
	next();
	/* output: 0x101 lines of pitch 0x1000 from VRAM_ADDR: 0x101000 > 1 MiB */
	m2mf_emit(GART_ADDR, VRAM_ADDR, 0, 0x1000, 0x100, 0x101, 0x101);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	assert_non_null(strstr(err.why, "M2MF output"));
}

static void m2mf_64bit_overflow_attempts_fail(void **state)
{
	(void)state;
	m2mf_setup(H_VRAM, H_VRAM);
	assert_copied(submit());
	next();
	/* 2047 lines of pitch 2^31 - 1: wraps any 32-bit computation */
	m2mf_emit(VRAM_ADDR, VRAM_ADDR, 0x7fffffff, 0, 1, NV_M2MF_LINE_COUNT_MAX, 0x101);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	next();
	/* more lines, or longer ones, than the engine takes */
	m2mf_emit(VRAM_ADDR, VRAM_ADDR, 0x100, 0, 1, 0xffffffff, 0x101);
	assert_refused(submit(), -EINVAL, NV_M2MF_BUF_NOTIFY);
	next();
	m2mf_emit(VRAM_ADDR, VRAM_ADDR, 0, 0, 0xfffffff0, 1, 0x101);
	assert_refused(submit(), -EINVAL, NV_M2MF_BUF_NOTIFY);
	next();
	/* pitch 2^32 - 4096 is -4096: lines below the buffer, not 4 GiB above */
	m2mf_emit(VRAM_ADDR, VRAM_ADDR, 0, 0xfffff000, 0x100, 2, 0x101);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	next();
	/* negative pitch from a small offset: below offset 0 */
	m2mf_emit(VRAM_ADDR, 0, 0, 0x80000000, 0x100, 3, 0x101);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	next();
	/* a line from near the top of the 32-bit space runs past 4 GiB, though
	 * not past its buffer */
	m2mf_emit(VRAM_ADDR, 0xfffff800, 0, 0, 0x1000, 1, 0x101);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	assert_non_null(strstr(err.why, "4 GiB"));
	next();
	/* increment 4 quadruples the span: 0x40001 * 4 > 1 MiB */
	m2mf_emit(VRAM_ADDR, VRAM_ADDR, 0, 0, 0x40001, 1, 0x0401);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	next();
	/* a legal negative pitch: two lines going down from the second page */
	m2mf_emit(VRAM_ADDR, VRAM_ADDR + 0x1000, 0x1000, 0xfffff000, 0x1000, 2, 0x101);
	assert_copied(submit());
}

static void m2mf_bad_format_increment_fails(void **state)
{
	(void)state;
	m2mf_setup(H_VRAM, H_VRAM);
	m2mf_emit(VRAM_ADDR, VRAM_ADDR, 0, 0, 16, 1, 0x103);
	assert_refused(submit(), -EINVAL, NV_M2MF_BUF_NOTIFY);
}

static void m2mf_without_ctxdma_or_through_null_fails(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	assert_copied(submit());
	next();
	m2mf_emit(VRAM_ADDR, VRAM_ADDR, 0, 0, 16, 1, 0x101);   /* no ctxdma set yet */
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	next();
	INC(S_M2MF, NV_M2MF_DMA_BUFFER_IN, H_NULL, H_VRAM);
	m2mf_emit(VRAM_ADDR, VRAM_ADDR, 0, 0, 16, 1, 0x101);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
}

static void m2mf_through_a_dma_bo_ctxdma_is_bounded_by_its_size(void **state)
{
	(void)state;
	m2mf_setup(H_VRAM, H_QUERY);                  /* 4096 - 128 bytes */
	m2mf_emit(VRAM_ADDR, 0xf00, 0, 0, 0x80, 1, 0x101);     /* 0xf00 + 0x80 = 0xf80 */
	assert_copied(submit());
	next();
	m2mf_emit(VRAM_ADDR, 0xf04, 0, 0, 0x80, 1, 0x101);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
}

static void write_to_a_read_only_buffer_fails(void **state)
{
	(void)state;
	m2mf_setup(H_VRAM, H_VRAM);
	m2mf_emit(RO_ADDR, VRAM_ADDR, 0, 0, RO_SIZE, 1, 0x101);     /* reading it: fine */
	assert_copied(submit());
	next();
	m2mf_emit(VRAM_ADDR, RO_ADDR, 0, 0, 16, 1, 0x101);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	assert_non_null(strstr(err.why, "write"));
}

/* ---- 2D extents ---- */

static void gdi_rect_inside_passes_past_the_surface_buffer_fails(void **state)
{
	(void)state;
	surf2d_setup(NV_SURF_FORMAT_Y32, 0x1000, VRAM_ADDR, VRAM_ADDR);
	bind(S_GDI, H_GDI);
	INC(S_GDI, NV_GDI_SURFACE, H_SURF2D);
	INC(S_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY, NV_GDI_COLOR_FORMAT_A8R8G8B8);
	/* rect 1 at (x 0, y 255) 1024 x 1 at 4 bpp ends at 255 * 4096 + 4096 = 1 MiB */
	INC(S_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 0, 0x00010001, 255, 1024 << 16 | 1);
	assert_copied(submit());
	next();
	/* (x 1, y 255): one pixel past the end */
	INC(S_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 0, 0x00010001, 1 << 16 | 255, 1024 << 16 | 1);
	assert_refused(submit(), -EFAULT, NV_GDI_UNCLIPPED_RECTANGLE_SIZE + 8);
	assert_non_null(strstr(err.why, "GDI"));
}

static void gdi_with_unknown_format_or_foreign_surface_fails(void **state)
{
	(void)state;
	surf2d_setup(0x77, 0x1000, VRAM_ADDR, VRAM_ADDR);
	bind(S_GDI, H_GDI);
	INC(S_GDI, NV_GDI_SURFACE, H_SURF2D);
	INC(S_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY, NV_GDI_COLOR_FORMAT_A8R8G8B8);
	assert_copied(submit());                      /* formats are checked when used */
	next();
	INC(S_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 0, 0x00010001);
	assert_refused(submit(), -EINVAL, NV_GDI_UNCLIPPED_RECTANGLE_SIZE);
	next();
	INC(S_SF2D, NV_SURF2D_FORMAT, NV_SURF_FORMAT_A8R8G8B8);
	INC(S_GDI, NV_GDI_SURFACE, H_SWZ);
	INC(S_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 0, 0x00010001);
	assert_refused(submit(), -EINVAL, NV_GDI_UNCLIPPED_RECTANGLE_SIZE);
}

/* Points are signed: the card clips what lies above row 0 (hw/access.h),
 * so y = 0xffff (row -1, not 65535) writes only the rows from 0. */
static void coordinates_with_the_sign_bit_are_clipped(void **state)
{
	(void)state;
	surf2d_setup(NV_SURF_FORMAT_Y8, 0x100, VRAM_ADDR, VRAM_ADDR + VRAM_SIZE - 0x100);
	bind(S_GDI, H_GDI);
	INC(S_GDI, NV_GDI_SURFACE, H_SURF2D);
	INC(S_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY, NV_GDI_COLOR_FORMAT_A8R8G8B8);
	/* rows -1 and 0 of the buffer's last 0x100 bytes: row 0 only */
	INC(S_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 0xffff, 0x00010002);
	assert_copied(submit());
	next();
	/* rows -1, 0 and 1: row 1 is past the buffer */
	INC(S_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 0xffff, 0x00010003);
	assert_refused(submit(), -EFAULT, NV_GDI_UNCLIPPED_RECTANGLE_SIZE);
}

static void sifm_setup(uint32_t surface);

static void operations_with_values_the_engines_refuse_fail(void **state)
{
	(void)state;
	surf2d_setup(NV_SURF_FORMAT_A8R8G8B8, 0x100, VRAM_ADDR, VRAM_ADDR);
	bind(S_GDI, H_GDI);
	INC(S_GDI, NV_GDI_SURFACE, H_SURF2D);
	bind(S_BLIT, H_BLIT);
	INC(S_BLIT, NV_BLIT_SURFACES, H_SURF2D);
	bind(S_IFC, H_IFC);
	INC(S_IFC, NV_IFC_SURFACE, H_SURF2D);
	assert_copied(submit());
	next();
	INC(S_GDI, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY, 7);      /* no such colour format */
	INC(S_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 0, 1 << 16 | 1);
	assert_refused(submit(), -EINVAL, NV_GDI_UNCLIPPED_RECTANGLE_SIZE);
	next();
	INC(S_BLIT, NV_BLIT_OPERATION, 9);                             /* no such operation */
	INC(S_BLIT, NV_BLIT_POINT_IN, 0, 0, 1 << 16 | 1);
	assert_refused(submit(), -EINVAL, NV_BLIT_SIZE);
	next();
	INC(S_IFC, NV_IFC_OPERATION, NV_2D_OPERATION_SRCCOPY, 9, 0, 1 << 16 | 1, 1 << 16 | 1);
	NI(S_IFC, NV_IFC_COLOR, 0);
	assert_refused(submit(), -EINVAL, NV_IFC_COLOR);
	next();
	/* a swizzled surface wider than 2^11 */
	bind(S_MISC, H_SWZ);
	INC(S_MISC, NV_SWZSURF_DMA_IMAGE, H_VRAM);
	INC(S_MISC, NV_SWZSURF_FORMAT, NV_SURF_FORMAT_A8R8G8B8 | 12 << 16 | 0 << 24, VRAM_ADDR);
	sifm_setup(H_SWZ);
	INC(S_MISC, NV_SIFM_OUT_POINT, 0, 1 << 16 | 16);
	INC(S_MISC, NV_SIFM_SIZE, 1 << 16 | 16, 0x100 | 0x00010000, GART_ADDR, 0);
	assert_refused(submit(), -EINVAL, NV_SIFM_POINT);
}

static void blit_source_outside_its_buffer_fails(void **state)
{
	(void)state;
	/* source in the 4 KiB read-only buffer, pitch 0x100, 4 bpp */
	bind(S_SF2D, H_SURF2D);
	INC(S_SF2D, NV_SURF2D_DMA_IMAGE_SOURCE, H_VRAM, H_VRAM);
	INC(S_SF2D, NV_SURF2D_FORMAT, NV_SURF_FORMAT_A8R8G8B8, 0x100 << 16 | 0x100, RO_ADDR,
	    VRAM_ADDR);
	bind(S_BLIT, H_BLIT);
	INC(S_BLIT, NV_BLIT_SURFACES, H_SURF2D);
	INC(S_BLIT, NV_BLIT_OPERATION, NV_2D_OPERATION_SRCCOPY);
	/* 16 x 16 from (0, 0): 15 * 0x100 + 64 = 0xf40 <= 0x1000 */
	INC(S_BLIT, NV_BLIT_POINT_IN, 0, 0, 16 << 16 | 16);
	assert_copied(submit());
	next();
	/* 16 x 17: 16 * 0x100 + 64 = 0x1040 > 0x1000 */
	INC(S_BLIT, NV_BLIT_POINT_IN, 0, 0, 17 << 16 | 16);
	assert_refused(submit(), -EFAULT, NV_BLIT_SIZE);
	assert_non_null(strstr(err.why, "BLIT source"));
	next();
	/* destination into the read-only buffer */
	INC(S_SF2D, NV_SURF2D_OFFSET_SOURCE, VRAM_ADDR, RO_ADDR);
	INC(S_BLIT, NV_BLIT_POINT_IN, 0, 0, 1 << 16 | 1);
	assert_refused(submit(), -EFAULT, NV_BLIT_SIZE);
	assert_non_null(strstr(err.why, "BLIT destination"));
}

static void ifc_color_packet_is_checked_against_its_rectangle(void **state)
{
	(void)state;
	surf2d_setup(NV_SURF_FORMAT_A8R8G8B8, 0x400, VRAM_ADDR, VRAM_ADDR + VRAM_SIZE - 0x4000);
	bind(S_IFC, H_IFC);
	INC(S_IFC, NV_IFC_SURFACE, H_SURF2D);
	/* 256 x 16 at (0, 0): 15 * 0x400 + 1024 = 0x4000, the last 16 KiB */
	INC(S_IFC, NV_IFC_OPERATION, NV_2D_OPERATION_SRCCOPY, NV_IFC_COLOR_FORMAT_A8R8G8B8, 0,
	    16 << 16 | 256, 16 << 16 | 256);
	emit(NV_CMD_INC_WORD(S_IFC, NV_IFC_COLOR, 1792));
	for (unsigned i = 0; i < 1792; i++)
		emit(i * 0x01010101u);
	NI(S_IFC, NV_IFC_COLOR, 1, 2, 3, 4);
	assert_copied(submit());
	next();
	INC(S_IFC, NV_IFC_POINT, 0 << 16 | 1);        /* one pixel to the right: past the end */
	emit(NV_CMD_NONINC_WORD(S_IFC, NV_IFC_COLOR, 2));
	emit(0);
	emit(0);
	assert_refused(submit(), -EFAULT, NV_IFC_COLOR);
	assert_int_equal(err.offset, 2 * 4 + 4);     /* the first COLOR word */
}

static void sifm_setup(uint32_t surface)
{
	bind(S_MISC, H_SIFM);
	INC(S_MISC, NV_SIFM_DMA_NOTIFY, H_NULL, H_GART);
	INC(S_MISC, NV_SIFM_SURFACE, surface);
	/* A8R8G8B8, SRCCOPY, clip (0,0) 64x64, out (0,0) 64x64, 1:1 */
	INC(S_MISC, NV_SIFM_COLOR_FORMAT, NV_SIFM_COLOR_FORMAT_A8R8G8B8, 3, 0, 64 << 16 | 64,
	    0, 64 << 16 | 64, 1 << 20, 1 << 20);
}

static void sifm_to_linear_destination_outside_fails(void **state)
{
	(void)state;
	/* destination 64 rows of pitch 0x100 at 4 bpp: 63 * 0x100 + 256 = 0x4000 */
	surf2d_setup(NV_SURF_FORMAT_A8R8G8B8, 0x100, VRAM_ADDR, VRAM_ADDR + VRAM_SIZE - 0x4000);
	sifm_setup(H_SURF2D);
	/* source 64 x 64 at pitch 0x100 in the GART buffer: 0x4000 bytes */
	INC(S_MISC, NV_SIFM_SIZE, 64 << 16 | 64, 0x100 | 0x00010000, GART_ADDR, 0);
	assert_copied(submit());
	next();
	INC(S_SF2D, NV_SURF2D_OFFSET_DESTIN, VRAM_ADDR + VRAM_SIZE - 0x3ffc);
	INC(S_MISC, NV_SIFM_POINT, 0);
	assert_refused(submit(), -EFAULT, NV_SIFM_POINT);
	assert_non_null(strstr(err.why, "SIFM destination"));
	next();
	/* the clip keeps it inside: 63 columns */
	INC(S_MISC, NV_SIFM_CLIP_SIZE, 64 << 16 | 63);
	INC(S_MISC, NV_SIFM_POINT, 0);
	assert_copied(submit());
}

/* The source is checked on the window the card samples (hw/sifm.h), not on
 * SIZE: a 64 x 65 image of which 64 rows are drawn fits in 0x4000 bytes. */
static void sifm_source_checked_on_the_window_it_samples(void **state)
{
	(void)state;
	uint32_t end = GART_ADDR + GART_SIZE;
	surf2d_setup(NV_SURF_FORMAT_A8R8G8B8, 0x100, VRAM_ADDR, VRAM_ADDR);
	sifm_setup(H_SURF2D);
	/* rows 0..63 of 65, pitch 0x100, 256 bytes each: 63 * 0x100 + 256 = 0x4000 */
	INC(S_MISC, NV_SIFM_SIZE, 65 << 16 | 64, 0x100 | 0x00010000, end - 0x4000, 0);
	assert_copied(submit());
	next();
	/* 65 rows drawn sample the 65th: 0x4100 bytes */
	INC(S_MISC, NV_SIFM_CLIP_SIZE, 65 << 16 | 64, 0, 65 << 16 | 64);
	INC(S_MISC, NV_SIFM_POINT, 0);
	assert_refused(submit(), -EFAULT, NV_SIFM_POINT);
	assert_non_null(strstr(err.why, "SIFM source"));
	next();
	/* 64 rows from V = 1.0 (12.4): rows 1..64, the last one past the buffer */
	INC(S_MISC, NV_SIFM_POINT, 1 << 20);
	assert_refused(submit(), -EFAULT, NV_SIFM_POINT);
	next();
	/* DV_DY 0.5, centre origin: row j samples (j + 1/2) / 2, rows 0..31:
	 * 31 * 0x100 + 256 = 0x2000 bytes */
	INC(S_MISC, NV_SIFM_CLIP_SIZE, 64 << 16 | 64, 0, 64 << 16 | 64, 1 << 20, 1 << 19);
	INC(S_MISC, NV_SIFM_OFFSET, end - 0x2000);
	INC(S_MISC, NV_SIFM_POINT, 0);
	assert_copied(submit());
	next();
	INC(S_MISC, NV_SIFM_OFFSET, end - 0x1f00);
	INC(S_MISC, NV_SIFM_POINT, 0);
	assert_refused(submit(), -EFAULT, NV_SIFM_POINT);
}

static void sifm_to_swizzled_destination_outside_fails(void **state)
{
	(void)state;
	bind(S_MISC, H_SWZ);
	/* 64 x 64 (log2 6, 6) at 4 bpp = 0x4000 bytes, the end of VRAM buffer */
	INC(S_MISC, NV_SWZSURF_DMA_IMAGE, H_VRAM);
	INC(S_MISC, NV_SWZSURF_FORMAT, NV_SURF_FORMAT_A8R8G8B8 | 6 << 16 | 6 << 24,
	    VRAM_ADDR + VRAM_SIZE - 0x4000);
	sifm_setup(H_SWZ);
	INC(S_MISC, NV_SIFM_SIZE, 64 << 16 | 64, 0x100 | 0x00010000, GART_ADDR, 0);
	assert_copied(submit());
	next();
	/* a 128 x 128 surface (0x10000 bytes) from the same offset passes the buffer */
	bind(S_MISC, H_SWZ);
	INC(S_MISC, NV_SWZSURF_FORMAT, NV_SURF_FORMAT_A8R8G8B8 | 7 << 16 | 7 << 24);
	bind(S_MISC, H_SIFM);
	INC(S_MISC, NV_SIFM_POINT, 0);
	assert_refused(submit(), -EFAULT, NV_SIFM_POINT);
	next();
	/* output 64 x 64 at (1, 0) on a 64 x 64 swizzled surface: the card
	 * clips it to the surface (hw/sifm.h), which lies inside the buffer */
	bind(S_MISC, H_SWZ);
	INC(S_MISC, NV_SWZSURF_FORMAT, NV_SURF_FORMAT_A8R8G8B8 | 6 << 16 | 6 << 24);
	bind(S_MISC, H_SIFM);
	INC(S_MISC, NV_SIFM_CLIP_POINT, 0, 64 << 16 | 65, 1, 64 << 16 | 64);
	INC(S_MISC, NV_SIFM_POINT, 0);
	assert_copied(submit());
}

/* ---- jumps and the output budget ---- */

static void jump_outside_the_stream_fails(void **state)
{
	(void)state;
	emit(NV_CMD_JUMP_WORD(VRAM_ADDR));           /* a buffer of the list, not a push range */
	assert_refused(submit(), -EFAULT, 0);
	assert_int_equal(err.data, NV_CMD_JUMP_WORD(VRAM_ADDR));
}

static void jump_into_the_unsubmitted_part_of_a_push_buffer_fails(void **state)
{
	(void)state;
	emit(NV_CMD_JUMP_WORD(PB_ADDR + 0x100));     /* same buffer, past the range */
	pushmem[0x100] = 0;
	assert_refused(submit(), -EFAULT, 0);
}

static void jump_between_push_ranges_lands_on_the_word(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	nv_wr32le(push2mem + 0, 0xffffffff);          /* skipped by the jump */
	nv_wr32le(push2mem + 4, NV_CMD_INC_WORD(S_M2MF, NV_M2MF_NOP, 1));
	nv_wr32le(push2mem + 8, 0x42);
	emit(NV_CMD_JUMP_WORD(PB2_ADDR + 4));
	push[0] = (struct nvd_submit_push){ BO_PUSH, 0, pn * 4 };
	push[1] = (struct nvd_submit_push){ BO_PUSH2, 0, 12 };
	npush = 2;
	/* range 0 jumps into range 1 and ends with it; then range 1 runs itself
	 * from its start, where the invalid word is */
	assert_refused(submit(), -EINVAL, 0);
	assert_int_equal(err.push, 1);
	assert_int_equal(err.offset, 0);
	push[1].offset = 4;
	push[1].length = 8;
	long n = submit();
	assert_int_equal(n, 2 + 2 + 2);
	assert_int_equal(nv_rd32le(&out[3]), 0x42);
	assert_int_equal(nv_rd32le(&out[5]), 0x42);
}

static void jump_loop_is_eloop(void **state)
{
	(void)state;
	emit(NV_CMD_JUMP_WORD(PB_ADDR));             /* itself: no output ever */
	assert_refused(submit(), -ELOOP, 0);
	next();
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_NOP, 0);
	emit(NV_CMD_JUMP_WORD(PB_ADDR + 8));         /* back to the NOP */
	assert_int_equal(submit(), -ELOOP);          /* the ring fills up */
	assert_int_equal(err.err, -ELOOP);
	assert_int_equal(err.push, 0);
}

static void more_words_than_the_ring_holds_is_e2big(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_NOP, 0);
	assert_int_equal(submit_cap(NBOS, 4), 4);
	assert_refused(submit_cap(NBOS, 3), -E2BIG, NV_M2MF_NOP);
}

static void refused_first_pass_can_be_retried(void **state)
{
	(void)state;
	/* the daemon retries after E2BIG once the ring wrapped: same answer */
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_DMA_BUFFER_IN, H_VRAM);
	assert_int_equal(submit_cap(NBOS, 2), -E2BIG);
	assert_copied(submit());
}

/* ---- relocations ---- */

static void reloc_low_high_and_or_patch_the_words(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_DMA_BUFFER_IN, 0xdead, 0xdead);
	add_reloc(HERE() - 2, BO_VRAM, NVD_RELOC_OR, 0, H_VRAM, H_GART);
	add_reloc(HERE() - 1, BO_GART, NVD_RELOC_OR, 0, H_VRAM, H_GART);
	INC(S_M2MF, NV_M2MF_OFFSET_IN, 0xdead, 0xdead, 0xdead, 0xdead);
	add_reloc(HERE() - 4, BO_VRAM, NVD_RELOC_LOW, 0x20, 0, 0);
	add_reloc(HERE() - 3, BO_GART, NVD_RELOC_LOW, 0x10, 0, 0);
	add_reloc(HERE() - 2, BO_HIGH, NVD_RELOC_HIGH, 0xfff, 0, 0);   /* PITCH_IN: plain */
	add_reloc(HERE() - 1, BO_HIGH, NVD_RELOC_LOW | NVD_RELOC_OR, 0x4, 0x100000, 0x200000);
	assert_int_equal(submit(), pn);
	assert_int_equal(nv_rd32le(&out[3]), H_VRAM);
	assert_int_equal(nv_rd32le(&out[4]), H_GART);
	assert_int_equal(nv_rd32le(&out[6]), VRAM_ADDR + 0x20);
	assert_int_equal(nv_rd32le(&out[7]), GART_ADDR + 0x10);
	assert_int_equal(nv_rd32le(&out[8]), (uint32_t)((HIGH_ADDR + 0xfff) >> 32));
	assert_int_equal(nv_rd32le(&out[9]), (uint32_t)(HIGH_ADDR + 4) | 0x200000);
	/* the client's buffer is untouched */
	assert_int_equal(nv_rd32le(pushmem + 6 * 4), 0xdead);
}

static void relocs_in_any_order_apply(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_PITCH_IN, 0, 0, 0, 0);
	for (unsigned i = 4; i-- > 0;)
		add_reloc(3 + i, BO_VRAM, NVD_RELOC_LOW, i, 0, 0);
	assert_int_equal(submit(), pn);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(nv_rd32le(&out[3 + i]), VRAM_ADDR + i);
}

static void relocated_address_is_checked_after_patching(void **state)
{
	(void)state;
	m2mf_setup(H_VRAM, H_VRAM);
	copy_byte_to(0x00600000);                      /* bad as written, good once patched */
	add_reloc(HERE() - 8, BO_VRAM, NVD_RELOC_LOW, 0, 0, 0);
	assert_int_equal(submit(), pn);
	next();
	copy_byte_to(VRAM_ADDR);                       /* good as written, bad once patched */
	add_reloc(HERE() - 8, BO_VRAM, NVD_RELOC_LOW, VRAM_SIZE, 0, 0);
	assert_refused(submit(), -EFAULT, NV_M2MF_BUF_NOTIFY);
	assert_int_equal(nv_rd32le(&out[HERE() - 8]), VRAM_ADDR + VRAM_SIZE);
}

static void reloc_patches_a_command_word(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	emit(0xffffffff);                            /* becomes a jump to word 4 */
	emit(0xffffffff);
	INC(S_M2MF, NV_M2MF_NOP, 0);
	add_reloc(2, BO_PUSH, NVD_RELOC_LOW | NVD_RELOC_OR, 4 * 4, 1, 1);
	assert_int_equal(submit(), 4);
	assert_int_equal(nv_rd32le(&out[2]), NV_CMD_INC_WORD(S_M2MF, NV_M2MF_NOP, 1));
}

static void bad_relocs_are_refused(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_PITCH_IN, 0);
	add_reloc(3, NBOS, NVD_RELOC_LOW, 0, 0, 0);              /* target index */
	assert_refused(submit(), -EINVAL, 0);
	rel[0] = (struct nvd_submit_reloc){ NBOS, 12, BO_VRAM, NVD_RELOC_LOW, 0, 0, 0 };  /* word's buffer */
	assert_refused(submit(), -EINVAL, 0);
	rel[0] = (struct nvd_submit_reloc){ BO_PUSH, 13, BO_VRAM, NVD_RELOC_LOW, 0, 0, 0 }; /* unaligned */
	assert_refused(submit(), -EINVAL, 0);
	rel[0] = (struct nvd_submit_reloc){ BO_PUSH, PB_SIZE - 2, BO_VRAM, NVD_RELOC_LOW, 0, 0, 0 };
	assert_refused(submit(), -EINVAL, 0);
	rel[0] = (struct nvd_submit_reloc){ BO_PUSH, PB_SIZE, BO_VRAM, NVD_RELOC_LOW, 0, 0, 0 };  /* past */
	assert_refused(submit(), -EINVAL, 0);
	rel[0] = (struct nvd_submit_reloc){ BO_PUSH, 12, BO_VRAM, NVD_RELOC_LOW | NVD_RELOC_HIGH, 0, 0, 0 };
	assert_refused(submit(), -EINVAL, 0);
	rel[0] = (struct nvd_submit_reloc){ BO_PUSH, 12, BO_VRAM, 8, 0, 0, 0 };  /* unknown flag */
	assert_refused(submit(), -EINVAL, 0);
	rel[0] = (struct nvd_submit_reloc){ BO_PUSH, 12, BO_VRAM, NVD_RELOC_LOW, 0, 0, 0 };
	rel[1] = rel[0];                                          /* two on one word */
	nrel = 2;
	assert_refused(submit(), -EINVAL, 0);
	nrel = 1;
	assert_int_equal(submit(), pn);
}

/* ---- state across submissions ---- */

static void state_persists_across_submissions(void **state)
{
	(void)state;
	m2mf_setup(H_VRAM, H_GART);
	INC(S_M2MF, NV_M2MF_OFFSET_IN, VRAM_ADDR, GART_ADDR, 0x100, 0x100, 0x100, 16, 0x101);
	assert_copied(submit());
	next();
	/* the binding and every value come from the first submission */
	INC(S_M2MF, NV_M2MF_BUF_NOTIFY, 0);
	assert_copied(submit());
	/* the extent is checked against this submission's list: GART not on it */
	assert_refused(submit_cap(BO_GART, OUT_CAP), -EFAULT, NV_M2MF_BUF_NOTIFY);
}

static void refused_submission_leaves_state_unchanged(void **state)
{
	(void)state;
	m2mf_setup(H_VRAM, H_VRAM);
	INC(S_M2MF, NV_M2MF_OFFSET_IN, VRAM_ADDR, VRAM_ADDR, 0, 0, 0x100, 1, 0x101);
	assert_copied(submit());
	next();
	/* changes that would make the next copy pass the buffer, then a refusal */
	INC(S_M2MF, NV_M2MF_LINE_LENGTH_IN, VRAM_SIZE);
	INC(S_M2MF, NV_M2MF_OFFSET_OUT, VRAM_ADDR + 0x100);
	bind(S_GDI, H_M2MF);
	INC(S_M2MF, NV_FIFO_REF_CNT, 1);
	assert_refused(submit(), -EPERM, NV_FIFO_REF_CNT);
	next();
	INC(S_M2MF, NV_M2MF_BUF_NOTIFY, 0);              /* old values: 0x100 bytes */
	INC(S_GDI, NV_GDI_NOP, 0);                      /* subchannel 3 still unbound */
	assert_refused(submit(), -EINVAL, NV_GDI_NOP);
	next();
	INC(S_M2MF, NV_M2MF_BUF_NOTIFY, 0);
	assert_copied(submit());
}

/* ---- 3D ---- */

static void documented_3d_methods_pass_and_addresses_are_checked(void **state)
{
	(void)state;
	bind(S_3D, H_3D);
	INC(S_3D, NV_CURIE_DMA_NOTIFY, H_NTFY, H_VRAM, H_GART);
	/* the program first: its bind is rewritten (test_nvd_validate_3d.c) */
	INC(S_3D, NV_CURIE_FP_ACTIVE_PROGRAM, GART_ADDR | 2);              /* DMA1 = GART */
	assert_true(submit() > 0);
	next();
	INC(S_3D, NV_CURIE_DMA_COLOR0, H_VRAM, H_VRAM, H_VRAM, H_GART, H_NTFY, H_QUERY);
	INC(S_3D, NV_CURIE_RT_HORIZ, 64 << 16, 64 << 16, 0x148, 0x100, VRAM_ADDR, VRAM_ADDR + 0x10000);
	INC(S_3D, NV_CURIE_VIEWPORT_TRANSLATE, 0, 0, 0, 0, 0, 0, 0, 0);
	INC(S_3D, NV_CURIE_VTXBUF, GART_ADDR | 1u << 31, VRAM_ADDR + 0x100);  /* DMA1 = GART */
	INC(S_3D, NV_CURIE_TEX_OFFSET, GART_ADDR + 0x40, 0x00000002);      /* TEX_FORMAT: DMA1 */
	INC(S_3D, NV_CURIE_QUERY_GET, 0x01000000 | 0x10);
	INC(S_3D, NV_CURIE_FENCE_OFFSET, 0x10, 1);
	INC(S_3D, NV_CURIE_VP_UPLOAD_FROM_ID, 0);
	INC(S_3D, NV_CURIE_VP_UPLOAD_INST, 1, 2, 3, 4);
	INC(S_3D, NV_CURIE_VERTEX_BEGIN_END, 5);
	emit(NV_CMD_NONINC_WORD(S_3D, NV_CURIE_VERTEX_DATA, 600));
	for (unsigned i = 0; i < 600; i++)
		emit(0x3f800000 + i);
	INC(S_3D, NV_CURIE_VERTEX_BEGIN_END, 0);
	INC(S_3D, NV_CURIE_CLEAR_BUFFERS, 0xf3);
	assert_copied(submit());
	next();
	/* addresses are checked where the card uses them, not where set */
	INC(S_3D, NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0));
	INC(S_3D, NV_CURIE_COLOR0_OFFSET, 0x00600000);
	INC(S_3D, NV_CURIE_VTXBUF, GART_ADDR);            /* DMA0 = VRAM: not a VRAM address */
	assert_copied(submit());
	next();
	INC(S_3D, NV_CURIE_CLEAR_BUFFERS, 0xf0);          /* colour buffer 0 at 0x600000 */
	assert_refused(submit(), -EFAULT, NV_CURIE_CLEAR_BUFFERS);
	next();
	INC(S_3D, NV_CURIE_COLOR0_OFFSET, 0);                /* no 0 exception for 3D */
	INC(S_3D, NV_CURIE_CLEAR_BUFFERS, 0xf0);
	assert_refused(submit(), -EFAULT, NV_CURIE_CLEAR_BUFFERS);
	next();
	INC(S_3D, NV_CURIE_QUERY_GET, 0x01000000 | 0xf80);   /* DMA_QUERY is 0xf80 bytes */
	assert_refused(submit(), -EFAULT, NV_CURIE_QUERY_GET);
}

static void nv44_lacks_the_index_buffer_methods(void **state)
{
	(void)state;
	bind(S_3D, H_3D);
	INC(S_3D, NV_CURIE_DMA_VTXBUF0, H_VRAM, H_GART);
	INC(S_3D, NV_CURIE_IDXBUF_OFFSET, VRAM_ADDR, 0x10);
	assert_copied(submit());
	next();
	bind(S_3D, H_3D44);                          /* same table, one state */
	INC(S_3D, NV_CURIE_IDXBUF_OFFSET, VRAM_ADDR, 0x10);
	assert_refused(submit(), -EINVAL, NV_CURIE_IDXBUF_OFFSET);
	assert_int_equal(err.cls, NV_CLASS_CURIE_NV44);
}

/* ---- the realistic stream and error locations ---- */

/* What xf86-video-nouveau's NVAccelCommonInit and one round of its EXA
 * hooks, plus a Mesa-like M2MF copy and SIFM upload, emit. */
static void realistic_stream_is_copied_byte_for_byte(void **state)
{
	(void)state;
	bind(S_SF2D, H_SURF2D);
	INC(S_SF2D, NV_SURF2D_DMA_NOTIFY, H_NULL);
	INC(S_SF2D, NV_SURF2D_DMA_IMAGE_SOURCE, H_VRAM, H_VRAM);
	bind(S_MISC, H_BETA1);
	INC(S_MISC, NV_BETA1_BETA_1D31, 0x7f800000);
	bind(S_MISC, H_BETA4);
	INC(S_MISC, NV_BETA4_BETA_FACTOR, 0xffff0000);
	bind(S_MISC, H_PATT);
	INC(S_MISC, NV_PATT_DMA_NOTIFY, H_NULL);
	INC(S_MISC, NV_PATT_MONOCHROME_FORMAT, 1, 0, 1);
	bind(S_MISC, H_ROP);
	INC(S_MISC, NV_ROP_DMA_NOTIFY, H_NULL);
	bind(S_GDI, H_GDI);
	INC(S_GDI, NV_GDI_DMA_NOTIFY, H_NTFY, H_NULL);
	INC(S_GDI, NV_GDI_SURFACE, H_SURF2D);
	INC(S_GDI, NV_GDI_ROP, H_ROP);
	INC(S_GDI, NV_GDI_PATTERN, H_PATT);
	INC(S_GDI, NV_GDI_OPERATION, 1);
	INC(S_GDI, NV_GDI_MONOCHROME_FORMAT, 2);
	bind(S_BLIT, H_BLIT);
	INC(S_BLIT, NV_BLIT_DMA_NOTIFY, H_NTFY, H_NULL);
	INC(S_BLIT, NV_BLIT_SURFACES, H_SURF2D);
	INC(S_BLIT, NV_BLIT_CLIP, H_NULL, H_PATT, H_ROP);
	INC(S_BLIT, NV_BLIT_OPERATION, 1);
	INC(S_BLIT, NV_BLIT_FLIP_SET_READ, 0, 1, 2);
	bind(S_MISC, H_CLIP);
	INC(S_MISC, NV_CLIP_DMA_NOTIFY, H_NULL);
	bind(S_IFC, H_IFC);
	INC(S_IFC, NV_IFC_DMA_NOTIFY, H_NTFY);
	INC(S_IFC, NV_IFC_CLIP, H_NULL, H_NULL, H_NULL, H_NULL, H_NULL, H_SURF2D);
	INC(S_IFC, NV_IFC_OPERATION, 3);
	bind(S_M2MF, H_M2MF);
	INC(S_M2MF, NV_M2MF_DMA_NOTIFY, H_NTFY);

	/* solid fill: Y32 on a 1024 x 768 screen at VRAM_ADDR, pitch 4096 */
	INC(S_GDI, NV_GDI_OPERATION, 3);
	INC(S_SF2D, NV_SURF2D_FORMAT, NV_SURF_FORMAT_Y32, 0x1000 << 16 | 0x1000, VRAM_ADDR,
	    VRAM_ADDR);
	INC(S_GDI, NV_GDI_COLOR_FORMAT, 3);
	for (unsigned i = 0; i < 8; i++) {
		INC(S_GDI, NV_GDI_COLOR1_A, 0xff00ff00 + i);
		INC(S_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, (i * 10) << 16 | i * 20,
		    100 << 16 | 50);
	}
	/* copy: blit within the screen */
	INC(S_BLIT, NV_BLIT_OPERATION, 3);
	INC(S_SF2D, NV_SURF2D_FORMAT, NV_SURF_FORMAT_A8R8G8B8, 0x1000 << 16 | 0x1000, VRAM_ADDR,
	    VRAM_ADDR);
	for (unsigned i = 0; i < 8; i++)
		INC(S_BLIT, NV_BLIT_POINT_IN, i << 16 | i, (i + 100) << 16 | (i + 200), 32 << 16 | 64);
	/* upload through IFC: CLIP on MISC, rows of 40 words */
	bind(S_MISC, H_CLIP);
	INC(S_MISC, NV_CLIP_POINT, 10 << 16 | 10, 4 << 16 | 40);
	INC(S_IFC, NV_IFC_OPERATION, 3, 4, 10 << 16 | 10, 4 << 16 | 40, 4 << 16 | 40);
	for (unsigned r = 0; r < 4; r++) {
		emit(NV_CMD_INC_WORD(S_IFC, NV_IFC_COLOR, 40));
		for (unsigned i = 0; i < 40; i++)
			emit(r << 24 | i);
	}
	/* staged download through M2MF (GART staging buffer) */
	INC(S_M2MF, NV_M2MF_DMA_BUFFER_IN, H_VRAM, H_GART);
	m2mf_emit(VRAM_ADDR + 0x1000, GART_ADDR, 0x1000, 0x400, 0x400, 16, 0x101);
	INC(S_M2MF, NV_M2MF_NOP, 0);
	INC(S_M2MF, NV_M2MF_OFFSET_OUT, 0);
	/* Mesa: SIFM linear -> swizzled upload */
	bind(S_MISC, H_SWZ);
	INC(S_MISC, NV_SWZSURF_DMA_IMAGE, H_VRAM);
	INC(S_MISC, NV_SWZSURF_FORMAT, NV_SURF_FORMAT_A8R8G8B8 | 5 << 16 | 5 << 24,
	    VRAM_ADDR + 0x80000);
	bind(S_MISC, H_SIFM);
	INC(S_MISC, NV_SIFM_DMA_NOTIFY, H_NULL);
	INC(S_MISC, NV_SIFM_SURFACE, H_SWZ);
	INC(S_MISC, NV_SIFM_DMA_IMAGE, H_GART);
	INC(S_MISC, NV_SIFM_COLOR_FORMAT, NV_SIFM_COLOR_FORMAT_A8R8G8B8, 3, 0, 32 << 16 | 32,
	    0, 32 << 16 | 32, 1 << 20, 1 << 20);
	INC(S_MISC, NV_SIFM_SIZE, 32 << 16 | 32, 0x80 | 0x00010000, GART_ADDR + 0x8000, 0);
	/* a notify and the vblank-sync NOP on BLIT */
	INC(S_BLIT, NV_BLIT_NOTIFY, 0);
	INC(S_BLIT, NV_BLIT_NOP, 0);
	assert_copied(submit());
}

static void error_reports_push_index_and_byte_offset(void **state)
{
	(void)state;
	bind(S_M2MF, H_M2MF);
	push[0] = (struct nvd_submit_push){ BO_PUSH, 0, pn * 4 };
	/* range 1 starts at byte 0x40 of the same buffer */
	pn = 0x10;
	INC(S_M2MF, NV_M2MF_NOP, 0);
	INC(S_M2MF, NV_M2MF_DMA_BUFFER_OUT, H_VRAM, 7);          /* 0x18c unknown */
	push[1] = (struct nvd_submit_push){ BO_PUSH, 0x40, (pn - 0x10) * 4 };
	npush = 2;
	assert_refused(submit(), -EINVAL, NV_M2MF_DMA_BUFFER_OUT + 4);
	assert_int_equal(err.push, 1);
	assert_int_equal(err.offset, 0x40 + 4 * (2 + 1 + 1));
	assert_int_equal(err.data, 7);
	assert_int_equal(err.subc, S_M2MF);
	assert_int_equal(err.cls, NV_CLASS_M2MF);
}

static void bad_push_ranges_are_refused(void **state)
{
	(void)state;
	push[0] = (struct nvd_submit_push){ BO_PUSH, 2, 4 };          /* unaligned */
	npush = 1;
	assert_int_equal(submit(), -EINVAL);
	push[0] = (struct nvd_submit_push){ BO_PUSH, PB_SIZE - 4, 8 };  /* past its buffer */
	assert_int_equal(submit(), -EINVAL);
	push[0] = (struct nvd_submit_push){ BO_VRAM, 0, 8 };            /* buffer with no view */
	assert_int_equal(submit(), -EINVAL);
	push[0] = (struct nvd_submit_push){ NBOS, 0, 8 };
	assert_int_equal(submit(), -EINVAL);
}

/* Random mutations of the realistic stream: never a crash, never more than
 * the budget, and whatever passes is straight-line packets only, which pass
 * again unchanged from the same starting state (the output is what was
 * validated). */
static void mutated_streams_only_ever_yield_validated_packets(void **state)
{
	static uint8_t orig[PB_SIZE], accepted[4 * OUT_CAP];
	uint32_t seed = 1;

	realistic_stream_is_copied_byte_for_byte(state);
	uint32_t words = pn;
	memcpy(orig, pushmem, sizeof orig);
	unsigned passed = 0;
	for (unsigned iter = 0; iter < 3000; iter++) {
		memcpy(pushmem, orig, sizeof orig);
		pn = words;
		unsigned flips = 1 + iter % 4;
		for (unsigned f = 0; f < flips; f++) {
			seed = seed * 1103515245 + 12345;
			uint32_t at = (seed >> 8) % words;
			seed = seed * 1103515245 + 12345;
			uint32_t v = seed;
			switch (iter % 5) {
			case 0: v = nv_rd32le(pushmem + 4 * at) ^ (1u << (seed >> 27)); break;
			case 1: v = NV_CMD_JUMP_WORD(PB_ADDR + 4 * ((seed >> 4) % words)); break;
			case 2: v = nv_rd32le(pushmem + 4 * at) + ((seed >> 16) & 0xff) - 0x80; break;
			default: break;
			}
			nv_wr32le(pushmem + 4 * at, v);
		}
		nvd_vstate_free(vs);
		vs = nvd_vstate_new();
		npush = 0;
		long n = submit_cap(NBOS, 4096);
		assert_true(n <= 4096);
		if (n < 0) {
			assert_int_equal(err.err, n);
			continue;
		}
		passed++;
		for (long i = 0; i < n;) {
			struct nv_cmd c = nv_cmd_decode(nv_rd32le(&out[i]));
			assert_true(c.type == NV_CMD_INC || c.type == NV_CMD_NONINC);
			assert_true(c.subc != NVD_SUBC_DAEMON || !c.count);
			i += 1 + c.count;
			assert_true(i <= n);
		}
		memcpy(accepted, out, 4 * (size_t)n);
		memcpy(pushmem, accepted, 4 * (size_t)n);
		pn = (uint32_t)n;
		npush = 0;
		nvd_vstate_free(vs);
		vs = nvd_vstate_new();
		long n2 = submit_cap(NBOS, 4096);
		if (n2 != n)
			print_error("iteration %u: %ld words passed, again %ld: %s at +0x%x\n", iter, n,
				    n2, err.why, err.offset);
		assert_int_equal(n2, n);
		assert_memory_equal(out, accepted, 4 * (size_t)n);
	}
	print_message("mutations: %u of 3000 passed\n", passed);
	assert_true(passed > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(inc_noninc_and_empty_headers_are_copied),
		T(jump_and_old_jump_are_followed_not_copied),
		T(return_ends_the_range_and_is_not_copied),
		T(call_is_refused),
		T(invalid_and_sli_words_are_refused),
		T(packet_running_past_its_push_range_is_refused),
		T(inc_packet_past_the_last_method_is_refused),
		T(unknown_method_is_refused),
		T(unknown_fifo_method_is_refused),
		T(priv_fifo_methods_are_refused),
		T(daemon_subchannel_is_refused_even_for_object),
		T(method_on_an_unbound_subchannel_is_refused),
		T(object_of_an_unknown_handle_is_enoent),
		T(object_of_a_ctxdma_or_null_is_einval),
		T(object_of_the_software_class_is_einval),
		T(handle_of_another_channel_is_enoent),
		T(dma_method_needs_a_ctxdma_or_null),
		T(object_method_needs_a_graphics_object_or_null),
		T(notify_needs_a_notifier_of_16_bytes),
		T(address_at_the_last_byte_passes_one_past_fails),
		T(address_in_any_of_4096_held_buffers_is_found_and_marked),
		T(address_in_a_buffer_not_on_the_list_fails),
		T(m2mf_zero_offset_passes_at_set_time),
		T(m2mf_copy_filling_both_buffers_passes),
		T(m2mf_line_count_times_pitch_past_the_buffer_fails),
		T(m2mf_64bit_overflow_attempts_fail),
		T(m2mf_bad_format_increment_fails),
		T(m2mf_without_ctxdma_or_through_null_fails),
		T(m2mf_through_a_dma_bo_ctxdma_is_bounded_by_its_size),
		T(write_to_a_read_only_buffer_fails),
		T(gdi_rect_inside_passes_past_the_surface_buffer_fails),
		T(gdi_with_unknown_format_or_foreign_surface_fails),
		T(coordinates_with_the_sign_bit_are_clipped),
		T(operations_with_values_the_engines_refuse_fail),
		T(blit_source_outside_its_buffer_fails),
		T(ifc_color_packet_is_checked_against_its_rectangle),
		T(sifm_to_linear_destination_outside_fails),
		T(sifm_source_checked_on_the_window_it_samples),
		T(sifm_to_swizzled_destination_outside_fails),
		T(jump_outside_the_stream_fails),
		T(jump_into_the_unsubmitted_part_of_a_push_buffer_fails),
		T(jump_between_push_ranges_lands_on_the_word),
		T(jump_loop_is_eloop),
		T(more_words_than_the_ring_holds_is_e2big),
		T(refused_first_pass_can_be_retried),
		T(reloc_low_high_and_or_patch_the_words),
		T(relocs_in_any_order_apply),
		T(relocated_address_is_checked_after_patching),
		T(reloc_patches_a_command_word),
		T(bad_relocs_are_refused),
		T(state_persists_across_submissions),
		T(refused_submission_leaves_state_unchanged),
		T(documented_3d_methods_pass_and_addresses_are_checked),
		T(nv44_lacks_the_index_buffer_methods),
		T(realistic_stream_is_copied_byte_for_byte),
		T(error_reports_push_index_and_byte_offset),
		T(bad_push_ranges_are_refused),
		T(mutated_streams_only_ever_yield_validated_packets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
