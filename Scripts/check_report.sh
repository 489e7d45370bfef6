#!/usr/bin/env bash
# Checks the demo's report the way a clinician's tools read it: the HTML page renders in
# headless Chromium (screenshot), the PDF renders with pdftoppm and its text comes out with
# pdftotext, and the values in both equal `headscan measure --json` for the same session.
#
#   Scripts/check_report.sh [OUT_DIR]        (default: a temporary folder)
#
# Needs chromium and poppler-utils (installed with apt-get when missing and run as root).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d)}"
mkdir -p "$out"

need=()
command -v pdftoppm >/dev/null || need+=(poppler-utils)
command -v chromium >/dev/null || need+=(chromium)
if ((${#need[@]})); then
    if [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; then
        sudo_cmd=""
        [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
        $sudo_cmd apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    else
        echo "install ${need[*]} first: sudo apt-get install -y ${need[*]}" >&2
        exit 2
    fi
fi

swift build -c release --product headscan >/dev/null
bin=.build/release/headscan
# Three visits of one patient, five and ten weeks apart, so the last report draws the trend.
first=$(date -d "-70 days" +%F); second=$(date -d "-35 days" +%F)
echo "running the demo three times into $out/library (patient 1 on $first, $second and today) ..."
"$bin" demo --out "$out/library" --date "$first" --cvai 9 --seed 11 --json > "$out/visit1.json"
patient=$(python3 -c 'import json,sys,os; print(os.path.basename(json.load(open(sys.argv[1]))["session"]).split("_")[0])' "$out/visit1.json")
"$bin" demo --out "$out/library" --patient "$patient" --date "$second" --cvai 8 --seed 12 --json > "$out/visit2.json"
"$bin" demo --out "$out/library" --patient "$patient" --json > "$out/demo.json"
"$bin" trend "$patient" --root "$out/library" --json > "$out/trend.json"
session=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["session"])' "$out/demo.json")

python3 - "$session" "$out" <<'PY'
import json, sys
session, out = sys.argv[1:]
record = json.load(open(f"{session}/measurement.json"))
json.dump(record["landmarks"], open(f"{out}/landmarks.json", "w"))
json.dump(json.load(open(f"{session}/patient.json"))["calliper"], open(f"{out}/calliper.json", "w"))
PY
"$bin" measure "$session/head.ply" --landmarks "$out/landmarks.json" --calliper "$out/calliper.json" --json > "$out/measure.json"

chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,2600 \
    --screenshot="$out/report.png" "file://$session/report.html" 2>/dev/null
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
    --print-to-pdf="$out/report-html.pdf" "file://$session/report.html" 2>/dev/null
pdftoppm -png -r 72 "$session/report.pdf" "$out/report-page"
pdftoppm -png -r 30 "$out/report-html.pdf" "$out/report-html-page"
pdftotext -layout "$session/report.pdf" "$out/report.txt"

python3 - "$session" "$out" <<'PY'
import glob, json, os, re, sys, zlib, struct
session, out = sys.argv[1:]
m = json.load(open(f"{out}/measure.json"))
html = open(f"{session}/report.html", encoding="utf-8").read()
text = open(f"{out}/report.txt", encoding="utf-8").read()
failures = []

def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])

def distinct_colours(path):
    # Decodes the PNG's first IDAT stream to count colours: a blank render has one.
    data = open(path, "rb").read()
    chunks, i = [], 8
    while i < len(data):
        n = struct.unpack(">I", data[i:i+4])[0]
        kind = data[i+4:i+8]
        if kind == b"IDAT": chunks.append(data[i+8:i+8+n])
        i += 12 + n
    raw = zlib.decompress(b"".join(chunks))
    return len(set(raw[k:k+3] for k in range(1, min(len(raw), 400000), 3)))

shot = f"{out}/report.png"
if not os.path.exists(shot): failures.append("no screenshot")
else:
    w, h = png_size(shot)
    colours = distinct_colours(shot)
    print(f"screenshot: {w}x{h} px, {colours} distinct colours sampled")
    if colours < 20: failures.append("the screenshot looks blank")
pages = sorted(glob.glob(f"{out}/report-page*.png"))
print(f"PDF pages rendered by pdftoppm: {len(pages)}")
if not pages: failures.append("pdftoppm rendered no page")
if len(pages) > 2: failures.append(f"the PDF runs to {len(pages)} pages; a clinician gets at most two")
printed = glob.glob(f"{out}/report-html-page*.png")
print(f"HTML printed to A4 by Chromium: {len(printed)} pages")
if not printed or len(printed) > 2: failures.append(f"the HTML prints on {len(printed)} pages, not one or two")

values = {
    "CVAI": m["cvai"], "CVA": m["cvaMM"], "Diagonal A": m["diagonalAMM"], "Diagonal B": m["diagonalBMM"],
    "Length": m["lengthMM"], "Width": m["widthMM"], "Cranial index": m["ci"], "Circumference": m["circumferenceMM"],
}
for name, value in values.items():
    shown = f"{value:.2f}"
    row = re.search(r"^\s*" + re.escape(name) + r"\b[^\n]*", text, re.M)
    in_pdf = row is not None and shown in row.group(0).split()
    in_html = re.search(r"<th>" + re.escape(name) + r"[^<]*(<span[^>]*>[^<]*</span>)?</th><td>" + re.escape(shown) + r"( \([^<]*\))?</td>", html) is not None
    print(f"{name:14s} measure --json {shown:>8s}   PDF {'ok' if in_pdf else 'MISSING'}   HTML {'ok' if in_html else 'MISSING'}")
    if not (in_pdf and in_html): failures.append(f"{name} {shown} not in both reports")
# The interval needs the landmarks' uncertainties, which only processing knows.
interval = json.load(open(f"{session}/measurement.json"))["measurement"].get("intervals", {}).get("cvai")
if interval is None:
    failures.append("measurement.json carries no CVAI interval")
else:
    shown = f"{interval['low']:.2f}–{interval['high']:.2f}"
    if shown not in text or shown not in html: failures.append(f"the report lacks CVAI's interval {shown}")
    print(f"CVAI interval  {shown}")
trend = json.load(open(f"{out}/trend.json"))
visits = [json.load(open(f"{out}/{name}.json")) for name in ("visit1", "visit2", "demo")]
measured = [v for v in trend["visits"] if v["measured"]]
print(f"trend: {len(measured)} measured visits, CVAI " + ", ".join(f"{v['cvai']:.2f}" for v in measured))
if len(measured) != 3: failures.append(f"trend lists {len(measured)} measured visits, not 3")
for v, demo in zip(measured, visits):
    if abs(v["cvai"] - demo["measured"]["cvai"]) > 1e-9: failures.append(f"trend CVAI {v['cvai']} differs from the visit's {demo['measured']['cvai']}")
    shown = f"CVAI {v['cvai']:.2f} %"
    # The visits run as one paragraph, which the PDF wraps anywhere.
    if shown not in re.sub(r"\s+", " ", text) or shown not in html: failures.append(f"the report's visit list lacks {shown}")
if "Visits of this patient" not in text or "Visits of this patient" not in html: failures.append("the report has no trend")
flat = re.sub(r"\s+", " ", text)
if "picked on the scan's frames" not in flat or "picked on the scan&#39;s frames" not in html and "picked on the scan's frames" not in html:
    failures.append("the report does not say where the landmarks came from")
level = str(m["severityLevel"])
if f"CHOA level {level}" not in text or f"CHOA level {level}" not in html: failures.append("severity level differs")
for words in ("For the parents", "Posterior symmetry ratio", "Measured slice and asymmetry map"):
    if words not in flat or words not in html: failures.append(f"the report lacks '{words}'")
if failures:
    print("FAILED: " + "; ".join(failures)); sys.exit(1)
print("report check passed")
PY
