import Foundation

extension ScanLibrary {
    /// Saves the patient data and names the session after the patient ID.
    ///
    /// An ID other sessions use is a further visit of the same patient. A session with a
    /// temporary name, or one named after the previously saved ID, is renamed to
    /// `[ID]_[date]_Scan`; if that fails the previous `patient.json` is put back. Returns the
    /// session under its new name.
    @discardableResult
    public func savePatient(_ patient: PatientRecord, in session: ScanSession) throws(ScanLibraryError) -> ScanSession {
        try patient.validate()
        try requireExists(session)
        let previous = try? fileSystem.readData(at: session.patientURL)
        let target = try patientName(for: patient, session: session)
        if let target, try isTaken(target, by: session) { throw .nameTaken(target.rawValue) }
        let data = try encoded(patient, in: session)
        try step("write", session.patientURL) { try fileSystem.writeData(data, to: session.patientURL) }
        guard let target else { return session }
        let moved = ScanSession(name: target, root: root)
        do {
            try fileSystem.moveItem(at: session.url, to: moved.url)
        } catch {
            try restore(previous, at: session.patientURL, after: "rename", session.url, error)
        }
        return moved
    }

    /// Renames a session after checking the new name's form, that it is free and that it
    /// stays inside the library. The folder moves in one step.
    @discardableResult
    public func rename(_ session: ScanSession, to newName: String) throws(ScanLibraryError) -> ScanSession {
        let name = try SessionName(parsing: newName)
        try requireExists(session)
        guard name != session.name else { throw .sameName(name.rawValue) }
        if try isTaken(name, by: session) { throw .nameTaken(name.rawValue) }
        let target = ScanSession(name: name, root: root)
        try step("rename", session.url) { try fileSystem.moveItem(at: session.url, to: target.url) }
        return target
    }

    /// Deletes sessions: all of them, or none when a step fails.
    ///
    /// Each folder first moves to a hidden `.deleting-` name in one rename (undone for all
    /// if one fails); only then are the hidden folders removed. A removal cut short leaves
    /// only a hidden folder, which the next delete clears.
    public func delete(_ sessions: [ScanSession]) throws(ScanLibraryError) {
        for session in sessions { try requireExists(session) }
        var moved: [(from: URL, to: URL)] = []
        for session in Set(sessions) {
            let trash = root.appendingPathComponent(Self.deletingPrefix + UUID().uuidString)
            do {
                try fileSystem.moveItem(at: session.url, to: trash)
                moved.append((session.url, trash))
            } catch {
                try undo(moved, operation: "delete", session.url, error)
            }
        }
        removeLeftovers()
    }

    /// Removes hidden folders left by an interrupted delete; failures are left for next time.
    public func removeLeftovers() {
        guard let names = try? fileSystem.contentsOfDirectory(at: root) else { return }
        for name in names where name.hasPrefix(Self.deletingPrefix) {
            try? fileSystem.removeItem(at: root.appendingPathComponent(name))
        }
    }

    /// The name the session should carry for `patient`, or nil to keep its name.
    private func patientName(for patient: PatientRecord, session: ScanSession) throws(ScanLibraryError) -> SessionName? {
        let previousID = (try? self.patient(in: session))?.patientID
        let named = session.name
        guard named.isTemporary || (previousID != nil && named.patientID == previousID) else { return nil }
        let target = try SessionName(id: String(patient.patientID), timestamp: named.timestamp)
        return target == named ? nil : target
    }

    /// Whether another session already has `name` (ignoring case and Unicode form).
    private func isTaken(_ name: SessionName, by session: ScanSession) throws(ScanLibraryError) -> Bool {
        try sessionNames().contains { $0.collisionKey == name.collisionKey && $0 != session.name }
            || (name.collisionKey != session.name.collisionKey
                && fileSystem.itemKind(at: root.appendingPathComponent(name.rawValue)) != nil)
    }

    /// Puts a document's previous bytes back after a later step failed, then reports it.
    private func restore(
        _ previous: Data?, at url: URL, after operation: String, _ path: URL, _ error: any Error
    )
        throws(ScanLibraryError) -> Never
    {
        do {
            if let previous { try fileSystem.writeData(previous, to: url) } else { try fileSystem.removeItem(at: url) }
        } catch let undoError {
            throw .rollbackFailed(operation: operation, path: path.path, reason: "\(Self.reason(error)); undo: \(Self.reason(undoError))")
        }
        throw .fileOperationFailed(operation: operation, path: path.path, reason: Self.reason(error))
    }

    /// Moves folders back after a later move failed, then reports it.
    private func undo(
        _ moved: [(from: URL, to: URL)], operation: String, _ path: URL, _ error: any Error
    )
        throws(ScanLibraryError) -> Never
    {
        for move in moved.reversed() {
            do {
                try fileSystem.moveItem(at: move.to, to: move.from)
            } catch let undoError {
                throw .rollbackFailed(operation: operation, path: path.path, reason: "\(Self.reason(error)); undo: \(Self.reason(undoError))")
            }
        }
        throw .fileOperationFailed(operation: operation, path: path.path, reason: Self.reason(error))
    }
}
