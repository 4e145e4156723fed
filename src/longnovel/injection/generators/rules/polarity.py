"""Contradictions: an affirmative statement made negative (``negate``) or a negative one made
affirmative (``affirm``). zh: 不/没/没有/未; en: auxiliaries with "not", "never"."""

from __future__ import annotations

import re
from typing import NamedTuple

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules import thinning
from longnovel.injection.generators.rules.draft import (
    Draft,
    confirmed_later,
    contrasted_next,
    find_names,
    gives_its_reason,
    in_a_contrast,
    manner_in_change,
    splice,
    told_next,
)
from longnovel.injection.lexicon.en import (
    EN_AUXILIARIES,
    EN_INVOLUNTARY_VERBS,
    EN_KNOWING_VERBS,
    EN_NEGATED_AUXILIARIES,
    EN_NEVER_SKIP,
    EN_STATE_VERBS,
    EN_STOPWORDS,
)
from longnovel.injection.lexicon.zh import ZH_MODALS, ZH_NEGATED_WORDS, ZH_VERB_HEADS
from longnovel.injection.nlp import inflect
from longnovel.injection.nlp.inflect import is_base_verb, verb_lemma, verb_lemmas
from longnovel.injection.nlp.negation import EN_NEGATED, ZH_NEGATORS
from longnovel.injection.nlp.numerals import EN_NUMBER_WORDS
from longnovel.injection.nlp.text import changed_parts, match_case, word_start
from longnovel.injection.nlp.zh.segment import is_idiom, tagged_words

_AUX = "|".join(EN_AUXILIARIES)
_EN_AUX = re.compile(rf"(?<![-\w])({_AUX})\b(?!\s+(?:not|never|no)\b|-)")  # not ill-will
_EN_PERFECT = re.compile(r"\b(has|have|had)\s+(\w+)")
_EN_SUBJECT_VERB = re.compile(r"\b(he|she|they|we|it|who|He|She|They|We|It|I|[A-Z][a-z]+)\s+"
                              r"([a-z]{3,})\b")
_EN_DO_NOT = re.compile(r"\b(did|does|do)(?: not|n't)\s+([a-z]+)")
_EN_AUX_NOT = re.compile(rf"\b({_AUX}|has|have|had) not\b")
_EN_CONTRACTED = re.compile(r"\b(" + "|".join(EN_NEGATED_AUXILIARIES) + r")", re.IGNORECASE)
_EN_NEVER = re.compile(r"\bnever\s+(?=[a-z])")
_NOUN_BEFORE_WILL = {"his", "her", "their", "the", "a", "my", "father's", "own", "free", "good"}
_CONTRACTED_OF = {positive: short for short, positive in EN_NEGATED_AUXILIARIES.items()
                  if short.endswith("n't") and short != "cannot"}
# Words that only read well under a negation ("told nobody anything", 任何人, "never saw
# such a husband as"): dropping the negation leaves them ungrammatical, so such sentences are
# not affirmed.
_EN_NEGATIVE_POLARITY = re.compile(r"\b(any|anyone|anything|anybody|anywhere|ever|yet|either|"
                                   r"even|at all|simply|such(?! as))\b|(?<!very )(?<!so )"
                                   r"(?<!too )(?<!how )(?<!as )(?<!that )\bmuch\b(?! (?:more|"
                                   r"less|better|worse|of|to|as|than)\b)", re.IGNORECASE)
_ZH_NEGATIVE_POLARITY = ("任何", "丝毫", "从来", "再也", "一点也", "一点儿也", "一个也", "一句也")


# A sentence that already denies something is not negated again: "would not show her no
# mercy", "never to have not seen", "knows not ... had not insulted" are double negatives.
_ZH_NEGATED = ("没有", "没", "未", "不是", "不会", "不能", "不肯", "不愿", "从不", "无法")


# The direction taken first among equally used sub-types where a summary offers both (the
# generator's ``seeded_choice(prefer=...)``): a summary has far fewer negated statements than
# plain ones, so affirm places are the rarer; taking them when they are there is what lets
# negations be taken out about as often as they are added. (``preferred`` in other modules
# narrows the edits of one sub-type instead; polarity's two directions are sub-types, kept
# balanced by the generator.)
PREFERRED_SUBTYPES = ("affirm",)


def _zh_negates_a_verb(tagged) -> bool:
    """Does a 不 before a verb already deny something in the sentence ("小满说他不走，要留在墨坊"):
    a second negation beside it ("不用留在墨坊") makes the sentence argue with itself."""
    return any(word == "不" and flag.startswith("v")
               for (word, _), (_, flag) in zip(tagged, tagged[1:], strict=False))


def _answered_next(draft: Draft, i: int) -> bool:
    """Does the next sentence of the unit answer the denial ("Milo Sandry did not come to the
    Mole. Thaddeus Vell came instead")? Taken out, the denial leaves "instead" replacing
    nothing (seed 4838's sample reading)."""
    if i + 1 >= len(draft.sentences) or draft.unit_of(i + 1) != draft.unit_of(i):
        return False
    return bool(_INSTEAD[draft.zh].search(draft.sentences[i + 1]))


_INSTEAD = {False: re.compile(r"(?i)\binstead\b"), True: re.compile("反而|而是|倒是")}
# Set phrases whose 不 is no denial to take out, and a quoted word reported said (seed 4838's
# sample reading: 一锭不差 -> 一锭差; 顾衡山来看过，没有说"还行")
_ZH_SET_NOT = re.compile(r"一.不[差少漏落缺]|毫不|决不|绝不|不得不|不由得|不禁|不住")
_ZH_SAYS_A_QUOTE = re.compile(r"[说道讲喊问][：:]?\s*[“‘「『\"']")


def _zh_set_phrase(sentence: str, start: int, end: int) -> bool:
    """Would taking out the 不 at ``sentence[start:end]`` break a set phrase?"""
    near = sentence[max(0, start - 3) : end + 3]
    return bool(_ZH_SET_NOT.search(near)) or any(
        is_idiom(sentence[k : k + 4]) for k in range(max(0, start - 3), end))


def _zh_says_a_quote(sentence: str, start: int, end: int) -> bool:
    """Would a negation put in at ``start`` deny that a quoted word was said?"""
    return bool(_ZH_SAYS_A_QUOTE.match(sentence[end:end + 3]) or
                _ZH_SAYS_A_QUOTE.match(sentence[start:]))


_ELABORATED = re.compile(r"[:;：；—–]|\s-\s|——")


def _argues_with_itself(sentence: str, new: str, start: int, subtype: str, zh: bool) -> bool:
    """Would the changed sentence contradict itself? A statement that a colon, a semicolon or
    a dash goes on to spell out or build on ("Bruce doesn't remind the crew about the genocide:
    five years ago, he and Doran ... wiped out the entire Venusian community"; "He doesn't
    order a drink; after he downs it"; "it never shows the violent deaths of many explorers -
    some being sucked into ...") is told by what follows; and a negation taken out beside
    another that stays in the sentence (in Chinese, in the clause) ("the elevator is not
    working and responds to pressing the button", "If the beasts appear in the photos, they
    don't exist") breaks the pair the writer built from two denials."""
    if _ELABORATED.search(sentence[start:]):
        return True
    if subtype != "affirm":
        return False
    if zh:  # a Chinese sentence runs on over its clauses: the clause changed
        starts = [0] + [m.end() for m in re.finditer("[，,；;]", new) if m.end() <= start]
        ends = [m.start() for m in re.finditer("[，,；;。！？]", new) if m.start() >= start]
        new = new[starts[-1]:ends[0] if ends else len(new)]
    return _already_negated(new, zh)


def _already_negated(sentence: str, zh: bool) -> bool:
    if zh:
        return any(word in sentence for word in _ZH_NEGATED)
    return bool(EN_NEGATED.search(sentence))


