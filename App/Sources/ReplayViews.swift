import AppModel
import AppSupport
import Cephalometry
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
                let width = Double(proxy.size.width), height = Double(proxy.size.height)
                ZStack {
                    if let projection = model.projection(width: width, height: height) {
                        PointCloudCanvas(projection: projection)
                        ForEach(model.landmarkDots(in: projection), id: \.landmark) { dot in
                            // Found by HeadScan: a ring to confirm; picked: a filled dot.
                            Circle().fill(dot.isSuggestion ? Color.clear : dot.isSelected ? Color.yellow : Color.purple)
                                .overlay(
                                    Circle().stroke(
                                        dot.isSuggestion ? (dot.isSelected ? Color.yellow : Color.purple) : Color.white,
                                        lineWidth: dot.isSuggestion ? 3 : 1)
                                )
                                .frame(width: dot.isSuggestion ? 20 : 14, height: dot.isSuggestion ? 20 : 14)
                                .position(x: dot.position.x, y: dot.position.y)
                        }
                    } else {
                        Text(strings(.cloudWaiting)).foregroundStyle(.secondary)
                    }
                }
                .frame(width: proxy.size.width, height: proxy.size.height)
                .contentShape(Rectangle())
                // Double tap: the default view again; a single tap places the selected landmark.
                .gesture(
                    SpatialTapGesture(count: 2).onEnded { _ in model.resetView() }
                        .exclusively(
                            before: SpatialTapGesture().onEnded { tap in
                                model.tap(at: SIMD2(Double(tap.location.x), Double(tap.location.y)), width: width, height: height)
                            })
                )
                .simultaneousGesture(
                    DragGesture(minimumDistance: 2).onChanged { drag in
                        let delta = SIMD2(Double(drag.translation.width - dragStart.width), Double(drag.translation.height - dragStart.height))
                        dragStart = drag.translation
                        model.drag(to: SIMD2(Double(drag.location.x), Double(drag.location.y)), by: delta, width: width, height: height)
                    }.onEnded { _ in dragStart = .zero }
                )
                .simultaneousGesture(
                    MagnificationGesture().onChanged { scale in
                        model.zoom(by: Double(scale / pinchStart))
                        pinchStart = scale
                    }.onEnded { _ in pinchStart = 1 })
            }
            // The recorded pictures are landscape, 4:3.
            .aspectRatio(4.0 / 3.0, contentMode: .fit)
            .background(Color(uiColor: .secondarySystemBackground))
            CloudLegend(entries: model.legend)
            Text(model.instruction).font(.subheadline)
            if let hint = model.landmarkHint { Text(hint).font(.footnote).foregroundStyle(.secondary) }
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
                Button {
                    model.resetView()
                } label: {
                    Label("", systemImage: "arrow.counterclockwise")
                }
                if let selected = model.selectedLandmark {
                    Button {
                        model.remove(selected)
                    } label: {
                        Label("", systemImage: "trash")
                    }
                }
            }
        }
        .padding()
        .task {
            // The recording's pace: 30 frames a second.
            while !Task.isCancelled {
                await model.tick()
                try? await Task.sleep(for: .milliseconds(33))
            }
        }
    }
}

#if DEBUG
import AppModelTesting

struct ReplayView_Previews: PreviewProvider {
    static var previews: some View {
        let strings = try! Strings(language: .en)
        let library = TemporaryLibrary()
        let model = ReplayModel(
            session: try! library.savedSession(id: 12), library: library.library,
            player: ScriptedReplayPlayer(overlap: [false, true, true], cloud: PreviewCloud.head()), clock: TestClock(), strings: strings)
        ReplayView(model: model, strings: strings)
    }
}
#endif
