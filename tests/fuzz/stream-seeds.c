/* Turns push buffers recorded with NVD_DRM_DUMP (the words of every push
 * range, as the client wrote them) into fuzz_stream inputs
 * (tests/fuzz/fuzz_stream.c): one tagged packet op per command word, each
 * data word a literal except where the method tables (hw/methods.h) say it
 * is an address in the daemon's VRAM or GART ctxdma, which becomes an
 * offset into an attacker's buffer.  Recordings of more than a submission's region are cut into
 * submissions, and stop at the last that fits, or at 8 KiB.
 *
 *   stream-seeds DUMP OUT
 *
 * `make fuzz-stream-seeds STREAM_DUMPS=DIR` converts DIR/NAME.dump into
 * tests/fuzz/corpus/stream/NAME.  The committed ones were recorded on a
 * running nvd with
 *   NVD_DRM_DUMP=DIR/mesa-SCENE.dump nvd-run tests/gl/gl-scenes --scene SCENE
 *       --size 64x64 --out /dev/null   (triangle, tex-linear, glsl-fragment,
 *                                       draw-elements-ebo, stencil-shadow)
 *   NVD_DRM_DUMP=DIR/ddx.dump tests/x/test_exa   (the DDX appends too) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/pushbuf.h"
#include "nvd/nvd.h"
#include "tests/fuzz/stream.h"

#define MAX_SEED (8u << 10)        /* bytes a seed has at most */

struct out {
	uint8_t b[MAX_SEED];
	size_t n;
};

/* main leaves room for what it puts */
static void put8(struct out *o, uint8_t v)
{
	o->b[o->n++] = v;
}

static void put32(struct out *o, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		put8(o, (uint8_t)(v >> 8 * i));
}

/* The class a recorded OBJECT handle names in fuzz_stream's world. */
static uint32_t class_of(uint32_t handle)
{
#define STREAM_SEED_CLASS_(h, c, b, o, s, a) if (handle == (h) && (b) < 0) return (c);
	STREAM_OBJECTS(STREAM_SEED_CLASS_)
	return 0;
}

static uint32_t buf_size(unsigned b)
{
	return b == STREAM_A_SURF ? STREAM_SURF_SIZE : b == STREAM_A_DATA ? STREAM_DATA_SIZE
						       : STREAM_GDATA_SIZE;
}

/* The method's data word: a literal, or for an address in the whole of
 * VRAM or GART (its ctxdma, as last set on the subchannel, is the
 * daemon's VRAM or GART one) an offset into an attacker's buffer (VRAM:
 * the surface, for a program the data; GART: gdata), from the bits such
 * an offset of the recorded card holds, below the flags some address
 * methods keep in the top and bottom bits.  Its buffer, or 0. */
static uint32_t data_word(struct out *o, const uint32_t *state, uint32_t cls, uint32_t mthd,
			  uint32_t v)
{
	const struct nv_class_desc *c = mthd < NV_MTHD_FIFO_END ? nv_fifo_desc() : nv_class_find(cls);
	const struct nv_mthd_desc *md = c ? nv_mthd_find(c, mthd, NULL) : NULL;
	uint32_t dma = md && md->kind == NV_MK_ADDR ? state[md->dma / 4] : 0;

	if (dma != NVD_VRAM_DMA_HANDLE && dma != NVD_GART_DMA_HANDLE) {
		put8(o, STREAM_TAG_LITERAL);
		put32(o, v);
		return 0;
	}
	/* programs apart, where the recorded surfaces' offsets cannot land */
	int prog = c->table_id == NV_TABLE_CURIE && mthd == NV_CURIE_FP_ACTIVE_PROGRAM;
	unsigned b = dma == NVD_GART_DMA_HANDLE ? STREAM_A_GDATA : prog ? STREAM_A_DATA : STREAM_A_SURF;
	uint32_t off = (v & 0x0fffffc0u) % buf_size(b);
	put8(o, (uint8_t)(STREAM_TAG_BUF + b));
	put32(o, (v & 0xf000003fu) | off);
	return b;
}

/* The recording has no buffer contents: a fragment program it binds
 * becomes one instruction written there, an END that samples texture
 * unit 0 (op_data: buffer data 1 or gdata 2, 4 a program, 0x10 TEX). */
static void fp_end(struct out *o, unsigned b, uint32_t v)
{
	put8(o, STREAM_OP_DATA);
	put8(o, (b == STREAM_A_DATA ? 1 : 2) | 4 | 0x10);
	uint32_t off = (v & 0x0fffffc0u) % buf_size(b);
	put8(o, (uint8_t)(off / 4));
	put8(o, (uint8_t)(off / 4 >> 8));
	put8(o, 0);
}

int main(int argc, char **argv)
{
	static uint32_t w[MAX_SEED];     /* a word takes 5 bytes of the seed or more */
	static struct out o;
	static uint32_t state[NV_SUBCHANNELS][NV_MTHD_END / 4];   /* the last value of each method */
	uint32_t subc_cls[NV_SUBCHANNELS] = { 0 };

	if (argc != 3) {
		fprintf(stderr, "usage: stream-seeds DUMP OUT\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	size_t n = fread(w, 4, MAX_SEED, f);
	fclose(f);

	/* the header: submissions (patched below), every buffer listed RW */
	put8(&o, 0);
	for (unsigned k = 0; k < STREAM_MAX_SUBS; k++)
		put8(&o, 0xff);
	unsigned sub = 0, used = 0;
	for (size_t i = 0; i < n;) {
		struct nv_cmd c = nv_cmd_decode(nv_rd32le(&w[i]));
		unsigned cnt = c.type == NV_CMD_INC || c.type == NV_CMD_NONINC ? c.count : 0;
		if (i + 1 + cnt > n || o.n + 5 * (1 + cnt) + 6 > sizeof(o.b))
			break;
		if (used + 1 + cnt > STREAM_REGION_WORDS) {
			if (sub + 1 == STREAM_MAX_SUBS)
				break;
			put8(&o, STREAM_OP_NEXT);
			sub++;
			used = 0;
		}
		put8(&o, STREAM_OP_PACKET);
		put32(&o, nv_rd32le(&w[i]));
		unsigned fp_buf = 0;
		uint32_t fp = 0;
		for (unsigned k = 0; k < cnt; k++) {
			uint32_t m = c.type == NV_CMD_INC ? c.mthd + 4 * k : c.mthd;
			uint32_t v = nv_rd32le(&w[i + 1 + k]);
			unsigned b = data_word(&o, state[c.subc], subc_cls[c.subc], m, v);
			if (b && m == NV_CURIE_FP_ACTIVE_PROGRAM && nv_class_find(subc_cls[c.subc]) &&
			    nv_class_find(subc_cls[c.subc])->table_id == NV_TABLE_CURIE) {
				fp_buf = b;
				fp = v;
			}
			if (m == NV_FIFO_OBJECT)
				subc_cls[c.subc] = class_of(v);
			if (m < NV_MTHD_END)
				state[c.subc][m / 4] = v;
		}
		if (fp_buf)
			fp_end(&o, fp_buf, fp);
		used += 1 + cnt;
		i += 1 + cnt;
	}
	o.b[0] = (uint8_t)sub;

	f = fopen(argv[2], "wb");
	if (!f || fwrite(o.b, 1, o.n, f) != o.n || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
