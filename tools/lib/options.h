/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options sunh and superp both take before their object, as ip(8)
 * has them: -n NETNS, -h, -V and the output options (output.h).
 */
#ifndef TOOLS_OPTIONS_H
#define TOOLS_OPTIONS_H

#include <stdio.h>

/*
 * Takes argv[1] if it is one of those options and returns the arguments
 * taken (1, or 2 for -n NETNS); 0 leaves argv[1] to the tool, -1 is -n
 * without a name. -h calls @usage_to(stdout, 0) and -V prints the
 * version: neither returns.
 */
typedef void usage_fn(FILE *f, int status);
int common_option(int argc, char **argv, usage_fn *usage_to);

#endif /* TOOLS_OPTIONS_H */
