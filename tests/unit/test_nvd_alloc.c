/* The range allocator (nvd/alloc.c): hand-computed placements, accounting,
 * coalescing, errors, and a long randomized run against a shadow list of
 * live allocations. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nvd/alloc.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define PAGE 4096ull

static uint64_t must_alloc(struct nvd_ra *ra, uint64_t size, uint64_t align)
{
	uint64_t a = ~0ull;

	assert_int_equal(nvd_ra_alloc(ra, size, align, &a), 0);
	return a;
}

static void init_rejects_size_zero_and_end_past_2_64(void **state)
{
	struct nvd_ra ra;

	(void)state;
	assert_int_equal(nvd_ra_init(&ra, 0, 0), -EINVAL);
	nvd_ra_fini(&ra);
	assert_int_equal(nvd_ra_init(&ra, UINT64_MAX - 10, 100), -EINVAL);
	nvd_ra_fini(&ra);
	assert_int_equal(nvd_ra_init(&ra, UINT64_MAX - PAGE + 1, PAGE), -EINVAL); /* end = 2^64 */

	/* A range ending at the last byte of the address space is fine. */
	assert_int_equal(nvd_ra_init(&ra, UINT64_MAX - 2 * PAGE, 2 * PAGE), 0);
	assert_int_equal(must_alloc(&ra, 16, 16), UINT64_MAX - 2 * PAGE + 1);
	assert_int_equal(nvd_ra_check(&ra), 0);
	nvd_ra_fini(&ra);
}

static void alloc_free_basic_accounting(void **state)
{
	struct nvd_ra ra;

	(void)state;
	assert_int_equal(nvd_ra_init(&ra, 0, 128 * MiB), 0);
	assert_int_equal(nvd_ra_largest_free(&ra), 128 * MiB);
	assert_int_equal(must_alloc(&ra, PAGE, 0), 0);
	assert_int_equal(must_alloc(&ra, 2 * PAGE, PAGE), PAGE);
	assert_int_equal(ra.used, 3 * PAGE);
	assert_int_equal(ra.nallocs, 2);
	assert_int_equal(nvd_ra_size(&ra, 0), PAGE);
	assert_int_equal(nvd_ra_size(&ra, PAGE), 2 * PAGE);
	assert_int_equal(nvd_ra_size(&ra, 100), 0);
	assert_int_equal(nvd_ra_size(&ra, 3 * PAGE), 0);
	assert_int_equal(nvd_ra_largest_free(&ra), 128 * MiB - 3 * PAGE);

	assert_int_equal(nvd_ra_free(&ra, 0), 0);
	assert_int_equal(ra.used, 2 * PAGE);
	assert_int_equal(ra.nallocs, 1);
	assert_int_equal(ra.nfree, 2);
	assert_int_equal(nvd_ra_size(&ra, 0), 0);
	assert_int_equal(nvd_ra_check(&ra), 0);
	/* The hole at 0 is the best fit for one page again. */
	assert_int_equal(must_alloc(&ra, PAGE, PAGE), 0);
	assert_int_equal(ra.nfree, 1);
	nvd_ra_fini(&ra);
}

static void alloc_rejects_size_zero_and_non_power_of_two_align(void **state)
{
	struct nvd_ra ra;
	uint64_t a = 42;

	(void)state;
	assert_int_equal(nvd_ra_init(&ra, 0, MiB), 0);
	assert_int_equal(nvd_ra_alloc(&ra, 0, 0, &a), -EINVAL);
	assert_int_equal(nvd_ra_alloc(&ra, 16, 3, &a), -EINVAL);
	assert_int_equal(nvd_ra_alloc(&ra, 16, 0x3000, &a), -EINVAL);
	assert_int_equal(nvd_ra_alloc(&ra, 16, UINT64_MAX, &a), -EINVAL);
	assert_int_equal(a, 42);
	assert_int_equal(ra.used, 0);
	assert_int_equal(ra.nallocs, 0);
	/* align 0 means byte alignment: two single bytes side by side. */
	assert_int_equal(must_alloc(&ra, 1, 0), 0);
	assert_int_equal(must_alloc(&ra, 1, 0), 1);
	nvd_ra_fini(&ra);
}

