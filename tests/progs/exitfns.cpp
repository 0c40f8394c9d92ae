// SPDX-License-Identifier: GPL-2.0-or-later
// exitfns: runs with exitfns_lib's 40 static objects loaded (see there).
extern "C" int exitfns_first();

int main() { return exitfns_first() == 10 ? 0 : 1; }