def _reads_only_negated(sentence: str, zh: bool) -> bool:
    if zh:
        return any(word in sentence for word in _ZH_NEGATIVE_POLARITY)
    return bool(_EN_NEGATIVE_POLARITY.search(sentence))


# The words a negation brings in or takes out. Under an article-free classifier's sublinear
# counts, the first "not" of a summary weighs as much as the next five together: a negation
# added to a summary that had none, or the only one taken out, is what it finds. So a negation
# is added only where the writer already uses that negator elsewhere in the summary, and taken
# out only where another one remains: both then move a count that is already there, by the same
# amounts (k -> k + 1 for k >= 1, k -> k - 1 for k >= 2).
_EN_NEGATORS = {"not": re.compile(r"\bnot\b|\bcannot\b", re.IGNORECASE),
                "n't": re.compile(r"n['’]t\b", re.IGNORECASE),
                "never": re.compile(r"\bnever\b", re.IGNORECASE)}
_ZH_NEGATORS_COUNTED = ("没有", "没", "未", "不")


def _negator_counts(text: str, zh: bool) -> dict[str, int]:
    if zh:
        return {word: text.count(word) for word in _ZH_NEGATORS_COUNTED}
    return {word: len(pattern.findall(text)) for word, pattern in _EN_NEGATORS.items()}


def _keeps_company(draft: Draft, old: str, new: str) -> bool:
    """Does the summary already use every negator this change brings in, and keep one of
    every negator it takes out?"""
    summary = draft.memo("negator_counts", lambda: _negator_counts(draft.summary, draft.zh))
    old_part, new_part = _changed_words(old, new)
    before = _negator_counts(old_part, draft.zh)
    after = _negator_counts(new_part, draft.zh)
    for word, count in summary.items():
        moved = after[word] - before[word]
        if moved > 0 and count < 1 or moved < 0 and count + moved < 1:
            return False
    return True


def edits(draft: Draft) -> list[Edit]:
    out = []
    for i, sentence in enumerate(draft.sentences):
        if gives_its_reason(sentence, draft.zh):
            continue  # "cannot travel because of his busted suit": "can travel because of"
        if draft.zh:
            tagged = tagged_words(sentence)
            changes = [("negate", s) for s in _zh_negations(tagged)]
            changes += [("affirm", s) for s in _zh_affirmations(tagged)]
        else:
            style = _en_style(draft)
            changes = [("negate", s) for s in _en_negations(sentence, style,
                                                            _en_negating_verbs(draft),
                                                            draft.names("person"))]
            changes += [("affirm", s) for s in _en_affirmations(sentence)]
        if _reads_only_negated(sentence, draft.zh):
            changes = [c for c in changes if c[0] != "affirm"]
        if _already_negated(sentence, draft.zh) or sentence.rstrip(" \"”’'").endswith(("?", "？")) \
                or (draft.zh and _zh_negates_a_verb(tagged)):
            changes = [c for c in changes if c[0] != "negate"]  # nor a question: "Does he not"
        if not draft.zh and confirmed_later(sentence):
            changes = []  # "Butch commands them to attack, and they do": the echo says it did
        names = find_names(sentence, draft.names("person"), draft.zh) if changes else []
        for subtype, new in changes:
            if not _keeps_company(draft, sentence, new):
                continue
            start, end, _ = changed_parts(sentence, new)
            if any(a < end and start < b for a, b, _ in names):
                continue  # 舅舅周大有的船 is no 周大没有的船: a name is no verb to negate
            if _argues_with_itself(sentence, new, start, subtype, draft.zh):
                continue
            if subtype == "affirm" and _parallel_negation(sentence, start, end, draft.zh):
                continue  # 三条规矩：不许进谱房；……不许碰胶和料；不许乱打听 -> 允许乱打听:
                # one of a list of denials turned (the sample, seed 5747's rows)
            if subtype == "affirm" and _UNKNOWN_LEFT[draft.zh].search(sentence[start:]):
                continue  # "did not know who it was" -> "knew who it was", 不知道那人是谁 ->
                # 知道: who, then? What was not known, said or named stays untold (the
                # sample, seed 5747: "a board boat he would not name")
            if subtype == "affirm" and _answered_next(draft, i) or \
                    subtype == "negate" and _INSTEAD[draft.zh].search(sentence):
                continue  # nor "Thaddeus did not come instead": what would it replace?
            if draft.zh and (_zh_set_phrase(sentence, start, end) if subtype == "affirm"
                             else _zh_says_a_quote(sentence, start, end)):
                continue
            if draft.zh and subtype == "negate" and not _zh_kept(draft, sentence, new):
                continue
            if draft.zh and subtype == "affirm" and _zh_echoed(draft, sentence, start):
                continue  # 输给鲁公子不丢人 ... later 输给鲁伯庸的儿子不丢人: the echo keeps it
            if subtype == "negate" and not draft.zh and (
                    _litotes(sentence, new) or not _negating_verb_kept(draft, sentence, new)):
                continue
            if _sets_up_a_turn(sentence, new, end, subtype, draft.zh):
                continue
            if contrasted_next(draft, i) or (not draft.zh and manner_in_change(sentence, new)):
                continue  # "... Yet cannot immediately treat him", "genuinely knows" 
            edit = draft.replace_sentence(i, new, subtype)
            if edit and not told_next(draft, edit):
                out.append(edit)  # (not where the next sentences take up what it was about:
                # "Orme did not bolt an eighteen-foot tide staff ... Wren at the tide staff",
                # seed 5343's reading)
    return out if draft.zh else _in_the_writers_constructions(draft, out)



def _parallel_negation(sentence: str, start: int, end: int, zh: bool) -> bool:
    """Is the negation at ``start:end`` one of several of the same form in the sentence (a
    list of denials: 不许……；不许……；不许……, "not a doctor, not a lawyer"), or one added to
    another by 也, 还 (还不许他再提)?"""
    if zh and sentence[start - 1 : start] in _ZH_ADDITIVE:
        return True  # 拒绝回答，还不许他再提: "and also not" adds a denial to one before it
    if zh and sentence[:start].endswith(_ZH_MINIMIZERS):
        return True  # 柳烟墨的字一点没变 -> 一点变了: "not a bit" is one phrase
    pattern = _ZH_NEGATOR if zh else EN_NEGATED
    here = pattern.search(sentence, start, max(end, start + 4))
    if not here:
        return False
    return sum(1 for m in pattern.finditer(sentence) if m.group() == here.group()) >= 2


_ZH_ADDITIVE = frozenset("也还又并更亦")
_ZH_MINIMIZERS = ("一点", "一点儿", "丝毫", "毫", "半点", "一丝", "一毫", "一字", "一句", "一眼",
                  "一步", "一个", "一口", "一分", "一刻")
# zh negators as written, the longer first, so that 不许 and 不 are not one form
_ZH_NEGATOR = re.compile(r"不许|不准|不能|不要|不肯|不让|不必|不用|没有|不|没")


# A negated verb of knowing, saying or naming whose object is what stays unknown: a question
# word after it, or no object at all ("he would not name", "did not say"). Affirmed, the
# sentence claims a knowledge it never gives.
_EN_UNKNOWN_VERBS = (r"know|knows|knew|known|say|says|said|tell|tells|told|name|names|named|"
                     r"reveal|reveals|revealed|explain|explains|explained|remember|remembers|"
                     r"remembered|recall|recalls|recalled|recognize|recognizes|recognized|"
                     r"recognise|recognises|recognised|understand|understands|understood|"
                     r"guess|guesses|guessed|see|saw|seen")
