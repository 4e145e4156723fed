"""Event errors: the action changed (``verb``: talked -> quarreled) or the result changed
(``outcome``: released -> detained), both from a contrast lexicon. ``merge`` is left to LLM
generators: fusing two events honestly needs an understanding of the story."""

from __future__ import annotations

import re

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.draft import (
    DEATH,
    Draft,
    confirmed_later,
    gives_its_reason,
    in_a_contrast,
    manner_in_change,
    own_words_first,
    sentence_of,
    takes_up_before,
    told_next,
    word_edits,
)
from longnovel.injection.lexicon.en import (
    EN_BARE_INFINITIVE_VERBS,
    EN_CLAUSE_OBJECT_VERBS,
    EN_EVENT_OUTCOMES,
    EN_EVENT_STAND_INS,
    EN_EVENT_VERBS,
    EN_FIXED_OBJECTS,
    EN_FROM_VERBS,
    EN_INTO_VERBS,
    EN_NEEDS_OBJECT,
    EN_NO_OBJECT,
    EN_OBJECT_TO_INFINITIVE_VERBS,
    EN_OF_VERBS,
    EN_PARTICLES,
    EN_PERSON_OBJECT,
    EN_RELATION_INVENT,
    EN_RELATION_REPLACE,
    EN_RULE_OBJECTS,
    EN_TITLES,
    EN_TO_INFINITIVE_VERBS,
)
from longnovel.injection.lexicon.zh import (
    ZH_EVENT_OUTCOMES,
    ZH_EVENT_STAND_INS,
    ZH_EVENT_VERBS,
    ZH_INTENTIONS,
    ZH_PLACE_HEADS,
)
from longnovel.injection.nlp.inflect import (
    is_base_verb,
    past_participle,
    verb_lemma,
    verb_lemmas,
)
from longnovel.injection.nlp.numerals import en_words_to_int
from longnovel.injection.nlp.text import changed_parts, word_change

_PREPOSITIONS = {"behind", "in", "on", "at", "under", "from", "into", "to", "with", "for",
                 "over", "near", "beside", "inside", "outside", "out", "away", "up", "down",
                 "off", "through", "among", "below", "above", "until", "till", "and", "but"}


_BE = {"is", "was", "are", "were", "be", "been", "being"}
# "<object> <bare infinitive>" after the verb: "helped Wren take the key", "let him go".
_BARE_INFINITIVE_AFTER = re.compile(r"\s+(?:[A-Z][a-z]+|him|her|them|me|us)\s+(?!to\b|and\b|"
                                    r"with\b|in\b|on\b|at\b)([a-z]+)\b(?!['’])")
# Senses a contrast lexicon does not mean: "the letter which he wrote to his wife" (wrote, not
# visited), "the chapter which follows sixty-nine" (comes after, not leads).
_NOT_AFTER = {
    "wrote": re.compile(r"(?i)\b(?:letter|note|lines?)\b.*\bwrote to\b"),
    "writes": re.compile(r"(?i)\b(?:letter|note|lines?)\b.*\bwrites to\b"),
    "follows": re.compile(r"(?i)\bfollows\s+(?:chapter|the chapter|[\w-]*(?:ty|teen|one|two|"
                          r"three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b|\d)"),
}


# Words after which a word of the lexicons is a noun ("the escape", "their visits"); not "her",
# which is also an object ("helped her escape").
_DETERMINERS = {"the", "a", "an", "his", "their", "my", "our", "its", "your", "this", "that",
                "these", "those", "some", "many", "few", "several", "no", "any", "every",
                "each", "such"}


def _is_gerund(word: str) -> bool:
    """Is ``word`` a verb's -ing form ("receiving"), after which a word is its object? Not
    "being"/"having" (the passive and the perfect are read elsewhere) nor a noun in -ing
    ("morning", "something")."""
    if not word.endswith("ing") or word in ("being", "having"):
        return False
    return any(lemma != word for lemma in verb_lemmas(word))


