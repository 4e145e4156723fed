"""English word lists, written for this project: entity typing, sentence splitting, the
English-word check, and the rules generator's contrast tables.

Each contrast table maps a word to its replacements; the generator only uses a replacement
that changes the meaning (never a synonym), and keeps the sentence otherwise as it was.
Data only: no module of the package is imported here.
"""

from __future__ import annotations

import re

# --- entity lexicons --------------------------------------------------------------------------
EN_HONORIFICS = [
    "Mr.", "Mrs.", "Ms.", "Miss", "Dr.", "Sir", "Lady", "Lord", "Madame", "Monsieur", "Mme.",
    "Captain", "Colonel", "General", "Major", "Lieutenant", "Sergeant", "Professor", "Reverend",
    "Father", "Mother", "Sister", "Brother", "Aunt", "Uncle", "King", "Queen", "Prince",
    "Princess", "Duke", "Duchess", "Count", "Countess", "Baron", "Baroness", "Earl", "Squire",
    "Judge", "Inspector", "Mistress", "Master", "Saint", "St.", "Dame", "Warden", "Deputy",
    "Mayor", "Governor", "Constable", "Bishop", "Chancellor", "Doctor", "Bosun", "Clerk",
    "Senior", "Apprentice",
]
EN_TITLES = [
    "king", "queen", "prince", "princess", "duke", "duchess", "earl", "countess", "baron",
    "captain", "colonel", "lieutenant", "sergeant", "doctor", "professor",
    "governor", "judge", "magistrate", "bishop", "priest", "vicar", "rector", "clergyman",
    "parson", "squire", "steward", "butler", "housekeeper", "governess", "lawyer", "inspector",
    "sheriff", "mayor", "emperor", "empress", "knight", "abbot", "nun", "teacher", "master",
    "mistress", "servant", "maid", "nurse",
]
# The gender a title names (a title not listed names either): a swap keeps it, so "the lady's
# maid ... she herself" never becomes "the lady's master ... she herself".
EN_TITLE_GENDERS = {
    "king": "m", "prince": "m", "duke": "m", "earl": "m", "baron": "m", "emperor": "m",
    "knight": "m", "abbot": "m", "priest": "m", "vicar": "m", "rector": "m", "clergyman": "m",
    "parson": "m", "squire": "m", "butler": "m", "master": "m", "steward": "m",
    "queen": "f", "princess": "f", "duchess": "f", "countess": "f", "empress": "f", "nun": "f",
    "housekeeper": "f", "governess": "f", "mistress": "f", "maid": "f", "nurse": "f",
}
EN_KINSHIP = [
    "father", "mother", "brother", "sister", "son", "daughter", "husband", "wife", "uncle",
    "aunt", "cousin", "nephew", "niece", "grandfather", "grandmother", "grandson",
    "granddaughter", "stepfather", "stepmother", "father-in-law", "mother-in-law",
    "brother-in-law", "sister-in-law", "fiancé", "fiancée", "guardian", "ward",
]
EN_PLACE_SUFFIXES = {
    "Hall", "Park", "House", "Street", "Square", "Abbey", "Castle", "Lodge", "Manor", "Place",
    "Road", "Lane", "Island", "River", "Town", "City", "Village", "Bridge", "Hill", "Court",
    "Cottage", "Farm", "Grange", "Heights", "Inn", "Forest", "Wood", "Woods", "Valley", "Bay",
    "Harbour", "Harbor", "Mountain", "Lake", "Sea", "Gardens", "Church", "Cathedral", "Palace",
    "Tower", "Station", "Market", "Moor", "Mill", "Row", "Quay", "Wharf", "Pier", "Dock",
    "Docks", "Walk", "Alley", "Yard", "Foundry", "Slip", "Gate", "Port",
}
EN_ORG_SUFFIXES = {
    "Company", "Society", "College", "University", "School", "Regiment", "Army", "Navy", "Bank",
    "Parliament", "Council", "Club", "Party", "Guild", "Academy", "Ministry", "Office",
    "Department", "Brotherhood", "Order", "Corporation", "Institute", "Hospital", "Police",
    "Assembly", "Firm", "Works",
}
EN_PLACE_PREPOSITIONS = {"in", "at", "to", "from", "near", "towards", "toward", "into", "of"}
# Words before a name that make it a date: "since X", "the last week of X".
EN_DATE_BEFORE = {"since", "until", "till", "during"}
EN_DATE_OF = {"week", "weeks", "month", "end", "middle", "beginning", "start", "day", "days",
              "night", "nights", "morning", "evening"}
