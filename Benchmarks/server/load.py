#!/usr/bin/env python3
"""Load test of headscan-server: concurrent clients upload sessions while the server is killed
and restarted; checks that every session arrives exactly once and that every file reads back
as the service's own encoding of what was sent (its helper's), and reports
upload throughput and the p95 latency of the listing API under that load.

    python3 Benchmarks/server/load.py --server-binary .build/release/headscan-server \
        [--clients 20] [--sessions 100] [--min-mb 5] [--max-mb 20] [--restarts 2] [--database postgres://...]

Uses only Python's standard library; the protocol is the one in /openapi.yaml.
"""
import argparse, atexit, base64, hashlib, http.client, json, os, random, shutil, signal, statistics
import struct, subprocess, sys, tempfile, threading, time, zlib

CHUNK = 1 << 20
WEEK = "2026-04-27T00:00:00Z"  # a Monday: every date that reaches the service is a week's start


WIDTH, HEIGHT = 320, 240


def png(rng):
    """A PNG of random colour, as zlib at level 1 leaves it (noise does not compress)."""
    rows = b"".join(b"\x00" + rng.randbytes(WIDTH * 3) for _ in range(HEIGHT))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b"")


def depth(rng):
    """A depth map in the codec's raw mode: 0.3-0.5 m, little-endian Float32."""
    values = struct.pack(f"<{WIDTH * HEIGHT}f", *(0.3 + rng.random() * 0.2 for _ in range(WIDTH * HEIGHT)))
    return b"HD" + bytes([1, 0]) + struct.pack("<IIII", WIDTH, HEIGHT, 0x7FC00000, len(values)) + values


def frame_payload(rng, time, depth_map):
    """A frame record's payload as docs/scan-format.md lays it out: time, two cameras, a PNG
    colour picture and a raw depth map."""
    camera = struct.pack("<ddddII", 250, 250, WIDTH / 2, HEIGHT / 2, WIDTH, HEIGHT)
    color = png(rng)
    return (struct.pack("<d", time) + camera + camera + bytes([2, 0, 0, 0]) + struct.pack("<I", len(color)) + color
            + struct.pack("<I", len(depth_map)) + depth_map)


def scan_file(rng, size):
    """A closed recording as the service accepts it, laid out as docs/scan-format.md says: the
    file header with the week's start as its date, frame records of about half a MiB (random
    colour as PNG, random depth raw, both decodable), the seek index and the trailer."""
    camera = {"fx": 250, "fy": 250, "cx": WIDTH / 2, "cy": HEIGHT / 2, "width": WIDTH, "height": HEIGHT}
    header = json.dumps({
        "device": "simulator", "appVersion": "1.0", "colorIntrinsics": camera, "depthIntrinsics": camera, "capLayoutName": "none",
        "settings": {}, "createdAt": WEEK, "metadata": {},
    }, sort_keys=True, separators=(",", ":")).encode()
    prefix = b"HSCAN\r\n\x1a" + struct.pack("<HHI", 1, 0, len(header))
    parts = [prefix, header, struct.pack("<I", zlib.crc32(prefix[8:] + header) & 0xFFFFFFFF)]
    offset = sum(len(p) for p in parts)

    def record(kind, sequence, payload):
        head = struct.pack("<IBBHIII", 0x52435348, kind, 0, 0, sequence, len(payload), zlib.crc32(payload) & 0xFFFFFFFF)
        return head + struct.pack("<I", zlib.crc32(head) & 0xFFFFFFFF) + payload

    depth_map = depth(rng)  # one per recording: making it is the slow part in Python
    count = max(1, round(size / len(frame_payload(random.Random(0), 0, depth_map))))
    index = []
    for sequence in range(count):
        frame = record(1, sequence, frame_payload(rng, sequence / 30, depth_map))
        index.append((offset, sequence / 30))
        parts.append(frame)
        offset += len(frame)
    index_offset = offset
    parts.append(record(2, 0, struct.pack("<I", len(index)) + b"".join(struct.pack("<Qd", o, t) for o, t in index)))
    trailer = struct.pack("<QI", index_offset, 0x444E4548)
    parts.append(trailer + struct.pack("<I", zlib.crc32(trailer) & 0xFFFFFFFF))
    return b"".join(parts)


