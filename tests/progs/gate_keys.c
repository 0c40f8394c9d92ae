/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gate_keys.c: gate_sort's comparison function, in the base build. */
#include "gate_keys.h"

int compare_keys(const void* a, const void* b)
{
   const unsigned x = *(const unsigned*)a, y = *(const unsigned*)b;
   return (x > y) - (x < y);
}
