#!/usr/bin/env python3
"""wasmmap.py WASM DUMPDEP [PREFIX]: what a Go WebAssembly file holds.

WASM is built with its name section (no -ldflags=-s) and DUMPDEP is what
the linker printed with -ldflags=-dumpdep for the same build ("make
wasm-map" does both). It prints the code of the largest packages, from
the name and code sections. With PREFIX (a package path and a dot,
"encoding/json."), it also says what taking that package out would free:
the dependency graph is walked from its roots without PREFIX's symbols,
every function no longer reached (the package's and those only it
reaches) gets an empty body ('unreachable') in a copy of the file, and
both are compressed with gzip -9, without their name sections, as a
-s -w build has none. What would replace the package's work is not
counted. Python's standard library only.
"""
import collections
import gzip
import re
import sys


def leb(b, i):
    r = s = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, i


def uleb(v):
    out = bytearray()
    while True:
        x, v = v & 0x7F, v >> 7
        out.append(x | 0x80 if v else x)
        if not v:
            return bytes(out)


def sections(b):
    """Yields (id, start of contents, end) of each section."""
    i = 8
    while i < len(b):
        sid = b[i]
        n, j = leb(b, i + 1)
        yield sid, i, j, j + n
        i = j + n


def is_names(b, j):
    n, k = leb(b, j)
    return b[k:k + n] == b"name"


def parse(b):
    imports, bodies, names = 0, [], {}
    for sid, _, j, end in sections(b):
        if sid == 2:
            cnt, k = leb(b, j)
            for _ in range(cnt):
                for _ in range(2):
                    n, k = leb(b, k)
                    k += n
                kind = b[k]
                k += 1
                if kind == 0:
                    _, k = leb(b, k)
                    imports += 1
                elif kind == 1:
                    k += 1
                    flags, k = leb(b, k)
                    _, k = leb(b, k)
                    if flags & 1:
                        _, k = leb(b, k)
                elif kind == 2:
                    flags, k = leb(b, k)
                    _, k = leb(b, k)
                    if flags & 1:
                        _, k = leb(b, k)
                elif kind == 3:
                    k += 2
        elif sid == 10:
            cnt, k = leb(b, j)
            for _ in range(cnt):
                n, k = leb(b, k)
                bodies.append((k, n))
                k += n
        elif sid == 0 and is_names(b, j):
            n, k = leb(b, j)
            k += n
            while k < end:
                sub = b[k]
                n, k = leb(b, k + 1)
                if sub == 1:
                    cnt, m = leb(b, k)
                    for _ in range(cnt):
                        idx, m = leb(b, m)
                        ln, m = leb(b, m)
                        names[idx] = b[m:m + ln].decode()
                        m += ln
                k += n
    return imports, bodies, names


def package(name):
    start = 0
    for host in ("github.com", "golang.org", "gopkg.in"):
        if name.startswith(host):
            start = len(host)
    d = name.find(".", start)
    return name[:d] if d > 0 else name


def rebuild(b, blank):
    """The file without its name section, the functions in blank emptied."""
    out = bytearray(b[:8])
    for sid, i, j, end in sections(b):
        if sid == 0 and is_names(b, j):
            continue
        if sid == 10 and blank:
            cnt, k = leb(b, j)
            sec = bytearray(uleb(cnt))
            for f in range(cnt):
                n, k = leb(b, k)
                body = b[k:k + n]
                k += n
                if f in blank:
                    body = b"\x00\x00\x0b"  # no locals, unreachable, end
                sec += uleb(len(body)) + body
            out += bytes([10]) + uleb(len(sec)) + sec
            continue
        out += b[i:end]
    return bytes(out)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    b = open(sys.argv[1], "rb").read()
    imports, bodies, names = parse(b)
    if not names:
        sys.exit(f"{sys.argv[1]} has no name section: build it without -ldflags=-s")
    code = collections.Counter()
    for f, (_, n) in enumerate(bodies):
        code[package(names.get(f + imports, "?"))] += n
    total = sum(n for _, n in bodies)
    print(f"{sys.argv[1]}: {len(b)} B, {total} B of code in {len(bodies)} functions; the largest packages:")
    for p, n in code.most_common(25):
        print(f"  {n:9d}  {p}")
    if len(sys.argv) == 3:
        return
    prefix = sys.argv[3]
    edges = collections.defaultdict(list)
    for line in open(sys.argv[2]):
        if " -> " in line:
            a, c = line.rstrip("\n").split(" -> ", 1)
            edges[a.split(" <")[0]].append(c.split(" <")[0])

    def reach(skip):
        seen, stack = {"_"}, ["_"]
        while stack:
            for m in edges.get(stack.pop(), ()):
                if m not in seen and not skip(m):
                    seen.add(m)
                    stack.append(m)
        return seen

    gone = reach(lambda m: False) - reach(lambda m: m.startswith(prefix))
    mangled = {re.sub(r"[/()*]", "_", n) for n in gone}
    blank = {f for f in range(len(bodies)) if names.get(f + imports) in mangled}
    freed = collections.Counter()
    for f in blank:
        freed[package(names[f + imports])] += bodies[f][1]
    before = len(gzip.compress(rebuild(b, set()), 9))
    after = len(gzip.compress(rebuild(b, blank), 9))
    print(f"without {prefix}: {len(blank)} functions reached only through it, "
          f"{sum(freed.values())} B of code; gzip -9 {before} -> {after} B, {before - after} B freed")
    for p, n in freed.most_common(10):
        print(f"  {n:9d}  {p}")


if __name__ == "__main__":
    main()
