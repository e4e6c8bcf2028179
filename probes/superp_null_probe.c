// SPDX-License-Identifier: GPL-2.0
/*
 * Not a KUnit suite: a test helper that makes SUPERp traffic without QPs.
 * Loading it submits `count` No-op transactions on connection `lcid` of
 * device `dev` and waits until all of them complete; the load succeeds
 * only if every one completed with status 0 within `timeout_ms`. On a
 * timeout the connection is aborted, so that every transaction completes
 * (with an error) before the module's cookie goes away. Used by
 * selftests/conn/wire.sh.
 *
 * Locking: completions run under the connection's lock, in softirq; they
 * only count and wake the loader.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_tx.h"

static char *dev = "superp0";
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "superp device");
static ushort lcid;
module_param(lcid, ushort, 0444);
MODULE_PARM_DESC(lcid, "local CID of the connection");
static uint count = 1;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "No-op transactions to submit");
static uint timeout_ms = 60000;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "time for all of them to complete");

static atomic_t probe_ok = ATOMIC_INIT(0);
static atomic_t probe_failed = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(probe_wait);

static void probe_complete(struct superp_xact_src *src, int status, u32 err)
{
	atomic_inc(status ? &probe_failed : &probe_ok);
	wake_up(&probe_wait);
}

static const struct superp_xact_ops probe_ops = {
	.complete = probe_complete,
};

static struct superp_xact_src probe_src = { .ops = &probe_ops };

static unsigned int probe_done(void)
{
	return atomic_read(&probe_ok) + atomic_read(&probe_failed);
}

/* Submit @count No-ops, waiting while the windows are full. */
static unsigned int probe_submit(struct superp_dev *sdev, unsigned long until)
{
	struct superp_xact x = {
		.opcode = SUPERP_OP_NOOP,
		.npkts = 1,
		.cookie = &probe_src,
	};
	unsigned int n;
	int err;

	for (n = 0; n < count; ) {
		err = superp_conn_submit(sdev, lcid, &x);
		if (!err) {
			n++;
			continue;
		}
		if (err != -EAGAIN || time_after(jiffies, until)) {
			pr_err("superp_null_probe: submit %u of %u: %d\n", n + 1,
			       count, err);
			break;
		}
		usleep_range(200, 1000);
	}
	return n;
}

static int __init probe_init(void)
{
	unsigned long until = jiffies + msecs_to_jiffies(timeout_ms);
	struct ib_device *ibdev;
	struct superp_dev *sdev;
	unsigned int n;
	long left;
	int ret = 0;

	ibdev = ib_device_get_by_name(dev, RDMA_DRIVER_UNKNOWN);
	if (!ibdev)
		return -ENODEV;
	if (strncmp(dev_name(&ibdev->dev), SUPERP_LINK_TYPE,
		    strlen(SUPERP_LINK_TYPE))) {
		ib_device_put(ibdev);
		return -ENODEV;
	}
	sdev = to_sdev(ibdev);
	n = probe_submit(sdev, until);
	left = max_t(long, until - jiffies, 1);
	if (!wait_event_timeout(probe_wait, probe_done() == n, left)) {
		pr_err("superp_null_probe: %u of %u complete, aborting\n",
		       probe_done(), n);
		superp_conn_abort_cid(sdev, lcid);
		ret = -ETIMEDOUT;
	}
	/* Nothing may keep our cookie once we return. */
	wait_event(probe_wait, probe_done() == n);
	ib_device_put(ibdev);
	pr_info("superp_null_probe: %s lcid %u: %u submitted, %d completed, %d failed\n",
		dev, lcid, n, atomic_read(&probe_ok),
		atomic_read(&probe_failed));
	if (!ret && (n < count || atomic_read(&probe_failed)))
		ret = -EIO;
	return ret;
}

static void __exit probe_exit(void)
{
}

module_init(probe_init);
module_exit(probe_exit);

MODULE_DESCRIPTION("Submits No-op SUPERp transactions (a test helper)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
