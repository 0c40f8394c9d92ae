/* SPDX-License-Identifier: GPL-2.0-or-later */
/* alloc_mimalloc: blocks from Debian's libmimalloc, through its own names
   (mi_malloc, mi_zalloc, mi_calloc, mi_realloc, mi_free), which the library
   exports as aliases of malloc, calloc, realloc and free: the profiler must
   count them in mimalloc's family and show the names the program called.
   The program counts what it asks for (alloc_count.h) and prints it. */
#include <mimalloc.h>

#include "alloc_count.h"

#define N 20

int main(void)
{
   char* blocks[N];
   for (int i = 0; i < N; i++) {
      size_t n = 100 + 10 * i;
      blocks[i] = i % 2 ? mi_malloc(n) : mi_zalloc(n);
      count_block(n, 0, 0);
      blocks[i][0] = 1;
   }
   long* table = mi_calloc(64, sizeof(long));
   count_block(64 * sizeof(long), 0, 0);
   table = mi_realloc(table, 128 * sizeof(long));
   count_block(128 * sizeof(long), 64 * sizeof(long), 1);
   table[127] = 1;
   for (int i = 0; i < N; i++) {
      mi_free(blocks[i]);
      count_free(100 + 10 * i);
   }
   mi_free(table);
   count_free(128 * sizeof(long));
   return write_count();
}
