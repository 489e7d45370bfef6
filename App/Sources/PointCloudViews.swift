import AppModel
import Feedback
import SwiftUI

extension MarkerState {
    var color: Color {
        switch self {
        case .green: .green
        case .red: .red
        case .blue: .blue
        }
    }
}

/// Draws a cloud as the model projected it: dots far to near, then the markers on top.
@MainActor
struct PointCloudCanvas: View {
    let projection: CloudProjection

    var body: some View {
        Canvas { context, _ in
            let size = projection.dotSize
            for point in projection.points {
                let rect = CGRect(x: point.position.x - size / 2, y: point.position.y - size / 2, width: size, height: size)
                let c = point.colour
                context.fill(Path(rect), with: .color(Color(red: Double(c.x) / 255, green: Double(c.y) / 255, blue: Double(c.z) / 255)))
            }
            let radius = max(5, size)
            for marker in projection.markers {
                let rect = CGRect(x: marker.position.x - radius, y: marker.position.y - radius, width: 2 * radius, height: 2 * radius)
                context.fill(Path(ellipseIn: rect), with: .color(marker.state.color))
                context.stroke(Path(ellipseIn: rect), with: .color(.white), lineWidth: 1)
            }
        }
    }
}

/// What the marker colours mean, with their counts.
@MainActor
struct CloudLegend: View {
    let entries: [CloudLegendEntry]

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            ForEach(entries) { entry in
                Label {
                    Text(entry.text)
                } icon: {
                    Circle().fill(entry.state.color).frame(width: 10, height: 10)
                }
            }
        }
        .font(.caption)
    }
}
