"""Turns the tsdf-fusion sample (frame-NNNNNN.color.png, .depth.png in millimetres, .pose.txt
camera-to-world 4x4, intrinsics.K.txt) into the TUM RGB-D layout that `headscan import-tum`
reads: rgb.txt, depth.txt, associations.txt, groundtruth.txt (t tx ty tz qx qy qz qw) and
intrinsics.json. Frame N is taken at N/30 s (the sample keeps every second frame of a 30 fps
capture). Usage: convert.py SAMPLE_DIR OUT_DIR [--fill-gaps]

The sample's depth was reprojected from a coarser sensor onto the colour camera: a third of its
pixels hold depth, the rest lie in lines one pixel wide and small holes. --fill-gaps gives each
empty pixel with at least three filled neighbours (of eight) lying within 2 cm of each other
their median, and leaves the rest empty (needs numpy and open3d, for 16-bit PNGs)."""
import json
import math
import os
import shutil
import sys


def quaternion(r):
    """(qx, qy, qz, qw) of a rotation matrix (rows)."""
    t = r[0][0] + r[1][1] + r[2][2]
    if t > 0:
        s = math.sqrt(t + 1) * 2
        return ((r[2][1] - r[1][2]) / s, (r[0][2] - r[2][0]) / s, (r[1][0] - r[0][1]) / s, s / 4)
    i = max(range(3), key=lambda k: r[k][k])
    j, k = (i + 1) % 3, (i + 2) % 3
    s = math.sqrt(1 + r[i][i] - r[j][j] - r[k][k]) * 2
    q = [0.0, 0.0, 0.0, (r[k][j] - r[j][k]) / s]
    q[i] = s / 4
    q[j] = (r[j][i] + r[i][j]) / s
    q[k] = (r[k][i] + r[i][k]) / s
    return tuple(q)


def fill_gaps(path):
    import numpy as np
    import open3d as o3d
    d = np.asarray(o3d.io.read_image(path)).astype(np.int32)
    h, w = d.shape
    pad = np.pad(d, 1)
    near = np.stack([pad[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx])
    valid = near > 0
    count = valid.sum(0)
    masked = np.where(valid, near, np.nan)
    with np.errstate(all="ignore"):
        median = np.nanmedian(masked, 0)
        spread = np.nanmax(masked, 0) - np.nanmin(masked, 0)
    fill = (d == 0) & (count >= 3) & (spread <= 20)
    d[fill] = np.round(median[fill]).astype(np.int32)
    o3d.io.write_image(path, o3d.geometry.Image(d.astype(np.uint16)))
    return fill.mean()


def main(sample, out, fill=False):
    os.makedirs(os.path.join(out, "rgb"), exist_ok=True)
    os.makedirs(os.path.join(out, "depth"), exist_ok=True)
    numbers = sorted(int(f[6:12]) for f in os.listdir(sample) if f.endswith(".color.png"))
    rgb, depth, assoc, truth, filled = [], [], [], [], []
    for n in numbers:
        t = "%.6f" % (n / 30)
        shutil.copyfile(os.path.join(sample, "frame-%06d.color.png" % n), os.path.join(out, "rgb", t + ".png"))
        shutil.copyfile(os.path.join(sample, "frame-%06d.depth.png" % n), os.path.join(out, "depth", t + ".png"))
        if fill:
            filled.append(fill_gaps(os.path.join(out, "depth", t + ".png")))
        rgb.append("%s rgb/%s.png" % (t, t))
        depth.append("%s depth/%s.png" % (t, t))
        assoc.append("%s rgb/%s.png %s depth/%s.png" % (t, t, t, t))
        with open(os.path.join(sample, "frame-%06d.pose.txt" % n)) as f:
            m = [[float(x) for x in line.split()] for line in f if line.strip()]
        q = quaternion([row[:3] for row in m[:3]])
        truth.append("%s %.9f %.9f %.9f %.9f %.9f %.9f %.9f" % ((t, m[0][3], m[1][3], m[2][3]) + q))
    for name, lines in (("rgb.txt", rgb), ("depth.txt", depth), ("associations.txt", assoc), ("groundtruth.txt", truth)):
        with open(os.path.join(out, name), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(sample, "intrinsics.K.txt")) as f:
        k = [[float(x) for x in line.split()] for line in f if line.strip()]
    with open(os.path.join(out, "intrinsics.json"), "w") as f:
        json.dump({"fx": k[0][0], "fy": k[1][1], "cx": k[0][2], "cy": k[1][2], "width": 640, "height": 480, "depthScale": 1000}, f)
    print("%d frames, %s%s" % (len(numbers), out, ", %.0f %% of pixels filled" % (100 * sum(filled) / len(filled)) if filled else ""))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], "--fill-gaps" in sys.argv[3:])