# Before "the X": X is a place (on the North Mole, at the Guildhall, off the Bar).
EN_SPATIAL_PREPOSITIONS = {
    "in", "at", "on", "into", "onto", "off", "near", "inside", "outside", "behind", "beyond",
    "past", "along", "across", "over", "under", "through", "round", "around", "below", "above",
    "beneath", "beside", "aboard",
}
EN_STOPWORDS = {
    "The", "A", "An", "He", "She", "It", "They", "We", "I", "You", "His", "Her", "Their", "Its",
    "Our", "My", "Your", "This", "That", "These", "Those", "There", "Here", "But", "And", "Or",
    "So", "Yet", "When", "While", "Then", "After", "Before", "Later", "Meanwhile", "However",
    "As", "If", "Though", "Although", "Because", "Since", "Once", "Now", "In", "On", "At", "Of",
    "To", "From", "With", "Without", "By", "For", "Into", "Upon", "Over", "Under", "What", "Who",
    "Whom", "Which", "Where", "Why", "How", "Not", "No", "Yes", "All", "Some", "Every", "Each",
    "One", "Two", "Three", "Chapter", "Book", "Part", "Volume", "Oh", "Ah", "Well", "Still",
    "Even", "Only", "Just", "Soon", "Finally", "Eventually", "Instead", "Also", "Both", "Neither",
    "Nothing", "Everyone", "Everything", "Someone", "Something", "Nobody", "Him", "Them", "Me",
    "Us", "Do", "Does", "Did", "Is", "Was", "Are", "Were", "Be", "Been", "Have", "Has", "Had",
    "Let", "Perhaps", "Indeed", "Such", "Let's", "Mr", "Mrs", "Dr", "God", "Heaven", "English",
    "French", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December", "Christmas", "Easter", "Summary", "Analysis", "Notes",
}

# --- sentences and words ----------------------------------------------------------------------
# Words a full stop after which does not end a sentence (Mr. Dr. St.).
EN_ABBREVIATIONS = {
    "mr", "mrs", "ms", "dr", "st", "mt", "jr", "sr", "capt", "col", "gen", "lt", "sgt", "prof",
    "rev", "hon", "vs", "etc", "no", "co", "messrs", "mme", "mlle", "fr", "gov", "maj", "cpt",
}
# Contractions a summary may contain; any other "<word>'t" is a broken one.
EN_CONTRACTIONS = {
    "isn't", "wasn't", "aren't", "weren't", "can't", "couldn't", "won't", "wouldn't",
    "shouldn't", "mustn't", "hasn't", "haven't", "hadn't", "don't", "doesn't", "didn't",
    "needn't", "mightn't", "shan't", "ain't", "daren't", "oughtn't",
}
# Closed-class words a dictionary of content words does not list.
EN_FUNCTION_WORDS = frozenset(re.findall(r"\w+", 
    "a an the and or but nor if then than that this these those of to in on at by for with "
    "from into onto upon about after before over under as so not no yet his her its their "
    "him them he she it they we you i me my our your who whom whose which what when where why "
    "how while though although because since until till unless whether there here also too "
    "very again once each every either neither both all any some such own same other another "
    "is was are were be been being has have had do does did will would shall should can could "
    "may might must one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty "
    "seventy eighty ninety hundred thousand million first second third fourth fifth sixth "
    "seventh eighth ninth tenth eleventh twelfth twentieth half dozen o'clock "
    "hers ours theirs yours none"))

