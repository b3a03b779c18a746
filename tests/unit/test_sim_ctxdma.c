/* Instance memory and ctxdmas: where RAMIN lives in VRAM, linear bounds,
 * adjust, access, paged translation, targets, object classes. */
#include "sim-host.h"

#define DMA 0x50000u       /* the ctxdma under test */



/* RAMIN is VRAM's last 512 KiB blocks in reverse order, forward inside. */
static void test_ramin_lives_at_top_of_vram_in_reverse_blocks(void **state)
{
	struct host *h = *state;
	uint8_t *vram = sim_vram(h->s);

	assert_ptr_equal(sim_ramin(h->s, 0, 4), vram + HOST_VRAM - 0x80000);
	assert_ptr_equal(sim_ramin(h->s, 0x7fffc, 4), vram + HOST_VRAM - 4);
	assert_ptr_equal(sim_ramin(h->s, 0x80000, 4), vram + HOST_VRAM - 0x100000);
	assert_ptr_equal(sim_ramin(h->s, 0x90010, 4), vram + HOST_VRAM - 0x100000 + 0x10010);
	/* across a block boundary, or past RAMIN: no */
	assert_null(sim_ramin(h->s, 0x7fffe, 4));
	assert_null(sim_ramin(h->s, NV40_RAMIN_SIZE, 4));
	assert_null(sim_ramin(h->s, 0xffffffff, 4));
	/* BAR0 PRAMIN reaches the same bytes */
	sim_wr32(h->s, NV_PRAMIN + 0x90010, 0x11223344);
	assert_int_equal(nv_rd32le(vram + HOST_VRAM - 0x100000 + 0x10010), 0x11223344);
	assert_int_equal(vram[HOST_VRAM - 0x100000 + 0x10010], 0x44);    /* little-endian */
	assert_int_equal(sim_rd32(h->s, NV_PRAMIN + 0x90010), 0x11223344);
}

static void test_linear_bounds_last_byte_ok_one_past_faults(void **state)
{
	struct host *h = *state;
	uint8_t *vram = sim_vram(h->s);

	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RW,
		    0x100000, 0xfff);
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0, 1, 0), vram + 0x100000);
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0xfff, 1, 0), vram + 0x100fff);
	assert_null(sim_dma_map(h->s, DMA, 0x1000, 1, 0));
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0xffc, 4, 1), vram + 0x100ffc);
	assert_null(sim_dma_map(h->s, DMA, 0xffd, 4, 0));
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0, 0x1000, 0), vram + 0x100000);
	assert_null(sim_dma_map(h->s, DMA, 0, 0x1001, 0));
	/* len 0 is checked as one byte */
	assert_non_null(sim_dma_map(h->s, DMA, 0xfff, 0, 0));
	assert_null(sim_dma_map(h->s, DMA, 0x1000, 0, 0));
	/* no wrap-around */
	assert_null(sim_dma_map(h->s, DMA, UINT64_MAX, 2, 0));
	assert_null(sim_dma_map(h->s, DMA, 1, UINT64_MAX, 0));
	assert_null(sim_dma_map(h->s, DMA, 0x100000000ull, 1, 0));
}

static void test_linear_adjust_adds_low_bits_of_start(void **state)
{
	struct host *h = *state;
	uint8_t *vram = sim_vram(h->s);

	/* start 0x100123: frame 0x100000, adjust 0x123; limit is relative */
	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RW,
		    0x100123, 0xff);
	assert_int_equal(NV_DMA_W0_ADJUST(host_ramin_rd32(h, DMA)), 0x123);
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0, 4, 0), vram + 0x100123);
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0xff, 1, 0), vram + 0x100222);
	assert_null(sim_dma_map(h->s, DMA, 0x100, 1, 0));
}

static void test_access_ro_refuses_write_wo_refuses_read(void **state)
{
	struct host *h = *state;

	host_ctxdma(h, DMA, NV_CLASS_DMA_FROM_MEMORY, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RO,
		    0x200000, 0xfff);
	assert_non_null(sim_dma_map(h->s, DMA, 0, 4, 0));
	assert_null(sim_dma_map(h->s, DMA, 0, 4, 1));
	host_ctxdma(h, DMA, NV_CLASS_DMA_TO_MEMORY, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_WO,
		    0x200000, 0xfff);
	assert_null(sim_dma_map(h->s, DMA, 0, 4, 0));
	assert_non_null(sim_dma_map(h->s, DMA, 0, 4, 1));
	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RW,
		    0x200000, 0xfff);
	assert_non_null(sim_dma_map(h->s, DMA, 0, 4, 0));
	assert_non_null(sim_dma_map(h->s, DMA, 0, 4, 1));
}

