import Markers

/// A marker's colour in the live view.
public enum MarkerState: String, Sendable, Codable {
    /// In this frame and seen before: connected to the map.
    case green
    /// In this frame for the first time.
    case red
    /// Seen before, not in this frame.
    case blue
}

/// How far the scan has come.
public struct ScanProgress: Sendable, Equatable {
    /// Unique cap marker IDs seen so far.
    public var seenCount: Int
    /// `seenCount / markerCount`, at most 1.
    public var fraction: Double
    /// Whole percent, rounded down (49.9 % is 49 %: the colour turns at a real 50 %).
    public var percent: Int
    /// Regions with at least `regionCoverage` of their markers seen, in `HeadRegion` order.
    public var regionsCovered: [HeadRegion]
    /// Parts below the cap that were in the picture.
    public var featuresSeen: [HeadFeature]
    /// The bar's colour.
    public var colour: ProgressColour
}

/// One published decision and the numbers behind it, so that "it vibrated but the picture
/// looked fine" can be replayed and explained.
/// What a decision of the guide is about.
public enum DecisionSubject: String, Sendable, Codable, CaseIterable {
    /// The published position class.
    case position
    /// The direction spoken while off.
    case direction
    /// The scan was declared complete.
    case completion
    /// The operator was reminded to capture the ears or the face.
    case reminder
    /// The operator was told which region is missing.
    case regionGuidance
    /// The operator was told the cap sits too high.
    case capFit
}

public struct Decision: Sendable, Codable, Equatable {
    /// Seconds since the scan started.
    public var time: Double
    /// What changed: "position", "direction", "completion", "reminder", "regionGuidance".
    public var subject: DecisionSubject
    /// Before and after, as text.
    public var from: String
    public var to: String
    /// Why, in words.
    public var reason: String
    /// The frame's counts, ratio and bounding box.
    public var evidence: PositionEvidence?
}

/// What the guide made of one frame.
public struct GuidanceUpdate: Sendable {
    /// The frame's time.
    public var time: Double
    /// Detected cap markers (green or red) and the seen ones not in the frame (blue).
    public var markerStates: [(id: Int, state: MarkerState)]
    /// This frame's own class.
    public var raw: Position
    /// The debounced class that drives haptics and speech.
    public var published: Position
    public var progress: ScanProgress
    /// True from the frame the scan completed on.
    public var completed: Bool
    /// Events caused by this frame.
    public var events: [FeedbackEvent]
    /// Decisions taken on this frame.
    public var decisions: [Decision]
    /// The frame's numbers.
    public var evidence: PositionEvidence
}

/// The scan guide: turns per-frame marker observations into marker states, a debounced
/// position, progress and completion, and the events that drive vibration and speech
///. One guide follows one scan; feed frames in time order.
public struct ScanGuide: Sendable {
    /// The settings in force.
    public let settings: FeedbackSettings
    /// The cap.
    public let layout: CapLayout

    /// Cap slot of each dictionary ID (−1: not on the cap, a false detection).
    private let slotOfID: [Int]
    private let regionOfSlot: [Int]
    /// Whether the slot's marker sits right above an ear: only those tell an ear faces the camera.
    private let isEarSlot: [Bool]
    private let regionTotals: [Int]
    /// The cap's lower edge, to notice a cap that rides up.
    private let edgeRings: CapEdgeRings?
    private var capFitSpoken = false
    private var seen: [Bool]
    private var seenCount = 0
    private var regionSeen: [Int]

    private var rawKind: PositionClass?
    private var rawRun = 0
    private var rawDirection = Direction.none
    private var directionRun = 0
    private var lastBoxDirection = Direction.none
    private var lastBoxTime = -Double.infinity
    /// The published position.
    public private(set) var published = Position.ideal
    /// Whether the vibration is running.
    public private(set) var hapticOn = false
    /// Whether feedback is paused (no vibration, no position speech).
    public private(set) var paused = false
    /// Whether the scan was stopped; later frames change nothing.
    public private(set) var stopped = false
    /// Whether the scan completed.
    public private(set) var completed = false