static void alignment_is_of_the_absolute_address(void **state)
{
	struct nvd_ra ra;
	uint64_t a;

	(void)state;
	/* Base 0x1000: addresses, not offsets, are aligned. */
	assert_int_equal(nvd_ra_init(&ra, 0x1000, 128 * MiB), 0);
	assert_int_equal(must_alloc(&ra, 1, 1), 0x1000);
	assert_int_equal(must_alloc(&ra, 100, 0x10000), 0x10000);
	/* Free now: [0x1001, 0x10000) and [0x10064, end).  The small hole is
	 * the best fit for 16 bytes aligned to 16: 0x1010. */
	assert_int_equal(must_alloc(&ra, 16, 16), 0x1010);
	assert_int_equal(ra.nfree, 3);
	assert_int_equal(nvd_ra_check(&ra), 0);
	nvd_ra_fini(&ra);

	/* Alignment up to the range size: the only 128 MiB-aligned address in
	 * [0x1000, 0x1000 + 128 MiB) is 128 MiB, with 0x1000 bytes after it. */
	assert_int_equal(nvd_ra_init(&ra, 0x1000, 128 * MiB), 0);
	assert_int_equal(nvd_ra_alloc(&ra, 0x1001, 128 * MiB, &a), -ENOSPC);
	assert_int_equal(must_alloc(&ra, 0x1000, 128 * MiB), 128 * MiB);
	assert_int_equal(ra.nfree, 1);
	assert_int_equal(nvd_ra_largest_free(&ra), 128 * MiB - 0x1000);
	assert_int_equal(nvd_ra_alloc(&ra, 1, 256 * MiB, &a), -ENOSPC);
	nvd_ra_fini(&ra);

	/* Base 0 is aligned to everything, even 2^63. */
	assert_int_equal(nvd_ra_init(&ra, 0, 128 * MiB), 0);
	assert_int_equal(must_alloc(&ra, PAGE, 1ull << 63), 0);
	assert_int_equal(nvd_ra_alloc(&ra, PAGE, 1ull << 63, &a), -ENOSPC);
	assert_int_equal(must_alloc(&ra, PAGE, 64 * MiB), 64 * MiB);
	nvd_ra_fini(&ra);
}

static void exhaustion_gives_enospc_and_changes_nothing(void **state)
{
	struct nvd_ra ra;
	uint64_t a = 7;

	(void)state;
	assert_int_equal(nvd_ra_init(&ra, 0, 128 * MiB), 0);
	assert_int_equal(nvd_ra_alloc(&ra, 128 * MiB + 1, 0, &a), -ENOSPC);
	assert_int_equal(nvd_ra_alloc(&ra, UINT64_MAX, 0, &a), -ENOSPC);
	assert_int_equal(nvd_ra_alloc(&ra, UINT64_MAX - PAGE + 2, PAGE, &a), -ENOSPC);
	for (unsigned i = 0; i < 128; i++)
		assert_int_equal(must_alloc(&ra, MiB, MiB), i * MiB);
	assert_int_equal(nvd_ra_alloc(&ra, 1, 0, &a), -ENOSPC);
	assert_int_equal(a, 7);
	assert_int_equal(ra.used, 128 * MiB);
	assert_int_equal(ra.nallocs, 128);
	assert_int_equal(ra.nfree, 0);
	assert_int_equal(nvd_ra_largest_free(&ra), 0);
	assert_int_equal(nvd_ra_check(&ra), 0);

	/* One MiB back in the middle: exactly that fits, no more. */
	assert_int_equal(nvd_ra_free(&ra, 40 * MiB), 0);
	assert_int_equal(nvd_ra_alloc(&ra, MiB + 1, 0, &a), -ENOSPC);
	assert_int_equal(must_alloc(&ra, MiB, 0), 40 * MiB);
	nvd_ra_fini(&ra);
}

/* Three neighbours of different sizes, freed in each of the 6 orders, with
 * the tail of the range free (so the last one also merges with it) and
 * again fenced by live guards on both sides. */
