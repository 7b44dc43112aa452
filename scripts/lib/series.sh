# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # variables are for the scripts that source this
#
# Series files, topics, and the topic manifests.
#
# A topic is defined by its directory, patches/TOPIC/ ($TOPICS/TOPIC):
#   topic        the manifest: 'key: value' lines, '#' comments (keys below)
#   cover        the cover letter's text (scripts/send)
#   figures      what the topic was measured to do (the cover letter's
#                Figures; README quotes the manifest's headline from it)
#   config       optional: a Kconfig fragment every scripts/build guest gets
#   kunitconfig  optional: a KUnit configuration with a '# arches:' line
#   *.patch      the mainline series' patches of the topic
# A series file lists the patches under one banner per topic, which
# scripts/export writes from the manifest:
#   # posting: NAME - purpose
#   # Patch-mainline: STATE
#   # Depends-on: TOPICS (or none)
# The backport series (patches/backport-6.12/) has patches only; its
# topics are the mainline manifests.

# Manifest keys: name, purpose, patch-mainline and depends-on are
# required, the others optional; credit and bench may repeat.
MANIFEST_KEYS='name purpose patch-mainline change-id depends-on credit to cc test test-full bench headline link'
MANIFEST_REQUIRED='name purpose patch-mainline depends-on'

# require_unix_lines FILE: die if FILE has DOS (CRLF) line endings, which
# would make every name in it end with a carriage return.
require_unix_lines() {
	! grep -q $'\r' "$1" ||
		die "$1 has DOS (CRLF) line endings; convert it with: sed -i 's/\\r\$//' $1"
}

# series_patches [FILE]: the patches a series file lists, in order
# (comments and blank lines dropped, quilt options after the name dropped).
series_patches() {
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e '/^$/d' "${1:-$SERIES}" |
		awk '{ print $1 }'
}

# series_topics [FILE]: the topics of a series file's banners, in order.
series_topics() {
	sed -n 's/^#[[:space:]]*posting:[[:space:]]*\([^[:space:]]*\).*/\1/p' "${1:-$SERIES}"
}

# series_banners [FILE]: each banner as "NAME<TAB>PURPOSE<TAB>STATE<TAB>DEPS".
series_banners() {
	awk '
	function flush() { if (name != "") print name "\t" purpose "\t" state "\t" deps; name = "" }
	/^#[[:space:]]*posting:/ {
		flush()
		sub(/^#[[:space:]]*posting:[[:space:]]*/, "")
		name = $1; purpose = $0
		if (!sub(/^[^[:space:]]+[[:space:]]+-[[:space:]]+/, "", purpose)) purpose = ""
		state = ""; deps = ""; next
	}
	/^#[[:space:]]*Patch-mainline:/ && name != "" {
		sub(/^#[[:space:]]*Patch-mainline:[[:space:]]*/, ""); state = $0
	}
	/^#[[:space:]]*Depends-on:/ && name != "" {
		sub(/^#[[:space:]]*Depends-on:[[:space:]]*/, ""); deps = $0
	}
	END { flush() }
	' "${1:-$SERIES}"
}

# series_placement [FILE]: each patch with the topic of the banner it is
# listed under ('-' before the first banner): "TOPIC<TAB>PATCH".
series_placement() {
	awk '
	/^#[[:space:]]*posting:/ { sub(/^#[[:space:]]*posting:[[:space:]]*/, ""); topic = $1; next }
	{ sub(/#.*/, "") }
	NF { print (topic == "" ? "-" : topic) "\t" $1 }
	' "${1:-$SERIES}"
}

# check_series_files SERIES DIR: die if SERIES has CRLF line endings,
# names a patch that DIR does not have, or names one twice.
check_series_files() {
	local series=$1 pdir=$2 p
	[ -f "$series" ] || die "series file $series does not exist"
	[ -d "$pdir" ] || die "patch directory $pdir does not exist"
	require_unix_lines "$series"
	while read -r p; do
		[ -f "$pdir/$p" ] || die "$series names $p, but $pdir/$p does not exist"
	done < <(series_patches "$series")
	p=$(series_patches "$series" | sort | uniq -d | head -1)
	[ -z "$p" ] || die "$series names $p more than once"
}

# all_topics: every topic, in the order of the mainline series' banners.
all_topics() {
	series_topics "$MAIN_SERIES"
}

# manifest_topics: the topics that have a manifest, whether or not a
# series lists them yet.
manifest_topics() {
	local f
	for f in "$TOPICS"/*/topic; do
		[ ! -f "$f" ] || basename "$(dirname "$f")"
	done
}

# manifest_all TOPIC KEY: every value of KEY in TOPIC's manifest, one a
# line.  manifest_get TOPIC KEY: the first.
manifest_all() {
	local f=$TOPICS/$1/topic
	[ -f "$f" ] || die "topic $1 has no manifest $f (scripts/new-topic makes one)"
	awk -v k="$2" '
	/^[[:space:]]*(#|$)/ { next }
	{ key = $0; sub(/:.*/, "", key); gsub(/[[:space:]]/, "", key) }
	key == k { sub(/^[^:]*:[[:space:]]*/, ""); sub(/[[:space:]]+$/, ""); print }
	' "$f"
}

