"""The table in the browser: `tarot serve` (needs the optional `web` extra).

Where it sits: beside `tarot play --human`, over the same engine, players and seat view. A
person plays any ruleset, built-in or uploaded, at any seat against the computer players of
their choice; the server keeps every hidden card and hands the page only what the seat may
see. Modules: `serve` (the command), `app` (the routes), `tables` (the tables in memory and in
their folder), `table` (one game at one table), `view` (the seat as the page draws it), and
`static/` (the page: HTML, script and style, no build step).
"""
