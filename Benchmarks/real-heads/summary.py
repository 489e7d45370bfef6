"""One JSON line per scan (--one HEAD SCENARIO SEED RUN_DIR SESSION_DIR), or the summary of
results.jsonl: per head and scenario, the CVAI error through the scan with the true landmarks,
with the simulated picks, and what HeadScan's own landmark search gave."""
import json
import math
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def one(head, scenario, seed, run, session):
    truth = load(os.path.join(session, "truth.json"))
    same = load(os.path.join(run, "same-landmarks.json"))
    picks = load(os.path.join(run, "picks-measurement.json"))
    automatic = load(os.path.join(session, "measurement.json"))
    recon = load(os.path.join(run, "reconstruct.json")) or {}
    true_cvai = truth["measurements"]["cvai"]
    row = {"head": head, "scenario": scenario, "seed": int(seed), "trueCVAI": true_cvai,
           "markerMapRMSmm": recon.get("alignmentRMSMM") or recon.get("markerRMSMM")}
    if same:
        row["sameLandmarksCVAI"] = same["cvai"]
    if picks:
        row["picksCVAI"] = picks["measurement"]["cvai"]
    if automatic:
        row["automaticCVAI"] = automatic["measurement"]["cvai"]
        # In the reconstruction's own frame; kept for a look in the replay (the true ones are
        # in the head frame, so their distance needs the alignment, which process does not use).
        row["automaticLandmarks"] = automatic["landmarks"]
    else:
        try:
            with open(os.path.join(run, "automatic.err")) as f:
                row["automaticRefusal"] = f.read().strip().splitlines()[-1][:300]
        except (OSError, IndexError):
            row["automaticRefusal"] = "no output"
    print(json.dumps(row, sort_keys=True))


def summary(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    groups = {}
    for r in rows:
        groups.setdefault((r["head"], r["scenario"]), []).append(r)
    print("| head | scenario | true CVAI | scan, true landmarks: error max | with picks: error max | automatic landmarks |")
    print("|---|---|---|---|---|---|")
    for (head, scenario), rs in sorted(groups.items()):
        def worst(key):
            errors = [abs(r[key] - r["trueCVAI"]) for r in rs if key in r]
            return f"{max(errors):.2f} ({len(errors)}/{len(rs)})" if errors else f"none (0/{len(rs)})"
        refusals = sorted({r["automaticRefusal"] for r in rs if "automaticRefusal" in r})
        automatic = worst("automaticCVAI") + ("; refused: " + " / ".join(refusals) if refusals else "")
        true_cvai = ", ".join(f"{r['trueCVAI']:.2f}" for r in rs[:1])
        print(f"| {head} | {scenario} | {true_cvai} | {worst('sameLandmarksCVAI')} | {worst('picksCVAI')} | {automatic} |")


if __name__ == "__main__":
    if sys.argv[1] == "--one":
        one(*sys.argv[2:7])
    else:
        summary(sys.argv[1])
