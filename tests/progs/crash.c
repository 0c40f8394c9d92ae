/* SPDX-License-Identifier: GPL-2.0-or-later */
/* crash.c: does some work, then dies of SIGSEGV. */
#include <stdio.h>

/* Volatile so the compiler cannot fold the loop away. */
static volatile unsigned n_spin = 20000;

__attribute__((noinline)) static unsigned spin(unsigned n)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) s += i * 7;
   return s;
}

int main(void)
{
   volatile int* volatile nowhere = 0;
   printf("%u\n", spin(n_spin));
   fflush(stdout);
   return *nowhere;
}
