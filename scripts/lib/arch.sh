# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # variables are for the scripts that source this
#
# The arches the harness builds and boots: make arguments, qemu commands.

CROSS_arm64=aarch64-linux-gnu-
# The clang and LLVM tools of LLVM builds: make's LLVM=-19 suffix.
LLVM_VERSION=-19
KNOWN_ARCHES="um x86_64 arm64"

check_arch() {
	case " $KNOWN_ARCHES " in
	*" $1 "*) ;;
	*) die "unknown arch '$1' (known: $KNOWN_ARCHES)" ;;
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
