#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Prints cbench's version: VERSION's number, as it is for the commit that
# set it; later commits add git describe's "-N-gHASH", and uncommitted
# changes "-dirty".  Out of a git checkout (a tarball, a dkms tree) the
# number alone.  The Makefile passes it to cbenchctl, cbench.ko, the .pc
# files and every report.
#
#   scripts/version.sh        e.g. 0.9.0, or 0.9.0-12-g1a2b3c4-dirty
set -eu

cd "$(dirname "$0")/.."
base=$(cat VERSION)
since=$(git log -1 --format=%H -- VERSION 2>/dev/null) || since=
if [ -z "$since" ]; then
	echo "$base"
	exit 0
fi
n=$(git rev-list --count "$since..HEAD")
suffix=
[ "$n" -gt 0 ] && suffix="-$n-g$(git rev-parse --short=7 HEAD)"
git diff --quiet HEAD -- 2>/dev/null || suffix="$suffix-dirty"
echo "$base$suffix"
