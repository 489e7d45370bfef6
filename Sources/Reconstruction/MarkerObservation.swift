import Geometry
import Imaging
import Markers
import Recording

/// One marker seen in one frame: its image corners and its corners in the camera frame.
public struct MarkerObservation: Sendable, Hashable {
    /// Marker ID.
    public var id: Int
    /// Image corners in pixels, OpenCV order.
    public var pixels: [SIMD2<Double>]
    /// Corners in the camera frame, metres, same order.
    public var corners: [SIMD3<Double>]
    /// Whether the corners come from the depth map (accurate) or from the image alone (PnP,
    /// whose distance is uncertain by a few per cent for a marker this small).
    public var fromDepth: Bool
    /// Standard deviation of the corners' depth (metres) when they come from the depth map:
    /// what the sensor's noise at this distance and angle leaves after the plane fit.
    public var depthSigma: Double

    /// An observation from its parts; `depthSigma` defaults to a TrueDepth corner at scanning
    /// distance (about 35 cm, head-on).
    public init(id: Int, pixels: [SIMD2<Double>], corners: [SIMD3<Double>], fromDepth: Bool, depthSigma: Double = 0.0003) {
        self.id = id
        self.pixels = pixels
        self.corners = corners
        self.fromDepth = fromDepth
        self.depthSigma = depthSigma
    }
}

extension MarkerObservation {
    /// The observation as the corrected pinhole camera `k` sees it: each corner moved onto
    /// its pixel's corrected ray at the same depth (the plane through the marker's depth moves
    /// with the rays to within a second-order amount for corrections of a few per cent).
    func seen(through k: CameraIntrinsics) -> MarkerObservation {
        var out = self
        out.corners = zip(pixels, corners).map { pixel, corner in
            SIMD3((pixel.x - k.cx) / k.fx * corner.z, (pixel.y - k.cy) / k.fy * corner.z, corner.z)
        }
        return out
    }
}

/// Lifts detected marker corners into 3D.
///
/// Single-pixel depth at a corner is unreliable: the corner sits on the sticker's edge, where
/// the sensor mixes sticker and scalp or loses depth. The sticker is flat, so a plane fitted to
/// all depth pixels well inside the quad, intersected with the rays through the sub-pixel
/// corners, averages the depth noise over a hundred pixels and keeps the image accuracy of
/// the corners.
public struct MarkerLifter: Sendable {
    /// Printed side length of the markers, metres.
    public var markerSide: Double
    /// Printed sides of the markers whose side differs from `markerSide`, metres, by ID.
    public var sides: [Int: Double] = [:]
    /// Fewest depth pixels for a plane fit; below this PnP is used.
    public var minimumDepthPixels = 24
    /// Fraction of the quad (about its centre) sampled for the plane; the margin keeps clear
    /// of the depth edge at the sticker's border.
    public var interiorFraction = 0.8
    /// The depth sensor's noise, which decides how sure each lifted corner's depth is.
    public var depthNoise = DepthNoiseModel.trueDepth

    /// A lifter for markers of the given side.
    public init(markerSide: Double, sides: [Int: Double] = [:]) {
        self.markerSide = markerSide
        self.sides = sides
    }

    /// A lifter for the markers of `layout`, each with its own printed side.
    public init(layout: CapLayout) {
        self.init(markerSide: layout.markerSide, sides: layout.sideOverrides)
    }

    /// The printed side of marker `id`, metres.
    public func side(of id: Int) -> Double { sides[id] ?? markerSide }

