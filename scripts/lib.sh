# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # variables are for the scripts that source this
#
# Common helpers for the scripts in this directory.  Source it; do not run it.
#
# Layout under $BUILD (default: <repo>/build, gitignored):
#   base/<name>/       pristine base trees, unpacked once and reused
#   work/<name>/       fresh copies of a base with the series applied
#   out/<name>/        O= build directories, reused between runs
#   cache/             downloaded packages and other inputs

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$REPO/build}
SERIES=${HARNESS_SERIES:-$REPO/series}
PATCHES=${HARNESS_PATCHES:-$REPO/patches}
NOTES=${HARNESS_NOTES:-$REPO/MAINTAINERS-notes}
COVER=${HARNESS_COVER:-$REPO/scripts/cover}

# Named bases: NAME, Debian source package, pinned version, the series (a
# quilt series file, relative to the repo) that applies to it, and Debian's
# debug image of the cloud-amd64 kernel built from it ('-': none).  The
# first is the default.  Packages come from a private apt configuration
# (debian_apt), so that nothing on the machine upgrades from experimental
# or sid; the kernel version is the package's upstream version.
BASES=${HARNESS_BASES:-'mainline linux-source-7.3 7.3~rc7-1~exp1 series linux-image-7.3-cloud-amd64-dbg
6.12 linux-source-6.12 6.12.117-1~deb12u1 patches/backport-6.12/series linux-image-6.12.117+deb12-cloud-amd64-dbg
6.1 linux-source-6.1 6.1.192-3 patches/backport-6.12/series -
7.2 linux-source-7.2 7.2.13-1 series linux-image-7.2.13+deb14-cloud-amd64-dbg'}

CROSS_arm64=aarch64-linux-gnu-
# The clang and LLVM tools of LLVM builds: make's LLVM=-19 suffix.
LLVM_VERSION=-19
KNOWN_ARCHES="um x86_64 arm64"

PROG=${PROG:-$(basename "$0")}
SCRIPT_START=$(date +%s)

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

# step "name": print a progress line with the time spent so far.
step() {
	local now
	now=$(date +%s)
	printf '\n==> [%s +%ss] %s\n' "$PROG" "$((now - SCRIPT_START))" "$*" >&2
}

elapsed() {
	local s=$(($(date +%s) - SCRIPT_START))
	printf '%dm%02ds' "$((s / 60))" "$((s % 60))"
}

check_arch() {
	case " $KNOWN_ARCHES " in
	*" $1 "*) ;;
	*) die "unknown arch '$1' (known: $KNOWN_ARCHES)" ;;
	esac
}

# Arguments for make: ARCH, CROSS_COMPILE, LLVM=$LLVM when $LLVM is set
# (LLVM_VERSION: mainline needs clang 17 or later, Debian 12's
# default is 14), and the job count.
make_args() {
	local arch=$1
	local -a a=("ARCH=$(kernel_arch "$arch")" "-j$(nproc)")
	[ "$arch" = arm64 ] && a+=("CROSS_COMPILE=$CROSS_arm64")
	[ -z "${LLVM:-}" ] || a+=("LLVM=$LLVM")
	printf '%s\n' "${a[@]}"
}

# qemu_cmd ARCH OUT INITRD APPEND: the qemu command line, a word a line,
# that boots the kernel built in OUT with INITRD on two CPUs, console on
# the serial port, APPEND after the console option.  TCG, not KVM: nested
# KVM on the CI machines hangs guests.  The caller adds -m and the rest.
qemu_cmd() {
	local arch=$1 out=$2 initrd=$3 append=$4
	case $arch in
	x86_64)
		printf '%s\n' qemu-system-x86_64 -accel tcg -bios qboot.rom \
			-kernel "$out/arch/x86/boot/bzImage" -append "console=ttyS0 $append" ;;
	arm64)
		printf '%s\n' qemu-system-aarch64 -M virt -cpu max \
			-kernel "$out/arch/arm64/boot/Image" -append "console=ttyAMA0 $append" ;;
	*) die "internal: no qemu guest for '$arch'" ;;
	esac
	printf '%s\n' -smp 2 -nographic -no-reboot -initrd "$initrd"
}

