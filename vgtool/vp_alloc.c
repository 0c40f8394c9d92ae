/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_alloc.c: watches the program's own allocator, which runs as it would
   without the tool, so that the CPU and cache figures are the program's.

   The functions of the allocators it knows (libc's malloc family, C++'s
   operator new and delete, jemalloc, mimalloc, tcmalloc, Rust's global
   allocator, and those named with --alloc-fn) are found by name in the
   symbol tables of every loaded object.  When one of them is entered and
   the thread is not already inside such a call, the call's arguments and
   its caller's stack are taken; when that outermost call returns, what
   it did (a block made, freed or moved) goes to vp_heap.c.  Calls made
   inside it (operator new's malloc, realloc's malloc) are its own
   business, and so are the memory accesses made meanwhile: they are not
   the program's reading and writing of its blocks, as DHAT's allocator's
   are not.

   An entry is seen by a helper call placed at the function's first
   instruction.  A return is any "ret" after which the stack pointer lies
   above the one the call was entered with (a function the allocator
   tail-calls returns for it): an inline test of VP_(in_alloc) before
   every return lets only those made while the thread is inside a call
   reach the tool.  A call left another way (longjmp, an exception) ends
   when a return passes it without landing on its return address, and
   makes nothing. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "vp_data.h"
#include "libvex_guest_amd64.h"

UWord VP_(in_alloc);

/*------------------------------------------------------------*/
/*--- The functions known                                  ---*/
/*------------------------------------------------------------*/

/* What a call does, and where its arguments are: pos[] gives, for each
   argument the role reads, its position in the call (0: the first). */
typedef enum {
   R_MALLOC,          /* size */
   R_CALLOC,          /* count, size: count * size bytes */
   R_POSIX_MEMALIGN,  /* where the block goes, size; returns 0 when made */
   R_REALLOC,         /* block, size */
   R_REALLOCARRAY,    /* block, count, size */
   R_REALLOCF,        /* block, size; the block is freed if this fails */
   R_FREE,            /* block */
   R_XALLOCX,         /* block, size, extra: resized in place; returns its size */
   R_EXPAND,          /* block, size: resized in place; returns it, or NULL */
   R_LAYOUT_ALLOC,    /* Rust's Layout, as its two words (size and alignment, in
                         the compiler's order) */
   R_FREERES          /* Valgrind's clean-up of libc at exit */
} Role;

typedef struct {
   const HChar* name;
   UChar        role;
   UChar        pos[3];
} Known;

/* The C library's names, also jemalloc's with its prefixes; and
   jemalloc's own. */
