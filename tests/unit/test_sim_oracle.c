/* The access oracle (sim.h sim_oracle_*): accesses inside what the host
 * admitted pass, one outside is recorded with its engine, method, address,
 * length and submission: M2MF copies, a draw's colour buffer and texture,
 * the 3D state and the vertex fetch window a second submission reuses, the
 * host's own subchannel, the pusher, words of no submission. */
#include "sim-host.h"
#include "hw/enums-2d.h"
#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/tex.h"

#define SUBC_M2MF 0
#define SUBC_HOST 1              /* the host's own (the software object's) */
#define SUBC_3D   7

#define H_VRAM  0xbeef0201u
#define H_M2MF  0x80000039u
#define H_3D    0xbeef3097u
#define OBJ_M2MF HOST_OBJ(1)
#define OBJ_3D   HOST_OBJ(2)

#define FP_AT    0x010000u       /* fragment programs: the 3D fetch maps 1 MiB from here */
#define FP_LEN   0x100000u
#define SRC_AT   0x200000u
#define DST_AT   0x300000u
#define ZETA_AT  0x400000u
#define VB_AT    0x500000u
#define AREA_AT  0x600000u       /* the host's own memory */
#define AREA_LEN 0x10000u

#define RT_W 64
#define RT_H 64
#define RT_PITCH (RT_W * 4)
#define RT_LEN ((RT_H - 1) * RT_PITCH + RT_W * 4)

struct fix {
	struct host h;
	uint32_t id;                 /* the last submission admitted */
	uint64_t found;              /* violations assert_one took */
};

