"""Playing a run's hands on a Dask cluster: the executor beside the local process pool.

Where it sits: `--cluster ADDRESS` (parsed by `cluster_address`) makes
`tarot.cli.simulate` open a `DaskExecutor` with `dask_executor` and give it to
`runner.run_hands` in place of a job count. The run is the same as on this machine: the same
chunks of hand numbers, each played by `runner.Table` from the documents the parent loaded
(`runner.Written`), the answers taken in the order the chunks were handed out, so the rows
and the report are those of `--jobs 1` byte for byte. Only the parent reads and writes files
(rows, store); the workers receive work and send back hand summaries.

A worker checks, before it plays, that it runs the same program as the parent (the results
version: package version and a hash of the source that plays hands, `provenance`) and builds
each ruleset with the parent's content hash; otherwise the run stops naming the worker.

Dask plays again on another worker a chunk whose worker was lost; the run stops with
`ClusterError`, naming the address, when the scheduler cannot be reached or is lost, when a
chunk has ended every worker that tried it, or when no worker is connected for
`WORKER_WAIT` seconds. The hands already yielded (rows written, hands stored) are kept.

A worker's answer is data, not code: one JSON text (each hand's summaries as the results
store writes them), and the client takes results from the cluster only in msgpack, Dask's
plain format (`deserializers`), never as a pickle. The client checks every answer before it
counts (`checked_answer`): its size, a summary for every hand and ruleset asked for, each the
hand of its number, finite and bounded, every seat one of the ruleset's; and it plays the
first hand of every `SPOT_CHECK`-th chunk again itself (on the run's back end), so a worker that
plays other seeds, other players or other rules is caught. Dask's own messages (tasks,
errors) still travel as pickles between the machines of a cluster, so a scheduler on another
machine is reached over TLS only (`cluster_address` refuses a plain one, `client_security`
takes the certificate from Dask's TLS settings), and a cluster started here for `local:N`
listens on 127.0.0.1 over TLS with certificates made for the run, with no dashboard
(SECURITY.md, docs/comparing/cluster.md).

`distributed` is an optional extra and is imported only here, when a run asks for a cluster.
"""

from __future__ import annotations

import argparse
import ipaddress
import itertools
import json
import re
import signal
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tarot.core import whole_numbers
from tarot.core.ruleset import Ruleset
from tarot.core.summary import HandSummary
from tarot.errors import TarotError
from tarot.measure.provenance import results_version
from tarot.measure.runner import (
    RulesetMismatch,
    RunPlan,
    Table,
    Work,
    Written,
    available_cores,
    deaf_children,
)
from tarot.measure.store import summary_from_json, summary_to_json
from tarot.measure.store_check import check_summary, no_json_constant

if TYPE_CHECKING:
    from distributed import Client, Future

INSTALL = "pip install 'tarot-rules[cluster]'"
CONNECT_TIMEOUT = 10.0  # seconds to reach the scheduler
FIRST_WORKER_WAIT = 30.0  # seconds a run waits for a worker to start
WORKER_WAIT = 30.0  # seconds a run waits while no worker is connected
WAIT_STEP = 0.2  # seconds the main thread waits for a result before looking again
AHEAD = 4  # chunks in flight per worker thread
SPOT_CHECK = 8  # the first hand of every this many chunks is played again by the client
MAX_ANSWER = 64 * 2**20  # characters of one chunk's answer
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")  # Dask's network protocols
ENCRYPTED = ("tls", "wss")  # those over TLS: the only ones to reach another machine

_ADDRESS = re.compile(
    r"(?P<scheme>[a-z]+)://(?P<host>\[[0-9a-fA-F:.]+\]|[^\s/:\[\]@]+):(?P<port>[0-9]{1,5})"
)


class ClusterError(TarotError, RuntimeError):
    """The cluster cannot play the run: not installed, not reached, lost, or not the same
    program as this one."""


@dataclass(frozen=True)
class ClusterAddress:
    """What `--cluster` named: a scheduler's address, or a cluster to start on this machine
    with `local_workers` worker processes."""

    text: str
    local_workers: int | None = None
    #: what to connect to when it is not `text`: a plain address's host name as it resolved
    #: when it was found on the loopback (a name that resolves elsewhere later is not followed)
    connect: str | None = None


