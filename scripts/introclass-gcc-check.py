#!/usr/bin/env python3
"""Checks faultline's interpreter against gcc -O0 builds on IntroClass: every
reference and submission, every black-box and white-box test's stdin. For each
program: does it load (faultline compiles it), and on each test do `faultline
run` and the gcc binary print the same stdout bytes and exit with the same
status? Runs that end in a runtime error in faultline (undefined behaviour
the binary survives) and runs that time out in both are counted apart.

Usage: scripts/introclass-gcc-check.py [--introclass DIR] [--faultline BIN]
       [--only REGEX] [--details FILE]
Prints a summary; --details writes one line per disagreement.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 5


def run(cmd, stdin, timeout):
    try:
        r = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)
        status = r.returncode if r.returncode >= 0 else 128 - r.returncode
        return r.stdout, status, r.stderr
    except subprocess.TimeoutExpired:
        return None, "timeout", b""


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--introclass", default=os.path.join(root, "..", "shared", "benchmarks", "introclass"))
    ap.add_argument("--faultline", default=os.path.join(root, "target", "release", "faultline"))
    ap.add_argument("--only", default="", help="only programs whose path matches this regex")
    ap.add_argument("--details", default=None)
    args = ap.parse_args()
    progs = sorted(
        glob.glob(os.path.join(args.introclass, "*", "reference.c"))
        + glob.glob(os.path.join(args.introclass, "*", "programs", "*.c"))
    )
    progs = [p for p in progs if re.search(args.only, p)]
    counts = dict(programs=0, loaded=0, gcc_failed=0, runs=0, agree=0, disagree=0, runtime_error=0, both_timeout=0)
    refused = {}
    details = []
    with tempfile.TemporaryDirectory(prefix="introclass-") as tmp:
        for n, p in enumerate(progs):
            counts["programs"] += 1
            assignment = p.split(os.sep)[-3] if p.endswith("reference.c") is False else p.split(os.sep)[-2]
            adir = os.path.join(args.introclass, assignment)
            exe = os.path.join(tmp, "prog")
            g = subprocess.run(["gcc", "-O0", "-w", "-o", exe, p, "-lm"], capture_output=True)
            if g.returncode != 0:
                counts["gcc_failed"] += 1
                continue
            tests = sorted(glob.glob(os.path.join(adir, "tests", "*", "*.in")))
            first = True
            for t in tests:
                with open(t, "rb") as f:
                    stdin = f.read()
                fl_out, fl_st, fl_err = run(
                    [args.faultline, "run", "--max-time", str(TIMEOUT), p], stdin, TIMEOUT * 3
                )
                if first:
                    first = False
                    if fl_st == 2 and b"error:" in fl_err and not fl_out:
                        msg = fl_err.decode(errors="replace").strip().splitlines()[0]
                        reason = re.sub(r"^.*?error: ", "", msg)
                        refused[reason] = refused.get(reason, 0) + 1
                        details.append(f"REFUSED\t{p}\t{msg}")
                        break
                    counts["loaded"] += 1
                counts["runs"] += 1
                gcc_out, gcc_st, _ = run([exe], stdin, TIMEOUT)
                rel = os.path.relpath(t, adir)
                if gcc_st == "timeout" and b"time limit" in fl_err:
                    counts["both_timeout"] += 1
                elif gcc_out == fl_out and gcc_st == fl_st:
                    counts["agree"] += 1
                elif b"faultline: runtime error" in fl_err:
                    counts["runtime_error"] += 1
                    err = fl_err.decode(errors="replace").strip().splitlines()[-1]
                    details.append(f"RUNTIME-ERROR\t{p}\t{rel}\t{err}")
                else:
                    counts["disagree"] += 1
                    details.append(
                        f"DISAGREE\t{p}\t{rel}\tgcc {gcc_st} {gcc_out!r:.120}\tfaultline {fl_st} {fl_out!r:.120}"
                    )
            if n % 100 == 99:
                print(f"... {n + 1} programs", counts, file=sys.stderr, flush=True)
    print(counts)
    for r, c in sorted(refused.items(), key=lambda x: -x[1]):
        print(f"refused {c}: {r}")
    if args.details:
        with open(args.details, "w") as f:
            f.write("\n".join(details) + "\n")


if __name__ == "__main__":
    main()
