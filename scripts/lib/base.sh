# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # variables are for the scripts that source this
#
# Named bases and the base options, Debian's packages of them through a
# private apt configuration, Debian's debug images, kernel tree versions.

# Named bases: NAME, Debian source package, pinned version, the series (a
# quilt series file, relative to the repo) that applies to it, and Debian's
# debug image of the cloud-amd64 kernel built from it ('-': none).  The
# first is the default.  Packages come from a private apt configuration
# (debian_apt), so that nothing on the machine upgrades from experimental
# or sid; the kernel version is the package's upstream version.
BASES=${HARNESS_BASES:-'mainline linux-source-7.3 7.3~rc7-1~exp1 series linux-image-7.3-cloud-amd64-dbg
6.12 linux-source-6.12 6.12.118-1~deb12u1 patches/backport-6.12/series linux-image-6.12.118+deb12-cloud-amd64-dbg
6.1 linux-source-6.1 6.1.192-3 patches/backport-6.12/series -
7.2 linux-source-7.2 7.2.13-1 series linux-image-7.2.13+deb14-cloud-amd64-dbg'}

base_names() {
	awk '{ printf "%s%s", sep, $1; sep = ", " }' <<<"$BASES"
}
BASE_NAMES=$(base_names)

# The base options, for parse_opts (a 'base' line takes them all);
# base_init after parse_opts resolves the base and picks its series.
BASE_NAME=${BASES%% *}
BASE_TREE=
BASE_TARBALL_ARG=
BASE_VERSION_ARG=
BASE_NEWEST=${HARNESS_NEWEST:-0}
BASE_OPTS="--base value BASE_NAME a name ($BASE_NAMES)
--tree value BASE_TREE a directory
--tarball value BASE_TARBALL_ARG a file
--base-version value BASE_VERSION_ARG a version
--newest flag BASE_NEWEST"

BASE_USAGE="Base tree (default: $(awk 'NR == 1 { print $1 ", Debian " $2 " " $3 }' <<<"$BASES")):
  --base NAME           a named base: $BASE_NAMES (scripts/base --help)
  --base-version V      the base's package at version V instead of the
                        pinned one ('newest': the newest served); with
                        --tree or --tarball, the Linux version the tree
                        must have ('any': no check)
  --newest              use the newest package of the base's line that
                        Debian serves, with a loud note when it is not
                        the pinned one (CI does: the registry moves on)
  --tree DIR            use the kernel tree in DIR (a checkout or an
                        unpacked tarball) as base NAME; only read
  --tarball FILE        unpack FILE (.tar, .tar.gz, .tar.xz, ...) once and
                        use it as base NAME"

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

# base_args: the base options again, one a line, to pass them on to
# another script.
base_args() {
	printf '%s\n' --base "$BASE_NAME"
	[ -z "$BASE_TREE" ] || printf '%s\n' --tree "$BASE_TREE"
	[ -z "$BASE_TARBALL_ARG" ] || printf '%s\n' --tarball "$BASE_TARBALL_ARG"
	[ -z "$BASE_VERSION_ARG" ] || printf '%s\n' --base-version "$BASE_VERSION_ARG"
	[ "$BASE_NEWEST" = 0 ] || printf '%s\n' --newest
}

# tree_version DIR: "VERSION.PATCHLEVEL.SUBLEVEL[EXTRAVERSION]" from a
# kernel Makefile, e.g. 6.12.117 or 7.3.0-rc7; nothing for another tree.
tree_version() {
	local mk=$1/Makefile
	[ -f "$mk" ] && [ -f "$1/Kconfig" ] && [ -d "$1/scripts/kconfig" ] || return 0
	awk -F' *= *' '
	$1 ~ /^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)$/ && !($1 in v) { v[$1] = $2 }
	END {
		if (v["VERSION"] != "" && v["PATCHLEVEL"] != "")
			print v["VERSION"] "." v["PATCHLEVEL"] "." (v["SUBLEVEL"] == "" ? 0 : v["SUBLEVEL"]) v["EXTRAVERSION"]
	}' "$mk"
}

# check_tree_version DIR WANT: WANT is a version or "any".
check_tree_version() {
	local dir=$1 want=$2 have
	have=$(tree_version "$dir")
	[ -n "$have" ] ||
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
	cat > "$DEBIAN_APT/apt.conf" <<-EOC
	Dir::Etc::SourceList "$DEBIAN_APT/sources.list";
	Dir::Etc::SourceParts "-";
	Dir::State::Lists "$DEBIAN_APT/lists";
	Dir::Cache "$DEBIAN_APT/cache";
	Dir::State::status "/var/lib/dpkg/status";
	APT::Sandbox::User "root";
	EOC
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
		debian_versions "$pkg" | grep -xF -- "$ver" >/dev/null ||
			die "$pkg $ver is not served (any more?); served: $(debian_versions "$pkg" | head -3 | tr '\n' ' ')"
		mkdir -p "$dir"
		step "downloading $pkg $ver (once, to $dir)"
		(cd "$dir" && debian_apt apt-get -q download "$pkg=$ver" >&2) ||
			die "apt-get download $pkg=$ver failed"
		deb=$(debian_cached "$pkg" "$ver") || die "apt-get download $pkg=$ver wrote no .deb to $dir"
	fi
	echo "$deb"
}

# debian_cached PKG VERSION: the path of its .deb under build/debian/, if
# it was downloaded (apt-get download names it PKG_VERSION_ARCH.deb, with
# ':' as %3a); fails if not.
debian_cached() {
	local deb
	deb=$(find "$BUILD/debian" -maxdepth 1 -name "${1}_${2//:/%3a}_*.deb" 2>/dev/null | head -1)
	[ -n "$deb" ] && echo "$deb"
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
	if [ "$name" = "$BASE_NAME" ] && [ "$BASE_NEWEST" = 1 ] && [ "$ver" = "$BASE_PINNED" ] &&
	   { debian_apt_fresh; [ "$(debian_versions "$BASE_PKG" | head -1)" != "$ver" ]; }; then
		debian_dbg_of_newest "$pkg"
		return
	fi
	echo "$pkg $ver"
}

# debian_dbg_of_newest PINNED-PKG: with --newest, when the newest source
# of the line is not the pinned one, the debug image built from it.  Its name may differ from the
# pinned one's (it carries the ABI), so it is the pinned package or
# another versioned cloud-amd64 -dbg package served at exactly that
# version.
debian_dbg_of_newest() {
	local src p
	src=$(debian_versions "$BASE_PKG" | head -1)
	[ -n "$src" ] || die "base $BASE_NAME: no $BASE_PKG is served, so there is no debug image to match"
	while read -r p; do
		if debian_versions "$p" | grep -xF -- "$src" >/dev/null; then
			warn "the base is not the pinned one; using the debug image $p $src, built from the source the base now is"
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
