# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The git tree that scripts/send and scripts/range-diff build topic
# branches in.

# send_git_tree BASE: $BUILD/send/linux, a git tree of BASE ('base' tag),
# made by 'scripts/apply --git' with no patches and reused while its base
# is BASE.  Prints its path.
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
	# also in a tree made before apply --git did this
	git_quiet_gc "$g"
	[ -z "$(git -C "$g" status --porcelain --untracked-files=no)" ] || git -C "$g" reset -q --hard
	git -C "$g" checkout -q -f --detach base
	echo "$g"
}
