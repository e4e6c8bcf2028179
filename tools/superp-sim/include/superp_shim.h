/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel interfaces the SUPERp engine uses, for a user-space build
 * of the engine and its simulation (tools/superp-sim). Not a general shim.
 */
#ifndef SUPERP_SHIM_H
#define SUPERP_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <linux/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;

#define SMP_CACHE_BYTES		64
#define U32_MAX			((u32)~0U)
#define U64_MAX			((u64)~0ULL)
#define ____cacheline_aligned	__attribute__((__aligned__(SMP_CACHE_BYTES)))
#define EXPORT_SYMBOL_IF_KUNIT(s)
#define EXPORT_SYMBOL_GPL(s)
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define BUILD_BUG_ON(e)		_Static_assert(!(e), #e)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define GFP_KERNEL		0

#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)

#include <asm/byteorder.h>
#define cpu_to_le16(x)		__cpu_to_le16(x)
#define cpu_to_le32(x)		__cpu_to_le32(x)
#define le16_to_cpu(x)		__le16_to_cpu(x)
#define le32_to_cpu(x)		__le32_to_cpu(x)

/* kmalloc() sizes are naturally aligned for cache-line-sized objects */
static inline void *kmalloc(size_t n, int gfp)
{
	(void)gfp;
	return aligned_alloc(SMP_CACHE_BYTES,
			     (n + SMP_CACHE_BYTES - 1) & ~(size_t)(SMP_CACHE_BYTES - 1));
}

static inline void *kzalloc(size_t n, int gfp)
{
	(void)gfp;
	return calloc(1, n);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#define kvzalloc(n, gfp)	kzalloc(n, gfp)
#define kvcalloc(n, m, gfp)	kzalloc((size_t)(n) * (m), gfp)
#define kvfree(p)		kfree(p)

#define PAGE_SIZE		4096UL
#define PAGE_ALIGN(n)		(((n) + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1))
#define is_vmalloc_addr(p)	false

/* what malloc() set aside, as ksize() of a kmalloc()ed block */
static inline size_t ksize(const void *p)
{
	return malloc_usable_size((void *)p);
}

/* Slab caches: the object size, objects from calloc(). */
struct kmem_cache {
	size_t size;
};

static inline struct kmem_cache *kmem_cache_create(const char *name,
						   unsigned int size,
						   unsigned int align,
						   unsigned long flags,
						   void (*ctor)(void *))
{
	struct kmem_cache *k = malloc(sizeof(*k));

	(void)name, (void)align, (void)flags, (void)ctor;
	if (k)
		k->size = size;
	return k;
}

static inline void *kmem_cache_zalloc(struct kmem_cache *k, int gfp)
{
	(void)gfp;
	return calloc(1, k->size);
}

static inline void kmem_cache_free(struct kmem_cache *k, void *p)
{
	(void)k;
	free(p);
}

static inline unsigned int kmem_cache_size(struct kmem_cache *k)
{
	return k->size;
}

static inline void kmem_cache_destroy(struct kmem_cache *k)
{
	free(k);
}

/* The simulator is one thread: a mutex is a marker. */
struct mutex {
	int unused;
};

#define DEFINE_MUTEX(m)		struct mutex m = { 0 }
#define mutex_lock(m)		((void)(m))
#define mutex_unlock(m)		((void)(m))

/* acquire and release, as the kernel's: one thread needs no barrier */
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
/* and this one pairs with it */
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)

#define BITS_PER_LONG		64
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static inline unsigned long __ffs(unsigned long w)
{
	return __builtin_ctzl(w);
}

static inline bool test_bit(unsigned long nr, const unsigned long *a)
{
	return (a[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1;
}

static inline void __set_bit(unsigned long nr, unsigned long *a)
{
	a[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline void __clear_bit(unsigned long nr, unsigned long *a)
{
	a[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

static inline bool __test_and_set_bit(unsigned long nr, unsigned long *a)
{
	bool old = test_bit(nr, a);

	__set_bit(nr, a);
	return old;
}

static inline unsigned long find_next_bit(const unsigned long *a,
					  unsigned long size,
					  unsigned long off)
{
	for (; off < size; off++)
		if (test_bit(off, a))
			return off;
	return size;
}

static inline unsigned long find_next_zero_bit(const unsigned long *a,
					       unsigned long size,
					       unsigned long off)
{
	for (; off < size; off++)
		if (!test_bit(off, a))
			return off;
	return size;
}

static inline unsigned long find_first_zero_bit(const unsigned long *a,
						unsigned long size)
{
	return find_next_zero_bit(a, size, 0);
}

static inline unsigned long find_last_bit(const unsigned long *a,
					  unsigned long size)
{
	unsigned long i = size;

	while (i--)
		if (test_bit(i, a))
			return i;
	return size;
}

static inline void bitmap_zero(unsigned long *a, unsigned int bits)
{
	memset(a, 0, BITS_TO_LONGS(bits) * sizeof(long));
}

static inline void bitmap_clear(unsigned long *a, unsigned int start,
				unsigned int bits)
{
	while (bits--)
		__clear_bit(start++, a);
}

static inline bool bitmap_empty(const unsigned long *a, unsigned int bits)
{
	return find_next_bit(a, bits, 0) == bits;
}

static inline void bitmap_shift_right(unsigned long *dst,
				      const unsigned long *src,
				      unsigned int n, unsigned int bits)
{
	unsigned int i;

	for (i = 0; i < bits; i++) {
		if (i + n < bits && test_bit(i + n, src))
			__set_bit(i, dst);
		else
			__clear_bit(i, dst);
	}
}

#endif /* SUPERP_SHIM_H */
