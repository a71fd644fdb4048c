#!/usr/bin/env bash
# Feeds settle's camt.053 and camt.054 to ERP-side readers that come only as public source
# repositories, outside CI (docs/formats/erp-readers.md records what each read):
#   the Ruby camt_parser gem (viafintech/camt_parser), genkgo/camt (PHP) and OCA's Odoo camt
#   parser (OCA/bank-statement-import, account_statement_import_camt, branch 16.0).
# Usage: scripts/outside-readers/run.sh SOURCES [WORK]
#   SOURCES holds a source tree (a checkout or an unpacked archive) per name: camt_parser,
#   camt (genkgo/camt), money (moneyphp/money), iban-validation (jschaedl/iban-validation),
#   options-resolver (symfony/options-resolver), deprecation-contracts
#   (symfony/deprecation-contracts) and bank-statement-import (its 16.0 branch).
#   WORK (default: a new temporary folder) receives the files: `settle demo` and a night with
#   a returned payment (returned-night.ts).
# Needs Debian's ruby, ruby-nokogiri, php-cli, php-xml, php-bcmath, php-mbstring, python3-lxml.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sources="$(cd "$1" && pwd)"
work="${2:-$(mktemp -d)}"
mkdir -p "$work"
cd "$here/../.."

npx tsx src/cli/main.ts demo --dir "$work/demo" >"$work/demo.log"
npx tsx scripts/outside-readers/returned-night.ts "$work/returned" >/dev/null

for run in demo returned; do
  folder="$work/$run/acme/statements"
  mapfile -t files < <(find "$folder" -name '*.camt.05[34].*.xml' | sort)
  echo "== $run: $folder"
  {
    ruby "$here/camt-parser.rb" "$sources/camt_parser" "${files[@]}"
    php "$here/genkgo-camt.php" "$sources" "${files[@]}"
    /usr/bin/python3 "$here/oca-camt.py" "$sources/bank-statement-import" "${files[@]}"
  } | tee "$work/$run.jsonl" | python3 "$here/compare.py" "$folder"
done
