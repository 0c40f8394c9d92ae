/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thread_exit.c: three threads spin without end while a fourth does a
   fixed amount of work and ends the whole process with _exit(42); main
   waits for the spinning threads, which never finish. */
#include <pthread.h>
#include <unistd.h>

static volatile unsigned sink;

__attribute__((noinline)) static unsigned work(unsigned n)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) s += i * i;
   return s;
}

static void* spin_forever(void* arg)
{
   (void)arg;
   for (;;) sink++;
   return NULL;
}

static void* finisher(void* arg)
{
   (void)arg;
   sink += work(30000);
   _exit(42);
}

int main(void)
{
   pthread_t t[4];
   sink = work(5000);
   for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, spin_forever, NULL);
   pthread_create(&t[3], NULL, finisher, NULL);
   for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
   return 0;
}
