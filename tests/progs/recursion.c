/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recursion.c: direct and mutual recursion. */
#include <stdio.h>

/* Volatile so the compiler cannot compute the results at build time. */
static volatile unsigned n_fib = 22, n_even = 5001;

__attribute__((noinline)) static unsigned long fib(unsigned n)
{
   return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int is_odd(unsigned n);
__attribute__((noinline)) static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
__attribute__((noinline)) static int is_odd(unsigned n)  { return n == 0 ? 0 : is_even(n - 1); }

int main(void)
{
   unsigned long f = fib(n_fib);
   int e = is_even(n_even);
   printf("%lu %d\n", f, e);
   return 0;
}
