/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_phases.c: allocates and frees in three phases, the heap's figures
   of each known by construction, with a zero after the first and a dump
   after the second:

     phase a  keeps 4 blocks of 1000 bytes (keep_a), allocates and frees
              10 of 100 (scratch_a)                              -> zero
     phase b  allocates 20 of 200 (phase_b), frees 2 of a's and 10 of
              its own                                 -> dump "after b"
     phase c  allocates 5 of 300 (phase_c), moves one of a's to 1500
              bytes (realloc), frees b's other 10 and its own 5  -> exit

   Each phase allocates from its own function, so that each is a site of
   its own.  No stdio: the only heap blocks are these. */
#include <stdlib.h>
#include "vgprof.h"

#define NOINLINE __attribute__((noinline))

static char* a[4];
static char* b[20];
static char* c[5];

NOINLINE static void keep_a(void)
{
   for (int i = 0; i < 4; i++) a[i] = malloc(1000);
}

NOINLINE static void scratch_a(void)
{
   char* t[10];
   for (int i = 0; i < 10; i++) t[i] = malloc(100);
   for (int i = 0; i < 10; i++) free(t[i]);
}

NOINLINE static void phase_b(void)
{
   for (int i = 0; i < 20; i++) b[i] = malloc(200);
   free(a[0]);
   free(a[1]);
   for (int i = 0; i < 10; i++) free(b[i]);
}

NOINLINE static void phase_c(void)
{
   for (int i = 0; i < 5; i++) c[i] = malloc(300);
   a[2] = realloc(a[2], 1500);
   for (int i = 10; i < 20; i++) free(b[i]);
   for (int i = 0; i < 5; i++) free(c[i]);
}

int main(void)
{
   keep_a();
   scratch_a();
   VGPROF_ZERO_STATS;
   phase_b();
   VGPROF_DUMP_STATS_AT("after b");
   phase_c();
   /* a[2] and a[3] are live at the end. */
   return a[2] == NULL || a[3] == NULL;
}
