/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_perfmap.c: names for code the program generated at run time, from
   the perf map its runtime writes (/tmp/perf-PID.map: node's and Deno's
   --perf-basic-prof, the JVM's perf agents, LuaJIT, Python 3.12's
   -X perf).  Each line is "START SIZE NAME", START and SIZE in hex; the
   runtime appends a line as it compiles a function, before running it,
   and a later line for the same start names the code that replaced the
   earlier one.  So the file is read on demand, from where the last read
   stopped, when code outside every object is first translated.

   The file lies in a directory anyone can write: it is read only when it
   is a regular file owned by the user the program runs as, not reached
   through a link, and what is kept of it is bounded.

   Without a map, such code is named by address: a function starts where
   a call lands, or a jump from an object's code, and code reached
   otherwise belongs to the nearest start below it in the same mapping
   (callgrind names each block by its own address instead, which splits a
   function at every jump target). */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_wordfm.h"
#include "vp_global.h"

#if defined(VGA_arm) || defined(VGA_arm64)
#  define VP_O_NOFOLLOW 0100000
#else
#  define VP_O_NOFOLLOW 0400000
#endif

#define VP_PERFMAP_MAX_BYTES   (256ULL << 20)   /* read no more of a map than this */
#define VP_PERFMAP_MAX_NAME    1024             /* longer names are cut */

typedef struct {
   SizeT size;
   UInt  name;   /* interned */
} Entry;

static WordFM* entries;      /* start -> Entry* */
static ULong   read_to;      /* bytes of the file read so far */
static HChar*  partial;      /* the start of a line not yet ended */
static SizeT   n_partial;
static Int     owner_pid;    /* whose map was read (a forked child has its own) */
static Bool    warned;

static void free_entry(UWord e) { VG_(free)((Entry*)e); }

static void forget_all(void)
{
   if (entries != NULL)
      VG_(deleteFM)(entries, NULL, free_entry);
   entries   = VG_(newFM)(VG_(malloc), "vp.perfmap", VG_(free), NULL);
   read_to   = 0;
   VG_(free)(partial);
   partial   = NULL;
   n_partial = 0;
   owner_pid = VG_(getpid)();
}

static Bool hex_field(const HChar** p, const HChar* end, ULong* out)
{
   const HChar* s = *p;
   ULong        v = 0;
   Int          digits = 0;
   if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
      s += 2;
   for (; s < end; s++, digits++) {
      HChar c = *s;
      Int   d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) break;
      if (digits == 16) return False;
      v = v << 4 | (ULong)d;
   }
   if (digits == 0 || s == end || *s != ' ')
      return False;
   *p  = s + 1;
   *out = v;
   return True;
}

/* One line, without its newline; malformed lines are skipped. */
static void add_line(const HChar* line, SizeT n)
{
   const HChar* p   = line;
   const HChar* end = line + n;
   ULong        start, size;
   HChar        name[VP_PERFMAP_MAX_NAME + 1];
   SizeT        k = 0;
   if (!hex_field(&p, end, &start) || !hex_field(&p, end, &size) || size == 0 || p == end)
      return;
   for (; p < end && k < VP_PERFMAP_MAX_NAME; p++)
      name[k++] = (*p >= 0x20 && *p != 0x7f) ? *p : '?';
   name[k] = '\0';
   Entry* e = VG_(malloc)("vp.perfmap.entry", sizeof(Entry));
   e->size  = (SizeT)size;
   e->name  = VP_(intern_str)(name);
   UWord old_key, old;
   if (VG_(lookupFM)(entries, &old_key, &old, (UWord)start)) {
      VG_(free)((Entry*)old);
      VG_(delFromFM)(entries, NULL, NULL, (UWord)start);
   }
   VG_(addToFM)(entries, (UWord)start, (UWord)e);
}

static void take_text(const HChar* buf, SizeT n)
{
   SizeT i, from = 0;
   for (i = 0; i < n; i++) {
      if (buf[i] != '\n')
         continue;
      if (n_partial > 0) {
         SizeT  len  = n_partial + (i - from);
         HChar* line = VG_(malloc)("vp.perfmap.line", len + 1);
         VG_(memcpy)(line, partial, n_partial);
         VG_(memcpy)(line + n_partial, buf + from, i - from);
         add_line(line, len);
         VG_(free)(line);
         VG_(free)(partial);
         partial   = NULL;
         n_partial = 0;
      } else {
         add_line(buf + from, i - from);
      }
      from = i + 1;
   }
   if (from < n && n_partial + (n - from) <= VP_PERFMAP_MAX_NAME + 64) {
      partial = VG_(realloc)("vp.perfmap.partial", partial, n_partial + (n - from));
      VG_(memcpy)(partial + n_partial, buf + from, n - from);
      n_partial += n - from;
   } else if (from < n) {
      VG_(free)(partial);   /* a line too long to be one: dropped */
      partial   = NULL;
      n_partial = 0;
   }
}

