/* SPDX-License-Identifier: GPL-2.0-or-later */
/* phases.c: a pipeline in three phases, each a function called once,
   with a mark before and after each:

     load   allocates N blocks of K bytes and fills them
     work   sums every byte of every block, ROUNDS times
     flush  writes the sum to a pipe-less sink (/dev/null) and frees
            every block

   so the heap live at the marks is known by construction: none at
   "start", N * K bytes in N blocks at "loaded" and "worked", none at
   "flushed".  With an argument, it also makes CALLS calls of a tiny
   function (the timeline's bounding).  No stdio: the only heap blocks are
   these. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "vgprof.h"

#define NOINLINE __attribute__((noinline))
#define N      100
#define K      1000
#define ROUNDS 20
#define CALLS  5000

static unsigned char* blocks[N];
static volatile unsigned long sink;

NOINLINE static void load(void)
{
   for (int i = 0; i < N; i++) {
      blocks[i] = malloc(K);
      for (int j = 0; j < K; j++) blocks[i][j] = (unsigned char)(i + j);
   }
}

NOINLINE static unsigned long work(void)
{
   unsigned long sum = 0;
   for (int r = 0; r < ROUNDS; r++)
      for (int i = 0; i < N; i++)
         for (int j = 0; j < K; j++) sum += blocks[i][j];
   return sum;
}

NOINLINE static void flush(unsigned long sum)
{
   int fd = open("/dev/null", O_WRONLY);
   if (fd >= 0) {
      if (write(fd, &sum, sizeof sum) < 0) sink = 1;
      close(fd);
   }
   for (int i = 0; i < N; i++) free(blocks[i]);
}

NOINLINE static void tiny(int i)
{
   sink += (unsigned long)i;
}

int main(int argc, char** argv)
{
   VGPROF_MARK("start");
   load();
   VGPROF_MARK("loaded");
   unsigned long sum = work();
   VGPROF_MARK("worked");
   flush(sum);
   VGPROF_MARK("flushed");
   if (argc > 1)
      for (int i = 0; i < CALLS; i++) tiny(i);
   return 0;
}
