/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_bad: a client that misuses the allocator (frees an address inside
   a block, frees a block twice, reallocs an address inside a block) and
   allocates a 1 GiB block.  The profile must count what is right and stay
   whole; the misuses change nothing. */
#include <stdint.h>
#include <stdlib.h>

static void* volatile seen;

int main(void)
{
   char* p = malloc(100);
   seen = p;
   free(p + 8);                 /* inside the block: ignored */
   free(p);
   free(p);                     /* twice: ignored */
   seen = realloc(p + 3, 50);   /* not a block: NULL, nothing counted */
   char* big = malloc((size_t)1 << 30);
   if (big == NULL)
      return 1;
   big[0] = 1;
   big[((size_t)1 << 30) - 1] = 2;
   free(big);
   return seen == NULL ? 0 : 2;
}
