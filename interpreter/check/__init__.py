"""Stage 2 of loading a ruleset: checking the merged document, building nothing the engine runs.

`schema_check` (the JSON Schema, with positions in the files), `broken_parts` (which parts a
problem leaves out of the later checks), `options` (the readings chosen, put in place),
`semantic_checks` (what the schema cannot say: deal arithmetic, names, sources, costs) and
`draft` (the document being loaded and every stage's problems). Run by
`tarot.compile.loader` after `tarot.load`, before `tarot.compile`.
"""