static uint32_t fu(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static uint8_t *vram(struct host *h, uint32_t off)
{
	return sim_vram(h->s) + off;
}

static struct sim_oracle_range vr(uint32_t addr, uint32_t size, uint8_t allow)
{
	return (struct sim_oracle_range){ SIM_ORACLE_VRAM, allow, addr, size };
}

/* Admit what chid's ring holds from `begin` on as the next submission, run it. */
static uint32_t submit_on(struct fix *f, unsigned chid, uint32_t begin,
			  const struct sim_oracle_range *r, unsigned n)
{
	uint32_t id = ++f->id;
	assert_int_equal(sim_oracle_admit(f->h.s, chid, id, begin, f->h.put[chid], r, n), 0);
	host_kick(&f->h, chid);
	sim_run(f->h.s);
	return id;
}

static uint32_t submit(struct fix *f, uint32_t begin, const struct sim_oracle_range *r, unsigned n)
{
	return submit_on(f, 0, begin, r, n);
}

static unsigned take(struct fix *f, struct sim_oracle_violation *v, uint64_t *total)
{
	return sim_oracle_take(f->h.s, v, 4, total);
}

static void assert_clean(struct fix *f)
{
	struct sim_oracle_violation v[4];
	uint64_t total;
	unsigned n = take(f, v, &total);
	if (n) {
		char line[256];
		sim_oracle_describe(&v[0], line, sizeof(line));
		fail_msg("%u violation(s): %s", n, line);
	}
	assert_int_equal(total, f->found);
	assert_int_equal(sim_rd32(f->h.s, NV_PGRAPH_INTR) & NV_PGRAPH_INTR_ERROR, 0);
}

/* Exactly one violation since the last look: into *v. */
static void assert_one(struct fix *f, struct sim_oracle_violation *v)
{
	struct sim_oracle_violation all[4];
	char line[256];
	unsigned n = take(f, all, NULL);
	for (unsigned i = 0; i < n && n != 1; i++) {
		sim_oracle_describe(&all[i], line, sizeof(line));
		print_message("violation: %s\n", line);
	}
	assert_int_equal(n, 1);
	f->found++;
	*v = all[0];
	assert_true(!v->what || strlen(v->what));
}

static void m1(struct host *h, uint32_t mthd, uint32_t data)
{
	host_mthd(h, 0, SUBC_3D, mthd, data);
}

static void mn(struct host *h, unsigned subc, uint32_t mthd, unsigned n, const uint32_t *d)
{
	host_emit(h, 0, NV_CMD_INC_WORD(subc, mthd, n));
	for (unsigned i = 0; i < n; i++)
		host_emit(h, 0, d[i]);
}

/* One line of len bytes, as validate-fp.c's copies. */
static void m2mf_copy(struct host *h, unsigned subc, uint32_t src, uint32_t dst, uint32_t len)
{
	uint32_t dma[2] = { H_VRAM, H_VRAM };
	uint32_t w[8] = { src, dst, len, len, len, 1, NV_M2MF_FORMAT(1, 1), 0 };
	mn(h, subc, NV_M2MF_DMA_BUFFER_IN, 2, dma);
	mn(h, subc, NV_M2MF_OFFSET_IN, 8, w);
}

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));
	struct host *h = &f->h;

	host_new(h);
	assert_int_equal(sim_oracle_enable(h->s, SUBC_HOST), 0);
	host_chan_new(h, 0, HOST_PB_DMA);
	host_grobj(h, OBJ_M2MF, NV_CLASS_M2MF);
	host_grobj(h, OBJ_3D, NV_CLASS_CURIE_NV40);
	host_ramht_add(h, H_VRAM, 0, NV_ENGINE_SW, HOST_VRAM_DMA);
	host_ramht_add(h, H_M2MF, 0, NV_ENGINE_GR, OBJ_M2MF);
	host_ramht_add(h, H_3D, 0, NV_ENGINE_GR, OBJ_3D);
	struct sim_oracle_range ring = { SIM_ORACLE_BUS, SIM_ORACLE_PUSH_R, HOST_RING(0), 0x10000 };
	struct sim_oracle_range area = vr(AREA_AT, AREA_LEN, SIM_ORACLE_HOST_R | SIM_ORACLE_HOST_W);
	assert_int_equal(sim_oracle_area(h->s, 0, &ring), 0);
	assert_int_equal(sim_oracle_area(h->s, 0, &area), 0);

	/* binding objects and ctxdmas touches no memory */
	uint32_t begin = h->put[0];
	host_mthd(h, 0, SUBC_M2MF, NV_FIFO_OBJECT, H_M2MF);
	host_mthd(h, 0, SUBC_3D, NV_FIFO_OBJECT, H_3D);
	static const uint32_t dmas[] = {
		NV_CURIE_DMA_TEXTURE0, NV_CURIE_DMA_TEXTURE1, NV_CURIE_DMA_COLOR0, NV_CURIE_DMA_ZETA,
		NV_CURIE_DMA_VTXBUF0, NV_CURIE_DMA_VTXBUF1, NV_CURIE_DMA_COLOR1, NV_CURIE_DMA_COLOR2,
		NV_CURIE_DMA_COLOR3,
	};
	for (unsigned i = 0; i < sizeof(dmas) / sizeof(dmas[0]); i++)
		m1(h, dmas[i], H_VRAM);
	submit(f, begin, NULL, 0);
	assert_clean(f);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	host_free(&f->h);
	free(f);
	return 0;
}

/* ---- M2MF ---- */

static void m2mf_copy_inside_its_buffers_passes(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;

	for (unsigned i = 0; i < 256; i++)
		*vram(h, SRC_AT + i) = (uint8_t)(i * 7 + 1);
	uint32_t begin = h->put[0];
	m2mf_copy(h, SUBC_M2MF, SRC_AT, DST_AT, 256);
	struct sim_oracle_range r[2] = { vr(SRC_AT, 256, SIM_ORACLE_CLIENT_R),
					 vr(DST_AT, 256, SIM_ORACLE_CLIENT_W) };
	submit(f, begin, r, 2);
	assert_clean(f);
	assert_memory_equal(vram(h, DST_AT), vram(h, SRC_AT), 256);
}

