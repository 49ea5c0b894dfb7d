"""`nox -s links` runs Sphinx's linkcheck; prove it reports a 404, against a local server."""

from __future__ import annotations

import http.server
import json
import threading


class _Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):  # noqa: N802
        if self.path == "/ok":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<html><body>ok</body></html>")
        else:
            self.send_error(404)

    do_HEAD = do_GET

    def log_message(self, *args):
        pass


def test_linkcheck_reports_404(fixture_project, build_project, tmp_path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        project = fixture_project()
        page = project / "docs" / "sec" / "page.md"
        page.write_text(page.read_text() + f"\nSee <{base}/ok> and <{base}/missing>.\n")
        result = build_project(project, builder="linkcheck", outputs=False, out=tmp_path / "linkcheck")
    finally:
        server.shutdown()
    assert result.returncode != 0
    lines = [json.loads(line) for line in (tmp_path / "linkcheck" / "output.json").read_text().splitlines()]
    status = {entry["uri"].rsplit("/", 1)[-1]: entry for entry in lines}
    assert status["missing"]["status"] == "broken" and "404" in status["missing"]["info"]
    assert status["ok"]["status"] == "working"
    assert "page.md" in status["missing"]["filename"]
