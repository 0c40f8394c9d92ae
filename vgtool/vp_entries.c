/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_entries.c: where the functions of code without symbols start.

   A stripped library keeps no names for its internal functions, but it
   keeps their unwind records: the sorted table of .eh_frame_hdr
   (PT_GNU_EH_FRAME) lists the first address of every function the
   compiler emitted unwind information for.  Code without a symbol
   belongs to the function whose record starts at or below it, and that
   function is named by its start as an address within its object, as
   callgrind names the same code ("0x0000000000003080").  Each record
   also says where its function ends: code past that end and before the
   next record (rare: code without unwind information, such as some of the
   C runtime's start-up code) is a function of its own, starting at the
   first 16-byte boundary after the end, where a compiler places the next
   function.

   Each object's table is read once from its file, at translation time
   only, and kept for the run. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "vp_global.h"

#define PT_GNU_EH_FRAME 0x6474e550u

/* Pointer encodings of .eh_frame_hdr (DWARF's DW_EH_PE_*). */
#define PE_OMIT    0xff
#define PE_FORMAT  0x0f
#define PE_UDATA4  0x03
#define PE_SDATA4  0x0b
#define PE_UDATA8  0x04
#define PE_SDATA8  0x0c
#define PE_DATAREL_SDATA4 0x3b   /* the table's encoding in GNU ld's output */

typedef struct {
   VP_ObjKey key;
   UInt   n;           /* starts[0..n): function starts, object addresses, sorted */
   Addr*  starts;
   Addr*  ends;        /* [n]: where each function ends; 0 when unknown */
} EntryTable;

static XArray* tables;   /* of EntryTable */

static Bool read_at(Int fd, void* buf, SizeT n, ULong off)
{
   return VG_(lseek)(fd, (Off64T)off, VKI_SEEK_SET) == (Off64T)off
          && VG_(read)(fd, buf, (Int)n) == (Int)n;
}

static ULong le(const UChar* p, Int n)
{
   ULong v = 0;
   Int   i;
   for (i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
   return v;
}

/* The size of a value of encoding enc in .eh_frame_hdr, 0 if not one
   this reader knows. */
static Int encoded_size(UChar enc)
{
   switch (enc & PE_FORMAT) {
   case PE_UDATA4: case PE_SDATA4: return 4;
   case PE_UDATA8: case PE_SDATA8: return 8;
   default: return 0;
   }
}

/* The search table of an .eh_frame_hdr held in hdr[0..n), loaded at
   object address hdr_addr: each record's start and the address of its
   FDE.  NULL when it has none this reader knows (the starts come back
   sorted, as the table is). */
static Addr* starts_of_hdr(const UChar* hdr, SizeT n, Addr hdr_addr, UInt* count, Addr** fdes_out)
{
   if (n < 4 || hdr[0] != 1 || hdr[3] != PE_DATAREL_SDATA4 || hdr[2] == PE_OMIT)
      return NULL;
   Int ptr_size = encoded_size(hdr[1]), count_size = encoded_size(hdr[2]);
   if (ptr_size == 0 || count_size == 0 || 4 + ptr_size + count_size > (Int)n)
      return NULL;
   ULong  fdes  = le(hdr + 4 + ptr_size, count_size);
   SizeT  table = 4 + ptr_size + count_size;
   if (fdes == 0 || fdes > (n - table) / 8)
      return NULL;
   Addr* starts = VG_(malloc)("vp.entries.starts", fdes * sizeof(Addr));
   Addr* fde    = VG_(malloc)("vp.entries.fdes", fdes * sizeof(Addr));
   ULong i;
   for (i = 0; i < fdes; i++) {
      starts[i] = hdr_addr + (Long)(Int)(UInt)le(hdr + table + 8 * i, 4);
      fde[i]    = hdr_addr + (Long)(Int)(UInt)le(hdr + table + 8 * i + 4, 4);
   }
   *count    = (UInt)fdes;
   *fdes_out = fde;
   return starts;
}

/* Where each record's function ends, read from its FDE: its pc_begin and
   pc_range, encoded as GNU tools encode them on this platform (4-byte,
   pc_begin relative to its own address).  A record whose pc_begin does
   not read back as its start is in another encoding: its end stays
   unknown.  The FDEs are read in one piece from the loadable segment
   (phdrs[0..phnum)) holding them. */
static Addr* ends_of_fdes(Int f, const UChar* phdrs, UInt phnum, UInt phentsize,
                          const Addr* starts, const Addr* fdes, UInt n)
{
   Addr* ends = VG_(calloc)("vp.entries.ends", n, sizeof(Addr));
   Addr  lo = fdes[0], hi = fdes[0];
   UInt  i;
   for (i = 1; i < n; i++) {
      if (fdes[i] < lo) lo = fdes[i];
      if (fdes[i] > hi) hi = fdes[i];
   }
   hi += 16;
   for (i = 0; i < phnum; i++) {
      const UChar* ph = phdrs + (SizeT)i * phentsize;
      ULong off = le(ph + 8, 8), vaddr = le(ph + 16, 8), size = le(ph + 32, 8);
      if (le(ph, 4) != 1 /* PT_LOAD */ || lo < vaddr || hi > vaddr + size
          || hi - lo > 64 * 1024 * 1024)
         continue;
      UChar* bytes = VG_(malloc)("vp.entries.fde", hi - lo);
      if (read_at(f, bytes, hi - lo, off + (lo - vaddr))) {
         UInt k;
         for (k = 0; k < n; k++) {
            const UChar* p = bytes + (fdes[k] - lo);
            ULong len = le(p, 4);
            if (len < 12 || len == 0xffffffffu)
               continue;
            Addr begin = fdes[k] + 8 + (Long)(Int)(UInt)le(p + 8, 4);
            if (begin == starts[k])
               ends[k] = begin + le(p + 12, 4);
         }
      }
      VG_(free)(bytes);
      break;
   }
   return ends;
}

/* Reads the records of the ELF file at path; count 0 if it has none. */
static Addr* read_starts(const HChar* path, UInt* count, Addr** ends)
{
   UChar  eh[64];
   Addr*  starts = NULL;
   SysRes fd = VG_(open)(path, VKI_O_RDONLY, 0);
   *count = 0;
   *ends  = NULL;
   if (sr_isError(fd))
      return NULL;
   Int f = (Int)sr_Res(fd);
   if (read_at(f, eh, sizeof eh, 0) && VG_(memcmp)(eh, "\177ELF\2\1", 6) == 0) {
      ULong  phoff = le(eh + 32, 8);
      UInt   phentsize = (UInt)le(eh + 54, 2), phnum = (UInt)le(eh + 56, 2), i;
      UChar* phdrs = VG_(malloc)("vp.entries.phdrs", (SizeT)phnum * phentsize + 1);
      if (phentsize >= 56 && read_at(f, phdrs, (SizeT)phnum * phentsize, phoff)) {
         for (i = 0; i < phnum && starts == NULL; i++) {
            const UChar* ph = phdrs + (SizeT)i * phentsize;
            if (le(ph, 4) != PT_GNU_EH_FRAME)
               continue;
            ULong off = le(ph + 8, 8), vaddr = le(ph + 16, 8), size = le(ph + 32, 8);
            if (size == 0 || size > 64 * 1024 * 1024)
               break;
            UChar* hdr  = VG_(malloc)("vp.entries.hdr", size);
            Addr*  fdes = NULL;
            if (read_at(f, hdr, size, off))
               starts = starts_of_hdr(hdr, size, vaddr, count, &fdes);
            if (starts != NULL) {
               *ends = ends_of_fdes(f, phdrs, phnum, phentsize, starts, fdes, *count);
               VG_(free)(fdes);
            }
            VG_(free)(hdr);
         }
      }
      VG_(free)(phdrs);
   }
   VG_(close)(f);
   return starts;
}

void* VP_(object_record)(XArray** table, SizeT size, const DebugInfo* di, Bool* fresh)
{
   const HChar* path = VG_(DebugInfo_get_filename)(di);
   Addr         text = VG_(DebugInfo_get_text_avma)(di);
   Word         i;
   *fresh = False;
   if (path == NULL)
      return NULL;
   if (*table == NULL)
      *table = VG_(newXA)(VG_(malloc), "vp.objrecords", VG_(free), size);
   for (i = 0; i < VG_(sizeXA)(*table); i++) {
      VP_ObjKey* k = VG_(indexXA)(*table, i);
      if (k->text_avma == text && VG_(strcmp)(k->path, path) == 0)
         return k;
   }
   VP_ObjKey* rec = VG_(calloc)("vp.objrecord", 1, size);
   rec->path      = VG_(strdup)("vp.objrecord.path", path);
   rec->text_avma = text;
   VG_(addToXA)(*table, rec);
   VG_(free)(rec);
   *fresh = True;
   return VG_(indexXA)(*table, VG_(sizeXA)(*table) - 1);
}

static EntryTable* table_for(const DebugInfo* di)
{
   Bool        fresh;
   EntryTable* t = VP_(object_record)(&tables, sizeof(EntryTable), di, &fresh);
   if (fresh)
      t->starts = read_starts(t->key.path, &t->n, &t->ends);
   return t;
}

/* The object holding code outside its .text, by which alone Valgrind
   finds an object: the stubs of the procedure linkage table (.plt,
   .plt.got) and .init, which lie before it in the same mapping.  Of the
   objects of that file name, the one whose .text comes next. */
static const DebugInfo* owner_before_text(DiEpoch ep, Addr a)
{
   const HChar*     name;
   const DebugInfo* di;
   const DebugInfo* best = NULL;
   if (!VG_(get_objname)(ep, a, &name))
      return NULL;
   for (di = VG_(next_DebugInfo)(NULL); di != NULL; di = VG_(next_DebugInfo)(di)) {
      const HChar* path = VG_(DebugInfo_get_filename)(di);
      Addr         text = VG_(DebugInfo_get_text_avma)(di);
      if (path == NULL || text <= a || VG_(strcmp)(path, name) != 0)
         continue;
      if (best == NULL || text < VG_(DebugInfo_get_text_avma)(best))
         best = di;
   }
   return best;
}

Bool VP_(unnamed_fn_start)(DiEpoch ep, Addr a, Addr* start_avma, Addr* start_in_obj)
{
   const DebugInfo* di = VG_(find_DebugInfo)(ep, a);
   if (di == NULL)
      di = owner_before_text(ep, a);
   if (di == NULL)
      return False;
   EntryTable* t = table_for(di);
   if (t == NULL || t->n == 0)
      return False;
   PtrdiffT bias = VG_(DebugInfo_get_text_bias)(di);
   Addr     obj_a = a - bias;
   UInt     lo = 0, hi = t->n;   /* the last start <= obj_a is below hi */
   if (obj_a < t->starts[0])
      return False;
   while (hi - lo > 1) {
      UInt mid = lo + (hi - lo) / 2;
      if (t->starts[mid] <= obj_a) lo = mid; else hi = mid;
   }
   Addr start = t->starts[lo], end = t->ends[lo];
   if (end != 0 && obj_a >= end) {
      /* Past the record's function: a function of its own, without a
         record, from the next 16-byte boundary. */
      start = (end + 15) & ~(Addr)15;
      if (start > obj_a) start = end;
   }
   *start_in_obj = start;
   *start_avma   = start + bias;
   return True;
}