static void m2mf_write_one_byte_past_its_buffer_is_recorded(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;
	struct sim_oracle_violation v;
	uint64_t total;
	char line[256];

	uint32_t begin = h->put[0];
	m2mf_copy(h, SUBC_M2MF, SRC_AT, DST_AT, 257);
	uint32_t notify_at = h->put[0] - 4;      /* BUF_NOTIFY's data word */
	struct sim_oracle_range r[2] = { vr(SRC_AT, 4096, SIM_ORACLE_CLIENT_R),
					 vr(DST_AT, 256, SIM_ORACLE_CLIENT_W) };
	uint32_t id = submit(f, begin, r, 2);
	assert_one(f, &v);
	assert_int_equal(v.chid, 0);
	assert_int_equal(v.subc, SUBC_M2MF);
	assert_int_equal(v.cls, NV_CLASS_M2MF);
	assert_int_equal(v.mthd, NV_M2MF_BUF_NOTIFY);
	assert_false(v.pusher);
	assert_int_equal(v.get, notify_at);
	assert_true(v.in_sub);
	assert_int_equal(v.id, id);
	assert_int_equal(v.target, SIM_ORACLE_VRAM);
	assert_true(v.write);
	assert_int_equal(v.addr, DST_AT);
	assert_int_equal(v.len, 257);
	assert_null(v.what);
	sim_oracle_describe(&v, line, sizeof(line));
	assert_non_null(strstr(line, "NV03_M2MF BUF_NOTIFY (subc 0"));
	assert_non_null(strstr(line, "writes 0x101 bytes at VRAM 0x300000"));
	sim_oracle_take(h->s, &v, 1, &total);
	assert_int_equal(total, 1);
}

/* A read the submission declared only for writing is outside too. */
static void m2mf_read_of_a_write_only_buffer_is_recorded(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;
	struct sim_oracle_violation v;

	uint32_t begin = h->put[0];
	m2mf_copy(h, SUBC_M2MF, SRC_AT, DST_AT, 64);
	struct sim_oracle_range r[2] = { vr(SRC_AT, 64, SIM_ORACLE_CLIENT_W),
					 vr(DST_AT, 64, SIM_ORACLE_CLIENT_W) };
	submit(f, begin, r, 2);
	assert_one(f, &v);
	assert_false(v.write);
	assert_int_equal(v.addr, SRC_AT);
	assert_int_equal(v.len, 64);
}

/* ---- 3D ---- */

/* mov r0, i[col0]; end */
static const uint32_t fp_col0[4] = { 0x01003e01, 0x1c9dc801, 0x0001c800, 0x0001c800 };
/* texr r0, i[tex0], texture[0]; end */
static const uint32_t fp_tex[8] = {
	0x17009e00, 0x1c9dc801, 0x0001c800, 0x3fe1c800,
	0x01401e81, 0x1c9dc800, 0x0001c800, 0x0001c800,
};

static void fp_upload(struct host *h, const uint32_t *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		nv_wr32le(vram(h, FP_AT + 4 * i), w[i]);
}

static void vp_upload(struct host *h, unsigned start, const uint32_t (*code)[4], unsigned n)
{
	m1(h, NV_CURIE_VP_UPLOAD_FROM_ID, start);
	for (unsigned i = 0; i < n; i++)
		mn(h, SUBC_3D, NV_CURIE_VP_UPLOAD_INST, 4, code[i]);
}

/* mov o[hpos], a[0]; mov o[col0], a[3]; mov o[tex0], a[8]; end */
static void vp_passthrough(struct host *h)
{
	uint32_t code[3][4];
	uint32_t in = nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0);
	host_vp_insn(code[0], NV40_VP_VEC_MOV, NV40_VP_OUT_POS, 0xf, in, in, 0, 0, 0);
	host_vp_insn(code[1], NV40_VP_VEC_MOV, NV40_VP_OUT_COL0, 0xf, in, in, 3, 0, 0);
	host_vp_insn(code[2], NV40_VP_VEC_MOV, NV40_VP_OUT_TC0, 0xf, in, in, 8, 0, 1);
	vp_upload(h, 10, (const uint32_t (*)[4])code, 3);
	m1(h, NV_CURIE_VP_START_FROM_ID, 10);
	m1(h, NV_CURIE_VP_ATTRIB_EN, 0x109);
	m1(h, NV_CURIE_VP_RESULT_EN, NV40_VP_RESULT_COL0 | NV40_VP_RESULT_TC(0));
}

