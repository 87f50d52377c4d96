"""Pure rules: what remember accepts and merges, scoring, tags, archive choice, stats,
3-way merges, import repairs, secret scanning, session coordination, budgets, and the
curation plans.

Invariant: no I/O (no file, process, network or clock reads outside ``model.clock``);
a rule is a function of its arguments, so every one is unit-tested directly. Rules
import only ``errors``, ``model`` and ``search`` (the ranking's tokenizer and decay).
"""
