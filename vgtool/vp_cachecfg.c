/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_cachecfg.c: which caches to simulate.  vgprof's default is one
   fixed geometry, so that profiles taken on different machines compare;
   --cache-from-host=yes takes the host's caches the way cachegrind 3.19
   does (with its fall-backs and LL adjustment), so that vgprof and
   cachegrind run with no options give the same figures.  --I1, --D1 and
   --LL override either.  Validation follows cachegrind's rules: a
   checker returns NULL or the reason a geometry cannot be simulated. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_options.h"
#include "vp_cachecfg.h"

/* Below this a single instruction could span three lines, which the
   simulator does not handle. */
#define MIN_LINE_SIZE 16

/*------------------------------------------------------------*/
/*--- Checking and parsing one geometry                    ---*/
/*------------------------------------------------------------*/

const HChar* VP_(check_cache)(const VP_CacheConfig* c)
{
   Long way_bytes;

   /* Cachegrind would divide by zero on some of these; all of them are
      rejected by its later rules anyway. */
   if (c->size <= 0 || c->assoc <= 0 || c->line_size <= 0)
      return "Cache size, associativity and line size must be positive.\n";

   /* The set index is a bit field of the block number. */
   way_bytes = (Long)c->line_size * c->assoc;
   if (c->size % way_bytes != 0
       || VG_(log2)(c->size / c->line_size / c->assoc) == -1)
      return "Cache set count is not a power of two.\n";

   /* The block number is the address shifted right. */
   if (VG_(log2)(c->line_size) == -1)
      return "Cache line size is not a power of two.\n";

   if (c->line_size < MIN_LINE_SIZE)
      return "Cache line size is too small.\n";

   if (c->size <= c->line_size)
      return "Cache size <= line size.\n";

   if (c->assoc > c->size / c->line_size)
      return "Cache associativity > (size / line size).\n";

   return NULL;
}

/* Reads a decimal Int followed by the character `end`.  False if
   there is no number, it is followed by something else, or it does not
   fit in an Int. */
static Bool read_field(const HChar** p, HChar end, Int* out, Bool* overflow)
{
   HChar* after;
   Long   v = VG_(strtoll10)(*p, &after);

   if (after == *p || *after != end)
      return False;
   *out = (Int)v;
   if ((Long)*out != v)
      *overflow = True;
   *p = after + 1;
   return True;
}

const HChar* VP_(parse_cache_spec)(const HChar* spec, VP_CacheConfig* c)
{
   const HChar* p = spec;
   Bool overflow = False;

   if (!read_field(&p, ',',  &c->size,      &overflow)
       || !read_field(&p, ',',  &c->assoc,     &overflow)
       || !read_field(&p, '\0', &c->line_size, &overflow))
      return "Expected <size>,<assoc>,<line_size> in bytes, e.g. 32768,8,64.\n";
   if (overflow)
      return "One of the cache parameters is too large.\n";
   return VP_(check_cache)(c);
}

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

void VP_(cache_clo_init)(VP_CacheClo* clo)
{
   VP_CacheConfig unset = { 0, 0, 0 };

   clo->from_host = False;
   clo->I1_given = clo->D1_given = clo->LL_given = False;
   clo->I1 = clo->D1 = clo->LL = unset;
}

static void take_cache_spec(const HChar* arg, const HChar* spec,
                            VP_CacheConfig* c, Bool* given)
{
   VP_CacheConfig parsed;
   const HChar*   err = VP_(parse_cache_spec)(spec, &parsed);

   if (err) {
      VG_(fmsg_bad_option)(arg, "%s", err);
      return;   /* only reached when options change at run time */
   }
   *c = parsed;
   *given = True;
}

Bool VP_(cache_clo_option)(const HChar* arg, VP_CacheClo* clo)
{
   const HChar* spec;

   if VG_STR_CLO(arg, "--I1", spec)
      take_cache_spec(arg, spec, &clo->I1, &clo->I1_given);
   else if VG_STR_CLO(arg, "--D1", spec)
      take_cache_spec(arg, spec, &clo->D1, &clo->D1_given);
   else if (VG_STR_CLO(arg, "--LL", spec) || VG_STR_CLO(arg, "--L2", spec))
      take_cache_spec(arg, spec, &clo->LL, &clo->LL_given);
   else if VG_BOOL_CLO(arg, "--cache-from-host", clo->from_host) {}
   else
      return False;
   return True;
}

void VP_(cache_clo_usage)(void)
{
   VG_(printf)(
"    --cache-from-host=no|yes  simulate the host's caches, as cachegrind\n"
"                              does, instead of the fixed geometry [no]\n"
"    --I1=<size>,<assoc>,<line_size>  set the I1 cache [32768,8,64]\n"
"    --D1=<size>,<assoc>,<line_size>  set the D1 cache [32768,8,64]\n"
"    --LL=<size>,<assoc>,<line_size>  set the LL cache [8388608,16,64]\n"
   );
}

