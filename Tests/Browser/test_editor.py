"""End-to-end tests of the page of `roadbook serve` in headless Chromium.

Each test starts the real server (`roadbook serve`, the binary named by ROADBOOK_BIN, default
.build/debug/roadbook) on its own copy of a book routed through three handles by the embedded
router over the Andorra extract, opens the address the server prints, and works the page as a
person would: it reads what changed from the book file on disk and from `roadbook inspect`, never
from the page's own words alone. The screenshots' book has heights from the extract's SRTM tile
(offline), so its profile is drawn; the tiles' test serves tiles itself on 127.0.0.1.

Run with scripts/browser-test.sh (which makes the venv with Selenium). Environment:
  ROADBOOK_BIN                 the roadbook binary (default .build/debug/roadbook)
  ROADBOOK_CHROMIUM            the browser (default /usr/bin/chromium)
  ROADBOOK_CHROMEDRIVER        its driver (default /usr/bin/chromedriver)
  ROADBOOK_BROWSER_ARTEFACTS   where screenshots go (default .build/browser-artefacts)
  ROADBOOK_DOCS_SCREENSHOT=1   also copy the editor's screenshot to docs/editor.png
"""

import http.server
import json
import math
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import struct
import threading
import time
import unittest
import zlib

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("ROADBOOK_BIN", os.path.join(ROOT, ".build/debug/roadbook")))
CHROMIUM = os.environ.get("ROADBOOK_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("ROADBOOK_CHROMEDRIVER", "/usr/bin/chromedriver")
ARTEFACTS = os.environ.get("ROADBOOK_BROWSER_ARTEFACTS", os.path.join(ROOT, ".build/browser-artefacts"))
EXTRACT = os.path.join(ROOT, "samples/data/andorra/andorra.osm.pbf")
# The extract's SRTM tile: heights offline, for the books whose profile a test looks at.
DEM = os.path.join(ROOT, "samples/data/andorra/N42E001.hgt.zip")

# Three handles through Andorra: Sant Julià de Lòria, Andorra la Vella, Encamp (decimal degrees,
# read off the extract's places). Moving the middle one changes the legs on both sides of it.
HANDLES = ["42.4635 1.4916", "42.5063 1.5218", "42.5347 1.5824"]

SERVE_LINE = re.compile(r"roadbook serve: (http://\S+)")


def run(*args, **kwargs):
    """Runs roadbook with `args`; fails the test with its error output when it fails."""
    result = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=120, **kwargs)
    if result.returncode != 0:
        raise AssertionError("roadbook %s failed (%d): %s" % (" ".join(args), result.returncode, result.stderr.strip()))
    return result.stdout


def metres(a, b):
    """Haversine distance between two (lat, lon), in metres."""
    r = 6371008.8
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * r * math.asin(math.sqrt(h))


def wait_for(what, condition, timeout=10.0, step=0.1):
    """Polls `condition` until it returns a true value (returned) or fails after `timeout`."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
            if last:
                return last
        # An element found a moment before the page redrew it is stale: found again next time.
        except (OSError, ValueError, KeyError, StaleElementReferenceException):
            last = None
        time.sleep(step)
    raise AssertionError("timed out after %.1f s waiting for %s (last: %r)" % (timeout, what, last))


def solid_png(width, height, rgb):
    """A PNG of one colour, written here: no image library needed."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def tile_number(lat, lon, zoom):
    """The x and y of the web-mercator tile holding (lat, lon) at `zoom` (the OpenStreetMap wiki's formula)."""
    n = 2 ** zoom
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return x, y


