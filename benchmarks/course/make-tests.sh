#!/bin/sh
# Regenerates the expected outputs (tests/tN.out) of every course program from
# its reference program ref.c, compiled with gcc, and checks the seeded fault:
# with --check, also compiles the faulty NAME.c and reports which tests fail
# on it (each program must have at least one failing and one passing test).
#
#   benchmarks/course/make-tests.sh            # regenerate all .out files
#   benchmarks/course/make-tests.sh --check    # ... and check the faulty programs
#   benchmarks/course/make-tests.sh --check gcd sieve   # only these programs
#
# A test is tests/tN.in (stdin) with an optional tests/tN.args (command-line
# arguments, separated by whitespace); the program's stdout is the expected
# output. Programs are compiled with `gcc -std=c99 -Wall -Werror -O0`.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
check=0
if [ "${1:-}" = "--check" ]; then
    check=1
    shift
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

CC=${CC:-gcc}
CFLAGS="-std=c99 -Wall -Werror -O0"

status=0
if [ $# -eq 0 ]; then
    set -- $(cd "$here" && for d in */; do [ -f "$d/ref.c" ] && echo "${d%/}"; done)
fi
for name in "$@"; do
    dir=$here/$name
    # Compiled as ./NAME in the program's directory, as faultline names argv[0].
    mkdir -p "$work/ref/$name" "$work/bad/$name"
    $CC $CFLAGS -o "$work/ref/$name/$name" "$dir/ref.c" -lm
    if [ $check = 1 ]; then
        $CC $CFLAGS -o "$work/bad/$name/$name" "$dir/$name.c" -lm
    fi
    failing=""
    passing=""
    for input in "$dir"/tests/*.in; do
        t=$(basename "$input" .in)
        args=""
        if [ -f "$dir/tests/$t.args" ]; then
            args=$(cat "$dir/tests/$t.args")
        fi
        # The arguments are split on whitespace, never globbed (set -f).
        # shellcheck disable=SC2086
        (set -f; cd "$work/ref/$name" && timeout 10 "./$name" $args <"$input" >"$dir/tests/$t.out") || true
        if [ $check = 1 ]; then
            # shellcheck disable=SC2086
            (set -f; cd "$work/bad/$name" && timeout 10 "./$name" $args <"$input" >"$work/$t.bad") || true
            if cmp -s "$dir/tests/$t.out" "$work/$t.bad"; then
                passing="$passing $t"
            else
                failing="$failing $t"
            fi
        fi
    done
    if [ $check = 1 ]; then
        printf '%-14s failing:%s\n' "$name" "${failing:- none}"
        if [ -z "$failing" ] || [ -z "$passing" ]; then
            echo "$name: error: need at least one failing and one passing test" >&2
            status=1
        fi
    fi
done
exit $status
