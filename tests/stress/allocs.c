/* SPDX-License-Identifier: GPL-2.0-or-later */
/* allocs.c: argv[1] allocations (1,000,000 by default) from four sites:
   malloc, calloc, realloc growing a block and C++-style small blocks,
   each freed after a while by way of a ring of 4096 live blocks; the
   last 100 stay live at the end. */
#include <stdlib.h>

#define RING 4096

static void* ring[RING];

__attribute__((noinline)) static void* small(unsigned i) { return malloc(8 + i % 24); }

int main(int argc, char** argv)
{
   unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
   for (unsigned long i = 0; i < n; i++) {
      unsigned slot = (unsigned)(i % RING);
      free(ring[slot]);
      unsigned char* p;
      switch (i % 4) {
         case 0:  p = malloc(16 + i % 200); break;
         case 1:  p = calloc(1 + i % 7, 12); break;
         case 2:  p = realloc(malloc(10), 40 + i % 100); break;
         default: p = small((unsigned)i); break;
      }
      p[0] = (unsigned char)i;
      ring[slot] = p;
   }
   for (unsigned long i = 100; i < RING; i++) free(ring[i]);
   return 0;
}
