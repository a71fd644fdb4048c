"""Compares what each outside reader read (JSON lines on stdin, from the reader scripts) with
what each file says, read here with the standard library: per Ntry its signed amount, the
end-to-end ids of its TxDtls and their return reasons (RtrInf/Rsn/Cd, with RtrInf/AddtlInf).
Prints a summary per reader, and each departure: a file a reader failed on, or a field it read
otherwise. Usage: ... | python3 compare.py DIR_OF_THE_FILES
"""

import json
import os
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict


def local(tag):
    return tag.rsplit("}", 1)[-1]


def children(node, name):
    return [c for c in node if local(c.tag) == name]


def path(node, *names):
    nodes = [node]
    for name in names:
        nodes = [c for n in nodes for c in children(n, name)]
    return nodes


def said(file):
    root = ET.parse(file).getroot()
    entries = [e for e in root.iter() if local(e.tag) == "Ntry"]
    amounts, ids, returns = [], [], []
    for e in entries:
        amt = path(e, "Amt")[0]
        sign = "-" if path(e, "CdtDbtInd")[0].text == "DBIT" else ""
        amounts.append("%s%s %s" % (sign, amt.text, amt.get("Ccy")))
        for tx in path(e, "NtryDtls", "TxDtls"):
            ids += [r.text for r in path(tx, "Refs", "EndToEndId") if r.text and r.text != "NOTPROVIDED"]
            for rtr in path(tx, "RtrInf"):
                code = (path(rtr, "Rsn", "Cd") + path(rtr, "Rsn", "Prtry"))[0].text
                info = " ".join(i.text for i in path(rtr, "AddtlInf"))
                returns.append("%s: %s" % (code, info) if info else code)
    return {"entries": len(entries), "amounts": amounts, "endToEndIds": ids, "returns": returns}


folder = sys.argv[1]
truth = {}
by_reader = defaultdict(lambda: {"files": 0, "read": 0, "departures": []})
for line in sys.stdin:
    r = json.loads(line)
    name = r["file"]
    if name not in truth:
        truth[name] = said(os.path.join(folder, name))
    t = truth[name]
    seen = by_reader[r["reader"]]
    seen["files"] += 1
    if "error" in r:
        seen["departures"].append("%s: failed: %s" % (name, r["error"]))
        continue
    seen["read"] += 1
    for key in ("entries", "amounts", "endToEndIds", "returns"):
        if r[key] != t[key]:
            seen["departures"].append("%s: %s read %s, the file says %s" % (name, key, r[key], t[key]))

files = len(truth)
entries = sum(t["entries"] for t in truth.values())
returns = sum(len(t["returns"]) for t in truth.values())
print("%d files, %d entries, %d returns" % (files, entries, returns))
for reader, seen in by_reader.items():
    clean = seen["read"] - len({d.split(":")[0] for d in seen["departures"] if ": failed:" not in d})
    print("%s: %d of %d files read, %d as the file says" % (reader, seen["read"], seen["files"], clean))
    for d in seen["departures"]:
        print("  departure: " + d)