_NOT_AGENTS = {"time", "day", "moment", "hour", "night", "morning", "evening", "news", "letter",
               "spring", "summer", "autumn", "winter", "date", "season", "week", "year"}


def _bare_infinitive_follows(rest: str) -> bool:
    """Does ``rest`` open with an object and a bare infinitive ("Wren take the key")?"""
    m = _BARE_INFINITIVE_AFTER.match(rest)
    return bool(m) and is_base_verb(m.group(1))


_PERSON_NOUNS = set(EN_TITLES) | {w for table in (
    EN_RELATION_REPLACE, EN_RELATION_INVENT) for w in table} | {
    "man", "woman", "boy", "girl", "men", "women", "people", "child", "children", "lady",
    "gentleman", "stranger", "crowd", "family", "guests", "host", "hostess"}


def _person_follows(rest: str) -> bool:
    """Does ``rest`` open with a person: a pronoun, a name, or a determiner and a person noun
    ("the captain", "his father")?"""
    m = re.match(r"\s*([\w'’-]+)(?:\s+([\w'’-]+))?", rest)
    if not m:
        return False
    first, second = m.group(1), (m.group(2) or "").lower()
    if first.lower() == "her":  # "thanked her for", "her father"; not "her clock"
        return not second or second in _PREPOSITIONS or second.rstrip("s") in {
            w.rstrip("s") for w in _PERSON_NOUNS}
    if first.lower() in ("him", "them", "me", "us", "everyone", "everybody"):
        return True
    if first[:1].isupper() and first.lower() not in ("the", "a", "an", "his", "her", "their"):
        # a name, but not a name's thing: "blamed Hesper's new wheel" is no "thanked" it
        return not re.match(r"[\w-]+['’]s?$", first) or (
            second.rstrip("s") in {w.rstrip("s") for w in _PERSON_NOUNS})
    return first.lower() in ("the", "a", "an", "his", "her", "their", "my", "our", "its") \
        and second.rstrip("s") in {w.rstrip("s") for w in _PERSON_NOUNS}


def _passive(new: str) -> bool:
    """Does ``new`` read after "was"/"were" (the participle of a verb that takes an object:
    detained, captured, lost; not died)?"""
    return " " not in new and new not in EN_NO_OBJECT and past_participle(new) == new


_OBJECT = (r"(?:him|her|them|me|us|it|himself|herself|themselves|[A-Z][a-z]+"
           r"|(?:the|his|her|their|a|an|its|my|our)\s+[a-z]+)")
_TO_INFINITIVE = re.compile(r"\s+to\s+([a-z]+)\b")
_OBJECT_TO_INFINITIVE = re.compile(rf"\s+{_OBJECT}\s+to\s+([a-z]+)\b")
_PARTICLE_AFTER = re.compile(rf"\s+(?:{_OBJECT}\s+)?([a-z]+)\b")
# "from" after the verb's object and at most two more words ("hides the letter from her")
_FROM_AFTER = re.compile(rf"\s+(?:{_OBJECT}\s+)?(?:[\w'’-]+\s+){{0,2}}?from\b")


