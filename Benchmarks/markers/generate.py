#!/usr/bin/env python3
"""Generates marker test images with exact ground truth.

Markers (DICT_4X4_100, the cap's dictionary) are drawn half by OpenCV's generateImageMarker
and half by our renderer (PNG files from `headscan markers export`), then warped in 3D
perspective onto 640x480 frames. Everything is drawn at 4x resolution and area-averaged
down, so edges are anti-aliased like a camera's; truth corners are the exact projected
corners in OpenCV's pixel convention (pixel centres at integers).

Usage: generate.py OURS_MARKER_DIR OUT_DIR [--per-category N] [--seed S]
"""
import argparse
import json
import math
import os

import cv2
import numpy as np

WIDTH, HEIGHT, SCALE = 640, 480, 4
DICTIONARY = cv2.aruco.DICT_4X4_100
CELLS = 6  # 4x4 code plus the border
SOURCE_SIDE = CELLS * 20

# name: (markers per image, side range px, max tilt deg, min tilt deg)
CATEGORIES = {
    "sharp": (20, (20, 80), 45, 0),
    "small": (30, (12, 20), 30, 0),
    "tilted": (16, (24, 80), 60, 45),
    "blur": (20, (16, 60), 45, 0),
    "noise": (20, (16, 60), 45, 0),
    "uneven_light": (20, (16, 60), 45, 0),
    "occluded": (16, (20, 70), 45, 0),
    "textured": (18, (14, 60), 45, 0),
    "dense50": (50, (20, 36), 40, 0),
    "empty": (0, (0, 0), 0, 0),
}


def source_marker(marker_id, ours_dir, use_ours):
    if use_ours:
        image = cv2.imread(os.path.join(ours_dir, "{}.png".format(marker_id)), cv2.IMREAD_GRAYSCALE)
        if image is None or image.shape[0] != SOURCE_SIDE:
            raise SystemExit("missing or wrong-sized marker {} in {}".format(marker_id, ours_dir))
        return image
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    return cv2.aruco.generateImageMarker(dictionary, marker_id, SOURCE_SIDE, borderBits=1)


