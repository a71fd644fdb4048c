<?php
// Reads settle's camt.053/camt.054 files with genkgo/camt's sources (its schema check on) and
// prints, per file, one JSON line: entries, amounts, end-to-end ids, return reasons.
// Usage: php genkgo-camt.php SOURCES_DIR FILE...  SOURCES_DIR holds the source trees camt
// (genkgo/camt), money (moneyphp/money), iban-validation (jschaedl/iban-validation),
// options-resolver (symfony/options-resolver) and deprecation-contracts
// (symfony/deprecation-contracts): composer's autoloading, by hand. Needs php-cli, php-xml,
// php-bcmath and php-mbstring.
declare(strict_types=1);

$sources = $argv[1];
$prefixes = [
    'Genkgo\\Camt\\' => "$sources/camt/src/",
    'Money\\' => "$sources/money/src/",
    'Iban\\Validation\\' => "$sources/iban-validation/src/",
    'Symfony\\Component\\OptionsResolver\\' => "$sources/options-resolver/",
];
spl_autoload_register(function (string $class) use ($prefixes): void {
    foreach ($prefixes as $prefix => $dir) {
        if (str_starts_with($class, $prefix)) {
            $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($file)) {
                require $file;
            }
            return;
        }
    }
});
require "$sources/deprecation-contracts/function.php";

$money = new Money\Formatter\DecimalMoneyFormatter(new Money\Currencies\ISOCurrencies());
$reader = new Genkgo\Camt\Reader(Genkgo\Camt\Config::getDefault());
foreach (array_slice($argv, 2) as $path) {
    $out = ['reader' => 'genkgo/camt', 'file' => basename($path)];
    try {
        $message = $reader->readFile($path);
        $entries = [];
        foreach ($message->getRecords() as $record) {
            foreach ($record->getEntries() as $entry) {
                $entries[] = $entry;
            }
        }
        $ids = [];
        $returns = [];
        foreach ($entries as $entry) {
            foreach ($entry->getTransactionDetails() as $detail) {
                $id = $detail->getReference()?->getEndToEndId();
                if ($id !== null && $id !== '') {
                    $ids[] = $id;
                }
                $return = $detail->getReturnInformation();
                if ($return !== null) {
                    $returns[] = $return->getCode() . ($return->getAdditionalInformation() ? ': ' . $return->getAdditionalInformation() : '');
                }
            }
        }
        $out += [
            'entries' => count($entries),
            // Money carries the sign: a debit is negative.
            'amounts' => array_map(fn ($e) => $money->format($e->getAmount()) . ' ' . $e->getAmount()->getCurrency()->getCode(), $entries),
            'endToEndIds' => $ids,
            'returns' => $returns,
            'reversals' => count(array_filter($entries, fn ($e) => $e->getReversalIndicator())),
        ];
    } catch (Throwable $e) {
        $out['error'] = get_class($e) . ': ' . $e->getMessage();
    }
    echo json_encode($out, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
}
