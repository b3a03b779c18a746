/* RAMHT: the per-card hash table from (handle, chid) to object context,
 * probed linearly from the hash as the kernel fills it. */
#include "priv.h"

int sim_ramht_find(struct sim *s, unsigned chid, uint32_t handle, uint32_t *ctx)
{
	uint32_t reg = SIM_PFIFO(s, NV_PFIFO_RAMHT);
	uint32_t base = NV_PFIFO_RAMHT_ADDR(reg);
	unsigned bits = NV_PFIFO_RAMHT_BITS(reg);
	unsigned entries = 1u << bits, search = NV_PFIFO_RAMHT_SEARCH(reg);
	uint32_t h = nv40_ramht_hash(handle, chid, bits);

	if (search > entries)
		search = entries;
	for (unsigned i = 0; i < search; i++) {
		uint32_t at = base + ((h + i) & (entries - 1)) * NV40_RAMHT_ENTRY_SIZE;
		const uint8_t *e = sim_ramin(s, at, NV40_RAMHT_ENTRY_SIZE);
		if (!e)
			return -1;
		uint32_t c = nv_rd32le(e + 4);
		/* No valid bit on NV40: an empty 0/0 entry is handle 0 of
		 * channel 0, as on hardware. */
		if (nv_rd32le(e) == handle && NV40_RAMHT_CTX_CHID(c) == chid) {
			*ctx = c;
			return 0;
		}
	}
	return -1;
}