static void coalescing_three_neighbours_in_every_order(void **state)
{
	static const int order[6][3] = {
		{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
	};
	const uint64_t sz[3] = { PAGE, 2 * PAGE, 3 * PAGE };

	(void)state;
	for (int guarded = 0; guarded < 2; guarded++) {
		for (int o = 0; o < 6; o++) {
			struct nvd_ra ra;
			uint64_t size = guarded ? 8 * PAGE : 7 * PAGE, a[3], g0 = 0, g1 = 0;

			assert_int_equal(nvd_ra_init(&ra, 0x100000, size), 0);
			if (guarded)
				g0 = must_alloc(&ra, PAGE, 0);
			for (int i = 0; i < 3; i++)
				a[i] = must_alloc(&ra, sz[i], 0);
			if (guarded)
				g1 = must_alloc(&ra, PAGE, 0);
			assert_int_equal(a[0], 0x100000 + (guarded ? PAGE : 0));
			assert_int_equal(a[1], a[0] + PAGE);
			assert_int_equal(a[2], a[1] + 2 * PAGE);
			for (int i = 0; i < 3; i++) {
				assert_int_equal(nvd_ra_free(&ra, a[order[o][i]]), 0);
				assert_int_equal(nvd_ra_check(&ra), 0);
			}
			assert_int_equal(ra.nfree, 1);
			if (!guarded) {
				assert_int_equal(ra.used, 0);
				assert_int_equal(ra.nallocs, 0);
				assert_int_equal(nvd_ra_largest_free(&ra), size);
			} else {
				assert_int_equal(ra.nallocs, 2);
				assert_int_equal(nvd_ra_largest_free(&ra), 6 * PAGE);
				/* One piece again: the whole hole is one allocation. */
				assert_int_equal(must_alloc(&ra, 6 * PAGE, 0), a[0]);
				assert_int_equal(ra.nfree, 0);
				assert_int_equal(nvd_ra_free(&ra, a[0]), 0);
				assert_int_equal(nvd_ra_free(&ra, g0), 0);
				assert_int_equal(nvd_ra_free(&ra, g1), 0);
				assert_int_equal(ra.nfree, 1);
				assert_int_equal(nvd_ra_largest_free(&ra), size);
			}
			nvd_ra_fini(&ra);
		}
	}
}

static void double_free_and_interior_free_rejected(void **state)
{
	struct nvd_ra ra;
	uint64_t a, b;

	(void)state;
	assert_int_equal(nvd_ra_init(&ra, 0, MiB), 0);
	a = must_alloc(&ra, 3 * PAGE, 0);
	b = must_alloc(&ra, PAGE, 0);
	assert_int_equal(nvd_ra_free(&ra, a + PAGE), -ENOENT);     /* inside, not a start */
	assert_int_equal(nvd_ra_free(&ra, b + 4 * PAGE), -ENOENT); /* free space */
	assert_int_equal(nvd_ra_free(&ra, UINT64_MAX), -ENOENT);
	assert_int_equal(ra.nallocs, 2);
	assert_int_equal(nvd_ra_free(&ra, a), 0);
	assert_int_equal(nvd_ra_free(&ra, a), -ENOENT);
	assert_int_equal(ra.used, PAGE);
	assert_int_equal(ra.nallocs, 1);
	assert_int_equal(nvd_ra_free(&ra, b), 0);
	assert_int_equal(nvd_ra_free(&ra, b), -ENOENT);
	assert_int_equal(ra.used, 0);
	assert_int_equal(nvd_ra_largest_free(&ra), MiB);
	assert_int_equal(nvd_ra_check(&ra), 0);
	nvd_ra_fini(&ra);
}

static void best_fit_takes_the_smallest_hole_not_the_first(void **state)
{
	struct nvd_ra ra;
	uint64_t h3, h1, a;

	(void)state;
	assert_int_equal(nvd_ra_init(&ra, 0, 16 * PAGE), 0);
	must_alloc(&ra, PAGE, 0);            /* 0 */
	h3 = must_alloc(&ra, 3 * PAGE, 0);   /* 1..3 */
	must_alloc(&ra, PAGE, 0);            /* 4 */
	h1 = must_alloc(&ra, PAGE, 0);       /* 5 */
	must_alloc(&ra, PAGE, 0);            /* 6; tail 7..15 free */
	assert_int_equal(nvd_ra_free(&ra, h3), 0);
	assert_int_equal(nvd_ra_free(&ra, h1), 0);
	/* Holes: 3 pages at 1, 1 page at 5, 9 pages at 7. */
	assert_int_equal(must_alloc(&ra, PAGE, 0), 5 * PAGE);
	assert_int_equal(must_alloc(&ra, 2 * PAGE, 0), PAGE);
	assert_int_equal(must_alloc(&ra, 2 * PAGE, 0), 7 * PAGE);  /* 1-page hole too small */
	assert_int_equal(must_alloc(&ra, PAGE, 0), 3 * PAGE);
	/* Alignment: the 7-page tail at 9 holds 4 pages aligned to 4 pages at 12. */
	assert_int_equal(must_alloc(&ra, 4 * PAGE, 4 * PAGE), 12 * PAGE);
	assert_int_equal(nvd_ra_alloc(&ra, 4 * PAGE, 0, &a), -ENOSPC);
	assert_int_equal(must_alloc(&ra, 3 * PAGE, 0), 9 * PAGE);
	assert_int_equal(ra.used, 16 * PAGE);
	assert_int_equal(nvd_ra_check(&ra), 0);
	nvd_ra_fini(&ra);
}

/* 126 one-page holes that miss a 2-page alignment and one that meets it,
 * at the highest address (last in size order), no bigger range anywhere:
 * the search must go past its scan limit to find the only fit. */
static void only_fit_behind_many_misaligned_holes_is_found(void **state)
{
	struct nvd_ra ra;
	uint64_t a;

	(void)state;
	assert_int_equal(nvd_ra_init(&ra, 0, 256 * PAGE), 0);
	for (unsigned i = 0; i < 256; i++)
		assert_int_equal(must_alloc(&ra, PAGE, 0), i * PAGE);
	for (unsigned i = 1; i < 252; i += 2)
		assert_int_equal(nvd_ra_free(&ra, i * PAGE), 0);
	assert_int_equal(nvd_ra_free(&ra, 254 * PAGE), 0);
	assert_int_equal(ra.nfree, 127);
	assert_int_equal(must_alloc(&ra, PAGE, 2 * PAGE), 254 * PAGE);
	assert_int_equal(nvd_ra_alloc(&ra, PAGE, 2 * PAGE, &a), -ENOSPC);
	/* With a big aligned range present, the search jumps to it. */
	for (unsigned i = 128; i < 160; i += 2)
		assert_int_equal(nvd_ra_free(&ra, i * PAGE), 0);
	assert_int_equal(must_alloc(&ra, PAGE, 2 * PAGE), 128 * PAGE);
	assert_int_equal(nvd_ra_check(&ra), 0);
	nvd_ra_fini(&ra);
}

/* 512 MiB of GART in 4 KiB pages: 131072 live allocations, then freed
 * every other one and the rest backwards.  A linear-time structure would
 * take minutes here. */
static void gart_full_of_pages_fills_and_drains(void **state)
{
	const uint64_t size = 512 * MiB, n = size / PAGE;
	struct nvd_ra ra;
	uint64_t a;

	(void)state;
	assert_int_equal(nvd_ra_init(&ra, 0x40000000, size), 0);
	for (uint64_t i = 0; i < n; i++)
		if (nvd_ra_alloc(&ra, PAGE, PAGE, &a) || a != 0x40000000 + i * PAGE)
			fail_msg("page %" PRIu64 " at 0x%" PRIx64, i, a);
	assert_int_equal(ra.nallocs, n);
	assert_int_equal(nvd_ra_alloc(&ra, PAGE, PAGE, &a), -ENOSPC);
	for (uint64_t i = 0; i < n; i += 2)
		assert_int_equal(nvd_ra_free(&ra, 0x40000000 + i * PAGE), 0);
	assert_int_equal(ra.nfree, n / 2);
	assert_int_equal(nvd_ra_largest_free(&ra), PAGE);
	assert_int_equal(nvd_ra_check(&ra), 0);
	for (uint64_t i = n - 1; i < n; i -= 2)
		assert_int_equal(nvd_ra_free(&ra, 0x40000000 + i * PAGE), 0);
	assert_int_equal(ra.used, 0);
	assert_int_equal(ra.nallocs, 0);
	assert_int_equal(ra.nfree, 1);
	assert_int_equal(nvd_ra_largest_free(&ra), size);
	nvd_ra_fini(&ra);
}

/* ---- randomized run against a shadow ---- */

struct live {
	uint64_t addr, size;
};

struct shadow {
	struct live *v;
	size_t n, cap;
	uint64_t sum;
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t n)
{
	return rnd() % n;
}

/* Index of the first live allocation at or after addr. */
static size_t shadow_lower(const struct shadow *s, uint64_t addr)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void shadow_insert(struct shadow *s, uint64_t addr, uint64_t size)
{
	size_t i = shadow_lower(s, addr);

	if (i > 0 && s->v[i - 1].addr + s->v[i - 1].size > addr)
		fail_msg("0x%" PRIx64 "+0x%" PRIx64 " overlaps 0x%" PRIx64 "+0x%" PRIx64,
			 addr, size, s->v[i - 1].addr, s->v[i - 1].size);
	if (i < s->n && addr + size > s->v[i].addr)
		fail_msg("0x%" PRIx64 "+0x%" PRIx64 " overlaps 0x%" PRIx64 "+0x%" PRIx64,
			 addr, size, s->v[i].addr, s->v[i].size);
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		assert_non_null(s->v);
	}
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
	s->v[i] = (struct live){ addr, size };
	s->n++;
	s->sum += size;
}

