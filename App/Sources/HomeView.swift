import AppModel
import AppSupport
import SwiftUI

@MainActor
struct HomeView: View {
    let model: HomeModel
    let strings: Strings
    /// Why the last screen could not be opened.
    var problem: String?

    var body: some View {
        NavigationStack {
            List {
                if let problem { Text(problem).font(.footnote).foregroundStyle(.red) }
                Section {
                    Label(model.storageText, systemImage: "internaldrive").foregroundStyle(model.storageColour.color)
                    if let warning = model.storageWarning { Text(warning).font(.footnote).foregroundStyle(.red) }
                    Label(model.thermalText, systemImage: "thermometer.medium").foregroundStyle(model.thermalColour.color)
                    if let warning = model.thermalWarning { Text(warning).font(.footnote).foregroundStyle(.orange) }
                    Button {
                        model.playTestSound()
                    } label: {
                        Label(strings(.homeTestSound), systemImage: "speaker.wave.2")
                    }
                }
                Section {
                    Button {
                        model.open(.scan)
                    } label: {
                        Label(strings(.homeScan), systemImage: "camera.viewfinder")
                    }
                    .disabled(!model.canStartScan)
                    .font(.title3.bold())
                    Button {
                        model.open(.instructions)
                    } label: {
                        Label(strings(.homeInstructions), systemImage: "questionmark.circle")
                    }
                    Button {
                        model.open(.replay)
                    } label: {
                        Label(strings(.homeReplay), systemImage: "play.rectangle")
                    }
                    Button {
                        model.open(.files)
                    } label: {
                        Label(strings(.homeFiles), systemImage: "folder")
                    }
                    Button {
                        model.open(.settings)
                    } label: {
                        Label(strings(.homeSettings), systemImage: "gearshape")
                    }
                }
                Section {
                    Button {
                        model.open(.knee)
                    } label: {
                        Label(strings(.homeKnee), systemImage: "figure.walk")
                    }
                    Button {
                        model.open(.gestures)
                    } label: {
                        Label(strings(.homeGestures), systemImage: "face.smiling")
                    }
                }
            }
            .navigationTitle(strings(.homeTitle))
            .onAppear { model.refresh() }
        }
    }
}

@MainActor
struct ScanInstructionsView: View {
    let model: ScanInstructionsModel
    let strings: Strings
    let close: () -> Void

    var body: some View {
        List(model.entries) { entry in
            VStack(alignment: .leading, spacing: 6) {
                Text(entry.title).font(.headline)
                Text(entry.action).font(.subheadline.bold())
                Text(entry.description).font(.subheadline).foregroundStyle(.secondary)
                Button {
                    model.playDemo(entry.id)
                } label: {
                    Label(entry.demoTitle, systemImage: "play.circle")
                }
                .buttonStyle(.bordered)
            }
            .padding(.vertical, 4)
        }
        .screenBar(strings(.instrTitle), close: strings(.commonClose), action: close)
    }
}