static const Known libc_names[] = {
   { "malloc", R_MALLOC, {0} },            { "calloc", R_CALLOC, {0, 1} },
   { "realloc", R_REALLOC, {0, 1} },       { "reallocarray", R_REALLOCARRAY, {0, 1, 2} },
   { "free", R_FREE, {0} },                { "cfree", R_FREE, {0} },
   { "free_sized", R_FREE, {0} },          { "free_aligned_sized", R_FREE, {0} },
   { "memalign", R_MALLOC, {1} },          { "aligned_alloc", R_MALLOC, {1} },
   { "valloc", R_MALLOC, {0} },            { "pvalloc", R_MALLOC, {0} },
   { "posix_memalign", R_POSIX_MEMALIGN, {0, 2} },
};
static const Known jemalloc_names[] = {
   { "mallocx", R_MALLOC, {0} },     { "rallocx", R_REALLOC, {0, 1} },
   { "xallocx", R_XALLOCX, {0, 1, 2} }, { "dallocx", R_FREE, {0} },
   { "sdallocx", R_FREE, {0} },
};
/* operator new and delete in all their forms (64-bit sizes). */
static const Known cxx_names[] = {
   { "_Znwm", R_MALLOC, {0} }, { "_Znam", R_MALLOC, {0} },
   { "_ZnwmRKSt9nothrow_t", R_MALLOC, {0} }, { "_ZnamRKSt9nothrow_t", R_MALLOC, {0} },
   { "_ZnwmSt11align_val_t", R_MALLOC, {0} }, { "_ZnamSt11align_val_t", R_MALLOC, {0} },
   { "_ZnwmSt11align_val_tRKSt9nothrow_t", R_MALLOC, {0} },
   { "_ZnamSt11align_val_tRKSt9nothrow_t", R_MALLOC, {0} },
   { "_ZdlPv", R_FREE, {0} }, { "_ZdaPv", R_FREE, {0} },
   { "_ZdlPvm", R_FREE, {0} }, { "_ZdaPvm", R_FREE, {0} },
   { "_ZdlPvSt11align_val_t", R_FREE, {0} }, { "_ZdaPvSt11align_val_t", R_FREE, {0} },
   { "_ZdlPvmSt11align_val_t", R_FREE, {0} }, { "_ZdaPvmSt11align_val_t", R_FREE, {0} },
   { "_ZdlPvRKSt9nothrow_t", R_FREE, {0} }, { "_ZdaPvRKSt9nothrow_t", R_FREE, {0} },
   { "_ZdlPvSt11align_val_tRKSt9nothrow_t", R_FREE, {0} },
   { "_ZdaPvSt11align_val_tRKSt9nothrow_t", R_FREE, {0} },
};
/* mimalloc's, after "mi_". */
static const Known mimalloc_names[] = {
   { "malloc", R_MALLOC, {0} },        { "zalloc", R_MALLOC, {0} },
   { "malloc_small", R_MALLOC, {0} },  { "zalloc_small", R_MALLOC, {0} },
   { "calloc", R_CALLOC, {0, 1} },     { "mallocn", R_CALLOC, {0, 1} },
   { "realloc", R_REALLOC, {0, 1} },   { "rezalloc", R_REALLOC, {0, 1} },
   { "reallocn", R_REALLOCARRAY, {0, 1, 2} }, { "reallocarray", R_REALLOCARRAY, {0, 1, 2} },
   { "recalloc", R_REALLOCARRAY, {0, 1, 2} }, { "reallocf", R_REALLOCF, {0, 1} },
   { "expand", R_EXPAND, {0, 1} },
   { "free", R_FREE, {0} },            { "cfree", R_FREE, {0} },
   { "free_size", R_FREE, {0} },       { "free_aligned", R_FREE, {0} },
   { "free_size_aligned", R_FREE, {0} },
   { "malloc_aligned", R_MALLOC, {0} }, { "malloc_aligned_at", R_MALLOC, {0} },
   { "zalloc_aligned", R_MALLOC, {0} }, { "zalloc_aligned_at", R_MALLOC, {0} },
   { "calloc_aligned", R_CALLOC, {0, 1} }, { "calloc_aligned_at", R_CALLOC, {0, 1} },
   { "realloc_aligned", R_REALLOC, {0, 1} }, { "realloc_aligned_at", R_REALLOC, {0, 1} },
   { "rezalloc_aligned", R_REALLOC, {0, 1} }, { "rezalloc_aligned_at", R_REALLOC, {0, 1} },
   { "recalloc_aligned", R_REALLOCARRAY, {0, 1, 2} },
   { "recalloc_aligned_at", R_REALLOCARRAY, {0, 1, 2} },
   { "posix_memalign", R_POSIX_MEMALIGN, {0, 2} },
   { "memalign", R_MALLOC, {1} },      { "aligned_alloc", R_MALLOC, {1} },
   { "valloc", R_MALLOC, {0} },        { "pvalloc", R_MALLOC, {0} },
   { "new", R_MALLOC, {0} },           { "new_aligned", R_MALLOC, {0} },
   { "new_nothrow", R_MALLOC, {0} },   { "new_aligned_nothrow", R_MALLOC, {0} },
   { "new_n", R_CALLOC, {0, 1} },      { "new_realloc", R_REALLOC, {0, 1} },
   { "new_reallocn", R_REALLOCARRAY, {0, 1, 2} },
   /* The same on a heap given first. */
   { "heap_malloc", R_MALLOC, {1} },   { "heap_zalloc", R_MALLOC, {1} },
   { "heap_malloc_small", R_MALLOC, {1} }, { "heap_zalloc_small", R_MALLOC, {1} },
   { "heap_calloc", R_CALLOC, {1, 2} }, { "heap_mallocn", R_CALLOC, {1, 2} },
   { "heap_realloc", R_REALLOC, {1, 2} }, { "heap_rezalloc", R_REALLOC, {1, 2} },
   { "heap_reallocn", R_REALLOCARRAY, {1, 2, 3} },
   { "heap_recalloc", R_REALLOCARRAY, {1, 2, 3} },
   { "heap_reallocf", R_REALLOCF, {1, 2} },
   { "heap_malloc_aligned", R_MALLOC, {1} }, { "heap_malloc_aligned_at", R_MALLOC, {1} },
   { "heap_zalloc_aligned", R_MALLOC, {1} }, { "heap_zalloc_aligned_at", R_MALLOC, {1} },
   { "heap_calloc_aligned", R_CALLOC, {1, 2} }, { "heap_calloc_aligned_at", R_CALLOC, {1, 2} },
   { "heap_realloc_aligned", R_REALLOC, {1, 2} },
   { "heap_realloc_aligned_at", R_REALLOC, {1, 2} },
   { "heap_rezalloc_aligned", R_REALLOC, {1, 2} },
   { "heap_rezalloc_aligned_at", R_REALLOC, {1, 2} },
   { "heap_recalloc_aligned", R_REALLOCARRAY, {1, 2, 3} },
   { "heap_recalloc_aligned_at", R_REALLOCARRAY, {1, 2, 3} },
};
/* tcmalloc's, after "tc_". */
static const Known tcmalloc_names[] = {
   { "malloc", R_MALLOC, {0} },        { "malloc_skip_new_handler", R_MALLOC, {0} },
   { "calloc", R_CALLOC, {0, 1} },     { "realloc", R_REALLOC, {0, 1} },
   { "memalign", R_MALLOC, {1} },      { "posix_memalign", R_POSIX_MEMALIGN, {0, 2} },
   { "valloc", R_MALLOC, {0} },        { "pvalloc", R_MALLOC, {0} },
   { "new", R_MALLOC, {0} },           { "newarray", R_MALLOC, {0} },
   { "new_nothrow", R_MALLOC, {0} },   { "newarray_nothrow", R_MALLOC, {0} },
   { "new_aligned", R_MALLOC, {0} },   { "newarray_aligned", R_MALLOC, {0} },
   { "new_aligned_nothrow", R_MALLOC, {0} }, { "newarray_aligned_nothrow", R_MALLOC, {0} },
   { "free", R_FREE, {0} },            { "free_sized", R_FREE, {0} },
   { "cfree", R_FREE, {0} },           { "delete", R_FREE, {0} },
   { "deletearray", R_FREE, {0} },     { "delete_nothrow", R_FREE, {0} },
   { "deletearray_nothrow", R_FREE, {0} }, { "delete_sized", R_FREE, {0} },
   { "deletearray_sized", R_FREE, {0} }, { "delete_aligned", R_FREE, {0} },
   { "deletearray_aligned", R_FREE, {0} }, { "delete_sized_aligned", R_FREE, {0} },
   { "deletearray_sized_aligned", R_FREE, {0} },
   { "delete_aligned_nothrow", R_FREE, {0} }, { "deletearray_aligned_nothrow", R_FREE, {0} },
};
/* Rust's allocator entry points: the shims every allocation goes
   through, the global allocator's (__rg_) and the default one's (__rdl_).
   Newer compilers mangle them (_RNv...7___rustc12___rust_alloc). */