    private var firstTime: Double?
    private var lastNewMarkerTime = 0.0
    private var lastInstruction: (phrase: Phrase, time: Double)?
    private var lastRegionGuidance = -Double.infinity
    private var lastReminder = -Double.infinity
    private var announced: Set<Int> = []
    private var colour = ProgressColour.red
    private var featuresSeen: [Bool] = [false, false, false]
    /// Without markers: the head's surface seen so far, and the head's last distance.
    private var coverage: HeadCoverage?
    private var lastDistance: (metres: Double, time: Double)?
    private var scratch: [[ObservedMarker]] = [[], [], []]
    /// Every decision so far, in time order.
    public private(set) var decisions: [Decision] = []

    /// A guide for a scan with `layout`'s cap.
    public init(settings: FeedbackSettings = FeedbackSettings(), layout: CapLayout = .standard) throws(FeedbackError) {
        try settings.validate()
        self.settings = settings
        self.layout = layout
        let maxID = layout.ids.max() ?? 0
        var slots = [Int](repeating: -1, count: maxID + 1)
        var regions: [Int] = []
        var totals = [Int](repeating: 0, count: HeadRegion.allCases.count)
        for (slot, marker) in layout.markers.enumerated() {
            slots[marker.id] = slot
            let r = HeadRegion.allCases.firstIndex(of: marker.region)!
            regions.append(r)
            totals[r] += 1
        }
        slotOfID = slots
        regionOfSlot = regions
        let ears = Set(layout.earMarkers(.left) + layout.earMarkers(.right))
        isEarSlot = layout.markers.map { ears.contains($0.id) }
        regionTotals = totals
        edgeRings = layout.edgeRings
        seen = [Bool](repeating: false, count: layout.markers.count)
        regionSeen = [Int](repeating: 0, count: totals.count)
        coverage = settings.withoutMarkers ? HeadCoverage(viewAngleDegrees: settings.viewAngle) : nil
    }

    /// Whether this guide follows the head's surface, not the cap's markers.
    public var followsSurface: Bool { coverage != nil }

    /// Without markers, the share of `region`'s surface seen so far; nil with markers.
    public func surfaceShare(of region: HeadRegion) -> Double? { coverage?.share(of: region) }

    /// Cap marker IDs never seen so far; none when the guide follows the head's surface.
    public var missingIDs: [Int] {
        guard coverage == nil else { return [] }
        return layout.markers.indices.filter { !seen[$0] }.map { layout.markers[$0].id }
    }

    /// The current progress: without markers, `seenCount` counts the directions of the
    /// head's surface seen (`HeadCoverage`).
    public var progress: ScanProgress {
        let (done, goal) = coverage.map { ($0.seenCount, $0.total) } ?? (seenCount, settings.markerCount)
        let fraction = min(1, Double(done) / Double(goal))
        return ScanProgress(
            seenCount: done, fraction: fraction, percent: percentDone,
            regionsCovered: HeadRegion.allCases.indices.filter(isCovered).map { HeadRegion.allCases[$0] },
            featuresSeen: HeadFeature.allCases.indices.filter { featuresSeen[$0] }.map { HeadFeature.allCases[$0] },
            colour: colour)
    }

    /// Whole percent done, rounded down.
    private var percentDone: Int {
        guard let coverage else { return min(100, seenCount * 100 / settings.markerCount) }
        return min(100, coverage.seenCount * 100 / max(1, coverage.total))
    }

    private func isCovered(_ region: Int) -> Bool {
        if let coverage { return coverage.share(of: HeadRegion.allCases[region]) >= settings.surfaceCoverage - 1e-9 }
        return regionTotals[region] == 0
            || Double(regionSeen[region]) >= settings.regionCoverage * Double(regionTotals[region]) - 1e-9
    }

    /// The share of a region seen: of its markers, or without markers of its surface.
    private func share(of region: Int) -> Double {
        if let coverage { return coverage.share(of: HeadRegion.allCases[region]) }
        return Double(regionSeen[region]) / Double(max(1, regionTotals[region]))
    }

