/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recursion.c: one function recursing argv[1] levels deep (100,000 by
   default), doing a little work on each level on the way down and up. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long descend(unsigned long depth)
{
   if (depth == 0)
      return 1;
   unsigned long below = descend(depth - 1);
   return below + (depth ^ (below >> 3));
}

int main(int argc, char** argv)
{
   unsigned long depth = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
   printf("%lu\n", descend(depth));
   return 0;
}
