import AppModel
import AppSupport
import AppleDevices
import GestureFeature
import HeadGestures
import SwiftUI

/// The head-gesture demo: the front camera's faces drive the model; the view draws the idle
/// zone, the pointer and the face's points, and lists the latest events.
@MainActor
struct GestureDemoView: View {
    let model: GestureDemoModel
    let strings: Strings
    let close: () -> Void

    var body: some View {
        CameraGate(strings: strings, close: close) {
            VStack(spacing: 12) {
                Text(model.status).font(.headline).multilineTextAlignment(.center)
                Picker(model.title, selection: Binding(get: { model.mode }, set: { model.setMode($0) })) {
                    ForEach(GestureMode.allCases, id: \.self) { mode in Text(model.label(for: mode)).tag(mode) }
                }
                .pickerStyle(.segmented)
                GesturePointerCanvas(model: model)
                    .frame(maxWidth: .infinity)
                    .frame(height: 260)
                if let progress = model.calibrationProgress { ProgressView(value: progress) }
                if let problem = model.problem { Text(problem).font(.footnote).foregroundStyle(.red) }
                Button(model.recalibrateLabel) { model.recalibrate() }
                List {
                    Section(model.lastEventsTitle) {
                        ForEach(model.entries) { entry in
                            HStack {
                                Text(entry.text)
                                Spacer()
                                Text("\(strings.decimal(entry.time)) s").font(.footnote.monospacedDigit()).foregroundStyle(.secondary)
                            }
                        }
                    }
                }
                .listStyle(.plain)
            }
            .padding()
            .task { await run() }
        }
        .screenBar(model.title, close: strings(.commonClose), action: close)
    }

    /// Runs the front camera while the screen is shown; leaving the screen cancels the task,
    /// which ends the loop and stops the camera.
    private func run() async {
        let camera = VisionFaceSource()
        do {
            try await camera.start()
        } catch {
            model.cameraFailed(error.localizedDescription)
            return
        }
        for await frame in camera.frames {
            model.receive(frame)
        }
        camera.stop()
    }
}

/// The upright picture scaled into the space and mirrored, as a selfie preview is, so that
/// the pointer moves the way the person turns: the idle zone (green while the pointer rests
/// in it), the eyes and mouth, and the pointer.
@MainActor
private struct GesturePointerCanvas: View {
    let model: GestureDemoModel

    var body: some View {
        Canvas { context, size in
            let image = model.imageSize
            let scale = min(Double(size.width) / image.x, Double(size.height) / image.y)
            let origin = SIMD2((Double(size.width) - image.x * scale) / 2, (Double(size.height) - image.y * scale) / 2)
            func place(_ p: SIMD2<Double>) -> CGPoint {
                CGPoint(x: origin.x + (image.x - 1 - p.x) * scale, y: origin.y + p.y * scale)
            }
            func circle(_ centre: CGPoint, _ radius: Double) -> Path {
                Path(ellipseIn: CGRect(x: centre.x - radius, y: centre.y - radius, width: 2 * radius, height: 2 * radius))
            }
            let frame = CGRect(x: origin.x, y: origin.y, width: image.x * scale, height: image.y * scale)
            context.fill(Path(roundedRect: frame, cornerRadius: 8), with: .color(.secondary.opacity(0.1)))
            if let zone = model.idleZone {
                let colour: Color = model.isInIdleZone ? .green : .orange
                let shape = circle(place(zone.centre), zone.radius * scale)
                context.fill(shape, with: .color(colour.opacity(0.2)))
                context.stroke(shape, with: .color(colour), lineWidth: 2)
            }
            for point in model.facePoints {
                context.fill(circle(place(point), 4), with: .color(.secondary))
            }
            if let pointer = model.pointer {
                context.fill(circle(place(pointer), 9), with: .color(.accentColor))
            }
        }
    }
}
