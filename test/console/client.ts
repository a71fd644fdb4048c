// A browser's worth of HTTP for the console tests over real HTTP: cookies kept between requests,
// the CSRF token read from a page's form, and sign-in through the local form.
/** A browser's worth of cookies: what Set-Cookie gave, sent back on the next request. */
export class Client {
  readonly cookies = new Map<string, string>();
  /** `headers`: sent with every request (e.g. the X-Forwarded-For a proxy would add). */
  constructor(
    private readonly base: string,
    private readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  async request(path: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...this.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(`${this.base}${path}`, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      redirect: 'manual',
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name!);
      else this.cookies.set(name!, value);
    }
    return response;
  }

  /** The CSRF token of the forms on a page (the first hidden _csrf field). */
  static token(html: string): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(html);
    if (!match) throw new Error('no CSRF token on the page');
    return match[1]!;
  }

  async signIn(username: string, password: string, next?: string): Promise<Response> {
    const form = await this.request(`/console/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    return this.request('/console/sign-in', { form: { _csrf: Client.token(await form.text()), username, password } });
  }
}
