# Reads settle's camt.053/camt.054 files with the Ruby camt_parser gem's sources (viafintech/camt_parser)
# and prints, per file, one JSON line: what the reader saw (entries, amounts, end-to-end ids, return
# reasons). Usage: ruby camt-parser.rb CAMT_PARSER_SOURCE_DIR FILE...  (needs Debian's ruby and ruby-nokogiri)
require 'json'
$LOAD_PATH.unshift(File.join(ARGV.shift, 'lib'))
require 'camt_parser'

ARGV.each do |path|
  begin
    doc = CamtParser::File.parse(path)
    records = doc.respond_to?(:statements) ? doc.statements : doc.notifications
    entries = records.flat_map(&:entries)
    transactions = entries.flat_map(&:transactions)
    puts JSON.generate(
      reader: "camt_parser #{CamtParser::VERSION}",
      file: File.basename(path),
      entries: entries.size,
      amounts: entries.map { |e| format('%s%.2f %s', e.debit? ? '-' : '', e.amount, e.currency) },
      endToEndIds: transactions.map(&:end_to_end_reference).reject(&:empty?),
      returns: transactions.map(&:reason_code).reject(&:empty?),
      reversals: entries.count(&:reversal?)
    )
  rescue StandardError => e
    puts JSON.generate(reader: "camt_parser #{CamtParser::VERSION}", file: File.basename(path), error: "#{e.class}: #{e.message}")
  end
end
