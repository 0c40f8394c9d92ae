/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libc_calls.c: work done inside the C library: qsort with a callback,
   string and memory functions, formatted output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void* a, const void* b)
{
   int x = *(const int*)a, y = *(const int*)b;
   return (x > y) - (x < y);
}

int main(void)
{
   enum { N = 5000 };
   static int v[N];
   static char buf[N], copy[N];
   unsigned seed = 12345;
   for (int i = 0; i < N; i++) {
      seed = seed * 1103515245u + 12345u;
      v[i] = (int)(seed >> 8);
      buf[i] = (char)('a' + i % 26);
   }
   buf[N - 1] = '\0';
   qsort(v, N, sizeof v[0], cmp_int);
   size_t total = 0;
   for (int k = 0; k < 50; k++) {
      memcpy(copy, buf, sizeof buf);
      total += strlen(copy);
   }
   char line[64];
   for (int k = 0; k < 200; k++) {
      snprintf(line, sizeof line, "%d:%zu", v[k], total);
      total += strlen(line);
   }
   printf("%d %d %zu\n", v[0], v[N - 1], total);
   return 0;
}
