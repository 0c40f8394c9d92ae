/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_edges: the corners of the allocator's interface that the C library
   accepts: free(NULL), malloc(0), realloc from NULL and to 0, requests
   that fail (too large, an overflowing calloc, a bad alignment), and a
   1 GiB block.  What the profile must say follows from the calls:
   1 + 40 + 2^30 bytes in 3 blocks, a peak of 2^30 + 1 bytes in 2 blocks,
   nothing live at the end, 2 bytes written. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

static void* volatile seen;

int main(void)
{
   free(NULL);                                   /* nothing */
   char* z = malloc(0);                          /* a block, counted as 1 byte */
   char* r = realloc(NULL, 40);                  /* a malloc of 40 */
   r = realloc(r, 0);                            /* frees it; NULL */
   seen = malloc(SIZE_MAX / 2);                  /* fails: nothing counted */
   void* c = calloc((size_t)1 << 62, 16);        /* overflows: nothing */
   void* m = NULL;
   int   bad = posix_memalign(&m, 3, 64);        /* not a power of two: EINVAL */
   char* big = malloc((size_t)1 << 30);
   if (big == NULL || z == NULL)
      return 1;
   big[0] = 1;
   big[((size_t)1 << 30) - 1] = 2;
   free(big);
   free(z);
   return seen == NULL && c == NULL && r == NULL && bad == EINVAL && m == NULL ? 0 : 2;
}
