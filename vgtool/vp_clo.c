/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_clo.c: the tool's command-line options, in Valgrind's style. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "vp_global.h"

VP_Clo  VP_(clo);
XArray* VP_(tool_args);

void VP_(init_clo)(void)
{
   VP_(clo).out_file   = "vgprof.out.%p.json";
   VP_(clo).dump_instr = False;
   VP_(tool_args) = VG_(newXA)(VG_(malloc), "vp.clo.args", VG_(free),
                               sizeof(const HChar*));
}

Bool VP_(process_cmd_line_option)(const HChar* arg)
{
   if VG_STR_CLO(arg, "--vgprof-out-file", VP_(clo).out_file) {
      if (VP_(clo).out_file[0] == '\0')
         VG_(fmsg_bad_option)(arg, "the output file name is empty\n");
   }
   else if VG_BOOL_CLO(arg, "--dump-instr", VP_(clo).dump_instr) {}
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
   );
}

void VP_(print_debug_usage)(void)
{
   VG_(printf)("    (none)\n");
}

/* Expanding the name once now makes a malformed %q{...} fail at start-up,
   with Valgrind's own message, rather than after the whole run. */
void VP_(check_clo)(void)
{
   HChar* name = VG_(expand_file_name)("--vgprof-out-file", VP_(clo).out_file);
   VG_(free)(name);
}
