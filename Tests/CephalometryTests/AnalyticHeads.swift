import Foundation
import Geometry

@testable import Cephalometry

/// An ellipsoidal head with closed-form measures: horizontal slices are the ellipse
/// `centre + L·(cos t, sin t)` scaled by height, shifted sideways by `lean` per metre of height
/// (a sheared ellipsoid), widest at `equator` above the reference plane z = 0.
struct AnalyticHead {
    /// The 2x2 map (row-major) from the unit circle to the widest outline, metres.
    var l: (xx: Double, xy: Double, yx: Double, yy: Double)
    var centre: SIMD2<Double> = .zero
    var lean: SIMD2<Double> = .zero
    var equator = 0.03
    var crown = 0.09

    /// An ellipse with half-width `a` and half-length `b`, sheared by `shear` (x += shear·y).
    init(halfWidth a: Double, halfLength b: Double, shear: Double = 0) {
        l = (a, shear * b, 0, b)
    }

    /// Landmarks on the reference plane; only their frame matters for the measures.
    var landmarks: HeadLandmarks {
        HeadLandmarks(
            nasion: SIMD3(0, 0.085, 0), noseTip: SIMD3(0, 0.1, -0.018),
            leftTragion: SIMD3(-0.065, 0, 0), rightTragion: SIMD3(0.065, 0, 0))
    }

    /// The surface as rings of constant elevation; an even ring count puts one on the equator.
    func mesh(around: Int = 360, rings: Int = 60) -> TriangleMesh {
        var mesh = TriangleMesh()
        for k in 1..<rings {
            let psi = -Double.pi / 2 + Double(k) * Double.pi / Double(rings)
            let z = equator + crown * sin(psi)
            for i in 0..<around {
                let t = Double(i) / Double(around) * 2 * Double.pi
                let p = SIMD2(cos(t), sin(t)) * cos(psi)
                let xy = SIMD2(l.xx * p.x + l.xy * p.y, l.yx * p.x + l.yy * p.y) + centre + lean * (z - equator)
                mesh.vertices.append(SIMD3(xy.x, xy.y, z))
            }
        }
        let bottom = Int32(mesh.vertices.count)
        mesh.vertices.append(SIMD3(centre.x + lean.x * -crown, centre.y + lean.y * -crown, equator - crown))
        let top = Int32(mesh.vertices.count)
        mesh.vertices.append(SIMD3(centre.x + lean.x * crown, centre.y + lean.y * crown, equator + crown))
        func v(_ ring: Int, _ i: Int) -> Int32 { Int32(ring * around + i % around) }
        for ring in 0..<(rings - 2) {
            for i in 0..<around {
                mesh.faces.append(SIMD3(v(ring, i), v(ring, i + 1), v(ring + 1, i + 1)))
                mesh.faces.append(SIMD3(v(ring, i), v(ring + 1, i + 1), v(ring + 1, i)))
            }
        }
        for i in 0..<around {
            mesh.faces.append(SIMD3(bottom, v(0, i + 1), v(0, i)))
            mesh.faces.append(SIMD3(top, v(rings - 2, i), v(rings - 2, i + 1)))
        }
        return mesh
    }

    /// Length of the chord through the origin along unit `u` (metres).
    func chord(_ u: SIMD2<Double>) -> Double {
        // Solve |L⁻¹(t·u − centre)| = 1 for t; the chord is the distance between the roots.
        let det = l.xx * l.yy - l.xy * l.yx
        func inverse(_ v: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2(l.yy * v.x - l.xy * v.y, -l.yx * v.x + l.xx * v.y) / det
        }
        let p = inverse(u), q = inverse(-centre)
        let a = (p * p).sum(), b = (p * q).sum(), c = (q * q).sum() - 1
        return 2 * (b * b - a * c).squareRoot() / a
    }

    /// The closed-form measures of the widest outline.
    var expected: HeadMeasurement {
        let deg = Double.pi / 180
        // M = L·Lᵀ: its diagonal gives the extents, its eigenvalues the squared semi-axes.
        let mxx = l.xx * l.xx + l.xy * l.xy, myy = l.yx * l.yx + l.yy * l.yy, mxy = l.xx * l.yx + l.xy * l.yy
        let mean = (mxx + myy) / 2, spread = (((mxx - myy) / 2) * ((mxx - myy) / 2) + mxy * mxy).squareRoot()
        let s1 = (mean + spread).squareRoot(), s2 = (mean - spread).squareRoot()
        return HeadMeasurement(
            diagonalA: chord(SIMD2(cos(120 * deg), sin(120 * deg))), diagonalB: chord(SIMD2(cos(60 * deg), sin(60 * deg))),
            length: 2 * myy.squareRoot(), width: 2 * mxx.squareRoot(), perimeter: ramanujan(s1, s2), sliceHeight: equator)
    }
}

/// Ramanujan's second approximation of an ellipse's perimeter.
func ramanujan(_ a: Double, _ b: Double) -> Double {
    let h = ((a - b) / (a + b)) * ((a - b) / (a + b))
    return Double.pi * (a + b) * (1 + 3 * h / (10 + (4 - 3 * h).squareRoot()))
}

/// A pose far from the head frame, so tests exercise building the frame from landmarks.
let oddPose = RigidTransform(rotation: Rotation3(yaw: 0.7, pitch: -0.4, roll: 1.1), translation: SIMD3(0.3, -1.2, 0.55))
