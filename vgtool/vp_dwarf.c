/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_dwarf.c: a reader of DWARF (versions 2 to 5) for the names of
   inlined functions.

   Valgrind's own reader (3.19) names an inlined call by the DW_AT_name of
   its abstract origin alone, and not at all when that origin lies in
   another compile unit ("UnknownInlinedFun": common in Rust and in LTO
   builds).  So every Rust async body is "{async_fn#0}", and C++'s
   vector<int>::push_back and deque<int>::push_back are one "push_back".
   This reader follows DW_AT_abstract_origin and DW_AT_specification
   across units and names a function by its linkage name, demangled as
   Valgrind demangles symbols, or else by the path of the scopes the
   debug information declares it in (namespaces, types, and Rust's
   namespaces named after functions).  A Rust name whose linkage name says
   no more than "{{closure}}", or calls an async body a closure, is named
   by that path, which tells closures, async functions and async blocks
   apart ("{async_fn#0}").

   The tool may run no other process and links no libc, so the object
   file is mapped whole into Valgrind's address space (the kernel pages in
   what is read) and read in place.  Nothing is read before it is asked
   for: the list of units once per object, a unit's DIEs when an address
   in its code or a DIE it holds is first asked about (where its DIEs say
   where their siblings start, passing over what holds no code), a
   function's inlined calls when its code is; what that yields (the
   ranges of functions and inlined calls, the scopes, the names) is kept
   for the run.  Separate debug files are looked for by build ID in
   /usr/lib/debug.  Every read is bounded by its section: malformed,
   truncated or compressed debug information, or none, makes the caller
   keep Valgrind's name. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_wordfm.h"
#include "pub_tool_xarray.h"
#include "vp_global.h"
#include "vp_dwarf.h"

/* Exported by libcoregrind, not declared in the tool headers: the mapping
   Valgrind's own reader uses for object files, and its demangler. */
extern SysRes VG_(am_mmap_file_float_valgrind)(SizeT length, UInt prot, Int fd,
                                               Off64T offset);
extern void VG_(demangle)(Bool do_cxx_demangling, Bool do_z_demangling,
                          const HChar* orig, const HChar** result);
extern Bool VG_(clo_demangle);

/*------------------------------------------------------------*/
/*--- DWARF constants                                      ---*/
/*------------------------------------------------------------*/

#define TAG_class        0x02
#define TAG_enumeration  0x04
#define TAG_structure    0x13
#define TAG_union        0x17
#define TAG_inlined      0x1d
#define TAG_subprogram   0x2e
#define TAG_interface    0x38
#define TAG_namespace    0x39
#define TAG_call_site    0x48
#define TAG_GNU_call_site 0x4109

#define AT_sibling       0x01
#define AT_name          0x03
#define AT_low_pc        0x11
#define AT_high_pc       0x12
#define AT_language      0x13
#define AT_abstract_origin 0x31
#define AT_specification 0x47
#define AT_ranges        0x55
#define AT_call_line     0x59
#define AT_linkage_name  0x6e
#define AT_str_offsets_base 0x72
#define AT_addr_base     0x73
#define AT_rnglists_base 0x74
#define AT_MIPS_linkage_name 0x2007
#define AT_GNU_addr_base 0x2133

#define LANG_Rust        0x1c

enum {
   FORM_addr = 0x01, FORM_block2 = 0x03, FORM_block4 = 0x04, FORM_data2 = 0x05,
   FORM_data4 = 0x06, FORM_data8 = 0x07, FORM_string = 0x08, FORM_block = 0x09,
   FORM_block1 = 0x0a, FORM_data1 = 0x0b, FORM_flag = 0x0c, FORM_sdata = 0x0d,
   FORM_strp = 0x0e, FORM_udata = 0x0f, FORM_ref_addr = 0x10, FORM_ref1 = 0x11,
   FORM_ref2 = 0x12, FORM_ref4 = 0x13, FORM_ref8 = 0x14, FORM_ref_udata = 0x15,
   FORM_indirect = 0x16, FORM_sec_offset = 0x17, FORM_exprloc = 0x18,
   FORM_flag_present = 0x19, FORM_strx = 0x1a, FORM_addrx = 0x1b, FORM_ref_sup4 = 0x1c,
   FORM_strp_sup = 0x1d, FORM_data16 = 0x1e, FORM_line_strp = 0x1f, FORM_ref_sig8 = 0x20,
   FORM_implicit_const = 0x21, FORM_loclistx = 0x22, FORM_rnglistx = 0x23,
   FORM_ref_sup8 = 0x24, FORM_strx1 = 0x25, FORM_strx2 = 0x26, FORM_strx3 = 0x27,
   FORM_strx4 = 0x28, FORM_addrx1 = 0x29, FORM_addrx2 = 0x2a, FORM_addrx3 = 0x2b,
   FORM_addrx4 = 0x2c, FORM_GNU_addr_index = 0x1f01, FORM_GNU_str_index = 0x1f02,
   FORM_GNU_ref_alt = 0x1f20, FORM_GNU_strp_alt = 0x1f21
};

/*------------------------------------------------------------*/
/*--- Bounded reading                                      ---*/
/*------------------------------------------------------------*/

typedef struct {
   const UChar* data;
   ULong        size;
} Sect;

/* A read position in a section; reading past its end sets bad and
   yields zeros, so that callers check once, after a whole record. */
typedef struct {
   const UChar* base;
   ULong        size, pos;
   Bool         bad;
} Cur;

static Cur cur_at(Sect s, ULong pos)
{
   Cur c;
   c.base = s.data; c.size = s.size; c.pos = pos; c.bad = pos > s.size;
   return c;
}

static Bool take(Cur* c, ULong n)
{
   if (c->bad || n > c->size - c->pos) {
      c->bad = True;
      c->pos = c->size;
      return False;
   }
   c->pos += n;
   return True;
}

static ULong rd(Cur* c, UInt n)
{
   ULong v = 0;
   Int   i;
   if (!take(c, n)) return 0;
   for (i = (Int)n - 1; i >= 0; i--) v = (v << 8) | c->base[c->pos - n + (UInt)i];
   return v;
}

static ULong uleb(Cur* c)
{
   ULong v = 0;
   UInt  shift = 0;
   for (;;) {
      if (!take(c, 1)) return 0;
      UChar b = c->base[c->pos - 1];
      if (shift < 64) v |= (ULong)(b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) return v;
   }
}

static Long sleb(Cur* c)
{
   ULong v = 0;
   UInt  shift = 0;
   UChar b;
   do {
      if (!take(c, 1)) return 0;
      b = c->base[c->pos - 1];
      if (shift < 64) v |= (ULong)(b & 0x7f) << shift;
      shift += 7;
   } while (b & 0x80);
   if (shift < 64 && (b & 0x40)) v |= ~0ULL << shift;
   return (Long)v;
}

/* The NUL-terminated string at off of s, NULL if it runs past the end. */
static const HChar* str_in(Sect s, ULong off)
{
   ULong i;
   if (s.data == NULL || off >= s.size) return NULL;
   for (i = off; i < s.size; i++)
      if (s.data[i] == 0) return (const HChar*)s.data + off;
   return NULL;
}

