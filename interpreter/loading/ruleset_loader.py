"""The last loading stage: from a checked, merged document to a compiled `Ruleset`.

Pipeline: `yaml_source` (YAML with positions) -> `inheritance` (extends) -> `schema_check`
(the JSON Schema) -> this module: options chosen and substituted, source references checked,
the deck built, every expression compiled against the names its event provides, the deal
checked to add up. Every problem is collected with its file position and reported at once.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path

from interpreter import paths
from interpreter.cards import Deck, build_deck, set_dependencies
from interpreter.engine.contexts import (
    BEFORE_TAKER,
    EVENT_VARIABLES,
    FACTS,
    evaluations_per_hand,
    facts_for,
    variables_for,
)
from interpreter.errors import Position, Problem, RulesetError, json_path
from interpreter.expressions import (
    CompiledExpression,
    Environment,
    ExpressionError,
    FactFunction,
    Type,
    compile_expression,
)
from interpreter.expressions.builtins import BUILTIN_NAMES, MAX_NUMBER, RANGE_RULE, describe
from interpreter.expressions.compiler import COST_BUDGET
from interpreter.expressions.parser import KEYWORDS
from interpreter.loading.broken_parts import BrokenParts
from interpreter.loading.inheritance import MergedDocument, resolve
from interpreter.loading.schema_check import schema_problems
from interpreter.ruleset import (
    Bidding,
    Contract,
    Counting,
    Declaration,
    DeclarationLevel,
    ExcuseExchange,
    GameRules,
    HandOver,
    PacketStep,
    PartnerCall,
    PaymentRule,
    PlayRules,
    RedealRule,
    Ruleset,
    ScoreUnit,
    TalonUse,
)


@cache
def load_schema(name: str) -> dict:
    return json.loads((paths.schemas_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))


def locate(spec: str | Path) -> Path:
    """A built-in ruleset name or a path to a YAML file."""
    if not str(spec):
        raise RulesetError([Problem(None, "$", "an empty ruleset name: give a name or a file")])
    text = str(spec)
    path = Path(spec)
    try:
        if path.is_dir():
            raise _refusal(text, "this is a folder, not a ruleset file")
        if path.suffix in (".yaml", ".yml") or path.exists():
            if not path.is_file():
                raise _refusal(text, "no such file")
            return path
    except OSError as exc:
        raise _refusal(text, f"cannot read file: {exc.strerror or exc}") from None
    found = paths.find_builtin(text)
    if found is None:
        if len(text) > 60 or any(sep in text for sep in "/\\"):
            raise _refusal(text, "no such file (and not a built-in ruleset name)")
        names = ", ".join(paths.list_builtins())
        raise RulesetError(
            [Problem(None, "$", f"no built-in ruleset named {spec!r}; built-in: {names}")]
        )
    return found


def _refusal(file: str, message: str) -> RulesetError:
    return RulesetError([Problem(Position(file, 0, 0), "$", message)])


def load_ruleset(spec: str | Path, choices: Mapping[str, str] | None = None) -> Ruleset:
    """Load, check and compile a ruleset; raise RulesetError listing every problem."""
    path = locate(spec)
    return _build(path, resolve(path, paths.find_builtin, paths.list_builtins), choices)


def build_ruleset(path: str | Path, written: dict, choices: Mapping[str, str]) -> Ruleset:
    """The ruleset `load_ruleset` made from the document it read (`Ruleset.written`), made
    again without reading any file (in a worker process, for one)."""
    path = Path(path)
    return _build(path, MergedDocument(copy.deepcopy(written), {}, [path]), choices)


def _build(path: Path, merged: MergedDocument, choices: Mapping[str, str] | None) -> Ruleset:
    found = schema_problems(
        merged.data, merged.provenance, load_schema("ruleset"), merged.key_provenance
    )
    builder = _Builder(path, merged, dict(choices or {}))
    builder.problems = [problem for _path, problem in found]
    builder.broken.add(where for where, _problem in found)
    ruleset = None if builder.broken.stops_compiling else builder.build()
    if builder.problems or ruleset is None:
        raise RulesetError(_in_order(builder.problems))
    return ruleset


def _in_order(problems: list[Problem]) -> list[Problem]:
    """Each problem once, in file order."""
    return sorted(dict.fromkeys(problems), key=_problem_order)


#: the most steps a hand score may take: a seat's total() works it out
HAND_SCORE_BUDGET = COST_BUDGET // 20
#: the most steps every expression of a ruleset may take together in one hand
HAND_BUDGET = 5_000_000


def _problem_order(problem: Problem):
    pos = problem.position
    return (pos.file, pos.line, pos.column) if pos else ("", 0, 0)


class _Constant:
    """A literal number or boolean standing where an expression may stand."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __call__(self, _scope: object) -> object:
        return self.value


