#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A real PostgreSQL server for the store's and the lab queue's tests, in a
# directory of its own: Debian's postgresql package, initdb in DIR as an
# unprivileged user (the server refuses root), listening on a Unix socket
# in DIR only (no TCP), trust authentication for the local user who asked.
#
#   tests/run/pg-server.sh start DIR   starts it and prints the store's URL
#                                      (a database "cbench" made empty)
#   tests/run/pg-server.sh db DIR NAME makes another empty database, prints its URL
#   tests/run/pg-server.sh stop DIR    stops it (DIR stays for the caller to remove)
#
# Exits 77 (skipped, as automake's tests do) when no server is installed.
set -eu

usage() {
	echo "usage: $0 start|stop DIR | db DIR NAME" >&2
	exit 2
}

[ $# -ge 2 ] || usage
cmd=$1
dir=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] && [ -x "$bin/initdb" ] || {
	echo "pg-server: no PostgreSQL server (Debian's postgresql package; sh scripts/install-deps.sh --all)" >&2
	exit 77
}
me=$(id -un)

# The server's own user: ourselves, or postgres (nobody without it) for root.
as_server() {
	if [ "$(id -u)" = 0 ]; then
		owner=postgres
		id -u postgres >/dev/null 2>&1 || owner=nobody
		runuser -u "$owner" -- "$@"
	else
		"$@"
	fi
}

url() {
	echo "postgresql:///$1?host=$dir&user=$me"
}

case $cmd in
start)
	mkdir -p "$dir"
	if [ "$(id -u)" = 0 ]; then
		owner=postgres
		id -u postgres >/dev/null 2>&1 || owner=nobody
		chown "$owner" "$dir"
		chmod 755 "$dir"
		runuser -u "$owner" -- test -x "$dir" || {
			echo "pg-server: $owner cannot reach $dir: give a directory outside private ones" >&2
			exit 1
		}
	fi
	as_server "$bin/initdb" -D "$dir/data" -U "$me" --auth=trust -E UTF8 --locale=C.UTF-8 \
		>"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
	as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
		-o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off" \
		>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
	"$bin/createdb" -h "$dir" -U "$me" cbench
	url cbench
	;;
db)
	[ $# -eq 3 ] || usage
	"$bin/createdb" -h "$dir" -U "$me" "$3"
	url "$3"
	;;
stop)
	as_server "$bin/pg_ctl" -D "$dir/data" -w -t 60 -m fast stop >/dev/null 2>&1 || true
	;;
*)
	usage
	;;
esac