/* A linear A8R8G8B8 colour buffer at DST_AT with stale Z24S8 zeta state
 * (depth off), window coordinates, the program at FP_AT. */
static void fb_state(struct host *h)
{
	uint32_t rt[5] = { RT_W << 16, RT_H << 16,
			   NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << 5 | NV40_RT_TYPE_LINEAR << 8,
			   RT_PITCH, DST_AT };
	mn(h, SUBC_3D, NV_CURIE_RT_HORIZ, 5, rt);
	m1(h, NV_CURIE_ZETA_OFFSET, ZETA_AT);
	m1(h, NV_CURIE_ZETA_PITCH, RT_PITCH);
	m1(h, NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0));
	uint32_t vp[8] = { 0, 0, 0, 0, fu(1.0f), fu(1.0f), fu(1.0f), fu(1.0f) };
	mn(h, SUBC_3D, NV_CURIE_VIEWPORT_TRANSLATE, 8, vp);
	m1(h, NV_CURIE_VIEWPORT_HORIZ, RT_W << 16);
	m1(h, NV_CURIE_VIEWPORT_VERT, RT_H << 16);
	m1(h, NV_CURIE_SCISSOR_HORIZ, 0x10000000);
	m1(h, NV_CURIE_SCISSOR_VERT, 0x10000000);
	m1(h, NV_CURIE_DEPTH_RANGE_NEAR, fu(0.0f));
	m1(h, NV_CURIE_DEPTH_RANGE_FAR, fu(1.0f));
	m1(h, NV_CURIE_COLOR_MASK, 0x01010101);
	m1(h, NV_CURIE_SHADE_MODEL, NV40_SHADE_SMOOTH);
	m1(h, NV_CURIE_POLYGON_MODE_FRONT, NV40_POLYGON_MODE_FILL);
	m1(h, NV_CURIE_POLYGON_MODE_BACK, NV40_POLYGON_MODE_FILL);
	m1(h, NV_CURIE_ENGINE, 0x11);
	m1(h, NV_CURIE_FP_ACTIVE_PROGRAM, FP_AT | NV40_FP_PROGRAM_DMA0);
	m1(h, NV_CURIE_FP_CONTROL, 0x02000000);
	for (unsigned i = 0; i < 16; i++)
		m1(h, NV_CURIE_VTXFMT + 4 * i, NV40_VTXFMT_V32_FLOAT);
	vp_passthrough(h);
}

/* Immediate vertex: texture coordinate (attr 8), colour (3), position (0). */
static void imm_vertex(struct host *h, float x, float y)
{
	uint32_t tw[4] = { fu(x / RT_W), fu(y / RT_H), 0, fu(1) };
	uint32_t cw[4] = { fu(1), fu(1), fu(1), fu(1) };
	uint32_t pw[4] = { fu(x), fu(y), fu(0.5f), fu(1) };
	mn(h, SUBC_3D, NV_CURIE_VTX_ATTR_4F + 8 * 16, 4, tw);
	mn(h, SUBC_3D, NV_CURIE_VTX_ATTR_4F + 3 * 16, 4, cw);
	mn(h, SUBC_3D, NV_CURIE_VTX_ATTR_4F, 4, pw);
}

static void tri(struct host *h, float x0, float y0)
{
	imm_vertex(h, x0, y0);
	imm_vertex(h, x0 + 20, y0);
	imm_vertex(h, x0, y0 + 20);
}

/* One triangle, a primitive of its own. */
static void draw_tri(struct host *h)
{
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	tri(h, 2, 2);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
}