/*------------------------------------------------------------*/
/*--- Objects, units, abbreviations                        ---*/
/*------------------------------------------------------------*/

typedef struct { UInt name, form; Long implicit; } AttrSpec;
typedef struct { ULong code; UInt tag; Bool children; UInt first, n; } Abbrev;
typedef struct {
   Abbrev*   abbrevs;  /* sorted by code */
   UInt      n;
   AttrSpec* specs;
} AbbrevTable;

/* A scope a name can be declared in, as the unit's DIEs nest them. */
typedef struct {
   ULong        off, end;   /* the DIE and the end of its children */
   Int          parent;     /* index of the enclosing scope, -1 for none */
   UInt         tag;
   const HChar* name;       /* NULL: none of its own */
   ULong        ref;        /* its specification or origin, 0 for none */
} Scope;

/* A function's out-of-line code (a root) or an inlined call in it. */
typedef struct {
   ULong die;               /* its own DIE */
   ULong origin;            /* the DIE that names it */
   Bool  expanded;          /* its inlined calls read (roots only) */
   UInt  call_line;
   Int   first_child, next_sibling;
   UInt  first_range, n_ranges;
} Node;

typedef struct { Addr lo, hi; } Range;
typedef struct { Addr lo, hi; UInt node; } RootRange;

typedef struct {
   ULong        off, die_off, end;  /* header, first DIE, end; in .debug_info */
   UChar        version, addr_size, off_size;
   Bool         rust;
   Bool         root_read, parsed, broken;
   ULong        abbrev_off;
   AbbrevTable* abbrevs;
   ULong        str_offsets_base, addr_base, rnglists_base;
   Addr         base_pc;
   XArray*      scopes;      /* of Scope, in DIE order */
   XArray*      nodes;       /* of Node */
   XArray*      ranges;      /* of Range */
   XArray*      roots;       /* of RootRange, sorted by lo */
} Unit;

typedef struct { Addr lo, hi; UInt unit; } Span;

typedef struct {
   VP_ObjKey key;
   Bool     ok;
   struct { Sect info, abbrev, str, line_str, str_offsets, addr, ranges, rnglists, aranges; } s;
   Unit*    units;       /* sorted by offset */
   UInt     n_units;
   Span*    spans;       /* sorted by lo */
   UInt     n_spans;
   WordFM*  abbrev_tables; /* abbrev offset -> AbbrevTable* */
   WordFM*  names;         /* DIE offset -> interned name id, VP_DW_NO_NAME */
} Obj;

static XArray* objs;          /* of Obj */

/*------------------------------------------------------------*/
/*--- Reading the ELF file                                 ---*/
/*------------------------------------------------------------*/

#define SHT_NOBITS       8
#define SHF_COMPRESSED   0x800

/* The sections named in the object, mapped at map[0..len). */
static Bool find_sections(Obj* o, const UChar* map, ULong len)
{
   Sect whole = { map, len };
   Cur  c = cur_at(whole, 0);
   if (len < 64 || VG_(memcmp)(map, "\177ELF\2\1", 6) != 0)
      return False;
   c.pos = 0x28;
   ULong shoff = rd(&c, 8);
   c.pos = 0x3a;
   UInt shentsize = (UInt)rd(&c, 2), shnum = (UInt)rd(&c, 2), shstrndx = (UInt)rd(&c, 2);
   if (c.bad || shentsize < 64 || shstrndx >= shnum || shoff > len
       || (ULong)shnum * shentsize > len - shoff)
      return False;
   const UChar* sh = map + shoff;
   Cur sc = cur_at(whole, shoff + (ULong)shstrndx * shentsize + 24);
   ULong stroff = rd(&sc, 8), strsize = rd(&sc, 8);
   if (sc.bad || stroff > len || strsize > len - stroff)
      return False;
   Sect names = { map + stroff, strsize };
   UInt i;
   for (i = 0; i < shnum; i++) {
      Cur h = cur_at(whole, (ULong)(sh - map) + (ULong)i * shentsize);
      UInt  name = (UInt)rd(&h, 4), type = (UInt)rd(&h, 4);
      ULong flags = rd(&h, 8);
      rd(&h, 8);
      ULong off = rd(&h, 8), size = rd(&h, 8);
      const HChar* n = str_in(names, name);
      if (h.bad || n == NULL || type == SHT_NOBITS || off > len || size > len - off)
         continue;
      Sect s = { map + off, size };
      if (flags & SHF_COMPRESSED) s.data = NULL, s.size = 0;
      if      (VG_(strcmp)(n, ".debug_info") == 0)        o->s.info = s;
      else if (VG_(strcmp)(n, ".debug_abbrev") == 0)      o->s.abbrev = s;
      else if (VG_(strcmp)(n, ".debug_str") == 0)         o->s.str = s;
      else if (VG_(strcmp)(n, ".debug_line_str") == 0)    o->s.line_str = s;
      else if (VG_(strcmp)(n, ".debug_str_offsets") == 0) o->s.str_offsets = s;
      else if (VG_(strcmp)(n, ".debug_addr") == 0)        o->s.addr = s;
      else if (VG_(strcmp)(n, ".debug_ranges") == 0)      o->s.ranges = s;
      else if (VG_(strcmp)(n, ".debug_rnglists") == 0)    o->s.rnglists = s;
      else if (VG_(strcmp)(n, ".debug_aranges") == 0)     o->s.aranges = s;
   }
   return o->s.info.data != NULL && o->s.abbrev.data != NULL;
}

/* Maps the file at path and finds its sections; False, with nothing left
   mapped, if it has no debug information this reader can use. */
static Bool map_object(Obj* o, const HChar* path)
{
   struct vg_stat st;
   SysRes fd = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(fd))
      return False;
   Int f = (Int)sr_Res(fd);
   if (VG_(fstat)(f, &st) != 0 || st.size < 64) {
      VG_(close)(f);
      return False;
   }
   SizeT  len = (SizeT)st.size;
   SysRes m = VG_(am_mmap_file_float_valgrind)(len, VKI_PROT_READ, f, 0);
   VG_(close)(f);
   if (sr_isError(m))
      return False;
   const UChar* map = (const UChar*)sr_Res(m);
   if (find_sections(o, map, len))
      return True;
   VG_(am_munmap_valgrind)((Addr)map, len);
   VG_(memset)(&o->s, 0, sizeof o->s);
   return False;
}

/* A separate debug file of path's build ID or debug link, where Debian
   installs them (/usr/lib/debug). */
static Bool map_debug_file(Obj* o, const HChar* path)
{
   HChar  p[4096];
   UChar  buf[4096];
   SysRes fd = VG_(open)(path, VKI_O_RDONLY, 0);
   Int    n, i;
   if (sr_isError(fd))
      return False;
   n = VG_(read)((Int)sr_Res(fd), buf, sizeof buf);
   VG_(close)((Int)sr_Res(fd));
   /* The build-id note is near the start of every object ld writes: look
      for its header (namesz 4, type 3, "GNU") in the first page. */
   for (i = 0; i + 16 + 20 <= n; i += 4) {
      UInt namesz = buf[i] | buf[i + 1] << 8, descsz = buf[i + 4] | buf[i + 5] << 8;
      if (namesz != 4 || buf[i + 8] != 3 || buf[i + 9] || buf[i + 10] || buf[i + 11]
          || VG_(memcmp)(buf + i + 12, "GNU", 4) != 0 || descsz < 2 || descsz > 64
          || i + 16 + (Int)descsz > n || buf[i + 2] || buf[i + 3] || buf[i + 6] || buf[i + 7])
         continue;
      HChar* q = p + VG_(sprintf)(p, "/usr/lib/debug/.build-id/%02x/", buf[i + 16]);
      UInt   k;
      for (k = 1; k < descsz; k++) q += VG_(sprintf)(q, "%02x", buf[i + 16 + k]);
      VG_(strcpy)(q, ".debug");
      return map_object(o, p);
   }
   return False;
}