def _complement_fault(sentence: str, start: int, end: int, new: str) -> str | None:
    """Why ``new`` cannot take the complement the old verb has in ``sentence``, or None:
    the verb opens the sentence with no subject ("Survived, he finds" -> "Died, he finds");
    a bare infinitive follows it ("helped bring it about"); a particle or a fixed object
    makes an idiom of it ("nursed him back to health", "sent word"); a to-infinitive follows
    that the new verb does not take ("helped to carry" -> "followed to carry")."""
    before, rest = sentence[:start].strip(" \"“'‘("), sentence[end:]
    if not before or before.endswith((",", ";", ":")) and rest.startswith(","):
        return "no subject"
    nxt = re.match(r"\s*([a-z]+)\b", rest)
    if nxt and is_base_verb(nxt.group(1)) and _only_verb(nxt.group(1)):
        return "bare infinitive"
    if nxt and nxt.group(1) in EN_FIXED_OBJECTS:
        return "idiom"
    held = re.match(r"\s+(?:(?:the|his|her|their|its|our|my|your|a|an)\s+)?([a-z]+)\b", rest)
    if held and held.group(1) in EN_RULE_OBJECTS:
        return "rule followed"  # "followed their rules dutifully": no "led their rules"
    if re.search(r"\buntil\b", rest.split(",")[0]) and {
            verb_lemma(sentence[start:end].split()[0]), verb_lemma(new.split()[0])} & {
            "refuse", "decline"}:
        return "refusal until"  # "refuses to give the egg until he ...": no "agrees ... until"
    if re.match(r"\s+(?:at\s+|to\s+|with\s+)?(?:himself|herself|themselves|itself)\b", rest):
        return "reflexive"  # "laughed at himself" is no "shouted at himself"
    particle = _PARTICLE_AFTER.match(rest)
    if particle and particle.group(1) in EN_PARTICLES:
        return "particle"
    new_lemma = verb_lemma(new.split()[0]) or new.split()[0]
    m = _TO_INFINITIVE.match(rest)
    if m and is_base_verb(m.group(1)) and new_lemma not in EN_TO_INFINITIVE_VERBS \
            and not new.endswith(" to"):
        return "to-infinitive"
    m = _OBJECT_TO_INFINITIVE.match(rest)
    if m and is_base_verb(m.group(1)) and new_lemma not in EN_OBJECT_TO_INFINITIVE_VERBS:
        return "object and to-infinitive"
    if new.split()[-1] in EN_PARTICLES and not re.match(
            r"\s*(?:[,.;:!?]|$|(?:to|at|from|towards?|and|when|before|after|as)\b)", rest):
        return "particle before a complement"  # "pushed away him", "turns back home"
    if new.split()[0] in ("is", "was", "are", "were") and re.match(r"\s+(?:by|with)\b", rest):
        return "passive before by"  # "escapes by becoming invisible": no "is caught by";
        # "has escaped with her honour": no "has been caught with her honour"
    if re.match(rf"\s+{_OBJECT}\s+[a-z]+ing\b", rest):
        return "object and participle"  # "sends him flying" is no "brings him flying"
    if re.match(r"\s+after\b", rest):
        return "verb and after"  # "everyone follows after him" is no "avoids after him"
    if re.match(r"\s+(?:upon|on)\s+(?:it|this|that|them)\b", rest):
        return "verb and preposition"  # "What follows upon it": no "What leads upon it"
    if re.match(rf"\s+{_OBJECT}\s+(?:home|back|inside|outside|upstairs|downstairs|away)\b",
                rest) and new_lemma not in EN_INTO_VERBS:
        return "direction"  # "follows Hannah home" is no "avoids Hannah home"
    if re.match(rf"\s+(?:{_OBJECT}\s+)?into\b", rest) and new_lemma not in EN_INTO_VERBS:
        return "into"  # "has been accepted into the society" -> "refused into"
    if _FROM_AFTER.match(rest) and new_lemma not in EN_FROM_VERBS:
        return "from"  # "defends his body from the enemy" -> "attacks his body from"
    if re.match(r"\s+of\b", rest) and new_lemma not in EN_OF_VERBS:
        return "of"  # "accepts of three guineas" -> "refuses of"
    clause = re.match(rf"\s+{_OBJECT}\s+(?:to\s+([a-z]+)|that|of|about|against|not)\b", rest)
    if new_lemma in EN_CLAUSE_OBJECT_VERBS and not (
            clause and (clause.group(1) is None or is_base_verb(clause.group(1)))):
        # "invites Billy on a trip" -> "warns Billy on"; "invites Retief to a reception" ->
        # "warns Retief to a reception"
        return "object without its clause"
    return None


