"""An independent reading of Romanian Tarok (Suceava, four players), used only by the tests
to check the interpreter's game records hand by hand.

Written from the rules text alone: P. Winckles's summary of John McLeod's pagat.com page
(pwinckles/card-game-rules, `traditional/tarot/RomanianTarok.md`, read whole) and the
openings of the page itself and of its Japanese summary (the cards, their ranks and points),
never from the `romanian-tarok` ruleset or the interpreter's code. `game.sitting_differences`
replays a recorded sitting (the pool and the hands at double stakes carry from hand to hand)
and `hand.read_hand` one hand: the deal, the auction, the call, the talon and the discard, the
trumps declared, the round of announcements and contras, every card played (legal by the
text, and who wins the trick), and every payment.

Where the text is silent, or where the ruleset could only write the nearest form, this is what
the checker does (each is also an `assumption:` of the ruleset, or a gap on the game's page):

- Play goes to the next seat by number (the records' order); the dealer's next deals first and
  leads; the deal is the talon of six, then two rounds of six cards each.
- The auction's ladder: Two, second Two, third Two, One, second to sixth One, Solo. A seat may
  hold the highest bid when it speaks before its bidder in the order from forehand.
- The talon: the packets lie face up and the declarer takes one whole (the nearest form of
  drawing them in stages); the level is the bid's.
- A lost game costs its value times the level (a game contra'd: won too), times 2 for each
  contra; each member of the losing side pays the value once and the winners share it
  equally. Trull and four Kings (in a side's counted cards), Mondfang (the other side's Luna
  taken) and valat are paid silent to the side that made them, unless it announced them;
  announced, each side's announcement is won or lost by it, times its own contras. The
  declarer's side's Pagat or called King in the last trick: won +1, lost -1 silent; announced
  7 (9 in a Solo) and 2. The called King captured, announced by the opponents: 1. A Solo
  doubles all but the Pagat ultimo and the valat (32 silent, 64 announced); a valat made
  replaces the game. Trumps declared (8, 9, 10 or more: 1, 2, 3) count once per side, at the
  higher number. The called King left in a packet of a Two or One costs the declarer 2 to each
  opponent.
- The round of announcements: from the declarer, round and round until three seats in a row
  have said nothing after the last thing said, every seat having had a turn; a bonus may be
  announced only on a seat's first turn, contras on any; a seat is not asked when nothing is
  open to it. Contras go on past supra contra (W's "etc."), each side in turn, up to four
  in all (the ruleset's cap; W names none), or stop at supra contra (option
  `contras=named`). A seat that announced an ultimo keeps its card for the last trick while
  it can play another.
- An announced Pagat ultimo and the pool: made, the declarer's side takes the pool; failed, it
  doubles the pool; contra'd, the side that won it takes the pool and the other brings it up to
  twice (four times...) what it held.
- The pool: every player puts 1 in when it is empty, the dealer 1 each hand; in Michi-michi
  each pays 1 a trick taken, and the next four hands are at double stakes; what is left at the
  end of the sitting is shared equally.
"""
