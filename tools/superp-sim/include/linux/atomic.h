/* SPDX-License-Identifier: GPL-2.0 */
/* atomic_long_t for the native build: GCC builtins, as the kernel's. */
#ifndef SUPERP_SHIM_ATOMIC_H
#define SUPERP_SHIM_ATOMIC_H

typedef struct {
	long counter;
} atomic_long_t;

static inline void atomic_long_set(atomic_long_t *v, long i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline long atomic_long_read(const atomic_long_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline long atomic_long_add_return(long i, atomic_long_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline void atomic_long_sub(long i, atomic_long_t *v)
{
	__atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

#endif
