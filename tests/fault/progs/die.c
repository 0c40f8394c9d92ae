/* SPDX-License-Identifier: GPL-2.0-or-later */
/* die.c: allocates ten blocks of 1000, 2000 ... 10000 bytes, frees the
   first, third ... ninth (25,000 bytes), leaving 30,000 bytes in five
   blocks live, does some work, then ends as the first argument says:
   "segv" (a store through a null pointer), "abort", or "exit" (exit 3).
   Nothing else allocates: it writes with write(2), not stdio. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned n_spin = 20000;
static int* volatile nowhere;

__attribute__((noinline)) static unsigned spin(unsigned n)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) s += i * 7;
   return s;
}

int main(int argc, char** argv)
{
   char* blocks[10];
   for (int i = 0; i < 10; i++) {
      blocks[i] = malloc(1000 * (size_t)(i + 1));
      blocks[i][0] = (char)spin(10);
   }
   for (int i = 0; i < 10; i += 2) free(blocks[i]);
   unsigned s = spin(n_spin);
   write(1, &s, 1);
   const char* how = argc > 1 ? argv[1] : "exit";
   if (strcmp(how, "segv") == 0) *nowhere = (int)s;
   if (strcmp(how, "abort") == 0) abort();
   return 3;
}
