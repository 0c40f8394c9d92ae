/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hashtab.c: a benchmark of the example suite (examples/bench/record).
   Inserts keys into an open-addressing hash table, then looks up twice as
   many, present and absent ones: hashing and probing, the work of a
   symbol table or a cache.  Deterministic, so that its instruction count
   is the same on every run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TABLE_BITS 16
#define TABLE_SIZE (1u << TABLE_BITS)
#define KEYS 30000

static uint64_t table[TABLE_SIZE];

static uint32_t hash_key(uint64_t key)
{
   key ^= key >> 33;
   key *= 0xff51afd7ed558ccdULL;
   key ^= key >> 33;
   return (uint32_t)(key >> (64 - TABLE_BITS));
}

static void insert(uint64_t key)
{
   uint32_t slot = hash_key(key);
   while (table[slot] != 0 && table[slot] != key)
      slot = (slot + 1) & (TABLE_SIZE - 1);
   table[slot] = key;
}

static int contains(uint64_t key)
{
   for (uint32_t slot = hash_key(key); table[slot] != 0; slot = (slot + 1) & (TABLE_SIZE - 1))
      if (table[slot] == key)
         return 1;
   return 0;
}

int main(void)
{
   uint64_t x = 88172645463325252ULL;
   for (int i = 0; i < KEYS; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      insert(x | 1);
   }
   unsigned found = 0;
   uint64_t y = 88172645463325252ULL;
   for (int i = 0; i < 2 * KEYS; i++) {
      y ^= y << 13, y ^= y >> 7, y ^= y << 17;
      found += contains(i % 2 ? y | 1 : y + 2);
   }
   printf("%u of %d keys found\n", found, 2 * KEYS);
   return 0;
}
