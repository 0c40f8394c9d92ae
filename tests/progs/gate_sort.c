/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gate_sort: one benchmark of the CI gate's tests, in two builds: the
   base, whose comparison function is in gate_keys.c, and with -DKEYS_HERE
   one where the same function moved into this file: a move `vgprof diff`
   must follow, and must not fail on. */
#include "gate_keys.h"

#include <stdio.h>
#include <stdlib.h>

#define ITEMS 2000

#ifdef KEYS_HERE
int compare_keys(const void* a, const void* b)
{
   const unsigned x = *(const unsigned*)a, y = *(const unsigned*)b;
   return (x > y) - (x < y);
}
#endif

int main(void)
{
   static unsigned items[ITEMS];
   unsigned        x = 12345;
   for (int i = 0; i < ITEMS; i++) {
      x = x * 1103515245u + 12345u;
      items[i] = x >> 8;
   }
   qsort(items, ITEMS, sizeof items[0], compare_keys);
   printf("%u .. %u\n", items[0], items[ITEMS - 1]);
   return 0;
}
