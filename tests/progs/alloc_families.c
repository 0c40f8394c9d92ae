/* SPDX-License-Identifier: GPL-2.0-or-later */
/* alloc_families: a program that brings its own allocator, under the names
   jemalloc (with its je_ and _rjem_ prefixes, and mallocx/dallocx as a
   statically linked jemalloc has them), mimalloc (mi_) and tcmalloc (tc_)
   give their functions, over a static arena.  Some call others, as real
   allocators do (mi_heap_malloc calls mi_malloc, mi_realloc both mi_malloc
   and mi_free): only the outermost call is a block.  One (je_valloc) is
   interrupted by a signal whose handler calls the C library's malloc:
   that call is the handler's own, not part of the interrupted one.  The allocator counts
   what it is asked for, as DHAT counts (a realloc is one more block of the
   new size) and prints it: bytes and blocks in all, the most live at once
   (with the blocks live then), and what is live at the end.  stdout's
   buffer comes from the C library's malloc before any of these and stays
   until the end: DHAT sees it and nothing else. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_count.h"

#define API __attribute__((noinline, used))

typedef struct {
   size_t size;
   size_t pad;   /* keeps blocks 16-byte aligned */
} Header;

static unsigned char arena[1 << 20] __attribute__((aligned(64)));
static size_t used;
static int quiet;   /* inside a call that counts for itself */

static size_t size_of(const void* p) { return ((const Header*)p - 1)->size; }

static void* carve(size_t n, size_t align)
{
   used = (used + sizeof(Header) + align - 1) & ~(align - 1);
   ((Header*)(arena + used) - 1)->size = n;
   void* p = arena + used;
   used += n;
   return p;
}

/* A block counted, unless inside a call that counts for itself. */
static void count(size_t n, size_t old, int replaces)
{
   if (!quiet)
      count_block(n, old, replaces);
}

static void* take(size_t n, size_t align)
{
   void* p = carve(n, align);
   count(n, 0, 0);
   return p;
}

static void give(void* p)
{
   if (p != NULL && !quiet)
      count_free(size_of(p));
}

static void* move(void* p, size_t n)
{
   if (p == NULL)
      return take(n, 16);
   void* q = carve(n, 16);
   memcpy(q, p, size_of(p) < n ? size_of(p) : n);
   count(n, size_of(p), 1);
   return q;
}

API void* je_malloc(size_t n) { return take(n, 16); }
API void* je_calloc(size_t c, size_t n) { void* p = take(c * n, 16); memset(p, 0, c * n); return p; }
API void* je_realloc(void* p, size_t n) { return move(p, n); }
API void* je_valloc(size_t n) { raise(SIGUSR1); return take(n, 4096); }
API void  je_free(void* p) { give(p); }
API void* _rjem_mallocx(size_t n, int flags) { return take(n, 16); }
API void* _rjem_rallocx(void* p, size_t n, int flags) { return move(p, n); }
API void  _rjem_sdallocx(void* p, size_t n, int flags) { give(p); }
API void* mallocx(size_t n, int flags) { return take(n, 16); }
API void  dallocx(void* p, int flags) { give(p); }

API void* mi_malloc(size_t n) { return take(n, 16); }
API void* mi_heap_malloc(void* heap, size_t n) { return mi_malloc(n); }
API void  mi_free(void* p) { give(p); }
API void* mi_realloc(void* p, size_t n)
{
   size_t old = size_of(p);
   quiet++;
   void* q = mi_malloc(n);
   memcpy(q, p, old < n ? old : n);
   mi_free(p);
   quiet--;
   count(n, old, 1);
   return q;
}
API void* mi_zalloc_aligned(size_t n, size_t align) { void* p = take(n, align); memset(p, 0, n); return p; }

API void* tc_malloc(size_t n) { return take(n, 16); }
API void  tc_free(void* p) { give(p); }
API void* tc_new(size_t n) { return take(n, 16); }
API void  tc_delete(void* p) { give(p); }
API int   tc_posix_memalign(void** out, size_t align, size_t n) { *out = take(n, align); return 0; }

static void* volatile from_handler;

static void on_usr1(int sig) { from_handler = malloc(24); }

int main(void)
{
   printf("alloc_families\n");
   fflush(stdout);
   signal(SIGUSR1, on_usr1);

   char* a = je_malloc(100);
   char* b = je_calloc(10, 20);
   a = je_realloc(a, 300);
   je_free(b);
   void* v = je_valloc(500);
   je_free(v);
   void* c = _rjem_mallocx(64, 0);
   c = _rjem_rallocx(c, 128, 0);
   _rjem_sdallocx(c, 128, 0);
   void* d = mallocx(48, 0);
   dallocx(d, 0);

   char* e = mi_malloc(1000);
   void* f = mi_heap_malloc(NULL, 24);
   e = mi_realloc(e, 2000);
   mi_free(f);
   void* g = mi_zalloc_aligned(256, 64);

   void* h = tc_malloc(40);
   tc_free(h);
   void* i = tc_new(72);
   tc_delete(i);
   void* j = NULL;
   tc_posix_memalign(&j, 32, 96);

   a[0] = e[0] = 1;
   fflush(stdout);
   return write_count() || g == NULL || j == NULL || from_handler == NULL;
}
