// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: address vectors, for a QP's primary path (modify_qp) and for
 * address handles. RoCE v2 style: the GRH is required, its source GID
 * must be an entry of the port's GID table (the core resolves it into
 * sgid_attr; we check that it is ours), and the destination GID is turned
 * into the IP address the data path maps to a connection.
 *
 * Address handles keep the resolved AV beside the attributes as created
 * (for query_ah); only kernel consumers create them.
 *
 * No locks: an AV is built by its creator and read-only afterwards.
 */
#include <kunit/visibility.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>

#include "superp.h"
#include "superp_ah.h"
#include "superp_qp.h"

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
	if (!((type == RDMA_NETWORK_IPV4 && new.daddr.sa.sa_family == AF_INET) ||
	      (type == RDMA_NETWORK_IPV6 && new.daddr.sa.sa_family == AF_INET6))) {
		ibdev_dbg(&sdev->ibdev, "AV: destination %pI6 of another family than GID %u\n",
			  grh->dgid.raw, grh->sgid_index);
		return -EINVAL;
	}
	new.dgid = grh->dgid;
	new.flow_label = grh->flow_label;
	new.sgid_index = grh->sgid_index;
	new.hop_limit = grh->hop_limit;
	new.traffic_class = grh->traffic_class;
	new.network_type = type;
	*av = new;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_av_from_attr);

/*
 * Address handles: kernel consumers only (user space needs them for UD,
 * which does not exist yet). Any context: create may be called atomic
 * (without RDMA_CREATE_AH_SLEEPABLE), and nothing here sleeps.
 */
int superp_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		     struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibah->device);
	struct superp_ah *ah = to_sah(ibah);
	int err;

	if (udata) {
		ibdev_dbg(ibah->device, "create_ah: no user AHs (no UD QPs yet)\n");
		return -EOPNOTSUPP;
	}
	err = superp_av_from_attr(sdev, init->ah_attr, &ah->av);
	if (err)
		return err;
	if (atomic_inc_return(&sdev->ah_count) > SUPERP_MAX_AH) {
		atomic_dec(&sdev->ah_count);
		return -ENOMEM;
	}
	ah->attr = *init->ah_attr;
	ah->attr.grh.sgid_attr = NULL;	/* the core holds it for the AH */
	return 0;
}

int superp_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = to_sah(ibah)->attr;
	return 0;
}

int superp_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	atomic_dec(&to_sdev(ibah->device)->ah_count);
	return 0;
}
