/* SPDX-License-Identifier: GPL-2.0-or-later */
/* matmul.c: the same matrix product in two loop orders, one walking the
   second matrix along its rows (cache-friendly), one down its columns. */
#include <stdio.h>

/* 128 rows of 1 KiB: a column walk through b touches 128 lines that fall
   into 4 of D1's 64 sets, far more than its 8 ways can hold. */
enum { N = 128 };
static double a[N][N], b[N][N], c[N][N];

__attribute__((noinline)) static void multiply_ijk(void)
{
   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
         double s = 0;
         for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
         c[i][j] = s;
      }
}

__attribute__((noinline)) static void multiply_ikj(void)
{
   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) c[i][j] = 0;
   for (int i = 0; i < N; i++)
      for (int k = 0; k < N; k++) {
         double x = a[i][k];
         for (int j = 0; j < N; j++) c[i][j] += x * b[k][j];
      }
}

int main(void)
{
   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
         a[i][j] = i + j;
         b[i][j] = i - j;
      }
   multiply_ijk();
   double t = c[N / 2][N / 3];
   multiply_ikj();
   printf("%g %g\n", t, c[N / 2][N / 3]);
   return 0;
}
