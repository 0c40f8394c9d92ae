/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arena: an in-house allocator under names no allocator family uses,
   taking its arena first (arena_alloc(arena, size), arena_free(arena,
   block)), and no call of the C library's malloc at all.  vgprof sees
   these calls only when told of them with --alloc-fn.  The arena counts
   its blocks and the program writes the count with write(2). */
#include <stddef.h>

#include "alloc_count.h"

struct arena {
   unsigned char mem[1 << 16];
   size_t        used;
};

static struct arena the_arena;
__attribute__((noinline)) void* arena_alloc(struct arena* a, size_t n)
{
   void* p = a->mem + a->used;
   a->used += (n + 15) & ~(size_t)15;
   count_block(n, 0, 0);
   return p;
}

__attribute__((noinline)) void arena_free(struct arena* a, void* p, size_t n)
{
   count_free(n);
}

int main(void)
{
   void* kept[30];
   for (int i = 0; i < 30; i++)
      kept[i] = arena_alloc(&the_arena, 8 * (size_t)(i + 1));
   for (int i = 0; i < 30; i += 3)
      arena_free(&the_arena, kept[i], 8 * (size_t)(i + 1));

   return write_count();
}
