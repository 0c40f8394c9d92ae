/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_strings: the C library's case-insensitive comparison and wide
   string functions on heap blocks, whose vector code reads past the
   strings' ends: strings of every length from 1 to 40 characters copied
   into blocks of their own size, wcslen of each wide one and wcscmp of it
   with a copy, strcasecmp of each pair of narrow ones differing in case
   only and of pairs differing at one position.  The blocks are written
   with plain loops.  As DHAT's replacements read them: wcslen each wide
   string and its terminator, 4 x 860 bytes; wcscmp both to the end,
   2 x 4 x 860; strcasecmp both strings up to the first difference or the
   end, 2 x 860 bytes for the equal pairs and 2 x 440 for the others:
   12,920 bytes read in all. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

enum { kLongest = 40 };

static wchar_t* wide_copy(size_t n)
{
   wchar_t* w = malloc((n + 1) * sizeof *w);
   for (size_t i = 0; i < n; i++)
      w[i] = L'a' + (wchar_t)(i % 26);
   w[n] = 0;
   return w;
}

/* n letters from 'a' (upper case when upper), one of them changed at
   `at` when at < n. */
static char* narrow_copy(size_t n, int upper, size_t at)
{
   char* s = malloc(n + 1);
   for (size_t i = 0; i < n; i++)
      s[i] = (char)((upper ? 'A' : 'a') + (char)(i % 26));
   if (at < n)
      s[at] = '#';
   s[n] = 0;
   return s;
}

int main(void)
{
   size_t total = 0;
   int    order = 0;
   for (size_t n = 1; n <= kLongest; n++) {
      wchar_t* w    = wide_copy(n);
      wchar_t* same = wide_copy(n);
      total += wcslen(w);
      order += wcscmp(w, same) == 0;
      free(w);
      free(same);
      char* lower = narrow_copy(n, 0, n);
      char* upper = narrow_copy(n, 1, n);
      char* other = narrow_copy(n, 1, n / 2);
      order += strcasecmp(lower, upper) == 0;
      order += strcasecmp(upper, other) > 0;
      free(lower);
      free(upper);
      free(other);
   }
   /* 820 characters, 80 equal pairs and 40 ordered ones. */
   return total == 820 && order == 120 ? 0 : 1;
}