static struct sim_oracle_range fp_range(void)
{
	return vr(FP_AT, FP_LEN, SIM_ORACLE_CLIENT_R);
}

/* hw/access.h: a colour buffer is read and written (blending or not) */
static struct sim_oracle_range rt_range(void)
{
	return vr(DST_AT, RT_LEN, SIM_ORACLE_CLIENT_R | SIM_ORACLE_CLIENT_W);
}

static void draw_inside_its_buffers_passes_stale_zeta_unchecked(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;

	fp_upload(h, fp_col0, 4);
	uint32_t begin = h->put[0];
	fb_state(h);
	draw_tri(h);
	struct sim_oracle_range r[2] = { fp_range(), rt_range() };
	submit(f, begin, r, 2);
	assert_clean(f);
	assert_int_equal(nv_rd32le(vram(h, DST_AT + 3 * RT_PITCH + 3 * 4)), 0xffffffffu);
}

static void draw_whose_colour_buffer_lies_outside_is_recorded(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;
	struct sim_oracle_violation v;
	char line[256];

	fp_upload(h, fp_col0, 4);
	uint32_t begin = h->put[0];
	fb_state(h);
	draw_tri(h);
	struct sim_oracle_range r[2] = { fp_range(), vr(DST_AT, RT_LEN - 1,
							 SIM_ORACLE_CLIENT_R | SIM_ORACLE_CLIENT_W) };
	uint32_t id = submit(f, begin, r, 2);
	assert_one(f, &v);
	assert_int_equal(v.id, id);
	assert_int_equal(v.subc, SUBC_3D);
	assert_int_equal(v.cls, NV_CLASS_CURIE_NV40);
	/* the third vertex's position launches the triangle */
	assert_int_equal(v.mthd, NV_CURIE_VTX_ATTR_4F + 12);
	assert_non_null(v.what);
	assert_string_equal(v.what, "colour buffer 0");
	assert_int_equal(v.addr, DST_AT);
	assert_int_equal(v.len, RT_LEN);
	sim_oracle_describe(&v, line, sizeof(line));
	assert_non_null(strstr(line, "NV40_3D VTX_ATTR_4F"));
	assert_non_null(strstr(line, "colour buffer 0 reads 0x4000 bytes at VRAM 0x300000"));
}

static void tex_state(struct host *h)
{
	uint32_t fmt = NV40_TEX_FMT_A8R8G8B8 << NV40_TEX_FORMAT_FORMAT_SHIFT |
		       1 << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT | NV40_TEX_FORMAT_NO_BORDER |
		       NV40_TEX_FORMAT_RECT | 0x8000 | 2 << NV40_TEX_FORMAT_DIMS_SHIFT |
		       NV40_TEX_FORMAT_DMA0 | NV40_TEX_FORMAT_LINEAR;
	uint32_t tex[8] = { SRC_AT, fmt, 0x00030303, NV40_TEX_ENABLE_ENABLE, 0x0000aae4,
			    1u << 16 | 1u << 24 | 0x2000, 16u << 16 | 16, 0 };
	mn(h, SUBC_3D, NV_CURIE_TEX_OFFSET, 8, tex);
	m1(h, NV_CURIE_TEX_SIZE1, 0x00100000 | 64);
}

static void draw_whose_texture_lies_outside_is_recorded(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;
	struct sim_oracle_violation v;

	fp_upload(h, fp_tex, 8);
	uint32_t begin = h->put[0];
	fb_state(h);
	tex_state(h);
	draw_tri(h);
	/* the texture's buffer ends 64 bytes short of its 16x16 extent */
	struct sim_oracle_range r[3] = { fp_range(), rt_range(),
					 vr(SRC_AT, 15 * 64, SIM_ORACLE_CLIENT_R) };
	submit(f, begin, r, 3);
	assert_one(f, &v);
	assert_non_null(v.what);
	assert_string_equal(v.what, "texture 0");
	assert_false(v.write);
	assert_int_equal(v.addr, SRC_AT);
	assert_int_equal(v.len, 16 * 64);

	/* the same draw with the whole texture admitted passes */
	begin = h->put[0];
	draw_tri(h);
	r[2] = vr(SRC_AT, 16 * 64, SIM_ORACLE_CLIENT_R);
	submit(f, begin, r, 3);
	assert_clean(f);
}

