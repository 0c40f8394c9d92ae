/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_strfn.c: the heap's count of what libc's string functions read and
   write, as DHAT counts it.

   DHAT replaces memcpy, strlen and the rest with simple loops that touch
   each byte the function is defined to touch, once (memcmp excepted, see
   below).  vgprof leaves libc's own vectorised code to run, so the CPU
   profile is the program's; but what that code touches is not what the
   call asks for: overlapping 32-byte loads, whole vectors read past a
   string's end.  So, with the call graph on, the accesses made by the
   instructions of these functions are not counted against heap blocks;
   instead, when the outermost such call returns, the bytes the call is
   defined to read and write are counted, from its arguments (taken at
   entry) and the memory, as DHAT's replacements would touch them.
   strcasecmp (and strcasecmp_l, whose locale only picks the case
   table), wcslen, wcschr, wcsrchr, wcscmp and wcscpy are among them;
   the other case-insensitive and wide-character functions are counted
   as they execute. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "vp_heap.h"

typedef struct {
   const HChar* name;   /* the name, after "__" or "__GI_" */
   VP_StrFn     family;
} Known;

/* Longer names first where one begins another (strchrnul, strchr). */
static const Known known[] = {
   { "memmove_chk", VP_SF_MEMCPY }, { "memcpy_chk", VP_SF_MEMCPY },
   { "mempcpy_chk", VP_SF_MEMCPY }, { "strcpy_chk", VP_SF_STRCPY },
   { "stpcpy_chk", VP_SF_STPCPY },  { "rawmemchr", VP_SF_RAWMEMCHR },
   { "strchrnul", VP_SF_STRCHRNUL }, { "strnlen", VP_SF_STRNLEN },
   { "strncpy", VP_SF_STRNCPY },    { "stpncpy", VP_SF_STRNCPY },
   { "strncmp", VP_SF_STRNCMP },    { "strrchr", VP_SF_STRRCHR },
   { "rindex", VP_SF_STRRCHR },     { "memrchr", VP_SF_MEMRCHR },
   { "mempcpy", VP_SF_MEMCPY },
   { "memmove", VP_SF_MEMCPY },     { "memcpy", VP_SF_MEMCPY },
   { "memset", VP_SF_MEMSET },      { "memcmp", VP_SF_MEMCMP },
   { "bcmp", VP_SF_MEMCMP },        { "memchr", VP_SF_MEMCHR },
   { "strlen", VP_SF_STRLEN },      { "strcpy", VP_SF_STRCPY },
   { "stpcpy", VP_SF_STPCPY },      { "strcat", VP_SF_STRCAT },
   { "strcmp", VP_SF_STRCMP },      { "strchr", VP_SF_STRCHR },
   { "index", VP_SF_STRCHR },       { "bcopy", VP_SF_BCOPY },
   { "strspn", VP_SF_STRSPN },      { "strcspn", VP_SF_STRCSPN },
   { "strpbrk", VP_SF_STRPBRK },    { "strstr", VP_SF_STRSTR },
   { "strcasecmp", VP_SF_STRCASECMP }, { "wcslen", VP_SF_WCSLEN },
   { "wcschr", VP_SF_WCSCHR },      { "wcsrchr", VP_SF_WCSRCHR },
   { "wcscmp", VP_SF_WCSCMP },      { "wcscpy", VP_SF_WCSCPY },
};

/* The family of a name such as "__memmove_avx_unaligned_erms" or
   "strlen": a known name, then nothing, a '_' (the variant) or a '@' (the
   symbol version); a checking variant only as one of its own. */
static VP_StrFn family_of_name(const HChar* name)
{
   UInt i;
   if (VG_(strncmp)(name, "__GI_", 5) == 0)     name += 5;
   else if (VG_(strncmp)(name, "__", 2) == 0)   name += 2;
   for (i = 0; i < sizeof known / sizeof known[0]; i++) {
      SizeT n = VG_(strlen)(known[i].name);
      if (VG_(strncmp)(name, known[i].name, n) != 0)
         continue;
      HChar next = name[n];
      if (next != 0 && next != '_' && next != '@')
         continue;
      if (next == '_' && VG_(strncmp)(name + n, "_chk", 4) == 0)
         return VP_SF_NONE;   /* memset_chk and the like: not replaced */
      return known[i].family;
   }
   return VP_SF_NONE;
}


/* A byte per function, 0 while not known: *a grown to hold fn's. */
static UChar* per_fn(UChar** a, UInt* n_a, UInt fn)
{
   if (fn >= *n_a) {
      UInt n = fn + 1 > 2 * *n_a ? fn + 1 : 2 * *n_a;
      *a = VG_(realloc)("vp.strfn", *a, n);
      VG_(memset)(*a + *n_a, 0, n - *n_a);
      *n_a = n;
   }
   return &(*a)[fn];
}

