"""The eight hallucination types (see TAXONOMY.md) and the mapping of loose names to their ids."""

from __future__ import annotations

import re

TYPES: dict[str, dict] = {
    "entity": {"en": "Entity error", "zh": "实体错误",
               "subtypes": ["pronoun", "role_swap", "mismatch"]},
    "number": {"en": "Numeric error", "zh": "数字错误", "subtypes": ["quantity", "time"]},
    "relation": {"en": "Relation error", "zh": "关系错误", "subtypes": ["replace", "invent"]},
    "polarity": {"en": "Contradiction", "zh": "矛盾陈述", "subtypes": ["negate", "affirm"]},
    "event": {"en": "Event error", "zh": "事件错误", "subtypes": ["verb", "outcome", "merge"]},
    "temporal": {"en": "Timeline error", "zh": "时序错乱", "subtypes": ["swap"]},
    "causal": {"en": "Causal error", "zh": "因果错误", "subtypes": ["invent", "invert", "replace"]},
    "fabrication": {
        "en": "Invented content",
        "zh": "虚构内容",
        "subtypes": ["continue", "repeat", "psychology"],
    },
}
TYPE_IDS: list[str] = list(TYPES)
UNKNOWN = "unknown"
HALLUCINATED_BELOW = 3  # the rubric: a summary scoring below 3 is hallucinated
TYPE_SEPARATORS = re.compile(r"[,;，；、/|]+")


def is_hallucinated(score: float) -> bool:
    """True when the rubric score marks the summary as hallucinated."""
    return score < HALLUCINATED_BELOW


def split_type_names(text: str) -> list[str]:
    """The names in a list written as text ("entity, 时序错乱; number")."""
    return [part.strip() for part in TYPE_SEPARATORS.split(text) if part.strip()]


def _key(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name.strip().lower())


# Loose names that models use, in both languages, lower-cased and stripped of spaces,
# hyphens and underscores before lookup. They include the display names of the official
# LongNovel release's gold outputs (``OFFICIAL_NAMES``).
_SYNONYMS: dict[str, list[str]] = {
    "entity": ["entity", "entityerror", "entities", "name", "wrongname", "character", "person",
               "pronoun", "roleswap", "mismatch", "实体", "实体错误", "人物错误", "人名错误",
               "名称错误", "角色错误", "指代错误"],
    "number": ["number", "numeric", "numericerror", "numerical", "numbererror", "quantity",
               "date", "time", "数字", "数字错误", "数量错误", "数值错误", "日期错误", "时间错误"],
    "relation": ["relation", "relational", "relationerror", "relationship", "relationshiperror",
                 "kinship", "关系", "关系错误", "人物关系错误", "亲属关系错误"],
    "polarity": ["polarity", "contradiction", "contradictory", "negation",
                 "contradictorystatement", "矛盾", "矛盾陈述", "否定错误", "自相矛盾", "相反陈述"],
    "event": ["event", "eventerror", "action", "outcome", "事件", "事件错误", "情节错误",
              "行为错误"],
    "temporal": ["temporal", "timeline", "timelineerror", "order", "chronology", "sequence",
                 "temporalerror", "时序", "时序错乱", "时序错误", "顺序错误", "时间顺序错误",
                 "时间线", "时间线错乱"],
    "causal": ["causal", "causality", "causalerror", "cause", "causation", "因果", "因果错误",
               "因果关系错误", "因果链"],
    "fabrication": ["fabrication", "fabricated", "invented", "inventedcontent", "fictional",
                    "fictionalevent", "falsehood", "madeup", "unsupported", "addition",
                    "虚构", "虚构内容", "编造", "捏造", "无中生有", "虚构事件", "杜撰"],
}
# The type names of the official LongNovel release (its detection prompt and gold outputs).
OFFICIAL_NAMES: dict[str, dict[str, str]] = {
    "entity": {"en": "Entity Hallucination", "zh": "实体幻觉"},
    "number": {"en": "Numeric Hallucination", "zh": "数字幻觉"},
    "relation": {"en": "Relational Hallucination", "zh": "关系幻觉"},
    "polarity": {"en": "Contradictory Statement", "zh": "反向陈述"},
    "event": {"en": "Event Hallucination", "zh": "事件幻觉"},
    "temporal": {"en": "Timeline Disruption", "zh": "时间线乱序"},
    "causal": {"en": "Causal Chain Fabrication", "zh": "因果链伪造"},
    "fabrication": {"en": "Fictional Event", "zh": "虚构事件"},
}
for _tid, _names in OFFICIAL_NAMES.items():
    _SYNONYMS[_tid] += [_key(n) for n in _names.values()]
_LOOKUP: dict[str, str] = {syn: tid for tid, syns in _SYNONYMS.items() for syn in syns}


def normalize_type(name: str) -> str:
    """Map a loose type name (either language) to a type id, or ``unknown``."""
    key = _key(str(name))
    if key in _LOOKUP:
        return _LOOKUP[key]
    contained = [syn for syn in _LOOKUP if len(syn) >= 4 and syn in key]
    # the longest synonym wins: "timeline disruption" is temporal, not "time" (number)
    return _LOOKUP[max(contained, key=len)] if contained else UNKNOWN


def normalize_types(names: list[str]) -> tuple[list[str], list[str]]:
    """Map names to ids, deduplicated in order; returns (ids, raw names that were unknown)."""
    ids: list[str] = []
    unknown: list[str] = []
    for name in names:
        tid = normalize_type(name)
        if tid == UNKNOWN:
            unknown.append(str(name))
            tid = UNKNOWN
        if tid not in ids:
            ids.append(tid)
    return ids, unknown


def display_name(type_id: str, language: str) -> str:
    """The type's display name in ``language`` (zh or en)."""
    return TYPES[type_id]["zh" if language == "zh" else "en"]