/* The draw's resolved state outlives the submission that set it up: a
 * primitive continued by the next submission, whose buffers no longer
 * include the colour buffer, is still checked. */
static void state_reused_by_a_later_submission_is_checked_again(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;
	struct sim_oracle_violation v;

	fp_upload(h, fp_col0, 4);
	uint32_t begin = h->put[0];
	fb_state(h);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	tri(h, 2, 2);
	struct sim_oracle_range r[2] = { fp_range(), rt_range() };
	submit(f, begin, r, 2);
	assert_clean(f);

	begin = h->put[0];
	tri(h, 30, 30);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	uint32_t id = submit(f, begin, r, 1);
	assert_one(f, &v);
	assert_int_equal(v.id, id);
	assert_non_null(v.what);
	assert_string_equal(v.what, "colour buffer 0");
	/* the second triangle was drawn all the same: the oracle only looks */
	assert_int_equal(nv_rd32le(vram(h, DST_AT + 31 * RT_PITCH + 31 * 4)), 0xffffffffu);
}

/* Vertex buffers are fetched through a window mapped 256 vertices ahead:
 * the window reaching past the buffer is no violation, a later
 * submission's fetch through the same window outside its buffers is. */
static void vertex_fetch_window_is_checked_per_read(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;
	struct sim_oracle_violation v;
	const float pos[6][2] = { { 2, 2 }, { 22, 2 }, { 2, 22 }, { 30, 30 }, { 50, 30 }, { 30, 50 } };

	for (unsigned i = 0; i < 6; i++) {
		float w[8] = { pos[i][0], pos[i][1], 0.5f, 1, 1, 1, 1, 1 };
		for (unsigned k = 0; k < 8; k++)
			nv_wr32le(vram(h, VB_AT + 32 * i + 4 * k), fu(w[k]));
	}
	fp_upload(h, fp_col0, 4);
	uint32_t begin = h->put[0];
	fb_state(h);
	m1(h, NV_CURIE_VP_ATTRIB_EN, 0x9);
	m1(h, NV_CURIE_VTXFMT, 32 << 8 | 4 << 4 | NV40_VTXFMT_V32_FLOAT);
	m1(h, NV_CURIE_VTXFMT + 12, 32 << 8 | 4 << 4 | NV40_VTXFMT_V32_FLOAT);
	m1(h, NV_CURIE_VTXBUF, VB_AT);
	m1(h, NV_CURIE_VTXBUF + 12, VB_AT + 16);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_TRIANGLES);
	m1(h, NV_CURIE_VB_VERTEX_BATCH, 2u << 24 | 0);
	struct sim_oracle_range r[3] = { fp_range(), rt_range(),
					 vr(VB_AT, 3 * 32, SIM_ORACLE_CLIENT_R) };
	submit(f, begin, r, 3);
	assert_clean(f);

	begin = h->put[0];
	m1(h, NV_CURIE_VB_VERTEX_BATCH, 2u << 24 | 3);
	m1(h, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
	uint32_t id = submit(f, begin, r, 3);
	assert_one(f, &v);
	assert_int_equal(v.id, id);
	assert_int_equal(v.mthd, NV_CURIE_VB_VERTEX_BATCH);
	assert_non_null(v.what);
	assert_string_equal(v.what, "vertex attribute 0");
	assert_false(v.write);
	assert_int_equal(v.addr, VB_AT + 3 * 32);
	assert_int_equal(v.len, 16);
}

/* CLEAR_BUFFERS writes the colour buffers only when asked for colour: the
 * stale zeta is not its business then; a depth clear's is. */