static UChar* families;   /* per function: VP_StrFn + 1, 0 while unknown */
static UInt   n_families;

VP_StrFn VP_(strfn_family)(UInt fn)
{
   UChar* known = per_fn(&families, &n_families, fn);
   if (*known == 0) {
      const VP_Fn* f = VP_(fn)(fn);
      /* Only the C library's: the same names elsewhere are the program's own. */
      VP_StrFn fam = VP_(is_object)(VP_(str)(f->obj), "libc.so") ? family_of_name(VP_(str)(f->name))
                                                                  : VP_SF_NONE;
      *known = (UChar)(fam + 1);
   }
   return (VP_StrFn)(*known - 1);
}

/* Per function: 0 while not known, 1 not the linker's, 2 the linker's.
   Asked at every call of a string function: the object's name is
   compared once per function, not at each call. */
static UChar* linker_fns;
static UInt   n_linker_fns;

Bool VP_(strfn_caller_is_linker)(UInt fn)
{
   UChar* known = per_fn(&linker_fns, &n_linker_fns, fn);
   if (*known == 0) {
      const HChar* obj = VP_(str)(VP_(fn)(fn)->obj);
      *known = VP_(is_object)(obj, "ld-linux") || VP_(is_object)(obj, "ld.so") ? 2 : 1;
   }
   return *known == 2;
}

/*------------------------------------------------------------*/
/*--- Reading the client's memory                          ---*/
/*------------------------------------------------------------*/

/* Bytes the call has just read: the checks only guard against a call
   that did not return normally (left by longjmp with bad arguments).
   Pages known readable during one call's accounting (1: none): a few,
   as a comparison or a copy reads two strings, often on two pages: the
   address space manager is asked once per page, not at each byte. */
#define OK_PAGES 4
static Addr ok_pages[OK_PAGES];
static UInt ok_next;

static void forget_ok_pages(void)
{
   UInt i;
   for (i = 0; i < OK_PAGES; i++) ok_pages[i] = 1;
}

static Bool page_ok(Addr page)
{
   UInt i;
   for (i = 0; i < OK_PAGES; i++)
      if (ok_pages[i] == page) return True;
   if (!VG_(am_is_valid_for_client)(page, VKI_PAGE_SIZE, VKI_PROT_READ))
      return False;
   ok_pages[ok_next++ % OK_PAGES] = page;
   return True;
}

static Bool byte_at(Addr a, UChar* out)
{
   if (!page_ok(a & ~(Addr)(VKI_PAGE_SIZE - 1)))
      return False;
   *out = *(const UChar*)a;
   return True;
}

/* Index of the first byte of s that is 0 (when at_zero) or c (when
   at_c), at most limit; limit when none is before it. */
static SizeT scan(Addr s, Bool at_zero, Bool at_c, UChar c, SizeT limit)
{
   SizeT i;
   UChar b;
   for (i = 0; i < limit; i++) {
      if (!byte_at(s + i, &b) || (at_zero && b == 0) || (at_c && b == c))
         return i;
   }
   return limit;
}

/* How many of the n bytes before s + n are read, from the last one
   back, to find c (all n when it is not there). */
static SizeT scan_back(Addr s, UChar c, SizeT n)
{
   SizeT i;
   UChar b;
   for (i = 0; i < n; i++) {
      if (!byte_at(s + n - 1 - i, &b) || b == c)
         return i + 1;
   }
   return n;
}

static SizeT string_length(Addr s) { return scan(s, True, False, 0, ~(SizeT)0); }

/* The 4-byte character at s + 4 * i, or False when not readable. */
static Bool wide_at(Addr s, SizeT i, UInt* out)
{
   UChar b[4];
   Addr  a = s + 4 * i;
   if (!byte_at(a, &b[0]) || !byte_at(a + 1, &b[1]) || !byte_at(a + 2, &b[2])
       || !byte_at(a + 3, &b[3]))
      return False;
   *out = (UInt)b[0] | (UInt)b[1] << 8 | (UInt)b[2] << 16 | (UInt)b[3] << 24;
   return True;
}

/* Index of the first wide character of s that is 0 or (when at_c) c. */
static SizeT wide_scan(Addr s, Bool at_c, UInt c)
{
   SizeT i;
   UInt  w;
   for (i = 0; wide_at(s, i, &w) && w != 0 && !(at_c && w == c); i++)
      ;
   return i;
}

/* Index of the first position where two wide strings differ or the
   first one ends. */
static SizeT wide_difference(Addr s1, Addr s2)
{
   SizeT i;
   UInt  a, b;
   for (i = 0; wide_at(s1, i, &a) && wide_at(s2, i, &b) && a == b && a != 0; i++)
      ;
   return i;
}