static const Known rust_names[] = {
   { "__rust_alloc", R_MALLOC, {0} },  { "__rust_alloc_zeroed", R_MALLOC, {0} },
   { "__rust_dealloc", R_FREE, {0} },  { "__rust_realloc", R_REALLOC, {0, 3} },
   { "__rg_alloc", R_MALLOC, {0} },    { "__rg_alloc_zeroed", R_MALLOC, {0} },
   { "__rg_dealloc", R_FREE, {0} },    { "__rg_realloc", R_REALLOC, {0, 3} },
   { "__rdl_alloc", R_MALLOC, {0} },   { "__rdl_alloc_zeroed", R_MALLOC, {0} },
   { "__rdl_dealloc", R_FREE, {0} },   { "__rdl_realloc", R_REALLOC, {0, 3} },
};
/* A Rust global allocator's own methods, <T as GlobalAlloc>::alloc and
   the rest, which the shims call (and which the shims inlined into the
   program's code call directly): &self, a pointer for dealloc and
   realloc, the Layout as two words, and realloc's new size. */
static const Known global_alloc_methods[] = {
   { "alloc", R_LAYOUT_ALLOC, {1, 2} },   { "alloc_zeroed", R_LAYOUT_ALLOC, {1, 2} },
   { "dealloc", R_FREE, {1} },            { "realloc", R_REALLOC, {1, 4} },
};
static const Known freeres = { "_vgnU_freeres", R_FREERES, {0} };

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const Known* in_table(const Known* t, UInt n, const HChar* name)
{
   UInt i;
   for (i = 0; i < n; i++)
      if (VG_(strcmp)(t[i].name, name) == 0)
         return &t[i];
   return NULL;
}

static Bool has_prefix(const HChar* s, const HChar* prefix)
{
   return VG_(strncmp)(s, prefix, VG_(strlen)(prefix)) == 0;
}

/* A Rust v0 symbol ending in the identifier id: "...<len>_<id>" (the '_'
   separates a length from an identifier that starts with '_'). */
static Bool rust_v0_ends_in(const HChar* sym, const HChar* id)
{
   SizeT n = VG_(strlen)(sym), k = VG_(strlen)(id);
   HChar len[24];
   if (!has_prefix(sym, "_R") || n < k + 2 || VG_(strcmp)(sym + n - k, id) != 0)
      return False;
   VG_(snprintf)(len, sizeof len, "%lu_", (UWord)k);
   SizeT l = VG_(strlen)(len);
   return n >= k + l && VG_(strncmp)(sym + n - k - l, len, l) == 0;
}

/* A method of a GlobalAlloc implementation, mangled the legacy way
   (..GlobalAlloc$GT$5alloc17h<hash>E) or as v0 (..11GlobalAlloc5alloc). */
static const Known* global_alloc_method(const HChar* sym)
{
   const HChar* t = VG_(strstr)(sym, "GlobalAlloc");
   Bool         legacy = has_prefix(sym, "_ZN");
   SizeT        len = 0;
   UInt         i;
   if (t == NULL || !(legacy || has_prefix(sym, "_R")))
      return NULL;
   t += 11;
   if (legacy && has_prefix(t, "$GT$"))
      t += 4;
   for (; *t >= '0' && *t <= '9'; t++)
      len = len * 10 + (SizeT)(*t - '0');
   for (i = 0; i < N_OF(global_alloc_methods); i++) {
      const HChar* m = global_alloc_methods[i].name;
      if (VG_(strlen)(m) != len || VG_(strncmp)(t, m, len) != 0)
         continue;
      const HChar* rest = t + len;
      if (*rest == '\0' || (legacy && has_prefix(rest, "17h")) || (!legacy && *rest == 'C'))
         return &global_alloc_methods[i];
   }
   return NULL;
}

static const Known* rust_known(const HChar* sym)
{
   UInt i;
   const Known* k = global_alloc_method(sym);
   if (k != NULL)
      return k;
   if (sym[0] == '_' && sym[1] == '_')
      return in_table(rust_names, N_OF(rust_names), sym);
   if (!has_prefix(sym, "_R"))
      return NULL;
   for (i = 0; i < N_OF(rust_names); i++)
      if (rust_v0_ends_in(sym, rust_names[i].name))
         return &rust_names[i];
   return NULL;
}

/*------------------------------------------------------------*/
/*--- Functions named with --alloc-fn                      ---*/
/*------------------------------------------------------------*/

typedef struct {
   const HChar* pattern;   /* the name, with * and ? wildcards */
   Known        known;     /* known.name: the spec, for messages */
} UserFn;

static XArray* user_fns;   /* of UserFn */

/* A role's name, its parameters (in pos[] order) and their positions in
   the libc function of that name, 1-based. */
typedef struct {
   const HChar* name;
   Role         role;
   UInt         n_params;
   UChar        pos[3];
} RoleName;

static const RoleName role_names[] = {
   { "malloc", R_MALLOC, 1, {1} },           { "calloc", R_CALLOC, 2, {1, 2} },
   { "realloc", R_REALLOC, 2, {1, 2} },      { "reallocarray", R_REALLOCARRAY, 3, {1, 2, 3} },
   { "free", R_FREE, 1, {1} },               { "memalign", R_MALLOC, 1, {2} },
   { "aligned_alloc", R_MALLOC, 1, {2} },    { "valloc", R_MALLOC, 1, {1} },
   { "posix_memalign", R_POSIX_MEMALIGN, 2, {1, 3} },
};

/* The argument registers read at a call's entry: the first four are the
   helper's arguments, the other two are read from the guest state. */
#define MAX_ARGS 6

