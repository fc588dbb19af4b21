"""An independent reading of Peter Winckles' "Cego" (pwinckles/card-game-rules,
traditional/tarot/Cego.md, with the repository's general/BasicConcepts.md it assumes), used
only by the tests to check the interpreter's game records of `cego` hand by hand.

Written from the rules text alone, never from the ruleset or the interpreter's code: it reads
a record's pack, dealer, options and decisions, plays the hand again by the text's rules
(every Solo answer, bid, hold, card laid away, announcement and card played checked legal)
and sets what it finds beside what the record says (`hand.hand_difference`). Modules: `cards`
(ranks and card points), `hand` (one hand from the deal to the net).

Where the text is silent, this is what the checker does (each the ruleset's documented
assumption too, so that the two can be compared):

- The deal (the repository's Basic Concepts, which the text's "standard procedure" refers
  to): one card at a time from the dealer's next (the player on his left) until each has
  thirteen; the twelve left are the blind.
- Phase 1 asks forehand, then middlehand, then the dealer, stopping at the first Solo.
- Phase 2: preference is the order of speaking, from forehand, or after a Solo from the Solo
  bidder's left. The auction goes round the table until one bidder is left; a player earlier
  in that order than the highest bidder may only hold that bid or pass, a later one may bid
  only the next game up or pass; forehand may not pass before his first bid when nobody bid
  Solo. The Empty games need the pip cards they lay face up, Pagat the Pagat, to bid or hold.
- Two Empty or Two Different with no trump after the blind: any card may be laid away. The
  Fool is the highest trump (and the lowest only when it is the only one).
- Pagat: before the first trick the declarer may take the Pagat back (announce ultimo); then
  it may not fall before the last trick while he has another legal card, and unless it wins
  the last trick the declarer has no card points.
- A declarer without a trick, or with a failed ultimo, has 0; the defenders then 69. A tie at
  35 loses for the declarer with a value of 0. Each opponent pays the declarer the value, or
  is paid it by him.
"""
