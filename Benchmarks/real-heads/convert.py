"""Writes public real head surfaces as PLY (metres) with landmarks JSON for `headscan simulate
--head-mesh`. Sources (nothing of them is committed; fetch.sh brings them):

  fsaverage  FreeSurfer's fsaverage scalp (the average of 40 adults), shipped in MNE-Python's
             wheel (mne/data/fsaverage): fsaverage-head.fif and its fiducials (LPA, nasion, RPA).
  sample     The scalp of MNE's "sample" subject (one adult, from an MRI), from the
             mne-testing-data repository: subjects/sample/bem/sample-head.fif and
             sample-fiducials.fif.
  ict        The ICT Face Model's generic neutral head (USC ICT's ICT-FaceKit, MIT licence): the
             mean of light-stage scans of real people registered to one topology, with the back
             of the head and the ears; FaceXModel/generic_neutral_mesh.obj (centimetres). Its
             face and head-and-neck parts are kept (the eyes, mouth and teeth are separate
             parts), the shoulders cut off 12 cm below the eyes' level, and the eye and mouth
             openings closed by fans.

Annotated landmarks: nasion, and the left and right pre-auricular points (LPA, RPA) stand in
for the tragions (both lie in front of the ear canal; the pre-auricular point is a few
millimetres from the tragion). Neither source marks the nose tip: it is taken as the mesh's
most anterior point within 10 mm of the midline between 15 and 60 mm below the nasion, in the
frame of the three annotated points (written as derived, not annotated).

The ICT head marks the nose tip (point 30 of its Multi-PIE 68 landmarks) but neither nasion
nor tragions: its nasion is the deepest point of the midline profile between the nose's top
(point 27) and the forehead, and its tragions were read by us off a rendering of each ear (the
notch above the tragus, on the surface seen from the side; within about 2 mm), both written
as derived.

Usage: convert.py OUT_DIR [--testing-data DIR] [--ict OBJ]
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


# Where the notch above the tragus lies on the ICT head's left ear, seen from the left, in its
# own centimetres (forward z, up y); the head is mirror-symmetric, so the right ear's is the same.
ICT_TRAGION_ZY = (1.05, 1.05)
ICT_NOSE_TIP, ICT_NOSE_TOP = 4857, 978
ICT_HEAD_VERTICES, ICT_HEAD_FACES = 11248, 11144


def read_obj(path):
    vertices, faces = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("v "):
                vertices.append([float(t) for t in line.split()[1:4]])
            elif line.startswith("f "):
                faces.append([int(t.split("/")[0]) - 1 for t in line.split()[1:]])
    return np.asarray(vertices), faces


def boundary_loops(faces):
    count = {}
    for f in faces:
        for a, b in zip(f, f[1:] + f[:1]):
            count[(min(a, b), max(a, b))] = count.get((min(a, b), max(a, b)), 0) + 1
    successor = {a: b for f in faces for a, b in zip(f, f[1:] + f[:1]) if count[(min(a, b), max(a, b))] == 1}
    loops, seen = [], set()
    for start in successor:
        if start in seen:
            continue
        loop, v = [], start
        while v not in seen:
            seen.add(v)
            loop.append(v)
            v = successor[v]
        loops.append(loop)
    return loops


def convert_ict(obj, out):
    vertices, faces = read_obj(obj)
    tip, top = vertices[ICT_NOSE_TIP] / 100, vertices[ICT_NOSE_TOP] / 100
    faces = faces[:ICT_HEAD_FACES]
    vertices = vertices[:ICT_HEAD_VERTICES]
    eye_level = top[1] * 100
    faces = [f for f in faces if min(vertices[i][1] for i in f) > eye_level - 15.5]
    triangles = [t for f in faces for t in ([f[0], f[1], f[2]], [f[0], f[2], f[3]])]
    vertices = [list(v) for v in vertices]
    loops = sorted(boundary_loops(faces), key=lambda l: np.mean([vertices[i][1] for i in l]))
    for loop in loops[1:]:  # the lowest is the neck's cut, left open
        centre = len(vertices)
        vertices.append(list(np.mean([vertices[i] for i in loop], axis=0)))
        # A fan with the loop's own orientation reversed, so it faces out as the skin does.
        triangles += [[centre, loop[(k + 1) % len(loop)], loop[k]] for k in range(len(loop))]
    v = np.asarray(vertices) / 100
    used = sorted({i for t in triangles for i in t})
    remap = {old: new for new, old in enumerate(used)}
    v, triangles = v[used], [[remap[i] for i in t] for t in triangles]
    midline = v[(np.abs(v[:, 0]) < 0.0015) & (v[:, 1] > top[1]) & (v[:, 1] < top[1] + 0.03) & (v[:, 2] > 0.05)]
    nasion = midline[np.argmin(midline[:, 2])]
    tragions = {}
    for side, name in ((1, "leftTragion"), (-1, "rightTragion")):
        z, y = ICT_TRAGION_ZY
        near = (side * v[:, 0] > 0.05) & (np.hypot(v[:, 2] - z / 100, v[:, 1] - y / 100) < 0.0015)
        candidates = v[near]
        tragions[name] = candidates[np.argmax(side * candidates[:, 0])].tolist()
    write_ply(os.path.join(out, "ict.ply"), v, triangles)
    landmarks = {"nasion": nasion.tolist(), "noseTip": tip.tolist(), **tragions}
    with open(os.path.join(out, "ict.landmarks.json"), "w") as f:
        json.dump(landmarks, f)
    with open(os.path.join(out, "ict.annotated.json"), "w") as f:
        json.dump({"annotated": ["noseTip"], "derived": ["nasion", "leftTragion", "rightTragion"],
                   "tragionsAre": "the notch above the tragus, read off a rendering (about 2 mm)"}, f)
    print(f"ict: {len(v)} vertices, {len(triangles)} triangles")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    data = os.path.join(os.path.dirname(mne.__file__), "data", "fsaverage")
    convert("fsaverage", os.path.join(data, "fsaverage-head.fif"), os.path.join(data, "fsaverage-fiducials.fif"), out)
    if "--testing-data" in sys.argv:
        root = sys.argv[sys.argv.index("--testing-data") + 1]
        bem = os.path.join(root, "subjects", "sample", "bem")
        convert("sample", os.path.join(bem, "sample-head.fif"), os.path.join(bem, "sample-fiducials.fif"), out)
    if "--ict" in sys.argv:
        convert_ict(sys.argv[sys.argv.index("--ict") + 1], out)


if __name__ == "__main__":
    main()