# --- relation words ---------------------------------------------------------------------------
# replace: one stated relationship or identity becomes another one.
# A cousin or a relative may also become a friend: the way back of invent's friend -> cousin
# and of friend -> relative, so that neither word is one only injected summaries bring in. No
# other kin word becomes a friend: "friend" is a common word, which edits prefer to bring in,
# and from six more kin words it came in ten times as often as it went out (the sample: 20
# to 2), and readers learned "friend" as a mark of an edit.
EN_RELATION_REPLACE = {
    "father": ["uncle", "guardian", "stepfather"], "mother": ["aunt", "stepmother"],
    "uncle": ["father", "stepfather"], "aunt": ["mother", "stepmother"],
    "brother": ["cousin", "half-brother"], "sister": ["cousin", "half-sister"],
    "son": ["nephew", "stepson"], "daughter": ["niece", "stepdaughter"],
    "nephew": ["son"], "niece": ["daughter"], "husband": ["brother"],
    "wife": ["sister"], "cousin": ["brother", "friend"], "grandfather": ["uncle"],
    "grandmother": ["aunt"], "teacher": ["father"], "servant": ["son"],
    "maid": ["daughter"], "guardian": ["father"], "fiancé": ["brother"], "fiancée": ["sister"],
    "stepmother": ["mother"], "stepfather": ["father"], "employer": ["uncle"], "tutor": ["father"],
    "fathers": ["uncles"], "mothers": ["aunts"], "brothers": ["cousins"],
    "sisters": ["cousins"], "sons": ["nephews"], "daughters": ["nieces"],
    "cousins": ["brothers", "friends"], "relatives": ["friends"], "relative": ["friend"],
}
# Gendered relation words: a stand-in of the other gender ("his sister Rosalind" -> "his father
# Rosalind") says nothing a reader would believe.
EN_MALE_RELATIONS = {"father", "uncle", "brother", "son", "nephew", "husband", "grandfather",
                     "stepfather", "fiancé", "half-brother", "brother-in-law", "fathers",
                     "uncles", "brothers", "sons", "nephews", "husbands"}
EN_FEMALE_RELATIONS = {"mother", "aunt", "sister", "daughter", "niece", "wife", "grandmother",
                       "stepmother", "fiancée", "maid", "mothers", "aunts", "sisters",
                       "daughters", "nieces", "wives"}
# Generation of a relation word from the person it relates to: a parent's +1, one's own 0, a
# child's -1 ("her son Pell" may become "her nephew Pell", not "her grandfather Pell").
EN_RELATION_GENERATIONS = {
    **dict.fromkeys(("grandfather", "grandmother", "grandparents"), 2),
    **dict.fromkeys(("father", "mother", "uncle", "aunt", "stepfather", "stepmother",
                     "father-in-law", "mother-in-law", "fathers", "mothers", "uncles", "aunts",
                     "parents", "guardian", "guardians"), 1),
    **dict.fromkeys(("brother", "sister", "cousin", "husband", "wife", "half-brother",
                     "half-sister", "fiancé", "fiancée", "brother-in-law", "sister-in-law",
                     "brothers", "sisters", "cousins", "long-lost brother"), 0),
    **dict.fromkeys(("son", "daughter", "nephew", "niece", "stepson", "stepdaughter",
                     "son-in-law", "daughter-in-law", "sons", "daughters", "nephews",
                     "nieces"), -1),
    **dict.fromkeys(("grandson", "granddaughter", "grandchildren"), -2),
}
# en kin words by the relation they state, from each side: a sentence that names both sides
# of one ("his daughter ... her father") states it twice.
EN_RELATION_SIDES = {
    **dict.fromkeys(("father", "mother", "stepfather", "stepmother", "parents"), ("parent", 0)),
    **dict.fromkeys(("son", "daughter", "stepson", "stepdaughter", "children"), ("parent", 1)),
    **dict.fromkeys(("uncle", "aunt"), ("uncle", 0)),
    **dict.fromkeys(("nephew", "niece"), ("uncle", 1)),
    **dict.fromkeys(("husband",), ("spouse", 0)), **dict.fromkeys(("wife",), ("spouse", 1)),
    **dict.fromkeys(("grandfather", "grandmother"), ("grand", 0)),
    **dict.fromkeys(("grandson", "granddaughter"), ("grand", 1)),
    **dict.fromkeys(("brother", "sister", "half-brother", "half-sister"), ("sibling", None)),
}
# invent: a relationship the book never states (acquaintance -> kin).
EN_RELATION_INVENT = {
    "friend": ["cousin", "relative", "half-brother"], "friends": ["cousins", "relatives"],
    "neighbor": ["cousin", "relative"], "neighbour": ["cousin", "relative"],
    "neighbors": ["cousins", "relatives"], "neighbours": ["cousins", "relatives"],
    "acquaintance": ["cousin"], "companion": ["brother"], "guest": ["nephew"],
    "visitor": ["nephew"], "classmate": ["cousin"], "colleague": ["brother-in-law"],
    "stranger": ["long-lost brother"], "suitor": ["cousin"], "rival": ["half-brother"],
    "lodger": ["nephew"], "partner": ["brother-in-law"], "ally": ["cousin"],
}
# Relation words that name nearly the same tie: one put for another changes no fact ("her
# constant companion" -> "her constant friend").
EN_RELATION_NEAR_SAME = (frozenset({"friend", "companion", "comrade", "pal", "buddy", "mate"}),
                         frozenset({"friends", "companions", "comrades", "pals", "buddies",
                                    "mates"}),
                         frozenset({"guest", "visitor"}), frozenset({"guests", "visitors"}),
                         frozenset({"colleague", "coworker", "co-worker"}),
                         frozenset({"colleagues", "coworkers", "co-workers"}))
