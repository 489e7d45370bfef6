import Cephalometry
import Foundation
import Geometry
import Markers
import Reconstruction
import Recording
import ScanLibrary

extension SessionProcessor {
    /// The stored reconstruction without markers when it was made from this very recording,
    /// else a new one: the frames placed on the head's surface (and the cap's print), the
    /// head frame read from the print. A scan whose views do not lie alike on the finished
    /// surface or print is refused, and so is one whose print does not match the layout's
    /// (the views were then placed wrongly, however the landmarks are picked). A stored one read
    /// with another camera than the options give is made again.
    func reconstructionWithoutMarkers(
        _ session: ScanSession, reader: ScanReader, layout: CapLayout, progress: (ProcessingProgress) -> Void, isCancelled: () -> Bool
    ) throws -> (ReconstructionRecord, TriangleMesh, Bool) {
        var fingerprint = try Self.fingerprint(session.scanURL)
        if let (stored, mesh) = try stored(session, layout: layout, withoutMarkers: true, fingerprint: &fingerprint) { return (stored, mesh, false) }
        let result: MarkerlessReconstruction
        do {
            result = try MarkerlessReconstructor(options: options.reconstruction).reconstruct(
                frameCount: reader.frameCount, frame: { try reader.frame(at: $0) },
                progress: { progress(ProcessingProgress(stage: ProcessingStage($0.stage), done: $0.done, total: $0.total)) }, isCancelled: isCancelled
            )
        } catch ReconstructionError.cancelled {
            throw ProcessingError.cancelled
        }
        var print: PrintAlignment?
        if result.matchedColour {
            do {
                print = try PrintAligner.align(result.mesh)
            } catch .tooLittlePrint {
                // Picks can still measure the head; the search is told why it cannot run.
            } catch {
                throw ProcessingError.printNotMatched(error.description)
            }
        }
        var record = ReconstructionRecord(result, print: print, scan: fingerprint, capLayout: layout.name, at: options.clock())
        record.withoutMarkers?.checkedCamera = options.reconstruction.camera
        let comment = "HeadScan reconstruction without markers, metres, frame of the scan's first placed frame"
        return (record, try save(record, mesh: result.mesh, comment: comment, in: session), true)
    }
}
