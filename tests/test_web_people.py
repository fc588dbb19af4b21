"""Several people at one table of `tarot serve`: a link per person's seat (a secret token
that opens that seat alone), each person's view holding none of another seat's cards at any
step of a whole hand, the live updates through a WebSocket, and the table kept with its seats
when the server starts again."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tarot.engine.seat_view import SeatView
from tarot.web.app import create_app
from tarot.web.tables import Tables
from tests.web_checks import strings

PEOPLE = (0, 2)


#: the Host a page on this machine sends (the test client's WebSocket names another by itself)
LOOPBACK = {"host": "127.0.0.1"}


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "tables"), base_url="http://127.0.0.1")


def _tables(client: TestClient) -> Tables:
    return client.app.state.tables  # type: ignore[attr-defined]


def _open(client: TestClient, ruleset: str = "french-tarot") -> tuple[dict, dict[int, str]]:
    body = {"ruleset": ruleset, "seat": 0, "people": [2], "agents": "heuristic", "seed": 8}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    view = response.json()
    tokens = {link["seat"]: link["path"].split("token=")[1] for link in view["links"]}
    assert sorted(tokens) == list(PEOPLE)
    assert all(link["path"].startswith(f"/t/{view['table']}?token=") for link in view["links"])
    return view, tokens


def _unseen(client: TestClient, table_id: str, seat: int) -> set[str]:
    """The cards whose place the seat does not see now, but for those shown to every seat
    (the talon turned up, say) before they went into a hand."""
    table = _tables(client).find(table_id)
    cards = table.ruleset.deck.cards
    view = SeatView(table.state, seat)
    shown = {card for _seat, _what, shown in view.shown for card in shown}
    return {cards[c].id for c in view.unseen - shown}


def test_each_link_opens_its_own_seat_and_no_other(client: TestClient) -> None:
    view, tokens = _open(client)
    table = view["table"]
    assert client.get(f"/api/tables/{table}").status_code == 403  # the id alone: no seat
    wrong = client.get(f"/api/tables/{table}?token=not-a-token")
    assert wrong.status_code == 403 and "opens no seat" in wrong.json()["error"]
    second = client.get(f"/api/tables/{table}?token={tokens[2]}").json()
    assert second["seat"] == 2 and "links" not in second
    assert {p["seat"] for p in second["people"]} == set(PEOPLE)
    assert second["agents"][0] == second["agents"][2] == "human"
    other = client.get(f"/api/tables/{table}?token={tokens[2]}&seat=0")
    assert other.status_code == 403 and "another person's" in other.json()["error"]
    acted = client.post(
        f"/api/tables/{table}/actions?token={tokens[2]}", json={"seat": 0, "action": "pass"}
    )
    assert acted.status_code == 403


def test_two_people_play_a_whole_hand_and_neither_view_holds_the_others_cards(
    client: TestClient,
) -> None:
    view, tokens = _open(client)
    table = view["table"]
    views = {
        seat: client.get(f"/api/tables/{table}?token={tokens[seat]}").json() for seat in PEOPLE
    }
    steps = 0
    while not views[0]["over"]:
        for seat in PEOPLE:  # every response a person's page receives
            leaked = strings(views[seat]) & _unseen(client, table, seat)
            assert not leaked, (seat, steps, leaked)
        mover = views[0]["to_decide"]
        assert mover in PEOPLE  # the computer players have played up to a person
        choice = views[mover]["decision"]["choices"][0]["text"]
        acted = client.post(
            f"/api/tables/{table}/actions?token={tokens[mover]}", json={"action": choice}
        )
        assert acted.status_code == 200, acted.text
        views[mover] = acted.json()
        other = 2 if mover == 0 else 0
        views[other] = client.get(f"/api/tables/{table}?token={tokens[other]}").json()
        steps += 1
    assert steps >= 18 and views[2]["over"] and views[2]["sheet"] is not None
    assert client.get(f"/api/tables/{table}/record").status_code == 200


def test_a_page_is_told_live_when_another_person_acts(client: TestClient) -> None:
    view, tokens = _open(client)
    table = view["table"]
    live = f"/api/tables/{table}/live?token={tokens[2]}"
    with client.websocket_connect(live, headers=LOOPBACK) as page:
        first = page.receive_json()  # its own arrival
        assert first == {"changed": 1, "by": 2}
        here = client.get(f"/api/tables/{table}?token={tokens[0]}").json()
        assert {p["seat"]: p["here"] for p in here["people"]} == {0: True, 2: True}
        mover = here["to_decide"]
        choice = (
            here if mover == 0 else client.get(f"/api/tables/{table}?token={tokens[mover]}").json()
        )["decision"]["choices"][0]["text"]
        client.post(f"/api/tables/{table}/actions?token={tokens[mover]}", json={"action": choice})
        told = page.receive_json()
        assert told["changed"] > first["changed"]
    away = client.get(f"/api/tables/{table}?token={tokens[0]}").json()
    assert {p["seat"]: p["here"] for p in away["people"]} == {0: True, 2: False}


def test_a_wrong_token_gets_no_live_updates(client: TestClient) -> None:
    view, _tokens = _open(client)
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(
            f"/api/tables/{view['table']}/live?token=x", headers=LOOPBACK
        ) as page:
            page.receive_json()
    assert closed.value.code == 1008


def test_the_seats_and_their_links_are_kept_with_the_table(tmp_path: Path) -> None:
    first = TestClient(create_app(tmp_path / "tables"), base_url="http://127.0.0.1")
    view, tokens = _open(first)
    again = TestClient(
        create_app(tmp_path / "tables"), base_url="http://127.0.0.1"
    )  # a server started again
    seat = again.get(f"/api/tables/{view['table']}?token={tokens[2]}").json()
    assert (
        seat["seat"] == 2
        and seat["hand"]
        == first.get(f"/api/tables/{view['table']}?token={tokens[2]}").json()["hand"]
    )


def test_a_live_page_from_another_site_or_name_is_refused(client: TestClient) -> None:
    view, tokens = _open(client)
    live = f"/api/tables/{view['table']}/live?token={tokens[2]}"
    for headers in ({"host": "attacker.example"}, {**LOOPBACK, "origin": "https://evil.example"}):
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect(live, headers=headers) as page:
                page.receive_json()
        assert closed.value.code == 1008
    with client.websocket_connect(live, headers={**LOOPBACK, "origin": "http://127.0.0.1"}) as page:
        assert page.receive_json()["by"] == 2
