#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of the series' scripts/kallsyms (--save-tokens, --load-tokens).

Usage: kallsyms-test.py KALLSYMS WORKDIR MAP[:OPTIONS]...

Runs the kallsyms binary KALLSYMS on each symbol list MAP (System.map or
.tmp_vmlinux*.syms), with OPTIONS (comma-separated kallsyms options, e.g.
--all-symbols,--absolute-percpu), and checks, with a decoder of its own
written from the emitted tables:

  - every name decodes to the input (learned table, and replayed table);
  - a table replayed on the symbols it was learned from gives the same
    output, byte for byte;
  - shuffled input gives kallsyms_names of the same size;
  - N new symbols under a reused table grow kallsyms_names by exactly
    their own encodings, every other name keeping its bytes;
  - a symbol with a byte (or a type) the table does not cover makes
    kallsyms say so and learn anew, and still decodes right;
  - --predict (on every map but the first, if there are others): the
    layout it writes, assembled, is the layout of the
    tables replayed on the same map, and of a map with 50 more symbols;
    one with more symbols than the room says so, and no table is smaller
    than its room;
  - malformed token files are rejected with a message and exit status 1;
  - with $KALLSYMS_ASAN, a kallsyms built with AddressSanitizer: a name
    of 511 bytes, learned and replayed, and a token of 512 bytes.

