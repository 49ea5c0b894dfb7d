"""`nox -s links` can fail: the fixture project, built with Sphinx's linkcheck builder and the
site's own conf.py (its linkcheck settings unchanged), checks links to a small HTTP server that
this test starts on 127.0.0.1. A 404, a missing anchor and a redirect that conf.py does not allow
fail the build; a good link, a good anchor, the redirect conf.py allows (a site's home page), a
host that answers 429 once and one that fails once pass. The Chinese build checks the links its
translation has instead of the English ones. A timeout and a host that answers 429 for ever fail
after their retries. Nothing leaves the loopback interface."""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import conf
from tools.links_report import summary
from tools.site import ROOT

BUILD_TIMEOUT = 180  # seconds; each build takes about 10 (a hang, say a wait for a rate limit, fails fast)
PAGE = b'<html><body><h1>A page</h1><h2 id="there">There</h2></body></html>'


class _Site(http.server.BaseHTTPRequestHandler):
    """What each path answers; ``hits`` counts the requests per path (HEAD and GET alike)."""

    hits: Counter
    lock: threading.Lock
    protocol_version = "HTTP/1.1"

    def _answer(self) -> None:
        path = self.path.split("?")[0]
        with self.lock:
            self.hits[path] += 1
            hit = self.hits[path]
        headers = {}
        if path in ("/ok", "/guide") or (path == "/busy" and hit > 1) or (path == "/flaky" and hit > 2):
            status, body = 200, PAGE
        elif path == "/":  # a site's home page sends readers to a page: allowed by conf.py
            status, body, headers = 302, b"", {"Location": "/ok"}
        elif path == "/moved":  # a page that moved: not allowed
            status, body, headers = 301, b"", {"Location": "/ok"}
        elif path == "/busy":  # rate-limited once, with the wait it asks for
            status, body, headers = 429, b"", {"Retry-After": "1"}
        elif path == "/jammed":  # rate-limited for ever, without saying how long to wait
            status, body = 429, b""
        elif path == "/flaky":  # the first attempt (a HEAD, then a GET) fails
            status, body = 500, b""
        elif path == "/slow":
            time.sleep(3)
            status, body = 200, PAGE
        else:
            status, body = 404, b"not here"
        try:
            self.send_response(status)
            for key, value in {"Content-Type": "text/html; charset=utf-8", "Content-Length": str(len(body)),
                               **headers}.items():
                self.send_header(key, value)
            self.end_headers()
            if self.command == "GET":
                self.wfile.write(body)
        except OSError:  # the checker gave up on /slow and closed the connection
            self.close_connection = True

    do_GET = do_HEAD = _answer

    def log_message(self, *args):
        pass


