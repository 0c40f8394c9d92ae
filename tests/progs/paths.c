/* SPDX-License-Identifier: GPL-2.0-or-later */
/* paths.c: a() and b() both call c(), with different work, so c's cost
   depends on the path that reached it. */
#include <stdio.h>

static volatile unsigned work_a = 100, work_b = 700;
static volatile unsigned sink;

__attribute__((noinline)) static void c(unsigned n)
{
   for (unsigned i = 0; i < n; i++) sink += i;
}

__attribute__((noinline)) static void a(void) { c(work_a); }
__attribute__((noinline)) static void b(void) { c(work_b); c(work_b); }

int main(void)
{
   for (int k = 0; k < 3; k++) a();
   for (int k = 0; k < 2; k++) b();
   printf("%u\n", sink);
   return 0;
}