static void shadow_remove(struct shadow *s, size_t i)
{
	s->sum -= s->v[i].size;
	memmove(&s->v[i], &s->v[i + 1], (s->n - i - 1) * sizeof(*s->v));
	s->n--;
}

/* Does any gap between live allocations hold size bytes at this alignment? */
static int shadow_could_fit(const struct shadow *s, uint64_t base, uint64_t end,
			    uint64_t size, uint64_t align)
{
	uint64_t at = base;

	for (size_t i = 0; i <= s->n; i++) {
		uint64_t gap_end = i < s->n ? s->v[i].addr : end;
		uint64_t pad = (0 - at) & (align - 1);

		if (pad <= gap_end - at && gap_end - at - pad >= size)
			return 1;
		if (i < s->n)
			at = s->v[i].addr + s->v[i].size;
	}
	return 0;
}

static uint64_t shadow_largest_gap(const struct shadow *s, uint64_t base, uint64_t end)
{
	uint64_t at = base, best = 0;

	for (size_t i = 0; i <= s->n; i++) {
		uint64_t gap_end = i < s->n ? s->v[i].addr : end;

		if (gap_end - at > best)
			best = gap_end - at;
		if (i < s->n)
			at = s->v[i].addr + s->v[i].size;
	}
	return best;
}