    /// Processes one frame.
    public mutating func update(_ frame: FrameObservation) -> GuidanceUpdate {
        let t = frame.timestamp
        if firstTime == nil {
            firstTime = t
            lastNewMarkerTime = t
        }
        // Only markers of the cap count: an ID the cap does not carry is a false detection.
        // Without markers none count: the head's surface guides.
        var markers = coverage == nil ? frame.markers : []
        markers.removeAll { $0.id < 0 || $0.id >= slotOfID.count || slotOfID[$0.id] < 0 }
        let (states, green) = markerStates(markers)
        let raw: Position, evidence: PositionEvidence
        if coverage != nil {
            (raw, evidence) = classifySurface(frame)
        } else {
            let bootstrap = seenCount < settings.minSharedMarkers
            (raw, evidence) = PositionClassifier.classify(
                markers, green: green, bootstrap: bootstrap, width: frame.width, height: frame.height, settings: settings)
            remember(markers, at: t)
        }

        guard !stopped else {
            return GuidanceUpdate(
                time: t, markerStates: states, raw: raw, published: published, progress: progress, completed: completed,
                events: [], decisions: [], evidence: evidence)
        }
        var step = Step(time: t, evidence: evidence)
        publish(raw, step: &step)
        announceProgress(step: &step)
        if settings.requireEarsAndFace { checkFeatures(markers, frame: frame) }
        if !paused, coverage == nil { checkCapFit(step: &step) }
        let stalled = t - lastNewMarkerTime >= settings.stallSeconds
        checkCompletion(stalled: stalled, step: &step)
        if !completed, !paused { guidePosition(stalled: stalled, step: &step) }
        decisions += step.decisions
        return GuidanceUpdate(
            time: t, markerStates: states, raw: raw, published: published, progress: progress, completed: completed,
            events: step.events, decisions: step.decisions, evidence: evidence)
    }

    /// What one frame produces: its time and evidence, and the events and decisions so far.
    private struct Step {
        let time: Double
        let evidence: PositionEvidence
        var events: [FeedbackEvent] = []
        var decisions: [Decision] = []

        mutating func decide(_ subject: DecisionSubject, from: String, to: String, reason: String) {
            decisions.append(Decision(time: time, subject: subject, from: from, to: to, reason: reason, evidence: evidence))
        }
    }

    /// Each marker's colour in the live view, and how many of the frame's markers are green.
    private func markerStates(_ markers: [ObservedMarker]) -> ([(id: Int, state: MarkerState)], Int) {
        var states: [(id: Int, state: MarkerState)] = []
        states.reserveCapacity(seenCount + markers.count)
        var green = 0
        var inFrame = [Bool](repeating: false, count: seen.count)
        for m in markers {
            let slot = slotOfID[m.id]
            inFrame[slot] = true
            if seen[slot] { green += 1 }
            states.append((m.id, seen[slot] ? .green : .red))
        }
        for slot in seen.indices where seen[slot] && !inFrame[slot] {
            states.append((layout.markers[slot].id, .blue))
        }
        return (states, green)
    }

    /// Marks the frame's markers as seen, for progress and region coverage.
    private mutating func remember(_ markers: [ObservedMarker], at t: Double) {
        for m in markers {
            let slot = slotOfID[m.id]
            if !seen[slot] {
                seen[slot] = true
                seenCount += 1
                regionSeen[regionOfSlot[slot]] += 1
                lastNewMarkerTime = t
            }
        }
    }

    /// Without markers: the frame's class from the head in its depth, and what a placed,
    /// well-framed view adds to the surface seen.
    private mutating func classifySurface(_ frame: FrameObservation) -> (Position, PositionEvidence) {
        let t = frame.timestamp
        let recent = lastDistance.flatMap { t - $0.time <= settings.directionMemory ? $0.metres : nil }
        let (raw, evidence) = HeadViewClassifier.classify(
            frame.head, recentDistance: recent, width: frame.width, height: frame.height, settings: settings)
        if let d = frame.head?.distance { lastDistance = (d, t) }
        // Only a view with the whole head in the picture shows what its pose says it shows.
        if raw.kind == .ideal, let camera = frame.head?.camera, !stopped, coverage?.see(from: camera) ?? 0 > 0 {
            lastNewMarkerTime = t
        }
        return (raw, evidence)
    }