/* Parses NAME=ROLE[:ARG,...] into *out; NULL or what is wrong. */
static const HChar* parse_user_fn(const HChar* spec, UserFn* out)
{
   static HChar why[200];
   const HChar* eq = VG_(strchr)(spec, '=');
   UInt i;
   if (eq == NULL || eq == spec)
      return "expected NAME=ROLE, e.g. pool_get=malloc or pool_put=free:2";
   const HChar* role = eq + 1;
   const HChar* colon = VG_(strchr)(role, ':');
   SizeT        role_len = colon ? (SizeT)(colon - role) : VG_(strlen)(role);
   const RoleName* r = NULL;
   for (i = 0; i < N_OF(role_names); i++)
      if (VG_(strlen)(role_names[i].name) == role_len
          && VG_(strncmp)(role_names[i].name, role, role_len) == 0)
         r = &role_names[i];
   if (r == NULL)
      return "the role must be one of malloc, calloc, realloc, reallocarray, free, "
             "memalign, aligned_alloc, valloc, posix_memalign";
   HChar* name = VG_(malloc)("vp.alloc.user", eq - spec + 1);
   VG_(memcpy)(name, spec, eq - spec);
   name[eq - spec] = '\0';
   out->pattern    = name;
   out->known.name = spec;
   out->known.role = r->role;
   for (i = 0; i < r->n_params; i++)
      out->known.pos[i] = r->pos[i] - 1;
   if (colon == NULL)
      return NULL;
   /* Argument positions, 1-based, one per parameter of the role. */
   const HChar* p = colon + 1;
   for (i = 0; i < r->n_params; i++) {
      if (*p < '1' || *p > '0' + MAX_ARGS || (p[1] != ',' && p[1] != '\0')) {
         VG_(snprintf)(why, sizeof why,
                       "after ':' give %u argument position%s, from 1 to %d%s",
                       r->n_params, r->n_params > 1 ? "s" : "",
                       MAX_ARGS, r->n_params > 1 ? ", separated by commas" : "");
         return why;
      }
      out->known.pos[i] = (UChar)(*p - '1');
      p += p[1] == ',' && i + 1 < r->n_params ? 2 : 1;
   }
   if (*p != '\0') {
      VG_(snprintf)(why, sizeof why, "the role %s takes %u argument position%s", r->name,
                    r->n_params, r->n_params > 1 ? "s" : "");
      return why;
   }
   return NULL;
}

const HChar* VP_(alloc_fn_error)(const HChar* spec)
{
   UserFn u;
   const HChar* why = parse_user_fn(spec, &u);
   if (why == NULL)
      VG_(free)((HChar*)u.pattern);
   return why;
}

static const Known* user_known(const HChar* sym)
{
   Word i;
   for (i = 0; user_fns && i < VG_(sizeXA)(user_fns); i++) {
      UserFn* u = VG_(indexXA)(user_fns, i);
      if (VG_(string_match)(u->pattern, sym))
         return &u->known;
   }
   return NULL;
}

/* A function named with --alloc-fn is a family of its own. */
static UInt user_family(const HChar* name)
{
   HChar buf[256];
   VG_(snprintf)(buf, sizeof buf, "%s (--alloc-fn)", name);
   return VP_(intern_str)(buf);
}

/* Patterns that name a function as a person writes it (Pool::get,
   pool::get) are matched against demangled names too. */
static Bool user_wants_demangled(void)
{
   Word i;
   for (i = 0; user_fns && i < VG_(sizeXA)(user_fns); i++)
      if (VG_(strchr)(((UserFn*)VG_(indexXA)(user_fns, i))->pattern, ':'))
         return True;
   return False;
}

/*------------------------------------------------------------*/
/*--- Families                                             ---*/
/*------------------------------------------------------------*/

static const HChar* base_name(const HChar* path)
{
   const HChar* base = VG_(strrchr)(path, '/');
   return base ? base + 1 : path;
}

Bool VP_(is_object)(const HChar* path, const HChar* base_prefix)
{
   return has_prefix(base_name(path), base_prefix);
}

/* The function called sym in the object at path: what it does, and the
   family it is counted in (a string id), or NULL. */
static const Known* known_function(const HChar* sym, const HChar* path, UInt* family)
{
   HChar        buf[256];
   const Known* k;
   const HChar* at = VG_(strchr)(sym, '@');   /* a symbol version */
   if (at != NULL && at - sym < (Word)sizeof buf) {
      VG_(memcpy)(buf, sym, at - sym);
      buf[at - sym] = '\0';
      sym = buf;
   }
   if ((k = user_known(sym)) != NULL) {
      *family = user_family(sym);
      return k;
   }
   if ((k = in_table(cxx_names, N_OF(cxx_names), sym)) != NULL) {
      *family = VP_(intern_str)("C++ operator new/delete");
      return k;
   }
   if ((k = rust_known(sym)) != NULL) {
      *family = VP_(intern_str)("Rust global allocator");
      return k;
   }
   const HChar* rest = has_prefix(sym, "je_") ? sym + 3
                       : has_prefix(sym, "_rjem_") ? sym + 6 : NULL;
   if (rest != NULL) {
      k = in_table(libc_names, N_OF(libc_names), rest);
      if (k == NULL) k = in_table(jemalloc_names, N_OF(jemalloc_names), rest);
      if (k != NULL) *family = VP_(intern_str)("jemalloc");
      return k;
   }
   if (has_prefix(sym, "mi_")) {
      k = in_table(mimalloc_names, N_OF(mimalloc_names), sym + 3);
      if (k != NULL) *family = VP_(intern_str)("mimalloc");
      return k;
   }
   if (has_prefix(sym, "tc_")) {
      k = in_table(tcmalloc_names, N_OF(tcmalloc_names), sym + 3);
      if (k != NULL) *family = VP_(intern_str)("tcmalloc");
      return k;
   }
   if ((k = in_table(jemalloc_names, N_OF(jemalloc_names), sym)) != NULL) {
      *family = VP_(intern_str)("jemalloc");
      return k;
   }
   if ((k = in_table(libc_names, N_OF(libc_names), sym)) != NULL) {
      if (VP_(is_object)(path, "libc.so")) {
         *family = VP_(intern_str)("libc malloc");
      } else {
         VG_(snprintf)(buf, sizeof buf, "malloc in %s", base_name(path));
         *family = VP_(intern_str)(buf);
      }
      return k;
   }
   if (VG_(strcmp)(sym, freeres.name) == 0 && VP_(is_object)(path, "vgpreload_core")) {
      *family = 0;
      return &freeres;
   }
   return NULL;
}

