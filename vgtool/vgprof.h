/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vgprof.h: client requests a program can make of vgprof while it runs
   under `valgrind --tool=vgprof`.  Outside Valgrind each request costs a
   few instructions and does nothing.

     VGPROF_START_INSTRUMENTATION instrument from here on (see
                                  --instr-atstart=no)
     VGPROF_STOP_INSTRUMENTATION  run uninstrumented from here on
     VGPROF_TOGGLE_COLLECT        switch the collection of costs off or on
                                  (see --collect-atstart=no)
     VGPROF_ZERO_STATS            forget the costs counted so far
     VGPROF_DUMP_STATS_AT(name)   write a numbered profile of the costs
                                  counted since the last dump or zero,
                                  labelled with name, then start again
     VGPROF_MARK(label)           mark this moment in the profile's
                                  timeline (--timeline=yes): the phases
                                  between marks get their own costs

   A dump goes to the profile name with its number before ".json"
   (vgprof.out.4242.1.json, .2.json, ...); the profile written at exit
   holds what was counted after the last dump.  A profile's heap figures
   cover the same period as its costs (what was allocated and freed since
   the last zero or dump, the peak within it, what is live at its end),
   with the whole run's kept apart. */

#ifndef VGPROF_H
#define VGPROF_H

#include <valgrind/valgrind.h>

typedef enum {
   VG_USERREQ__VGPROF_DUMP_STATS_AT = VG_USERREQ_TOOL_BASE('V', 'P'),
   VG_USERREQ__VGPROF_ZERO_STATS,
   VG_USERREQ__VGPROF_START_INSTRUMENTATION,
   VG_USERREQ__VGPROF_STOP_INSTRUMENTATION,
   VG_USERREQ__VGPROF_TOGGLE_COLLECT,
   VG_USERREQ__VGPROF_MARK
} Vg_VgprofClientRequest;

#define VGPROF_START_INSTRUMENTATION                                   \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__VGPROF_START_INSTRUMENTATION, \
                                   0, 0, 0, 0, 0)

#define VGPROF_STOP_INSTRUMENTATION                                    \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__VGPROF_STOP_INSTRUMENTATION, \
                                   0, 0, 0, 0, 0)

#define VGPROF_TOGGLE_COLLECT                                          \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__VGPROF_TOGGLE_COLLECT,  \
                                   0, 0, 0, 0, 0)

#define VGPROF_ZERO_STATS                                              \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__VGPROF_ZERO_STATS,      \
                                   0, 0, 0, 0, 0)

#define VGPROF_DUMP_STATS_AT(name)                                     \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__VGPROF_DUMP_STATS_AT,   \
                                   (name), 0, 0, 0, 0)

#define VGPROF_MARK(label)                                             \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__VGPROF_MARK,            \
                                   (label), 0, 0, 0, 0)

#endif /* VGPROF_H */
