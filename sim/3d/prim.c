/* From clip space to the rasteriser: clipping (w > 0, near/far unless
 * DEPTH_CONTROL clamps, a guard band for x/y so the fixed-point rasteriser
 * never overflows — it clips to the pixel rectangle exactly — and the user
 * clip distances the vertex program leaves in FOGC.yzw / PSZ.yzw),
 * perspective divide, viewport, facing and culling, polygon mode and
 * offset; lines and points become quads of their width / size. */
#include "pipe.h"

#include <math.h>
#include <string.h>

#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"

#define CLIP_W_EPS   1e-7f
#define CLIP_PLANES  13
#define CLIP_MAXV    (3 + CLIP_PLANES)
/* the point sizes the hardware draws, whatever POINT_SIZE or the vertex
 * program's PSZ ask (Mesa's nv30 reports these as its range) */
#define PRIM_POINT_MIN 1.0f
#define PRIM_POINT_MAX 64.0f
#define PRIM_LINE_MAX  1048576.0f   /* longer (window units): not drawn */

static float prim_dist(const struct draw_setup *d, unsigned p, const struct draw_vtx *v)
{
	const float *P = v->o[NV40_VPO_POS];

	switch (p) {
	case 0: return P[3] - CLIP_W_EPS;
	case 1: return P[2] + P[3];
	case 2: return P[3] - P[2];
	case 3: return d->gb_x * P[3] - P[0];
	case 4: return d->gb_x * P[3] + P[0];
	case 5: return d->gb_y * P[3] - P[1];
	case 6: return d->gb_y * P[3] + P[1];
	default: {
		unsigned i = p - 7;
		return i < 3 ? v->o[NV40_VPO_FOGC][1 + i] : v->o[NV40_VPO_PSZ][i - 2];
	}
	}
}

static int prim_plane_on(const struct draw_setup *d, unsigned p)
{
	if (p == 1 || p == 2)
		return !d->depth_clamp;
	if (p >= 7)
		return d->clip_planes >> (p - 7) & 1;
	return 1;
}

/* Bit p set: the vertex is outside plane p (NaN counts as outside). */
static unsigned prim_outcode(const struct draw_setup *d, const struct draw_vtx *v)
{
	unsigned m = 0;

	for (unsigned p = 0; p < CLIP_PLANES; p++)
		if (prim_plane_on(d, p) && !(prim_dist(d, p, v) >= 0.0f))
			m |= 1u << p;
	return m;
}

static void prim_lerp(struct draw_vtx *o, const struct draw_vtx *a, const struct draw_vtx *b,
		      float t)
{
	for (unsigned i = 0; i < NV40_VP_OUTPUTS; i++)
		for (unsigned c = 0; c < 4; c++)
			o->o[i][c] = a->o[i][c] + t * (b->o[i][c] - a->o[i][c]);
}

/* Window position of v: x, y, z, q. */
static void prim_window(const struct draw_setup *d, const struct draw_vtx *v,
			struct draw_svtx *o)
{
	const float *P = v->o[NV40_VPO_POS];
	float q, x, y, z;

	if (d->window_space) {
		q = P[3] > 0.0f && P[3] < INFINITY ? P[3] : 1.0f;
		x = P[0]; y = P[1]; z = P[2];
	} else {
		q = 1.0f / P[3];
		x = P[0] * q; y = P[1] * q; z = P[2] * q;
	}
	o->x = x * d->vp_scale[0] + d->vp_trans[0];
	o->y = y * d->vp_scale[1] + d->vp_trans[1];
	o->z = z * d->vp_scale[2] + d->vp_trans[2];
	o->q = q;
	if (d->depth_clamp) {
		float lo = d->depth_near < d->depth_far ? d->depth_near : d->depth_far;
		float hi = d->depth_near < d->depth_far ? d->depth_far : d->depth_near;
		o->z = o->z < lo ? lo : (o->z > hi ? hi : o->z);
	}
}

static void prim_varyings(const struct draw_setup *d, const struct draw_vtx *v, int back,
			  struct draw_svtx *o)
{
	for (unsigned k = 0; k < d->nvary; k++)
		memcpy(o->v[k], v->o[back ? d->vary[k].vpo_back : d->vary[k].vpo], sizeof(o->v[k]));
}

/* Flat shading: the colours of every vertex are the provoking vertex's. */
static void prim_flat(const struct draw_setup *d, struct draw_vtx *v, const struct draw_vtx *pv)
{
	static const unsigned col[4] = DRAW_COLOR_VPO;
	if (!d->flat || !pv)
		return;
	for (unsigned i = 0; i < 4; i++)
		memcpy(v->o[col[i]], pv->o[col[i]], sizeof(v->o[0]));
}

