/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_basic: the heap shapes a heap profiler must count right, each from
   its own allocation site: short-lived churn of one block size, a linked
   list built and freed, realloc growth and shrinking, calloc and the
   aligned allocators, zero-sized, failing and realloc-to-zero requests,
   blocks leaked at exit.  Memory is read and written by plain loops, not
   by libc's string functions, so every access is the program's own. */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

struct node {
   struct node* next;
   long         value;
};

static void* leaked[2];

static void fill(unsigned char* p, size_t n, unsigned char v)
{
   for (size_t i = 0; i < n; i++)
      p[i] = v;
}

static long sum(const unsigned char* p, size_t n)
{
   long s = 0;
   for (size_t i = 0; i < n; i++)
      s += p[i];
   return s;
}

/* Blocks of one size, each used briefly: the per-offset access counts
   show that only the first 16 bytes are ever written. */
static long churn(int rounds)
{
   long s = 0;
   for (int i = 0; i < rounds; i++) {
      unsigned char* p = malloc(48);
      fill(p, 16, (unsigned char)i);
      s += sum(p, 8);
      free(p);
   }
   return s;
}

static struct node* build_list(int n)
{
   struct node* head = NULL;
   for (int i = 0; i < n; i++) {
      struct node* x = malloc(sizeof *x);
      x->value = i;
      x->next  = head;
      head     = x;
   }
   return head;
}

static long free_list(struct node* head)
{
   long s = 0;
   while (head) {
      struct node* next = head->next;
      s += head->value;
      free(head);
      head = next;
   }
   return s;
}

/* A buffer doubled by realloc as it fills, then shrunk. */
static long grow(void)
{
   size_t         cap = 16;
   unsigned char* buf = malloc(cap);
   for (size_t len = 0; len < 5000; len++) {
      if (len == cap) {
         cap *= 2;
         buf = realloc(buf, cap);
      }
      buf[len] = (unsigned char)len;
   }
   buf = realloc(buf, 100);
   long s = sum(buf, 100);
   free(buf);
   return s;
}

static long zeroed_and_aligned(void)
{
   long* a = calloc(100, sizeof(long));
   long  s = 0;
   for (int i = 0; i < 100; i++)
      s += a[i];
   void* q = NULL;
   if (posix_memalign(&q, 64, 256) != 0)
      return -1;
   unsigned char* r = aligned_alloc(32, 96);
   unsigned char* v = valloc(1000);
   unsigned char* m = memalign(128, 40);
   fill(q, 256, 1);
   fill(r, 96, 2);
   fill(v, 1000, 3);
   fill(m, 40, 4);
   s += sum(q, 256) + sum(r, 96) + sum(v, 1000) + sum(m, 40);
   free(m);
   free(v);
   free(r);
   free(q);
   free(a);
   return s;
}

/* Requests at the edges: a zero-sized block, realloc of NULL and to
   zero, a request that cannot be met, free(NULL). */
static long edges(void)
{
   unsigned char* z = malloc(0);
   free(z);
   unsigned char* r = realloc(NULL, 10);
   fill(r, 10, 5);
   r = realloc(r, 0);
   void* huge = malloc(SIZE_MAX / 2);
   free(NULL);
   return huge == NULL && r == NULL ? 0 : 1;
}

int main(void)
{
   long s = churn(200);
   s += free_list(build_list(1000));
   s += grow();
   s += zeroed_and_aligned();
   s += edges();
   /* The peak: a long list, live at once, then freed. */
   struct node* big = build_list(3000);
   leaked[0] = malloc(100);
   fill(leaked[0], 50, 7);
   s += free_list(big);
   leaked[1] = malloc(3000);
   fill(leaked[1], 3000, 8);
   return s == 0 ? 1 : 0;
}