/* The families whose calls were seen making or freeing a block. */
static XArray* families_seen;   /* of UInt: string ids */

static void note_family(UInt family)
{
   Word i;
   for (i = 0; i < VG_(sizeXA)(families_seen); i++)
      if (*(UInt*)VG_(indexXA)(families_seen, i) == family)
         return;
   VG_(addToXA)(families_seen, &family);
}

UInt VP_(alloc_n_families_seen)(void)
{
   return families_seen ? (UInt)VG_(sizeXA)(families_seen) : 0;
}

const HChar* VP_(alloc_family_seen)(UInt i)
{
   return VP_(str)(*(UInt*)VG_(indexXA)(families_seen, i));
}

/*------------------------------------------------------------*/
/*--- Entry points by address                              ---*/
/*------------------------------------------------------------*/

/* What a helper call at an entry point is given: kept for the whole run,
   as translations made before a change of the debug info still point to
   it. */
typedef struct _Desc {
   struct _Desc* next;
   const Known*  known;
   UInt          family;
} Desc;

static Desc* descs;

static const Desc* desc_for(const Known* k, UInt family)
{
   Desc* d;
   for (d = descs; d; d = d->next)
      if (d->known == k && d->family == family)
         return d;
   d = VP_(perm_alloc)(sizeof(Desc));
   d->known  = k;
   d->family = family;
   d->next   = descs;
   descs     = d;
   return d;
}

typedef struct _Entry {
   struct _Entry* next;   /* hash chain; must come first */
   UWord          addr;   /* hash key; must come second */
   const Desc*    desc;
   UInt           name;   /* the name it is shown by (interned), or 0: its symbol's */
} Entry;

static VgHashTable* entries;
static Int          entries_epoch = -1;

static void add_entry(Addr a, const Known* k, UInt family, const HChar* name)
{
   if (VG_(HT_lookup)(entries, a) != NULL)
      return;   /* another name of the same function */
   Entry* e = VG_(malloc)("vp.alloc.entry", sizeof(Entry));
   e->addr = a;
   e->desc = desc_for(k, family);
   e->name = name != NULL ? VP_(intern_str)(name) : 0;
   VG_(HT_add_node)(entries, e);
}

/* The known function one of a symbol's names calls it, or NULL.  An
   allocator that also exports the C library's names (mimalloc's free is
   mi_free) is counted in its own family, and *own_name is the name of
   that family it goes by (NULL when its symbol's name is that name):
   Valgrind prefers the plain name, which would hide whose free it is. */
static const Known* known_symbol(const HChar* pri, const HChar** sec, const HChar* path,
                                 Bool demangled, UInt* family, const HChar** own_name)
{
   *own_name = NULL;
   const Known* k = known_function(pri, path, family);
   if (k != NULL && in_table(libc_names, N_OF(libc_names), pri) != NULL
       && !VP_(is_object)(path, "libc.so")) {
      const HChar** s;
      for (s = sec; s && *s; s++) {
         UInt         own_family;
         const Known* own = known_function(*s, path, &own_family);
         if (own != NULL && in_table(libc_names, N_OF(libc_names), *s) == NULL
             && own_family != VP_(intern_str)("C++ operator new/delete")) {
            *family   = own_family;
            *own_name = *s;
            return own;
         }
      }
   }
   for (; k == NULL && sec && *sec; sec++)
      k = known_function(*sec, path, family);
   if (k == NULL && demangled) {
      const HChar* d;
      VG_(demangle)(True, False, pri, &d);
      if (d && (k = user_known(d)) != NULL)
         *family = user_family(d);
   }
   return k;
}

static void scan_object(const DebugInfo* di, Bool demangled)
{
   Int          i, n = VG_(DebugInfo_syms_howmany)(di);
   const HChar* path = VG_(DebugInfo_get_filename)(di);
   for (i = 0; i < n; i++) {
      SymAVMAs      avmas;
      const HChar*  pri;
      const HChar** sec;
      Bool          is_text, is_ifunc, is_global;
      UInt          family;
      const HChar*  own_name;
      VG_(DebugInfo_syms_getidx)(di, i, &avmas, NULL, &pri, &sec, &is_text, &is_ifunc,
                                 &is_global);
      if (!is_text || is_ifunc)
         continue;
      const Known* k = known_symbol(pri, sec, path, demangled, &family, &own_name);
      if (k != NULL)
         add_entry(avmas.main, k, family, own_name);
   }
}

/* Every loaded object's known functions, found again whenever the debug
   info changed (an object was loaded or unloaded). */
static void find_entries(void)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   if ((Int)ep.n == entries_epoch)
      return;
   entries_epoch = (Int)ep.n;
   if (entries != NULL)
      VG_(HT_destruct)(entries, VG_(free));
   entries = VG_(HT_construct)("vp.alloc.entries");
   Bool demangled = user_wants_demangled();
   const DebugInfo* di;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di))
      scan_object(di, demangled);
}

Bool VP_(alloc_is_entry)(Addr a)
{
   find_entries();
   return VG_(HT_lookup)(entries, a) != NULL;
}

Bool VP_(alloc_own_name)(Addr fn_start, UInt* name)
{
   find_entries();
   const Entry* e = VG_(HT_lookup)(entries, fn_start);
   if (e == NULL || e->name == 0)
      return False;
   *name = e->name;
   return True;
}

/*------------------------------------------------------------*/
/*--- Calls in progress                                    ---*/
/*------------------------------------------------------------*/

typedef struct {
   const Desc* desc;       /* the outermost call's function; NULL: none */
   UWord       arg[MAX_ARGS];
   Addr        entry_sp;   /* the stack pointer at its first instruction */
   Addr        ret_addr;   /* the return address it found there */
   UInt        n_ips;      /* its caller's stack, when it may make a block */
   Addr*       ips;
} Call;

/* A thread's call, and those of the code its signal handlers interrupted
   (restored when a handler returns). */
#define MAX_SAVED 4
typedef struct {
   Call now;
   Call saved[MAX_SAVED];
   Addr saved_sp[MAX_SAVED];
   UInt n_saved;
} ThreadCalls;