class _Builder:
    def __init__(self, path: Path, merged: MergedDocument, choices: dict[str, str]):
        self.path = path
        self.merged = merged
        self.data = merged.data
        self.written = copy.deepcopy(merged.data)  # before the build changes `data`
        self.provenance = merged.provenance
        self.choices = choices
        self.problems: list[Problem] = []
        self.option_values: dict[str, object] = {}
        self.chosen: dict[str, str] = {}
        self.params: dict[str, object] = {}
        self.deck: Deck | None = None
        self.bidding = "bidding" in merged.data
        self.contract_values: frozenset[str] = frozenset()
        self.named: dict[str, CompiledExpression] = {}
        self.seat_functions: dict[str, FactFunction] = {}
        self.option_reads: dict[tuple, frozenset[str]] = {}  # where -> the options read there
        #: Parts with a problem already reported, left out of the checks that follow.
        self.broken = BrokenParts()
        #: Definitions left out: an expression that uses one is not blamed for it.
        self.left_out_names: set[str] = set()
        self.facts: dict[str, FactFunction] = FACTS
        self.hand_steps: list[tuple[int, int, tuple]] = []  # (steps, times a hand, where)

    # --- problems and positions --------------------------------------------------------

    def at(self, parts: tuple) -> Position | None:
        return self.merged.position(parts)

    def problem(self, parts: tuple, message: str, position: Position | None = None) -> None:
        self.problems.append(Problem(position or self.at(parts), json_path(parts), message))

    # --- the whole ruleset -------------------------------------------------------------

    def build(self) -> Ruleset | None:
        """The compiled ruleset, or None after recording problems. Parts already broken
        (see :mod:`~interpreter.loading.broken_parts`) are left out of every check."""
        data = self.data
        before = len(self.problems)
        self._options()
        self._params()
        self._substitute_options(data, ())
        if len(self.problems) > before:
            return None
        self._check_chosen_readings()
        if self.broken.stops_compiling:
            return None
        self._check_sources(data, ())
        self.deck = self._deck()
        if self.deck is None:
            return None
        packets = discard_counts = None
        if not self.broken.any_section("players", "deal", "discard"):
            players = data["players"]["count"]
            packets = self._packets(players)
            counts = data.get("discard", {}).get("counts", {"dealer": 0, "others": 0})
            discard_counts = (counts["dealer"], counts["others"])
            self._check_hand_sizes(packets, players, discard_counts)
        bidding = self._bidding()
        self.facts = facts_for(len(self.deck), self.seats, HAND_SCORE_BUDGET)
        self._definitions()
        parts = {
            name: None if self.broken.whole(section) else build()
            for name, section, build in [
                ("discard", "discard", self._discard_conditions),
                ("declarations", "declarations", self._declarations),
                ("play", "play", self._play),
                ("payments", "payments", self._payments),
                ("settlement", "settlement", self._settlement),
                ("counting", "counting", self._counting),
                ("talon", "talon", lambda: self._talon_use(("talon",), data.get("talon"))),
                ("partner_call", "partner_call", self._partner_call),
                ("redeals", "redeal", self._redeals),
                ("hand_score", "hand_score", self._hand_score),
                ("game", "game", self._game),
            ]
        }
        self._check_hand_cost()
        if self.problems:
            return None
        forbidden, never, shown = parts["discard"]
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
            packets=packets,
            discard_counts=discard_counts,
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
            redeals=parts["redeals"],
            hand_score=parts["hand_score"],
            game=parts["game"],
            unit=ScoreUnit.from_spec(data.get("unit")),
            options=self.chosen,
            option_reads=dict(self.option_reads),
            sources={k: v.get("citation", "") for k, v in data.get("sources", {}).items()},
            document=data,
            written=self.written,
        )

    def _check_chosen_readings(self) -> None:
        """A reading's value now stands where `{option: X}` stood: it must fit there too."""
        reported = {problem.path for problem in self.problems}
        for where, problem in schema_problems(self.data, self.provenance, load_schema("ruleset")):
            if problem.path in reported or where in self.broken:
                continue
            self.broken.add([where])
            message = f"{problem.message} (with the options' chosen readings)"
            self.problems.append(Problem(problem.position, problem.path, message))

    def _discard_conditions(self) -> tuple:
        discard = self.data.get("discard", {})
        return tuple(
            self._condition(("discard", key), discard.get(key), "discard_check")
            for key in ("forbidden", "never", "shown")
        )

    def _check_hand_cost(self) -> None:
        """Every expression of a hand together stays within HAND_BUDGET steps."""
        total = sum(steps * times for steps, times, _parts in self.hand_steps)
        if total <= HAND_BUDGET:
            return
        steps, times, parts = max(self.hand_steps, key=lambda entry: entry[0] * entry[1])
        self.problem(
            parts,
            f"the ruleset's expressions could take about {total:,} steps in one hand, over the"
            f" limit of {HAND_BUDGET:,}; the costliest is this one, about {steps:,} steps"
            f" worked out up to {times:,} times a hand: make it simpler",
        )

    def _hash(self) -> str:
        content = json.dumps({"ruleset": self.data, "options": self.chosen}, sort_keys=True)
        return "sha256:" + hashlib.sha256(content.encode("utf-8")).hexdigest()

    # --- options, parameters, sources ------------------------------------------------

    def _options(self) -> None:
        options = self.data.get("options", {})
        for name in self.choices:
            if name not in options:
                self.problem(
                    ("options",),
                    f"no option named {name!r} to choose; options: " + ", ".join(sorted(options)),
                )
        for name, option in options.items():
            where = ("options", name)
            readings = option.get("readings")
            if not readings:
                self.problem(where, f"option {name!r} has no readings")
                continue
            for reading_name, reading in readings.items():
                for key in ("value", "source", "description"):
                    if key not in reading:
                        self.problem(
                            where + ("readings", reading_name),
                            f"reading {reading_name!r} needs '{key}'",
                        )
            chosen = self.choices.get(name, option.get("default"))
            if chosen not in readings:
                key = "default" if name not in self.choices else None
                self.problem(
                    where + ((key,) if key else ()),
                    f"option {name!r} has no reading {chosen!r}; readings: " + ", ".join(readings),
                )
                continue
            self.chosen[name] = chosen
            self.option_values[name] = readings[chosen].get("value")

    def _params(self) -> None:
        for name, param in self.data.get("parameters", {}).items():
            self.params[name] = param.get("value")

    def _substitute_options(self, node: object, parts: tuple) -> object:
        """Replace every `{option: NAME}` (outside `options`) by the chosen reading's value."""
        if parts == ("options",) or parts in self.broken:
            return node
        if isinstance(node, dict):
            if set(node) == {"option"}:
                name = node["option"]
                if name not in self.option_values:
                    self.problem(
                        parts + ("option",),
                        f"unknown option {name!r}; options: "
                        + ", ".join(sorted(self.data.get("options", {}))),
                    )
                    return node
                self._copy_positions(
                    ("options", name, "readings", self.chosen[name], "value"), parts
                )
                self.option_reads[parts] = frozenset({name})
                return self.option_values[name]
            for key, value in list(node.items()):
                node[key] = self._substitute_options(value, parts + (key,))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                node[i] = self._substitute_options(value, parts + (i,))
        return node

    def _copy_positions(self, source: tuple, target: tuple) -> None:
        """Values substituted from an option's reading keep the reading's file positions."""
        for path, position in list(self.provenance.items()):
            if path[: len(source)] == source:
                self.provenance[target + path[len(source) :]] = position

    def _check_sources(self, node: object, parts: tuple) -> None:
        if parts in self.broken or self.broken.any_section("sources"):
            return
        known = self.data.get("sources", {})
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "source" and parts[:1] != ("sources",):
                    for ref in [value] if isinstance(value, str) else value:
                        if ref not in known:
                            self.problem(
                                parts + (key,),
                                f"unknown source {ref!r}; sources: " + ", ".join(sorted(known)),
                            )
                else:
                    self._check_sources(value, parts + (key,))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                self._check_sources(value, parts + (i,))

    # --- the deck and the deal ---------------------------------------------------------

    def _deck(self) -> Deck | None:
        before = len(self.problems)
        spec = self.data["deck"]
        sets = spec.setdefault("card_sets", {})
        order: list[str] = []
        visiting: set[str] = set()

        def visit(name: str, chain: list[str]) -> None:
            if name in order:
                return
            if name in visiting:
                self.problem(
                    ("deck", "card_sets", name),
                    "card sets refer to each other in a circle: " + " -> ".join(chain),
                )
                return
            visiting.add(name)
            for dependency, inside in set_dependencies(sets[name]):
                if dependency not in sets:
                    self.problem(
                        ("deck", "card_sets", name) + inside,
                        f"unknown card set {dependency!r}; sets: " + ", ".join(sets),
                    )
                    continue
                visit(dependency, chain + [dependency])
            order.append(name)

        for name in sets:
            visit(name, [name])
        suits = {s["name"] for s in spec.get("suits", [])}
        for path, selector in _selectors(spec):
            for suit in _all_values(selector, "suits"):
                if suit not in suits:
                    self.problem(path, f"unknown suit {suit!r}; suits: " + ", ".join(sorted(suits)))
        if len(self.problems) > before:
            return None
        deck = build_deck(spec, order)
        for name, members in deck.sets.items():
            if not members:
                self.problem(("deck", "card_sets", name), f"card set {name!r} has no cards")
        return deck

    def _packets(self, players: int) -> tuple[PacketStep, ...]:
        steps = []
        for step in self.data["deal"].get("packets", []):
            dealer = step.get("each", step.get("dealer", 0))
            others = step.get("each", step.get("others", 0))
            talon, after = step.get("talon", 0), step.get("talon_after", players)
            piles = step.get("piles", 0)
            steps.append(
                PacketStep(step["rounds"], dealer, others, talon, min(after, players), piles)
            )
        dealt = sum(
            s.rounds * (s.dealer + s.others * (players - 1) + s.talon + s.piles * players)
            for s in steps
        )
        talon = sum(s.rounds * s.talon for s in steps)
        if talon and "talon" not in self.data and not self.bidding:
            self.problem(
                ("deal", "packets"),
                f"the deal lays {talon} cards in a talon but no `talon` section says where they go",
            )
        if self.deck is not None and dealt != len(self.deck):
            self.problem(
                ("deal", "packets"),
                f"the deal does not add up: it deals {dealt} cards"
                f" but the pack has {len(self.deck)}",
            )
        return tuple(steps)

    def _check_hand_sizes(self, packets, players: int, discards: tuple[int, int]) -> None:
        dealer = sum(s.rounds * s.dealer for s in packets) - discards[0]
        others = sum(s.rounds * s.others for s in packets) - discards[1]
        if dealer < 0 or others < 0:
            self.problem(
                ("discard", "counts"),
                "more cards to discard than are dealt: the dealer would keep "
                f"{dealer} cards and the others {others}",
            )
            return
        if players > 1 and dealer != others:
            self.problem(
                ("discard", "counts"),
                f"after discarding the dealer holds {dealer} "
                f"cards and the others {others}; tricks need equal hands",
            )

    # --- expressions -------------------------------------------------------------------

    def environment(
        self, event: str, amount: bool = False, extra: dict[str, Type] | None = None
    ) -> Environment:
        variables = {**variables_for(event, amount, self.bidding), **(extra or {})}
        at_settlement = variables_for("settlement", False, self.bidding)
        defined = all(name in variables for name in at_settlement)
        return Environment(
            variables=variables,
            card_sets=self.deck.sets if self.deck else {},
            options=self.option_values,
            params=self.params,
            facts={**self.facts, **self.seat_functions} if defined else self.facts,
            named=self.named if defined else {},
            contract_values=self.contract_values if event not in BEFORE_TAKER else frozenset(),
            cards=len(self.deck) if self.deck else 0,
            seats=self.seats,
        )

    def expression(
        self,
        parts: tuple,
        value: object,
        event: str,
        expected: Type | None,
        amount: bool = False,
        extra: dict[str, Type] | None = None,
    ):
        if isinstance(value, bool) or isinstance(value, int | float):
            if expected == Type.BOOL and not isinstance(value, bool):
                self.problem(parts, f"expected true, false or a condition, got {value!r}")
            elif not isinstance(value, bool) and not abs(value) <= MAX_NUMBER:  # nan too
                self.problem(parts, f"the number {describe(value)} is out of range: {RANGE_RULE}")
            return _Constant(value)
        if not isinstance(value, str):
            self.problem(parts, f"expected an expression, got {value!r}")
            return _Constant(None)
        try:
            compiled = compile_expression(value, self.environment(event, amount, extra), expected)
        except ExpressionError as error:
            if not any(f"'{name}'" in error.message for name in self.left_out_names):
                self.problem(parts, error.message, self._inside(parts, error))
            return _Constant(None)
        if compiled.options:
            self.option_reads[parts] = self.option_reads.get(parts, frozenset()) | compiled.options
        if parts[0] != "definitions":  # a definition is counted in the rules using it
            times = evaluations_per_hand(event, len(self.deck or ()), self.seats)
            if parts == ("game", "claim_during_play"):  # after each trick
                times = len(self.deck or ())
            self.hand_steps.append(
                (compiled.cost, times * self.seats**2 if amount else times, parts)
            )
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

    def _condition(self, parts: tuple, value: object, event: str):
        return None if value is None else self.expression(parts, value, event, Type.BOOL)

    def _seats(self, parts: tuple, value: str, event: str):
        compiled = self.expression(parts, value, event, None)
        kind = getattr(compiled, "type", None)
        if kind is not None and kind not in (Type.SEAT, Type.SEATS):
            self.problem(parts, f"expected a seat or seats, got {kind.name}")
        return compiled

    def _inside(self, parts: tuple, error: ExpressionError) -> Position | None:
        """The file position of a point inside an expression string."""
        if parts not in self.provenance:
            return self.at(parts)
        return self.merged.position_in_scalar(parts, error.line, error.column)

    # --- sections ----------------------------------------------------------------------

    def _rule(self, where: tuple, rule: dict, event: str) -> PaymentRule:
        return PaymentRule(
            id=rule["id"],
            name=rule.get("name", rule["id"]),
            on=event,
            when=self._condition(where + ("when",), rule.get("when"), event),
            payers=self._seats(where + ("from",), rule["from"], event),
            payees=self._seats(where + ("to",), rule["to"], event),
            amount=self.expression(
                where + ("amount",), rule["amount"], event, Type.NUMBER, amount=True
            ),
            source=_source_text(rule.get("source")),
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
                    source=_source_text(entry.get("source")),
                    timing=entry.get("timing"),
                    paid_when_declared=bool(entry.get("paid_when_declared", True)),
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
                    ),
                )
            )
        return tuple(compiled)

    def _optional(self, where: tuple, text: object, kind: Type):
        """A declaration level's optional expression, compiled when it is there."""
        event = "declaration_shown" if where[-1] == "shows" else "declaration"
        return None if text is None else self.expression(where, text, event, kind)

    def _play(self) -> PlayRules:
        play = self.data["play"]
        excuse = play.get("excuse", {})
        may_lead = self._condition(
            ("play", "excuse", "may_lead"), excuse.get("may_lead", True), "static"
        )
        return PlayRules(
            first_leader=play.get("first_leader", "after_dealer"),
            follow_suit=bool(play.get("follow_suit", True)),
            trump_when_void=bool(play.get("trump_when_void", True)),
            trump_when_trump_led=bool(play.get("trump_when_trump_led", True)),
            overtrump=bool(play.get("overtrump", False)),
            fool_may_lead=bool(may_lead(None)) if may_lead is not None else True,
            fool_in_last_trick=excuse.get("in_last_trick", "captured"),
            fool_wins_last_trick_after_all=bool(excuse.get("wins_last_trick_after_all", False)),
            excuse_exchange=self._excuse_exchange(excuse.get("exchange")),
            excuse_cards=None
            if "cards" not in excuse
            else self.expression(("play", "excuse", "cards"), excuse["cards"], "play", Type.CARDS),
        )

    def _excuse_exchange(self, spec: dict | None) -> ExcuseExchange | None:
        if spec is None:
            return None
        where = ("play", "excuse", "exchange")
        return ExcuseExchange(
            cards=self.expression(where + ("cards",), spec["cards"], "trick_end", Type.CARDS),
            unpaid=spec.get("unpaid", "nothing"),
            taken_from=spec.get("from", "pile"),
        )

    def _counting(self) -> Counting:
        counting = self.data["counting"]
        values = [0.0] * (len(self.deck) if self.deck else 0)
        for i, entry in enumerate(counting.get("values", [])):
            members = self.deck.sets.get(entry["set"]) if self.deck else None
            if members is None:
                self.problem(("counting", "values", i, "set"), f"unknown card set {entry['set']!r}")
                continue
            for card in members:
                if not values[card]:
                    values[card] = entry["value"]
        group = counting.get("group_size", 1)
        credit = tuple(counting.get("partial_group_credit", [0] * (group - 1)))
        if len(credit) != group - 1:
            self.problem(
                ("counting", "partial_group_credit"),
                f"needs {group - 1} entries (one per possible leftover), has {len(credit)}",
            )
        method = counting.get("method", "groups")
        return Counting(tuple(values), group, credit, method)

    # --- talon, auction, partner, redeals, definitions ---------------------------------

    def _talon_use(self, where: tuple, spec: dict | None) -> TalonUse | None:
        if spec is None:
            return None
        to = spec.get("to", "out_of_play")
        seat = spec.get("seat")
        if to not in ("out_of_play", "stock") and seat is None:
            self.problem(where, f"a talon that goes to a {to} needs `seat`: whose {to}")
        return TalonUse(
            to=to,
            seat=None if seat is None else self._seats(where + ("seat",), seat, "talon"),
            shown=bool(spec.get("shown", False)),
        )

    def _bidding(self) -> Bidding | None:
        spec = self.data.get("bidding")
        if spec is None:
            return None
        contracts = spec.get("contracts", [])
        keys = [frozenset(c.get("values", {})) for c in contracts]
        self.contract_values = frozenset.union(*keys) if keys else frozenset()
        for i, contract in enumerate(contracts):
            missing = sorted(self.contract_values - keys[i])
            if missing:
                self.problem(
                    ("bidding", "contracts", i, "values"),
                    f"contract {contract['id']!r} gives no value for "
                    + ", ".join(missing)
                    + " (every contract must give the same values)",
                )
        return Bidding(
            contracts=tuple(
                Contract(
                    id=contract["id"],
                    name=contract.get("name", contract["id"]),
                    values=dict(contract.get("values", {})),
                    talon=self._talon_use(
                        ("bidding", "contracts", i, "talon"), contract.get("talon")
                    ),
                    source=_source_text(contract.get("source")),
                )
                for i, contract in enumerate(contracts)
            ),
            source=_source_text(spec.get("source")),
        )

    def _partner_call(self) -> PartnerCall | None:
        spec = self.data.get("partner_call")
        if spec is None:
            return None
        if not self.bidding:
            self.problem(("partner_call",), "a partner call needs a taker: add a `bidding` section")
            return None
        return PartnerCall(
            when=self._condition(("partner_call", "when"), spec.get("when", True), "call"),
            cards=self.expression(("partner_call", "cards"), spec["cards"], "call", Type.CARDS),
            source=_source_text(spec.get("source")),
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
                    source=_source_text(spec.get("source")),
                )
            )
        return tuple(rules)

    def _hand_score(self):
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
        elif getattr(score, "cost", 0) > HAND_SCORE_BUDGET:
            self.problem(
                where,
                f"the hand score could take about {score.cost:,} steps, over its limit of"
                f" {HAND_SCORE_BUDGET:,} (every total() works it out): make it simpler",
            )
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
            source=_source_text(spec.get("source")),
        )

    def _definitions(self) -> None:
        """Named values, each compiled where the settlement is and usable by the ones after
        it and by every rule that sees at least what the settlement sees. The engine computes
        each once per state of the hand (see `_remembered`)."""
        for section, prefix in (("options", "option"), ("parameters", "param")):
            for name in self.data.get(section, {}):
                if name in KEYWORDS:
                    self.problem(
                        (section, name),
                        f"{name!r} is a word of the expression language: {prefix}.{name}"
                        " could not be written; choose another name",
                    )
        definitions = self.data.get("definitions", {})
        for name, spec in definitions.items():
            where = ("definitions", name)
            if where in self.broken:
                self.left_out_names.add(name)
                continue
            taken = self._taken(name, "")
            if taken:
                self.problem(where, taken)
                continue
            seat_name = spec.get("of_seat")
            taken = self._taken(seat_name, " for the seat") if seat_name else ""
            if seat_name in definitions or taken:
                self.problem(
                    where + ("of_seat",),
                    taken or f"{seat_name!r} is a definition's name; choose another for the seat",
                )
                continue
            extra = {seat_name: Type.SEAT} if seat_name else None
            compiled = self.expression(
                where + ("value",), spec["value"], "settlement", None, extra=extra
            )
            if not isinstance(compiled, CompiledExpression):
                continue
            if seat_name:
                self.seat_functions[name] = FactFunction(
                    (Type.SEAT,),
                    compiled.type,
                    _seat_function(compiled, seat_name, name),
                    options=compiled.options,
                    memo={**compiled.memo, name: compiled.own_cost * (self.seats + 1)},
                    calls=compiled.calls,
                )
            else:
                self.named[name] = _remembered(compiled, name)

    @property
    def seats(self) -> int:
        """The player count; where the players section is broken (already reported), a
        typical count, so that the later checks can still estimate costs."""
        players = self.data.get("players")
        count = players.get("count") if isinstance(players, dict) else None
        return count if type(count) is int and 1 <= count <= 8 else 4

    def _taken(self, name: str, what: str) -> str:
        """Why `name` cannot name a definition (or, with `what`, its seat): empty if it can."""
        if name in KEYWORDS or name in BUILTIN_NAMES or name in ("option", "param"):
            return f"{name!r} is a word of the expression language; choose another name{what}"
        context = {n for event in EVENT_VARIABLES for n in variables_for(event, True, True)}
        if name in context or name in FACTS or name in (self.deck.sets if self.deck else ()):
            return f"{name!r} is already a name in rulesets; choose another{what}"
        return ""


def _remembered(compiled: CompiledExpression, name: str) -> CompiledExpression:
    """A definition computed once per state of the hand: later uses read the value back
    (the engine forgets it whenever the state changes)."""

    def fn(scope):
        return scope.state.remember(name, lambda: compiled(scope))

    return replace(compiled, fn=fn)


def _seat_function(compiled: CompiledExpression, seat_name: str, name: str):
    """A definition `of_seat` as a game fact: called with a seat, it evaluates with that seat
    standing for `seat_name`, once per seat and state of the hand."""

    def evaluate(state, seat):
        return state.remember((name, seat), lambda: state.evaluate(compiled, {seat_name: seat}))

    return evaluate


def _source_text(source: object) -> str:
    if source is None:
        return ""
    return source if isinstance(source, str) else ", ".join(source)


def _selectors(spec: dict):
    for i, selector in enumerate(spec.get("removed", [])):
        yield ("deck", "removed", i), selector
    for name, selector in spec.get("card_sets", {}).items():
        yield ("deck", "card_sets", name), selector


def _all_values(selector: dict, key: str) -> list:
    found = list(selector.get(key, []))
    for part in selector.get("any_of", []):
        found += _all_values(part, key)
    return found