static void clear_checks_the_buffers_it_writes(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;
	struct sim_oracle_violation v;

	uint32_t begin = h->put[0];
	fb_state(h);
	m1(h, NV_CURIE_CLEAR_COLOR_VALUE, 0x11223344);
	m1(h, NV_CURIE_CLEAR_BUFFERS, 0xf0);
	struct sim_oracle_range r = rt_range();
	submit(f, begin, &r, 1);
	assert_clean(f);
	assert_int_equal(nv_rd32le(vram(h, DST_AT)), 0x11223344);

	begin = h->put[0];
	m1(h, NV_CURIE_CLEAR_BUFFERS, 0xf0 | NV40_CLEAR_DEPTH);
	submit(f, begin, &r, 1);
	assert_one(f, &v);
	assert_int_equal(v.mthd, NV_CURIE_CLEAR_BUFFERS);
	assert_true(v.write);
	assert_int_equal(v.addr, ZETA_AT);
}

/* ---- the host's subchannel, the pusher, words of no submission ---- */

static void host_subchannel_uses_its_area_not_client_memory(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;
	struct sim_oracle_violation v;

	/* the host's copy of a client's buffer into its area: fine, even
	 * though the client listed that buffer for writing only */
	uint32_t begin = h->put[0];
	host_mthd(h, 0, SUBC_HOST, NV_FIFO_OBJECT, H_M2MF);
	m2mf_copy(h, SUBC_HOST, SRC_AT, AREA_AT, 256);
	host_mthd(h, 0, SUBC_HOST, NV_FIFO_OBJECT, HOST_SW_HANDLE);
	struct sim_oracle_range r = vr(SRC_AT, 256, SIM_ORACLE_CLIENT_W | SIM_ORACLE_HOST_R);
	submit(f, begin, &r, 1);
	assert_clean(f);

	/* the host's methods writing client memory outside its area */
	begin = h->put[0];
	host_mthd(h, 0, SUBC_HOST, NV_FIFO_OBJECT, H_M2MF);
	m2mf_copy(h, SUBC_HOST, AREA_AT, DST_AT, 256);
	host_mthd(h, 0, SUBC_HOST, NV_FIFO_OBJECT, HOST_SW_HANDLE);
	uint32_t id = submit(f, begin, &r, 1);
	assert_one(f, &v);
	assert_int_equal(v.id, id);
	assert_int_equal(v.subc, SUBC_HOST);
	assert_int_equal(v.cls, NV_CLASS_M2MF);
	assert_true(v.write);
	assert_int_equal(v.addr, DST_AT);

	/* a client's methods may not write the host's area */
	begin = h->put[0];
	m2mf_copy(h, SUBC_M2MF, SRC_AT, AREA_AT, 16);
	struct sim_oracle_range rs = vr(SRC_AT, 256, SIM_ORACLE_CLIENT_R);
	submit(f, begin, &rs, 1);
	assert_one(f, &v);
	assert_int_equal(v.subc, SUBC_M2MF);
	assert_int_equal(v.addr, AREA_AT);
}

static void pusher_reading_outside_the_ring_is_recorded(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;
	struct sim_oracle_violation v;
	char line[256];

	host_chan_new(h, 2, HOST_PB_DMA);     /* no ring area admitted for chid 2 */
	uint32_t begin = h->put[2];
	host_mthd(h, 2, 0, NV_FIFO_REF_CNT, 7);
	submit_on(f, 2, begin, NULL, 0);
	assert_one(f, &v);
	assert_int_equal(v.chid, 2);
	assert_true(v.pusher);
	assert_int_equal(v.target, SIM_ORACLE_BUS);
	assert_int_equal(v.addr, HOST_RING(2));
	assert_false(v.write);
	sim_oracle_describe(&v, line, sizeof(line));
	assert_non_null(strstr(line, "the pusher"));
	sim_oracle_forget(h->s, 2);
}

