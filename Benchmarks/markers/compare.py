#!/usr/bin/env python3
"""Runs OpenCV's ArucoDetector and `headscan detect --batch` on the generated images and
prints, per category: recall, false positives, wrong IDs, corner RMSE, median ms and the
ratio of our median time to OpenCV's.

OpenCV runs single-threaded with default parameters plus CORNER_REFINE_SUBPIX. Both detectors
are timed around the detection call alone (images are decoded and converted to gray first).

Usage: compare.py OUT_DIR HEADSCAN_BINARY
"""
import json
import math
import os
import statistics
import subprocess
import sys
import time

import cv2
import numpy as np

MATCH_DISTANCE = 3.0  # px, mean corner distance for a detection to count as the marker


def opencv_detect(paths):
    cv2.setNumThreads(1)
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_100), parameters)
    results = {}
    for path in paths:
        gray = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        start = time.perf_counter()
        corners, ids, _ = detector.detectMarkers(gray)
        elapsed = (time.perf_counter() - start) * 1000
        found = [] if ids is None else [
            {"id": int(i), "corners": c.reshape(4, 2).tolist()} for c, i in zip(corners, ids.flatten())]
        results[path] = (found, elapsed)
    return results


def ours_detect(paths, binary, out_dir):
    listing = os.path.join(out_dir, "list.txt")
    with open(listing, "w") as handle:
        handle.write("\n".join(paths) + "\n")
    output = subprocess.run([binary, "detect", "--batch", listing, "--dictionary", "4x4_100"],
                            check=True, capture_output=True, text=True).stdout
    results = {}
    for line in output.splitlines():
        record = json.loads(line)
        results[record["image"]] = (record["markers"], record["milliseconds"])
    return results


def inside(quad, point):
    quad = np.array(quad)
    signs = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        signs.append((b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0]))
    return all(s >= 0 for s in signs) or all(s <= 0 for s in signs)


class Tally:
    def __init__(self):
        self.truth = self.found = self.false_positives = self.wrong_ids = 0
        self.squared_errors = []
        self.milliseconds = []

    def add(self, truth_markers, detections, milliseconds, keep=lambda m: True):
        self.milliseconds.append(milliseconds)
        used = set()
        for marker in truth_markers:
            if not keep(marker):
                continue
            self.truth += 1
            true = np.array(marker["corners"])
            for index, detection in enumerate(detections):
                found = np.array(detection["corners"])
                distance = np.linalg.norm(found - true, axis=1)
                if detection["id"] == marker["id"] and distance.mean() < MATCH_DISTANCE:
                    self.found += 1
                    self.squared_errors.extend((distance ** 2).tolist())
                    used.add(index)
                    break
        for index, detection in enumerate(detections):
            if index in used:
                continue
            centre = np.array(detection["corners"]).mean(axis=0)
            host = [m for m in truth_markers if inside(m["corners"], centre)]
            if host and all(m["id"] != detection["id"] for m in host):
                self.wrong_ids += 1
            elif not host:
                self.false_positives += 1

    def recall(self):
        return 100.0 * self.found / self.truth if self.truth else float("nan")

    def rmse(self):
        return math.sqrt(sum(self.squared_errors) / len(self.squared_errors)) if self.squared_errors else float("nan")

    def median(self):
        return statistics.median(self.milliseconds) if self.milliseconds else float("nan")


def main():
    out_dir, binary = sys.argv[1], sys.argv[2]
    with open(os.path.join(out_dir, "truth.json")) as handle:
        truth = json.load(handle)
    paths = [entry["image"] for entry in truth]
    ours = ours_detect(paths, binary, out_dir)
    opencv = opencv_detect(paths)
    categories = list(dict.fromkeys(entry["category"] for entry in truth))
    groups = [(c, lambda e, c=c: e["category"] == c, lambda m: True) for c in categories]
    groups.append(("all", lambda e: True, lambda m: True))
    groups.append((">=20px tilt<=45 (not occl.)", lambda e: True,
                   lambda m: m["side"] >= 20 and m["tilt"] <= 45 and not m["occluded"]))
    groups.append(("renderer: ours", lambda e: e["renderer"] == "ours", lambda m: True))
    groups.append(("renderer: opencv", lambda e: e["renderer"] == "opencv", lambda m: True))
    header = "{:<28} {:>5} {:>7} | {:>7} {:>4} {:>4} {:>6} {:>7} | {:>7} {:>4} {:>4} {:>6} {:>7} | {:>6}".format(
        "category", "imgs", "markers", "recall", "FP", "wID", "RMSE", "ms", "recall", "FP", "wID", "RMSE", "ms", "ratio")
    print("{:<42} | {:^39} | {:^39} |".format("", "ours", "OpenCV"))
    print(header)
    print("-" * len(header))
    for name, chooses, keep in groups:
        entries = [e for e in truth if chooses(e)]
        mine, theirs = Tally(), Tally()
        for entry in entries:
            mine.add(entry["markers"], *ours[entry["image"]], keep=keep)
            theirs.add(entry["markers"], *opencv[entry["image"]], keep=keep)
        row = "{:<28} {:>5} {:>7} | {:>6.2f}% {:>4} {:>4} {:>6.3f} {:>7.2f} | {:>6.2f}% {:>4} {:>4} {:>6.3f} {:>7.2f} | {:>6.3f}"
        print(row.format(name, len(entries), mine.truth,
                         mine.recall(), mine.false_positives, mine.wrong_ids, mine.rmse(), mine.median(),
                         theirs.recall(), theirs.false_positives, theirs.wrong_ids, theirs.rmse(), theirs.median(),
                         mine.median() / theirs.median()))


if __name__ == "__main__":
    main()
