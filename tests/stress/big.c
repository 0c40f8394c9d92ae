/* SPDX-License-Identifier: GPL-2.0-or-later */
/* big.c: blocks of 1 GiB (one malloc'd, one grown to it by realloc, the
   two live at once) and realloc to size 0: of a block (which frees it),
   of NULL (a block of 0 bytes) and of a block grown before. */
#include <stdlib.h>

#define GIB ((size_t)1 << 30)

static void* volatile seen;

int main(void)
{
   char* a = malloc(GIB);
   if (a == NULL) return 1;
   a[0] = 1;
   a[GIB - 1] = 2;
   char* b = malloc(4096);
   if (b == NULL) return 1;
   b[10] = 3;
   b = realloc(b, GIB);   /* grown in place or moved: 1 GiB either way */
   if (b == NULL) return 1;
   b[GIB - 1] = 4;
   free(a);
   free(b);

   char* c = malloc(300);
   c[0] = 5;
   seen = realloc(c, 0);   /* frees c */
   void* z = realloc(NULL, 0);   /* a block of 0 bytes, left live */
   seen = z;
   char* d = malloc(20);
   d[0] = 6;
   d = realloc(d, 500);
   d[499] = 7;
   seen = realloc(d, 0);
   return 0;
}
