import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/** Screenshots and browser logs of failed tests (git-ignored). */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../.artifacts', import.meta.url));

/** How long a locator or a polled assertion may take before the test fails. */
export const TIMEOUT_MS = 10_000;

export interface Credentials {
  email: string;
  password: string;
}

function slug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

/**
 * Runs `fn` on a page of a fresh browser context (own cookies and localStorage), wide enough for
 * the permanent drawer. On failure it saves a full-page screenshot and the browser's console and
 * page errors into e2e/.artifacts/<name>.{png,log}, then rethrows. The context is always closed.
 */
export async function withPage(browser: Browser, name: string, fn: (page: Page) => Promise<void>): Promise<void> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
  context.setDefaultTimeout(TIMEOUT_MS);
  context.setDefaultNavigationTimeout(TIMEOUT_MS * 2);
  const page = await context.newPage();
  const log: string[] = [];
  page.on('console', (m) => log.push(`[console.${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => log.push(`[pageerror] ${e.stack ?? e.message}`));
  page.on('requestfailed', (r) => log.push(`[requestfailed] ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
  try {
    await fn(page);
  } catch (err) {
    try {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const base = path.join(ARTIFACTS_DIR, slug(name));
      await page.screenshot({ path: `${base}.png`, fullPage: true, timeout: 5_000 });
      writeFileSync(`${base}.log`, `${page.url()}\n${log.join('\n')}\n`);
      console.error(`e2e artifacts: ${base}.png, ${base}.log`);
    } catch {
      // the page may be gone; the original error matters more
    }
    throw err;
  } finally {
    await context.close();
  }
}

/** Retries an assertion until it passes or the timeout elapses (then throws its last error). */
export async function eventually(assertion: () => Promise<void> | void, timeoutMs = TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the SPA's path is `pathname` (client-side navigations included). */
export async function waitForPath(page: Page, pathname: string): Promise<void> {
  try {
    await page.waitForFunction((p) => window.location.pathname === p, pathname, { timeout: TIMEOUT_MS });
  } catch {
    throw new Error(`expected path ${pathname}, still at ${new URL(page.url()).pathname}`);
  }
}

/** Waits until the locator's text content (whitespace collapsed) equals `expected`. */
export async function expectText(locator: Locator, expected: string): Promise<void> {
  await locator.waitFor();
  await eventually(async () => {
    const text = ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
    if (text !== expected) throw new Error(`expected text ${JSON.stringify(expected)}, got ${JSON.stringify(text)}`);
  });
}

/** Waits until no element matches the locator (it was never there, or it went away). */
export async function expectAbsent(locator: Locator): Promise<void> {
  await locator.first().waitFor({ state: 'detached' });
}

export function localStorageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => window.localStorage.getItem(k), key);
}

/** Fills and submits the login form; does not wait for the outcome. */
export async function submitLogin(page: Page, webUrl: string, { email, password }: Credentials): Promise<void> {
  await page.goto(`${webUrl}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Logs in and waits for the shell on /tickets. */
export async function login(page: Page, webUrl: string, credentials: Credentials): Promise<void> {
  await submitLogin(page, webUrl, credentials);
  await waitForPath(page, '/tickets');
  await page.getByTestId('app-drawer').waitFor();
}

/** Computed background colour of the first element matching `selector`. */
export function backgroundOf(page: Page, selector: string): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
}

/**
 * Counts the sounds the page plays in `window.__sounds`: every HTMLMediaElement.play() and every
 * WebAudio source started (a notification beep of two tones counts twice). Call before the first
 * navigation; read it with `soundsPlayed`.
 */
export async function countSounds(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __sounds: number };
    w.__sounds = 0;
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      w.__sounds += 1;
      return play.call(this);
    };
    if (typeof AudioScheduledSourceNode !== 'undefined') {
      const start = AudioScheduledSourceNode.prototype.start;
      AudioScheduledSourceNode.prototype.start = function (this: AudioScheduledSourceNode, when?: number) {
        w.__sounds += 1;
        return start.call(this, when);
      };
    }
  });
}

export function soundsPlayed(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __sounds?: number }).__sounds ?? 0);
}
