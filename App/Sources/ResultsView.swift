import AppModel
import AppSupport
import SwiftUI

/// A measure's name with its 3D value and, when taken, the calliper's beneath it.
struct ValueRow: View {
    let row: ResultRow

    var body: some View {
        HStack {
            Text(row.name)
            Spacer()
            VStack(alignment: .trailing) {
                Text(row.value).monospacedDigit()
                if let calliper = row.calliper { Text(calliper).font(.caption).foregroundStyle(.secondary) }
            }
        }
    }
}

@MainActor
struct ResultsView: View {
    let model: ResultsModel
    let strings: Strings
    let close: () -> Void

    var body: some View {
        List {
            Section {
                switch model.phase {
                case .ready, .measured: EmptyView()
                case .processing(let stage, let fraction): ProgressView(stage, value: fraction)
                case .failed(let why): Text(why).foregroundStyle(.red)
                case .capLifted(let why): Text(why).foregroundStyle(.orange)
                }
                Button(model.buttonTitle) { Task { await model.buttonTapped() } }.buttonStyle(.borderedProminent)
            }
            if !model.rows.isEmpty {
                Section {
                    ForEach(model.rows) { ValueRow(row: $0) }
                    if let severity = model.severity { Text(severity).font(.headline).foregroundStyle(severityColour) }
                    if let deformity = model.deformity { Text(deformity).font(.subheadline) }
                    if model.needsSpecialist { Text(strings(.resultsSpecialist)).font(.subheadline).foregroundStyle(.red) }
                    if let verdict = model.calliperVerdict { Text(verdict).font(.footnote) }
                }
            }
            if !model.shapeRows.isEmpty {
                Section {
                    ForEach(model.shapeRows) { ValueRow(row: $0) }
                }
            }
            if let map = model.asymmetry {
                Section(strings(.resultsMapTitle)) { DrawingView(drawing: map) }
            }
            if !model.trend.isEmpty {
                Section {
                    ForEach(model.trend) { row in
                        HStack {
                            Text(row.date).fontWeight(row.isThisVisit ? .bold : .regular)
                            if let age = row.age { Text(age).foregroundStyle(.secondary) }
                            Spacer()
                            Text(row.cvai).monospacedDigit()
                        }
                    }
                    ForEach(model.trendChanges, id: \.self) { Text($0).font(.footnote).monospacedDigit() }
                }
            }
            ForEach(model.notes, id: \.self) { Text($0).font(.footnote).foregroundStyle(.secondary) }
            if let report = model.reportURL {
                ShareLink(item: report) { Label("PDF", systemImage: "square.and.arrow.up") }
            }
            Section { Text(model.disclaimer).font(.footnote).foregroundStyle(.secondary) }
        }
        .task { await model.loadAsymmetry() }
        .screenBar(model.session.name.rawValue, close: strings(.commonClose), action: close)
    }

    private var severityColour: Color {
        switch model.severityLevel ?? 0 {
        case ...1: .green
        case 2: .yellow
        case 3: .orange
        default: .red
        }
    }
}