# kallsyms_names_bytes S: the bytes of kallsyms_names in a .S file that
# scripts/kallsyms wrote (the comments, which hold the names, left out).
kallsyms_names_bytes() {
	sed -n '/^kallsyms_names:/,/^$/{s|/\*.*||;p}' "$1" | grep -o '0x[0-9a-f][0-9a-f]' | wc -l
}

# Debian's debug image of the base (the fifth column of BASES, built
# from the same source package version), whose System.map, vmlinux and
# modules (with DWARF) the host tests and benchmarks use: debian_dbg_file
# vmlinux|System.map and debian_dbg_modules extract them once under
# build/debian/PACKAGE_VERSION/ and print their paths.  DEBIAN_DBG names
# another base's image ("6.12"), for benchmarks that take several.
debian_dbg_pkg() {
	local name=${DEBIAN_DBG:-$BASE_NAME} pkg ver
	read -r pkg ver < <(awk -v n="$name" '$1 == n { print $5, $3 }' <<<"$BASES")
	if [ -z "$pkg" ] || [ "$pkg" = - ]; then
		die "base $name names no Debian debug image"
	fi
	[ "$name" != "$BASE_NAME" ] || ver=$BASE_PKG_VERSION
	if [ "$name" = "$BASE_NAME" ] && [ "$BASE_NEWEST_IF_GONE" = 1 ] &&
	   [ "$ver" = "$BASE_PINNED" ] && ! debian_cached "$pkg" "$ver" >/dev/null &&
	   { debian_apt_fresh; ! debian_versions "$pkg" | grep -qxF -- "$ver"; }; then
		debian_dbg_of_newest "$pkg"
		return
	fi
	echo "$pkg $ver"
}

# debian_cached PKG VERSION: the path of its .deb under build/debian/, if
# it was downloaded (apt-get download names it PKG_VERSION_ARCH.deb, with
# ':' as %3a); fails if not.
debian_cached() {
	local deb
	deb=$(find "$BUILD/debian" -maxdepth 1 -name "${1}_${2//:/%3a}_*.deb" 2>/dev/null | head -1)
	[ -n "$deb" ] && echo "$deb"
}

# debian_dbg_of_newest PINNED-PKG: with --newest-if-gone, once the pinned image is
# gone, the debug image built from the source version the base then is
# (the newest served of its line).  Its name may differ from the pinned
# one's (it carries the ABI), so it is the pinned package or another
# versioned cloud-amd64 -dbg package served at exactly that version.
debian_dbg_of_newest() {
	local src p
	src=$(debian_versions "$BASE_PKG" | head -1)
	[ -n "$src" ] || die "base $BASE_NAME: no $BASE_PKG is served, so there is no debug image to match"
	while read -r p; do
		if debian_versions "$p" | grep -qxF -- "$src"; then
			warn "the pinned debug image is gone; using $p $src, built from the source the base now is"
			echo "$p $src"
			return
		fi
	done < <({ echo "$1"; debian_apt apt-cache search --names-only '^linux-image-[0-9].*-cloud-amd64-dbg$' 2>/dev/null |
		cut -d' ' -f1 | sort -rV; })
	die "base $BASE_NAME: no cloud-amd64 debug image of Linux package $src is served (yet?); the host tests that read Debian's vmlinux need one"
}

debian_dbg_dir() {
	local pkg ver
	read -r pkg ver < <(debian_dbg_pkg)
	echo "$BUILD/debian/${pkg}_${ver//\~/_}"
}

# debian_dbg_file vmlinux|System.map
debian_dbg_file() {
	local kind=$1 dir deb path pkg ver
	dir=$(debian_dbg_dir)
	if [ ! -s "$dir/$kind" ]; then
		read -r pkg ver < <(debian_dbg_pkg)
		deb=$(debian_download "$pkg" "$ver")
		# the regular file, not the symlinks to it
		path=$(dpkg-deb -c "$deb" | awk -v k="$kind" '$1 ~ /^-/ && $NF ~ "/(" k ")(-[^/]*)?$" && !n++ { print $NF }')
		[ -n "$path" ] || die "no $kind in $deb"
		mkdir -p "$dir"
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "$path" > "$dir/$kind.tmp" ||
			die "cannot extract $path from $deb"
		mv "$dir/$kind.tmp" "$dir/$kind"
	fi
	echo "$dir/$kind"
}

