import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/server.js';

/** Debian's Chromium, driven through playwright-core (never a browser download). */
export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fills the board's sign-in form with the organization number, username and password (not yet sent). */
export async function fillSignIn(page: Page, orgId: number, username: string, password: string): Promise<void> {
  await page.getByLabel('Organization number').fill(String(orgId));
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
}

/** Opens the board at `baseUrl` and signs in (Enter in the password field). */
export async function signIn(page: Page, baseUrl: string, orgId: number, username: string, password: string) {
  await page.goto(`${baseUrl}/app/#/month`);
  await fillSignIn(page, orgId, username, password);
  await page.getByLabel('Password').press('Enter');
}

/** Violations of axe-core (injected from node_modules) on the page as it is, serious or critical only. */
export async function axeViolations(page: Page): Promise<string[]> {
  // evaluated, not added as a script tag: the app's Content-Security-Policy forbids inline scripts
  if (!(await page.evaluate('typeof window.axe !== "undefined"')))
    await page.evaluate(readFileSync(join('node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  const violations = (await page.evaluate(
    'window.axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations)',
  )) as Array<{
    id: string;
    impact: string;
    nodes: Array<{ target: string[] }>;
  }>;
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.nodes.length}): ${v.nodes[0]?.target.join(' ')}`);
}

/** The document's scroll width and the viewport's width (the test code has no DOM types). */
export function pageWidths(page: Page): Promise<[number, number]> {
  return page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]') as Promise<[number, number]>;
}

/** The focused element's focus ring and the contrast of its colour with the colours it meets. */
export interface FocusRing {
  /** tag, id or label of the focused element */
  element: string;
  focusVisible: boolean;
  style: string;
  width: number;
  /** the ring's colour against the halo between it and the element (box-shadow), when there is one */
  halo: number | null;
  /** the ring's colour against the background behind the element (the first ancestor with one) */
  background: number;
}

/**
 * WCAG contrast of the computed outline colour of the focused element against the background it
 * sits on and against its halo (the box-shadow drawn in the outline's offset), in the page.
 */
export function focusRing(page: Page): Promise<FocusRing> {
  return page.evaluate(`(() => {
    const el = document.activeElement;
    const css = getComputedStyle(el);
    const parse = (text) => {
      const m = /rgba?\\(([^)]+)\\)/.exec(text || '');
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const lum = (c) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
    };
    const ratio = (x, y) => {
      const [p, q] = [lum(x), lum(y)];
      return Math.round(((Math.max(p, q) + 0.05) / (Math.min(p, q) + 0.05)) * 100) / 100;
    };
    let node = el.parentElement;
    let behind = { r: 255, g: 255, b: 255, a: 1 };
    for (; node; node = node.parentElement) {
      const c = parse(getComputedStyle(node).backgroundColor);
      if (c && c.a > 0) {
        behind = c;
        break;
      }
    }
    const ring = parse(css.outlineColor);
    const halo = parse(css.boxShadow === 'none' ? '' : css.boxShadow);
    return {
      element: el.id || el.getAttribute('aria-label') || el.tagName.toLowerCase() + ' ' + (el.textContent || '').trim().slice(0, 30),
      focusVisible: el.matches(':focus-visible'),
      style: css.outlineStyle,
      width: parseFloat(css.outlineWidth),
      halo: halo ? ratio(ring, halo) : null,
      background: ratio(ring, behind),
    };
  })()`) as Promise<FocusRing>;
}

/** Presses Tab until `done(focused label)` holds (at most `limit` times); the label of the focused element. */
export async function tabTo(page: Page, done: (label: string) => boolean, limit = 80): Promise<string> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const label = (await page.evaluate(`(() => {
      const el = document.activeElement;
      if (!el) return '';
      const labels = el.labels && el.labels[0] ? el.labels[0].textContent : '';
      return (el.getAttribute('aria-label') || labels || el.textContent || '').trim();
    })()`)) as string;
    if (done(label)) return label;
  }
  throw new Error(`Tab did not reach the control after ${limit} presses`);
}

/** The demo organization's zone in the browser tests. */
export const DEMO_ZONE = 'America/Chicago';

/** The organization's date today (YYYY-MM-DD) in `zone`. */
export const orgToday = (zone = DEMO_ZONE) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** The query of whole days from `start` to `end` (GET /schedule, /vacancies). */
export const period = (start: string, end: string) => `start=${start}%2000:00:00&end=${end}%2023:59:59`;

/** A `/v1` request from the page, as the app sends it (the session cookie and its header). */
export function pageApi(page: Page) {
  return <T>(path: string, method = 'GET', body?: unknown) =>
    page.evaluate(
      async ([url, verb, payload]) => {
        const response = await fetch(url as string, {
          method: verb as string,
          headers: { 'X-Crewplan-Session': '1', 'Content-Type': 'application/json' },
          body: payload === undefined ? undefined : JSON.stringify(payload),
        });
        return { status: response.status, body: await response.json() };
      },
      [path, method, body] as const,
    ) as Promise<{ status: number; body: T }>;
}

/** A test server with the built app, one Chromium and its first page. */
export interface BoardBrowser {
  server: TestServer;
  context: BrowserContext;
  page: Page;
  /**
   * A page in a context of its own (its own cookies: another person signed in), in the same Chromium;
   * only with `{ isolated: true }`. Closed with the rest.
   */
  newPage: (viewport?: { width: number; height: number }) => Promise<Page>;
  close: () => Promise<void>;
}

/**
 * Builds the app when `web/dist` is missing, starts a test server, and opens one Chromium page at
 * `viewport` (one browser per test file keeps the suite fast). By default the page is a persistent
 * context in a temporary profile (Web Push needs one: an incognito context has no push service);
 * `isolated: true` opens incognito contexts instead, so that {@link BoardBrowser.newPage} can open
 * others beside it (two people live on the same board).
 */
export async function startBoardBrowser(
  viewport = { width: 1280, height: 900 },
  options: { isolated?: boolean } = {},
): Promise<BoardBrowser> {
  if (!existsSync(join('web', 'dist', 'index.html')))
    execFileSync('npm', ['run', '--silent', 'build:web'], { stdio: 'inherit' });
  const server = await startServer();
  if (options.isolated) {
    const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    const newPage = async (size = viewport) => (await browser.newContext({ viewport: size })).newPage();
    const page = await newPage();
    return {
      server,
      context: page.context(),
      page,
      newPage,
      close: async () => {
        await browser.close();
        await server.close();
      },
    };
  }
  const profile = mkdtempSync(join(tmpdir(), 'crewplan-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    server,
    context,
    page,
    newPage: () => Promise.reject(new Error('startBoardBrowser: newPage needs { isolated: true }')),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      await server.close();
    },
  };
}
