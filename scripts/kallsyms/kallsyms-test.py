#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of the series' scripts/kallsyms (kallsyms-fixes, kallsyms-strings).

Usage: kallsyms-test.py KALLSYMS WORKDIR MAP[:OPTIONS]...

Runs the kallsyms binary KALLSYMS on each symbol list MAP (System.map or
.tmp_vmlinux*.syms), with OPTIONS (comma-separated kallsyms options, e.g.
--all-symbols,--absolute-percpu), and checks, with a decoder of its own
written from the emitted tables:

  - every name decodes to the input, by kallsyms' own rules of which
    symbols it keeps;
  - shuffled input gives kallsyms_names of the same size;
  - a symbol list whose token table passes 64 KiB stops kallsyms with a
    message and nothing written (kallsyms-fixes/0002);
  - with $KALLSYMS_ASAN, a kallsyms built with AddressSanitizer: a name
    of 511 bytes decodes right, with no overflow (kallsyms-fixes/0001).

Prints "PASS: ..." / "FAIL: ..." lines, appends "PASS ..." / "FAIL ..." to
$RESULTS_FILE if set, and exits 1 on any failure.
"""
import os
import random
import re
import subprocess
import sys


failures = 0


def result(ok, what):
    global failures
    status = "PASS" if ok else "FAIL"
    print("%s: kallsyms: %s" % (status, what), flush=True)
    if os.environ.get("RESULTS_FILE"):
        with open(os.environ["RESULTS_FILE"], "a") as f:
            f.write("%s kallsyms: %s\n" % (status, what))
    if not ok:
        failures += 1


def run(kallsyms, opts, mapfile, extra=()):
    p = subprocess.run([kallsyms] + list(opts) + list(extra) + [mapfile],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def labels(asm):
    """The lines of each label's section of the generated assembler."""
    out, cur = {}, None
    for line in asm.splitlines():
        m = re.match(r"^([a-z_]+):$", line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif cur:
            out[cur].append(line)
    return out


def ascii_bytes(body):
    """The bytes of an assembler string's body, where a backslash starts
    an octal escape of one to three digits (the only escape kallsyms
    writes)."""
    vals, i = [], 0
    while i < len(body):
        if body[i] != "\\":
            vals.append(ord(body[i]))
            i += 1
            continue
        m = re.match(r"[0-7]{1,3}", body[i + 1:])
        if not m:
            raise ValueError("unknown escape in %r" % body)
        vals.append(int(m.group(0), 8) & 0xff)
        i += 1 + len(m.group(0))
    return vals


def byte_values(lines):
    """The bytes of .byte lists and .ascii strings, in order."""
    vals = []
    for line in lines:
        line = line.split("/*")[0].strip()
        if line.startswith(".byte"):
            vals += [int(v, 16) for v in line[5:].split(",")]
        elif line.startswith(".ascii"):
            m = re.match(r'^\.ascii\s+"(.*)"$', line)
            if not m:
                raise ValueError("cannot read %r" % line)
            vals += ascii_bytes(m.group(1))
    return vals


def decode(asm):
    """Decode kallsyms_names with kallsyms_token_table/index.  Returns the
    (type, name) list and the size of kallsyms_names."""
    sec = labels(asm)
    num = int(sec["kallsyms_num_syms"][0].split()[1])
    names = bytes(byte_values(sec["kallsyms_names"]))
    tokens = []
    for line in sec["kallsyms_token_table"]:
        m = re.match(r'^\s*\.asciz\s+"(.*)"$', line)
        if m:
            tokens.append(m.group(1).encode())
    index = [int(l.split()[1]) for l in sec["kallsyms_token_index"] if ".short" in l]
    if len(tokens) != 256 or len(index) != 256:
        raise ValueError("token table has %d entries, index %d" % (len(tokens), len(index)))
    table = b"\0".join(tokens) + b"\0"
    expand = []
    for i in range(256):
        end = table.index(b"\0", index[i])
        expand.append(table[index[i]:end])
    syms, off = [], 0
    for _ in range(num):
        n = names[off]
        head = 1
        if n & 0x80:
            n = (n & 0x7f) | names[off + 1] << 7
            head = 2
        enc = names[off + head:off + head + n]
        if len(enc) != n or n == 0:
            raise ValueError("truncated name at offset %d" % off)
        full = b"".join(expand[b] for b in enc)
        if not full:
            raise ValueError("empty name at offset %d" % off)
        syms.append((chr(full[0]), full[1:].decode()))
        off += head + n
    if off != len(names):
        raise ValueError("%d bytes after the last name" % (len(names) - off))
    return syms, len(names)


IGNORED_ABS = {"__kernel_syscall_via_break", "__kernel_syscall_via_epc",
               "__kernel_sigtramp", "__gp"}


def expected(mapfile, opts):
    """The (type, name) multiset kallsyms should keep, by its rules."""
    rows = []
    for line in open(mapfile):
        a, t, n = line.rstrip("\n").split(" ", 2)
        rows.append((int(a, 16), t, n))
    ranges = {n: a for a, t, n in rows}
    text = [(ranges.get("_stext"), ranges.get("_etext")),
            (ranges.get("_sinittext"), ranges.get("_einittext"))]
    pcpu = (ranges.get("__per_cpu_start", -1), ranges.get("__per_cpu_end", 0))
    keep = []
    for a, t, n in rows:
        if t in "un" or (t.upper() == "A" and n not in IGNORED_ABS):
            continue
        if "--all-symbols" not in opts:
            if not (n.startswith("__start_") or n.startswith("__stop_")):
                if not any(s is not None and e is not None and s <= a <= e for s, e in text):
                    continue
                if (a == text[0][1] and n != "_etext") or (a == text[1][1] and n != "_einittext"):
                    continue
        if "--absolute-percpu" in opts and pcpu[0] <= a <= pcpu[1]:
            t = "A"
        keep.append((t, n))
    return sorted(keep)


def names_size(asm):
    return len(byte_values(labels(asm)["kallsyms_names"]))


def test_map(kallsyms, work, mapfile, opts):
    tag = os.path.basename(mapfile)
    rc, out, err = run(kallsyms, opts, mapfile)
    if rc:
        result(False, "%s: kallsyms failed: %s" % (tag, err.strip()))
        return
    syms, size = decode(out)
    result(sorted(syms) == expected(mapfile, opts),
           "%s: %d names decode to the input" % (tag, len(syms)))

    lines = open(mapfile).read().splitlines(True)
    random.Random(1).shuffle(lines)
    shuffled = os.path.join(work, tag + ".shuffled")
    open(shuffled, "w").writelines(lines)
    rc, out, _ = run(kallsyms, opts, shuffled)
    result(rc == 0 and names_size(out) == size,
           "%s: shuffled input, same kallsyms_names size (%d bytes)" % (tag, size))


def test_token_index(kallsyms, work, opts, how=""):
    """kallsyms_token_index holds 16-bit offsets: a symbol list whose
    token table passes 64 KiB (kallsyms-fixes/0002) must stop
    kallsyms, with a message and nothing written.  Five runs of 128
    bytes, in 125 names of 511: tokens past byte 65,535."""
    runs = [c * 128 for c in "abcde"]
    wide = os.path.join(work, "wide-tokens.map")
    open(wide, "w").writelines(
        ["ffffffff81000000 T _text\n", "ffffffff81000000 T _stext\n"]
        + ["ffffffff81%06x t %s\n" % (0x10 + 25 * i + 5 * j + k,
                                      (runs[i] + runs[j] + runs[k] + runs[(i + j + k) % 5])[:511])
           for i in range(5) for j in range(5) for k in range(5)]
        + ["ffffffff81100000 T _etext\n"])
    rc, out, err = run(kallsyms, opts, wide)
    ok = rc == 1 and not out and "past kallsyms_token_index" in err
    result(ok, "a token table past the 16-bit kallsyms_token_index stops kallsyms%s: %s"
           % (how, (err.strip().splitlines() or ["exit %d, no message" % rc])[-1]))


def test_asan_limits(kallsyms, work, mapfile, opts):
    """The limits of the emitted tables, with KALLSYMS built with
    AddressSanitizer, so that a write past a buffer fails the run: a name
    of KSYM_NAME_LEN - 1 bytes, and a table past the 16-bit
    kallsyms_token_index."""
    lines = open(mapfile).read().splitlines(True)
    text_addr = [int(l.split()[0], 16) for l in lines if l.split()[1] in "tT"]
    name = ("kallsyms_test_long_" + "x" * 511)[:511]
    longmap = os.path.join(work, "long-name.map")
    open(longmap, "w").writelines(lines + ["%016x t %s\n" % (min(text_addr), name)])
    rc, out, err = run(kallsyms, opts, longmap)
    ok = rc == 0 and not err and ("t", name) in decode(out)[0]
    result(ok, "a 511-byte name decodes right, no overflow (AddressSanitizer)%s"
           % ("" if ok else ": exit %d, %s" % (rc, err.strip()[:200])))
    test_token_index(kallsyms, work, opts, " (AddressSanitizer)")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    kallsyms, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    for arg in sys.argv[3:]:
        mapfile, _, opts = arg.partition(":")
        opts = [o for o in opts.split(",") if o]
        try:
            test_map(kallsyms, work, mapfile, opts)
        except (ValueError, KeyError, IndexError, StopIteration) as e:
            result(False, "%s: %s" % (os.path.basename(mapfile), e))
    first = sys.argv[3].partition(":")
    test_token_index(kallsyms, work, [o for o in first[2].split(",") if o])
    if os.environ.get("KALLSYMS_ASAN"):
        test_asan_limits(os.environ["KALLSYMS_ASAN"], work, first[0],
                         [o for o in first[2].split(",") if o])
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
