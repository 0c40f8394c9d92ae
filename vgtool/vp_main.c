/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_main.c: registers the vgprof tool with Valgrind's core and ties its
   parts together: options (vp_clo.c), debug-info locations (vp_loc.c),
   instruction counting (vp_instr.c) and the profile writer (vp_dump.c). */

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "vp_global.h"

static void vp_post_clo_init(void)
{
   VP_(check_clo)();
}

/* Valgrind calls this when the client ends, also when it dies of a
   signal, so the profile is written in every case. */
static void vp_fini(Int exitcode)
{
   VP_(write_profile)(exitcode);
}

static void vp_pre_clo_init(void)
{
   VG_(details_name)            ("vgprof");
   VG_(details_version)         (VP_TOOL_VERSION);
   VG_(details_description)     ("instruction, call-graph, cache and heap profiler");
   VG_(details_copyright_author)("Copyright (C) the vgprof authors; GPL-2.0-or-later.");
   VG_(details_bug_reports_to)  ("the vgprof issue tracker");
   VG_(details_avg_translation_sizeB)(500);

   VG_(basic_tool_funcs)(vp_post_clo_init, VP_(instrument), vp_fini);
   VG_(needs_superblock_discards)(VP_(discard_sb));
   VG_(needs_command_line_options)(VP_(process_cmd_line_option),
                                   VP_(print_usage),
                                   VP_(print_debug_usage));

   VP_(init_clo)();
   VP_(init_locs)();
   VP_(init_instr)();
}

VG_DETERMINE_INTERFACE_VERSION(vp_pre_clo_init)
