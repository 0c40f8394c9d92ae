/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_threads: four threads allocating side by side; each keeps one
   block that the main thread frees after joining it (a block freed by
   another thread).  The program's peak comes after the threads end, so
   what is live at it does not depend on how the threads interleaved. */
#include <pthread.h>
#include <stdlib.h>

static void* worker(void* arg)
{
   long           id = (long)arg;
   unsigned char* kept = malloc(64 + 16 * (size_t)id);
   for (int i = 0; i < 300; i++) {
      unsigned char* p = malloc(32 + (size_t)id);
      for (int j = 0; j < 8; j++)
         p[j] = (unsigned char)(i + j);
      kept[i % 64] += p[3];
      free(p);
   }
   return kept;
}

int main(void)
{
   pthread_t t[4];
   void*     kept[4];
   for (long i = 0; i < 4; i++)
      pthread_create(&t[i], NULL, worker, (void*)i);
   for (int i = 0; i < 4; i++)
      pthread_join(t[i], &kept[i]);
   long s = 0;
   for (int i = 0; i < 4; i++) {
      s += ((unsigned char*)kept[i])[5];
      free(kept[i]);
   }
   unsigned char* big = malloc(100000);
   for (int i = 0; i < 100000; i += 64)
      big[i] = 1;
   free(big);
   return s == 12345;
}
