import AppSupport
import Cephalometry
import Feedback
import Markers
import Observation
import Processing
import ScanLibrary

/// Where the replay is.
public enum ReplayPhase: Sendable, Equatable {
    case playing
    /// Pause was pressed; the replay stops at the next frame with sufficient overlap.
    case pausePending
    /// Paused on a frame that can be annotated.
    case paused
    /// The last frame was played.
    case finished
}

/// A landmark's pick on screen.
public struct LandmarkDot: Sendable, Equatable {
    public var landmark: Landmark
    /// Where it is drawn, in the view's points.
    public var position: SIMD2<Double>
    /// Whether it is the landmark being placed (drawn highlighted).
    public var isSelected: Bool
    /// Whether it is where HeadScan found the landmark, not a pick (drawn as a ring).
    public var isSuggestion = false
}

/// The outcome of closing a replay, shown on the selection screen.
public enum ReplayCloseResult: Sendable, Equatable {
    /// Nothing changed, nothing saved.
    case unchanged
    case saved
    /// Saving failed, with the reason.
    case failed(String)
}

/// The replay screen: play, pause when ideal, place, move and remove the four landmarks;
/// saved when the replay closes.
@MainActor @Observable
public final class ReplayModel {
    /// Where the replay is.
    public private(set) var phase = ReplayPhase.playing
    /// The frame on screen.
    public private(set) var frame: ReplayFrameInfo?
    /// The landmark being placed, if any.
    public private(set) var selectedLandmark: Landmark?
    /// The annotations so far.
    public private(set) var annotations: AnnotationsRecord
    /// The cloud's view.
    public private(set) var view = CloudViewTransform()
    /// A problem reading the scan or the stored annotations.
    public private(set) var problem: String?
    /// Damaged frames skipped so far; the screen says so, since landmarks cannot be placed on them.
    public private(set) var damagedFrames: [Int] = []
    /// Whether annotations changed since they were loaded.
    public private(set) var hasChanges = false
    /// Called after closing, with the save result.
    @ObservationIgnored public var onClose: (ReplayCloseResult) -> Void = { _ in }

    @ObservationIgnored public let session: ScanSession
    @ObservationIgnored private let library: ScanLibrary
    @ObservationIgnored private let player: any ReplayPlayer
    @ObservationIgnored private var reading = false
    @ObservationIgnored private let clock: any AppClock
    @ObservationIgnored private let strings: Strings
    /// The landmarks found on the head when the session was measured, to confirm and snap to.
    @ObservationIgnored private let suggestions: LandmarkSuggestions?
    /// Per landmark, how far its picks spread when the session was measured (millimetres).
    @ObservationIgnored private let pickSpreads: [Landmark: Double]

    /// A replay of `session` through `player`, starting with its saved annotations.
    public init(session: ScanSession, library: ScanLibrary, player: any ReplayPlayer, clock: any AppClock, strings: Strings) {
        self.session = session
        self.library = library
        self.player = player
        self.clock = clock
        self.strings = strings
        suggestions = LandmarkSuggestions.load(library: library, session: session)
        var spreads: [Landmark: Double] = [:]
        for (landmark, estimate) in (try? library.measurement(in: session))?.landmarkEstimates ?? [:] where estimate.isDoubtful {
            spreads[landmark] = estimate.spreadMM
        }
        pickSpreads = spreads
        do {
            annotations = try library.annotations(in: session) ?? AnnotationsRecord()
        } catch {
            annotations = AnnotationsRecord()
            problem = strings.message(error)
        }
    }

    /// Advances one frame (called at the scan's frame rate while playing). A tick that comes
    /// while the previous frame is still being read is skipped, as a slow phone drops frames.
    public func tick() async {
        guard phase == .playing || phase == .pausePending, !reading else { return }
        reading = true
        defer { reading = false }
        do {
            guard let next = try await player.nextFrame() else {
                phase = .finished
                return
            }
            // Paused or restarted meanwhile: the frame is stale.
            guard phase == .playing || phase == .pausePending else { return }
            frame = next
            if !next.damagedBefore.isEmpty {
                damagedFrames += next.damagedBefore
                problem = strings(.replayFramesSkipped, damagedFrames.map(String.init).joined(separator: ", "))
            }
            if phase == .pausePending, next.overlapSufficient { phase = .paused }
        } catch {
            problem = strings(.replayFrameUnreadable, error.localizedDescription)
            phase = .finished
        }
    }