def kept(binary, name, data, scratch):
    """What the service keeps of a file: its own encoding, as its helper writes it."""
    source, target = os.path.join(scratch, "0"), os.path.join(scratch, "0.kept")
    with open(source, "wb") as f:
        f.write(data)
    answer = subprocess.run([binary, "inspect-upload", "--folder", scratch, "--name", name], capture_output=True, check=True).stdout
    if json.loads(answer).get("refusal"):
        raise SystemExit(f"{name} would be refused: {answer[:200]}")
    with open(target, "rb") as f:
        return f.read()


def request(port, method, path, headers=None, body=None, timeout=60):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


class Server:
    def __init__(self, binary, data, database, port):
        self.binary, self.data, self.database, self.port = binary, data, database, port
        self.process = None

    def args(self, *extra):
        args = [self.binary, *extra, "--data", self.data]
        if self.database:
            args += ["--database", self.database]
        return args

    def start(self):
        log = open(os.path.join(self.data, "server.log"), "a")
        self.process = subprocess.Popen(self.args("serve", "--port", str(self.port), "--workers", "0"), stdout=log, stderr=log)
        for _ in range(300):
            try:
                if request(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise SystemExit("the server did not start; see server.log")

    def kill(self):
        process = getattr(self, "process", None)
        if process and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()


def upload(port, token, name, files, stats):
    """The client's protocol with retries: announce, send missing chunks, complete."""
    auth = {"Authorization": "Bearer " + token}
    manifest = [{"name": n, "size": len(d), "sha256": hashlib.sha256(d).hexdigest()} for n, d in files.items()]
    body = json.dumps({"sessionName": name, "chunkSize": CHUNK, "files": manifest}).encode()
    delay = 0.2
    while True:
        try:
            status, answer = request(port, "POST", "/api/uploads", {**auth, "Content-Type": "application/json"}, body)
            if status >= 500:
                raise OSError(status)
            if status != 200:
                raise SystemExit(f"{name}: refused {status} {answer[:200]}")
            state = json.loads(answer)
            if state["state"] == "complete":
                return state["sessionID"]
            for item in manifest:
                data = files[item["name"]]
                have = set(state["received"].get(item["name"], []))
                count = max(1, (len(data) + CHUNK - 1) // CHUNK)
                for index in range(count):
                    if index in have:
                        continue
                    piece = data[index * CHUNK:(index + 1) * CHUNK]
                    status, answer = request(port, "PUT", f"/api/uploads/{state['uploadID']}/files/{item['name']}/chunks/{index}",
                                             {**auth, "X-Chunk-SHA256": hashlib.sha256(piece).hexdigest()}, piece)
                    if status >= 500:
                        raise OSError(status)
                    if status != 200:
                        raise SystemExit(f"{name}: chunk refused {status} {answer[:200]}")
                    with stats["lock"]:
                        stats["bytes"] += len(piece)
            status, answer = request(port, "POST", f"/api/uploads/{state['uploadID']}/complete", auth, b"")
            if status == 200:
                return json.loads(answer)["sessionID"]
            if status < 500 and status != 409:
                raise SystemExit(f"{name}: complete refused {status} {answer[:200]}")
        except (OSError, http.client.HTTPException):
            with stats["lock"]:
                stats["retries"] += 1
            time.sleep(delay)
            delay = min(delay * 2, 3)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server-binary", required=True)
    parser.add_argument("--kept-binary", help="the headscan-server whose inspect-upload gives the expected kept bytes (default: --server-binary)")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--min-mb", type=float, default=5)
    parser.add_argument("--max-mb", type=float, default=20)
    parser.add_argument("--restarts", type=int, default=2)
    parser.add_argument("--database")
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--no-kept-check", action="store_true",
                        help="only check that every session arrived once (for builds before the service kept its own encoding)")
    options = parser.parse_args()

    data = tempfile.mkdtemp(prefix="headscan-load-")
    if not options.keep:
        # Each run writes a few gigabytes: they go whether the run ends, fails or is stopped.
        atexit.register(shutil.rmtree, data, ignore_errors=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    server = Server(os.path.abspath(options.server_binary), data, options.database, options.port)
    atexit.register(server.kill)  # registered after the folder's removal, so it runs first
    tokens = []
    for index in range(options.clients):
        out = subprocess.run(server.args("device", "add", f"load-device-{index}", "--site", f"site-{index % 3}"), capture_output=True, text=True, check=True)
        tokens.append(out.stdout.strip().splitlines()[-1])
    subprocess.run(server.args("researcher", "add", "load@example.org"), input="load test password\n", text=True, check=True, capture_output=True)

    rng = random.Random(19)
    sessions = []
    for index in range(options.sessions):
        size = int(rng.uniform(options.min_mb, options.max_mb) * (1 << 20))
        consent = json.dumps({"version": 1, "researchUse": True, "decidedAt": WEEK, "recordedBy": "load"}).encode()
        calliper = {"lengthMM": 140, "widthMM": 120, "diagonalAMM": 150, "diagonalBMM": 145}
        patient = json.dumps({"version": 1, "patientID": 1000000000000 + index, "pseudonymisation": "hmac-sha256-v1",
                              "calliper": calliper, "ageAtVisitWeeks": 10 + index % 30}).encode()
        files = {"consent.json": consent, "patient.json": patient, "scan.hscan": scan_file(rng, size)}
        # The pseudonymised name: the week's Monday, then the scan's number that week.
        sequence = 1 + index // len(tokens)
        sessions.append((f"{1000000000000 + index}_2026-04-27T00-{sequence // 60:02d}-{sequence % 60:02d}_Scan", files, tokens[index % len(tokens)]))
    total_bytes = sum(sum(len(d) for d in f.values()) for _, f, _ in sessions)

    server.start()
    stats = {"lock": threading.Lock(), "bytes": 0, "retries": 0}
    results, finished, latencies, done = {}, {}, [], threading.Event()
    basic = {"Authorization": "Basic " + base64.b64encode(b"load@example.org:load test password").decode()}

    def lister():
        while not done.is_set():
            start = time.perf_counter()
            try:
                status, _ = request(options.port, "GET", "/api/sessions?limit=200", basic, timeout=30)
                if status == 200:
                    latencies.append(time.perf_counter() - start)
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.05)

    queue = list(range(len(sessions)))
    queue_lock = threading.Lock()

    def client():
        while True:
            with queue_lock:
                if not queue:
                    return
                index = queue.pop(0)
            name, files, token = sessions[index]
            results[index] = upload(options.port, token, name, files, stats)
            finished[index] = time.perf_counter()

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(options.clients)] + [threading.Thread(target=lister)]
    for thread in threads:
        thread.start()
    # The kills come while uploads run: after a share of the sessions has finished, not after a
    # fixed time (a schedule longer than the uploads would measure the schedule).
    for restart in range(options.restarts):
        threshold = len(sessions) * (restart + 1) // (options.restarts + 1)
        while len(results) < threshold:
            time.sleep(0.01)
        server.kill()
        print(f"killed the server ({len(results)} sessions finished)", flush=True)
        time.sleep(1)
        server.start()
    for thread in threads[:-1]:
        thread.join()
    elapsed = max(finished.values()) - started
    done.set()
    threads[-1].join()

    # Exactly once, and each file exactly the service's own encoding of what was sent.
    status, answer = request(options.port, "GET", "/api/sessions?limit=10000", basic)
    listed = json.loads(answer)["sessions"]
    names = [s["name"] for s in listed]
    problems = []
    if sorted(names) != sorted(name for name, _, _ in sessions):
        problems.append(f"{len(names)} sessions listed, {len(set(names))} distinct, {len(sessions)} sent")
    by_name = {s["name"]: s for s in listed}
    scratch = tempfile.mkdtemp(prefix="headscan-kept-")
    for name, files, _ in sessions:
        session = by_name.get(name)
        if not session:
            continue
        for file_name, data in files.items():
            status, body = request(options.port, "GET", f"/api/sessions/{session['id']}/files/{file_name}", basic, timeout=120)
            if status != 200 or (not options.no_kept_check and body != kept(options.kept_binary or server.binary, file_name, data, scratch)):
                problems.append(f"{name}/{file_name} differs")
    shutil.rmtree(scratch, ignore_errors=True)
    server.kill()
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))] * 1000 if latencies else float("nan")
    print(json.dumps({
        "clients": options.clients, "sessions": len(sessions), "bytes": total_bytes, "restarts": options.restarts,
        "seconds": round(elapsed, 1), "throughput_MBps": round(total_bytes / elapsed / (1 << 20), 1),
        "bytes_sent_including_resends": stats["bytes"], "retries": stats["retries"],
        "listing_requests": len(latencies), "listing_p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
        "listing_p95_ms": round(p95, 1), "database": "postgres" if options.database else "sqlite",
        "all_arrived_once_as_kept": None if options.no_kept_check and not problems else not problems,
    }, indent=2))
    for problem in problems[:20]:
        print("problem:", problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
