/* Triangle rasterisation: fixed-point edge functions (8 sub-pixel bits),
 * GL pixel centres at (x + 0.5, y + 0.5), the top-left fill convention (an
 * edge through a centre owns it when it is a left edge or a horizontal top
 * edge, y growing downwards), pixels visited as 2x2 quads aligned to even
 * coordinates so the fragment program's derivatives see whole quads.
 * Varyings are interpolated perspective-correctly (attribute * q planes over
 * the q = 1/w plane), depth linearly in window space. */
#include "pipe.h"
#include "jit.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "hw/enums-3d-pipe.h"

#define RASTER_COORD_MAX 1048576.0f     /* |window coordinate| beyond: dropped */

/* Four components at once (GCC's generic vectors: every lane is the scalar
 * operation, on any target). */
typedef float raster_v4 __attribute__((vector_size(16)));
typedef double raster_d4 __attribute__((vector_size(32)));
typedef double raster_d2 __attribute__((vector_size(16)));

static void raster_plane(struct draw_plane *p, float fa, float fb, float fc, float ex1, float ey1,
			 float ex2, float ey2, float inv)
{
	float d1 = fb - fa, d2 = fc - fa;

	p->a0 = fa;
	p->dx = (d1 * ey2 - d2 * ey1) * inv;
	p->dy = (d2 * ex1 - d1 * ex2) * inv;
}

static void raster_sample(void *ctx, const struct sim_tex_req *rq, float out[4][4])
{
	const struct draw_setup *d = ctx;     /* read-only: threads share it */
	unsigned u = rq->unit;

	if (u >= NV40_TEX_UNITS) {
		memset(out, 0, sizeof(float) * 16);
		return;
	}
	sim_tex_view_sample(&d->texv[u], rq, out);   /* zeros when the unit has no memory */
}

/* SIM_JIT_VERIFY: the quad the compiled code shaded through the
 * interpreter too, the results compared. */
static void raster_verify(const struct draw_setup *d, struct draw_lane *l,
			  const struct sim_fp_quad *q)
{
	struct sim_fp_quad v = *q;

	sim_fp_run_cached(l->fpc, d->fp, d->fp_len, d->fp_control, &v, raster_sample, (void *)d);
	sim_jit_verify(d->s->jit, q, &v);
}

/* The pixels [lo[r], hi[r]] of row r of the pair at E0 (edge values at
 * pixel qx0 of the top row) inside all three edges, clipped to [x0, x1)
 * (lo > hi: none).  Exact for every pixel from qx0 on: an edge's value
 * at pixel qx0 + k is e + A k, and the integer divisions give the k
 * where that is >= 0. */
static void raster_rows(const int64_t E0[3], const int64_t A[3], const int64_t B[3], int qx0,
			int x0, int x1, int64_t lo[2], int64_t hi[2])
{
	for (unsigned r = 0; r < 2; r++) {
		int64_t rl = x0, rh = x1 - 1;
		for (unsigned i = 0; i < 3 && rl <= rh; i++) {
			int64_t e = E0[i] + (r ? B[i] : 0);      /* at x = qx0 */
			if (A[i] > 0) {                          /* e + A k >= 0: k >= ceil(-e / A) */
				int64_t k = e >= 0 ? 0 : (-e + A[i] - 1) / A[i];
				if (qx0 + k > rl)
					rl = qx0 + k;
			} else if (A[i] < 0) {                   /* k <= floor(e / -A) */
				if (e < 0)
					rh = rl - 1;
				else if (qx0 + e / -A[i] < rh)
					rh = qx0 + e / -A[i];
			} else if (e < 0) {
				rh = rl - 1;
			}
		}
		lo[r] = rl;
		hi[r] = rh;
	}
}

static int raster_stipple(const struct draw_setup *d, int x, int y)
{
	/* row y & 31, leftmost pixel in the word's most significant bit */
	return (d->stipple[y & 31] >> (31 - (x & 31))) & 1;
}

