/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_clo.c: the tool's command-line options, in Valgrind's style. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "vp_heap.h"

/* Not in pub_tool_options.h, but libcoregrind's own option variable,
   which memcheck's and DHAT's default sets as this tool's does below. */
extern Bool VG_(clo_read_inline_info);

VP_Clo  VP_(clo);
XArray* VP_(tool_args);

void VP_(init_clo)(void)
{
   /* Inlined calls are read by default, as memcheck and DHAT read them:
      allocation stacks then show the inlined functions' frames.  This
      runs before Valgrind reads its options, so --read-inline-info=no
      still turns it off. */
   VG_(clo_read_inline_info) = True;
   VP_(clo).out_file   = "vgprof.out.%p.json";
   VP_(clo).dump_instr = False;
   VP_(clo).call_graph = True;
   VP_(clo).max_path_nodes = 1000000;
   VP_(clo).instr_atstart = True;
   VP_(clo).separate_threads = False;
   VP_(clo).cache_sim = True;
   VP_(clo).branch_sim = False;
   VP_(cache_clo_init)(&VP_(clo).cache);
   VP_(clo).collect_atstart = True;
   VP_(clo).heap = True;
   VP_(clo).heap_depth = 12;
   VP_(clo).heap_changes = 20000;
   VP_(clo).data = True;
   VP_(clo).timeline = True;
   VP_(clo).timeline_spans = 20000;
   VP_(clo).alloc_fns = VG_(newXA)(VG_(malloc), "vp.clo.allocfns", VG_(free),
                                   sizeof(const HChar*));
   VP_(clo).toggle_collect = VG_(newXA)(VG_(malloc), "vp.clo.toggle", VG_(free),
                                        sizeof(const HChar*));
   VP_(tool_args) = VG_(newXA)(VG_(malloc), "vp.clo.args", VG_(free),
                               sizeof(const HChar*));
}

Bool VP_(process_cmd_line_option)(const HChar* arg)
{
   const HChar* pattern;

   if VG_STR_CLO(arg, "--vgprof-out-file", VP_(clo).out_file) {
      if (VP_(clo).out_file[0] == '\0')
         VG_(fmsg_bad_option)(arg, "the output file name is empty\n");
   }
   else if VG_BOOL_CLO(arg, "--dump-instr", VP_(clo).dump_instr) {}
   else if VG_BOOL_CLO(arg, "--call-graph", VP_(clo).call_graph) {}
   else if VG_BINT_CLO(arg, "--max-path-nodes", VP_(clo).max_path_nodes, 1, 100000000) {}
   else if VG_BOOL_CLO(arg, "--instr-atstart", VP_(clo).instr_atstart) {}
   else if VG_BOOL_CLO(arg, "--separate-threads", VP_(clo).separate_threads) {}
   else if VG_BOOL_CLO(arg, "--cache-sim", VP_(clo).cache_sim) {}
   else if VG_BOOL_CLO(arg, "--branch-sim", VP_(clo).branch_sim) {}
   else if (VP_(cache_clo_option)(arg, &VP_(clo).cache)) {}
   else if VG_BOOL_CLO(arg, "--collect-atstart", VP_(clo).collect_atstart) {}
   else if VG_BOOL_CLO(arg, "--heap", VP_(clo).heap) {}
   else if VG_BINT_CLO(arg, "--heap-depth", VP_(clo).heap_depth, 1, VP_MAX_HEAP_DEPTH) {}
   else if VG_BINT_CLO(arg, "--heap-changes", VP_(clo).heap_changes, 1, 100000000) {}
   else if VG_BOOL_CLO(arg, "--data", VP_(clo).data) {}
   else if VG_BOOL_CLO(arg, "--timeline", VP_(clo).timeline) {}
   else if VG_BINT_CLO(arg, "--timeline-spans", VP_(clo).timeline_spans, 1, 100000000) {}
   else if VG_STR_CLO(arg, "--alloc-fn", pattern) {
      const HChar* why = VP_(alloc_fn_error)(pattern);
      if (why != NULL)
         VG_(fmsg_bad_option)(arg, "%s\n", why);
      VG_(addToXA)(VP_(clo).alloc_fns, &pattern);
   }
   else if VG_STR_CLO(arg, "--toggle-collect", pattern) {
      if (pattern[0] == '\0')
         VG_(fmsg_bad_option)(arg, "the function pattern is empty\n");
      VG_(addToXA)(VP_(clo).toggle_collect, &pattern);
   }
   else
      return False;

   /* Valgrind keeps argv alive for the whole run, so the pointer is enough. */
   VG_(addToXA)(VP_(tool_args), &arg);
   return True;
}

