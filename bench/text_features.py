"""What the article-free readers read: word tokens of both languages, and the structural
features of a text (sentence lengths, connectives, time words, negators, kinship words,
pronouns, quotation marks, capitals, retold sentences, ...). Shared by ``bench/readers.py``."""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

_EN_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*|\d+|[^\w\s]")
_EN_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")
_CAPITAL = re.compile(r"[A-Z][a-z]")

# Word lists the structural reader counts: each a tell the injections were found to leave
# (connectives the writer did not use, time and relation words, negations).
LEXICON = {
    "en": {
        "causal": {"because", "so", "therefore", "thus", "since", "hence", "consequently",
                   "cause", "caused", "causes", "result", "reason", "why"},
        "temporal": {"then", "after", "before", "when", "later", "next", "afterwards",
                     "afterward", "meanwhile", "finally", "until", "once", "soon", "while",
                     "earlier", "eventually"},
        "contrast": {"but", "however", "although", "though", "yet", "instead", "despite"},
        "time": {"morning", "evening", "night", "day", "days", "week", "weeks", "month",
                 "months", "year", "years", "dawn", "noon", "midnight", "dusk", "yesterday",
                 "tomorrow", "today", "tonight", "hour", "hours", "minute", "minutes",
                 "following", "previous", "afternoon", "spring", "summer", "autumn", "winter"},
        "negator": {"not", "n't", "never", "no", "nobody", "nothing", "none", "neither", "nor",
                    "without", "cannot", "fails", "failed", "refuses", "refused"},
        "kin": {"father", "mother", "son", "daughter", "brother", "sister", "uncle", "aunt",
                "cousin", "cousins", "wife", "husband", "friend", "friends", "nephew", "niece",
                "grandfather", "grandmother", "stepfather", "stepmother", "stepson",
                "stepdaughter", "master", "servant", "maid", "father-in-law", "son-in-law",
                "fiance", "fiancee", "lover", "widow", "guardian", "ward", "parents", "child",
                "children", "family", "relative", "relatives", "partner", "employer"},
        "pronoun": {"he", "she", "they", "him", "her", "his", "hers", "them", "their", "it",
                    "its", "we", "us", "our", "i", "me", "my", "you", "your", "himself",
                    "herself", "themselves"},
        "number": {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                   "ten", "eleven", "twelve", "twenty", "thirty", "forty", "fifty", "hundred",
                   "thousand", "first", "second", "third", "half", "dozen"},
    },
    "zh": {
        "causal": {"因为", "所以", "因此", "于是", "由于", "结果", "导致", "因而", "以致", "便",
                   "原因", "为了", "因"},
        "temporal": {"然后", "后来", "之后", "以后", "以前", "之前", "接着", "随后", "终于", "当",
                     "直到", "同时", "先", "再", "才", "就", "已经", "刚", "又"},
        "contrast": {"但是", "可是", "却", "但", "虽然", "然而", "不过", "反而"},
        "time": {"早上", "晚上", "夜里", "第二天", "次日", "当天", "那天", "当晚", "清晨",
                 "黄昏", "傍晚", "半夜", "深夜", "中午", "上午", "下午", "今天", "明天", "昨天",
                 "年", "月", "日", "天", "夜", "时", "小时", "分钟", "几天", "三天", "一天"},
        "negator": {"不", "没", "没有", "未", "无", "别", "非", "莫", "不肯", "不能", "不会",
                    "拒绝", "不再"},
        "kin": {"父亲", "母亲", "儿子", "女儿", "哥哥", "姐姐", "弟弟", "妹妹", "叔叔", "伯伯",
                "舅舅", "姑姑", "姨", "表哥", "表妹", "表姐", "表弟", "堂兄", "堂妹", "妻子",
                "丈夫", "朋友", "师父", "徒弟", "老爷", "夫人", "丫鬟", "丫头", "爷爷", "奶奶",
                "外公", "外婆", "女婿", "媳妇", "岳父", "岳母", "继父", "继母", "兄弟", "姐妹",
                "父母", "家人", "亲戚", "老婆", "妈", "爸", "娘", "爹", "嫂子", "侄子", "外甥"},
        "pronoun": {"他", "她", "它", "他们", "她们", "我", "你", "我们", "你们", "自己", "其"},
        "number": {"一", "二", "两", "三", "四", "五", "六", "七", "八", "九", "十", "百", "千",
                   "万", "半", "几"},
    },
}
QUOTES = "\"“”‘’「」『』"


@lru_cache(maxsize=200_000)
def tokens(text: str, language: str) -> tuple[str, ...]:
    """Word and punctuation tokens, lower-cased (en) or cut by jieba (zh)."""
    if language == "zh":
        import jieba

        return tuple(t for t in jieba.lcut(text) if not t.isspace())
    return tuple(t.lower() for t in _EN_TOKEN.findall(text))


