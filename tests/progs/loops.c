/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loops.c: loops with known trip counts, nested and across functions. */
#include <stdio.h>

static volatile unsigned sink;
/* Volatile so the compiler cannot fold the loops away. */
static volatile unsigned n_outer = 100, n_sum = 1000, n_rows = 300, n_cols = 1000;

__attribute__((noinline)) static unsigned sum_to(unsigned n)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++)
      s += i;
   return s;
}

__attribute__((noinline)) static unsigned grid(unsigned rows, unsigned cols)
{
   unsigned s = 0;
   for (unsigned r = 0; r < rows; r++)
      for (unsigned c = 0; c < cols; c++)
         s += r ^ c;
   return s;
}

int main(void)
{
   for (unsigned k = 0; k < n_outer; k++)
      sink += sum_to(n_sum);
   sink += grid(n_rows, n_cols);
   printf("%u\n", sink);
   return 0;
}
