/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_test.c: the cache and branch simulator (vgtool/vp_sim.*) and its
   configuration (vgtool/vp_cachecfg.c), run outside Valgrind on access
   patterns whose hits and misses follow by arithmetic from the model:
   set-associative LRU caches, write-allocate, one access per reference
   even across two lines, LL consulted only on an L1 miss, a 2-bit
   counter table indexed by 7 history and 7 address bits, a 512-entry
   last-target table.  Prints "N passed, N failed"; exit status 1 on any
   failure. */

#include <stdio.h>
#include <string.h>

#include "vp_sim.h"
#include "vp_shim.h"

static int passed, failed;

#define CHECK(cond, what)                                               \
   do {                                                                 \
      if (cond) passed++;                                               \
      else { failed++; printf("FAIL %s:%d: %s\n", __func__, __LINE__, what); } \
   } while (0)

#define CHECK_EQ(actual, expected, what)                                \
   do {                                                                 \
      unsigned long long a_ = (actual), e_ = (expected);                \
      if (a_ == e_) passed++;                                           \
      else { failed++; printf("FAIL %s:%d: %s: got %llu, expected %llu\n", \
                              __func__, __LINE__, what, a_, e_); }      \
   } while (0)

#define CHECK_STR(actual, expected, what)                               \
   do {                                                                 \
      const char* a_ = (actual); const char* e_ = (expected);           \
      if (a_ && e_ ? strcmp(a_, e_) == 0 : a_ == e_) passed++;          \
      else { failed++; printf("FAIL %s:%d: %s: got \"%s\", expected \"%s\"\n", \
                              __func__, __LINE__, what, a_ ? a_ : "NULL", \
                              e_ ? e_ : "NULL"); }                      \
   } while (0)

static void init3(Int i1s, Int i1a, Int i1l, Int d1s, Int d1a, Int d1l,
                  Int lls, Int lla, Int lll)
{
   VP_CacheConfig I1 = { i1s, i1a, i1l }, D1 = { d1s, d1a, d1l },
                  LL = { lls, lla, lll };
   VP_(sim_init)(&I1, &D1, &LL);
}

/* Far from block 0, which cachegrind's zeroed tags treat as present. */
#define BASE 0x10000000UL

/*------------------------------------------------------------*/
/*--- Caches                                               ---*/
/*------------------------------------------------------------*/

static void sweep_of_twice_the_size_misses_every_line_of_a_direct_mapped_cache(void)
{
   /* D1: 1 KB direct-mapped, 64 B lines = 16 sets.  32 lines map two to
      a set, so each evicts the other before it comes round again. */
   ULong m1 = 0, mL = 0;
   Addr  a;
   int   pass;

   init3(32768, 8, 64, 1024, 1, 64, 8388608, 16, 64);
   for (pass = 0; pass < 3; pass++)
      for (a = BASE; a < BASE + 2 * 1024; a += 64)
         VP_(sim_D1_ref)(a, 8, &m1, &mL);
   CHECK_EQ(m1, 3 * 32, "D1 misses: every reference of every pass");
   CHECK_EQ(mL, 32, "LL misses: the first pass only, LL holds all 32 lines");
}

static void sweep_of_the_size_misses_only_on_the_first_pass(void)
{
   ULong m1 = 0, mL = 0;
   Addr  a;
   int   pass;

   init3(32768, 8, 64, 1024, 1, 64, 8388608, 16, 64);
   for (pass = 0; pass < 4; pass++)
      for (a = BASE; a < BASE + 1024; a += 4)
         VP_(sim_D1_ref)(a, 4, &m1, &mL);
   CHECK_EQ(m1, 16, "one D1 miss per line, first pass");
   CHECK_EQ(mL, 16, "one LL miss per line, first pass");
}