def cluster_address(text: str) -> ClusterAddress:
    """`--cluster`: `local`, `local:N` or a scheduler address `SCHEME://HOST:PORT`."""
    written = text.strip()
    if written == "local":
        return ClusterAddress(written, available_cores())
    if written.startswith("local:"):
        return ClusterAddress(written, whole_numbers.count(written.removeprefix("local:")))
    shown = repr(text if len(text) <= 40 else text[:36] + "...")
    found = _ADDRESS.fullmatch(written)
    if found is None:
        raise argparse.ArgumentTypeError(
            f"wants local, local:N or a scheduler address such as tls://HOST:8786, got {shown}"
        )
    if found["scheme"] not in SCHEMES:
        raise argparse.ArgumentTypeError(
            f"{shown}: a scheduler's address begins with {', '.join(s + '://' for s in SCHEMES)}"
        )
    port = int(found["port"])
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{shown}: a port is from 1 to 65535, not {port}")
    host = found["host"].strip("[]")
    try:
        found_at = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise argparse.ArgumentTypeError(f"{shown}: no host {host!r} is known") from None
    if found["scheme"] in ENCRYPTED:
        return ClusterAddress(written)
    if not all(_loopback(str(at[4][0])) for at in found_at):
        raise argparse.ArgumentTypeError(
            f"{shown}: a scheduler on another machine is reached over TLS only "
            f"(tls://{found['host']}:{port}, with Dask's TLS settings: docs/comparing/"
            "cluster.md): over plain tcp, whoever reaches the scheduler runs code on its "
            "machines and sees or changes the hands"
        )
    if host == "localhost" or _loopback(host):  # an address, or the machine's own name
        return ClusterAddress(written)
    # any other name is connected to as it resolved now (IPv4 first), not looked up again
    loopback = str(min(found_at, key=lambda at: at[0] != socket.AF_INET)[4][0])
    shown_host = f"[{loopback}]" if ":" in loopback else loopback
    return ClusterAddress(written, connect=f"{found['scheme']}://{shown_host}:{port}")


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def client_security(address: ClusterAddress) -> Any:
    """Dask's `Security` for reaching the scheduler at `address` (a `tls://` or `wss://`
    one): Dask's own TLS settings (its configuration file or `DASK_DISTRIBUTED__COMM__TLS__*`
    variables), with encryption required; `ClusterError` naming the settings that are
    missing. None for a plain address (on this machine's loopback only, `cluster_address`)."""
    if address.text.split("://")[0] not in ENCRYPTED:
        return None
    try:
        security = _distributed().Security(require_encryption=True)
    except (OSError, ValueError) as error:
        raise ClusterError(f"--cluster {address.text}: Dask's TLS settings: {error}") from None
    missing = [
        setting
        for setting, value in (
            ("ca-file", security.tls_ca_file),
            ("client.cert", security.tls_client_cert),
        )
        if not value
    ]
    if missing:
        raise ClusterError(
            f"--cluster {address.text}: TLS needs the certificate authority and this "
            "machine's certificate and key, from Dask's settings: "
            + ", ".join(f"distributed.comm.tls.{name}" for name in missing)
            + " not set (in ~/.config/dask/distributed.yaml, or the variables "
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE, DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT "
            "and DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY): see docs/comparing/cluster.md"
        )
    return security


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            "--cluster needs Dask's distributed package, an optional extra: " + INSTALL
        ) from None
    return distributed


def require_distributed() -> None:
    """Refuse `--cluster` before anything runs when the extra is not installed."""
    _distributed()


@dataclass(frozen=True)
class _Job:
    """What every worker needs for the chunks of one run, sent once to each."""

    token: str  # names the run: a worker builds its rulesets once per run
    plan: RunPlan
    written: tuple[Written, ...]
    version: str  # the parent's results version


_built = threading.local()  # per worker thread: the token of its run and its Table


def _worker_address() -> str:
    try:
        return str(_distributed().get_worker().address)
    except ValueError:  # not in a worker (the function called in this process)
        return "this process"


def _table(job: _Job) -> Table:
    """The run's rulesets, built in this worker thread once for the run."""
    if getattr(_built, "token", None) != job.token:
        where = _worker_address()
        mine = results_version()
        if mine != job.version:
            raise ClusterError(
                f"the worker at {where} runs results version {mine}, the command "
                f"{job.version}: install the same package on every machine"
            )
        try:
            tables = [written.build() for written in job.written]
        except RulesetMismatch as error:
            raise RulesetMismatch(f"on the worker at {where}: {error}") from None
        _built.table = Table(job.plan, tables)
        _built.token = job.token
    table: Table = _built.table
    return table


def _the_job(job: _Job) -> _Job:
    return job


def play_chunk(job: _Job, work: Work) -> str:
    """A chunk of work played on a worker (the task Dask runs): its answer as JSON text."""
    return answer_text(_table(job).play(work))


def answer_text(played: list[tuple[HandSummary, ...]]) -> str:
    """A chunk's summaries as one JSON text: per hand, the summary text of each ruleset."""
    return json.dumps([[summary_to_json(summary) for summary in hand] for hand in played])