static Obj* obj_for(const DebugInfo* di)
{
   Bool fresh;
   Obj* o = VP_(object_record)(&objs, sizeof(Obj), di, &fresh);
   if (o != NULL && fresh) {
      o->ok = map_object(o, o->key.path) || map_debug_file(o, o->key.path);
      o->abbrev_tables = VG_(newFM)(VG_(malloc), "vp.dw.abbrevs", VG_(free), NULL);
      o->names         = VG_(newFM)(VG_(malloc), "vp.dw.names", VG_(free), NULL);
   }
   return o;
}

/*------------------------------------------------------------*/
/*--- Abbreviations and attribute values                   ---*/
/*------------------------------------------------------------*/

static Int cmp_abbrev(const void* a, const void* b)
{
   ULong x = ((const Abbrev*)a)->code, y = ((const Abbrev*)b)->code;
   return x < y ? -1 : x > y ? 1 : 0;
}

static AbbrevTable* abbrev_table(Obj* o, ULong off)
{
   UWord key, val;
   if (VG_(lookupFM)(o->abbrev_tables, &key, &val, (UWord)off))
      return (AbbrevTable*)val;
   XArray* abbrevs = VG_(newXA)(VG_(malloc), "vp.dw.ab", VG_(free), sizeof(Abbrev));
   XArray* specs   = VG_(newXA)(VG_(malloc), "vp.dw.sp", VG_(free), sizeof(AttrSpec));
   Cur     c = cur_at(o->s.abbrev, off);
   for (;;) {
      Abbrev ab;
      ab.code = uleb(&c);
      if (ab.code == 0 || c.bad) break;
      ab.tag      = (UInt)uleb(&c);
      ab.children = rd(&c, 1) != 0;
      ab.first    = (UInt)VG_(sizeXA)(specs);
      for (;;) {
         AttrSpec s;
         s.name = (UInt)uleb(&c);
         s.form = (UInt)uleb(&c);
         s.implicit = s.form == FORM_implicit_const ? sleb(&c) : 0;
         if ((s.name == 0 && s.form == 0) || c.bad) break;
         VG_(addToXA)(specs, &s);
      }
      ab.n = (UInt)VG_(sizeXA)(specs) - ab.first;
      if (c.bad) break;
      VG_(addToXA)(abbrevs, &ab);
   }
   AbbrevTable* t = VG_(malloc)("vp.dw.abt", sizeof(AbbrevTable));
   t->n       = (UInt)VG_(sizeXA)(abbrevs);
   t->abbrevs = VG_(malloc)("vp.dw.abs", (t->n + 1) * sizeof(Abbrev));
   t->specs   = VG_(malloc)("vp.dw.sps", (VG_(sizeXA)(specs) + 1) * sizeof(AttrSpec));
   if (t->n) VG_(memcpy)(t->abbrevs, VG_(indexXA)(abbrevs, 0), t->n * sizeof(Abbrev));
   if (VG_(sizeXA)(specs))
      VG_(memcpy)(t->specs, VG_(indexXA)(specs, 0), VG_(sizeXA)(specs) * sizeof(AttrSpec));
   VG_(ssort)(t->abbrevs, t->n, sizeof(Abbrev), cmp_abbrev);
   VG_(deleteXA)(abbrevs);
   VG_(deleteXA)(specs);
   VG_(addToFM)(o->abbrev_tables, (UWord)off, (UWord)t);
   return t;
}

static const Abbrev* abbrev_of(const AbbrevTable* t, ULong code)
{
   if (code >= 1 && code <= t->n && t->abbrevs[code - 1].code == code)
      return &t->abbrevs[code - 1];
   UInt lo = 0, hi = t->n;
   while (lo < hi) {
      UInt mid = lo + (hi - lo) / 2;
      if (t->abbrevs[mid].code < code) lo = mid + 1; else hi = mid;
   }
   return lo < t->n && t->abbrevs[lo].code == code ? &t->abbrevs[lo] : NULL;
}

/* What an attribute's value is, as far as this reader needs to know. */
enum { V_NONE, V_CONST, V_ADDR, V_ADDRX, V_REF, V_STR, V_STRP, V_LINE_STRP, V_STRX,
       V_SECOFF, V_RNGLISTX };

typedef struct {
   UInt         kind;
   ULong        u;
   const HChar* s;
} Val;

/* Reads one value of form, advancing c; kind V_NONE for values of no use
   here (blocks, expressions, references into other files). */
static void read_val(Cur* c, const Unit* u, UInt form, Long implicit, Val* v)
{
   UInt depth = 0;
   v->kind = V_NONE; v->u = 0; v->s = NULL;
again:
   switch (form) {
   case FORM_addr:   v->kind = V_ADDR; v->u = rd(c, u->addr_size); break;
   case FORM_data1:  v->kind = V_CONST; v->u = rd(c, 1); break;
   case FORM_data2:  v->kind = V_CONST; v->u = rd(c, 2); break;
   case FORM_data4:  v->kind = V_CONST; v->u = rd(c, 4); break;
   case FORM_data8:  v->kind = V_CONST; v->u = rd(c, 8); break;
   case FORM_data16: take(c, 16); break;
   case FORM_sdata:  v->kind = V_CONST; v->u = (ULong)sleb(c); break;
   case FORM_udata:  v->kind = V_CONST; v->u = uleb(c); break;
   case FORM_implicit_const: v->kind = V_CONST; v->u = (ULong)implicit; break;
   case FORM_flag:   v->kind = V_CONST; v->u = rd(c, 1); break;
   case FORM_flag_present: v->kind = V_CONST; v->u = 1; break;
   case FORM_string:
      v->s = str_in((Sect){ c->base, c->size }, c->pos);
      if (v->s == NULL) { c->bad = True; break; }
      v->kind = V_STR;
      c->pos += VG_(strlen)(v->s) + 1;
      break;
   case FORM_strp:      v->kind = V_STRP; v->u = rd(c, u->off_size); break;
   case FORM_line_strp: v->kind = V_LINE_STRP; v->u = rd(c, u->off_size); break;
   case FORM_strp_sup: case FORM_GNU_strp_alt: rd(c, u->off_size); break;
   case FORM_strx: case FORM_GNU_str_index: v->kind = V_STRX; v->u = uleb(c); break;
   case FORM_strx1: v->kind = V_STRX; v->u = rd(c, 1); break;
   case FORM_strx2: v->kind = V_STRX; v->u = rd(c, 2); break;
   case FORM_strx3: v->kind = V_STRX; v->u = rd(c, 3); break;
   case FORM_strx4: v->kind = V_STRX; v->u = rd(c, 4); break;
   case FORM_addrx: case FORM_GNU_addr_index: v->kind = V_ADDRX; v->u = uleb(c); break;
   case FORM_addrx1: v->kind = V_ADDRX; v->u = rd(c, 1); break;
   case FORM_addrx2: v->kind = V_ADDRX; v->u = rd(c, 2); break;
   case FORM_addrx3: v->kind = V_ADDRX; v->u = rd(c, 3); break;
   case FORM_addrx4: v->kind = V_ADDRX; v->u = rd(c, 4); break;
   case FORM_ref1: v->kind = V_REF; v->u = u->off + rd(c, 1); break;
   case FORM_ref2: v->kind = V_REF; v->u = u->off + rd(c, 2); break;
   case FORM_ref4: v->kind = V_REF; v->u = u->off + rd(c, 4); break;
   case FORM_ref8: v->kind = V_REF; v->u = u->off + rd(c, 8); break;
   case FORM_ref_udata: v->kind = V_REF; v->u = u->off + uleb(c); break;
   case FORM_ref_addr:
      v->kind = V_REF;
      v->u = rd(c, u->version <= 2 ? u->addr_size : u->off_size);
      break;
   case FORM_ref_sup4: rd(c, 4); break;
   case FORM_ref_sup8: case FORM_ref_sig8: rd(c, 8); break;
   case FORM_GNU_ref_alt: rd(c, u->off_size); break;
   case FORM_sec_offset: v->kind = V_SECOFF; v->u = rd(c, u->off_size); break;
   case FORM_rnglistx: v->kind = V_RNGLISTX; v->u = uleb(c); break;
   case FORM_loclistx: uleb(c); break;
   case FORM_exprloc: case FORM_block: take(c, uleb(c)); break;
   case FORM_block1: take(c, rd(c, 1)); break;
   case FORM_block2: take(c, rd(c, 2)); break;
   case FORM_block4: take(c, rd(c, 4)); break;
   case FORM_indirect:
      form = (UInt)uleb(c);
      if (++depth < 4 && !c->bad) goto again;
      c->bad = True;
      break;
   default: c->bad = True; break;
   }
}