/*------------------------------------------------------------*/
/*--- The host's caches, as cachegrind takes them          ---*/
/*------------------------------------------------------------*/

static UInt highest_power_of_two_le(UInt x)
{
   UInt p = 1;

   while (p <= x / 2)
      p *= 2;
   return x == 0 ? 0 : p;
}

Bool VP_(fit_LL_to_sim)(VP_CacheConfig* LL)
{
   ULong size, assoc, line, sets, new_sets, new_assoc, new_size;

   if (LL->size <= 0 || LL->assoc <= 0 || LL->line_size <= 0)
      return False;   /* VP_(check_cache) will say what is wrong */
   size  = (ULong)LL->size;
   assoc = (ULong)LL->assoc;
   line  = (ULong)LL->line_size;
   sets  = size / (assoc * line);
   if (sets == 0)
      return False;

   if (VG_(log2_64)(sets) != -1) {
      /* Only make the size a whole number of sets. */
      new_sets  = sets;
      new_assoc = assoc;
   } else {
      /* Fewer sets, proportionally more ways: the capacity stays about
         the same, which matters more for the miss rate than the exact
         associativity.  The ways are rounded to nearest, halves up. */
      new_sets  = highest_power_of_two_le((UInt)sets);
      new_assoc = (2 * sets * assoc + new_sets) / (2 * new_sets);
   }
   new_size = line * new_assoc * new_sets;
   if (new_size == size && new_assoc == assoc)
      return False;

   VG_(dmsg)("warning: LL cache as reported: %'llu B, %llu-way, %llu B lines\n",
             size, assoc, line);
   VG_(dmsg)("warning: LL cache simulated:   %'llu B, %llu-way, %llu B lines\n",
             new_size, new_assoc, line);
   LL->size  = (Int)new_size;
   LL->assoc = (Int)new_assoc;
   return True;
}

static const VexCache* find_cache(const VexCacheInfo* ci, VexCacheKind kind,
                                  UInt level)
{
   UInt i;

   for (i = 0; i < ci->num_caches; i++)
      if (ci->caches[i].kind == kind && ci->caches[i].level == level)
         return &ci->caches[i];
   return NULL;
}

static VP_CacheConfig config_of(const VexCache* vc)
{
   VP_CacheConfig c = { (Int)vc->sizeB, (Int)vc->assoc, (Int)vc->line_sizeB };
   return c;
}

/* What cachegrind assumes when the host does not say. */
static void arch_default_caches(VP_CacheConfig* I1, VP_CacheConfig* D1,
                                VP_CacheConfig* LL)
{
#if defined(VGA_x86) || defined(VGA_amd64) || defined(VGA_ppc32) \
    || defined(VGA_ppc64be) || defined(VGA_ppc64le)
   VP_CacheConfig i1 = { 65536, 2, 64 }, d1 = { 65536, 2, 64 },
                  ll = { 262144, 8, 64 };
#elif defined(VGA_arm) || defined(VGA_arm64)
   VP_CacheConfig i1 = { 16384, 4, 64 }, d1 = { 16384, 4, 64 },
                  ll = { 262144, 8, 64 };
#elif defined(VGA_s390x)
   VP_CacheConfig i1 = { 65536, 4, 256 }, d1 = { 131072, 8, 256 },
                  ll = { 50331648, 24, 256 };
#elif defined(VGA_mips32) || defined(VGA_mips64) || defined(VGA_nanomips)
   VP_CacheConfig i1 = { 32768, 4, 32 }, d1 = { 32768, 4, 32 },
                  ll = { 524288, 8, 32 };
#else
#  error "vp_cachecfg.c: unknown architecture"
#endif
   *I1 = i1;
   *D1 = d1;
   *LL = ll;
}

/* The I1, D1 and last-level unified caches the host reports; the
   architecture's defaults, with a warning, if it does not report all
   three (no warning if --I1, --D1 and --LL all replace them). */
static void host_caches(VP_CacheConfig* I1, VP_CacheConfig* D1,
                        VP_CacheConfig* LL, Bool all_given)
{
   VexArchInfo        vai;
   const VexCacheInfo* ci;
   const VexCache     *i1, *d1, *ll;

   VG_(machine_get_VexArchInfo)(NULL, &vai);
   ci = &vai.hwcache_info;
   i1 = find_cache(ci, INSN_CACHE, 1);
   d1 = find_cache(ci, DATA_CACHE, 1);
   ll = find_cache(ci, UNIFIED_CACHE, ci->num_levels);

   if (ci->num_caches > 0 && ll == NULL)
      VG_(dmsg)("warning: the host reports no unified last-level cache;"
                " LL figures mean little.\n");
   if (ll != NULL && ci->num_levels > 2)
      VG_(dmsg)("warning: the host has an L%u cache; it is simulated"
                " as LL.\n", ci->num_levels);

   if (i1 && d1 && ll) {
      *I1 = config_of(i1);
      if (i1->is_trace_cache) {
         /* A Pentium 4 trace cache holds micro-ops, not bytes.  Guess a
            byte capacity with power-of-two sets and 32 B lines. */
         I1->size = (i1->sizeB == 12 * 1024 || i1->sizeB == 16 * 1024)
                    ? 16 * 1024 : 32 * 1024;
         I1->line_size = 32;
         VG_(dmsg)("warning: the host has a %u KB micro-op trace cache;\n",
                   i1->sizeB / 1024);
         VG_(dmsg)("         simulating a %d KB I1 cache with %d B lines.\n",
                   I1->size / 1024, I1->line_size);
      }
      *D1 = config_of(d1);
      *LL = config_of(ll);
      return;
   }

   arch_default_caches(I1, D1, LL);
   if (!all_given)
      VG_(dmsg)("warning: cannot find the host's caches; using cachegrind's"
                " defaults for this architecture (-v shows them).\n");
}

