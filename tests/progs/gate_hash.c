/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gate_hash: one benchmark of the CI gate's tests, in two builds: the
   base, and with -DSLOWER a hash function that does one more round of
   mixing per key, a regression of a few per cent that `vgprof diff` must
   catch, whose size cachegrind measures beside it. */
#include <stdio.h>

#define SLOTS 4096
#define KEYS 3000

static unsigned table[SLOTS];

static unsigned hash(unsigned key)
{
   key ^= key >> 16;
   key *= 0x45d9f3bu;
#ifdef SLOWER
   key ^= key >> 13;
   key *= 0x2c1b3c6du;
#endif
   key ^= key >> 16;
   return key % SLOTS;
}

static void insert(unsigned key)
{
   unsigned slot = hash(key);
   while (table[slot] != 0 && table[slot] != key)
      slot = (slot + 1) % SLOTS;
   table[slot] = key;
}

int main(void)
{
   for (unsigned i = 1; i <= KEYS; i++)
      insert(i * 2654435761u | 1);
   unsigned used = 0;
   for (unsigned i = 0; i < SLOTS; i++)
      used += table[i] != 0;
   printf("%u slots used\n", used);
   return 0;
}