static const HChar* str_of(const Obj* o, const Unit* u, const Val* v)
{
   switch (v->kind) {
   case V_STR:       return v->s;
   case V_STRP:      return str_in(o->s.str, v->u);
   case V_LINE_STRP: return str_in(o->s.line_str, v->u);
   case V_STRX: {
      ULong base = u->str_offsets_base ? u->str_offsets_base : (u->off_size == 8 ? 16 : 8);
      Cur   c = cur_at(o->s.str_offsets, base + v->u * u->off_size);
      ULong off = rd(&c, u->off_size);
      return c.bad ? NULL : str_in(o->s.str, off);
   }
   default: return NULL;
   }
}

static Bool addr_of(const Obj* o, const Unit* u, const Val* v, Addr* out)
{
   if (v->kind == V_ADDR) { *out = (Addr)v->u; return True; }
   if (v->kind != V_ADDRX) return False;
   Cur c = cur_at(o->s.addr, u->addr_base + v->u * u->addr_size);
   *out = (Addr)rd(&c, u->addr_size);
   return !c.bad;
}

/*------------------------------------------------------------*/
/*--- Units                                                ---*/
/*------------------------------------------------------------*/

/* Reads the unit headers of .debug_info. */
static void read_units(Obj* o)
{
   XArray* units = VG_(newXA)(VG_(malloc), "vp.dw.units", VG_(free), sizeof(Unit));
   Cur     c = cur_at(o->s.info, 0);
   while (c.pos < c.size && !c.bad) {
      Unit u;
      VG_(memset)(&u, 0, sizeof u);
      u.off = c.pos;
      ULong len = rd(&c, 4);
      u.off_size = 4;
      if (len == 0xffffffffULL) { len = rd(&c, 8); u.off_size = 8; }
      if (c.bad || len > c.size - c.pos) break;
      u.end = c.pos + len;
      u.version = (UChar)rd(&c, 2);
      if (u.version >= 5) {
         UInt type = (UInt)rd(&c, 1);
         u.addr_size  = (UChar)rd(&c, 1);
         u.abbrev_off = rd(&c, u.off_size);
         if (type == 2 || type == 6) { rd(&c, 8); rd(&c, u.off_size); }
         else if (type == 4 || type == 5) rd(&c, 8);
         u.broken = type != 1 && type != 3 && type != 4;   /* type and split units: no code */
      } else {
         u.abbrev_off = rd(&c, u.off_size);
         u.addr_size  = (UChar)rd(&c, 1);
      }
      u.die_off = c.pos;
      if (u.version < 2 || u.version > 5 || (u.addr_size != 4 && u.addr_size != 8)
          || c.bad || u.die_off > u.end)
         u.broken = True;
      VG_(addToXA)(units, &u);
      c.pos = u.end;
   }
   o->n_units = (UInt)VG_(sizeXA)(units);
   o->units = VG_(malloc)("vp.dw.unitarr", (o->n_units + 1) * sizeof(Unit));
   if (o->n_units)
      VG_(memcpy)(o->units, VG_(indexXA)(units, 0), o->n_units * sizeof(Unit));
   VG_(deleteXA)(units);
}

/* The unit whose header is at off, NULL if none. */
static Unit* unit_by_header(Obj* o, ULong off)
{
   UInt lo = 0, hi = o->n_units;
   while (lo < hi) {
      UInt mid = lo + (hi - lo) / 2;
      if (o->units[mid].off < off) lo = mid + 1; else hi = mid;
   }
   return lo < o->n_units && o->units[lo].off == off ? &o->units[lo] : NULL;
}

/* The unit holding .debug_info offset off. */
static Unit* unit_at(Obj* o, ULong off)
{
   UInt lo = 0, hi = o->n_units;
   while (hi - lo > 1) {
      UInt mid = lo + (hi - lo) / 2;
      if (o->units[mid].off <= off) lo = mid; else hi = mid;
   }
   if (o->n_units == 0 || off < o->units[lo].die_off || off >= o->units[lo].end)
      return NULL;
   return &o->units[lo];
}

/* The attributes of one DIE this reader uses. */
typedef struct {
   UInt         tag;
   Bool         children;
   Val          name, linkage, low, high, ranges, origin, spec, call_line, sibling;
   Val          language, str_offsets_base, addr_base, rnglists_base;
} Die;

/* Reads the DIE at c (its abbreviation code first); False at the null
   entry that ends a list of children, or on malformed data (c->bad). */
