#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bad_profiles.sh: runs the bad-profile tests under a private X server
# (xvfb-run), where the viewer's window can show its refusal.
set -eu
exec "$VGPROF_TEST_XVFB_RUN" -a -s "-screen 0 1600x1000x24 -nolisten tcp" \
  "$VGPROF_TEST_BUILD/tests/fault/profiles/bad_profiles_tests" "$@"
