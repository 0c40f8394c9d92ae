/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_dwarf.h: names of functions read from an object's DWARF debug
   information, for the inlined calls Valgrind's reader leaves without a
   usable name and for code whose symbol says too little (Rust closures
   and async bodies).  See vp_dwarf.c. */

#ifndef VP_DWARF_H
#define VP_DWARF_H

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"

/* One inlined call at an address: the interned name of its function
   (VP_DW_NO_NAME when the debug information gives none) and the line of
   its caller's code it was inlined at. */
typedef struct {
   UInt name;
   UInt call_line;
} VP_DwCall;

#define VP_DW_NO_NAME 0xFFFFFFFFu

/* The inlined calls at a, outermost first, at most max of them; -1 when
   the debug information there cannot be read, or covers no function. */
Int VP_(dwarf_inlined_at)(DiEpoch ep, Addr a, VP_DwCall* out, UInt max);

/* The interned name the debug information gives the function whose
   out-of-line code holds a; False when it gives none. */
Bool VP_(dwarf_fn_name)(DiEpoch ep, Addr a, UInt* name);

/* Whether a demangled Rust name says no more than that it is some closure
   or async body of its parent ("{{closure}}", "{closure#0}"): the debug
   information's name says which. */
Bool VP_(vague_rust_name)(const HChar* s);

#endif
