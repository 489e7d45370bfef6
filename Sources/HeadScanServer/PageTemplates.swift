/// The pages' templates, style sheet and mesh viewer: plain text compiled into the server, so
/// there is no build step, no CDN and nothing to install beside the binary.
enum PageTemplates {
    static let all: [String: String] = ["header": header, "footer": footer, "login": login, "list": list, "session": session]

    static let header = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>HeadScan research data</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/static/style.css"></head>
        <body><header><a class="brand" href="/sessions">HeadScan research data</a>
        {{#email}}<form class="signout" method="post" action="/logout"><input type="hidden" name="csrf" value="{{csrf}}"><span>{{email}}</span> <button type="submit">Sign out</button></form>{{/email}}
        </header><main>
        """

    static let footer = """
        </main></body></html>
        """

    static let login = """
        {{> header}}
        <h1>Sign in</h1>
        {{#failed}}<p class="error" id="login-error">The e-mail address or the password is wrong.</p>{{/failed}}
        {{#throttled}}<p class="error" id="login-error">Too many wrong passwords: wait a quarter of an hour, then try again.</p>{{/throttled}}
        <form method="post" action="/login" class="login">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label>E-mail <input type="email" name="email" id="email" required autofocus></label>
          <label>Password <input type="password" name="password" id="password" required></label>
          <button type="submit" id="sign-in">Sign in</button>
        </form>
        {{> footer}}
        """

    static let list = """
        {{> header}}
        <h1>Sessions</h1>
        <form method="get" action="/sessions" class="filters" id="filters">
          <label>Site <input name="site" value="{{site}}"></label>
          <label>From <input type="date" name="from" value="{{from}}"></label>
          <label>To <input type="date" name="to" value="{{to}}"></label>
          <label>Measured <select name="measured">
            <option value="any"{{#measuredAny}} selected{{/measuredAny}}>any</option>
            <option value="yes"{{#measuredYes}} selected{{/measuredYes}}>yes</option>
            <option value="no"{{#measuredNo}} selected{{/measuredNo}}>no</option></select></label>
          <label>CVAI from <input name="cvaiMin" size="4" value="{{cvaiMin}}"></label>
          <label>to <input name="cvaiMax" size="4" value="{{cvaiMax}}"></label>
          <label>Rating from <input name="ratingMin" size="2" value="{{ratingMin}}"></label>
          <label>to <input name="ratingMax" size="2" value="{{ratingMax}}"></label>
          <button type="submit" id="apply">Filter</button>
        </form>
        <p><span id="count">{{count}}</span> sessions.
        {{#canDownload}}<a class="button" id="download-set" href="/api/download{{downloadQuery}}">Download these as zip</a>
        <a class="button" id="download-set-tum" href="/api/download{{tumQuery}}">Download these in TUM layout</a>{{/canDownload}}</p>
        <table class="sessions"><thead><tr><th>Session</th><th>Site</th><th>Recorded</th><th>Measured</th><th>CVAI %</th><th>CI %</th>
        <th>Circumference mm</th><th>Rating</th><th>Processing</th></tr></thead><tbody>
        {{#sessions}}<tr><td><a href="/sessions/{{id}}">{{name}}</a></td><td>{{site}}</td><td>{{recordedAt}}</td>
        <td>{{#measured}}yes{{/measured}}{{^measured}}no{{/measured}}</td><td>{{cvai}}</td><td>{{ci}}</td><td>{{circumference}}</td>
        <td>{{rating}}</td><td>{{processing}}</td></tr>{{/sessions}}
        </tbody></table>
        {{> footer}}
        """

    static let session = """
        {{> header}}
        <p><a href="/sessions">← All sessions</a></p>
        <h1 id="session-name">{{name}}</h1>
        <table class="values">
        <tr><th>Site</th><td>{{site}}</td></tr><tr><th>Device</th><td>{{device}}</td></tr>
        <tr><th>Recorded</th><td>{{recordedAt}}</td></tr><tr><th>Uploaded</th><td>{{uploadedAt}}</td></tr>
        <tr><th>CVAI</th><td id="cvai">{{cvai}} %</td></tr><tr><th>Cranial index</th><td>{{ci}} %</td></tr>
        <tr><th>Circumference</th><td>{{circumference}} mm</td></tr><tr><th>Scan rating</th><td>{{rating}}</td></tr>
        <tr><th>Processing</th><td>{{processing}}</td></tr>
        </table>
        {{#canDownload}}
        <p>{{#hasReport}}<a class="button" id="report" href="/api/sessions/{{id}}/files/report.pdf?inline=1">Report (PDF)</a> {{/hasReport}}
        {{#hasHTMLReport}}<a class="button" href="/api/sessions/{{id}}/files/report.html?inline=1">Report (HTML)</a> {{/hasHTMLReport}}
        <a class="button" id="download-session" href="/api/sessions/{{id}}/download">Download session (zip)</a>
        {{#hasScan}}<a class="button" id="download-session-tum" href="/api/sessions/{{id}}/download?format=tum">Download recording (TUM layout)</a>{{/hasScan}}</p>
        {{/canDownload}}
        {{#hasMesh}}
        <h2>Head mesh</h2>
        {{#hasThree}}<div id="viewer" data-mesh="/api/sessions/{{id}}/mesh"{{#hasAsymmetry}} data-map="/api/sessions/{{id}}/mesh?view=asymmetry"{{/hasAsymmetry}}{{#hasViewDirection}} data-from="{{viewFrom}}" data-up="{{viewUp}}"{{/hasViewDirection}}></div>
        {{#hasAsymmetry}}<p><button type="button" id="show-map">Show the asymmetry map</button> <span class="hint">Blue: flatter than the other side; red: fuller; white: symmetric; saturates at ±5 mm.</span></p>{{/hasAsymmetry}}
        <p class="hint">Drag to turn, scroll to zoom.</p>
        <script src="/static/three/three.min.js"></script><script src="/static/three/PLYLoader.js"></script>
        <script src="/static/three/OrbitControls.js"></script><script src="/static/viewer.js"></script>{{/hasThree}}
        {{^hasThree}}<p class="hint">The 3D view needs three.js on the server (Debian's libjs-three).</p>{{/hasThree}}
        {{/hasMesh}}
        <h2>Files</h2>
        <table class="files"><thead><tr><th>File</th><th>Size</th><th>SHA-256</th></tr></thead><tbody>
        {{#files}}<tr><td>{{#canDownload}}<a href="/api/sessions/{{id}}/files/{{name}}">{{name}}</a>{{/canDownload}}{{^canDownload}}{{name}}{{/canDownload}}</td>
        <td>{{size}}</td><td><code>{{sha256}}</code></td></tr>{{/files}}
        </tbody></table>
        {{> footer}}
        """

    static let css = """
        body { font-family: system-ui, sans-serif; margin: 0; color: #1d2733; background: #f7f9fb; }
        header { display: flex; justify-content: space-between; align-items: center; padding: .6rem 1.5rem; background: #23415f; color: white; }
        header a.brand { color: white; text-decoration: none; font-weight: 600; }
        header .signout span { margin-right: .5rem; }
        main { padding: 1rem 1.5rem; overflow-x: auto; }
        table { border-collapse: collapse; background: white; }
        th, td { padding: .3rem .6rem; border-bottom: 1px solid #dde3ea; text-align: left; }
        table.sessions td { white-space: nowrap; }
        table.sessions th { vertical-align: bottom; }
        .filters { display: flex; flex-wrap: wrap; gap: .6rem; align-items: end; margin-bottom: 1rem; }
        .filters label, .login label { display: flex; flex-direction: column; font-size: .85rem; gap: .15rem; }
        input, select { font: inherit; font-size: .95rem; padding: .25rem .35rem; border: 1px solid #aab6c2; border-radius: 3px; background: white; }
        .login { display: flex; flex-direction: column; gap: .8rem; max-width: 20rem; }
        a.button, button { display: inline-block; padding: .35rem .8rem; background: #2f6ea5; color: white; border: 0; border-radius: 4px; text-decoration: none; cursor: pointer; font: inherit; }
        header button { font-size: .9rem; }
        .error { color: #a3262a; }
        .hint { color: #5b6875; font-size: .9rem; }
        #viewer { width: 640px; height: 480px; background: #e8edf2; border: 1px solid #ccd5de; }
        code { font-size: .75rem; }
        """

    /// Loads the PLY mesh and shows it with orbit controls (three.js r111 globals). With
    /// `data-from` and `data-up` (the head's axes from its landmarks) the first view is from
    /// above, front and right, top of the head up; else from the mesh frame's default side.
    static let viewer = """
        (function () {
          var box = document.getElementById('viewer');
          if (!box || !window.THREE) { return; }
          var renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
          renderer.setSize(box.clientWidth, box.clientHeight);
          renderer.setClearColor(0xe8edf2);
          box.appendChild(renderer.domElement);
          var scene = new THREE.Scene();
          var camera = new THREE.PerspectiveCamera(40, box.clientWidth / box.clientHeight, 0.001, 10);
          var sky = new THREE.HemisphereLight(0xffffff, 0x8899aa, 0.9);
          scene.add(sky);
          var light = new THREE.DirectionalLight(0xffffff, 0.6);
          camera.add(light);
          scene.add(camera);
          function draw() { renderer.render(scene, camera); }
          function vector(name) {
            var text = box.getAttribute(name);
            var v = text ? text.split(',').map(Number) : [];
            return v.length === 3 && v.every(isFinite) ? new THREE.Vector3(v[0], v[1], v[2]) : null;
          }
          var shown = null;
          // The surface in skin colour, or the asymmetry map's mesh in its own vertex colours.
          function show(geometry, colored) {
            geometry.computeVertexNormals();
            geometry.computeBoundingSphere();
            var material = colored
              ? new THREE.MeshStandardMaterial({ vertexColors: THREE.VertexColors, roughness: 0.9, side: THREE.DoubleSide })
              : new THREE.MeshStandardMaterial({ color: 0xd9b99b, roughness: 0.8, side: THREE.DoubleSide });
            var mesh = new THREE.Mesh(geometry, material);
            mesh.position.sub(geometry.boundingSphere.center);
            if (shown) { scene.remove(shown); }
            scene.add(mesh);
            shown = mesh;
            return geometry.boundingSphere;
          }
          var button = document.getElementById('show-map');
          var mapShown = false;
          if (button) {
            button.addEventListener('click', function () {
              mapShown = !mapShown;
              button.disabled = true;
              new THREE.PLYLoader().load(box.getAttribute(mapShown ? 'data-map' : 'data-mesh'), function (geometry) {
                show(geometry, mapShown);
                button.textContent = mapShown ? 'Show the surface' : 'Show the asymmetry map';
                button.disabled = false;
                draw();
              }, undefined, function () { button.disabled = false; });
            });
          }
          new THREE.PLYLoader().load(box.getAttribute('data-mesh'), function (geometry) {
            var sphere = show(geometry, false);
            var from = vector('data-from'), up = vector('data-up');
            if (from && up) {
              camera.position.copy(from.multiplyScalar(sphere.radius * 3.2));
              camera.up.copy(up);
              sky.position.copy(up);
            } else {
              camera.position.set(0, -sphere.radius * 0.6, -sphere.radius * 3.2);
              camera.up.set(0, -1, 0);
            }
            camera.lookAt(0, 0, 0);
            // Orbit controls take their up direction from the camera when they are made.
            var controls = new THREE.OrbitControls(camera, renderer.domElement);
            controls.addEventListener('change', draw);
            controls.update();
            box.setAttribute('data-loaded', String(geometry.attributes.position.count));
            draw();
          }, undefined, function (error) {
            box.textContent = 'The mesh could not be loaded.';
            box.setAttribute('data-error', String(error));
          });
        })();
        """
}