static Bool read_die(const Unit* u, Cur* c, Die* d)
{
   ULong code = uleb(c);
   if (code == 0 || c->bad) return False;
   const Abbrev* ab = abbrev_of(u->abbrevs, code);
   if (ab == NULL) { c->bad = True; return False; }
   /* Cleared field by field: this runs for every DIE a unit has. */
   d->name.kind = d->linkage.kind = d->low.kind = d->high.kind = d->ranges.kind = V_NONE;
   d->origin.kind = d->spec.kind = d->call_line.kind = d->sibling.kind = V_NONE;
   d->language.kind = d->str_offsets_base.kind = d->addr_base.kind = V_NONE;
   d->rnglists_base.kind = V_NONE;
   d->tag = ab->tag;
   d->children = ab->children;
   UInt i;
   for (i = 0; i < ab->n && !c->bad; i++) {
      const AttrSpec* s = &u->abbrevs->specs[ab->first + i];
      Val* v;
      switch (s->name) {
      case AT_sibling:            v = &d->sibling; break;
      case AT_name:               v = &d->name; break;
      case AT_linkage_name: case AT_MIPS_linkage_name: v = &d->linkage; break;
      case AT_low_pc:             v = &d->low; break;
      case AT_high_pc:            v = &d->high; break;
      case AT_ranges:             v = &d->ranges; break;
      case AT_abstract_origin:    v = &d->origin; break;
      case AT_specification:      v = &d->spec; break;
      case AT_call_line:          v = &d->call_line; break;
      case AT_language:           v = &d->language; break;
      case AT_str_offsets_base:   v = &d->str_offsets_base; break;
      case AT_addr_base: case AT_GNU_addr_base: v = &d->addr_base; break;
      case AT_rnglists_base:      v = &d->rnglists_base; break;
      default: { Val skip; read_val(c, u, s->form, s->implicit, &skip); continue; }
      }
      read_val(c, u, s->form, s->implicit, v);
   }
   return !c->bad;
}

/* Reads the unit's first DIE: the bases its other DIEs' values are
   relative to.  False if the unit cannot be read. */
static Bool read_root(Obj* o, Unit* u, Die* root)
{
   if (u->broken) return False;
   if (u->abbrevs == NULL) u->abbrevs = abbrev_table(o, u->abbrev_off);
   Cur c = cur_at(o->s.info, u->die_off);
   c.size = u->end;
   if (!read_die(u, &c, root)) { u->broken = True; return False; }
   if (!u->root_read) {
      u->root_read        = True;
      u->rust             = root->language.kind == V_CONST && root->language.u == LANG_Rust;
      u->str_offsets_base = root->str_offsets_base.kind != V_NONE ? root->str_offsets_base.u : 0;
      u->addr_base        = root->addr_base.kind != V_NONE ? root->addr_base.u : 0;
      u->rnglists_base    = root->rnglists_base.kind != V_NONE ? root->rnglists_base.u : 0;
      Addr lo = 0;
      if (addr_of(o, u, &root->low, &lo)) u->base_pc = lo;
   }
   return True;
}

/* Calls add(lo, hi) for each range of code d covers. */
typedef void (*AddRange)(void* ctx, Addr lo, Addr hi);

static void ranges_list(const Obj* o, const Unit* u, ULong off, AddRange add, void* ctx)
{
   Cur  c = cur_at(o->s.ranges, off);
   Addr base = u->base_pc;
   UInt n;
   for (n = 0; n < 100000 && !c.bad; n++) {
      Addr a = (Addr)rd(&c, u->addr_size), b = (Addr)rd(&c, u->addr_size);
      Addr all = u->addr_size == 8 ? ~(Addr)0 : 0xffffffffUL;
      if (c.bad || (a == 0 && b == 0)) break;
      if (a == all) { base = b; continue; }
      add(ctx, base + a, base + b);
   }
}

static void rnglist(const Obj* o, const Unit* u, ULong off, AddRange add, void* ctx)
{
   Cur  c = cur_at(o->s.rnglists, off);
   Addr base = u->base_pc;
   UInt n;
   for (n = 0; n < 100000 && !c.bad; n++) {
      UInt kind = (UInt)rd(&c, 1);
      Val  x, y;
      Addr a = 0, b = 0;
      x.kind = y.kind = V_ADDRX;
      switch (kind) {
      case 0: return;
      case 1: x.u = uleb(&c); if (addr_of(o, u, &x, &a)) base = a; break;
      case 2: x.u = uleb(&c); y.u = uleb(&c);
              if (addr_of(o, u, &x, &a) && addr_of(o, u, &y, &b)) add(ctx, a, b);
              break;
      case 3: x.u = uleb(&c); b = (Addr)uleb(&c);
              if (addr_of(o, u, &x, &a)) add(ctx, a, a + b);
              break;
      case 4: a = (Addr)uleb(&c); b = (Addr)uleb(&c); add(ctx, base + a, base + b); break;
      case 5: base = (Addr)rd(&c, u->addr_size); break;
      case 6: a = (Addr)rd(&c, u->addr_size); b = (Addr)rd(&c, u->addr_size); add(ctx, a, b); break;
      case 7: a = (Addr)rd(&c, u->addr_size); b = (Addr)uleb(&c); add(ctx, a, a + b); break;
      default: return;
      }
   }
}

/* Whether d covers code; add gets each of its ranges. */
static Bool die_ranges(const Obj* o, const Unit* u, const Die* d, AddRange add, void* ctx)
{
   Addr lo;
   if (d->ranges.kind == V_SECOFF || d->ranges.kind == V_CONST) {
      if (u->version >= 5) rnglist(o, u, d->ranges.u, add, ctx);
      else ranges_list(o, u, d->ranges.u, add, ctx);
      return True;
   }
   if (d->ranges.kind == V_RNGLISTX) {
      Cur c = cur_at(o->s.rnglists, u->rnglists_base + d->ranges.u * u->off_size);
      ULong rel = rd(&c, u->off_size);
      if (!c.bad) rnglist(o, u, u->rnglists_base + rel, add, ctx);
      return True;
   }
   if (!addr_of(o, u, &d->low, &lo) || lo == 0)
      return False;
   if (d->high.kind == V_CONST) add(ctx, lo, lo + (Addr)d->high.u);
   else {
      Addr hi;
      if (addr_of(o, u, &d->high, &hi)) add(ctx, lo, hi);
   }
   return True;
}

/*------------------------------------------------------------*/
/*--- Which unit holds an address                          ---*/
/*------------------------------------------------------------*/

typedef struct { XArray* spans; UInt unit; } SpanCtx;

static void add_span(void* ctx, Addr lo, Addr hi)
{
   SpanCtx* s = ctx;
   if (hi <= lo || lo == 0) return;
   Span sp = { lo, hi, s->unit };
   VG_(addToXA)(s->spans, &sp);
}

static Int cmp_span(const void* a, const void* b)
{
   Addr x = ((const Span*)a)->lo, y = ((const Span*)b)->lo;
   return x < y ? -1 : x > y ? 1 : 0;
}

/* The code of each unit: from .debug_aranges, and for units it leaves
   out, from their first DIE. */
