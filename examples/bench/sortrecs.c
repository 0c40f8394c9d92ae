/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sortrecs.c: a benchmark of the example suite (examples/bench/record).
   Sorts records by a key of two fields with the C library's qsort and a
   comparison function of its own (records.c), then checks the order: the
   calls through a function pointer a sort makes. */
#include "records.h"

#include <stdio.h>
#include <stdlib.h>

#define RECORDS 20000

int main(void)
{
   struct record* r = malloc(RECORDS * sizeof *r);
   unsigned       x = 2463534242u;
   for (int i = 0; i < RECORDS; i++) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      r[i].group = x % 97;
      r[i].value = x >> 7;
      r[i].id = i;
   }
   qsort(r, RECORDS, sizeof *r, compare_records);
   int sorted = 1;
   for (int i = 1; i < RECORDS; i++)
      sorted &= compare_records(&r[i - 1], &r[i]) <= 0;
   printf("%d records, %s\n", RECORDS, sorted ? "sorted" : "NOT sorted");
   free(r);
   return sorted ? 0 : 1;
}
