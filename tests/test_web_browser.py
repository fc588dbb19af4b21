"""`tarot serve` in a real headless Chromium (Debian's `chromium` and `chromedriver`, driven
by Selenium; no browser is downloaded): a whole hand of Marolles and one of French Tarot
played by clicks against the search players, the first legal choice each time, to the
result, on a phone's screen and a desktop's, with nothing off the page's side and no seat
covering the last trick or the trick's title at any step; a click on a dimmed card refused
by the server and shown on the page; the computer players' cards followed one at a time at
a pace the page sets; the hand and the piles drawn apart and counted. The server runs in a
thread on a free port."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait
from starlette.applications import Starlette

from tarot.engine.seat_view import SeatView
from tarot.web.app import create_app
from tests.web_checks import free_port, serving, strings

# the slow tier (`python -m pytest -m slow`): a real headless Chromium
pytestmark = pytest.mark.slow

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
SIZES = {"phone": (390, 844), "desktop": (1366, 768)}  # the screens the page is checked at
WAIT = 60  # seconds a step may take on a loaded machine before the test fails
CHOICES = "#decision button.choice, #hand .card.legal"
FOLLOWING = """return [document.body.dataset.following, document.getElementById("trick-title")
    .textContent, document.querySelectorAll("#hand .card.legal").length];"""


SERVED: dict[str, Starlette] = {}  # the app the server runs (its tables are read by a test)
RECORDER = """window.received = [];
const fetched = window.fetch;
window.fetch = async (...request) => {
  const response = await fetched(...request);
  response.clone().text().then((text) => window.received.push(text));
  return response;
};
const Socket = window.WebSocket;
window.WebSocket = class extends Socket {
  constructor(...address) {
    super(...address);
    this.addEventListener("message", (event) => window.received.push(String(event.data)));
  }
};"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(tmp_path_factory.mktemp("tables"))
    SERVED["app"] = app
    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning")
    with serving(config, WAIT) as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    driver = _chromium()
    yield driver
    driver.quit()


def _chromium() -> WebDriver:
    """A headless Chromium session of its own (a person's browser)."""
    if not (Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file()):
        needed = "Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):  # .ci/run installs them: there they must run
            pytest.fail(f"the browser tests need {needed}")
        pytest.skip(f"the browser tests need {needed}")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1280,1000")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    # every response the page receives (fetch bodies and WebSocket messages), kept to be read
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    return driver


def _wait(browser: WebDriver, condition) -> None:
    WebDriverWait(browser, WAIT).until(lambda _driver: condition())


def _views(browser: WebDriver) -> str | None:
    return browser.find_element(By.TAG_NAME, "body").get_attribute("data-views")


def _sit_down(
    browser: WebDriver, server: str, ruleset: str, seat: int, seed: int, pace: int = 0
) -> None:
    browser.get(f"{server}/?pace={pace}")  # 0: the computer players' cards shown at once
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#options select"))
    Select(browser.find_element(By.ID, "ruleset")).select_by_value(ruleset)
    # the seats and options are redrawn for the ruleset once the server has said what it has
    _wait(
        browser,
        lambda: browser.find_element(By.ID, "setup").get_attribute("data-ruleset") == ruleset,
    )
    Select(browser.find_element(By.ID, "seat")).select_by_value(str(seat))
    Select(browser.find_element(By.ID, "agents")).select_by_value("search")
    browser.find_element(By.ID, "seed").send_keys(str(seed))
    browser.find_element(By.ID, "start").click()
    _wait(browser, lambda: _views(browser) == "1")
    assert "/t/" in browser.current_url


def _click_to_the_end(browser: WebDriver, screenshot: Path) -> int:
    """Click the first legal choice until the hand is over, the page's layout checked after
    each (`_laid_out`); the number of clicks. The page is photographed after the tenth,
    when a trick or two is over and the last one lies on the table."""
    clicks = 0
    while browser.find_element(By.ID, "result").get_attribute("hidden") is not None:
        choices = browser.find_elements(By.CSS_SELECTOR, CHOICES)
        assert choices, browser.find_element(By.ID, "decision").text
        before = _views(browser)
        choices[0].click()
        clicks += 1
        _wait(browser, lambda before=before: _views(browser) != before)
        assert not browser.find_element(By.ID, "error").is_displayed()
        _laid_out(browser)
        if clicks == 10:
            time.sleep(0.5)  # the last card's arrival drawn to its end
            browser.save_screenshot(str(screenshot))
    return clicks


