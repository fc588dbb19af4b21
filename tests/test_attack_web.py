"""Attacks on `tarot serve`, each against a real server on loopback (uvicorn with the
protocol and limits `tarot serve` uses), each case bounded in time: files of the server asked
for by path or through `extends`, folders in error answers, other hosts and sites, bodies
over the limit, connections that never send their request, computer players told to think
for an hour, more tables than the server holds, SIGTERM while players think.
See SECURITY.md, "The web table"."""

from __future__ import annotations

import dataclasses
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from tarot.web.app import create_app
from tarot.web.connections import server_config
from tarot.web.limits import ServeLimits
from tests.web_checks import free_port, serving

ROOT = Path(__file__).resolve().parent.parent
WAIT = 60
LIMITS = ServeLimits(
    open_tables=4,
    open_uploaded=2,
    think_seconds=1.0,
    thinkers=1,
    waiting=2,
    connections=40,
    request_seconds=2.0,
    max_body=100_000,
)
SECRET = "s3cr3t-value-of-the-server-user"

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def private(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of the server user's private files, YAML among them."""
    folder = tmp_path_factory.mktemp("private")
    (folder / "secrets.yaml").write_text(
        f"title: {SECRET}\nplayers: {{count: 3}}\npassword: {SECRET}\n", encoding="utf-8"
    )
    (folder / "notes.yml").write_text(f"- {SECRET}\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tables")


@pytest.fixture(scope="module")
def server(tables: Path) -> Iterator[str]:
    app = create_app(tables, LIMITS)
    with serving(server_config(app, "127.0.0.1", free_port(), LIMITS), WAIT) as address:
        yield address


def _create(server: str, body: dict, timeout: float = 30) -> httpx2.Response:
    return httpx2.post(f"{server}/api/tables", json=body, timeout=timeout)


def _no_server_detail(text: str, *folders: Path) -> None:
    assert SECRET not in text
    assert "Traceback" not in text
    for folder in (*folders, Path.home(), ROOT, Path(sys.prefix)):
        assert str(folder) not in text, (folder, text)


@pytest.mark.parametrize(
    "name",
    [
        "/etc/passwd",
        "../../../../etc/hostname",
        "secrets.yaml",
        "{private}/secrets.yaml",
        "{private}",
        "{private}/nothing-here.yaml",
    ],
)
def test_a_ruleset_is_never_a_path_of_the_server(
    server: str, private: Path, tables: Path, name: str
) -> None:
    response = _create(server, {"ruleset": name.format(private=private)})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error.startswith("no ruleset named")
    _no_server_detail(response.text, private, tables)
    # a file, a folder and nothing are told apart by nothing but the name given
    assert "folder" not in error and "no such file" not in error


@pytest.mark.parametrize(
    "extends",
    [
        "{private}/secrets.yaml",
        "../../../../{private}/secrets.yaml",
        "{private}/notes.yml",
        "{private}",
        "secrets",
        "table.json",
        "/etc/hostname",
    ],
)
def test_an_upload_extends_only_a_built_in_ruleset(
    server: str, private: Path, tables: Path, extends: str
) -> None:
    text = f"extends: {extends.format(private=private)}\ntitle: Mine\n"
    response = _create(server, {"upload": {"name": "mine.yaml", "text": text}})
    assert response.status_code == 400
    error = response.json()["error"]
    assert "names a built-in ruleset" in error and error.startswith("mine.yaml:1:")
    _no_server_detail(response.text, private, tables)


def test_an_upload_that_extends_a_built_in_one_plays_and_its_errors_name_no_folder(
    server: str, tables: Path
) -> None:
    text = "extends: marolles-1637\ntitle: Mine\nplayers: {count: two}\n"
    response = _create(server, {"upload": {"name": "mine.yaml", "text": text}})
    assert response.status_code == 400
    assert "mine.yaml:3:" in response.json()["error"]
    _no_server_detail(response.text, tables)
    text = "extends: marolles-1637\ntitle: Mine\n"
    response = _create(server, {"upload": {"name": "mine.yaml", "text": text}, "seed": 1})
    assert response.status_code == 201 and response.json()["ruleset"]["title"] == "Mine"


def test_answers_about_tables_name_no_folder(server: str, tables: Path) -> None:
    for response in (
        httpx2.get(f"{server}/api/tables/{'a' * 22}", timeout=10),
        httpx2.get(f"{server}/api/tables/..%2F..%2Fetc%2Fpasswd", timeout=10),
        httpx2.get(f"{server}/api/rulesets/..%2F..%2Fetc", timeout=10),
        httpx2.get(f"{server}/static/..%2F..%2Fapp.py", timeout=10),
    ):
        assert response.status_code == 404
        _no_server_detail(response.text, tables)


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Host": "evil.example"}, 421),
        ({"Host": "evil.example:8000"}, 421),
        ({"Host": "127.0.0.1.evil.example"}, 421),
        ({"Host": ""}, 421),
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Sec-Fetch-Site": "cross-site"}, 403),
    ],
)
def test_other_hosts_and_other_sites_are_refused(
    server: str, tables: Path, headers: dict, status: int
) -> None:
    before = set(tables.iterdir())
    body = {"ruleset": "marolles-1637", "seed": 1}
    response = httpx2.post(f"{server}/api/tables", json=body, headers=headers, timeout=10)
    assert response.status_code == status, response.text
    assert set(tables.iterdir()) == before  # nothing opened
    if "Host" in headers:
        assert httpx2.get(f"{server}/api/rulesets", headers=headers, timeout=10).status_code == 421


