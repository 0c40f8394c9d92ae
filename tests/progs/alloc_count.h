/* SPDX-License-Identifier: GPL-2.0-or-later */
/* alloc_count.h: the count a test program's own allocator keeps of what it
   is asked for, as DHAT counts (a block replaced by a realloc is one more
   block of the new size; a zero-sized one counts 1 byte), and the line the
   program writes of it, with write(2), which allocates nothing. */
#ifndef ALLOC_COUNT_H
#define ALLOC_COUNT_H

#include <stdio.h>
#include <unistd.h>

static unsigned long long total_bytes, total_blocks, live_bytes, live_blocks;
static unsigned long long peak_bytes, peak_blocks;

/* A block of n bytes made, replacing one of old bytes when replaces. */
static void count_block(size_t n, size_t old, int replaces)
{
   n = n ? n : 1;
   total_bytes += n;
   total_blocks++;
   live_bytes += n - old;
   live_blocks += !replaces;
   if (live_bytes >= peak_bytes) {   /* of equal peaks the latest, as DHAT */
      peak_bytes = live_bytes;
      peak_blocks = live_blocks;
   }
}

static void count_free(size_t n)
{
   live_bytes -= n ? n : 1;
   live_blocks--;
}

/* "T bytes in N blocks; peak P bytes in M blocks; end E bytes in K blocks",
   on standard output; 0 when written. */
static int write_count(void)
{
   char line[200];
   int  n = snprintf(line, sizeof line,
                     "%llu bytes in %llu blocks; peak %llu bytes in %llu blocks; "
                     "end %llu bytes in %llu blocks\n",
                     total_bytes, total_blocks, peak_bytes, peak_blocks, live_bytes, live_blocks);
   return write(1, line, (size_t)n) == n ? 0 : 1;
}

#endif
