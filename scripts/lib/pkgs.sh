# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The Debian packages each part of the harness needs, installed when
# missing.

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
		# kunit.py's riscv boots with the OpenSBI of qemu-system-data.
		riscv64) echo gcc-riscv64-linux-gnu qemu-system-misc qemu-system-data ;;
		check) echo sparse perl python3 git ;;
		llvm) echo "clang$LLVM_VERSION lld$LLVM_VERSION llvm$LLVM_VERSION" ;;
		test) echo shellcheck ;;
		send) echo b4 git ;;
		btf) echo dwarves ;;
		# make bindeb-pkg, and a clean root for dkms (dkms-test)
		deb) echo debhelper dpkg-dev fakeroot debootstrap ;;
		gdb) echo gdb ;;
		gdb-arm64) echo gdb-multiarch ;;
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

# missing_pkgs PKG...: those of PKG that are not installed, one a line.
missing_pkgs() {
	dpkg-query -W -f='${db:Status-Status} ${Package}\n' "$@" 2>/dev/null |
		awk '$1 == "installed" { print $2 }' | sort -u |
		comm -13 - <(printf '%s\n' "$@" | sort -u)
}

# ensure_pkgs PART...: install what the named parts need and is missing.
ensure_pkgs() {
	local -a pkgs missing
	command -v dpkg-query >/dev/null 2>&1 || {
		warn "not a Debian system: not checking packages for: $*"
		return 0
	}
	read -ra pkgs <<<"$(pkgs_for "$@" | tr '\n' ' ')"
	[ ${#pkgs[@]} -gt 0 ] || return 0
	mapfile -t missing < <(missing_pkgs "${pkgs[@]}")
	[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
}
