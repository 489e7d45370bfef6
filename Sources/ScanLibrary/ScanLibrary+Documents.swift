import Foundation

extension ScanLibrary {
    /// The session's document of type `D`, or nil when it was not saved yet.
    public func document<D: LibraryDocument>(_ type: D.Type, in session: ScanSession) throws(ScanLibraryError) -> D? {
        try stored(type, in: session)?.document
    }

    /// `patient.json` of a session.
    public func patient(in session: ScanSession) throws(ScanLibraryError) -> PatientRecord? {
        try document(PatientRecord.self, in: session)
    }

    /// `rating.json` of a session.
    public func rating(in session: ScanSession) throws(ScanLibraryError) -> RatingRecord? {
        try document(RatingRecord.self, in: session)
    }

    /// `annotations.json` of a session.
    public func annotations(in session: ScanSession) throws(ScanLibraryError) -> AnnotationsRecord? {
        try document(AnnotationsRecord.self, in: session)
    }

    /// `measurement.json` of a session.
    public func measurement(in session: ScanSession) throws(ScanLibraryError) -> MeasurementRecord? {
        try document(MeasurementRecord.self, in: session)
    }

    /// Saves the rating with the feedback settings it holds.
    public func saveRating(_ rating: RatingRecord, in session: ScanSession) throws(ScanLibraryError) {
        try save(rating, in: session)
    }

    /// Saves the annotated landmarks.
    public func saveAnnotations(_ annotations: AnnotationsRecord, in session: ScanSession) throws(ScanLibraryError) {
        try save(annotations, in: session)
    }

    /// Saves a measurement; the session then lists as measured.
    public func saveMeasurement(_ measurement: MeasurementRecord, in session: ScanSession) throws(ScanLibraryError) {
        try save(measurement, in: session)
    }

    /// Saves the reconstructed head mesh (PLY bytes) as `head.ply`, atomically.
    public func saveMesh(plyData: Data, in session: ScanSession) throws(ScanLibraryError) {
        try requireExists(session)
        try step("write", session.meshURL) { try fileSystem.writeData(plyData, to: session.meshURL) }
    }

    /// Writes a document atomically, keeping the fields of the stored one this version does
    /// not know.
    public func save<D: LibraryDocument>(_ document: D, in session: ScanSession) throws(ScanLibraryError) {
        try document.validate()
        try requireExists(session)
        let data = try encoded(document, in: session)
        try step("write", session.documentURL(D.self)) { try fileSystem.writeData(data, to: session.documentURL(D.self)) }
    }

    /// The bytes to store for `document`, merged over the unknown fields already stored.
    func encoded<D: LibraryDocument>(_ document: D, in session: ScanSession) throws(ScanLibraryError) -> Data {
        let unknown: [String: JSONValue]
        do {
            unknown = try stored(D.self, in: session)?.unknown ?? [:]
        } catch .newerDocument(let s, let f, let v, let supported) {
            // Overwriting would lose what the newer version wrote.
            throw .newerDocument(session: s, file: f, version: v, supported: supported)
        } catch {
            unknown = [:]  // an unreadable document is replaced; there is nothing to keep
        }
        do {
            return try DocumentCoding.encode(document, keeping: unknown)
        } catch {
            throw .invalidDocument(file: D.fileName, reason: Self.reason(error))
        }
    }

    /// The stored document and its unknown fields.
    func stored<D: LibraryDocument>(
        _ type: D.Type, in session: ScanSession
    ) throws(ScanLibraryError)
        -> (document: D, unknown: [String: JSONValue])?
    {
        let url = session.documentURL(type)
        guard let kind = fileSystem.itemKind(at: url) else { return nil }
        let name = session.name.rawValue
        guard kind == .file else { throw .corruptDocument(session: name, file: D.fileName, reason: "it is a folder") }
        let data: Data
        do {
            data = try fileSystem.readData(at: url)
        } catch {
            throw .corruptDocument(session: name, file: D.fileName, reason: Self.reason(error))
        }
        do {
            let (document, unknown) = try DocumentCoding.decode(type, from: data)
            return (document, unknown)
        } catch {
            switch error {
            case .newer(let version):
                throw .newerDocument(session: name, file: D.fileName, version: version, supported: D.currentVersion)
            case .unreadable(let reason):
                throw .corruptDocument(session: name, file: D.fileName, reason: reason)
            }
        }
    }

    func requireExists(_ session: ScanSession) throws(ScanLibraryError) {
        guard fileSystem.itemKind(at: session.url) == .directory else { throw .sessionNotFound(session.name.rawValue) }
    }
}
