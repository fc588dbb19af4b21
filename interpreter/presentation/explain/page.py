"""A ruleset as a rules page: its rules in the order a player learns the game, each in plain
words with its source, then its options with every reading, its parameters, its assumptions
and the full citation of each source.

Where it sits: after loading (`tarot.compile.loader`), it reads the compiled
`Ruleset` (its effective document, the chosen readings, the options each place reads) and
builds a `Page`, which `tarot.presentation.explain.render` prints as text or Markdown for
`tarot explain`. Nothing here knows a game: every sentence comes from the ruleset's own data
(rule ids and names, `description`, `source`, `assumption`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from tarot.core.ruleset import Ruleset
from tarot.expressions.numbers import exact
from tarot.presentation.explain import flow_words, words
from tarot.presentation.explain.lasting_page import Written, lasting_rules, show_rules
from tarot.presentation.explain.questions_page import question_rules
from tarot.presentation.explain.words import code, setting


@dataclass
class Rule:
    """One rule in plain words, with where it is written and what it rests on."""

    title: str
    lines: list[str]
    sources: list[str]
    path: tuple  # where in the ruleset's document it is written
    inner: tuple[tuple, ...] = ()  # parts under `path` that are rules of their own
    options: list[str] = field(default_factory=list)  # the options it reads
    assumption: int | None = None  # its number in the page's list of assumptions


@dataclass
class Section:
    title: str
    rules: list[Rule]


@dataclass
class Reading:
    name: str
    value: object
    description: str
    sources: list[str]
    in_force: bool
    default: bool
    assumption: int | None = None


@dataclass
class Option:
    name: str
    description: str
    readings: list[Reading]
    read_by: list[str]  # titles of the rules that read it


@dataclass
class Parameter:
    name: str
    value: object
    description: str
    sources: list[str]
    assumption: int | None = None


@dataclass
class Assumption:
    number: int
    where: str  # the rule, reading or parameter it belongs to
    text: str


@dataclass
class Page:
    title: str
    ruleset: str
    about: list[str]  # period, description
    sections: list[Section]
    options: list[Option]
    parameters: list[Parameter]
    assumptions: list[Assumption]
    sources: list[tuple[str, str, str]]  # key, citation, url


_PENDING = "\x00"  # around a part's assumption not numbered yet, in a line of a rule


def explain_page(ruleset: Ruleset) -> Page:
    """The rules page of a loaded ruleset (with the readings it was loaded with)."""
    return _PageBuilder(ruleset).build()


def _cited(sources: list[object]) -> list[str]:
    """Every source key the steps cite, once each, in order."""
    keys: list[str] = []
    for source in sources:
        keys += [key for key in source_keys(source) if key not in keys]  # type: ignore[arg-type]
    return keys


def _cited_parts(node: object, path: tuple) -> Iterator[tuple[tuple, Mapping]]:
    """Every mapping at or under `node` (written at `path`) that has a `source` or an
    `assumption`, with its path, in the order written."""
    if isinstance(node, Mapping):
        if "source" in node or "assumption" in node:
            yield path, node
        for key, value in node.items():
            yield from _cited_parts(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _cited_parts(value, (*path, index))


def source_keys(source: str | Iterable[object] | None) -> list[str]:
    if source is None:
        return []
    return [source] if isinstance(source, str) else [str(key) for key in source]


class _PageBuilder:
    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.doc: Mapping = ruleset.document
        self.assumptions: list[Assumption] = []
        self.parts_said: set[tuple] = set()  # parts whose source a rule's line has said
        self.pending: list[tuple[str, object]] = []  # parts' assumptions the next rule numbers

    def build(self) -> Page:
        doc = self.doc
        sections = [
            Section("Players and pack", [*self._players(), *self._deck()]),
            Section("The order of the hand", [self._flow()]),
            Section("The deal", [*self._deal(), *self._redeals()]),
            Section("The talon and the discards", [*self._talon(), *self._discard()]),
            Section(
                "Bidding and calls",
                [
                    *self._bidding(),
                    *self._partner_call(),
                    *self._announcements(),
                    *self._doubling(),
                ],
            ),
            Section("Declarations", list(self._declarations())),
            Section("Play of the cards", list(self._play())),
            Section("Counting the cards", list(self._counting())),
            Section("Payments and settlement", list(self._payments())),
            Section("The game", list(self._game())),
            Section("Cards shown to all", self._written(show_rules(doc))),
            Section("Between hands", self._written(lasting_rules(doc))),
            Section("Questions during play", self._written(question_rules(doc))),
        ]
        sections = [section for section in sections if section.rules]
        for section in sections:
            for rule in section.rules:
                rule.options = self._options_read(rule)
        about = [doc[key] for key in ("period", "description") if doc.get(key)]
        options = list(self._options(sections))
        parameters = list(self._parameters())
        return Page(
            title=doc.get("title", self.ruleset.id),
            ruleset=self.ruleset.id,
            about=[" ".join(str(text).split()) for text in about],
            sections=sections,
            options=options,
            parameters=parameters,
            assumptions=self.assumptions,
            sources=[
                (key, " ".join(spec.get("citation", "").split()), spec.get("url", ""))
                for key, spec in doc.get("sources", {}).items()
            ],
        )

    # --- plumbing ------------------------------------------------------------------------

    def rule(
        self,
        title: str,
        lines: list[str],
        path: tuple,
        node: Mapping | None = None,
        inherit: str | Iterable[object] | None = None,
        inner: tuple[tuple, ...] = (),
    ) -> Rule:
        """A rule written at `path`; its source and assumption are `node`'s (the source
        falling back to `inherit`, the source of the section around it)."""
        node = node or {}
        description = node.get("description")
        if description:
            lines = [" ".join(str(description).split()), *lines]
        sources = source_keys(node.get("source")) or source_keys(inherit)
        rule = Rule(title, lines, sources, path, inner)
        rule.assumption = self.assume(title, node.get("assumption"))
        rule.lines += self._unsaid_parts(rule)
        for index, (where, text) in enumerate(self.pending):
            marker = f"{_PENDING}{index}{_PENDING}"
            number = str(self.assume(where, text))
            rule.lines = [line.replace(marker, number) for line in rule.lines]
        self.pending.clear()
        return rule

    def part(self, line: str, node: Mapping, path: tuple, where: str) -> str:
        """`line`, a sentence about a part of a rule written at `path` (a contract's talon, an
        entry of a table), with the part's own source and assumption said before its last
        full stop: `... (source: KEY; assumption 3).`"""
        self.parts_said.add(path)
        notes = []
        keys = source_keys(node.get("source"))
        if keys:
            notes.append(f"source: {', '.join(keys)}")
        if node.get("assumption"):  # numbered by `rule`, after the rule's own
            notes.append(f"assumption {_PENDING}{len(self.pending)}{_PENDING}")
            self.pending.append((where, node["assumption"]))
        if not notes:
            return line
        body, stop = (line[:-1], line[-1]) if line[-1:] in (".", ":") else (line, "")
        return f"{body} ({'; '.join(notes)}){stop}"

    def _unsaid_parts(self, rule: Rule) -> list[str]:
        """A line for each part under the rule's place (not a rule of its own) that has a
        source or an assumption no line of the rule has said, so that every citation and
        assumption a ruleset writes appears with its rule."""
        node: object = self.doc
        for key in rule.path:
            try:
                node = node[key]  # type: ignore[index]
            except (KeyError, IndexError, TypeError):
                return []
        lines = []
        for path, part in _cited_parts(node, rule.path):
            if path == rule.path or path in self.parts_said:
                continue
            if any(path[: len(skip)] == skip for skip in rule.inner):
                continue
            name = ", ".join(
                f"entry {key + 1}" if isinstance(key, int) else key.replace("_", " ")
                for key in path[len(rule.path) :]
            )
            lines.append(self.part(f"Its part {name}.", part, path, f"{rule.title}, {name}"))
        return lines

    def assume(self, where: str, text: object) -> int | None:
        if not text:
            return None
        number = len(self.assumptions) + 1
        self.assumptions.append(Assumption(number, where, " ".join(str(text).split())))
        return number

    def _options_read(self, rule: Rule) -> list[str]:
        found: set[str] = set()
        for parts, options in self.ruleset.option_reads.items():
            inside = parts[: len(rule.path)] == rule.path
            if inside and not any(parts[: len(skip)] == skip for skip in rule.inner):
                found |= options
        return sorted(found)

    # --- players and pack ------------------------------------------------------------------

    def _players(self) -> Iterator[Rule]:
        spec = self.doc["players"]
        direction = spec.get("direction", "clockwise")
        line = f"{spec['count']} players; the deal and the play pass {direction}."
        lines = [line]
        sit_out = spec.get("sit_out")
        if sit_out is not None:
            who = sit_out.get("seats")
            pays = (
                "pays and is paid, for each rule and each seat of the taker's side, the"
                " defenders' average share of what the rule moved between that seat and the"
                " defenders (as a defender)"
                if sit_out.get("pays") == "as_defender"
                else "pays and is paid nothing"
            )
            lines.append(
                self.part(
                    f"{sit_out['in_hand']} of them play each hand; the others sit it out: "
                    + ("the dealer" if who is None else f"the seats {code(who)}")
                    + f". A seat sitting out is dealt no cards and has no say, and {pays};"
                    " the deal still passes round every seat at the table.",
                    sit_out,
                    ("players", "sit_out"),
                    "Seats sitting a hand out",
                )
            )
        yield self.rule("Players", lines, ("players",), spec)

    def _deck(self) -> Iterator[Rule]:
        spec = self.doc["deck"]
        deck = self.ruleset.deck
        suits = [
            f"{suit['name']}"
            + (" (pips inverted: 1 highest)" if suit.get("pips") == "inverted" else "")
            for suit in spec.get("suits", [])
        ]
        lines = [f"{len(deck)} cards."]
        if suits:
            courts = words.listing(spec.get("courts", [])) or "no courts"
            lines.append(
                f"Suits: {words.listing(suits)}; each with {courts}"
                f" and pips 1 to {spec.get('pips', 0)}."
            )
        if spec.get("trumps"):
            lines.append(f"Trumps numbered 1 to {spec['trumps']}, the higher beating the lower.")
        trump_order = words.trump_order(spec)
        if spec.get("fool") and not spec.get("trump_order", {}).get("fool") == "highest":
            lines.append("The Fool.")
        lines += trump_order
        for removed in spec.get("removed", []):
            lines.append(f"Taken out of the pack: {words.selector(removed)}.")
        yield self.rule("The pack", lines, ("deck",), spec, inner=(("deck", "card_sets"),))
        sets = []
        for name, selector in spec.get("card_sets", {}).items():
            members = sorted(deck.sets.get(name, ()))
            shown = ""
            if len(members) <= 8:
                shown = ": " + ", ".join(deck.cards[card].id for card in members)
            sets.append(f"{name} ({len(members)}): {words.selector(selector)}{shown}")
        if sets:
            yield Rule(
                "Named sets of cards", sets, source_keys(spec.get("source")), ("deck", "card_sets")
            )

    # --- the deal --------------------------------------------------------------------------

    def _deal(self) -> Iterator[Rule]:
        spec = self.doc["deal"]
        players = self.ruleset.in_hand  # the seats dealt to, those sitting out left out
        passing = (
            "the same player deals every hand."
            if spec.get("next_dealer") == "same"
            else "the deal passes to the next player each hand."
        )
        draw = spec.get("first_dealer_draw")
        lines = (
            [f"Seat {spec.get('first_dealer', 0) % players} deals first; {passing}"]
            if draw is None
            else [
                self.part(
                    "The first dealer is drawn for: each player, from seat 0, draws a card from"
                    f" the shuffled pack; the {draw.get('deals', 'highest')} rank by"
                    f" {code(draw['rank'])} deals first, and players tied for it draw again.",
                    draw,
                    ("deal", "first_dealer_draw"),
                    "The first dealer drawn for",
                ),
                passing[0].upper() + passing[1:],
            ]
        )
        cut = spec.get("cut")
        if cut:
            shown = ", shown to all," if cut.get("shown") else ""
            lines.append(
                f"The pack is cut; its {cut.get('card', 'bottom')} card{shown} goes to the"
                f" {cut.get('goes_to', 'dealer')}."
            )
        for step in spec.get("packets", []):
            lines.append("Dealt " + words.packet_step(step, players) + ".")
        packets = self.ruleset.packets
        dealer = sum(step.rounds * step.dealer for step in packets)
        others = sum(step.rounds * step.others for step in packets)
        talon = sum(step.rounds * step.talon for step in packets)
        piles = sum(step.rounds * step.piles for step in packets)
        held = (
            f"Each player is dealt {dealer} cards"
            if dealer == others or players == 1
            else f"The dealer is dealt {dealer} cards and each other player {others}"
        )
        held += f", and {piles} more on his piles" if piles else ""
        held += f"; the talon has {talon}." if talon else "."
        lines.append(held)
        if "redeal_by" in spec:
            lines.append(f"A deal thrown in is dealt again by {setting(spec['redeal_by'])}.")
        yield self.rule("Dealing", lines, ("deal",), spec)

    def _flow(self) -> Rule:
        """The hand's steps in order, as the ruleset's flow (or its sections) gives them."""
        written = self.doc.get("flow")
        lines = [
            f"{i}. {flow_words.step_line(step, self.ruleset, i - 1)}"
            for i, step in enumerate(self.ruleset.flow, 1)
        ]
        lines.append(f"{len(lines) + 1}. The settlement.")
        if written is None:
            lines.insert(0, "No `flow` is written: the hand goes in the order its sections imply.")
        sources = [
            entry[next(iter(entry))].get("source")
            for entry in written or []
            if isinstance(entry, Mapping) and isinstance(entry[next(iter(entry))], Mapping)
        ]
        for i, entry in enumerate(written or []):
            if isinstance(entry, Mapping):
                self.parts_said.add(("flow", i, next(iter(entry))))
        rule = self.rule("The hand, step by step", lines, ("flow",), {}, _cited(sources))
        for i, entry in enumerate(written or []):
            settings = entry[next(iter(entry))] if isinstance(entry, Mapping) else None
            if isinstance(settings, Mapping) and settings.get("assumption"):
                number = self.assume(f"flow step {i + 1}", settings["assumption"])
                rule.lines[i] += f" (assumption {number})"
        return rule

    def _redeals(self) -> Iterator[Rule]:
        for i, spec in enumerate(self.doc.get("redeal", [])):
            who = (
                "the player may ask for a new deal"
                if spec.get("choice")
                else "the deal is thrown in"
            )
            lines = [f"When {code(spec['when'])} holds for a player, {who}."]
            if "agreed_by" in spec:
                lines.append(
                    f"Only if every one of {code(spec['agreed_by'])} agrees, each asked in turn;"
                    " one refusal and the deal stands."
                )
            yield self.rule(spec.get("name", spec["id"]), lines, ("redeal", i), spec)

    # --- the talon and the discards ---------------------------------------------------------

    def _talon(self) -> Iterator[Rule]:
        spec = self.doc.get("talon")
        if spec is not None:
            line = f"When no auction decides it, the talon goes {words.talon_use(spec)}."
            yield self.rule("The talon", [line], ("talon",), spec)

    def _talon_to_hand(self) -> bool:
        uses = [self.doc.get("talon") or {}]
        uses += [c.get("talon") or {} for c in self.doc.get("bidding", {}).get("contracts", [])]
        return any(use.get("to") == "hand" for use in uses)

    def _discard(self) -> Iterator[Rule]:
        spec = self.doc.get("discard")
        if not spec:
            return
        counts = spec.get("counts", {})
        dealer, others = counts.get("dealer", 0), counts.get("others", 0)
        lines = (
            [f"The dealer discards {dealer} cards and each other player {others}."]
            if dealer or others
            else ["Nobody discards from the cards dealt."]
        )
        if self._talon_to_hand():
            lines.append("A player who takes the talon into his hand then discards as many cards.")
        if "scores_for" in spec:
            lines.append(f"The discards count for {setting(spec['scores_for'])}.")
        if "scored_by" in spec:
            lines.append(
                "Every discard counts, once play is over, for the first seat of"
                f" {code(spec['scored_by'])}, worked out then (for nobody before)."
            )
        if "never" in spec:
            lines.append(f"Never discarded while another card can go: {code(spec['never'])}.")
        if "forbidden" in spec:
            lines.append(f"Discarded only when nothing else can go: {code(spec['forbidden'])}.")
        if "shown" in spec:
            lines.append(f"Shown to all when discarded: {code(spec['shown'])}.")
        if "all_or_none" in spec:
            lines.append(
                f"Discarded all together or not at all: {code(spec['all_or_none'])} (none while"
                " the player holds more of them than cards to lay away; once one goes, the"
                " rest follow)."
            )
        if "told" in spec:
            lines.append(
                f"Once every discard is made, how many cards of {code(spec['told'])} each player"
                " laid away is told to all (the cards stay hidden)."
            )
        yield self.rule("Discards", lines, ("discard",), spec)

    # --- bidding and calls --------------------------------------------------------------------

    def _bidding(self) -> Iterator[Rule]:
        spec = self.doc.get("bidding")
        if spec is None:
            return
        names = [c.get("name", c["id"]) for c in spec.get("contracts", [])]
        first = f"`{spec['first']}`" if "first" in spec else "the player after the dealer"
        rounds = (
            "Bids go round and round until all but one have passed (a player who passed"
            " does not bid again),"
            if spec.get("rounds") == "until_one_left"
            else "One round of bids,"
        )
        lines = [
            f"{rounds} in order of play from {first}, each bid above the last or a pass;"
            f" from the lowest: {words.listing(names)}. The highest bidder is the taker; the"
            " others defend."
        ]
        if "hold" in spec:
            lines.append(f"{code(spec['hold'])} may hold: take the highest bid at its level.")
        if spec.get("winner_may_raise"):
            lines.append(
                "The last player left keeps his bid or names a higher contract; he may not pass."
            )
        lines += self._all_passed(spec)
        for i, compulsory in enumerate(spec.get("compulsory", [])):
            taker = f" with {code(compulsory['taker'])} as taker" if "taker" in compulsory else ""
            line = (
                f"When {code(compulsory['when'])}, {compulsory['contract']} is played{taker},"
                " without an auction."
            )
            where = ("bidding", "compulsory", i)
            lines.append(self.part(line, compulsory, where, "The auction, a compulsory contract"))
        yield self.rule("The auction", lines, ("bidding",), spec, inner=(("bidding", "contracts"),))
        for i, contract in enumerate(spec.get("contracts", [])):
            lines = []
            values = ", ".join(f"{k} {v}" for k, v in contract.get("values", {}).items())
            if values:
                lines.append(f"Values: {values}.")
            if _open_to_nobody(contract):
                lines.append("Open to no player: nobody bids it.")
            elif "open_to" in contract:
                lines.append(f"Only a player for whom {code(contract['open_to'])} may bid it.")
            if contract.get("only_when_all_passed") and not _open_to_nobody(contract):
                lines.append("Offered in turn only once every player has passed.")
            if "join" in contract:
                lines.append(_join_words(contract))
            where = ("bidding", "contracts", i)
            name = contract.get("name", contract["id"])
            if "talon" in contract:
                line = f"The talon goes {words.talon_use(contract['talon'])}."
                lines.append(
                    self.part(line, contract["talon"], (*where, "talon"), f"{name}, talon")
                )
            if "play" in contract:
                play = contract["play"]
                lines.append(
                    self.part("Its own play rules:", play, (*where, "play"), f"{name}, play")
                )
                lines += words.play_rules(play)
                lines += self._sides(play, (*where, "play"), name)
            yield self.rule(name, lines, where, contract, spec.get("source"))

    def _all_passed(self, spec: Mapping) -> list[str]:
        """What happens when every seat passes, said only where it can happen. A seat that
        speaks when every other has passed with no bid standing has the last word at once
        (`winner_may_raise`, in an auction round and round) where the ruleset names nothing
        played when all pass: it names a contract open to it, passing only when none is; with
        a contract open to every seat, nobody passes the deal out."""
        contracts = spec.get("contracts", [])
        forced = spec.get("all_passed")
        offered = [
            c.get("name", c["id"])
            for c in contracts
            if c.get("only_when_all_passed") and not _open_to_nobody(c)
        ]
        names = {c["id"]: c.get("name", c["id"]) for c in contracts}
        at_once = (
            spec.get("rounds") == "until_one_left"
            and bool(spec.get("winner_may_raise"))
            and forced is None
            and not offered
        )
        if at_once:
            lines = [
                "A player who speaks when every other has passed with no bid standing has the"
                " last word at once: he names a contract open to him, and may pass only when"
                " none is."
            ]
            open_to_all = [c.get("name", c["id"]) for c in contracts if "open_to" not in c]
            if open_to_all:
                listed = words.listing(open_to_all, "or")
                return [*lines, f"So the deal is never passed out: {listed} is open to him."]
            return [
                *lines,
                "If every player passes (the last to speak only with no contract open to him),"
                " the deal is thrown in.",
            ]
        if forced is None:
            outcome = "the deal is thrown in"
        else:
            taker = f" with {code(forced['taker'])} as taker" if "taker" in forced else ""
            alone = "" if taker else ", every player for himself"
            played = names.get(forced["contract"], forced["contract"])
            outcome = f"{played} is played{taker}{alone}"
        if offered:
            line = (
                f"If every player passes, {words.listing(offered)} is offered in turn to each"
                f" player it is open to; the first to take it plays it; if nobody does, {outcome}."
            )
        else:
            line = f"If every player passes, {outcome}."
        if forced is not None:
            line = self.part(line, forced, ("bidding", "all_passed"), "The auction, all passed")
        return [line]

    def _sides(self, play: Mapping, path: tuple, title: str) -> list[str]:
        """The sides a hand's play rules give (`sides`), with their source and assumption."""
        sides = play.get("sides")
        if not isinstance(sides, Mapping):
            return []
        line = (
            f"The seats that share their tricks, for each seat {sides.get('of_seat')}:"
            f" {code(sides.get('value'))}."
        )
        return [self.part(line, sides, (*path, "sides"), f"{title}, sides")]

    def _doubling(self) -> Iterator[Rule]:
        spec = self.doc.get("doubling")
        if spec is None:
            return
        steps = words.listing(spec["steps"])
        factor = spec.get("factor", 2)
        moment = (
            "In the round of announcements, a player on his turn may double each target"
            if spec.get("with_announcements")
            else "Before play, each target may be doubled"
        )
        lines = [
            f"{moment} ({steps}), the two sides taking turns;"
            f" each doubling multiplies the target by {factor}."
        ]
        repeat = spec.get("repeat")
        if repeat is not None:
            where = ("doubling", "repeat")
            lines.append(self.part(_repeat_words(repeat), repeat, where, "Doublings, repeated"))
        for i, target in enumerate(spec["targets"]):
            name = target.get("name", target["id"])
            line = f"{name}: {_who_doubles(target)}."
            lines.append(self.part(line, target, ("doubling", "targets", i), f"Doublings, {name}"))
        yield self.rule("Doublings", lines, ("doubling",), spec)

    def _announcements(self) -> Iterator[Rule]:
        spec = self.doc.get("announcements")
        if spec is None:
            return
        first = f"`{spec['first']}`" if "first" in spec else "the taker (or the dealer's next)"
        lines = [
            f"Before play, each player in turn from {first} may announce bonuses open to him,"
            " one at a time, then passes; a bonus announced by one of a side is closed to the"
            " rest of that side."
        ]
        if spec.get("rounds") == "until_all_pass":
            lines.append(
                "The turn comes round again until every player has passed in turn since the"
                " last thing said."
            )
        if "reopen" in spec:
            lines.append(
                f"Once a player announces a bonus, the announcements reopen to"
                f" {code(spec['reopen'])} (`player` is the announcer): each of them not already"
                " waiting to speak speaks again after him."
            )
        for i, bonus in enumerate(spec["table"]):
            parts = [bonus.get("name", bonus["id"])]
            if "by" in bonus:
                parts.append(f"by {code(bonus['by'])}")
            if "when" in bonus:
                parts.append(f"when {code(bonus['when'])}")
            if "keeps" in bonus:
                parts.append(
                    f"the announcer shows and keeps {code(bonus['keeps'])} for the last trick"
                )
            where = ("announcements", "table", i)
            lines.append(
                self.part("; ".join(parts) + ".", bonus, where, f"Announcements, {parts[0]}")
            )
        yield self.rule("Announcements", lines, ("announcements",), spec)

    def _partner_call(self) -> Iterator[Rule]:
        spec = self.doc.get("partner_call")
        if spec is None:
            return
        lines = [
            f"The taker names a card from {code(spec['cards'])}; its holder is his hidden"
            " partner, known when the card is played."
        ]
        if "when" in spec:
            lines.append(f"Only when {code(spec['when'])}.")
        if spec.get("after") == "discards":
            lines.append("The call is made once the talon is taken and every discard made.")
        yield self.rule("Calling a partner", lines, ("partner_call",), spec)

    # --- declarations ------------------------------------------------------------------------

    def _declarations(self) -> Iterator[Rule]:
        spec = self.doc.get("declarations")
        if not spec or not spec.get("table"):
            return
        lines = [f"Declarations are made {setting(spec.get('timing', 'before_play'))}."]
        if spec.get("maximal", True):
            lines.append("A player declares the highest level of a combination he holds.")
        else:
            lines.append("A player may declare a lower level than he holds.")
        yield self.rule(
            "Making declarations",
            lines,
            ("declarations",),
            spec,
            inner=(("declarations", "table"),),
        )
        for i, entry in enumerate(spec["table"]):
            lines = [
                f"{level['id'].replace('_', ' ')}: when {code(level['when'])},"
                f" worth {self.quantity(level['value'])}"
                + (
                    f" ({' '.join(level['description'].split())})"
                    if level.get("description")
                    else ""
                )
                + "."
                for level in entry.get("levels", [])
            ]
            payers = entry.get("from", "opponents(player)")
            payees = entry.get("to", "player")
            when = "when declared" if entry.get("paid_when_declared", True) else "at the settlement"
            lines.append(f"Paid {when} by {code(payers)} to {code(payees)}.")
            if entry.get("shows"):
                lines.append(f"The declarer shows {code(entry['shows'])}.")
            if entry.get("timing"):
                lines.append(f"Declared {setting(entry['timing'])}.")
            if entry.get("compulsory"):
                lines.append("Compulsory: declared by the rules whenever it holds, not chosen.")
            if entry.get("hands_over"):
                lines.append(words.hands_over(entry["hands_over"]))
            where = ("declarations", "table", i)
            yield self.rule(entry.get("name", entry["id"]), lines, where, entry, spec.get("source"))

    # --- play of the cards ---------------------------------------------------------------------

    def _play(self) -> Iterator[Rule]:
        spec = self.doc["play"]
        yes = {True: "must", False: "need not"}
        lines = [
            f"{words.leader(spec.get('first_leader', 'after_dealer'))} leads to the"
            " first trick; the winner of each trick leads to the next.",
            f"A player {yes[bool(spec.get('follow_suit', True))]} follow suit;"
            f" without the suit led he {yes[bool(spec.get('trump_when_void', True))]} trump;"
            f" when trumps are led he {yes[bool(spec.get('trump_when_trump_led', True))]}"
            " play a trump.",
            f"A player {yes[bool(spec.get('overtrump', False))]} play a higher trump than the"
            " trick holds when he can.",
            "The highest trump wins the trick, or without trumps the highest card of the suit led.",
            *words.play_rules(spec, with_leader=False),
            *self._sides(spec, ("play",), "Tricks"),
        ]
        for i, exception in enumerate(spec.get("winner_exceptions", [])):
            name = exception.get("name", exception["id"])
            line = (
                f"{name}: when {code(exception['when'])},"
                f" the first card of {code(exception['wins'])} played to the trick wins it."
            )
            where = ("play", "winner_exceptions", i)
            lines.append(self.part(line, exception, where, f"Tricks, {name}"))
        yield self.rule("Tricks", lines, ("play",), spec, inner=(("play", "excuse"),))
        excuse = spec.get("excuse")
        if not excuse:
            return
        lines = []
        if "cards" in excuse:
            lines.append(f"The cards that play as the Fool in a hand: {code(excuse['cards'])}.")
        lead = excuse.get("may_lead", True)
        lines.append(
            "The Fool may be led."
            if lead is True
            else "The Fool may not be led."
            if lead is False
            else f"The Fool may be led when {code(lead)}."
        )
        kept_by = setting(excuse.get("kept_by", "holder"))
        last = setting(excuse.get("in_last_trick", "captured"))
        lines.append(
            f"Played to a trick it does not win it, and goes to {kept_by};"
            f" played to the last trick it {last}."
        )
        if excuse.get("wins_last_trick_after_all"):
            lines.append(
                "Led to the last trick by a side that has won every other trick, it wins it."
            )
        yield self.rule(
            "The Fool",
            lines,
            ("play", "excuse"),
            excuse,
            spec.get("source"),
            inner=(("play", "excuse", "exchange"),),
        )
        exchange = excuse.get("exchange")
        if exchange:
            lines = [
                f"The Fool kept from a trick the other side won is paid for with a card of"
                f" {code(exchange['cards'])}, handed over as soon as the side has one, from"
                f" {setting(exchange.get('from', 'pile'))}.",
                f"If the side never has one: {setting(exchange.get('unpaid', 'nothing'))}.",
            ]
            yield self.rule(
                "Paying for the Fool",
                lines,
                ("play", "excuse", "exchange"),
                exchange,
                spec.get("source"),
            )

    # --- counting --------------------------------------------------------------------------------

    def _counting(self) -> Iterator[Rule]:
        spec = self.doc["counting"]
        values = "; ".join(f"{v['set']} {v['value']}" for v in spec.get("values", []))
        lines = [
            f"Each player counts {setting(spec.get('pile', 'tricks_and_discards'))}.",
            f"Card values (a card takes the first that names it; others 0): {values}.",
        ]
        if spec.get("method", "groups") == "sum":
            lines.append("Every card scores its value.")
        else:
            group = spec.get("group_size", 1)
            credit = spec.get("partial_group_credit", [])
            left = [
                f"{n} card{'s' if n > 1 else ''} left over {value}"
                for n, value in enumerate(credit, 1)
            ]
            lines.append(
                f"Counted in groups of {group}: each group scores its cards' values less one"
                " for each card, plus one."
                + (f" A last group short of {group} scores: {words.listing(left)}." if left else "")
            )
        yield self.rule("Card points", lines, ("counting",), spec)

    # --- payments and settlement -----------------------------------------------------------------

    def quantity(self, amount: object) -> str:
        """An amount as written, with the ruleset's unit (singular for a literal one)."""
        unit = self.ruleset.unit
        if isinstance(amount, int | float) and not isinstance(amount, bool):
            return f"{code(amount)} {unit.of(exact(amount))}"
        return f"{code(amount)} {unit.plural}"

    def _unit(self) -> Iterator[Rule]:
        unit = self.ruleset.unit
        spec = self.doc.get("unit")
        given = "" if spec else " (the ruleset names no `unit`: the default)"
        line = f"Results are counted in {unit.plural} (singular: {unit.singular}){given}."
        yield self.rule("The unit of the results", [line], ("unit",), spec)

    def _payments(self) -> Iterator[Rule]:
        yield from self._unit()
        for i, spec in enumerate(self.doc.get("payments", [])):
            yield self._payment(spec, ("payments", i), words.event(spec["event"]))
        for name, spec in self.doc.get("definitions", {}).items():
            of = f" (for a seat `{spec['of_seat']}`)" if spec.get("of_seat") else ""
            line = f"{name}{of} = {code(spec['value'])}."
            yield self.rule(f"Definition: {name}", [line], ("definitions", name), spec)
        spec = self.doc.get("hand_score")
        if spec:
            line = f"Each player scores {self.quantity(spec['value'])} in a hand."
            yield self.rule("The hand's score", [line], ("hand_score",), spec)
        for i, spec in enumerate(self.doc.get("settlement", [])):
            yield self._payment(spec, ("settlement", i), words.event("settlement"))

    def _payment(self, spec: Mapping, where: tuple, when: str) -> Rule:
        lines = [f"Paid {when}" + (f", if {code(spec['when'])}" if "when" in spec else "") + "."]
        lines.append(
            f"Each of {code(spec['from'])} pays each of {code(spec['to'])}"
            f" {self.quantity(spec['amount'])}."
        )
        return self.rule(spec.get("name", spec["id"]), lines, where, spec)

    # --- the game --------------------------------------------------------------------------------

    def _written(self, rules: Iterable[Written]) -> list[Rule]:
        return [self.rule(title, lines, path, node) for title, lines, path, node in rules]

    def _game(self) -> Iterator[Rule]:
        spec = self.doc.get("game")
        if spec is None:
            return
        lines = [
            f"Hands are played until {code(spec['ends_when'])} (at most"
            f" {spec.get('max_hands', 100)} hands); the winners are {code(spec['winners'])}."
        ]
        if spec.get("claim_during_play"):
            lines.append(f"After any trick, {code(spec['claim_during_play'])} may claim the game.")
        yield self.rule("The game", lines, ("game",), spec)

    # --- options, parameters ---------------------------------------------------------------------

    def _options(self, sections: list[Section]) -> Iterator[Option]:
        chosen = self.ruleset.options
        for name, spec in self.doc.get("options", {}).items():
            readings = []
            for reading, entry in spec.get("readings", {}).items():
                readings.append(
                    Reading(
                        name=reading,
                        value=entry.get("value"),
                        description=" ".join(str(entry.get("description", "")).split()),
                        sources=source_keys(entry.get("source")),
                        in_force=chosen.get(name) == reading,
                        default=spec.get("default") == reading,
                        assumption=self.assume(
                            f"option {name}, reading {reading}", entry.get("assumption")
                        ),
                    )
                )
            read_by = [
                rule.title for section in sections for rule in section.rules if name in rule.options
            ]
            yield Option(
                name, " ".join(str(spec.get("description", "")).split()), readings, read_by
            )

    def _parameters(self) -> Iterator[Parameter]:
        for name, spec in self.doc.get("parameters", {}).items():
            yield Parameter(
                name=name,
                value=spec.get("value"),
                description=" ".join(str(spec.get("description", "")).split()),
                sources=source_keys(spec.get("source")),
                assumption=self.assume(f"parameter {name}", spec.get("assumption")),
            )