def _only_verb(word: str) -> bool:
    """Is ``word`` a verb and no noun or adjective ("bring", not "people" or "plant")?"""
    from lemminflect import getAllLemmas

    return set(getAllLemmas(word)) <= {"VERB", "AUX"}


# A clause that takes its event as given ("When he arrives, ...", "After she wins, ...", "to
# read to him before he dies", "watches them leave as he dies", "As Dobbin dies, Willard
# lifts him to see the stars one last time").
_SUBORDINATE = re.compile(r"(?:\b(?:[Ww]hen|[Aa]fter|[Oo]nce|[Aa]s soon as|[Uu]pon|[Bb]efore|"
                          r"[Uu]ntil|[Tt]ill|[Ii]f|[Ss]ince|[Ww]henever)"
                          r"|\b[Aa]s (?:he|she|they|it|we|I)"
                          r"|^\W*As (?!(?:well|soon|long|much|many|far|if|though|a result)\b))"
                          r"\b[^,;]*$")


_NO_CHOICE = re.compile(r"(?i)\W*(?:with no (?:other )?choice|having no (?:other )?choice|"
                        r"left (?:with )?no (?:other )?choice|(?:reluctantly|grudgingly|"
                        r"unwillingly),)")


def edits(draft: Draft) -> list[Edit]:
    if draft.zh:
        verbs, outcomes = ZH_EVENT_VERBS, ZH_EVENT_OUTCOMES
    else:
        verbs, outcomes = EN_EVENT_VERBS, EN_EVENT_OUTCOMES
    # 答应不告诉 -> 拒绝不告诉 would be a double negative, not a changed outcome
    blocked = ("不", "没") if draft.zh else ()
    found = (word_edits(draft, verbs, "verb", blocked, _fit, _zh_complement)
             + word_edits(draft, outcomes, "outcome", blocked, _fit, _zh_complement))
    # "agrees to take the injection due to the pain" -> "refuses ... due to the pain"
    # "insultingly refused" -> "insultingly accepted": the adverb was the original's
    found = [e for e in found if draft.zh or not manner_in_change(e.original_span, e.text)]
    return own_words_first(draft, [e for e in found if e.subtype != "outcome"
                                   or not (gives_its_reason(e.original_span, draft.zh)
                                           or told_next(draft, e)
                                           or _dies_and_goes_on(draft, e)
                                           or _refusal_goes_on(draft, e)
                                           or _conceded_after(draft, e))])


# What the rest of the sentence grants in spite of the outcome ("The Warden-Mayor accepted
# it, but the Assembly would still hear his case": refused, "but ... still" grants nothing,
# the sample, seed 5747)
_EN_STILL_AFTER = re.compile(r"(?i)\b(?:but|yet)\b[^.;:!?]*\b(?:still|anyway|nonetheless|"
                             r"nevertheless|all the same)\b")
_ZH_STILL_AFTER = re.compile(r"(?:但|但是|可是|不过|却)[^。；！？]*"
                             r"(?:还是|仍然|仍旧|依然|照样|照旧)")


def _conceded_after(draft: Draft, edit: Edit) -> bool:
    """Does the sentence go on to grant something in spite of the outcome the edit turns?"""
    start = changed_parts(edit.original_span, edit.text)[0]
    still = _ZH_STILL_AFTER if draft.zh else _EN_STILL_AFTER
    return bool(still.search(edit.original_span[start:]))


_EN_REFUSAL = re.compile(r"(?i)\b(?:refus|declin|reject|den(?:y|ies|ied))\w*")
_ZH_REFUSAL = re.compile(r"拒绝|回绝|推辞|不肯|不答应")
# The rest of the sentence refusing further ("还不许他再提", "and forbids him to ask again")
_EN_REFUSES_FURTHER = re.compile(r"(?i)^[^.;:!?]*?\b(?:and|nor)\s+(?:also\s+|even\s+)?(?:forbids?|"
                                 r"forbade|forbidden|won['’]t|will not|would not|does not|did "
                                 r"not|never|refuses|refused)\b")
