#!/usr/bin/env bash
# Type-checks every library target and App/ for arm64-apple-ios17.0 against an iOS SDK.
#
#   Scripts/ios-typecheck.sh SDK_PATH
#
# On a Mac:   Scripts/ios-typecheck.sh "$(xcrun --sdk iphoneos --show-sdk-path)"
# On Linux:   set HEADSCAN_IOS_RESOURCE_DIR to a Swift resource folder for Apple targets
#             (see docs/app.md, "Type-checking the app for iOS"); the toolchain's own
#             resource folder has no Darwin overlays' API notes.
#
# Each module is first emitted with non-inlinable bodies skipped (in dependency order, so
# later modules can import it), then its bodies are type-checked with -typecheck. The
# Linux-only C targets (CPNG, CJPEG, CImageShims) are not part of an Apple build: Imaging
# decodes through ImageIO there. The headscan executable is a Linux/macOS tool and is not
# checked. Exit status: 0 when there are no errors.
set -uo pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: $0 SDK_PATH" >&2
    exit 64
fi
SDK=$(cd "$1" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGET=${HEADSCAN_IOS_TARGET:-arm64-apple-ios17.0}
SWIFTC_IS_SET=${SWIFTC:-}
SWIFTC=${SWIFTC:-swiftc}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ios-typecheck.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
MODULES="$WORK/modules"
mkdir -p "$MODULES"
# The clang module cache can be kept between runs (it takes minutes to fill).
CACHE=${HEADSCAN_IOS_MODULE_CACHE:-$WORK/module-cache}

COMMON=(-target "$TARGET" -sdk "$SDK" -swift-version 6 -module-cache-path "$CACHE" -I "$MODULES" -package-name HeadScan)
# The driver turns on cross-import overlays for Apple targets (PhotosPicker lives in the
# PhotosUI × SwiftUI overlay); the frontend called directly needs it said.
COMMON+=(-enable-cross-import-overlays)
# The frontend needs the toolchain's macro plugins (@Observable) named explicitly.
if command -v xcrun >/dev/null 2>&1 && [ -z "${SWIFTC_IS_SET:-}" ]; then
    SWIFTC_PATH=$(xcrun --find swiftc)
else
    SWIFTC_PATH=$(command -v "$SWIFTC")
fi
SWIFTC_PATH=$(readlink -f "$SWIFTC_PATH" 2>/dev/null || echo "$SWIFTC_PATH")
PLUGINS="$(dirname "$SWIFTC_PATH")/../lib/swift/host/plugins"
if [ -d "$PLUGINS" ]; then COMMON+=(-plugin-path "$PLUGINS"); fi
if [ -n "${HEADSCAN_IOS_RESOURCE_DIR:-}" ]; then
    COMMON+=(-resource-dir "$HEADSCAN_IOS_RESOURCE_DIR")
fi

# Library targets in dependency order (see Package.swift).
LIBRARIES=(Geometry SettingsSchema Imaging Markers Recording Feedback Reconstruction Scanning Cephalometry
    RangeOfMotion ReportKit Report KneeReport ScanLibrary Processing Upload HeadGestures Simulation HeadScanTesting
    AppSupport KneeFeature GestureFeature AppModel AppModelTesting AppleDevices)
# Only ONLY=Name,Name… if given (the modules they import must then be checked in the same run).
if [ -n "${ONLY:-}" ]; then IFS=',' read -r -a LIBRARIES <<<"$ONLY"; fi

# SwiftPM generates Bundle.module for targets with resources; stand in for it.
ACCESSOR="$WORK/resource_bundle_accessor.swift"
cat >"$ACCESSOR" <<'SWIFT'
import Foundation
extension Foundation.Bundle {
    static let module: Bundle = Bundle.main
}
SWIFT

ERRORS=0
FILES_CHECKED=0
LOG="$WORK/log"

run() {
    # Runs the compiler, shows its diagnostics and adds its errors to the count.
    "$@" >"$LOG" 2>&1
    local status=$?
    cat "$LOG"
    local count
    count=$(grep -c ': error: ' "$LOG" || true)
    if [ "$status" -ne 0 ] && [ "$count" -eq 0 ]; then count=1; fi
    ERRORS=$((ERRORS + count))
    return $status
}

sources_of() {
    find "$1" -name '*.swift' | LC_ALL=C sort
}

for NAME in "${LIBRARIES[@]}"; do
    DIR="$ROOT/Sources/$NAME"
    mapfile -t FILES < <(sources_of "$DIR")
    if [ "$NAME" = AppSupport ]; then FILES+=("$ACCESSOR"); fi
    echo "== $NAME (${#FILES[@]} files)"
    FILES_CHECKED=$((FILES_CHECKED + ${#FILES[@]}))
    # Interface only: a failure here shows again, with its errors, in the full check below.
    if ! "$SWIFTC" -frontend -emit-module -parse-as-library "${COMMON[@]}" \
        -module-name "$NAME" -experimental-skip-non-inlinable-function-bodies \
        -emit-module-path "$MODULES/$NAME.swiftmodule" "${FILES[@]}" >"$LOG" 2>&1; then
        echo "$NAME: the module could not be emitted; modules importing it will fail too"
    fi
    run "$SWIFTC" -frontend -typecheck -parse-as-library "${COMMON[@]}" -module-name "$NAME" "${FILES[@]}" || true
done

if [ -z "${ONLY:-}" ] || [ -n "${APP:-}" ]; then
    mapfile -t FILES < <(sources_of "$ROOT/App")
    echo "== App (${#FILES[@]} files)"
    FILES_CHECKED=$((FILES_CHECKED + ${#FILES[@]}))
    # As a debug build, so the SwiftUI previews (over AppModelTesting's doubles) are checked too.
    run "$SWIFTC" -frontend -typecheck -parse-as-library "${COMMON[@]}" -D DEBUG -module-name HeadScanApp "${FILES[@]}" || true
fi

echo "checked $FILES_CHECKED files for $TARGET: $ERRORS error(s)"
[ "$ERRORS" -eq 0 ]