def projected_quad(rng, centre, side, tilt_deg):
    """Corners of a square of apparent size `side` seen at `tilt_deg` from its normal."""
    focal = 600.0
    tilt = math.radians(tilt_deg)
    axis_angle = rng.uniform(0, 2 * math.pi)
    axis = np.array([math.cos(axis_angle), math.sin(axis_angle), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    rotation = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * (k @ k)
    spin = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(spin), math.sin(spin)
    half = side / 2
    corners = []
    for x, y in [(-half, -half), (half, -half), (half, half), (-half, half)]:
        p = rotation @ np.array([c * x - s * y, s * x + c * y, 0.0]) + np.array([0, 0, focal])
        corners.append([centre[0] + focal * p[0] / p[2], centre[1] + focal * p[1] / p[2]])
    return np.array(corners)


def background(rng, textured):
    yy, xx = np.mgrid[0:HEIGHT * SCALE, 0:WIDTH * SCALE].astype(np.float32) / SCALE
    base = rng.uniform(90, 190)
    gx, gy = rng.uniform(-0.08, 0.08, 2)
    image = base + gx * (xx - WIDTH / 2) + gy * (yy - HEIGHT / 2)
    if textured:
        noise = rng.normal(0, 1, (HEIGHT // 8, WIDTH // 8)).astype(np.float32)
        noise = cv2.resize(noise, (WIDTH * SCALE, HEIGHT * SCALE), interpolation=cv2.INTER_CUBIC)
        image += 35 * noise
        period = rng.uniform(6, 30) * SCALE
        angle = rng.uniform(0, math.pi)
        image += 40 * np.sign(np.sin((xx * SCALE * math.cos(angle) + yy * SCALE * math.sin(angle)) * 2 * math.pi / period))
        image = np.clip(image, 0, 255).astype(np.uint8)
        # Dark rectangles and blobs: squares in the scene that are not markers.
        for _ in range(rng.integers(15, 40)):
            x, y = rng.uniform(0, WIDTH * SCALE), rng.uniform(0, HEIGHT * SCALE)
            w, h = rng.uniform(8, 120) * SCALE / 2, rng.uniform(8, 120) * SCALE / 2
            box = cv2.boxPoints(((x, y), (w, h), rng.uniform(0, 90))).astype(np.int32)
            cv2.fillPoly(image, [box], int(rng.uniform(0, 255)))
        for _ in range(rng.integers(5, 20)):
            cv2.circle(image, (int(rng.uniform(0, WIDTH * SCALE)), int(rng.uniform(0, HEIGHT * SCALE))),
                       int(rng.uniform(10, 80)), int(rng.uniform(0, 255)), -1)
        return image
    return np.clip(image, 0, 255).astype(np.uint8)


def paste(canvas, source, quad):
    """Warps `source` (with a one-cell white quiet zone) so its outer corners land on `quad`."""
    quiet = SOURCE_SIDE // CELLS
    padded = cv2.copyMakeBorder(source, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=255)
    side = SOURCE_SIDE
    src = np.array([[quiet - 0.5, quiet - 0.5], [quiet + side - 0.5, quiet - 0.5],
                    [quiet + side - 0.5, quiet + side - 0.5], [quiet - 0.5, quiet + side - 0.5]], np.float32)
    dst = ((quad + 0.5) * SCALE - 0.5).astype(np.float32)
    homography = cv2.getPerspectiveTransform(src, dst)
    outline = np.array([[-0.5, -0.5], [padded.shape[1] - 0.5, -0.5],
                        [padded.shape[1] - 0.5, padded.shape[0] - 0.5], [-0.5, padded.shape[0] - 0.5]], np.float32)
    box = cv2.perspectiveTransform(outline[None], homography)[0]
    x0, y0 = np.floor(box.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    local = shift @ homography
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(padded, local, size, flags=cv2.INTER_LINEAR, borderValue=0).astype(np.float32)
    mask = cv2.warpPerspective(np.full(padded.shape, 255, np.uint8), local, size, flags=cv2.INTER_LINEAR,
                               borderValue=0).astype(np.float32) / 255
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    canvas[y0:y1, x0:x1] = np.clip(region * (1 - mask) + warped * mask, 0, 255).astype(np.uint8)


def occlude(rng, canvas, quad):
    """Covers a corner or an edge of the marker with a finger-like blob."""
    centre = quad.mean(axis=0)
    corner = quad[rng.integers(0, 4)]
    point = corner + rng.uniform(0.0, 0.3) * (centre - corner)
    side = np.linalg.norm(quad[1] - quad[0])
    radius = rng.uniform(0.15, 0.3) * side
    colour = int(rng.uniform(60, 220))
    cv2.circle(canvas, (int(point[0] * SCALE), int(point[1] * SCALE)), int(radius * SCALE), colour, -1)


def degrade(rng, image, category):
    image = image.astype(np.float32)
    if category == "blur":
        if rng.uniform() < 0.5:
            image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.7, 1.6))
        else:
            length = int(rng.integers(3, 7))
            kernel = np.zeros((length, length), np.float32)
            kernel[length // 2, :] = 1 / length
            rotation = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1)
            kernel = cv2.warpAffine(kernel, rotation, (length, length))
            image = cv2.filter2D(image, -1, kernel / kernel.sum())
    if category == "uneven_light":
        yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
        cx, cy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
        falloff = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rng.uniform(150, 300) ** 2))
        gain = rng.uniform(0.25, 0.45) + rng.uniform(0.5, 0.75) * falloff
        image = image * gain + rng.uniform(0, 30)
    sigma = {"noise": rng.uniform(6, 14)}.get(category, 1.5)
    image = image + rng.normal(0, sigma, image.shape)
    return np.clip(image + 0.5, 0, 255).astype(np.uint8)


def make_image(rng, category, ours_dir, use_ours):
    count, (low, high), max_tilt, min_tilt = CATEGORIES[category]
    canvas = background(rng, textured=category in ("textured", "empty"))
    markers, placed = [], []
    ids = rng.permutation(100)
    attempts = 0
    while len(markers) < count and attempts < 2000:
        attempts += 1
        side = rng.uniform(low, high)
        radius = side * 0.75 + 3
        centre = (rng.uniform(radius + 4, WIDTH - radius - 4), rng.uniform(radius + 4, HEIGHT - radius - 4))
        if any(math.hypot(centre[0] - c[0], centre[1] - c[1]) < radius + r for c, r in placed):
            continue
        tilt = rng.uniform(min_tilt, max_tilt)
        quad = projected_quad(rng, centre, side, tilt)
        marker_id = int(ids[len(markers)])
        paste(canvas, source_marker(marker_id, ours_dir, use_ours), quad)
        occluded = category == "occluded" and rng.uniform() < 0.5
        if occluded:
            occlude(rng, canvas, quad)
        placed.append((centre, radius))
        markers.append({"id": marker_id, "corners": quad.tolist(), "side": side, "tilt": tilt,
                        "occluded": bool(occluded)})
    small = cv2.resize(canvas, (WIDTH, HEIGHT), interpolation=cv2.INTER_AREA)
    return degrade(rng, small, category), markers


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ours_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--per-category", type=int, default=55)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    os.makedirs(os.path.join(args.out_dir, "images"), exist_ok=True)
    truth = []
    for category in CATEGORIES:
        for index in range(args.per_category):
            use_ours = index % 2 == 0
            image, markers = make_image(rng, category, args.ours_dir, use_ours)
            path = os.path.join(args.out_dir, "images", "{}_{:03d}.png".format(category, index))
            cv2.imwrite(path, image)
            truth.append({"image": os.path.abspath(path), "category": category,
                          "renderer": "ours" if use_ours else "opencv", "markers": markers})
    with open(os.path.join(args.out_dir, "truth.json"), "w") as handle:
        json.dump(truth, handle)
    print("wrote {} images to {}".format(len(truth), args.out_dir))


if __name__ == "__main__":
    main()
