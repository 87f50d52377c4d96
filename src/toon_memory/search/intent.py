"""Temporal and update intent of a query, read from word lists (en, es, pt, fr, de).

Invariant: ``detect`` is a pure, deterministic function of the query and
``today`` that never raises on any ``str``. It says whether the query asks for
the newest state ("latest", "current", "ahora", "aktuell"…), for history
("before", "previously", "used to", "antes", "früher"…), or for the oldest
("earliest", "first …", "primera"…), and which day it names, if any: a period (an ISO date or month, or a month name with an
optional day and year, in any of the five languages; a month without a year
is its last occurrence up to ``today``), ``since`` its first day and ``day``
its last; a period after "before" ("before June", "antes de junio") names
only ``day``, the day before it. A period after an explicit cue ("as of April 2026", "a fecha de",
"Stand") is ``strict``: its last day is a hard ``as_of``. Any other period
picks, among versions of one entry, the version valid on its last day, and
favours entries dated in or near it. The intent words stay in the
query's terms ("our latest painting" may be what the entry says). No I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import pairwise

from toon_memory.errors import InputError
from toon_memory.model.clock import parse_date
from toon_memory.search.tokenize import fold


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: "The newest state": prefer the newest active entry among near-equal matches.
LATEST: dict[str, frozenset[str]] = {
    "en": _set("latest current currently now newest nowadays today"),
    "es": _set("actual actuales actualmente ahora ultimo ultima ultimos ultimas vigente hoy"),
    "pt": _set("atual atuais atualmente agora ultimo ultima ultimos ultimas vigente hoje"),
    "fr": _set(
        "actuel actuelle actuels actuellement maintenant dernier derniere derniers "
        "dernieres aujourd"
    ),
    "de": _set(
        "aktuell aktuelle aktuellen aktueller derzeit derzeitige jetzt neueste "
        "neuesten letzte letzten momentan heute gegenwartig"
    ),
}
#: "Most recent" is the newest; "recent" alone is not ("his recent research" may be older).
_LATEST_PAIRS = frozenset({("most", "recent"), ("mas", "reciente"), ("mais", "recente"),
                           ("plus", "recent"), ("plus", "recente")})  # fmt: skip
#: "The oldest": prefer the oldest active entry among near-equal matches ("first" only at the
#: start of the query or after an article: "first security audit", "the first release").
EARLIEST: dict[str, frozenset[str]] = {
    "en": _set("earliest oldest"),
    "es": _set("primer primera primeros primeras"),
    "pt": _set("primeiro primeira primeiros primeiras"),
    "fr": _set("premier premiere premiers premieres"),
    "de": _set("erste ersten erster erstes fruheste fruhesten alteste altesten"),
}
_FIRST = _set("first")
_ARTICLES = _set("the our very its el la los las o os a as le les der die das den")
#: "What it was": bring superseded versions in and prefer them.
HISTORY: dict[str, frozenset[str]] = {
    "en": _set("before previously previous formerly former earlier originally initially prior"),
    "es": _set(
        "antes anterior anteriores anteriormente previamente originalmente "
        "inicialmente solia soliamos solian usabamos usaba usaban"
    ),
    "pt": _set(
        "antes anterior anteriores anteriormente previamente originalmente "
        "inicialmente costumava costumavamos costumavam usavamos usava usavam"
    ),
    "fr": _set(
        "avant auparavant precedent precedente precedemment autrefois anciennement "
        "initialement utilisions utilisait"
    ),
    "de": _set(
        "vorher fruher zuvor bisher ehemals ehemalige ehemaligen ursprunglich anfangs "
        "vorherige vorherigen damals"
    ),
}
#: Two words that say "originally": "at first", "al principio", "no início", "au début".
_HISTORY_PAIRS = frozenset({("at", "first"), ("al", "principio"), ("no", "inicio"),
                            ("au", "debut"), ("am", "anfang")})  # fmt: skip
#: "before" is not history before an action or a quantifier ("before deploying", "before each").
_NOT_AFTER_BEFORE = _set("a an each every any the we you i it running deploying merging")
_MONTHS: dict[str, int] = {}
for _names in (
    "january february march april may june july august september october november december",
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro",
    "janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre",
    "januar februar marz april mai juni juli august september oktober november dezember",
):
    for _number, _name in enumerate(_names.split(), 1):
        _MONTHS.setdefault(_name, _number)
_MONTHS.update({"setiembre": 9, "janner": 1, "sept": 9})
#: Month names that are also common words: a date only next to a number, a year, a preposition
#: or "this"/"last".
_AMBIGUOUS = _set("may march marco mars august")
_PREPOSITIONS = _set("in on of since until during from by en de desde hasta durante em ate "
                     "depuis jusqu au le im am seit bis vom zum this last este esta ce cet diesen letzten")  # fmt: skip
#: Cues right before a named day that make it a hard ``as_of`` (folded words joined by ``_``).
_STRICT = _set("as_of as_at a_fecha_de a_dia_de con_fecha_de a_data_de na_data_de em_data_de "
               "en_date_du a_la_date_du stand stand_vom stand_am zum_stand")  # fmt: skip
_DAY_LINKS = _set("de of le du th st nd rd er")
#: A period right after these ("before June", "antes de junio", "avant juin", "vor Juni") names
#: the day before it: the state then, not the period itself.
_BEFORE = _set("before prior antes avant vor")
_BEFORE_LINKS = _set("de du to the la el le")
#: "before" is about a moment, not history, after these ("two weeks before") or before a date.
_SPANS = _set("day days week weeks month months year years hour hours minute minutes")
_WORD = re.compile(r"\d{4}-\d{2}-\d{2}|\d{4}-\d{2}|\d+|[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class Intent:
    """What a query says about time: the named period ``since``..``day`` (ISO, ``""`` if none);
    ``before``: the query asks for the state before the period it names (``day`` only)."""

    latest: bool = False
    history: bool = False
    day: str = ""
    strict: bool = False
    since: str = ""
    earliest: bool = False

    @property
    def before(self) -> bool:
        """The query asks for the state before the period it names: only ``day`` is set."""
        return bool(self.day) and not self.since

    def __bool__(self) -> bool:
        return self.latest or self.history or self.earliest or bool(self.day)


NONE = Intent()


def detect(query: str, today: date) -> Intent:
    """The temporal intent of ``query`` (``NONE`` when it has none)."""
    tokens = [fold(t) for t in _WORD.findall(query)]
    if not tokens:
        return NONE
    latest = {t for t in tokens if any(t in words for words in LATEST.values())}
    latest.update(b for a, b in pairwise(tokens) if (a, b) in _LATEST_PAIRS)
    earliest = _earliest_words(tokens)
    history = _history_words(tokens)
    since, day, strict = _named_period(tokens, today)
    one_way = not history and not (latest and earliest)
    return Intent(bool(latest) and one_way, bool(history), day, strict, since,
                  earliest=bool(earliest) and one_way)  # fmt: skip


def _earliest_words(tokens: list[str]) -> set[str]:
    found = {t for t in tokens if any(t in words for words in EARLIEST.values())}
    found.update(t for i, t in enumerate(tokens)
                 if t in _FIRST and (i == 0 or tokens[i - 1] in _ARTICLES))  # fmt: skip
    return found


def _history_words(tokens: list[str]) -> set[str]:
    found: set[str] = set()
    for i, token in enumerate(tokens):
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if token in _BEFORE and _moment_before(tokens, i):
            continue
        if any(token in words for words in HISTORY.values()):
            found.add(token)
        elif i and (tokens[i - 1], token) in _HISTORY_PAIRS:
            found.update((tokens[i - 1], token))
        elif (
            token in ("used", "use")
            and following == "to"
            and (token == "used" or "did" in tokens[:i])
        ):
            found.update((token, "to"))
    return found


def _moment_before(tokens: list[str], i: int) -> bool:
    """``before`` followed by an action, a quantifier or a date, or after a span of time."""
    following = tokens[i + 1] if i + 1 < len(tokens) else ""
    if following in _BEFORE_LINKS and i + 2 < len(tokens):
        after_link = tokens[i + 2]
        if after_link in _MONTHS or after_link[:1].isdigit():
            return True
    previous = tokens[i - 1] if i else ""
    if tokens[i] != "before":
        return following in _MONTHS or following[:1].isdigit()
    return (not following or following in _NOT_AFTER_BEFORE or following.endswith("ing")
            or following in _MONTHS or following[:1].isdigit() or previous in _SPANS)  # fmt: skip


def _named_period(tokens: list[str], today: date) -> tuple[str, str, bool]:
    """The first period the tokens name (first and last day, the last clamped to today)
    and whether a strict cue precedes it."""
    for i in range(len(tokens)):
        found = _period_at(tokens, i, today)
        if found is not None:
            first, last, start = found
            if _before_cue(tokens, start):
                return "", min(first - timedelta(days=1), today).isoformat(), False
            cue = any("_".join(tokens[start - k : start]) in _STRICT
                      for k in range(1, 5) if start - k >= 0)  # fmt: skip
            last = min(last, today)
            return min(first, last).isoformat(), last.isoformat(), cue
    return "", "", False


def _before_cue(tokens: list[str], start: int) -> bool:
    """``before <period>``, ``antes de <period>``, ``prior to <period>``."""
    at = start - 1
    if at >= 1 and tokens[at] in _BEFORE_LINKS:
        at -= 1
    return at >= 0 and tokens[at] in _BEFORE and not (at and tokens[at - 1] in _SPANS)


def _period_at(tokens: list[str], i: int, today: date) -> tuple[date, date, int] | None:
    """The period named at token ``i`` (ISO day or month, month name): its first and last
    day and the index where its expression starts (a day written before the month)."""
    token = tokens[i]
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", token):
        try:
            day = parse_date(token, "query")
        except InputError:
            return None
        return day, day, i
    if re.fullmatch(r"\d{4}-\d{2}", token):
        iso_month = int(token[5:])
        return (*_month(int(token[:4]), iso_month), i) if 1 <= iso_month <= 12 else None
    month = _MONTHS.get(token)
    if month is None:
        return None
    number, start = _day_before(tokens, i)
    prev = tokens[i - 1] if i else ""
    nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
    if number is None and _is_day(nxt):
        number = int(nxt)
    named_year = _year_near(tokens, i)
    if token in _AMBIGUOUS and number is None and not (named_year or prev in _PREPOSITIONS):
        return None
    if named_year is not None:
        year = named_year
    else:
        year = today.year if (month, number or 1) <= (today.month, today.day) else today.year - 1
    if number is None:
        return (*_month(year, month), start)
    try:
        day = date(year, month, number)
    except ValueError:
        return None
    return day, day, start


def _is_day(token: str) -> bool:
    return token.isdigit() and len(token) <= 2 and 1 <= int(token) <= 31


def _day_before(tokens: list[str], i: int) -> tuple[int | None, int]:
    """A day written before the month ("22 April", "22 de abril") and where it starts."""
    if i >= 1 and _is_day(tokens[i - 1]):
        return int(tokens[i - 1]), i - 1
    if i >= 2 and tokens[i - 1] in _DAY_LINKS and _is_day(tokens[i - 2]):
        return int(tokens[i - 2]), i - 2
    return None, i


def _year_near(tokens: list[str], i: int) -> int | None:
    for token in tokens[i + 1 : i + 3]:
        if re.fullmatch(r"(19|20)\d\d", token):
            return int(token)
    return None


def _month(year: int, month: int) -> tuple[date, date]:
    following = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    return date(year, month, 1), following - timedelta(days=1)