# debian_dbg_modules: the unstripped modules of the image (about 1,100
# files, 1.5 GB), extracted once; prints the directory that holds them.
debian_dbg_modules() {
	local out deb pkg ver
	out=$(debian_dbg_dir)/modules
	if [ ! -f "$out/.done" ]; then
		read -r pkg ver < <(debian_dbg_pkg)
		deb=$(debian_download "$pkg" "$ver")
		rm -rf "$out"
		mkdir -p "$out"
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x -C "$out" --wildcards './usr/lib/debug/lib/modules/*.ko' ||
			die "cannot extract the modules of $deb"
		touch "$out/.done"
	fi
	echo "$out"
}

kernel_arch() {
	case $1 in
	x86_64) echo x86_64 ;;
	*) echo "$1" ;;
	esac
}

# Debian packages each part of the harness needs.
pkgs_for() {
	local what
	for what in "$@"; do
		case $what in
		base) echo xz-utils rsync dpkg ;;
		apply) echo quilt patch git rsync ;;
		build) echo make gcc libc6-dev flex bison bc libelf-dev libdw-dev libssl-dev python3 perl cpio kmod ;;
		um) ;;
		x86_64) echo qemu-system-x86 qemu-system-data ;;
		arm64) echo gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm ;;
		check) echo sparse perl python3 git ;;
		llvm) echo "clang$LLVM_VERSION lld$LLVM_VERSION llvm$LLVM_VERSION" ;;
		test) echo shellcheck ;;
		send) echo b4 git ;;
		*) die "internal: no package list for '$what'" ;;
		esac
	done
}

apt_install() {
	local -a sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null 2>&1 ||
			die "missing packages: $*; not root and no sudo: run 'apt-get install $*' as root"
		sudo=(sudo)
	fi
	command -v apt-get >/dev/null 2>&1 ||
		die "missing packages: $*; no apt-get here: install them by hand"
	info "installing: $*"
	if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "$@" >&2; then
		"${sudo[@]}" apt-get update -q >&2 ||
			die "apt-get update failed; cannot install: $*"
		"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends "$@" >&2 ||
			die "apt-get install failed for: $*"
	fi
}

pkg_installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

# ensure_pkgs PART...: install what the named parts need and is missing.
ensure_pkgs() {
	local p
	local -a missing=()
	command -v dpkg-query >/dev/null 2>&1 || {
		warn "not a Debian system: not checking packages for: $*"
		return 0
	}
	# shellcheck disable=SC2046 # word splitting is wanted
	for p in $(pkgs_for "$@"); do
		pkg_installed "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
}

# tree_version DIR: "VERSION.PATCHLEVEL.SUBLEVEL[EXTRAVERSION]" from a
# kernel Makefile, e.g. 6.12.117 or 7.3.0-rc7.
tree_version() {
	local mk=$1/Makefile v p s e
	[ -f "$mk" ] && [ -f "$1/Kconfig" ] && [ -d "$1/scripts/kconfig" ] ||
		return 1
	v=$(sed -n 's/^VERSION = *//p' "$mk" | head -1)
	p=$(sed -n 's/^PATCHLEVEL = *//p' "$mk" | head -1)
	s=$(sed -n 's/^SUBLEVEL = *//p' "$mk" | head -1)
	e=$(sed -n 's/^EXTRAVERSION = *//p' "$mk" | head -1)
	[ -n "$v" ] && [ -n "$p" ] || return 1
	echo "$v.$p.${s:-0}$e"
}

# check_tree_version DIR WANT: WANT is a version or "any".
check_tree_version() {
	local dir=$1 want=$2 have
	have=$(tree_version "$dir") ||
		die "$dir is not a kernel source tree (no Makefile with VERSION/PATCHLEVEL/SUBLEVEL, Kconfig and scripts/kconfig)"
	[ "$want" = any ] || [ "$have" = "$want" ] ||
		die "$dir is Linux $have, but base $BASE_NAME is Linux $want; pass --base-version $have (or 'any') to use it anyway"
}