static void reference_straddling_two_lines_counts_once_and_loads_both(void)
{
   ULong m1 = 0, mL = 0;

   init3(32768, 8, 64, 32768, 8, 64, 8388608, 16, 64);
   /* 8 bytes at line end - 4: lines BASE and BASE+64, both cold. */
   VP_(sim_D1_ref)(BASE + 60, 8, &m1, &mL);
   CHECK_EQ(m1, 1, "two cold lines are one D1 miss");
   CHECK_EQ(mL, 1, "and one LL miss");
   VP_(sim_D1_ref)(BASE + 0, 8, &m1, &mL);
   VP_(sim_D1_ref)(BASE + 64, 8, &m1, &mL);
   CHECK_EQ(m1, 1, "both lines were loaded");

   /* First line present, second cold: still one miss.  LL gets the
      whole reference, so it looks up the present line too. */
   VP_(sim_D1_ref)(BASE + 128 + 60, 8, &m1, &mL);
   CHECK_EQ(m1, 2, "a straddle with one cold line is one D1 miss");
   CHECK_EQ(mL, 2, "and one LL miss");
}

static void straddle_refreshes_both_lines_even_when_the_first_misses(void)
{
   /* D1 2-way, 64 B lines, 2 sets (256 B).  Lines at BASE+0, +128, +256
      share set 0; BASE+64 is set 1.  Fill set 1 with X; set 0 with P,
      Q.  A straddle P'(cold, set 0) + X(set 1) must still make X most
      recently used in set 1. */
   ULong m1 = 0, mL = 0;
   Addr  X = BASE + 64, Y = BASE + 64 + 128, Z = BASE + 64 + 256;

   init3(32768, 8, 64, 256, 2, 64, 8388608, 16, 64);
   VP_(sim_D1_ref)(X, 1, &m1, &mL);          /* set 1: X        */
   VP_(sim_D1_ref)(Y, 1, &m1, &mL);          /* set 1: Y X      */
   VP_(sim_D1_ref)(BASE + 60, 8, &m1, &mL);  /* set 0 miss; set 1: X Y */
   VP_(sim_D1_ref)(Z, 1, &m1, &mL);          /* set 1: Z X, Y out */
   m1 = 0;
   VP_(sim_D1_ref)(X, 1, &m1, &mL);
   CHECK_EQ(m1, 0, "X survives: the straddle made it most recent");
   VP_(sim_D1_ref)(Y, 1, &m1, &mL);
   CHECK_EQ(m1, 1, "Y was the least recent and was evicted");
}

static void two_way_set_evicts_the_least_recently_used_line(void)
{
   /* D1 2-way, 2 sets, 64 B lines: lines 128 B apart share a set. */
   ULong m1 = 0, mL = 0;
   Addr  A = BASE, B = BASE + 128, C = BASE + 256;

   init3(32768, 8, 64, 256, 2, 64, 8388608, 16, 64);
   VP_(sim_D1_ref)(A, 4, &m1, &mL);   /* miss: A     */
   VP_(sim_D1_ref)(B, 4, &m1, &mL);   /* miss: B A   */
   VP_(sim_D1_ref)(A, 4, &m1, &mL);   /* hit:  A B   */
   CHECK_EQ(m1, 2, "A B A: two cold misses, then a hit");
   VP_(sim_D1_ref)(C, 4, &m1, &mL);   /* miss: C A, B out */
   VP_(sim_D1_ref)(A, 4, &m1, &mL);   /* hit:  A C   */
   CHECK_EQ(m1, 3, "C evicts B, not the more recent A");
   VP_(sim_D1_ref)(B, 4, &m1, &mL);   /* miss: B A, C out */
   CHECK_EQ(m1, 4, "B was evicted");
   VP_(sim_D1_ref)(C, 4, &m1, &mL);   /* miss */
   CHECK_EQ(m1, 5, "C was evicted by B");
   CHECK_EQ(mL, 3, "LL misses only the three cold lines");
}

