import Foundation

extension ScanLibrary {
    /// Every session with its status, and whatever else lies in the folder.
    ///
    /// A corrupt document marks its entry with a problem; the other sessions list as usual.
    public func list() throws(ScanLibraryError) -> LibraryListing {
        var entries: [LibraryEntry] = []
        var strays: [StrayItem] = []
        for item in try items() {
            let url = root.appendingPathComponent(item)
            let name: SessionName
            do {
                name = try SessionName(parsing: item)
            } catch {
                strays.append(StrayItem(name: item, reason: "not a scan session: not named [ID]_yyyy-MM-ddTHH-mm-ss_Scan"))
                continue
            }
            guard fileSystem.itemKind(at: url) == .directory else {
                strays.append(StrayItem(name: item, reason: "a file, not a session folder"))
                continue
            }
            entries.append(entry(ScanSession(name: name, root: root)))
        }
        return LibraryListing(entries: entries.sorted { $0.session.name < $1.session.name }, strays: strays)
    }

    /// The listing entry of one session.
    public func entry(_ session: ScanSession) -> LibraryEntry {
        var problems: [ScanLibraryError] = []
        func read<D: LibraryDocument>(_ type: D.Type) -> D? {
            do {
                return try document(type, in: session)
            } catch {
                problems.append(error)
                return nil
            }
        }
        let patient = read(PatientRecord.self)
        let annotations = read(AnnotationsRecord.self)
        let consent = read(ConsentRecord.self)
        // Read only to report damage; their presence is what the listing shows.
        _ = read(RatingRecord.self)
        _ = read(MeasurementRecord.self)
        let has = { (url: URL) in fileSystem.itemKind(at: url) == .file }
        return LibraryEntry(
            session: session, hasScan: has(session.scanURL), patientID: patient?.patientID,
            isRated: has(session.ratingURL), annotationStatus: annotations?.isComplete == true ? .allSet : .toDo,
            isMeasured: has(session.measurementURL), hasMesh: has(session.meshURL), researchConsent: consent?.researchUse,
            problems: problems)
    }

    /// The patient IDs in use, from every readable `patient.json` and every session named by
    /// a whole-number ID, ascending.
    public func usedPatientIDs(excluding excluded: ScanSession? = nil) throws(ScanLibraryError) -> [Int] {
        var ids = Set<Int>()
        for entry in try list().entries where entry.session.name != excluded?.name {
            if let id = entry.patientID { ids.insert(id) }
            if let id = entry.session.name.patientID { ids.insert(id) }
        }
        return ids.sorted()
    }
}
