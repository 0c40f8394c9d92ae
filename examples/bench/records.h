/* SPDX-License-Identifier: GPL-2.0-or-later */
/* records.h: the records sortrecs.c sorts and their order. */
#ifndef RECORDS_H
#define RECORDS_H

struct record {
   unsigned group, value, id;
};

/* qsort's comparison: by group, then by value. */
int compare_records(const void* a, const void* b);

#endif
