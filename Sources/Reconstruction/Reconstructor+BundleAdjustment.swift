import Geometry
import Markers
import Recording

// Stage 2: the bundle adjustment, and the camera's self-calibration.
extension Reconstructor {
    /// Stage 2 again for a camera corrected by its own estimate: the map and the keyframes are
    /// chosen again from the same detections seen through the corrected camera, so that the
    /// scan ends where one made with a right factory calibration would.
    func rebuild(
        _ seen: [(Int, [MarkerObservation], unread: [MarkerObservation])], _ keyframes: inout [Keyframe], _ map: inout MarkerMap,
        camera: inout SettledCamera,
        stats: inout ReconstructionStatistics
    ) throws {
        let corrected = camera.pinhole
        var builder = MapBuilder(registration: FrameRegistration(), options: options)
        for (index, observations, unread) in seen {
            _ = builder.add(
                observations.map { $0.seen(through: corrected) }, frameIndex: index, unread: unread.map { $0.seen(through: corrected) })
        }
        guard builder.keyframes.count >= 3 else {
            throw ReconstructionError.tooFewRegisteredFrames(registered: builder.keyframes.count, needed: 3)
        }
        (map, keyframes) = (builder.map, builder.keyframes)
        // The estimate stands; refining with it held keeps the camera as it is.
        var held = self
        held.options.estimatesFocalLength = false
        held.options.estimatesPrincipalPoint = false
        held.refine(&keyframes, &map, camera: &camera, stats: &stats)
    }

    /// Stage 2: the robust 3D bundle adjustment, then the joint one on reprojection and depth,
    /// which estimates the camera too when the options ask (into `camera`) and works with the
    /// camera corrected as far as `camera` says.
    func refine(_ keyframes: inout [Keyframe], _ map: inout MarkerMap, camera: inout SettledCamera, stats: inout ReconstructionStatistics) {
        let intrinsics = camera.recorded.pinhole
        measureResiduals(keyframes: keyframes, map: map, intrinsics: intrinsics, into: &stats)
        stats.reprojectionRMSPixelsInitial = stats.reprojectionRMSPixels
        BundleAdjustment(iterations: options.bundleIterations).refine(keyframes: &keyframes, map: &map)
        measureResiduals(keyframes: keyframes, map: map, intrinsics: intrinsics, into: &stats)
        stats.reprojectionRMSPixels3D = stats.reprojectionRMSPixels
        if options.jointBundleIterations > 0 {
            let joint = JointBundleAdjustment(iterations: options.jointBundleIterations)
            if options.estimatesFocalLength || options.estimatesPrincipalPoint {
                let outcome = Self.estimateCamera(keyframes, map, intrinsics: intrinsics, options: options)
                if options.estimatesFocalLength {
                    camera.focalScale = outcome.focalScale
                    camera.focalScaleSigma = outcome.focalScaleSigma
                    if abs(outcome.focalScale - 1) > options.focalOverrideThreshold {
                        let sizes =
                            FocalCorrectionCheck.mapSizeRatio(map, printedSide: layout.side(of:))
                            ?? FocalCorrectionCheck.liftedSizeRatio(keyframes) { layout.side(of: $0) }
                        camera.focalCorrectionRefused = options.focalCorrectionCheck.refusal(scale: outcome.focalScale, sizeRatio: sizes)
                        if camera.focalCorrectionRefused == nil { camera.focalScaleApplied = outcome.focalScale }
                    }
                }
                if options.estimatesPrincipalPoint {
                    camera.principalShift = outcome.principalPointShift
                    camera.principalShiftSigma = outcome.principalPointSigma
                }
                if options.estimatesDistortion {
                    camera.k1 = outcome.k1
                    camera.k1Sigma = outcome.k1Sigma
                }
            }
            let corrected = camera.pinhole
            joint.refine(keyframes: &keyframes, map: &map, intrinsics: corrected)
            measureResiduals(keyframes: keyframes, map: map, intrinsics: corrected, into: &stats)
        }
        stats.keyframes = keyframes.count
        stats.markersMapped = map.corners.count
    }

    /// The focal length (and the principal point, when asked) from the markers' centres: where
    /// each marker is seen in the picture and how far away it is. A detector that places corners
    /// a tenth of a pixel inside the printed square (blur, anti-aliasing) shrinks every marker's
    /// picture and would pull the focal length down by as much in per cent; the mean of the four
    /// corners does not move.
    static func estimateCamera(
        _ keyframes: [Keyframe], _ map: MarkerMap, intrinsics: CameraIntrinsics, options: ReconstructionOptions
    ) -> JointBundleAdjustment.Outcome {
        func centre<T: SIMD>(_ values: [T]) -> [T] where T.Scalar == Double {
            let mean = values.reduce(T.zero, +) / T(repeating: Double(max(1, values.count)))
            return Array(repeating: mean, count: values.count)
        }
        var centres = keyframes
        for k in centres.indices {
            centres[k].observations = centres[k].observations.map {
                MarkerObservation(
                    id: $0.id, pixels: centre($0.pixels), corners: centre($0.corners), fromDepth: $0.fromDepth, depthSigma: $0.depthSigma)
            }
        }
        var centreMap = MarkerMap(corners: map.corners.mapValues(centre))
        var estimating = JointBundleAdjustment(iterations: max(options.jointBundleIterations, 12))
        // Each marker now gives four identical residuals: they count as one.
        estimating.pixelSigma *= 2
        estimating.depthSigmaScale = 2
        estimating.estimatesFocal = options.estimatesFocalLength
        estimating.focalPriorSigma = options.focalPriorSigma
        estimating.estimatesPrincipalPoint = options.estimatesPrincipalPoint
        estimating.principalPointPriorSigma = options.principalPointPriorSigma
        estimating.estimatesDistortion = options.estimatesDistortion
        estimating.distortionPriorSigma = options.distortionPriorSigma
        return estimating.refine(keyframes: &centres, map: &centreMap, intrinsics: intrinsics)
    }

    /// The reprojection RMS (pixels) of the map through `intrinsics` and the corners' RMS
    /// against the map (millimetres), into `stats`.
    private func measureResiduals(keyframes: [Keyframe], map: MarkerMap, intrinsics: CameraIntrinsics, into stats: inout ReconstructionStatistics) {
        var pixelSquares = 0.0, pixelCount = 0.0, cornerSquares = 0.0, cornerCount = 0.0
        for keyframe in keyframes {
            let cameraFromMap = keyframe.mapFromCamera.inverse
            for o in keyframe.observations {
                guard let mapped = map.corners[o.id] else { continue }
                for c in 0..<4 {
                    if let p = intrinsics.project(cameraFromMap.apply(mapped[c])) {
                        let d = p - o.pixels[c]
                        pixelSquares += (d * d).sum()
                        pixelCount += 1
                    }
                    if o.fromDepth {
                        let e = distance(keyframe.mapFromCamera.apply(o.corners[c]), mapped[c])
                        cornerSquares += e * e
                        cornerCount += 1
                    }
                }
            }
        }
        stats.reprojectionRMSPixels = pixelCount > 0 ? (pixelSquares / pixelCount).squareRoot() : 0
        stats.cornerRMSMillimetres = cornerCount > 0 ? (cornerSquares / cornerCount).squareRoot() * 1000 : 0
    }
}
