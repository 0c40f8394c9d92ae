/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_main.c: registers the vgprof tool with Valgrind's core and ties its
   parts together: options (vp_clo.c), debug-info locations (vp_loc.c),
   instruction counting (vp_instr.c), the profile writer (vp_dump.c, with
   the exit summary in vp_summary.c and the file's placement in
   vp_place.c), the client's end (vp_ending.c) and the monitor commands
   (vp_monitor.c). */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "vp_data.h"
#include "vgprof.h"

/* The process Valgrind started (a forked child has another id). */
static Int started_pid;

/* A signal handler starts: the call graph gives it a context of its own,
   the heap takes it to be outside any call of the allocator. */
static void pre_deliver_signal(ThreadId tid, Int sig, Bool alt_stack)
{
   if (VP_(clo).call_graph) VP_(callgraph_pre_signal)(tid);
   if (VP_(clo).heap) VP_(alloc_pre_signal)(tid);
}

static void post_deliver_signal(ThreadId tid, Int sig)
{
   if (VP_(clo).call_graph) VP_(callgraph_post_signal)(tid);
   if (VP_(clo).heap) VP_(alloc_post_signal)(tid);
}

/* A thread starts a time slice: another may have run since its last. */
static void thread_starts_running(ThreadId tid, ULong blocks_done)
{
   if (VP_(clo).call_graph) VP_(callgraph_thread_runs)(tid);
   if (VP_(clo).heap) {
      VP_(alloc_thread_runs)(tid);
      VP_(data_thread_runs)(tid);
   }
}

static void vp_post_clo_init(void)
{
   VP_(check_clo)();
   /* The client's stack, its environment included, is laid out by now,
      and none of its code has run. */
   VP_(fingerprint_capture)();
   if (VP_(clo).cache_sim || VP_(clo).branch_sim) {
      VP_CacheConfig I1, D1, LL;
      VP_(configure_caches)(&VP_(clo).cache, &I1, &D1, &LL);
      VP_(sim_init)(&I1, &D1, &LL);
   }
   VP_(heap_post_clo_init)();
   VP_(alloc_post_clo_init)();
   VP_(data_post_clo_init)();
   VP_(init_events)();
   VP_(init_callgraph)();
   /* Spans are the call graph's frames: without it there is no timeline. */
   if (!VP_(clo).call_graph)
      VP_(clo).timeline = False;
   if (VP_(clo).timeline)
      VP_(timeline_init)();
   VP_(init_collect)();
   started_pid = VG_(getpid)();
   if (VP_(clo).call_graph) {
      /* Calls and returns must show as superblock boundaries: a block
         that chased through a jump would hide a tail call. */
      VG_(clo_vex_control).guest_chase = False;
      /* Translate exactly as callgrind does: the scheduler counts blocks,
         so the same blocks give threads the same time slices, and a
         threaded program runs the same way under both tools. */
      VG_(clo_vex_control).iropt_unroll_thresh = 0;
      VP_(register_callgraph_tracking)();
   }
   if (VP_(clo).call_graph || VP_(clo).heap) {
      VG_(track_pre_deliver_signal)(pre_deliver_signal);
      VG_(track_post_deliver_signal)(post_deliver_signal);
      VG_(track_start_client_code)(thread_starts_running);
   }
}

/* The status the client passed to exit_group, or -1 while it has not
   (a client killed by a signal never does).  Valgrind hands tools no exit
   status at the end, so it is caught on its way to the kernel. */
static Int exit_status = -1;

/* Dumps written so far, on client request, by a monitor command or at
   exec: each gets the next number. */
static Int dumps = 0;

Int VP_(dumps_written)(void) { return dumps; }

void VP_(zero_stats)(void)
{
   VP_(zero_all)();
   if (VP_(clo).call_graph) VP_(callgraph_zero)();
   VP_(heap_zero)();
   if (VP_(clo).timeline) VP_(timeline_restart)();
}

HChar* VP_(dump_numbered)(const HChar* label, Bool quiet)
{
   VP_Dump d = { .number = ++dumps, .label = label, .quiet = quiet };
   HChar*  path = VP_(write_profile)(&d);
   VP_(zero_stats)();
   return path;
}

/* An execve that succeeds replaces the process image, Valgrind and the
   tool with it, and no tool hears of the end of the old image (the
   reference tools lose its costs).  Its costs are written now, as a
   numbered dump, so that they do not go to the same name as the profile
   of the program it runs under --trace-children=yes (the same process
   id).  Should the call fail, the process goes on counting from zero and
   writes the rest at its end, as after any dump.  A child made by fork
   (system, popen) writes none: its costs would be mostly those it
   inherited from its parent, which the parent's profile has, once for
   every command the program runs. */
