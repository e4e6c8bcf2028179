// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: address vectors, for a QP's primary path (modify_qp) and for
 * address handles. RoCE v2 style: the GRH is required, its source GID
 * must be an entry of the port's GID table (the core resolves it into
 * sgid_attr; we check that it is ours), and the destination GID is turned
 * into the IP address the data path maps to a connection.
 *
 * Address handles keep the resolved AV beside the attributes as created
 * (for query_ah). A user AH also gets a number in the device's AH table,
 * which its process's UD send WQEs name (include/uapi/rdma/superp-abi.h).
 *
 * Locking: an AV is built by its creator and read-only afterwards. The
 * AH table's xarray lock is innermost and taken with interrupts off (the
 * send queue's lock is held when a WQE is copied): destroy_ah erases an
 * AH under it before the core frees it, and a user send WQE's AV is
 * copied under it (superp_uqp.c), so a copy never reads a freed AH.
 */
#include <kunit/visibility.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <net/sunh.h>

#include "superp.h"
#include "superp_ah.h"
#include "superp_qp.h"

/* Is @gid one of @sdev's RoCE v2 GIDs (an address of this node)? */
static bool superp_gid_ours(struct superp_dev *sdev, const union ib_gid *gid)
{
	const struct ib_gid_attr *attr;

	attr = rdma_find_gid_by_port(&sdev->ibdev, gid,
				     IB_GID_TYPE_ROCE_UDP_ENCAP, SUPERP_PORT,
				     NULL);
	if (IS_ERR(attr))
		return false;
	rdma_put_gid_attr(attr);
	return true;
}

/**
 * superp_av_from_attr - check @attr and resolve it into @av
 * @sdev: the device
 * @attr: the consumer's address, with grh.sgid_attr filled by the core
 * @av: the result, written only on success
 *
 * Return: 0, or -EINVAL naming the problem in the debug log.
 */
int superp_av_from_attr(struct superp_dev *sdev,
			const struct rdma_ah_attr *attr, struct superp_av *av)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid;
	enum rdma_network_type type;
	struct superp_av new = {};

	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(attr) & IB_AH_GRH) ||
	    rdma_ah_get_port_num(attr) != SUPERP_PORT) {
		ibdev_dbg(&sdev->ibdev, "AV: RoCE addresses with a GRH on port 1 only\n");
		return -EINVAL;
	}
	grh = rdma_ah_read_grh(attr);
	sgid = grh->sgid_attr;
	if (!sgid || sgid->device != &sdev->ibdev ||
	    sgid->index != grh->sgid_index) {
		ibdev_dbg(&sdev->ibdev, "AV: GID index %u not in the GID table\n",
			  grh->sgid_index);
		return -EINVAL;
	}
	type = rdma_gid_attr_network_type(sgid);
	/* The whole union: an IPv6 address is larger than a sockaddr. */
	rdma_gid2ip((struct sockaddr *)&new.daddr, &grh->dgid);
	rdma_gid2ip((struct sockaddr *)&new.saddr, &sgid->gid);
	if (!((type == RDMA_NETWORK_IPV4 && new.daddr.sa.sa_family == AF_INET) ||
	      (type == RDMA_NETWORK_IPV6 && new.daddr.sa.sa_family == AF_INET6))) {
		ibdev_dbg(&sdev->ibdev, "AV: destination %pI6 of another family than GID %u\n",
			  grh->dgid.raw, grh->sgid_index);
		return -EINVAL;
	}
	new.dgid = grh->dgid;
	new.local = superp_gid_ours(sdev, &grh->dgid);
	new.flow_label = grh->flow_label;
	new.sgid_index = grh->sgid_index;
	new.hop_limit = grh->hop_limit;
	new.traffic_class = grh->traffic_class;
	new.network_type = type;
	*av = new;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_av_from_attr);

