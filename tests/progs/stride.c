/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stride.c: sweeps over a 16 MiB buffer, twice the simulated LL, one
   byte per 64-byte line, so nearly every access misses every level. */
#include <stdio.h>
#include <stdlib.h>

enum { SIZE = 16 << 20, STRIDE = 64 };

__attribute__((noinline)) static unsigned sweep(volatile unsigned char* p)
{
   unsigned s = 0;
   for (unsigned i = 0; i < SIZE; i += STRIDE) s += p[i];
   return s;
}

__attribute__((noinline)) static void fill(unsigned char* p)
{
   for (unsigned i = 0; i < SIZE; i += STRIDE) p[i] = (unsigned char)i;
}

int main(void)
{
   unsigned char* buf = malloc(SIZE);
   if (!buf) return 1;
   fill(buf);
   unsigned s = sweep(buf) + sweep(buf);
   printf("%u\n", s);
   free(buf);
   return 0;
}