static void dump_before_exec(const HChar* path)
{
   if (VG_(getpid)() != started_pid)
      return;
   HChar  label[256];
   /* The name is the client's pointer, not yet checked by the core. */
   Bool   readable = path && VG_(am_is_valid_for_client)((Addr)path, 1, VKI_PROT_READ);
   VG_(snprintf)(label, sizeof label, "exec %s", readable ? path : "(unreadable name)");
   VG_(free)(VP_(dump_numbered)(label, False));
}

static void vp_pre_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs)
{
   if (syscallno == __NR_exit_group && nArgs >= 1)
      exit_status = (Int)(args[0] & 0xFF);
   else if (syscallno == __NR_execve && nArgs >= 1)
      dump_before_exec((const HChar*)args[0]);
   else if (syscallno == __NR_execveat && nArgs >= 2)
      dump_before_exec((const HChar*)args[1]);
}

static void vp_post_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs, SysRes res)
{
}

/* Valgrind calls this when the client ends, also when it dies of a
   signal, so the profile is written in every case. */
static void vp_fini(Int exitcode)
{
   VP_(write_at_end)(exit_status);
}

/* The requests a program's own allocator makes for memcheck and massif
   (the core passes them on only with a block address). */
static Bool heap_client_request(ThreadId tid, UWord* args)
{
   switch (args[0]) {
      case VG_USERREQ__MALLOCLIKE_BLOCK:    /* addr, size, red zone, zeroed */
         VP_(alloc_client_block)(tid, args[1], args[2]);
         return True;
      case VG_USERREQ__FREELIKE_BLOCK:      /* addr, red zone */
         VP_(alloc_client_free)(tid, args[1]);
         return True;
      case VG_USERREQ__RESIZEINPLACE_BLOCK: /* addr, old size, new size, red zone */
         VP_(alloc_client_resize)(tid, args[1], args[3]);
         return True;
      default:
         return False;
   }
}

static Bool vp_handle_client_request(ThreadId tid, UWord* args, UWord* ret)
{
   if (args[0] == VG_USERREQ__GDB_MONITOR_COMMAND) {
      Bool handled = VP_(monitor_command)((const HChar*)args[1]);
      *ret = handled;
      return handled;
   }
   if (VP_(clo).heap && heap_client_request(tid, args)) {
      *ret = 0;
      return True;
   }
   if (!VG_IS_TOOL_USERREQ('V', 'P', args[0]))
      return False;
   switch (args[0]) {
      case VG_USERREQ__VGPROF_DUMP_STATS_AT:
         VG_(free)(VP_(dump_numbered)(args[1] ? (const HChar*)args[1] : "", False));
         break;
      case VG_USERREQ__VGPROF_ZERO_STATS:
         VP_(zero_stats)();
         break;
      case VG_USERREQ__VGPROF_START_INSTRUMENTATION:
         VP_(set_instrumenting)(True, "client request");
         break;
      case VG_USERREQ__VGPROF_STOP_INSTRUMENTATION:
         VP_(set_instrumenting)(False, "client request");
         break;
      case VG_USERREQ__VGPROF_TOGGLE_COLLECT:
         VP_(set_collecting)(!VP_(collecting));
         break;
      case VG_USERREQ__VGPROF_MARK:
         if (VP_(clo).timeline)
            VP_(timeline_mark)(tid, (const HChar*)args[1], True);
         break;
      default:
         VG_(message)(Vg_UserMsg, "vgprof: unknown client request 0x%lx ignored\n", args[0]);
         return False;
   }
   *ret = 0;
   return True;
}

static void vp_pre_clo_init(void)
{
   VG_(details_name)            ("vgprof");
   VG_(details_version)         (VP_TOOL_VERSION);
   VG_(details_description)     ("a CPU, cache and heap profiler");
   VG_(details_copyright_author)("Copyright (C) the vgprof authors; GPL-2.0-or-later.");
   VG_(details_bug_reports_to)  ("the vgprof issue tracker");
   VG_(details_avg_translation_sizeB)(500);

   VG_(basic_tool_funcs)(vp_post_clo_init, VP_(instrument), vp_fini);
   VG_(needs_superblock_discards)(VP_(discard_sb));
   VG_(needs_client_requests)(vp_handle_client_request);
   VG_(needs_syscall_wrapper)(vp_pre_syscall, vp_post_syscall);
   VG_(needs_command_line_options)(VP_(process_cmd_line_option),
                                   VP_(print_usage),
                                   VP_(print_debug_usage));

   VP_(init_clo)();
   VP_(init_locs)();
   VP_(init_instr)();
}

VG_DETERMINE_INTERFACE_VERSION(vp_pre_clo_init)