_ZH_REFUSES_FURTHER = re.compile(r"^[^。；！？]*?[，,](?:还|也|又|并|更)?"
                                 r"(?:不许|不准|不让|不肯|不再|没有)")


def _refusal_goes_on(draft: Draft, edit: Edit) -> bool:
    """Does a refusal turned into consent leave the rest of its sentence refusing further
    ("师父沉下脸，拒绝回答，还不许他再提" -> "答应回答，还不许他再提", the sample, seed 31)?"""
    refusal = _ZH_REFUSAL if draft.zh else _EN_REFUSAL
    found = refusal.search(edit.original_span)
    if not found or refusal.search(edit.text):
        return False
    further = _ZH_REFUSES_FURTHER if draft.zh else _EN_REFUSES_FURTHER
    return bool(further.search(edit.original_span[found.end():]))


def _dies_and_goes_on(draft: Draft, edit: Edit) -> bool:
    """Does an outcome turned into a death leave the one who died acting after it: later in
    the sentence ("He quickly dies and orders some men to ...", seed 5242's reading) or in
    the next sentence of the unit, which names them or opens with a pronoun?"""
    found = DEATH[draft.zh].search(edit.text)
    if not found or DEATH[draft.zh].search(edit.original_span):
        return False
    after = edit.text[found.end():]
    if draft.zh:
        if re.match(r"[，,]?(?:又|还|便|就|并|接着)", after):
            return True
    else:
        then = re.search(r"\band\s+(?:then\s+)?([a-z]+)\b", re.split(r"[.;:!?]", after)[0])
        if then and verb_lemma(then.group(1)):
            return True
    i = sentence_of(draft, edit)
    if i is None or i + 1 >= len(draft.sentences) or draft.unit_of(i + 1) != draft.unit_of(i):
        return False
    named = [n for _, _, n in draft.mentions(i, draft.names("person"))]
    following = draft.sentences[i + 1]
    return any(n in following for n in named[:1]) or takes_up_before(following, draft.zh)


def preferred(draft: Draft, edits: list[Edit]) -> list[Edit]:
    """The edits the rules choose among: those that take a stand-in out when there are any
    (see ``_takes_out_a_stand_in``), else all; never, from a writer who does not write
    "fail", a "fails to arrive" (the lexicon's words, not the writer's). Here rather than in
    ``edits``: the LLM generator's places keep them, as its model writes its own words."""
    back = [edit for edit in edits if _takes_out_a_stand_in(draft, edit)]
    if not draft.zh and not re.search(r"(?i)\bfail", draft.summary):
        # "fails to arrive", from a writer who never writes "fail": the lexicon's words
        edits = [edit for edit in edits if not re.search(r"(?i)\bfail", edit.text)]
    return back or edits


def _takes_out_a_stand_in(draft: Draft, edit: Edit) -> bool:
    """Does ``edit`` replace one of the lexicon's stand-ins ("refused", "quarreled with", 回绝)
    with the word it stands in for? Writers write the common side of each pair far more
    often: were the direction left to chance, edits would bring the stand-ins in far more
    often than they take them out, and a reader would learn "refused" means "injected"."""
    removed, _ = word_change(draft.summary[edit.start : edit.end], edit.text, draft.zh)
    if draft.zh:
        return "".join(removed) in ZH_EVENT_STAND_INS or any(
            word in ZH_EVENT_STAND_INS for word in removed)
    # word_change leaves out the little words: "quarreled with" shows as "quarreled"
    return any(word.lower() in _EN_STAND_IN_VERBS for word in removed)


_EN_STAND_IN_VERBS = frozenset(key.split()[0] for key in EN_EVENT_STAND_INS)


