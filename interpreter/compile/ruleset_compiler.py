"""Compile stage: from a checked document to the `Ruleset` the engine runs.

Pipeline: schema_check -> options -> semantic_checks -> **compile** (all run by
:mod:`~tarot.compile.loader`). Every expression is compiled against the names
its event provides (its own problems, a wrong name or type, come from the expression
compiler and are placed inside the expression's text in the file), each rule and section
becomes its `tarot.core.ruleset` value, and the cost of a hand's expressions is held to a
budget. The pack and the deal's steps come from the checks; the card tables the engine
reads are made from the pack. Parts the earlier stages found broken are left out, so that
every expression elsewhere is still checked.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tarot.check.draft import Draft
from tarot.check.fact_ids import known_ids, rule_of, unknown_ids
from tarot.check.options import Readings
from tarot.check.semantic_checks import CheckedParts
from tarot.compile import source_text
from tarot.compile.broken_definitions import BrokenDefinitions
from tarot.compile.contexts import (
    FACTS,
    OWN_CARDS,
    RememberedDefinition,
    SeatDefinition,
    facts_for,
    hand_score_steps,
    total_fact,
)
from tarot.compile.flow import compile_flow
from tarot.compile.lasting_compiler import compile_lasting, lasting_facts
from tarot.compile.value_origins import value_origins
from tarot.core.ruleset import (
    Announcement,
    Announcements,
    Bidding,
    CompulsoryContract,
    Contract,
    Counting,
    Declaration,
    DeclarationLevel,
    Definition,
    DoubleTarget,
    Doubling,
    Evaluator,
    ExcuseExchange,
    FirstDealerDraw,
    ForcedContract,
    GameRules,
    HandOver,
    PartnerCall,
    PaymentRule,
    PlayQuestion,
    PlayRules,
    RankChange,
    RedealRule,
    Ruleset,
    ScoreUnit,
    ShowRule,
    SideRule,
    SitOut,
    TalonPackets,
    TalonShares,
    TalonTake,
    TalonUse,
    WinnerException,
)
from tarot.core.vocabulary import (
    BEFORE_ANY_DEAL_FACTS,
    BEFORE_TAKER,
    FIRST_DEALER_DRAW,
    PAYMENTS_READ_BY,
    SIT_OUT,
    variables_for,
)
from tarot.errors import Position, json_path
from tarot.expressions import (
    CompiledExpression,
    Environment,
    ExpressionError,
    FactFunction,
    Type,
    compile_expression,
    dependence,
)
from tarot.expressions.builtins import MAX_NUMBER, RANGE_RULE, Number, describe
from tarot.expressions.compiler import COST_BUDGET
from tarot.expressions.numbers import exact
from tarot.expressions.types import Scope

__all__ = ["HAND_SCORE_BUDGET", "Compiler", "compile_ruleset"]


#: the most steps every seat's hand score may take in one state (see `hand_score_steps`): a
#: seat's total() works it out, so an expression reading totals keeps half its budget
HAND_SCORE_BUDGET = COST_BUDGET // 2

#: the play rules of a ruleset that says nothing more
DEFAULT_PLAY = PlayRules(
    first_leader="after_dealer",
    follow_suit=True,
    trump_when_void=True,
    trump_when_trump_led=True,
    overtrump=False,
    fool_may_lead=True,
    fool_in_last_trick="captured",
)
#: the play rules written as true or false, each a `PlayRules` field of the same name
_PLAY_FLAGS = (
    "follow_suit",
    "trump_when_void",
    "trump_when_trump_led",
    "overtrump",
    "must_beat",
    "trumps_as_suit",
)
#: the words `first_leader` takes; anything else is an expression giving the seat
LEADER_WORDS = frozenset({"after_dealer", "dealer", "taker"})
#: where the talon goes when some of it may still lie on the table as play ends
SCORED_AT_THE_END = frozenset({"out_of_play", "stock"})


def compile_ruleset(draft: Draft, readings: Readings, checked: CheckedParts) -> Ruleset | None:
    """The compiled ruleset, or None when any stage found a problem (all are in ``draft``)."""
    return Compiler(draft, readings, checked).compile()


class _Constant:
    """A literal number or boolean standing where an expression may stand."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __call__(self, _scope: object) -> object:
        return self.value


