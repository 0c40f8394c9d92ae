/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gate_calls: a benchmark whose change costs in the C library, not in the
   program's own code. The base clears each of ITEMS buffers with memset
   and measures it with strlen in one loop; with -DMORE the loop clears and
   measures each a second time, on the line marked "the extra calls". The
   C library's memset and strlen rise; the program's own instructions
   barely move, and `vgprof diff` must name that loop's line. */
#include <stdio.h>
#include <string.h>

#define ITEMS 500
#define SIZE 2048

static char buffer[SIZE];

static size_t fill_all(void)
{
   size_t total = 0;
   for (unsigned i = 0; i < ITEMS; i++) {
      memset(buffer, 'a' + i % 26, SIZE - 1);
      total += strlen(buffer);
#ifdef MORE
      memset(buffer, 'b', SIZE - 1); total += strlen(buffer);   /* the extra calls */
#endif
   }
   return total;
}

int main(void)
{
   printf("%zu\n", fill_all());
   return 0;
}
