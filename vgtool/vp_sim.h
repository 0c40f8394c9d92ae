/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_sim.h: the cache and branch-predictor simulation, giving the same
   figures as cachegrind 3.19 for the same configuration and the same
   sequence of references.

   Caches.  I1 and D1 sit in front of one unified LL.  Each cache is
   set-associative with true LRU inside a set and allocates on writes as
   on reads, so a reference is just "look it up", whatever its kind.  A
   line is identified by its block number (address >> log2(line size));
   the set is the low bits of the block number.  The block number itself
   serves as the tag: it is unique per line, and saves a shift.  Tags
   start at 0, so before anything else is loaded block 0 (the lowest
   line of the address space) counts as present in set 0; that is what
   cachegrind does, and we keep it.

   A reference of `size` bytes at `a` touches one or two lines.  Callers
   must keep size between 1 and VP_(sim_min_line_size)(), so that no
   reference can touch three lines at any level (cachegrind caps data
   sizes the same way).  A reference touching two lines is ONE access: a
   miss if either line misses, and both lines are looked up (and become
   most recently used) in any case.  Only an L1 miss goes on to LL, and
   it goes with the same address and size, so LL sees the whole
   reference again (both lines, if it straddles at LL's line size).

   Instruction fetches.  An instruction that starts in the I1 line in
   which the instruction executed just before it ended finds that line
   the most recently used of its set: the fetch before looked it up, and
   only fetches touch I1.  Looking it up again is a hit that changes
   nothing, so the caller may skip it: an instruction wholly in that line
   needs no reference at all, and one that runs on into the next line
   needs only VP_(sim_I1_ref_last), the lookup of its last line.  The
   figures are VP_(sim_I1_ref)'s either way.  VP_(sim_I1_line) gives the
   lines, so that callers can decide this once per instruction when they
   translate it (vp_events.c does, inside a superblock).

   Branches.  Conditional branches are predicted by a table of 2^14
   two-bit saturating counters, indexed by 7 bits of global taken/not
   taken history above 7 bits of the branch's address.  Indirect branches
   are predicted to go where they went last time, from a table of 2^9
   targets indexed by the branch's address.  Return addresses are not
   modelled.

   Why the reference functions are always inlined: tests/sim/sim_bench.c
   (gcc 12.2 -O2, x86-64, CPU time, best of 3 runs on a shared machine)
   simulates 2^27 instruction fetches (VP_(sim_I1_ref_last)) and 2^27
   data references of 1-8 bytes over a 16 MB footprint with the default
   geometry:
      always_inline, as below ............................. 1.91 s
      the same functions as static noinline calls ......... 2.33 s
   Calls cost 22% more per reference: the cache descriptor is then
   reached through a pointer argument on every call instead of being a
   known global the compiler folds into the code.  Every memory access
   of the client pays this, so the functions are inlined into the
   helpers that the instrumented code calls. */

#ifndef VP_SIM_H
#define VP_SIM_H

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "vp_cachecfg.h"

#ifndef VP_
#  define VP_(str) VGAPPEND(vgprof_, str)
#endif

#ifndef VP_SIM_INLINE
#  define VP_SIM_INLINE static __inline__ __attribute__((always_inline))
#endif

/*------------------------------------------------------------*/
/*--- Cache geometry and state                             ---*/
/*------------------------------------------------------------*/

/* One simulated cache.  tags holds, set after set, assoc block
   numbers each, the most recently used first. */
typedef struct {
   UWord* tags;
   UWord  set_mask;   /* number of sets - 1 (a power of two - 1) */
   Int    assoc;
   Int    line_bits;  /* log2(line size) */
   VP_CacheConfig config;
} VP_Cache;

extern VP_Cache VP_(I1);
extern VP_Cache VP_(D1);
extern VP_Cache VP_(LL);

/*------------------------------------------------------------*/
/*--- from vp_sim.c                                        ---*/
/*------------------------------------------------------------*/

/* Builds the three caches, all lines empty, and clears the branch
   predictors.  The configurations must have passed
   VP_(check_cache) (vp_cachecfg.c); VP_(configure_caches) gives such. */
void VP_(sim_init)(const VP_CacheConfig* I1, const VP_CacheConfig* D1,
                   const VP_CacheConfig* LL);

/* The smallest line size of the three caches: the largest reference
   the simulator accepts.  Larger data references must be capped to it
   before they are simulated, as cachegrind does. */
Int VP_(sim_min_line_size)(void);

/* Releases the caches' memory. */
void VP_(sim_fini)(void);

/*------------------------------------------------------------*/
/*--- Cache references (hot, inlined)                      ---*/
/*------------------------------------------------------------*/

/* Looks up the line with block number `block` in cache c and makes it
   the most recently used of its set, loading it over the least
   recently used one if absent.  Returns True on a miss.

   The scan shifts each entry down one place as it passes it, so when
   the line is found at position i, positions 0..i-1 have already moved
   to 1..i and the line goes to position 0; when it is not found the
   last (least recently used) entry falls off the end. */
VP_SIM_INLINE Bool VP_(sim_lookup)(VP_Cache* c, UWord block)
{
   UWord* set = c->tags + (block & c->set_mask) * (UWord)c->assoc;
   UWord  displaced;
   Int    way;

   if (LIKELY(set[0] == block))
      return False;
   displaced = set[0];
   set[0] = block;
   for (way = 1; way < c->assoc; way++) {
      UWord here = set[way];
      set[way] = displaced;
      if (here == block)
         return False;
      displaced = here;
   }
   return True;
}

/* One reference of size bytes at a to cache c.  True on a miss. */
VP_SIM_INLINE Bool VP_(sim_ref_is_miss)(VP_Cache* c, Addr a, UChar size)
{
   UWord first = a >> c->line_bits;
   UWord last  = (a + size - 1) >> c->line_bits;
   Bool  first_missed, last_missed;

   if (LIKELY(first == last))
      return VP_(sim_lookup)(c, first);

   /* Two lines.  Look both up even when the first already missed: the
      second must become most recently used either way. */
   tl_assert2(last == first + 1,
              "reference of %u bytes at %#lx touches more than two lines",
              (UInt)size, a);
   first_missed = VP_(sim_lookup)(c, first);
   last_missed  = VP_(sim_lookup)(c, last);
   return first_missed || last_missed;
}

/* A reference to an L1 cache, followed, if it misses, by the same
   reference to LL.  Bumps *m1 on an L1 miss and *mL on an LL miss. */
VP_SIM_INLINE void VP_(sim_L1_ref)(VP_Cache* l1, Addr a, UChar size,
                                   ULong* m1, ULong* mL)
{
   if (VP_(sim_ref_is_miss)(l1, a, size)) {
      (*m1)++;
      if (VP_(sim_ref_is_miss)(&VP_(LL), a, size))
         (*mL)++;
   }
}

/* An instruction fetch of size bytes at a (any instruction). */
VP_SIM_INLINE void VP_(sim_I1_ref)(Addr a, UChar size, ULong* m1, ULong* mL)
{
   VP_(sim_L1_ref)(&VP_(I1), a, size, m1, mL);
}

/* A data read or write of size bytes at a, 1 <= size <=
   VP_(sim_min_line_size)().  A read-modify-write is one reference. */
VP_SIM_INLINE void VP_(sim_D1_ref)(Addr a, UChar size, ULong* m1, ULong* mL)
{
   VP_(sim_L1_ref)(&VP_(D1), a, size, m1, mL);
}

/* The I1 line (its block number) holding the byte at a. */
VP_SIM_INLINE UWord VP_(sim_I1_line)(Addr a)
{
   return a >> VP_(I1).line_bits;
}

/* Where the most recently used line of line's set in I1 is kept: a
   fetch of line finding it there is a hit that changes nothing, which
   translated code can test with one load before it calls anything.
   The place stays the same while the simulation runs. */
VP_SIM_INLINE const UWord* VP_(sim_I1_mru)(UWord line)
{
   return VP_(I1).tags + (line & VP_(I1).set_mask) * (UWord)VP_(I1).assoc;
}

/* An instruction fetch of size bytes at a whose lines other than the
   last are the most recently used of their sets in I1 (any fetch that
   lies in one line qualifies): only the last line is looked up, and on
   a miss the whole fetch goes on to LL.  Same figures as
   VP_(sim_I1_ref) under that condition. */
VP_SIM_INLINE void VP_(sim_I1_ref_last)(Addr a, UChar size, ULong* m1, ULong* mL)
{
   if (VP_(sim_lookup)(&VP_(I1), VP_(sim_I1_line)(a + size - 1))) {
      (*m1)++;
      if (VP_(sim_ref_is_miss)(&VP_(LL), a, size))
         (*mL)++;
   }
}

/*------------------------------------------------------------*/
/*--- Branch prediction (hot, inlined)                     ---*/
/*------------------------------------------------------------*/

/* Low bits of an instruction address that are always zero on this
   architecture, and so say nothing about which branch it is. */
#if defined(VGA_x86) || defined(VGA_amd64)
#  define VP_BP_ALIGN_BITS 0
#elif defined(VGA_arm) || defined(VGA_s390x)
#  define VP_BP_ALIGN_BITS 1
#elif defined(VGA_ppc32) || defined(VGA_ppc64be) || defined(VGA_ppc64le) \
   || defined(VGA_arm64) || defined(VGA_mips32) || defined(VGA_mips64) \
   || defined(VGA_nanomips)
#  define VP_BP_ALIGN_BITS 2
#else
#  error "vp_sim.h: unknown architecture"
#endif

#define VP_BP_HISTORY_BITS 7    /* global history bits in a counter index */
#define VP_BP_ADDR_BITS    7    /* address bits in a counter index */
#define VP_BP_N_COUNTERS   (1 << (VP_BP_HISTORY_BITS + VP_BP_ADDR_BITS))
#define VP_BP_TARGET_BITS  9    /* address bits indexing the target table */
#define VP_BP_N_TARGETS    (1 << VP_BP_TARGET_BITS)

/* Outcomes of the latest branches, the newest in bit 0. */
extern UWord VP_(bp_history);
/* 2-bit saturating counters: 0-1 predict not taken, 2-3 taken. */
extern UChar VP_(bp_counters)[VP_BP_N_COUNTERS];
/* The last target of the indirect branches mapping to each entry. */
extern Addr  VP_(bp_targets)[VP_BP_N_TARGETS];

/* A conditional branch at instr_addr went (taken) or not.  Predicts
   it, trains the predictor on the outcome, and returns 1 if the
   prediction was wrong, else 0. */
VP_SIM_INLINE UInt VP_(sim_cond_branch)(Addr instr_addr, Bool taken)
{
   UWord history = VP_(bp_history) & ((1u << VP_BP_HISTORY_BITS) - 1);
   UWord where   = (instr_addr >> VP_BP_ALIGN_BITS)
                   & ((1u << VP_BP_ADDR_BITS) - 1);
   UChar* counter = &VP_(bp_counters)[(history << VP_BP_ADDR_BITS) | where];
   Bool  predicted_taken = *counter >= 2;

   VP_(bp_history) = (VP_(bp_history) << 1) | (taken ? 1 : 0);
   if (taken) {
      if (*counter < 3) (*counter)++;
   } else {
      if (*counter > 0) (*counter)--;
   }
   return predicted_taken != (taken ? True : False);
}

/* An indirect branch at instr_addr went to target.  Returns 1 if that
   is not where the table said it would go, else 0. */
VP_SIM_INLINE UInt VP_(sim_ind_branch)(Addr instr_addr, Addr target)
{
   Addr* slot = &VP_(bp_targets)[(instr_addr >> VP_BP_ALIGN_BITS)
                                 & (VP_BP_N_TARGETS - 1)];
   Bool  wrong = *slot != target;

   *slot = target;
   return wrong ? 1 : 0;
}

#endif /* VP_SIM_H */