/* Sutherland-Hodgman against every enabled plane the polygon crosses.
 * ef[which][i]: the edge from vertex i to the next is one of the
 * primitive's (polygon mode LINE / POINT draws only those): a piece of an
 * original edge keeps its flag, an edge along a user clip plane is drawn, one
 * along the view volume is not [inferred: Mesa's draw module does so, "copying
 * NVIDIA's behaviour"]. */
static unsigned prim_clip(const struct draw_setup *d, struct draw_vtx *buf[2][CLIP_MAXV],
			  unsigned char ef[2][CLIP_MAXV], unsigned n, unsigned planes,
			  unsigned *which)
{
	unsigned cur = 0;

	for (unsigned p = 0; p < CLIP_PLANES && n >= 3; p++) {
		if (!(planes >> p & 1))
			continue;
		struct draw_vtx **in = buf[cur], **out = buf[cur ^ 1];
		const unsigned char *fi = ef[cur];
		unsigned char *fo = ef[cur ^ 1];
		unsigned m = 0;
		for (unsigned i = 0; i < n; i++) {
			const struct draw_vtx *a = in[i], *b = in[(i + 1) % n];
			float da = prim_dist(d, p, a), db = prim_dist(d, p, b);
			int ia = da >= 0.0f, ib = db >= 0.0f;
			if (ia && m < CLIP_MAXV) {
				fo[m] = fi[i];
				*out[m++] = *a;
			}
			if (ia != ib && m < CLIP_MAXV && (da - db) != 0.0f) {
				/* interpolate from the inside vertex for symmetry */
				if (ia) {
					fo[m] = p >= 7;          /* along the plane */
					prim_lerp(out[m++], a, b, da / (da - db));
				} else {
					fo[m] = fi[i];           /* the rest of edge a-b */
					prim_lerp(out[m++], b, a, db / (db - da));
				}
			}
		}
		n = m;
		cur ^= 1;
	}
	*which = cur;
	return n;
}

static float prim_offset(const struct draw_setup *d, const struct draw_svtx *a,
			 const struct draw_svtx *b, const struct draw_svtx *c)
{
	float ex1 = b->x - a->x, ey1 = b->y - a->y, ex2 = c->x - a->x, ey2 = c->y - a->y;
	float det = ex1 * ey2 - ex2 * ey1;
	float m = 0.0f;

	if (det != 0.0f) {
		float dzx = ((b->z - a->z) * ey2 - (c->z - a->z) * ey1) / det;
		float dzy = ((c->z - a->z) * ex1 - (b->z - a->z) * ex2) / det;
		m = fmaxf(fabsf(dzx), fabsf(dzy));
	}
	/* the units register counts minimum resolvable differences of the
	 * zeta format; Mesa's nv30 writes twice GL's units there (gallium's
	 * doubled convention), so a GL unit is two depth steps, as on llvmpipe
	 * [inferred: piglit gl-1.4-polygon-offset asks for at least the 2 steps
	 * fp32 depth resolves near 1.0] */
	float r = d->zbits == 16 ? 1.0f / 65535.0f : 1.0f / 16777215.0f;
	float o = d->poly_factor * m + d->poly_units * r;
	return isfinite(o) ? o : 0.0f;
}

static void prim_line_win(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
			  const struct draw_svtx *a, const struct draw_svtx *b,
			  const struct draw_raster *r);
static void prim_point_win(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
			   const struct draw_svtx *a, float size, const struct draw_raster *r);

/* A primitive rasterised over the draw's whole pixel rectangle. */
static struct draw_raster prim_raster(const struct draw_setup *d, int front, int fill, float zoff)
{
	return (struct draw_raster){ front, fill, zoff, d->cx0, d->cy0, d->cx1, d->cy1 };
}

void sim_draw_tri(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
		  const struct draw_vtx *a, const struct draw_vtx *b, const struct draw_vtx *c,
		  const struct draw_vtx *pv)
{
	sim_draw_tri_edges(s, g, d, a, b, c, pv, DRAW_EDGES_ALL);
}

