"""An independent reading of P. Winckles's "Illustrated Tarock" (pwinckles/card-game-rules,
traditional/tarot/IllustratedTarock.md, with the repository's general/BasicConcepts.md for the
"standard" deal, forehand and counting), used only by the tests to check the interpreter's
game records of `illustrated-tarock` hand by hand.

Written from the rules text alone, never from the ruleset or the interpreter's code: it reads
a record's pack, dealer and decisions, plays the hand again by the text's rules (every bid,
announcement, exchange, discard, contra and card checked legal) and sets what it finds beside
what the record says (`hand.hand_difference`). Modules: `cards` (ranks, values, the count in
batches of three), `hand` (one hand from the deal to each player's score).

Where the text is silent, this is what the checker does (each the ruleset's documented
assumption too, so that the two can be compared):

- The pack: red suits K Q C J 1 2 3 4 (1 highest of the pips), black K Q C J 10 9 8 7.
- The deal: one card at a time from the dealer's left, sixteen rounds; the last six cards
  are the talon, cut into two, three or six groups in the order they lie. Forehand, the
  dealer's left, bids first and leads the first trick. The deal passes to the left, after
  a hand all passed too.
- The first round of announcements (before the exchange) is asked bonus by bonus in the
  table's order, in every contract (a Solo too); every contra comes after both rounds.
- Without Trull and Without Kings are announced only by a declarer who holds none of those
  cards; made when he wins the game and none is among the cards he plays. They take the
  game's contra, and have none of their own. Announced before the exchange, a group holding
  one of those cards may be taken only when every group holds one (the text's own rule).
- A failed announcement scores its value for each defender; a silent bonus not made scores
  nothing. Trull, Four Kings and Mondfang score for each player of the side whose pooled
  tricks hold the cards (the declarer's discards are his; the talon's unused cards, and the
  whole talon in a Solo, are the defenders').
"""