def test_a_cross_site_form_or_text_post_is_refused(server: str, tables: Path) -> None:
    before = set(tables.iterdir())
    body = b'{"ruleset": "marolles-1637"}'
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        response = httpx2.post(
            f"{server}/api/tables", content=body, headers={"Content-Type": kind}, timeout=10
        )
        assert response.status_code == 415, kind
    assert set(tables.iterdir()) == before
    local = {"Origin": server, "Host": server.removeprefix("http://")}
    assert _create(server, {"ruleset": "marolles-1637"}).status_code == 201
    response = httpx2.post(
        f"{server}/api/tables", json={"ruleset": "marolles-1637"}, headers=local, timeout=30
    )
    assert response.status_code == 201


def test_a_body_over_the_limit_is_refused_before_it_is_read(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            b"\r\nContent-Length: 200000000\r\n\r\n{"
        )
        answer = raw.recv(4096)
    assert b" 413 " in answer.split(b"\r\n")[0]

    def chunks() -> Iterator[bytes]:
        yield b'{"upload": {"name": "x.yaml", "text": "'
        for _ in range(1000):
            yield b"x" * 10_000

    response = httpx2.post(
        f"{server}/api/tables",
        content=chunks(),
        headers={"Content-Type": "application/json"},
        timeout=20,
    )
    assert response.status_code == 413


