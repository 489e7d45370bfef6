"""One JSON line per scan (--one HEAD SCENARIO SEED RUN_DIR SESSION_DIR), or the summary of
results.jsonl: per head and scenario, the CVAI error through the scan with the true landmarks,
with the simulated picks, and what HeadScan's own landmark search gave."""
import json
import math
import os
import sys

import numpy as np


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def head_from_reconstruction(record, truth):
    """The rigid transform (R, t) from the reconstruction's frame to the head frame, fitted
    by least squares (Kabsch) to the corners of the markers both know."""
    mapped = (record or {}).get("markers", {})
    true = {str(m["id"]): m["corners"] for m in truth.get("markers3D", [])}
    pairs = [(c, t) for i, corners in mapped.items() if i in true for c, t in zip(corners, true[i])]
    if len(pairs) < 12:
        return None
    a = np.array([p[0] for p in pairs]); b = np.array([p[1] for p in pairs])
    ca, cb = a.mean(0), b.mean(0)
    u, _, vt = np.linalg.svd((a - ca).T @ (b - cb))
    d = np.sign(np.linalg.det(vt.T @ u.T))
    r = vt.T @ np.diag([1, 1, d]) @ u.T
    return r, cb - r @ ca


def landmark_errors(found, record, truth):
    """Millimetres from each landmark HeadScan found to the true one."""
    transform = head_from_reconstruction(record, truth)
    if transform is None:
        return None
    r, t = transform
    errors = {}
    for name, true_point in truth["landmarks"].items():
        entry = found.get(name)
        point = entry.get("point") if isinstance(entry, dict) else entry
        if point is not None:
            errors[name] = round(float(np.linalg.norm(r @ np.array(point) + t - np.array(true_point))) * 1000, 2)
    return errors


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
        errors = landmark_errors(automatic["landmarks"], load(os.path.join(session, "reconstruction.json")), truth)
        if errors:
            row["automaticLandmarkErrorsMM"] = errors
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
        landmark = {}
        for r in rs:
            for name, e in r.get("automaticLandmarkErrorsMM", {}).items():
                landmark[name] = max(landmark.get(name, 0), e)
        if landmark:
            automatic += "; landmarks off at most " + ", ".join(f"{n} {e:.1f} mm" for n, e in sorted(landmark.items()))
        surfaces = [r["surfaceMeanMM"] for r in rs if "surfaceMeanMM" in r]
        surface = f"{max(surfaces):.2f}" if surfaces else "?"
        print(f"| {head} | {scenario} | {rs[0]['trueCVAI']:.2f} | {worst('sameLandmarksCVAI')} | "
              f"{worst('greatestLengthCVAI', 'trueGreatestLengthCVAI')} | {worst('picksCVAI')} | {surface} | {automatic} |")


if __name__ == "__main__":
    if sys.argv[1] == "--one":
        one(*sys.argv[2:7])
    else:
        summary(sys.argv[1])