static uint64_t random_size(void)
{
	uint64_t r = rnd_below(100);

	if (r < 60)
		return 1 + rnd_below(8 * KiB);
	if (r < 90)
		return PAGE * (1 + rnd_below(64));
	if (r < 99)
		return 1 + rnd_below(MiB);
	return 1 + rnd_below(32 * MiB);
}

static uint64_t random_align(void)
{
	uint64_t r = rnd_below(100);

	if (r < 30)
		return rnd_below(2);                 /* 0 or 1 */
	if (r < 95)
		return 1ull << rnd_below(17);        /* up to 64 KiB */
	return 1ull << (17 + rnd_below(11));         /* up to the range size */
}

static void random_ops_match_the_shadow(void **state)
{
	const uint64_t base = 0x3000000000ull + 0x1000, size = 128 * MiB, end = base + size;
	const char *env = getenv("NVD_TEST_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : 0x6e76642d616c6c63ull;
	struct shadow s = { 0 };
	struct nvd_ra ra;
	unsigned enospc = 0, allocs = 0;

	(void)state;
	printf("random_ops_match_the_shadow: seed 0x%016" PRIx64 " (set NVD_TEST_SEED to change)\n", seed);
	rng_state = seed;
	assert_int_equal(nvd_ra_init(&ra, base, size), 0);

	for (unsigned op = 0; op < 100000; op++) {
		if (s.n == 0 || (s.n < 4000 && rnd_below(100) < 55)) {
			uint64_t sz = random_size(), al = random_align(), a = 0;
			int ret = nvd_ra_alloc(&ra, sz, al, &a);

			if (!al)
				al = 1;
			if (ret == -ENOSPC) {
				if (shadow_could_fit(&s, base, end, sz, al))
					fail_msg("op %u: -ENOSPC for 0x%" PRIx64 " align 0x%" PRIx64
						 " but a gap fits", op, sz, al);
				enospc++;
			} else {
				assert_int_equal(ret, 0);
				if (a < base || a > end || sz > end - a)
					fail_msg("op %u: 0x%" PRIx64 "+0x%" PRIx64 " outside the range",
						 op, a, sz);
				if (a & (al - 1))
					fail_msg("op %u: 0x%" PRIx64 " not aligned to 0x%" PRIx64, op, a, al);
				shadow_insert(&s, a, sz);
				assert_int_equal(nvd_ra_size(&ra, a), sz);
				allocs++;
			}
		} else {
			size_t i = rnd_below(s.n);
			struct live l = s.v[i];

			if (l.size > 1 && rnd_below(8) == 0)
				assert_int_equal(nvd_ra_free(&ra, l.addr + 1 + rnd_below(l.size - 1)),
						 -ENOENT);
			assert_int_equal(nvd_ra_free(&ra, l.addr), 0);
			shadow_remove(&s, i);
			if (rnd_below(8) == 0)
				assert_int_equal(nvd_ra_free(&ra, l.addr), -ENOENT);
			assert_int_equal(nvd_ra_size(&ra, l.addr), 0);
		}
		assert_int_equal(ra.used, s.sum);
		assert_int_equal(ra.nallocs, s.n);
		if (op % 5000 == 0) {
			assert_int_equal(nvd_ra_check(&ra), 0);
			assert_int_equal(nvd_ra_largest_free(&ra), shadow_largest_gap(&s, base, end));
		}
	}
	printf("random_ops_match_the_shadow: %u allocations, %u -ENOSPC, %zu live at the end\n",
	       allocs, enospc, s.n);
	/* The run must have exercised both success and exhaustion. */
	assert_true(allocs > 10000);
	assert_true(enospc > 0);

	while (s.n) {
		size_t i = rnd_below(s.n);

		assert_int_equal(nvd_ra_free(&ra, s.v[i].addr), 0);
		shadow_remove(&s, i);
	}
	assert_int_equal(ra.used, 0);
	assert_int_equal(ra.nallocs, 0);
	assert_int_equal(ra.nfree, 1);
	assert_int_equal(nvd_ra_largest_free(&ra), size);
	assert_int_equal(nvd_ra_check(&ra), 0);
	nvd_ra_fini(&ra);
	free(s.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(init_rejects_size_zero_and_end_past_2_64),
		cmocka_unit_test(alloc_free_basic_accounting),
		cmocka_unit_test(alloc_rejects_size_zero_and_non_power_of_two_align),
		cmocka_unit_test(alignment_is_of_the_absolute_address),
		cmocka_unit_test(exhaustion_gives_enospc_and_changes_nothing),
		cmocka_unit_test(coalescing_three_neighbours_in_every_order),
		cmocka_unit_test(double_free_and_interior_free_rejected),
		cmocka_unit_test(best_fit_takes_the_smallest_hole_not_the_first),
		cmocka_unit_test(only_fit_behind_many_misaligned_holes_is_found),
		cmocka_unit_test(gart_full_of_pages_fills_and_drains),
		cmocka_unit_test(random_ops_match_the_shadow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
