#!/usr/bin/env python3
"""Reads back what `litrev export --zotero` wrote, with pyzotero (an independent client).

Usage: zotero_read_back.py URL LIBRARY_TYPE LIBRARY_ID KEY COLLECTION_NAME
Prints one JSON object: the collection's key and, for each of its items, the fields a
reference manager shows (type, title, creators, date, DOI, extra, tags).
"""
import json
import sys

from pyzotero import zotero


def main():
    url, library_type, library_id, key, name = sys.argv[1:6]
    zot = zotero.Zotero(library_id, library_type, key)
    zot.endpoint = url
    collections = [c for c in zot.everything(zot.collections()) if c["data"]["name"] == name]
    if len(collections) != 1:
        raise SystemExit(f"expected one collection named {name!r}, found {len(collections)}")
    collection = collections[0]["key"]
    items = zot.everything(zot.collection_items(collection))
    print(json.dumps({
        "collection": collection,
        "items": [
            {
                "key": item["key"],
                "itemType": item["data"].get("itemType"),
                "title": item["data"].get("title"),
                "creators": item["data"].get("creators", []),
                "date": item["data"].get("date"),
                "DOI": item["data"].get("DOI"),
                "extra": item["data"].get("extra", ""),
                "tags": [tag["tag"] for tag in item["data"].get("tags", [])],
            }
            for item in items
        ],
    }))


if __name__ == "__main__":
    main()
