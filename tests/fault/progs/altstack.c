/* SPDX-License-Identifier: GPL-2.0-or-later */
/* altstack.c: signal handlers that run on an alternate signal stack.
   SIGUSR1's handler calls a function and, every third time, raises SIGUSR2,
   whose handler runs nested on the same alternate stack.  The number of
   rounds is the first argument (20 by default).  Exits 1 if a handler ever
   found itself off the alternate stack. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static char alt_stack[64 * 1024];
static volatile unsigned handled, nested, off_stack;

static int on_alt_stack(void)
{
   char here;
   return &here >= alt_stack && &here < alt_stack + sizeof alt_stack;
}

__attribute__((noinline)) static unsigned in_handler(unsigned x)
{
   unsigned s = 0;
   for (unsigned i = 0; i < 40 + x; i++) s += i ^ x;
   return s;
}

static void on_usr2(int sig)
{
   (void)sig;
   if (!on_alt_stack()) off_stack++;
   nested += in_handler(3);
}

static void on_usr1(int sig)
{
   (void)sig;
   if (!on_alt_stack()) off_stack++;
   handled += in_handler(handled & 15);
   if (handled % 3 == 0) raise(SIGUSR2);
}

__attribute__((noinline)) static unsigned between(unsigned x) { return x * 3 + 1; }

int main(int argc, char** argv)
{
   unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 20;
   stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0};
   if (sigaltstack(&ss, NULL) != 0) return 2;
   struct sigaction sa;
   sigemptyset(&sa.sa_mask);
   sa.sa_flags = SA_ONSTACK;
   sa.sa_handler = on_usr1;
   sigaction(SIGUSR1, &sa, NULL);
   sa.sa_handler = on_usr2;
   sigaction(SIGUSR2, &sa, NULL);
   unsigned x = 0;
   for (unsigned k = 0; k < rounds; k++) {
      x = between(x);
      raise(SIGUSR1);
   }
   printf("%u %u %u\n", handled, nested, x);
   return off_stack ? 1 : 0;
}
