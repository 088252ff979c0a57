#!/usr/bin/env python3
"""Measures faultline on a sample of IntroClass as class runs, with outputs
compared as the benchmark's checker does (the answer patterns of
scripts/introclass-manifest.py).

    scripts/introclass-class.py [--data DIR] [--every 10] [--timeout 10]

For each assignment: every submission's tests are run (`faultline test`);
of those with a failing test, in name order, every Nth (the 1st, the
N+1st, ...) is linked into OUT/ASSIGNMENT/, and `faultline localize
OUT/ASSIGNMENT` runs them as a class (JSON lines in OUT/ASSIGNMENT.jsonl).
Printed: per assignment, the sample's size, how many localizations
finished (status localized or no-diagnosis: not stopped by a limit, no
error), and how many first diagnoses' angelic values make every failing
test pass when re-executed (`first_replayed`). Only the Python standard
library is used.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("manifest", os.path.join(HERE, "introclass-manifest.py"))
manifest = importlib.util.module_from_spec(spec)
spec.loader.exec_module(manifest)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(manifest.BENCHMARKS, manifest.DATA_REL))
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--out", default="introclass-class")
    ap.add_argument("--faultline", default=os.path.join(manifest.REPO, "target/release/faultline"))
    args = ap.parse_args()
    total = {"sample": 0, "finished": 0, "replayed": 0, "failing": 0}
    print(f"{'assignment':<10} {'failing':>7} {'sample':>6} {'finished':>8} {'values pass':>11}")
    for a in manifest.ASSIGNMENTS:
        tests = os.path.join(args.data, a, "tests", "blackbox")
        compare = ["--compare", "pattern", f"--pattern={manifest.PATTERNS[a]}", "--ignore-case"]
        progs = sorted(f for f in os.listdir(os.path.join(args.data, a, "programs")) if f.endswith(".c"))
        failing = []
        for p in progs:
            src = os.path.join(args.data, a, "programs", p)
            r = subprocess.run([args.faultline, "test", src, "--tests", tests] + compare,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if r.returncode == 1:
                failing.append(p)
        sample = failing[:: args.every]
        d = os.path.join(args.out, a)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
        for p in sample:
            os.symlink(os.path.abspath(os.path.join(args.data, a, "programs", p)), os.path.join(d, p))
        r = subprocess.run([args.faultline, "localize", d, "--tests", tests, "--format", "json",
                            "--timeout", str(args.timeout), "--quiet"] + compare,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        with open(os.path.join(args.out, a + ".jsonl"), "w") as f:
            f.write(r.stdout)
        rows = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
        finished = sum(1 for x in rows if x["status"] in ("localized", "no-diagnosis"))
        replayed = sum(1 for x in rows if x["first_replayed"] is True)
        print(f"{a:<10} {len(failing):>7} {len(sample):>6} {finished:>8} {replayed:>11}", flush=True)
        for k, v in (("sample", len(sample)), ("finished", finished), ("replayed", replayed), ("failing", len(failing))):
            total[k] += v
    print(f"{'total':<10} {total['failing']:>7} {total['sample']:>6} {total['finished']:>8} {total['replayed']:>11}")


if __name__ == "__main__":
    main()
