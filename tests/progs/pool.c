/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pool: a pool allocator that carves its blocks out of one malloc'd chunk
   and tells Valgrind about them with the client requests memcheck and
   massif honour (VALGRIND_MALLOCLIKE_BLOCK, VALGRIND_FREELIKE_BLOCK,
   VALGRIND_RESIZEINPLACE_BLOCK).  Each pool block is a block of its own
   inside the chunk, and what the program writes into it is written to it,
   not to the chunk.  The pool counts its blocks as DHAT counts (a resize
   is one more block of the new size) and the program writes the count with
   write(2), which allocates nothing: 8 bytes are written into each block. */
#include <stdlib.h>
#include <valgrind/valgrind.h>

#include "alloc_count.h"

static char*  chunk;
static size_t used;
static __attribute__((noinline)) char* pool_get(size_t n)
{
   char* p = chunk + used;
   used += (n + 15) & ~(size_t)15;
   VALGRIND_MALLOCLIKE_BLOCK(p, n, 0, 0);
   count_block(n, 0, 0);
   return p;
}

static __attribute__((noinline)) void pool_put(char* p, size_t n)
{
   VALGRIND_FREELIKE_BLOCK(p, 0);
   count_free(n);
}

static __attribute__((noinline)) void pool_grow(char* p, size_t old, size_t n)
{
   VALGRIND_RESIZEINPLACE_BLOCK(p, old, n, 0);
   count_block(n, old, 1);
}

int main(void)
{
   chunk = malloc(4096);
   if (chunk == NULL)
      return 1;
   char* blocks[10];
   for (int i = 0; i < 10; i++) {
      blocks[i] = pool_get(100);
      for (int j = 0; j < 8; j++)
         blocks[i][j] = (char)(i + j);
   }
   for (int i = 0; i < 10; i += 2)
      pool_put(blocks[i], 100);
   pool_grow(blocks[9], 100, 112);   /* its room is 112 bytes */
   for (int i = 1; i < 9; i += 2)
      pool_put(blocks[i], 100);
   pool_put(blocks[9], 112);
   free(chunk);

   return write_count();
}
