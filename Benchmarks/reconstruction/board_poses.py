#!/usr/bin/env python3
"""Keyframe poses and marker map of a board reconstruction against the simulator's truth.

Usage: board_poses.py TRUTH.json POSES.json MAP.json
POSES.json and MAP.json come from `headscan reconstruct --map-only --align-to TRUTH.json
--poses-out POSES.json --markers-out MAP.json`, so both are already in the board frame.
Prints JSON: per keyframe the rotation (degrees) and position (mm) error of its pose, the same
for the motion between consecutive keyframes, and the map's flatness: each corner's distance
from the best plane through all corners (mm) and each marker's tilt against that plane (degrees).
"""
import json, sys
import numpy as np


def matrix(values):
    return np.array(values, dtype=float).reshape(4, 4)


def angle(r):
    return np.degrees(np.arccos(np.clip((np.trace(r) - 1) / 2, -1, 1)))


def stats(values):
    v = np.asarray(values)
    return {"median": float(np.median(v)), "p95": float(np.percentile(v, 95)), "max": float(v.max())}


def main():
    truth, poses, mapped = (json.load(open(p)) for p in sys.argv[1:4])
    true_pose = {f["index"]: matrix(f["meshFromCamera"]) for f in truth["frames"]}
    pairs = [(true_pose[p["frame"]], matrix(p["worldFromCamera"])) for p in poses["poses"]]
    absolute_r = [angle(t[:3, :3].T @ e[:3, :3]) for t, e in pairs]
    absolute_t = [1000 * np.linalg.norm(t[:3, 3] - e[:3, 3]) for t, e in pairs]
    relative_r, relative_t = [], []
    for (t0, e0), (t1, e1) in zip(pairs, pairs[1:]):
        dt, de = np.linalg.inv(t0) @ t1, np.linalg.inv(e0) @ e1
        relative_r.append(angle(dt[:3, :3].T @ de[:3, :3]))
        relative_t.append(1000 * np.linalg.norm(dt[:3, 3] - de[:3, 3]))
    corners = np.array([c for m in mapped["markers"] for c in m["corners"]])
    centre = corners.mean(axis=0)
    normal = np.linalg.svd(corners - centre)[2][2]
    off_plane = np.abs((corners - centre) @ normal) * 1000
    tilts = []
    for m in mapped["markers"]:
        c = np.array(m["corners"])
        n = np.cross(c[1] - c[0], c[3] - c[0])
        tilts.append(np.degrees(np.arccos(min(1, abs(n @ normal) / np.linalg.norm(n)))))
    print(json.dumps({
        "keyframes": len(pairs),
        "poseRotationDegrees": stats(absolute_r), "posePositionMM": stats(absolute_t),
        "relativeRotationDegrees": stats(relative_r), "relativePositionMM": stats(relative_t),
        "mapOffPlaneMM": {"rms": float(np.sqrt((off_plane ** 2).mean())), "max": float(off_plane.max())},
        "markerTiltDegrees": stats(tilts),
    }, indent=1))


main()
