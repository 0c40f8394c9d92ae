// SPDX-License-Identifier: GPL-2.0-or-later
// heap_cxx: C++ allocation through every operator the allocator replacement
// covers: new/delete, new[]/delete[], the aligned and nothrow forms. Each
// block escapes through `seen`, so the compiler cannot remove a new/delete
// pair whose block it finds unused.
#include <cstddef>
#include <new>

static void* volatile seen;

struct alignas(64) Wide {
    long v[8];
};

struct Point {
    long x, y;
};

static long use(Point* p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        p[i].x = i;
        p[i].y = 2 * i;
        s += p[i].x + p[i].y;
    }
    return s;
}

int main()
{
    long s = 0;
    for (int i = 0; i < 50; i++) {
        Point* one = new Point{i, i};
        seen = one;
        s += one->x;
        delete one;
    }
    Point* many = new Point[100];
    seen = many;
    s += use(many, 100);
    delete[] many;

    Wide* w = new Wide();   // aligned new (alignas > the default)
    seen = w;
    w->v[3] = 3;
    s += w->v[3];
    delete w;
    Wide* ws = new Wide[4];
    seen = ws;
    ws[2].v[0] = 1;
    s += ws[2].v[0];
    delete[] ws;

    Point* maybe = new (std::nothrow) Point{1, 2};
    seen = maybe;
    s += maybe ? maybe->y : 0;
    delete maybe;

    Point* kept = new Point[10];   // never deleted
    seen = kept;
    s += use(kept, 10);
    return s == 0;
}
