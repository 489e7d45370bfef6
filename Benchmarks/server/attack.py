#!/usr/bin/env python3
"""Replays the attacks the research service was probed with, against any build of it, and
reports what each did: a reconstruction.json that used to crash every later TUM download, a
session named after the patient, a report and a raw patient record from a modified client,
sign-in timing and hammering; and the second round: a PLY that trapped the server, a path to
another clinic's file, a duplicate key, text after a recording's trailer, and a crowd of wrong
passwords while other requests are timed.

    python3 Benchmarks/server/attack.py --server-binary .build/release/headscan-server \
        --headscan .build/release/headscan [--port 18190]

Uses only Python's standard library and `headscan simulate` for a real recording.
"""
import argparse, base64, hashlib, http.client, json, os, statistics, struct, subprocess, tempfile, time, zlib

WEEK = "2026-04-27T00:00:00Z"
WEEK_SECONDS = 1777248000.0


def request(port, method, path, headers=None, body=None, timeout=120):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def alive(port):
    try:
        return request(port, "GET", "/healthz", timeout=3)[0] == 200
    except OSError:
        return False


def coarsened_scan(path):
    """The recording with its header's date at the week's start, as the client sends it."""
    data = open(path, "rb").read()
    length = struct.unpack_from("<I", data, 12)[0]
    header = json.loads(data[16:16 + length])
    header["createdAt"] = WEEK
    header["metadata"] = {k: v for k, v in header["metadata"].items() if k in ("scenario", "seed", "cvai", "flatSide", "operator")}
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    text += b" " * (length - len(text))
    crc = zlib.crc32(data[8:16] + text) & 0xFFFFFFFF
    return data[:16] + text + struct.pack("<I", crc) + data[16 + length + 4:]


def upload(port, token, name, files):
    """Announce, send every chunk, complete; returns (stage, status, body) of the first refusal
    or of the completion."""
    auth = {"Authorization": "Bearer " + token}
    manifest = [{"name": n, "size": len(d), "sha256": hashlib.sha256(d).hexdigest()} for n, d in files.items()]
    status, body = request(port, "POST", "/api/uploads", {**auth, "Content-Type": "application/json"},
                           json.dumps({"sessionName": name, "chunkSize": 1 << 20, "files": manifest}).encode())
    if status != 200:
        return "create", status, body
    state = json.loads(body)
    for item in manifest:
        data = files[item["name"]]
        for index in range(max(1, (len(data) + (1 << 20) - 1) >> 20)):
            piece = data[index << 20:(index + 1) << 20]
            status, body = request(port, "PUT", f"/api/uploads/{state['uploadID']}/files/{item['name']}/chunks/{index}",
                                   {**auth, "X-Chunk-SHA256": hashlib.sha256(piece).hexdigest()}, piece)
            if status != 200:
                return "chunk", status, body
    status, body = request(port, "POST", f"/api/uploads/{state['uploadID']}/complete", auth, b"")
    return "complete", status, body


