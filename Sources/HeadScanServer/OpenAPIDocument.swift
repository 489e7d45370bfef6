/// The JSON API as OpenAPI 3.1, served at `/openapi.yaml`.
enum OpenAPIDocument {
    static let yaml = #"""
        openapi: 3.1.0
        info:
          title: HeadScan research data service
          version: "1"
          description: |
            Devices upload scan sessions (Bearer token); researchers list and download them
            (HTTP Basic with e-mail and password, or the sign-in cookie of the web page).
            Uploads are chunked: announce the files, send each chunk with its SHA-256, then
            complete; the server verifies every whole file and checks it against its type before
            the session appears. Only pseudonymised sessions are accepted: the name's ID is a
            13-digit pseudonym (or "new"), its date the Monday of the recording's week followed
            by the scan's number that week; the files are scan.hscan, head.ply, consent.json,
            patient.json, rating.json, annotations.json, measurement.json, reconstruction.json
            and feedback.json, each exactly as the HeadScan client writes it for research (every
            date a week's start, no names, no free text). A refused upload is deleted entirely.
            429 answers too many wrong passwords or unfinished uploads, 503 a full disk or too
            many sign-ins at once (both with Retry-After; received chunks are kept).
        components:
          securitySchemes:
            device: { type: http, scheme: bearer }
            researcher: { type: http, scheme: basic }
          parameters:
            id: { name: id, in: path, required: true, schema: { type: string } }
            name: { name: name, in: path, required: true, schema: { type: string, pattern: "^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$" } }
            site: { name: site, in: query, schema: { type: string } }
            from: { name: from, in: query, description: first day of recording, schema: { type: string, format: date } }
            to: { name: to, in: query, description: last day of recording, schema: { type: string, format: date } }
            measured: { name: measured, in: query, schema: { type: string, enum: [yes, no, any] } }
            cvaiMin: { name: cvaiMin, in: query, schema: { type: number } }
            cvaiMax: { name: cvaiMax, in: query, schema: { type: number } }
            ratingMin: { name: ratingMin, in: query, schema: { type: integer } }
            ratingMax: { name: ratingMax, in: query, schema: { type: integer } }
            limit: { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 10000 } }
            format:
              name: format
              in: query
              description: |
                zip (the default): every file of each session as stored, SITE/NAME-ID/FILE.
                tum: each session's recording in the TUM RGB-D layout, one folder per session:
                SITE/NAME-ID/rgb/*.png, SITE/NAME-ID/depth/*.png (16-bit, 5000 per metre, 0 = no measurement),
                rgb.txt, depth.txt, associations.txt, intrinsics.json (the camera models) and, for
                processed sessions, groundtruth.txt (timestamp tx ty tz qx qy qz qw of the
                reconstruction's keyframes). sessions.json lists the sessions in the archive;
                left-out.txt names those whose recording could not be exported, and why.
              schema: { type: string, enum: [zip, tum], default: zip }
          responses:
            error:
              description: The request was refused; the message says why and what to do.
              content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } }
          schemas:
            Error:
              type: object
              required: [error]
              properties: { error: { type: string } }
            ManifestFile:
              type: object
              required: [name, size, sha256]
              properties:
                name: { type: string }
                size: { type: integer, minimum: 0 }
                sha256: { type: string, pattern: "^[0-9a-f]{64}$" }
            CreateUpload:
              type: object
              required: [sessionName, chunkSize, files]
              properties:
                sessionName: { type: string, description: "pseudonymised session folder name, PSEUDONYM_yyyy-MM-ddT00-MM-SS_Scan (the week's Monday, the scan's number that week)" }
                chunkSize: { type: integer, minimum: 1024, maximum: 8388608 }
                files: { type: array, maxItems: 64, items: { $ref: "#/components/schemas/ManifestFile" } }
            UploadStatus:
              type: object
              required: [uploadID, state, chunkSize, received]
              properties:
                uploadID: { type: string }
                state: { type: string, enum: [open, complete] }
                chunkSize: { type: integer }
                received: { type: object, additionalProperties: { type: array, items: { type: integer } } }
                sessionID: { type: string }
            SessionFile:
              type: object
              required: [name, size, sha256]
              properties: { name: { type: string }, size: { type: integer }, sha256: { type: string } }
            Session:
              type: object
              required: [id, name, site, device, recordedAt, uploadedAt, measured, processing, files]
              properties:
                id: { type: string }
                name: { type: string }
                site: { type: string }
                device: { type: string }
                recordedAt: { type: string, description: "the week of the recording and the scan's number in it, yyyy-MM-ddT00-MM-SS" }
                uploadedAt: { type: string, format: date-time, description: "the Monday 00:00 UTC of the week of the upload" }
                measured: { type: boolean }
                cvai: { type: number }
                ci: { type: number }
                circumferenceMM: { type: number }
                rating: { type: integer }
                processing: { type: string, enum: [none, queued, running, done, failed] }
                files: { type: array, items: { $ref: "#/components/schemas/SessionFile" } }
            SessionList:
              type: object
              required: [sessions]
              properties: { sessions: { type: array, items: { $ref: "#/components/schemas/Session" } } }
        security: [{ device: [] }, { researcher: [] }]
        paths:
          /api/uploads:
            post:
              summary: Announce a session's files (devices); answers the existing upload when repeated
              security: [{ device: [] }]
              requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/CreateUpload" } } } }
              responses:
                "200": { description: the upload and the chunks received so far, content: { application/json: { schema: { $ref: "#/components/schemas/UploadStatus" } } } }
                "400": { $ref: "#/components/responses/error" }
                "401": { $ref: "#/components/responses/error" }
                "409": { $ref: "#/components/responses/error" }
                "413": { $ref: "#/components/responses/error" }
                "422": { $ref: "#/components/responses/error" }
          /api/uploads/{id}:
            get:
              summary: An upload's state (devices, their own)
              security: [{ device: [] }]
              parameters: [{ $ref: "#/components/parameters/id" }]
              responses:
                "200": { description: the upload, content: { application/json: { schema: { $ref: "#/components/schemas/UploadStatus" } } } }
                "404": { $ref: "#/components/responses/error" }
          /api/uploads/{id}/files/{name}/chunks/{index}:
            put:
              summary: Send one chunk; chunks of a file go in order, each with its SHA-256
              security: [{ device: [] }]
              parameters:
                - { $ref: "#/components/parameters/id" }
                - { $ref: "#/components/parameters/name" }
                - { name: index, in: path, required: true, schema: { type: integer, minimum: 0 } }
                - { name: X-Chunk-SHA256, in: header, required: true, schema: { type: string, pattern: "^[0-9a-f]{64}$" } }
              requestBody: { required: true, content: { application/octet-stream: { schema: { type: string, format: binary } } } }
              responses:
                "200": { description: stored (or already stored with the same bytes), content: { application/json: { schema: { $ref: "#/components/schemas/UploadStatus" } } } }
                "400": { $ref: "#/components/responses/error" }
                "404": { $ref: "#/components/responses/error" }
                "409": { $ref: "#/components/responses/error" }
                "413": { $ref: "#/components/responses/error" }
                "422": { $ref: "#/components/responses/error" }
          /api/uploads/{id}/complete:
            post:
              summary: Verify every file and make the upload a session
              security: [{ device: [] }]
              parameters: [{ $ref: "#/components/parameters/id" }]
              responses:
                "200": { description: verified; the session ID is in sessionID, content: { application/json: { schema: { $ref: "#/components/schemas/UploadStatus" } } } }
                "404": { $ref: "#/components/responses/error" }
                "409": { $ref: "#/components/responses/error" }
                "422": { $ref: "#/components/responses/error" }
          /api/sessions:
            get:
              summary: List sessions (researchers all, devices their own)
              parameters:
                - { $ref: "#/components/parameters/site" }
                - { $ref: "#/components/parameters/from" }
                - { $ref: "#/components/parameters/to" }
                - { $ref: "#/components/parameters/measured" }
                - { $ref: "#/components/parameters/cvaiMin" }
                - { $ref: "#/components/parameters/cvaiMax" }
                - { $ref: "#/components/parameters/ratingMin" }
                - { $ref: "#/components/parameters/ratingMax" }
                - { $ref: "#/components/parameters/limit" }
              responses:
                "200": { description: the sessions, newest first, content: { application/json: { schema: { $ref: "#/components/schemas/SessionList" } } } }
                "400": { $ref: "#/components/responses/error" }
                "401": { $ref: "#/components/responses/error" }
          /api/sessions/{id}:
            get:
              summary: One session
              parameters: [{ $ref: "#/components/parameters/id" }]
              responses:
                "200": { description: the session, content: { application/json: { schema: { $ref: "#/components/schemas/Session" } } } }
                "404": { $ref: "#/components/responses/error" }
          /api/sessions/{id}/files/{name}:
            get:
              summary: One file of a session (researchers with the downloader role, devices their own); logged
              parameters: [{ $ref: "#/components/parameters/id" }, { $ref: "#/components/parameters/name" }]
              responses:
                "200": { description: the file, content: { application/octet-stream: { schema: { type: string, format: binary } } } }
                "403": { $ref: "#/components/responses/error" }
                "404": { $ref: "#/components/responses/error" }
          /api/sessions/{id}/mesh:
            get:
              summary: "The session's head mesh (PLY) for the 3D view, or with view=asymmetry the mesh coloured by its asymmetry map; logged"
              parameters:
                - { $ref: "#/components/parameters/id" }
                - { name: view, in: query, required: false, schema: { type: string, enum: [surface, asymmetry], default: surface } }
              responses:
                "200": { description: the mesh, content: { application/octet-stream: { schema: { type: string, format: binary } } } }
                "400": { $ref: "#/components/responses/error" }
                "404": { $ref: "#/components/responses/error" }
          /api/sessions/{id}/download:
            get:
              summary: The whole session as a zip, or its recording in the TUM layout; logged
              parameters: [{ $ref: "#/components/parameters/id" }, { $ref: "#/components/parameters/format" }]
              responses:
                "200": { description: "zip of SESSION/FILE entries, or of the TUM folder SESSION/", content: { application/zip: { schema: { type: string, format: binary } } } }
                "400": { $ref: "#/components/responses/error" }
                "403": { $ref: "#/components/responses/error" }
                "404": { $ref: "#/components/responses/error" }
                "422": { description: "format=tum, and the session has no readable recording", content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
          /api/download:
            get:
              summary: Every session matching the filters as one zip (files, or recordings in the TUM layout), with sessions.json; logged
              parameters:
                - { $ref: "#/components/parameters/format" }
                - { $ref: "#/components/parameters/site" }
                - { $ref: "#/components/parameters/from" }
                - { $ref: "#/components/parameters/to" }
                - { $ref: "#/components/parameters/measured" }
                - { $ref: "#/components/parameters/cvaiMin" }
                - { $ref: "#/components/parameters/cvaiMax" }
                - { $ref: "#/components/parameters/ratingMin" }
                - { $ref: "#/components/parameters/ratingMax" }
              responses:
                "200": { description: the dataset, content: { application/zip: { schema: { type: string, format: binary } } } }
                "400": { $ref: "#/components/responses/error" }
                "403": { $ref: "#/components/responses/error" }
                "404": { $ref: "#/components/responses/error" }
                "422": { description: "format=tum, and no matching session has a readable recording", content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
        """#
}
