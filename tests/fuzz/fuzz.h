/* What every fuzz target shares: reading its input as a stream of fields,
 * and reporting what an oracle found. */
#ifndef NVD_FUZZ_H
#define NVD_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The input, consumed front to back; past its end every field reads 0. */
struct fuzz_input {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fuzz_u8(struct fuzz_input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

/* Little-endian.  (One byte per statement: the operands of | may be
 * evaluated in any order.) */
static inline uint16_t fuzz_u16(struct fuzz_input *in)
{
	uint16_t lo = fuzz_u8(in);
	return (uint16_t)(lo | fuzz_u8(in) << 8);
}

static inline uint32_t fuzz_u32(struct fuzz_input *in)
{
	uint32_t lo = fuzz_u16(in);
	return lo | (uint32_t)fuzz_u16(in) << 16;
}

static inline uint64_t fuzz_u64(struct fuzz_input *in)
{
	uint64_t lo = fuzz_u32(in);
	return lo | (uint64_t)fuzz_u32(in) << 32;
}

/* Findings go to a copy of stderr taken here, before libFuzzer's
 * -close_fd_mask=2 (tests/fuzz/run) silences the code under test's log
 * lines (its sanitizer reports and own output keep a copy too).  Call from
 * LLVMFuzzerInitialize, which runs before libFuzzer reads its flags. */
void fuzz_report_init(void);
/* Report an oracle finding and abort: libFuzzer keeps the input. */
void fuzz_finding(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
