"""Print the Qwen3 token count of each file given on the command line (no special tokens)."""

import sys
from pathlib import Path

from longnovel.tokenizer import load_tokenizer


def main(paths: list[str]) -> None:
    tokenizer = load_tokenizer("qwen3")
    total = 0
    for path in paths:
        n = tokenizer.count(Path(path).read_text(encoding="utf-8"))
        total += n
        print(f"{n:7d}  {path}")
    print(f"{total:7d}  total")


if __name__ == "__main__":
    main(sys.argv[1:])
