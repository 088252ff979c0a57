#!/usr/bin/env bash
# Installs what faultline needs and is missing on a Debian or Ubuntu machine, nothing else:
#   scripts/setup.sh          to build and run faultline: a C toolchain, pkg-config, Debian's libz3-dev
#   scripts/setup.sh test     to run its tests as well: gcc (the reference the tests compare against) and
#                             headless Chromium (the HTML report's browser test)
# Each package is checked first (dpkg, or the command on the PATH); apt-get runs only when something is
# missing, through sudo when not root. Prints nothing when all is there.
set -euo pipefail

purpose="${1:-build}"
case "$purpose" in
  build | test) ;;
  *) echo "scripts/setup.sh: unknown purpose '$purpose' (expected 'build' or 'test')" >&2; exit 2 ;;
esac

have_pkg() { dpkg -s "$1" >/dev/null 2>&1; }
have_cmd() { command -v "$1" >/dev/null 2>&1; }

need=()
have_cmd cc || have_cmd gcc || need+=(gcc)
have_pkg pkg-config || have_cmd pkg-config || need+=(pkg-config)
have_pkg libz3-dev || need+=(libz3-dev)
if [ "$purpose" = test ]; then
  have_cmd gcc || need+=(gcc)
  have_cmd chromium || have_cmd chromium-browser || need+=(chromium)
fi
# gcc may have been listed twice.
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
mapfile -t need < <(printf '%s\n' "${need[@]}" | awk '!seen[$0]++')

if ! have_cmd apt-get; then
  echo "scripts/setup.sh: missing ${need[*]}, and this is not a Debian or Ubuntu machine (no apt-get): install them by hand" >&2
  exit 1
fi
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if have_cmd sudo; then
    SUDO=(sudo)
  else
    echo "scripts/setup.sh: missing ${need[*]}; installing them needs root or sudo" >&2
    exit 1
  fi
fi
echo "scripts/setup.sh: installing ${need[*]}" >&2
"${SUDO[@]}" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
