import Foundation
import Geometry

/// Finds nasion, nose tip and both tragions on a reconstructed head from its shape alone.
///
/// The head is looked at from the front and from each side as height maps (0.5 mm cells). In
/// each, a smooth skin surface is fitted robustly, so that what stands out of it, the nose or
/// the ear, is left over:
/// - the nose tip is the nose's most forward point;
/// - the nasion is the deepest point of the face's midline profile between nose and forehead;
/// - the tragion is the middle of the mouth of the notch above the tragus: the ear's front
///   outline has a pocket between the tragus and the crus of the helix, and the line that
///   bridges the pocket touches both; where the middle of the notch (between its flanks, 1 mm
///   behind the mouth) meets that line, on the skin, is the tragion.
///
/// The first search uses the rough orientation from the cap; the landmarks then define the
/// head frame, and the search is repeated twice in it.
public enum LandmarkDetector {
    /// Height-map cell, metres.
    static let cell = 0.0005
    /// Holes in a height map up to twice this many cells across are filled.
    static let holeRounds = 6
    /// What stands this far above the skin belongs to the ear (metres).
    static let earThreshold = 0.001
    /// A raised part inside the notch's pocket of at least this many cells (1 mm²) is a tragus
    /// the outline lost.
    static let minimumTragusCells = 4
    /// The most a notch's pocket may hold, behind its mouth and in front of the ear's outline
    /// (square metres). The notch above the tragus is a few millimetres tall and deep (6 by 6
    /// at most in an adult's ear: a pocket of under 20 mm²); twice that is the concha seen
    /// behind a tragus the outline lost. On drawn heads a notch read right held 11-22 mm², one
    /// read on the concha of a tragus 1.2-1.8 mm above the skin 71-81 mm².
    static let maximumNotchArea = 40e-6
    /// The notch's mouth spans this much (metres): tragus to crus of an infant's ear and more.
    static let notchSpan = 0.0025...0.016
    /// A pocket shallower than this is no notch (metres).
    static let minimumNotchDepth = 0.0005
    /// The notch's middle is taken between its flanks this far behind its mouth (metres).
    static let notchGapDepth = 0.001

    /// The landmarks of `mesh`, which shows a head lying as `orientation` says.
    public static func detect(_ mesh: TriangleMesh, orientation: HeadOrientation) throws(CephalometryError) -> AutomaticLandmarks {
        guard !mesh.faces.isEmpty else { throw .unusableMesh("the mesh has no triangles") }
        var frame = orientation.headFromMesh
        var windows = Windows.coarse(capRim: orientation.capRim)
        var found = try search(mesh, frame: frame, windows: windows)
        for _ in 0..<2 {
            let inMesh = found.transformed(by: frame.inverse)
            frame = try HeadFrame(inMesh.landmarks).headFromMesh
            windows = Windows.around(found: inMesh.transformed(by: frame))
            found = try search(mesh, frame: frame, windows: windows)
        }
        let result = found.transformed(by: frame.inverse)
        try checkAgainst(orientation, result)
        return result
    }

    /// How far the head frame the landmarks define may turn from the one the search started
    /// from (the cap's stickers or print), radians. The cap sits on the vault, whose shape
    /// follows the head's; an ear set lower or further forward on a flattened side turns the
    /// landmarks' frame by a few degrees. More means a landmark was read on something else.
    static let largestTurnFromCap = 12 * Double.pi / 180

