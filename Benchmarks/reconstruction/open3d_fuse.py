#!/usr/bin/env python3
"""Fuses HeadScan's keyframes with Open3D's ScalableTSDFVolume, for comparison with our TSDF.

Usage: open3d_fuse.py POSES.json DEPTH_DIR OUT.ply
POSES.json is `headscan reconstruct --poses-out` (worldFromCamera per keyframe, depth intrinsics,
voxel size, truncation and the head region); DEPTH_DIR holds the keyframes' raw depth from
`--keyframe-depth-out` (float32 metres, NaN = none). Depth outside the head region is cleared
first, as our fusion does, so both fuse exactly the same measurements. Prints JSON with the
integration and meshing times and the mesh size.
"""
import json, os, sys, time
import numpy as np
import open3d as o3d


def main():
    poses_path, depth_dir, out = sys.argv[1:4]
    spec = json.load(open(poses_path))
    fx, fy, cx, cy, w, h = spec['intrinsics']
    w, h = int(w), int(h)
    intrinsic = o3d.camera.PinholeCameraIntrinsic(w, h, fx, fy, cx, cy)
    volume = o3d.pipelines.integration.ScalableTSDFVolume(
        voxel_length=spec['voxelSize'], sdf_trunc=spec['truncation'],
        color_type=o3d.pipelines.integration.TSDFVolumeColorType.NoColor)
    centre, radius = np.array(spec['regionCentre']), spec['regionRadius']
    us, vs = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    rays = np.stack([(us - cx) / fx, (vs - cy) / fy, np.ones_like(us)], -1)
    gray = o3d.geometry.Image(np.zeros((h, w), dtype=np.uint8))
    integrate_seconds = 0.0
    fused = 0
    for pose in spec['poses']:
        world_from_camera = np.array(pose['worldFromCamera']).reshape(4, 4)
        raw = np.fromfile(os.path.join(depth_dir, '%05d.f32' % pose['frame']), dtype='<f4').reshape(h, w)
        # The raw depth at the scale the poses are in (the stickers' printed size may have set it).
        depth = np.where(np.isfinite(raw) & (raw > 0), raw * spec.get('depthScale', 1.0), 0).astype(np.float32)
        # The head region: the same segmentation as ours (a sphere about the marker cap).
        world = rays * depth[..., None].astype(np.float64) @ world_from_camera[:3, :3].T + world_from_camera[:3, 3]
        depth[((world - centre) ** 2).sum(-1) > radius * radius] = 0
        rgbd = o3d.geometry.RGBDImage.create_from_color_and_depth(
            gray, o3d.geometry.Image(depth), depth_scale=1.0, depth_trunc=10.0, convert_rgb_to_intensity=False)
        # Open3D wants the extrinsic as cameraFromWorld.
        extrinsic = np.linalg.inv(world_from_camera)
        start = time.perf_counter()
        volume.integrate(rgbd, intrinsic, extrinsic)
        integrate_seconds += time.perf_counter() - start
        fused += 1
    start = time.perf_counter()
    mesh = volume.extract_triangle_mesh()
    mesh_seconds = time.perf_counter() - start
    if len(mesh.triangles) == 0:
        sys.exit('Open3D produced an empty mesh; check the depth scale, truncation and extrinsics')
    o3d.io.write_triangle_mesh(out, mesh, write_ascii=False)
    print(json.dumps({
        'keyframes': fused, 'integrationSeconds': integrate_seconds, 'meshingSeconds': mesh_seconds,
        'vertices': len(mesh.vertices), 'triangles': len(mesh.triangles),
        'threads': os.environ.get('OMP_NUM_THREADS', 'all'),
    }, sort_keys=True))


if __name__ == '__main__':
    main()