static ThreadCalls** threads;   /* [VG_N_THREADS] */

static ThreadCalls* calls_of(ThreadId tid)
{
   if (threads[tid] == NULL) {
      UInt i;
      ThreadCalls* t = VG_(calloc)("vp.alloc.thread", 1, sizeof(ThreadCalls));
      SizeT ips = VP_(clo).heap_depth * sizeof(Addr);
      t->now.ips = VG_(malloc)("vp.alloc.ips", ips);
      for (i = 0; i < MAX_SAVED; i++)
         t->saved[i].ips = VG_(malloc)("vp.alloc.ips", ips);
      threads[tid] = t;
   }
   return threads[tid];
}

static void set_inside(Bool inside)
{
   VP_(in_alloc) = inside;
   VP_(heap_count_accesses)(!inside);
   VP_(data_alloc_entered)(inside);
}

void VP_(alloc_thread_runs)(ThreadId tid)
{
   set_inside(threads[tid] != NULL && threads[tid]->now.desc != NULL);
}

static Bool makes_a_block(const Call* c, const Known* k)
{
   switch (k->role) {
      case R_MALLOC: case R_CALLOC: case R_POSIX_MEMALIGN: case R_LAYOUT_ALLOC:
         return True;
      case R_REALLOC: case R_REALLOCARRAY: case R_REALLOCF:
         return c->arg[k->pos[0]] == 0;   /* NULL: as malloc */
      default:
         return False;
   }
}

/* Valgrind runs libc's and libstdc++'s clean-up when the program has
   ended (VG_(needs_libc_freeres)), so that what they free is not left
   live at the end, as in DHAT.  Its instructions are not the program's:
   nothing is collected from here on, and the heap's clock stops. */
static void freeres_starts(void)
{
   if (VP_(heap_stopped_at) != 0)
      return;   /* a second library's clean-up: all stopped at the first */
   if (VP_(clo).timeline) VP_(timeline_clock_stops)();
   VP_(heap_stopped_at) = VP_(heap_now)();
   VP_(collection_ends)();
}

static Addr return_address_at(Addr sp)
{
   if (!VG_(am_is_valid_for_client)(sp, sizeof(Addr), VKI_PROT_READ))
      return 0;
   return *(const Addr*)sp;
}

static void entered(const Desc* d, UWord a0, UWord a1, UWord a2, UWord a3, Addr sp)
{
   ThreadId tid = VG_(get_running_tid)();
   Call*    c   = &calls_of(tid)->now;
   if (c->desc != NULL)
      return;   /* inside another call: part of it */
   if (d->known->role == R_FREERES) {
      freeres_starts();
      return;
   }
   c->desc     = d;
   c->arg[0]   = a0; c->arg[1] = a1; c->arg[2] = a2; c->arg[3] = a3;
   VG_(get_shadow_regs_area)(tid, (UChar*)&c->arg[4], 0,
                             offsetof(VexGuestAMD64State, guest_R8), 2 * sizeof(UWord));
   c->entry_sp = sp;
   c->ret_addr = return_address_at(sp);
   c->n_ips    = makes_a_block(c, d->known)
                 ? VG_(get_StackTrace)(tid, c->ips, VP_(clo).heap_depth, NULL, NULL, 0) : 0;
   set_inside(True);
}

/* The i-th argument the call's role reads. */
static UWord arg_of(const Call* c, const Known* k, UInt i) { return c->arg[k->pos[i]]; }

/* count * size, or 0 when it does not fit (the call then fails). */
static SizeT product(UWord count, UWord size)
{
   return size != 0 && count > ~(UWord)0 / size ? 0 : count * size;
}

static Bool new_block(const Call* c, Addr a, SizeT size)
{
   VP_(heap_alloc)(VP_(heap_site_of_stack)(c->ips, c->n_ips), a, size, False);
   return True;
}

/* A realloc's outcome: ptr NULL is a malloc, size 0 a free when nothing
   comes back, NULL back a failure that leaves the block (or frees it,
   for reallocf). */
static Bool reallocated(const Call* c, Addr ptr, SizeT size, Addr result, Bool free_on_fail)
{
   if (ptr == 0)
      return result != 0 && new_block(c, result, size);
   if (result == 0)
      return (size == 0 || free_on_fail) && VP_(heap_free)(ptr);
   return VP_(heap_resize)(ptr, result, size, True);
}

/* The size of a Rust Layout passed as the words a and b.  Which is the
   alignment depends on how the compiler laid the Layout out (rustc 1.95
   puts it first), so it is learnt from the first call where only one
   word is a power of two, the alignment; until then the smaller is taken
   for the alignment, as it nearly always is. */
static Int layout_align_first = -1;   /* -1: not known yet */

static Bool power_of_two(UWord x) { return x != 0 && (x & (x - 1)) == 0; }

static SizeT layout_size(UWord a, UWord b)
{
   if (layout_align_first < 0 && power_of_two(a) != power_of_two(b))
      layout_align_first = power_of_two(a);
   if (layout_align_first < 0)
      return a > b ? a : b;
   return layout_align_first ? b : a;
}

/* What a call of k did, from its arguments and its result: whether it
   made, moved or freed a block. */
