import AppModel
import AppSupport
import AppleDevices
import SwiftUI
import UIKit

/// Shows `content` when the camera may be used, a clear explanation when access is denied.
@MainActor
struct CameraGate<Content: View>: View {
    let strings: Strings
    let close: () -> Void
    @ViewBuilder let content: () -> Content
    @State private var permission = CameraPermission.current

    var body: some View {
        if permission == .denied {
            VStack(spacing: 16) {
                Image(systemName: "video.slash").font(.largeTitle)
                Text(strings(.cameraDeniedTitle)).font(.title2.bold())
                Text(strings(.cameraDeniedMessage)).multilineTextAlignment(.center)
                Button(strings(.cameraOpenSettings)) {
                    if let url = URL(string: UIApplication.openSettingsURLString) { UIApplication.shared.open(url) }
                }
                .buttonStyle(.borderedProminent)
                Button(strings(.commonClose), action: close)
            }
            .padding()
        } else {
            content().task { permission = await CameraPermission.request() }
        }
    }
}

@MainActor
struct ScanView: View {
    let model: ScanModel
    let strings: Strings

    /// The screen stays dark while recording: a glowing display distracted the infants.
    private var isDark: Bool { model.phase == .recording }

    var body: some View {
        VStack(spacing: 16) {
            HStack {
                Button(strings(.commonClose)) { model.close() }.disabled(!model.canClose)
                Spacer()
                Text(strings(.scanTitle)).font(.headline)
                Spacer()
            }
            GeometryReader { proxy in
                if let projection = model.projection(width: Double(proxy.size.width), height: Double(proxy.size.height)) {
                    PointCloudCanvas(projection: projection)
                } else {
                    Text(strings(.cloudWaiting)).foregroundStyle(.secondary).frame(maxWidth: .infinity, maxHeight: .infinity)
                }
            }
            // The sensor's picture is landscape, 4:3.
            .aspectRatio(4.0 / 3.0, contentMode: .fit)
            .background(Color.black.opacity(0.9))
            .opacity(isDark ? 0.08 : 1)
            CloudLegend(entries: model.legend).opacity(isDark ? 0.3 : 1)
            ProgressView(value: Double(model.progress.percent), total: 100)
                .tint(model.progress.barColour.color)
                .scaleEffect(x: 1, y: 3)
            Text("\(model.progress.percent) %").monospacedDigit()
            if let note = model.framesNotWrittenNote { Text(note).font(.caption).foregroundStyle(.orange) }
            if let confirmation = model.confirmation { Text(confirmation).font(.title.bold()) }
            ForEach(model.summary, id: \.self) { Text($0).font(.callout) }
            HStack(spacing: 24) {
                Button(model.primaryButtonTitle) { Task { await model.primaryAction() } }
                    .buttonStyle(.borderedProminent)
                    .disabled(!model.canPressPrimary)
                if model.canStop {
                    Button(strings(.scanStop), role: .destructive) { Task { await model.stop() } }
                        .buttonStyle(.bordered)
                }
            }
            .font(.title3)
        }
        .padding()
        // Vibration, speech and the point cloud run before Record, so the head is found first.
        .task { await model.startPreview() }
        .background(isDark ? Color.black : Color(uiColor: .systemBackground))
        .preferredColorScheme(isDark ? .dark : nil)
        .animation(.default, value: isDark)
        .alert(
            model.alertText?.title ?? "",
            isPresented: Binding(get: { model.alert != nil }, set: { if !$0 { model.dismissAlert() } })
        ) {
            Button(strings(.commonOK)) { model.dismissAlert() }
        } message: {
            Text(model.alertText?.message ?? "")
        }
    }
}

#if DEBUG
import AppModelTesting
import Feedback

struct ScanView_Previews: PreviewProvider {
    static var previews: some View {
        let strings = try! Strings(language: .en)
        let report = ScanProgressReport(percent: 42, colour: .red, cloud: PreviewCloud.head())
        let model = ScanModel(
            library: TemporaryLibrary().library, recorder: ScriptedRecorder(reportsOnStart: [report]), storage: FixedStorageMonitor(),
            thermal: FixedThermalMonitor(), settings: FeedbackSettings(), clock: TestClock(), strings: strings)
        // Paused after the first frame: the cloud shows undimmed.
        ScanView(model: model, strings: strings)
            .task {
                await model.record()
                await model.pause()
            }
    }
}
#endif
