#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bad_profiles.sh: runs the bad-profile tests under a private X server
# (xvfb-run), where the viewer's window can show its refusal.  The tests
# want the viewer's one line of error alone: should SDL fail to reach the
# X server under load, it tries Wayland, whose library complains on stderr
# when XDG_RUNTIME_DIR is not set, before it falls back to drawing
# offscreen; a private runtime directory, as a login session has, keeps
# that line out.
set -eu
runtime=$(mktemp -d)
trap 'rm -rf "$runtime"' EXIT
XDG_RUNTIME_DIR=$runtime
export XDG_RUNTIME_DIR
"$VGPROF_TEST_XVFB_RUN" -a -s "-screen 0 1600x1000x24 -nolisten tcp" \
  "$VGPROF_TEST_BUILD/tests/fault/profiles/bad_profiles_tests" "$@"
