/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signal.c: a handler that calls a function, entered five times through
   raise(), between ordinary calls from main. */
#include <signal.h>
#include <stdio.h>

static volatile unsigned handled;

__attribute__((noinline)) static unsigned in_handler(unsigned x)
{
   unsigned s = 0;
   for (unsigned i = 0; i < 50 + x; i++) s += i;
   return s;
}

static void on_usr1(int sig)
{
   (void)sig;
   handled += in_handler(handled & 7);
}

__attribute__((noinline)) static unsigned between(unsigned x) { return x + 11; }

int main(void)
{
   struct sigaction sa;
   sa.sa_handler = on_usr1;
   sigemptyset(&sa.sa_mask);
   sa.sa_flags = 0;
   sigaction(SIGUSR1, &sa, NULL);
   unsigned x = 0;
   for (int k = 0; k < 5; k++) {
      x = between(x);
      raise(SIGUSR1);
   }
   x = between(x);
   printf("%u %u\n", handled, x);
   return 0;
}
