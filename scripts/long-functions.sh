#!/bin/sh
# Lists C functions longer than MAX lines (default 80) in the given files:
# from the line that opens the body ("{" alone at column 0) to the line that
# closes it ("}" at column 0), the kernel style every file here follows.
# Exits 1 if any is found.  Run by `make check`.
set -eu

MAX=${MAX:-80}
awk -v max="$MAX" '
	FNR == 1 { name = ""; start = 0 }
	/^[A-Za-z_].*\(/ { name = $0 }
	/^\{$/ { start = FNR; fn = name }
	/^\}/ && start {
		len = FNR - start + 1
		if (len > max) {
			sub(/\(.*/, "", fn); sub(/.*[ *]/, "", fn)
			printf "%s:%d: %s() is %d lines (at most %d)\n", FILENAME, start, fn, len, max
			bad = 1
		}
		start = 0
	}
	END { exit bad }
' "$@"