/* @ip's SUNH address, when it lies in @s (of the same family). */
static bool superp_sa_sunh(const struct sunh_subnet *s,
			   const struct sockaddr *ip, u16 *addr)
{
	if (ip->sa_family == AF_INET && s->family == AF_INET)
		return !sunh_ip4_to_addr(s, ((struct sockaddr_in *)ip)->sin_addr.s_addr,
					 addr);
	if (ip->sa_family == AF_INET6 && s->family == AF_INET6)
		return !sunh_ip6_to_addr(s, &((struct sockaddr_in6 *)ip)->sin6_addr,
					 addr);
	return false;
}

/**
 * superp_av_sunh - the SUNH addresses of @av's ends
 * @sdev: the device
 * @av: the address vector
 * @daddr: its destination's SUNH address
 * @saddr: NULL, or its source's
 *
 * SUNH carries the packets toward a destination IP address in the
 * namespace's SUPERp subnet (`sunh subnet`), UDP those toward any other.
 *
 * Return: whether the destination (and, with @saddr, the source) lies in
 * the subnet.
 */
bool superp_av_sunh(struct superp_dev *sdev, const struct superp_av *av,
		    u16 *daddr, u16 *saddr)
{
	struct sunh_subnet s;

	if (sunh_subnet_get(dev_net(sdev->ndev), &s))
		return false;
	return superp_sa_sunh(&s, &av->daddr.sa, daddr) &&
	       (!saddr || superp_sa_sunh(&s, &av->saddr.sa, saddr));
}

/*
 * The AH table. Initialised here, not beside the QP table: xa_init_flags()
 * is inline, so xarrays set up in one file share a lock class, and the
 * QP table's lock is taken with interrupts on while this one's never is.
 */
void superp_ah_table_init(struct superp_dev *sdev)
{
	xa_init_flags(&sdev->ahs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
}

/* A user AH's number, in the AH table and in the response. */
static int superp_ah_publish(struct superp_dev *sdev, struct superp_ah *ah,
			     struct ib_udata *udata)
{
	struct superp_create_ah_resp resp = {};
	int err;

	err = xa_alloc_irq(&sdev->ahs, &ah->num, ah,
			   XA_LIMIT(1, SUPERP_MAX_AH), GFP_KERNEL);
	if (err)
		return err;
	resp.ah_num = ah->num;
	err = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (err) {
		xa_erase_irq(&sdev->ahs, ah->num);
		ah->num = 0;
	}
	return err;
}

/*
 * Any context for kernel AHs: create may be called atomic (without
 * RDMA_CREATE_AH_SLEEPABLE), and nothing here sleeps but a user AH's.
 */
int superp_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		     struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibah->device);
	struct superp_ah *ah = to_sah(ibah);
	int err;

	err = superp_av_from_attr(sdev, init->ah_attr, &ah->av);
	if (err)
		return err;
	if (atomic_inc_return(&sdev->ah_count) > SUPERP_MAX_AH) {
		atomic_dec(&sdev->ah_count);
		return -ENOMEM;
	}
	ah->attr = *init->ah_attr;
	ah->attr.grh.sgid_attr = NULL;	/* the core holds it for the AH */
	if (udata) {
		err = superp_ah_publish(sdev, ah, udata);
		if (err)
			atomic_dec(&sdev->ah_count);
	}
	return err;
}

int superp_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = to_sah(ibah)->attr;
	return 0;
}

int superp_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct superp_dev *sdev = to_sdev(ibah->device);
	struct superp_ah *ah = to_sah(ibah);
	unsigned long irqflags;

	/* May be called with interrupts off (no RDMA_DESTROY_AH_SLEEPABLE). */
	if (ah->num) {
		xa_lock_irqsave(&sdev->ahs, irqflags);
		__xa_erase(&sdev->ahs, ah->num);
		xa_unlock_irqrestore(&sdev->ahs, irqflags);
	}
	atomic_dec(&sdev->ah_count);
	return 0;
}