#: the page's width past the window, and every pair of things on the felt that overlap: a
#: seat's plaque and the last trick or the trick's title (each with its text)
OVERLAPS = """const inside = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
  && b.top < a.bottom;
const seats = [...document.querySelectorAll(".seat")];
const others = [document.getElementById("last"), document.getElementById("trick-title")]
  .filter((e) => !e.hidden && e.textContent.trim());
const found = [];
for (const seat of seats) for (const other of others)
  if (inside(seat.getBoundingClientRect(), other.getBoundingClientRect()))
    found.push([seat.textContent, other.textContent]);
return [document.documentElement.scrollWidth - window.innerWidth, found];"""


RESULT_TOP = "return document.getElementById('result').getBoundingClientRect().top"


def _laid_out(browser: WebDriver) -> None:
    """Nothing runs off the side of the page, and no seat covers the last trick or the
    trick's title."""
    overflow, overlaps = browser.execute_script(OVERLAPS)
    assert overflow <= 0, overflow
    assert not overlaps, overlaps


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize(
    ("ruleset", "seat", "title"),
    [("marolles-1637", 0, "Marolles 1637"), ("french-tarot", 1, "French Tarot")],
)
def test_a_whole_hand_is_played_by_clicks_to_its_result(
    server: str,
    browser: WebDriver,
    tmp_path: Path,
    ruleset: str,
    seat: int,
    title: str,
    size: str,
) -> None:
    shots = _shots_folder(tmp_path)
    width, height = SIZES[size]
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        _play_a_whole_hand(browser, server, shots, ruleset, seat, title, size, height)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _play_a_whole_hand(
    browser: WebDriver,
    server: str,
    shots: Path,
    ruleset: str,
    seat: int,
    title: str,
    size: str,
    height: int,
) -> None:
    _sit_down(browser, server, ruleset, seat, seed=3)
    assert title in browser.find_element(By.ID, "title").text
    hand = browser.find_elements(By.CSS_SELECTOR, "#hand .card")
    assert len(hand) >= 18
    during = shots / f"hand-{ruleset}-{size}.png"
    clicks = _click_to_the_end(browser, during)
    assert clicks >= 18  # every card of the hand was played by a click, besides the rest
    assert browser.find_element(By.ID, "result-title").text == "Hand 1 is over"
    assert browser.find_element(By.ID, "result-summary").text.startswith("Net this hand")
    by_seat = [row.text for row in browser.find_elements(By.CSS_SELECTOR, "#sheet-seats tr")]
    assert by_seat[1].startswith("card points") and by_seat[-1].startswith("game total")
    assert any(line.startswith("net (") for line in by_seat)
    sitting = [row.text for row in browser.find_elements(By.CSS_SELECTOR, "#sitting tr")]
    assert sitting[1].startswith("1 ") and sitting[-1].startswith("total ")
    terms = browser.find_elements(By.CSS_SELECTOR, "#sheet-terms tbody th")
    assert terms  # the terms the settlement read (a parameter at least)
    payments = browser.find_elements(By.CSS_SELECTOR, "#payments tbody tr")
    assert payments and all(row.find_elements(By.TAG_NAME, "td")[4].text for row in payments)
    assert browser.find_element(By.ID, "record-link").is_displayed()
    rules = browser.find_element(By.ID, "rules-link").get_attribute("href")
    assert rules is not None and rules.endswith("/rules")
    # the sheet is brought into view when the hand ends, its title in the window's top half
    _wait(browser, lambda: -2 <= browser.execute_script(RESULT_TOP) < height / 2)
    _laid_out(browser)
    browser.save_screenshot(str(shots / f"result-{ruleset}-{size}.png"))
    assert during.stat().st_size > 10_000


