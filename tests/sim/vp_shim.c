/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_shim.c: the few Valgrind core functions the simulator and its
   configuration call, done with libc, for the standalone test only.
   Exits and fatal option errors jump back to shim_run(). */

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "vp_shim.h"

char         shim_messages[8192];
VexCacheInfo shim_host_caches;
Int          shim_largest_register = 32;
Int          VG_(clo_verbosity) = 1;

static jmp_buf* exit_target;
static int      exit_status;

void shim_clear_messages(void) { shim_messages[0] = '\0'; }

static void append(const char* fmt, va_list ap)
{
   size_t  used = strlen(shim_messages);
   va_list again;
   va_copy(again, ap);
   vsnprintf(shim_messages + used, sizeof shim_messages - used, fmt, ap);
   if (getenv("VP_SHIM_ECHO")) vfprintf(stderr, fmt, again);
   va_end(again);
}

int shim_run(void (*f)(void*), void* arg)
{
   jmp_buf  here;
   jmp_buf* outer = exit_target;
   int      result = -1;

   exit_target = &here;
   if (setjmp(here) == 0)
      f(arg);
   else
      result = exit_status;
   exit_target = outer;
   return result;
}

void VG_(exit)(Int status)
{
   if (!exit_target) { fprintf(stderr, "VG_(exit)(%d) outside shim_run\n", status); abort(); }
   exit_status = status;
   longjmp(*exit_target, 1);
}

void VG_(assert_fail)(Bool isCore, const HChar* expr, const HChar* file,
                      Int line, const HChar* fn, const HChar* format, ...)
{
   fprintf(stderr, "%s:%d: %s: assertion '%s' failed\n", file, line, fn, expr);
   abort();
}

void VG_(tool_panic)(const HChar* str) { fprintf(stderr, "panic: %s\n", str); abort(); }

#define MSG_FN(name)                                   \
   UInt VG_(name)(const HChar* format, ...)            \
   {                                                   \
      va_list ap;                                      \
      va_start(ap, format); append(format, ap); va_end(ap); \
      return 0;                                        \
   }
MSG_FN(umsg)
MSG_FN(dmsg)
MSG_FN(fmsg)

void VG_(fmsg_bad_option)(const HChar* opt, const HChar* format, ...)
{
   va_list ap;
   size_t  used = strlen(shim_messages);
   snprintf(shim_messages + used, sizeof shim_messages - used, "Bad option: %s\n", opt);
   va_start(ap, format); append(format, ap); va_end(ap);
   VG_(exit)(1);
}

UInt VG_(printf)(const HChar* format, ...)
{
   va_list ap; int n;
   va_start(ap, format); n = vprintf(format, ap); va_end(ap);
   return n;
}

UInt VG_(snprintf)(HChar* buf, Int size, const HChar* format, ...)
{
   va_list ap; int n;
   va_start(ap, format); n = vsnprintf(buf, size, format, ap); va_end(ap);
   return n;
}

Int VG_(log2)(UInt x)
{
   Int i;
   for (i = 0; i < 32; i++) if ((1U << i) == x) return i;
   return -1;
}

Int VG_(log2_64)(ULong x)
{
   Int i;
   for (i = 0; i < 64; i++) if ((1ULL << i) == x) return i;
   return -1;
}

/* Valgrind's: optional blanks and sign, decimal digits; endptr at the
   start if there are none. */
Long VG_(strtoll10)(const HChar* str, HChar** endptr)
{
   const HChar* p = str;
   Bool neg = False, any = False;
   Long n = 0;
   while (*p == ' ' || *p == '\t' || *p == '\n') p++;
   if (*p == '-') { neg = True; p++; } else if (*p == '+') p++;
   while (*p >= '0' && *p <= '9') { n = 10 * n + (*p - '0'); p++; any = True; }
   if (!any) p = str;
   if (endptr) *endptr = (HChar*)p;
   return neg ? -n : n;
}

SizeT VG_(strlen)(const HChar* s) { return strlen(s); }
Int   VG_(strcmp)(const HChar* a, const HChar* b) { return strcmp(a, b); }
Int   VG_(strncmp)(const HChar* a, const HChar* b, SizeT n) { return strncmp(a, b, n); }
Bool  VG_(check_clom)(Clo_Mode modes, const HChar* arg, const HChar* option,
                      Bool recognised) { return recognised; }

void* VG_(malloc)(const HChar* cc, SizeT n) { void* p = malloc(n); if (!p) abort(); return p; }
void  VG_(free)(void* p) { free(p); }

void VG_(machine_get_VexArchInfo)(VexArch* arch, VexArchInfo* vai)
{
   if (arch) *arch = VexArchAMD64;
   memset(vai, 0, sizeof *vai);
   vai->hwcache_info = shim_host_caches;
}

Int VG_(machine_get_size_of_largest_guest_register)(void) { return shim_largest_register; }
