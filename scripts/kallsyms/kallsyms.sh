# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the kallsyms topic's test and benchmark share.

# data_bytes: the bytes of the .byte lists and .ascii strings that
# scripts/kallsyms wrote, read from stdin with the comments left out.
data_bytes() {
	perl -ne 'if (/^\s*\.byte\s/) { $n += () = /0x[0-9a-f]{2}/g }
		  elsif (/^\s*\.ascii\s+"(.*)"\s*$/) { ($s = $1) =~ s/\\[0-7]{1,3}/x/g; $n += length $s }
		  END { print $n + 0, "\n" }'
}

# kallsyms_names_bytes S: the bytes of kallsyms_names in a .S file that
# scripts/kallsyms wrote (the comments, which hold the names, left out).
kallsyms_names_bytes() {
	sed -n '/^kallsyms_names:/,/^$/{s|/\*.*||;p}' "$1" | data_bytes
}
