import AppSupport
import ScanLibrary

extension Strings {
    /// A library error in the user's language.
    public func message(_ error: ScanLibraryError) -> String {
        switch error {
        case .unreadableLibrary(let path, _): self(.errorLibraryUnreadable, path)
        case .sessionNotFound(let name): self(.errorSessionNotFound, name)
        case .invalidName(_, let problem): self(.errorInvalidName, nameProblem(problem))
        case .nameTaken(let name): self(.errorNameTaken, name)
        case .sameName: self(.errorSameName)
        case .invalidPatientID(let id): self(.errorInvalidPatientID, String(id))
        case .corruptDocument(let session, let file, _): self(.errorCorruptDocument, session, file)
        case .newerDocument(let session, let file, _, _): self(.errorNewerDocument, session, file)
        case .invalidDocument(let file, _): self(.errorInvalidDocument, file)
        case .fileOperationFailed(_, _, let reason): self(.errorFileOperation, reason)
        case .rollbackFailed(_, let path, _): self(.errorRollback, path)
        }
    }

    /// Why the camera could not start.
    public func message(_ failure: CameraFailure) -> String {
        switch failure {
        case .notAuthorized: self(.cameraFailureNotAuthorized)
        case .noTrueDepthCamera: self(.cameraFailureNoTrueDepth)
        case .noDepthFormat: self(.cameraFailureNoDepthFormat)
        case .setupFailed(let part): self(.cameraFailureSetup, part)
        case .noFrames: self(.cameraFailureNoFrames)
        }
    }

    /// What is wrong with a typed name.
    public func nameProblem(_ problem: NameProblem) -> String {
        switch problem {
        case .empty: self(.nameEmpty)
        case .tooLong(let limit): self(.nameTooLong, String(limit))
        case .pathSeparator: self(.namePathSeparator)
        case .pathTraversal: self(.namePathTraversal)
        case .forbiddenCharacter(let c): self(.nameForbiddenCharacter, c)
        case .wrongShape: self(.nameWrongShape)
        case .badDate(let d): self(.nameBadDate, d)
        case .emptyID: self(.nameEmptyID)
        }
    }
}