static void read_spans(Obj* o)
{
   SpanCtx ctx;
   Bool*   listed = VG_(calloc)("vp.dw.listed", o->n_units + 1, sizeof(Bool));
   UInt    i;
   ctx.spans = VG_(newXA)(VG_(malloc), "vp.dw.spans", VG_(free), sizeof(Span));
   Cur c = cur_at(o->s.aranges, 0);
   while (o->s.aranges.data != NULL && c.pos < c.size && !c.bad) {
      ULong start = c.pos, len = rd(&c, 4);
      UInt  off_size = 4;
      if (len == 0xffffffffULL) { len = rd(&c, 8); off_size = 8; }
      if (c.bad || len > c.size - c.pos) break;
      ULong end = c.pos + len;
      rd(&c, 2);
      ULong info = rd(&c, off_size);
      UInt  asz = (UInt)rd(&c, 1);
      rd(&c, 1);
      Unit* u = unit_by_header(o, info);
      if (c.bad || (asz != 4 && asz != 8) || u == NULL) { c.pos = end; continue; }
      ctx.unit = (UInt)(u - o->units);
      listed[ctx.unit] = True;
      c.pos = start + ((c.pos - start + 2 * asz - 1) / (2 * asz)) * (2 * asz);
      Cur t = c;
      t.size = end;
      while (t.pos < end && !t.bad) {
         Addr a = (Addr)rd(&t, asz), n = (Addr)rd(&t, asz);
         if (t.bad || (a == 0 && n == 0)) break;
         add_span(&ctx, a, a + n);
      }
      c.pos = end;
   }
   for (i = 0; i < o->n_units; i++) {
      Die root;
      if (listed[i] || !read_root(o, &o->units[i], &root)) continue;
      ctx.unit = i;
      die_ranges(o, &o->units[i], &root, add_span, &ctx);
   }
   VG_(free)(listed);
   o->n_spans = (UInt)VG_(sizeXA)(ctx.spans);
   o->spans = VG_(malloc)("vp.dw.spanarr", (o->n_spans + 1) * sizeof(Span));
   if (o->n_spans)
      VG_(memcpy)(o->spans, VG_(indexXA)(ctx.spans, 0), o->n_spans * sizeof(Span));
   VG_(ssort)(o->spans, o->n_spans, sizeof(Span), cmp_span);
   VG_(deleteXA)(ctx.spans);
}

/* The unit whose code holds svma, NULL if none. */
static Unit* unit_of_code(Obj* o, Addr svma)
{
   if (o->units == NULL) {
      read_units(o);
      read_spans(o);
   }
   UInt lo = 0, hi = o->n_spans, k;
   while (lo < hi) {
      UInt mid = lo + (hi - lo) / 2;
      if (o->spans[mid].lo <= svma) lo = mid + 1; else hi = mid;
   }
   /* Spans may overlap (units sharing code): look a few back. */
   for (k = 0; k < 8 && lo > k; k++) {
      const Span* s = &o->spans[lo - 1 - k];
      if (svma < s->hi) return &o->units[s->unit];
   }
   return NULL;
}

/*------------------------------------------------------------*/
/*--- Reading a unit's DIEs                                ---*/
/*------------------------------------------------------------*/

static Bool is_type(UInt tag)
{
   return tag == TAG_class || tag == TAG_structure || tag == TAG_union
          || tag == TAG_enumeration || tag == TAG_interface;
}

/* Whether the children of d can hold no function's code nor inlined
   call: a type's, a declaration's, a call site's. */
static Bool holds_no_code(const Die* d, Bool has_code)
{
   return is_type(d->tag) || (d->tag == TAG_subprogram && !has_code)
          || d->tag == TAG_call_site || d->tag == TAG_GNU_call_site;
}

static Bool is_scope(UInt tag)
{
   return tag == TAG_namespace || tag == TAG_subprogram || is_type(tag);
}

typedef struct { Unit* u; UInt node; } NodeCtx;

static void add_node_range(void* ctx, Addr lo, Addr hi)
{
   NodeCtx* n = ctx;
   if (hi <= lo || lo == 0) return;
   Range r = { lo, hi };
   VG_(addToXA)(n->u->ranges, &r);
   Node* node = VG_(indexXA)(n->u->nodes, n->node);
   node->n_ranges++;
}

static Int cmp_root(const void* a, const void* b)
{
   Addr x = ((const RootRange*)a)->lo, y = ((const RootRange*)b)->lo;
   return x < y ? -1 : x > y ? 1 : 0;
}

#define MAX_DEPTH 256

/* A node for d (at off) with the ranges of its code, an inlined call
   below node parent or, for parent -1, a function's out-of-line code;
   -1 if d gives no code. */
static Int add_node(Obj* o, Unit* u, const Die* d, ULong off, Int parent)
{
   Node n;
   n.die       = off;
   n.origin    = d->origin.kind == V_REF ? d->origin.u : d->spec.kind == V_REF ? d->spec.u : off;
   n.call_line = d->call_line.kind == V_CONST ? (UInt)d->call_line.u : 0;
   n.expanded  = False;
   n.first_child = n.next_sibling = -1;
   n.first_range = (UInt)VG_(sizeXA)(u->ranges);
   n.n_ranges  = 0;
   VG_(addToXA)(u->nodes, &n);
   NodeCtx ctx = { u, (UInt)VG_(sizeXA)(u->nodes) - 1 };
   if (!die_ranges(o, u, d, add_node_range, &ctx))
      return -1;   /* left unlinked */
   Node* me = VG_(indexXA)(u->nodes, ctx.node);
   if (parent >= 0) {
      Node* up = VG_(indexXA)(u->nodes, parent);
      me->next_sibling = up->first_child;
      up->first_child  = (Int)ctx.node;
   } else {
      UInt k;
      for (k = 0; k < me->n_ranges; k++) {
         Range*    r  = VG_(indexXA)(u->ranges, me->first_range + k);
         RootRange rr = { r->lo, r->hi, ctx.node };
         VG_(addToXA)(u->roots, &rr);
      }
   }
   return (Int)ctx.node;
}

/* Whether d's children can be passed over: they hold no code, and d says
   where they end. */
static Bool skippable(const Unit* u, const Cur* c, const Die* d, Bool has_code)
{
   return d->children && holds_no_code(d, has_code) && d->sibling.kind == V_REF
          && d->sibling.u > c->pos && d->sibling.u <= u->end;
}

/* Reads the DIEs of the unit once: its scopes, and where the out-of-line
   code of each of its functions lies.  The inlined calls in a function
   are read when code of it is first asked about (expand_root): few of a
   unit's functions run.  A unit found malformed part way keeps what was
   read before. */
