/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sigjmp.c: a signal handler that leaves by siglongjmp, three times, from
   a few frames down, then ordinary calls from main. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static sigjmp_buf back;
static volatile unsigned depth = 5;

static void on_usr1(int sig)
{
   (void)sig;
   siglongjmp(back, 1);
}

__attribute__((noinline)) static void dive(unsigned level)
{
   if (level == depth)
      raise(SIGUSR1);
   else
      dive(level + 1);
}

__attribute__((noinline)) static unsigned after(unsigned x) { return x * 5 + 3; }

int main(void)
{
   struct sigaction sa;
   sa.sa_handler = on_usr1;
   sigemptyset(&sa.sa_mask);
   sa.sa_flags = 0;
   sigaction(SIGUSR1, &sa, NULL);
   volatile int jumps = 0;
   if (sigsetjmp(back, 1) != 0)
      jumps++;
   if (jumps < 3)
      dive(1);
   unsigned x = 0;
   for (int k = 0; k < 4; k++) x = after(x);
   printf("%d %u\n", jumps, x);
   return 0;
}
