#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the JSON that kunit.py --json writes into one result line per test.

Usage: kunit-results.py ARCH FILE.json

Prints "PASS|FAIL|SKIP <arch>: <suite>.<case>" lines.  KUnit's "ERROR"
(a crashed or missing test) counts as a failure.  A file with no test at
all is an error: a kernel that ran nothing must not look green.
"""
import json
import sys


def walk(group, path, arch):
    name = group.get("name", "?")
    if name != "KUnit Test Group":
        path = path + [name]
    for case in group.get("test_cases", []):
        status = {"PASS": "PASS", "SKIP": "SKIP"}.get(case["status"], "FAIL")
        yield status, "%s: %s" % (arch, ".".join(path + [case["name"]]))
    for sub in group.get("sub_groups", []):
        yield from walk(sub, path, arch)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    arch, path = sys.argv[1], sys.argv[2]
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("kunit-results: cannot read %s: %s" % (path, e))
    n = 0
    for status, name in walk(data, [], arch):
        print(status, name)
        n += 1
    if n == 0:
        sys.exit("kunit-results: %s has no test results" % path)


if __name__ == "__main__":
    main()
