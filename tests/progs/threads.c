/* SPDX-License-Identifier: GPL-2.0-or-later */
/* threads.c: four threads running side by side, each calling a function
   a different number of times, and main calling it too.  How often
   pthread_join waits depends on the host's scheduling, under any tool. */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned sink;

__attribute__((noinline)) static unsigned compute(unsigned n)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) s += i * i;
   return s;
}

static void* worker(void* arg)
{
   unsigned id = (unsigned)(unsigned long)arg;
   unsigned s = 0;
   for (unsigned k = 0; k <= id; k++)
      s += compute(1000 * (id + 1));
   return (void*)(unsigned long)s;
}

int main(void)
{
   pthread_t t[4];
   unsigned long total = 0;
   for (unsigned i = 0; i < 4; i++)
      pthread_create(&t[i], NULL, worker, (void*)(unsigned long)i);
   for (unsigned i = 0; i < 4; i++) {
      void* r;
      pthread_join(t[i], &r);
      total += (unsigned long)r;
   }
   total += compute(500);
   printf("%lu\n", total);
   return 0;
}