_UNKNOWN_LEFT = {
    False: re.compile(rf"(?i)^(?:not|n['’]t|never)?\s*(?:[a-z]+\s+){{0,2}}?(?:{_EN_UNKNOWN_VERBS})"
                      r"\b(?:\s+(?:who|whom|whose|what|which|why|where|when|how|whether|if)\b|"
                      r"\s*(?:[.,;:!?]|$))"),
    True: re.compile(r"^(?:不|没|没有|未)?(?:知道|认识|认得|清楚|晓得|明白|记得|看清|看清楚|"
                     r"说|肯说|告诉|说出)[^，,。；;！？]{0,8}?(?:谁|什么|哪|怎么|为什么|为何|"
                     r"几|多少|何)"),
}


# The tense of an auxiliary that a coordinated verb would share ("is bolting ... and ignores",
# "was bolting ... and ignored").
# "until" later in the clause: "not ... until spring" says when, not whether
_UNTIL_AFTER = r"^[^,;.]*\b(?:until|till)\b"
_PAST_OF_AUX = {"is": False, "are": False, "has": False, "have": False, "was": True, "were": True,
                "had": True}


def _coordinated_verb_follows(rest: str, past: bool, passive: bool = False) -> bool:
    """Does a second finite verb of the same subject, in the same tense (past or third
    person present), follow in ``rest`` ("takes over Terry's body and gains all of his
    knowledge"; "thought the accusation had been serious, had gone to get help, and now
    assumes"; "undertakes this enterprise, and makes choice of")? With ``passive`` (``rest``
    opens with the participle of a passive), a second participle counts too ("are taken by
    the officers and carried before the provost"). Negating the first alone reads "does not
    take over ... and gains": the negation would need to reach both."""
    for m in _COORDINATED.finditer(rest):
        word = m.group(1)
        if word in _PAST_OF_AUX and _PAST_OF_AUX[word] == past:
            return True  # ", had gone to get help"
        if _is_finite_verb(word) and (inflect.past_tense(word) == word) == past:
            return True
        if not past and _EN_ARCHAIC_PRESENT.fullmatch(word):
            return True  # "she is acquitted and hath leisure", "and goeth thence"
        if passive and _is_participle(word):
            return True
    return False


# A verb of the third person present in the old form ("hath", "doth", "goeth", "lieth"; not
# "teeth" or "twentieth")
_EN_ARCHAIC_PRESENT = re.compile(r"hath|doth|(?![a-z]*tieth)[a-z]{2,}[^e]eth")
# A coordinated word: after "and", "or", ", and", ", or" or a bare comma, past an adverb.
_COORDINATED = re.compile(r"(?:,\s*(?:and|or)\b|\b(?:and|or)\b|,)\s+(?:(?:then|also|later|"
                          r"soon|now|finally|eventually|still|instead)\s+)?([a-z]+)\b")


def preferred(draft: Draft, edits: list[Edit]) -> list[Edit]:
    """Within each direction, the edits whose negator a summary offers less, where it offers
    any: an affirmation that takes out a "not" or "n't" rather than "cannot" (a summary holds
    "cannot" far more than "can" before a verb, so "cannot" -> "can" came out twice as often
    as any "can" was negated, and "cannot" read as "original"), and a negation built with the
    writer's auxiliary rather than an inserted "never" (which every finite verb offers: "he
    never" read as "injected"). en only; a choice within one summary."""
    if draft.zh:
        return edits
    dropped = set()
    for subtype, abundant in (("affirm", _takes_out_cannot), ("negate", _brings_in_never)):
        mine = [k for k, e in enumerate(edits) if e.subtype == subtype]
        many = [k for k in mine if abundant(edits[k])]
        if len(many) < len(mine):
            dropped.update(many)
    return [e for k, e in enumerate(edits) if k not in dropped]


def _changed_words(old: str, new: str) -> tuple[str, str]:
    """The changed part of ``old`` and of ``new``, with 8 characters on each side: enough to
    hold a negator or a construction ("does not", "cannot") whole."""
    a, old_end, new_end = changed_parts(old, new)
    a = max(0, a - 8)
    return old[a : old_end + 8], new[a : new_end + 8]


def _takes_out_cannot(edit: Edit) -> bool:
    old, new = _changed_words(edit.original_span, edit.hallucinated_span)
    return len(_CANNOT.findall(old)) > len(_CANNOT.findall(new))


def _brings_in_never(edit: Edit) -> bool:
    old, new = _changed_words(edit.original_span, edit.hallucinated_span)
    return len(_NEVER.findall(new)) > len(_NEVER.findall(old))


_CANNOT = re.compile(r"(?i)\bcannot\b|\bcan['’]t\b|\bcan not\b")
_NEVER = re.compile(r"(?i)\bnever\b")


# A negating verb before its infinitive ("refused to", "fails to")
_EN_NEGATING_PHRASE = re.compile(r"(?i)\b(?:fail(?:s|ed)?|refuse[sd]?)\s+to\b")
_EN_DO_SUPPORTED = re.compile(r"\b(?:[Dd]oes|[Dd]id|[Dd]o)(?: not|n['’]t)\b")
# The constructions an en negation is written in, by the words that carry it.
_EN_CONSTRUCTIONS = (
    ("do", _EN_DO_SUPPORTED),
    ("be", re.compile(r"(?i)\b(?:is|was|are|were)(?: not|n['’]t)\b")),
    ("have", re.compile(r"(?i)\b(?:has|have|had)(?: not|n['’]t)\b")),
    ("modal", re.compile(r"(?i)\bcannot\b|\b(?:can|could|will|would|should|must|may|might|"
                         r"shall)(?: not\b|n['’]t\b)|\b(?:won|can)['’]t\b")),
    ("never", re.compile(r"(?i)\bnever\b")),
    ("verb", _EN_NEGATING_PHRASE),
)


def _constructions(text: str) -> set[str]:
    return {name for name, pattern in _EN_CONSTRUCTIONS if pattern.search(text)}


def _in_the_writers_constructions(draft: Draft, edits: list[Edit]) -> list[Edit]:
    """The negations written in a construction the summary's writer negates with ("does not
    know" from a writer of "does not", "is not" from a writer of "is not"), when there are
    any. Left to the places a summary offers, negations came out as "is not" (the commonest
    auxiliary) while the negations taken out were the writers' "does not" and "cannot": each
    direction had words of its own, and a reader learned them."""
    used = _constructions(draft.summary)

    def construction(edit: Edit) -> set[str]:
        return _constructions(_changed_words(edit.original_span, edit.hallucinated_span)[1])

    own = [e for e in edits if e.subtype == "negate" and construction(e) & used]
    if not own:
        return edits
    return [e for e in edits if e.subtype != "negate"] + own


_EN_NEGATIVE_PREFIXED = re.compile(r"(?i)(?:\bnot|n['’]t|\bnever)\s+(?:[a-z]+ly\s+)?"
                                   r"(un|in|im|il|ir|dis|non)([a-z]{4,})\b")


def _litotes(old: str, new: str) -> bool:
    """Does the negation land on a word already negative by its prefix ("it is not impossible
    to see", "they are not displeased")? Such a double negative reads as a figure of speech,
    not a plain denial, and rarely as the writer's sentence."""
    from lemminflect import getAllLemmas

    a, _, new_end = changed_parts(old, new)
    m = _EN_NEGATIVE_PREFIXED.search(new, max(0, a - 8), new_end + 40)
    return bool(m) and bool(getAllLemmas(m.group(2).lower()))


# --- en -----------------------------------------------------------------------------------------

class _Style(NamedTuple):
    """How a summary's writer negates."""

    contracted: frozenset = frozenset()  # the contractions written ("can't", "won't")
    writes_never: bool = False
    does_support: bool = True  # negates a verb with "does not"/"did not"
    apostrophe: str = "'"  # the one the writer's contractions use (’ or ')
    # (group, share): of the negations of a group's auxiliaries the writer writes, the share
    # contracted ("doesn't" against "does not")
    shares: tuple = ()


