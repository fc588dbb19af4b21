"""tarot: historical Tarot card games as YAML rulesets, run by one generic interpreter."""
