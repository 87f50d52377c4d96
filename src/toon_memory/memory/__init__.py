"""``Memory`` (``memory.api``) and the parts it composes: recall, edits, maintenance,
transfer, curation, sessions, briefs, sharing, security and the watch loop.

Invariant: this package is the only caller of ``store`` and ``project`` for a memory's
data; adapters reach a memory only through ``Memory``. A part owns one area's
orchestration; the rules it applies live in ``rules`` and the ranking in ``search``.
"""
