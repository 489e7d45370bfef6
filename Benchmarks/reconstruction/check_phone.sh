#!/usr/bin/env bash
# `headscan check-phone` on simulated phones whose factory focal length and depth unit are off.
# Usage: Benchmarks/reconstruction/check_phone.sh [SECONDS]   (default 6)
# Each case records a printed board of 5 x 7 markers of 20 mm (4x4_100, 5 mm apart) from 30 cm,
# as the app's "check this phone" asks, with the recorded focal length off by F % and the depth
# reading D % too far, and prints the verdict, the measured board scale and the focal estimate.
# The focal length is estimated and corrected, and the board's markers set the scale through
# their printed size as a cap's stickers do in every head scan, where the depth agrees with them
# within 2 % (a depth unit further off, or a board printed at the wrong size, is not corrected).
# A phone should pass exactly when |D| <= 2 % and depth and colour agree.
# The last cases also shift the depth map against colour by S pixels (a depth-to-colour
# registration that is off): depth and colour disagree, and a focal estimate that would leave the
# markers further from their printed size is refused, with the reason.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_REC=${1:-6}
OUT=Benchmarks/reconstruction/out/check-phone
mkdir -p "$OUT"
# HEADSCAN=path/to/headscan runs that binary instead of building one.
H=${HEADSCAN:-.build/release/headscan}
[ -n "${HEADSCAN:-}" ] || swift build -c release --product headscan >/dev/null
for case in "0 0" "6 0" "-6 0" "0 0.3" "0 -0.3" "0 1" "0 -1" "3 -0.7" "0 1.8" "0 -2.5" "2 3 8,0" "3 2.5 8,0" "-3 -2.5 0,6"; do
  set -- $case
  shift_px=${3:-0,0}
  name="$OUT/f$1_d$2_s${shift_px/,/_}"
  [ -f "$name.hscan" ] || "$H" simulate-board --distance 0.3 --rows 5 --columns 7 --marker-mm 20 --gap-mm 5 --dictionary 4x4_100 \
    --seconds "$SECONDS_REC" --focal-error="$1" --depth-scale-error="$2" --depth-shift="$shift_px" --out "$name.hscan" --overwrite >/dev/null
  "$H" check-phone "$name.hscan" --json > "$name.json" 2>/dev/null || true
  python3 - "$name.json" "$1" "$2" "$shift_px" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
f, d = float(sys.argv[2]), float(sys.argv[3])
shifted = sys.argv[4] != "0,0"
expected = "pass" if abs(d) <= 2 and not shifted else "fail"
print(f"focal {f:+.0f} %, depth {d:+.1f} %, shift {sys.argv[4]:>4s} px: {c['verdict']:12s} (expected {expected})  board scale {c['scale']:.4f} ± {c['scaleSigma']:.4f}"
      f"  focal estimate/true {c['focalScale'] * (1 + f / 100):.4f} ± {c['focalScaleSigma']:.4f}{' corrected' if c['focalCorrected'] else ''}"
      f"{' refused' if c.get('focalCorrectionRefused') else ''}"
      f"  {c['markersMeasured']} markers by {c['measuredBy']}, {c['keyframes']} views"
      f"  stickers/print {(c.get('printedScale') or {}).get('ratio', float('nan')):.4f}"
      f" -> {'print' if c.get('printedScale') and not c['printedScale'].get('refused') else 'depth'}")
PY
done
