// A person signed in to the console whose browser then asks for a language (Accept-Language), as
// the language tests read the console: one helper, so each test states only the language.
import type { Page } from 'playwright-core';
import { signInWithPassword, type BrowserSession } from '../support/browser.js';
import { PASSWORDS, type ConsoleFixture } from './fixture.js';

/** Olga (operator) signed in, her browser then asking for `language`. */
export async function signInAsking(session: BrowserSession, f: ConsoleFixture, language: string): Promise<Page> {
  const page = await session.newPage();
  await signInWithPassword(page, { base: f.base, user: 'olga', password: PASSWORDS.olga });
  await page.context().setExtraHTTPHeaders({ 'accept-language': language });
  return page;
}
