/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_ending.c: the profile written at the client's end, marked with how
   the client ended: the status it gave exit_group, or the signal that
   killed it.

   Valgrind 3.19 tells a tool neither.  tool_fini is called with 0 on
   every path, and for a signal whose default action ends the process no
   tool hook runs at all (pre_deliver_signal is only for a client
   handler): the core keeps the signal in its private thread state and,
   after tool_fini, ends the process with VG_(kill_self)(signal), or with
   VG_(client_exit)(status) when the last thread exited.  The status is
   caught on its way to the kernel (vp_main.c).  For the signal, the tool
   is linked with --wrap on those two core functions (configure checks
   that the core defines them): when tool_fini comes without an
   exit_group, the profile waits for whichever of them follows, which
   names the signal (or, after a bare exit system call from the last
   thread, the status).  Without the wrap the profile is written in
   tool_fini, marked killed by a signal it cannot name. */

#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "vp_global.h"

static void write_final(Int exit_status, Int signal)
{
   VP_Dump d = { .number = 0, .exitcode = exit_status, .signal = signal };
   VG_(free)(VP_(write_profile)(&d));
}

#if defined(VP_WRAP_CORE_ENDING)

/* True between a tool_fini that came without an exit status and the
   core's last call. */
static Bool profile_pending = False;

void VP_(write_at_end)(Int exit_status)
{
   if (exit_status >= 0)
      write_final(exit_status, 0);
   else
      profile_pending = True;
}

void __real_vgPlain_kill_self(Int sig);
void __real_vgPlain_client_exit(Int status);
void __wrap_vgPlain_kill_self(Int sig);
void __wrap_vgPlain_client_exit(Int status);

/* The core ends a client killed by a signal with the same signal. */
void __wrap_vgPlain_kill_self(Int sig)
{
   if (profile_pending) {
      profile_pending = False;
      write_final(-1, sig);
   }
   __real_vgPlain_kill_self(sig);
}

/* The last thread left by the exit system call, not exit_group. */
void __wrap_vgPlain_client_exit(Int status)
{
   if (profile_pending) {
      profile_pending = False;
      write_final(status & 0xFF, 0);
   }
   __real_vgPlain_client_exit(status);
}

#else

void VP_(write_at_end)(Int exit_status)
{
   write_final(exit_status, 0);
}

#endif