def test_a_click_on_a_dimmed_card_is_refused(server: str, browser: WebDriver) -> None:
    _sit_down(browser, server, "marolles-1637", 0, seed=3)
    # play on until a trick where not every card may be played
    for _ in range(40):
        if browser.find_elements(By.CSS_SELECTOR, "#hand .card.dimmed"):
            break
        before = _views(browser)
        browser.find_elements(By.CSS_SELECTOR, CHOICES)[0].click()
        _wait(browser, lambda before=before: _views(browser) != before)
    dimmed = browser.find_elements(By.CSS_SELECTOR, "#hand .card.dimmed")
    assert dimmed
    hand = [
        card.get_attribute("data-card")
        for card in browser.find_elements(By.CSS_SELECTOR, "#hand .card")
    ]
    views = _views(browser)
    dimmed[0].click()
    _wait(browser, lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-refused"))
    error = browser.find_element(By.ID, "error")
    assert error.is_displayed() and "may not" in error.text
    assert _views(browser) == views  # nothing was drawn anew: the table is as it was
    again = [
        card.get_attribute("data-card")
        for card in browser.find_elements(By.CSS_SELECTOR, "#hand .card")
    ]
    assert again == hand
    browser.find_elements(By.CSS_SELECTOR, "#hand .card.legal")[0].click()
    _wait(browser, lambda: _views(browser) != views)
    assert not browser.find_element(By.ID, "error").is_displayed()


def test_an_uploaded_ruleset_with_problems_shows_each_line_with_its_caret_in_column(
    server: str, browser: WebDriver, tmp_path: Path
) -> None:
    mistakes = Path(__file__).parent / "data" / "malformed" / "five_mistakes.yaml"
    browser.get(f"{server}/")
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#options select"))
    browser.find_element(By.ID, "upload").send_keys(str(mistakes))
    browser.find_element(By.ID, "start").click()
    error = browser.find_element(By.ID, "error")
    _wait(browser, error.is_displayed)
    lines = error.text.split("\n")
    assert len(lines) == 15, error.text  # five problems, each with its line and its caret
    assert lines[0].startswith("five_mistakes.yaml:36:5: $.deal.packets: the deal does not")
    assert lines[4] == '   41 |     when: "not any(c in hand(player): c in trumpz)"'
    # the caret stands under the place: the page keeps the columns of the text
    caret, quoted = browser.execute_script(
        """const text = arguments[0].firstChild, range = document.createRange();
        const at = (offset) => { range.setStart(text, offset); range.setEnd(text, offset + 1);
          return range.getBoundingClientRect().left; };
        const all = text.textContent, line = all.indexOf("   41 |");
        const next = all.indexOf("\\n", line) + 1;
        return [at(all.indexOf("^", next)), at(all.indexOf("trumpz", line))];""",
        error,
    )
    assert abs(caret - quoted) < 1
    browser.save_screenshot(str(_shots_folder(tmp_path) / "problems.png"))


def _start_uploaded(browser: WebDriver, server: str, name: str) -> None:
    """A table of the test game `tests/data/rulesets/NAME`, uploaded, its first view shown."""
    game = Path(__file__).parent / "data" / "rulesets" / name
    browser.get(f"{server}/?pace=0")
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#options select"))
    browser.find_element(By.ID, "upload").send_keys(str(game))
    browser.find_element(By.ID, "start").click()
    _wait(browser, lambda: _views(browser) == "1")


def test_amounts_in_thirds_are_shown_as_games_write_them(
    server: str, browser: WebDriver, tmp_path: Path
) -> None:
    """A game paying 40/3 each hand (tests/data/rulesets/exact-thirds.yaml): the payments,
    the score sheet and the sitting show `13 1/3`, never a rounded decimal."""
    _start_uploaded(browser, server, "exact-thirds.yaml")
    _click_to_the_end(browser, tmp_path / "during.png")
    payments = [row.text for row in browser.find_elements(By.CSS_SELECTOR, "#payments tbody tr")]
    assert any("13 1/3" in row for row in payments), payments
    by_seat = [row.text for row in browser.find_elements(By.CSS_SELECTOR, "#sheet-seats tr")]
    assert any("+13 1/3" in row and "-13 1/3" in row for row in by_seat), by_seat
    sitting = [row.text for row in browser.find_elements(By.CSS_SELECTOR, "#sitting tr")]
    assert "/3" in sitting[-1], sitting  # the total, added up exactly by the server
    page = browser.find_element(By.TAG_NAME, "body").text
    assert "13.33" not in page
    browser.execute_script("document.getElementById('result').scrollIntoView()")
    browser.save_screenshot(str(_shots_folder(tmp_path) / "result-thirds.png"))


def test_a_seat_sitting_the_hand_out_is_shown_so_and_plays_the_next(
    server: str, browser: WebDriver, tmp_path: Path
) -> None:
    """Four at a game for three (tests/data/rulesets/sit-out.yaml, the dealer sitting out):
    the person at seat 0 deals hand 1 and sits it out, shown so with no hand while the three
    others play it to its result; in hand 2 seat 1 sits out and the person plays."""
    _start_uploaded(browser, server, "sit-out.yaml")
    _wait(browser, lambda: browser.find_element(By.ID, "result").get_attribute("hidden") is None)
    plaque = browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="0"]')
    assert "out" in (plaque.get_attribute("class") or "").split()
    assert "sits this hand out" in plaque.text
    assert browser.find_element(By.ID, "hand-title").text.startswith("You sit this hand out")
    assert not browser.find_elements(By.CSS_SELECTOR, "#hand .card")
    other = browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="1"]')
    assert "sits this hand out" not in other.text
    assert "You sit this hand out: no cards, no say" in browser.find_element(By.ID, "news").text
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(_shots_folder(tmp_path) / "sitting-out.png"))
    before = _views(browser)
    browser.find_element(By.ID, "next-hand").click()
    _wait(browser, lambda: _views(browser) != before)
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, CHOICES))
    assert browser.find_element(By.ID, "hand-title").text.startswith("Your hand (6 cards")
    plaque = browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="1"]')
    assert "sits this hand out" in plaque.text
    _click_to_the_end(browser, tmp_path / "during.png")
    browser.save_screenshot(str(_shots_folder(tmp_path) / "sitting-out-hand-2.png"))


