# Shared by the bench/ scripts (sourced, not run): they measure alone on
# this machine, waiting for anything else that measures, builds or boots a
# VM under the same lock (docs/hacking.md, "Building and testing"); then cbenchctl, a scratch
# directory removed on exit, and the CPU to measure on (the one cbenchctl
# picks by default, the last).  A script sets -eu before sourcing this.

if [ -z "${CBENCH_MEASURE_LOCKED:-}" ] && command -v flock >/dev/null; then
	CBENCH_MEASURE_LOCKED=1 exec flock /tmp/cbench-measure.lock "$0" "$@"
fi

CB=${CB:-build/cbenchctl}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
CPU=${CPU:-$(($(getconf _NPROCESSORS_ONLN) - 1))}
