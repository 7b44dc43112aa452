# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# MAINTAINERS-notes: its sections, and the Version history of each topic.

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
