/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -n NETNS for the project's tools, as ip(8) has it.
 */
#ifndef TOOLS_NETNS_H
#define TOOLS_NETNS_H

void netns_enter(const char *name);

#endif /* TOOLS_NETNS_H */