_PLAIN = _Style()
_CONTRACTION_GROUPS = (frozenset({"don't", "doesn't", "didn't"}),
                       frozenset({"isn't", "aren't", "wasn't", "weren't"}),
                       frozenset({"hasn't", "haven't", "hadn't"}))


_GROUPED = frozenset().union(*_CONTRACTION_GROUPS)


def _contracted_share(text: str, written: list[str], group: frozenset) -> float:
    """Of the negations of ``group``'s auxiliaries ``text`` writes, the share contracted
    ("doesn't" against "does not"; 0 where it writes none)."""
    short = sum(form in group for form in written)
    full = len(re.findall(r"(?i)\b(?:{})\s+not\b".format(
        "|".join(sorted(form[:-3] for form in group))), text))
    return short / (short + full) if short + full else 0.0


def _contract(style: _Style, form: str, sentence: str) -> bool:
    """Is the negation ``form`` ("doesn't") written contracted in ``sentence``? Always where
    the writer writes that contraction and it belongs to no group ("can't"); for a group's,
    with the share of the writer's own negations of that group written contracted, drawn
    from a digest of the sentence and the form. Contracting wherever the writer contracts
    more often than not brought "doesn't" in eight times more than it went out (the
    writer's "does not" were what went out)."""
    if form in style.contracted:
        return True
    for group, share in style.shares:
        if form in group:
            return thinning.drawn(share, "contract", sentence, form)
    return False


def _en_style(draft: Draft) -> _Style:
    """How the summary's own writer negates. A negation written otherwise than the writer's
    own is a tell: synopses that say "knows not" or "was not" and never "does not" gave their
    negated summaries away by "does" (0.90 of such pairs told apart), and a writer who
    contracts "can't" but writes "is not" gave them away by "isn't"."""
    def style() -> _Style:
        text = draft.summary
        found = [m.group().lower() for m in re.finditer(r"\b\w+n['’]t\b", text)]
        apostrophes = [form[-2] for form in found]
        written = [form.replace("’", "'") for form in found]
        # one auxiliary's forms go together ("didn't" -> "doesn't"); "can't" says nothing of
        # "isn't"; a group is contracted where the writer contracts it more often than not
        # (a writer of five "does not" and one "doesn't" writes "does not": contractions put
        # in by one "doesn't" came out five to one against those taken out, and readers
        # learned "doesn't" as a mark of an edit)
        return _Style(frozenset(set(written) - _GROUPED),
                      bool(re.search(r"\b[Nn]ever\b", text)),
                      bool(_EN_DO_SUPPORTED.search(text)),
                      # the commoner one, the first written on a tie (not a set's order,
                      # which changes with each process's string hashing)
                      max(apostrophes, key=apostrophes.count) if found else "'",
                      tuple((group, _contracted_share(text, written, group))
                            for group in _CONTRACTION_GROUPS))
    return draft.memo("negation_style", style)


# The verbs a writer may negate with ("Ralph fails to make", "Ralph refused to go"), used only
# where the book's summaries write them: the same "does not" everywhere is a tell too.
_EN_NEGATING_VERBS = {"fail": ("fails", "failed"), "refuse": ("refuses", "refused")}


def _en_negating_verbs(draft: Draft) -> tuple[str, ...]:
    """The lemmas of ``_EN_NEGATING_VERBS`` whose "<verb> to" the summary writes, or whose
    forms the book's summaries use."""
    def find() -> tuple[str, ...]:
        vocabulary = draft.vocabulary
        known = vocabulary is not None and vocabulary.enough
        return tuple(lemma for lemma, forms in _EN_NEGATING_VERBS.items()
                     if re.search(rf"\b(?:{'|'.join(forms)}) to\b", draft.summary)
                     or known and all(form in vocabulary for form in forms))
    return draft.memo("negating_verbs", find)


# A clause inside a question word or a relative pronoun ("what Vell would do", "which he said
# were found"): its verb is not the sentence's statement, and negating it reads oddly.
_EN_EMBEDDED = re.compile(r"(?i)\b(?:what|which|who|whom|whose|whatever|whoever|where|how|why|"
                          r"wherever|whereby|(?:all|everything|anything|nothing|much|little|"
                          # "to find someone that can help": not "someone that can't help"
                          r"someone|somebody|something|anyone|anybody|one|those) that)"
                          r"\s+(?:\w+\s+){0,6}$"
                          # a relative clause without its pronoun: "the aliens they encountered",
                          # "the new face he wears"
                          r"|\b(?:the|a|an|these|those|his|her|their)\s+"
                          r"(?:(?!(?:and|or|but)\b)[a-z]+\s+){1,2}(?:he|she|they|we|I|you)\s+$")
# A comparison before the verb ("more lively ... than the dry style ... can be"): the verb
# measures, it states nothing to deny.
_EN_THAN = re.compile(r"(?i)\bthan\b")


# An article before a capitalized subject ("The dead Slider", "the Machine"): a kind of
# thing, unless the entities name it a person.
_EN_A_THING_BEFORE = re.compile(r"(?i)\b(?:the|a|an|this|that|its)\s+(?:[a-z-]+\s+)?$")
# Pronouns that stand for people (a subject that may refuse or fail to do something)
_PERSONAL = frozenset({"he", "she", "they", "we", "who", "He", "She", "They", "We", "I"})


