"""Small built-in stopword lists and a cheap language guess for Latin-script text.

Invariant: every list holds accent-folded, case-folded words (the form the
tokenizer compares against), and ``guess_language`` is a pure function of its
input that only ever answers one of ``LANGUAGES``. No I/O, no heavy imports.
"""

from __future__ import annotations

from collections.abc import Iterable

LANGUAGES: tuple[str, ...] = ("en", "es", "pt", "fr", "de")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_EN = _words(
    """
a about above after again against all am an and any are as at be because been before
being below between both but by can could did do does doing down during each few for
from further had has have having he her here hers herself him himself his how i if in
into is it its itself just me more most my myself no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their
theirs them themselves then there these they this those through to too under until up
very was we were what when where which while who whom why will with would you your yours
yourself yourselves s t don doesn didn isn wasn aren weren also did does us let lets via
per
"""
)

_ES = _words(
    """
a al algo algunas algunos ante antes como con contra cual cuando de del desde donde
durante e el ella ellas ellos en entre era erais eran eras eres es esa esas ese eso esos
esta estaba estaban estado estais estamos estan estar estas este esto estos estoy fue
fueron fui fuimos ha habia han has hasta hay la las le les lo los mas me mi mis mucho
muchos muy nada ni no nos nosotros o os otra otras otro otros para pero poco por porque
que quien quienes se sea sean ser si sido sin sobre sois somos son soy su sus suya suyo
tambien tanto te tenemos tener tengo ti tiene tienen todo todos tu tus un una unas uno
unos usted ustedes y ya yo
"""
)

_PT = _words(
    """
a ao aos aquela aquelas aquele aqueles aquilo as ate com como da das de dela delas dele
deles depois do dos e ela elas ele eles em entre era eram essa essas esse esses esta
estao estas estava estavam este estes eu foi foram ha isso isto ja lhe lhes mais mas me
mesmo meu meus minha minhas muito na nas nao nem no nos nossa nossas nosso nossos num
numa o os ou para pela pelas pelo pelos por qual quando que quem se sem ser seu seus so
sua suas tambem te tem tu tua tuas um uma umas uns voce voces vos
"""
)

_FR = _words(
    """
a ai au aux avec ce ces dans de des du elle en et eux il ils je la le les leur lui ma
mais me meme mes moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son
sur ta te tes toi ton tu un une vos votre vous c d j l m n s t y est sont ete etre avoir
ont cette cet comme plus aussi tres
"""
)

_DE = _words(
    """
aber alle allem allen aller alles als also am an ander andere anderem anderen anderer
anderes auch auf aus bei bin bis bist da damit dann das dass dein deine dem den der des
dich die dies diese diesem diesen dieser dieses dir doch dort du durch ein eine einem
einen einer eines er es etwas fur hat hatte ich ihr ihre im in ist ja jede jedem jeden
jeder jedes kann kein keine man mein meine mich mir mit muss nach nicht nichts noch nun
nur ob oder ohne sehr sein seine sich sie sind so uber um und uns unser unter vom von
vor war waren was weil wenn wer wie wir wird wo zu zum zur
"""
)

STOPWORDS: dict[str, frozenset[str]] = {
    "en": _EN,
    "es": _ES,
    "pt": _PT,
    "fr": _FR,
    "de": _DE,
}

#: Words that shape a question rather than name its subject ("what *kind* of…",
#: "how *often*…"), per language; dropped from queries only, and only when other words
#: remain. A query uses its own language's list and the English one (German "Art" is
#: filler in German, English "art" is a subject).
QUERY_FILLER: dict[str, frozenset[str]] = {
    "en": _words(
        """
kind type sort many much often likely would might think thing things ever recently recent
currently usually something anything someone way ways
"""
    ),
    "es": _words("tipo clase cosa cosas alguna alguno algun normalmente recientemente"),
    "pt": _words("tipo coisa coisas algum alguma normalmente recentemente"),
    "fr": _words("genre sorte type chose choses quelque normalement recemment"),
    "de": _words("art sorte welche welcher welches normalerweise kurzlich"),
}

#: Words that say "this is language X" when seen, beyond the stopword lists.
_MARKERS: dict[str, frozenset[str]] = {
    "es": _words("el los del las una por para como pero muy tambien esta"),
    "pt": _words("nao uma voce com dos das pelo pela tambem esta isso"),
    "fr": _words("les des une est avec dans pour pas sur vous nous cette"),
    "de": _words("der die das und ist nicht mit ein eine den dem auf fur"),
    "en": _words("the and is of to with for not this that are was"),
}

#: Raw (unfolded) characters that point at one language.
_CHAR_HINTS: dict[str, str] = {
    "ñ": "es", "¿": "es", "¡": "es",
    "ã": "pt", "õ": "pt",
    "ß": "de", "ä": "de", "ö": "de", "ü": "de",
    "è": "fr", "ê": "fr", "à": "fr", "ù": "fr", "œ": "fr", "û": "fr", "î": "fr",
}  # fmt: skip


def guess_language(folded_words: Iterable[str], raw_text: str = "") -> str:
    """The most likely of ``LANGUAGES`` for some folded words; ``"en"`` when unsure.

    One vote per stopword of a language, one more per marker word of it, and
    two per distinctive accented character of ``raw_text``; ties go to
    English, then to the order of ``LANGUAGES``.
    """
    votes = dict.fromkeys(LANGUAGES, 0)
    ballots = _BALLOTS
    for word in folded_words:
        for lang, weight in ballots.get(word, ()):
            votes[lang] += weight
    if raw_text:
        for char, lang in _CHAR_HINTS.items():
            if char in raw_text:
                votes[lang] += 2
    best = max(LANGUAGES, key=lambda lang: votes[lang])
    return best if votes[best] > votes["en"] else "en"


def _ballots() -> dict[str, tuple[tuple[str, int], ...]]:
    """word -> the votes it casts: (language, 2 for a marker word else 1), in
    ``LANGUAGES`` order; one lookup per word instead of one per language."""
    out: dict[str, tuple[tuple[str, int], ...]] = {}
    for word in set().union(*STOPWORDS.values()):
        out[word] = tuple((lang, 2 if word in _MARKERS[lang] else 1)
                          for lang in LANGUAGES if word in STOPWORDS[lang])  # fmt: skip
    return out


_BALLOTS = _ballots()
