/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jumps.c: leaves signal handlers by siglongjmp, over and over, from
   different depths: SIGFPE from an integer division by zero, handled on
   the ordinary stack, and SIGSEGV from a load through a null pointer,
   handled on an alternate stack.  Faults rather than raise(): a signal
   sent by a system call ends a block that callgrind never charges when
   the handler leaves by siglongjmp, so only faults compare exactly.  The
   number of jumps is the first argument (200 by default). */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static sigjmp_buf back;
static char alt_stack[64 * 1024];
static volatile int* volatile nowhere;
static volatile unsigned zero;
static volatile unsigned sink;

static void leave(int sig)
{
   sink += (unsigned)sig;
   siglongjmp(back, sig);
}

__attribute__((noinline)) static void dive(unsigned level, unsigned depth, int fault)
{
   sink += level;
   if (level < depth)
      dive(level + 1, depth, fault);
   else if (fault)
      sink += (unsigned)*nowhere;
   else
      sink += level / zero;
   sink -= level;   /* never reached: keeps the call from being a tail call */
}

__attribute__((noinline)) static unsigned after(unsigned x) { return x * 5 + 3; }

int main(int argc, char** argv)
{
   unsigned jumps = argc > 1 ? (unsigned)atoi(argv[1]) : 200;
   stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0};
   sigaltstack(&ss, NULL);
   struct sigaction sa;
   sigemptyset(&sa.sa_mask);
   sa.sa_handler = leave;
   sa.sa_flags = 0;
   sigaction(SIGFPE, &sa, NULL);
   sa.sa_flags = SA_ONSTACK;
   sigaction(SIGSEGV, &sa, NULL);

   volatile unsigned done = 0, faults = 0, x = 0;
   int sig = sigsetjmp(back, 1);
   if (sig != 0) {
      done++;
      if (sig == SIGSEGV) faults++;
      x = after(x);
   }
   if (done < jumps)
      dive(1, 1 + done % 7, done % 2);
   printf("%u %u %u\n", done, faults, x);
   return 0;
}
