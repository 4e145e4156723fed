"""jieba's two hidden Markov models, decoded faster with the same numbers.

jieba splits a run of characters its dictionary does not know with a four-state HMM
(``jieba.finalseg``), and ``jieba.posseg`` tags such a run with a second HMM over (position,
part of speech) states. Both decoders are jieba's own Viterbi written for clarity: the word
model builds a list per state per character, and the tagger scores every state of the last
character against every state of this one, although a state can follow only a few (about 20
of 256): most of ``extract_entities`` and the polarity rule's tagging went there.

The functions here take jieba's model tables as they are, add the same floats in the same
order and break ties as ``max`` over jieba's (score, state) pairs does, so their paths are
jieba's, to the last digit (``tests/injection/nlp/test_zh_hmm.py`` holds them to jieba's own
on real text); they only skip the transitions the model does not have.
"""

from __future__ import annotations

from functools import lru_cache

MIN_FLOAT = -3.14e100  # jieba's score of a character a state never emits
MIN_INF = float("-inf")  # jieba's score of a transition the tagger's model does not have


def hmm_words(run: str) -> list[str]:
    """``list(jieba.finalseg.cut(run))`` for ``run``, a run of Chinese characters."""
    finalseg, *model = _word_model()
    out, begin = [], 0
    for i, state in enumerate(_word_states(run, *model)):
        if state == _S:
            out.append(run[i])
        elif state == _E:
            out.append(run[begin:i + 1])
        elif state == _B:
            begin = i
    # (the path ends in E or S, so no tail is left over as jieba's loop allows for)
    forced = finalseg.Force_Split_Words
    if forced:
        return [c for word in out for c in (word if word in forced else [word])]
    return out


_B, _M, _S, _E = range(4)  # the word model's states; a step's back pointers in this order


@lru_cache(maxsize=1)
def _word_model() -> tuple:
    """``jieba.finalseg`` and the numbers of its model that ``_word_states`` reads (looked up
    once: a corpus has some 100k runs, most of two or three characters)."""
    from jieba import finalseg
    from jieba.finalseg import emit_P, start_P, trans_P

    return (finalseg, emit_P["B"], emit_P["M"], emit_P["E"], emit_P["S"],
            start_P["B"], start_P["M"], start_P["E"], start_P["S"],
            trans_P["E"]["B"], trans_P["S"]["B"], trans_P["M"]["M"], trans_P["B"]["M"],
            trans_P["S"]["S"], trans_P["E"]["S"], trans_P["B"]["E"], trans_P["M"]["E"])


def _word_states(obs: str, e_b, e_m, e_e, e_s, p_b, p_m, p_e, p_s,
                 t_eb, t_sb, t_mm, t_bm, t_ss, t_es, t_be, t_me) -> list[int]:
    """jieba.finalseg's Viterbi path over B, M, E, S (begin, middle, end, single), as
    ``_B``, ``_M``, ``_E``, ``_S``; the model's numbers as ``_word_model`` gives them."""
    c = obs[0]
    b = p_b + e_b.get(c, MIN_FLOAT)
    m = p_m + e_m.get(c, MIN_FLOAT)
    e = p_e + e_e.get(c, MIN_FLOAT)
    s = p_s + e_s.get(c, MIN_FLOAT)
    back = []
    for c in obs[1:]:
        # each state has two predecessors; max over (score, state) keeps the later letter
        # on a tie, so the earlier one wins only when strictly higher (the four states are
        # written out, not looped over: this loop runs once per character of every run)
        em = e_b.get(c, MIN_FLOAT)
        p, q = e + t_eb + em, s + t_sb + em
        nb, from_b = (p, _E) if p > q else (q, _S)
        em = e_m.get(c, MIN_FLOAT)
        p, q = b + t_bm + em, m + t_mm + em
        nm, from_m = (p, _B) if p > q else (q, _M)
        em = e_s.get(c, MIN_FLOAT)
        p, q = e + t_es + em, s + t_ss + em
        ns, from_s = (p, _E) if p > q else (q, _S)
        em = e_e.get(c, MIN_FLOAT)
        p, q = b + t_be + em, m + t_me + em
        ne, from_e = (p, _B) if p > q else (q, _M)
        back.append((from_b, from_m, from_s, from_e))
        b, m, e, s = nb, nm, ne, ns
    state = _E if e > s else _S
    path = [state]
    for step in reversed(back):
        state = step[state]
        path.append(state)
    path.reverse()
    return path


def tagger_viterbi(obs, states, start_p, trans_p, emit_p):
    """``jieba.posseg.viterbi``, the same (probability, route), scoring each state only
    against the states of the last character that may precede it."""
    before = _predecessors(trans_p)
    all_states = trans_p.keys()
    scores = {y: start_p[y] + emit_p[y].get(obs[0], MIN_FLOAT)
              for y in states.get(obs[0], all_states)}
    memory = [dict.fromkeys(scores, "")]
    for t in range(1, len(obs)):
        char = obs[t]
        live = [x for x in scores if trans_p[x]]
        expected = {y for x in live for y in trans_p[x]}
        here = set(states.get(char, all_states)) & expected
        if not here:
            here = expected or all_states
        live_set = set(live)
        new, back = {}, {}
        for y in here:
            em = emit_p[y].get(char, MIN_FLOAT)
            best = None
            for y0 in before.get(y, ()):
                if y0 in live_set:
                    option = (scores[y0] + trans_p[y0][y] + em, y0)
                    if best is None or option > best:
                        best = option
            if best is None or best[0] == MIN_INF:  # no finite route: jieba's own choice
                best = max((scores[y0] + trans_p[y0].get(y, MIN_INF) + em, y0)
                           for y0 in live)
            new[y], back[y] = best
        scores = new
        memory.append(back)
    prob, state = max((scores[y], y) for y in memory[-1])
    route = [None] * len(obs)
    for i in range(len(obs) - 1, -1, -1):
        route[i] = state
        state = memory[i][state]
    return prob, route


_PREDECESSORS: dict[int, tuple[dict, dict]] = {}


def _predecessors(trans_p: dict) -> dict:
    """For each state, the states that may precede it (kept per transition table)."""
    kept = _PREDECESSORS.get(id(trans_p))
    if kept is None or kept[0] is not trans_p:
        out: dict = {}
        for y0, nexts in trans_p.items():
            for y in nexts:
                out.setdefault(y, []).append(y0)
        kept = _PREDECESSORS[id(trans_p)] = (trans_p, out)
    return kept[1]


def install() -> None:
    """Decode ``jieba.posseg``'s tagger with ``tagger_viterbi`` (the same routes, found
    faster); ``jieba.posseg`` looks its decoder up by this module-level name at each call."""
    import jieba.posseg

    jieba.posseg.viterbi = tagger_viterbi
