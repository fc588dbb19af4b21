"""`tarot serve`'s server, through Starlette's TestClient: a hand played by requests to its
end, and the refusals (another seat's cards never in a response, another seat's view or
action, an illegal action, a wrong table id, a ruleset that does not load), a table reopened
from its folder, the record replayed by `tarot replay`."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from starlette.testclient import TestClient

from tarot.cli import main
from tarot.engine.seat_view import SeatView
from tarot.load import paths
from tarot.presentation.seat_screen import choice_label, resolve
from tarot.web.app import create_app
from tarot.web.tables import Tables
from tests.web_checks import strings

ROOT = Path(__file__).resolve().parent.parent
LOCAL = "http://127.0.0.1"  # the guard answers loopback names only


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "tables"), base_url=LOCAL)


def _tables(client: TestClient) -> Tables:
    return client.app.state.tables  # type: ignore[attr-defined]


def _sit(client: TestClient, ruleset: str = "marolles-1637", **given) -> dict:
    body = {"ruleset": ruleset, "seat": 0, "agents": "heuristic", "seed": 3, **given}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _hidden_ids(client: TestClient, view: dict) -> set[str]:
    """The ids of every card the seat may not see now (other hands and discards, talon...):
    the cards whose place it does not know, but those it was shown (a talon turned up for
    all, then taken into a hand)."""
    table = _tables(client).find(view["table"])
    seen = SeatView(table.state, table.seat)
    cards = table.ruleset.deck.cards
    shown = {card for _seat, _what, shown in seen.shown for card in shown}
    return {cards[c].id for c in seen.unseen - shown}


def _play_out(client: TestClient, view: dict) -> list[dict]:
    """Answer each of the seat's decisions with its first legal choice to the hand's end;
    every view on the way."""
    views = [view]
    while not view["over"]:
        choice = view["decision"]["choices"][0]["text"]
        response = client.post(
            f"/api/tables/{view['table']}/actions", json={"seat": view["seat"], "action": choice}
        )
        assert response.status_code == 200, response.text
        view = response.json()
        views.append(view)
    return views


@pytest.mark.parametrize(("ruleset", "seat"), [("marolles-1637", 0), ("french-tarot", 2)])
def test_no_response_during_a_hand_holds_a_card_of_another_seat(
    client: TestClient, ruleset: str, seat: int
) -> None:
    view = _sit(client, ruleset, seat=seat)
    table = view["table"]
    checked = 0
    while not view["over"]:
        assert view["to_decide"] == seat  # the computer players moved to the seat's turn
        hidden = _hidden_ids(client, view)
        for response in (
            client.get(f"/api/tables/{table}"),
            client.post(f"/api/tables/{table}/actions", json={"action": "no-such-card"}),
        ):
            assert not hidden & strings(response.json())
        checked += len(hidden)
        choice = view["decision"]["choices"][0]["text"]
        response = client.post(f"/api/tables/{table}/actions", json={"action": choice})
        view = response.json()
        if not view["over"]:
            assert not _hidden_ids(client, view) & strings(view)
    assert checked > 100  # there was much to keep hidden


def test_the_finished_hand_has_result_payments_totals_and_a_record_that_replays(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    last = _play_out(client, _sit(client))[-1]
    assert last["decision"] is None and last["result"][0] == "=== Hand 1 over ==="
    assert last["game"]["hands_finished"] == 1
    assert last["game"]["totals"] == last["returns"] and sum(last["returns"]) == 0
    paid = last["payments"]
    assert paid and all(p["rule"] and p["name"] and p["source"] for p in paid)
    for seat in range(3):  # the payments add up to the net of each seat
        net = sum(p["amount"] * ((p["payee"] == seat) - (p["payer"] == seat)) for p in paid)
        assert net == last["returns"][seat]
    response = client.get(f"/api/tables/{last['table']}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert [seat["agent"] for seat in record["seats"]] == ["human", "heuristic", "heuristic"]
    path = tmp_path / "record.json"
    path.write_text(response.text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert "1 hand(s) replayed" in capsys.readouterr().out
    # the same record is in the table's folder
    kept = tmp_path / "tables" / last["table"] / "record.json"
    assert json.loads(kept.read_text(encoding="utf-8")) == record


def test_the_next_hand_is_dealt_and_the_totals_run_on(client: TestClient) -> None:
    first = _play_out(client, _sit(client))[-1]
    assert first["game"]["may_deal"]
    second = client.post(f"/api/tables/{first['table']}/next").json()
    assert second["hand_number"] == 2 and not second["over"]
    assert second["news_from"] == 0 and second["news"][0].startswith("=== Hand 2 of")
    last = _play_out(client, second)[-1]
    totals = [a + b for a, b in zip(first["returns"], last["returns"], strict=True)]
    assert last["game"]["totals"] == totals
    assert len(client.get(f"/api/tables/{last['table']}/record").json()["hands"]) == 2


def test_news_are_told_once_and_kept_for_the_hand(client: TestClient) -> None:
    view = _sit(client)
    table = view["table"]
    assert view["news_from"] == 0 and view["news"][0].startswith("=== Hand 1 of Marolles")
    again = client.get(f"/api/tables/{table}").json()
    assert again["news"] == view["news"] and again["news_from"] == len(view["news"])


def test_an_illegal_action_is_refused_and_nothing_changes(client: TestClient) -> None:
    view = _sit(client)
    table = view["table"]
    legal = {c["text"] for c in view["decision"]["choices"]}
    not_held = next(
        card for card in ("cups-K", "coins-K", "swords-K", "batons-K") if card not in legal
    )
    for action, why in ((not_held, "is not in your hand"), ("pass", "is not one of the choices")):
        response = client.post(f"/api/tables/{table}/actions", json={"seat": 0, "action": action})
        assert response.status_code == 422, action
        assert why in response.json()["error"]
    for action in ("", "x" * 5000):
        response = client.post(f"/api/tables/{table}/actions", json={"seat": 0, "action": action})
        assert response.status_code == 422 and len(response.json()["error"]) < 120
    after = client.get(f"/api/tables/{table}").json()
    assert after["hand"] == view["hand"] and after["decision"] == view["decision"]


def test_another_seats_action_or_view_is_refused(client: TestClient) -> None:
    view = _sit(client)
    table = view["table"]
    choice = view["decision"]["choices"][0]["text"]
    response = client.post(f"/api/tables/{table}/actions", json={"seat": 1, "action": choice})
    assert response.status_code == 403
    assert response.json()["error"] == "you sit at seat 0; seat 1 is played by the computer"
    response = client.get(f"/api/tables/{table}?seat=1")
    assert response.status_code == 403 and "seat 1 is played by the computer" in response.text
    assert client.get(f"/api/tables/{table}?seat=0").status_code == 200


def test_an_action_out_of_turn_is_refused(client: TestClient) -> None:
    last = _play_out(client, _sit(client))[-1]
    response = client.post(f"/api/tables/{last['table']}/actions", json={"action": "cups-K"})
    assert response.status_code == 409
    assert response.json()["error"] == "hand 1 is over: deal the next hand"
    response = client.post(f"/api/tables/{_sit(client)['table']}/next")
    assert response.status_code == 409 and "not over yet" in response.json()["error"]


@pytest.mark.parametrize(
    "table", ["nosuchtable0123456789", "..%2F..%2Fetc", "a" * 300, "x"], ids=str.__len__
)
def test_a_wrong_table_id_is_a_clear_404(client: TestClient, table: str) -> None:
    for response in (
        client.get(f"/api/tables/{table}"),
        client.post(f"/api/tables/{table}/actions", json={"action": "pass"}),
        client.get(f"/api/tables/{table}/record"),
    ):
        assert response.status_code == 404
        error = response.json()["error"]
        assert error.startswith("no table") or error.endswith(": no such page"), error


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"ruleset": "marole"}, "no ruleset named 'marole'"),
        ({"ruleset": ""}, "an empty ruleset name"),
        ({"ruleset": "marolles-1637", "seat": 3}, "seat 3: marolles-1637 has seats 0 to 2"),
        ({"ruleset": "marolles-1637", "agents": "grandmaster"}, "no agent kind 'grandmaster'"),
        ({"ruleset": "marolles-1637", "options": {"no_such": "x"}}, "no_such"),
        ({"ruleset": "marolles-1637", "seed": -4}, "a seed is a whole number from 0"),
        ({"ruleset": 7}, "ruleset: text expected"),
        ({"ruleset": "marolles-1637", "seat": "first"}, "seat: a whole number expected"),
    ],
)
def test_a_table_that_cannot_be_set_up_is_refused_with_a_clear_error(
    client: TestClient, tmp_path: Path, body: dict, message: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]
    assert not any((tmp_path / "tables").glob("*/table.json"))  # nothing kept


def test_a_request_that_is_not_json_is_refused(client: TestClient) -> None:
    headers = {"Content-Type": "application/json"}
    response = client.post("/api/tables", content=b"{not json", headers=headers)
    assert response.status_code == 400 and "not JSON" in response.json()["error"]
    response = client.post("/api/tables", content=b'{"ruleset": "marolles-1637"}')
    assert response.status_code == 415  # not said to be JSON: a form may not open a table
    response = client.post("/api/tables", json=[1, 2])
    assert response.status_code == 400


def test_an_uploaded_ruleset_is_played_and_its_mistakes_are_positioned(
    client: TestClient,
) -> None:
    text = "extends: marolles-1637\ntitle: My own Marolles\n"
    upload = {"name": "mine.yaml", "text": text}
    response = client.post("/api/tables", json={"upload": upload, "seat": 1, "seed": 5})
    assert response.status_code == 201, response.text
    view = response.json()
    assert view["ruleset"]["title"] == "My own Marolles" and view["seat"] == 1
    broken = {"name": "broken.yaml", "text": "extends: marolles-1637\nplayers: {count: two}\n"}
    response = client.post("/api/tables", json={"upload": broken})
    assert response.status_code == 400
    error = response.json()["error"]
    assert re.search(r"^broken\.yaml:2:\d+: \$\.players", error, re.MULTILINE), error
    response = client.post("/api/tables", json={"upload": {"name": "../x.txt", "text": ""}})
    assert response.status_code == 400 and ".yaml or .yml" in response.json()["error"]


def test_a_table_is_reopened_from_its_folder_by_a_new_server(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    first = TestClient(create_app(folder), base_url=LOCAL)
    view = _sit(first)
    for _ in range(3):
        choice = view["decision"]["choices"][0]["text"]
        view = first.post(f"/api/tables/{view['table']}/actions", json={"action": choice}).json()
    second = TestClient(create_app(folder), base_url=LOCAL)  # as after a restart: nothing in memory
    reopened = second.get(f"/api/tables/{view['table']}").json()
    for key in ("hand", "discards", "decision", "trick", "payments", "returns", "hand_sizes"):
        assert reopened[key] == view[key], key
    assert reopened["news"] == view["news"]


def test_the_rules_page_and_the_rulesets_are_served(client: TestClient) -> None:
    view = _sit(client)
    page = client.get(f"/t/{view['table']}/rules")
    assert page.status_code == 200 and "Marolles 1637" in page.text and "<pre>" in page.text
    listed = client.get("/api/rulesets").json()
    assert {"name": "french-tarot", "title": "French Tarot, four players", "players": 4} in listed
    options = client.get("/api/rulesets/marolles-1637").json()["options"]
    ultimo = next(o for o in options if o["name"] == "ultimo_failure")
    assert ultimo["default"] == "mcleod"
    literal = next(r for r in ultimo["readings"] if r["name"] == "literal")
    assert literal["description"].startswith("One marque")  # a reading is shown by its words
    default = [ruleset["name"] for ruleset in listed if ruleset.get("default")]
    assert default == [paths.default_builtin()] and default[0] in paths.list_builtins()
    assert "favicon.svg" in page.text and client.get("/static/favicon.svg").status_code == 200
    assert client.get("/api/rulesets/nope").status_code == 404
    assert client.get("/").status_code == 200 and "table.js" in client.get("/").text
    assert "function draw" in client.get("/static/table.js").text


def test_the_record_waits_for_a_finished_hand(client: TestClient) -> None:
    response = client.get(f"/api/tables/{_sit(client)['table']}/record")
    assert response.status_code == 409 and "no hand is finished" in response.json()["error"]


def test_tarot_serve_starts_the_server_and_a_table_can_be_played(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = tmp_path / "kept"
    serve = ["serve", "--no-browser", "--port", str(port), "--tables", str(folder)]
    output = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    server = subprocess.Popen([sys.executable, "-m", "tarot", *serve], cwd=ROOT, **output)
    try:
        address = f"http://127.0.0.1:{port}"
        started = time.monotonic()
        while True:
            try:
                listed = httpx2.get(f"{address}/api/rulesets", timeout=10)
                break
            except httpx2.TransportError:
                assert server.poll() is None, server.communicate()
                assert time.monotonic() - started < 60, "the server did not start"
                time.sleep(0.2)
        assert listed.status_code == 200
        body = {"ruleset": "marolles-1637", "seat": 1, "seed": 2, "agents": "random"}
        view = httpx2.post(f"{address}/api/tables", json=body, timeout=60).json()
        assert view["seat"] == 1 and view["decision"] is not None
        assert (folder / view["table"] / "table.json").is_file()
    finally:
        server.terminate()
        out = server.communicate(timeout=60)[0]
    assert f"the table is at {address}/" in out


def test_the_hand_holds_what_the_seat_holds_and_the_piles_are_apart(client: TestClient) -> None:
    """With piles (two-player French Tarot) the hand drawn is the hand counted; the face-up
    tops of each seat's piles come apart, the seat's own among its choices."""
    view = _sit(client, "french-tarot-2", seat=0, seed=4, agents="random")
    while not view["over"]:
        assert len(view["hand"]) == view["hand_sizes"][0]
        assert [len(tops) for tops in view["pile_tops"]] != [0, 0] or view["trick_number"] > 1
        choices = {c["text"] for c in view["decision"]["choices"]}
        own = {card["id"] for card in view["hand"] + view["pile_tops"][0]}
        assert choices <= own
        view = client.post(
            f"/api/tables/{view['table']}/actions", json={"action": sorted(choices)[0]}
        ).json()
    first = _sit(client, "french-tarot-2", seat=0, seed=4, agents="random")
    assert len(first["pile_tops"][0]) == 6 and len(first["pile_tops"][1]) == 6
    assert not any(line.startswith("Face up on the piles") for line in first["table_lines"])


def test_the_talon_turned_up_is_shown_with_the_seat_that_takes_it(client: TestClient) -> None:
    view = _sit(client, "french-tarot", seat=1, seed=5, agents="heuristic")
    assert view["decision"]["kind"] == "bid" and view["talon_up"] == []
    view = client.post(f"/api/tables/{view['table']}/actions", json={"action": "garde"}).json()
    assert view["decision"]["kind"] == "discard"  # the others passed: seat 1 took the chien
    (shown,) = view["talon_up"]
    assert shown["seat"] == 1 and len(shown["cards"]) == 6
    assert {card["id"] for card in shown["cards"]} <= {card["id"] for card in view["hand"]}


def test_every_trick_played_is_sent_in_order(client: TestClient) -> None:
    views = _play_out(client, _sit(client))
    last = views[-1]
    assert [t["number"] for t in last["tricks"]] == list(range(1, len(last["tricks"]) + 1))
    assert last["tricks"][-1] == last["last_trick"] and len(last["tricks"]) == 20
    assert all(len(trick["plays"]) == 3 for trick in last["tricks"])
    for view in views:  # what the page replays card by card is what the tricks were
        done = view["tricks"]
        assert done == last["tricks"][: len(done)]


def test_a_seed_the_server_drew_stays_hidden_until_the_record_is_taken(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    client = TestClient(create_app(folder), base_url=LOCAL)
    assert _sit(client, seed=7)["seed"] == 7  # the person chose it: no secret
    view = _sit(client, seed=None)
    assert view["seed"] is None  # it deals every hand: it would tell the hidden cards
    last = _play_out(client, view)[-1]
    assert last["seed"] is None
    record = client.get(f"/api/tables/{view['table']}/record").json()
    shown = client.get(f"/api/tables/{view['table']}").json()["seed"]
    assert shown == record["seed"] and isinstance(shown, int)
    reopened = (
        TestClient(create_app(folder), base_url=LOCAL).get(f"/api/tables/{view['table']}").json()
    )
    assert reopened["seed"] == shown  # kept with the table


def test_a_refusal_is_worded_as_the_terminal_words_it(client: TestClient) -> None:
    view = _sit(client)
    table = view["table"]

    def first_choice(view: dict) -> dict:
        action = view["decision"]["choices"][0]["text"]
        body = {"seat": 0, "action": action}
        return client.post(f"/api/tables/{table}/actions", json=body).json()

    while view["decision"]["kind"] != "play":  # the discards first
        view = first_choice(view)
    held = _tables(client).find(table)
    for _trick in range(20):  # play on until a card of the hand may not be played
        legal = {c["text"] for c in view["decision"]["choices"]}
        refused = [card["id"] for card in view["hand"] if card["id"] not in legal]
        if refused:
            break
        view = first_choice(view)
    assert refused, "no trick asked the seat to follow"
    label = held.ruleset.deck.cards[held.ruleset.deck.by_id[refused[0]]].label()
    _choice, terminal = resolve(SeatView(held.state, 0), label)  # what `tarot play` answers
    response = client.post(f"/api/tables/{table}/actions", json={"seat": 0, "action": refused[0]})
    assert response.status_code == 422
    assert response.json()["error"] == terminal[:1].upper() + terminal[1:] + "."
    assert response.json()["error"].startswith(f"You may not play {label} now: ")


def test_the_discard_says_how_many_cards_to_lay_away_and_what_each_costs(
    client: TestClient,
) -> None:
    view = _sit(client)
    decision = view["decision"]
    assert decision["kind"] == "discard"
    assert decision["notes"][0] == "Lay away 4 cards, one at a time."
    costly = [c for c in decision["choices"] if c["cost"]]
    table = _tables(client).find(view["table"])
    penalised = table.ruleset.deck.sets["not_discardable"]  # the ruleset's own set
    by_id = table.ruleset.deck.by_id
    assert costly and all(by_id[c["text"]] in penalised for c in costly)
    assert all(by_id[c["text"]] not in penalised for c in decision["choices"] if not c["cost"])
    assert costly[0]["cost"].startswith("You pay 2 marques each to seat 1 and seat 2: ")
    assert any(costly[0]["label"] in note and "2 marques" in note for note in decision["notes"])
    action = decision["choices"][0]["text"]
    after = client.post(f"/api/tables/{view['table']}/actions", json={"seat": 0, "action": action})
    assert after.json()["decision"]["notes"][0] == "Lay away 3 more cards (1 of 4 laid away)."


def test_a_choice_worth_nothing_by_itself_is_not_labelled_worth_0(client: TestClient) -> None:
    table = _tables(client).find(_sit(client)["table"])
    ruleset = table.ruleset
    declaration = next(rule for rule in ruleset.declarations if rule.levels)
    level = declaration.levels[0].id
    label = choice_label(ruleset, f"{declaration.id}:{level}", {level: 0})
    assert "worth" not in label and declaration.name in label
    assert "worth 2 marques" in choice_label(ruleset, f"{declaration.id}:{level}", {level: 2})


def test_the_taker_is_told_how_many_cards_of_the_talon_to_lay_away(client: TestClient) -> None:
    view = _sit(client, "french-tarot", seed=1)
    table = view["table"]
    while view["decision"] is not None and view["decision"]["kind"] != "discard":
        action = view["decision"]["choices"][0]["text"]  # the first bid takes the contract
        view = client.post(f"/api/tables/{table}/actions", json={"action": action}).json()
    assert view["decision"] is not None, "the hand ended before a discard"
    held = _tables(client).find(table)
    talon = len(held.ruleset.deck.cards) - sum(map(len, held.state.deal.hands_dealt))  # the chien
    assert view["decision"]["notes"][0] == f"Lay away {talon} cards, one at a time."
