"""The shared nouns of the pipeline: what every stage may import.

Where it sits: below every other package. Loading and checking produce these, the compiler
fills them, the engine and the batch back end run them, and presentation shows them; nothing
here imports another stage.
"""
