# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # variables are for the scripts that source this
#
# What every script of the harness shares: paths, messages, results.  Every
# script sources this file, which sources the rest of scripts/lib/; do not
# run it.  One file per concern:
#   common.sh  paths, die/warn/info/step, results, git helpers
#   opts.sh    the option parser
#   pkgs.sh    Debian packages each part needs
#   base.sh    named bases, their options, the private apt, Debian's
#              debug images, kernel tree versions
#   arch.sh    make arguments and qemu command lines per arch
#   series.sh  series files, topics and their manifests
#   notes.sh   MAINTAINERS-notes sections
#   send.sh    the git tree that scripts/send and scripts/range-diff use
#
# Layout under $BUILD (default: <repo>/build, gitignored):
#   base/<name>/       pristine base trees, unpacked once and reused
#   work/<name>/       fresh copies of a base with the series applied
#   out/<name>/        O= build directories, reused between runs
#   debian/, apt/      downloaded packages, the private apt configuration

LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$LIB/../.." && pwd)
BUILD=${BUILD_DIR:-$REPO/build}
# The series and its patches (base_init picks the base's); the topic
# manifests (patches/TOPIC/topic), which the backport series shares; the
# mainline series, whose banners list every topic.
SERIES=${HARNESS_SERIES:-$REPO/series}
PATCHES=${HARNESS_PATCHES:-$REPO/patches}
TOPICS=${HARNESS_TOPICS:-$PATCHES}
MAIN_SERIES=${HARNESS_MAIN_SERIES:-$SERIES}
NOTES=${HARNESS_NOTES:-$REPO/MAINTAINERS-notes}
README=${HARNESS_README:-$REPO/README.md}

PROG=${PROG:-${0##*/}}

die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 1
}

warn() {
	printf '%s: warning: %s\n' "$PROG" "$*" >&2
}

info() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

# step "name": print a progress line with the time spent so far (bash's
# SECONDS counts from the start of the script).
step() {
	printf '\n==> [%s +%ss] %s\n' "$PROG" "$SECONDS" "$*" >&2
}

elapsed() {
	printf '%dm%02ds' "$((SECONDS / 60))" "$((SECONDS % 60))"
}

# Results.  Every check and test reports through result(); when
# RESULTS_FILE is set (scripts/test sets it) the lines are collected there
# and counted at the end.
result() {
	local status=$1
	shift
	printf '%s: %s\n' "$status" "$*"
	[ -z "${RESULTS_FILE:-}" ] || printf '%s %s\n' "$status" "$*" >> "$RESULTS_FILE"
}

# count_results FILE: print "N passed, N failed[, N skipped]"; fail on any
# failure or on an empty file.
count_results() {
	local p f s
	p=$(grep -c '^PASS ' "$1" || true)
	f=$(grep -c '^FAIL ' "$1" || true)
	s=$(grep -c '^SKIP ' "$1" || true)
	if [ "$s" -gt 0 ]; then
		echo "$p passed, $f failed, $s skipped"
	else
		echo "$p passed, $f failed"
	fi
	[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
}

# run_errexit CMD...: run CMD in a subshell with set -e in force, and put
# its exit status in ERREXIT_STATUS.  'if CMD', 'CMD || ...' and
# 'CMD && ...' switch set -e off inside a function CMD, so that a failing
# step in its middle would go unnoticed; here it ends CMD.
run_errexit() {
	set +e
	(
		set -e
		"$@"
	)
	ERREXIT_STATUS=$?
	set -e
}

# git_ident_opts DIR: git's options, one a line, that give git in DIR the
# harness's identity where DIR's configuration has none, so that git am
# and commit work on a fresh machine.  git_ident DIR ARGS...: git -C DIR
# with them.
git_ident_opts() {
	git -C "$1" config user.name >/dev/null 2>&1 || printf '%s\n' -c "user.name=Series Harness"
	git -C "$1" config user.email >/dev/null 2>&1 || printf '%s\n' -c "user.email=harness@localhost"
}

git_ident() {
	local dir=$1
	local -a ident
	shift
	mapfile -t ident < <(git_ident_opts "$dir")
	git -C "$dir" "${ident[@]}" "$@"
}

# git_quiet_gc DIR: no automatic 'git gc' or maintenance in DIR, a tree
# the harness made: a background repack of a whole kernel tree costs
# minutes of a CI machine's time.
git_quiet_gc() {
	git -C "$1" config gc.auto 0
	git -C "$1" config maintenance.auto false
}

# git with the user's and the system's configuration ignored, so that what
# scripts/export writes does not depend on who runs it.
git_pure() {
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_SYSTEM=/dev/null git "$@"
}

# shellcheck source=scripts/lib/opts.sh
. "$LIB/opts.sh"
# shellcheck source=scripts/lib/pkgs.sh
. "$LIB/pkgs.sh"
# shellcheck source=scripts/lib/base.sh
. "$LIB/base.sh"
# shellcheck source=scripts/lib/arch.sh
. "$LIB/arch.sh"
# shellcheck source=scripts/lib/series.sh
. "$LIB/series.sh"
# shellcheck source=scripts/lib/notes.sh
. "$LIB/notes.sh"
# shellcheck source=scripts/lib/send.sh
. "$LIB/send.sh"
