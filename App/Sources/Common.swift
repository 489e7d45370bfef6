import AppModel
import Feedback
import ScanLibrary
import SwiftUI

extension StatusColour {
    var color: Color {
        switch self {
        case .green: .green
        case .orange: .orange
        case .red: .red
        }
    }
}

extension ProgressColour {
    var color: Color {
        switch self {
        case .green: .green
        case .orange: .orange
        case .red: .red
        }
    }
}

/// A screen's title bar with a close button.
struct ScreenBar: ViewModifier {
    let title: String
    let closeTitle: String
    var canClose = true
    let close: () -> Void

    func body(content: Content) -> some View {
        NavigationStack {
            content
                .navigationTitle(title)
                .navigationBarTitleDisplayMode(.inline)
                .toolbar {
                    ToolbarItem(placement: .cancellationAction) {
                        Button(closeTitle, action: close).disabled(!canClose)
                    }
                }
        }
    }
}

extension View {
    func screenBar(_ title: String, close closeTitle: String, canClose: Bool = true, action: @escaping () -> Void) -> some View {
        modifier(ScreenBar(title: title, closeTitle: closeTitle, canClose: canClose, close: action))
    }
}
