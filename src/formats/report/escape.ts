// Every piece of text in the HTML report comes from outside (ERP names, bank remittance, ids):
// all of it is escaped, attribute-safe, before it reaches the page.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}
