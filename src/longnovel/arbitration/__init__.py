"""Multi-model arbitration: prompts, judge replies and the aggregation of verdicts (DESIGN §10).

Import from the modules (``aggregate``, ``judgment``, ``prompts``): this package imports none of
them, so loading one never loads the others through it.
"""