def _en_negations(sentence: str, style: _Style = _PLAIN,
                  negating_verbs: tuple[str, ...] = (),
                  people: list[str] | None = None) -> list[str]:
    writes_never, does_support = style.writes_never, style.does_support
    out = []
    def in_before_clause(at: int) -> bool:  # "before she can answer": not "cannot answer"
        if _EN_UNTIL_AFTER.search(sentence[at:]):
            return True  # "takes a nap ... until the night": "not ... until" is a delay
        return bool(_EN_BEFORE_CLAUSE.search(sentence[:at])) or \
            bool(_EN_EMBEDDED.search(sentence[:at])) or bool(_EN_THAN.search(sentence[:at])) \
            or bool(_EN_AT_LAST.search(sentence[:at])) or _after_its_purpose(sentence[:at]) \
            or _in_contrast_or_description(sentence[:at]) \
            or _in_a_contact_relative(sentence[:at]) \
            or bool(_EN_UNIVERSAL.search(sentence[:at])) \
            or bool(_EN_THAT_ALL.match(sentence[at:]))  # "but is loved": no "but is not"

    for m in _EN_AUX.finditer(sentence):
        if in_before_clause(m.start()) or _EN_AS_CLAUSE.search(sentence[m.end():]):
            continue
        previous = sentence[: m.start()].split()[-1:] or [""]
        if m.group() == "will" and previous[0].lower() in _NOUN_BEFORE_WILL:
            continue
        if m.group().lower() in _MODALS and not _verb_follows(sentence[m.end():]):
            continue  # "her last will and apparel", "with all his might": no modal there
        if _EN_NO_NOT_BEFORE.match(sentence[m.end():]):
            continue
        if m.group().lower() in ("is", "was", "are", "were") and _vaguer(sentence[m.end():]):
            continue
        if m.group().lower() in _PAST_OF_AUX and _coordinated_verb_follows(
                sentence[m.end():], _PAST_OF_AUX[m.group().lower()],
                passive=m.group().lower() in _BE and _participle_follows(sentence[m.end():])):
            continue  # "is not bolting a plate ... and ignores what happens"
        out.append(_negated_aux(sentence, m, style))
    for m in _EN_PERFECT.finditer(sentence):
        if re.search(rf"\b(?:to|{'|'.join(sorted(_MODALS))})\s+$", sentence[: m.start()]):
            continue  # "was to have supped", "may have made": no "to have not supped", "may
            # have not made" (the modal is negated instead)
        if _EN_NO_NOT_BEFORE.match(sentence[m.end():]):
            continue
        if _coordinated_verb_follows(sentence[m.end():], _PAST_OF_AUX[m.group(1).lower()]):
            continue  # "had been serious, had gone to get help": the negation reaches one
        if _is_participle(m.group(2)) and not in_before_clause(m.start()) and \
                not _EN_AS_CLAUSE.search(sentence[m.end():]):
            out.append(_negated_aux(sentence, m, style, group=1))
    for m in _EN_SUBJECT_VERB.finditer(sentence):
        if m.group(1) not in EN_STOPWORDS - {"He", "She", "They", "We", "It", "I"} \
                and not _EN_AFTER_PREPOSITION.search(sentence[: m.start(1)]) \
                and _is_finite_verb(m.group(2)) \
                and not in_before_clause(m.start(2)) \
                and not _EN_AS_CLAUSE.search(sentence[m.end(2):]) \
                and not _coordinated_verb_follows(
                    sentence[m.end(2):], inflect.past_tense(m.group(2)) == m.group(2)):
            supported = _do_support(m.group(2), style, sentence) if does_support else None
            if supported:  # "Ralph makes" -> "Ralph does not make", as summaries write it
                out.append(splice(sentence, m.start(2), m.end(2), supported))
            if writes_never and verb_lemma(m.group(2)) not in EN_STATE_VERBS:
                out.append(splice(sentence, m.start(2), m.start(2), "never "))
            for lemma in negating_verbs:  # "Ralph makes" -> "Ralph fails to make"
                if m.group(1) not in _PERSONAL and not any(
                        m.group(1) in name.split() for name in people or ()) and \
                        _EN_A_THING_BEFORE.search(sentence[: m.start(1)]):
                    break  # "a dead Slider refuses to attract": a thing, which refuses nothing
                if re.match(r"\s+to\s+[a-z]+", sentence[m.end(2):]):
                    break  # "manages to kill" is no "refuses to manage to kill"
                if verb_lemma(m.group(2)) in EN_INVOLUNTARY_VERBS:
                    break  # "he fails to step into a concrete mixer": it befell him
                if verb_lemma(m.group(2)) in EN_KNOWING_VERBS or re.match(
                        r"\s+(?:that|if|whether|what|how|why)\b", sentence[m.end(2):]):
                    break  # one finds or knows a thing, one does not refuse to: "he refuses
                    # to find that the boy is ..."
                verb = _negating_verb(m.group(2), lemma)
                if verb and not re.search(
                        rf"(?i)\b(?:{'|'.join((lemma, *_EN_NEGATING_VERBS[lemma]))})\b", sentence):
                    # not where the sentence uses it already: "refuses to offer Morgan his
                    # liberty, which he refuses to accept"
                    out.append(splice(sentence, m.start(2), m.end(2), verb))
    return out


_EN_UNTIL_AFTER = re.compile(_UNTIL_AFTER)
# A name after a preposition is no subject: "the advice of Nestor followed" is a passive
# without its "was", not "Nestor followed".
_EN_AFTER_PREPOSITION = re.compile(r"\b(?:of|by|to|with|from|for|upon|on|in|at|against|about|"
                                   r"into|than)\s+(?:(?:a|an|the)\s+)?$")
# An outcome told as reached in the end ("At last, ... he is prevailed upon to leave", "at
# length the advice of Nestor followed"): its denial reads against those words.
_EN_AT_LAST = re.compile(r"(?i)\b(?:at last|at length|finally|eventually|in the end|"
                         r"ultimately)\b[^;]*$")
_BE = {"is", "are", "was", "were"}


def _after_its_purpose(before: str) -> bool:
    """Does the sentence open with the purpose of the action that follows ("To conceal his
    return, she changes him into a beggar")? Denied, the action contradicts its purpose."""
    m = re.match(r"\W*(?:[Ii]n order to|[Ss]o as to|To)\s+([a-z]+)\b[^;]*,", before)
    if m and is_base_verb(m.group(1)):
        return True
    # or a clause of the sentence does ("..., and in order to stop that from happening, they
    # must stop the power cylinder", study corpus, seed 61)
    m = re.search(r"(?:^|[,;:]\s*(?:and|but|so)?\s*)(?:[Ii]n order to|[Ss]o as to)\s+([a-z]+)"
                  r"\b[^,;]*,[^,;]*$", before)
    return bool(m) and is_base_verb(m.group(1))


def _participle_follows(rest: str) -> bool:
    """Does ``rest`` open with a past participle, after an adverb if any ("taken by the
    officers", "soon carried away")?"""
    words = re.findall(r"[a-z]+", rest[:40])[:2]
    return any(_is_participle(w) for w in words[:1]) or len(words) == 2 and \
        _is_adverb(words[0]) and _is_participle(words[1])


# A clause of "as" after the verb, which gives its time or its reason ("starts to heat up as
# they get closer to the sun"): the negated event would still be told as happening with it.
_EN_AS_CLAUSE = re.compile(r"\bas\s+(?:he|she|it|they|we|you|I|the|his|her|their|[A-Z]\w*)\s+"
                           r"(?:\w+\s+)?[a-z]+(?:s|ed)\b")


# Words after an auxiliary that no "not" goes before: "was not only nine days old" reads "not
# only ... but also"; no one writes "is not still jaded", "has not been only ten years", "was
# not increasingly stressed", "is not now looked after", "was not finally freed", "is not less
# convinced".
_EN_NO_NOT_BEFORE = re.compile(r"\s+(?:been\s+)?(?:only|just|merely|even|also|still|already|"
                               r"after|afterwards?|"
                               r"increasingly|gradually|progressively|now|finally|suddenly|"
                               r"eventually|less|more)\b")


def _vaguer(rest: str) -> bool:
    """Would a "not" before ``rest`` (what follows a form of "be") only make the sentence
    vaguer, or leave the apposition after it describing nothing? "The starship is not two
    hundred light-years away" says no distance (a changed number is the ``number`` type's
    work); "The crime is not in Canarsie, in southeast Brooklyn near Jamaica Bay" goes on
    to place the town it denies."""
    words = rest.lstrip()
    if re.match(r"(?i)(?:about|some|nearly|almost|over|under|around|roughly|exactly)?\s*\d",
                words) or (EN_NUMBER_WORDS.match(re.sub(
                    r"(?i)^(?:about|some|nearly|almost|over|under|around|roughly|exactly)\s+",
                    "", words)) and not re.match(r"(?i)one\s+of\b", words)):
        return True
    return bool(re.match(r"(?:in|at|on|near|from)\s+(?:the\s+)?[A-Z][\w'’-]*"
                         r"(?:\s+[A-Z][\w'’-]*)*,\s", words))


def _negating_verb_kept(draft: Draft, old: str, new: str) -> bool:
    """Is a negation with a negating verb ("refuses to make", "failed to go") kept? A
    summary offers one wherever it has a finite verb, and the writer who writes "refused to"
    at all writes it for few of their negations: left to the places, "refuses to" was two in
    five of the negations of the prose corpus's books, and a mark of the edit for every
    reader. It is kept with the share of the book's written negations (``not``, ``never``,
    the contractions, the negating verbs) that use a negating verb; other negations are
    kept."""
    _, new_part = _changed_words(old, new)
    if not _EN_NEGATING_PHRASE.search(new_part):
        return True
    vocabulary = draft.vocabulary
    if vocabulary is None:
        verbs = len(_EN_NEGATING_PHRASE.findall(draft.summary))
        written = verbs + len(_EN_NEGATION_WORD.findall(draft.summary))
    else:
        verbs = sum(vocabulary.count(form) for lemma, forms in _EN_NEGATING_VERBS.items()
                    for form in (lemma, *forms))
        written = verbs + sum(vocabulary.count(word) for word in _EN_NEGATION_WORDS)
    return thinning.drawn(verbs / written if written else 0.0, "polarity", draft.summary, new)