def test_the_computer_players_cards_are_followed_one_at_a_time(
    server: str, browser: WebDriver
) -> None:
    _sit_down(browser, server, "marolles-1637", 2, seed=11, pace=300)
    body = browser.find_element(By.TAG_NAME, "body")
    titles: set[str] = set()
    while "Your turn: play" not in browser.find_element(By.ID, "decision").text:
        before = _views(browser)  # discards and declarations first
        browser.find_elements(By.CSS_SELECTOR, CHOICES)[0].click()
        _wait(browser, lambda before=before: _views(browser) != before)
    for _ in range(3):  # three tricks: after each of the person's cards, the others' follow
        before = _views(browser)
        browser.find_elements(By.CSS_SELECTOR, "#hand .card.legal")[0].click()
        _wait(
            browser,
            lambda before=before: body.get_attribute("data-following") or _views(browser) != before,
        )
        while True:  # the page as one script sees it at once: no draw comes in between
            following, title, legal = browser.execute_script(FOLLOWING)
            if not following:
                break
            titles.add(title)
            assert legal == 0  # nothing may be played while the cards are followed
            time.sleep(0.05)
        _wait(browser, lambda before=before: _views(browser) != before)
    # a finished trick was held with its winner, and the next one built up card by card
    assert any(" win" in title for title in titles), titles
    assert any(", led by " in title for title in titles), titles
    assert browser.find_elements(By.CSS_SELECTOR, "#hand .card.legal")


def test_the_hand_and_the_piles_are_drawn_apart_and_counted(
    server: str, browser: WebDriver
) -> None:
    _sit_down(browser, server, "french-tarot-2", 0, seed=4)
    hand = browser.find_elements(By.CSS_SELECTOR, "#hand .card")
    own_piles = browser.find_elements(By.CSS_SELECTOR, "#my-piles .card")
    other_piles = browser.find_elements(By.CSS_SELECTOR, "#piles .card")
    assert (len(hand), len(own_piles), len(other_piles)) == (21, 6, 6)
    assert browser.find_element(By.ID, "hand-title").text == "Your hand (21 cards)"
    seat = browser.find_element(By.CSS_SELECTOR, ".seat.mine").text
    assert "21 cards in hand + 6 face up" in seat


LAYOUT = """const felt = document.getElementById("felt").getBoundingClientRect();
const seats = [...document.querySelectorAll(".seat")].map((s) => s.getBoundingClientRect());
const start = document.getElementById("start");
return {
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  seatsInside: seats.every((s) => s.left >= felt.left - 2 && s.right <= felt.right + 2),
  faces: document.querySelectorAll("#hand .card svg.face").length,
  labels: [...document.querySelectorAll("#hand .card")].every((c) => c.getAttribute("aria-label")),
  focused: document.activeElement.closest("#hand, #decision") !== null,
};"""