# kernel_tag VERSION: the upstream tag of a tree_version: 7.3.0-rc7 ->
# v7.3-rc7, 7.3.0 -> v7.3, 6.12.117 -> v6.12.117.
kernel_tag() {
	sed -E 's/^([0-9]+\.[0-9]+)\.0(-rc[0-9]+)?$/\1\2/; s/^/v/' <<<"$1"
}

# pkg_kernel_version VERSION: the Linux version of a Debian linux-source
# package version: 7.3~rc7-1~exp1 -> 7.3.0-rc7, 6.12.117-1~deb12u1 -> 6.12.117.
pkg_kernel_version() {
	local up=${1%-*} rc=''
	case $up in *~rc*) rc=-rc${up##*~rc}; up=${up%%~rc*} ;; esac
	case $up in *.*.*) ;; *) up=$up.0 ;; esac
	echo "$up$rc"
}

# Base options, shared by every script that takes a base: base_opt "$@"
# in the option loop returns how many arguments it took; base_init after
# the loop resolves the base and picks its series.
BASE_NAME=${BASES%% *}
BASE_TREE=
BASE_TARBALL_ARG=
BASE_VERSION_ARG=
BASE_NEWEST_IF_GONE=${HARNESS_NEWEST_IF_GONE:-0}
base_opt() {
	case $1 in
	--base)
		[ $# -ge 2 ] || die "--base needs a name ($(base_names))"
		BASE_NAME=$2
		return 2 ;;
	--tree)
		[ $# -ge 2 ] || die "--tree needs a directory"
		BASE_TREE=$2
		return 2 ;;
	--tarball)
		[ $# -ge 2 ] || die "--tarball needs a file"
		BASE_TARBALL_ARG=$2
		return 2 ;;
	--base-version)
		[ $# -ge 2 ] || die "--base-version needs a version"
		BASE_VERSION_ARG=$2
		return 2 ;;
	--newest-if-gone)
		BASE_NEWEST_IF_GONE=1
		return 1 ;;
	esac
	return 0
}

base_names() {
	awk '{ printf "%s%s", sep, $1; sep = ", " }' <<<"$BASES"
}

# base_init: set BASE_PKG, BASE_PKG_VERSION (pinned, or --base-version),
# BASE_KVER (the Linux version a tree must have, or 'any'), and SERIES
# and PATCHES for the base, unless HARNESS_SERIES chose a series.
base_init() {
	local line series
	line=$(awk -v n="$BASE_NAME" '$1 == n' <<<"$BASES")
	[ -n "$line" ] || die "unknown base '$BASE_NAME' (known: $(base_names))"
	read -r _ BASE_PKG BASE_PKG_VERSION series _ <<<"$line"
	BASE_SERIES=$series
	BASE_PINNED=$BASE_PKG_VERSION
	# Work trees and build directories of other bases than the default
	# get this suffix, so that each base keeps its incremental builds.
	BASE_TAG=
	[ "$BASE_NAME" = "${BASES%% *}" ] || BASE_TAG=-$BASE_NAME
	BASE_KVER=$(pkg_kernel_version "$BASE_PKG_VERSION")
	if [ -n "$BASE_VERSION_ARG" ]; then
		if [ -n "$BASE_TREE$BASE_TARBALL_ARG" ]; then
			BASE_KVER=$BASE_VERSION_ARG
		else
			BASE_PKG_VERSION=$BASE_VERSION_ARG
			[ "$BASE_VERSION_ARG" = newest ] || BASE_KVER=$(pkg_kernel_version "$BASE_VERSION_ARG")
		fi
	fi
	if [ -z "${HARNESS_SERIES:-}" ]; then
		SERIES=$REPO/$series
		PATCHES=$(dirname "$SERIES")
		[ "$series" != series ] || PATCHES=$REPO/patches
	fi
}

