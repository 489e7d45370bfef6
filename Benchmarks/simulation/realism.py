"""Runs OpenCV's ArUco detector on exported simulator frames and compares with the truth.

Counts, for markers the truth says are visible, at least 20 px on a side and facing the
camera within 60 degrees, how many OpenCV finds with the right ID (recall), and reports
corner error and any detections the truth does not explain.
"""
import json
import sys

import cv2
import numpy as np


def main(tum_dir: str, truth_path: str) -> None:
    cv2.setNumThreads(1)
    truth = json.load(open(truth_path))
    frames = truth["frames"]
    lines = [l.split() for l in open(f"{tum_dir}/rgb.txt") if not l.startswith("#")]
    assert len(lines) == len(frames), "the export must hold every simulated frame"
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_100), params)
    eligible = found = wrong = 0
    errors = []
    for (stamp, path), frame in zip(lines, frames):
        gray = cv2.imread(f"{tum_dir}/{path}", cv2.IMREAD_GRAYSCALE)
        corners, ids, _ = detector.detectMarkers(gray)
        detected = {} if ids is None else {int(i): c.reshape(4, 2) for i, c in zip(ids.flatten(), corners)}
        visible = {m["id"]: m for m in frame["markers"]}
        wrong += sum(1 for i in detected if i not in visible)
        for m in frame["markers"]:
            if m["sidePixels"] < 20 or m["viewAngleDegrees"] > 60:
                continue
            eligible += 1
            if m["id"] in detected:
                found += 1
                errors.append(np.linalg.norm(detected[m["id"]] - np.array(m["corners"]), axis=1))
    all_errors = np.concatenate(errors) if errors else np.array([np.nan])
    rmse = float(np.sqrt(np.mean(all_errors ** 2)))
    print(f"frames {len(frames)}: OpenCV found {found} of {eligible} eligible markers "
          f"(recall {100 * found / max(eligible, 1):.2f} %), detections not in the truth {wrong}")
    print(f"corner error vs truth: median {np.median(all_errors):.3f} px, "
          f"95th percentile {np.percentile(all_errors, 95):.3f} px, RMSE {rmse:.3f} px")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
