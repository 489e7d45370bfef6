import AppModel
import AppSupport
import Foundation
import SwiftUI

@MainActor
struct FilesView: View {
    let model: FilesModel
    let strings: Strings
    let close: () -> Void

    var body: some View {
        List {
            ForEach(model.hints, id: \.self) { Text($0).font(.footnote).foregroundStyle(.secondary) }
            if let message = model.message { Text(message) }
            ForEach(model.rows) { row in
                HStack {
                    if model.isEditing {
                        Image(systemName: model.selection.contains(row.id) ? "checkmark.circle.fill" : "circle")
                    }
                    VStack(alignment: .leading) {
                        Text(row.session.name.rawValue)
                        Text(row.status).font(.caption).foregroundStyle(.secondary)
                        ForEach(row.problems, id: \.self) { Text($0).font(.caption).foregroundStyle(.orange) }
                    }
                    Spacer()
                    if !model.isEditing {
                        // The session as one zip file, for researchers without a Mac at hand.
                        Button {
                            Task { await model.share(row, into: FileManager.default.temporaryDirectory) }
                        } label: {
                            Image(systemName: "square.and.arrow.up")
                        }
                        .disabled(model.isPacking)
                    }
                }
                .contentShape(Rectangle())
                .onTapGesture { if model.isEditing { model.toggleSelection(row) } }
            }
            ForEach(model.strays, id: \.self) { Text($0).font(.caption).foregroundStyle(.secondary) }
        }
        .overlay { if model.isPacking { ProgressView() } }
        .sheet(isPresented: Binding(get: { model.sharedArchive != nil }, set: { if !$0 { model.sharingEnded() } })) {
            if let zip = model.sharedArchive {
                ShareLink(item: zip) { Label(zip.lastPathComponent, systemImage: "doc.zipper") }.padding()
            }
        }
        .onAppear { model.reload() }
        .toolbar {
            ToolbarItemGroup(placement: .bottomBar) {
                Button(model.editButtonTitle) { model.toggleEditing() }
                Spacer()
                Button(strings(.filesRename)) { model.renameSelected() }.disabled(!model.canRename)
                Button(strings(.filesDelete), role: .destructive) { model.requestDelete() }.disabled(!model.canDelete)
            }
        }
        .confirmationDialog(
            model.deleteQuestion,
            isPresented: Binding(get: { model.isConfirmingDelete }, set: { if !$0 { model.cancelDelete() } }),
            titleVisibility: .visible
        ) {
            Button(strings(.filesDelete), role: .destructive) { model.confirmDelete() }
            Button(strings(.commonCancel), role: .cancel) { model.cancelDelete() }
        }
        .screenBar(strings(.filesTitle), close: strings(.commonClose), action: close)
    }
}

@MainActor
struct RenameView: View {
    @Bindable var model: RenameModel
    let strings: Strings

    var body: some View {
        Form {
            LabeledContent(strings(.renameCurrent), value: model.currentName)
            TextField(strings(.renameNew), text: $model.newName)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
            Text(model.formatHint).font(.footnote).foregroundStyle(.secondary)
            if let problem = model.problem { Text(problem).font(.caption).foregroundStyle(.red) }
            if let result = model.result { Text(result).foregroundStyle(model.succeeded ? .green : .red) }
            Button(strings(.renameButton)) { Task { await model.rename() } }.disabled(!model.canRename)
        }
        .screenBar(strings(.renameTitle), close: strings(.commonCancel), action: model.cancel)
    }
}
