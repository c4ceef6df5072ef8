#!/usr/bin/env python3
"""An independent MCP client (the Python SDK `mcp` from PyPI) drives litrev's MCP server.

Over stdio (`--litrev BIN --snapshot FILE`, the server started as `litrev mcp`) or streamable
HTTP (`--url http://…/mcp`, a running `litrev serve`), it lists the tools and checks each input
schema against the JSON Schema meta-schema, calls every tool on the snapshot, runs a quick
review from `start_review` to `done` through `review_status`, parses `export_bibliography`'s
BibTeX with bibtexparser and checks every `[@key]` of `get_review` is in it, and checks that
`get_evidence` returns the cited work's sentence verbatim. Prints one JSON line of what it saw;
exits 1 with the reason when a check fails.
"""

import argparse
import asyncio
import json
import os
import re
import sys

import bibtexparser
import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client

TOOLS = {
    "search_works", "get_work", "citation_search", "related_works", "start_review",
    "review_status", "label_works", "approve", "get_review", "get_evidence",
    "export_bibliography", "answer_clarifications", "export_to_zotero",
}


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


async def call(session, tool, arguments):
    result = await session.call_tool(tool, arguments)
    text = "\n".join(block.text for block in result.content if getattr(block, "text", None))
    check(not result.isError, f"{tool} {arguments} failed: {text}")
    check(result.structuredContent is not None, f"{tool} gave no structured content")
    check(text, f"{tool} gave no text rendering")
    return result.structuredContent


async def refused(session, tool, arguments):
    result = await session.call_tool(tool, arguments)
    check(result.isError, f"{tool} {arguments} should be a tool error")
    return "\n".join(block.text for block in result.content if getattr(block, "text", None))


async def drive(session, snapshot, question):
    seen = {}
    init = await session.initialize()
    seen["protocol"] = init.protocolVersion
    seen["server"] = init.serverInfo.name
    check(init.serverInfo.name == "litrev", f"server {init.serverInfo.name}")

    tools = (await session.list_tools()).tools
    names = {tool.name for tool in tools}
    check(names == TOOLS, f"tools: {sorted(names)}")
    for tool in tools:
        jsonschema.Draft202012Validator.check_schema(tool.inputSchema)
        check(tool.inputSchema.get("type") == "object", f"{tool.name}: {tool.inputSchema}")
    seen["tools"] = len(tools)

    found = await call(session, "search_works", {"query": question, "limit": 5})
    check(len(found["works"]) == 5, f"search: {found}")
    first = found["works"][0]["id"]
    work = await call(session, "get_work", {"id": first})
    check(work["work"]["title"] == found["works"][0]["title"], "get_work finds the searched work")
    cited = await call(session, "citation_search", {"id": first, "direction": "references"})
    citing = await call(session, "citation_search", {"id": first, "direction": "citing"})
    related = await call(session, "related_works", {"ids": [first], "limit": 5})
    check(all(w["id"] != first for w in related["works"]), "related_works leaves the work out")
    seen["citations"] = len(cited["works"]) + len(citing["works"])
    seen["related"] = len(related["works"])

    message = await refused(session, "get_work", {"id": "no such id"})
    check("no such id" in message, message)
    message = await refused(session, "review_status", {"run": "nonsense"})
    check("no run" in message, message)

    source = f"snapshot:{snapshot}" if snapshot else None
    arguments = {"question": question, "tier": "quick", "yes": True}
    if source:
        arguments["sources"] = [source]
    # With a progress token (the SDK sends one with a callback), start_review answers when the
    # run stops, after progress notifications.
    progress = []

    async def on_progress(value, total, message):
        progress.append((value, total, message))

    result = await session.call_tool("start_review", arguments, progress_callback=on_progress)
    check(not result.isError, f"start_review failed: {result.content}")
    done = result.structuredContent
    run = done["run"]
    check(done["status"] == "done", f"start_review with a progress token answers when done: {done}")
    check(progress, "progress notifications were sent")
    values = [value for value, _, _ in progress]
    check(values == sorted(values), f"progress only grows: {values}")
    check(progress[-1][0] == progress[-1][1], f"the last progress is the total: {progress[-1]}")
    status = await call(session, "review_status", {"run": run})
    check(status["status"] == "done", f"review_status agrees: {status}")
    seen["included"] = done["counts"]["included"]
    seen["progress"] = len(progress)

    review = await call(session, "get_review", {"run": run, "format": "markdown"})
    markdown = review["text"]
    keys = set(re.findall(r"@([A-Za-z0-9_:.\-]+[A-Za-z0-9_])", "\n".join(
        group for group in re.findall(r"\[([^\]]*@[^\]]*)\]", markdown))))
    check(keys, "the review cites works")
    bibtex = await call(session, "export_bibliography", {"run": run, "format": "bibtex"})
    library = bibtexparser.parse_string(bibtex["text"])
    check(not library.failed_blocks, f"BibTeX blocks that do not parse: {library.failed_blocks[:1]}")
    entries = {entry.key for entry in library.entries}
    check(keys <= entries, f"cited keys missing from the BibTeX: {sorted(keys - entries)[:5]}")
    seen["keys"] = len(keys)
    seen["entries"] = len(entries)

    evidence = await session.read_resource(f"litrev://runs/{run}/evidence.json")
    claims = json.loads(evidence.contents[0].text)
    taken = next(claim for claim in claims if claim["basis"] == "span")
    claim = await call(session, "get_evidence", {"run": run, "claim": taken["claim"]})
    span = claim["span"]
    source_work = await call(session, "get_work", {"id": span["work"]})
    abstract = source_work["work"]["abstract_text"].encode("utf-8")
    check(abstract[span["start"]:span["end"]].decode("utf-8") == span["snippet"],
          "get_evidence's sentence is the work's, verbatim")
    seen["evidence_claim"] = taken["claim"]

    resources = (await session.list_resources()).resources
    check(any(str(r.uri) == f"litrev://runs/{run}/review.md" for r in resources),
          "review.md is a resource")
    seen["resources"] = len(resources)
    tools_again = (await session.list_tools()).tools
    check(len(tools_again) == len(TOOLS), "the server still answers")
    return seen


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--litrev", help="the litrev binary (stdio)")
    parser.add_argument("--url", help="a litrev serve's /mcp URL (streamable HTTP)")
    parser.add_argument("--token", help="the server's token")
    parser.add_argument("--snapshot", required=True)
    parser.add_argument("--question", required=True)
    args = parser.parse_args()
    if args.url:
        headers = {"Authorization": f"Bearer {args.token}"} if args.token else None
        async with streamablehttp_client(args.url, headers=headers) as (read, write, _):
            async with ClientSession(read, write) as session:
                seen = await drive(session, args.snapshot, args.question)
    else:
        server = StdioServerParameters(
            command=args.litrev,
            args=["mcp", "--source", f"snapshot:{args.snapshot}"],
            env=dict(os.environ),
        )
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as session:
                seen = await drive(session, args.snapshot, args.question)
    print(json.dumps(seen))


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except CheckFailed as failure:
        print(f"check failed: {failure}", file=sys.stderr)
        sys.exit(1)
