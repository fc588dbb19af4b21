"""The table in the browser: `tarot serve` (needs the optional `web` extra).

Where it sits: beside `tarot play --human`, over the same engine, players and seat view. A
person plays any ruleset, built-in or uploaded, at any seat against the computer players of
their choice; the server keeps every hidden card and hands the page only what the seat may
see; friends take other seats from their own links. Modules: `serve` (the command), `app` (the
routes), `tables` (the tables in memory and in their folder), `tables_disk` (the room their
folders take on disk), `table` (one game at one table), `seats` (the people's seats and their
secret tokens), `live` (the pages told as the table changes), `view` (the seat as the page
draws it), and `static/` (the page: HTML, script, card faces and style, no build step).
"""
