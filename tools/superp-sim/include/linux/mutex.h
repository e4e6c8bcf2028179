/* SPDX-License-Identifier: GPL-2.0 */
#include "../superp_shim.h"