# Relation words no one is "someone's": never a stand-in ("Macklin's wife" -> "Macklin's
# stranger")
EN_UNOWNED_RELATIONS = {"stranger", "strangers"}

# --- event verbs and outcomes -----------------------------------------------------------------
# Every form is listed so the tense of the sentence is kept.
EN_EVENT_VERBS = {
    "talks with": ["quarrels with", "argues with"],
    "talked with": ["quarreled with", "argued with"],
    "talks to": ["argues with", "shouts at"], "talked to": ["argued with", "shouted at"],
    "visits": ["writes to", "avoids"], "visited": ["wrote to", "avoided"],
    "writes to": "visits", "wrote to": "visited", "kisses": "slaps", "kissed": "slapped",
    "thanks": ["scolds", "blames"], "thanked": ["scolded", "blamed"],
    "praises": ["mocks", "criticizes"], "praised": ["mocked", "criticized"],
    "scolds": ["thanks", "praises"], "scolded": ["thanked", "praised"],
    # (not "watches": one who helps watches too, read as still true twice, seeds 5747, 5848)
    "helps": ["follows", "hinders"], "helped": ["followed", "hindered"],
    "walks": "rides", "walked": "rode",
    "rides": "walks", "rode": "walked", "dances with": "dines with", "danced with": "dined with",
    "greets": ["ignores", "snubs"], "greeted": ["ignored", "snubbed"],
    "embraces": "pushes away", "embraced": "pushed away", "calls on": ["writes to", "avoids"],
    "called on": ["wrote to", "avoided"], "invites": "warns", "invited": "warned",
    "buys": ["steals", "borrows", "rents"], "bought": ["stole", "borrowed", "rented"],
    "steals": ["buys", "borrows"], "stole": ["bought", "borrowed"],
    "sells": ["gives away", "pawns", "lends"], "sold": ["gave away", "pawned", "lent"],
    "follows": ["leads", "avoids"], "followed": ["led", "avoided"],
    "comforts": ["teases", "scolds"], "comforted": ["teased", "scolded"],
    "confesses to": "lies to", "confessed to": "lied to", "hides": "burns", "hid": "burned",
    "marries": "elopes with", "sings": "weeps", "sang": "wept", "laughs": "weeps",
    "laughed": "wept", "laughs at": "shouts at", "laughed at": "shouted at",
    "teaches": "learns from", "taught": "learned from", "attacks": "defends",
    "attacked": "defended", "nurses": "abandons", "nursed": "abandoned",
}
# Replacement verbs that need an object ("burned the letter", not "burned behind the door").
EN_NEEDS_OBJECT = {"burns", "burned", "slaps", "slapped", "steals", "stole", "scolds",
                   "scolded", "mocks", "mocked", "ignores", "ignored", "teases", "teased",
                   "warns", "warned", "detains", "detained", "abandons", "abandoned",
                   "defends", "defended", "condemns", "condemned", "rejects", "rejected",
                   "hinders", "hindered", "blames", "blamed", "criticizes", "criticized",
                   "snubs", "snubbed", "avoids", "avoided", "borrows", "borrowed", "rents",
                   "rented", "pawns", "pawned", "carries", "carried", "brings", "brought",
                   "watches", "watched", "accepts", "accepted", "forgives", "forgave",
                   "releases", "released", "rescues", "rescued", "kisses", "kissed",
                   "embraces", "embraced", "attacks", "attacked", "greets", "greeted",
                   "praises", "praised", "comforts", "comforted", "marries", "married"}