@contextmanager
def loopback_site():
    """(base address, request counts) of the server, on a free port of 127.0.0.1."""
    handler = type("Site", (_Site,), {"hits": Counter(), "lock": threading.Lock()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler.hits
    finally:
        server.shutdown()
        server.server_close()


def statuses(out: Path) -> dict[str, dict]:
    """The entries of a linkcheck report (output.json), by the address's path and anchor."""
    entries = [json.loads(line) for line in (out / "output.json").read_text(encoding="utf-8").splitlines()]
    return {entry["uri"].split("/", 3)[3]: entry for entry in entries}


def add_links(project: Path, base: str) -> None:
    """The links appended to the fixture page, and a translated paragraph that links elsewhere."""
    page = project / "docs" / "sec" / "page.md"
    links = ", ".join(f"<{base}/{path}>" for path in
                      ("ok", "ok#there", "", "busy", "flaky", "missing", "ok#nowhere", "moved"))
    guide = f"Read [the guide]({base}/guide)."
    page.write_text(page.read_text(encoding="utf-8") + f"\nLinks: {links}.\n\n{guide}\n", encoding="utf-8")
    catalogue = project / "docs" / "locales" / "zh_CN" / "LC_MESSAGES" / "sec" / "page.po"
    catalogue.write_text(catalogue.read_text(encoding="utf-8")
                         + f'\nmsgid "{guide}"\nmsgstr "请读[中文指南]({base}/zh/guide)。"\n', encoding="utf-8")


def test_linkcheck_fails_on_bad_links_and_passes_good_ones(fixture_project, build_project, tmp_path):
    project = fixture_project()
    reports = tmp_path / "linkcheck"
    with loopback_site() as (base, hits):
        add_links(project, base)
        # As `nox -s links` builds each language: the linkcheck builder, no cell outputs.
        en = build_project(project, builder="linkcheck", outputs=False, out=reports / "en", timeout=BUILD_TIMEOUT)
        en_hits = Counter(hits)
        zh = build_project(project, language="zh_CN", builder="linkcheck", outputs=False, out=reports / "zh_CN",
                           timeout=BUILD_TIMEOUT)
    log = en.stdout + en.stderr

    assert en.returncode != 0, log
    status = statuses(reports / "en")
    for good in ("ok", "ok#there", "", "busy", "flaky", "guide"):
        assert status[good]["status"] == "working", status[good]
    assert status["missing"]["status"] == "broken" and "404" in status["missing"]["info"], status["missing"]
    assert status["ok#nowhere"]["status"] == "broken", status["ok#nowhere"]
    assert status["ok#nowhere"]["info"] == "Anchor 'nowhere' not found"
    assert status["moved"]["status"] == "redirected" and status["moved"]["info"] == f"{base}/ok", status["moved"]
    assert all(entry["filename"] == "sec/page.md" for entry in status.values())
    # Each failure is a warning naming the page (-W makes the build fail; -q prints only these).
    assert f"broken link: {base}/missing" in log and f"redirect  {base}/moved" in log, log
    # The settings at work: a broken link is tried linkcheck_retries times (a HEAD, then a GET);
    # the host that answered 429 was asked again, the one that failed once was retried.
    assert conf.linkcheck_retries >= 2
    assert en_hits["/missing"] == 2 * conf.linkcheck_retries
    assert en_hits["/busy"] == 2 and en_hits["/flaky"] == 3, en_hits

    # The Chinese pages link to the translation's address, which only the Chinese build checks.
    assert zh.returncode != 0, zh.stdout + zh.stderr
    zh_status = statuses(reports / "zh_CN")
    assert zh_status["zh/guide"]["status"] == "broken" and "guide" not in zh_status
    assert zh_status["ok"]["status"] == "working" and zh_status["ok#nowhere"]["status"] == "broken"

    # The summary `nox -s links` prints: every failure by page and line, exit status 1.
    done = subprocess.run([sys.executable, "-m", "tools.links_report", str(reports), "en", "zh_CN"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 1, done.stdout + done.stderr
    text = (reports / "summary.md").read_text(encoding="utf-8")
    assert text in done.stdout
    line = status["missing"]["lineno"]
    assert f"- sec/page.md:{line}: broken {base}/missing (404 Client Error" in text, text
    assert f"- sec/page.md:{line}: broken {base}/ok#nowhere (Anchor 'nowhere' not found)" in text
    assert f"- sec/page.md:{line}: redirected {base}/moved (to {base}/ok)" in text
    assert f"- 1 of these links are not on the en pages: {base}/zh/guide" in text
    assert f"broken {base}/zh/guide (404 Client Error: Not Found for url: {base}/zh/guide); only in the " \
           "translation: docs/locales/zh_CN/LC_MESSAGES/sec/page.po" in text, text
    assert text.count("; 3 failed (") == 1 and text.count("; 4 failed (") == 1, text


def test_a_timeout_and_an_endless_429_fail_after_their_retries(fixture_project, build_project, tmp_path):
    """A timeout counts as broken (conf.py), so it is retried like one, then fails; a host that
    answers 429 without a Retry-After is asked again after 60 s, then twice as long each time, and
    the link fails once the wait would pass linkcheck_rate_limit_timeout. Those two limits are
    shortened here (conf.py's would make the test wait minutes), in a conf.py that runs the site's
    and then sets them: -D cannot set a float."""
    project = fixture_project()
    shortened = tmp_path / "conf"
    shortened.mkdir()
    (shortened / "conf.py").write_text(
        "import runpy\n"
        f"globals().update((k, v) for k, v in runpy.run_path({str(ROOT / 'conf.py')!r}).items() if not k.startswith('__'))\n"
        "linkcheck_timeout = 1\nlinkcheck_rate_limit_timeout = 30.0  # under the first wait, 60 s\n", encoding="utf-8")
    with loopback_site() as (base, hits):
        page = project / "docs" / "sec" / "page.md"
        page.write_text(page.read_text(encoding="utf-8") + f"\nSee <{base}/slow> and <{base}/jammed>.\n",
                        encoding="utf-8")
        result = build_project(project, builder="linkcheck", outputs=False, out=tmp_path / "linkcheck",
                               extra=("-c", str(shortened)), timeout=BUILD_TIMEOUT)
        counts = Counter(hits)
    assert result.returncode != 0, result.stdout + result.stderr
    status = statuses(tmp_path / "linkcheck")
    assert status["slow"]["status"] == "broken" and "timed out" in status["slow"]["info"], status["slow"]
    assert status["jammed"]["status"] == "broken" and "429" in status["jammed"]["info"], status["jammed"]
    assert counts["/slow"] == counts["/jammed"] == conf.linkcheck_retries, counts


def test_the_summary_passes_when_every_link_works(tmp_path):
    for language, uri in (("en", "https://x.org/a"), ("zh_CN", "https://x.org/a")):
        (tmp_path / language).mkdir()
        entry = {"filename": "a.md", "lineno": 1, "status": "working", "code": 0, "uri": uri, "info": ""}
        (tmp_path / language / "output.json").write_text(json.dumps(entry) + "\n", encoding="utf-8")
    text, passed = summary(tmp_path, ["en", "zh_CN"])
    assert passed and "1 external links: 1 working; 0 failed (0 links within the site not fetched)." in text
    assert "0 of these links are not on the en pages" in text
    (tmp_path / "zh_CN" / "output.json").unlink()
    text, passed = summary(tmp_path, ["en", "zh_CN"])
    assert not passed and "No report" in text
