# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The one option parser of the harness's scripts.

# parse_opts TABLE "$@": set the script's variables from its command line,
# by TABLE, one entry a line:
#   --NAME  flag   VAR         --NAME sets VAR=1
#   --NAME  value  VAR  WHAT   --NAME X sets VAR=X; WHAT names X in errors
#   --NAME  list   VAR  WHAT   --NAME X appends X to the array VAR
#   args    VAR                other arguments are appended to the array VAR
#   base                       the base options (BASE_OPTS in base.sh)
# -h and --help run the script's usage function and exit.  Anything else,
# or a value option without its value, is an error.  Checking the values
# is the script's job, after this.
parse_opts() {
	local o_table=$1 o_name o_kind o_var o_what o_args='' o_is=''
	local -A o_kinds=() o_vars=() o_whats=()
	shift
	if grep -qxE '[[:space:]]*base[[:space:]]*' <<<"$o_table"; then
		o_table+=$'\n'$BASE_OPTS
	fi
	while read -r o_name o_kind o_var o_what; do
		case $o_name in
		''|base) ;;
		args) o_args=$o_kind ;;
		*) o_kinds[$o_name]=$o_kind o_vars[$o_name]=$o_var o_whats[$o_name]=$o_what ;;
		esac
	done <<<"$o_table"
	while [ $# -gt 0 ]; do
		o_name=$1
		case $o_name in
		-h|--help) usage; exit 0 ;;
		esac
		o_is=''
		[ -z "$o_name" ] || o_is=${o_kinds[$o_name]:-}
		case $o_is in
		flag)
			printf -v "${o_vars[$o_name]}" 1 ;;
		value|list)
			[ $# -ge 2 ] || die "$o_name needs ${o_whats[$o_name]}"
			opts_store "$o_is" "${o_vars[$o_name]}" "$2"
			shift ;;
		*)
			case $o_name in
			-*) die "unknown option '$o_name' (see --help)" ;;
			esac
			[ -n "$o_args" ] || die "unexpected argument '$o_name' (see --help)"
			opts_store list "$o_args" "$o_name" ;;
		esac
		shift
	done
}

# opts_store value|list VAR X: VAR=X, or append X to the array VAR.
opts_store() {
	if [ "$1" = value ]; then
		printf -v "$2" '%s' "$3"
	else
		local -n o_list=$2
		o_list+=("$3")
	fi
}