class TileServer:
    """A tile server on 127.0.0.1 and a free port: the same 256-pixel PNG for any path, each path
    asked kept in `asked`."""

    def __init__(self):
        png = solid_png(256, 256, (200, 230, 200))
        self.asked = asked = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                asked.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(png)))
                self.end_headers()
                self.wfile.write(png)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class Server:
    """`roadbook serve BOOK` on a free port, stopped with SIGTERM."""

    def __init__(self, book, routing=False, tiles=None):
        # With `routing`, the handles' legs are asked of the embedded router over the extract,
        # and the map's roads are read from it; `tiles` is a tile address for --tiles.
        arguments = [BIN, "serve", book] + (["--osm", EXTRACT, "--engine", "embedded"] if routing else [])
        arguments += ["--tiles", tiles] if tiles else []
        self.process = subprocess.Popen(
            arguments,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = queue.Queue()

        def read(stream):
            for line in stream:
                lines.put(line)
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=read, args=(stream,), daemon=True).start()
        self.output = []
        deadline = time.monotonic() + 30
        self.url = None
        while self.url is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.process.poll() is not None and lines.empty():
                self.stop()
                raise AssertionError("roadbook serve printed no address: %s" % "".join(self.output).strip())
            try:
                line = lines.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                continue
            self.output.append(line)
            match = SERVE_LINE.search(line)
            if match:
                self.url = match.group(1)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,900", "--lang=en"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