static Bool returned(const Call* c, const Known* k, UWord result)
{
   UWord first = arg_of(c, k, 0);
   Addr  made;
   switch ((Role)k->role) {
      case R_MALLOC:
         return result != 0 && new_block(c, result, first);
      case R_CALLOC:
         return result != 0 && new_block(c, result, product(first, arg_of(c, k, 1)));
      case R_LAYOUT_ALLOC:
         return result != 0 && new_block(c, result, layout_size(first, arg_of(c, k, 1)));
      case R_POSIX_MEMALIGN:
         return (UInt)result == 0
                && VG_(am_is_valid_for_client)(first, sizeof(Addr), VKI_PROT_READ)
                && (made = *(const Addr*)first) != 0 && new_block(c, made, arg_of(c, k, 1));
      case R_REALLOC:
         return reallocated(c, first, arg_of(c, k, 1), result, False);
      case R_REALLOCARRAY:
         return reallocated(c, first, product(arg_of(c, k, 1), arg_of(c, k, 2)), result, False);
      case R_REALLOCF:
         return reallocated(c, first, arg_of(c, k, 1), result, True);
      case R_FREE:
         return VP_(heap_free)(first);
      case R_XALLOCX: {   /* the size it now has, of which the call asked at most size + extra */
         SizeT least = arg_of(c, k, 1), most = least + arg_of(c, k, 2);
         return result >= least && VP_(heap_resize)(first, first, result < most ? result : most,
                                                    False);
      }
      case R_EXPAND:
         return result != 0 && result == first
                && VP_(heap_resize)(first, first, arg_of(c, k, 1), False);
      case R_FREERES:
         break;
   }
   return False;
}

/* A return of the running thread, with the stack pointer and the result
   register after it and the address it went to. */
