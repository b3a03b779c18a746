/* nvd --sim-check: what the daemon tells the card's access oracle (card.h
 * oracle_*), and its findings in the log as "ORACLE:" lines.
 *
 * Admitted, per channel while it lives: the ring (the pusher's), the
 * fragment program shadow (the daemon's copies write it, the client's 3D
 * engine fetches its programs there; the oracle cannot tell that fetch
 * from a texture read of the same ctxdma, and the area holds only the
 * channel's own programs), and the buffers a client's ctxdma covers whole
 * (DMA_BO: the ctxdma's limit is the check, the buffer stays pinned).  Per
 * submission, until its fence: the buffers the validator admitted, listed
 * ones as it covers them (listed for writing covers reading too), unlisted
 * ones with the access the submission used; the daemon's own methods in it
 * may read any of them (its program copies read the client's program
 * whichever way it was listed) and write only its areas. */
#include "nvd/nvd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int oracle_on(const struct nvd *d)
{
	return d->o.card.sim_check && d->card->ops->oracle_admit;
}

/* listed: the access declared, else the access the submission used. */
static uint8_t oracle_allow(unsigned access, int listed)
{
	/* validate.c nvd_v_covers: a buffer listed for writing may be read */
	if (listed && (access & NVD_ACCESS_WRITE))
		access |= NVD_ACCESS_READ;
	return (access & NVD_ACCESS_READ ? NVD_ORACLE_CLIENT_R : 0) |
	       (access & NVD_ACCESS_WRITE ? NVD_ORACLE_CLIENT_W : 0) | NVD_ORACLE_DAEMON_R;
}

static void oracle_area(struct nvd_chan *ch, int gart, uint64_t addr, uint64_t size, uint8_t allow)
{
	struct nvd *d = ch->cl->d;
	struct nvd_card_range r = { gart, allow, addr, size };

	if (d->card->ops->oracle_area(d->card, ch->chid, &r) < 0)
		nvd_clog(ch->cl, ch, "oracle: out of memory for an area");
}

void nvd_oracle_chan(struct nvd_chan *ch)
{
	if (!oracle_on(ch->cl->d))
		return;
	oracle_area(ch, 1, ch->ring_addr, NVD_HW_RING_SIZE, NVD_ORACLE_PUSH_R);
	oracle_area(ch, 0, ch->fp_area, NVD_FP_AREA_SIZE,
		    NVD_ORACLE_DAEMON_R | NVD_ORACLE_DAEMON_W | NVD_ORACLE_CLIENT_R);
}

void nvd_oracle_dma(struct nvd_chan *ch, const struct nvd_vobj *v, unsigned access)
{
	uint8_t allow = 0;

	if (!oracle_on(ch->cl->d))
		return;
	if (access != NV_DMA_ACCESS_WO)
		allow |= NVD_ORACLE_CLIENT_R | NVD_ORACLE_DAEMON_R;
	if (access != NV_DMA_ACCESS_RO)
		allow |= NVD_ORACLE_CLIENT_W | NVD_ORACLE_DAEMON_W;
	oracle_area(ch, v->domain == NVD_DOMAIN_GART, v->base, v->size, allow);
}

void nvd_oracle_admit(struct nvd_chan *ch, uint32_t seq, uint32_t begin, uint32_t end,
		      const struct nvd_vbo *bos, unsigned nlisted, unsigned nbos, const uint8_t *used)
{
	struct nvd *d = ch->cl->d;
	struct nvd_card_range *r;
	unsigned n = 0;

	if (!oracle_on(d))
		return;
	r = malloc((nbos ? nbos : 1) * sizeof(*r));
	if (!r) {
		nvd_clog(ch->cl, ch, "oracle: out of memory admitting submission %u", seq);
		return;
	}
	for (unsigned i = 0; i < nbos; i++) {
		unsigned access = i < nlisted ? bos[i].access : used[i - nlisted];
		if (!access || !bos[i].size)
			continue;
		r[n++] = (struct nvd_card_range){ bos[i].domain == NVD_DOMAIN_GART,
						  oracle_allow(access, i < nlisted), bos[i].addr,
						  bos[i].size };
	}
	if (d->card->ops->oracle_admit(d->card, ch->chid, seq, begin, end, r, n) < 0)
		nvd_clog(ch->cl, ch, "oracle: out of memory admitting submission %u", seq);
	free(r);
}

void nvd_oracle_retire(struct nvd_chan *ch, uint32_t seq)
{
	struct nvd *d = ch->cl->d;

	if (oracle_on(d))
		d->card->ops->oracle_retire(d->card, ch->chid, seq);
}

/* The channel is stopped: what the card found for it is logged under its
 * name before its chid can be anyone else's. */
void nvd_oracle_forget(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;

	if (!oracle_on(d))
		return;
	nvd_oracle_poll(d);
	d->card->ops->oracle_forget(d->card, ch->chid);
}

static void oracle_log(void *arg, unsigned chid, int has_seq, uint32_t seq, const char *what)
{
	struct nvd *d = arg;
	struct nvd_chan *ch = chid < NV40_FIFO_CHANNELS ? d->chid[chid] : NULL;

	(void)has_seq;
	(void)seq;
	if (ch)
		nvd_log(0, "ORACLE: client %u (%s, pid %d) chan %u: %s", ch->cl->id,
			ch->cl->name[0] ? ch->cl->name : "?", (int)ch->cl->pid, ch->id, what);
	else
		nvd_log(0, "ORACLE: no channel: %s", what);
}

void nvd_oracle_poll(struct nvd *d)
{
	if (oracle_on(d))
		d->oracle_violations = d->card->ops->oracle_poll(d->card, oracle_log, d);
}
