"""What people read: a hand's transcript, a seat's screen and news, the human seat, and
`tarot explain`.

Where it sits: above the engine and the players, below the records, measures and commands;
it reads finished or running hands and the compiled ruleset and changes nothing.
"""
