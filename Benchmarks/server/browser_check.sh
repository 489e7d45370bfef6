#!/usr/bin/env bash
# The researchers' pages in headless Chromium (see browser_check.py): builds headscan and
# headscan-server in release, sets up Playwright in a venv (first run: PyPI), and drives
# Debian's Chromium — Playwright downloads no browser.
# Usage: Benchmarks/server/browser_check.sh [screenshot folder, default Benchmarks/server/out/browser]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$here/out/browser}"

if [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/javascript/three ]; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium libjs-three
fi
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import playwright" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet playwright
fi
scratch="${SCRATCH_PATH:-$root/.build}"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    swift build -c release -j 1 --package-path "$root" --scratch-path "$scratch" --product headscan-server
    swift build -c release -j 1 --package-path "$root" --scratch-path "$scratch" --product headscan
fi
rm -rf "$out"
"$venv/bin/python" "$here/browser_check.py" --bin "$scratch/release" --out "$out"