int sim_raster_setup(const struct draw_setup *d, const struct draw_svtx *a,
		     const struct draw_svtx *b, const struct draw_svtx *c,
		     const struct draw_raster *r, struct draw_tri_job *j)
{
	const struct draw_svtx *v[3] = { a, b, c };
	int64_t X[3], Y[3];

	for (unsigned i = 0; i < 3; i++) {
		/* also rejects NaN */
		if (!(fabsf(v[i]->x) < RASTER_COORD_MAX && fabsf(v[i]->y) < RASTER_COORD_MAX))
			return 0;
		X[i] = (int64_t)lrintf(v[i]->x * DRAW_SUB_ONE);
		Y[i] = (int64_t)lrintf(v[i]->y * DRAW_SUB_ONE);
	}
	int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
	if (!area)
		return 0;
	if (area < 0) {
		const struct draw_svtx *t = v[1];
		int64_t tx = X[1], ty = Y[1];
		v[1] = v[2]; X[1] = X[2]; Y[1] = Y[2];
		v[2] = t; X[2] = tx; Y[2] = ty;
	}

	/* pixel bounding box, clipped to the rectangle fragments may land in */
	int64_t mnx = X[0], mxx = X[0], mny = Y[0], mxy = Y[0];
	for (unsigned i = 1; i < 3; i++) {
		mnx = X[i] < mnx ? X[i] : mnx; mxx = X[i] > mxx ? X[i] : mxx;
		mny = Y[i] < mny ? Y[i] : mny; mxy = Y[i] > mxy ? Y[i] : mxy;
	}
	int x0 = (int)(mnx >> DRAW_SUB_BITS), x1 = (int)(mxx >> DRAW_SUB_BITS) + 1;
	int y0 = (int)(mny >> DRAW_SUB_BITS), y1 = (int)(mxy >> DRAW_SUB_BITS) + 1;
	x0 = x0 < r->x0 ? r->x0 : x0; x1 = x1 > r->x1 ? r->x1 : x1;
	y0 = y0 < r->y0 ? r->y0 : y0; y1 = y1 > r->y1 ? r->y1 : y1;
	if (x0 >= x1 || y0 >= y1)
		return 0;
	int qx0 = x0 & ~1, qy0 = y0 & ~1;

	/* edges i -> i+1: E = dx (py - Yi) - dy (px - Xi), inside >= 0 after the
	 * top-left bias; A, B: its steps per pixel */
	for (unsigned i = 0; i < 3; i++) {
		unsigned k = (i + 1) % 3;
		int64_t dx = X[k] - X[i], dy = Y[k] - Y[i];
		int topleft = dy < 0 || (dy == 0 && dx > 0);
		j->E0[i] = -dy * ((int64_t)qx0 * DRAW_SUB_ONE + DRAW_SUB_ONE / 2 - X[i]) +
			   dx * ((int64_t)qy0 * DRAW_SUB_ONE + DRAW_SUB_ONE / 2 - Y[i]) - (topleft ? 0 : 1);
		j->A[i] = -dy * DRAW_SUB_ONE;       /* one pixel right */
		j->B[i] = dx * DRAW_SUB_ONE;        /* one pixel down */
	}

	/* interpolation planes, pixel units, relative to vertex 0: through the
	 * unsnapped positions, so coplanar primitives get one depth plane
	 * whatever their vertices (snapping moves z by slope x 1/512 pixel, far
	 * more than the units of a polygon offset) */
	float fx0 = v[0]->x, fy0 = v[0]->y;
	float ex1 = v[1]->x - fx0, ey1 = v[1]->y - fy0;
	float ex2 = v[2]->x - fx0, ey2 = v[2]->y - fy0;
	float inv = 1.0f / (ex1 * ey2 - ex2 * ey1);
	if (!isfinite(inv))             /* snapped to an area, but none unsnapped */
		return 0;
	/* depth in double: fp32 steps near 1.0 are as coarse as a Z24 unit,
	 * and a plane evaluated in them loses the unit a polygon offset adds */
	{
		double dex1 = ex1, dey1 = ey1, dex2 = ex2, dey2 = ey2;
		double d1 = (double)v[1]->z - v[0]->z, d2 = (double)v[2]->z - v[0]->z;
		double dinv = 1.0 / (dex1 * dey2 - dex2 * dey1);
		j->zdx = (d1 * dey2 - d2 * dey1) * dinv;
		j->zdy = (d2 * dex1 - d1 * dex2) * dinv;
	}
	raster_plane(&j->pq, v[0]->q, v[1]->q, v[2]->q, ex1, ey1, ex2, ey2, inv);
	for (unsigned k = 0; k < d->nvary; k++)
		for (unsigned cc = 0; cc < 4; cc++) {
			if (d->vary[k].flat) {
				j->pv[k][cc].a0 = v[0]->v[k][cc];
				continue;
			}
			raster_plane(&j->pv[k][cc], v[0]->v[k][cc] * v[0]->q, v[1]->v[k][cc] * v[1]->q,
				     v[2]->v[k][cc] * v[2]->q, ex1, ey1, ex2, ey2, inv);
		}
	j->x0 = x0; j->x1 = x1; j->y0 = y0; j->y1 = y1;
	j->qx0 = qx0; j->qy0 = qy0;
	j->front = r->front;
	j->stipple = r->fill && d->stipple_enable;
	j->zoff = r->zoff;
	j->fx0 = fx0; j->fy0 = fy0; j->z0 = v[0]->z;
	return 1;
}

