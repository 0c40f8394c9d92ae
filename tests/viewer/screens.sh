#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# screens.sh: runs the viewer's window tests under a private X server
# (xvfb-run), so they need no display and draw in a real X11 window.
set -eu
exec "$VGPROF_TEST_XVFB_RUN" -a -s "-screen 0 1600x1000x24 -nolisten tcp" \
  "$VGPROF_TEST_BUILD/tests/viewer/viewer_screen_tests" "$@"
