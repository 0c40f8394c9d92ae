/* SPDX-License-Identifier: GPL-2.0-or-later */
/* branchy.c: a loop whose branch depends on pseudo-random data (hard to
   predict) beside one that alternates regularly (easy), and a switch
   compiled to a jump table (indirect branches). */
#include <stdio.h>

static volatile unsigned n = 40000;

__attribute__((noinline)) static unsigned random_branches(void)
{
   unsigned x = 12345, s = 0;
   for (unsigned i = 0; i < n; i++) {
      x = x * 1103515245u + 12345u;
      if ((x >> 16) & 1) s += i; else s ^= i;
   }
   return s;
}

__attribute__((noinline)) static unsigned regular_branches(void)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) {
      if (i & 1) s += i; else s ^= i;
   }
   return s;
}

__attribute__((noinline)) static unsigned dispatch(unsigned op, unsigned v)
{
   switch (op) {
      case 0: return v + 1;
      case 1: return v * 3;
      case 2: return v ^ 0x5a;
      case 3: return v >> 1;
      case 4: return v - 7;
      case 5: return v << 2;
      case 6: return ~v;
      default: return v;
   }
}

__attribute__((noinline)) static unsigned jump_table(void)
{
   unsigned x = 777, v = 1;
   for (unsigned i = 0; i < n; i++) {
      x = x * 1103515245u + 12345u;
      v = dispatch((x >> 13) % 7, v);
   }
   return v;
}

int main(void)
{
   printf("%u %u %u\n", random_branches(), regular_branches(), jump_table());
   return 0;
}
