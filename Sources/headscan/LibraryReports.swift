import Cephalometry
import Foundation
import ScanLibrary

/// What `library list` prints; the JSON field names are a contract scripts depend on.
struct ListingReport: Encodable {
    struct Session: Encodable {
        var name: String
        var id: String
        var date: String
        var temporary: Bool
        var patientID: Int?
        var hasScan: Bool
        var rated: Bool
        var annotations: String
        var measured: Bool
        var hasMesh: Bool
        var problems: [String]

        init(_ e: LibraryEntry) {
            name = e.session.name.rawValue
            id = e.session.name.id
            date = e.session.name.timestamp
            temporary = e.session.name.isTemporary
            patientID = e.patientID
            hasScan = e.hasScan
            rated = e.isRated
            annotations = e.annotationStatus.rawValue
            measured = e.isMeasured
            hasMesh = e.hasMesh
            problems = e.problems.map(\.description)
        }

        var line: String {
            var parts = [annotations == "allSet" ? "all set" : "to do"]
            if !hasScan { parts.append("no scan file") }
            if let patientID { parts.append("patient \(patientID)") } else { parts.append("no patient data") }
            if rated { parts.append("rated") }
            if measured { parts.append("measured") }
            return ([name, parts.joined(separator: ", ")] + problems.map { "  ! \($0)" }).joined(separator: "\n")
        }
    }

    struct Stray: Encodable {
        var name: String
        var reason: String
    }

    var sessions: [Session]
    var strays: [Stray]

    init(_ listing: LibraryListing) {
        sessions = listing.entries.map(Session.init)
        strays = listing.strays.map { Stray(name: $0.name, reason: $0.reason) }
    }
}

/// What `library show` prints: the listing entry and every readable document.
struct SessionReport: TextReport {
    var session: ListingReport.Session
    var path: String
    var patient: PatientRecord?
    var rating: RatingRecord?
    var annotations: AnnotationsRecord?
    var measurement: MeasurementRecord?

    init(library: ScanLibrary, session: ScanSession) {
        self.session = ListingReport.Session(library.entry(session))
        path = session.url.path
        patient = try? library.patient(in: session)
        rating = try? library.rating(in: session)
        annotations = try? library.annotations(in: session)
        measurement = try? library.measurement(in: session)
    }

    var text: String {
        var lines = [session.line, "folder:      \(path)"]
        if let c = patient?.calliper {
            lines.append(
                "calliper:    length \(c.lengthMM) mm, width \(c.widthMM) mm, diagonal A \(c.diagonalAMM) mm, diagonal B \(c.diagonalBMM) mm"
                    + (c.circumferenceMM.map { ", circumference \($0) mm" } ?? ""))
        }
        if let r = rating {
            lines.append(
                "rating:      scan \(r.scanQuality)/5, behaviour impact \(r.behaviourImpact)/5, cap fit \(r.capFit)/5, cooperative \(r.childCooperative ? "yes" : "no")"
            )
        }
        if let a = annotations {
            let placed = Landmark.allCases.filter(a.isPlaced).map { "\($0.rawValue) (\(a.landmarks[$0]?.count ?? 0))" }
            lines.append("annotations: \(placed.isEmpty ? "none" : placed.joined(separator: ", "))")
        }
        if let m = measurement?.measurement {
            lines.append("measurement: CVAI \(String(format: "%.2f", m.cvai)) % (CHOA \(m.severityLevel)), CI \(String(format: "%.1f", m.ci))")
        }
        return lines.joined(separator: "\n")
    }
}