class Compiler:
    """Compiles one checked document; `environment` is the names an expression of an event
    may use."""

    def __init__(self, draft: Draft, readings: Readings, checked: CheckedParts) -> None:
        self.draft = draft
        self.data = draft.data
        self.path = draft.path
        self.broken = draft.broken
        self.readings = readings
        self.checked = checked
        self.deck = checked.deck
        self.seats = draft.seats
        self.bidding = "bidding" in draft.data
        self.contract_values = checked.contract_values
        self.named: dict[str, CompiledExpression] = {}
        self.definitions: list[Definition] = []  # as compiled, for a second back end
        self.seat_functions: dict[str, FactFunction] = {}
        #: where -> the options read there (a reading put in, or read by the expression)
        self.option_reads: dict[tuple, frozenset[str]] = dict(readings.reads)
        #: Definitions that cannot be used: an expression naming one is told so, once.
        self.broken_definitions = BrokenDefinitions()
        self.facts: dict[str, FactFunction] = FACTS
        #: the ids a fact's text argument may name (`declared(seat, 'ID')`...)
        self.known_ids = known_ids(draft.data, draft.merged.removed)

    def at(self, parts: tuple) -> Position | None:
        return self.draft.at(parts)

    def problem(self, parts: tuple, message: str, position: Position | None = None) -> None:
        self.draft.problem(parts, message, position)

    # --- the whole ruleset -------------------------------------------------------------

    def compile(self) -> Ruleset | None:
        """The compiled ruleset, or None after recording problems. Parts already broken
        (see :mod:`~tarot.check.broken_parts`) are left out of every part."""
        data = self.data
        bidding = self._bidding()
        self.facts = {
            **facts_for(len(self.deck), self.seats, HAND_SCORE_BUDGET),
            **lasting_facts(data),
        }
        self._definitions()
        hand_score = None if self.broken.whole("hand_score") else self._hand_score()
        parts: dict[str, Any] = {
            name: None if self.broken.whole(section) else build()
            for name, section, build in [
                ("discard", "discard", self._discard_conditions),
                ("all_or_none", "discard", self._discard_all_or_none),
                ("told", "discard", self._discard_told),
                ("scored_by", "discard", self._discard_scored_by),
                ("first_dealer_draw", "deal", self._first_dealer_draw),
                ("sit_out", "players", self._sit_out),
                ("declarations", "declarations", self._declarations),
                ("play", "play", self._play),
                ("payments", "payments", self._payments),
                ("settlement", "settlement", self._settlement),
                ("counting", "counting", self._counting),
                ("talon", "talon", lambda: self._talon_use(("talon",), data.get("talon"))),
                ("partner_call", "partner_call", self._partner_call),
                ("doubling", "doubling", self._doubling),
                ("announcements", "announcements", self._announcements),
                ("redeals", "redeal", self._redeals),
                ("hand_score", "hand_score", lambda: hand_score),
                ("game", "game", self._game),
                ("lasting", "lasting", lambda: compile_lasting(self, data)),
                ("shows", "show", self._shows),
                ("questions", "questions", self._questions),
            ]
        }
        bidding = self._contract_play(bidding, parts["play"])
        bidding = self._contract_talons_scored_by(bidding)
        packet_steps = len(self.checked.packets or ())
        flow = () if self.broken.whole("flow") else compile_flow(self, packet_steps)
        if self.draft.problems:
            return None
        forbidden, never, shown = parts["discard"]
        # a broken players, deal or discard section was reported, so we returned above
        assert self.checked.packets is not None and self.checked.discard_counts is not None
        players = data["players"]["count"]
        return Ruleset(
            id=self.path.stem,
            title=data.get("title", self.path.stem),
            path=str(self.path),
            content_hash=self._hash(),
            players=players,
            direction=data["players"].get("direction", "clockwise"),
            deck=self.deck,
            first_dealer=data["deal"].get("first_dealer", 0) % players,
            next_dealer=data["deal"].get("next_dealer", "next"),
            redeal_by=data["deal"].get("redeal_by", "next_dealer"),
            cut_shown=bool(data["deal"].get("cut", {}).get("shown", False)),
            packets=self.checked.packets,
            discard_counts=self.checked.discard_counts,
            discard_forbidden=forbidden,
            discard_never=never,
            discard_shown=shown,
            declarations=parts["declarations"],
            declarations_maximal=bool(data.get("declarations", {}).get("maximal", True)),
            declaration_timing=data.get("declarations", {}).get("timing", "before_play"),
            play=parts["play"],
            payments=parts["payments"],
            settlement=parts["settlement"],
            counting=parts["counting"],
            talon=parts["talon"],
            bidding=bidding,
            partner_call=parts["partner_call"],
            doubling=parts["doubling"],
            announcements=parts["announcements"],
            discard_all_or_none=parts["all_or_none"],
            discard_told=parts["told"],
            discard_scored_by=parts["scored_by"],
            first_dealer_draw=parts["first_dealer_draw"],
            redeals=parts["redeals"],
            hand_score=parts["hand_score"],
            game=parts["game"],
            lasting=parts["lasting"],
            shows=parts["shows"] or (),
            questions=parts["questions"] or (),
            sit_out=parts["sit_out"],
            flow=flow,
            unit=ScoreUnit.from_spec(data.get("unit")),
            definitions=tuple(self.definitions),
            option_values=dict(self.readings.values),
            params=dict(self.readings.params),
            options=self.readings.chosen,
            option_reads=dict(self.option_reads),
            sources={k: v.get("citation", "") for k, v in data.get("sources", {}).items()},
            document=data,
            written=self.draft.written,
            removed=self.draft.merged.removed,
        )

    def _discard_conditions(self) -> tuple:
        discard = self.data.get("discard", {})
        return tuple(
            self._optional_condition(("discard", key), discard.get(key), "discard_check")
            for key in ("forbidden", "never", "shown")
        )

    def _discard_all_or_none(self) -> CompiledExpression | _Constant | None:
        group = self.data.get("discard", {}).get("all_or_none")
        where = ("discard", "all_or_none")
        return None if group is None else self.expression(where, group, "discard_group", Type.CARDS)

    def _discard_told(self) -> CompiledExpression | _Constant | None:
        """The cards whose count among each seat's discards is told once the discards are
        done: worked out then, seeing what the talon's `seat` sees."""
        group = self.data.get("discard", {}).get("told")
        where = ("discard", "told")
        return None if group is None else self.expression(where, group, "talon", Type.CARDS)

    def _discard_scored_by(self) -> CompiledExpression | _Constant | None:
        """The seat every discard scores for, named once play is over; never beside
        `scores_for`, which says the discarder."""
        discard = self.data.get("discard", {})
        where = ("discard", "scored_by")
        if "scored_by" in discard and "scores_for" in discard:
            self.problem(
                where,
                "`scored_by` names who the discards score for once play is over, and "
                "`scores_for` says they score for their discarder: keep one of the two",
            )
        return self._optional_seats(where, discard.get("scored_by"), "settlement")

    def _first_dealer_draw(self) -> FirstDealerDraw | None:
        """The draw for the first deal, in place of a fixed first dealer."""
        deal = self.data.get("deal", {})
        spec = deal.get("first_dealer_draw")
        if spec is None:
            return None
        where = ("deal", "first_dealer_draw")
        if "first_dealer" in deal:
            self.problem(
                where,
                "`first_dealer_draw` draws for the first deal and `first_dealer` names a fixed "
                "seat for it: keep one of the two",
            )
        rank = self.expression(where + ("rank",), spec["rank"], FIRST_DEALER_DRAW, Type.NUMBER)
        return FirstDealerDraw(
            rank=rank,
            lowest=spec.get("deals", "highest") == "lowest",
            source=source_text(spec.get("source")),
        )

    def _sit_out(self) -> SitOut | None:
        """The seats that sit a hand out, where more sit at the table than play."""
        spec = self.data.get("players", {}).get("sit_out")
        if spec is None:
            return None
        where = ("players", "sit_out")
        count, in_hand = self.data["players"]["count"], spec["in_hand"]
        if in_hand >= count:
            self.problem(
                where + ("in_hand",),
                f"{in_hand} play each hand of {count} at the table: `in_hand` must be fewer "
                "than `players.count` (without a seat sitting out, leave `sit_out` away)",
            )
        seats = spec.get("seats")
        return SitOut(
            in_hand=in_hand,
            seats=None if seats is None else self._seats(where + ("seats",), seats, SIT_OUT),
            source=source_text(spec.get("source")),
            as_defender=spec.get("pays", "nothing") == "as_defender",
        )

    def _hash(self) -> str:
        content = json.dumps(
            {"ruleset": self.data, "options": self.readings.chosen}, sort_keys=True
        )
        return "sha256:" + hashlib.sha256(content.encode("utf-8")).hexdigest()

    # --- options, parameters, sources ------------------------------------------------

    # --- expressions -------------------------------------------------------------------

    def environment(
        self, event: str, amount: bool = False, extra: dict[str, Type] | None = None
    ) -> Environment:
        variables = {**variables_for(event, amount, self.bidding), **(extra or {})}
        defined = self._sees_definitions(variables)
        return Environment(
            variables=variables,
            card_sets=self.deck.sets if self.deck else {},
            options=self.readings.values,
            params=self.readings.params,
            facts=self._facts_at(event, defined),
            named=self.named if defined else {},
            contract_values=self.contract_values if event not in BEFORE_TAKER else frozenset(),
            cards=len(self.deck) if self.deck else 0,
            seats=self.seats,
        )

    def _facts_at(self, event: str, defined: bool) -> dict[str, FactFunction]:
        """The facts an expression at `event` may ask (with the definitions' seat functions
        where it sees the definitions); before any deal, only those reading the ruleset."""
        if event in (FIRST_DEALER_DRAW, SIT_OUT):
            return {name: self.facts[name] for name in BEFORE_ANY_DEAL_FACTS}
        return {**self.facts, **self.seat_functions} if defined else self.facts

    def _sees_definitions(self, variables: Mapping[str, Type]) -> bool:
        """Whether an expression that sees `variables` sees the definitions (it sees at least
        what the settlement sees)."""
        return all(name in variables for name in variables_for("settlement", False, self.bidding))

    def expression(
        self,
        parts: tuple,
        value: object,
        event: str,
        expected: Type | None,
        amount: bool = False,
        extra: dict[str, Type] | None = None,
    ) -> CompiledExpression | _Constant:
        if isinstance(value, bool) or isinstance(value, int | float):
            if expected == Type.BOOL and not isinstance(value, bool):
                self.problem(parts, f"expected true, false or a condition, got {value!r}")
            elif not isinstance(value, bool) and not abs(value) <= MAX_NUMBER:  # nan too
                self.problem(parts, f"the number {describe(value)} is out of range: {RANGE_RULE}")
                return _Constant(value)
            return _Constant(value if isinstance(value, bool) else exact(value))
        if not isinstance(value, str):
            self.problem(parts, f"expected an expression, got {value!r}")
            return _Constant(None)
        environment = self.environment(event, amount, extra)
        if self.broken_definitions and self._sees_definitions(environment.variables):
            known = {*environment.variables, *environment.card_sets, *environment.facts}
            use = self.broken_definitions.first_use(value, known)
            if use is not None:
                name, line, column = use
                inside = self._inside(parts, line, column)
                here = inside.file if inside else None
                self.problem(parts, self.broken_definitions.message(name, here), inside)
                return _Constant(None)
        try:
            compiled = compile_expression(value, environment, expected)
        except ExpressionError as error:
            self._expression_problem(parts, value, error)
            return _Constant(None)
        for unknown in unknown_ids(value, self.known_ids, rule_of(self.data, parts)):
            self._expression_problem(parts, value, unknown)
        if compiled.options:
            self.option_reads[parts] = self.option_reads.get(parts, frozenset()) | compiled.options
        position = self.at(parts)
        where = f"{position}: {json_path(parts)}" if position else json_path(parts)
        return replace(compiled, where=where)

    def options_under(self, where: tuple, skip: tuple | None = None) -> tuple[str, ...]:
        """The options read anywhere under `where` (outside `skip`), in name order."""
        found: set[str] = set()
        for parts, options in self.option_reads.items():
            if parts[: len(where)] == where and (skip is None or parts[: len(skip)] != skip):
                found |= options
        return tuple(sorted(found))

    def _condition(self, parts: tuple, value: object, event: str) -> CompiledExpression | _Constant:
        return self.expression(parts, value, event, Type.BOOL)

    def _optional_condition(
        self, parts: tuple, value: object, event: str
    ) -> CompiledExpression | _Constant | None:
        return None if value is None else self._condition(parts, value, event)

    def seats_expression(self, parts: tuple, value: str, event: str) -> Evaluator:
        """A seat or seats (for the other sections' compilers)."""
        return self._seats(parts, value, event)

    def _seats(self, parts: tuple, value: str, event: str) -> CompiledExpression | _Constant:
        compiled = self.expression(parts, value, event, None)
        kind = getattr(compiled, "type", None)
        if kind is not None and kind not in (Type.SEAT, Type.SEATS):
            self.problem(parts, f"expected a seat or seats, got {kind.name}")
        return compiled

    def _expression_problem(self, parts: tuple, value: str, error: ExpressionError) -> None:
        """A problem at its place inside the expression, and at each option reading that put
        the text there."""
        inside = self._inside(parts, error.line, error.column)
        origins = value_origins(self.draft, self.readings, value, inside, error.line, error.column)
        for path, said, origin in origins:
            reader = f"{json_path(parts)} (at {inside})"
            self.problem(path, f"{said}, read by {reader}: {error.message}", origin)
        self.problem(parts, error.message, inside)

    def _inside(self, parts: tuple, line: int, column: int) -> Position | None:
        """The file position of a point (`line`, `column`) inside an expression string."""
        if parts not in self.draft.provenance:
            return self.at(parts)
        return self.draft.merged.position_in_scalar(parts, line, column)

    # --- sections ----------------------------------------------------------------------

    def _rule(self, where: tuple, rule: dict, event: str) -> PaymentRule:
        return PaymentRule(
            id=rule["id"],
            name=rule.get("name", rule["id"]),
            on=event,
            when=self._optional_condition(where + ("when",), rule.get("when"), event),
            payers=self._seats(where + ("from",), rule["from"], event),
            payees=self._seats(where + ("to",), rule["to"], event),
            amount=self.expression(
                where + ("amount",), rule["amount"], event, Type.NUMBER, amount=True
            ),
            source=source_text(rule.get("source")),
            assumption=rule.get("assumption"),
            options=self.options_under(where),
        )

    def _settlement(self) -> tuple[PaymentRule, ...]:
        rules = self.data.get("settlement", [])
        return tuple(
            self._rule(("settlement", i), rule, "settlement")
            for i, rule in enumerate(rules)
            if ("settlement", i) not in self.broken
        )

    def _payments(self) -> dict[str, tuple[PaymentRule, ...]]:
        by_event: dict[str, list[PaymentRule]] = {}
        for i, rule in enumerate(self.data.get("payments", [])):
            if ("payments", i) in self.broken:
                continue
            by_event.setdefault(rule["event"], []).append(
                self._rule(("payments", i), rule, rule["event"])
            )
        return {event: tuple(rules) for event, rules in by_event.items()}

    def _declarations(self) -> tuple[Declaration, ...]:
        section = self.data.get("declarations", {})
        compiled = []
        for i, entry in enumerate(section.get("table", [])):
            where = ("declarations", "table", i)
            if where in self.broken:
                continue
            levels = tuple(
                DeclarationLevel(
                    id=level["id"],
                    when=self.expression(
                        where + ("levels", j, "when"), level["when"], "declaration", Type.BOOL
                    ),
                    value=self.expression(
                        where + ("levels", j, "value"), level["value"], "declaration", Type.NUMBER
                    ),
                    options=self.options_under(where + ("levels", j)),
                    shows=self._optional(
                        where + ("levels", j, "shows"), level.get("shows"), Type.CARDS
                    ),
                    show_count=self._optional(
                        where + ("levels", j, "show_count"), level.get("show_count"), Type.NUMBER
                    ),
                )
                for j, level in enumerate(entry.get("levels", []))
            )
            shows = entry.get("shows")
            hands_over = entry.get("hands_over")
            compiled.append(
                Declaration(
                    id=entry["id"],
                    name=entry.get("name", entry["id"]),
                    levels=levels,
                    shows=None
                    if shows is None
                    else self.expression(
                        where + ("shows",), shows, "declaration_shown", Type.CARDS
                    ),
                    payers=self._seats(
                        where + ("from",), entry.get("from", "opponents(player)"), "declaration"
                    ),
                    payees=self._seats(where + ("to",), entry.get("to", "player"), "declaration"),
                    source=source_text(entry.get("source")),
                    timing=entry.get("timing"),
                    paid_when_declared=bool(entry.get("paid_when_declared", True)),
                    compulsory=bool(entry.get("compulsory", False)),
                    on_own_cards=_on_own_cards(levels),
                    options=self.options_under(where, skip=where + ("levels",)),
                    hands_over=None
                    if hands_over is None
                    else HandOver(
                        cards=self.expression(
                            where + ("hands_over", "cards"),
                            hands_over["cards"],
                            "declaration",
                            Type.CARDS,
                        ),
                        in_return=self.expression(
                            where + ("hands_over", "in_return"),
                            hands_over["in_return"],
                            "declaration",
                            Type.CARDS,
                        ),
                        named=bool(hands_over.get("named", False)),
                        told=bool(hands_over.get("told", True)),
                    ),
                )
            )
        return tuple(compiled)

    def _optional(
        self, where: tuple, text: object, kind: Type
    ) -> CompiledExpression | _Constant | None:
        """A declaration level's optional expression, compiled when it is there."""
        event = "declaration_shown" if where[-1] == "shows" else "declaration"
        return None if text is None else self.expression(where, text, event, kind)

    def _play(self) -> PlayRules:
        return replace(DEFAULT_PLAY, **self._play_changes(("play",), self.data["play"]))

    def _contract_play(self, bidding: Bidding | None, play: PlayRules | None) -> Bidding | None:
        """The auction with each contract's own play rules: its `play` laid over the
        ruleset's, key by key (and inside `excuse`, key by key)."""
        if bidding is None or play is None:
            return bidding
        specs = self.data["bidding"].get("contracts", [])
        return replace(
            bidding,
            contracts=tuple(
                contract
                if "play" not in spec
                else replace(
                    contract,
                    play=replace(
                        play,
                        **self._play_changes(("bidding", "contracts", i, "play"), spec["play"]),
                    ),
                )
                for i, (contract, spec) in enumerate(zip(bidding.contracts, specs, strict=True))
            ),
        )

    def _winner_exception(self, where: tuple, spec: dict) -> WinnerException:
        return WinnerException(
            id=spec["id"],
            name=spec.get("name", spec["id"]),
            when=self._condition(where + ("when",), spec["when"], "trick_won"),
            wins=self.expression(where + ("wins",), spec["wins"], "trick_won", Type.CARDS),
            source=source_text(spec.get("source")),
        )

    def _play_changes(self, where: tuple, spec: dict) -> dict[str, Any]:
        """The play rules `spec` (at `where`) sets, compiled, by `PlayRules` field."""
        changes: dict[str, Any] = {key: bool(spec[key]) for key in _PLAY_FLAGS if key in spec}
        if "first_leader" in spec:
            leader = spec["first_leader"]
            rule = leader not in LEADER_WORDS
            changes["first_leader"] = "rule" if rule else leader
            changes["leader"] = self._leader(where + ("first_leader",), leader) if rule else None
        for key in ("forced", "lead_forbidden", "held_back", "pile_tops_to_hand"):
            if key in spec:
                changes[key] = self.expression(where + (key,), spec[key], "playing", Type.CARDS)
        if "ends_when" in spec:
            changes["ends_when"] = self._condition(
                where + ("ends_when",), spec["ends_when"], "after_trick"
            )
        if "sides" in spec:
            changes["sides"] = self._sides(where + ("sides",), spec["sides"])
        if "winner_exceptions" in spec:
            changes["winner_exceptions"] = tuple(
                self._winner_exception(where + ("winner_exceptions", i), entry)
                for i, entry in enumerate(spec["winner_exceptions"])
            )
        if "rank_changes" in spec:
            changes["rank_changes"] = tuple(
                RankChange(
                    cards=self.expression(
                        where + ("rank_changes", i, "cards"), entry["cards"], "play", Type.CARDS
                    ),
                    to=entry["to"],
                    source=source_text(entry.get("source")),
                )
                for i, entry in enumerate(spec["rank_changes"])
            )
        excuse, inside = spec.get("excuse", {}), where + ("excuse",)
        if "may_lead" in excuse:
            may_lead = self._condition(inside + ("may_lead",), excuse["may_lead"], "static")
            changes["fool_may_lead"] = bool(may_lead(Scope(None, {})))
        if "in_last_trick" in excuse:
            changes["fool_in_last_trick"] = excuse["in_last_trick"]
        if "wins_last_trick_after_all" in excuse:
            changes["fool_wins_last_trick_after_all"] = bool(excuse["wins_last_trick_after_all"])
        if "exchange" in excuse:
            changes["excuse_exchange"] = self._excuse_exchange(
                inside + ("exchange",), excuse["exchange"]
            )
        if "cards" in excuse:
            changes["excuse_cards"] = self.expression(
                inside + ("cards",), excuse["cards"], "play", Type.CARDS
            )
        return changes

    def _leader(self, where: tuple, text: str) -> CompiledExpression | _Constant:
        """`first_leader` given as an expression; a bare word that names nothing is taken
        for a misspelt place and answered with the words."""
        environment = self.environment("play")
        if text.isidentifier():
            if text not in environment.variables and text not in environment.named:
                words = ", ".join(sorted(LEADER_WORDS))
                self.problem(
                    where,
                    f"unknown leader {text!r}: write one of {words}, or an expression"
                    " giving a seat (e.g. next_seat(taker))",
                )
                return _Constant(None)
        return self._seats(where, text, "play")

    def _sides(self, where: tuple, spec: dict) -> SideRule:
        seat = spec["of_seat"]
        value = self.expression(
            where + ("value",), spec["value"], "sides", None, extra={seat: Type.SEAT}
        )
        kind = getattr(value, "type", None)
        if kind is not None and kind not in (Type.SEAT, Type.SEATS):
            self.problem(where + ("value",), f"expected a seat or seats, got {kind.name}")
        return SideRule(seat, value)

    def _excuse_exchange(self, where: tuple, spec: dict) -> ExcuseExchange:
        return ExcuseExchange(
            cards=self.expression(where + ("cards",), spec["cards"], "trick_end", Type.CARDS),
            unpaid=spec.get("unpaid", "nothing"),
            taken_from=spec.get("from", "pile"),
        )

    def _counting(self) -> Counting:
        counting = self.data["counting"]
        values: list[Number] = [0] * len(self.deck)
        for entry in counting.get("values", []):
            members = self.deck.sets.get(entry["set"])
            if members is None:  # reported by the checks
                continue
            for card in members:
                if not values[card]:
                    values[card] = exact(entry["value"])  # 4.5 as written: 9/2
        group = counting.get("group_size", 1)
        credit = tuple(exact(c) for c in counting.get("partial_group_credit", [0] * (group - 1)))
        method = counting.get("method", "groups")
        return Counting.of(tuple(values), group, credit, method)

    # --- talon, auction, partner, redeals, definitions ---------------------------------

    def _talon_use(self, where: tuple, spec: dict | None) -> TalonUse | None:
        if spec is None:
            return None
        seat = spec.get("seat")
        return TalonUse(
            to=spec.get("to", "out_of_play"),
            seat=None if seat is None else self._seats(where + ("seat",), seat, "talon"),
            shown=bool(spec.get("shown", False)),
            packets=self._talon_packets(where + ("packets",), spec.get("packets")),
            per_trick=spec.get("per_trick", 1),
            shares=self._talon_shares(where + ("shares",), spec.get("shares")),
            takes=tuple(
                self._talon_take(where + ("takes", i), take)
                for i, take in enumerate(spec.get("takes", []))
            ),
            ends_hand=self._optional_condition(
                where + ("ends_hand",), spec.get("ends_hand"), "talon"
            ),
            scored_by=self._talon_scored_by(where, spec),
        )

    def _talon_scored_by(self, where: tuple, spec: dict) -> CompiledExpression | _Constant | None:
        """The seat the talon's cards left on the table score for, named once play is over:
        only where the talon (or what is left of it) stays on the table. A contract's is
        compiled once the definitions are (`_contract_talons_scored_by`): it sees them, as
        a settlement rule does."""
        if "scored_by" not in spec:
            return None
        to = spec.get("to", "out_of_play")
        if to not in SCORED_AT_THE_END:
            self.problem(
                where + ("scored_by",),
                f"the talon goes to {to!r}, so none of it is left on the table when play "
                "ends: `scored_by` is for `to: out_of_play` or `to: stock` (for the talon "
                "on a seat's pile from the start, write `to: pile` with its `seat`)",
            )
        if where[0] == "bidding":
            return None  # compiled after the definitions
        return self._seats(where + ("scored_by",), spec["scored_by"], "settlement")

    def _contract_talons_scored_by(self, bidding: Bidding | None) -> Bidding | None:
        """The auction with each contract talon's `scored_by` compiled, now that the
        definitions it may read are."""
        if bidding is None:
            return None
        specs = self.data["bidding"].get("contracts", [])
        contracts = []
        for i, (contract, spec) in enumerate(zip(bidding.contracts, specs, strict=True)):
            talon = spec.get("talon")
            if contract.talon is not None and isinstance(talon, dict) and "scored_by" in talon:
                where = ("bidding", "contracts", i, "talon", "scored_by")
                scored_by = self._seats(where, talon["scored_by"], "settlement")
                contract = replace(contract, talon=replace(contract.talon, scored_by=scored_by))
            contracts.append(contract)
        return replace(bidding, contracts=tuple(contracts))

    def _talon_take(self, where: tuple, spec: dict) -> TalonTake:
        return TalonTake(
            seat=self._seats(where + ("seat",), spec["seat"], "talon"),
            cards=self.expression(where + ("cards",), spec["cards"], "talon", Type.CARDS),
            end=spec.get("from", "top"),
            in_a_row=spec.get("taking", "every") == "in_a_row",
            shown=bool(spec.get("shown", False)),
        )

    def _talon_shares(self, where: tuple, spec: dict | None) -> TalonShares | None:
        if spec is None:
            return None
        return TalonShares(
            first=self.expression(where + ("first",), spec["first"], "talon", Type.NUMBER),
            others=spec.get("others", 1),
        )

    def _talon_packets(self, where: tuple, spec: dict | None) -> TalonPackets | None:
        if spec is None:
            return None
        rest = spec["rest"]
        seat = rest.get("seat")
        return TalonPackets(
            count=spec["count"],
            choose=spec["choose"],
            rest_to=rest["to"],
            rest_seat=None
            if seat is None
            else self._seats(where + ("rest", "seat"), seat, "talon"),
            forbidden=self._optional_condition(
                where + ("forbidden",), spec.get("forbidden"), "packet_check"
            ),
        )

    def _bidding(self) -> Bidding | None:
        spec = self.data.get("bidding")
        if spec is None:
            return None
        contracts = spec.get("contracts", [])
        return Bidding(
            contracts=tuple(
                self._contract(("bidding", "contracts", i), contract)
                for i, contract in enumerate(contracts)
            ),
            source=source_text(spec.get("source")),
            rounds=spec.get("rounds", "once"),
            winner_may_raise=bool(spec.get("winner_may_raise", False)),
            first=self._optional_seats(("bidding", "first"), spec.get("first"), "auction"),
            hold=self._optional_seats(("bidding", "hold"), spec.get("hold"), "hold"),
            must_bid=self._optional_seats(("bidding", "must_bid"), spec.get("must_bid"), "hold"),
            all_passed=self._forced_contract(spec.get("all_passed")),
            compulsory=tuple(
                self._compulsory_contract(("bidding", "compulsory", i), entry)
                for i, entry in enumerate(spec.get("compulsory", []))
            ),
        )

    def _compulsory_contract(self, where: tuple, spec: dict) -> CompulsoryContract:
        return CompulsoryContract(
            contract=spec["contract"],
            when=self._condition(where + ("when",), spec["when"], "auction"),
            taker=self._optional_seats(where + ("taker",), spec.get("taker"), "auction"),
            source=source_text(spec.get("source")),
        )

    def _contract(self, where: tuple, spec: dict) -> Contract:
        open_to = spec.get("open_to")
        return Contract(
            id=spec["id"],
            name=spec.get("name", spec["id"]),
            values={  # 1.5 as written: 3/2
                key: exact(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                for key, v in spec.get("values", {}).items()
            },
            talon=self._talon_use(where + ("talon",), spec.get("talon")),
            source=source_text(spec.get("source")),
            open_to=self._optional_condition(where + ("open_to",), open_to, "bid_check"),
            only_when_all_passed=bool(spec.get("only_when_all_passed", False)),
            join=self._optional_seats(where + ("join",), spec.get("join"), "call"),
            join_at=spec.get("join_at", "auction_end"),
            join_needed=bool(spec.get("join_needed", False)),
        )

    def _forced_contract(self, spec: dict | None) -> ForcedContract | None:
        if spec is None:
            return None
        taker = ("bidding", "all_passed", "taker")
        return ForcedContract(
            contract=spec["contract"],
            taker=self._optional_seats(taker, spec.get("taker"), "auction"),
        )

    def _optional_seats(
        self, parts: tuple, value: str | None, event: str
    ) -> CompiledExpression | _Constant | None:
        return None if value is None else self._seats(parts, value, event)

    def _doubling(self) -> Doubling | None:
        spec = self.data.get("doubling")
        if spec is None:
            return None
        return Doubling(
            steps=tuple(spec["steps"]),
            factor=exact(spec.get("factor", 2)),
            targets=tuple(
                self._double_target(("doubling", "targets", i), target)
                for i, target in enumerate(spec["targets"])
            ),
            source=source_text(spec.get("source")),
            with_announcements=spec.get("with_announcements", False),
            repeat=spec.get("repeat", {}).get("step"),
            limit=self._doubling_limit(spec.get("repeat", {}).get("limit")),
        )

    def _doubling_limit(self, value: object) -> CompiledExpression | _Constant | None:
        if value is None:
            return None
        return self.expression(("doubling", "repeat", "limit"), value, "doubling", Type.NUMBER)

    def _double_target(self, where: tuple, spec: dict) -> DoubleTarget:
        return DoubleTarget(
            id=spec["id"],
            name=spec.get("name", spec["id"]),
            when=self._condition(where + ("when",), spec.get("when", True), "doubling"),
            by=self._optional_seats(where + ("by",), spec.get("by"), "doubling"),
            against=self._optional_seats(where + ("against",), spec.get("against"), "doubling"),
            source=source_text(spec.get("source")),
            announcement=spec.get("announcement"),
        )

    def _announcements(self) -> Announcements | None:
        spec = self.data.get("announcements")
        if spec is None:
            return None
        table = []
        for i, entry in enumerate(spec["table"]):
            where = ("announcements", "table", i)
            keeps = entry.get("keeps")
            table.append(
                Announcement(
                    id=entry["id"],
                    name=entry.get("name", entry["id"]),
                    when=self._condition(
                        where + ("when",), entry.get("when", True), "announcement"
                    ),
                    by=self._optional_seats(where + ("by",), entry.get("by"), "announcement"),
                    keeps=None
                    if keeps is None
                    else self.expression(where + ("keeps",), keeps, "announcement", Type.CARDS),
                    source=source_text(entry.get("source")),
                )
            )
        first = ("announcements", "first")
        return Announcements(
            table=tuple(table),
            first=self._optional_seats(first, spec.get("first"), "talon"),
            source=source_text(spec.get("source")),
            rounds=spec.get("rounds", "once"),
            reopen=self._optional_seats(
                ("announcements", "reopen"), spec.get("reopen"), "announcement"
            ),
        )

    def _partner_call(self) -> PartnerCall | None:
        spec = self.data.get("partner_call")
        if spec is None:
            return None
        if not self.bidding:  # reported by the checks
            return None
        return PartnerCall(
            when=self._condition(("partner_call", "when"), spec.get("when", True), "call"),
            cards=self.expression(("partner_call", "cards"), spec["cards"], "call", Type.CARDS),
            source=source_text(spec.get("source")),
            after_discards=spec.get("after", "auction") == "discards",
        )

    def _redeals(self) -> tuple[RedealRule, ...]:
        rules = []
        for i, spec in enumerate(self.data.get("redeal", [])):
            if ("redeal", i) in self.broken:
                continue
            rules.append(
                RedealRule(
                    id=spec["id"],
                    name=spec.get("name", spec["id"]),
                    when=self._condition(("redeal", i, "when"), spec["when"], "redeal"),
                    choice=bool(spec.get("choice", False)),
                    source=source_text(spec.get("source")),
                    agreed_by=self._optional_seats(
                        ("redeal", i, "agreed_by"), spec.get("agreed_by"), "redeal"
                    ),
                )
            )
        return tuple(rules)

    def _reported_at(self, where: tuple) -> Position | None:
        """Where the first problem reported inside `where` stands."""
        path = json_path(where)
        for problem in self.draft.problems:
            if problem.path == path or problem.path.startswith((f"{path}.", f"{path}[")):
                return problem.position
        return self.at(where)

    def _hand_score(self) -> CompiledExpression | _Constant | None:
        spec = self.data.get("hand_score")
        if spec is None:
            return None
        where = ("hand_score", "value")
        score = self.expression(where, spec["value"], "hand_score", Type.NUMBER)
        if "total" in getattr(score, "calls", ()):
            self.problem(
                where,
                "the hand score cannot use total(), even through a definition: a seat's total"
                " counts this hand's score, which would then depend on itself",
            )
        elif isinstance(score, CompiledExpression):
            steps = hand_score_steps(score.own_cost, score.memo, self.seats)
            if steps > HAND_SCORE_BUDGET:
                self.problem(
                    where,
                    f"every seat's hand score could take about {steps:,} steps, over the limit"
                    f" of {HAND_SCORE_BUDGET:,} (every total() works them out): make it simpler",
                )
            cards = len(self.deck or ())
            self.facts[PAYMENTS_READ_BY] = total_fact(cards, self.seats, score.own_cost, score.memo)
        return score

    def _game(self) -> GameRules | None:
        spec = self.data.get("game")
        if spec is None:
            return None
        claim = spec.get("claim_during_play")
        return GameRules(
            ends_when=self._condition(("game", "ends_when"), spec["ends_when"], "game"),
            winners=self._seats(("game", "winners"), spec["winners"], "game"),
            claim=None
            if claim is None
            else self._seats(("game", "claim_during_play"), claim, "game"),
            max_hands=spec.get("max_hands", 100),
            source=source_text(spec.get("source")),
        )

    def _shows(self) -> tuple[ShowRule, ...]:
        rules = []
        for i, spec in enumerate(self.data.get("show", [])):
            where = ("show", i)
            trick = spec.get("after_trick")
            event = "show_deal" if trick is None else "show_trick"
            rules.append(
                ShowRule(
                    id=spec["id"],
                    name=spec.get("name", spec["id"]),
                    after_trick=trick,
                    when=self._optional_condition(where + ("when",), spec.get("when"), event),
                    cards=self.expression(where + ("cards",), spec["cards"], event, Type.CARDS),
                    source=source_text(spec.get("source")),
                )
            )
        return tuple(rules)

    def _questions(self) -> tuple[PlayQuestion, ...]:
        questions = []
        for i, spec in enumerate(self.data.get("questions", [])):
            where = ("questions", i)
            questions.append(
                PlayQuestion(
                    id=spec["id"],
                    name=spec.get("name", spec["id"]),
                    before_trick=spec["before_trick"],
                    by=self._seats(where + ("by",), spec["by"], "play"),
                    cards=self.expression(where + ("cards",), spec["cards"], "play", Type.CARDS),
                    when=self._optional_condition(where + ("when",), spec.get("when"), "play"),
                    source=source_text(spec.get("source")),
                )
            )
        return tuple(questions)

    def _definitions(self) -> None:
        """Named values, each compiled where the settlement is and usable by the ones after
        it and by every rule that sees at least what the settlement sees. The engine computes
        each once per state of the hand (see `_remembered`)."""
        for name, spec in self.data.get("definitions", {}).items():
            where = ("definitions", name)
            if where in self.broken or name in self.checked.refused_definitions:
                self.broken_definitions.add(name, self._reported_at(where))
                continue
            seat_name = spec.get("of_seat")
            extra = {seat_name: Type.SEAT} if seat_name else None
            compiled = self.expression(
                where + ("value",), spec["value"], "settlement", None, extra=extra
            )
            if not isinstance(compiled, CompiledExpression):
                self.broken_definitions.add(name, self._reported_at(where))
                continue
            self.definitions.append(Definition(name, compiled, seat_name))
            if seat_name:
                self.seat_functions[name] = FactFunction(
                    (Type.SEAT,),
                    compiled.type,
                    SeatDefinition(
                        compiled,
                        seat_name,
                        name,
                        dependence.only_on_auction(compiled.reads, seat_name),
                    ),
                    options=compiled.options,
                    memo={**compiled.memo, name: compiled.own_cost * (self.seats + 1)},
                    calls=compiled.calls,
                    reads=dependence.as_parameter(compiled.reads, seat_name),
                )
            else:
                self.named[name] = _remembered(compiled, name)


def _on_own_cards(levels: tuple[DeclarationLevel, ...]) -> bool:
    """Whether every level's condition and value depend on the declarer (`player`) and his
    own cards alone (`OWN_CARDS`: his hand, discards and cards played)."""
    return all(
        isinstance(expression, _Constant)
        or (
            isinstance(expression, CompiledExpression)
            and dependence.only_on_own(expression.reads, "player", OWN_CARDS)
        )
        for level in levels
        for expression in (level.when, level.value)
    )


def _remembered(compiled: CompiledExpression, name: str) -> CompiledExpression:
    """A definition computed once per state of the hand (`RememberedDefinition`), or once
    for the deal after the auction where it reads the auction's words alone."""
    of_auction = dependence.only_on_auction(compiled.reads)
    return replace(compiled, fn=RememberedDefinition(compiled, name, of_auction))
