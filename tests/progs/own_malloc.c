/* SPDX-License-Identifier: GPL-2.0-or-later */
/* own_malloc: a program that replaces the C library's malloc family with
   its own, as a statically linked jemalloc or tcmalloc does: every call,
   the C library's own included, comes here.  DHAT watches only the C
   library's malloc and sees none of them.  The allocator counts what it is
   asked for, as DHAT counts, and the program writes the count with
   write(2), which allocates nothing: bytes and blocks in all, the most
   live at once (and the blocks then), and what is live at the end. */
#include <errno.h>
#include <string.h>

#include "alloc_count.h"

/* Not inlined into the program: a library's functions would not be. */
#define API __attribute__((noinline))

typedef struct {
   size_t size;
   size_t pad;
} Header;

static unsigned char arena[1 << 22] __attribute__((aligned(64)));
static size_t used;
static size_t size_of(const void* p) { return ((const Header*)p - 1)->size; }

static void* carve(size_t n, size_t align)
{
   used = (used + sizeof(Header) + align - 1) & ~(align - 1);
   if (used + n > sizeof arena)
      return NULL;
   ((Header*)(arena + used) - 1)->size = n;
   void* p = arena + used;
   used += n;
   return p;
}

API void* malloc(size_t n)
{
   void* p = carve(n, 16);
   if (p) count_block(n, 0, 0);
   return p;
}

API void* calloc(size_t c, size_t n)
{
   if (n && c > (size_t)-1 / n)
      return NULL;
   void* p = carve(c * n, 16);
   if (p) { memset(p, 0, c * n); count_block(c * n, 0, 0); }
   return p;
}

API void free(void* p)
{
   if (p == NULL)
      return;
   count_free(size_of(p));
}

API void* realloc(void* p, size_t n)
{
   if (p == NULL)
      return malloc(n);
   if (n == 0) {
      free(p);
      return NULL;
   }
   size_t old = size_of(p) ? size_of(p) : 1;
   void*  q = carve(n, 16);
   if (q == NULL)
      return NULL;
   memcpy(q, p, old < n ? old : n);
   count_block(n, old, 1);
   return q;
}

API void* memalign(size_t align, size_t n)
{
   void* p = carve(n, align < 16 ? 16 : align);
   if (p) count_block(n, 0, 0);
   return p;
}

API void* aligned_alloc(size_t align, size_t n) { return memalign(align, n); }

API int posix_memalign(void** out, size_t align, size_t n)
{
   void* p = memalign(align, n);
   if (p == NULL)
      return ENOMEM;
   *out = p;
   return 0;
}

API size_t malloc_usable_size(void* p) { return p ? size_of(p) : 0; }

static volatile char* volatile keep;

int main(void)
{
   char* list[20];
   for (int i = 0; i < 20; i++)
      list[i] = malloc(16 * (size_t)(i + 1));
   for (int i = 0; i < 20; i += 2)
      free(list[i]);
   char* grown = NULL;
   for (int i = 1; i <= 8; i++)
      grown = realloc(grown, 100 * (size_t)i);
   keep = calloc(4, 25);
   keep = strdup("a string the C library allocates");
   void* aligned = NULL;
   if (posix_memalign(&aligned, 64, 200) != 0)
      return 1;
   free(aligned);

   return write_count();
}
