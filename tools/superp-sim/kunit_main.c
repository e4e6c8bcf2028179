// SPDX-License-Identifier: GPL-2.0
/* Runs the one KUnit suite linked in, natively (see include/kunit/test.h). */
#include <kunit/test.h>

extern struct kunit_suite *superp_shim_suite;

/* static: kept across the longjmp() of a failed assertion */
static int n, bad;

int main(void)
{
	struct kunit_case *tc;

	printf("# suite %s\n", superp_shim_suite->name);
	for (tc = superp_shim_suite->test_cases; tc->run_case; tc++) {
		struct kunit t = { .name = tc->name };

		if (!setjmp(t.abort))
			tc->run_case(&t);
		while (t.nres--)
			t.res[t.nres].release(t.res[t.nres].data);
		n++;
		bad += !!t.failed;
		printf("%s %d %s\n", t.failed ? "not ok" : "ok", n, tc->name);
	}
	printf("# %d passed, %d failed\n", n - bad, bad);
	return bad ? 1 : 0;
}
