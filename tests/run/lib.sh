# Shared by the integration tests in tests/run/ (sourced, not run): where
# cbenchctl is, a scratch directory removed on exit, and the helpers that
# count and report checks.  A script sets OUTPUT_GLOB (the files that must
# not be left behind by a failing command, relative to $TMP; default
# "report*") before calling expect_failure, and ends with `finish`.

CB=${CBENCHCTL:-build/cbenchctl}
# Debian's python3, which has python3-jsonschema (scripts/install-deps.sh
# --all): the schema checks need it, whatever python3 comes first in PATH.
SCHEMA_PY=${SCHEMA_PY:-/usr/bin/python3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
OUTPUT_GLOB=${OUTPUT_GLOB:-report*}

pass=0
fail=0

ok() {
	pass=$((pass + 1))
	echo "ok     $1"
}

not_ok() {
	fail=$((fail + 1))
	echo "FAILED $1"
	for f in "$TMP/out" "$TMP/err"; do
		[ -s "$f" ] && sed 's/^/       | /' "$f" | head -20
	done
}

# run_cb ARGS...: runs cbenchctl, stdout to $TMP/out, stderr to $TMP/err,
# the exit status in $rc.  The time-out only bounds a cbenchctl that hangs
# (as it did on a FIFO or a constructor that never returns); nothing here
# needs it to be tight.
run_cb() {
	timeout -k 10 120 "$CB" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# wait_count FILE N: waits until the number in FILE (a fixture's counter)
# reaches N, 30 s at most: a condition seen, not a time guessed.
wait_count() {
	for _ in $(seq 600); do
		[ "$(cat "$1")" -ge "$2" ] && return 0
		sleep 0.05
	done
	return 1
}

# expect_failure NAME MESSAGE-REGEX ARGS...: non-zero exit, the message on
# stderr, and no output file (nor a temporary next to it).
expect_failure() {
	name=$1
	regex=$2
	shift 2
	# shellcheck disable=SC2086
	(cd "$TMP" && rm -f $OUTPUT_GLOB)
	run_cb "$@"
	if [ "$rc" -eq 0 ]; then
		not_ok "$name: exit status 0"
	elif ! grep -Eq -- "$regex" "$TMP/err"; then
		not_ok "$name: no message matching /$regex/"
	elif (cd "$TMP" && ls $OUTPUT_GLOB) >/dev/null 2>&1; then
		not_ok "$name: left an output file behind"
	else
		ok "$name"
	fi
}

# ours PGREP-ARGS...: the pids pgrep finds whose working directory is ours,
# so the runs of another checkout on this machine are not taken for ours.
ours() {
	for pid in $(pgrep "$@"); do
		[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$(pwd -P)" ] && echo "$pid"
	done
}

# The closing line, and the exit status.
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
