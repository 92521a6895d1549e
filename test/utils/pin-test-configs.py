#!/usr/bin/env python3
"""Writes the #tcgen.config that tcgen-configure chooses into a lit test's
input, so that the test checks the back end's mechanics on a fixed
configuration and no longer moves when the model's choices change.

    test/utils/pin-test-configs.py [--tcgen-opt BIN] [--dry-run] TEST.mlir...

A test is pinned when every RUN line runs the same
`tcgen-attach-target{...},func.func(tcgen-configure{OPTS}),` prefix, every
configured contraction is a linalg.matmul, linalg.batch_matmul or
linalg.generic written in the test that carries no config yet, and
tcgen-configure succeeds on every chunk. The configure step is then dropped from the RUN
lines and each op gets `{tcgen.config = #tcgen.config<...>}` (after a named
op's indexing_maps; a linalg.generic: `attrs = {tcgen.config = ...}` before
its body). Other tests
are left as they are and listed with the reason.
"""

import argparse
import os
import re
import subprocess
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIGURE = re.compile(r"func\.func\(tcgen-configure(\{[^}]*\})?\),")
PREFIX = re.compile(r"builtin\.module\((tcgen-attach-target\{[^}]*\}),")
# A contraction in tcgen-opt's output, with its config if it has one.
OUT_OP = re.compile(
    r"(linalg\.(?:matmul|batch_matmul|generic))\b(?!_)"
    r"(?:(?: indexing_maps = \[[^\]\n]*\])? \{tcgen\.config = "
    r"(#tcgen\.config<[^>]*>)\}"
    r"|[^\n]*? attrs =  \{tcgen\.config = (#tcgen\.config<[^>]*>)\})?")
SRC_OP = re.compile(r"\blinalg\.(?:matmul|batch_matmul|generic)\b(?!_)")
SEPARATOR = re.compile(r"^// -----\s*$", re.M)


def in_comment(text, at):
    """Whether position `at` of `text` is on a '//' comment line."""
    start = text.rfind("\n", 0, at) + 1
    return text[start:at].lstrip().startswith("//")


def matching_paren(text, at):
    """The index of the ')' (or ']') closing the '(' (or '[') at `at`."""
    close = {"(": ")", "[": "]"}[text[at]]
    depth = 0
    for i in range(at, len(text)):
        depth += {text[at]: 1, close: -1}.get(text[i], 0)
        if depth == 0:
            return i
    raise ValueError("unbalanced parentheses")


def chunks(text):
    return SEPARATOR.split(text)


def pin(path, tcgen_opt, dry_run):
    text = open(path).read()
    # Logical RUN lines ('\' continues one onto the next).
    runs, current = [], ""
    for l in text.splitlines():
        if not l.startswith("// RUN:"):
            continue
        current += l[len("// RUN:"):].rstrip()
        if current.endswith("\\"):
            current = current[:-1]
        else:
            runs.append(current)
            current = ""
    configures = set()
    targets = set()
    for line in runs:
        if "tcgen-configure" not in line:
            continue
        c = CONFIGURE.findall(line)
        p = PREFIX.search(line)
        if len(c) != 1 or not p or "%s" not in line or "%S" in line:
            return "a RUN line with another pipeline"
        configures.add(c[0])
        targets.add(p.group(1))
    if len(configures) != 1 or len(targets) != 1:
        return "RUN lines with different configure options"
    opts = configures.pop()
    target = targets.pop()
    pipeline = "builtin.module(%s,func.func(tcgen-configure%s))" % (target, opts)
    out = subprocess.run(
        [tcgen_opt, path, "-split-input-file", "--pass-pipeline=" + pipeline],
        capture_output=True, text=True)
    if out.returncode != 0:
        return "tcgen-configure fails on it"
    src_chunks = chunks(text)
    out_chunks = chunks(out.stdout)
    if len(src_chunks) != len(out_chunks):
        return "chunk counts differ"
    new_chunks = []
    for src, res in zip(src_chunks, out_chunks):
        if "tcgen.config" in "\n".join(
                l for l in src.splitlines() if not l.lstrip().startswith("//")):
            return "an op carries a config already"
        # The ops in order, with the config each got (None: not configured).
        got = [(m.group(1), m.group(2) or m.group(3))
               for m in OUT_OP.finditer(res)]
        if sum(1 for _, c in got if c) != res.count("#tcgen.config<"):
            return "a configured op of another kind"
        ops = [m for m in SRC_OP.finditer(src) if not in_comment(src, m.start())]
        if [m.group(0) for m in ops] != [name for name, _ in got]:
            return "ops differ"
        pieces, last = [], 0
        for (name, config), m in zip(got, ops):
            if not config:
                continue
            if name == "linalg.generic":
                # attrs = {...} after outs(...), before the body.
                at = matching_paren(src, src.index("outs(", m.end()) + 4) + 1
                insert = " attrs = {tcgen.config = %s}" % config
            else:
                # After the op's name, or its indexing_maps = [...].
                at = m.end()
                rest = src[at:]
                if rest.lstrip().startswith("indexing_maps"):
                    at = matching_paren(src, src.index("[", at)) + 1
                insert = " {tcgen.config = %s}" % config
            pieces.append(src[last:at])
            pieces.append(insert)
            last = at
        pieces.append(src[last:])
        new_chunks.append("".join(pieces))
    # Rejoin with the separators as they were.
    seps = SEPARATOR.findall(text)
    result = new_chunks[0]
    for sep, chunk in zip(seps, new_chunks[1:]):
        result += sep + chunk
    result = "\n".join(
        CONFIGURE.sub("", l) if l.startswith("// RUN:") else l
        for l in result.split("\n"))
    if not dry_run:
        open(path, "w").write(result)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tcgen-opt",
                        default=os.path.join(SRC, "build/bin/tcgen-opt"))
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("tests", nargs="+")
    args = parser.parse_args()
    for path in args.tests:
        try:
            why = pin(path, args.tcgen_opt, args.dry_run)
        except ValueError:
            why = "an op written in a form this script does not read"
        print(("pinned  " if why is None else "kept    ") + path +
              ("" if why is None else "  (" + why + ")"))


if __name__ == "__main__":
    sys.exit(main())