static void fully_associative_lru_thrashes_on_one_line_more_than_it_holds(void)
{
   /* D1 512 B, 8-way, 64 B lines: one set of 8 ways. */
   ULong m1 = 0, mL = 0;
   int   pass, i;

   init3(32768, 8, 64, 512, 8, 64, 8388608, 16, 64);
   for (pass = 0; pass < 5; pass++)
      for (i = 0; i < 8; i++)
         VP_(sim_D1_ref)(BASE + 64 * i, 8, &m1, &mL);
   CHECK_EQ(m1, 8, "a cycle of 8 lines fits: cold misses only");

   init3(32768, 8, 64, 512, 8, 64, 8388608, 16, 64);
   m1 = 0;
   for (pass = 0; pass < 5; pass++)
      for (i = 0; i < 9; i++)
         VP_(sim_D1_ref)(BASE + 64 * i, 8, &m1, &mL);
   CHECK_EQ(m1, 45, "a cycle of 9 lines misses every time under LRU");
}

static void l1_miss_that_hits_ll(void)
{
   /* D1 direct-mapped 1 KB: BASE and BASE+1024 conflict in D1 but both
      fit in LL. */
   ULong m1 = 0, mL = 0;

   init3(32768, 8, 64, 1024, 1, 64, 8388608, 16, 64);
   VP_(sim_D1_ref)(BASE, 8, &m1, &mL);
   VP_(sim_D1_ref)(BASE + 1024, 8, &m1, &mL);
   VP_(sim_D1_ref)(BASE, 8, &m1, &mL);
   CHECK_EQ(m1, 3, "all three miss D1");
   CHECK_EQ(mL, 2, "the third is found in LL");
}

static void ll_is_shared_by_instructions_and_data(void)
{
   ULong m1 = 0, mL = 0, i1 = 0, iL = 0;

   init3(32768, 8, 64, 32768, 8, 64, 8388608, 16, 64);
   VP_(sim_D1_ref)(BASE, 8, &m1, &mL);
   VP_(sim_I1_ref)(BASE + 4, 4, &i1, &iL);
   CHECK_EQ(i1, 1, "I1 does not see data lines");
   CHECK_EQ(iL, 0, "LL already holds the line the data access brought");
}

static void writes_allocate_like_reads(void)
{
   /* There is one reference function for reads and writes: a write
      miss brings the line in, so the following read hits. */
   ULong wm1 = 0, wmL = 0, rm1 = 0, rmL = 0;

   init3(32768, 8, 64, 32768, 8, 64, 8388608, 16, 64);
   VP_(sim_D1_ref)(BASE, 8, &wm1, &wmL);
   VP_(sim_D1_ref)(BASE + 8, 8, &rm1, &rmL);
   CHECK_EQ(wm1 + rm1, 1, "only the write misses");
}

static void ll_with_longer_lines_holds_two_l1_lines(void)
{
   ULong m1 = 0, mL = 0;

   init3(32768, 8, 64, 32768, 8, 64, 8388608, 16, 128);
   VP_(sim_D1_ref)(BASE, 8, &m1, &mL);
   VP_(sim_D1_ref)(BASE + 64, 8, &m1, &mL);
   CHECK_EQ(m1, 2, "two D1 lines");
   CHECK_EQ(mL, 1, "one LL line");
   CHECK_EQ(VP_(sim_min_line_size)(), 64, "the smallest line bounds reference sizes");
}

static void zeroed_tags_make_block_zero_present_as_in_cachegrind(void)
{
   ULong m1 = 0, mL = 0;

   init3(32768, 8, 64, 32768, 8, 64, 8388608, 16, 64);
   VP_(sim_D1_ref)(0x10, 8, &m1, &mL);
   CHECK_EQ(m1, 0, "the first line of the address space hits when cold");
   VP_(sim_D1_ref)(0x40, 8, &m1, &mL);
   CHECK_EQ(m1, 1, "the second does not");
}

/* A deterministic pseudo-random instruction stream: lengths 1-15. */
static ULong lcg_state;
static ULong lcg(void)
{
   lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
   return lcg_state >> 33;
}

/* Runs a stream of superblocks from seed: each starts anywhere in 1 MB
   and runs 1-24 instructions of 1-15 bytes one after the other, with a
   jump inside the block now and then, and a data access after some of
   them (LL is shared).  Every fetch goes whole to VP_(sim_I1_ref), or,
   with ELIDE, as vp_events.c makes them: none for an instruction wholly
   in the line the one before it in the block ended in, the last line
   alone for one starting there or lying in one line. */
