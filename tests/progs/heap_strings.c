/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_strings: the C library's string and memory functions on heap
   blocks, each block from a site of its own, so that what each function
   reads and writes can be compared with DHAT's figures site by site.  The
   first memcpy is made after blocks exist and through a lazily bound PLT
   entry (the program is linked with -z lazy), so the dynamic linker calls
   memcpy's IFUNC resolver then. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

static const char     text[]  = "Profiling Native Programs With One Pass";
static const wchar_t  wtext[] = L"wide characters, four bytes each";
static volatile size_t sink;

static char* copied(const char* s, size_t n)
{
   char* p = malloc(n);
   memcpy(p, s, n);
   return p;
}

static wchar_t* wide_copied(const wchar_t* s)
{
   wchar_t* p = malloc((wcslen(s) + 1) * sizeof(wchar_t));
   wcscpy(p, s);
   return p;
}

int main(void)
{
   char* a = copied(text, sizeof text);
   char* b = malloc(sizeof text);
   strcpy(b, a);
   b[12] = 'x';
   sink += strlen(a) + (size_t)strcmp(a, b) + (size_t)memcmp(a, b, sizeof text);
   sink += (size_t)(strchr(a, 'W') - a);
   char* upper = malloc(sizeof text);
   for (size_t i = 0; i < sizeof text; i++)
      upper[i] = (char)(text[i] >= 'a' && text[i] <= 'z' ? text[i] - 32 : text[i]);
   sink += (size_t)strcasecmp(a, upper) + (size_t)strcasecmp(upper, b);
   char* zeros = malloc(100);
   memset(zeros, 0, 100);
   /* strnlen bounded before the end (5 bytes read) and past it (the
      string and its terminator); memrchr found 3 bytes from the end. */
   char* bounded = copied(text, sizeof text);
   for (int i = 0; i < 100; i++)
      sink += strnlen(bounded, 5);
   sink += strnlen(bounded, 1000);
   char* backwards = copied(text, sizeof text);
   sink += (size_t)((char*)memrchr(backwards, 'a', sizeof text - 1) - backwards);

   /* A move onto itself, as git's strbuf_remove makes when it removes
      nothing: DHAT's replacement copies nothing then. */
   char* still = copied(text, sizeof text);
   memmove(still, still, sizeof text);
   sink += (size_t)still[3];

   wchar_t* w = wide_copied(wtext);
   wchar_t* v = wide_copied(wtext);
   v[5] = L'X';
   sink += wcslen(w) + (size_t)wcscmp(w, v) + (size_t)(wcschr(w, L',') - w)
           + (size_t)(wcsrchr(w, L'e') - w);

   free(a); free(b); free(upper); free(zeros); free(bounded); free(backwards); free(still); free(w);
   free(v);
   printf("%zu\n", sink);
   return 0;
}