# Verbs that take an object and a bare infinitive ("helped Wren take", "made him go").
EN_BARE_INFINITIVE_VERBS = {"help", "helps", "helped", "make", "makes", "made", "let", "lets",
                            "watch", "watches", "watched", "see", "sees", "saw", "hear", "hears",
                            "heard", "bid", "bids", "bade"}
# Complement frames of the event verbs, by lemma: a verb is swapped in only where it takes the
# complement the sentence gives the verb it replaces ("agreed to go" -> "refused to go", never
# "followed to go"; "helped him to escape" -> "warned him to escape", never "visited him to").
EN_TO_INFINITIVE_VERBS = {"agree", "refuse", "decline", "offer", "fail", "manage", "help",
                          "promise", "try", "want", "hope", "plan", "decide", "ask", "beg",
                          "vow", "threaten", "swear", "learn", "wait"}
EN_OBJECT_TO_INFINITIVE_VERBS = {"invite", "warn", "ask", "tell", "beg", "order", "urge",
                                 "persuade", "help", "teach", "allow", "force", "want",
                                 "send", "forbid", "encourage", "advise", "remind", "train"}
# Verb and object or particle that make one idiom, whose verb does not swap alone ("sent word",
# "nursed him back to health", "helped him up").
EN_FIXED_OBJECTS = {"word", "for", "suit", "place", "part", "care", "hold", "heed", "notice"}
# Objects one follows, obeys or keeps, which no one leads, avoids or sends ("followed their
# rules", "follows his advice")
EN_RULE_OBJECTS = {"rules", "rule", "orders", "order", "instructions", "advice", "example",
                   "lead", "directions", "guidance", "plan", "custom", "customs", "law", "laws",
                   "suggestion", "recommendation"}
# Verbs whose object needs a clause after it ("warned him to leave", "warned him that", "warned
# him of"), never a bare place or time ("warns Billy on a trip").
EN_CLAUSE_OBJECT_VERBS = {"warn"}
# Verbs whose object may be followed by "from" ("defends his body from the enemy", "hides the
# letter from her"): a verb put in their place must take it too ("attacks his body from").
EN_FROM_VERBS = {"defend", "protect", "save", "rescue", "shield", "guard", "hide", "keep",
                 "free", "release", "steal", "take", "receive", "hear", "learn", "separate",
                 "drive", "banish", "expel", "remove", "borrow", "buy", "bar", "prevent",
                 "stop", "recover", "demand", "beg", "seek", "ask", "get", "snatch", "rob",
                 "exclude", "dissuade", "deliver", "withhold", "conceal", "bring",
                 "fetch", "carry", "order", "request", "accept", "inherit", "escape", "flee"}
# Verbs that take "into" right after them ("accepted into the society")
EN_INTO_VERBS = {"accept", "admit", "welcome", "bring", "take", "drag", "lure", "force", "put",
                 "throw", "draw", "let", "receive", "initiate", "induct", "carry", "lead",
                 "send", "run", "go", "come", "walk", "turn", "break", "fall", "get", "move"}
# Verbs that take "of" right after them ("approves of", "accepts of" in older prose)
EN_OF_VERBS = {"approve", "disapprove", "think", "hear", "speak", "dream", "complain", "boast",
               "die", "despair", "know", "tire", "partake", "accept"}
EN_PARTICLES = {"back", "up", "down", "off", "out", "away", "over", "aside", "along", "around",
                "round", "through", "forth", "together", "apart", "about"}
