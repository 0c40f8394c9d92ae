/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_setenv: a variable's name and value, held in blocks of the heap,
   given to setenv and the name then to unsetenv, as git gives the paths it
   builds (its exec path, its PATH).  The name, 13 characters and a zero, is
   in a block of 32 bytes; the value, 40 characters and a zero, in a block
   of 100.  The program's own stores are byte by byte through a volatile
   pointer (14 and 41 bytes written); the reads are the C library's. */
#include <stdlib.h>
#include <string.h>

static void put(volatile char* to, const char* from, size_t n)
{
   for (size_t i = 0; i < n; i++)
      to[i] = from[i];
}

int main(void)
{
   static const char name[] = "VGPROF_SETENV";
   static const char value[] = "0123456789abcdefghijklmnopqrstuvwxyzABCD";
   char* n = malloc(32);
   char* v = malloc(100);
   if (n == NULL || v == NULL)
      return 1;
   put(n, name, sizeof name);
   put(v, value, sizeof value);
   if (setenv(n, v, 1) != 0 || unsetenv(n) != 0)
      return 2;
   free(v);
   free(n);
   return 0;
}
