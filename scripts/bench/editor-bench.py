#!/usr/bin/env python3
"""The editor benchmark: how fast the page of `roadbook serve` is on a big book, read from
Chromium's performance timeline (the page's own User Timing marks), never from a timed test.

  * A 2,000-row book (one waypoint a row, each with its tulip) from scripts/make-long-gpx.py: the
    page is opened 5 times; each time, navigation start → the mark `roadbook:rows-ready` (the
    first render of the rows and the map done, the tulips of the rows in view loaded, the frame
    painted). Goal: 1000 ms.
  * A book routed through three handles by the embedded router over the Andorra extract, prepared
    with `roadbook prepare`: the middle handle is dragged 30 times, back and forth; each time,
    `roadbook:drag-start` (the handle dropped, the request sent) → `roadbook:legs-shown` (the new
    legs drawn and painted). Goal: 300 ms, the median of the first 10 (ROADBOOK_EDITOR_DRAGS); the
    last 10 are printed beside them, for how a session grows.

Run with scripts/bench-editor.sh (which makes the venv with Selenium, as scripts/browser-test.sh
does, and builds the release binary). Environment: ROADBOOK_BIN (default .build/release/roadbook),
ROADBOOK_CHROMIUM, ROADBOOK_CHROMEDRIVER, ROADBOOK_EDITOR_LOADS (5), ROADBOOK_EDITOR_DRAGS (10),
ROADBOOK_EDITOR_SESSION (30).
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests/Browser"))
os.environ.setdefault("ROADBOOK_BIN", os.path.join(ROOT, ".build/release/roadbook"))

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

# The browser tests' server, browser and handles: the benchmark works the same page the same way.
import test_editor  # noqa: E402
from test_editor import BIN, EXTRACT, HANDLES, Server, browser, run, wait_for  # noqa: E402

ROWS = 2000
LOADS = int(os.environ.get("ROADBOOK_EDITOR_LOADS", "5"))
DRAGS = int(os.environ.get("ROADBOOK_EDITOR_DRAGS", "10"))
# The drags go on to SESSION in all, so the growth of a session shows: each drag keeps the roads
# it replaced in the drawing's file, which every later drag writes again.
SESSION = max(DRAGS, int(os.environ.get("ROADBOOK_EDITOR_SESSION", "30")))
ROWS_GOAL_MS = 1000
DRAG_GOAL_MS = 300


def marks(driver, name):
    return driver.execute_script("return performance.getEntriesByName(arguments[0], 'mark').map(m => m.startTime)", name)


def rows_ready(driver, url):
    """One load of the page: ms from navigation start to `roadbook:rows-ready`."""
    driver.get("about:blank")
    driver.get(url)
    ready = wait_for("roadbook:rows-ready", lambda: marks(driver, "roadbook:rows-ready"), timeout=60, step=0.05)
    navigation = driver.execute_script("return performance.getEntriesByType('navigation')[0].toJSON()")
    rows = driver.execute_script("return Number(document.getElementById('rows').dataset.rowCount)")
    if rows != ROWS:
        raise AssertionError("the page shows %d rows, not %d" % (rows, ROWS))
    # The marks' times are from the navigation's start (the timeline's origin); say so if not.
    if navigation["startTime"] != 0:
        raise AssertionError("the navigation entry does not start the timeline: %r" % navigation["startTime"])
    return ready[0] - navigation["startTime"]


MISSED = []  # gestures that started no drag (the pointer missed the marker): tried again, counted


def drag(driver, number, dx, dy):
    """Drags handle `number` by (dx, dy) pixels; ms from `roadbook:drag-start` to `roadbook:legs-shown`."""
    before = len(marks(driver, "roadbook:legs-shown"))
    for attempt in range(3):
        started = len(marks(driver, "roadbook:drag-start"))
        marker = driver.find_element(By.CSS_SELECTOR, '.handle-icon[data-handle="%d"]' % number)
        ActionChains(driver).click_and_hold(marker).pause(0.2) \
            .move_by_offset(dx // 2, dy // 2).pause(0.1).move_by_offset(dx - dx // 2, dy - dy // 2).pause(0.2) \
            .release().perform()
        try:
            wait_for("roadbook:drag-start", lambda: len(marks(driver, "roadbook:drag-start")) > started, timeout=3, step=0.05)
            break
        except AssertionError:
            MISSED.append(attempt)
    try:
        shown = wait_for("roadbook:legs-shown", lambda: (lambda m: m if len(m) > before else None)(
            marks(driver, "roadbook:legs-shown")), timeout=60, step=0.05)
    except AssertionError:
        raise AssertionError("drag %d: no new legs shown within 60 s; %d drags started, %d shown; the status bar says %r"
                             % (len(marks(driver, "roadbook:drag-start")), len(marks(driver, "roadbook:drag-start")),
                                before, driver.find_element(By.ID, "status").text))
    started = marks(driver, "roadbook:drag-start")
    if len(started) != len(shown):
        raise AssertionError("%d drags started but %d shown" % (len(started), len(shown)))
    return shown[-1] - started[-1]


def main():
    if not os.path.exists(BIN):
        sys.exit("editor-bench: no roadbook binary at %s" % BIN)
    work = tempfile.mkdtemp(prefix="roadbook-editor-bench-")
    servers = []
    driver = None
    try:
        # The 2,000-row book.
        gpx = os.path.join(work, "long.gpx")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/make-long-gpx.py"), str(ROWS), gpx], check=True)
        rows_book = os.path.join(work, "rows.json")
        run("build", gpx, "-o", os.path.join(work, "rows.pdf"), "--book", rows_book)

        # The handles book, on a copy of the extract prepared beside it (the copy keeps the
        # checkout's sample as it is).
        extract = os.path.join(work, "andorra.osm.pbf")
        shutil.copy(EXTRACT, extract)
        run("prepare", extract)
        handles_book = os.path.join(work, "handles.json")
        arguments = ["route", "--book", handles_book, "--engine", "embedded", "--osm", extract]
        for handle in HANDLES:
            arguments += ["--handle", handle]
        run(*arguments)

        driver = browser()

        server = Server(rows_book)
        servers.append(server)
        loads = [rows_ready(driver, server.url) for _ in range(LOADS)]
        # Only the rows in view are in the table: scrolled to the end, the last row is there.
        driver.execute_script("const w = document.getElementById('rows-wrap'); w.scrollTop = w.scrollHeight")
        last = wait_for("the last row drawn", lambda: driver.execute_script(
            "const r = document.querySelectorAll('#rows tbody tr[data-id]'); "
            "return r.length ? r[r.length - 1].querySelector('.number').textContent.split(' ')[0] : null") == str(ROWS) or None,
            timeout=10, step=0.05)
        server.stop()

        # Server(routing=True) routes over test_editor.EXTRACT: pointed at the prepared copy.
        test_editor.EXTRACT = extract
        server = Server(handles_book, routing=True)
        servers.append(server)
        driver.get(server.url)
        wait_for("roadbook:rows-ready", lambda: marks(driver, "roadbook:rows-ready"), timeout=60, step=0.05)
        drags = []
        for i in range(SESSION):
            sign = 1 if i % 2 == 0 else -1
            drags.append(drag(driver, 2, sign * 40, sign * 20))
            time.sleep(0.3)  # let the page settle (the map's roads, the profile) before the next
        server.stop()
    finally:
        if driver is not None:
            driver.quit()
        for server in servers:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)

    load = statistics.median(loads)
    session = drags
    drags = drags[:DRAGS]
    moved = statistics.median(drags)
    print("editor: %d rows ready in %.0f ms (navigation start → rows-ready), median of %d loads "
          "(goal %d ms: %s; loads %s)" % (ROWS, load, LOADS, ROWS_GOAL_MS, "met" if load <= ROWS_GOAL_MS else "missed",
                                          ", ".join("%.0f" % t for t in loads)))
    print("editor: handle drag → new legs shown in %.0f ms, median of %d drags "
          "(goal %d ms: %s; slowest %.0f ms)" % (moved, DRAGS, DRAG_GOAL_MS, "met" if moved <= DRAG_GOAL_MS else "missed",
                                               max(drags)))
    if MISSED:
        print("editor: %d gestures started no drag (the pointer missed the marker) and were made again" % len(MISSED))
    if len(session) >= 2 * DRAGS:
        print("editor: a session of %d drags: drags 1-%d median %.0f ms, drags %d-%d median %.0f ms "
              "(the drawing keeps every drag's replaced roads)" % (len(session), DRAGS, moved, len(session) - DRAGS + 1,
                                                                 len(session), statistics.median(session[-DRAGS:])))


if __name__ == "__main__":
    main()
