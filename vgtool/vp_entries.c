/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_entries.c: where the functions of code without symbols start.

   A stripped library keeps no names for its internal functions, but it
   keeps their unwind records: the sorted table of .eh_frame_hdr
   (PT_GNU_EH_FRAME) lists the first address of every function the
   compiler emitted unwind information for.  Code without a symbol
   belongs to the function whose record starts at or below it, and that
   function is named by its start as an address within its object, as
   callgrind names the same code ("0x0000000000003080").

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
   HChar* path;        /* the object file */
   Addr   text_avma;   /* where its text is mapped: tells mappings apart */
   UInt   n;           /* starts[0..n): function starts, object addresses, sorted */
   Addr*  starts;
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

/* The starts of the search table of an .eh_frame_hdr held in hdr[0..n),
   loaded at object address hdr_addr; NULL when it has none this reader
   knows (starts come back sorted, as the table is). */
static Addr* starts_of_hdr(const UChar* hdr, SizeT n, Addr hdr_addr, UInt* count)
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
   ULong i;
   for (i = 0; i < fdes; i++)
      starts[i] = hdr_addr + (Long)(Int)(UInt)le(hdr + table + 8 * i, 4);
   *count = (UInt)fdes;
   return starts;
}

/* Reads the table of the ELF file at path; count 0 if it has none. */
static Addr* read_starts(const HChar* path, UInt* count)
{
   UChar  eh[64];
   Addr*  starts = NULL;
   SysRes fd = VG_(open)(path, VKI_O_RDONLY, 0);
   *count = 0;
   if (sr_isError(fd))
      return NULL;
   Int f = (Int)sr_Res(fd);
   if (read_at(f, eh, sizeof eh, 0) && VG_(memcmp)(eh, "\177ELF\2\1", 6) == 0) {
      ULong phoff = le(eh + 32, 8);
      UInt  phentsize = (UInt)le(eh + 54, 2), phnum = (UInt)le(eh + 56, 2), i;
      UChar ph[56];
      for (i = 0; i < phnum && phentsize >= sizeof ph && starts == NULL; i++) {
         if (!read_at(f, ph, sizeof ph, phoff + (ULong)i * phentsize))
            break;
         if (le(ph, 4) != PT_GNU_EH_FRAME)
            continue;
         ULong off = le(ph + 8, 8), vaddr = le(ph + 16, 8), size = le(ph + 32, 8);
         if (size == 0 || size > 64 * 1024 * 1024)
            break;
         UChar* hdr = VG_(malloc)("vp.entries.hdr", size);
         if (read_at(f, hdr, size, off))
            starts = starts_of_hdr(hdr, size, vaddr, count);
         VG_(free)(hdr);
      }
   }
   VG_(close)(f);
   return starts;
}

static EntryTable* table_for(const DebugInfo* di)
{
   const HChar* path = VG_(DebugInfo_get_filename)(di);
   Addr         text = VG_(DebugInfo_get_text_avma)(di);
   Word         i;
   if (path == NULL)
      return NULL;
   if (tables == NULL)
      tables = VG_(newXA)(VG_(malloc), "vp.entries.tables", VG_(free), sizeof(EntryTable));
   for (i = 0; i < VG_(sizeXA)(tables); i++) {
      EntryTable* t = VG_(indexXA)(tables, i);
      if (t->text_avma == text && VG_(strcmp)(t->path, path) == 0)
         return t;
   }
   EntryTable t;
   t.path      = VG_(strdup)("vp.entries.path", path);
   t.text_avma = text;
   t.starts    = read_starts(path, &t.n);
   VG_(addToXA)(tables, &t);
   return VG_(indexXA)(tables, VG_(sizeXA)(tables) - 1);
}

Bool VP_(unnamed_fn_start)(DiEpoch ep, Addr a, Addr* start_avma, Addr* start_in_obj)
{
   DebugInfo* di = VG_(find_DebugInfo)(ep, a);
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
   *start_in_obj = t->starts[lo];
   *start_avma   = t->starts[lo] + bias;
   return True;
}