static void test_target_vram_vs_pci(void **state)
{
	struct host *h = *state;

	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RW,
		    0x3000, 0xfff);
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0x10, 4, 0), sim_vram(h->s) + 0x3010);
	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RW,
		    0x3000, 0xfff);
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0x10, 4, 0), h->sysmem + 0x3010);
	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_AGP, NV_DMA_ACCESS_RW,
		    0x3000, 0xfff);
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0x10, 4, 0), h->sysmem + 0x3010);
	/* a limit larger than the memory behind it: the memory decides */
	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RW,
		    HOST_SYSMEM - 0x1000, 0xffffffff);
	assert_non_null(sim_dma_map(h->s, DMA, 0xffc, 4, 0));
	assert_null(sim_dma_map(h->s, DMA, 0x1000, 4, 0));
	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RW,
		    HOST_VRAM - 0x1000, 0xffffffff);
	assert_non_null(sim_dma_map(h->s, DMA, 0xffc, 4, 0));
	assert_null(sim_dma_map(h->s, DMA, 0xffd, 4, 0));
	/* target 1 is not a memory */
	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, 1, NV_DMA_ACCESS_RW, 0, 0xfff);
	assert_null(sim_dma_map(h->s, DMA, 0, 4, 0));
}

/* GART the chipset-0x40 way: PTEs follow the object at +8. */
static void test_paged_translation_and_bounds(void **state)
{
	struct host *h = *state;

	host_ramin_wr32(h, DMA + 0, NV_CLASS_DMA_IN_MEMORY | NV_DMA_W0_PT_PRESENT |
				    (uint32_t)NV_DMA_TARGET_PCI << 16);
	host_ramin_wr32(h, DMA + 4, 4 * 0x1000 - 1);                   /* 4 pages */
	host_ramin_wr32(h, DMA + 8, 0x5000 | NV_DMA_PTE_PRESENT | NV_DMA_PTE_RW);
	host_ramin_wr32(h, DMA + 12, 0x6000 | NV_DMA_PTE_PRESENT | NV_DMA_PTE_RW);
	host_ramin_wr32(h, DMA + 16, 0x2000 | NV_DMA_PTE_PRESENT);      /* read-only */
	host_ramin_wr32(h, DMA + 20, 0x9000);                           /* not present */

	assert_ptr_equal(sim_dma_map(h->s, DMA, 0x10, 4, 0), h->sysmem + 0x5010);
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0x1ffc, 4, 1), h->sysmem + 0x6ffc);
	/* pages 0 and 1 are contiguous: a range may cross */
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0xffe, 4, 0), h->sysmem + 0x5ffe);
	/* pages 1 and 2 are not */
	assert_null(sim_dma_map(h->s, DMA, 0x1ffe, 4, 0));
	/* page 2: readable, not writable */
	assert_ptr_equal(sim_dma_map(h->s, DMA, 0x2004, 4, 0), h->sysmem + 0x2004);
	assert_null(sim_dma_map(h->s, DMA, 0x2004, 4, 1));
	/* page 3 is absent; past the limit is nothing */
	assert_null(sim_dma_map(h->s, DMA, 0x3000, 4, 0));
	assert_null(sim_dma_map(h->s, DMA, 0x4000, 4, 0));
}

static void test_not_a_ctxdma_faults(void **state)
{
	struct host *h = *state;

	host_grobj(h, DMA, NV_CLASS_M2MF);
	assert_null(sim_dma_map(h->s, DMA, 0, 4, 0));
	host_ramin_wr32(h, DMA, NV_CLASS_NULL_OBJ);
	assert_null(sim_dma_map(h->s, DMA, 0, 4, 0));
	/* PT_PRESENT and PT_LINEAR both clear: no page table at all */
	host_ramin_wr32(h, DMA, NV_CLASS_DMA_IN_MEMORY);
	assert_null(sim_dma_map(h->s, DMA, 0, 4, 0));
	/* misaligned or outside RAMIN */
	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RW, 0, 0xfff);
	assert_non_null(sim_dma_map(h->s, DMA, 0, 4, 0));
	assert_null(sim_dma_map(h->s, DMA + 4, 0, 4, 0));
	assert_null(sim_dma_map(h->s, NV40_RAMIN_SIZE, 0, 4, 0));
	assert_null(sim_dma_map(h->s, 0xfffffff0, 0, 4, 0));
}

static void test_obj_class_of_ctxdma_and_grobj(void **state)
{
	struct host *h = *state;

	host_ctxdma(h, DMA, NV_CLASS_DMA_IN_MEMORY, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RO, 0x123, 0xfff);
	assert_int_equal(sim_obj_class(h->s, DMA), NV_CLASS_DMA_IN_MEMORY);
	host_grobj(h, DMA + 0x20, NV_CLASS_CURIE_NV40);
	assert_int_equal(sim_obj_class(h->s, DMA + 0x20), 0x4097);
	host_grobj(h, DMA + 0x40, NV_CLASS_SWZSURF);
	assert_int_equal(sim_obj_class(h->s, DMA + 0x40), 0x309e);
	host_grobj(h, DMA + 0x60, NV_CLASS_SURF2D);
	assert_int_equal(sim_obj_class(h->s, DMA + 0x60), 0x62);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, host_setup, host_teardown)
		T(test_ramin_lives_at_top_of_vram_in_reverse_blocks),
		T(test_linear_bounds_last_byte_ok_one_past_faults),
		T(test_linear_adjust_adds_low_bits_of_start),
		T(test_access_ro_refuses_write_wo_refuses_read),
		T(test_target_vram_vs_pci),
		T(test_paged_translation_and_bounds),
		T(test_not_a_ctxdma_faults),
		T(test_obj_class_of_ctxdma_and_grobj),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
