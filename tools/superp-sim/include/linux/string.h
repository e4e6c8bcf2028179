/* SPDX-License-Identifier: GPL-2.0 */
#include_next <linux/string.h>