/* A host cache the simulator cannot model is fatal unless an option
   replaces it. */
static void check_host_cache(const HChar* name, const VP_CacheConfig* c,
                             Bool replaced)
{
   const HChar* err = VP_(check_cache)(c);

   if (err == NULL)
      return;
   VG_(umsg)("The host's %s cache (%'d B, %d-way, %d B lines) cannot be"
             " simulated: %s", name, c->size, c->assoc, c->line_size, err);
   if (!replaced) {
      VG_(umsg)("Give its geometry with --%s=<size>,<assoc>,<line_size>.\n",
                name);
      VG_(exit)(1);
   }
}

/*------------------------------------------------------------*/
/*--- The configuration used                               ---*/
/*------------------------------------------------------------*/

static void umsg_cache(const HChar* name, const VP_CacheConfig* c)
{
   VG_(umsg)("  %s: %'d B, %d-way, %d B lines\n",
             name, c->size, c->assoc, c->line_size);
}

void VP_(configure_caches)(const VP_CacheClo* clo, VP_CacheConfig* I1,
                           VP_CacheConfig* D1, VP_CacheConfig* LL)
{
   Int min_line, largest_reg;

   if (clo->from_host) {
      host_caches(I1, D1, LL,
                  clo->I1_given && clo->D1_given && clo->LL_given);
      VP_(fit_LL_to_sim)(LL);
      check_host_cache("I1", I1, clo->I1_given);
      check_host_cache("D1", D1, clo->D1_given);
      check_host_cache("LL", LL, clo->LL_given);
   } else {
      VP_CacheConfig i1 = VP_DEFAULT_I1, d1 = VP_DEFAULT_D1,
                     ll = VP_DEFAULT_LL;
      *I1 = i1;
      *D1 = d1;
      *LL = ll;
   }

   /* Options were checked as they were read. */
   if (clo->I1_given) *I1 = clo->I1;
   if (clo->D1_given) *D1 = clo->D1;
   if (clo->LL_given) *LL = clo->LL;
   tl_assert(!VP_(check_cache)(I1) && !VP_(check_cache)(D1)
             && !VP_(check_cache)(LL));

   if (VG_(clo_verbosity) >= 2) {
      VG_(umsg)("Cache configuration used:\n");
      umsg_cache("I1", I1);
      umsg_cache("D1", D1);
      umsg_cache("LL", LL);
   }

   /* A register-sized access must not span more than two lines. */
   min_line = I1->line_size;
   if (D1->line_size < min_line) min_line = D1->line_size;
   if (LL->line_size < min_line) min_line = LL->line_size;
   largest_reg = VG_(machine_get_size_of_largest_guest_register)();
   if (min_line < largest_reg) {
      VG_(umsg)("vgprof: cannot simulate caches with %d B lines: every line"
                " must hold the largest guest register (%d B).\n",
                min_line, largest_reg);
      VG_(exit)(1);
   }
}

void VP_(cache_desc)(const VP_CacheConfig* c, HChar* buf, Int bufsize)
{
   if (c->assoc == 1)
      VG_(snprintf)(buf, bufsize, "%d B, %d B, direct-mapped",
                    c->size, c->line_size);
   else
      VG_(snprintf)(buf, bufsize, "%d B, %d B, %d-way associative",
                    c->size, c->line_size, c->assoc);
}

void VP_(cache_json)(HChar* buf, Int bufsize, const VP_CacheConfig* I1,
                     const VP_CacheConfig* D1, const VP_CacheConfig* LL,
                     Bool branch_sim)
{
   VG_(snprintf)(buf, bufsize,
                 "{\"I1\":[%d,%d,%d],\"D1\":[%d,%d,%d],\"LL\":[%d,%d,%d]"
                 ",\"branches\":%s}",
                 I1->size, I1->assoc, I1->line_size,
                 D1->size, D1->assoc, D1->line_size,
                 LL->size, LL->assoc, LL->line_size,
                 branch_sim ? "true" : "false");
}
