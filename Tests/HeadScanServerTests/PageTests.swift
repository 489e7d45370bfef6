import Cephalometry
import Foundation
import HTTPTypes
import HeadScanServer
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Upload

@Suite struct PageTests {
    @Test(arguments: Backend.available)
    func signInFilterAndOpenASession(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a", site: "clinic-a")
        let password = try await harness.researcher("r@example.org")
        try await harness.app().test(.router) { client in
            var ids: [String] = []
            for (patient, cvai) in [(1, 4.0), (2, 11.0)] {
                let fixture = try SessionFixture(patientID: patient, extra: ["measurement.json": SessionFixture.measurement(cvai: cvai)])
                defer { fixture.remove() }
                ids.append(
                    try #require(
                        try await rawUpload(
                            client, token: token, package: try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
                        ).sessionID))
            }
            #expect(try await client.execute(uri: "/sessions", method: .get).headers[.location] == "/login")
            let form = try await FormSession.open(client)
            let wrong = try await client.execute(
                uri: "/login", method: .post, headers: form.headers,
                body: ByteBuffer(string: "email=r%40example.org&password=nope&csrf=\(form.token)"))
            #expect(wrong.headers[.location] == "/login?failed=1" && wrong.headers[.setCookie] == nil)
            // Without the form's token (another site's form) nothing happens.
            let forged = try await client.execute(
                uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "email=r%40example.org&password=\(password.replacingOccurrences(of: " ", with: "+"))"))
            #expect(forged.status == .forbidden && forged.headers[.setCookie] == nil)
            let login = try await client.execute(
                uri: "/login", method: .post, headers: form.headers,
                body: ByteBuffer(string: "email=r%40example.org&password=\(password.replacingOccurrences(of: " ", with: "+"))&csrf=\(form.token)"))
            let cookie = try #require(login.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            #expect(login.headers[.setCookie]?.contains("HttpOnly") == true)
            let headers: HTTPFields = [.cookie: cookie + "; " + form.cookie]

            let all = String(buffer: try await client.execute(uri: "/sessions", method: .get, headers: headers).body)
            #expect(all.contains("<span id=\"count\">2</span>"))
            let filtered = String(buffer: try await client.execute(uri: "/sessions?cvaiMin=10&measured=yes", method: .get, headers: headers).body)
            #expect(
                filtered.contains("<span id=\"count\">1</span>") && filtered.contains("/sessions/\(ids[1])")
                    && !filtered.contains("/sessions/\(ids[0])"))
            #expect(filtered.contains("href=\"/api/download?cvaiMin=10&amp;measured=yes\""))
            #expect(filtered.contains("href=\"/api/download?cvaiMin=10&amp;measured=yes&amp;format=tum\""))

            let page = try await client.execute(uri: "/sessions/\(ids[1])", method: .get, headers: headers)
            let html = String(buffer: page.body)
            #expect(page.status == .ok && html.contains("11.0 %") && html.contains("Head mesh"))
            #expect(html.contains("href=\"/api/sessions/\(ids[1])/download?format=tum\""))
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            // The cookie works for the API too (downloads from the page).
            #expect(try await client.execute(uri: "/api/sessions/\(ids[1])/mesh", method: .get, headers: headers).status == .ok)
            let threeInstalled = FileManager.default.fileExists(atPath: "/usr/share/javascript/three/build/three.min.js")
            #expect(html.contains("id=\"viewer\"") == threeInstalled)
            #expect(try await client.execute(uri: "/static/three/three.min.js", method: .get).status == (threeInstalled ? .ok : .notFound))

            _ = try await client.execute(uri: "/logout", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(form.token)"))
            #expect(try await client.execute(uri: "/sessions", method: .get, headers: headers).headers[.location] == "/login")
            #expect(try await client.execute(uri: "/api/sessions", method: .get, headers: headers).status == .unauthorized)
        }
    }

    @Test func theMeshViewStartsFacingTheHeadFromItsLandmarks() async throws {
        let harness = try await Harness.make(.sqlite)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let password = try await harness.researcher("r@example.org")
        // A head in its own frame: right tragion along x, nasion along y.
        let measurement = SessionFixture.measurement(
            cvai: 5,
            landmarks: HeadLandmarks(nasion: [0, 0.08, 0], noseTip: [0, 0.1, -0.02], leftTragion: [-0.06, 0, 0], rightTragion: [0.06, 0, 0]))
        let fixture = try SessionFixture(extra: ["measurement.json": measurement])
        defer { fixture.remove() }
        try await harness.app().test(.router) { client in
            let id = try #require(
                try await rawUpload(client, token: token, package: try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser))
                    .sessionID)
            let html = String(buffer: try await client.execute(uri: "/sessions/\(id)", method: .get, headers: basic("r@example.org", password)).body)
            #expect(html.contains("<td>week of 2026-04-27, scan 1</td>"))
            guard FileManager.default.fileExists(atPath: "/usr/share/javascript/three/build/three.min.js") else { return }
            // From above, in front and to the right: (0.5, 0.6, 0.75) normalised; the head's top is up.
            #expect(html.contains("data-from=\"0.46176,0.55411,0.69264\" data-up=\"0.00000,0.00000,1.00000\""), "\(html)")
        }
    }

    @Test func openAPIDocumentNamesEveryRoute() async throws {
        let harness = try await Harness.make(.sqlite)
        defer { Task { await harness.close() } }
        try await harness.app().test(.router) { client in
            let response = try await client.execute(uri: "/openapi.yaml", method: .get)
            let text = String(buffer: response.body)
            #expect(response.status == .ok)
            for path in [
                "/api/uploads:", "/api/uploads/{id}/files/{name}/chunks/{index}:", "/api/uploads/{id}/complete:", "/api/sessions:",
                "/api/sessions/{id}/files/{name}:", "/api/sessions/{id}/download:", "/api/download:", "/api/sessions/{id}/mesh:",
            ] {
                #expect(text.contains(path), "\(path)")
            }
            #expect(text.contains("enum: [zip, tum]") && text.contains("groundtruth.txt"))
        }
    }
}

/// A browser's form state: the form-token cookie from the sign-in page and the token its forms
/// carry.
struct FormSession {
    var cookie: String
    var token: String
    var headers: HTTPFields { [.contentType: "application/x-www-form-urlencoded", .cookie: cookie] }

    static func open(_ client: some TestClientProtocol) async throws -> FormSession {
        let page = try await client.execute(uri: "/login", method: .get)
        let cookie = try #require(page.headers[.setCookie]?.split(separator: ";").first.map(String.init))
        let html = String(buffer: page.body)
        let marker = "name=\"csrf\" value=\""
        let start = try #require(html.range(of: marker)?.upperBound)
        let token = String(html[start...].prefix { $0 != "\"" })
        #expect(cookie == "headscan_form=\(token)")
        return FormSession(cookie: cookie, token: token)
    }
}
