/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exit_code.c: exits with status 7, which valgrind must pass on. */
int main(void) { return 7; }
