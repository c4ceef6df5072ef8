#!/usr/bin/env python3
"""The sentence-transformers figure that `litrev bench embed` is compared with.

Embeds the same texts as `litrev bench embed` (title and abstract of every work, on two lines,
truncated at 256 tokens) with sentence-transformers on PyTorch's CPU backend, in batches of 32 on
2 threads, and prints docs/s, tokens/s and the peak RSS. Run it on the same machine, with nothing
else running, right before or after `litrev bench embed`:

    python3 -m venv /tmp/st && /tmp/st/bin/pip install sentence-transformers \\
        --extra-index-url https://download.pytorch.org/whl/cpu
    /tmp/st/bin/python scripts/bench-embed-st.py ../shared/data/synergy/works/*.jsonl.gz

The model is `sentence-transformers/all-MiniLM-L6-v2`, or the folder given with --model.
"""

import argparse
import gzip
import json
import resource
import time


def texts_of(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            work = json.loads(line)
            title = work.get("title") or work.get("display_name")
            abstract = abstract_of(work)
            yield "\n".join(part for part in (title, abstract) if part)


def abstract_of(work):
    index = work.get("abstract_inverted_index")
    if not index:
        return None
    positions = sorted((at, word) for word, ats in index.items() for at in ats)
    return " ".join(word for _, word in positions)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("works", nargs="+")
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args()

    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(args.threads)
    model = SentenceTransformer(args.model, device="cpu")
    model.max_seq_length = 256
    texts = [text for path in args.works for text in texts_of(path)]
    tokens = sum(
        len(ids) for ids in model.tokenizer(texts, truncation=True, max_length=256)["input_ids"]
    )
    start = time.perf_counter()
    model.encode(texts, batch_size=args.batch, normalize_embeddings=True)
    seconds = time.perf_counter() - start
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024
    print(
        f"sentence-transformers: {len(texts)} texts, {tokens} tokens in {seconds:.2f} s "
        f"with {args.threads} threads: {len(texts) / seconds:.1f} docs/s, "
        f"{tokens / seconds:.0f} tokens/s, peak RSS {peak_gb:.1f} GB"
    )


if __name__ == "__main__":
    main()
