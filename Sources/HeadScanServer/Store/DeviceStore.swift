import Foundation

/// A device that uploads sessions (one phone, one clinic's computer).
public struct Device: Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var site: String
}

/// A device as `device list` shows it.
public struct DeviceListing: Sendable, Hashable {
    public var name: String
    public var site: String
    public var createdAt: Date
    public var revokedAt: Date?
    public var expiresAt: Date?
    public var sessions: Int

    /// `active`, `revoked` or `expired`.
    public var state: String {
        if revokedAt != nil { return "revoked" }
        if let expiresAt, expiresAt <= Date() { return "expired" }
        return "active"
    }
}

/// Devices and their tokens.
public struct DeviceStore: Sendable {
    let database: any SQLDatabase

    /// Adds a device and returns its token, which is shown only this once; `expiresAt` ends
    /// the token on its own.
    public func add(name: String, site: String, expiresAt: Date? = nil) async throws -> (Device, token: String) {
        guard (1...100).contains(name.count), (1...100).contains(site.count) else {
            throw DatabaseError("a device name and a site name have 1 to 100 characters")
        }
        if try await !database.query("SELECT id FROM devices WHERE name = ?", [.text(name)]).isEmpty {
            throw DatabaseError("a device named \(name) exists already; choose another name")
        }
        let token = Store.newToken(prefix: "hsd_")
        let rows = try await database.query(
            "INSERT INTO devices (name, site, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
            [.text(name), .text(site), .text(Store.tokenHash(token)), .double(Store.now()), SQLValue(expiresAt?.timeIntervalSince1970)])
        return (Device(id: rows.first?["id"].int ?? 0, name: name, site: site), token)
    }

    /// The device a token belongs to, unless it was revoked or has expired.
    public func active(token: String) async throws -> Device? {
        let rows = try await database.query(
            "SELECT id, name, site FROM devices WHERE token_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
            [.text(Store.tokenHash(token)), .double(Store.now())])
        return rows.first.map { Device(id: $0["id"].int ?? 0, name: $0["name"].text ?? "", site: $0["site"].text ?? "") }
    }

    /// Every device with its state, by name.
    public func all() async throws -> [DeviceListing] {
        try await database.query(
            """
            SELECT d.name, d.site, d.created_at, d.revoked_at, d.expires_at, (SELECT COUNT(*) FROM sessions s WHERE s.device_id = d.id) AS n
            FROM devices d ORDER BY d.name
            """, []
        ).map {
            DeviceListing(
                name: $0["name"].text ?? "", site: $0["site"].text ?? "", createdAt: Date(timeIntervalSince1970: $0["created_at"].double ?? 0),
                revokedAt: $0["revoked_at"].double.map(Date.init(timeIntervalSince1970:)),
                expiresAt: $0["expires_at"].double.map(Date.init(timeIntervalSince1970:)), sessions: Int($0["n"].int ?? 0))
        }
    }

    /// Ends a device's token at once (a lost or stolen phone); its open uploads are dropped, its
    /// finished sessions stay.
    public func revoke(name: String) async throws {
        guard let id = try await database.query("SELECT id FROM devices WHERE name = ? AND revoked_at IS NULL", [.text(name)]).first?["id"].int else {
            throw DatabaseError("no active device is named \(name); `headscan-server device list` shows them")
        }
        _ = try await database.transaction([
            SQLStatement("UPDATE devices SET revoked_at = ? WHERE id = ?", [.double(Store.now()), .int(id)]),
            SQLStatement("DELETE FROM chunks WHERE upload_id IN (SELECT id FROM uploads WHERE device_id = ? AND state = 'open')", [.int(id)]),
            SQLStatement("DELETE FROM uploads WHERE device_id = ? AND state = 'open'", [.int(id)]),
        ])
    }

    /// A new token for the device; without `expiresAt` it expires when the old one would have
    /// (a token with an end never becomes one without).
    public func rotate(name: String, expiresAt: Date? = nil) async throws -> String {
        let token = Store.newToken(prefix: "hsd_")
        let rows = try await database.query(
            """
            UPDATE devices SET token_hash = ?, expires_at = COALESCE(?, expires_at)
            WHERE name = ? AND revoked_at IS NULL AND (? = 1 OR expires_at IS NULL OR expires_at > ?) RETURNING id
            """,
            [
                .text(Store.tokenHash(token)), SQLValue(expiresAt?.timeIntervalSince1970), .text(name), .int(expiresAt == nil ? 0 : 1),
                .double(Store.now()),
            ])
        guard !rows.isEmpty else {
            throw DatabaseError(
                "no active device is named \(name) (a revoked device gets a new name with `device add`; an expired one needs --expires-in-days)")
        }
        return token
    }
}