static void parse_unit(Obj* o, Unit* u)
{
   Int  stack[MAX_DEPTH];
   UInt depth = 0;
   Die  d;
   u->parsed = True;
   u->scopes = VG_(newXA)(VG_(malloc), "vp.dw.scopes", VG_(free), sizeof(Scope));
   u->nodes  = VG_(newXA)(VG_(malloc), "vp.dw.nodes", VG_(free), sizeof(Node));
   u->ranges = VG_(newXA)(VG_(malloc), "vp.dw.ranges", VG_(free), sizeof(Range));
   u->roots  = VG_(newXA)(VG_(malloc), "vp.dw.roots", VG_(free), sizeof(RootRange));
   VG_(setCmpFnXA)(u->roots, cmp_root);
   if (!read_root(o, u, &d)) return;
   Cur c = cur_at(o->s.info, u->die_off);
   c.size = u->end;
   Int scope = -1;
   while (c.pos < c.size) {
      ULong off = c.pos;
      if (!read_die(u, &c, &d)) {
         if (c.bad || depth == 0) break;
         /* The end of a list of children: of the scope, if it made one. */
         depth--;
         if (scope >= 0 && stack[depth] != scope) {
            Scope* s = VG_(indexXA)(u->scopes, scope);
            s->end = c.pos;
         }
         scope = stack[depth];
         continue;
      }
      Int my_scope = scope;
      if (is_scope(d.tag)) {
         Scope s;
         s.off = off; s.end = c.pos; s.parent = scope; s.tag = d.tag;
         s.name = str_of(o, u, &d.name);
         s.ref = d.spec.kind == V_REF ? d.spec.u : d.origin.kind == V_REF ? d.origin.u : 0;
         VG_(addToXA)(u->scopes, &s);
         my_scope = (Int)VG_(sizeXA)(u->scopes) - 1;
      }
      Bool has_code = d.low.kind != V_NONE || d.ranges.kind != V_NONE;
      if (has_code && d.tag == TAG_subprogram)
         add_node(o, u, &d, off, -1);
      if (!d.children)
         continue;
      if (skippable(u, &c, &d, has_code && d.tag != TAG_subprogram)) {
         /* Most of a C++ unit's DIEs are the members of the library's
            classes, the parameters of declarations and what functions'
            bodies hold (read when asked for).  The scope reaches to the
            next sibling (C++'s member functions are named by their
            linkage names, not by their scopes). */
         if (my_scope != scope) {
            Scope* sc = VG_(indexXA)(u->scopes, my_scope);
            sc->end = d.sibling.u;
         }
         c.pos = d.sibling.u;
         continue;
      }
      if (depth == MAX_DEPTH) break;
      stack[depth++] = scope;
      if (my_scope != scope) {
         Scope* sc = VG_(indexXA)(u->scopes, my_scope);
         sc->end = u->end;   /* until its null entry is read */
      }
      scope = my_scope;
   }
   VG_(sortXA)(u->roots);
}

/* Reads the inlined calls in the function of node root, nested as their
   DIEs are (lexical blocks passed through). */
static void expand_root(Obj* o, Unit* u, Int root)
{
   Node* r = VG_(indexXA)(u->nodes, root);
   Int   stack[MAX_DEPTH];
   UInt  depth = 0;
   Int   node = root;
   Die   d;
   r->expanded = True;
   Cur c = cur_at(o->s.info, r->die);
   c.size = u->end;
   if (!read_die(u, &c, &d) || !d.children) return;
   for (;;) {
      ULong off = c.pos;
      if (!read_die(u, &c, &d)) {
         if (c.bad || depth == 0) return;
         node = stack[--depth];
         continue;
      }
      Bool has_code = d.low.kind != V_NONE || d.ranges.kind != V_NONE;
      Int  my_node = node;
      if (d.tag == TAG_subprogram)
         my_node = -1;   /* a function of its own, with code of its own */
      else if (d.tag == TAG_inlined && node >= 0 && has_code)
         my_node = add_node(o, u, &d, off, node);
      if (!d.children)
         continue;
      if (skippable(u, &c, &d, has_code)) {
         c.pos = d.sibling.u;
         continue;
      }
      if (depth == MAX_DEPTH) return;
      stack[depth++] = node;
      node = my_node;
   }
}

/*------------------------------------------------------------*/
/*--- Names                                                ---*/
/*------------------------------------------------------------*/

static UInt name_of(Obj* o, ULong off, UInt hops);

/* A growing string. */
typedef struct { HChar* s; SizeT len, cap; } Buf;

static void put(Buf* b, const HChar* s)
{
   SizeT n = VG_(strlen)(s);
   if (b->len + n + 1 > b->cap) {
      b->cap = (b->len + n + 1) * 2;
      b->s = VG_(realloc)("vp.dw.buf", b->s, b->cap);
   }
   VG_(memcpy)(b->s + b->len, s, n + 1);
   b->len += n;
}

/* The innermost scope of u holding the DIE at off, -1 for none. */
static Int scope_of(Unit* u, ULong off)
{
   Word lo = 0, hi = VG_(sizeXA)(u->scopes);
   while (lo < hi) {
      Word mid = lo + (hi - lo) / 2;
      if (((Scope*)VG_(indexXA)(u->scopes, mid))->off < off) lo = mid + 1; else hi = mid;
   }
   Int s = (Int)lo - 1;
   while (s >= 0) {
      const Scope* sc = VG_(indexXA)(u->scopes, s);
      if (off < sc->end) return s;
      s = sc->parent;
   }
   return -1;
}

/* The scopes enclosing the DIE at off, outermost first, each followed by
   "::".  A function's scope is named with its own path. */
static void put_scopes(Obj* o, Unit* u, ULong off, Buf* b, UInt hops)
{
   const HChar* parts[64];
   UInt         n = 0, i;
   Int          s = scope_of(u, off);
   UInt         fn_name = VP_DW_NO_NAME;
   while (s >= 0 && n < 64) {
      const Scope* sc = VG_(indexXA)(u->scopes, s);
      if (sc->tag == TAG_subprogram) {
         fn_name = name_of(o, sc->ref ? sc->ref : sc->off, hops + 1);
         break;
      }
      parts[n++] = sc->name ? sc->name
                 : sc->tag == TAG_namespace ? "(anonymous namespace)" : "{unnamed type}";
      s = sc->parent;
   }
   if (fn_name != VP_DW_NO_NAME) {
      put(b, VP_(str)(fn_name));
      put(b, "::");
   }
   for (i = n; i > 0; i--) {
      put(b, parts[i - 1]);
      put(b, "::");
   }
}

Bool VP_(vague_rust_name)(const HChar* s)
{
   return VG_(strstr)(s, "{{closure}}") != NULL || VG_(strstr)(s, "{closure#") != NULL;
}

/* Whether Rust's demangled name dem says less than the debug information's
   name of the same function: Rust's legacy mangling calls every closure
   and async body "{{closure}}", its v0 mangling an async body a closure
   ("{closure#0}" for "{async_fn#0}"). */
static Bool vaguer_than(const HChar* dem, const HChar* name)
{
   return VG_(strstr)(dem, "{{closure}}") != NULL
          || (name != NULL && VG_(strncmp)(name, "{async", 6) == 0);
}

/* The next "::"-separated component of a Rust path from *p, outside any
   generic arguments' brackets, into out (without its generic arguments
   when bare); False at the end. */
static Bool next_component(const HChar** p, Buf* out, Bool bare)
{
   const HChar* q = *p;
   Int          depth = 0;
   if (*q == '\0') return False;
   out->len = 0;
   put(out, "");
   for (; *q != '\0'; q++) {
      if (depth == 0 && q[0] == ':' && q[1] == ':') { q += 2; break; }
      if (*q == '<') depth++;
      if (*q == '>' && depth > 0) depth--;
      if (!bare || (depth == 0 && *q != '>')) {
         HChar one[2] = { *q, '\0' };
         put(out, one);
      }
   }
   *p = q;
   return True;
}

/* dem, a legacy-mangled Rust name, with each "{{closure}}" replaced in
   order by the closure, async body or block that path, the debug
   information's name of the same function, names in its place
   ("{closure#0}", "{async_fn#0}").  The symbol's path names the type an
   impl is for (std::sync::once::Once::call_once::{{closure}}), where older
   rustc's debug information names the impl block instead
   (std::sync::once::{impl#4}::call_once::{closure#0}).  NULL when the two
   do not have as many closures. */
