// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-check only: a KUnit suite with one passing and one failing
 * case. selftests/harness/selfcheck.sh expects a run of it to go red; the
 * normal test discovery leaves harness_selfcheck_* modules out.
 */
#include <kunit/test.h>

static void harness_selfcheck_passes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1 + 1, 2);
}

static void harness_selfcheck_fails_on_purpose(struct kunit *test)
{
	KUNIT_EXPECT_EQ_MSG(test, 1 + 1, 3, "deliberate failure");
}

static struct kunit_case harness_selfcheck_cases[] = {
	KUNIT_CASE(harness_selfcheck_passes),
	KUNIT_CASE(harness_selfcheck_fails_on_purpose),
	{}
};

static struct kunit_suite harness_selfcheck_suite = {
	.name = "harness_selfcheck",
	.test_cases = harness_selfcheck_cases,
};

kunit_test_suite(harness_selfcheck_suite);

MODULE_DESCRIPTION("SUPERp test harness self-check (fails on purpose)");
MODULE_LICENSE("GPL");