class EditorTests(unittest.TestCase):
    ROUTING = {"test_dragging_a_handle_asks_its_two_legs_again", "test_screenshots_of_the_editor"}
    TILES = {"test_tiles_come_from_the_tile_server_only"}
    # The tests whose book has terrain (heights from DEM), so the page draws its profile.
    TERRAIN = {"test_screenshots_of_the_editor"}

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="roadbook-browser-")
        cls.sample = os.path.join(cls.work, "sample.json")
        cls.sample_with_terrain = os.path.join(cls.work, "sample-terrain.json")
        arguments = ["route", "--engine", "embedded", "--osm", EXTRACT]
        for handle in HANDLES:
            arguments += ["--handle", handle]
        run(*arguments, "--book", cls.sample)
        run(*arguments, "--book", cls.sample_with_terrain, "--dem", DEM)
        os.makedirs(ARTEFACTS, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def setUp(self):
        folder = tempfile.mkdtemp(dir=self.work)
        self.book = os.path.join(folder, "book.json")
        shutil.copy(self.sample_with_terrain if self._testMethodName in self.TERRAIN else self.sample, self.book)
        # The tests that move handles or draw the map's roads have the server route.
        routing = self._testMethodName in self.ROUTING
        tiles = None
        if self._testMethodName in self.TILES:
            self.tiles = TileServer()
            self.addCleanup(self.tiles.stop)
            tiles = self.tiles.origin + "/{z}/{x}/{y}.png"
        self.server = Server(self.book, routing=routing, tiles=tiles)
        self.addCleanup(self.server.stop)
        self.driver = browser()
        self.addCleanup(self.driver.quit)
        self.driver.get(self.server.url)
        self.notes = json.loads(run("inspect", self.book, "--json"))["notes"]
        wait_for("the rows", lambda: len(self.page_rows()) == len(self.notes))

    # ---- helpers --------------------------------------------------------------------------------

    def page_rows(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "#rows tbody tr[data-id]")

    def row_words(self, note_id):
        return self.driver.find_element(By.CSS_SELECTOR, '#rows tr[data-id="%d"] .text' % note_id).text

    def book_note(self, note_id):
        with open(self.book, encoding="utf-8") as f:
            notes = json.load(f)["notes"]
        return next(n for n in notes if n["id"] == note_id)

    def status(self):
        return self.driver.find_element(By.ID, "status").text

    def edit_words(self, note_id, words):
        cell = self.driver.find_element(By.CSS_SELECTOR, '#rows tr[data-id="%d"] .text' % note_id)
        cell.click()
        cell.send_keys(Keys.CONTROL, "a")
        cell.send_keys(words)
        cell.send_keys(Keys.ENTER)

    def revision(self):
        return int(self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-revision") or -1)

    # ---- the tests ------------------------------------------------------------------------------

    def test_rows_appear_as_inspect_lists_them(self):
        rows = self.page_rows()
        for row, note in zip(rows, self.notes):
            self.assertEqual(int(row.get_attribute("data-id")), note["id"])
            self.assertEqual(row.find_element(By.CSS_SELECTOR, ".text").text, note["text"])
            # Total distance in km with two decimals, as printed, from inspect's metres.
            self.assertEqual(row.find_element(By.CSS_SELECTOR, ".total").text, "%.2f" % (note["distanceAlong"] / 1000))
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".handle-icon")), len(HANDLES))
        images = self.driver.find_elements(By.CSS_SELECTOR, "#rows td.tulip img")
        self.assertTrue(all(img.get_attribute("loading") == "lazy" for img in images))
        # The first row's tulip is drawn by the server: the image loads with a width.
        first = self.driver.find_element(By.CSS_SELECTOR, '#rows tr[data-id="%d"] td.tulip img' % self.notes[0]["id"])
        wait_for("the first tulip", lambda: self.driver.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth", first) > 0)
        # Without --tiles, nothing is asked of another server.
        origin = self.server.url.split("/?")[0]
        asked = self.driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        self.assertTrue(asked)
        self.assertEqual([url for url in asked if not url.startswith(origin + "/")], [])

    def test_editing_words_writes_the_book(self):
        note = self.notes[1]
        words = "Pass the well on the left"
        self.edit_words(note["id"], words)
        wait_for("the book file to have the new words", lambda: self.book_note(note["id"])["text"] == words)
        self.assertEqual(self.book_note(note["id"])["text"], words)
        # Another row is untouched.
        self.assertEqual(self.book_note(self.notes[2]["id"])["text"], self.notes[2]["text"])
        wait_for("the page to show the saved words", lambda: self.row_words(note["id"]) == words)

    def draft_plan(self):
        path = self.book[:-len(".json")] + ".draft.json"
        if not os.path.exists(path):
            return None
        with open(path, encoding="utf-8") as f:
            return json.load(f)["plan"]

    def test_the_drawing_tools_change_the_draft_as_handles_does(self):
        from selenium.webdriver.support.ui import Select
        before = [(h["placed"]["latitude"], h["placed"]["longitude"]) for h in
                  json.loads(run("inspect", self.book, "--json")).get("plan", {}).get("handles", [])] or None
        Select(self.driver.find_element(By.ID, "mode")).select_by_value("walk")
        wait_for("the draft in walk mode", lambda: (self.draft_plan() or {}).get("mode") == "walk")
        Select(self.driver.find_element(By.ID, "new-legs")).select_by_value("straight")
        wait_for("new legs straight", lambda: (self.draft_plan() or {}).get("defaultLegKind") == "straight")
        handles = [(h["placed"]["latitude"], h["placed"]["longitude"]) for h in self.draft_plan()["handles"]]
        if before:
            self.assertEqual(handles, before)
        self.driver.find_element(By.ID, "reverse").click()
        wait_for("the handles the other way round", lambda: [
            (h["placed"]["latitude"], h["placed"]["longitude"]) for h in self.draft_plan()["handles"]] == handles[::-1])
        # Handle 1 (the old last) made handle 2, from its menu.
        # (The handles are drawn again with each revision: a marker found may be stale by its click.)
        menu = wait_for("the handle's menu", lambda: self.driver.find_element(
            By.CSS_SELECTOR, '.handle-icon[data-handle="1"]').click() or self.driver.find_elements(
            By.CSS_SELECTOR, ".leaflet-popup .reorder"))[0]
        field = menu.find_element(By.CSS_SELECTOR, "input.position")
        field.clear()
        field.send_keys("2")
        menu.find_element(By.CSS_SELECTOR, "button.reorder-handle").click()
        reversed_ = handles[::-1]
        wait_for("handle 1 made handle 2", lambda: [
            (h["placed"]["latitude"], h["placed"]["longitude"]) for h in self.draft_plan()["handles"]]
            == [reversed_[1], reversed_[0]] + reversed_[2:])
        self.driver.find_element(By.ID, "clear").click()
        wait_for("the drawing cleared", lambda: self.draft_plan()["handles"] == [])
        # `roadbook handles list` reads the same drawing.
        self.assertIn("walk", run("handles", self.book, "list"))

    def test_a_rows_dialog_makes_the_changes_note_makes(self):
        note = self.notes[2]
        before = self.book_note(note["id"])

        def dialog():
            wait_for("the row's ⋯", lambda: self.driver.find_element(
                By.CSS_SELECTOR, '#rows tr[data-id="%d"] .more-row' % note["id"]).click() or True)
            return wait_for("the dialog", lambda: self.driver.find_element(By.ID, "row-dialog").is_displayed()
                            and self.driver.find_element(By.ID, "row-dialog"))

        def fill(element_id, value):
            field = self.driver.find_element(By.ID, element_id)
            field.clear()
            field.send_keys(value)

        form = dialog()
        fill("rd-marker", "R9")
        fill("rd-cap", "123")
        form.find_element(By.ID, "rd-save").click()
        wait_for("the marker and CAP in the book", lambda: self.book_note(note["id"]).get("marker") == "R9"
                 and self.book_note(note["id"]).get("cap") == 123)

        form = dialog()
        fill("rd-road-angle", "-90")
        form.find_element(By.ID, "rd-add-road").click()
        wait_for("a road at -90° in the tulip", lambda: any(
            r["angle"] == -90 and r["role"] == "side" for r in self.book_note(note["id"])["tulip"]["roads"]))
        self.assertEqual(self.book_note(note["id"])["tulip"]["origin"], "drawn")

        form = dialog()
        fill("rd-by", "30")
        form.find_element(By.ID, "rd-move-by").click()
        wait_for("the row 30 m further", lambda: abs(
            self.book_note(note["id"])["distanceAlong"] - before["distanceAlong"] - 30) < 1)

        # A note at this row's place: a new row at the same distance.
        form = dialog()
        fill("rd-new-words", "Water point")
        form.find_element(By.ID, "rd-add-note").click()
        wait_for("the new note in the book", lambda: any(
            n["text"] == "Water point" and abs(n["distanceAlong"] - before["distanceAlong"] - 30) < 1
            for n in json.loads(run("inspect", self.book, "--json"))["notes"]))

    def test_undo_and_redo(self):
        note = self.notes[2]
        words = "Bridge, then straight on"
        self.edit_words(note["id"], words)
        wait_for("the edit saved", lambda: self.book_note(note["id"])["text"] == words)
        self.driver.find_element(By.ID, "undo").click()
        wait_for("undo to restore the words in the file", lambda: self.book_note(note["id"])["text"] == note["text"])
        wait_for("the page to show the old words", lambda: self.row_words(note["id"]) == note["text"])
        self.driver.find_element(By.ID, "redo").click()
        wait_for("redo to write the words again", lambda: self.book_note(note["id"])["text"] == words)
        wait_for("the page to show the words again", lambda: self.row_words(note["id"]) == words)
        # Nothing left to redo: the server's one-line refusal shows in the status bar, in red.
        self.driver.find_element(By.ID, "redo").click()
        wait_for("the refusal", lambda: "error" in self.driver.find_element(By.ID, "status").get_attribute("class"))
        self.assertNotEqual(self.status().strip(), "")
        self.assertNotIn("\n", self.status())

    def test_remove_and_restore_a_row(self):
        note = self.notes[6]
        self.driver.find_element(By.CSS_SELECTOR, '#rows tr[data-id="%d"] .remove-row' % note["id"]).click()
        listed = lambda: [n["id"] for n in json.loads(run("inspect", self.book, "--json"))["notes"]]
        wait_for("the row gone from the book", lambda: note["id"] not in listed())
        wait_for("the row gone from the page", lambda: len(self.page_rows()) == len(self.notes) - 1)
        restore = wait_for("the removed row listed", lambda: self.driver.find_element(
            By.CSS_SELECTOR, '#removed li[data-id="%d"] .restore-row' % note["id"]))
        self.driver.find_element(By.CSS_SELECTOR, "#removed-box summary").click()
        restore.click()
        wait_for("the row back in the book", lambda: note["id"] in listed())
        wait_for("the row back on the page", lambda: len(self.page_rows()) == len(self.notes))
        self.assertEqual(self.row_words(note["id"]), note["text"])

    def test_a_change_on_the_command_line_shows_within_two_seconds(self):
        note = self.notes[3]
        words = "Changed in a terminal"
        before = self.revision()
        run("note", self.book, "edit", "#%d" % note["id"], "--text", words)
        started = time.monotonic()
        wait_for("the page to show the terminal's words", lambda: self.row_words(note["id"]) == words, timeout=2.0, step=0.05)
        self.assertLess(time.monotonic() - started, 2.0)
        self.assertGreater(self.revision(), before)

    def test_an_edit_in_progress_survives_a_live_update(self):
        typing, other = self.notes[4], self.notes[5]
        cell = self.driver.find_element(By.CSS_SELECTOR, '#rows tr[data-id="%d"] .text' % typing["id"])
        cell.click()
        cell.send_keys(Keys.END, " and half typed")
        before = self.revision()
        run("note", self.book, "edit", "#%d" % other["id"], "--text", "From the terminal")
        wait_for("the new revision", lambda: self.revision() > before, timeout=3.0)
        # The cell still has the focus and what was typed; the other row shows once the cell is left.
        self.assertEqual(self.driver.switch_to.active_element, cell)
        self.assertEqual(cell.text, typing["text"] + " and half typed")
        cell.send_keys(Keys.ENTER)
        wait_for("both changes in the file", lambda: self.book_note(typing["id"])["text"] == typing["text"] + " and half typed"
                 and self.book_note(other["id"])["text"] == "From the terminal")
        wait_for("the page to show the terminal's words", lambda: self.row_words(other["id"]) == "From the terminal")

    def test_dragging_a_handle_asks_its_two_legs_again(self):
        draft = self.book[:-len(".json")] + ".draft.json"
        with open(self.book, encoding="utf-8") as f:
            handles = json.load(f)["plan"]["handles"]
        before = [(h["placed"]["latitude"], h["placed"]["longitude"]) for h in handles]
        marker = self.driver.find_element(By.CSS_SELECTOR, '.handle-icon[data-handle="2"]')
        ActionChains(self.driver).click_and_hold(marker).pause(0.2) \
            .move_by_offset(10, 5).pause(0.1).move_by_offset(20, 10).pause(0.1).move_by_offset(10, 5).pause(0.2) \
            .release().perform()
        answer = wait_for("the server's answer to the move", lambda: json.loads(
            self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-last-answer") or "null"), timeout=30)
        self.assertEqual(sorted(answer["askedLegs"]), [1, 2])
        self.assertIn("leg", self.status())
        wait_for("the draft beside the book", lambda: os.path.exists(draft))
        with open(draft, encoding="utf-8") as f:
            moved = json.load(f)["plan"]["handles"]
        after = [(h["placed"]["latitude"], h["placed"]["longitude"]) for h in moved]
        self.assertEqual(len(after), 3)
        self.assertLess(metres(after[0], before[0]), 1)
        self.assertLess(metres(after[2], before[2]), 1)
        self.assertGreater(metres(after[1], before[1]), 20)
        # The book itself keeps its route until Apply; the page says so.
        with open(self.book, encoding="utf-8") as f:
            kept = json.load(f)["plan"]["handles"]
        self.assertLess(metres((kept[1]["placed"]["latitude"], kept[1]["placed"]["longitude"]), before[1]), 1)
        wait_for("the status line", lambda: self.driver.find_element(By.ID, "book-status").text == "Not applied yet")

    def test_warnings_show_on_the_map_where_they_apply(self):
        # Handle 2 typed on a hillside about 400 m from any road: the roads of both its legs end
        # that far from it, and `handles` says so after each leg.
        printed = run("handles", self.book, "move", "2", "42.5100 1.5150", "--engine", "embedded", "--osm", EXTRACT)
        warned = [(int(line.split()[1].split("–")[0]), finding)
                  for line in printed.splitlines() if line.startswith("leg ") and " — " in line
                  for finding in line.split(" — ", 1)[1].split("; ") if finding.startswith("The road runs")]
        self.assertEqual([leg for leg, _ in warned], [1, 2], printed)
        wait_for("a warning marker for each", lambda: len(self.driver.find_elements(By.CSS_SELECTOR, ".warning-marker")) == 2)
        items = self.driver.find_elements(By.CSS_SELECTOR, "#warnings li.placed")
        self.assertEqual([item.text for item in items], ["Leg %d: %s" % w for w in warned])
        map_box = self.driver.find_element(By.ID, "map").rect
        centre = (map_box["x"] + map_box["width"] / 2, map_box["y"] + map_box["height"] / 2)
        for item, (_, text) in zip(items, warned):
            item.click()
            marker = '.warning-marker[data-warning="%s"]' % item.get_attribute("data-warning")
            # The map pans so the marker's point (30 px under the top of its icon, at the tip of
            # its tail) is the map's centre, and its tooltip has the words `handles` printed.
            def at_centre():
                box = self.driver.find_element(By.CSS_SELECTOR, marker).rect
                return abs(box["x"] + box["width"] / 2 - centre[0]) < 3 and abs(box["y"] + 30 - centre[1]) < 3
            wait_for("the map to pan to the warning", at_centre)
            tips = wait_for("the marker's tooltip", lambda: [t.text for t in self.driver.find_elements(By.CSS_SELECTOR, ".leaflet-tooltip")])
            self.assertIn(text, tips)
        # The mouse over a marker shows its words too.
        ActionChains(self.driver).move_to_element(self.driver.find_element(By.CSS_SELECTOR, ".warning-marker")).perform()
        wait_for("the tooltip on hovering", lambda: warned[0][1] in [t.text for t in self.driver.find_elements(By.CSS_SELECTOR, ".leaflet-tooltip")])
        self.driver.find_element(By.ID, "map").screenshot(os.path.join(ARTEFACTS, "editor-warnings.png"))

    def test_tiles_come_from_the_tile_server_only(self):
        pattern = re.compile(r"^/(\d+)/(\d+)/(\d+)\.png$")
        # Tiles of one zoom, loaded: the map's first view's are gone once it is fitted to the route.
        shown = wait_for("tiles loaded from the tile server", lambda: self.driver.execute_script(
            "const tiles = [...document.querySelectorAll('.leaflet-tile-pane img')];"
            "const loaded = tiles.filter(i => i.complete && i.naturalWidth === 256).map(i => i.src);"
            "return loaded.length === tiles.length && new Set(loaded.map(s => s.split('/')[3])).size === 1 && loaded"))
        self.assertTrue(all(src.startswith(self.tiles.origin + "/") for src in shown), shown)
        # The tiles asked are those of the map's view (at its first zoom, then at the route's once
        # the map is fitted to it): the one holding handle 1 among them at the route's zoom.
        asked = [tuple(map(int, pattern.match(path).groups())) for path in self.tiles.asked]
        zoom = max(z for z, _, _ in asked)
        lat, lon = map(float, HANDLES[0].split())
        self.assertIn((zoom,) + tile_number(lat, lon, zoom), asked)
        self.assertTrue(any(src.endswith("/%d/%d/%d.png" % ((zoom,) + tile_number(lat, lon, zoom))) for src in shown), shown)
        # An image of another server is refused by the page's Content-Security-Policy: never asked.
        other = TileServer()
        self.addCleanup(other.stop)
        failed = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1], img = new Image();"
            "img.onload = () => done('loaded'); img.onerror = () => done('refused');"
            "img.src = arguments[0];", other.origin + "/1/1/1.png")
        self.assertEqual(failed, "refused")
        self.assertEqual(other.asked, [])
        severe = [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
        self.assertTrue(any("Content Security Policy" in m and other.origin in m for m in severe), severe)

    def test_screenshots_of_the_editor(self):
        driver = self.driver
        row = self.page_rows()[3]
        row.find_element(By.CSS_SELECTOR, "td.number").click()
        # Give the map time to draw the roads of the view and the tulips to load.
        # (Whether tulips load is test_rows_appear_as_inspect_lists_them's to say: here they are
        # only waited for, so that the pictures show them.)
        try:
            wait_for("the tulips", lambda: driver.execute_script(
                "return [...document.querySelectorAll('#rows td.tulip img')].slice(0, 8)"
                ".every(i => i.complete && i.naturalWidth > 0)"), timeout=10)
        except AssertionError:
            pass
        time.sleep(1.5)
        # The profile is drawn from the book's heights (their lowest and highest in its label) with
        # a tick at each handle.
        with open(self.book, encoding="utf-8") as f:
            heights = [h for h in json.load(f)["profile"]["heights"] if h is not None]
        self.assertEqual(driver.find_element(By.ID, "profile-label").text,
                         "%d–%d m" % (math.floor(min(heights) + 0.5), math.floor(max(heights) + 0.5)))
        self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, "#profile polygon.ground")), 1)
        ticks = [float(t.get_attribute("x1")) for t in driver.find_elements(By.CSS_SELECTOR, "#profile line.tick")]
        self.assertEqual(len(ticks), len(HANDLES))
        # Each where `handles list` puts its handle along the route, in the profile's 1,000 units.
        listed = [float(m) for m in re.findall(r", ([0-9.]+) km from the start", run("handles", self.book, "list"))]
        self.assertEqual(len(listed), len(HANDLES))
        for tick, km in zip(ticks, listed):
            self.assertAlmostEqual(tick, km / listed[-1] * 1000, delta=10)
        whole = os.path.join(ARTEFACTS, "editor.png")
        driver.save_screenshot(whole)
        driver.find_element(By.ID, "map").screenshot(os.path.join(ARTEFACTS, "editor-map.png"))
        driver.find_element(By.ID, "rows-wrap").screenshot(os.path.join(ARTEFACTS, "editor-rows.png"))
        driver.find_element(By.ID, "profile").screenshot(os.path.join(ARTEFACTS, "editor-profile.png"))
        for name in ("editor.png", "editor-map.png", "editor-rows.png", "editor-profile.png"):
            with open(os.path.join(ARTEFACTS, name), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", name)
        if os.environ.get("ROADBOOK_DOCS_SCREENSHOT") == "1":
            shutil.copy(whole, os.path.join(ROOT, "docs/editor.png"))
        severe = [e["message"] for e in driver.get_log("browser")
                  if e["level"] == "SEVERE" and "favicon" not in e["message"]
                  and "/api/tulip/" not in e["message"]]  # a row without a tulip answers 404
        self.assertEqual(severe, [], "the page logged errors")


class TrackBookTests(unittest.TestCase):
    """The sample's own book, built from its recorded track as a user starts: the page shows the
    route traced into handles, numbered as `roadbook handles BOOK list` numbers them, and dragging
    one moves that very handle in the draft."""

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="roadbook-browser-track-")
        cls.book = os.path.join(cls.work, "track.json")
        run("build", os.path.join(ROOT, "samples/andorra-envalira.gpx"), "-o", os.path.join(cls.work, "track.pdf"),
            "--book", cls.book)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def setUp(self):
        self.server = Server(self.book, routing=True)
        self.addCleanup(self.server.stop)
        self.driver = browser()
        self.addCleanup(self.driver.quit)
        self.driver.get(self.server.url)

    def listed_handles(self):
        """(lat, lon) of each handle, read from the text `roadbook handles BOOK list` prints."""
        found = re.findall(r"^handle \d+: (-?[\d.]+), (-?[\d.]+),", run("handles", self.book, "list"), re.M)
        return [(float(lat), float(lon)) for lat, lon in found]

    def test_the_traced_handles_show_and_one_dragged_moves_in_the_draft(self):
        listed = self.listed_handles()
        self.assertGreater(len(listed), 20)
        wait_for("a marker for each listed handle", lambda: len(
            self.driver.find_elements(By.CSS_SELECTOR, ".handle-icon[data-handle]")) == len(listed), timeout=20)
        self.assertEqual(self.driver.find_element(By.ID, "book-status").text, "This is the rally's route")
        # The handle farthest from every other, so that the pointer takes it and no neighbour.
        def room(i):
            return min(metres(listed[i], other) for j, other in enumerate(listed) if j != i)
        n = max(range(1, len(listed) - 1), key=room) + 1
        marker = self.driver.find_element(By.CSS_SELECTOR, '.handle-icon[data-handle="%d"]' % n)
        ActionChains(self.driver).click_and_hold(marker).pause(0.2) \
            .move_by_offset(10, 5).pause(0.1).move_by_offset(20, 10).pause(0.1).move_by_offset(10, 5).pause(0.2) \
            .release().perform()
        draft = self.book[:-len(".json")] + ".draft.json"
        wait_for("the draft beside the book", lambda: os.path.exists(draft), timeout=30)
        with open(draft, encoding="utf-8") as f:
            moved = [(h["placed"]["latitude"], h["placed"]["longitude"]) for h in json.load(f)["plan"]["handles"]]
        self.assertEqual(len(moved), len(listed))
        for i, (before, after) in enumerate(zip(listed, moved)):
            if i + 1 == n:
                self.assertGreater(metres(before, after), 20, "handle %d, dragged, did not move" % n)
            else:
                self.assertLess(metres(before, after), 1, "handle %d moved, not the dragged %d" % (i + 1, n))
        wait_for("the status line", lambda: self.driver.find_element(By.ID, "book-status").text == "Not applied yet")


