#!/usr/bin/env python3
"""The researchers' pages in headless Chromium, end to end with release binaries.

Makes three processed sessions with `headscan demo` (12 s scans, different CVAI and dates) and
records research consent; starts `headscan-server serve` on a fresh data folder, adds a
researcher and a device, uploads the sessions with `headscan upload` and waits until the
server's worker has processed them; then in Chromium: signs in, filters the list so that one session drops out, opens a
session, waits for the three.js view to draw the mesh, and downloads the session as zip and
in the TUM layout. Screenshots go to --out; the run stops at the first failed check.

    python3 Benchmarks/server/browser_check.py --bin .build/release --out /tmp/browser-check

Needs Playwright (`pip install playwright`) and Chromium at /usr/bin/chromium (Debian's
`chromium`); `browser_check.sh` sets both up.
"""
import argparse, base64, json, os, shutil, signal, subprocess, sys, tempfile, time, urllib.request, zipfile

from playwright.sync_api import sync_playwright

EMAIL, PASSWORD = "anna@example.org", "a long test password"
# (CVAI, visit date, seed): the filter CVAI ≥ 6 leaves out the first.
DEMOS = [(4.0, "2026-03-02", 3), (8.0, "2026-04-14", 5), (11.0, "2026-05-01", 7)]
BACKGROUND = (0xE8, 0xED, 0xF2)  # the viewer's clear colour


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)
    print("ok:", message, flush=True)


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise CheckFailed(f"{' '.join(args[:3])} failed ({result.returncode}): {result.stderr.strip()[-2000:]}")
    return result.stdout


def api(port, path):
    token = base64.b64encode(f"{EMAIL}:{PASSWORD}".encode()).decode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Authorization": "Basic " + token})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def make_sessions(headscan, library):
    """Three processed demo sessions with research consent; returns their folders."""
    folders = []
    for cvai, date, seed in DEMOS:
        started = time.perf_counter()
        summary = json.loads(run([headscan, "demo", "--out", library, "--cvai", str(cvai), "--date", date, "--seed", str(seed),
                                  "--scenario", "ideal", "--seconds", "12", "--json"]).strip().splitlines()[-1])
        folder = summary["session"]
        run([headscan, "consent", folder, "--research", "yes"])
        print(f"demo: {os.path.basename(folder)} CVAI {summary['measured']['cvai']:.2f} % ({time.perf_counter() - started:.0f} s)", flush=True)
        folders.append(folder)
    return folders


def start_server(binary, data, port):
    log = open(os.path.join(data, "server.log"), "a")
    process = subprocess.Popen([binary, "serve", "--data", data, "--port", str(port)], stdout=log, stderr=log)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise CheckFailed("the server did not start; see server.log")


