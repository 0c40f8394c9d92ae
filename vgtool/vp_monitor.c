/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_monitor.c: the commands a running process takes through Valgrind's
   gdbserver, from `vgdb --pid=PID COMMAND`, from gdb's `monitor COMMAND`
   or from `vgprof control`: dump, zero, instrumentation, collect, status
   and help, as callgrind takes dump, zero, instrumentation and status.

   The core runs a command between two blocks of the client, or, when every
   thread is blocked in a system call, in a thread that vgdb makes call the
   gdbserver with ptrace.  Either way the client's state is as a client
   request would find it, so a dump here is the dump VGPROF_DUMP_STATS_AT
   writes.  Each command answers on the monitor channel, its first line
   starting "vgprof: " and saying what was done, which `vgprof control`
   reads. */

#include "pub_tool_basics.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "vp_global.h"
#include "vp_heap.h"   /* the instruction clock */

static void print_help(void)
{
   VG_(gdb_printf)(
      "\n"
      "vgprof monitor commands:\n"
      "  dump [LABEL]            : write a numbered profile of the costs counted\n"
      "                            since the last dump or zero, then count from zero\n"
      "  zero                    : forget the costs counted so far\n"
      "  instrumentation [on|off]: show or switch instrumentation\n"
      "  collect [on|off]        : show or switch the collection of costs\n"
      "  status                  : instructions counted, live heap, dumps written\n"
      "  mark LABEL              : mark this moment in the timeline\n"
      "\n");
}

/* What follows the command word, spaces trimmed at both ends. */
static const HChar* argument_of(HChar* req)
{
   while (*req && !VG_(isspace)(*req)) req++;
   while (VG_(isspace)(*req)) req++;
   HChar* end = req + VG_(strlen)(req);
   while (end > req && VG_(isspace)(end[-1])) *--end = '\0';
   return req;
}

static void dump_command(const HChar* label)
{
   HChar* path = VP_(dump_numbered)(label, True);
   if (path)
      VG_(gdb_printf)("vgprof: dump %d written to %s\n", VP_(dumps_written)(), path);
   else
      VG_(gdb_printf)("vgprof: error: dump %d was not written (see the messages above)\n",
                      VP_(dumps_written)());
   VG_(free)(path);
}

/* "on", "off" or nothing (-1): anything else is answered here (-2). */
static Int on_off(const HChar* command, const HChar* arg)
{
   if (*arg == '\0')                 return -1;
   if (VG_(strcmp)(arg, "on") == 0)  return 1;
   if (VG_(strcmp)(arg, "off") == 0) return 0;
   VG_(gdb_printf)("vgprof: error: %s takes on or off, not '%s'\n", command, arg);
   return -2;
}

static void instrumentation_command(const HChar* arg)
{
   Int want = on_off("instrumentation", arg);
   if (want >= 0) {
      Bool was = VP_(instrumenting);
      VP_(set_instrumenting)(want, "monitor command");
      VG_(gdb_printf)("vgprof: instrumentation %s %s\n",
                      was == want ? "was already" : "switched", want ? "on" : "off");
   } else if (want == -1) {
      VG_(gdb_printf)("vgprof: instrumentation is %s\n", VP_(instrumenting) ? "on" : "off");
   }
}

static void collect_command(const HChar* arg)
{
   Int want = on_off("collect", arg);
   if (want >= 0) {
      Bool was = VP_(collecting);
      VP_(set_collecting)(want);
      VG_(gdb_printf)("vgprof: collection %s %s\n",
                      was == want ? "was already" : "switched", want ? "on" : "off");
   } else if (want == -1) {
      VG_(gdb_printf)("vgprof: collection is %s\n", VP_(collecting) ? "on" : "off");
   }
}

static void mark_command(const HChar* label)
{
   if (!VP_(clo).timeline)
      VG_(gdb_printf)("vgprof: error: no timeline is recorded (--timeline=no or --call-graph=no)\n");
   else if (*label == '\0')
      VG_(gdb_printf)("vgprof: error: mark takes a label\n");
   else {
      VP_(timeline_mark)(VG_(get_running_tid)(), label, False);
      VG_(gdb_printf)("vgprof: mark %u at instruction %llu: %s\n", VP_(timeline_n_marks)(),
                      VP_(heap_now)(), label);
   }
}

/* The Ir a dump written now would hold. */
static ULong ir_since_dump_or_zero(void)
{
   XArray* all = VP_(all_instr_ccs)();
   ULong   sum = 0;
   Word    i;
   VP_(settle_counts)();
   for (i = 0; i < VG_(sizeXA)(all); i++)
      sum += (*(VP_InstrCC**)VG_(indexXA)(all, i))->cost[VP_EV_IR];
   VG_(deleteXA)(all);
   return sum;
}

static void status_command(void)
{
   VG_(gdb_printf)("vgprof: status of process %d\n", VG_(getpid)());
   VG_(gdb_printf)("  instrumentation: %s, collection: %s\n",
                   VP_(instrumenting) ? "on" : "off", VP_(collecting) ? "on" : "off");
   VG_(gdb_printf)("  Ir since the last dump or zero: %'llu\n", ir_since_dump_or_zero());
   /* A running count of every instruction exists only where the call
      graph or the heap's clock needs one. */
   if (VP_(clo).call_graph || VP_(clo).heap)
      VG_(gdb_printf)("  instructions executed so far: %'llu\n", VP_(heap_now)());
   if (VP_(clo).heap) {
      ULong bytes, blocks;
      VP_(heap_live)(&bytes, &blocks);
      VG_(gdb_printf)("  heap live: %'llu bytes in %'llu blocks\n", bytes, blocks);
   } else {
      VG_(gdb_printf)("  heap live: not profiled (--heap=no)\n");
   }
   VG_(gdb_printf)("  dumps written: %d\n", VP_(dumps_written)());
}

Bool VP_(monitor_command)(const HChar* req)
{
   HChar  copy[VG_(strlen)(req) + 1];
   HChar  word_buf[VG_(strlen)(req) + 1];
   HChar* save;
   VG_(strcpy)(copy, req);
   VG_(strcpy)(word_buf, req);
   const HChar* word = VG_(strtok_r)(word_buf, " \t", &save);
   const HChar* arg  = argument_of(copy);
   switch (VG_(keyword_id)("help dump zero instrumentation collect status mark", word,
                           kwd_report_duplicated_matches)) {
      case -2: /* ambiguous: the core has said so */
         return True;
      case -1: /* not ours */
         return False;
      case 0:
         print_help();
         return True;
      case 1:
         dump_command(arg);
         return True;
      case 2:
         VP_(zero_stats)();
         VG_(gdb_printf)("vgprof: costs zeroed\n");
         return True;
      case 3:
         instrumentation_command(arg);
         return True;
      case 4:
         collect_command(arg);
         return True;
      case 5:
         status_command();
         return True;
      case 6:
         mark_command(arg);
         return True;
      default:
         return False;
   }
}
