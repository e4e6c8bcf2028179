/* SPDX-License-Identifier: GPL-2.0 */
/*
 * superp tool: what superp.c (commands) and mesh.c (mesh files) share.
 */
#ifndef SUPERP_TOOL_H
#define SUPERP_TOOL_H

#include <stdbool.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

extern char buf[16384];

struct nlmsghdr *msg_start(uint8_t cmd, uint16_t flags);

/* A request that fails dies with the errno, extack and bad parameter. */
void request_or_die(struct nlmsghdr *nlh, mnl_cb_t cb, void *arg,
		    const char *what);
int request_errno(struct nlmsghdr *nlh, mnl_cb_t cb, void *arg,
		  const char *what);

/*
 * Connection settings the command line and the mesh file share:
 * "tclass N", "ordered rx|tx|both|none", "lite", "PARAM VALUE". Returns
 * the number of arguments used (0: not a setting).
 */
struct conn_settings {
	int tclass;			/* -1: not given */
	int ordered;			/* -1: not given */
	bool lite;			/* SUPERp-lite */
	int nparams;
	struct { uint16_t attr; uint64_t value; } params[32];
};

int parse_setting(struct conn_settings *s, int argc, char **argv);
void put_settings(struct nlmsghdr *nlh, const struct conn_settings *s);

/* The device's netdev name and pdl_conn_per_xpu; picks the only device
 * when *dev is NULL.
 */
void dev_info(const char **dev, char *ifname, uint32_t *conn_per_xpu);

int cmd_mesh(int argc, char **argv);

#endif /* SUPERP_TOOL_H */
