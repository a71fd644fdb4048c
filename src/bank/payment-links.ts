// Payment links from the bank (event `_links.self` / `_links.bulkPayment`, REST `_links`) name
// a payment by URL. The sources spell the segments both ways (facts §10.5: `bulk-payments` /
// `bulkPayments`, `credit-transfer` / `creditTransfer`); this reads either spelling so a caller
// can go from a link to getBulkPayment / getPayment.

export interface PaymentRef {
  /** `bulk` for a bulk payment, `single` for one payment (a line of a bulk). */
  kind: 'bulk' | 'single';
  paymentId: string;
  /** The product as written in the link, e.g. `credit-transfer`. */
  product: string;
}

const SERVICE = /^(bulk-?payments|payments)$/i;
const PRODUCT = /^(credit-?transfer|direct-?debit)$/i;

/** The payment a link points at, or undefined when the link is not a payment link. */
export function paymentRefFromLink(href: string): PaymentRef | undefined {
  let path: string;
  try {
    path = new URL(href, 'http://relative.invalid').pathname;
  } catch {
    return undefined;
  }
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  for (let i = 0; i + 2 < parts.length; i++) {
    const [service, product, paymentId] = [parts[i] ?? '', parts[i + 1] ?? '', parts[i + 2] ?? ''];
    if (!SERVICE.test(service) || !PRODUCT.test(product)) continue;
    const rest = parts.slice(i + 3);
    // …/{id} or …/{id}/status; authorisation sub-resources are not payment reads.
    if (rest.length > 1 || (rest.length === 1 && rest[0] !== 'status')) return undefined;
    return { kind: /^bulk/i.test(service) ? 'bulk' : 'single', paymentId, product };
  }
  return undefined;
}
