#!/usr/bin/env bash
# Checks the knee report the way a clinician's tools read it: the PDF renders with pdftoppm,
# its text comes out with pdftotext, and the values in it and in the HTML page equal those of
# `headscan rom analyze --json` for the same poses (a simulated knee, 5-0-130 true).
#
#   Scripts/check_knee_report.sh [OUT_DIR]        (default: a temporary folder)
#
# Needs poppler-utils (installed with apt-get when missing and run as root).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d)}"
mkdir -p "$out"

if ! command -v pdftotext >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null
    else
        echo "install poppler-utils first: sudo apt-get install -y poppler-utils" >&2
        exit 2
    fi
fi

swift build --product headscan >/dev/null
bin=.build/debug/headscan
"$bin" rom simulate --out "$out/poses.json" --truth "$out/truth.json" --extension 5 --flexion 130
"$bin" rom analyze "$out/poses.json" --side left --json --report "$out" > "$out/analysis.json"
pdftoppm -png -r 72 "$out/knee-report.pdf" "$out/knee-page"
pdftotext -layout "$out/knee-report.pdf" "$out/knee-report.txt"

python3 - "$out" <<'PY'
import glob, json, math, sys
out = sys.argv[1]
a = json.load(open(f"{out}/analysis.json"))
text = open(f"{out}/knee-report.txt", encoding="utf-8").read()
html = open(f"{out}/knee-report.html", encoding="utf-8").read()

def one_decimal(v):  # the report rounds half away from zero
    return ("-" if v < 0 and round(abs(v) * 10) else "") + f"{math.floor(abs(v) * 10 + 0.5) / 10:.1f}"

expected = [
    a["neutralZero"],
    f"{one_decimal(a['minAngle'])}° (frame {a['minFrame']}",
    f"{one_decimal(a['maxAngle'])}° (frame {a['maxFrame']}",
    f"{one_decimal(a['flexion'])}°",
    f"{a['framesPassed']} of {a['framesTotal']}",
] + [f"{count} × " for count in a["rejections"].values()]
failures = [f"the PDF text lacks {e!r}" for e in expected if e not in text]
if text.count(" × ") != len(a["rejections"]): failures.append("the PDF does not list one line per rejection reason")
failures += [f"the HTML lacks {e!r}" for e in expected if e not in html]
pages = sorted(glob.glob(f"{out}/knee-page*.png"))
if not pages: failures.append("pdftoppm rendered no page")
print(f"analysis: {a['neutralZero']}, {a['framesPassed']}/{a['framesTotal']} frames; truth {json.load(open(f'{out}/truth.json'))['neutralZero']}")
print(f"PDF: {len(pages)} page(s) rendered into {out}, text in {out}/knee-report.txt")
if failures:
    print("\n".join(failures)); sys.exit(1)
print("the report's values equal rom analyze --json")
PY
