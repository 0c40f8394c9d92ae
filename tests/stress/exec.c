/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exec.c: a program that replaces itself: it does some work, then execs
   itself with the argument "after", which does other work and exits 4.
   With "noexec" it does the work before the exec and exits 0 instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned n_before = 30000, n_after = 70000;

__attribute__((noinline)) static unsigned before_exec(unsigned n)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) s += i * 3;
   return s;
}

__attribute__((noinline)) static unsigned after_exec(unsigned n)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) s += i * 5;
   return s;
}

int main(int argc, char** argv)
{
   if (argc > 1 && strcmp(argv[1], "after") == 0) {
      printf("after %u\n", after_exec(n_after));
      return 4;
   }
   printf("before %u\n", before_exec(n_before));
   fflush(stdout);
   if (argc > 1 && strcmp(argv[1], "noexec") == 0)
      return 0;
   execl(argv[0], argv[0], "after", (char*)NULL);
   perror("execl");
   return 1;
}
