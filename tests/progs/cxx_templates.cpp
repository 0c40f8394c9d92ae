// SPDX-License-Identifier: GPL-2.0-or-later
// cxx_templates.cpp: an optimised C++ program with function templates,
// a class template and lambdas, none of them inlined, so that their
// demangled names (template arguments, lambdas) are functions of the
// profile.
#include <cstdio>
#include <vector>

template <typename T>
struct Accumulator {
    T total{};
    __attribute__((noinline)) void add(T x) { total += x * x; }
};

template <typename T, typename F>
__attribute__((noinline)) T fold(const std::vector<T>& v, F f)
{
    T acc{};
    for (const T& x : v)
        acc = f(acc, x);
    return acc;
}

int main()
{
    std::vector<long> longs;
    std::vector<double> doubles;
    for (int i = 0; i < 2000; i++) {
        longs.push_back(i * 7 % 13);
        doubles.push_back(i * 0.5);
    }
    Accumulator<long> a;
    Accumulator<double> b;
    for (long x : longs) a.add(x);
    for (double x : doubles) b.add(x);
    const long l = fold(longs, [](long acc, long x) __attribute__((noinline)) { return acc + x; });
    const double d = fold(doubles, [](double acc, double x) __attribute__((noinline)) { return acc * 0.5 + x; });
    std::printf("%ld %.1f %ld %.1f\n", a.total, b.total, l, d);
    return 0;
}
