// SPDX-License-Identifier: GPL-2.0-or-later
// throw.cpp: an exception thrown three frames down and caught in main,
// ten times, then ordinary calls that must still be seen as from main.
#include <cstdio>
#include <stdexcept>

static volatile int limit = 10;

__attribute__((noinline)) static void level3(int i)
{
   if (i >= 0) throw std::runtime_error("deep");
}
__attribute__((noinline)) static void level2(int i) { level3(i); }
__attribute__((noinline)) static void level1(int i) { level2(i); }
__attribute__((noinline)) static int after(int x) { return x * 3 + 1; }

int main()
{
   int caught = 0;
   for (int i = 0; i < limit; i++) {
      try {
         level1(i);
      } catch (const std::exception&) {
         caught++;
      }
   }
   int x = 0;
   for (int k = 0; k < 4; k++) x = after(x);
   std::printf("%d %d\n", caught, x);
   return 0;
}