/* j's planes of the inputs in reads (a bit per input) into ip: a flat
 * one's a0 (all its plane has) is its value, kept in dx; the others keep
 * the quad's.  Then 1/w's plane and WPOS's conventions. */
static void raster_interp(const struct draw_setup *d, const struct draw_tri_job *j, uint32_t reads,
			  struct sim_jit_interp *ip)
{
	uint32_t cc = d->coord_conv;

	ip->n = 0;
	for (unsigned i = 0; i < NV40_FP_INPUTS; i++)
		ip->in[i].mode = SIM_JIT_IN_QUAD;
	for (unsigned k = 0; k < d->nvary; k++) {
		unsigned fpi = d->vary[k].fpi, flat = d->vary[k].flat;
		if (!(reads >> fpi & 1) || fpi >= NV40_FP_INPUTS)
			continue;
		const struct draw_plane *pk = &j->pv[k][0];
		struct sim_jit_vary *v = &ip->in[fpi];
		v->mode = flat ? SIM_JIT_IN_FLAT : SIM_JIT_IN_SMOOTH;
		for (unsigned c = 0; c < 4; c++) {
			v->a0[c] = pk[c].a0;
			v->dx[c] = flat ? pk[c].a0 : pk[c].dx;
			v->dy[c] = flat ? 0.0f : pk[c].dy;
		}
		ip->slot[ip->n++] = (uint8_t)fpi;
	}
	ip->fx0 = j->fx0;
	ip->fy0 = j->fy0;
	ip->pq[0] = j->pq.a0;
	ip->pq[1] = j->pq.dx;
	ip->pq[2] = j->pq.dy;
	/* all vertices at one w: no division per pixel */
	ip->affine = j->pq.dx == 0.0f && j->pq.dy == 0.0f;
	ip->winv = 1.0f / j->pq.a0;
	ip->wpos = reads >> NV40_FPI_WPOS & 1;
	ip->wy_h = (float)NV40_COORD_CONV_HEIGHT(cc);
	ip->wy_inv = !!(cc & NV40_COORD_CONV_ORIGIN_INVERTED);
	ip->wc = cc & NV40_COORD_CONV_CENTER_INTEGER ? 0.0f : 0.5f;
}

void sim_raster_inputs(const struct sim_jit_interp *ip, const float z[4], int varyings,
		       struct sim_fp_quad *q)
{
	for (unsigned p = 0; p < 4; p++) {
		float px = (float)(ip->qx + (int)(p & 1)) + 0.5f, py = (float)(ip->qy + (int)(p >> 1)) + 0.5f;
		float dx = px - ip->fx0, dy = py - ip->fy0;
		float qq = ip->pq[0] + ip->pq[1] * dx + ip->pq[2] * dy;
		float w = ip->affine ? ip->winv : 1.0f / qq;
		if (ip->wpos) {
			float *wp = q->in[p][NV40_FPI_WPOS];
			wp[0] = px - 0.5f + ip->wc;
			/* inverted: rows count from the bottom, then the centre */
			wp[1] = ip->wy_inv ? ip->wy_h - (py + 0.5f - ip->wc) : py - 0.5f + ip->wc;
			wp[2] = z[p];
			wp[3] = qq;
		}
		for (unsigned i = 0; varyings && i < ip->n; i++) {
			/* per component (dx * x + a0 + dy * y) w, the four side by
			 * side; the product first in the add, as in scalar code,
			 * so that two NaNs give the same one */
			const struct sim_jit_vary *v = &ip->in[ip->slot[i]];
			raster_v4 vdx, va0, vdy, o;
			memcpy(&vdx, v->dx, sizeof(vdx));
			memcpy(&va0, v->a0, sizeof(va0));
			memcpy(&vdy, v->dy, sizeof(vdy));
			o = v->mode == SIM_JIT_IN_FLAT ? vdx : (vdx * dx + va0 + vdy * dy) * w;
			memcpy(q->in[p][ip->slot[i]], &o, sizeof(o));
		}
	}
}