    /// The main button: pause (when ideal), cancel a pending pause, play on, or restart.
    public func togglePlay() {
        switch phase {
        case .playing: phase = .pausePending
        case .pausePending: phase = .playing
        case .paused:
            selectedLandmark = nil
            phase = .playing
        case .finished:
            do {
                try player.restart()
                frame = nil
                phase = .playing
            } catch {
                problem = strings(.replayFrameUnreadable, error.localizedDescription)
            }
        }
    }

    /// Chooses the landmark to place (again to deselect); only while paused.
    public func select(_ landmark: Landmark) {
        guard phase == .paused else { return }
        selectedLandmark = selectedLandmark == landmark ? nil : landmark
    }

    /// Places or moves the selected landmark to `pixel` of the paused frame; a pick close to
    /// where HeadScan found the landmark lands on it (the notch above the tragus is small).
    public func place(at pixel: SIMD2<Double>) {
        guard phase == .paused, let landmark = selectedLandmark, let frame, pixel.x.isFinite, pixel.y.isFinite else { return }
        let placed = suggestions?.snapped(pixel, for: landmark, inFrame: frame.index) ?? pixel
        annotations.pick(landmark, frameIndex: frame.index, pixel: placed)
        hasChanges = true
    }

    /// Removes every pick of a landmark.
    public func remove(_ landmark: Landmark) {
        guard annotations.landmarks.removeValue(forKey: landmark) != nil else { return }
        hasChanges = true
    }

    /// Whether a landmark is placed (its button gets a green outline).
    public func isPlaced(_ landmark: Landmark) -> Bool { annotations.isPlaced(landmark) }

    /// In how many frames a landmark is picked (several picks are combined, and their spread
    /// shows how well they agree).
    public func pickCount(_ landmark: Landmark) -> Int { annotations.landmarks[landmark]?.count ?? 0 }

    /// The pick of a landmark on the frame on screen, to draw its dot.
    public func pickOnScreen(_ landmark: Landmark) -> SIMD2<Double>? {
        guard let frame else { return nil }
        for case .pixel(let index, let pixel) in annotations.landmarks[landmark] ?? [] where index == frame.index { return pixel }
        return nil
    }

    /// The landmark's name.
    public func name(_ landmark: Landmark) -> String { strings.landmarkName(landmark) }

    /// Turns the cloud by a drag.
    public func rotate(yaw: Double, pitch: Double) {
        view.yaw += yaw
        view.pitch = min(max(view.pitch + pitch, -.pi / 2), .pi / 2)
    }

    /// Zooms the cloud by a pinch factor.
    public func zoom(by factor: Double) {
        guard factor.isFinite, factor > 0 else { return }
        view.zoom = min(max(view.zoom * factor, 0.5), 8)
    }

    /// Double tap: back to the default view.
    public func resetView() { view = CloudViewTransform() }

    /// How far a drag of one point turns the cloud, radians.
    public static let radiansPerPoint = 0.01

    /// The frame's cloud under the current view in a view of `width` x `height` points; nil
    /// before the first frame.
    public func projection(width: Double, height: Double) -> CloudProjection? {
        guard let cloud = frame?.cloud else { return nil }
        return CloudProjection(cloud: cloud, view: view, width: width, height: height)
    }

    /// A tap on the cloud: places the selected landmark there while paused.
    public func tap(at point: SIMD2<Double>, width: Double, height: Double) {
        guard phase == .paused, selectedLandmark != nil,
            let pixel = projection(width: width, height: height)?.pixel(atScreenPoint: point)
        else { return }
        place(at: pixel)
    }

    /// A drag on the cloud, now at `point` and moved by `delta` since the last call: moves
    /// the selected landmark while paused, otherwise turns the cloud.
    public func drag(to point: SIMD2<Double>, by delta: SIMD2<Double>, width: Double, height: Double) {
        if phase == .paused, selectedLandmark != nil {
            tap(at: point, width: width, height: height)
        } else {
            // The near side follows the finger, as when turning a ball by its front.
            rotate(yaw: -delta.x * Self.radiansPerPoint, pitch: delta.y * Self.radiansPerPoint)
        }
    }

