"""An independent reading of source 003 (modern French Tarot, three, four and five players),
used only by the tests to check the interpreter's game records hand by hand.

It was written from the text of `../shared/seeds/003_*.txt` and the notes on 003 in
`rules-facts.md`, never from the `french-tarot` rulesets or the interpreter's code: it reads
a record's deck, pack, dealer and decisions, plays the hand again by 003's rules and sets what
it finds beside what the record says (`compare.hand_difference`). Run it on a record with
`python -m tests.independent RECORD.json [HAND]`.

Modules: `cards` (the cards and their points), `rules` (003's figures), `tricks` (what may be
played and who wins), `hand` (one hand from deal to net), `compare` (the record beside it).

Where 003 is silent or can be read two ways, this is what the checker does:

- Record options followed (the record names the reading it was made under): `le_petit`
  (003's rule that the 1 of trumps in a player's first three cards cancels the deal: on by
  default), `le_petit_cards` (three players are dealt in fours: the first packet of four, or
  the first three cards), `petit_sec` (not in 003 but in rules-facts: a player whose only
  trump is the 1, without the Excuse, may have the deal thrown in), `poignee_level` (a
  poignée declared at the highest level the trumps reach, or any level they reach),
  `chelem_by` (only the taker announces a chelem, or either side), `excuse_debt` (a low card
  owed for the Excuse that its side never gets: the debt lapses, or the Excuse itself goes
  over), `score_rounding` (exact, or each score to the nearest 5 or 10, halves away from
  zero), `partner_share` (five players: the taker two shares and the partner one, or
  halves).
- Five players: 003 gives no packet size; the checker deals 15 cards in threes as with four.
- The pack: the record's dealing order must put packets of three (four with three players)
  to each player in turn from the dealer's right, and only the talon's cards between them,
  none of the first or last three.
- The dealer's turn passes to the right: seats are numbered in the order of play, so the
  next dealer is the next seat. A cancelled deal (Le Petit, all passing) passes the deal.
- The called card: a King, or a Queen only when the taker holds all four Kings; the taker
  may call a King he holds (he then plays alone, as 003 says).
- The discard: never a King or a bout; a trump only when the taker has too few other cards.
- Declarations: a chelem before the first card of the hand, a poignée just before its holder
  plays his first card, counted on the hand he then holds (the taker's after his discard).
  The cards shown must be exactly the level's number of trumps (003's "the correct
  number", the holder picking which), all from that hand, and the Excuse only with every
  trump held.
- The Excuse's debt: the taker's discards count as his tricks from the start; a talon nobody
  looked at (garde sans, garde contre) joins its side's tricks at the end of the hand and can
  settle a debt only then (003: no one looks at it). Records made before the engine did the
  same read it otherwise: `hand.Doubts.unseen_talon_pays_in_play` replays those.
- Half a card point: 003 gives its rounding for three and five players; with four players
  half a point arises only from a lapsed Excuse debt, and the same rounding is used.
- Chelem: an announced chelem scores 400 or -200 for its side, and a side that takes every
  trick without announcing scores 200, both at once if the taker announced and the defence
  took every trick. The record scores only the announcement then: see
  `hand.Doubts.one_chelem_bonus`.
- Petit au bout after a chelem finished by leading the Excuse: the 1 of trumps must have won
  the trick before (003: "won with the 1 of trumps").
"""