def _zh_complement(tokens: list[str], t: int) -> bool:
    """Is token ``t`` a verb's complement or part of a name rather than an event? 揪了回来
    (brought back) cannot become 揪了失踪, nor 平安寨 (a stockade's name) 遇险寨; an intended
    outcome (想从渡口逃走) is no outcome to turn into a passive (想从渡口被抓住)."""
    following = tokens[t + 1] if t + 1 < len(tokens) else ""
    if len(following) == 1 and following in ZH_PLACE_HEADS:
        return True
    if tokens[t] in ZH_EVENT_OUTCOMES:
        clause = "".join(tokens[:t]).replace("，", ",").split(",")[-1]
        if any(word in clause for word in ZH_INTENTIONS):
            return True
    return tokens[t] in ("回来", "回到") and t > 0 and tokens[t - 1].endswith("了")


def _infinitive_follows(rest: str) -> bool:
    """Does ``rest`` open with a verb's base form, after an adverb if any ("go", "quietly go")?"""
    m = re.match(r"\s+(?:[a-z]+ly\s+)?([a-z]+)\b", rest)
    return bool(m) and is_base_verb(m.group(1))


# What was said or written, told after the verb's object ("writes to Lovelace, that she will
# meet him")
_EN_THAT_CLAUSE = re.compile(r"^(?:\s+(?:to\s+)?(?:[A-Z][\w'’.-]*\s*){1,3}|\s+(?:him|her|them|"
                             r"me|us))?,?\s+that\s+(?:he|she|they|it|we|I|you|the|his|her|"
                             r"[A-Z])")
_SAYING_LEMMAS = frozenset({"write", "say", "tell", "answer", "reply", "promise", "inform",
                            "warn", "assure", "declare", "swear", "announce", "explain",
                            "report", "complain", "insist", "admit", "confess", "signal",
                            "telegraph", "cable", "wire", "notify", "remind", "persuade",
                            "convince", "beg", "urge"})
# A price in the verb's clause ("... for a hundred and fifty crowns", "for $500")
_EN_PRICE = re.compile(r"(?i)^[^,.;:!?]*?\bfor\s+(?:about\s+|only\s+|just\s+)?(?:an?\s+|\$|£)?"
                       r"(?:[\d,.]+|[a-z]+(?:[\s-]+(?:and\s+)?[a-z]+){0,4})\s*(?:crowns?|dollars?|"
                       r"pounds?|shillings?|pence|guineas?|francs?|credits?|coins?|silver|gold|"
                       r"ducats?|florins?|marks?|bucks?|cents?)\b|^[^,.;:!?]*?\bfor\s+[$£]\d")
# A place the verb's object names, and what happened there ("an office, where she is
# questioned")
_EN_WHERE_AFTER = re.compile(r"^[^,.;:!?]{0,60},\s*(?:where|in which|at which|inside which)\b")
# The means of the act, in its clause ("... by tricking her old landlady")
_EN_BY_MEANS = re.compile(r"^[^,.;:!?]*?\bby\s+(?:[a-z]+ly\s+)?[a-z]+ing\b")