BASE_USAGE="Base tree (default: $(awk 'NR == 1 { print $1 ", Debian " $2 " " $3 }' <<<"$BASES")):
  --base NAME           a named base: $(base_names) (scripts/base --help)
  --base-version V      the base's package at version V instead of the
                        pinned one ('newest': the newest served); with
                        --tree or --tarball, the Linux version the tree
                        must have ('any': no check)
  --newest-if-gone      if the pinned package is no longer served, use the
                        newest of its line, with a warning (CI does)
  --tree DIR            use the kernel tree in DIR (a checkout or an
                        unpacked tarball) as base NAME; only read
  --tarball FILE        unpack FILE (.tar, .tar.gz, .tar.xz, ...) once and
                        use it as base NAME"

# Pass the base options on to another script.
base_args() {
	printf '%s\n' --base "$BASE_NAME"
	[ -z "$BASE_TREE" ] || printf '%s\n' --tree "$BASE_TREE"
	[ -z "$BASE_TARBALL_ARG" ] || printf '%s\n' --tarball "$BASE_TARBALL_ARG"
	[ -z "$BASE_VERSION_ARG" ] || printf '%s\n' --base-version "$BASE_VERSION_ARG"
	[ "$BASE_NEWEST_IF_GONE" = 0 ] || printf '%s\n' --newest-if-gone
}

# debian_apt ARGS...: apt-get or apt-cache (ARGS[0]) with a private
# configuration under build/apt/: the machine's Debian archive, with its
# own suites plus sid and experimental.  Nothing is installed from it, so
# no pinning is needed and nothing on the machine upgrades from it.  The
# lists are refreshed when older than a day, or when debian_apt_update
# says so.
DEBIAN_APT=$BUILD/apt
debian_apt() {
	local cmd=$1
	shift
	[ -f "$DEBIAN_APT/apt.conf" ] || debian_apt_setup
	APT_CONFIG=$DEBIAN_APT/apt.conf "$cmd" "$@"
}

debian_apt_setup() {
	local site codename
	command -v apt-get >/dev/null 2>&1 || die "no apt-get here: the named bases are Debian packages; pass --tree or --tarball"
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	# shellcheck disable=SC2016 # $(SITE) is apt's field syntax, not the shell's
	site=$(apt-get indextargets --format '$(SITE) $(RELEASE)' 2>/dev/null |
		awk -v c="$codename" '$2 == c { print $1; exit }')
	[ -n "$site" ] || die "cannot find the Debian archive of this machine ($codename) in its apt sources"
	mkdir -p "$DEBIAN_APT/lists/partial" "$DEBIAN_APT/cache/archives/partial"
	{
		# shellcheck disable=SC2016 # apt's field syntax
		apt-get indextargets --format '$(SITE) $(RELEASE)' | sort -u |
			awk '{ print "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] " $1 " " $2 " main" }'
		printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
			"$site" sid "$site" experimental
	} > "$DEBIAN_APT/sources.list"
	cat > "$DEBIAN_APT/apt.conf" <<-EOF
	Dir::Etc::SourceList "$DEBIAN_APT/sources.list";
	Dir::Etc::SourceParts "-";
	Dir::State::Lists "$DEBIAN_APT/lists";
	Dir::Cache "$DEBIAN_APT/cache";
	Dir::State::status "/var/lib/dpkg/status";
	APT::Sandbox::User "root";
	EOF
}

debian_apt_update() {
	step "refreshing the package lists of build/apt (sid, experimental and this machine's suites)"
	debian_apt apt-get -qq update >&2 || die "apt-get update with build/apt/apt.conf failed"
	touch "$DEBIAN_APT/updated"
}

# debian_apt_fresh: refresh the lists if they are older than a day.
debian_apt_fresh() {
	[ -f "$DEBIAN_APT/apt.conf" ] || debian_apt_setup
	[ -n "$(find "$DEBIAN_APT/updated" -mmin -1440 2>/dev/null)" ] || debian_apt_update
}

# debian_versions PKG: the versions of PKG that are served, newest first
# (apt-cache madison sorts them).
debian_versions() {
	debian_apt apt-cache madison "$1" 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $2) } !seen[$2]++ { print $2 }'
}

