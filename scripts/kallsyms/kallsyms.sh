# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the kallsyms topic's test and benchmark share.

# kallsyms_names_bytes S: the bytes of kallsyms_names in a .S file that
# scripts/kallsyms wrote (the comments, which hold the names, left out).
kallsyms_names_bytes() {
	sed -n '/^kallsyms_names:/,/^$/{s|/\*.*||;p}' "$1" | grep -o '0x[0-9a-f][0-9a-f]' | wc -l
}
