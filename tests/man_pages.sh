#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# man_pages.sh: every manual page of docs/man renders with groff's man
# macros without a single warning (-ww turns them all on). Prints
# "N passed, N failed" as scripts/check expects; skipped (status 77) when
# groff is not installed.
set -u
srcdir=${srcdir:-.}
pages="vgprof.1 vgprof-report.1 vgprof-diff.1 vgprof-annotate.1 vgprof-record.1 vgprof-export.1 vgprof-merge.1 vgprof-viewer.1 vgprof-control.1"
if ! command -v groff >/dev/null 2>&1; then
  echo "0 passed, 0 failed (groff is not installed; install groff-base to check the manual pages)"
  exit 77
fi
passed=0
failed=0
for page in $pages; do
  file="$srcdir/docs/man/$page"
  # -z formats and discards the page: only the warnings come out.
  if [ -f "$file" ] && warnings=$(groff -man -Tutf8 -ww -z "$file" 2>&1) && [ -z "$warnings" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $page: ${warnings:-missing or not rendered}"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