    /// Debouncing: the class needs `debounceFrames` equal raw frames in a row to be published;
    /// so does a new direction while off. Where the markers' box lies is remembered for a
    /// moment after the head leaves the picture.
    private mutating func publish(_ raw: Position, step: inout Step) {
        let t = step.time, evidence = step.evidence
        var direction = raw.direction
        if let box = evidence.box {
            lastBoxDirection = Self.side(of: box, evidence: evidence)
            lastBoxTime = t
        } else if raw.kind == .off, t - lastBoxTime <= settings.directionMemory {
            direction = lastBoxDirection
        }
        if raw.kind == rawKind { rawRun += 1 } else { rawKind = raw.kind; rawRun = 1 }
        if raw.kind == .off {
            if direction == rawDirection { directionRun += 1 } else { rawDirection = direction; directionRun = 1 }
        } else {
            directionRun = 0
        }
        if rawRun >= settings.debounceFrames, raw.kind != published.kind {
            let next = Position(raw.kind, direction)
            step.decide(
                .position, from: published.description, to: next.description,
                reason: Self.reason(next, evidence: evidence, run: rawRun, settings: settings))
            published = next
        } else if published.kind == .off, directionRun >= settings.debounceFrames, direction != published.direction {
            let next = Position(.off, direction)
            step.decide(
                .direction, from: published.description, to: next.description,
                reason: "\(directionRun) frames \(direction.rawValue)"
                    + (raw.direction != direction ? " (markers left the picture; last seen \(direction.rawValue))" : ""))
            published = next
        }
    }

    /// The progress bar's colour and the milestones.
    private mutating func announceProgress(step: inout Step) {
        let percent = percentDone
        let newColour = ProgressColour(percent: percent)
        if newColour != colour, !completed {
            colour = newColour
            step.events.append(.progressColourChanged(newColour))
        }
        for m in settings.progressIncrement.milestones + [100] where percent >= m && !announced.contains(m) {
            announced.insert(m)
            step.events.append(.milestone(m))
            if m < 100 { step.events.append(.speak(.percent(m), .milestone)) }
        }
    }

    /// Completion: every marker, or every region covered and nothing new for a while, and
    /// the ears and face in the picture (else a reminder).
    private mutating func checkCompletion(stalled: Bool, step: inout Step) {
        let t = step.time
        let allRegions = regionTotals.indices.allSatisfy(isCovered)
        let goal = coverage != nil ? allRegions : seenCount >= settings.markerCount || (allRegions && stalled)
        guard !completed, !paused, goal else { return }
        let missingFeatures =
            settings.requireEarsAndFace
            ? HeadFeature.allCases.indices.filter { !featuresSeen[$0] }.map { HeadFeature.allCases[$0] } : []
        if missingFeatures.isEmpty {
            completed = true
            let missing = coverage == nil ? missingIDs : []
            step.decide(
                .completion, from: "scanning", to: "completed",
                reason: coverage.map { c in
                    "every region's surface seen to \(Self.format(settings.surfaceCoverage * 100)) %: "
                        + HeadRegion.allCases.map { "\($0.rawValue) \(Int(c.share(of: $0) * 100)) %" }.joined(separator: ", ")
                }
                    ?? (seenCount >= settings.markerCount
                        ? "all \(settings.markerCount) markers seen"
                        : "every region covered, no new marker for \(Self.format(t - lastNewMarkerTime)) s, \(missing.count) never seen"))
            if hapticOn {
                hapticOn = false
                step.events.append(.hapticStop)
            }
            if colour != .green {
                colour = .green
                step.events.append(.progressColourChanged(.green))
            }
            step.events.append(.completed(missing: missing))
            step.events.append(.speak(missing.isEmpty ? .done : .doneMissing(missing.count), .milestone))
        } else if t - lastReminder >= settings.reminderInterval {
            lastReminder = t
            step.decide(
                .reminder, from: "", to: missingFeatures.map(\.rawValue).joined(separator: "+"),
                reason: coverage == nil
                    ? "marker goal reached (\(seenCount) seen) but never in the picture"
                    : "every region's surface seen but never faced within \(Self.format(settings.viewAngle))°")
            step.events.append(.reminder(missingFeatures))
            step.events.append(.speak(.capture(missingFeatures), .reminder))
        }
    }

