// SPDX-License-Identifier: GPL-2.0
/*
 * The stack depot's frame rule, one signed 32-bit offset from an anchor
 * (lib/stackdepot.c, stackdepot-compact/0001), against the two rules it
 * replaced, written here as they were posted:
 *
 *   x86-64: a frame whose upper 32 bits are all ones is stored as its
 *           lower 32 bits, and given back by setting them again;
 *   arm64:  a frame is stored as a signed 32-bit offset from the runtime
 *           _text, when it fits.
 *
 * For N frames per architecture (default 10 million; near the anchor, at
 * and across its 2 GiB bounds, and anywhere), each with a fresh KASLR-like
 * _text on arm64, both rules must compress the same frames and give them
 * back, and the payloads must be the same on arm64 and differ by bit 31 on
 * x86-64 (an anchor 2 GiB above the old rule's zero).  Exits 1 on the first
 * difference.
 *
 * cc -O2 -o anchor-fuzz scripts/stackdepot/anchor-fuzz.c && ./anchor-fuzz
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define X86_ANCHOR	0xffffffff80000000ULL	/* __START_KERNEL_map */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

/* The new rule: lib/stackdepot.c */
static bool anchor_compress(uint64_t anchor, uint64_t frame, uint32_t *payload)
{
	int64_t offset = (int64_t)(frame - anchor);

	if (offset != (int32_t)offset)
		return false;
	*payload = (uint32_t)offset;
	return true;
}

static uint64_t anchor_decompress(uint64_t anchor, uint32_t payload)
{
	return anchor + (uint64_t)(int64_t)(int32_t)payload;
}

/* The posted x86-64 rule */
static bool x86_compress(uint64_t frame, uint32_t *payload)
{
	if ((frame >> 32) != 0xffffffffULL)
		return false;
	*payload = (uint32_t)frame;
	return true;
}

/* The posted arm64 rule, by bounds rather than by a cast */
static bool arm64_compress(uint64_t text, uint64_t frame, uint32_t *payload)
{
	bool fits = frame >= text ? frame - text <= 0x7fffffffULL :
				    text - frame <= 0x80000000ULL;

	if (!fits)
		return false;
	*payload = (uint32_t)(frame - text);
	return true;
}

/* A frame near @anchor, at or across its bounds, or anywhere. */
static uint64_t pick_frame(uint64_t anchor)
{
	uint64_t r = next();

	switch (r % 4) {
	case 0:	/* within 3 GiB */
		return anchor + (next() % (6ULL << 30)) - (3ULL << 30);
	case 1:	/* at a bound, off by a little */
		return anchor + (r & 4 ? 0x80000000ULL : -0x80000000ULL) +
		       (next() % 64) - 32;
	case 2:	/* the top of the address space, where x86-64 text lives */
		return 0xfffffffe00000000ULL + (next() % (8ULL << 30));
	default:
		return next();
	}
}

static int fail(const char *arch, uint64_t frame, uint64_t anchor,
		const char *what)
{
	printf("FAIL %s: frame %#" PRIx64 ", anchor %#" PRIx64 ": %s\n",
	       arch, frame, anchor, what);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000;
	unsigned long i, x86_in = 0, arm64_in = 0;

	for (i = 0; i < n; i++) {
		uint64_t frame = pick_frame(X86_ANCHOR);
		uint32_t p_old = 0, p_new = 0;
		bool old = x86_compress(frame, &p_old);
		bool new = anchor_compress(X86_ANCHOR, frame, &p_new);

		if (old != new)
			return fail("x86-64", frame, X86_ANCHOR, "compressed by one rule only");
		if (new && anchor_decompress(X86_ANCHOR, p_new) != frame)
			return fail("x86-64", frame, X86_ANCHOR, "not given back");
		if (new && p_new != (p_old ^ 0x80000000U))
			return fail("x86-64", frame, X86_ANCHOR, "payloads differ beyond bit 31");
		x86_in += new;
	}
	for (i = 0; i < n; i++) {
		/* arm64 KASLR: 2 MiB-aligned in the upper half of the vmalloc area */
		uint64_t text = 0xffff800080000000ULL + ((next() % (1ULL << 20)) << 21);
		uint64_t frame = pick_frame(text);
		uint32_t p_old = 0, p_new = 0;
		bool old = arm64_compress(text, frame, &p_old);
		bool new = anchor_compress(text, frame, &p_new);

		if (old != new)
			return fail("arm64", frame, text, "compressed by one rule only");
		if (new && anchor_decompress(text, p_new) != frame)
			return fail("arm64", frame, text, "not given back");
		if (new && p_new != p_old)
			return fail("arm64", frame, text, "payloads differ");
		arm64_in += new;
	}
	printf("x86-64: %lu frames, %lu compressed, the same by both rules, "
	       "payloads differing in bit 31 only\n", n, x86_in);
	printf("arm64: %lu frames, %lu compressed, the same by both rules, "
	       "payloads the same\n", n, arm64_in);
	return 0;
}