static void return_seen(Addr sp, UWord result, Addr to)
{
   ThreadId tid = VG_(get_running_tid)();
   Call*    c   = &calls_of(tid)->now;
   if (c->desc == NULL || sp <= c->entry_sp)
      return;   /* a return inside the call */
   const Desc* d = c->desc;
   c->desc = NULL;
   set_inside(False);
   if (to != c->ret_addr)
      return;   /* left by longjmp or an exception: nothing was made */
   if (returned(c, d->known, result))
      note_family(d->family);
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

static IRExpr* get_reg(IRSB* sbOut, Int offset)
{
   return VP_(ir_atom)(sbOut, IRExpr_Get(offset, Ity_I64));
}

/* At a known function's first instruction: its arguments, in the
   registers the amd64 calling convention passes them in, and a stack
   trace taken from the guest state, which the call declares it reads
   (with the instruction pointer set to the entry, wherever in the
   superblock it lies). */
void VP_(alloc_add_entry_hook)(IRSB* sbOut, Addr a, const VexGuestLayout* layout)
{
   Entry* e = VG_(HT_lookup)(entries, a);
   tl_assert(e != NULL);
   addStmtToIRSB(sbOut, IRStmt_Put(layout->offset_IP, mkIRExpr_HWord(a)));
   IRExpr** args = mkIRExprVec_6(
      mkIRExpr_HWord((HWord)e->desc),
      get_reg(sbOut, offsetof(VexGuestAMD64State, guest_RDI)),
      get_reg(sbOut, offsetof(VexGuestAMD64State, guest_RSI)),
      get_reg(sbOut, offsetof(VexGuestAMD64State, guest_RDX)),
      get_reg(sbOut, offsetof(VexGuestAMD64State, guest_RCX)),
      get_reg(sbOut, layout->offset_SP));
   IRDirty* di = unsafeIRDirty_0_N(0, "vgprof_alloc_entered", VG_(fnptr_to_fnentry)(entered),
                                   args);
   di->nFxState = 4;
   VG_(memset)(di->fxState, 0, sizeof(di->fxState));
   di->fxState[0].fx = Ifx_Read;
   di->fxState[0].offset = layout->offset_SP;
   di->fxState[0].size = layout->sizeof_SP;
   di->fxState[1].fx = Ifx_Read;
   di->fxState[1].offset = layout->offset_FP;
   di->fxState[1].size = layout->sizeof_FP;
   di->fxState[2].fx = Ifx_Read;
   di->fxState[2].offset = layout->offset_IP;
   di->fxState[2].size = layout->sizeof_IP;
   di->fxState[3].fx = Ifx_Read;   /* the fifth and sixth arguments */
   di->fxState[3].offset = offsetof(VexGuestAMD64State, guest_R8);
   di->fxState[3].size = 2 * sizeof(UWord);
   addStmtToIRSB(sbOut, IRStmt_Dirty(di));
}

/* After a return: the helper is called only while the thread is inside
   a call of the allocator. */
void VP_(alloc_add_return_hook)(IRSB* sbOut, IRSB* sbIn, const VexGuestLayout* layout)
{
   if (sbIn->jumpkind != Ijk_Ret)
      return;
   IRExpr* inside = VP_(ir_load_word)(sbOut, &VP_(in_alloc));
   IRExpr* guard  = VP_(ir_atom)(sbOut, IRExpr_Binop(Iop_CmpNE64, inside,
                                                     IRExpr_Const(IRConst_U64(0))));
   IRExpr** args = mkIRExprVec_3(get_reg(sbOut, layout->offset_SP),
                                 get_reg(sbOut, offsetof(VexGuestAMD64State, guest_RAX)),
                                 sbIn->next);
   IRDirty* di = unsafeIRDirty_0_N(3, "vgprof_alloc_returned", VG_(fnptr_to_fnentry)(return_seen),
                                   args);
   di->guard = guard;
   addStmtToIRSB(sbOut, IRStmt_Dirty(di));
}

/*------------------------------------------------------------*/
/*--- Signals and client requests                          ---*/
/*------------------------------------------------------------*/

/* A handler interrupting a call of the allocator starts outside it (and
   its own calls are seen); the interrupted call is back when it returns. */
void VP_(alloc_pre_signal)(ThreadId tid)
{
   ThreadCalls* t = calls_of(tid);
   if (t->n_saved == MAX_SAVED) {   /* forget the oldest */
      Addr* ips = t->saved[0].ips;
      VG_(memmove)(&t->saved[0], &t->saved[1], (MAX_SAVED - 1) * sizeof(Call));
      VG_(memmove)(&t->saved_sp[0], &t->saved_sp[1], (MAX_SAVED - 1) * sizeof(Addr));
      t->saved[MAX_SAVED - 1].ips = ips;
      t->n_saved--;
   }
   Call* s   = &t->saved[t->n_saved];
   Addr* ips = s->ips;
   *s        = t->now;
   s->ips    = t->now.ips;
   t->now.ips = ips;
   t->now.desc = NULL;
   t->saved_sp[t->n_saved++] = VG_(get_SP)(tid);
   if (tid == VG_(get_running_tid)())
      set_inside(False);
}

/* The handler returned to the code it interrupted, whose stack pointer
   is back (handlers left by longjmp leave theirs behind). */
void VP_(alloc_post_signal)(ThreadId tid)
{
   ThreadCalls* t  = calls_of(tid);
   Addr         sp = VG_(get_SP)(tid);
   while (t->n_saved > 0 && t->saved_sp[t->n_saved - 1] < sp)
      t->n_saved--;
   if (t->n_saved == 0 || t->saved_sp[t->n_saved - 1] != sp)
      return;
   Call* s   = &t->saved[--t->n_saved];
   Addr* ips = t->now.ips;
   t->now    = *s;
   s->ips    = ips;
   if (tid == VG_(get_running_tid)())
      set_inside(t->now.desc != NULL);
}

/* Made or freed inside a call of a known allocator: already counted. */
static Bool inside_a_call(ThreadId tid)
{
   return threads[tid] != NULL && threads[tid]->now.desc != NULL;
}

/* VALGRIND_MALLOCLIKE_BLOCK: a block of the program's own making,
   counted as one even inside a block of the allocator's (as massif counts
   it).  Made inside a call of a known allocator, it is that call's
   business, already counted when the call returns. */
void VP_(alloc_client_block)(ThreadId tid, Addr a, SizeT size)
{
   Addr ips[VP_MAX_HEAP_DEPTH];
   if (inside_a_call(tid))
      return;
   UInt n = VG_(get_StackTrace)(tid, ips, VP_(clo).heap_depth, NULL, NULL, 0);
   VP_(heap_alloc)(VP_(heap_site_of_stack)(ips, n), a, size, True);
   note_family(VP_(intern_str)("client requests"));
}

void VP_(alloc_client_free)(ThreadId tid, Addr a)
{
   if (!inside_a_call(tid) && VP_(heap_free)(a))
      note_family(VP_(intern_str)("client requests"));
}

/* VALGRIND_RESIZEINPLACE_BLOCK: nothing is copied. */
void VP_(alloc_client_resize)(ThreadId tid, Addr a, SizeT new_size)
{
   if (!inside_a_call(tid) && VP_(heap_resize)(a, a, new_size, False))
      note_family(VP_(intern_str)("client requests"));
}

/*------------------------------------------------------------*/
/*--- Set-up, and what was not seen                        ---*/
/*------------------------------------------------------------*/

void VP_(alloc_post_clo_init)(void)
{
   Word i;
   if (!VP_(clo).heap)
      return;
   threads = VG_(calloc)("vp.alloc.threads", VG_N_THREADS, sizeof(ThreadCalls*));
   families_seen = VG_(newXA)(VG_(malloc), "vp.alloc.families", VG_(free), sizeof(UInt));
   user_fns = VG_(newXA)(VG_(malloc), "vp.alloc.userfns", VG_(free), sizeof(UserFn));
   for (i = 0; i < VG_(sizeXA)(VP_(clo).alloc_fns); i++) {
      UserFn u;
      const HChar* why = parse_user_fn(*(const HChar**)VG_(indexXA)(VP_(clo).alloc_fns, i), &u);
      tl_assert(why == NULL);   /* checked when the option was read */
      VG_(addToXA)(user_fns, &u);
   }
}

/* A function that may be an allocator's: its name says alloc or free. */
static Bool looks_like_allocator(const HChar* name)
{
   const HChar* p;
   for (p = name; *p; p++)
      if (VG_(strncmp)(p, "alloc", 5) == 0 || VG_(strncmp)(p, "free", 4) == 0
          || VG_(strncmp)(p, "Alloc", 5) == 0 || VG_(strncmp)(p, "Free", 4) == 0)
         return True;
   return False;
}

/* Objects whose functions are the system's, not the program's. */
static Bool system_object(const HChar* path)
{
   static const HChar* const prefixes[] = {
      "libc.so", "ld-linux", "libstdc++.so", "libgcc_s.so", "libm.so", "vgpreload_",
   };
   UInt i;
   for (i = 0; i < N_OF(prefixes); i++)
      if (VP_(is_object)(path, prefixes[i]))
         return True;
   return False;
}

void VP_(alloc_report_unknown)(void)
{
   const DebugInfo* di;
   UInt  shown = 0, more = 0;
   HChar line[512];
   SizeT used = 0;
   DiEpoch ep = VG_(current_DiEpoch)();
   line[0] = '\0';
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      const HChar* path = VG_(DebugInfo_get_filename)(di);
      Int i, n = VG_(DebugInfo_syms_howmany)(di);
      Addr text = VG_(DebugInfo_get_text_avma)(di);
      /* The client's objects only, not the tool's own. */
      if (system_object(path) || !VG_(am_is_valid_for_client)(text, 1, VKI_PROT_NONE))
         continue;
      for (i = 0; i < n; i++) {
         SymAVMAs     avmas;
         const HChar* pri;
         const HChar* name;
         Bool         is_text, is_ifunc, is_global;
         VG_(DebugInfo_syms_getidx)(di, i, &avmas, NULL, &pri, NULL, &is_text, &is_ifunc,
                                    &is_global);
         if (!is_text || !VG_(get_fnname)(ep, avmas.main, &name) || !looks_like_allocator(name))
            continue;
         if (shown == 6 || used + VG_(strlen)(name) + 8 >= sizeof line) {
            more++;
            continue;
         }
         used += VG_(snprintf)(line + used, sizeof line - used, "%s%s", shown ? ", " : "",
                               name);
         shown++;
      }
   }
   if (shown == 0)
      return;
   VG_(umsg)("vgprof: no allocation was seen; these functions may be an allocator's: %s%s\n",
             line, more ? ", ..." : "");
   VG_(umsg)("vgprof: name them with --alloc-fn=NAME=ROLE (see --help)\n");
}
