#!/usr/bin/env python3
"""OpenCV's calibrateCamera on the frames of a simulated board recording, for comparison with
`headscan calibrate`.

Usage: calibrate_opencv.py TUM_FOLDER TRUTH.json DICTIONARY [EVERY] [--k1]
TUM_FOLDER is `headscan export REC.hscan --out DIR`; TRUTH.json is simulate-board's truth (the
board's marker corners, the true camera and lens). Uses every EVERY-th frame (default 5),
detects the markers with cv2.aruco, and calibrates fx, fy, cx, cy, with k1 too when --k1 is
given (k2, k3 and the tangential terms held at zero), else with the distortion held at zero.
Prints JSON: OpenCV's values, the truth, views and markers used, RMS.
"""
import json, os, sys
import cv2
import numpy as np

args = [a for a in sys.argv[1:] if a != "--k1"]
with_k1 = "--k1" in sys.argv
folder, truth_path, dictionary = args[0:3]
every = int(args[3]) if len(args) > 3 else 5
truth = json.load(open(truth_path))
board = {m["id"]: np.array(m["corners"], dtype=np.float32) for m in truth["markers3D"]}
parameters = cv2.aruco.DetectorParameters()
# Sub-pixel corners, as a calibration would use them (without, the corners sit on the contour
# pixels, 0.7 px RMS from where the board's geometry puts them).
parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
detector = cv2.aruco.ArucoDetector(
    cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, "DICT_" + dictionary.upper())), parameters)
names = sorted(os.listdir(os.path.join(folder, "rgb")))[::every]
object_points, image_points, markers = [], [], 0
size = None
for name in names:
    image = cv2.imread(os.path.join(folder, "rgb", name), cv2.IMREAD_GRAYSCALE)
    size = image.shape[::-1]
    corners, ids, _ = detector.detectMarkers(image)
    if ids is None or len(ids) < 4:
        continue
    obj = np.concatenate([board[int(i)] for i in ids.flatten() if int(i) in board])
    img = np.concatenate([c.reshape(4, 2) for c, i in zip(corners, ids.flatten()) if int(i) in board])
    object_points.append(obj.astype(np.float32))
    image_points.append(img.astype(np.float32))
    markers += len(ids)
k0 = np.array([[600.0, 0, size[0] / 2], [0, 600.0, size[1] / 2], [0, 0, 1]])
flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
if not with_k1:
    flags |= cv2.CALIB_FIX_K1
rms, k, dist, _, _ = cv2.calibrateCamera(object_points, image_points, size, k0, np.zeros(5), flags=flags)
fx, fy, cx, cy, w, h = truth["intrinsics"]
k1, k2 = truth.get("distortion", [0, 0])
print(json.dumps({"opencv": {"fx": k[0, 0], "fy": k[1, 1], "cx": k[0, 2], "cy": k[1, 2], "k1": float(dist.ravel()[0]), "rmsPixels": rms},
                  "truth": {"fx": fx, "fy": fy, "cx": cx, "cy": cy, "k1": k1}, "views": len(object_points), "markers": markers,
                  "opencvVersion": cv2.__version__}))