_EN_NEGATION_WORDS = ("not", "never", "cannot", *(form.replace("'", apostrophe)
                                                 for form in (*EN_NEGATED_AUXILIARIES, "don't",
                                                              "doesn't", "didn't")
                                                 if form != "cannot"
                                                 for apostrophe in ("'", "’")))
_EN_NEGATION_WORD = re.compile(r"\b(?:not|never|cannot|\w+n['’]t)\b")


def _negating_verb(verb: str, lemma: str) -> str | None:
    """``verb`` as "<lemma> to <its base form>", in its tense ("makes" -> "fails to make",
    "went" -> "failed to go"), or None where the verb is no past or third person form."""
    base = verb_lemma(verb)
    if base is None or base in ("be", "have", lemma):
        return None
    tag = "VBZ" if inflect.third_person(verb) == verb else "VBD"
    negating = inflect.inflected(lemma, tag)
    return f"{negating} to {base}" if negating else None


# A clause that opens with "before", "until", "unless" or "lest" (up to the verb, no comma
# between): its verb is not negated ("before she cannot answer" is no English), nor that of
# a condition ("if they were to get another, it would take a year" is no "weren't").
_CONCESSIVE = r"[Aa]lthough|[Tt]hough|[Ee]ven if|[Dd]espite|[Ww]hereas"
_EN_BEFORE_CLAUSE = re.compile(r"\b(?:[Bb]efore|[Uu]ntil|[Tt]ill|[Uu]nless|[Ll]est|[Aa]s|[Ww]hen|"
                               rf"[Ii]f|{_CONCESSIVE}|[Ww]hile|[Ww]henever|[Oo]nce|[Aa]fter)\s[^,;:.]*$")

_MODALS = {"can", "could", "will", "would", "should", "must", "may", "might", "shall"}


def _verb_follows(rest: str) -> bool:
    """Does ``rest`` open with a verb's base form, after adverbs if any ("go", "soon go",
    "have seen"), as it must after a modal?"""
    for word in re.findall(r"[A-Za-z]+", rest[:80])[:4]:
        if is_base_verb(word):
            return True
        if verb_lemmas(word) or not _is_adverb(word):
            return False
    return False


def _is_adverb(word: str) -> bool:
    from lemminflect import getAllLemmas

    return "ADV" in getAllLemmas(word.lower())


def _negated_aux(sentence: str, m: re.Match, style: _Style, group: int = 0) -> str:
    """``sentence`` with the auxiliary of ``m`` negated: "could" -> "could not", or
    "couldn't" where the writer writes that contraction."""
    aux = m.group(group)
    short = _CONTRACTED_OF.get(aux.lower())
    if short is None or not _contract(style, short, sentence):
        short = "cannot" if aux.lower() == "can" else None
    if short:
        short = short.replace("'", style.apostrophe)
        return splice(sentence, m.start(group), m.end(group), match_case(aux, short))
    return splice(sentence, m.end(group), m.end(group), " not")


def _do_support(verb: str, style: _Style, sentence: str) -> str | None:
    """"went" -> "did not go", "makes" -> "does not make" (lemminflect's lemma), or None."""
    from lemminflect import getLemma

    lemmas = getLemma(verb, upos="VERB")
    if not lemmas or lemmas[0] == verb:
        return None
    lemma = lemmas[0]
    present = verb.endswith("s") and not verb.endswith("ss") and (
        verb in (lemma + "s", lemma + "es") or verb == lemma[:-1] + "ies")
    aux = "does" if present else "did"
    negation = f"{aux}n{style.apostrophe}t" if _contract(style, f"{aux}n't", sentence) \
        else aux + " not"
    return f"{negation} {lemma}"


def _is_participle(word: str) -> bool:
    """Is ``word`` a verb's past participle ("been", "walked", "led"), by lemminflect?"""
    return inflect.past_participle(word) == word


def _is_finite_verb(word: str) -> bool:
    """Is ``word`` a verb in the simple past or the third person present ("went", "makes"),
    by lemminflect (no guessing at "-ed" or "-s": "hundred", "towards" are none)?"""
    if word in EN_NEVER_SKIP or word in EN_AUXILIARIES or \
            word in ("has", "had", "did", "does"):
        return False
    if verb_lemma(word) is None:
        return False
    return word in (inflect.past_tense(word), inflect.third_person(word))


def _en_affirmations(sentence: str) -> list[str]:
    out = []
    for m in _EN_DO_NOT.finditer(sentence):
        verb = m.group(2)
        if not _affirmable(sentence, m.start(), m.end()) or verb_lemma(verb) is None:
            continue
        new = past_tense(verb) if m.group(1) == "did" else verb
        new = third_person(verb) if m.group(1) == "does" else new
        out.append(splice(sentence, m.start(), m.end(), new))
    for pattern, positive in ((_EN_AUX_NOT, lambda m: m.group(1)),
                              (_EN_CONTRACTED, lambda m: match_case(
                                  m.group(), EN_NEGATED_AUXILIARIES[m.group().lower()])),
                              (_EN_NEVER, lambda m: "")):
        for m in pattern.finditer(sentence):
            if _affirmable(sentence, m.start(), m.end()):
                out.append(splice(sentence, m.start(), m.end(), positive(m)))
    return out


# After a negation, what makes it part of the sense rather than a statement to reverse: "not
# ... until spring" (it sits in spring; "would sit until spring" says another thing badly),
# a reason given in the conditional ("could not ring the bell, because it would have told"),
# a question after it ("don't know if" is no "know if"), and a degree that lives under a
# negation ("does not care much" is no "cares much"), and an "instead" that answers it ("had
# not died out; instead, they ...").
_EN_NEGATION_BOUND = re.compile(rf"(?i){_UNTIL_AFTER}|\bwould have\b"
                                r"|^\s*(?:\w+\s+)?(?:if|whether|much|at all)\b"
                                r"|\binstead\b|\brather\b")


def _affirmable(sentence: str, start: int, end: int) -> bool:
    """May the negation at ``start:end`` be taken out? Not after it a bound of its sense,
    nor in a concession ("Although beggars are not allowed shoes, he puts some on anyway":
    without the "not" the sentence contradicts itself), nor where it is one side of a
    contrast ("not his fault, but that of his fortune"; "loves a widow lady, but is not loved
    by her": without the "not", "but" sets nothing against what it opens)."""
    return not _EN_NEGATION_BOUND.search(sentence[end:]) and \
        not _EN_NEGATIVE_IDIOM.match(sentence[start:]) and \
        not _in_a_contact_relative(sentence[:start]) and \
        not _EN_PURPOSE_BEFORE.search(sentence[:start]) and \
        not _EN_CONCESSION.search(sentence[:end]) and \
        not _EN_NOT_BUT.search(sentence[end:]) and \
        not _in_contrast_or_description(sentence[:start])


# "cannot stop reading", "can't help laughing", "cannot bear": the negation is the phrase
# ("can stop reading", "can bear the life she lives" say nothing a writer would).
_EN_NEGATIVE_IDIOM = re.compile(r"(?i)(?:cannot|can['’]t|can not|could not|couldn['’]t)\s+"
                                r"(?:stop|help|bear|stand|wait|resist|believe|imagine|"
                                r"get over|keep from)\b")