/* Reads what was appended to the map since the last read; False when
   there was nothing new (or no map to read). */
static Bool read_more(void)
{
   HChar  path[64];
   struct vg_stat st;
   VG_(sprintf)(path, "/tmp/perf-%d.map", VG_(getpid)());
   SysRes fd = VG_(open)(path, VKI_O_RDONLY | VP_O_NOFOLLOW, 0);
   if (sr_isError(fd)) {
      if (sr_Err(fd) == VKI_ELOOP && !warned) {
         warned = True;
         VG_(umsg)("vgprof: %s is not read: it is a symbolic link\n", path);
      }
      return False;
   }
   Int  f = (Int)sr_Res(fd);
   Bool grew = False;
   if (VG_(fstat)(f, &st) == 0 && VKI_S_ISREG(st.mode) && st.uid == (UInt)VG_(geteuid)()) {
      ULong whole = st.size > 0 ? (ULong)st.size : 0;
      ULong size  = whole < VP_PERFMAP_MAX_BYTES ? whole : VP_PERFMAP_MAX_BYTES;
      if (size > read_to && VG_(lseek)(f, (Off64T)read_to, VKI_SEEK_SET) == (Off64T)read_to) {
         HChar buf[1 << 14];
         while (read_to < size) {
            Int want = size - read_to < sizeof buf ? (Int)(size - read_to) : (Int)sizeof buf;
            Int got  = VG_(read)(f, buf, want);
            if (got <= 0) break;
            take_text(buf, (SizeT)got);
            read_to += (ULong)got;
            grew = True;
         }
      }
      if (whole > VP_PERFMAP_MAX_BYTES && !warned) {
         warned = True;
         VG_(umsg)("vgprof: %s is larger than %llu MiB: code named after that is not named\n",
                   path, VP_PERFMAP_MAX_BYTES >> 20);
      }
   } else if (!warned) {
      warned = True;
      VG_(umsg)("vgprof: %s is not read: not a regular file of this user's\n", path);
   }
   VG_(close)(f);
   return grew;
}

/* The greatest key of fm at or below a, with its value (never 0 in these
   maps); False when there is none. */
static Bool key_at_or_below(const WordFM* fm, Addr a, UWord* key, UWord* val)
{
   if (VG_(lookupFM)(fm, key, val, (UWord)a))
      return True;
   *key = *val = 0;
   return VG_(findBoundsFM)(fm, key, val, NULL, NULL, 0, 0, ~(UWord)0, 0, (UWord)a) && *val != 0;
}

static const Entry* entry_at(Addr a, Addr* start)
{
   UWord key, val;
   if (!key_at_or_below(entries, a, &key, &val) || a - (Addr)key >= ((const Entry*)val)->size)
      return NULL;
   *start = (Addr)key;
   return (const Entry*)val;
}

Bool VP_(perfmap_fn)(Addr a, UInt* name, Addr* start)
{
   const Entry* e;
   if (entries == NULL || owner_pid != VG_(getpid)())
      forget_all();
   e = entry_at(a, start);
   if (e == NULL && read_more())
      e = entry_at(a, start);
   if (e == NULL)
      return False;
   *name = e->name;
   return True;
}

/*------------------------------------------------------------*/
/*--- Code without a map: functions start where calls land  ---*/
/*------------------------------------------------------------*/

#define VP_MAX_CALL_TARGETS 1000000   /* starts kept; later ones are not */

static WordFM* call_targets;   /* start -> 1 */
static UWord   n_call_targets;

void VP_(note_call_target)(Addr a)
{
   DiEpoch      ep = VG_(current_DiEpoch)();
   const HChar* s;
   UInt         name;
   Addr         start;
   if (VG_(get_objname)(ep, a, &s) || VG_(get_fnname)(ep, a, &s) ||
       VP_(perfmap_fn)(a, &name, &start))
      return;
   if (call_targets == NULL)
      call_targets = VG_(newFM)(VG_(malloc), "vp.calltargets", VG_(free), NULL);
   if (n_call_targets < VP_MAX_CALL_TARGETS && VG_(addToFM)(call_targets, (UWord)a, 1) == False)
      n_call_targets++;
}

Bool VP_(call_target_fn)(Addr a, Addr* start)
{
   UWord key, val;
   if (call_targets == NULL || !key_at_or_below(call_targets, a, &key, &val))
      return False;
   /* The start must lie in a's mapping: code in another mapping is
      another runtime's, or another generation of the same. */
   const NSegment* seg = VG_(am_find_nsegment)(a);
   if (seg == NULL || (Addr)key < seg->start)
      return False;
   *start = (Addr)key;
   return True;
}
