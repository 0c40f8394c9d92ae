/* SPDX-License-Identifier: GPL-2.0-or-later */
/* toggle.c: a first half and a second half, with the collection or
   instrumentation requests of vgprof and callgrind between them (each
   tool ignores the other's).  Run with --collect-atstart=no (toggle) or
   --instr-atstart=no (start), or with --toggle-collect=second_half. */
#include <stdio.h>
#include <string.h>
#include <valgrind/callgrind.h>
#include "vgprof.h"

static volatile unsigned n_first = 20000, n_second = 30000;
static volatile unsigned sink;

__attribute__((noinline)) static unsigned step(unsigned x) { return x * 2654435761u >> 7; }

__attribute__((noinline)) static void first_half(void)
{
   for (unsigned i = 0; i < n_first; i++) sink += step(i);
}

__attribute__((noinline)) static void second_half(void)
{
   for (unsigned i = 0; i < n_second; i++) sink ^= step(i + 1);
}

int main(int argc, char** argv)
{
   const char* mode = argc > 1 ? argv[1] : "toggle";
   /* main calls step() directly in each half too: a call edge used both
      before and after the switch, of which only the second call counts. */
   sink += step(1);
   first_half();
   if (strcmp(mode, "toggle") == 0) {
      VGPROF_TOGGLE_COLLECT;
      CALLGRIND_TOGGLE_COLLECT;
   } else if (strcmp(mode, "start") == 0) {
      VGPROF_START_INSTRUMENTATION;
      CALLGRIND_START_INSTRUMENTATION;
   }
   second_half();
   sink += step(2);
   printf("%u\n", sink);
   return 0;
}