# A subject of "all", "every", "both" or "each" in the clause before the verb ("all five of the
# Ewe's men were safe"): denied, "all ... were not safe" reads as "not all" or as "none", and
# no writer says it so; nor before a "that all" it reports ("did not find that all fourteen
# agreed", the sample, seed 5545)
_EN_UNIVERSAL = re.compile(r"(?i)\b(?:all|every|everyone|everybody|both|each)\b[^,;:.]*$")
_EN_THAT_ALL = re.compile(r"(?i)\w+\s+(?:\w+\s+)?that\s+(?:all|every|both|each)\b")
# A pronoun right after a noun, its relative pronoun left out ("the little parcel of linen
# she had sent", "ever thing she can fairly interpret"): the clause picks out the thing.
_EN_CONTACT_RELATIVE = re.compile(r"\b([a-z]{3,})\s+(?:he|she|they|we|I|you)\s+"
                                  r"(?:(?:had|has|have|can|could|would|will|did|does|do)\s+)?"
                                  r"(?:[a-z]+ly\s+)?$")


def _in_a_contact_relative(before: str) -> bool:
    """Does ``before`` end in a noun and a pronoun, a relative clause without its "that"? Its
    verb picks out the thing ("the parcel she had sent"); negated, it picks out nothing
    ("the parcel she had not sent", seed 22 of the prose corpus)."""
    m = _EN_CONTACT_RELATIVE.search(before)
    if not m or m.group(1) in EN_STOPWORDS:
        return False
    classes = inflect.word_classes(m.group(1))
    return "NOUN" in classes and "VERB" not in classes and "ADV" not in classes


# A purpose ("be quiet so they do not attract attention", "so that he does not"): without its
# "not" it undoes what the sentence sets out to do.
_EN_PURPOSE_BEFORE = re.compile(r"(?i)\bso(?: that)?\s+(?:[\w'’]+\s+){1,2}$")


# "not A, just B" or "not A but B": the rest of a contrast the negation opens ("They do not
# understand the concepts of change, ..., just living with the same schedule"; "this is not
# his fault, but that of his own perverse fortune")
_EN_NOT_BUT = re.compile(r",\s+(?:just|only|simply|merely|rather)\b|^[^;]*?\bbut\s+(?:rather|"
                         r"that|those|the|a|an|his|her|their|its|to|in|on|at|for|by|with|from|"
                         r"of)\b")
# A verb that a relative pronoun opens ("books that did not exist", "a man who is not").
_EN_RELATIVE_BEFORE = re.compile(r"(?i)\b(?:that|which|who)\s+$")


def _in_contrast_or_description(before: str) -> bool:
    """Is the verb after ``before`` in the writer's own contrast (``draft.in_a_contrast``) or
    description (a relative clause)? Its "not" is then neither taken out ("however, it is the
    real ISV Terrific", "books that existed") nor put in (the "but ... not" a writer uses
    would grow in injected summaries)."""
    return in_a_contrast(before) or bool(_EN_RELATIVE_BEFORE.search(before)) or \
        bool(_EN_HOWEVER_CLAUSE.search(before))


# A clause that "however" opens, to its end: what it sets against the clause before is its
# polarity ("hopeful that the girl will realize her mistake; however, he concludes that the
# speed would not be fast enough", seed 5747's reading: without the "not", "however" sets
# nothing against anything).
_EN_HOWEVER_CLAUSE = re.compile(r"(?i)(?:^|[;,:]\s*)(?:however|nevertheless|nonetheless)\b"
                                r"[^;.!?]*$")


_EN_CONCESSION = re.compile(rf"\b(?:{_CONCESSIVE})\s[^,;:.]*$")


def past_tense(verb: str) -> str:
    """Simple past of an en base verb, by lemminflect ("go" -> "went")."""
    return inflect.past_tense(verb) or verb


def third_person(verb: str) -> str:
    """Third person singular present of an en base verb, by lemminflect ("go" -> "goes")."""
    return inflect.third_person(verb) or verb


# --- zh -----------------------------------------------------------------------------------------

def _join(tagged, start: int, end: int, new: str) -> str:
    return "".join(w for w, _ in tagged[:start]) + new + "".join(w for w, _ in tagged[end:])


def _negated_before(tagged, k: int) -> bool:
    return k > 0 and tagged[k - 1][0].endswith(ZH_NEGATORS + ("没有",))


def _a_not_a(tagged, k: int) -> bool:
    """Is token ``k`` part of an A-not-A question (会不会, 是不是, 有没有)?"""
    word = tagged[k][0]
    before = tagged[k - 1][0] if k > 0 else ""
    after = tagged[k + 1][0] if k + 1 < len(tagged) else ""
    if word[:1] in "不没" and len(word) > 1 and before and before.endswith(word[1:2]):
        return True
    return bool(after[:1] in "不没" and len(after) > 1 and after[1:2] == word[-1:])


# What a zh negation puts before 是 or 有 and the words that end in that character without
# being it (于是, 但是; 只有, 所有): the plain verb is the rest.
_ZH_PLAIN = {"是": re.compile(r"(?<![不于但还就总只可要若倒而正也都凡])是"),
             "有": re.compile(r"(?<![没只还所])有")}


def _zh_kept(draft: Draft, old: str, new: str) -> bool:
    """Is a zh negation of 是 or 有 kept? Writers write 是 far more often than 不是 (the
    sample's summaries: 71 to 2), and a summary offers 是 -> 不是 wherever it has a 是, so
    不是 came in 12 times and went out none. A negation 不是 / 没有 is kept with the chance
    ``min(1, n(negated) / n(plain))`` in the book's summaries (this one's where they are not
    known), so it comes in about as often as the writer writes it; drawn from a digest of
    the summary and the change, the same in every build. Other negations are kept."""
    start, _, new_end = changed_parts(old, new)
    negator, verb = new[start:new_end], old[start:start + 1]
    if negator not in ("不", "没") or verb not in _ZH_PLAIN:
        return True
    if draft.vocabulary is not None:
        negated, plain = draft.vocabulary.count(negator + verb), \
            draft.vocabulary.count(_ZH_PLAIN[verb])
    else:
        negated, plain = draft.summary.count(negator + verb), \
            len(_ZH_PLAIN[verb].findall(draft.summary))
    return thinning.drawn((negated + 0.5) / (plain + 0.5), "polarity", draft.summary, new)


def _zh_echoed(draft: Draft, sentence: str, start: int) -> bool:
    """Does another sentence of the summary (or the rest of the window's) write the negation
    at ``start`` with the word after it (不丢人 where another says 不丢人, the sample, seed
    5545)? Taken out here, the echo keeps the original."""
    phrase = re.match(r"(?:没有|不是|[不没未])[\u4e00-\u9fff]{2}", sentence[start:])
    if not phrase:
        return False
    return phrase.group() in draft.elsewhere(sentence)


def _after_only(tagged, k: int) -> bool:
    """Does 只有/只/仅 stand earlier in the clause of word ``k`` ("钥匙只有师父有": negated,
    "只有师父没有" says nothing, the sample, seed 71)?"""
    for word, _ in reversed(tagged[:k]):
        if word in ("，", ",", "；", ";", "。", "：", ":"):
            return False
        if word in ("只有", "只", "仅", "仅仅", "唯有", "只是"):
            return True
    return False


def _zh_negations(tagged) -> list[str]:
    out = []
    for k, (word, flag) in enumerate(tagged):
        if _negated_before(tagged, k) or _a_not_a(tagged, k) or _after_only(tagged, k):
            continue
        following = tagged[k + 1][0] if k + 1 < len(tagged) else ""
        if word == "是" and flag == "v":
            if following not in ("，", ",", "：", ":"):  # 规矩是，谁输了理……: no 不是，
                out.append(_join(tagged, k, k + 1, "不是"))
        elif word in ZH_MODALS and _zh_verbish(following, _flag_after(tagged, k)):
            # only a modal before a verb: 人头会 (a gathering) and 会潘三 (meets) are not 会+V
            out.append(_join(tagged, k, k + 1, "不用" if word == "要" else "不" + word))
        elif word == "有" and flag == "v":
            out.append(_join(tagged, k, k + 1, "没有"))
        elif flag.startswith("v") and following == "了" and word not in ("没有", "有") and \
                not _zh_chain_goes_on(tagged, k):
            out.append(_negate_done(tagged, k))
    return out