typedef struct { ULong i1, iL, d1, dL, fetches, whole; } StreamFigures;

static StreamFigures run_fetch_stream(ULong seed, int elide)
{
   StreamFigures f = {0};
   int   sb, k;

   lcg_state = seed;
   for (sb = 0; sb < 40000; sb++) {
      Addr  pc   = BASE + lcg() % (1 << 20);
      UWord prev = ~(UWord)0;   /* no instruction before in the block */
      int   n    = 1 + lcg() % 24;
      for (k = 0; k < n; k++) {
         UChar len   = 1 + lcg() % 15;
         UWord first = VP_(sim_I1_line)(pc), last = VP_(sim_I1_line)(pc + len - 1);
         if (!elide) {
            VP_(sim_I1_ref)(pc, len, &f.i1, &f.iL);
            f.fetches++;
         } else if (first != prev || last != first) {
            if (first == prev || first == last)
               VP_(sim_I1_ref_last)(pc, len, &f.i1, &f.iL);
            else {
               VP_(sim_I1_ref)(pc, len, &f.i1, &f.iL);
               f.whole++;
            }
            f.fetches++;
         }
         prev = last;
         if (lcg() % 3 == 0)
            VP_(sim_D1_ref)(BASE + (lcg() % (1 << 21)), 1 + lcg() % 8, &f.d1, &f.dL);
         pc = lcg() % 8 == 0 ? BASE + lcg() % (1 << 20) : pc + len;
      }
   }
   return f;
}

static void eliding_same_line_fetches_gives_the_same_figures(void)
{
   /* Small caches so that every level misses a lot; LL's lines as long
      as I1's, then twice as long. */
   static const Int ll_lines[] = { 64, 128 };
   unsigned g;
   for (g = 0; g < sizeof ll_lines / sizeof ll_lines[0]; g++) {
      init3(4096, 2, 64, 4096, 2, 64, 65536, 4, ll_lines[g]);
      StreamFigures all = run_fetch_stream(42, 0);
      init3(4096, 2, 64, 4096, 2, 64, 65536, 4, ll_lines[g]);
      StreamFigures some = run_fetch_stream(42, 1);
      CHECK(all.i1 > 10000 && all.iL > 1000 && all.d1 > 10000, "the stream exercises both levels");
      CHECK(some.fetches < all.fetches / 2, "most fetches are elided");
      CHECK(some.whole > 1000, "some fetches cross into a line not looked up before");
      CHECK_EQ(some.i1, all.i1, "same I1 misses");
      CHECK_EQ(some.iL, all.iL, "same LL misses of fetches");
      CHECK_EQ(some.d1, all.d1, "same D1 misses");
      CHECK_EQ(some.dL, all.dL, "same LL misses of data");
   }
}

/*------------------------------------------------------------*/
/*--- Branch predictors                                    ---*/
/*------------------------------------------------------------*/

static void always_taken_branch_mispredicts_until_history_and_counter_settle(void)
{
   /* Counters start at 0 (predict not taken).  The history bits go
      0, 1, 3, ... 63 over the first 7 executions, each a fresh counter:
      7 mispredicts.  From the 8th on the history is 127: that counter
      needs two takens to reach 2.  9 in all, then none. */
   UInt wrong = 0;
   int  i;

   init3(32768, 8, 64, 32768, 8, 64, 8388608, 16, 64);
   for (i = 0; i < 1000; i++)
      wrong += VP_(sim_cond_branch)(0x401000, True);
   CHECK_EQ(wrong, 9, "7 history warm-up + 2 counter steps");
}

static void never_taken_branch_is_never_mispredicted(void)
{
   UInt wrong = 0;
   int  i;

   init3(32768, 8, 64, 32768, 8, 64, 8388608, 16, 64);
   for (i = 0; i < 1000; i++)
      wrong += VP_(sim_cond_branch)(0x401000, False);
   CHECK_EQ(wrong, 0, "counters start predicting not taken, history stays 0");
}

