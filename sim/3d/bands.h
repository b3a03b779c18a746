/* The 3D engine's fragment threads (bands.c): the fragment work of draws
 * (rasterisation, early depth, fragment program, textures, ROP) is shared
 * by the worker and helper threads by screen area, interleaved bands of
 * rows, so each pixel has one owner that sees the primitives in order.
 * Vertex work, clipping and triangle setup stay on the worker.  Queued
 * work is finished (sim_3d_sync) before anything else may look at memory
 * or state: any method but draws and state of the same 3D object
 * (sim_curie_keeps_queue) or M2MF's copies elsewhere, a draw the queued
 * ones conflict with, the worker letting MMIO in between chunks,
 * sim_run's return.  MMIO between the pieces of a draw (sim_gr_piece)
 * sees PGRAPH busy instead. */
#ifndef NV_SIM_3D_BANDS_H
#define NV_SIM_3D_BANDS_H

#include <stdint.h>

struct sim;
struct sim_grctx;

/* Start `threads` fragment threads in all (the worker one of them); 1 or
 * less: none, s->bands stays NULL.  0, or -1 when threads cannot start. */
int sim_bands_start(struct sim *s, unsigned threads);
/* Stop and free them (nothing may be queued: sync first). */
void sim_bands_stop(struct sim *s);

/* Wait until no helper is inside a job: after gr_abort is set, none will
 * touch memory again. */
void sim_bands_quiesce(struct sim *s);
/* Finish the queued fragment work, raise a trap it ran into.  Lock held;
 * released while the worker waits for the helpers (PGRAPH reads busy). */
void sim_3d_sync(struct sim *s);
/* The same unless method mthd on chid/subc is more vertex data of the draw
 * the queue belongs to, or a method of the queue's channel on another
 * subchannel that binds an object there or is M2MF's (its spans and
 * notifier sync with sim_3d_sync_touch as they are mapped); before
 * PGRAPH sees any method.  gr: PFIFO routes it to PGRAPH (the object
 * bound on subc is PGRAPH's, not software's). */
void sim_3d_sync_mthd(struct sim *s, unsigned chid, unsigned subc, uint32_t mthd, int gr);
/* sim_3d_sync if queued work reads or writes a byte of [lo, lo + len)
 * (lo NULL: memory that is not in one piece, which it may). */
void sim_3d_sync_touch(struct sim *s, const uint8_t *lo, uint64_t len);

/* fn(arg, lo, hi) over the rows [y0, y1) in pieces that together cover
 * them once, shared by the fragment threads by their bands when the
 * area (pixels) is worth a hand-over; all done on return, queued work
 * first.  fn must touch only its rows' own bytes. */
typedef void sim_bands_rows_fn(void *arg, int y0, int y1);
void sim_bands_rows(struct sim *s, struct sim_grctx *g, int y0, int y1, uint64_t area,
		    sim_bands_rows_fn *fn, void *arg);

#endif