# debian_download PKG VERSION: the path of PKG_VERSION's .deb under
# build/debian/, downloaded once.
debian_download() {
	local pkg=$1 ver=$2 dir=$BUILD/debian deb
	if ! deb=$(debian_cached "$pkg" "$ver"); then
		debian_apt_fresh
		debian_versions "$pkg" | grep -qxF -- "$ver" ||
			die "$pkg $ver is not served (any more?); served: $(debian_versions "$pkg" | head -3 | tr '\n' ' ')"
		mkdir -p "$dir"
		step "downloading $pkg $ver (once, to $dir)"
		(cd "$dir" && debian_apt apt-get -q download "$pkg=$ver" >&2) ||
			die "apt-get download $pkg=$ver failed"
		deb=$(debian_cached "$pkg" "$ver") || die "apt-get download $pkg=$ver wrote no .deb to $dir"
	fi
	echo "$deb"
}

# Run a command with the harness's git identity defaults when the user has
# none, so that git am/commit work on a fresh machine.
git_ident() {
	local -a c=()
	git config user.name >/dev/null 2>&1 || c+=(-c user.name="Series Harness")
	git config user.email >/dev/null 2>&1 || c+=(-c user.email="harness@localhost")
	git "${c[@]}" "$@"
}

# Patch files listed in a series file, in order (comments and blank lines
# dropped, quilt options after the name dropped).
series_patches() {
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e '/^$/d' "${1:-$SERIES}" |
		awk '{ print $1 }'
}

# Topics: series groups patches under banners of the form
#   # topic: NAME - one-line title
#   # Patch-mainline: STATE
# A topic's patches live in patches/NAME/.  series_topics prints
# "NAME<TAB>STATE" for each banner, in order.
series_topics() {
	awk '
	/^#[[:space:]]*topic:/ {
		if (name != "") print name "\t" state
		sub(/^#[[:space:]]*topic:[[:space:]]*/, "")
		name = $1; state = ""; next
	}
	/^#[[:space:]]*Patch-mainline:/ && name != "" {
		sub(/^#[[:space:]]*Patch-mainline:[[:space:]]*/, ""); state = $0
	}
	END { if (name != "") print name "\t" state }
	' "${1:-$SERIES}"
}

# Fail if a series file names a patch that does not exist, or names one twice.
check_series_files() {
	local series=$1 pdir=$2 p
	[ -f "$series" ] || die "series file $series does not exist"
	[ -d "$pdir" ] || die "patch directory $pdir does not exist"
	while read -r p; do
		[ -f "$pdir/$p" ] || die "$series names $p, but $pdir/$p does not exist"
	done < <(series_patches "$series")
	p=$(series_patches "$series" | sort | uniq -d | head -1)
	[ -z "$p" ] || die "$series names $p more than once"
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

# git with the user's and the system's configuration ignored, so that what
# scripts/export writes does not depend on who runs it.
git_pure() {
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_SYSTEM=/dev/null git "$@"
}

# topic_with_deps TOPIC: TOPIC and the topics it depends on, by the
# 'Depends-on:' lines of MAINTAINERS-notes, in series order.
topic_with_deps() {
	local want=" $1 " t deps changed=1
	series_topics "$SERIES" | cut -f1 | grep -qxF -- "$1" ||
		die "no topic '$1' in $SERIES (topics: $(series_topics "$SERIES" | cut -f1 | tr '\n' ' '))"
	while [ $changed -eq 1 ]; do
		changed=0
		for t in $want; do
			deps=$(awk -v t="$t" '
				$1 == t ":" { in_t = 1; next }
				/^[a-z0-9_-]+:/ { in_t = 0 }
				in_t && /Depends-on:/ { sub(/.*Depends-on:[[:space:]]*/, ""); print; exit }
			' "$NOTES")
			for d in ${deps//,/ }; do
				[ "$d" = none ] && continue
				case $want in *" $d "*) ;; *) want="$want$d "; changed=1 ;; esac
			done
		done
	done
	series_topics "$SERIES" | cut -f1 | while read -r t; do
		case $want in *" $t "*) echo "$t" ;; esac
	done
}