static void alternating_branch_is_learnt_from_history(void)
{
   UInt wrong = 0;
   int  i;

   init3(32768, 8, 64, 32768, 8, 64, 8388608, 16, 64);
   for (i = 0; i < 100; i++)
      VP_(sim_cond_branch)(0x401000, i & 1);
   for (i = 100; i < 1100; i++)
      wrong += VP_(sim_cond_branch)(0x401000, i & 1);
   CHECK_EQ(wrong, 0, "two history patterns, two trained counters");
}

static void conditional_branches_128_bytes_apart_share_counters(void)
{
   int i;

   init3(32768, 8, 64, 32768, 8, 64, 8388608, 16, 64);
   for (i = 0; i < 20; i++)
      VP_(sim_cond_branch)(0x401000, True);
   /* History is now 127 and counter (127, 0x401000 & 127) is 3. */
   CHECK_EQ(VP_(sim_cond_branch)(0x401000 + 128, True), 0,
            "aliases the trained branch: predicted taken");
   CHECK_EQ(VP_(sim_cond_branch)(0x401000 + 1, True), 1,
            "a neighbour has its own cold counter");
}

static void indirect_branch_predicts_its_last_target(void)
{
   init3(32768, 8, 64, 32768, 8, 64, 8388608, 16, 64);
   CHECK_EQ(VP_(sim_ind_branch)(0x402000, 0x500000), 1, "cold table");
   CHECK_EQ(VP_(sim_ind_branch)(0x402000, 0x500000), 0, "same target again");
   CHECK_EQ(VP_(sim_ind_branch)(0x402000, 0x600000), 1, "new target");
   CHECK_EQ(VP_(sim_ind_branch)(0x402000 + 512, 0x600000), 0,
            "512 bytes further shares the entry");
   CHECK_EQ(VP_(sim_ind_branch)(0x402001, 0x600000), 1, "the next byte does not");
}

/*------------------------------------------------------------*/
/*--- Configuration                                        ---*/
/*------------------------------------------------------------*/

static const char* check(Int size, Int assoc, Int line)
{
   VP_CacheConfig c = { size, assoc, line };
   return VP_(check_cache)(&c);
}

static void check_cache_applies_cachegrinds_rules(void)
{
   CHECK_STR(check(32768, 8, 64), NULL, "vgprof's I1/D1");
   CHECK_STR(check(8388608, 16, 64), NULL, "vgprof's LL");
   CHECK_STR(check(12582912, 24, 64), NULL, "a size that is not a power of two, 8192 sets");
   CHECK_STR(check(12582912, 16, 64), "Cache set count is not a power of two.\n", "12288 sets");
   CHECK_STR(check(1000, 2, 64), "Cache set count is not a power of two.\n", "size not a multiple of a way");
   CHECK_STR(check(3 * 96 * 4, 3, 96), "Cache line size is not a power of two.\n", "96 B lines, 4 sets");
   CHECK_STR(check(256, 2, 8), "Cache line size is too small.\n", "8 B lines");
   CHECK_STR(check(64, 1, 64), "Cache size <= line size.\n", "one line");
   CHECK_STR(check(16384, 1, 16), NULL, "16 B lines are allowed");
   CHECK_STR(check(0, 1, 64), "Cache size, associativity and line size must be positive.\n", "zero size");
   CHECK_STR(check(65536, 0, 64), "Cache size, associativity and line size must be positive.\n", "zero ways");
   CHECK_STR(check(65536, 1024, 64), NULL, "fully associative");
}

