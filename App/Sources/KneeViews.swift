import AppModel
import AppSupport
import CoreTransferable
import KneeFeature
import PhotosUI
import RangeOfMotion
import SwiftUI
import UniformTypeIdentifiers

/// Whose knee: the patient ID, or a patient measured before.
@MainActor
struct KneePatientView: View {
    @Bindable var model: KneePatientModel
    let strings: Strings
    let close: () -> Void

    var body: some View {
        Form {
            Section {
                TextField(strings(.kneePatientField), text: $model.patientID)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                    .submitLabel(.continue)
                    .onSubmit { model.confirm() }
                if let problem = model.problem { Text(problem).font(.footnote).foregroundStyle(.red) }
                Button(strings(.kneeContinue)) { model.confirm() }.disabled(!model.canContinue)
            }
            if !model.knownPatients.isEmpty {
                Section(strings(.kneePatientKnown)) {
                    ForEach(model.knownPatients, id: \.self) { id in
                        Button(id) { model.choose(id) }
                    }
                }
            }
        }
        .screenBar(model.title, close: strings(.commonClose), action: close)
    }
}

/// The knee measurement's screens, one at a time as the model says.
@MainActor
struct KneeMeasurementView: View {
    let model: KneeMeasurementModel
    let strings: Strings
    let close: () -> Void

    var body: some View {
        screen
            .screenBar(title, close: strings(.commonClose), canClose: model.screen != .processing, action: close)
            .alert(model.failure?.title ?? "", isPresented: failureShown, presenting: model.failure) { _ in
                if model.screen == .processing, model.canRetry {
                    Button(strings(.kneeRetry)) { Task { await model.retry() } }
                }
                Button(strings(.commonCancel), role: .cancel) { model.dismissFailure() }
            } message: { failure in
                Text(failure.message)
            }
    }

    /// Shown while the model has a failure; the buttons decide what happens next.
    private var failureShown: Binding<Bool> {
        Binding(get: { model.failure != nil }, set: { _ in })
    }

    private var title: String {
        switch model.screen {
        case .welcome: strings(.kneeWelcomeTitle)
        case .instructions: strings(.kneeInstructionsTitle)
        case .sidePicker: strings(.kneeSideTitle)
        case .processing: strings(.kneeProcessingTitle)
        case .result: strings(.kneeResultTitle)
        case .history: strings(.kneeHistoryTitle)
        }
    }

    @ViewBuilder private var screen: some View {
        switch model.screen {
        case .welcome: KneeWelcomeView(model: model, strings: strings)
        case .instructions: KneeInstructionsView(model: model, strings: strings)
        case .sidePicker: KneeSidePickerView(model: model, strings: strings)
        case .processing: KneeProcessingView(model: model)
        case .result: KneeResultView(model: model, strings: strings)
        case .history: KneeHistoryView(model: model, strings: strings)
        }
    }
}

@MainActor
private struct KneeWelcomeView: View {
    let model: KneeMeasurementModel
    let strings: Strings

    var body: some View {
        List {
            Section {
                Button {
                    model.start()
                } label: {
                    Label(strings(.kneeWelcomeStart), systemImage: "figure.walk")
                }
                .font(.title3.bold())
            }
            Section(strings(.kneeHistoryTitle)) {
                if model.past.isEmpty {
                    Text(strings(.kneeWelcomeNoResults)).foregroundStyle(.secondary)
                } else {
                    ForEach(model.past.prefix(3)) { entry in KneePastRow(entry: entry) { model.open(entry) } }
                    if model.past.count > 3 { Button(strings(.kneeHistoryButton)) { model.showHistory() } }
                }
                ForEach(model.pastProblems, id: \.self) { Text($0).font(.footnote).foregroundStyle(.orange) }
            }
        }
    }
}

@MainActor
private struct KneePastRow: View {
    let entry: KneePastResult
    let open: () -> Void

    var body: some View {
        Button(action: open) {
            VStack(alignment: .leading, spacing: 2) {
                Text("\(entry.side): \(entry.form)").font(.headline)
                Text(entry.date).font(.footnote).foregroundStyle(.secondary)
            }
        }
    }
}

@MainActor
private struct KneeInstructionsView: View {
    let model: KneeMeasurementModel
    let strings: Strings

    var body: some View {
        List {
            Section {
                ForEach(Array(model.instructionSteps.enumerated()), id: \.offset) { index, step in
                    Label {
                        Text(step)
                    } icon: {
                        Text("\(index + 1)").font(.headline.monospacedDigit())
                    }
                }
            }
            Section {
                Button(strings(.kneeContinue)) { model.showSidePicker() }.font(.headline)
                Button(strings(.kneeBack)) { model.back() }
            }
        }
    }
}

@MainActor
private struct KneeSidePickerView: View {
    let model: KneeMeasurementModel
    let strings: Strings
    @State private var picked: PhotosPickerItem?

    var body: some View {
        List {
            Section {
                Picker(strings(.kneeSideTitle), selection: Binding(get: { model.side }, set: { model.choose($0) })) {
                    ForEach(model.sideChoices, id: \.side) { choice in Text(choice.title).tag(choice.side) }
                }
                .pickerStyle(.segmented)
            }
            Section {
                PhotosPicker(selection: $picked, matching: .videos, preferredItemEncoding: .current) {
                    Label(strings(.kneePickVideo), systemImage: "video.badge.plus")
                }
                .font(.headline)
                Button(strings(.kneeBack)) { model.back() }
            }
        }
        .onChange(of: picked) { _, item in
            guard let item else { return }
            picked = nil
            Task { await load(item) }
        }
    }