def _content_words(sentence: str, language: str) -> set[str]:
    words = tokens(sentence, language)
    if language == "zh":
        return {w for w in words if len(w) > 1 or "\u4e00" <= w <= "\u9fff"}
    return {w for w in words if w.isalpha() and len(w) > 3}


# features that grow with the text: left out of the pair reader (a text with one sentence more
# than its pair is the one an insertion made, whatever it says)
EXTENSIVE = {"sentences", "words"}


@lru_cache(maxsize=100_000)
def structural(text: str, language: str) -> tuple[tuple[str, float], ...]:
    """(name, value) pairs of a text's structural features."""
    from longnovel.injection.nlp.sentences import split_sentences

    sentences = split_sentences(text, language) or [text]
    words = [tokens(s, language) for s in sentences]
    lengths = np.array([len(s) if language == "zh" else len(w)
                        for s, w in zip(sentences, words, strict=True)], dtype=float)
    flat = [t for w in words for t in w]
    n_sent, n_words = len(sentences), max(1, len(flat))
    feats = {"sentences": n_sent, "words": len(flat),
             "sent_len_mean": lengths.mean(), "sent_len_sd": lengths.std(),
             "sent_len_max": lengths.max(), "sent_len_min": lengths.min(),
             "longest_position": int(lengths.argmax()) / max(1, n_sent - 1),
             "longest_over_mean": lengths.max() / max(1.0, lengths.mean())}
    lexicon = LEXICON[language]
    for name, words_of in lexicon.items():
        count = sum(1 for t in flat if t in words_of)
        feats[f"{name}_per_sentence"] = count / n_sent
        feats[f"{name}_per_100_words"] = 100 * count / n_words
        feats[f"{name}_sentence_openers"] = sum(
            1 for w in words if w and (w[0] in words_of or (len(w) > 1 and w[1] in words_of
                                                            and language == "zh"))) / n_sent
    feats["quotes_per_sentence"] = sum(text.count(q) for q in QUOTES) / n_sent
    feats["digits_per_sentence"] = len(re.findall(r"\d+", text)) / n_sent
    feats["commas_per_sentence"] = (text.count(",") + text.count("，") + text.count("、")) / n_sent
    feats["semicolons_per_sentence"] = (text.count(";") + text.count("；")) / n_sent
    feats["parentheses_per_sentence"] = (text.count("(") + text.count("（")) / n_sent
    feats["questions_exclaims"] = sum(text.count(c) for c in "?!？！") / n_sent
    if language == "en":
        inner = [t for w in words for t in w[1:] if t.isalpha()]
        feats["capitalised_ratio"] = len(_CAPITAL.findall(" ".join(
            " ".join(s.split()[1:]) for s in sentences))) / max(1, len(inner))
        feats["word_len_mean"] = float(np.mean([len(t) for t in flat if t.isalpha()] or [0]))
    else:
        feats["capitalised_ratio"] = 0.0
        feats["word_len_mean"] = float(np.mean([len(t) for t in flat] or [0]))
    feats.update(_repetition(sentences, language))
    return tuple(feats.items())


def _repetition(sentences: list[str], language: str) -> dict[str, float]:
    """How much a sentence retells another of the same text (highest Jaccard overlap of
    content words), and how many of a sentence's content words the rest of the text never
    uses (an invented sentence brings words of its own)."""
    from collections import Counter

    from scipy import sparse

    sets = [_content_words(s, language) for s in sentences]
    in_sentences = Counter(w for words in sets for w in words)
    novel = [sum(1 for w in words if in_sentences[w] == 1) / len(words) if words else 0.0
             for words in sets]
    vocab = {w: i for i, w in enumerate(in_sentences)}
    rows = [i for i, words in enumerate(sets) for _ in words]
    cols = [vocab[w] for words in sets for w in words]
    matrix = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)),
                               shape=(len(sets), max(1, len(vocab))))
    shared = (matrix @ matrix.T).toarray()
    sizes = np.array([len(words) for words in sets], dtype=float)
    union = sizes[:, None] + sizes[None, :] - shared
    jaccard = np.divide(shared, union, out=np.zeros_like(shared), where=union > 0)
    np.fill_diagonal(jaccard, 0.0)
    best = jaccard.max(axis=1) if len(sets) > 1 else np.zeros(1)
    return {"retold_max": float(best.max()), "retold_mean": float(best.mean()),
            "novel_words_max": max(novel), "novel_words_mean": float(np.mean(novel)),
            "novel_words_min": min(novel)}


def structural_matrix(texts: list[str], language: str) -> tuple[np.ndarray, list[str]]:
    """Rows of structural features for ``texts`` and the feature names."""
    rows = [structural(t, language) for t in texts]
    names = [name for name, _ in rows[0]] if rows else []
    return np.array([[v for _, v in row] for row in rows], dtype=float), names