static void words_of_no_submission_are_recorded_once(void **state)
{
	struct fix *f = *state;
	struct host *h = &f->h;
	struct sim_oracle_violation v;
	uint64_t total;

	uint32_t begin = h->put[0];
	m2mf_copy(h, SUBC_M2MF, SRC_AT, DST_AT, 16);
	struct sim_oracle_range r[2] = { vr(SRC_AT, 16, SIM_ORACLE_CLIENT_R),
					 vr(DST_AT, 16, SIM_ORACLE_CLIENT_W) };
	uint32_t id = submit(f, begin, r, 2);
	assert_clean(f);
	sim_oracle_retire(h->s, 0, id);

	/* two copies after it, admitted by nobody: one record */
	m2mf_copy(h, SUBC_M2MF, SRC_AT, DST_AT, 16);
	m2mf_copy(h, SUBC_M2MF, SRC_AT, DST_AT, 16);
	host_kick(h, 0);
	sim_run(h->s);
	assert_int_equal(sim_oracle_take(h->s, &v, 1, &total), 1);
	assert_false(v.in_sub);
	assert_false(v.write);
	assert_int_equal(total, 1);
	assert_int_equal(sim_oracle_take(h->s, &v, 1, &total), 0);
}

static void oracle_off_records_nothing(void **state)
{
	struct host h;
	struct sim_oracle_violation v;
	uint64_t total = 99;
	struct sim_oracle_range r = vr(0, 1, SIM_ORACLE_CLIENT_R);

	(void)state;
	host_new(&h);
	host_chan_new(&h, 0, HOST_PB_DMA);
	host_grobj(&h, OBJ_M2MF, NV_CLASS_M2MF);
	host_ramht_add(&h, H_VRAM, 0, NV_ENGINE_SW, HOST_VRAM_DMA);
	host_ramht_add(&h, H_M2MF, 0, NV_ENGINE_GR, OBJ_M2MF);
	assert_int_equal(sim_oracle_area(h.s, 0, &r), 0);
	assert_int_equal(sim_oracle_admit(h.s, 0, 1, 0, 4, &r, 1), 0);
	host_mthd(&h, 0, SUBC_M2MF, NV_FIFO_OBJECT, H_M2MF);
	m2mf_copy(&h, SUBC_M2MF, SRC_AT, DST_AT, 16);
	host_kick(&h, 0);
	sim_run(h.s);
	assert_int_equal(sim_oracle_take(h.s, &v, 1, &total), 0);
	assert_int_equal(total, 0);
	host_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(m2mf_copy_inside_its_buffers_passes, setup, teardown),
		cmocka_unit_test_setup_teardown(m2mf_write_one_byte_past_its_buffer_is_recorded, setup,
						teardown),
		cmocka_unit_test_setup_teardown(m2mf_read_of_a_write_only_buffer_is_recorded, setup,
						teardown),
		cmocka_unit_test_setup_teardown(draw_inside_its_buffers_passes_stale_zeta_unchecked,
						setup, teardown),
		cmocka_unit_test_setup_teardown(draw_whose_colour_buffer_lies_outside_is_recorded,
						setup, teardown),
		cmocka_unit_test_setup_teardown(draw_whose_texture_lies_outside_is_recorded, setup,
						teardown),
		cmocka_unit_test_setup_teardown(state_reused_by_a_later_submission_is_checked_again,
						setup, teardown),
		cmocka_unit_test_setup_teardown(vertex_fetch_window_is_checked_per_read, setup,
						teardown),
		cmocka_unit_test_setup_teardown(clear_checks_the_buffers_it_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(host_subchannel_uses_its_area_not_client_memory, setup,
						teardown),
		cmocka_unit_test_setup_teardown(pusher_reading_outside_the_ring_is_recorded, setup,
						teardown),
		cmocka_unit_test_setup_teardown(words_of_no_submission_are_recorded_once, setup,
						teardown),
		cmocka_unit_test(oracle_off_records_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