Prints "PASS: ..." / "FAIL: ..." lines, appends "PASS ..." / "FAIL ..." to
$RESULTS_FILE if set, and exits 1 on any failure.
"""
import os
import random
import re
import shutil
import subprocess
import sys

failures = 0


# what scripts/kallsyms says when the tables outgrow the reservation
PAST_ROOM = "; the room grows to the larger of room and use"

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
    (type, name) list and the raw encoding of each name."""
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
    syms, encodings, off = [], [], 0
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
        encodings.append(names[off:off + head + n])
        off += head + n
    if off != len(names):
        raise ValueError("%d bytes after the last name" % (len(names) - off))
    return syms, encodings, len(names)


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
    tok = os.path.join(work, tag + ".tokens")
    rc, learned, err = run(kallsyms, opts, mapfile, ["--save-tokens=" + tok])
    if rc:
        result(False, "%s: learn failed: %s" % (tag, err.strip()))
        return
    want = expected(mapfile, opts)
    syms, enc_a, size_a = decode(learned)
    result(sorted(syms) == want, "%s: %d names decode to the input (learned table)" % (tag, len(syms)))

    rc, replayed, err = run(kallsyms, opts, mapfile, ["--load-tokens=" + tok])
    result(rc == 0 and replayed == learned and not err,
           "%s: the replayed table gives the learned output byte for byte" % tag)
    result(rc == 0 and sorted(decode(replayed)[0]) == want,
           "%s: names decode to the input (replayed table)" % tag)

    lines = open(mapfile).read().splitlines(True)
    random.Random(1).shuffle(lines)
    shuffled = os.path.join(work, tag + ".shuffled")
    open(shuffled, "w").writelines(lines)
    rc, out, _ = run(kallsyms, opts, shuffled)
    result(rc == 0 and names_size(out) == size_a,
           "%s: shuffled input, same kallsyms_names size (%d bytes)" % (tag, size_a))

    # N new symbols, made of bytes the table covers, under the reused table.
    text_addr = [int(l.split()[0], 16) for l in lines if l.split()[1] in "tT"]
    addr = sorted(text_addr)[len(text_addr) // 2] if text_addr else 0
    new = ["%016x t kallsyms_test_new_%d_veneer\n" % (addr, i) for i in range(50)]
    grown = os.path.join(work, tag + ".grown")
    open(grown, "w").writelines(open(mapfile).read().splitlines(True) + new)
    rc, out, err = run(kallsyms, opts, grown, ["--load-tokens=" + tok])
    syms_b, enc_b, size_b = decode(out)
    old = dict(zip(syms, enc_a)) if len(set(syms)) == len(syms) else None
    by_name_b = {}
    for s, e in zip(syms_b, enc_b):
        by_name_b.setdefault(s, []).append(e)
    added = sum(len(by_name_b[("t", n.split()[2])][0]) for n in new)
    kept = old is None or all(by_name_b.get(s, [None])[0] == e for s, e in old.items())
    result(rc == 0 and not err and size_b - size_a == added and kept and
           sorted(syms_b) == expected(grown, opts),
           "%s: 50 new symbols grow kallsyms_names by their own %d bytes, nothing else moves"
           % (tag, added))

    # A byte, and a type, the table does not cover.
    covered = set()
    for line in open(tok):
        if line.startswith("char "):
            covered.add(int(line.split()[1], 16))
    for what, sym in (("byte", "%016x t kallsyms_test_%s\n" % (addr, next(
                          chr(c) for c in b"~@%^&+=" if c not in covered))),
                      ("type", "%016x %s kallsyms_test_type\n" % (addr, next(
                          chr(c) for c in b"GgSsNpPcC?-" if c not in covered)))):
        odd = os.path.join(work, tag + ".uncovered-" + what)
        open(odd, "w").writelines(open(mapfile).read().splitlines(True) + [sym])
        rc, out, err = run(kallsyms, opts, odd, ["--load-tokens=" + tok])
        ok = rc == 0 and "does not cover" in err and "learning a new table" in err
        ok = ok and sorted(decode(out)[0]) == expected(odd, opts)
        result(ok, "%s: an uncovered %s falls back to learning, said on stderr, decodes right"
               % (tag, what))


def layout(work, asm, tag):
    """The assembled symbols' offsets and the size of .rodata, or None."""
    obj = os.path.join(work, tag + ".o")
    # before 6.15 the output includes <asm/bitsperlong.h> for PTR's size
    asm = asm.replace("#include <asm/bitsperlong.h>\n", "")
    p = subprocess.run(["gcc", "-c", "-x", "assembler-with-cpp", "-DBITS_PER_LONG=64", "-",
                        "-o", obj],
                       input=asm.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode:
        return None
    nm = subprocess.run(["nm", "-n", "--defined-only", obj], stdout=subprocess.PIPE).stdout
    size = subprocess.run(["size", "-A", obj], stdout=subprocess.PIPE).stdout
    return nm.decode(), [l.split()[1] for l in size.decode().splitlines() if l.startswith(".rodata")]


def no_table_smaller(planned, lay):
    """Whether every table of layout @lay is at least as large as in
    @planned, by the offsets of the labels that follow each other."""
    def sizes(l):
        rows = [r.split() for r in l[0].splitlines()]
        offs = [(int(r[0], 16), r[2]) for r in rows if len(r) == 3]
        end = int(l[1][0]) if l[1] else 0
        return {name: (offs[i + 1][0] if i + 1 < len(offs) else end) - off
                for i, (off, name) in enumerate(offs)}
    if planned is None or lay is None:
        return False
    want, got = sizes(planned), sizes(lay)
    return set(want) == set(got) and all(got[n] >= want[n] for n in want)


def percpu_at_text(work, mapfile, opts):
    """MAP itself, or with --absolute-percpu a copy whose per-CPU symbols
    sit at _text, so that kallsyms keeps their type and can still number
    them relative to the text."""
    if "--absolute-percpu" not in opts:
        return mapfile
    rows = [l.split() for l in open(mapfile)]
    addr = {r[2]: int(r[0], 16) for r in rows if len(r) == 3}
    lo, hi, text = addr["__per_cpu_start"], addr["__per_cpu_end"], addr["_text"]
    moved = os.path.join(work, os.path.basename(mapfile) + ".percpu-at-text")
    with open(moved, "w") as f:
        for r in rows:
            a = int(r[0], 16)
            f.write("%016x %s\n" % (text if lo <= a <= hi else a, " ".join(r[1:])))
    return moved


def test_predict(kallsyms, work, mapfile, opts):
    """--predict on MAP, as if it were the first link's prediction, then
    the later passes: the same map, 50 more symbols, and more than the
    margin of 256 symbols."""
    tag = os.path.basename(mapfile)
    tok = os.path.join(work, tag + ".predict.tokens")
    rc, pred, err = run(kallsyms, opts, mapfile, ["--predict=256,4096", "--save-tokens=" + tok])
    # the names as the predicted table encodes them, every symbol kept;
    # a prediction has no addresses to find per-CPU symbols by, so 6.12's
    # --absolute-percpu does not change their type there
    rc2, full, _ = run(kallsyms, [o for o in opts if o != "--absolute-percpu"] +
                       ["--all-symbols"], percpu_at_text(work, mapfile, opts),
                       ["--load-tokens=" + tok])
    reserve = [l.split()[1:] for l in open(tok) if l.startswith("reserve ")] if rc == 0 else []
    syms, _, size = decode(full)
    want = [str(len(syms) + 256), str(size + 4096)]
    result(rc == 0 and rc2 == 0 and not err and reserve == [want],
           "%s: --predict=256,4096 reserves room for %s symbols, %s bytes of names: %s"
           % (tag, want[0], want[1], reserve))
    empty = os.path.join(work, "empty.map")
    open(empty, "w").close()
    for what, args, mapf, msg in (
            ("an empty map", ["--predict=256,4096", "--save-tokens=" + tok + ".x"], empty,
             "no symbol in the map"),
            ("room past 2^24 symbols", ["--predict=16777215,4096", "--save-tokens=" + tok + ".x"],
             mapfile, "more than kallsyms can number"),
            ("room past 9 digits of name bytes", ["--predict=256,999999999",
                                                 "--save-tokens=" + tok + ".x"], mapfile, "too many"),
            ("no --save-tokens", ["--predict=256,4096"], mapfile, "goes with --save-tokens"),
            ("a sign in the margin", ["--predict=+256,4096", "--save-tokens=" + tok + ".x"],
             mapfile, "expected <symbols>,<bytes>")):
        rc, out, err = run(kallsyms, opts, mapf, args)
        result(rc == 1 and not out and msg in err,
               "%s: --predict with %s fails: %s" % (tag, what, err.strip()[:120]))
    planned = layout(work, pred, tag + ".predict")
    lines = open(mapfile).read().splitlines(True)
    text_addr = sorted(int(l.split()[0], 16) for l in lines if l.split()[1] in "tT")
    addr = text_addr[len(text_addr) // 2] if text_addr else 0
    # past the room: as many symbols as the reservation has beyond the
    # ones kept (a map without --all-symbols keeps fewer), and 44 more
    over = len(syms) + 256 - len(expected(mapfile, opts)) + 44
    for extra in (0, 50, over):
        grown = os.path.join(work, "%s.plus%d" % (tag, extra))
        open(grown, "w").writelines(lines + ["%016x t kallsyms_test_predict_%d\n" % (addr, i)
                                             for i in range(extra)])
        rc, out, err = run(kallsyms, opts, grown, ["--load-tokens=" + tok])
        decodes = rc == 0 and sorted(decode(out)[0]) == expected(grown, opts)
        lay = layout(work, out, "%s.plus%d" % (tag, extra))
        same = planned is not None and lay == planned
        if extra <= 256:
            result(decodes and same and not err,
                   "%s: %d symbols more than predicted: replayed tables decode right and "
                   "keep the predicted layout" % (tag, extra))
        else:
            result(decodes and not same and PAST_ROOM in err and no_table_smaller(planned, lay),
                   "%s: %d symbols more than predicted: no table smaller than its room, "
                   "decodes right, said: %s" % (tag, extra, err.strip()[:160]))
        if extra == 0:
            kept_bytes = decode(out)[2] if decodes else 0
    # two passes that save the table again, as link-vmlinux.sh runs them:
    # the first past the room, the second with 40 symbols fewer, still past
    # the first room but inside the grown one; it says nothing and keeps
    # the first one's layout, and nothing after the tables moves back
    grow = tok + ".grow"
    shutil.copyfile(tok, grow)
    said, lays = [], []
    for extra in (over + 40, over):
        grown = os.path.join(work, "%s.plus%d" % (tag, extra))
        open(grown, "w").writelines(lines + ["%016x t kallsyms_test_predict_%d\n" % (addr, i)
                                             for i in range(extra)])
        rc, out, err = run(kallsyms, opts, grown, ["--load-tokens=" + grow, "--save-tokens=" + grow])
        said.append(PAST_ROOM in err)
        lays.append(layout(work, out, "%s.grow%d" % (tag, extra))
                    if rc == 0 and sorted(decode(out)[0]) == expected(grown, opts) else None)
    result(said == [True, False] and lays[0] is not None and lays[1] == lays[0],
           "%s: past the room, the table saved again with the room grown: a later pass "
           "with 40 symbols fewer keeps the layout, decodes right" % tag)
    # type letters the linker may give: predicted from names with no G, V
    # or ?, the table still covers symbols of those types
    plain = os.path.join(work, "%s.no-GV" % tag)
    open(plain, "w").writelines(l for l in lines if not any(c in l for c in "GV?"))
    rc, _, _ = run(kallsyms, opts, plain, ["--predict=256,4096", "--save-tokens=" + tok + ".GV"])
    typed = os.path.join(work, "%s.typed" % tag)
    open(typed, "w").writelines([l for l in lines if not any(c in l for c in "GV?")] +
                                ["%016x %s kallsyms_test_predict_type_%d\n" % (addr, t, i)
                                 for i, t in enumerate("GV?")])
    rc2, out, err = run(kallsyms, opts, typed, ["--load-tokens=" + tok + ".GV"])
    result(rc == 0 and rc2 == 0 and "does not cover" not in err and
           sorted(decode(out)[0]) == expected(typed, opts),
           "%s: predicted from names with no G, V or ?, the table covers symbols of "
           "those types%s" % (tag, "" if not err else ": " + err.strip()[:100]))
    # room for the symbols, not for their names: random names of 500 bytes,
    # four times the bytes the room has left (the tokens halve them)
    rng = random.Random(2)
    long_names, need = [], 4 * (int(want[1]) - kept_bytes + 1024)
    while need > 0:
        long_names.append("kallsyms_test_" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz")
                                                     for _ in range(486)))
        need -= 500
    grown = os.path.join(work, "%s.long-names" % tag)
    open(grown, "w").writelines(lines + ["%016x t %s\n" % (addr, n) for n in long_names])
    rc, out, err = run(kallsyms, opts, grown, ["--load-tokens=" + tok])
    decodes = rc == 0 and sorted(decode(out)[0]) == expected(grown, opts)
    lay = layout(work, out, "%s.long-names" % tag)
    result(decodes and PAST_ROOM in err and lay != planned and no_table_smaller(planned, lay),
           "%s: %d names of 500 bytes, past the room for names only: no table smaller "
           "than its room, decodes right" % (tag, len(long_names)))


def doubling_tokens(n):
    """Tokens 80, 81, ... expanding to 2, 4, ... 2**n bytes of 'A' (41)."""
    return "".join("token %02x %02x %02x\n" % (0x80 + i, 0x7f + i if i else 0x41,
                                             0x7f + i if i else 0x41) for i in range(n))


BAD_TABLES = {
    "empty file": "",
    "not a token table": "hello\n",
    "another version": "kallsyms-tokens 2\nend 0\n",
    "no end line": "kallsyms-tokens 1\nchar 41\n",
    "wrong count": "kallsyms-tokens 1\nchar 41\nend 2\n",
    "code defined twice": "kallsyms-tokens 1\nchar 41\nchar 41\nend 2\n",
    "token before its parts": "kallsyms-tokens 1\nchar 41\ntoken 80 41 42\nchar 42\nend 3\n",
    "code out of range": "kallsyms-tokens 1\nchar 141\nend 1\n",
    "not hex": "kallsyms-tokens 1\nchar zz\nend 1\n",
    "unknown entry": "kallsyms-tokens 1\nfoo 41\nend 1\n",
    "text after the end": "kallsyms-tokens 1\nchar 41\nend 1\nchar 42\n",
    "negative char code": "kallsyms-tokens 1\nchar -1\nend 1\n",
    "negative token code": "kallsyms-tokens 1\nchar 41\nchar 42\ntoken -1 41 42\nend 3\n",
    "negative part": "kallsyms-tokens 1\nchar 2e\nchar 0f\ntoken ff 2e -f\nend 3\n",
    "one hex digit": "kallsyms-tokens 1\nchar 4\nend 1\n",
    "three hex digits": "kallsyms-tokens 1\nchar 041\nend 1\n",
    "a sign on a code": "kallsyms-tokens 1\nchar +4\nend 1\n",
    "no space after the magic": "kallsyms-tokens1\nend 0\n",
    "a sign on the version": "kallsyms-tokens +1\nend 0\n",
    "a sign on the count": "kallsyms-tokens 1\nchar 41\nend +1\n",
    "text after a NUL": "kallsyms-tokens 1\nchar 41\0char 42\nend 1\n",
    "CRLF lines": "kallsyms-tokens 1\r\nchar 41\r\nend 1\r\n",
    "a tab": "kallsyms-tokens 1\nchar\t41\nend 1\n",
    "a trailing space": "kallsyms-tokens 1\nchar 41 \nend 1\n",
    "no newline at the end": "kallsyms-tokens 1\nchar 41\nend 1",
    "an 18-digit count": "kallsyms-tokens 1\nchar 41\nend 000000000000000001\n",
    "a token longer than a name": "kallsyms-tokens 1\nchar 41\n" + doubling_tokens(10) + "end b\n",
    "a reservation of one number": "kallsyms-tokens 1\nchar 41\nreserve 5\nend 1\n",
    "a negative reservation": "kallsyms-tokens 1\nchar 41\nreserve -5 10\nend 1\n",
    "a reservation in hex": "kallsyms-tokens 1\nchar 41\nreserve 1a 10\nend 1\n",
    "a 10-digit reservation": "kallsyms-tokens 1\nchar 41\nreserve 5 1234567890\nend 1\n",
    "room for 2^24 symbols": "kallsyms-tokens 1\nchar 41\nreserve 16777216 10\nend 1\n",
    "a second reserve line": "kallsyms-tokens 1\nchar 41\nreserve 5 10\nreserve 5 10\nend 1\n",
    "a NUL as a character": "kallsyms-tokens 1\nchar 00\nend 1\n",
    "a double quote as a character": "kallsyms-tokens 1\nchar 22\nend 1\n",
    "a backslash as a character": "kallsyms-tokens 1\nchar 5c\nend 1\n",
    # codes 01..ff tokens of 384 bytes: token offsets past 0xffff
    "a token table past 64 KiB": "kallsyms-tokens 1\nchar 41\n" + doubling_tokens(8) + "".join(
        "token %02x 86 87\n" % c for c in list(range(1, 0x41)) + list(range(0x42, 0x80))
        + list(range(0x88, 0x100))) + "end ff\n",
}


def test_bad_tables(kallsyms, work, mapfile, opts):
    for what, text in BAD_TABLES.items():
        path = os.path.join(work, "bad-" + what.replace(" ", "-"))
        open(path, "w").write(text)
        rc, out, err = run(kallsyms, opts, mapfile, ["--load-tokens=" + path])
        lines = err.strip().splitlines()
        result(rc == 1 and len(lines) == 1 and lines[0].startswith("kallsyms: " + path + ":")
               and not out,
               "bad token file rejected (%s): %s" % (what, lines[-1] if lines else "no message"))
    rc, out, err = run(kallsyms, opts, mapfile, ["--load-tokens=" + os.path.join(work, "missing")])
    result(rc == 1 and "missing" in err, "missing token file rejected")


def test_token_index(kallsyms, work, opts):
    """kallsyms_token_index holds 16-bit offsets: a symbol list whose
    learned token table passes 64 KiB (kallsyms-fixes/0002) must stop
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
    result(ok, "a learned table past the 16-bit kallsyms_token_index stops kallsyms: %s"
           % (err.strip().splitlines() or ["exit %d, no message" % rc])[-1])


def test_asan_limits(kallsyms, work, mapfile, opts):
    """The limits of the emitted tables, with KALLSYMS built with
    AddressSanitizer, so that a write past a buffer fails the run: a name
    of KSYM_NAME_LEN - 1 bytes, learned and replayed, a learned table
    past the 16-bit kallsyms_token_index, and a token as long as a whole
    symbol, type included."""
    lines = open(mapfile).read().splitlines(True)
    text_addr = [int(l.split()[0], 16) for l in lines if l.split()[1] in "tT"]
    name = ("kallsyms_test_long_" + "x" * 511)[:511]
    longmap = os.path.join(work, "long-name.map")
    open(longmap, "w").writelines(lines + ["%016x t %s\n" % (min(text_addr), name)])
    tok = os.path.join(work, "long-name.tokens")
    for how, extra in (("learned", ["--save-tokens=" + tok]), ("replayed", ["--load-tokens=" + tok])):
        rc, out, err = run(kallsyms, opts, longmap, extra)
        ok = rc == 0 and not err and ("t", name) in decode(out)[0]
        result(ok, "a 511-byte name (%s table) decodes right, no overflow%s"
               % (how, "" if ok else ": exit %d, %s" % (rc, err.strip()[:200])))
    test_token_index(kallsyms, work, opts)
    whole = os.path.join(work, "token-of-a-whole-symbol.tokens")
    open(whole, "w").write("kallsyms-tokens 1\nchar 41\n" + doubling_tokens(9) + "end a\n")
    rc, out, err = run(kallsyms, opts, mapfile, ["--load-tokens=" + whole])
    ok = rc == 0 and "does not cover" in err and sorted(decode(out)[0]) == expected(mapfile, opts)
    result(ok, "a token of 512 bytes, a whole symbol's length, is read; the table is "
           "then too small for the map, and kallsyms learns one%s"
           % ("" if ok else ": exit %d, %s" % (rc, err.strip()[:200])))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    kallsyms, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    for n, arg in enumerate(sys.argv[3:]):
        mapfile, _, opts = arg.partition(":")
        opts = [o for o in opts.split(",") if o]
        try:
            test_map(kallsyms, work, mapfile, opts)
            # the first map, the distribution's, is slow to assemble: the
            # prediction is tested on the others, if there are any
            if n > 0 or len(sys.argv) == 4:
                test_predict(kallsyms, work, mapfile, opts)
        except (ValueError, KeyError, IndexError, StopIteration) as e:
            result(False, "%s: %s" % (os.path.basename(mapfile), e))
    first = sys.argv[3].partition(":")
    test_bad_tables(kallsyms, work, first[0], [o for o in first[2].split(",") if o])
    test_token_index(kallsyms, work, [o for o in first[2].split(",") if o])
    if os.environ.get("KALLSYMS_ASAN"):
        test_asan_limits(os.environ["KALLSYMS_ASAN"], work, first[0],
                        [o for o in first[2].split(",") if o])
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
