import AppModel
import SwiftUI

@MainActor
struct SettingsView: View {
    let model: SettingsModel
    let strings: Strings
    let close: () -> Void
    @FocusState private var editing: String?

    var body: some View {
        Form {
            if let problem = model.problem { Text(problem).foregroundStyle(.red) }
            ForEach(model.sections) { section in
                Section(model.title(section)) {
                    ForEach(model.fields(in: section)) { field in
                        SettingRow(model: model, field: field, editing: $editing)
                    }
                }
            }
            Button(strings(.settingsReset), role: .destructive) { model.resetToDefaults() }
        }
        // Leaving a number field shows the value in force again.
        .onChange(of: editing) { old, _ in if let old { model.endEditing(old) } }
        .screenBar(strings(.settingsTitle), close: strings(.commonClose), action: close)
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

