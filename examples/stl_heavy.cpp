// SPDX-License-Identifier: GPL-2.0-or-later
// stl_heavy.cpp: an STL-heavy program built with -O2 -g, whose cost is
// mostly code the compiler inlined from the standard library's headers
// (vector's erase, map's lookups, sort), for the viewer's inlined code.
#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

__attribute__((noinline)) long sieve(std::vector<int>& v)
{
    for (auto it = v.begin(); it != v.end();) {
        if (*it % 3 == 0 || *it % 7 == 0)
            it = v.erase(it);
        else
            ++it;
    }
    std::sort(v.begin(), v.end());
    long found = 0;
    for (int k = 0; k < 200000; ++k)
        found += std::binary_search(v.begin(), v.end(), k % 9001);
    return found;
}

__attribute__((noinline)) long count_words(const std::vector<int>& keys)
{
    std::map<int, int> counts;
    for (int round = 0; round < 20; ++round)
        for (int k : keys)
            ++counts[(k + round) % 257];
    long most = 0;
    for (const auto& [k, n] : counts)
        most = std::max<long>(most, n);
    return most;
}

int main()
{
    std::vector<int> v;
    for (int i = 0; i < 3000; ++i)
        v.push_back(i * 7919 % 3001);
    const long s = sieve(v);
    const long m = count_words(v);
    std::printf("%ld %ld\n", s, m);
    return 0;
}
