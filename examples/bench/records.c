/* SPDX-License-Identifier: GPL-2.0-or-later */
/* records.c: the order of sortrecs.c's records. */
#include "records.h"

int compare_records(const void* a, const void* b)
{
   const struct record* x = a;
   const struct record* y = b;
   if (x->group != y->group)
      return x->group < y->group ? -1 : 1;
   return (x->value > y->value) - (x->value < y->value);
}