static HChar* merged_closures(const HChar* dem, const HChar* path)
{
   Buf          comp = { NULL, 0, 0 }, out = { NULL, 0, 0 };
   HChar*       kept[32];
   UInt         n = 0, used = 0, i;
   const HChar* p = path;
   while (next_component(&p, &comp, True))
      if (comp.s[0] == '{' && VG_(strncmp)(comp.s, "{impl#", 6) != 0 && n < 32)
         kept[n++] = VG_(strdup)("vp.dw.closure", comp.s);
   put(&out, "");
   const HChar* d = dem;
   const HChar* at;
   while ((at = VG_(strstr)(d, "{{closure}}")) != NULL) {
      for (; d < at; d++) {
         HChar one[2] = { *d, '\0' };
         put(&out, one);
      }
      if (used == n) break;
      put(&out, kept[used++]);
      d = at + 11;
   }
   Bool ok = at == NULL && used == n;
   if (ok) put(&out, d);
   for (i = 0; i < n; i++) VG_(free)(kept[i]);
   VG_(free)(comp.s);
   if (!ok) {
      VG_(free)(out.s);
      return NULL;
   }
   return out.s;
}

#define MAX_HOPS 8

/* The interned name of the function the DIE at off describes, following
   its specification or abstract origin; VP_DW_NO_NAME if none. */
static UInt name_of(Obj* o, ULong off, UInt hops)
{
   UWord key, val;
   if (VG_(lookupFM)(o->names, &key, &val, (UWord)off))
      return (UInt)val;
   UInt         result = VP_DW_NO_NAME;
   const HChar* linkage = NULL;
   const HChar* name = NULL;
   ULong        name_off = 0, at = off;
   Unit*        name_unit = NULL;
   UInt         k;
   for (k = 0; k < MAX_HOPS && hops < MAX_HOPS; k++) {
      Unit* u = unit_at(o, at);
      Die   root, d;
      if (u == NULL || !read_root(o, u, &root)) break;
      Cur c = cur_at(o->s.info, at);
      c.size = u->end;
      if (!read_die(u, &c, &d)) break;
      if (linkage == NULL) linkage = str_of(o, u, &d.linkage);
      if (name == NULL && (name = str_of(o, u, &d.name)) != NULL) {
         name_off = at;
         name_unit = u;
      }
      if (name != NULL && linkage != NULL) break;
      ULong next = d.spec.kind == V_REF ? d.spec.u : d.origin.kind == V_REF ? d.origin.u : 0;
      if (next == 0 || next == at) break;
      at = next;
   }
   Bool rust = name_unit != NULL && name_unit->rust;
   if (linkage != NULL) {
      const HChar* dem = linkage;
      VG_(demangle)(True, False, linkage, &dem);
      /* A Rust instance is named as its symbol demangles, under either
         mangling: legacy mangling leaves out an instance's generic
         arguments (alloc::vec::Vec<T>::with_capacity), which the debug
         information's name gives ("with_capacity<u64>"); callgrind and
         perf name code by its symbol, so they show every instance without
         them, and the profile names the instances that are not inlined
         the same way. Adding them to the instances inlined would name one
         function two ways, inlined and not. */
      if (dem != NULL && VG_(strcmp)(dem, linkage) != 0 && !(rust && vaguer_than(dem, name)))
         result = VP_(intern_str)(dem);
      else if (!VG_(clo_demangle))
         result = VP_(intern_str)(linkage);
   }
   if (result == VP_DW_NO_NAME && name != NULL) {
      Buf b = { NULL, 0, 0 };
      if (!name_unit->parsed) parse_unit(o, name_unit);
      put(&b, "");
      put_scopes(o, name_unit, name_off, &b, hops);
      put(&b, name);
      const HChar* dem = NULL;
      HChar*       merged = NULL;
      if (rust && linkage != NULL && VG_(strncmp)(linkage, "_ZN", 3) == 0) {
         VG_(demangle)(True, False, linkage, &dem);
         if (dem != NULL && VG_(strstr)(dem, "{{closure}}") != NULL)
            merged = merged_closures(dem, b.s);
      }
      if (merged != NULL) {
         result = VP_(intern_str)(merged);
         VG_(free)(merged);
      } else {
         result = VP_(intern_str)(b.s);
      }
      VG_(free)(b.s);
   }
   VG_(addToFM)(o->names, (UWord)off, (UWord)result);
   return result;
}

/*------------------------------------------------------------*/
/*--- Queries                                              ---*/
/*------------------------------------------------------------*/

static Bool node_holds(const Unit* u, const Node* n, Addr svma)
{
   UInt k;
   for (k = 0; k < n->n_ranges; k++) {
      const Range* r = VG_(indexXA)(u->ranges, n->first_range + k);
      if (r->lo <= svma && svma < r->hi) return True;
   }
   return False;
}

/* The node of the function whose out-of-line code holds a, -1 if none. */
static Int root_at(DiEpoch ep, Addr a, Obj** obj, Unit** unit, Addr* svma)
{
   const DebugInfo* di = VG_(find_DebugInfo)(ep, a);
   if (di == NULL) return -1;
   Obj* o = obj_for(di);
   if (o == NULL || !o->ok) return -1;
   *svma = a - VG_(DebugInfo_get_text_bias)(di);
   Unit* u = unit_of_code(o, *svma);
   if (u == NULL) return -1;
   if (!u->parsed) parse_unit(o, u);
   Word lo = 0, hi = VG_(sizeXA)(u->roots), k;
   while (lo < hi) {
      Word mid = lo + (hi - lo) / 2;
      if (((RootRange*)VG_(indexXA)(u->roots, mid))->lo <= *svma) lo = mid + 1; else hi = mid;
   }
   for (k = lo - 1; k >= 0 && k >= lo - 8; k--) {
      const RootRange* r = VG_(indexXA)(u->roots, k);
      if (*svma < r->hi) {
         *obj = o;
         *unit = u;
         return (Int)r->node;
      }
   }
   return -1;
}

Int VP_(dwarf_inlined_at)(DiEpoch ep, Addr a, VP_DwCall* out, UInt max)
{
   Obj* o;
   Unit* u;
   Addr svma;
   Int  at = root_at(ep, a, &o, &u, &svma);
   UInt n = 0;
   if (at < 0) return -1;
   if (!((const Node*)VG_(indexXA)(u->nodes, at))->expanded)
      expand_root(o, u, at);
   for (;;) {
      const Node* node = VG_(indexXA)(u->nodes, at);
      Int child;
      for (child = node->first_child; child >= 0;
           child = ((const Node*)VG_(indexXA)(u->nodes, child))->next_sibling)
         if (node_holds(u, VG_(indexXA)(u->nodes, child), svma)) break;
      if (child < 0 || n == max) return (Int)n;
      const Node* in = VG_(indexXA)(u->nodes, child);
      out[n].name      = name_of(o, in->origin, 0);
      out[n].call_line = in->call_line;
      n++;
      at = child;
   }
}

Bool VP_(dwarf_fn_name)(DiEpoch ep, Addr a, UInt* name)
{
   Obj* o;
   Unit* u;
   Addr svma;
   Int  at = root_at(ep, a, &o, &u, &svma);
   if (at < 0) return False;
   *name = name_of(o, ((const Node*)VG_(indexXA)(u->nodes, at))->origin, 0);
   return *name != VP_DW_NO_NAME;
}
