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
from functools import cache
from pathlib import Path

from interpreter import paths
from interpreter.cards import Deck, build_deck, set_dependencies
from interpreter.engine.contexts import BEFORE_TAKER, FACTS, variables_for
from interpreter.errors import Position, Problem, RulesetError, json_path
from interpreter.expressions import (
    Environment,
    ExpressionError,
    FactFunction,
    Type,
    compile_expression,
)
from interpreter.loading.inheritance import MergedDocument, resolve
from interpreter.loading.schema_check import check_schema
from interpreter.ruleset import (
    Bidding,
    Contract,
    Counting,
    Declaration,
    DeclarationLevel,
    ExcuseExchange,
    GameRules,
    PacketStep,
    PartnerCall,
    PaymentRule,
    PlayRules,
    RedealRule,
    Ruleset,
    TalonUse,
)


@cache
def load_schema(name: str) -> dict:
    return json.loads((paths.schemas_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))


def locate(spec: str | Path) -> Path:
    """A built-in ruleset name or a path to a YAML file."""
    if not str(spec):
        raise RulesetError([Problem(None, "$", "an empty ruleset name: give a name or a file")])
    path = Path(spec)
    try:
        exists = path.exists()
    except OSError as error:  # a name too long, a loop of links: no file by that name
        raise RulesetError([Problem(None, "$", f"{spec}: {error.strerror}")]) from error
    if path.is_dir():
        raise RulesetError([Problem(None, "$", f"{spec} is a folder, not a ruleset file")])
    if path.suffix in (".yaml", ".yml") or exists:
        if not path.is_file():
            raise RulesetError([Problem(None, "$", f"no ruleset file at {spec}")])
        return path
    found = paths.find_builtin(str(spec))
    if found is None:
        names = ", ".join(paths.list_builtins())
        raise RulesetError(
            [Problem(None, "$", f"no built-in ruleset named {spec!r}; built-in: {names}")]
        )
    return found


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
    problems = check_schema(
        merged.data, merged.provenance, load_schema("ruleset"), merged.key_provenance
    )
    if problems:
        raise RulesetError(problems)
    builder = _Builder(path, merged, dict(choices or {}))
    ruleset = builder.build()
    if builder.problems:
        raise RulesetError(sorted(builder.problems, key=_problem_order))
    return ruleset


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
        self.named: dict[str, object] = {}
        self.seat_functions: dict[str, FactFunction] = {}

    # --- problems and positions --------------------------------------------------------

    def at(self, parts: tuple) -> Position | None:
        return self.merged.position(parts)

    def problem(self, parts: tuple, message: str, position: Position | None = None) -> None:
        self.problems.append(Problem(position or self.at(parts), json_path(parts), message))

    # --- the whole ruleset -------------------------------------------------------------

    def build(self) -> Ruleset | None:
        data = self.data
        self._options()
        self._params()
        self._substitute_options(data, ())
        if not self.problems:
            # a reading's value now stands where `{option: X}` stood: it must fit there too
            for problem in check_schema(data, self.provenance, load_schema("ruleset")):
                self.problems.append(
                    Problem(
                        problem.position,
                        problem.path,
                        f"{problem.message} (with the options' chosen readings)",
                    )
                )
        if self.problems:
            return None
        self._check_sources(data, ())
        players = data["players"]["count"]
        self.deck = self._deck()
        if self.deck is None:
            return None
        packets = self._packets(players)
        discard = data.get("discard", {})
        counts = discard.get("counts", {"dealer": 0, "others": 0})
        self._check_hand_sizes(packets, players, (counts["dealer"], counts["others"]))
        bidding = self._bidding()
        self._definitions()
        ruleset = Ruleset(
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
            discard_counts=(counts["dealer"], counts["others"]),
            discard_forbidden=self._condition(
                ("discard", "forbidden"), discard.get("forbidden"), "discard_check"
            ),
            discard_never=self._condition(
                ("discard", "never"), discard.get("never"), "discard_check"
            ),
            discard_shown=self._condition(
                ("discard", "shown"), discard.get("shown"), "discard_check"
            ),
            declarations=self._declarations(),
            declarations_maximal=bool(data.get("declarations", {}).get("maximal", True)),
            declaration_timing=data.get("declarations", {}).get("timing", "before_play"),
            play=self._play(),
            payments=self._payments(),
            settlement=self._settlement(),
            counting=self._counting(),
            talon=self._talon_use(("talon",), data.get("talon")),
            bidding=bidding,
            partner_call=self._partner_call(),
            redeals=self._redeals(),
            hand_score=self._hand_score(),
            game=self._game(),
            options=self.chosen,
            sources={k: v.get("citation", "") for k, v in data.get("sources", {}).items()},
            document=data,
            written=self.written,
        )
        return None if self.problems else ruleset

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
        if parts == ("options",):
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
        if self.problems:
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
            facts={**FACTS, **self.seat_functions} if defined else FACTS,
            named=self.named if defined else {},
            contract_values=self.contract_values if event not in BEFORE_TAKER else frozenset(),
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
            return _Constant(value)
        if not isinstance(value, str):
            self.problem(parts, f"expected an expression, got {value!r}")
            return _Constant(None)
        try:
            return compile_expression(value, self.environment(event, amount, extra), expected)
        except ExpressionError as error:
            self.problem(parts, error.message, self._inside(parts, error))
            return _Constant(None)

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
        )

    def _settlement(self) -> tuple[PaymentRule, ...]:
        rules = self.data.get("settlement", [])
        return tuple(self._rule(("settlement", i), r, "settlement") for i, r in enumerate(rules))

    def _payments(self) -> dict[str, tuple[PaymentRule, ...]]:
        by_event: dict[str, list[PaymentRule]] = {}
        for i, rule in enumerate(self.data.get("payments", [])):
            by_event.setdefault(rule["event"], []).append(
                self._rule(("payments", i), rule, rule["event"])
            )
        return {event: tuple(rules) for event, rules in by_event.items()}

    def _declarations(self) -> tuple[Declaration, ...]:
        section = self.data.get("declarations", {})
        compiled = []
        for i, entry in enumerate(section.get("table", [])):
            where = ("declarations", "table", i)
            levels = tuple(
                DeclarationLevel(
                    id=level["id"],
                    when=self.expression(
                        where + ("levels", j, "when"), level["when"], "declaration", Type.BOOL
                    ),
                    value=self.expression(
                        where + ("levels", j, "value"), level["value"], "declaration", Type.NUMBER
                    ),
                )
                for j, level in enumerate(entry.get("levels", []))
            )
            shows = entry.get("shows")
            compiled.append(
                Declaration(
                    id=entry["id"],
                    name=entry.get("name", entry["id"]),
                    levels=levels,
                    shows=None
                    if shows is None
                    else self.expression(where + ("shows",), shows, "declaration", Type.CARDS),
                    payers=self._seats(
                        where + ("from",), entry.get("from", "opponents(player)"), "declaration"
                    ),
                    payees=self._seats(where + ("to",), entry.get("to", "player"), "declaration"),
                    source=_source_text(entry.get("source")),
                    timing=entry.get("timing"),
                    paid_when_declared=bool(entry.get("paid_when_declared", True)),
                )
            )
        return tuple(compiled)

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
        if to != "out_of_play" and seat is None:
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
        return self.expression(("hand_score", "value"), spec["value"], "hand_score", Type.NUMBER)

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
        it and by every rule that sees at least what the settlement sees."""
        taken = set(self.deck.sets if self.deck else ()) | set(FACTS)
        taken |= set(variables_for("trick_end", True, self.bidding))
        for name, spec in self.data.get("definitions", {}).items():
            where = ("definitions", name)
            if name in taken:
                self.problem(where, f"{name!r} is already a name in rulesets; choose another")
                continue
            seat_name = spec.get("of_seat")
            extra = {seat_name: Type.SEAT} if seat_name else None
            compiled = self.expression(
                where + ("value",), spec["value"], "settlement", None, extra=extra
            )
            kind = getattr(compiled, "type", None)
            if kind is None:
                continue
            if seat_name:
                self.seat_functions[name] = FactFunction(
                    (Type.SEAT,), kind, _seat_function(compiled, seat_name)
                )
            else:
                self.named[name] = compiled


def _seat_function(compiled, seat_name: str):
    """A definition `of_seat` as a game fact: called with a seat, it evaluates with that seat
    standing for `seat_name`."""

    def evaluate(state, seat):
        return state.evaluate(compiled, {seat_name: seat})

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