def _shots_folder(tmp_path: Path) -> Path:
    """Where the screenshots go: `TAROT_SCREENSHOTS` (docs/images, to keep them) or a
    temporary folder."""
    folder = Path(os.environ.get("TAROT_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_table_reads_at_a_glance_on_a_phone_and_a_desktop(
    server: str, browser: WebDriver, tmp_path: Path, size: str
) -> None:
    width, height = SIZES[size]
    shots = _shots_folder(tmp_path)
    # the device's metrics, as a phone gives them (a headless window is at least 500 wide)
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        browser.get(f"{server}/?pace=0")
        _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#options select"))
        start = browser.find_element(By.ID, "start")
        assert start.text == "Deal" and start.is_displayed()
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        browser.save_screenshot(str(shots / f"setup-{size}.png"))
        _sit_down(browser, server, "french-tarot", 0, seed=5)
        # through the auction and the chien to the middle of a trick, by number keys
        body = browser.find_element(By.TAG_NAME, "body")
        for _ in range(12):
            if len(browser.find_elements(By.CSS_SELECTOR, "#trick .card")) >= 2:
                break
            before = _views(browser)
            body.send_keys("1")
            _wait(browser, lambda before=before: _views(browser) != before)
        time.sleep(0.5)  # the last card's arrival drawn to its end
        browser.save_screenshot(str(shots / f"table-{size}.png"))
        layout = browser.execute_script(LAYOUT)
        assert layout["overflow"] <= 0, layout
        assert layout["seatsInside"] and layout["labels"] and layout["faces"] >= 10, layout
        assert layout["focused"], layout  # the focus stays on the hand after a key
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _received(page: WebDriver) -> list[str]:
    """The responses the page received since last asked."""
    return page.execute_script("return window.received.splice(0);")


def _hidden_from(seat: int, table_id: str) -> set[str]:
    """The ids of the cards whose place `seat` does not see now, but for those shown to all."""
    table = SERVED["app"].state.tables.find(table_id)
    view = SeatView(table.state, seat)
    shown = {card for _seat, _what, cards in view.shown for card in cards}
    return {table.ruleset.deck.cards[c].id for c in view.unseen - shown}


def _turn(page: WebDriver) -> bool:
    return bool(page.find_elements(By.CSS_SELECTOR, CHOICES)) and not page.execute_script(
        "return document.body.dataset.following"
    )


def test_two_people_play_a_hand_at_one_table_each_in_their_own_browser(
    server: str, browser: WebDriver, tmp_path: Path
) -> None:
    shots = _shots_folder(tmp_path)
    browser.get(f"{server}/?pace=0")
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#options select"))
    Select(browser.find_element(By.ID, "ruleset")).select_by_value("french-tarot")
    setup = browser.find_element(By.ID, "setup")
    _wait(browser, lambda: setup.get_attribute("data-ruleset") == "french-tarot")
    browser.find_element(By.CSS_SELECTOR, '[data-friend="2"]').click()
    Select(browser.find_element(By.ID, "agents")).select_by_value("search")
    browser.find_element(By.ID, "seed").send_keys("8")
    browser.find_element(By.ID, "start").click()
    _wait(browser, lambda: _views(browser) == "1")
    link = browser.find_element(By.CSS_SELECTOR, '[data-link="2"]').get_attribute("value")
    assert link and "token=" in link and link.startswith(server)
    table_id = browser.current_url.split("/t/")[1].split("?")[0]
    friend = _chromium()
    try:
        friend.get(link + "&pace=0")
        _wait(friend, lambda: _views(friend) is not None)
        assert friend.find_element(By.CSS_SELECTOR, ".seat.mine").get_attribute("data-seat") == "2"
        assert (
            not friend.find_elements(By.ID, "invite-links")
            or not friend.find_element(By.ID, "invite").is_displayed()
        )  # the links are for whoever opened the table
        pages = {0: browser, 2: friend}
        steps, reopened = 0, False
        while browser.find_element(By.ID, "result").get_attribute("hidden") is not None:
            for seat, page in pages.items():  # every response either page has received
                hidden = _hidden_from(seat, table_id)
                for text in _received(page):
                    assert not strings(json.loads(text)) & hidden, (seat, text[:200])
            _wait(browser, lambda: _turn(browser) or _turn(pages[2]) or not _open_hand(browser))
            if not _open_hand(browser):
                break
            mover = 0 if _turn(browser) else 2
            page = pages[mover]
            before = _views(page)
            page.find_elements(By.CSS_SELECTOR, CHOICES)[0].click()
            _wait(page, lambda page=page, before=before: _views(page) != before)
            steps += 1
            if steps == 6:
                browser.save_screenshot(str(shots / "people-seat-0.png"))
                pages[2].save_screenshot(str(shots / "people-seat-2.png"))
            if steps == 8 and not reopened:  # the friend closes the tab, and opens the link again
                pages[2].quit()
                _wait(browser, lambda: "not here yet" in browser.find_element(By.ID, "seats").text)
                pages[2] = friend = again = _chromium()
                again.get(link + "&pace=0")
                _wait(again, lambda page=again: _views(page) is not None)
                assert "seat 2" in again.find_element(By.CSS_SELECTOR, ".seat.mine").text
                _wait(
                    browser, lambda: "not here yet" not in browser.find_element(By.ID, "seats").text
                )
                reopened = True
        assert reopened and steps >= 18
        _wait(pages[2], lambda: pages[2].find_element(By.ID, "result").is_displayed())
        assert pages[2].find_element(By.ID, "result-title").text == "Hand 1 is over"
    finally:
        friend.quit()


def _open_hand(page: WebDriver) -> bool:
    return page.find_element(By.ID, "result").get_attribute("hidden") is not None
