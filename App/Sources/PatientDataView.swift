import AppModel
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
                    DiagonalDiagram(a: model.label(.diagonalA), b: model.label(.diagonalB))
                        .frame(height: 180)
                    Text(model.diagonalHint).font(.footnote)
                    ForEach([PatientField.length, .width, .diagonalA, .diagonalB, .circumference], id: \.self) {
                        field($0, keyboard: .decimalPad)
                    }
                }
                if !model.earlierVisits.isEmpty {
                    Section {
                        ForEach(model.earlierVisits) { visit in
                            HStack { Text(visit.date); Spacer(); Text(visit.cvai).monospacedDigit() }
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
                text: Binding(get: { model.text(field) }, set: { model.setText($0, for: field) }))
                .keyboardType(keyboard)
            if model.showsError(field), let message = model.errorMessage(field) {
                Text(message).font(.caption).foregroundStyle(.red)
            }
        }
    }
}

/// A head seen from above (nose up) with diagonal A from front right to back left and B from
/// front left to back right, each at 30° from the midline — therapists confused them.
@MainActor
struct DiagonalDiagram: View {
    let a: String
    let b: String

    var body: some View {
        Canvas { context, size in
            let rect = CGRect(x: size.width * 0.3, y: 10, width: size.width * 0.4, height: size.height - 20)
            let centre = CGPoint(x: rect.midX, y: rect.midY)
            context.stroke(Path(ellipseIn: rect), with: .color(.primary), lineWidth: 2)
            // Nose at the top.
            var nose = Path()
            nose.move(to: CGPoint(x: centre.x - 8, y: rect.minY + 2))
            nose.addLine(to: CGPoint(x: centre.x, y: rect.minY - 8))
            nose.addLine(to: CGPoint(x: centre.x + 8, y: rect.minY + 2))
            context.stroke(nose, with: .color(.primary), lineWidth: 2)
            let dx = rect.width / 2 * sin(Double.pi / 6) * 1.6, dy = rect.height / 2 * cos(Double.pi / 6)
            // Seen from above with the nose up, the patient's right is on the viewer's right.
            let aStart = CGPoint(x: centre.x + dx, y: centre.y - dy), aEnd = CGPoint(x: centre.x - dx, y: centre.y + dy)
            let bStart = CGPoint(x: centre.x - dx, y: centre.y - dy), bEnd = CGPoint(x: centre.x + dx, y: centre.y + dy)
            var pathA = Path(); pathA.move(to: aStart); pathA.addLine(to: aEnd)
            var pathB = Path(); pathB.move(to: bStart); pathB.addLine(to: bEnd)
            context.stroke(pathA, with: .color(.blue), lineWidth: 3)
            context.stroke(pathB, with: .color(.orange), style: StrokeStyle(lineWidth: 3, dash: [6, 4]))
            context.draw(Text(a).font(.caption.bold()).foregroundColor(.blue), at: CGPoint(x: aStart.x + 40, y: aStart.y - 6))
            context.draw(Text(b).font(.caption.bold()).foregroundColor(.orange), at: CGPoint(x: bStart.x - 40, y: bStart.y - 6))
        }
        .accessibilityElement()
        .accessibilityLabel("\(a), \(b)")
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
                Stepper("\(q[0]): \(model.scanQuality)", value: $model.scanQuality, in: RatingRecord.scale)
                Stepper("\(q[1]): \(model.behaviourImpact)", value: $model.behaviourImpact, in: RatingRecord.scale)
                Toggle(q[2], isOn: $model.childCooperative)
                if model.showsBehaviourNote {
                    TextField(strings(.ratingNoteLabel), text: $model.behaviourNote, axis: .vertical)
                    if let problem = model.behaviourNoteProblem { Text(problem).font(.caption).foregroundStyle(.red) }
                }
                Stepper("\(q[3]): \(model.capFit)", value: $model.capFit, in: RatingRecord.scale)
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