EN_EVENT_OUTCOMES = {
    "is released": ["is detained", "is held"], "was released": ["was detained", "was held"],
    "releases": "detains", "released": "detained", "wins": "loses", "won": "lost",
    "survives": "dies", "survived": "died", "accepts": ["rejects", "declines", "refuses"],
    "accepted": ["rejected", "declined", "refused"], "succeeds": "fails", "succeeded": "failed",
    "escapes": ["is captured", "is caught"], "escaped": ["was captured", "was caught"],
    "agrees to": ["refuses to", "declines to"], "agreed to": ["refused to", "declined to"],
    "refuses to": ["agrees to", "offers to"], "refused to": ["agreed to", "offered to"],
    "is accepted": "is rejected", "was accepted": "was rejected",
    "recovers": ["dies", "relapses"], "recovered": ["died", "relapsed"],
    "saves": ["fails to save", "abandons"], "saved": ["failed to save", "abandoned"],
    "forgives": "condemns", "forgave": "condemned", "rescues": "abandons",
    "rescued": "abandoned", "arrives": ["turns back", "fails to arrive"],
    "arrived": ["turned back", "failed to arrive"],
    "is acquitted": "is convicted", "was acquitted": "was convicted", "heals": "worsens",
    "healed": "worsened", "marries": "jilts", "married": "jilted", "reconciles with": "breaks with",
    "reconciled with": "broke with", "is promoted": "is dismissed",
    "was promoted": "was dismissed", "inherits": "loses", "inherited": "lost",
}
# The way back: the other word of a pair turned into the first. Without it every edit
# brings in the same few words (declined, failed, 回绝), which an article-free classifier reads
# as "injected"; with it the rules can take those words out as often as they bring them in
# (generators/rules/ledger.py). Only senses that keep the sentence's grammar: no "lost" (his
# temper), "avoided" (the question), "warned" (him that), "led" (to), "borrowed" (money),
# "dismissed" (a charge), 借 (钱), 警告.
#   No way back to a vaguer verb that the first one entails ("shouts at him" -> "talks to him"
# is still true: seed 4939's reading), so none to "talks with" or "talks to".
_EN_VERBS_BACK = {
    "slaps": "kisses", "slapped": "kissed",
    "blames": "thanks", "blamed": "thanked", "mocks": "praises", "mocked": "praised",
    "criticizes": "praises", "criticized": "praised", "hinders": "helps", "hindered": "helped",
    "snubs": "greets", "snubbed": "greeted", "pushes away": "embraces",
    "pushed away": "embraced", "rents": "buys",
    "rented": "bought", "gives away": "sells", "gave away": "sold", "pawns": "sells",
    "pawned": "sold", "teases": "comforts", "teased": "comforted", "lies to": "confesses to",
    "lied to": "confessed to", "weeps": "laughs", "wept": "laughed", "dines with": "dances with",
    "dined with": "danced with", "learns from": "teaches", "learned from": "taught",
    "defends": "attacks", "defended": "attacked",
}
_EN_OUTCOMES_BACK = {
    "is detained": "is released", "was detained": "was released", "detains": "releases",
    "detained": "released", "dies": "survives", "died": "survived", "rejects": "accepts",
    "rejected": "accepted", "declines": "accepts", "declined": "accepted", "refuses": "accepts",
    "refused": "accepted", "fails to": "manages to", "failed to": "managed to",
    "fails": "succeeds", "failed": "succeeded", "abandons": "rescues", "abandoned": "rescued",
    "condemns": "forgives", "condemned": "forgave", "relapses": "recovers",
    "relapsed": "recovered", "worsens": "improves", "worsened": "improved", "jilts": "marries",
    "jilted": "married", "breaks with": "reconciles with", "broke with": "reconciled with",
    "is convicted": "is acquitted", "was convicted": "was acquitted",
    "is rejected": "is accepted", "was rejected": "was accepted",
}
# The stand-ins the way back starts from: an edit that takes one out moves the summaries'
# words back toward the writers' (which write "agreed" and "arrived" far more than "refused"
# and "failed to arrive"), the rarer direction, taken first where a summary offers it.
EN_EVENT_STAND_INS = frozenset(_EN_VERBS_BACK) | frozenset(_EN_OUTCOMES_BACK)
for _table, _back in ((EN_EVENT_VERBS, _EN_VERBS_BACK),
                      (EN_EVENT_OUTCOMES, _EN_OUTCOMES_BACK)):
    for _word, _new in _back.items():
        _table.setdefault(_word, _new)
del _table, _back, _word, _new
# Stand-ins that cannot take a direct object ("failed the test" is not "succeeded the test").
EN_NO_OBJECT = {"succeeds", "succeeded", "relapses", "relapsed", "improves", "improved",
                "laughs", "laughed", "dies", "died"}
# Stand-ins whose object is a person ("thanked his father", never "thanked the clock").
EN_PERSON_OBJECT = {"thanks", "thanked", "kisses", "kissed", "embraces", "embraced", "greets",
                    "greeted", "comforts", "comforted", "marries", "married", "snubs", "snubbed",
                    "slaps", "slapped", "scolds", "scolded", "teaches", "taught"}

