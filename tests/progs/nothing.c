/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nothing.c: a shared object that does nothing, to be preloaded: one more
   shared object in a process, as a tool's own preloaded library is. */
int nothing_here(void) { return 0; }
