/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wordfreq.c: the example program profiled by scripts/demo.  It generates
   a deterministic text, counts its words in a hash table, sorts them by
   frequency and prints the most frequent ones: hashing, string handling,
   allocation and sorting, the everyday work of a real program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
   char*         word;
   unsigned      count;
   struct entry* next;
};

static struct entry** buckets;
static unsigned       n_buckets = 4096;
static unsigned       n_words;

static unsigned hash(const char* s)
{
   unsigned h = 2166136261u;
   for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
   return h;
}

static void count_word(const char* w)
{
   unsigned b = hash(w) % n_buckets;
   for (struct entry* e = buckets[b]; e; e = e->next)
      if (strcmp(e->word, w) == 0) { e->count++; return; }
   struct entry* e = malloc(sizeof *e);
   e->word  = strdup(w);
   e->count = 1;
   e->next  = buckets[b];
   buckets[b] = e;
   n_words++;
}

/* A pseudo-random text whose word frequencies follow roughly Zipf's law. */
static char* make_text(size_t n_tokens)
{
   static const char* syll[] = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pu"};
   char*    text = malloc(n_tokens * 9 + 1);
   char*    p = text;
   unsigned x = 12345;
   for (size_t i = 0; i < n_tokens; i++) {
      x = x * 1103515245u + 12345u;
      /* rank is uniform below a random bound: small ranks are common */
      unsigned rank = (x >> 8) % (1 + (x >> 20) % 5000);
      do {
         const char* s = syll[rank % 10];
         *p++ = s[0];
         *p++ = s[1];
         rank /= 10;
      } while (rank);
      *p++ = (i % 12 == 11) ? '\n' : ' ';
   }
   *p = '\0';
   return text;
}

static int by_count(const void* a, const void* b)
{
   const struct entry* x = *(struct entry* const*)a;
   const struct entry* y = *(struct entry* const*)b;
   if (x->count != y->count) return x->count < y->count ? 1 : -1;
   return strcmp(x->word, y->word);
}

int main(int argc, char** argv)
{
   size_t n_tokens = argc > 1 ? strtoul(argv[1], NULL, 10) : 500000;
   buckets = calloc(n_buckets, sizeof *buckets);
   char* text = make_text(n_tokens);

   for (char* w = strtok(text, " \n"); w; w = strtok(NULL, " \n"))
      count_word(w);

   struct entry** all = malloc(n_words * sizeof *all);
   unsigned       k = 0;
   for (unsigned b = 0; b < n_buckets; b++)
      for (struct entry* e = buckets[b]; e; e = e->next) all[k++] = e;
   qsort(all, n_words, sizeof *all, by_count);

   printf("%u distinct words in %zu\n", n_words, n_tokens);
   for (unsigned i = 0; i < 10 && i < n_words; i++)
      printf("%8u  %s\n", all[i]->count, all[i]->word);

   for (unsigned i = 0; i < n_words; i++) { free(all[i]->word); free(all[i]); }
   free(all);
   free(text);
   free(buckets);
   return 0;
}