    /// The picks on the frame on screen, where `projection` draws them, and where HeadScan
    /// found the landmarks not picked on this frame.
    public func landmarkDots(in projection: CloudProjection) -> [LandmarkDot] {
        let picks = Landmark.allCases.compactMap { landmark -> LandmarkDot? in
            guard let pixel = pickOnScreen(landmark), let position = projection.screenPoint(ofPixel: pixel) else { return nil }
            return LandmarkDot(landmark: landmark, position: position, isSelected: landmark == selectedLandmark)
        }
        let found = Landmark.allCases.compactMap { landmark -> LandmarkDot? in
            guard pickOnScreen(landmark) == nil, let pixel = suggestionOnScreen(landmark),
                let position = projection.screenPoint(ofPixel: pixel)
            else { return nil }
            return LandmarkDot(landmark: landmark, position: position, isSelected: landmark == selectedLandmark, isSuggestion: true)
        }
        return picks + found
    }

    /// Where HeadScan found `landmark` in the frame on screen, when the frame's pose is known.
    public func suggestionOnScreen(_ landmark: Landmark) -> SIMD2<Double>? {
        guard let frame else { return nil }
        return suggestions?.pixel(of: landmark, inFrame: frame.index)
    }

    /// What to know about the selected landmark: the frames that show it best, and whether
    /// its picks disagreed when the session was last measured.
    public var landmarkHint: String? {
        guard let landmark = selectedLandmark else { return nil }
        let name = strings.landmarkName(landmark)
        if let spread = pickSpreads[landmark] {
            return strings(.replayPicksDisagree, name, String(format: "%.1f", spread))
        }
        guard let frames = suggestions?.bestFrames[landmark], !frames.isEmpty else { return nil }
        return strings(.replayBestFrames, name, frames.map(String.init).joined(separator: ", "))
    }

    /// The marker colours' meaning with their counts on the frame on screen.
    public var legend: [CloudLegendEntry] { strings.cloudLegend(frame?.cloud) }

    /// The text in the tile: what to do now.
    public var instruction: String {
        switch phase {
        case .playing: strings(.replayInstructionPlaying)
        case .pausePending: strings(.replayInstructionWaiting)
        case .paused:
            selectedLandmark.map { strings(.replayInstructionPlace, strings.landmarkName($0)) } ?? strings(.replayInstructionSelect)
        case .finished: strings(.replayInstructionFinished)
        }
    }

    /// The main button's label.
    public var playButtonTitle: String {
        switch phase {
        case .playing: strings(.replayPause)
        case .pausePending: strings(.replayCancelPause)
        case .paused: strings(.replayPlay)
        case .finished: strings(.replayRestart)
        }
    }

    /// Saves changed annotations and closes.
    @discardableResult
    public func close() -> ReplayCloseResult {
        var result = ReplayCloseResult.unchanged
        if hasChanges {
            annotations.savedAt = clock.now()
            do {
                try library.saveAnnotations(annotations, in: session)
                hasChanges = false
                result = .saved
            } catch {
                result = .failed(strings.message(error))
            }
        }
        onClose(result)
        return result
    }
}

extension Strings {
    /// A head region's name.
    func regionName(_ region: HeadRegion) -> String {
        switch region {
        case .front: self(.regionFront)
        case .left: self(.regionLeft)
        case .right: self(.regionRight)
        case .back: self(.regionBack)
        case .top: self(.regionTop)
        }
    }

    /// The face's or an ear's name.
    func featureName(_ feature: HeadFeature) -> String {
        switch feature {
        case .face: self(.featureFace)
        case .leftEar: self(.featureLeftEar)
        case .rightEar: self(.featureRightEar)
        }
    }

    /// A landmark's name.
    func landmarkName(_ landmark: Landmark) -> String {
        switch landmark {
        case .noseTip: self(.landmarkNoseTip)
        case .nasion: self(.landmarkNasion)
        case .leftTragion: self(.landmarkLeftTragion)
        case .rightTragion: self(.landmarkRightTragion)
        }
    }
}
