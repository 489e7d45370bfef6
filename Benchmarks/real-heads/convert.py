"""Writes public real head surfaces as PLY (metres) with landmarks JSON for `headscan simulate
--head-mesh`. Sources (nothing of them is committed; fetch.sh brings them):

  fsaverage  FreeSurfer's fsaverage scalp (the average of 40 adults), shipped in MNE-Python's
             wheel (mne/data/fsaverage): fsaverage-head.fif and its fiducials (LPA, nasion, RPA).
  sample     The scalp of MNE's "sample" subject (one adult, from an MRI), from the
             mne-testing-data repository: subjects/sample/bem/sample-head.fif and
             sample-fiducials.fif.

Annotated landmarks: nasion, and the left and right pre-auricular points (LPA, RPA) stand in
for the tragions (both lie in front of the ear canal; the pre-auricular point is a few
millimetres from the tragion). Neither source marks the nose tip: it is taken as the mesh's
most anterior point within 10 mm of the midline between 15 and 60 mm below the nasion, in the
frame of the three annotated points (written as derived, not annotated).

Usage: convert.py OUT_DIR [--testing-data DIR]
"""
import json
import os
import sys

import mne
import numpy as np


def write_ply(path, vertices, faces):
    with open(path, "wb") as f:
        header = (
            "ply\nformat binary_little_endian 1.0\ncomment public head surface, metres\n"
            f"element vertex {len(vertices)}\nproperty float x\nproperty float y\nproperty float z\n"
            f"element face {len(faces)}\nproperty list uchar int vertex_indices\nend_header\n"
        )
        f.write(header.encode())
        f.write(np.asarray(vertices, dtype="<f4").tobytes())
        for tri in np.asarray(faces, dtype="<i4"):
            f.write(b"\x03" + tri.tobytes())


def nose_tip(vertices, nasion, lpa, rpa):
    origin = (lpa + rpa) / 2
    x = (rpa - lpa) / np.linalg.norm(rpa - lpa)
    up = np.cross(rpa - lpa, nasion - origin)
    z = up / np.linalg.norm(up)
    y = np.cross(z, x)
    local = (vertices - origin) @ np.stack([x, y, z]).T
    n = (nasion - origin) @ np.stack([x, y, z]).T
    band = (np.abs(local[:, 0]) < 0.010) & (local[:, 2] < n[2] - 0.015) & (local[:, 2] > n[2] - 0.060) & (local[:, 1] > 0)
    return vertices[band][np.argmax(local[band, 1])]


def convert(name, head_fif, fiducials_fif, out):
    surf = mne.read_bem_surfaces(head_fif, verbose="error")[0]
    fids, _ = mne.io.read_fiducials(fiducials_fif, verbose="error")
    points = {int(f["ident"]): np.asarray(f["r"], dtype=float) for f in fids}
    lpa, nasion, rpa = points[1], points[2], points[3]
    vertices = np.asarray(surf["rr"], dtype=float)
    tip = nose_tip(vertices, nasion, lpa, rpa)
    write_ply(os.path.join(out, f"{name}.ply"), vertices, surf["tris"])
    landmarks = {
        "nasion": nasion.tolist(), "noseTip": tip.tolist(), "leftTragion": lpa.tolist(), "rightTragion": rpa.tolist(),
    }
    with open(os.path.join(out, f"{name}.landmarks.json"), "w") as f:
        json.dump(landmarks, f)
    with open(os.path.join(out, f"{name}.annotated.json"), "w") as f:
        json.dump({"annotated": ["nasion", "leftTragion", "rightTragion"], "derived": ["noseTip"],
                   "tragionsAre": "pre-auricular points (LPA, RPA)"}, f)
    print(f"{name}: {len(vertices)} vertices, {len(surf['tris'])} triangles")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    data = os.path.join(os.path.dirname(mne.__file__), "data", "fsaverage")
    convert("fsaverage", os.path.join(data, "fsaverage-head.fif"), os.path.join(data, "fsaverage-fiducials.fif"), out)
    if "--testing-data" in sys.argv:
        root = sys.argv[sys.argv.index("--testing-data") + 1]
        bem = os.path.join(root, "subjects", "sample", "bem")
        convert("sample", os.path.join(bem, "sample-head.fif"), os.path.join(bem, "sample-fiducials.fif"), out)


if __name__ == "__main__":
    main()