def test_connections_that_never_send_their_request_do_not_lock_others_out(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    idle = []
    try:
        for number in range(LIMITS.connections * 3):
            raw = socket.create_connection((host, int(port)), timeout=10)
            if number % 2:  # half send part of their headers, half nothing
                raw.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Wait: ")
            idle.append(raw)
        started = time.monotonic()
        response = httpx2.get(f"{server}/api/rulesets", timeout=10)
        assert response.status_code == 200 and time.monotonic() - started < 5
        time.sleep(LIMITS.request_seconds + 1.5)
        closed = 0
        for raw in idle:
            raw.settimeout(0.5)
            try:
                closed += raw.recv(10) == b""
            except OSError:
                closed += 1
        assert closed == len(idle)  # none is kept open past its time
    finally:
        for raw in idle:
            raw.close()


def test_players_set_to_think_for_an_hour_are_refused(server: str) -> None:
    for agents in ("search:seconds=3600", "ismcts:seconds=20", "search:samples=10000"):
        response = _create(server, {"ruleset": "marolles-1637", "agents": agents})
        assert response.status_code == 400, agents
        assert "at this table" in response.json()["error"]


def test_a_player_that_counts_its_work_stops_at_the_tables_time(server: str) -> None:
    """100,000 iterations a decision would take minutes: the table's second stops each."""
    body = {"ruleset": "french-tarot", "seat": 0, "agents": "ismcts:iterations=100000", "seed": 1}
    started = time.monotonic()
    response = _create(server, body, timeout=WAIT)
    assert response.status_code == 201
    decisions = len(response.json()["news"])  # at most one line per decision, and more
    assert time.monotonic() - started < LIMITS.think_seconds * decisions + 5


def test_the_server_answers_while_players_think_and_refuses_past_its_queue(server: str) -> None:
    # seat 0 of this deal: four computer decisions before the person's, each its half second
    body = {"ruleset": "french-tarot", "seat": 0, "agents": "ismcts:seconds=0.5", "seed": 1}
    answers: list[int] = []

    def sit() -> None:
        answers.append(_create(server, body, timeout=WAIT).status_code)

    sitting = [threading.Thread(target=sit) for _ in range(5)]
    for thread in sitting:
        thread.start()
    time.sleep(0.3)
    for _ in range(5):  # the page and the lists answer meanwhile, within the 5 s promised
        started = time.monotonic()
        assert httpx2.get(f"{server}/api/rulesets", timeout=10).status_code == 200
        assert httpx2.get(f"{server}/", timeout=10).status_code == 200
        assert time.monotonic() - started < 5
    assert any(thread.is_alive() for thread in sitting)  # while the players still think
    for thread in sitting:
        thread.join(WAIT)
    # one thinks, two wait, the rest are told to come back; each decision stops at the cap
    assert answers.count(201) in (2, 3) and answers.count(503) == 5 - answers.count(201)


def test_tables_past_the_limit_leave_memory_and_come_back(server: str, tables: Path) -> None:
    made = [_create(server, {"ruleset": "marolles-1637", "seed": n}).json() for n in range(7)]
    uploaded = {"name": "mine.yaml", "text": "extends: marolles-1637\n"}
    made += [_create(server, {"upload": uploaded, "seed": n}).json() for n in range(4)]
    for view in made:
        again = httpx2.get(f"{server}/api/tables/{view['table']}", timeout=30)
        assert again.status_code == 200 and again.json()["hand"] == view["hand"]


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_sigterm_stops_the_server_while_players_think(tmp_path: Path) -> None:
    port = free_port()
    serve = ["serve", "--no-browser", "--port", str(port), "--tables", str(tmp_path)]
    serve += ["--think-seconds", "30"]
    server = subprocess.Popen(
        [sys.executable, "-m", "tarot", *serve],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    address = f"http://127.0.0.1:{port}"
    try:
        started = time.monotonic()
        while True:
            try:
                httpx2.get(f"{address}/api/rulesets", timeout=10)
                break
            except httpx2.TransportError:
                assert server.poll() is None and time.monotonic() - started < WAIT
                time.sleep(0.2)
        body = {"ruleset": "french-tarot", "seat": 3, "agents": "ismcts:seconds=30"}
        thinking = threading.Thread(
            target=lambda: _swallow(lambda: _create(address, body, timeout=WAIT)), daemon=True
        )
        thinking.start()
        time.sleep(2)
        server.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        server.wait(timeout=20)
        assert time.monotonic() - stopped < 15
    finally:
        if server.poll() is None:
            server.kill()
        out = server.communicate(timeout=WAIT)[0]
    assert "Traceback" not in out, out


def _swallow(call: object) -> None:
    try:
        call()  # type: ignore[operator]
    except httpx2.TransportError:
        pass


def _bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def _finished_table(server: str) -> str:
    """A table whose first hand is played to its end (its record in its folder)."""
    view = _create(server, {"ruleset": "marolles-1637", "agents": "random", "seed": 1}).json()
    while not view["over"]:
        choice = view["decision"]["choices"][0]["text"]
        answer = httpx2.post(
            f"{server}/api/tables/{view['table']}/actions",
            json={"seat": view["seat"], "action": choice},
            timeout=30,
        )
        assert answer.status_code == 200, answer.text
        view = answer.json()
    return str(view["table"])


@pytest.mark.slow
def test_a_flood_of_tables_stays_under_the_cap_and_keeps_finished_ones(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    cap = 120_000
    limits = dataclasses.replace(LIMITS, tables_bytes=cap)
    with serving(
        server_config(create_app(folder, limits), "127.0.0.1", free_port(), limits), WAIT
    ) as server:
        kept = _finished_table(server)
        flood = [_create(server, {"ruleset": "marolles-1637", "seed": n}) for n in range(24)]
        assert {answer.status_code for answer in flood} == {201}
        assert _bytes(folder) <= cap
        assert (folder / kept / "record.json").is_file()
        record = httpx2.get(f"{server}/api/tables/{kept}/record", timeout=30)
        assert record.status_code == 200
        first = httpx2.get(f"{server}/api/tables/{flood[0].json()['table']}", timeout=30)
        assert first.status_code == 404  # opened, left, and removed for the newer ones
        last = httpx2.get(f"{server}/api/tables/{flood[-1].json()['table']}", timeout=30)
        assert last.status_code == 200


@pytest.mark.slow
def test_when_finished_tables_fill_the_cap_new_tables_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    limits = dataclasses.replace(LIMITS, tables_bytes=10**9)
    with serving(
        server_config(create_app(folder, limits), "127.0.0.1", free_port(), limits), WAIT
    ) as server:
        kept = _finished_table(server)
    limits = dataclasses.replace(LIMITS, tables_bytes=_bytes(folder) + 40_000)
    with serving(
        server_config(create_app(folder, limits), "127.0.0.1", free_port(), limits), WAIT
    ) as server:
        answers = [_create(server, {"ruleset": "marolles-1637", "seed": n}) for n in range(6)]
        refused = [answer for answer in answers if answer.status_code != 201]
        assert refused and {answer.status_code for answer in refused} == {507}
        message = refused[0].json()["error"]
        assert "--tables-cap" in message
        _no_server_detail(message, folder)
        assert httpx2.get(f"{server}/api/tables/{kept}/record", timeout=30).status_code == 200


def test_json_nested_too_deeply_or_a_flood_of_options_is_refused_at_once(server: str) -> None:
    started = time.monotonic()
    deep = httpx2.post(
        f"{server}/api/tables",
        content="[" * 40_000 + "]" * 40_000,  # within the body limit of LIMITS
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert deep.status_code == 400 and "nested too deeply" in deep.json()["error"]
    options = {f"o{n}": "x" for n in range(5_000)}
    flood = _create(server, {"ruleset": "marolles-1637", "options": options})
    assert flood.status_code == 400 and "at most 1000" in flood.json()["error"]
    assert time.monotonic() - started < 5


def test_the_tables_folder_is_closed_to_other_users_of_the_machine(tmp_path: Path) -> None:
    """It holds every table's seed and seat links, and lists the tables' addresses."""
    from tarot.web.serve import private_folder

    made = tmp_path / "made" / "tables"
    assert private_folder(made) is None
    assert stat.S_IMODE(made.stat().st_mode) == 0o700
    opened = tmp_path / "opened"
    opened.mkdir(mode=0o755)
    opened.chmod(0o755)
    note = private_folder(opened)
    assert note is not None and "open to other users of this machine" in note
    assert stat.S_IMODE(opened.stat().st_mode) == 0o700
    app = create_app(made, LIMITS)
    with serving(server_config(app, "127.0.0.1", free_port(), LIMITS), WAIT) as server:
        table = _create(server, {"ruleset": "marolles-1637", "seed": 1}).json()["table"]
    assert stat.S_IMODE((made / table).stat().st_mode) == 0o700
