/* SPDX-License-Identifier: GPL-2.0-or-later */
/* data_objects.c: data whose cache misses the tests know where to find.

   Two N x N arrays of doubles from two allocation sites: one walked in
   row order (a miss per cache line), the other in column order (a miss
   per access once a column no longer fits in D1).  A list of nodes, one
   block each, whose hot field is read on every walk and whose cold
   fields only when the nodes are made.  A global table read with a
   stride of one cache line.

   Each line that touches one of them touches nothing else in memory and
   ends with a marker comment naming it (data: rows, data: cols,
   data: hot, data: cold, data: table), so a test can add up cachegrind's
   per-line figures for that object alone (hot and cold are two parts of
   the nodes: offsets 0 to 15, and 16 to 127). */

#include <stdio.h>
#include <stdlib.h>

#define N     512           /* 2 MiB per array: more than D1, less than LL */
#define NODES 4096
#define WALKS 4
#define TABLE 8192          /* 64 KiB of longs */

struct node {
   struct node* next;
   long         hot;
   char         cold[112];  /* 128 bytes a node */
};

long table[TABLE];

static double* make_array(void)
{
   return malloc(sizeof(double) * N * N);
}

static void fill_rows(double* m)
{
   int i;
   for (i = 0; i < N * N; i++)
      m[i] = i;   /* data: rows */
}

static void fill_cols(double* m)
{
   int i;
   for (i = 0; i < N * N; i++)
      m[i] = -i;   /* data: cols */
}

static double sum_rows(const double* m)
{
   double s = 0;
   int    i, j;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         s += m[i * N + j];   /* data: rows */
   return s;
}

static double sum_cols(const double* m)
{
   double s = 0;
   int    i, j;
   for (j = 0; j < N; j++)
      for (i = 0; i < N; i++)
         s += m[i * N + j];   /* data: cols */
   return s;
}

static struct node* make_nodes(void)
{
   struct node* first = NULL;
   int          i, k;
   for (i = 0; i < NODES; i++) {
      struct node* n = malloc(sizeof *n);
      for (k = 0; k < (int)sizeof n->cold; k++)
         n->cold[k] = (char)k;   /* data: cold */
      n->hot  = i;   /* data: hot */
      n->next = first;   /* data: hot */
      first   = n;
   }
   return first;
}

static long walk(const struct node* n)
{
   long s = 0;
   for (; n; n = n->next)   /* data: hot */
      s += n->hot;   /* data: hot */
   return s;
}

static long stride_table(void)
{
   long s = 0;
   int  r, i;
   for (r = 0; r < WALKS; r++)
      for (i = 0; i < TABLE; i += 8)
         s += table[i];   /* data: table */
   return s;
}

int main(void)
{
   double*      rows = make_array();
   double*      cols = make_array();
   struct node* list;
   long         t = 0;
   int          w;
   fill_rows(rows);
   fill_cols(cols);
   list = make_nodes();
   for (w = 0; w < WALKS; w++)
      t += walk(list);
   t += stride_table();
   printf("%.0f %.0f %ld\n", sum_rows(rows), sum_cols(cols), t);
   return 0;
}
