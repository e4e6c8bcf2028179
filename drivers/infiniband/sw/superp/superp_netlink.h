/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: the "superp" generic netlink family (superp_netlink.c).
 */
#ifndef SUPERP_NETLINK_H
#define SUPERP_NETLINK_H

#include "superp_conn_table.h"

int superp_netlink_init(void);
void superp_netlink_exit(void);
void superp_netlink_event(struct superp_conn_entry *e, enum superp_event ev,
			  u32 value);

#endif /* SUPERP_NETLINK_H */