# topic_series TOPIC FILE: write a series file with only TOPIC's patches
# and those of the topics it depends on.
topic_series() {
	local topics p
	topics=" $(topic_with_deps "$1" | tr '\n' ' ') "
	series_patches "$SERIES" | while read -r p; do
		case $topics in *" ${p%%/*} "*) echo "$p" ;; esac
	done > "$2"
}

# notes_section TITLE: the lines of the MAINTAINERS-notes section whose
# title line is TITLE (underlined with dashes), up to the next section.
notes_section() {
	awk -v t="$1" '
	prev == t && /^-+$/ { on = 1; prev = ""; next }
	on && /^-+$/ { done = 1; exit }
	on && prev_set { print prev }
	{ prev = $0; prev_set = on }
	END { if (on && prev_set && !done) print prev }
	' "$NOTES"
}

# topic_versions TOPIC: the versions the 'Version history' section of
# MAINTAINERS-notes records for TOPIC, oldest first, one a line:
# "N<TAB>PREFIXES<TAB>STATE<TAB>COMMIT<TAB>CHANGES", where STATE is
# 'unsent' or 'sent', COMMIT the repo commit a sent version was mailed
# from, and CHANGES the entry's text on one line; an empty PREFIXES or
# COMMIT is '-' (so that 'read' with IFS=TAB keeps the fields).  Entries read
#   TOPIC  vN  [PREFIXES, ]unsent: changes...
#   TOPIC  vN  [PREFIXES, ]sent YYYY-MM-DD from COMMIT: changes...
# continued on indented lines.
topic_versions() {
	notes_section 'Version history' | awk -v t="$1" '
	function flush() {
		if (v != "") print v "\t" (pre == "" ? "-" : pre) "\t" st "\t" (c == "" ? "-" : c) "\t" ch
		v = ""
	}
	$1 == t && $2 ~ /^v[0-9]+$/ {
		flush()
		line = $0
		sub(/^[^ \t]+[ \t]+v[0-9]+[ \t]+/, "", line)
		pre = ""; st = ""; c = ""
		if (match(line, /^[A-Z][A-Z0-9 ]*, /)) { pre = substr(line, 1, RLENGTH - 2); line = substr(line, RLENGTH + 1) }
		if (line ~ /^unsent:/) { st = "unsent"; sub(/^unsent:[ \t]*/, "", line) }
		else if (match(line, /^sent [0-9-]+ from [0-9a-f]+:/)) {
			st = "sent"; c = substr(line, 1, RLENGTH - 1); sub(/.* /, "", c)
			line = substr(line, RLENGTH + 1); sub(/^[ \t]*/, "", line)
		} else { st = "bad" }
		v = substr($2, 2); ch = line; next
	}
	v != "" && /^[ \t]+[^ \t]/ { l = $0; sub(/^[ \t]+/, "", l); ch = ch " " l; next }
	{ flush() }
	END { flush() }
	'
}

# send_git_tree BASE: the git tree of BASE that scripts/send and
# scripts/range-diff build topic branches in, $BUILD/send/linux ('base'
# tag); made by 'scripts/apply --git' with no patches, reused while its
# base is BASE.  Prints its path.
send_git_tree() {
	local g=$BUILD/send/linux subject
	subject="Linux $(tree_version "$1") (base: $1)"
	if [ ! -d "$g/.git" ] || [ "$(git -C "$g" log -1 --format=%s base 2>/dev/null)" != "$subject" ]; then
		step "making the git tree of the base ($g)"
		mkdir -p "$BUILD/send"
		: > "$BUILD/send/empty-series"
		"$REPO/scripts/apply" --git --force --series "$BUILD/send/empty-series" \
			--patches "$PATCHES" --work "$g" --tree "$1" --base-version any >/dev/null
	fi
	[ -z "$(git -C "$g" status --porcelain --untracked-files=no)" ] || git -C "$g" reset -q --hard
	git -C "$g" checkout -q -f --detach base
	echo "$g"
}