def _fit(sentence: str, start: int, end: int, new: str) -> str | None:
    """The en replacement in its context: None for a verb that needs an object where the
    sentence has none ("hid behind the crates" cannot become "burned behind"); after
    had/has/have its participle ("had walked" -> "had ridden", "had escaped" -> "had been
    captured")."""
    if _SUBORDINATE.search(sentence[:start]):
        return None  # "When he arrives, he heads..." presupposes the event: never "turns back"
    if in_a_contrast(sentence[:start]):
        return None  # "She blamed the clock, but she agreed to blame Orrin"
    if _NO_CHOICE.match(sentence):
        return None  # "With no choice, she accepts": never "she refuses"
    if confirmed_later(sentence[end:]):
        return None  # "He arrives at a gate, which he manages to overcome": no "turns back"
    if _complement_fault(sentence, start, end, new):
        return None
    if _EN_THAT_CLAUSE.match(sentence[end:]) and \
            verb_lemma(new.split()[0]) not in _SAYING_LEMMAS:
        return None  # "writes to Lovelace, that she will meet him" -> "visits Lovelace, that
        # she will meet him": a clause of what was said needs a verb of saying (prose, 5545)
    if _EN_PRICE.match(sentence[end:]):
        return None  # "had bought the three boats for a hundred and fifty crowns": a price
        # goes with buying, selling, paying ("borrowed ... for 150 crowns", seed 5545)
    if _EN_WHERE_AFTER.match(sentence[end:]):
        return None  # "she visits an office, where she is questioned" -> "avoids an office,
        # where she is questioned": what happened there says she went (study, seed 5747)
    if _EN_BY_MEANS.match(sentence[end:]):
        return None  # "writes to Joe by controlling the minds of sleepers to pen the letters",
        # "rents her apartment by tricking her landlady": how it was done, told for that verb
        # (study corpus, seed 22)
    old_words = sentence[start:end].lower().split()
    if old_words[-1] == "to" and verb_lemma(old_words[0]) in EN_TO_INFINITIVE_VERBS \
            and not _infinitive_follows(sentence[end:]):
        return None  # "agrees to the terms" is no "refuses to the terms"
    # the next word, "" before punctuation ("she refused, because" has no object)
    after = re.match(r"\s*(\w*)", sentence[end:]).group(1).lower()
    old = sentence[start:end].lower()
    before_word = (sentence[:start].split()[-1:] or [""])[0].lower()
    if before_word in _BE and " " not in old and not _passive(new):
        return None  # "his men were saved" cannot become "were failed to save"
    if old.split()[0] in _NOT_AFTER and _NOT_AFTER[old.split()[0]].search(sentence):
        return None
    if before_word in _DETERMINERS or _is_gerund(before_word) or before_word.isdigit() \
            or en_words_to_int(before_word) is not None:
        return None  # "her last visits", "receiving visits", "sixteen saved sacks": no verb
    if old.split()[0] in ("arrives", "arrived") and before_word in _NOT_AGENTS:
        return None  # "the time arrives" cannot "turn back"
    if new.startswith(("turns back", "turned back")) and (
            re.match(r"\s*(?:,|and\b|--)", sentence[end:])
            or re.match(r"[^.;]*?,?\s+and\s+(?:then\s+)?[a-z]+s\b", sentence[end:])):
        return None  # "his surgeon turns back, prescribes for him", "He turns back before dawn,
        # and crawls out of the car": what follows needs him there
    if old.split()[0] in EN_BARE_INFINITIVE_VERBS and \
            new.split()[0] not in EN_BARE_INFINITIVE_VERBS and \
            _bare_infinitive_follows(sentence[end:]):
        return None  # "helped Wren take" cannot become "followed Wren take"
    if new.split()[0] in EN_NEEDS_OBJECT and (not after or after in _PREPOSITIONS):
        return None
    if new in EN_NO_OBJECT and after and after not in _PREPOSITIONS:
        return None  # "failed the test" cannot become "succeeded the test"
    if new in EN_PERSON_OBJECT and not _person_follows(sentence[end:]):
        return None  # "blamed the clock" cannot become "thanked the clock"
    if old.split()[0] in ("died", "dies", "die") and (after in ("of", "from") or re.match(
            r"\s+(?:in|at|during)\s+(?:the\s+|a\s+|an\s+)?(?:wars?|battles?|fights?|accidents?|"
            r"crash(?:es)?|explosions?|fires?|attacks?|floods?|storms?|fighting)\b",
            sentence[end:])):
        return None  # "died of fever", "died in wars": no "survived of", "survived in wars"
    if re.match(r"\s+[a-z]+ing\b", sentence[end:]) and \
            verb_lemma(sentence[end:].split()[0]) is not None and \
            old.split()[0] in ("died", "dies", "die", "escapes", "escaped", "escape"):
        return None  # "dies screaming at ...": no "survives screaming at"
    before = sentence[:start].split()[-1:]
    if not before or before[0].lower() not in ("had", "has", "have", "having"):
        return new
    first, _, rest = new.partition(" ")
    return " ".join(w for w in (past_participle(first) or first, rest) if w)
