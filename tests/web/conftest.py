"""Browser fixtures: the real service on a free port, and Chromium driven by Playwright.

The tests skip (with the reason) when Playwright for Python or a Chromium binary is
missing; CI installs both. Chromium is Debian's (`apt-get install chromium`), not the
one `playwright install` downloads: set CHROMIUM to use another binary.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import uvicorn

from service.app import create_app
from service.config import Settings
from tests.races.race_support import Clock
from tests.support import fill_winnable_pools, free_port

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright, ViewportSize

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "clients" / "web" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    configured = os.environ.get("CHROMIUM")
    if configured:
        return configured if Path(configured).exists() else None
    for candidate in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


# --------------------------------------------------------------------------- the service


class Api:
    """A minimal HTTP client for checking what the server says (standard library only)."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        headers = {"accept": "application/json"}
        data = None
        if body is not None:
            headers["content-type"] = "application/json"
            data = json.dumps(body).encode()
        if token:
            headers["authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def get(self, path: str, token: str | None = None) -> Any:
        status, body = self.call("GET", path, token=token)
        assert status == 200, (path, status, body)
        return body

    def post(self, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        return self.call("POST", path, body if body is not None else {}, token)

    def state(self, game_id: str, token: str | None = None) -> tuple[int, dict[str, Any]]:
        """The game's version and public state, as the server has them."""
        body = self.get(f"/games/{game_id}", token)
        return body["version"], body["state"]

    def legal(self, game_id: str, token: str | None = None) -> list[str]:
        return [
            a["notation"] for a in self.get(f"/games/{game_id}/legal-actions", token)["actions"]
        ]


def web_settings() -> Settings:
    """The browser tests' service: in-memory store, short race countdown."""
    return Settings(
        store_url="memory://",
        race_countdown_seconds=0.5,
        log_level="warning",
        winnable_pool_size=0,
        # Every page of the tests comes from one address, faster than a person plays.
        http_write_rate_per_second=1000,
        http_write_burst=1000,
        changes_rate_per_second=1000,
        changes_burst=1000,
        # Every player on public boards at once; the plausibility floor as deployed.
        board_min_account_hours=0,
        board_min_games=0,
    )


@contextmanager
def serve(clock: Callable[[], float] = time.time) -> Iterator[tuple[str, Any]]:
    """The service on a free port, and its app."""
    app = create_app(web_settings(), clock)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=free_port(),
        log_level="warning",
        lifespan="on",
    )
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, name="web-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not instance.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the service did not start")
        time.sleep(0.02)
    fill_winnable_pools(app)
    try:
        yield f"http://127.0.0.1:{config.port}", app
    finally:
        instance.should_exit = True
        thread.join(10)


@pytest.fixture(scope="session")
def served() -> Iterator[tuple[str, Any]]:
    """The service (in-memory store, short race countdown) on a free port, and its app."""
    with serve() as found:
        yield found


@pytest.fixture(scope="module")
def clocked() -> Iterator[tuple[str, Clock]]:
    """A service of its own whose clock a test moves forward (to an arena's start or
    end): the address and the clock. Moving the shared service's clock would end the
    races of the other tests."""
    clock = Clock()
    with serve(clock) as (address, _):
        yield address, clock


@pytest.fixture(scope="session")
def server(served: tuple[str, Any]) -> str:
    """The address of the service."""
    return str(served[0])


@pytest.fixture(scope="session")
def service_app(served: tuple[str, Any]) -> Any:
    """The service's app, for what tests set up inside it (pools of winnable deals)."""
    return served[1]


@pytest.fixture(scope="session")
def api(server: str) -> Api:
    return Api(server)


# --------------------------------------------------------------------------- the browser


# Per module, not per session: Playwright's sync API keeps an event loop running in this
# thread while it is open, and an asyncio test that a parallel worker runs after the
# browser tests in the same process could not start its own.
@pytest.fixture(scope="module")
def playwright_instance() -> Iterator[Playwright]:
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright)")
    if chromium_path() is None:
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")
    # The assertions wait as long as the pages' actions do (``new_context``): on two
    # cores shared with the rest of the suite, a page's updates can run seconds late.
    expect.set_options(timeout=10_000)
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="module")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    launched = playwright_instance.chromium.launch(
        executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS
    )
    try:
        yield launched
    finally:
        launched.close()


@dataclass
class PageErrors:
    """Uncaught exceptions and console errors of the pages a test opened."""

    errors: list[str] = field(default_factory=list)
    allowed: list[str] = field(default_factory=list)

    def allow(self, fragment: str) -> None:
        """Console errors containing ``fragment`` are expected (an HTTP 422, say)."""
        self.allowed.append(fragment)

    def console(self, text: str) -> None:
        if not any(fragment in text for fragment in self.allowed):
            self.errors.append(f"console: {text}")

    def watch(self, page: Page) -> Page:
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on("console", lambda m: self.console(m.text) if m.type == "error" else None)
        return page


@pytest.fixture
def page_errors() -> Iterator[PageErrors]:
    errors = PageErrors()
    yield errors
    assert errors.errors == [], "the page reported errors"


@pytest.fixture
def new_context(browser: Browser, server: str) -> Iterator[Any]:
    """Opens browser contexts (desktop by default) that are closed after the test."""
    contexts: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        options.setdefault("viewport", DESKTOP)
        options.setdefault("base_url", server)
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def sent_frames() -> list[dict[str, Any]]:
    """Every WebSocket message the ``page`` sent, parsed."""
    return []


def record_frames(page: Page, into: list[dict[str, Any]]) -> None:
    def on_socket(socket: Any) -> None:
        socket.on("framesent", lambda payload: into.append(json.loads(payload)))

    page.on("websocket", on_socket)


@pytest.fixture
def page(new_context: Any, page_errors: PageErrors, sent_frames: list[dict[str, Any]]) -> Page:
    """A desktop-sized page showing the front end."""
    opened: Page = page_errors.watch(new_context().new_page())
    record_frames(opened, sent_frames)
    opened.goto("/")
    return opened


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests save their screenshots: a temporary folder, so that a test run
    leaves the work tree as it was; ``UPDATE_SCREENSHOTS=1`` writes the README's
    pictures in clients/web/screenshots instead."""
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path_factory.mktemp("screenshots")