# --- polarity ---------------------------------------------------------------------------------
EN_AUXILIARIES = ["is", "was", "are", "were", "can", "could", "will", "would", "should", "must",
                  "may", "might", "shall"]
# A negated auxiliary (contracted, or "cannot") -> the auxiliary.
EN_NEGATED_AUXILIARIES = {
    "isn't": "is", "wasn't": "was", "aren't": "are", "weren't": "were", "can't": "can",
    "cannot": "can", "couldn't": "could", "won't": "will", "wouldn't": "would",
    "shouldn't": "should", "mustn't": "must", "hasn't": "has", "haven't": "have",
    "hadn't": "had",
}
EN_NEVER_SKIP = {"always", "perhaps", "afterwards", "sometimes", "towards", "nevertheless",
                 "thus", "unless", "besides", "was", "is", "has", "as", "his", "this", "its",
                 "us", "yes", "less", "across", "alas", "whereas", "likewise", "also"}

# --- causal and temporal connectives ----------------------------------------------------------
# Causal openers, used only when the summary's own writer opens a sentence with one of them.
EN_CAUSAL_OPENERS = ["As a result, ", "Because of this, ", "For that reason, ", "Therefore, ",
                     "Consequently, ", "Thus, ", "So ", "Hence, "]
EN_TEMPORAL_OPENERS = ["Then", "Later", "Afterwards", "After that", "Next", "Soon after",
                       "Finally", "Eventually", "Meanwhile", "The next day", "That night"]
EN_CAUSAL_MARKERS = ["because", "since", "so", "therefore", "as a result", "due to"]
EN_REPORTING_VERBS = ("said", "says", "knew", "knows", "found", "finds", "thought", "thinks",
                      "believed", "believes", "realized", "realizes", "explained", "explains",
                      "admitted", "admits", "learned", "learns", "tells", "told", "claims",
                      "claimed", "insists", "insisted", "announces", "announced", "declares",
                      "declared", "informs", "informed")
# Verbs that answer what was asked, offered or told before them (lemmas): a sentence holding
# one leans on the sentence before ("The receiving person complies"); those that answer only a
# telling, and verbs of going on with it, mark a sentence that leans on its own paragraph.
EN_REPLY_VERBS = frozenset({"comply", "reply", "respond", "relent", "obey"})
EN_ANSWER_VERBS = EN_REPLY_VERBS | {"agree", "accept", "refuse", "decline", "answer", "consent",
                                    "oblige"}
EN_GO_ON_VERBS = frozenset({"continue", "resume"})
# Verbs and states of a reaction to what was just done or said (lemmas; adjectives and
# participles after "is", "becomes", "feels"): told ahead of what it reacts to, the reaction
# comes first ("Fith is offended and calls for Retief to be fired. Retief ... asks").
EN_REACTION_VERBS = frozenset({"protest", "object", "insist", "retort", "complain", "apologize",
                               "apologise", "thank", "forgive", "scold", "rebuke", "react",
                               "congratulate"})
EN_REACTION_STATES = ("offended", "upset", "angry", "angered", "furious", "outraged", "insulted",
                      "annoyed", "irritated", "shocked", "stunned", "surprised", "astonished",
                      "amazed", "horrified", "relieved", "pleased", "delighted", "disappointed",
                      "embarrassed", "frightened", "scared", "terrified", "alarmed", "confused",
                      "puzzled", "impressed", "saddened", "devastated", "grateful", "thankful",
                      "flattered", "indignant", "dismayed", "appalled", "baffled", "bewildered",
                      "enraged", "infuriated", "taken aback")
# Verbs of knowing, perceiving and saying (lemmas): "fails to"/"refuses to" before them says
# nothing a writer would ("he refuses to find that the boy is").
EN_KNOWING_VERBS = frozenset({"find", "know", "realize", "realise", "see", "notice", "learn",
                              "discover", "think", "believe", "understand", "remember", "hear",
                              "feel", "say", "tell", "seem", "appear"})
