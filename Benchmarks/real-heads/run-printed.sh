#!/usr/bin/env bash
# Scans the public real head surfaces under the printed cap, without stickers (release build):
# each head, ideal and restless, reconstructed by its depth and the print's colours as
# `headscan process --without-markers` does, measured with the source mesh's own landmarks
# carried by the first placed frame's true pose (the reconstruction judged), and HeadScan's
# landmark search from the head frame read off the print (or the reason it refused).
# Usage: Benchmarks/real-heads/run-printed.sh [REPEATS] [SECONDS] [CIRCUMFERENCE_MM]
#   REPEATS          scans per head and scenario (default 3)
#   SECONDS          length of each scan (default 20)
#   CIRCUMFERENCE_MM the size the adult heads are scaled to (default 420, a six-month-old)
# FOLLOWS=1 has the simulated therapist do what the guide without markers says
# (bench markerless --operator-follows); the JSON then goes to out/printed-follows-HEAD.json.
# Run fetch.sh first. Writes out/printed-HEAD.json (bench markerless --json) and prints a table.
set -euo pipefail
cd "$(dirname "$0")"
REPEATS=${1:-3}
SECONDS_SCAN=${2:-20}
CIRCUMFERENCE=${3:-420}
FOLLOW_FLAG=()
PREFIX=printed
if [ "${FOLLOWS:-0}" = 1 ]; then FOLLOW_FLAG=(--operator-follows); PREFIX=printed-follows; fi
ROOT=$(cd ../.. && pwd)
(cd "$ROOT" && swift build -c release --product headscan >/dev/null)
H="$ROOT/.build/release/headscan"
for landmarks in out/*.landmarks.json; do
  head=$(basename "$landmarks" .landmarks.json)
  "$H" bench markerless --caps printed --repeats "$REPEATS" --seconds "$SECONDS_SCAN" \
    --head-mesh "out/$head.ply" --head-landmarks "$landmarks" --head-circumference-mm "$CIRCUMFERENCE" --json \
    "${FOLLOW_FLAG[@]}" > "out/$PREFIX-$head.json"
done
python3 - "$PREFIX" out/$PREFIX-*.json <<'PY'
import json, sys
print("| head (true CVAI) | scenario | measured | CVAI error, true landmarks | surface mean | landmark search |")
print("|---|---|---|---|---|---|")
prefix = sys.argv[1] + "-"
for path in sys.argv[2:]:
    head = path.split("/")[-1][len(prefix):-5]
    trials = json.load(open(path))["trials"]
    for scenario in ("ideal", "restless"):
        ts = [t for t in trials if t["scenario"] == scenario]
        measured = [t for t in ts if t.get("cvai") is not None and not t.get("refusal")]
        errors = ", ".join("%+.2f" % (t["cvai"] - t["trueCVAI"]) for t in measured) or "-"
        surface = ", ".join("%.2f" % t["surfaceMeanMM"] for t in measured if t.get("surfaceMeanMM") is not None) or "-"
        refused = sorted({t["refusal"].split(";")[0] for t in ts if t.get("refusal")})
        search = sorted({(t.get("landmarkRefusal") or "found").replace("cannot measure this mesh: ", "").split(";")[0] for t in measured})
        print("| %s (%.2f) | %s | %d/%d%s | %s | %s mm | %s |" % (
            head, ts[0]["trueCVAI"], scenario, len(measured), len(ts),
            "".join(" (refused: %s)" % r for r in refused), errors, surface, "; ".join(search) or "-"))
PY
