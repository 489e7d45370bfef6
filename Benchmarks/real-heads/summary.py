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
           "markersMapped": recon.get("markersMapped"), "mapRMSmm": recon.get("mapRMSMillimetres")}
    source = load(os.path.join(run, "source-measure.json"))
    surface = load(os.path.join(run, "surface.json"))
    if surface:
        row["surfaceMeanMM"] = surface["meanMM"]
        row["surfaceOffStickersMeanMM"] = surface["offStickers"]["meanMM"]
    if same:
        row["sameLandmarksCVAI"] = same["cvai"]
        row["sliceHeightMM"] = same["sliceHeightMM"]
        if source:
            row["trueSliceHeightMM"] = source["sliceHeightMM"]
            # The same convention on both: the level of greatest length, which both find
            # within a millimetre where the longest outline's level moves by several.
            pick = lambda d: {c["convention"]: c for c in d.get("conventions", [])}.get("greatestLength")
            a, b = pick(same), pick(source)
            if a and b:
                row["greatestLengthCVAI"] = a["cvai"]
                row["trueGreatestLengthCVAI"] = b["cvai"]
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
    print("| head | scenario | true CVAI | scan, true landmarks: error max (signed mean) | at the level of greatest length | with picks | surface mean, mm | automatic landmarks |")
    print("|---|---|---|---|---|---|---|---|")
    for (head, scenario), rs in sorted(groups.items()):
        def worst(key, truth="trueCVAI"):
            errors = [r[key] - r[truth] for r in rs if key in r and truth in r]
            if not errors:
                return f"none (0/{len(rs)})"
            return f"{max(map(abs, errors)):.2f} ({sum(errors) / len(errors):+.2f}, {len(errors)}/{len(rs)})"
        refusals = {}
        for r in rs:
            if "automaticRefusal" in r:
                why = r["automaticRefusal"].split("(cannot measure this mesh: ")[-1].split(";")[0]
                refusals[why] = refusals.get(why, 0) + 1
        automatic = worst("automaticCVAI") + "".join(f"; {n}× {why}" for why, n in sorted(refusals.items()))
        surfaces = [r["surfaceMeanMM"] for r in rs if "surfaceMeanMM" in r]
        surface = f"{max(surfaces):.2f}" if surfaces else "?"
        print(f"| {head} | {scenario} | {rs[0]['trueCVAI']:.2f} | {worst('sameLandmarksCVAI')} | "
              f"{worst('greatestLengthCVAI', 'trueGreatestLengthCVAI')} | {worst('picksCVAI')} | {surface} | {automatic} |")


if __name__ == "__main__":
    if sys.argv[1] == "--one":
        one(*sys.argv[2:7])
    else:
        summary(sys.argv[1])
