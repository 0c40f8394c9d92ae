/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gate_alloc: one benchmark of the CI gate's tests, in two builds: the
   base keeps each of ITEMS records in two blocks, and with -DMORE in
   three (a copy of its name), half as many blocks again: an allocation
   increase `vgprof diff` must catch, of exactly ITEMS blocks. */
#include <stdlib.h>
#include <string.h>

#define ITEMS 1000

struct record {
   char* name;
   char* copy;
};

static struct record* make_record(unsigned i)
{
   struct record* r = malloc(sizeof *r);
   r->name = malloc(16);
   memset(r->name, 'a' + i % 26, 15);
   r->name[15] = '\0';
   r->copy = NULL;
#ifdef MORE
   r->copy = malloc(16);   /* the extra block */
   memcpy(r->copy, r->name, 16);
#endif
   return r;
}

int main(void)
{
   static struct record* records[ITEMS];
   for (unsigned i = 0; i < ITEMS; i++)
      records[i] = make_record(i);
   for (unsigned i = 0; i < ITEMS; i++) {
      free(records[i]->copy);
      free(records[i]->name);
      free(records[i]);
   }
   return 0;
}
