#!/usr/bin/env bash
# Scans of a printed stocking cap without stickers, measured the way a clinic would:
# `headscan simulate --library` records a session (fresh heads: CVAI, cranial index and the
# flattened side drawn from the seed), `headscan process --without-markers --json` measures
# it with the landmarks HeadScan finds itself, and again with the simulated therapist's picks
# (the reconstruction is reused). Prints one JSON line per scan and a summary.
#
#   Benchmarks/printed-cap/run.sh [HEADS] [SEED] [SECONDS]     # default 10 heads, seed 7101, 20 s
set -euo pipefail
heads=${1:-10}; seed=${2:-7101}; seconds=${3:-20}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
headscan="$root/.build/release/headscan"
[ -x "$headscan" ] || (cd "$root" && swift build -c release --product headscan)
work=$(mktemp -d /tmp/printed-cap.XXXXXX)
out="$work/results.jsonl"
for ((i = 0; i < heads; i++)); do
    s=$((seed + i))
    read -r cvai ci side < <(python3 -c "import random; r=random.Random($s); print(round(r.uniform(0,14),2), round(r.uniform(74,92),1), r.choice(['left','right']))")
    for scenario in ideal restless; do
        lib="$work/$scenario-$s"
        "$headscan" simulate --library "$lib" --scenario "$scenario" --seed "$s" --seconds "$seconds" \
            --cvai "$cvai" --cranial-index "$ci" --flat-side "$side" --printed-cap --lost-share 1 > /dev/null
        session=$(ls -d "$lib"/*_Scan)
        mv "$session/annotations.json" "$work/picks.json"
        start=$(date +%s.%N)
        automatic=$("$headscan" process "$session" --without-markers --json 2> "$work/err" | tail -1) || automatic="{\"refused\": $(python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read().strip()))' "$work/err")}"
        took=$(python3 -c "import time; print(round(time.time() - $start, 2))")
        mv "$work/picks.json" "$session/annotations.json"
        picked=$("$headscan" process "$session" --without-markers --json 2> "$work/err" | tail -1) || picked="{\"refused\": $(python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read().strip()))' "$work/err")}"
        python3 - "$session/truth.json" "$scenario" "$s" "$took" "$automatic" "$picked" >> "$out" <<'PY'
import json, sys
truth = json.load(open(sys.argv[1]))["measurements"]
line = {"scenario": sys.argv[2], "seed": int(sys.argv[3]), "seconds": float(sys.argv[4]), "trueCVAI": truth["cvai"],
        "trueCircumferenceMM": truth["circumferenceMM"]}
for name, text in (("automatic", sys.argv[5]), ("picks", sys.argv[6])):
    d = json.loads(text)
    if "refused" in d:
        line[name] = {"refused": d["refused"]}
        continue
    i = d.get("intervals") or {}
    line[name] = {"cvai": d["cvai"], "cvaiError": d["cvai"] - truth["cvai"], "circumferenceErrorMM": d["circumferenceMM"] - truth["circumferenceMM"],
                  "cvaiInterval": [i["cvai"]["low"], i["cvai"]["high"]] if "cvai" in i else None,
                  "framesPlaced": (d.get("placedWithoutMarkers") or {}).get("framesPlaced"),
                  "framesExamined": (d.get("placedWithoutMarkers") or {}).get("framesExamined"),
                  "printAgreement": (d.get("placedWithoutMarkers") or {}).get("printAgreement"),
                  "source": d["landmarksSource"]}
print(json.dumps(line, sort_keys=True))
PY
        tail -1 "$out"
        rm -rf "$lib"
    done
done
python3 "$here/summary.py" "$out"
