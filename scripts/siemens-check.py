#!/usr/bin/env python3
"""Checks `faultline test` against the cached gcc failing tests of the Siemens
programs (benchmarks/siemens/NAME.failing.tsv, from scripts/siemens-failing.py).

For each program and version: `faultline test VERSION.c --args-file universe.txt
--workdir inputs --oracle source/PROG.c --format json`, and the failing tests it
reports compared with gcc's. Tests that faultline leaves out (the reference
program fails them: undefined behaviour gcc's build survives) are excluded from
the comparison and counted; so are tests whose run ends in a runtime error in
faultline (also undefined behaviour).

Usage: scripts/siemens-check.py [--siemens DIR] [--faultline BIN] [--every N] [PROGRAM...]
(--every N: only every N-th test, for a quick sample).
"""

import argparse
import json
import os
import subprocess
import tempfile

PROGRAMS = ["replace", "tot_info", "print_tokens", "print_tokens2", "schedule", "schedule2"]


def cached(path):
    fails = {}
    for line in open(path):
        if line.startswith("#"):
            continue
        v, test, reason, _ = (line.rstrip("\n").split("\t") + [""] * 4)[:4]
        fails.setdefault(v, set())
        if test != "-":
            fails[v].add(test)
    return fails


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--siemens", default=os.path.join(root, "..", "shared", "benchmarks", "siemens"))
    ap.add_argument("--faultline", default=os.path.join(root, "target", "release", "faultline"))
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("programs", nargs="*", default=PROGRAMS)
    args = ap.parse_args()
    total_bad = 0
    for prog in args.programs:
        pdir = os.path.join(args.siemens, prog)
        cache = os.path.join(root, "benchmarks", "siemens", f"{prog}.failing.tsv")
        if not os.path.exists(cache):
            print(f"{prog}: no cache ({cache})")
            continue
        gcc = cached(cache)
        lines = open(os.path.join(pdir, "universe.txt")).read().splitlines()
        kept = [i for i in range(1, len(lines) + 1) if (i - 1) % args.every == 0]
        keep = {str(i) for i in kept}
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            # Test k of the sample is line kept[k-1] of the universe.
            for i in kept:
                f.write(lines[i - 1] + "\n")
            sample = f.name
        for v in sorted(gcc, key=lambda v: int(v[1:])):
            src = os.path.join(pdir, "versions", v, f"{prog}.c")
            r = subprocess.run(
                [args.faultline, "test", src, "--args-file", sample, "--workdir",
                 os.path.join(pdir, "inputs"), "--oracle", os.path.join(pdir, "source", f"{prog}.c"),
                 "--format", "json"],
                capture_output=True, text=True,
            )
            if r.returncode not in (0, 1):
                print(f"{prog} {v}: faultline exits {r.returncode}: {r.stderr.strip().splitlines()[-1:]}")
                total_bad += 1
                continue
            d = json.loads(r.stdout)
            for t in d["tests"]:
                t["name"] = str(kept[int(t["name"]) - 1])
            ran = {t["name"] for t in d["tests"]} & keep
            runtime = {t["name"] for t in d["tests"]
                       if t["verdict"] != "pass" and t["reason"]["kind"] == "runtime-error"}
            fl = {t["name"] for t in d["tests"] if t["verdict"] != "pass"} & ran
            want = gcc[v] & ran
            diff = (fl ^ want) - runtime
            left_out = len(keep - ran)
            status = "agree" if not diff else f"DIFFER on {sorted(diff, key=int)[:10]}"
            print(f"{prog} {v}: gcc {len(want)} failing, faultline {len(fl)}; "
                  f"{len(ran)} compared, {left_out} left out, {len(runtime & ran)} runtime errors: {status}",
                  flush=True)
            total_bad += bool(diff)
        os.unlink(sample)
    raise SystemExit(1 if total_bad else 0)


if __name__ == "__main__":
    main()
