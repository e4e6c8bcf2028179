/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -n NETNS for the project's tools, as ip(8) has it.
 */
#ifndef TOOLS_NETNS_H
#define TOOLS_NETNS_H

void netns_enter(const char *name);
/*
 * argv[1] is "-n" or "-netns": enter the namespace argv[2] names and
 * return 2 (the arguments taken); -1 without argv[2]; 0 for another
 * argument.
 */
int netns_option(int argc, char **argv);

#endif /* TOOLS_NETNS_H */
