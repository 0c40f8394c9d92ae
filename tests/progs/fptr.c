/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fptr.c: calls through a table of function pointers, each entry a
   different number of times. */
#include <stdio.h>

static volatile unsigned rounds = 60;

__attribute__((noinline)) static unsigned op_add(unsigned x) { return x + 3; }
__attribute__((noinline)) static unsigned op_mul(unsigned x) { return x * 5; }
__attribute__((noinline)) static unsigned op_xor(unsigned x) { return x ^ 0x55; }
__attribute__((noinline)) static unsigned op_shift(unsigned x) { return (x << 1) | (x >> 31); }

static unsigned (*const table[4])(unsigned) = {op_add, op_mul, op_xor, op_shift};

int main(void)
{
   unsigned x = 1;
   /* Entry k is called for every i with i % (k + 1) == 0. */
   for (unsigned i = 0; i < rounds; i++)
      for (unsigned k = 0; k < 4; k++)
         if (i % (k + 1) == 0)
            x = table[k](x);
   printf("%u\n", x);
   return 0;
}