void sim_draw_tri_edges(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
			const struct draw_vtx *a, const struct draw_vtx *b, const struct draw_vtx *c,
			const struct draw_vtx *pv, unsigned edges)
{
	struct draw_vtx store[2][CLIP_MAXV];
	struct draw_vtx *buf[2][CLIP_MAXV];
	struct draw_svtx sv[CLIP_MAXV];
	unsigned char ef[2][CLIP_MAXV];
	unsigned n = 3, which = 0;

	for (unsigned i = 0; i < CLIP_MAXV; i++) {
		buf[0][i] = &store[0][i];
		buf[1][i] = &store[1][i];
	}
	store[0][0] = *a;
	store[0][1] = *b;
	store[0][2] = *c;
	for (unsigned i = 0; i < 3; i++) {
		prim_flat(d, &store[0][i], pv);
		ef[0][i] = edges >> i & 1;
	}

	if (!d->window_space) {
		unsigned oa = prim_outcode(d, a), ob = prim_outcode(d, b), oc = prim_outcode(d, c);
		if (oa & ob & oc)
			return;
		if (oa | ob | oc)
			n = prim_clip(d, buf, ef, 3, oa | ob | oc, &which);
		if (n < 3)
			return;
	}
	struct draw_vtx **pl = buf[which];

	float area = 0.0f;
	for (unsigned i = 0; i < n; i++)
		prim_window(d, pl[i], &sv[i]);
	for (unsigned i = 0; i < n; i++) {
		unsigned j = (i + 1) % n;
		area += sv[i].x * sv[j].y - sv[j].x * sv[i].y;
	}
	if (!(area != 0.0f))            /* degenerate or NaN */
		return;
	/* Window y grows downwards (gallium's convention, which Mesa programs the
	 * hardware in): counter-clockwise on screen is a negative area here. */
	int ccw = area < 0.0f;
	int front = ccw == !!d->front_ccw;
	if (d->cull_enable &&
	    (d->cull_face == NV40_CULL_FACE_FRONT_AND_BACK ||
	     (d->cull_face == NV40_CULL_FACE_FRONT && front) ||
	     (d->cull_face == NV40_CULL_FACE_BACK && !front)))
		return;
	int back = !front && d->two_side;
	for (unsigned i = 0; i < n; i++)
		prim_varyings(d, pl[i], back, &sv[i]);

	unsigned mode = d->poly_mode[!front];
	if (mode == NV40_POLYGON_MODE_LINE || mode == NV40_POLYGON_MODE_POINT) {
		/* the primitive's edges (or their first vertices) only, with the
		 * offset of the polygon they belong to when LINE / POINT offset is on */
		unsigned on = mode == NV40_POLYGON_MODE_LINE ? d->poly_offset_line
							     : d->poly_offset_point;
		struct draw_raster r = prim_raster(d, front, 0,
						   on ? prim_offset(d, &sv[0], &sv[1], &sv[2]) : 0.0f);
		for (unsigned i = 0; i < n; i++) {
			if (!ef[which][i])
				continue;
			if (mode == NV40_POLYGON_MODE_LINE)
				prim_line_win(s, g, d, &sv[i], &sv[(i + 1) % n], &r);
			else
				prim_point_win(s, g, d, &sv[i], d->point_size, &r);
		}
	} else {
		struct draw_raster r = prim_raster(d, front, 1, d->poly_offset_fill ?
						   prim_offset(d, &sv[0], &sv[1], &sv[2]) : 0.0f);
		for (unsigned i = 1; i + 1 < n; i++)
			sim_raster_tri(s, g, d, &sv[0], &sv[i], &sv[i + 1], &r);
	}
}

/* The point t of the way from a to b (t may lie outside [0, 1]): position
 * and q linear in window space, varyings perspective-correct. */
static void prim_line_at(const struct draw_setup *d, const struct draw_svtx *a,
			 const struct draw_svtx *b, float t, struct draw_svtx *o)
{
	float x = a->x + (b->x - a->x) * t, y = a->y + (b->y - a->y) * t;
	float z = a->z + (b->z - a->z) * t, q = a->q + (b->q - a->q) * t;

	for (unsigned k = 0; k < d->nvary; k++)
		for (unsigned c = 0; c < 4; c++) {
			float va = a->v[k][c] * a->q, vb = b->v[k][c] * b->q;
			o->v[k][c] = q != 0.0f ? (va + (vb - va) * t) / q : a->v[k][c];
		}
	o->x = x; o->y = y; o->z = z; o->q = q;
}

/* A line of width w as the parallelogram around it, widened along the minor
 * axis (xmaj: x is the major one): covers the columns (rows when y-major)
 * whose centres lie in [min, max) of its ends, w pixels each. */
static void prim_line_rect(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
			   const struct draw_svtx *a, const struct draw_svtx *b, int xmaj,
			   const struct draw_raster *r)
{
	struct draw_svtx c[4];
	float h = d->line_width * 0.5f, ox = xmaj ? 0.0f : h, oy = xmaj ? h : 0.0f;

	c[0] = *a; c[1] = *a; c[2] = *b; c[3] = *b;
	c[0].x -= ox; c[0].y -= oy;
	c[1].x += ox; c[1].y += oy;
	c[2].x += ox; c[2].y += oy;
	c[3].x -= ox; c[3].y -= oy;
	sim_raster_tri(s, g, d, &c[0], &c[1], &c[2], r);
	sim_raster_tri(s, g, d, &c[0], &c[2], &c[3], r);
}

