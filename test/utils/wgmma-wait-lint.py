#!/usr/bin/env python3
"""Flags PTX in which an instruction that ptxas turns into a subroutine call
(a 16- or 64-bit integer division or remainder, or a call) can run after a
wgmma.mma_async and before the next `wgmma.wait_group.sync.aligned 0` on
some path through the function's branches.

ptxas (CUDA 13.0) moved such a wait past the first reads of the
accumulators when a call came between them, so the epilogue read registers
the last wgmma was still writing. Prints each finding as FILE:LINE: TEXT and
exits 1 if there is one, else prints "ok: N files".
  wgmma-wait-lint.py FILE.ptx...
"""
import re
import sys

CALLS = re.compile(
    r"^\s*(?:@!?%p\d+\s+)?(?:(?:div|rem)\.(?:u16|s16|u64|s64)\b|call\b)")
WAIT0 = re.compile(r"wgmma\.wait_group\.sync\.aligned\s+0\s*;")
LABEL = re.compile(r"^(\$?[A-Za-z_.$][\w.$]*):")
BRANCH = re.compile(r"^\s*(@!?%p\d+\s+)?bra(?:\.uni)?\s+(\$?[\w.$]+)\s*;")
ENTRY = re.compile(r"^(?:\.visible\s+|\.weak\s+)?\.(?:entry|func)\b")


def blocks(lines):
    """The basic blocks (a function's start or a label opens one) and their
    successors: branch targets, and the next block where control falls
    through (not after an unconditional branch or a return, nor into the
    next function)."""
    out, label_of, cur = [], {}, None
    for number, line in enumerate(lines, 1):
        text = line.strip()
        m = LABEL.match(text)
        entry = ENTRY.match(text)
        if entry or m or cur is None:
            cur = {"lines": [], "succ": [], "fall": not entry and cur is not None,
                   "fall_next": True}
            out.append(cur)
            if m:
                label_of[m.group(1)] = len(out) - 1
            continue
        cur["lines"].append((number, text))
        b = BRANCH.match(text)
        if b:
            cur["succ"].append(b.group(2))
            if not b.group(1):  # unconditional: no fallthrough
                cur["fall_next"] = False
        elif text.startswith("ret") or text.startswith("exit"):
            cur["fall_next"] = False
    edges = [[] for _ in out]
    for i, blk in enumerate(out):
        edges[i] = [label_of[t] for t in blk["succ"] if t in label_of]
        if blk["fall_next"] and i + 1 < len(out) and out[i + 1]["fall"]:
            edges[i].append(i + 1)
    return out, edges


def findings(path):
    with open(path) as f:
        lines = f.read().split("\n")
    out, edges = blocks(lines)
    pending_in = [False] * len(out)
    found = {}
    changed = True
    while changed:  # forward dataflow: is a wgmma waiting for its wait 0?
        changed = False
        for i, blk in enumerate(out):
            pending = pending_in[i]
            for number, text in blk["lines"]:
                if "wgmma.mma_async" in text:
                    pending = True
                elif WAIT0.search(text):
                    pending = False
                elif pending and CALLS.search(text):
                    found[number] = text
            for j in edges[i]:
                if pending and not pending_in[j]:
                    pending_in[j] = True
                    changed = True
    return sorted(found.items())


def main(paths):
    bad = 0
    for path in paths:
        for number, text in findings(path):
            print(f"{path}:{number}: {text}")
            bad += 1
    if bad:
        return 1
    print(f"ok: {len(paths)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
