import AppModel
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
            MarkerCloudPlaceholder(progress: model.progress.percent)
                .opacity(isDark ? 0.08 : 1)
            ProgressView(value: Double(model.progress.percent), total: 100)
                .tint(model.progress.barColour.color)
                .scaleEffect(x: 1, y: 3)
            Text("\(model.progress.percent) %").monospacedDigit()
            if let confirmation = model.confirmation { Text(confirmation).font(.title.bold()) }
            ForEach(model.summary, id: \.self) { Text($0).font(.callout) }
            HStack(spacing: 24) {
                Button(model.primaryButtonTitle) { Task { await model.primaryAction() } }
                    .buttonStyle(.borderedProminent)
                    .disabled(model.phase == .stopping || model.phase == .saved)
                if model.canStop {
                    Button(strings(.scanStop), role: .destructive) { Task { await model.stop() } }
                        .buttonStyle(.bordered)
                }
            }
            .font(.title3)
        }
        .padding()
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

/// A stand-in for the live point cloud: the cap's markers in a ring, coloured green (seen),
/// red (not yet) and blue (in view now). The device build draws the real cloud here.
@MainActor
struct MarkerCloudPlaceholder: View {
    let progress: Int

    var body: some View {
        Canvas { context, size in
            let centre = CGPoint(x: size.width / 2, y: size.height / 2)
            let radius = min(size.width, size.height) * 0.4
            let count = 57
            let seen = count * progress / 100
            for index in 0..<count {
                let angle = Double(index) / Double(count) * 2 * .pi
                let ring = radius * (0.55 + 0.45 * Double(index % 3) / 2)
                let point = CGPoint(x: centre.x + ring * cos(angle), y: centre.y + ring * sin(angle))
                let colour: Color = index < seen ? .green : (index < seen + 3 ? .blue : .red)
                context.fill(Path(ellipseIn: CGRect(x: point.x - 5, y: point.y - 5, width: 10, height: 10)), with: .color(colour))
            }
        }
        .aspectRatio(1, contentMode: .fit)
    }
}
