/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dumps.c: three phases separated by client requests: phase_a, then a
   dump labelled "after a", then phase_b, then zeroing, then phase_c. */
#include <stdio.h>
#include "vgprof.h"

/* Volatile so the compiler cannot fold the loops away. */
static volatile unsigned n_a = 30000, n_b = 20000, n_c = 10000;

__attribute__((noinline)) static unsigned phase_a(unsigned n)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) s += i ^ 5;
   return s;
}

__attribute__((noinline)) static unsigned phase_b(unsigned n)
{
   unsigned s = 1;
   for (unsigned i = 0; i < n; i++) s = s * 3 + i;
   return s;
}

__attribute__((noinline)) static unsigned phase_c(unsigned n)
{
   unsigned s = 2;
   for (unsigned i = 0; i < n; i++) s += s >> 3 ^ i;
   return s;
}

int main(void)
{
   unsigned a = phase_a(n_a);
   VGPROF_DUMP_STATS_AT("after a");
   unsigned b = phase_b(n_b);
   VGPROF_ZERO_STATS;
   unsigned c = phase_c(n_c);
   printf("%u %u %u\n", a, b, c);
   return 0;
}