# States (lemmas) that are denied, not said never to happen: "she never knows that ..." reads
# wrong where "she does not know that ..." reads right.
EN_STATE_VERBS = frozenset({"know", "believe", "understand", "think", "seem", "appear"})
# Verbs (lemmas) of a relation between things, true over a span of time rather than done at
# a point in it ("The seven high waters matched the Tower Log", "The box contains ..."): a
# sentence on one of them has no place in a sequence of events.
EN_STATIVE_VERBS = frozenset({"match", "contain", "belong", "own", "resemble", "equal", "consist",
                              "include", "weigh", "cost", "lack", "deserve", "possess", "mean",
                              "differ", "depend"})
# What befalls someone rather than what they do (lemmas): no one "fails to" or "refuses to"
# step into a mixer by accident, fall, or faint ("he fails to step into a concrete mixer").
EN_INVOLUNTARY_VERBS = frozenset({"step", "fall", "trip", "slip", "stumble", "faint", "collapse",
                                  "die", "drown", "crash", "sneeze", "cough", "shiver", "bleed",
                                  "sob", "cry", "weep", "tremble", "sink", "lose", "suffer",
                                  "age", "sleep", "dream", "wake", "choke", "vomit", "bump"})
# Words a clause can open with when it has its own subject ("the", "his", a name follows).
EN_SUBJECT_OPENERS = {"the", "a", "an", "his", "her", "their", "its", "my", "our", "this",
                      "that", "these", "those", "some", "every", "each", "no", "both", "all",
                      "one", "two", "three", "mr", "mrs", "miss", "dr", "sir", "lady", "lord",
                      "captain", "doctor", "master", "mistress", "old", "young", "everyone",
                      "nobody", "somebody", "someone"}

# --- fabrication ------------------------------------------------------------------------------
# en templates as (present tense, past tense), to match the tense of the summary.
EN_REACTIONS = [
    ("{name} secretly feels ashamed of this.", "{name} secretly felt ashamed of this."),
    ("{name} is privately delighted by this.", "{name} was privately delighted by this."),
    ("{name} silently resolves to take revenge.", "{name} silently resolved to take revenge."),
    ("{name} feels a pang of jealousy at this.", "{name} felt a pang of jealousy at this."),
    ("{name} is secretly relieved.", "{name} was secretly relieved."),
    ("{name} quietly fears that this will be discovered.",
     "{name} quietly feared that this would be discovered."),
]
EN_FOLLOW_UPS = [
    ("Afterwards, {name} writes a long letter to {other}.",
     "Afterwards, {name} wrote a long letter to {other}."),
    ("That same night, {name} sets off for {place} without telling anyone.",
     "That same night, {name} set off for {place} without telling anyone."),
    ("{name} then gives {other} a small silver ring.",
     "{name} then gave {other} a small silver ring."),
    ("Soon after, {name} falls ill and keeps to bed for a week.",
     "Soon after, {name} fell ill and kept to bed for a week."),
]
EN_REPEAT_OPENER = "Later, "

# Kinds of place by the last word of the name (or its ending: "Guildhall"): a place put in
# for another must be of the same kind where the old one's name tells its kind ("kept watch
# on the landing of the Harbour Tower" is no "landing of the Bar", a sandbar; "opened a shop
# on Lantern Street" no "on the Guildhall": seed 5040's reading).
EN_PLACE_KINDS = {
    "street": ("street", "lane", "road", "row", "alley", "avenue", "square", "way", "walk",
               "terrace", "place", "quay", "wharf"),
    "building": ("hall", "house", "tower", "office", "inn", "tavern", "church", "chapel",
                 "castle", "palace", "mill", "shop", "bank", "court", "hotel", "abbey",
                 "cottage", "manor", "lodge", "prison", "school", "temple", "theatre",
                 "theater", "station", "exchange", "arms", "lantern"),
    "water": ("river", "bay", "sea", "lake", "harbour", "harbor", "bar", "sound", "strait",
              "channel", "creek", "brook", "ocean", "pool", "cove", "reach", "roads"),
    "land": ("hill", "hills", "mountain", "mountains", "island", "isle", "point", "head",
             "wood", "woods", "forest", "field", "fields", "moor", "heath", "valley", "down",
             "downs", "cape", "rock", "rocks", "marsh", "park", "common"),
    "town": ("town", "city", "village", "borough", "ville", "ton", "burg", "borough", "ford",
             "port", "mouth", "wick", "bury", "chester", "ham", "by"),
}
