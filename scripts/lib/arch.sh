# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # variables are for the scripts that source this
#
# The arches the harness builds and boots: make arguments, qemu commands.
# And the arches that only scripts/kunit runs, through kunit.py's own qemu
# configuration, with no guest of the harness's.

CROSS_arm64=aarch64-linux-gnu-
CROSS_riscv64=riscv64-linux-gnu-
# The clang and LLVM tools of LLVM builds: make's LLVM=-19 suffix.
LLVM_VERSION=-19
# The arches with a guest: scripts/build, the benchmarks, qemu_cmd.
KNOWN_ARCHES="um x86_64 arm64"
# riscv64: a 64-bit arch that the stackdepot topic does not hook, which
# takes the generic (raw frame) path.
KUNIT_ONLY_ARCHES="riscv64"
KUNIT_ARCHES="$KNOWN_ARCHES $KUNIT_ONLY_ARCHES"

# check_arch ARCH: die unless ARCH has a guest.
check_arch() {
	case " $KNOWN_ARCHES " in
	*" $1 "*) return 0 ;;
	esac
	case " $KUNIT_ONLY_ARCHES " in
	*" $1 "*) die "arch '$1' is for KUnit only (scripts/kunit --arch $1): no guest to build or boot (guest arches: $KNOWN_ARCHES)" ;;
	esac
	die "unknown arch '$1' (known: $KNOWN_ARCHES)"
}

# check_kunit_arch ARCH: die unless scripts/kunit can run ARCH.
check_kunit_arch() {
	case " $KUNIT_ARCHES " in
	*" $1 "*) ;;
	*) die "unknown arch '$1' (known: $KUNIT_ARCHES)" ;;
	esac
}

# kunit_args ARCH: kunit.py's --arch (its qemu_configs/ name) and
# --cross_compile for ARCH, one a line.
kunit_args() {
	case $1 in
	arm64) printf '%s\n' --arch=arm64 --cross_compile="$CROSS_arm64" ;;
	riscv64) printf '%s\n' --arch=riscv --cross_compile="$CROSS_riscv64" ;;
	*) printf '%s\n' --arch="$1" ;;
	esac
}

kernel_arch() {
	case $1 in
	x86_64) echo x86_64 ;;
	*) echo "$1" ;;
	esac
}

# make_args ARCH: the arguments for make, one a line: ARCH,
# CROSS_COMPILE, LLVM=$LLVM when $LLVM is set (LLVM_VERSION: mainline
# needs clang 17 or later, Debian 12's default is 14), and the job count.
make_args() {
	local arch=$1
	local -a a=("ARCH=$(kernel_arch "$arch")" "-j$(nproc)")
	[ "$arch" != arm64 ] || a+=("CROSS_COMPILE=$CROSS_arm64")
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
	# No network: the default NIC's option ROM (efi-virtio.rom) is in
	# ipxe-qemu, which qemu-system-arm only recommends.
	printf '%s\n' -smp 2 -nographic -no-reboot -nic none -initrd "$initrd"
}