    /// A cap that rides up is said once, as soon as the ring above its edge has been filmed
    /// all round and its edge still not: the therapist can pull it down before going on.
    private mutating func checkCapFit(step: inout Step) {
        guard !capFitSpoken, let rings = edgeRings else { return }
        let seenIDs = Set(layout.markers.indices.filter { seen[$0] }.map { layout.markers[$0].id })
        guard rings.ridesUp(seen: seenIDs) else { return }
        capFitSpoken = true
        let edge = rings.lowest.filter(seenIDs.contains).count
        let above = rings.above.filter(seenIDs.contains).count
        step.decide(
            .capFit, from: "", to: "tooHigh",
            reason: "\(above) of \(rings.above.count) markers of the ring above the cap's edge seen, \(edge) of the \(rings.lowest.count) of its edge"
        )
        step.events.append(.speak(.capTooHigh, .reminder))
    }

    /// Vibration and position speech, and region guidance when progress stalls while the
    /// position is fine.
    private mutating func guidePosition(stalled: Bool, step: inout Step) {
        let t = step.time
        if published.kind != .ideal, !hapticOn {
            hapticOn = true
            step.events.append(.hapticStart)
        } else if published.kind == .ideal, hapticOn {
            hapticOn = false
            step.events.append(.hapticStop)
        }
        if let phrase = instruction(evidence: step.evidence) {
            let due = lastInstruction.map { $0.phrase != phrase || t - $0.time >= settings.instructionRepeatInterval } ?? true
            if due {
                lastInstruction = (phrase, t)
                step.events.append(.speak(phrase, .instruction))
            }
        } else if published.kind == .ideal {
            lastInstruction = nil
        }
        guard published.kind == .ideal, settings.regionGuidance, stalled, t - lastRegionGuidance >= settings.stallSeconds,
            let region = leastCoveredRegion()
        else { return }
        lastRegionGuidance = t
        let r = HeadRegion.allCases.firstIndex(of: region)!
        let counts = coverage?.counts(of: region) ?? (seen: regionSeen[r], total: regionTotals[r])
        let what = coverage == nil ? "markers" : "surface directions"
        step.decide(
            .regionGuidance, from: "", to: region.rawValue,
            reason:
                "no new \(coverage == nil ? "marker" : "surface") for \(Self.format(t - lastNewMarkerTime)) s; \(counts.seen) of \(counts.total) \(region.rawValue) \(what) seen"
        )
        step.events.append(.speak(.regionMissing(region), .instruction))
    }

    /// Pauses feedback (the app went to the background, the operator tapped pause): the
    /// vibration stops at once.
    public mutating func pause() -> [FeedbackEvent] {
        paused = true
        return stopHaptic()
    }

    /// Resumes after `pause()`; the vibration restarts with the next frame if still needed.
    public mutating func resume() {
        paused = false
    }

    /// Ends the scan: the vibration stops and later frames cause no events.
    public mutating func stop() -> [FeedbackEvent] {
        stopped = true
        return stopHaptic()
    }

    private mutating func stopHaptic() -> [FeedbackEvent] {
        guard hapticOn else { return [] }
        hapticOn = false
        return [.hapticStop]
    }

    /// The instruction for the published position, nil when none is spoken.
    private func instruction(evidence: PositionEvidence) -> Phrase? {
        switch published.kind {
        case .ideal: return nil
        case .tooClose: return .tooClose
        case .off:
            guard settings.positionAudio == .directions else { return nil }
            if published.direction != .none {
                // The published direction is the side the head lies toward, which is where the
                // phone must go; in the picture the head must go the other way.
                return settings.phrasing == .movePhone ? .movePhone(published.direction) : .headInPicture(published.direction.opposite)
            }
            // A head in the picture that could not be placed: the camera moved too fast, or to
            // a part never seen; back where the scan has been, the tracking finds it again.
            if let head = evidence.head, head.box != nil, head.placed == false { return .goBack }
            // Without markers the depth tells whether a head is in the picture at all: when it
            // is not, the phone points away from the infant, and a missing part cannot be
            // scanned from there.
            if let head = evidence.head, head.box == nil { return .noHead }
            // With no marker and no remembered direction, point at the part of the head still
            // missing, or else say the head is gone.
            if settings.regionGuidance, let region = leastCoveredRegion() { return .regionMissing(region) }
            return .noHead
        }
    }

