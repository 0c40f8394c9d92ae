// SPDX-License-Identifier: GPL-2.0-or-later
// exitfns_lib.cpp: a shared library with 40 static objects whose
// destructors the C library must run at exit.  Their exit functions lie
// past the C library's 32 built-in slots, in a block of the heap; at exit
// each shared object's destructor walk (__cxa_finalize) reads every one.
// What the destructors add up, where the compiler cannot see it unused.
volatile int exitfns_sum;

namespace {
struct Guard {
   int v;
   explicit Guard(int x) : v(x) {}
   ~Guard() { exitfns_sum = exitfns_sum + v; }
};
#define GUARDS(a) Guard g##a##0(a##0), g##a##1(a##1), g##a##2(a##2), g##a##3(a##3), \
                  g##a##4(a##4), g##a##5(a##5), g##a##6(a##6), g##a##7(a##7),       \
                  g##a##8(a##8), g##a##9(a##9);
GUARDS(1)
GUARDS(2)
GUARDS(3)
GUARDS(4)
}  // namespace

extern "C" int exitfns_first() { return g10.v; }
