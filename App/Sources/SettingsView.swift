import AppModel
import AppSupport
import SwiftUI
import UniformTypeIdentifiers

@MainActor
struct SettingsView: View {
    let model: SettingsModel
    let strings: Strings
    let close: () -> Void
    @State private var importingCap = false
    @FocusState private var editing: String?

    var body: some View {
        Form {
            if let problem = model.problem { Text(problem).foregroundStyle(.red) }
            ForEach(model.sections) { section in
                Section(model.title(section)) {
                    if section == .cap { capRows }
                    ForEach(model.fields(in: section)) { field in
                        SettingRow(model: model, field: field, editing: $editing)
                    }
                }
            }
            Button(strings(.settingsReset), role: .destructive) { model.resetToDefaults() }
        }
        // Leaving a number field shows the value in force again.
        .onChange(of: editing) { old, _ in if let old { model.endEditing(old) } }
        .fileImporter(isPresented: $importingCap, allowedContentTypes: [.json]) { result in
            guard case .success(let url) = result else { return }
            // Files picked from elsewhere are readable only inside this scope.
            let scoped = url.startAccessingSecurityScopedResource()
            defer { if scoped { url.stopAccessingSecurityScopedResource() } }
            model.importCapLayout(contentsOf: url)
        }
        .screenBar(strings(.settingsTitle), close: strings(.commonClose), action: close)
    }

    @ViewBuilder private var capRows: some View {
        Text(model.capSummary).font(.body.monospacedDigit())
        if let message = model.capMessage {
            Text(message).font(.footnote).foregroundStyle(model.capMessageIsProblem ? .red : .secondary)
        }
        Button(strings(.settingsCapImport)) { importingCap = true }
        if !model.usesStandardCap { Button(strings(.settingsCapStandard)) { model.useStandardCap() } }
        Text(strings(.settingsCapHint)).font(.caption).foregroundStyle(.secondary)
    }
}

/// One setting: a number field, a switch or a choice, with what it does below.
@MainActor
struct SettingRow: View {
    let model: SettingsModel
    let field: SettingField
    var editing: FocusState<String?>.Binding

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            switch field.kind {
            case .wholeNumber, .decimal:
                LabeledContent(field.title) {
                    TextField(field.title, text: Binding(get: { model.text(field.key) }, set: { model.setText($0, for: field.key) }))
                        .keyboardType(field.kind == .wholeNumber ? .numberPad : .decimalPad)
                        .multilineTextAlignment(.trailing)
                        .focused(editing, equals: field.key)
                        .frame(maxWidth: 110)
                }
                if let problem = model.problem(field.key) { Text(problem).font(.caption).foregroundStyle(.red) }
            case .toggle:
                Toggle(field.title, isOn: Binding(get: { model.isOn(field.key) }, set: { model.setOn($0, for: field.key) }))
            case .choice(let options):
                Picker(field.title, selection: Binding(get: { model.choice(field.key) }, set: { model.setChoice($0, for: field.key) })) {
                    ForEach(options, id: \.self) { Text(model.optionTitle($0, for: field.key)).tag($0) }
                }
            }
            Text(field.detail).font(.caption).foregroundStyle(.secondary)
        }
    }
}

#if DEBUG
import ScanLibrary

struct SettingsView_Previews: PreviewProvider {
    static var previews: some View {
        let strings = try! Strings(language: .de)
        SettingsView(model: SettingsModel(store: SettingsStore(store: InMemoryKeyValueStore()), strings: strings), strings: strings) {}
    }
}
#endif
