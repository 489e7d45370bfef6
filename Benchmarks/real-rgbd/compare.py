"""Camera poses of a real RGB-D recording (TUM layout, groundtruth.txt as reference) placed
three ways on the same frames, against the reference:
  - HeadScan: `reconstruct --without-markers --whole-view` (frame-to-model, depth only where
    the first view shows no print), its poses from --poses-out;
  - Open3D odometry: RGB-D odometry (hybrid colour and depth term) frame to frame, chained;
  - Open3D pose graph: the same edges plus an edge to every fifth earlier frame, optimised
    as Open3D's reconstruction system optimises a fragment.
Prints one JSON line per method: ATE (positions after the best rigid fit, no scale), drift
over consecutive frames (translation mm, rotation degrees), time.
Usage: compare.py TUM_DIR HEADSCAN_POSES.json|- HEADSCAN_SECONDS [DEPTH_UNITS_PER_METRE]"""
import json
import sys
import time

import numpy as np
import open3d as o3d


def read_list(path):
    rows = []
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            rows.append(line.split())
    return rows


def reference(folder):
    poses = []
    for r in read_list(folder + "/groundtruth.txt"):
        t = np.array([float(x) for x in r[1:4]]); qx, qy, qz, qw = (float(x) for x in r[4:8])
        R = np.array([[1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)],
                      [2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)],
                      [2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)]])
        m = np.eye(4); m[:3, :3] = R; m[:3, 3] = t
        poses.append(m)
    return poses


def rotation_degrees(R):
    return float(np.degrees(np.arccos(np.clip((np.trace(R) - 1) / 2, -1, 1))))


def metrics(name, estimated, truth, seconds, placed=None):
    """estimated: {frame index: 4x4 camera-to-world}; truth: list of 4x4."""
    idx = sorted(estimated)
    a = np.array([estimated[i][:3, 3] for i in idx]); b = np.array([truth[i][:3, 3] for i in idx])
    ca, cb = a.mean(0), b.mean(0)
    u, _, vt = np.linalg.svd((a - ca).T @ (b - cb))
    d = np.sign(np.linalg.det(vt.T @ u.T))
    R = vt.T @ np.diag([1, 1, d]) @ u.T
    ate = np.linalg.norm((a - ca) @ R.T + cb - b, axis=1)
    steps_t, steps_r = [], []
    for i, j in zip(idx, idx[1:]):
        if j != i + 1:
            continue
        e = np.linalg.inv(np.linalg.inv(truth[i]) @ truth[j]) @ (np.linalg.inv(estimated[i]) @ estimated[j])
        steps_t.append(np.linalg.norm(e[:3, 3]) * 1000); steps_r.append(rotation_degrees(e[:3, :3]))
    path = sum(np.linalg.norm(truth[j][:3, 3] - truth[i][:3, 3]) for i, j in zip(range(len(truth)), range(1, len(truth))))
    return {"method": name, "framesPlaced": len(idx), "frames": len(truth), "ateRMSmm": round(float(np.sqrt((ate ** 2).mean())) * 1000, 2),
            "ateMaxmm": round(float(ate.max()) * 1000, 2), "stepTranslationMedianmm": round(float(np.median(steps_t)), 2),
            "stepRotationMedianDeg": round(float(np.median(steps_r)), 3), "pathLengthmm": round(path * 1000, 1),
            "seconds": round(seconds, 2)}


def rgbd_images(folder, scale):
    intr = json.load(open(folder + "/intrinsics.json"))
    camera = o3d.camera.PinholeCameraIntrinsic(intr["width"], intr["height"], intr["fx"], intr["fy"], intr["cx"], intr["cy"])
    images = []
    for r in read_list(folder + "/associations.txt"):
        color = o3d.io.read_image(folder + "/" + r[1]); depth = o3d.io.read_image(folder + "/" + r[3])
        images.append(o3d.geometry.RGBDImage.create_from_color_and_depth(color, depth, depth_scale=scale, depth_trunc=1.5,
                                                                         convert_rgb_to_intensity=True))
    return images, camera


def odometry(source, target, camera, init=np.eye(4)):
    option = o3d.pipelines.odometry.OdometryOption()
    option.depth_diff_max = 0.03
    ok, trans, info = o3d.pipelines.odometry.compute_rgbd_odometry(
        source, target, camera, init, o3d.pipelines.odometry.RGBDOdometryJacobianFromHybridTerm(), option)
    return ok, trans, info


def open3d_methods(folder, truth, scale):
    images, camera = rgbd_images(folder, scale)
    started = time.perf_counter()
    chained = {0: np.eye(4)}
    graph = o3d.pipelines.registration.PoseGraph()
    graph.nodes.append(o3d.pipelines.registration.PoseGraphNode(np.eye(4)))
    pose = np.eye(4)
    for i in range(1, len(images)):
        ok, trans, info = odometry(images[i], images[i - 1], camera)
        if not ok:
            trans, info = np.eye(4), np.eye(6)
        pose = pose @ trans
        chained[i] = pose.copy()
        graph.nodes.append(o3d.pipelines.registration.PoseGraphNode(pose.copy()))
        graph.edges.append(o3d.pipelines.registration.PoseGraphEdge(i, i - 1, trans, info, uncertain=False))
    odometry_seconds = time.perf_counter() - started
    for i in range(5, len(images)):
        for j in range(i - 5, -1, -5):
            init = np.linalg.inv(chained[j]) @ chained[i]
            ok, trans, info = odometry(images[i], images[j], camera, init)
            if ok:
                graph.edges.append(o3d.pipelines.registration.PoseGraphEdge(i, j, trans, info, uncertain=True))
    o3d.pipelines.registration.global_optimization(
        graph, o3d.pipelines.registration.GlobalOptimizationLevenbergMarquardt(),
        o3d.pipelines.registration.GlobalOptimizationConvergenceCriteria(),
        o3d.pipelines.registration.GlobalOptimizationOption(max_correspondence_distance=0.03, edge_prune_threshold=0.25,
                                                             reference_node=0))
    graph_seconds = time.perf_counter() - started
    optimised = {i: np.array(n.pose) for i, n in enumerate(graph.nodes)}
    return [metrics("open3d-odometry", chained, truth, odometry_seconds),
            metrics("open3d-posegraph", optimised, truth, graph_seconds)]


def main(folder, poses_path, seconds, scale):
    truth = reference(folder)
    # HEADSCAN_POSES "-": Open3D's alone (on frames HeadScan could not place).
    ours = {} if poses_path == "-" else {p["frameIndex"]: np.array(p["worldFromCamera"]).reshape(4, 4) for p in json.load(open(poses_path))}
    # Both in the first frame's camera frame; the reference is too once made relative to it.
    first = min(ours) if ours else 0
    truth = [np.linalg.inv(truth[first]) @ m for m in truth]
    if ours:
        print(json.dumps(metrics("headscan", ours, truth, seconds)))
    for row in open3d_methods(folder, truth, scale):
        print(json.dumps(row))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]) if len(sys.argv) > 4 else 1000.0)
