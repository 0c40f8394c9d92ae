/* SPDX-License-Identifier: GPL-2.0-or-later */
/* longjmp.c: recursion 40 frames deep left by one longjmp, three times,
   then ordinary calls that must still be seen as calls from main. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf back;
static volatile unsigned depth = 40;

__attribute__((noinline)) static void dive(unsigned level)
{
   if (level == depth)
      longjmp(back, 1);
   dive(level + 1);
}

__attribute__((noinline)) static unsigned after(unsigned x) { return x * 7 + 1; }

int main(void)
{
   volatile int jumps = 0;
   if (setjmp(back) != 0)
      jumps++;
   if (jumps < 3)
      dive(1);
   unsigned x = 0;
   for (int k = 0; k < 5; k++) x = after(x);
   printf("%d %u\n", jumps, x);
   return 0;
}