/* GL's diamond-exit rule at one end of a line, along its major axis u (w
 * the minor one, dir the sign of travel): the pixel an end lies in is drawn
 * when the line leaves that pixel's diamond |du| + |dw| < 1/2.  The
 * parallelogram covers the columns whose centres lie in [min, max) of its
 * ends as the rasteriser snaps them, so an end inside the diamond moves to
 * its column's near edge where that rule errs: past the centre (a start is
 * then drawn, an end not), or on it when travelling towards smaller u.
 * Returns the new major coordinate, or u itself. */
static float prim_diamond(float u, float w, float dir)
{
	float fu = u - floorf(u) - 0.5f, fw = w - floorf(w) - 0.5f, su = draw_snap(u);
	int on_centre = su - floorf(su) == 0.5f;

	if ((fu * dir > 0.0f || (on_centre && dir < 0.0f)) && fabsf(fu) + fabsf(fw) < 0.5f)
		return floorf(u) + 0.5f - 0.5f * dir;
	return u;
}

/* Both ends by the diamond-exit rule: t0, t1 the line's new ends as
 * fractions of a-b; returns whether x is the major axis. */
static int prim_line_ends(const struct draw_svtx *a, const struct draw_svtx *b, float *t0,
			  float *t1)
{
	float dx = b->x - a->x, dy = b->y - a->y;
	int xmaj = fabsf(dx) >= fabsf(dy);
	float ua = xmaj ? a->x : a->y, wa = xmaj ? a->y : a->x;
	float ub = xmaj ? b->x : b->y, wb = xmaj ? b->y : b->x;
	float du = ub - ua, dir = du > 0.0f ? 1.0f : -1.0f;

	*t0 = 0.0f;
	*t1 = 1.0f;
	if (fabsf(du) > 0.0f) {
		*t0 = (prim_diamond(ua, wa, dir) - ua) / du;
		*t1 = (prim_diamond(ub, wb, dir) - ua) / du;
	}
	return xmaj;
}

/* Is fragment k of a line lit, the stipple counter at `count` before it? */
static int prim_line_lit(const struct draw_setup *d, uint32_t count, uint32_t k)
{
	return d->line_pattern >> (((count + k) / d->line_factor) & 15) & 1;
}

/* The stippled line a-b (ends already by the diamond rule): fragment k of
 * its columns, counted in the direction of travel, has the pattern bit of
 * the stipple counter + k (`factor` fragments a bit); the counter runs on
 * from the primitive's earlier lines (g->c3d.draw.stipple, draw.c resets
 * it).  Each run of lit columns is the whole line's parallelogram kept to
 * those columns, so it covers what the unstippled line covers there. */
static void prim_line_stippled(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
			       const struct draw_svtx *a, const struct draw_svtx *b, int xmaj,
			       const struct draw_raster *r)
{
	float ua = draw_snap(xmaj ? a->x : a->y), ub = draw_snap(xmaj ? b->x : b->y);
	float c0 = ceilf(fminf(ua, ub) - 0.5f), c1 = ceilf(fmaxf(ua, ub) - 0.5f);

	if (!(c1 > c0) || c1 - c0 > PRIM_LINE_MAX)
		return;
	uint32_t n = (uint32_t)(c1 - c0), *count = &g->c3d.draw.stipple, start = *count;
	*count += n;
	/* column of fragment k: c0 + k, or c1 - 1 - k travelling backwards */
	int back = ub < ua;
	float lo = (float)(xmaj ? r->x0 : r->y0), hi = (float)(xmaj ? r->x1 : r->y1);
	float kmin = fmaxf(0.0f, back ? c1 - hi : lo - c0);
	float kmax = fminf((float)n, back ? c1 - lo : hi - c0) - 1.0f;
	if (!(kmin <= kmax))
		return;
	for (uint32_t k = (uint32_t)kmin, kend = (uint32_t)kmax; k <= kend; k++) {
		uint32_t e = k;
		if (!prim_line_lit(d, start, k))
			continue;
		while (e < kend && prim_line_lit(d, start, e + 1))
			e++;
		int cl = (int)(back ? c1 - 1.0f - (float)e : c0 + (float)k), ch = cl + (int)(e - k) + 1;
		struct draw_raster rr = *r;
		if (xmaj) {
			rr.x0 = cl;
			rr.x1 = ch;
		} else {
			rr.y0 = cl;
			rr.y1 = ch;
		}
		prim_line_rect(s, g, d, a, b, xmaj, &rr);
		k = e;
	}
}