def stored_files(data):
    count = 0
    for folder in ("blobs", "incoming"):
        for _, _, files in os.walk(os.path.join(data, folder)):
            count += len(files)
    return count


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server-binary", required=True)
    parser.add_argument("--headscan", required=True)
    parser.add_argument("--port", type=int, default=18190)
    options = parser.parse_args()
    data = tempfile.mkdtemp(prefix="headscan-attack-")
    binary = os.path.abspath(options.server_binary)

    def admin(*args, stdin=None):
        return subprocess.run([binary, *args, "--data", data], input=stdin, capture_output=True, text=True, check=True).stdout

    token = admin("device", "add", "phone-a", "--site", "clinic-a").strip().splitlines()[-1]
    admin("researcher", "add", "r@example.org", stdin="a long password\n")
    basic = {"Authorization": "Basic " + base64.b64encode(b"r@example.org:a long password").decode()}
    scan_path = os.path.join(data, "sim.hscan")
    subprocess.run([options.headscan, "simulate", "--seconds", "0.3", "--out", scan_path], check=True, capture_output=True)
    scan = coarsened_scan(scan_path)
    log = open(os.path.join(data, "server.log"), "a")
    server = subprocess.Popen([binary, "serve", "--data", data, "--port", str(options.port), "--workers", "0", "--trusted-proxy", "127.0.0.1"], stdout=log, stderr=log)
    for _ in range(100):
        if alive(options.port):
            break
        time.sleep(0.1)
    report = {}
    consent = json.dumps({"version": 1, "researchUse": True, "decidedAt": WEEK, "recordedBy": "app"}).encode()
    patient = json.dumps({"version": 1, "patientID": 1234567890123, "pseudonymisation": "hmac-sha256-v1",
                          "calliper": {"lengthMM": 140, "widthMM": 120, "diagonalAMM": 150, "diagonalBMM": 145},
                          "ageAtVisitWeeks": 17}).encode()
    statistics_fields = ["framesTotal", "framesExamined", "framesUsed", "framesRejected", "keyframes", "markersMapped", "voxelBlocks",
                         "volumeBytes", "vertices", "triangles"]
    stats = {k: 0 for k in statistics_fields}
    stats.update({"reprojectionRMSPixels": 0.0, "reprojectionRMSPixelsInitial": 0.0, "reprojectionRMSPixels3D": 0.0,
                  "cornerRMSMillimetres": 0.0, "stageSeconds": {}})
    poisoned = json.dumps({"version": 1, "scan": {"bytes": len(scan), "modified": WEEK_SECONDS}, "capLayout": "standard", "markers": {},
                           "keyframes": [{"frame": 0, "mapFromCamera": []}], "statistics": stats, "reconstructedAt": WEEK}).encode()

    # 1. A reconstruction.json with an empty pose, then a TUM download of the unfiltered list.
    stage, status, body = upload(options.port, token, "1234567890123_2026-04-27T00-00-01_Scan",
                                 {"consent.json": consent, "patient.json": patient, "scan.hscan": scan, "reconstruction.json": poisoned})
    report["empty pose upload"] = f"{stage} {status}"
    try:
        status, _ = request(options.port, "GET", "/api/download?format=tum", basic)
        report["TUM download after it"] = status
    except (OSError, http.client.HTTPException) as error:
        report["TUM download after it"] = f"no answer ({type(error).__name__})"
    report["service alive after it"] = alive(options.port)
    if not alive(options.port):
        server.wait()
        server = subprocess.Popen([binary, "serve", "--data", data, "--port", str(options.port), "--workers", "0", "--trusted-proxy", "127.0.0.1"], stdout=log, stderr=log)
        time.sleep(1.5)

    # 3. A modified client: the patient's name, a raw patient record, a report.
    before = stored_files(data)
    stage, status, _ = upload(options.port, token, "Mueller-Anna_2026-05-01T10-30-00_Scan", {"consent.json": consent, "scan.hscan": scan})
    report["session named after the patient"] = f"{stage} {status}"
    raw = json.dumps({"version": 1, "patientID": 12, "name": "Anna Mueller", "address": "Hauptstrasse 5",
                      "calliper": {"lengthMM": 140, "widthMM": 120, "diagonalAMM": 150, "diagonalBMM": 145},
                      "enteredAt": "2026-05-01T10:40:00Z"}).encode()
    stage, status, _ = upload(options.port, token, "1234567890123_2026-04-27T00-00-02_Scan",
                              {"consent.json": consent, "patient.json": raw, "scan.hscan": scan})
    report["raw patient.json with name and address"] = f"{stage} {status}"
    stage, status, _ = upload(options.port, token, "1234567890123_2026-04-27T00-00-03_Scan",
                              {"consent.json": consent, "scan.hscan": scan, "report.html": b"<html>Anna Mueller</html>"})
    report["report.html naming the patient"] = f"{stage} {status}"
    refusal = json.dumps({"version": 1, "researchUse": False, "decidedAt": WEEK, "recordedBy": "app"}).encode()
    stage, status, _ = upload(options.port, token, "1234567890123_2026-04-27T00-00-04_Scan", {"consent.json": refusal, "scan.hscan": scan})
    report["consent refused"] = f"{stage} {status}"
    report["files kept in blobs/ and incoming/ after these (new)"] = stored_files(data) - before
    log.flush()
    report["patient name in the server log"] = "Anna" in open(os.path.join(data, "server.log")).read()

    # 4. Sign-in: unknown and known addresses with wrong passwords, then hammering.
    def timed(email):
        auth = {"Authorization": "Basic " + base64.b64encode(f"{email}:wrong".encode()).decode()}
        start = time.perf_counter()
        status, _ = request(options.port, "GET", "/api/sessions", auth)
        return (time.perf_counter() - start) * 1000, status
    unknown = [timed(f"nobody{i}@example.org")[0] for i in range(5)]
    known = [timed("r@example.org")[0] for _ in range(4)]
    report["wrong password, unknown address, median ms"] = round(statistics.median(unknown), 1)
    report["wrong password, known address, median ms"] = round(statistics.median(known), 1)
    statuses = [timed("r@example.org")[1] for _ in range(36)]
    report["40 wrong passwords: answered 401 / 429"] = f"{statuses.count(401) + 4} / {statuses.count(429)}"
    # 5. The second round: a 150-byte PLY that trapped the server, a measurement naming another
    # clinic's file, a duplicate key, a typed note on a Monday, text in the recording's header.
    hostile_ply = (b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
                   b"element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 1e30\n")
    for attempt in range(2):
        stage, status, _ = upload(options.port, token, "1234567890123_2026-04-27T00-00-05_Scan",
                                  {"consent.json": consent, "scan.hscan": scan, "head.ply": hostile_ply})
        report[f"PLY face index 1e30, attempt {attempt + 1}"] = f"{stage} {status}, service alive: {alive(options.port)}"
    measurement = json.loads(json.dumps({"version": 1, "meshFile": "../../../headscan.sqlite"}))
    stage, status, _ = upload(options.port, token, "1234567890123_2026-04-27T00-00-06_Scan",
                              {"consent.json": consent, "scan.hscan": scan, "measurement.json": json.dumps(measurement).encode()})
    report["measurement.json naming ../../../headscan.sqlite"] = f"{stage} {status}"
    duplicate = b'{"version": 1, "researchUse": true, "researchUse": false, "decidedAt": "' + WEEK.encode() + b'", "recordedBy": "app"}'
    stage, status, _ = upload(options.port, token, "1234567890123_2026-04-27T00-00-07_Scan", {"consent.json": duplicate, "scan.hscan": scan})
    report["consent with researchUse twice"] = f"{stage} {status}"
    text = "Max Mustermann *2026-01-15"
    stage, status, answer = upload(options.port, token, "1234567890123_2026-04-27T00-00-08_Scan",
                                   {"consent.json": consent, "scan.hscan": scan + text.encode()})
    report["recording with text after its trailer"] = f"{stage} {status}"
    if status == 200:
        session = json.loads(answer).get("sessionID")
        _, body = request(options.port, "GET", f"/api/sessions/{session}/files/scan.hscan", basic)
        report["  test text in the downloaded recording"] = text.encode() in body

    # 6. A crowd of 40 concurrent wrong passwords (one account, then 40 accounts) while a device
    # lists its sessions and /healthz is asked: their latencies.
    import threading
    def crowd(emails, spread):
        answers, latencies = [], {"healthz": [], "listing": []}
        def guess(index, email):
            auth = {"Authorization": "Basic " + base64.b64encode(f"{email}:wrong guess".encode()).decode()}
            # Through the trusted proxy: every guess from an address of its own, or all from one.
            auth["X-Forwarded-For"] = f"198.51.100.{index + 1}" if spread else "203.0.113.7"
            answers.append(request(options.port, "GET", "/api/sessions", auth)[0])
        def probe():
            for _ in range(20):
                for name, path, headers in (("healthz", "/healthz", {}), ("listing", "/api/sessions", {"Authorization": "Bearer " + token})):
                    start = time.perf_counter()
                    request(options.port, "GET", path, headers)
                    latencies[name].append((time.perf_counter() - start) * 1000)
                time.sleep(0.02)
        threads = [threading.Thread(target=guess, args=(i, e)) for i, e in enumerate(emails)] + [threading.Thread(target=probe)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        p95 = {k: round(sorted(v)[int(0.95 * (len(v) - 1))], 1) for k, v in latencies.items()}
        return answers, p95
    answers, p95 = crowd(["r@example.org"] * 40, spread=False)
    report["40 wrong passwords, one account, one address: 401 / 429 / 503"] = f"{answers.count(401)} / {answers.count(429)} / {answers.count(503)}"
    report["  meanwhile /healthz and a device listing, p95 ms"] = p95
    answers, p95 = crowd([f"crowd{i}@example.org" for i in range(40)], spread=True)
    report["40 wrong passwords, 40 accounts from 40 addresses: 401 / 429 / 503"] = f"{answers.count(401)} / {answers.count(429)} / {answers.count(503)}"
    report["  meanwhile /healthz and a device listing, p95 ms "] = p95
    log.flush()
    server_log = open(os.path.join(data, "server.log")).read()
    report["submitted e-mail addresses in the server log"] = "crowd" in server_log

    server.kill()
    server.wait()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
