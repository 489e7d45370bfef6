import AppSupport
import Feedback
import Foundation

/// Plays feedback for demonstration: the vibration and utterances of the scan guide.
@MainActor
public protocol FeedbackPlayer: AnyObject {
    /// Plays the continuous "position not ideal" vibration briefly.
    func playVibration()
    /// Speaks `text` in `language`, even in silent mode.
    func speak(_ text: String, language: Language)
}