void VP_(print_usage)(void)
{
   VG_(printf)(
"    --vgprof-out-file=<file>  profile file name [vgprof.out.%%p.json]\n"
"                              (%%p: process id, %%q{VAR}: environment variable;\n"
"                              expanded at exit, so a forked child gets its own)\n"
"    --dump-instr=no|yes       also record the cost of each instruction [no]\n"
"    --cache-sim=yes|no        simulate the I1, D1 and LL caches [yes]\n"
"    --branch-sim=no|yes       simulate branch prediction [no]\n"
"    --call-graph=yes|no       record calls: edges, inclusive costs and the\n"
"                              call-path tree [yes]\n"
"    --max-path-nodes=<n>      bound of the call-path tree [1000000]\n"
"    --separate-threads=no|yes also record each thread's call graph [no]\n"
"    --timeline=yes|no         record the time order: spans of calls in\n"
"                              instruction time, and marks (needs\n"
"                              --call-graph=yes) [yes]\n"
"    --timeline-spans=<n>      most spans kept: shorter ones are folded\n"
"                              into their callers [20000]\n"
"    --instr-atstart=yes|no    instrument from the start [yes]; see\n"
"                              VGPROF_START_INSTRUMENTATION in <vgprof.h>\n"
"    --collect-atstart=yes|no  collect costs from the start [yes]\n"
"    --toggle-collect=<fn>     toggle collection on entry to and exit from\n"
"                              functions matching <fn> (* and ? wildcards;\n"
"                              may be given more than once)\n"
"    --heap=yes|no             profile the heap: allocation sites, lifetimes,\n"
"                              accesses, watching the program's own\n"
"                              allocator (libc, C++, jemalloc, mimalloc,\n"
"                              tcmalloc, Rust's global allocator) [yes]\n"
"    --heap-depth=<n>          frames of an allocation stack, the\n"
"                              allocator's own included [12]\n"
"    --heap-changes=<n>        rows of what each site allocated and freed\n"
"                              over time, beyond two per site: stretches\n"
"                              of time widen to stay within it [20000]\n"
"    --data=yes|no             book each data access and cache miss to\n"
"                              what it touched: heap site and offset,\n"
"                              global, stack (needs --cache-sim=yes and\n"
"                              --heap=yes) [yes]\n"
"    --alloc-fn=<name>=<role>[:<args>]  a function of the program's own\n"
"                              allocator, acting as <role>: malloc, calloc,\n"
"                              realloc, reallocarray, free, memalign,\n"
"                              aligned_alloc, valloc or posix_memalign;\n"
"                              <args>: the positions of the role's\n"
"                              arguments, from 1 (pool_get=malloc:2 takes\n"
"                              the size from the second); may be given more\n"
"                              than once; * and ? wildcards in <name>\n"
   );
   VP_(cache_clo_usage)();
}

void VP_(print_debug_usage)(void)
{
   VG_(printf)("    (none)\n");
}

/* Expanding the name once now makes a malformed %q{...} fail at start-up,
   with Valgrind's own message, rather than after the whole run; so does a
   destination where the profile cannot be created. */
void VP_(check_clo)(void)
{
   if (VP_(clo).separate_threads && !VP_(clo).call_graph)
      VG_(fmsg_bad_option)("--separate-threads=yes", "needs --call-graph=yes\n");
   if (VG_(sizeXA)(VP_(clo).alloc_fns) > 0 && !VP_(clo).heap)
      VG_(fmsg_bad_option)("--alloc-fn", "needs --heap=yes\n");
   if (VG_(sizeXA)(VP_(clo).toggle_collect) > 0 && !VP_(clo).call_graph)
      VG_(fmsg_bad_option)("--toggle-collect", "needs --call-graph=yes to see function entries\n");
   HChar* name = VG_(expand_file_name)("--vgprof-out-file", VP_(clo).out_file);
   VG_(free)(name);
   VP_(check_profile_destination)();
}