static void parse_reads_size_assoc_line(void)
{
   VP_CacheConfig c;

   CHECK_STR(VP_(parse_cache_spec)("65536,2,64", &c), NULL, "good spec");
   CHECK(c.size == 65536 && c.assoc == 2 && c.line_size == 64, "its values");
   CHECK(VP_(parse_cache_spec)("65536,2", &c) != NULL, "two fields");
   CHECK(VP_(parse_cache_spec)("65536,2,64,", &c) != NULL, "trailing comma");
   CHECK(VP_(parse_cache_spec)("64k,2,64", &c) != NULL, "a suffix");
   CHECK(VP_(parse_cache_spec)(",2,64", &c) != NULL, "an empty field");
   CHECK_STR(VP_(parse_cache_spec)("4294967296,2,64", &c),
             "One of the cache parameters is too large.\n", "overflow");
   CHECK_STR(VP_(parse_cache_spec)("1000,2,64", &c),
             "Cache set count is not a power of two.\n", "checked after parsing");
}

static void fit_LL_keeps_capacity_with_power_of_two_sets(void)
{
   VP_CacheConfig intel = { 12582912, 16, 64 };   /* 12288 sets */
   VP_CacheConfig amd   = { 5242880, 48, 64 };    /* 1706.67 sets */
   VP_CacheConfig ragged = { 8388608 + 100, 16, 64 };
   VP_CacheConfig fine  = { 8388608, 16, 64 };

   shim_clear_messages();
   CHECK(VP_(fit_LL_to_sim)(&intel), "12 MB 16-way is changed");
   /* 12288 sets -> 8192, ways * 1.5 = 24, size 64*24*8192 = 12 MB. */
   CHECK(intel.size == 12582912 && intel.assoc == 24 && intel.line_size == 64,
         "12 MB, 24-way, 64 B lines");
   CHECK(strstr(shim_messages, "warning:") != NULL, "with a warning");
   /* 1706 sets -> 1024, ways round(48 * 1706 / 1024 = 79.97) = 80. */
   CHECK(VP_(fit_LL_to_sim)(&amd), "5 MB 48-way is changed");
   CHECK(amd.size == 64 * 80 * 1024 && amd.assoc == 80, "5 MB, 80-way");
   CHECK(VP_(fit_LL_to_sim)(&ragged), "a size that is not whole sets is trimmed");
   CHECK(ragged.size == 8388608 && ragged.assoc == 16, "to the whole sets");
   shim_clear_messages();
   CHECK(!VP_(fit_LL_to_sim)(&fine), "a simulable LL is left alone");
   CHECK_STR(shim_messages, "", "silently");
}

typedef struct {
   VP_CacheClo    clo;
   VP_CacheConfig I1, D1, LL;
} ConfigRun;

static void run_configure(void* p)
{
   ConfigRun* r = p;
   VP_(configure_caches)(&r->clo, &r->I1, &r->D1, &r->LL);
}

typedef struct {
   VP_CacheClo* clo;
   const char*  arg;
   Bool*        recognised;
} OptionRun;

static void run_option(void* p)
{
   OptionRun* r = p;
   *r->recognised = VP_(cache_clo_option)(r->arg, r->clo);
}

/* Gives one option; returns what shim_run does (1: fatal error). */
static int option(VP_CacheClo* clo, const char* arg, Bool* recognised)
{
   OptionRun r = { clo, arg, recognised };
   return shim_run(run_option, &r);
}

static Bool same(const VP_CacheConfig* c, Int size, Int assoc, Int line)
{
   return c->size == size && c->assoc == assoc && c->line_size == line;
}

static VexCache host_cache[4];

static void set_host(VexCache i1, VexCache d1, VexCache l2, VexCache l3, UInt levels)
{
   host_cache[0] = i1; host_cache[1] = d1; host_cache[2] = l2; host_cache[3] = l3;
   shim_host_caches.caches = host_cache;
   shim_host_caches.num_caches = levels == 3 ? 4 : 3;
   shim_host_caches.num_levels = levels;
}

static void default_geometry_is_fixed_whatever_the_host(void)
{
   ConfigRun r;

   set_host(VEX_CACHE_INIT(INSN_CACHE, 1, 65536, 64, 4),
            VEX_CACHE_INIT(DATA_CACHE, 1, 49152, 64, 12),
            VEX_CACHE_INIT(UNIFIED_CACHE, 2, 1048576, 64, 16), (VexCache){0}, 2);
   VP_(cache_clo_init)(&r.clo);
   CHECK_EQ(shim_run(run_configure, &r), -1, "configures");
   CHECK(same(&r.I1, 32768, 8, 64) && same(&r.D1, 32768, 8, 64)
         && same(&r.LL, 8388608, 16, 64), "I1 32K/8/64, D1 32K/8/64, LL 8M/16/64");
}

