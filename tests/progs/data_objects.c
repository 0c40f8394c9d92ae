/* SPDX-License-Identifier: GPL-2.0-or-later */
/* data_objects.c: data whose cache misses the tests know where to find.

   Two N x N arrays of doubles from two allocation sites: one walked in
   row order (a miss per cache line), the other in column order (a miss
   per access once a column no longer fits in D1).  A list of nodes, one
   block each, whose hot field is read on every walk and whose cold
   fields only when the nodes are made.  A global table read with a
   stride of one cache line.

   The lines that allocate them end with "site: NAME".  Each line that
   touches one of them touches nothing else in memory and ends with a
   marker comment naming it (data: rows, data: cols,
   data: hot, data: cold, data: table), so a test can add up cachegrind's
   per-line figures for that object alone (hot and cold are two parts of
   the nodes: offsets 0 to 15, and 16 to 127). */

#include <stdio.h>
#include <stdlib.h>

#define N     512           /* 2 MiB per array: more than D1, less than LL */
#define NODES 4096
#define WALKS 4
#define TABLE 8192          /* 64 KiB of longs */
#define STACK 4096          /* 32 KiB of longs on the stack */

struct node {
   struct node* next;
   long         hot;
   char         cold[112];  /* 128 bytes a node */
};

long table[TABLE];

/* Functions of their own (each array's site is told apart by the line
   that calls make_array), so that what each function did to each object
   can be compared with cachegrind's figures for its lines. */
#define OWN static __attribute__((noinline))

OWN double* make_array(void)
{
   return malloc(sizeof(double) * N * N);
}

OWN void fill_rows(double* m)
{
   int i;
   for (i = 0; i < N * N; i++)
      m[i] = i;   /* data: rows */
}

OWN void fill_cols(double* m)
{
   int i;
   for (i = 0; i < N * N; i++)
      m[i] = -i;   /* data: cols */
}

OWN double sum_rows(const double* m)
{
   double s = 0;
   int    i, j;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         s += m[i * N + j];   /* data: rows */
   return s;
}

OWN double sum_cols(const double* m)
{
   double s = 0;
   int    i, j;
   for (j = 0; j < N; j++)
      for (i = 0; i < N; i++)
         s += m[i * N + j];   /* data: cols */
   return s;
}

OWN struct node* make_nodes(void)
{
   struct node* first = NULL;
   int          i, k;
   for (i = 0; i < NODES; i++) {
      struct node* n = malloc(sizeof *n);   /* site: nodes */
      for (k = 0; k < (int)sizeof n->cold; k++)
         n->cold[k] = (char)k;   /* data: cold */
      n->hot  = i;   /* data: hot */
      n->next = first;   /* data: hot */
      first   = n;
   }
   return first;
}

OWN long walk(const struct node* n)
{
   long s = 0;
   while (n) {
      s += n->hot;   /* data: hot */
      n = n->next;   /* data: hot */
   }
   return s;
}

OWN long stride_table(void)
{
   long s = 0;
   int  r, i;
   for (r = 0; r < WALKS; r++)
      for (i = 0; i < TABLE; i += 8)
         s += table[i];   /* data: table */
   return s;
}

/* A local array walked with a stride: every access is the stack's. */
OWN long stack_walk(void)
{
   volatile long local[STACK];
   long s = 0;
   int  i;
   for (i = 0; i < STACK; i++)
      local[i] = i;   /* data: stack */
   for (i = 0; i < STACK; i += 8)
      s += local[i];   /* data: stack */
   return s;
}

int main(void)
{
   double*      rows = make_array();   /* site: rows */
   double*      cols = make_array();   /* site: cols */
   struct node* list;
   long         t = 0;
   int          w;
   fill_rows(rows);
   fill_cols(cols);
   list = make_nodes();
   for (w = 0; w < WALKS; w++)
      t += walk(list);
   t += stride_table();
   t += stack_walk();
   printf("%.0f %.0f %ld\n", sum_rows(rows), sum_cols(cols), t);
   return 0;
}