    /// Refuses landmarks whose head frame turns far from `orientation`'s: one of them was read
    /// on something that is not the head's own feature (a parent's hand at the nape, its thumb
    /// beside the neck, took the place of an ear), and every measure would follow it.
    static func checkAgainst(_ orientation: HeadOrientation, _ found: AutomaticLandmarks) throws(CephalometryError) {
        let byLandmarks = try HeadFrame(found.landmarks).headFromMesh
        let turn = (byLandmarks * orientation.headFromMesh.inverse).rotation.angle
        guard turn > largestTurnFromCap else { return }
        // Name the likeliest culprit: the tragions lie level with each other in the cap's
        // frame, the nasion and nose tip on its midline; of two tragions out of level, the one
        // further from the nasion.
        let inCap = found.transformed(by: orientation.headFromMesh).landmarks
        let tragionOff = abs(inCap.leftTragion.z - inCap.rightTragion.z) + abs(inCap.leftTragion.y - inCap.rightTragion.y)
        let faceOff = abs(inCap.nasion.x) + abs(inCap.noseTip.x)
        let rightFurther = length(inCap.rightTragion - inCap.nasion) > length(inCap.leftTragion - inCap.nasion)
        let suspect =
            tragionOff >= faceOff
            ? (rightFurther ? "right tragion" : "left tragion") : (abs(inCap.nasion.x) > abs(inCap.noseTip.x) ? "nasion" : "nose tip")
        throw .unusableMesh(
            "the landmarks found turn the head \(Int((turn * 180 / Double.pi).rounded()))° from where the cap has it "
                + "(at most \(Int((largestTurnFromCap * 180 / Double.pi).rounded()))° is an ear or face of the head's own): "
                + "one was read on something else, most likely the \(suspect) (a hand or cloth beside the head?); "
                + "check the head in the replay and pick the landmarks")
    }

    /// Where to look, in the frame of the search (metres).
    struct Windows {
        var faceX: ClosedRange<Double>
        var faceZ: ClosedRange<Double>
        var earY: [Double: ClosedRange<Double>]
        var earZ: [Double: ClosedRange<Double>]
        /// Where the middle of each ear is expected (y, z).
        var earCentre: [Double: SIMD2<Double>]

        /// Wide windows below the cap's rim, for the rough orientation. The face's reaches
        /// 60 mm below the rim: an infant's nose tip lies about 20 mm below the nasion, but
        /// a head of adult proportions carries its tip 30-35 mm below, past a window of 50.
        static func coarse(capRim: Double) -> Windows {
            let earY = -0.055...0.015, earZ = (capRim - 0.045)...(capRim + 0.002)
            let centre = SIMD2(-0.012, capRim - 0.02)
            return Windows(
                faceX: -0.035...0.035, faceZ: (capRim - 0.06)...(capRim + 0.008),
                earY: [-1: earY, 1: earY], earZ: [-1: earZ, 1: earZ], earCentre: [-1: centre, 1: centre])
        }

        /// Windows around landmarks found before, in the head frame they define.
        static func around(found: AutomaticLandmarks) -> Windows {
            func earWindows(_ t: SIMD3<Double>) -> (ClosedRange<Double>, ClosedRange<Double>) {
                ((t.y - 0.045)...(t.y + 0.02), (t.z - 0.035)...(t.z + 0.025))
            }
            let (ly, lz) = earWindows(found.leftTragion.point), (ry, rz) = earWindows(found.rightTragion.point)
            let n = found.nasion.point
            let l = found.leftTragion.point, r = found.rightTragion.point
            // 30 mm below the nasion, or further where the nose tip found lies lower.
            let chin = min(n.z - 0.03, found.noseTip.point.z - 0.008)
            return Windows(
                faceX: (n.x - 0.03)...(n.x + 0.03), faceZ: chin...(n.z + 0.014),
                earY: [-1: ly, 1: ry], earZ: [-1: lz, 1: rz],
                earCentre: [-1: SIMD2(l.y - 0.012, l.z), 1: SIMD2(r.y - 0.012, r.z)])
        }
    }

    /// One search in `frame` (mesh → head), results in that frame.
    static func search(_ mesh: TriangleMesh, frame: RigidTransform, windows: Windows) throws(CephalometryError) -> AutomaticLandmarks {
        let local = mesh.transformed(by: frame)
        let (tip, nasion) = try face(local, x: windows.faceX, z: windows.faceZ)
        let left = try tragion(local, side: -1, y: windows.earY[-1]!, z: windows.earZ[-1]!, expected: windows.earCentre[-1]!)
        let right = try tragion(local, side: 1, y: windows.earY[1]!, z: windows.earZ[1]!, expected: windows.earCentre[1]!)
        return AutomaticLandmarks(nasion: nasion, noseTip: tip, leftTragion: left, rightTragion: right)
    }

    static func grid(_ range: ClosedRange<Double>) -> (origin: Double, count: Int) {
        (range.lowerBound, max(2, Int(((range.upperBound - range.lowerBound) / cell).rounded()) + 1))
    }
}