/* ASCII's case folding, as tolower does in the C locale and, for single
   bytes, in C.UTF-8. */
static UChar lower(UChar c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

/* Index of the first position where the two differ (ignoring case when
   fold) or, when strings, where the first one ends; limit when none is
   before it. */
static SizeT first_difference(Addr s1, Addr s2, Bool strings, Bool fold, SizeT limit)
{
   SizeT i;
   UChar a, b;
   for (i = 0; i < limit; i++) {
      if (!byte_at(s1 + i, &a) || !byte_at(s2 + i, &b))
         return i;
      if (fold) { a = lower(a); b = lower(b); }
      if (a != b || (strings && a == 0))
         return i;
   }
   return limit;
}

/*------------------------------------------------------------*/
/*--- Counting                                             ---*/
/*------------------------------------------------------------*/

/* n bytes read or written one by one from a: each counted against the
   block it lies in.  Blocks start on 16-byte boundaries, so an address
   in no block lets the walk skip to the next one. */
static void touch(Addr a, SizeT n, Bool write, Addr sp)
{
   while (n > 0) {
      if (a >= VP_(heap_hi))
         return;
      if (a < VP_(heap_lo)) {
         SizeT gap = VP_(heap_lo) - a;
         if (gap >= n) return;
         a += gap; n -= gap;
      }
      VP_Block* b;
      SizeT     k;
      if (VP_(in_stack_window)(a, sp)) {
         /* On past the window, which ends at sp - red zone + its size. */
         k = sp - VG_STACK_REDZONE_SZB + VP_STACK_WINDOW - a + 1;
         if (k > n) k = n;
      } else if ((b = VP_(heap_find)(a)) != NULL) {
         k = b->start + b->size - a;
         if (k > n) k = n;
         VP_(heap_access_in)(b, a, k, write);
      } else {
         k = 16 - (a & 15);
         if (k > n) k = n;
      }
      a += k;
      n -= k;
   }
}

/* The bytes memcmp compares, as the replacement reads them: when both
   are word-aligned, whole words while they are equal (the unequal word
   included), then byte by byte from where the words stopped to the first
   difference. */
static void memcmp_reads(Addr s1, Addr s2, SizeT n, Addr sp)
{
   const SizeT ws = sizeof(UWord);
   if (((s1 | s2) & (ws - 1)) == 0) {
      while (n >= ws) {
         SizeT d = first_difference(s1, s2, False, False, ws);
         touch(s1, ws, False, sp);
         touch(s2, ws, False, sp);
         if (d < ws)
            break;
         s1 += ws; s2 += ws; n -= ws;
      }
   }
   SizeT d = first_difference(s1, s2, False, False, n);
   SizeT k = d < n ? d + 1 : n;
   touch(s1, k, False, sp);
   touch(s2, k, False, sp);
}

/* strspn, strcspn and strpbrk: the set's length found, then each byte of
   s read and compared with the set's bytes in order, until one matches
   (or none does, for strspn); the walk stops at the end of s, at the
   first byte outside the set (strspn) or in it (the others). */
static void span_reads(Addr s, Addr set, VP_StrFn fam, Addr sp)
{
   SizeT nset = string_length(set), j, i;
   UChar sc, b;
   touch(set, nset + 1, False, sp);
   if (nset == 0 && fam != VP_SF_STRCSPN)
      return;
   for (j = 0;; j++) {
      if (!byte_at(s + j, &sc))
         return;
      touch(s + j, 1, False, sp);
      if (sc == 0)
         return;
      for (i = 0; i < nset; i++) {
         if (!byte_at(set + i, &b))
            return;
         touch(set + i, 1, False, sp);
         if (b == sc)
            break;
      }
      if ((fam == VP_SF_STRSPN) != (i < nset))
         return;
   }
}

/* strstr: the needle's length found, then the haystack walked; where
   its byte equals the needle's first, both are compared from there byte
   by byte until they differ or the whole needle matched, and the walk
   goes on from the next byte. */
static void strstr_reads(Addr h, Addr n, Addr sp)
{
   SizeT nlen = string_length(n), j, i;
   UChar hc, nc, n0;
   touch(n, nlen + 1, False, sp);
   if (nlen == 0 || !byte_at(n, &n0))
      return;
   for (j = 0;; j++) {
      if (!byte_at(h + j, &hc))
         return;
      touch(h + j, 1, False, sp);
      if (hc == 0)
         return;
      if (hc != n0)
         continue;
      for (i = 0;; i++) {
         if (!byte_at(h + j + i, &hc) || !byte_at(n + i, &nc))
            return;
         touch(h + j + i, 1, False, sp);
         touch(n + i, 1, False, sp);
         if (hc != nc)
            break;
         if (i == nlen - 1)
            return;
      }
   }
}

/* Everything is worked out from the arguments and the memory when the
   call is over: the functions that write leave their source as it was,
   and a copy holds the length of what was copied. */
void VP_(strfn_account)(VP_StrFn fam, const UWord* arg, Addr sp)
{
   Addr  d = arg[0], s = arg[1];
   SizeT n = arg[2], len, k;   /* strnlen's bound is arg[1] */
   UChar c = (UChar)arg[1];
   forget_ok_pages();
   switch (fam) {
      case VP_SF_NONE:
         return;
      /* DHAT's copies move nothing when source and destination are
         one (git's strbuf_remove of nothing moves a string onto itself),
         though libc's code may still load and store its bytes. */
      case VP_SF_MEMCPY:
      case VP_SF_BCOPY: {   /* bcopy(src, dst, n) */
         const Addr from = fam == VP_SF_BCOPY ? d : s, to = fam == VP_SF_BCOPY ? s : d;
         if (from != to) {
            touch(from, n, False, sp);
            touch(to, n, True, sp);
         }
         return;
      }
      case VP_SF_MEMSET:
         touch(d, n, True, sp);
         return;
      case VP_SF_MEMCMP:
         memcmp_reads(d, s, n, sp);
         return;
      case VP_SF_MEMCHR:
         k = scan(d, False, True, c, n);
         touch(d, k < n ? k + 1 : n, False, sp);
         return;
      case VP_SF_MEMRCHR:   /* from the end back to c */
         k = scan_back(d, c, n);
         touch(d + n - k, k, False, sp);
         return;
      case VP_SF_RAWMEMCHR:
         touch(d, scan(d, False, True, c, ~(SizeT)0) + 1, False, sp);
         return;
      case VP_SF_STRCHR:     /* up to c or the end, whichever comes first */
      case VP_SF_STRCHRNUL:
         touch(d, scan(d, True, True, c, ~(SizeT)0) + 1, False, sp);
         return;
      /* The wide-character functions: a 4-byte access per character. */
      case VP_SF_WCSLEN:
      case VP_SF_WCSRCHR:
         touch(d, 4 * (wide_scan(d, False, 0) + 1), False, sp);
         return;
      case VP_SF_WCSCHR:
         touch(d, 4 * (wide_scan(d, True, (UInt)arg[1]) + 1), False, sp);
         return;
      case VP_SF_WCSCMP:
         k = wide_difference(d, s);
         touch(d, 4 * (k + 1), False, sp);
         touch(s, 4 * (k + 1), False, sp);
         return;
      case VP_SF_WCSCPY:
         len = wide_scan(d, False, 0);
         touch(s, 4 * (len + 1), False, sp);
         touch(d, 4 * (len + 1), True, sp);
         return;
      case VP_SF_STRLEN:
      case VP_SF_STRRCHR:
         touch(d, string_length(d) + 1, False, sp);
         return;
      case VP_SF_STRNLEN:   /* strnlen(s, maxlen) */
         k = scan(d, True, False, 0, arg[1]);
         touch(d, k < arg[1] ? k + 1 : arg[1], False, sp);
         return;
      case VP_SF_STRCPY:
      case VP_SF_STPCPY:
         len = string_length(d);
         touch(s, len + 1, False, sp);
         touch(d, len + 1, True, sp);
         return;
      case VP_SF_STRNCPY:  /* up to n source bytes; n written, padded with zeros */
         k = scan(s, True, False, 0, n);
         touch(s, k < n ? k + 1 : n, False, sp);
         touch(d, n, True, sp);
         return;
      case VP_SF_STRCAT: { /* the destination's old end found, then the source copied */
         SizeT slen = string_length(s);
         SizeT dlen = string_length(d) - slen;
         touch(d, dlen + 1, False, sp);
         touch(s, slen + 1, False, sp);
         touch(d + dlen, slen + 1, True, sp);
         return;
      }
      case VP_SF_STRCMP:
      case VP_SF_STRCASECMP:
         k = first_difference(d, s, True, fam == VP_SF_STRCASECMP, ~(SizeT)0);
         touch(d, k + 1, False, sp);
         touch(s, k + 1, False, sp);
         return;
      case VP_SF_STRSPN:
      case VP_SF_STRCSPN:
      case VP_SF_STRPBRK:
         span_reads(d, s, fam, sp);
         return;
      case VP_SF_STRSTR:
         strstr_reads(d, s, sp);
         return;
      case VP_SF_STRNCMP:
         k = first_difference(d, s, True, False, n);
         k = k < n ? k + 1 : n;
         touch(d, k, False, sp);
         touch(s, k, False, sp);
         return;
   }
}
