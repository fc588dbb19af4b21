"""An independent reading of Romanian Tarok (Suceava, four players), used only by the tests
to check the interpreter's game records hand by hand.

Written from the rules text alone: P. Winckles's summary of John McLeod's pagat.com page
(pwinckles/card-game-rules, `traditional/tarot/RomanianTarok.md`, read whole) and the
openings of the page itself and of its Japanese summary (the cards, their ranks and points),
never from the `romanian-tarok` ruleset or the interpreter's code. `game.sitting_differences`
replays a recorded sitting (the pool and the hands at double stakes carry from hand to hand)
and `hand.read_hand` one hand: the deal, the auction, the call, the talon and the discard, the
trumps declared, every card played (legal by the text, and who wins the trick), and every
payment.

Where the text is silent, or where the ruleset could only write the nearest form, this is what
the checker does (each is also an `assumption:` of the ruleset, or a gap on the game's page):

- Play goes to the next seat by number (the records' order); the dealer's next deals first and
  leads; the deal is the talon of six, then two rounds of six cards each.
- The auction's ladder: Two, second Two, third Two, One, second to sixth One, Solo. A seat may
  hold the highest bid when it speaks before its bidder in the order from forehand.
- The talon: the packets lie face up and the declarer takes one whole (the nearest form of
  drawing them in stages); the level is the bid's.
- A lost game costs its value times the level; each member of the losing side pays the value
  once and the winners share it equally. Bonuses (silent only): trull and four Kings in a
  side's counted cards, the other side's Luna taken, the declarer's side's Pagat or called
  King in the last trick (won +1, lost -1), valat instead of the game; a Solo doubles all but
  the Pagat ultimo and has a valat of 32. Trumps declared (8, 9, 10 or more: 1, 2, 3) count
  once per side, at the higher number. The called King left in a packet of a Two or One costs
  the declarer 2 to each opponent.
- The pool: every player puts 1 in when it is empty, the dealer 1 each hand; in Michi-michi
  each pays 1 a trick taken, and the next four hands are at double stakes; what is left at the
  end of the sitting is shared equally.
"""