    private func load(_ item: PhotosPickerItem) async {
        do {
            guard let movie = try await item.loadTransferable(type: PickedMovie.self) else { return }
            await model.analyse(video: movie.url)
        } catch {
            model.videoUnavailable(error.localizedDescription)
        }
    }
}

/// A video from the photo library, copied to a temporary file the pose source can read.
struct PickedMovie: Transferable {
    let url: URL

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(contentType: .movie) { movie in
            SentTransferredFile(movie.url)
        } importing: { received in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("KneeVideos", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let name = received.file.pathExtension.isEmpty ? "video.mov" : "video.\(received.file.pathExtension)"
            let copy = folder.appendingPathComponent(UUID().uuidString + "-" + name)
            try FileManager.default.copyItem(at: received.file, to: copy)
            return PickedMovie(url: copy)
        }
    }
}

@MainActor
private struct KneeProcessingView: View {
    let model: KneeMeasurementModel

    var body: some View {
        VStack(spacing: 16) {
            if let progress = model.progress, progress.total > 0 {
                ProgressView(value: progress.fraction)
            } else {
                ProgressView()
            }
            if let text = model.progressText { Text(text).font(.body.monospacedDigit()) }
        }
        .padding(32)
        .frame(maxWidth: .infinity, maxHeight: .infinity)
    }
}

@MainActor
private struct KneeResultView: View {
    let model: KneeMeasurementModel
    let strings: Strings
    @State private var report: URL?

    var body: some View {
        if let result = model.result {
            List {
                Section {
                    Text(result.headline).font(.headline)
                    Text(result.extension)
                    Text(result.flexion)
                }
                Section {
                    HStack(alignment: .top, spacing: 12) {
                        figure(result.mostBentFrame, caption: result.mostBent)
                        figure(result.straightestFrame, caption: result.straightest)
                    }
                }
                Section {
                    Text(result.frames)
                    if let note = result.uncertaintyNote { Text(note).font(.footnote).foregroundStyle(.secondary) }
                    ForEach(result.warnings, id: \.self) { Label($0, systemImage: "exclamationmark.triangle").foregroundStyle(.orange) }
                }
                Section {
                    if let report {
                        ShareLink(item: report) { Label(strings(.kneeShareReport), systemImage: "square.and.arrow.up") }
                    }
                    Button(strings(.kneeHistoryButton)) { model.showHistory() }
                    Button(strings(.kneeDone)) { model.done() }.font(.headline)
                }
            }
            .task(id: result.date) {
                report = model.exportReport(to: FileManager.default.temporaryDirectory.appendingPathComponent("KneeReports", isDirectory: true))
            }
        }
    }

    private func figure(_ frame: ExtremeFrame, caption: String) -> some View {
        VStack(spacing: 6) {
            StickFigure(pose: frame.pose).frame(height: 180)
            Text(caption).font(.footnote).multilineTextAlignment(.center)
        }
        .frame(maxWidth: .infinity)
    }
}

/// The legs of one frame as lines: the measured leg bold, the other leg grey, fitted to the
/// space with the picture's directions kept (y down).
struct StickFigure: View {
    let pose: LegPose

    var body: some View {
        Canvas { context, size in
            var points = [pose.hip, pose.knee, pose.ankle]
            let other = [pose.otherHip, pose.otherKnee, pose.otherAnkle].compactMap { $0 }
            points += other
            let low = points.dropFirst().reduce(points[0]) { pointwiseMin($0, $1) }
            let high = points.dropFirst().reduce(points[0]) { pointwiseMax($0, $1) }
            let span = max(high.x - low.x, high.y - low.y, 1)
            let scale = 0.8 * min(Double(size.width), Double(size.height)) / span
            let centre = (low + high) / 2
            func place(_ p: SIMD2<Double>) -> CGPoint {
                CGPoint(x: Double(size.width) / 2 + (p.x - centre.x) * scale, y: Double(size.height) / 2 + (p.y - centre.y) * scale)
            }
            func line(_ joints: [SIMD2<Double>]) -> Path {
                var path = Path()
                path.addLines(joints.map(place))
                return path
            }
            if let hip = pose.otherHip, let knee = pose.otherKnee, let ankle = pose.otherAnkle {
                context.stroke(line([hip, knee, ankle]), with: .color(.gray.opacity(0.6)), style: StrokeStyle(lineWidth: 3, lineCap: .round))
            }
            context.stroke(
                line([pose.hip, pose.knee, pose.ankle]), with: .color(.accentColor),
                style: StrokeStyle(lineWidth: 5, lineCap: .round, lineJoin: .round))
            for joint in [pose.hip, pose.knee, pose.ankle] {
                let p = place(joint)
                context.fill(Path(ellipseIn: CGRect(x: p.x - 5, y: p.y - 5, width: 10, height: 10)), with: .color(.primary))
            }
        }
        .background(RoundedRectangle(cornerRadius: 8).fill(Color.secondary.opacity(0.1)))
    }
}

@MainActor
private struct KneeHistoryView: View {
    let model: KneeMeasurementModel
    let strings: Strings

    var body: some View {
        List {
            Section {
                if model.past.isEmpty { Text(strings(.kneeWelcomeNoResults)).foregroundStyle(.secondary) }
                ForEach(model.past) { entry in KneePastRow(entry: entry) { model.open(entry) } }
                ForEach(model.pastProblems, id: \.self) { Text($0).font(.footnote).foregroundStyle(.orange) }
            }
            Section { Button(strings(.kneeBack)) { model.back() } }
        }
    }
}