manifest_get() {
	local v
	v=$(manifest_all "$1" "$2")
	[ -z "$v" ] || printf '%s\n' "${v%%$'\n'*}"
}

# topic_banner TOPIC: TOPIC's banner in a series file, from its manifest.
topic_banner() {
	local rule
	rule=$(printf '%075d' 0 | tr 0 '#')
	printf '%s\n# posting: %s - %s\n# Patch-mainline: %s\n# Depends-on: %s\n%s\n' "$rule" "$1" \
		"$(manifest_get "$1" purpose)" "$(manifest_get "$1" patch-mainline)" \
		"$(manifest_get "$1" depends-on)" "$rule"
}

# topic_deps TOPIC: the topics TOPIC's manifest says it depends on.
topic_deps() {
	manifest_get "$1" depends-on |
		awk '{ gsub(/,/, " "); for (i = 1; i <= NF; i++) if ($i != "none") print $i }'
}

# topic_with_deps TOPIC: TOPIC and the topics it depends on, directly or
# not, in the order of $SERIES.
topic_with_deps() {
	local want=" $1 " t d deps changed=1
	local -a order
	mapfile -t order < <(series_topics "$SERIES")
	case " ${order[*]} " in
	*" $1 "*) ;;
	*) die "no topic '$1' in $SERIES (topics: ${order[*]})" ;;
	esac
	while [ $changed -eq 1 ]; do
		changed=0
		for t in $want; do
			deps=$(topic_deps "$t")
			for d in $deps; do
				case $want in *" $d "*) ;; *) want="$want$d "; changed=1 ;; esac
			done
		done
	done
	for t in "${order[@]}"; do
		case $want in *" $t "*) echo "$t" ;; esac
	done
}

# topic_series TOPIC FILE: write a series file with only TOPIC's patches
# and those of the topics it depends on.
topic_series() {
	local wanted p
	wanted=" $(topic_with_deps "$1" | tr '\n' ' ') "
	series_patches "$SERIES" | while read -r p; do
		case $wanted in *" ${p%%/*} "*) echo "$p" ;; esac
	done > "$2"
}

# missing_deps TOPIC LOG: the topics outside TOPIC and the topics it
# depends on whose patches define an identifier that an error line of
# LOG names (a compiler's, the linker's or modpost's), or change a file
# that LOG says failed to patch: the dependencies TOPIC's manifest
# probably misses.  Where no patch defines it (a macro, a function, a
# struct or a member, at the start of an added line), the topics that
# add the identifier at all, unless TOPIC's own patches do.
missing_deps() {
	local t=$1 log=$2 d w p have found
	local -a words files own strong=() weak=()
	# a line that defines @W@: a macro, a struct, a function, a member
	local defre='^\+(#define[[:space:]]+@W@\b|(struct|union|enum)[[:space:]]+@W@[[:space:]]*\{|[A-Za-z_].*[[:space:]*]@W@[[:space:]]*\(|[[:space:]]+[A-Za-z_][^;=(]*[[:space:]*]@W@(\[[^]]*\])?;)'
	have=" $(topic_with_deps "$t" | tr '\n' ' ') "
	mapfile -t own < <(series_patches "$SERIES" | while read -r p; do
		case $have in *" ${p%%/*} "*) echo "$PATCHES/$p" ;; esac
	done)
	mapfile -t words < <({ grep -E ': (fatal )?error: |undefined reference to' "$log" |
			grep -oE "[‘'\`][A-Za-z_][A-Za-z0-9_]*[’']" | tr -d "‘’'\`"
		sed -n 's/.*modpost: "\([A-Za-z_][A-Za-z0-9_]*\)" \[.*\] undefined!.*/\1/p' "$log"
	} | sort -u | head -20)
	mapfile -t files < <(sed -n -e 's/^\([^ :]*\): Hunk #[0-9]* FAILED.*/\1/p' \
		-e 's/.*does not apply with --fuzz=0 (\([^:]*\):.*/\1/p' "$log" | sort -u)
	for d in $(series_topics "$SERIES"); do
		case $have in *" $d "*) continue ;; esac
		found=''
		for p in $(series_patches "$SERIES" | grep "^$d/"); do
			for w in "${words[@]}"; do
				if grep -qE "${defre//@W@/$w}" "$PATCHES/$p"; then
					found=strong
				elif [ -z "$found" ] && grep -qE "^\+.*\b$w\b" "$PATCHES/$p" &&
					! { [ ${#own[@]} -gt 0 ] && grep -qE "^\+.*\b$w\b" "${own[@]}"; }; then
					found=weak
				fi
			done
			for w in "${files[@]}"; do
				grep -qxF "+++ b/$w" "$PATCHES/$p" && found=strong
			done
		done
		case $found in
		strong) strong+=("$d") ;;
		weak) weak+=("$d") ;;
		esac
	done
	if [ ${#strong[@]} -gt 0 ]; then
		printf '%s\n' "${strong[@]}"
	elif [ ${#weak[@]} -gt 0 ]; then
		printf '%s\n' "${weak[@]}"
	fi
}
