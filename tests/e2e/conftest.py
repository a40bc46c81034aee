"""Real-browser fixtures: Debian's Chromium driven by Playwright against the live server.

Later suites reuse ``browser``, ``page`` (1280×800), ``phone_page`` (360×740), ``axe_check`` and
``screenshot``. Every page fixture fails its test if the page asked any host other than the live
server for anything, or logged a console error (a CSP violation shows up there).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, sync_playwright

from config.settings.env import env

# Playwright's sync API runs an event loop in this thread; the ORM calls in the tests are still
# synchronous and safe, so let Django allow them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
BLOCKING_IMPACTS = ("serious", "critical")
FAILED_LOAD = re.compile(r"Failed to load resource: the server responded with a status of (\d+)")

pytestmark = pytest.mark.e2e


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in item.nodeid:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: apt-get install chromium"
        if env.ci():
            pytest.fail(f"CI=true: {message}")
        pytest.skip(message)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def refusals() -> set[int]:
    """The HTTP statuses a test provokes on purpose (``refusals.add(400)``).

    Chromium logs every response of status 400 or more, a page's or an htmx request's, as a
    console error "Failed to load resource: the server responded with a status of 400": its
    network layer does so before any script sees the response, and no page can turn it off.
    The app answers refusals with their true status (400 a refused deal, 409 a stale move, 429
    a lockout), so such a line is expected exactly when the test provokes that status; any
    other console error, or a failed load of another status, fails the test.
    """
    return set()


def _watched_page(
    browser: Browser, live_server, width: int, height: int, refusals: set[int]
) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10_000)
    allowed = urlsplit(live_server.url).netloc
    foreign: list[str] = []
    errors: list[str] = []
    page.on(
        "request",
        lambda request: (
            foreign.append(request.url)
            if urlsplit(request.url).scheme in ("http", "https")
            and urlsplit(request.url).netloc != allowed
            else None
        ),
    )
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert foreign == [], f"requests to third-party hosts: {foreign}"
    unexpected = [e for e in errors if _failed_status(e) not in refusals]
    assert unexpected == [], f"console errors: {unexpected}"


def _failed_status(error: str) -> int | None:
    """The status of a "Failed to load resource" console line, else None."""
    match = FAILED_LOAD.search(error)
    return int(match.group(1)) if match else None


@pytest.fixture
def page(browser: Browser, live_server, refusals: set[int]) -> Iterator[Page]:
    yield from _watched_page(browser, live_server, 1280, 800, refusals)


@pytest.fixture
def phone_page(browser: Browser, live_server, refusals: set[int]) -> Iterator[Page]:
    yield from _watched_page(browser, live_server, 360, 740, refusals)


def _axe_check(page: Page) -> None:
    """Fail on any serious or critical axe-core violation of the page as it is now."""
    results = Axe().run(page)
    violations = [v for v in results.response["violations"] if v.get("impact") in BLOCKING_IMPACTS]
    report = "\n".join(
        f"{v['impact']}: {v['id']}: {v['help']} — "
        + "; ".join(node["target"][0] for node in v["nodes"][:5])
        for v in violations
    )
    assert violations == [], f"axe violations on {page.url}:\n{report}"


@pytest.fixture
def axe_check() -> Callable[[Page], None]:
    return _axe_check


def _screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    return _screenshot
