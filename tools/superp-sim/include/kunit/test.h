/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal user-space stand-in for KUnit, enough to run the SUPERp engine
 * suites natively (tools/superp-sim). Failures are printed and counted.
 */
#ifndef SUPERP_SHIM_KUNIT_TEST_H
#define SUPERP_SHIM_KUNIT_TEST_H

#include <setjmp.h>
#include "../superp_shim.h"

/* What a case allocated, released when it ends: the memory and how. */
struct superp_shim_res {
	void *data;
	void (*release)(void *data);
};

struct kunit {
	const char *name;
	int failed;
	jmp_buf abort;
	struct superp_shim_res res[64];
	int nres;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(f)		{ .run_case = f, .name = #f }
#define kunit_test_suite(s)	struct kunit_suite *superp_shim_suite = &(s)
#define kunit_test_suites(s)	kunit_test_suite(s)
#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_IMPORT_NS(x)
/*
 * A suite's bool module parameters ask for its long runs (soak=1 under
 * make soak): natively they are cheap, so they are on.
 */
#define module_param(name, type, perm)					\
	static void __attribute__((constructor)) name##_native_on(void)	\
	{								\
		name = true;						\
	}
#define MODULE_PARM_DESC(name, desc)

#define kunit_info(t, fmt, ...)	printf("    # %s: " fmt "\n", (t)->name, ##__VA_ARGS__)
#define kunit_err(t, fmt, ...)	printf("    # %s: " fmt "\n", (t)->name, ##__VA_ARGS__)

#define KUNIT_FAIL_AT(t, what)						\
	do {								\
		(t)->failed++;						\
		printf("    # %s: %s:%d: %s\n", (t)->name, __FILE__,	\
		       __LINE__, what);					\
	} while (0)

#define KUNIT_EXPECT_TRUE_MSG(t, c, fmt, ...)				\
	do {								\
		if (!(c)) {						\
			KUNIT_FAIL_AT(t, #c);				\
			printf("      " fmt "\n", ##__VA_ARGS__);	\
		}							\
	} while (0)
#define KUNIT_EXPECT_TRUE(t, c)	do { if (!(c)) KUNIT_FAIL_AT(t, #c); } while (0)
#define KUNIT_EXPECT_FALSE(t, c) KUNIT_EXPECT_TRUE(t, !(c))
#define KUNIT_EXPECT_EQ(t, a, b)					\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b) {						\
			KUNIT_FAIL_AT(t, #a " == " #b);			\
			printf("      %lld != %lld\n", _a, _b);		\
		}							\
	} while (0)
#define KUNIT_EXPECT_NE(t, a, b)  KUNIT_EXPECT_TRUE(t, (a) != (b))
#define KUNIT_EXPECT_LE(t, a, b)  KUNIT_EXPECT_TRUE(t, (a) <= (b))
#define KUNIT_EXPECT_LT(t, a, b)  KUNIT_EXPECT_TRUE(t, (a) < (b))
#define KUNIT_EXPECT_GT(t, a, b)  KUNIT_EXPECT_TRUE(t, (a) > (b))
#define KUNIT_EXPECT_GE(t, a, b)  KUNIT_EXPECT_TRUE(t, (a) >= (b))
#define KUNIT_EXPECT_NULL(t, p)   KUNIT_EXPECT_TRUE(t, (p) == NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p) KUNIT_EXPECT_TRUE(t, (p) != NULL)
#define KUNIT_EXPECT_STREQ(t, a, b) KUNIT_EXPECT_TRUE(t, !strcmp(a, b))
#define KUNIT_ASSERT_TRUE(t, c)						\
	do {								\
		if (!(c)) {						\
			KUNIT_FAIL_AT(t, #c);				\
			longjmp((t)->abort, 1);				\
		}							\
	} while (0)
#define KUNIT_ASSERT_EQ(t, a, b)  KUNIT_ASSERT_TRUE(t, (a) == (b))
#define KUNIT_ASSERT_NOT_NULL(t, p) KUNIT_ASSERT_TRUE(t, (p) != NULL)
#define KUNIT_ASSERT_NE(t, a, b)  KUNIT_ASSERT_TRUE(t, (a) != (b))
#define KUNIT_ASSERT_GE(t, a, b)  KUNIT_ASSERT_TRUE(t, (a) >= (b))
#define KUNIT_ASSERT_TRUE_MSG(t, c, fmt, ...)				\
	do {								\
		if (!(c)) {						\
			KUNIT_FAIL_AT(t, #c);				\
			printf("      " fmt "\n", ##__VA_ARGS__);	\
			longjmp((t)->abort, 1);				\
		}							\
	} while (0)

/* Keeps @data for release when the case ends; the table is fixed. */
static inline void superp_shim_res_add(struct kunit *t, void *data,
				       void (*release)(void *data))
{
	if (t->nres == ARRAY_SIZE(t->res)) {
		fprintf(stderr, "%s: more than %zu allocations in one case\n",
			t->name, ARRAY_SIZE(t->res));
		abort();
	}
	t->res[t->nres++] = (struct superp_shim_res){ data, release };
}

static inline void *kunit_kzalloc(struct kunit *t, size_t n, int gfp)
{
	void *p = calloc(1, n);

	superp_shim_res_add(t, p, free);
	return p;
}

struct kunit_resource {
	void *data;
	void (*free)(struct kunit_resource *res);
};

typedef int (*kunit_resource_init_t)(struct kunit_resource *, void *);
typedef void (*kunit_resource_free_t)(struct kunit_resource *);

static inline void superp_shim_res_free(void *p)
{
	struct kunit_resource *r = p;

	r->free(r);
	free(r);
}

static inline void *kunit_alloc_resource(struct kunit *t,
					 kunit_resource_init_t init,
					 kunit_resource_free_t fr, int gfp,
					 void *ctx)
{
	struct kunit_resource *r = calloc(1, sizeof(*r));

	r->free = fr;
	init(r, ctx);
	superp_shim_res_add(t, r, superp_shim_res_free);
	return r->data;
}

#endif