class LongBookTests(unittest.TestCase):
    """A book of 600 rows (one waypoint a row, from scripts/make-long-gpx.py): only the rows in
    view are in the table, and every row is still reached by scrolling, by the map or by a click."""

    ROWS = 600

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="roadbook-browser-long-")
        gpx = os.path.join(cls.work, "long.gpx")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/make-long-gpx.py"), str(cls.ROWS), gpx], check=True)
        cls.book = os.path.join(cls.work, "long.json")
        run("build", gpx, "-o", os.path.join(cls.work, "long.pdf"), "--book", cls.book)
        cls.notes = json.loads(run("inspect", cls.book, "--json"))["notes"]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def setUp(self):
        self.server = Server(self.book)
        self.addCleanup(self.server.stop)
        self.driver = browser()
        self.addCleanup(self.driver.quit)
        self.driver.get(self.server.url)
        wait_for("the table", lambda: self.driver.execute_script(
            "return document.getElementById('rows').dataset.rowCount") == str(len(self.notes)))

    def drawn_ids(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#rows tbody tr[data-id]')].map((tr) => Number(tr.dataset.id))")

    def test_only_the_rows_in_view_are_drawn_and_scrolling_reaches_the_last(self):
        self.assertEqual(len(self.notes), self.ROWS)
        drawn = self.drawn_ids()
        self.assertGreater(len(drawn), 5)
        self.assertLess(len(drawn), 200, "every row was drawn: the table does not keep to the view")
        self.assertEqual(drawn[0], self.notes[0]["id"])
        # The table is as tall as all its rows: scrolled to the end, the last row is drawn there.
        self.driver.execute_script("const w = document.getElementById('rows-wrap'); w.scrollTop = w.scrollHeight")
        wait_for("the last row", lambda: self.notes[-1]["id"] in self.drawn_ids())
        last = self.driver.find_element(By.CSS_SELECTOR, '#rows tr[data-id="%d"]' % self.notes[-1]["id"])
        wrap = self.driver.find_element(By.ID, "rows-wrap")
        self.assertLessEqual(last.rect["y"] + last.rect["height"], wrap.rect["y"] + wrap.rect["height"] + 1)
        self.assertEqual(last.find_element(By.CSS_SELECTOR, ".number").text.split(" ")[0], str(self.ROWS))

    def test_a_click_on_the_map_brings_the_nearest_row_into_the_table(self):
        # The middle row: not drawn at first.
        target = self.notes[self.ROWS // 2]
        self.assertNotIn(target["id"], self.drawn_ids())
        # Scrolled to it and clicked, the map goes to its place.
        row_height = self.driver.execute_script(
            "return document.querySelector('#rows tbody tr[data-id]').getBoundingClientRect().height")
        self.driver.execute_script("document.getElementById('rows-wrap').scrollTop = arguments[0]",
                                   (self.ROWS // 2) * row_height)
        wait_for("the middle row drawn", lambda: target["id"] in self.drawn_ids())
        # Zoomed in first (a pan rounds to the pixel, and each zoom would double that), close
        # enough that a click is nearer this row than its neighbours, 200 m away.
        for _ in range(6):
            self.driver.find_element(By.CSS_SELECTOR, ".leaflet-control-zoom-in").click()
            time.sleep(0.3)
        self.driver.find_element(By.CSS_SELECTOR, '#rows tr[data-id="%d"] td.cap' % target["id"]).click()
        time.sleep(1)  # the map's pan is animated
        # Back at the top of the table, the middle row is no longer drawn...
        self.driver.execute_script("document.getElementById('rows-wrap').scrollTop = 0")
        wait_for("the middle row out of the table", lambda: target["id"] not in self.drawn_ids())
        # ...and a click on its place on the map brings it back, marked as the nearest.
        ActionChains(self.driver).move_to_element(self.driver.find_element(By.ID, "map")).click().perform()
        wait_for("the nearest row drawn and marked", lambda: self.driver.find_elements(
            By.CSS_SELECTOR, '#rows tr.nearest[data-id="%d"]' % target["id"]))

if __name__ == "__main__":
    unittest.main(verbosity=2)