static void host_caches_are_taken_as_cachegrind_takes_them(void)
{
   ConfigRun r;
   Bool rec;

   /* A host with an L3: the L3 is the LL, its 12288 sets adjusted. */
   set_host(VEX_CACHE_INIT(INSN_CACHE, 1, 32768, 64, 8),
            VEX_CACHE_INIT(DATA_CACHE, 1, 49152, 64, 12),
            VEX_CACHE_INIT(UNIFIED_CACHE, 2, 1310720, 64, 10),
            VEX_CACHE_INIT(UNIFIED_CACHE, 3, 12582912, 64, 16), 3);
   VP_(cache_clo_init)(&r.clo);
   CHECK_EQ(option(&r.clo, "--cache-from-host=yes", &rec), -1, "option accepted");
   CHECK(rec && r.clo.from_host, "--cache-from-host=yes recognised");
   shim_clear_messages();
   CHECK_EQ(shim_run(run_configure, &r), -1, "configures");
   CHECK(same(&r.I1, 32768, 8, 64) && same(&r.D1, 49152, 12, 64), "host L1s");
   CHECK(same(&r.LL, 12582912, 24, 64), "host L3 with power-of-two sets");
   CHECK(strstr(shim_messages, "L3") != NULL, "warns that the L3 is simulated as LL");

   /* No cache information: cachegrind's amd64 defaults, with a warning. */
   shim_host_caches.num_caches = 0;
   shim_host_caches.num_levels = 0;
   shim_clear_messages();
   CHECK_EQ(shim_run(run_configure, &r), -1, "configures");
   CHECK(same(&r.I1, 65536, 2, 64) && same(&r.D1, 65536, 2, 64)
         && same(&r.LL, 262144, 8, 64), "architecture defaults");
   CHECK(strstr(shim_messages, "warning:") != NULL, "with a warning");
}

static void unsimulable_host_cache_is_fatal_unless_overridden(void)
{
   ConfigRun r;
   Bool rec;

   /* A D1 with 48 sets (48 KB, 16-way, 64 B): not fixed up, only LL is. */
   set_host(VEX_CACHE_INIT(INSN_CACHE, 1, 32768, 64, 8),
            VEX_CACHE_INIT(DATA_CACHE, 1, 49152, 64, 16),
            VEX_CACHE_INIT(UNIFIED_CACHE, 2, 1048576, 64, 16), (VexCache){0}, 2);
   VP_(cache_clo_init)(&r.clo);
   option(&r.clo, "--cache-from-host=yes", &rec);
   shim_clear_messages();
   CHECK_EQ(shim_run(run_configure, &r), 1, "exits with status 1");
   CHECK(strstr(shim_messages, "--D1=") != NULL, "and says which option fixes it");
   CHECK_EQ(option(&r.clo, "--D1=32768,8,64", &rec), -1, "--D1 accepted");
   CHECK_EQ(shim_run(run_configure, &r), -1, "then configures");
   CHECK(same(&r.D1, 32768, 8, 64), "with the given D1");
}

