"""Compile stage: a ruleset's `flow`, the order of its hand, as a tuple of `FlowStep`.

Where it sits: called by the ruleset compiler (`tarot.compile.ruleset_compiler`) once the
sections are compiled. A ruleset that writes no `flow` gets the order its sections imply
(`default_flow`): every built-in ruleset's hand goes as it went before flows were written.
A written flow is checked here against the sections (a step needs its section, a section
needs its step, the deal's packets are each handed out once and in order) and each problem is
reported at the step's line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tarot.compile import source_text
from tarot.core.flow import FlowStep, Phase, Question
from tarot.expressions import Type

if TYPE_CHECKING:
    from tarot.compile.ruleset_compiler import Compiler

#: the section a step of each kind needs, and the words for its message
NEEDS = {
    Phase.REDEAL: ("redeal", "requests to throw the deal in"),
    Phase.BID: ("bidding", "an auction"),
    Phase.CALL: ("partner_call", "a partner call"),
    Phase.DECLARE: ("declarations", "declarations"),
    Phase.ANNOUNCE: ("announcements", "announcements"),
    Phase.DOUBLE: ("doubling", "doublings"),
}
#: kinds that may appear only once in a flow
_ONCE = frozenset({Phase.BID, Phase.CALL, Phase.TALON, Phase.ANNOUNCE, Phase.DOUBLE, Phase.PLAY})


def default_flow(data: Mapping[str, Any]) -> list[tuple[Phase, dict]]:
    """The steps of a ruleset that writes no flow: the deal, the redeal requests, the
    auction and the call, the talon and the discards (the call after them where
    `partner_call.after` says so), the declarations, the announcements, the doublings, then
    play; each where its section is given."""
    call_after = data.get("partner_call", {}).get("after", "auction") == "discards"
    call = [Phase.CALL] if "partner_call" in data else []
    bid = [Phase.BID] if "bidding" in data else []
    doubling = data.get("doubling")
    phases = [
        Phase.DEAL,
        *([Phase.REDEAL] if data.get("redeal") else []),
        *bid,
        *(call if bid and not call_after else []),
        Phase.TALON,
        Phase.DISCARD,
        *(call if bid and call_after else []),
        *([Phase.DECLARE] if "declarations" in data else []),
        *([Phase.ANNOUNCE] if "announcements" in data else []),
        *(
            [Phase.DOUBLE]
            if doubling is not None and not doubling.get("with_announcements")
            else []
        ),
        Phase.PLAY,
    ]
    return [(phase, {}) for phase in phases]


def written_steps(data: Mapping[str, Any]) -> list[tuple[Phase, dict]] | None:
    """The ruleset's own `flow`, each step as (phase, settings); None when it writes none."""
    flow = data.get("flow")
    if flow is None:
        return None
    return [_step(entry) for entry in flow]


def _step(entry: object) -> tuple[Phase, dict]:
    if isinstance(entry, str):
        return Phase(entry), {}
    assert isinstance(entry, Mapping) and len(entry) == 1  # the schema checked the shape
    (word, settings), *_ = entry.items()
    return Phase(word), dict(settings or {})


def compile_flow(compiler: Compiler, packet_steps: int) -> tuple[FlowStep, ...]:
    """The hand's steps, checked against the sections; problems go to the compiler's draft."""
    data = compiler.data
    written = written_steps(data)
    if written is not None:  # the default flow is made from the sections themselves
        _check(compiler, written, packet_steps)
    steps = default_flow(data) if written is None else written
    first_late = after_taker(steps)
    settle_at = _settle_at(steps)
    dealt = 0
    compiled = []
    for i, (phase, settings) in enumerate(steps):
        parts = ("flow", i, phase.value)
        late = i >= first_late
        packets: tuple[int, ...] = ()
        if phase == Phase.DEAL:
            wanted = settings.get("packets")
            packets = tuple(range(dealt, packet_steps)) if wanted is None else tuple(wanted)
            dealt = max([dealt - 1, *packets]) + 1
        compiled.append(
            FlowStep(
                phase=phase,
                when=_optional(compiler, (*parts, "when"), settings.get("when"), late, Type.BOOL),
                packets=packets,
                completes_deal=phase == Phase.DEAL and dealt >= packet_steps,
                rules=tuple(settings["rules"]) if "rules" in settings else None,
                question=_question(compiler, parts, settings, late) if phase == Phase.ASK else None,
                bidders=_optional(compiler, (*parts, "bidders"), settings.get("bidders"), False),
                count=_optional(
                    compiler, (*parts, "count"), settings.get("count"), late, Type.NUMBER, True
                ),
                owes_discards=bool(settings.get("owes_discards", True)),
                settles_play=i == settle_at,
                source=source_text(settings.get("source")),
            )
        )
    return tuple(compiled)


def after_taker(steps: Sequence[tuple[Phase, dict] | FlowStep]) -> int:
    """The index of the first step after the auction (every step when there is none): from
    there on, a step's expressions see the taker's names."""
    for i, step in enumerate(steps):
        phase = step.phase if isinstance(step, FlowStep) else step[0]
        if phase == Phase.BID:
            return i + 1
    return 0


def _settle_at(steps: list[tuple[Phase, dict]]) -> int:
    """The step on whose reaching the hand's play rules are settled: the talon step, or,
    in a flow without one, the first step after the auction and the call."""
    phases = [phase for phase, _settings in steps]
    if Phase.TALON in phases:
        return phases.index(Phase.TALON)
    last = max((i for i, p in enumerate(phases) if p in (Phase.BID, Phase.CALL)), default=-1)
    return last + 1