_EN_TURN_AFTER = re.compile(r"(?:,\s*|\s)(?:but|yet)\b")
_ZH_TURN_AFTER = re.compile(r"[，,]\s*(?:但|可是|然而|不过)|却")
_EN_CONDITION = re.compile(r"(?i)\b(?:if|unless)\b|\bafraid\b|\bfear(?:s|ed)?\b|\blest\b|"
                           r"\bas (?:\w+ )?(?:it|he|she|they|we|I) (?:\w+ )?(?:did|had|was|were)\b")
_ZH_CONDITION = re.compile(r"如果|要是|假如|倘若|若是|万一|条件是|只要|除非")


def _sets_up_a_turn(sentence: str, new: str, end: int, subtype: str, zh: bool) -> bool:
    """Would the change turn a statement the rest of its sentence leans on (seed 5141's
    reading)? One that a "but", "yet" (但, 却) after it sets against ("Lethla is not caught
    off guard but manages to fire"); a sentence with a condition ("Prays for vengeance upon
    him, if she recover"), a fear ("Afraid Belford never plays him false") or a comparison
    with before ("would not have saved her, as it did once before"), whose halves hold each
    other's polarity (seed 5242); a 才 after it; a verb of saying or finding negated before
    its "that" ("Rikud doesn't say that stars may be changing": the report is still there,
    unsaid); a Chinese double negative (没有不比)."""
    if (_ZH_TURN_AFTER if zh else _EN_TURN_AFTER).search(sentence[end:]):
        return True
    if zh and "才" in sentence[end:]:
        return True  # 没有结皮，他才回: 才 waits for what was done
    if (_ZH_CONDITION if zh else _EN_CONDITION).search(sentence):
        return True
    if zh:
        return "没有不" in new or "不不" in new or "没不" in new
    start = word_start(sentence, changed_parts(sentence, new)[0])  # "he can|not": the word
    if _EN_FREE_RELATIVE.search(sentence[:start]):
        return True  # "purchase anything he can think of" -> "anything he cannot think of"
        # (seed 5444's reading): a clause that says how much, not whether
    return subtype == "negate" and bool(re.match(r"\s+that\b", sentence[end:]))


# The head of a clause that says how much or which, not whether ("anything he can think of",
# "whatever she wanted", "all that they could carry"): turned, it says nothing a reader can
# believe ("anything he cannot think of").
_EN_FREE_RELATIVE = re.compile(r"(?i)\b(?:anything|everything|whatever|whichever|wherever|"
                               r"whenever|whoever|all|as much as|as many as)\s+(?:that\s+)?"
                               r"(?:he|she|they|we|you|i|it|[A-Z][\w'’-]*)\s+$")


_ZH_COVERBS = ("把", "将", "被", "给", "替", "为", "向", "对", "跟", "在", "从", "用", "拿")


def _zh_chain_goes_on(tagged, k: int) -> bool:
    """Does the clause after the one of verb ``k`` go on with the same subject and what the
    verb did (its first word a verb: 用六两松烟压了二十锭小墨，埋进灰箱试验)? Negated, the
    deed would leave the next one nothing to act on (seed 4939's reading)."""
    for j in range(k + 1, len(tagged)):
        if tagged[j][0] in "。；;！？":
            return False
        if tagged[j][0] in "，,":
            after = next(((w, f) for w, f in tagged[j + 1:] if w.strip()), ("", "x"))
            return after[1].startswith("v") and after[0] not in ("是", "有")
    return False


def _negate_done(tagged, k: int) -> str:
    """V了 -> 没有V; with 把/将/被 or a co-verb (给, 向, 在 ...) earlier in the clause the
    negation goes before it (把钥匙交给了她 -> 没有把钥匙交给她)."""
    for j in range(k - 1, -1, -1):
        word = tagged[j][0]
        if word in "，,；;：:。":
            break
        if word in _ZH_COVERBS:
            # (and a co-verb: 师父给他抹了药 -> 师父没有给他抹药, not 给他没有抹药)
            body = "".join(w for w, _ in tagged[j:k]) + tagged[k][0]
            return _join(tagged, j, k + 2, "没有" + body)
    return _join(tagged, k, k + 2, "没有" + tagged[k][0])


# Words of a turn ("but", "yet") right before a negation: the negation is the turn's content.
_ZH_TURNS = ("但", "但是", "却", "可是", "然而", "不过", "可")


def _zh_affirmations(tagged) -> list[str]:
    out = []
    for k, (word, _flag) in enumerate(tagged):
        nxt = tagged[k + 1] if k + 1 < len(tagged) else ("", "x")
        if _a_not_a(tagged, k):
            continue
        if word in ("没有", "没", "不") and k > 0 and tagged[k - 1][0].endswith(("也", "都")):
            continue  # 一句话也没说, 什么都不要: an emphatic negative; 也说了 is no statement
        if word in ("没有", "没", "不", "未") and k > 0 and \
                tagged[k - 1][0].endswith(_ZH_TURNS):
            continue  # 早就猜到是青禾拿的书，但没有说出来: the negation is what 但 turns to;
            # 但说了出来 turns to nothing (the sample, seed 31)
        if word == "不" and nxt[0].startswith("敢"):
            continue  # 阿水不敢看小满 -> 阿水敢看小满: 敢 alone is no plain statement (and 不敢
            # as one word is not in ZH_NEGATED_WORDS)
        if word in ("没有", "没") and nxt[0] in _ZH_COVERBS:
            continue  # 没有把这件事告诉他: the affirmative is 把这件事告诉了他, no 有把
        if word in ("没有", "没") and k > 0 and tagged[k - 1][0].endswith("还"):
            continue  # 还没有下山 (not yet): its affirmative is 已经下山了, no 还有下山
        if word in ("没有", "没", "未") and nxt[0].strip() and nxt[1] != "x":
            if _zh_verbish(*nxt):
                after = tagged[k + 2][0] if k + 2 < len(tagged) else ""
                # 没有动过 -> 动过, not 动了过
                done = "" if after.startswith(("过", "了", "着")) else "了"
                out.append(_join(tagged, k, k + 2, nxt[0] + done))
            elif word == "没有":
                out.append(_join(tagged, k, k + 1, "有"))
        elif word == "不" and nxt[1] != "x" and nxt[0].strip():
            if k > 0 and tagged[k - 1][0].endswith("得"):
                continue  # 不得不 is a double negative, not a negation
            if k > 0 and nxt[0].startswith(tagged[k - 1][0][-1:]):
                continue  # 会不会, 是不是: a question, not a negation
            out.append(_join(tagged, k, k + 1, ""))
        elif word == "不是":
            if not any(w in ("而是", "只是", "就是", "倒是") for w, _ in tagged[k + 1:]):
                # 不是A而是B: without its 不, 是A而是B says nothing
                out.append(_join(tagged, k, k + 1, "是"))
        elif word in ZH_NEGATED_WORDS:
            out.append(_join(tagged, k, k + 1, ZH_NEGATED_WORDS[word]))
    return out


def _flag_after(tagged, k: int) -> str:
    return tagged[k + 1][1] if k + 1 < len(tagged) else "x"


def _zh_verbish(word: str, flag: str) -> bool:
    return flag.startswith("v") or word[:1] in ZH_VERB_HEADS
