import AppModel
import ScanLibrary
import SwiftUI

@MainActor
struct ReplaySelectionView: View {
    let model: ReplaySelectionModel
    let strings: Strings
    let problem: String?
    let close: () -> Void

    var body: some View {
        List {
            Text(model.hint).font(.footnote).foregroundStyle(.secondary)
            if let message = model.message { Text(message) }
            if let problem { Text(problem).foregroundStyle(.red) }
            ForEach(model.problems, id: \.self) { Text($0).font(.caption).foregroundStyle(.orange) }
            ForEach(model.rows) { row in
                HStack {
                    Button(row.session.name.rawValue) { model.open(row) }
                    Spacer()
                    Text(row.tag).font(.caption).foregroundStyle(row.status == .allSet ? .green : .orange)
                    if model.canMeasure(row) {
                        Button(strings(.resultsMeasure)) { model.measure(row) }.buttonStyle(.bordered)
                    }
                }
            }
        }
        .onAppear { model.reload() }
        .screenBar(strings(.replaySelectionTitle), close: strings(.commonClose), action: close)
    }
}

@MainActor
struct ReplayView: View {
    let model: ReplayModel
    let strings: Strings
    /// The recorded pictures' size: taps are placed in its pixels.
    private let pictureSize = CGSize(width: 640, height: 480)
    @State private var dragStart: CGSize = .zero
    @State private var pinchStart: CGFloat = 1

    var body: some View {
        VStack(spacing: 12) {
            HStack {
                Button(strings(.commonClose)) { _ = model.close() }
                Spacer()
                if let frame = model.frame { Text("#\(frame.index)  \(frame.percent) %").monospacedDigit() }
            }
            GeometryReader { proxy in
                ZStack {
                    ReplayCloudPlaceholder(view: model.view, percent: model.frame?.percent ?? 0)
                    ForEach(Landmark.allCases, id: \.self) { landmark in
                        if let pick = model.pickOnScreen(landmark) {
                            Circle().fill(landmark == model.selectedLandmark ? Color.yellow : Color.purple)
                                .frame(width: 14, height: 14)
                                .position(
                                    x: pick.x / pictureSize.width * proxy.size.width,
                                    y: pick.y / pictureSize.height * proxy.size.height)
                        }
                    }
                }
                .contentShape(Rectangle())
                .gesture(SpatialTapGesture().onEnded { tap in
                    model.place(at: SIMD2(
                        Double(tap.location.x / proxy.size.width * pictureSize.width),
                        Double(tap.location.y / proxy.size.height * pictureSize.height)))
                })
                .simultaneousGesture(DragGesture().onChanged { drag in
                    let delta = CGSize(width: drag.translation.width - dragStart.width, height: drag.translation.height - dragStart.height)
                    model.rotate(yaw: Double(delta.width) * 0.01, pitch: Double(delta.height) * 0.01)
                    dragStart = drag.translation
                }.onEnded { _ in dragStart = .zero })
                .simultaneousGesture(MagnificationGesture().onChanged { scale in
                    model.zoom(by: Double(scale / pinchStart))
                    pinchStart = scale
                }.onEnded { _ in pinchStart = 1 })
            }
            .aspectRatio(pictureSize.width / pictureSize.height, contentMode: .fit)
            Text(model.instruction).font(.subheadline)
            if let problem = model.problem { Text(problem).font(.caption).foregroundStyle(.red) }
            HStack {
                ForEach(Landmark.allCases, id: \.self) { landmark in
                    Button("\(model.name(landmark)) (\(model.pickCount(landmark)))") { model.select(landmark) }
                        .buttonStyle(.bordered)
                        .tint(model.isPlaced(landmark) ? .green : .gray)
                        .font(.caption)
                }
            }
            HStack {
                Button(model.playButtonTitle) { model.togglePlay() }.buttonStyle(.borderedProminent)
                Button { model.resetView() } label: { Label("", systemImage: "arrow.counterclockwise") }
                if let selected = model.selectedLandmark {
                    Button { model.remove(selected) } label: { Label("", systemImage: "trash") }
                }
            }
        }
        .padding()
        .task {
            // The recording's pace: 30 frames a second.
            while !Task.isCancelled {
                model.tick()
                try? await Task.sleep(for: .milliseconds(33))
            }
        }
    }
}

/// A stand-in for the recorded point cloud, turned and zoomed with the model's view.
@MainActor
struct ReplayCloudPlaceholder: View {
    let view: CloudViewTransform
    let percent: Int

    var body: some View {
        Canvas { context, size in
            let centre = CGPoint(x: size.width / 2, y: size.height / 2)
            let radius = min(size.width, size.height) * 0.35 * view.zoom
            for i in 0..<400 {
                // Points on a sphere (golden spiral), turned by yaw and pitch.
                let t = Double(i) / 400, phi = acos(1 - 2 * t), theta = Double(i) * 2.399963
                var x = sin(phi) * cos(theta), y = cos(phi), z = sin(phi) * sin(theta)
                (x, z) = (x * cos(view.yaw) + z * sin(view.yaw), -x * sin(view.yaw) + z * cos(view.yaw))
                (y, z) = (y * cos(view.pitch) - z * sin(view.pitch), y * sin(view.pitch) + z * cos(view.pitch))
                guard z > -0.2 else { continue }
                let point = CGPoint(x: centre.x + x * radius, y: centre.y - y * radius)
                context.fill(Path(ellipseIn: CGRect(x: point.x - 1.5, y: point.y - 1.5, width: 3, height: 3)), with: .color(.secondary))
            }
        }
        .background(Color(uiColor: .secondarySystemBackground))
    }
}