    /// 3D corners of every detection; detections that fail both routes are left out.
    public func lift(
        _ detections: [DetectedMarker], depth: DepthImage, colorIntrinsics: CameraIntrinsics, depthIntrinsics: CameraIntrinsics,
        scratch: inout [SIMD3<Double>]
    ) -> [MarkerObservation] {
        var out: [MarkerObservation] = []
        out.reserveCapacity(detections.count)
        for marker in detections {
            let rays = marker.corners.map { p in
                SIMD3((p.x - colorIntrinsics.cx) / colorIntrinsics.fx, (p.y - colorIntrinsics.cy) / colorIntrinsics.fy, 1)
            }
            let side = side(of: marker.id)
            if let (corners, sigma) = fromDepth(rays: rays, depth: depth, intrinsics: depthIntrinsics, side: side, scratch: &scratch) {
                out.append(MarkerObservation(id: marker.id, pixels: marker.corners, corners: corners, fromDepth: true, depthSigma: sigma))
            } else if let corners = fromImage(rays: rays, side: side) {
                out.append(MarkerObservation(id: marker.id, pixels: marker.corners, corners: corners, fromDepth: false))
            }
        }
        return out
    }

    /// Plane through the depth inside the quad, then ray intersection, with the corners' depth
    /// uncertainty; nil when depth is missing, the plane is not trustworthy or the result is
    /// not the printed size.
    func fromDepth(
        rays: [SIMD3<Double>], depth: DepthImage, intrinsics k: CameraIntrinsics, side: Double, scratch points: inout [SIMD3<Double>]
    ) -> (corners: [SIMD3<Double>], depthSigma: Double)? {
        // The quad in depth pixels, shrunk about its centre.
        var quad = [SIMD2<Double>](repeating: .zero, count: 4)
        for i in 0..<4 { quad[i] = SIMD2(rays[i].x * k.fx + k.cx, rays[i].y * k.fy + k.cy) }
        let centre = (quad[0] + quad[1] + quad[2] + quad[3]) / 4
        for i in 0..<4 { quad[i] = centre + (quad[i] - centre) * interiorFraction }
        let minX = max(0, Int(quad.map(\.x).min()!.rounded(.up))), maxX = min(depth.width - 1, Int(quad.map(\.x).max()!))
        let minY = max(0, Int(quad.map(\.y).min()!.rounded(.up))), maxY = min(depth.height - 1, Int(quad.map(\.y).max()!))
        guard minX <= maxX, minY <= maxY else { return nil }
        // Signed area decides which side of each edge is inside (the detector's winding may
        // be either way after mirroring).
        var area = 0.0
        for i in 0..<4 { let a = quad[i], b = quad[(i + 1) % 4]; area += a.x * b.y - b.x * a.y }
        let sign = area >= 0 ? 1.0 : -1.0
        points.removeAll(keepingCapacity: true)
        depth.pixels.withUnsafeBufferPointer { buffer in
            for y in minY...maxY {
                for x in minX...maxX {
                    let z = buffer[y * depth.width + x]
                    guard z.isFinite, z > 0 else { continue }
                    let p = SIMD2(Double(x), Double(y))
                    var inside = true
                    for i in 0..<4 {
                        let a = quad[i], e = quad[(i + 1) % 4] - a, d = p - a
                        if sign * (e.x * d.y - e.y * d.x) < 0 { inside = false; break }
                    }
                    if inside { points.append(k.unproject(p, depth: Double(z))) }
                }
            }
        }
        guard points.count >= minimumDepthPixels else { return nil }
        guard var plane = fitPlane(points[...]) else { return nil }
        var kept = points
        // Reject pixels off the plane (hair, the sticker's lifted edge, mixed pixels) and refit.
        for _ in 0..<2 {
            var residuals = points.map { abs(dot($0 - plane.point, plane.normal)) }
            let middle = Statistics.orderStatistic(&residuals, rank: residuals.count / 2)
            let limit = max(0.0006, 3 * 1.4826 * middle)
            kept = points.filter { abs(dot($0 - plane.point, plane.normal)) <= limit }
            guard kept.count >= minimumDepthPixels, let refit = fitPlane(kept[...]) else { return nil }
            plane = refit
        }
        var corners = [SIMD3<Double>](repeating: .zero, count: 4)
        for i in 0..<4 {
            let denominator = dot(plane.normal, rays[i])
            // Grazing views make the intersection ill-conditioned.
            guard abs(denominator) > 0.25 * length(rays[i]) else { return nil }
            corners[i] = rays[i] * (dot(plane.normal, plane.point) / denominator)
        }
        guard hasPrintedSize(corners, side: side) else { return nil }
        return (corners, cornerDepthSigma(corners, plane: plane, fitted: kept))
    }

