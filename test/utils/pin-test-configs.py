#!/usr/bin/env python3
"""Writes the #tcgen.config that tcgen-configure chooses into a lit test's
input, so that the test checks the back end's mechanics on a fixed
configuration and no longer moves when the model's choices change.

    test/utils/pin-test-configs.py [--tcgen-opt BIN] [--dry-run]
                                   [--config '#tcgen.config<...>'] TEST.mlir...

A RUN line that configures runs a
`tcgen-attach-target{...},func.func(tcgen-configure{OPTS}),` prefix on the
test's own input (%s) or on another file (%S/...); every configured
contraction is a linalg.matmul, linalg.batch_matmul or linalg.generic
written there that carries no config yet. The configure step is dropped
from the RUN lines and each op gets `{tcgen.config = #tcgen.config<...>}`
(after a named op's indexing_maps; a linalg.generic: `attrs = {tcgen.config
= ...}` before its body).

When every such RUN line configures the test's own input alike, the configs
are written into it. Otherwise (several option sets, or other files) each
configuration of an input becomes a part of the test that `split-file`
writes out (`//--- NAME.mlir`, named after the RUN line's FileCheck prefix),
and the RUN lines read their part: the first part of the test's own input
keeps its comments and FileCheck lines, the others are copies without
comments (but for `// -----` and expected-* diagnostics).

Where tcgen-configure refuses a chunk (a test of a refusal the back end
makes too), `--config` gives the config to write there instead. Tests that
cannot be pinned are left as they are and listed with the reason.
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
# The input tcgen-opt reads in a RUN line, and its input-splitting flag.
INPUT = re.compile(r"tcgen-opt (%s|%S/[A-Za-z0-9_./-]+\.mlir)")
SPLIT = re.compile(r"(?:^| )--?split-input-file\b")


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


class Refused(Exception):
    """A test (or one of its inputs) this script leaves as it is."""


def logical_runs(text):
    """The test's logical RUN lines ('\\' continues one onto the next), each
    with the indices of its physical lines."""
    runs, current, lines = [], "", []
    for i, l in enumerate(text.split("\n")):
        if not l.startswith("// RUN:"):
            continue
        current += l[len("// RUN:"):].rstrip()
        lines.append(i)
        if current.endswith("\\"):
            current = current[:-1]
        else:
            runs.append((current, lines))
            current, lines = "", []
    return runs


def written_config(src, config):
    """What tcgen-configure's output would be for the ops of `src` if it
    gave each contraction `config`: (op name, config or None) per op. A
    linalg.generic is a contraction when it has a reduction iterator."""
    got = []
    for m in SRC_OP.finditer(src):
        if in_comment(src, m.start()):
            continue
        if m.group(0) == "linalg.generic":
            head = src[m.end():src.index("outs(", m.end())]
            got.append((m.group(0), config if '"reduction"' in head else None))
        else:
            got.append((m.group(0), config))
    return got


def configure(text, tcgen_opt, pipeline, split):
    """tcgen-opt's output of `pipeline` on `text`, per chunk when `split`;
    None where it fails."""
    cmd = [tcgen_opt, "-", "--pass-pipeline=" + pipeline]
    if split:
        cmd.append("-split-input-file")
    out = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return chunks(out.stdout) if split else [out.stdout]


def pin_text(text, tcgen_opt, pipeline, split, config=None):
    """`text` with tcgen-configure's choice under `pipeline` written into
    each contraction (each `// -----` chunk on its own when `split`). Where
    tcgen-configure refuses a chunk, `config` (when given) is written into
    its contractions instead."""
    src_chunks = chunks(text) if split else [text]
    out_chunks = configure(text, tcgen_opt, pipeline, split)
    if out_chunks is None and not config:
        raise Refused("tcgen-configure fails on it")
    if out_chunks is None:
        # Chunk by chunk: the refused ones get `config`.
        out_chunks = []
        for src in src_chunks:
            out = configure(src, tcgen_opt, pipeline, False)
            out_chunks.append(out[0] if out else None)
    new_chunks = []
    for src, res in zip(src_chunks, out_chunks):
        if "tcgen.config" in "\n".join(
                l for l in src.splitlines() if not l.lstrip().startswith("//")):
            raise Refused("an op carries a config already")
        # The ops in order, with the config each got (None: not configured).
        if res is None:
            got = written_config(src, config)
        else:
            got = [(m.group(1), m.group(2) or m.group(3))
                   for m in OUT_OP.finditer(res)]
            if sum(1 for _, c in got if c) != res.count("#tcgen.config<"):
                raise Refused("a configured op of another kind")
        ops = [m for m in SRC_OP.finditer(src) if not in_comment(src, m.start())]
        if [m.group(0) for m in ops] != [name for name, _ in got]:
            raise Refused("ops differ")
        pieces, last = [], 0
        for (name, chosen), m in zip(got, ops):
            if not chosen:
                continue
            if name == "linalg.generic":
                # attrs = {...} after outs(...), before the body.
                at = matching_paren(src, src.index("outs(", m.end()) + 4) + 1
                insert = " attrs = {tcgen.config = %s}" % chosen
            else:
                # After the op's name, or its indexing_maps = [...].
                at = m.end()
                rest = src[at:]
                alias = re.match(r"\s*indexing_maps\s*=\s*#[\w.$-]+", rest)
                if alias:
                    at += alias.end()
                elif rest.lstrip().startswith("indexing_maps"):
                    at = matching_paren(src, src.index("[", at)) + 1
                insert = " {tcgen.config = %s}" % chosen
            pieces.append(src[last:at])
            pieces.append(insert)
            last = at
        pieces.append(src[last:])
        new_chunks.append("".join(pieces))
    if not split:
        return new_chunks[0]
    # Rejoin with the separators as they were.
    seps = SEPARATOR.findall(text)
    result = new_chunks[0]
    for sep, chunk in zip(seps, new_chunks[1:]):
        result += sep + chunk
    return result


def configure_step(line):
    """(pipeline, input, split) of a RUN line's configure step, None when the
    line does not configure."""
    if "tcgen-configure" not in line:
        return None
    c = CONFIGURE.findall(line)
    p = PREFIX.search(line)
    i = INPUT.search(line)
    if len(c) != 1 or not p or not i or "%t" in line:
        raise Refused("a RUN line with another pipeline")
    pipeline = "builtin.module(%s,func.func(tcgen-configure%s))" % (
        p.group(1), c[0])
    return pipeline, i.group(1), bool(SPLIT.search(line))


def pin(path, tcgen_opt, dry_run, config=None):
    """Pins the test at `path`; returns why not, or None."""
    try:
        return pin_test(path, tcgen_opt, dry_run, config)
    except Refused as e:
        return str(e)


def pin_test(path, tcgen_opt, dry_run, config):
    text = open(path).read()
    runs = logical_runs(text)
    steps = [configure_step(line) for line, _ in runs]
    variants = sorted(set(s for s in steps if s), key=steps.index)
    if not variants:
        raise Refused("no RUN line configures")
    if len(variants) == 1 and variants[0][1] == "%s":
        # One configuration: written into the test's own input.
        pipeline, _, split = variants[0]
        result = pin_text(text, tcgen_opt, pipeline, split, config)
        result = "\n".join(
            CONFIGURE.sub("", l) if l.startswith("// RUN:") else l
            for l in result.split("\n"))
    else:
        result = pin_split(path, text, runs, steps, tcgen_opt, config)
    if not dry_run:
        open(path, "w").write(result)
    return None


def strip_comments(text):
    """`text` without its comments but for `// -----` and the expected-*
    diagnostics (a further copy of a test's input in a split-file part:
    its RUN lines, FileCheck directives and prose stay in the first)."""
    kept = [l for l in text.split("\n")
            if not l.lstrip().startswith("//") or SEPARATOR.match(l) or
            "expected-" in l]
    # Blank runs left where comments were collapse to one blank line.
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept))


def part_name(line, used):
    """A split-file part's name for the variant a RUN line reads: its
    FileCheck prefix (or 'diagnostics'), lower case."""
    m = re.search(r"--check-prefix[= ]([A-Za-z0-9_-]+)", line)
    name = m.group(1) if m else ("check" if "FileCheck" in line else
                                 "diagnostics")
    name = name.lower()
    while name + ".mlir" in used:
        name += "-2"
    return name + ".mlir"


def pin_split(path, text, runs, steps, tcgen_opt, config):
    """Several configurations (or inputs): each pinned into a part of the
    test that `split-file` writes out; the RUN lines read the parts."""
    lines = text.split("\n")
    if "//--- " in text:
        raise Refused("a split-file test already")
    # The head (up to the last RUN line) stays in the test; the rest of its
    # own input is the first part.
    last_run = max(i for _, ls in runs for i in ls)
    rewritten = {}
    names, parts, used = {}, [], set()
    for (line, ls), step in zip(runs, steps):
        if not step:
            continue
        if step not in names:
            pipeline, source, split = step
            names[step] = part_name(line, used)
            used.add(names[step])
            src = text if source == "%s" else open(
                source.replace("%S", os.path.dirname(path))).read()
            pinned = pin_text(src, tcgen_opt, pipeline, split, config)
            if source == "%s":
                pinned = "\n".join(pinned.split("\n")[last_run + 1:])
            # The first part of the test's own input keeps its comments.
            if source != "%s" or any(s == "%s" for s, _, _ in parts):
                pinned = strip_comments(pinned)
            parts.append((source, names[step], pinned))
        for i, l in zip(ls, rewrite_run([lines[i] for i in ls], names[step])):
            rewritten[i] = l
    head = ["// RUN: split-file %s %t"] + [
        rewritten.get(i, l) for i, l in enumerate(lines[:last_run + 1])]
    return "\n".join(head) + "\n\n" + "\n\n".join(
        "//--- %s\n%s" % (name, content.strip("\n"))
        for _, name, content in parts) + "\n"


def rewrite_run(physical, part):
    """A RUN line's physical lines without the configure step, reading
    %t/`part` instead of its input (None: left as it is)."""
    if part is None:
        return physical
    return [INPUT.sub(lambda m: m.group(0).replace(m.group(1), "%t/" + part),
                      CONFIGURE.sub("", l), count=1) for l in physical]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tcgen-opt",
                        default=os.path.join(SRC, "build/bin/tcgen-opt"))
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--config", help="a #tcgen.config<...> to write "
                        "into the contractions of the chunks that "
                        "tcgen-configure refuses (tests of refusals that it "
                        "reports before the back end)")
    parser.add_argument("tests", nargs="+")
    args = parser.parse_args()
    for path in args.tests:
        try:
            why = pin(path, args.tcgen_opt, args.dry_run, args.config)
        except ValueError:
            why = "an op written in a form this script does not read"
        print(("pinned  " if why is None else "kept    ") + path +
              ("" if why is None else "  (" + why + ")"))


if __name__ == "__main__":
    sys.exit(main())
