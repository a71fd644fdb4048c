// The console speaks the person's language over real HTTP against `settle serve`: the person's
// own choice in the configuration, else the browser's Accept-Language, else the company's, else
// English. The pseudo-language (en-XA) shows any of the shell's text that bypasses the catalogue.
import { describe, expect, it } from 'vitest';
import { Client } from './client.js';
import { PASSWORDS, useConsoleFixture } from './fixture.js';

/** The text a person reads in the page's header and navigation (tags and values stripped). */
function headerText(html: string): string {
  const header = /<header>([\s\S]*?)<\/header>/.exec(html)?.[1] ?? '';
  return header
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('console language', () => {
  const fixture = useConsoleFixture({ locales: { beta: 'nb', vera: 'nb' } });

  it("reads the browser's Accept-Language: bokmål for nb-NO, English for a language it does not speak", async () => {
    const nb = new Client(fixture().base, { 'accept-language': 'nb-NO,nb;q=0.9,en;q=0.5' });
    await nb.signIn('olga', PASSWORDS.olga);
    const page = await (await nb.request('/console/?company=acme')).text();
    expect(page).toContain('<html lang="nb">');
    expect(headerText(page)).toContain('I dag');
    expect(headerText(page)).toContain('Avstemming');
    expect(headerText(page)).toContain('Logg ut');
    expect(headerText(page)).not.toContain('Sign out');

    const de = new Client(fixture().base, { 'accept-language': 'de-DE' });
    await de.signIn('olga', PASSWORDS.olga);
    const english = await (await de.request('/console/?company=acme')).text();
    expect(english).toContain('<html lang="en">');
    expect(headerText(english)).toContain('Sign out');
  });

  it("takes the company's language when the browser names none settle speaks", async () => {
    const c = new Client(fixture().base, { 'accept-language': 'de-DE' });
    await c.signIn('olga', PASSWORDS.olga);
    expect(headerText(await (await c.request('/console/?company=beta')).text())).toContain('Logg ut');
    expect(headerText(await (await c.request('/console/?company=acme')).text())).toContain('Sign out');
  });

  it("puts the person's own language before the browser's", async () => {
    const vera = new Client(fixture().base, { 'accept-language': 'en-GB' });
    await vera.signIn('vera', PASSWORDS.vera);
    const page = await (await vera.request('/console/?company=acme')).text();
    expect(headerText(page)).toContain('Logg ut');
  });

  it('answers a refusal in the language too, with its tagged part kept as an element', async () => {
    const vera = new Client(fixture().base);
    await vera.signIn('vera', PASSWORDS.vera);
    const refused = await vera.request('/console/audit?company=acme');
    expect(refused.status).toBe(403);
    const html = await refused.text();
    expect(html).toContain('Ikke tillatt');
    expect(html).toMatch(/Dette krever rollen <strong>operator<\/strong> i acme; du har viewer\./);
  });

  it('shows in the pseudo-language that the shell has no text outside the catalogue', async () => {
    const c = new Client(fixture().base, { 'accept-language': 'en-XA' });
    await c.signIn('olga', PASSWORDS.olga);
    const text = headerText(await (await c.request('/console/?company=acme')).text());
    // Everything left once the catalogue's sentences (⟦…⟧) are taken out is a value: the
    // product's name, the company names and the person's name with roles.
    const outside = text
      .replace(/⟦[^⟧]*⟧/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    expect(outside).toBe('settle ACME AS Beta &lt;b&gt;AS&lt;/b&gt;');
  });
});
