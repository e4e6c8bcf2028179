// SPDX-License-Identifier: GPL-2.0
/*
 * superp-gen --fuzz: hostile variants of a well-formed frame, reproducible
 * from a seed. The Ethernet header (and VLAN tag) is kept so the frame
 * reaches the receiver's EtherType handler; everything after it is fair
 * game. Most variants stay close to the valid frame (a few bytes flipped,
 * sometimes cut short), so that they get past the first checks and reach
 * the deeper ones; some are random bytes of random length.
 */
#include <stddef.h>
#include <stdint.h>

#include "gen.h"

/* xorshift64*: small, fast, and the same sequence everywhere. */
static uint64_t fuzz_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

void gen_fuzz_seed(uint64_t *state, uint64_t seed)
{
	/* Zero is xorshift's fixed point. */
	*state = seed * 0x9e3779b97f4a7c15ULL + 1;
}

size_t gen_fuzz(uint64_t *state, uint8_t *buf, size_t len, size_t l2len,
		size_t max)
{
	uint64_t r = fuzz_next(state);
	size_t i, n, span;

	if (len <= l2len)
		return len;
	span = len - l2len;
	if (span > 64)
		span = 64;	/* headers live here */

	switch (r % 8) {
	case 0:			/* random bytes, 0..255 of them */
		n = fuzz_next(state) % 256;
		if (l2len + n > max)
			n = max - l2len;
		for (i = 0; i < n; i++)
			buf[l2len + i] = (uint8_t)fuzz_next(state);
		return l2len + n;
	case 1:			/* valid, cut short */
		return l2len + fuzz_next(state) % (len - l2len);
	default:		/* 1..8 bytes of the headers changed */
		n = 1 + fuzz_next(state) % 8;
		for (i = 0; i < n; i++) {
			r = fuzz_next(state);
			buf[l2len + r % span] ^= (uint8_t)(r >> 32 | 1);
		}
		/* and now and then cut short as well */
		if (fuzz_next(state) % 4 == 0)
			return l2len + fuzz_next(state) % (len - l2len);
		return len;
	}
}