    private func leastCoveredRegion() -> HeadRegion? {
        var best: (Int, Double)?
        for r in regionTotals.indices where !isCovered(r) {
            let share = share(of: r)
            if best == nil || share < best!.1 { best = (r, share) }
        }
        return best.map { HeadRegion.allCases[$0.0] }
    }

    private mutating func checkFeatures(_ markers: [ObservedMarker], frame: FrameObservation) {
        if featuresSeen.allSatisfy({ $0 }) { return }
        if let coverage {
            featuresSeen = HeadFeature.allCases.map(coverage.features.contains)
            return
        }
        for i in scratch.indices { scratch[i].removeAll(keepingCapacity: true) }
        for m in markers {
            let slot = slotOfID[m.id]
            switch HeadRegion.allCases[regionOfSlot[slot]] {
            case .front: scratch[0].append(m)
            case .left where isEarSlot[slot]: scratch[1].append(m)
            case .right where isEarSlot[slot]: scratch[2].append(m)
            default: break
            }
        }
        for (i, feature) in HeadFeature.allCases.enumerated() where !featuresSeen[i] {
            if FeatureRule.isInPicture(feature, markers: scratch[i], width: frame.width, height: frame.height, settings: settings) {
                featuresSeen[i] = true
            }
        }
    }

    private static func side(of box: PixelBox, evidence: PositionEvidence) -> Direction {
        let sideX = box.maxX < evidence.bandX[0] ? -1 : box.minX > evidence.bandX[1] ? 1 : 0
        let sideY = box.maxY < evidence.bandY[0] ? -1 : box.minY > evidence.bandY[1] ? 1 : 0
        return Direction(imageSideX: sideX, imageSideY: sideY)
    }

    private static func reason(_ p: Position, evidence e: PositionEvidence, run: Int, settings: FeedbackSettings) -> String {
        if let head = e.head { return surfaceReason(p, head: head, evidence: e, run: run, settings: settings) }
        let shared = e.bootstrap ? "\(e.detected) markers (bootstrap)" : "\(e.green) green of \(e.detected)"
        let head = "\(run) frames in a row: "
        switch p.kind {
        case .ideal: return head + "\(shared) ≥ \(settings.minSharedMarkers)"
        case .tooClose:
            return head + "\(shared) < \(settings.minSharedMarkers); \(e.invalidDepth)/\(e.detected) without depth = "
                + "\(format(e.invalidRatio * 100)) % > \(format(settings.invalidDepthRatio * 100)) %"
        case .off:
            let box =
                e.box.map {
                    "box x \(format($0.minX))…\(format($0.maxX)), y \(format($0.minY))…\(format($0.maxY)); band x \(format(e.bandX[0]))…\(format(e.bandX[1])), y \(format(e.bandY[0]))…\(format(e.bandY[1]))"
                } ?? "no marker in the picture"
            return head + "\(shared) < \(settings.minSharedMarkers); \(e.invalidDepth)/\(e.detected) without depth; " + box
        }
    }

    private static func surfaceReason(_ p: Position, head: HeadView, evidence e: PositionEvidence, run: Int, settings: FeedbackSettings) -> String {
        let depth = "\(format(head.missingDepth * 100)) % of the middle without depth"
        let distance = head.distance.map { "head \(format($0 * 1000)) mm away" } ?? "no head found in the depth"
        let box =
            head.box.map {
                "box x \(format($0.minX))…\(format($0.maxX)), y \(format($0.minY))…\(format($0.maxY)); band x \(format(e.bandX[0]))…\(format(e.bandX[1])), y \(format(e.bandY[0]))…\(format(e.bandY[1]))"
            } ?? "no head box"
        let placed = head.placed.map { $0 ? "placed on the surface" : "not placed on the surface" } ?? "not tracked"
        let head = "\(run) frames in a row: "
        switch p.kind {
        case .ideal: return head + "\(distance), \(placed)"
        case .tooClose:
            return head + "\(depth) > \(format(settings.invalidDepthRatio * 100)) %, nearer than \(format(settings.tooCloseDistance * 1000)) mm"
        case .off: return head + "\(distance); \(box); \(placed)"
        }
    }

    static func format(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
