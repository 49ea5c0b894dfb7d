"""A built site in a real browser: a local server and Debian's Chromium (driven by Playwright).

Used by the browser tests and by ``bench_site``. Browsers cannot be downloaded here: the one used
is Debian's ``chromium`` (``apt-get install chromium``), or the one ``KB_CHROMIUM`` names.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import sys
import threading
from pathlib import Path
from typing import Iterator


ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
INSTALL = "apt-get install chromium"


def chromium_path() -> Path | None:
    """Where Chromium is, or None."""
    found = os.environ.get("KB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return Path(found) if Path(found).exists() else None


def serve_command(directory: Path | str, port: int = 8000, python: str = "python3") -> list[str]:
    """The one command a reader runs to serve a built site (search needs HTTP: opened from disk,
    a browser refuses the requests for the result summaries).

    >>> " ".join(serve_command("_build/html"))
    'python3 -m http.server --directory _build/html --bind 127.0.0.1 8000'
    """
    return [python, "-m", "http.server", "--directory", str(directory), "--bind", "127.0.0.1", str(port)]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """Serves a built site as a static host does: quietly, and a missing address under a language's
    folder (``/zh_CN/core/gone.html``) answers 404 with that language's ``404.html``."""

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        language = self.path.lstrip("/").split("/", 1)[0]
        page = Path(self.directory) / language / "404.html"
        if code != 404 or not language or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A browser that moves on cancels requests still in flight (search summaries, say): the
        # broken pipe that follows is not a failure, so it prints no traceback.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on a free port of 127.0.0.1; yields the base URL."""
    httpd = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(directory)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextlib.contextmanager
def chromium() -> Iterator["object"]:
    """A headless Chromium (a Playwright ``Browser``); a clear error when it is not installed."""
    path = chromium_path()
    if path is None:
        raise RuntimeError(f"Chromium not found: install Debian's chromium ({INSTALL}) or set KB_CHROMIUM")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(path), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
