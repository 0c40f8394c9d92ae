/* SPDX-License-Identifier: GPL-2.0-or-later */
/* forks.c: a parent and a forked child that each do different work; each
   must get a profile of its own. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Volatile so the compiler cannot fold the loops away. */
static volatile unsigned n_child = 50000, n_parent = 1000;

__attribute__((noinline)) static unsigned spin(unsigned n)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) s += i * 3;
   return s;
}

int main(void)
{
   pid_t pid = fork();
   if (pid == 0) {
      printf("child %u\n", spin(n_child));
      return 3;
   }
   int status = 0;
   waitpid(pid, &status, 0);
   printf("parent %u child-exit %d\n", spin(n_parent), WEXITSTATUS(status));
   return 0;
}
