"""Reads settle's camt.053/camt.054 files with OCA's Odoo camt parser, outside Odoo.

The parser of account_statement_import_camt (OCA/bank-statement-import, branch 16.0) is an Odoo
abstract model, but parsing uses only lxml and its own methods: the two names it takes from Odoo
(`models.AbstractModel`, the translation function `_`) are stood in for here, so the parser's
own code runs unchanged. Prints, per file, one JSON line: the statement lines Odoo would create
(entries), their signed amounts, end-to-end ids and return reasons, as the parser wrote them into
each line's narration. Usage: python3 oca-camt.py BANK_STATEMENT_IMPORT_DIR FILE...
(needs Debian's python3-lxml).
"""

import importlib.util
import json
import os
import sys
import types

odoo = types.ModuleType("odoo")
odoo._ = lambda text, *args: text % args if args else text
odoo.models = types.SimpleNamespace(AbstractModel=object)
odoo.exceptions = types.SimpleNamespace(UserError=Exception)
sys.modules["odoo"] = odoo

source = os.path.join(sys.argv[1], "account_statement_import_camt", "models", "parser.py")
spec = importlib.util.spec_from_file_location("oca_camt_parser", source)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
parser = module.CamtParser()

E2E = "End To End Id (Refs/EndToEndId)"
RETURN = "Return Reason Code (RtrInf/Rsn/Cd)"
RETURN_INFO = "Return Reason Additional Information (RtrInf/AddtlInf)"



def said(line, key):
    """A value the parser wrote into a line's narration ("key: value" lines)."""
    for row in line["narration"].split("\n"):
        if row.startswith(key + ": "):
            return row[len(key) + 2 :]
    return None


for path in sys.argv[2:]:
    out = {"reader": "OCA account_statement_import_camt 16.0", "file": os.path.basename(path)}
    try:
        with open(path, "rb") as f:
            currency, _account, statements = parser.parse(f.read())
        lines = [t for s in statements for t in s["transactions"]]
        out.update(
            entries=len(lines),
            amounts=["%.2f %s" % (t["amount"], currency) for t in lines],
            endToEndIds=[said(t, E2E) for t in lines if said(t, E2E)],
            returns=[
                ": ".join(x for x in (said(t, RETURN), said(t, RETURN_INFO)) if x) for t in lines if said(t, RETURN)
            ],
            reversals=sum(1 for t in lines if said(t, "Reversal Indicator (RvslInd)") == "true"),
        )
    except Exception as e:  # noqa: BLE001 - report every reader failure per file
        out["error"] = "%s: %s" % (type(e).__name__, e)
    print(json.dumps(out, ensure_ascii=False))