void sim_raster_run(const struct draw_setup *d, struct draw_lane *l, const struct draw_tri_job *j,
		    int ylo, int yhi)
{
	int x0 = j->x0, x1 = j->x1, qx0 = j->qx0, front = j->front;
	int y0 = j->y0 > ylo ? j->y0 : ylo, y1 = j->y1 < yhi ? j->y1 : yhi;
	float fx0 = j->fx0, fy0 = j->fy0, zoff = j->zoff;
	double zdx = j->zdx, zdy = j->zdy;
	const int64_t *A = j->A, *B = j->B;
	int64_t E0[3];

	if (l->fail || y0 >= y1 || sim_gr_abandoned(l->sim))
		return;
	/* the edges at the first row pair of [y0, y1): exactly what stepping
	 * from qy0 gives */
	int qy0 = y0 & ~1;
	for (unsigned i = 0; i < 3; i++)
		E0[i] = j->E0[i] + B[i] * (qy0 - j->qy0);

	/* the program as decoded for earlier primitives, unless it changed */
	int early_z = sim_fp_cache_check(l->fpc, d->fp, d->fp_len) == 1 &&
		      sim_rop_early_z_ok(d, front);
	/* its compiled code, once ready: the interpreter's results, faster */
	sim_jit_fp_fn *jfn = sim_jit_fp(d->s->jit, l->fpc, d->fp_control);
	int verify = jfn && sim_jit_verifying(d->s->jit);
	/* the ROP's, for the draw's state */
	const struct sim_jit_rop *rj = sim_jit_rop(d->s->jit, d->rop_jit);
	int rverify = rj && sim_jit_verifying(d->s->jit);
	/* a program that cannot kill: the depths written before it (the
	 * ROP's test after it would pass the same pixels); verifying checks
	 * the unsplit pair against rop.c instead */
	int zw = early_z && rj && rj->early_zw && !l->fpc->kills;
	sim_jit_ez_fn *rez = rj ? (zw ? rj->early_zw : rj->early_z) : NULL;
	sim_jit_rop_fn *rquad = rj ? (zw ? rj->quad_c : rj->quad) : NULL;
	/* a fragment's depth has readers: the zeta buffer's tests, WPOS */
	int need_z = d->zbits || (l->fpc->inputs >> NV40_FPI_WPOS & 1);
	/* only the inputs it may read are interpolated */
	struct sim_jit_interp ip;
	raster_interp(d, j, l->fpc->inputs, &ip);
	struct sim_fp_quad *q = l->q;
	for (unsigned p = 0; p < 4; p++) {
		q->in[p][NV40_FPI_FACING][0] = front ? 1.0f : -1.0f;
		q->in[p][NV40_FPI_FACING][1] = 0.0f;
		q->in[p][NV40_FPI_FACING][2] = 0.0f;
		q->in[p][NV40_FPI_FACING][3] = 1.0f;
	}

	for (int qy = qy0; qy < y1; qy += 2, E0[0] += 2 * B[0], E0[1] += 2 * B[1], E0[2] += 2 * B[2]) {
		/* each row's pixels inside the triangle; none in a row outside
		 * [y0, y1) */
		int64_t lo[2], hi[2];
		raster_rows(E0, A, B, qx0, x0, x1, lo, hi);
		if (qy < y0)
			hi[0] = lo[0] - 1;
		if (qy + 1 >= y1)
			hi[1] = lo[1] - 1;
		int64_t xl = INT64_MAX, xh = INT64_MIN;
		for (unsigned r = 0; r < 2; r++)
			if (lo[r] <= hi[r]) {
				xl = lo[r] < xl ? lo[r] : xl;
				xh = hi[r] > xh ? hi[r] : xh;
			}
		if (xl > xh)
			continue;
		/* a pixel's depth is (float)(((double)z0 + zdx dx) + zdy dy + zoff),
		 * dx and dy floats: the row pair's zdy dy once */
		double zy0 = zdy * (double)((float)qy + 0.5f - fy0);
		double zy1 = zdy * (double)((float)(qy + 1) + 0.5f - fy0);
		for (int qx = (int)xl & ~1; qx <= xh; qx += 2) {
			if (sim_gr_preempted(l->sim, l->worker))
				return;          /* abandoned: PGRAPH was reset */
			unsigned m = (qx >= lo[0] && qx <= hi[0] ? 1u : 0) |
				     (qx + 1 >= lo[0] && qx + 1 <= hi[0] ? 2u : 0) |
				     (qx >= lo[1] && qx <= hi[1] ? 4u : 0) |
				     (qx + 1 >= lo[1] && qx + 1 <= hi[1] ? 8u : 0);
			if (!m)
				continue;
			if (j->stipple)
				for (unsigned p = 0; p < 4; p++)
					if ((m >> p & 1) && !raster_stipple(d, qx + (p & 1), qy + (p >> 1)))
						m &= ~(1u << p);
			if (!m)
				continue;

			float z[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
			if (need_z) {
				/* the columns' z0 + zdx dx, then the four at once */
				raster_d2 dx = { (double)((float)qx + 0.5f - fx0),
						 (double)((float)(qx + 1) + 0.5f - fx0) };
				raster_d2 zx = (double)j->z0 + zdx * dx;
				raster_d4 zp = { zx[0] + zy0, zx[1] + zy0, zx[0] + zy1, zx[1] + zy1 };
				raster_v4 zv = __builtin_convertvector(zp + (double)zoff, raster_v4);
				memcpy(z, &zv, sizeof(z));
			}
			if (early_z && !(m = !rj ? sim_rop_early_z(d, qx, qy, m, z) :
				  rverify ? sim_rop_verify_early_z(d, d->s->jit, rj, qx, qy, m, z) :
				  rez(d, qx, qy, m, z)))
				continue;
			ip.qx = qx;
			ip.qy = qy;
			/* the compiled code interpolates what it reads itself */
			if (!jfn || verify || ip.wpos)
				sim_raster_inputs(&ip, z, !jfn || verify, q);
			q->live = m;
			q->kill = 0;
			q->depth_written = 0;
			if (jfn) {
				jfn(q, l->fpc->dec, raster_sample, (void *)d, &ip);
				if (verify)
					raster_verify(d, l, q);
			} else if (sim_fp_run_cached(l->fpc, d->fp, d->fp_len, d->fp_control, q, raster_sample,
						   (void *)d) < 0) {
				l->fail = 1;
				return;
			}
			m &= ~q->kill;
			if (!m)
				continue;
			if (!rj)
				sim_rop_quad(d, l->samples, qx, qy, m, z, front, q);
			else if (rverify)
				sim_rop_verify(d, d->s->jit, rj, l->samples, qx, qy, m, z, front, q);
			else
				rquad(d, l->samples, qx, qy, m, z, q);
		}
	}
}

void sim_raster_tri(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
		    const struct draw_svtx *a, const struct draw_svtx *b,
		    const struct draw_svtx *c, const struct draw_raster *r)
{
	struct draw_tri_job j;

	if (d->broken || !sim_raster_setup(d, a, b, c, r, &j))
		return;
	if (sim_bands_push(s, g, d, &j))
		return;
	struct draw_lane l = { &d->quad, &d->fpc, &g->c3d.query_samples, 0, d, s, 1 };
	sim_raster_run(d, &l, &j, INT_MIN, INT_MAX);
	if (l.fail) {
		sim_gr_trap(s, NV_PGRAPH_NSOURCE_DATA_ERROR);
		d->broken = 1;
	}
}
