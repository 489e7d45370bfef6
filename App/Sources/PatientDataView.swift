import AppModel
import AppSupport
import ScanLibrary
import SwiftUI

@MainActor
struct PatientDataView: View {
    let model: PatientDataModel
    let strings: Strings

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    field(.patientID, keyboard: .numberPad)
                    if let note = model.knownPatientNote { Text(note).font(.footnote).foregroundStyle(.secondary) }
                    field(.birthDate, keyboard: .numbersAndPunctuation)
                }
                Section {
                    DiagonalDiagram(
                        a: model.label(.diagonalA), b: model.label(.diagonalB), left: strings(.diagramLeft), right: strings(.diagramRight)
                    )
                    .frame(height: 180)
                    Text(model.diagonalHint).font(.footnote)
                    ForEach([PatientField.length, .width, .diagonalA, .diagonalB, .circumference], id: \.self) {
                        field($0, keyboard: .decimalPad)
                    }
                }
                if !model.earlierVisits.isEmpty {
                    Section {
                        ForEach(model.earlierVisits) { visit in
                            HStack {
                                Text(visit.date); Spacer(); Text(visit.cvai).monospacedDigit()
                            }
                        }
                    }
                }
                if let failure = model.failure { Text(failure).foregroundStyle(.red) }
            }
            .navigationTitle(strings(.patientTitle))
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button(strings(.patientAbort), role: .destructive) { model.requestAbort() }
                }
                ToolbarItem(placement: .confirmationAction) {
                    Button(strings(.patientSave)) { model.save() }.disabled(!model.canSave)
                }
            }
            .alert(
                model.abortText.title,
                isPresented: Binding(get: { model.isConfirmingAbort }, set: { if !$0 { model.cancelAbort() } })
            ) {
                Button(model.abortText.confirm, role: .destructive) { model.confirmAbort() }
                Button(model.abortText.cancel, role: .cancel) { model.cancelAbort() }
            } message: {
                Text(model.abortText.message)
            }
        }
    }

    private func field(_ field: PatientField, keyboard: UIKeyboardType) -> some View {
        VStack(alignment: .leading) {
            TextField(
                model.label(field),
                text: Binding(get: { model.text(field) }, set: { model.setText($0, for: field) })
            )
            .keyboardType(keyboard)
            if model.showsError(field), let message = model.errorMessage(field) {
                Text(message).font(.caption).foregroundStyle(.red)
            }
        }
    }
}

/// A head seen from above, nose up, with diagonal A from front left to back right and B
/// from front right to back left, and the sides named: therapists confused the two. The
/// geometry is `DiagonalDiagramLayout`'s, tested there.
@MainActor
struct DiagonalDiagram: View {
    let a: String
    let b: String
    let left: String
    let right: String

    var body: some View {
        Canvas { context, size in
            let layout = DiagonalDiagramLayout(width: Double(size.width), height: Double(size.height))
            func point(_ p: DiagonalDiagramLayout.Point) -> CGPoint { CGPoint(x: p.x, y: p.y) }
            let outline = CGRect(x: layout.outlineOrigin.x, y: layout.outlineOrigin.y, width: layout.outlineSize.x, height: layout.outlineSize.y)
            context.stroke(Path(ellipseIn: outline), with: .color(.primary), lineWidth: 2)
            var nose = Path()
            nose.addLines(layout.nose.map(point))
            context.stroke(nose, with: .color(.primary), lineWidth: 2)
            var pathA = Path()
            pathA.addLines([point(layout.diagonalA.front), point(layout.diagonalA.back)])
            var pathB = Path()
            pathB.addLines([point(layout.diagonalB.front), point(layout.diagonalB.back)])
            context.stroke(pathA, with: .color(.blue), lineWidth: 3)
            context.stroke(pathB, with: .color(.orange), style: StrokeStyle(lineWidth: 3, dash: [6, 4]))
            context.draw(Text(a).font(.caption.bold()).foregroundColor(.blue), at: point(layout.labelA))
            context.draw(Text(b).font(.caption.bold()).foregroundColor(.orange), at: point(layout.labelB))
            context.draw(Text(left).font(.caption2), at: point(layout.leftLabel))
            context.draw(Text(right).font(.caption2), at: point(layout.rightLabel))
        }
        .accessibilityElement()
        .accessibilityLabel("\(a), \(b)")
    }
}

/// A rating on the 1–5 scale as a slider with its ends labelled, as in the original app.
@MainActor
struct RatingSlider: View {
    let title: String
    @Binding var value: Int

    var body: some View {
        VStack(alignment: .leading) {
            Text("\(title): \(value)")
            Slider(
                value: Binding(get: { Double(value) }, set: { value = Int($0.rounded()) }),
                in: Double(RatingRecord.scale.lowerBound)...Double(RatingRecord.scale.upperBound), step: 1
            ) {
                Text(title)
            } minimumValueLabel: {
                Text("\(RatingRecord.scale.lowerBound)")
            } maximumValueLabel: {
                Text("\(RatingRecord.scale.upperBound)")
            }
        }
    }
}

@MainActor
struct ScanRatingView: View {
    @Bindable var model: ScanRatingModel
    let strings: Strings

    var body: some View {
        NavigationStack {
            Form {
                let q = model.questions
                RatingSlider(title: q[0], value: $model.scanQuality)
                RatingSlider(title: q[1], value: $model.behaviourImpact)
                Toggle(q[2], isOn: $model.childCooperative)
                if model.showsBehaviourNote {
                    TextField(strings(.ratingNoteLabel), text: $model.behaviourNote, axis: .vertical)
                    if let problem = model.behaviourNoteProblem { Text(problem).font(.caption).foregroundStyle(.red) }
                }
                RatingSlider(title: q[3], value: $model.capFit)
                Toggle(q[4], isOn: $model.pausedForHeat)
                Toggle(q[5], isOn: $model.neededScreen)
                if let failure = model.failure { Text(failure).foregroundStyle(.red) }
            }
            .navigationTitle(strings(.ratingTitle))
            .toolbar {
                ToolbarItem(placement: .confirmationAction) {
                    Button(strings(.ratingSave)) { model.save() }.disabled(!model.canSave)
                }
            }
        }
    }
}