def checked_answer(
    text: object, work: Work, rulesets: Sequence[Ruleset]
) -> list[tuple[HandSummary, ...]]:
    """The summaries of a worker's answer to `work`, each checked; ValueError saying what
    does not fit."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER:
        raise ValueError(f"not a text of at most {MAX_ANSWER:,} characters")
    try:
        hands = json.loads(text, parse_constant=no_json_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not isinstance(hands, list) or len(hands) != len(work):
        raise ValueError(f"not {len(work)} hands")
    answer = []
    for (number, which), hand in zip(work, hands, strict=True):
        if not isinstance(hand, list) or len(hand) != len(which):
            raise ValueError(f"hand {number}: not {len(which)} summaries")
        summaries = []
        for index, text_of_one in zip(which, hand, strict=True):
            if not isinstance(text_of_one, str):
                raise ValueError(f"hand {number}: a summary that is not text")
            summary = summary_from_json(text_of_one)
            if summary.number != number:
                raise ValueError(f"hand {number}: the summary of hand {summary.number}")
            check_summary(summary, rulesets[index].players)
            summaries.append(summary)
        answer.append(tuple(summaries))
    return answer


class DaskExecutor:
    """The chunks of a run played by the workers of a Dask cluster (`runner.Executor`)."""

    def __init__(self, client: Client, address: str) -> None:
        self._client = client
        self.address = address
        self._width = max(1, sum(client.nthreads().values()))

    @property
    def width(self) -> int:
        """The worker threads of the cluster when the run started."""
        return self._width

    def play(
        self, plan: RunPlan, rulesets: Sequence[Ruleset], works: Iterator[Work]
    ) -> Generator[list[tuple[HandSummary, ...]], None, None]:
        """A few chunks per worker thread are in flight; answers are taken oldest first."""
        job = _Job(
            uuid.uuid4().hex,
            plan,
            tuple(Written.of(ruleset) for ruleset in rulesets),
            results_version(),
        )
        numbered = enumerate(works)
        here = Table(plan, list(rulesets))  # plays the spot checks
        in_flight: deque[tuple[Future, Work]] = deque()
        shared: list[Future] = []
        try:
            # a task rather than scattered data: Dask computes it again if every worker
            # that held it is lost
            shared.append(
                self._client.submit(_the_job, job, key=f"tarot-job-{job.token}", pure=False)
            )

            def submit() -> None:
                for index, work in itertools.islice(numbered, 1):
                    key = f"tarot-hands-{job.token}-{index}"
                    future = self._client.submit(play_chunk, shared[0], work, key=key, pure=False)
                    in_flight.append((future, work))

            for _ in range(AHEAD * self.width):
                submit()
            for chunk in itertools.count():
                if not in_flight:
                    break
                future, work = in_flight.popleft()
                answer = self._checked(self._answer(future, work), work, rulesets)
                if chunk % SPOT_CHECK == 0 and work:  # either back end: a hand alone is the same
                    self._spot_check(here, work, answer)
                submit()
                yield answer
        except OSError as error:  # the scheduler or the connection to it is gone
            raise ClusterError(
                f"--cluster {self.address}: lost the scheduler ({type(error).__name__}: "
                f"{error or 'no reason given'}); the run stopped"
            ) from None
        finally:
            with suppress(Exception):  # a scheduler already gone has nothing to release
                self._client.cancel([*shared, *(future for future, _ in in_flight)], force=True)

    def _checked(
        self, text: object, work: Work, rulesets: Sequence[Ruleset]
    ) -> list[tuple[HandSummary, ...]]:
        try:
            return checked_answer(text, work, rulesets)
        except ValueError as error:
            raise ClusterError(
                f"--cluster {self.address}: a worker's answer for hands {_hands(work)} is not "
                f"one this program gives ({error}); the run stopped"
            ) from None

    def _spot_check(self, here: Table, work: Work, answer: list[tuple[HandSummary, ...]]) -> None:
        """Play the chunk's first hand here: the worker's must be the same."""
        if here.play(work[:1])[0] != answer[0]:
            raise ClusterError(
                f"--cluster {self.address}: a worker's result for hand {work[0][0]} is not "
                "the one this machine plays (another program, seed or rule); the run stopped"
            )

    def _answer(self, future: Future, work: Work) -> object:
        """The result of one chunk, waited for in short steps (a stop is handled at once)."""
        alone_since: float | None = None
        while True:
            try:
                return future.result(timeout=WAIT_STEP)
            except TimeoutError:
                pass
            except _distributed().KilledWorker as error:
                raise ClusterError(
                    f"--cluster {self.address}: hands {_hands(work)} ended every worker that "
                    f"played them ({error}); the run stopped"
                ) from None
            except (ImportError, RuntimeError) as error:
                if isinstance(error, ImportError) or isinstance(error.__cause__, ImportError):
                    raise self._not_installed(error) from None
                raise  # the program's own errors (a ruleset that does not build, ...)
            except CancelledError as error:
                raise ClusterError(
                    f"--cluster {self.address}: the cluster cancelled hands {_hands(work)} "
                    f"({error or 'no reason given'}); the run stopped"
                ) from None
            if self._client.nthreads():
                alone_since = None
                continue
            alone_since = alone_since or time.monotonic()
            if time.monotonic() - alone_since >= WORKER_WAIT:
                raise ClusterError(
                    f"--cluster {self.address}: no worker connected to the scheduler for "
                    f"{WORKER_WAIT:g} s (a worker that cannot load this program ends: each "
                    "needs tarot-rules, the same version as here); the run stopped"
                )

    def _not_installed(self, error: BaseException) -> ClusterError:
        cause = error if isinstance(error, ImportError) else error.__cause__
        return ClusterError(
            f"--cluster {self.address}: the cluster cannot load this program "
            f"({type(cause).__name__}: {cause}): the scheduler and every worker need "
            "tarot-rules installed, the same version as here"
        )


def dask_setup(worker: object) -> None:
    """Run by each worker of a cluster started here (Dask's preload hook), in its main
    thread: like the local pool's workers it ignores Ctrl-C and SIGHUP, which a terminal
    sends to the whole process group; the command stops it when the run ends."""
    for name in ("SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)


def _quiet_http() -> Any:
    """Dask's settings while a local cluster starts: its scheduler and workers, which always
    run an HTTP server, serve only the health check on it (no pages of tasks and workers,
    no metrics: another user of this machine or a web page could read them)."""
    import dask

    return dask.config.set(
        {
            "distributed.scheduler.http.routes": ["distributed.http.health"],
            "distributed.worker.http.routes": ["distributed.http.health"],
        }
    )


def _run_security(distributed: Any) -> Any:
    """Certificates made for one local cluster, kept in memory: the scheduler, its workers
    and this client alone hold them, so no other user of this machine can connect."""
    try:
        return distributed.Security.temporary()
    except ImportError:
        raise ClusterError(
            "--cluster local needs the cryptography package to make the cluster's "
            "certificates, part of the extra: " + INSTALL
        ) from None


def _hands(work: Work) -> str:
    numbers = [number for number, _ in work]
    return f"{numbers[0]}-{numbers[-1]}" if numbers else "(none)"


@contextmanager
def dask_executor(address: ClusterAddress) -> Iterator[DaskExecutor]:
    """A `DaskExecutor` on the scheduler at `address`, or on a cluster started on this
    machine for `local[:N]` (its worker processes never receive Ctrl-C: this process stops
    them); closed at the end."""
    distributed = _distributed()
    local = address.local_workers is not None
    security = _run_security(distributed) if local else client_security(address)
    with ExitStack() as stack:
        try:
            if not local:
                client = distributed.Client(
                    address.connect or address.text,
                    timeout=CONNECT_TIMEOUT,
                    set_as_default=False,
                    security=security,
                    deserializers=["msgpack"],  # answers are data: never a pickle
                )
            else:
                with deaf_children(), _quiet_http():
                    cluster = distributed.LocalCluster(
                        n_workers=address.local_workers,
                        threads_per_worker=1,
                        processes=True,
                        host="127.0.0.1",  # this machine's alone: nothing listens outside
                        protocol="tls://",
                        security=security,  # and only this run may connect
                        dashboard_address="127.0.0.1:0",  # Dask's HTTP server: loopback,
                        scheduler_kwargs={"dashboard": False},  # no dashboard (_quiet_http)
                        preload=[__name__],  # dask_setup: deaf to Ctrl-C
                    )
                stack.callback(cluster.close)
                client = distributed.Client(
                    cluster, set_as_default=False, security=security, deserializers=["msgpack"]
                )
        except (OSError, TimeoutError) as error:
            raise ClusterError(
                f"--cluster {address.text}: cannot reach the scheduler ({error})"
            ) from None
        except RuntimeError as error:  # a local cluster that did not start
            raise ClusterError(f"--cluster {address.text}: did not start ({error})") from None
        stack.callback(client.close)
        try:
            client.wait_for_workers(1, timeout=FIRST_WORKER_WAIT)
        except (OSError, TimeoutError):
            raise ClusterError(
                f"--cluster {address.text}: no worker connected to the scheduler within "
                f"{FIRST_WORKER_WAIT:g} s (start one with: dask worker {address.text})"
            ) from None
        yield DaskExecutor(client, address.text)
