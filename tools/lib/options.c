// SPDX-License-Identifier: GPL-2.0
/*
 * The global options of the project's tools (see options.h), parsed in one
 * place so that sunh and superp cannot drift apart.
 */
#include <stdlib.h>
#include <string.h>

#include "genl.h"
#include "netns.h"
#include "options.h"
#include "output.h"

int common_option(int argc, char **argv, usage_fn *usage_to)
{
	const char *arg = argv[1];

	if (!strcmp(arg, "-h") || !strcmp(arg, "-help") ||
	    !strcmp(arg, "--help"))
		usage_to(stdout, 0);
	if (!strcmp(arg, "-V") || !strcmp(arg, "-version") ||
	    !strcmp(arg, "--version")) {
		printf("%s (SUPERp) %s\n", progname, SUPERP_VERSION);
		exit(0);
	}
	if (output_option(arg))
		return 1;
	return netns_option(argc, argv);
}
