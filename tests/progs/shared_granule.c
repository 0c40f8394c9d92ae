/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shared_granule.c: two 4-byte globals and 8 bytes outside any symbol in
   one 16-byte granule, read in turn N times each (N, the argument, 100000
   by default).  A data object's caches hold one entry per granule (two
   ways); the reads alternating between the granule's three objects must
   still be booked each to the object it touched: N reads to each global. */
#include <stdlib.h>

__asm__(".data\n"
        ".balign 64\n"
        ".globl granule_a\n"
        ".type granule_a, @object\n"
        ".size granule_a, 4\n"
        "granule_a: .long 1\n"
        ".globl granule_b\n"
        ".type granule_b, @object\n"
        ".size granule_b, 4\n"
        "granule_b: .long 2\n"
        ".long 3, 4\n"   /* in the granule, in no symbol */
        ".text\n");
extern volatile int granule_a, granule_b;

int main(int argc, char** argv)
{
   long n = argc > 1 ? atol(argv[1]) : 100000;
   volatile int* after = &granule_b + 1;
   long s = 0;
   for (long i = 0; i < n; i++) {
      s += granule_a;
      s += after[0];
      s += granule_b;
   }
   return s == n * 6 ? 0 : 1;
}