static void prim_line_win(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
			  const struct draw_svtx *a, const struct draw_svtx *b,
			  const struct draw_raster *r)
{
	struct draw_svtx ea = *a, eb = *b;
	float t0, t1;
	int xmaj = prim_line_ends(a, b, &t0, &t1);

	if (t0 != 0.0f)
		prim_line_at(d, a, b, t0, &ea);
	if (t1 != 1.0f)
		prim_line_at(d, a, b, t1, &eb);
	if (d->line_stipple)
		prim_line_stippled(s, g, d, &ea, &eb, xmaj, r);
	else
		prim_line_rect(s, g, d, &ea, &eb, xmaj, r);
}

static void prim_point_win(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
			   const struct draw_svtx *a, float size, const struct draw_raster *r)
{
	struct draw_svtx c[4];
	static const float cs[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };

	if (!(size >= PRIM_POINT_MIN))       /* also NaN */
		size = PRIM_POINT_MIN;
	if (size > PRIM_POINT_MAX)
		size = PRIM_POINT_MAX;
	float h = size * 0.5f;
	for (unsigned i = 0; i < 4; i++) {
		c[i] = *a;
		c[i].x = a->x + (cs[i][0] ? h : -h);
		c[i].y = a->y + (cs[i][1] ? h : -h);
		if (!(d->point_sprite & NV40_POINT_SPRITE_ENABLE))
			continue;
		for (unsigned k = 0; k < d->nvary; k++) {
			unsigned fpi = d->vary[k].fpi;
			if (fpi < NV40_FPI_TC0 || fpi >= NV40_FPI_TC0 + 8 ||
			    !(d->point_sprite & NV40_POINT_SPRITE_COORD_REPLACE(fpi - NV40_FPI_TC0)))
				continue;
			c[i].v[k][0] = cs[i][0];
			c[i].v[k][1] = cs[i][1];
			c[i].v[k][2] = 0.0f;
			c[i].v[k][3] = 1.0f;
		}
	}
	sim_raster_tri(s, g, d, &c[0], &c[1], &c[2], r);
	sim_raster_tri(s, g, d, &c[0], &c[2], &c[3], r);
}

void sim_draw_line(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
		   const struct draw_vtx *a, const struct draw_vtx *b, const struct draw_vtx *pv)
{
	struct draw_vtx va = *a, vb = *b;
	struct draw_svtx sa, sb;

	prim_flat(d, &va, pv);
	prim_flat(d, &vb, pv);
	if (!d->window_space) {
		unsigned oa = prim_outcode(d, &va), ob = prim_outcode(d, &vb);
		if (oa & ob)
			return;
		float t0 = 0.0f, t1 = 1.0f;
		for (unsigned p = 0; p < CLIP_PLANES; p++) {
			if (!((oa | ob) >> p & 1))
				continue;
			float da = prim_dist(d, p, a), db = prim_dist(d, p, b);
			if (!(da - db != 0.0f))
				return;
			float t = da / (da - db);
			if (da < 0.0f) { if (t > t0) t0 = t; }
			else if (t < t1) t1 = t;
		}
		if (!(t0 < t1))
			return;
		struct draw_vtx ca = va, cb = vb;
		if (t0 > 0.0f)
			prim_lerp(&ca, &va, &vb, t0);
		if (t1 < 1.0f)
			prim_lerp(&cb, &va, &vb, t1);
		va = ca;
		vb = cb;
	}
	prim_window(d, &va, &sa);
	prim_window(d, &vb, &sb);
	prim_varyings(d, &va, 0, &sa);
	prim_varyings(d, &vb, 0, &sb);
	struct draw_raster r = prim_raster(d, 1, 0, 0.0f);
	prim_line_win(s, g, d, &sa, &sb, &r);
}

void sim_draw_point(struct sim *s, struct sim_grctx *g, struct draw_setup *d,
		    const struct draw_vtx *a)
{
	struct draw_svtx sa;
	float size = d->point_size;

	if (!d->window_space && prim_outcode(d, a))
		return;             /* a point whose centre is clipped is gone */
	if (d->result_en & NV40_VP_RESULT_PSZ)
		size = a->o[NV40_VPO_PSZ][0];
	prim_window(d, a, &sa);
	prim_varyings(d, a, 0, &sa);
	struct draw_raster r = prim_raster(d, 1, 0, 0.0f);
	prim_point_win(s, g, d, &sa, size, &r);
}
