/* SPDX-License-Identifier: GPL-2.0-or-later */
/* threads.c: sixteen threads allocating and freeing across threads.  Each
   thread fills a row of blocks, then (after a barrier) frees the row of
   its neighbour; then all pass blocks through one shared stack, freeing
   whatever they pop, whoever allocated it, and main frees what is left
   on it.  Main then allocates a block larger than all the threads'
   blocks together, so the peak and what is live at it do not depend on
   how the threads interleaved.  Rounds per thread: argv[1]. */
#include <pthread.h>
#include <stdlib.h>

#define THREADS 16

static unsigned          rounds;
static void**            rows[THREADS];
static pthread_barrier_t barrier;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void**          shared;   /* the shared stack of blocks */
static size_t          depth;

static void push(void* p)
{
   pthread_mutex_lock(&lock);
   shared[depth++] = p;
   pthread_mutex_unlock(&lock);
}

static void* pop(void)
{
   void* p = NULL;
   pthread_mutex_lock(&lock);
   if (depth > 0) p = shared[--depth];
   pthread_mutex_unlock(&lock);
   return p;
}

static void* worker(void* arg)
{
   const unsigned id = (unsigned)(size_t)arg;
   void** row = malloc(rounds * sizeof *row);
   for (unsigned j = 0; j < rounds; j++) {
      unsigned char* p = malloc(24 + (id * 7 + j) % 64);
      p[0] = (unsigned char)j;
      row[j] = p;
   }
   rows[id] = row;
   pthread_barrier_wait(&barrier);

   /* Free the neighbour's row: blocks another thread allocated. */
   void** theirs = rows[(id + 1) % THREADS];
   for (unsigned j = 0; j < rounds; j++) free(theirs[j]);
   pthread_barrier_wait(&barrier);
   free(theirs);

   /* Blocks through the shared stack: pushed by one, freed by any (the
      stack is never empty when a thread pops, as it has just pushed, so
      the program's own code runs the same whatever the interleaving). */
   for (unsigned j = 0; j < rounds; j++) {
      char* p = malloc(40 + id);
      p[1] = 1;
      push(p);
      if (j % 2) free(pop());
   }
   return NULL;
}

int main(int argc, char** argv)
{
   rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000;
   shared = malloc((size_t)THREADS * rounds * sizeof *shared);
   pthread_barrier_init(&barrier, NULL, THREADS);
   pthread_t t[THREADS];
   for (unsigned i = 0; i < THREADS; i++)
      pthread_create(&t[i], NULL, worker, (void*)(size_t)i);
   for (unsigned i = 0; i < THREADS; i++)
      pthread_join(t[i], NULL);
   pthread_barrier_destroy(&barrier);
   for (void* p; (p = pop()) != NULL;) free(p);
   free(shared);

   /* Larger than all the threads' blocks at once: the peak. */
   size_t big = (size_t)THREADS * rounds * 200;
   char*  peak = malloc(big);
   peak[big - 1] = 1;
   free(peak);
   char* leak = malloc(77);   /* live at the end */
   leak[0] = 0;
   return 0;
}