def _event(late: bool, seat: bool) -> str:
    """The event an expression of a step is compiled at: with the taker's names once the
    auction is over, with `player` where it is worked out for each seat."""
    return ("step_seat" if seat else "step") + ("" if late else "_before_taker")


def _optional(
    compiler: Compiler,
    parts: tuple,
    value: object,
    late: bool,
    expected: Type | None = None,
    per_seat: bool = False,
) -> Any:
    if value is None:
        return None
    event = _event(late, per_seat)
    if expected is None:
        return compiler.seats_expression(parts, value, event)  # type: ignore[arg-type]
    return compiler.expression(parts, value, event, expected)


def _question(compiler: Compiler, parts: tuple, settings: dict, late: bool) -> Question:
    seats = settings.get("seats")
    return Question(
        id=settings["id"],
        name=settings.get("name", settings["id"]),
        seats=None if seats is None else _optional(compiler, (*parts, "seats"), seats, late),
    )


def _check(compiler: Compiler, steps: list[tuple[Phase, dict]], packet_steps: int) -> None:
    """A written flow against the sections: report each problem at its step."""
    data = compiler.data
    phases = [phase for phase, _settings in steps]

    def problem(i: int | None, message: str) -> None:
        compiler.problem(("flow",) if i is None else ("flow", i), message)

    if phases[0] != Phase.DEAL:
        problem(0, "the flow must begin with a `deal` step: nothing can happen before it")
    if phases[-1] != Phase.PLAY:
        problem(len(phases) - 1, "the flow must end with the `play` step")
    for i, phase in enumerate(phases):
        if phase in _ONCE and phases.index(phase) != i:
            problem(i, f"`{phase.value}` may appear only once in a flow")
        settings = steps[i][1]
        needed = NEEDS.get(phase)
        if needed is not None and needed[0] not in data:
            problem(
                i,
                f"a `{phase.value}` step needs {needed[1]}: the ruleset has no "
                f"`{needed[0]}` section",
            )
        if phase == Phase.REDEAL and (i == 0 or phases[i - 1] != Phase.DEAL):
            problem(
                i,
                "a `redeal` step asks about the cards just dealt: put it right after a `deal` step",
            )
        if phase == Phase.REDEAL:
            known = {rule.get("id") for rule in data.get("redeal", [])}
            for rule in settings.get("rules", []):
                if rule not in known:
                    problem(
                        i,
                        f"`rules` names {rule!r}, which is not a `redeal` rule's id "
                        f"(they are: {', '.join(sorted(map(str, known))) or 'none'})",
                    )
        if phase == Phase.DOUBLE and data.get("doubling", {}).get("with_announcements"):
            problem(
                i,
                "the doublings are made with the announcements "
                "(`doubling.with_announcements`): leave the `double` step out",
            )
        if phase == Phase.CALL and Phase.BID in phases and i < phases.index(Phase.BID):
            problem(i, "the partner call needs a taker: put `call` after `bid`")
    for phase, (section, what) in NEEDS.items():
        if section in data and phase not in phases and not _implied(phase, data):
            problem(
                None,
                f"the ruleset has {what} (`{section}`) but its flow has no `{phase.value}` step",
            )
    _check_packets(steps, packet_steps, problem)
    _check_questions(steps, data, problem)


def _implied(phase: Phase, data: Mapping[str, Any]) -> bool:
    """Sections whose step may be left out: doublings made with the announcements."""
    return phase == Phase.DOUBLE and bool(data.get("doubling", {}).get("with_announcements"))


def _check_packets(steps: list[tuple[Phase, dict]], packet_steps: int, problem: Any) -> None:
    """The deal steps hand out every packet step of `deal.packets` once, in order."""
    dealt: list[int] = []
    for i, (phase, settings) in enumerate(steps):
        if phase != Phase.DEAL:
            continue
        wanted = settings.get("packets")
        packets = list(range(len(dealt), packet_steps)) if wanted is None else list(wanted)
        for packet in packets:
            if packet >= packet_steps:
                problem(
                    i,
                    f"`packets` names packet step {packet}, but `deal.packets` has "
                    f"{packet_steps} (numbered from 0)",
                )
                return
            if packet != len(dealt):
                problem(
                    i, f"`packets` must go on from packet step {len(dealt)} in order (got {packet})"
                )
                return
            dealt.append(packet)
    if len(dealt) < packet_steps:
        problem(
            None,
            f"the flow's `deal` steps hand out packet steps 0 to {len(dealt) - 1} "
            f"of {packet_steps}: give the rest to a `deal` step",
        )


def _check_questions(
    steps: list[tuple[Phase, dict]], data: Mapping[str, Any], problem: Any
) -> None:
    """Each question's id is new: not another question's, a declaration's or a redeal's."""
    taken = {entry.get("id") for entry in data.get("declarations", {}).get("table", [])}
    taken |= {rule.get("id") for rule in data.get("redeal", [])}
    for i, (phase, settings) in enumerate(steps):
        if phase != Phase.ASK:
            continue
        question = settings["id"]
        if question in taken:
            problem(
                i,
                f"the question id {question!r} is already used (a question, a "
                "declaration or a redeal rule): give it an id of its own",
            )
        taken.add(question)