    /// The RMS over the four corners of their depth uncertainty on the fitted plane.
    private func cornerDepthSigma(_ corners: [SIMD3<Double>], plane: FittedPlane, fitted: [SIMD3<Double>]) -> Double {
        func inPlane(_ p: SIMD3<Double>) -> Double {
            let d = p - plane.point
            let along = dot(d, plane.normal)
            return max(0, dot(d, d) - along * along)
        }
        let spread = fitted.reduce(0) { $0 + inPlane($1) }
        guard spread > 0 else { return .infinity }
        let centre = (corners[0] + corners[1] + corners[2] + corners[3]) / 4
        let cosine = dot(plane.normal, centre) / length(centre)
        var variance = 0.0
        for corner in corners {
            let sigma = depthNoise.planePointSigma(depth: corner.z, cosine: cosine, pixels: fitted.count, leverage: inPlane(corner) / spread)
            variance += sigma * sigma / 4
        }
        return variance.squareRoot()
    }

    /// Planar pose from the homography between the printed square and the normalised image
    /// corners: `H ~ [r1 r2 t]`, so `H (X, Y, 1) / λ` is the corner in the camera frame.
    func fromImage(rays: [SIMD3<Double>], side: Double) -> [SIMD3<Double>]? {
        let h = side / 2
        let square: [SIMD2<Double>] = [SIMD2(-h, h), SIMD2(h, h), SIMD2(h, -h), SIMD2(-h, -h)]
        guard let homography = try? Homography.fit(from: square, to: rays.map { SIMD2($0.x, $0.y) }) else { return nil }
        let m = homography.matrix
        let c0 = SIMD3(m[0, 0], m[1, 0], m[2, 0]), c1 = SIMD3(m[0, 1], m[1, 1], m[2, 1])
        var lambda = (length(c0) + length(c1)) / 2
        guard lambda > 0 else { return nil }
        if m[2, 2] < 0 { lambda = -lambda }
        let corners = square.map { q in m * SIMD3(q.x, q.y, 1) / lambda }
        guard corners.allSatisfy({ $0.z > 0 }) else { return nil }
        return corners
    }

    private func hasPrintedSize(_ corners: [SIMD3<Double>], side printed: Double) -> Bool {
        for i in 0..<4 {
            let side = distance(corners[i], corners[(i + 1) % 4])
            if abs(side - printed) > 0.15 * printed { return false }
        }
        return true
    }
}

/// A plane through `point` with unit `normal`.
struct FittedPlane {
    var point: SIMD3<Double>
    var normal: SIMD3<Double>
}

/// Total least squares plane: centroid and the covariance's smallest eigenvector.
func fitPlane(_ points: ArraySlice<SIMD3<Double>>) -> FittedPlane? {
    guard points.count >= 3 else { return nil }
    var c = SIMD3<Double>.zero
    for p in points { c += p }
    c /= Double(points.count)
    var xx = 0.0, xy = 0.0, xz = 0.0, yy = 0.0, yz = 0.0, zz = 0.0
    for p in points {
        let d = p - c
        xx += d.x * d.x; xy += d.x * d.y; xz += d.x * d.z
        yy += d.y * d.y; yz += d.y * d.z; zz += d.z * d.z
    }
    let eigen = SymmetricEigen.decompose([xx, xy, xz, xy, yy, yz, xz, yz, zz], size: 3)
    guard eigen.values[1] > 0 else { return nil }
    let v = eigen.vectors[0]
    return FittedPlane(point: c, normal: normalized(SIMD3(v[0], v[1], v[2])))
}

@inline(__always)
func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { length(a - b) }