static void options_override_either_geometry(void)
{
   ConfigRun r;
   Bool rec = False;

   shim_host_caches.num_caches = 0;
   VP_(cache_clo_init)(&r.clo);
   CHECK_EQ(option(&r.clo, "--I1=16384,4,64", &rec), -1, "--I1");
   CHECK_EQ(option(&r.clo, "--L2=1048576,16,128", &rec), -1, "--L2, cachegrind's old name");
   CHECK_EQ(shim_run(run_configure, &r), -1, "configures");
   CHECK(same(&r.I1, 16384, 4, 64) && same(&r.D1, 32768, 8, 64)
         && same(&r.LL, 1048576, 16, 128), "I1 and LL replaced, D1 default");

   shim_clear_messages();
   CHECK_EQ(option(&r.clo, "--LL=12582912,16,64", &rec), 1, "a bad --LL is fatal");
   CHECK(strstr(shim_messages, "Bad option: --LL=12582912,16,64\n"
                 "Cache set count is not a power of two.\n") != NULL,
         "naming the option and the rule");
   CHECK(same(&r.clo.LL, 1048576, 16, 128), "and leaves the earlier value");
   CHECK_EQ(option(&r.clo, "--I1=32768,8,64x", &rec), 1, "junk after the numbers");
   CHECK_EQ(option(&r.clo, "--cache-from-host=maybe", &rec), 1, "not a boolean");
   rec = True;
   CHECK_EQ(option(&r.clo, "--cache-sim=yes", &rec), -1, "another tool option");
   CHECK(!rec, "is not recognised here");
}

static void lines_smaller_than_a_register_are_refused(void)
{
   ConfigRun r;
   Bool rec;

   VP_(cache_clo_init)(&r.clo);
   option(&r.clo, "--D1=16384,4,16", &rec);
   shim_largest_register = 32;
   shim_clear_messages();
   CHECK_EQ(shim_run(run_configure, &r), 1, "16 B lines with 32 B registers");
   shim_largest_register = 16;
   CHECK_EQ(shim_run(run_configure, &r), -1, "16 B lines with 16 B registers");
   shim_largest_register = 32;
}

static void configuration_is_described_as_cachegrind_and_the_profile_do(void)
{
   VP_CacheConfig I1 = VP_DEFAULT_I1, D1 = { 1024, 1, 64 }, LL = VP_DEFAULT_LL;
   HChar buf[256];

   VP_(cache_desc)(&I1, buf, sizeof buf);
   CHECK_STR(buf, "32768 B, 64 B, 8-way associative", "set-associative");
   VP_(cache_desc)(&D1, buf, sizeof buf);
   CHECK_STR(buf, "1024 B, 64 B, direct-mapped", "direct-mapped");
   VP_(cache_json)(buf, sizeof buf, &I1, &D1, &LL, True);
   CHECK_STR(buf, "{\"I1\":[32768,8,64],\"D1\":[1024,1,64],"
                  "\"LL\":[8388608,16,64],\"branches\":true}", "meta.cache");
}

int main(void)
{
   sweep_of_twice_the_size_misses_every_line_of_a_direct_mapped_cache();
   sweep_of_the_size_misses_only_on_the_first_pass();
   reference_straddling_two_lines_counts_once_and_loads_both();
   straddle_refreshes_both_lines_even_when_the_first_misses();
   two_way_set_evicts_the_least_recently_used_line();
   fully_associative_lru_thrashes_on_one_line_more_than_it_holds();
   l1_miss_that_hits_ll();
   ll_is_shared_by_instructions_and_data();
   writes_allocate_like_reads();
   ll_with_longer_lines_holds_two_l1_lines();
   zeroed_tags_make_block_zero_present_as_in_cachegrind();
   eliding_same_line_fetches_gives_the_same_figures();

   always_taken_branch_mispredicts_until_history_and_counter_settle();
   never_taken_branch_is_never_mispredicted();
   alternating_branch_is_learnt_from_history();
   conditional_branches_128_bytes_apart_share_counters();
   indirect_branch_predicts_its_last_target();

   check_cache_applies_cachegrinds_rules();
   parse_reads_size_assoc_line();
   fit_LL_keeps_capacity_with_power_of_two_sets();
   default_geometry_is_fixed_whatever_the_host();
   host_caches_are_taken_as_cachegrind_takes_them();
   unsimulable_host_cache_is_fatal_unless_overridden();
   options_override_either_geometry();
   lines_smaller_than_a_register_are_refused();
   configuration_is_described_as_cachegrind_and_the_profile_do();

   VP_(sim_fini)();
   printf("%d passed, %d failed\n", passed, failed);
   return failed ? 1 : 0;
}