def _join_words(contract: Mapping) -> str:
    """Who may join a contract's bidder, when, and whether the bid needs it."""
    seats = code(contract["join"])
    if contract.get("join_at") == "bidding":
        text = (
            f"While it is the standing bid, each of {seats} may on his turn join it at its rank"
            " (on the bidder's side, speaking no more); a higher bid makes those joins fall."
        )
    else:
        text = f"{seats} may each join the taker's side."
    if contract.get("join_needed"):
        text += (
            " The bid counts only if a player joins it: won without one, it does not stand,"
            " as when every player passes."
        )
    return text


def _repeat_words(repeat: Mapping) -> str:
    """What `doubling.repeat` lets the sides do past the named steps."""
    if "limit" in repeat:
        limit = code(repeat["limit"])
        end = f"until a target has had {limit} doublings in all (the named ones included)"
    else:
        end = "with no fixed end (only while the multiplier stays within 10^15)"
    return (
        f"After the last of these, the sides may go on doubling in turn, each further doubling"
        f" called {repeat['step'].replace('_', ' ')}, {end}."
    )


def _who_doubles(target: Mapping) -> str:
    """Who may double a doubling target and who answers, and when it is open."""
    announced = "announcement" in target
    if "by" in target:
        by = code(target["by"])
    else:  # an announcement's target: the other side doubles first
        by = "the seats not on the side of its first announcer"
    if "against" in target:
        against = code(target["against"])
    elif "by" in target:
        against = "every seat not among them"
    else:
        against = "the announcer's side"
    text = f"first doubled by {by}, answered by {against}, and so on in turn"
    if "when" in target:
        text += f", when {code(target['when'])}"
    if announced:
        text += f", once {target['announcement']} is announced"
    return text


def _open_to_nobody(contract: Mapping) -> bool:
    """Whether a contract's `open_to` is written as false: no player may bid it."""
    open_to = contract.get("open_to")
    return open_to is False or (isinstance(open_to, str) and open_to.strip() == "false")