def wait_processed(port, count, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        sessions = api(port, "/api/sessions")["sessions"]
        states = [s["processing"] for s in sessions]
        if len(sessions) == count and all(state in ("done", "failed") for state in states):
            check(states.count("done") == count, f"the server's worker processed all {count} sessions ({states})")
            return sessions
        time.sleep(2)
    raise CheckFailed(f"processing did not finish within {timeout} s")


def mesh_coverage(page):
    """Share of the viewer's canvas that is not background, read back from WebGL."""
    return page.evaluate(
        """([r, g, b]) => {
            const canvas = document.querySelector('#viewer canvas');
            if (!canvas) return -1;
            const copy = document.createElement('canvas');
            copy.width = canvas.width; copy.height = canvas.height;
            const context = copy.getContext('2d');
            context.drawImage(canvas, 0, 0);
            const pixels = context.getImageData(0, 0, copy.width, copy.height).data;
            let drawn = 0;
            for (let i = 0; i < pixels.length; i += 4) {
                if (Math.abs(pixels[i] - r) + Math.abs(pixels[i + 1] - g) + Math.abs(pixels[i + 2] - b) > 30) drawn++;
            }
            return drawn / (pixels.length / 4);
        }""",
        list(BACKGROUND),
    )


def download(page, selector, target):
    started = time.perf_counter()
    # The server writes the archive before it answers (TUM: every frame re-encoded), so the
    # download may take a while to start.
    with page.expect_download(timeout=900_000) as info:
        page.click(selector, no_wait_after=True, timeout=900_000)
    info.value.save_as(target)
    print(f"   {os.path.basename(target)}: {time.perf_counter() - started:.1f} s", flush=True)
    check(zipfile.is_zipfile(target), f"{os.path.basename(target)} is a valid zip ({os.path.getsize(target) / 1e6:.1f} MB)")
    return zipfile.ZipFile(target)


def session_folder(names, name):
    """A session's folder in a downloaded archive: SITE/NAME-ID/."""
    folders = {"/".join(n.split("/")[:2]) + "/" for n in names if n.count("/") >= 2 and n.split("/")[1].startswith(name + "-")}
    check(len(folders) == 1, f"the archive has one folder for {name} ({sorted(folders)[:3]})")
    return folders.pop()


def browse(port, out, expected):
    hidden = min(expected, key=lambda s: s["cvai"])
    shown = max(expected, key=lambda s: s["cvai"])
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True,
            # No GPU here: WebGL through Chromium's software renderer.
            args=["--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--ignore-gpu-blocklist"])
        page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        problems = []
        page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        base = f"http://127.0.0.1:{port}"

        page.goto(base + "/sessions")
        check(page.url.endswith("/login"), "signed out, /sessions leads to the sign-in page")
        page.fill("#email", EMAIL)
        page.fill("#password", "not the password")
        page.click("#sign-in")
        # A wrong password costs as long as a right one (bcrypt): wait for the answer.
        page.wait_for_url("**/login?failed=1")
        check(page.is_visible("#login-error"), "a wrong password is refused with a message")
        page.screenshot(path=os.path.join(out, "01-sign-in-refused.png"))
        page.fill("#email", EMAIL)
        page.fill("#password", PASSWORD)
        page.click("#sign-in")
        page.wait_for_url(base + "/sessions")
        check(page.inner_text("#count") == str(len(expected)), f"signed in, the list shows {len(expected)} sessions")
        page.screenshot(path=os.path.join(out, "02-sessions.png"), full_page=True)

        page.fill("input[name=cvaiMin]", "6")
        page.click("#apply")
        page.wait_for_url("**cvaiMin=6**")
        check(page.inner_text("#count") == str(len(expected) - 1), "CVAI from 6 %: one session fewer")
        check(page.locator(f"a[href='/sessions/{hidden['id']}']").count() == 0, f"{hidden['name']} (CVAI {hidden['cvai']:.1f}) is filtered out")
        check(page.locator(f"a[href='/sessions/{shown['id']}']").count() == 1, f"{shown['name']} (CVAI {shown['cvai']:.1f}) is listed")
        page.screenshot(path=os.path.join(out, "03-filtered.png"), full_page=True)

        page.click(f"a[href='/sessions/{shown['id']}']")
        page.wait_for_selector("#viewer[data-loaded]", timeout=60_000)
        check(page.inner_text("#cvai") == f"{shown['cvai']:.1f} %", f"the session page shows CVAI {shown['cvai']:.1f} %")
        vertices = int(page.get_attribute("#viewer", "data-loaded"))
        coverage = 0
        for _ in range(50):  # the first frame may come a moment after the load
            coverage = mesh_coverage(page)
            if coverage > 0.05:
                break
            time.sleep(0.1)
        check(coverage > 0.05, f"three.js drew the mesh ({vertices} vertices, {coverage:.0%} of the canvas)")
        page.screenshot(path=os.path.join(out, "04-session.png"), full_page=True)
        page.locator("#viewer").screenshot(path=os.path.join(out, "05-mesh.png"))
        # Turn the head with the mouse: the picture changes.
        box = page.locator("#viewer canvas").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] / 2 + 160, box["y"] + box["height"] / 2, steps=8)
        page.mouse.up()
        page.locator("#viewer").screenshot(path=os.path.join(out, "06-mesh-turned.png"))

        files = download(page, "#download-session", os.path.join(out, "session.zip"))
        names = files.namelist()
        folder = session_folder(names, shown["name"])
        for name in ("scan.hscan", "head.ply", "measurement.json", "report.pdf"):
            check(folder + name in names, f"session.zip holds {name}")
        tum = download(page, "#download-session-tum", os.path.join(out, "session-tum.zip"))
        names = tum.namelist()
        folder = session_folder(names, shown["name"])
        pngs = sum(1 for n in names if n.startswith(folder + "rgb/") and n.endswith(".png"))
        depth = sum(1 for n in names if n.startswith(folder + "depth/") and n.endswith(".png"))
        pairs = [l for l in tum.read(folder + "associations.txt").decode().splitlines() if l and not l.startswith("#")]
        poses = [l for l in tum.read(folder + "groundtruth.txt").decode().splitlines() if l and not l.startswith("#")]
        check(pngs == depth == len(pairs) > 0, f"session-tum.zip: {pngs} colour and {depth} depth images, {len(pairs)} pairs")
        check(len(poses) > 0 and folder + "intrinsics.json" in names, f"session-tum.zip: intrinsics.json and {len(poses)} keyframe poses")
        page.screenshot(path=os.path.join(out, "07-after-downloads.png"))

        page.click("text=Sign out")
        page.wait_for_url(base + "/login")
        check(True, "signed out")
        browser.close()
    check(not problems, f"no errors in the browser console ({problems[:3]})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release", help="folder with release-built headscan and headscan-server")
    parser.add_argument("--out", default="Benchmarks/server/out/browser", help="screenshots and downloads")
    parser.add_argument("--port", type=int, default=18090)
    parser.add_argument("--keep", action="store_true", help="keep the temporary data folder")
    options = parser.parse_args()
    server_binary = os.path.abspath(os.path.join(options.bin, "headscan-server"))
    headscan = os.path.abspath(os.path.join(options.bin, "headscan"))
    out = os.path.abspath(options.out)
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="headscan-browser-")
    data, library = os.path.join(work, "data"), os.path.join(work, "library")
    os.makedirs(data)
    server = None
    try:
        folders = make_sessions(headscan, library)
        run([server_binary, "researcher", "add", EMAIL, "--data", data], input=PASSWORD + "\n")
        token = run([server_binary, "device", "add", "clinic-a-phone-1", "--site", "clinic-a", "--data", data]).strip().splitlines()[-1]
        server = start_server(server_binary, data, options.port)
        key = os.path.join(work, "site-key")
        run([headscan, "upload", *folders, "--server", f"http://127.0.0.1:{options.port}", "--token", token, "--site-key", key])
        sessions = wait_processed(options.port, len(folders), timeout=900)
        check(all(s["cvai"] is not None for s in sessions), "every session has a CVAI")
        browse(options.port, out, sessions)
        print(f"all checks passed; screenshots and downloads in {out}")
    except CheckFailed as failure:
        print("FAILED:", failure, file=sys.stderr)
        sys.exit(1)
    finally:
        if server:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        if options.keep:
            print("data kept in", work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
