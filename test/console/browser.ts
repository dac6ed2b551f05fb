// The console in a real browser (issue 28, point 8): the service started as `npm start` starts it,
// on a fresh database of this pass's engine, and Debian's Chromium driven by playwright-core.
// Every page records the console errors, uncaught exceptions and failed requests it meets; a test
// ends with `clean()`, which fails on any that the test did not expect. Screenshots of the main
// pages are kept under .ci/out/console/ (CI's artefacts).
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshStore, startService, type Child, type FreshStore } from '../e2e/service-process.ts';
import { SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD, cleanup } from '../../scripts/service-process.ts';
import { SKIP_ENGINE_FREE } from '../support/generated-suites.ts';
import { validateResponse } from '../support/openapi-validator.ts';
import type { LightMyRequestResponse } from 'fastify';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS = join(ROOT, '.ci/out/console');
export const CONSOLE_BUILD = join(ROOT, '.build/console');
export { SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD };

/** Why the browser suite cannot run here, or null. In CI a missing browser or build is a failure. */
export function unavailable(): string | null {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
  if (!existsSync(join(CONSOLE_BUILD, 'index.html'))) return 'the console is not built (npm run console:build)';
  return null;
}
/**
 * node:test's skip option. The console does not depend on the database engine: the suite runs on
 * the embedded pass of .ci/run only (SKIP_ENGINE_FREE). Outside CI it is skipped, with its reason,
 * where Chromium or the build is missing; in CI it runs and fails.
 */
export const skipUnlessAvailable = (): string | false =>
  SKIP_ENGINE_FREE || (process.env.CI ? false : (unavailable() ?? false));

// The flags the machine needs: root needs --no-sandbox; the closed network refuses Chromium's own
// background connections (docs: the machine's notes), so they are turned off.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** Problems met so far: console errors, page errors, failed requests, answers ≥ 500. */
  problems: string[];
  /** Problems matching `re` are expected (a refused password answers 401, say). */
  allow(re: RegExp): void;
  /** Saves a screenshot of the whole page as .ci/out/console/<name>.png. */
  shot(name: string): Promise<void>;
  /** Throws listing every unexpected problem. */
  clean(): void;
  /** Forgets the problems met and the allowances: a new test on a page kept from an earlier one. */
  restart(): void;
}

export interface ConsoleRun {
  base: string;
  service: Child;
  store: FreshStore;
  browser: Browser;
  /** A new browser context (cold cache, no session) at /console/. */
  open(path?: string): Promise<ConsolePage>;
  /**
   * The superadmin's signed-in page, kept for the run's tests that need no other (a person keeps
   * his console open): the first call opens a context and signs in through the form; later calls
   * load /console/ again in it (the session is kept, as a reload keeps it) and restart its record
   * of problems. Opening and signing in took 4 to 7 s of CI's loaded machine per test (2026-12-02);
   * what the sign-in itself, a cold cache or another role is about opens its own context.
   */
  superadmin(): Promise<ConsolePage>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

export async function startConsole(env: Record<string, string> = {}): Promise<ConsoleRun> {
  const reason = unavailable();
  if (reason) throw new Error(`The browser suite cannot run: ${reason}`);
  const store = await freshStore();
  const service = await startService({ ...store.env, ...env });
  const browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
  const base = service.base;
  const open = async (path = '/console/'): Promise<ConsolePage> => {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const allowed: RegExp[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
    page.on('requestfailed', (r) => {
      // A navigation away aborts the requests still running: not a failure of the page.
      if (r.failure()?.errorText !== 'net::ERR_ABORTED')
        problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 500) problems.push(`answer ${r.status()}: ${r.request().method()} ${r.url()}`);
    });
    await page.goto(path);
    return {
      page,
      context,
      problems,
      allow: (re) => {
        allowed.push(re);
      },
      shot: async (name) => {
        // The whole page as a person would see it on a tall screen: the frame's header and menu
        // are fixed, so a "full page" capture would draw them in the middle of the picture.
        const size = page.viewportSize() ?? { width: 1280, height: 860 };
        const height: number = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.setViewportSize({ width: size.width, height: Math.min(Math.max(height, size.height), 4000) });
        await page.screenshot({ path: join(SHOTS, `${name}.png`) });
        await page.setViewportSize(size);
      },
      clean: () => {
        const left = problems.filter((p) => !allowed.some((re) => re.test(p)));
        if (left.length > 0) throw new Error(`The page met ${left.length} problem(s):\n${left.join('\n')}`);
      },
      restart: () => {
        problems.length = 0;
        allowed.length = 0;
      },
    };
  };
  let kept: ConsolePage | undefined;
  const superadmin = async (): Promise<ConsolePage> => {
    if (!kept) {
      const cp = await open();
      await signIn(cp);
      return (kept = cp);
    }
    kept.restart();
    await kept.page.goto('/console/');
    await kept.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    return kept;
  };
  return {
    base,
    service,
    store,
    browser,
    open,
    superadmin,
    close: async () => {
      await browser.close().catch(() => undefined);
      await service.stop();
      await store.drop();
      await cleanup();
    },
  };
}

/**
 * Waits for `locator` like its waitFor; when it does not come, the error also says what `shown`
 * (the row or region around it) held at that moment, so a failure in CI tells what the page showed.
 */
export async function waitShowing(
  locator: Locator,
  shown: Locator,
  options?: Parameters<Locator['waitFor']>[0],
): Promise<void> {
  try {
    await locator.waitFor(options);
  } catch (err) {
    const text = await shown.innerText({ timeout: 1000 }).catch(() => '(nothing)');
    throw new Error(`${(err as Error).message}\nThe page showed there: ${text}`, { cause: err });
  }
}

/** Signs in through the form; `method` picks the console's OAuth application or a plain login. */
export async function signIn(
  cp: ConsolePage,
  email = SUPERADMIN_EMAIL,
  password = SUPERADMIN_PASSWORD,
  method: 'oauth' | 'password' = 'oauth',
): Promise<void> {
  const { page } = cp;
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  // The segmented control's radios are visually hidden: a person clicks their labels.
  await page.getByText(method === 'oauth' ? 'OAuth (PKCE)' : 'Password login', { exact: true }).click();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
}

const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');

/**
 * axe-core's serious and critical violations on the page as it is (issue 28, point 7). axe is
 * evaluated through the browser's debugging protocol, which the page's CSP does not govern.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // A transition still running (a notification fading in or out) would be judged at its partial
  // opacity, its contrast too low for a moment: the page is judged once its animations have ended
  // (at most 3 s: an endless animation, a loader's, is judged as it is).
  await page.evaluate(() =>
    Promise.race([
      Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
      new Promise((r) => setTimeout(r, 3000)),
    ]),
  );
  // A notification just shown may not have begun its transition yet: wait until each is opaque.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.mantine-Notification-root')].every((el) => {
      for (let e: Element | null = el; e; e = e.parentElement) if (getComputedStyle(e).opacity !== '1') return false;
      return true;
    }),
  );
  await page.evaluate(readFileSync(AXE, 'utf8'));
  const result: { id: string; impact: string | null; nodes: { target: unknown }[]; help: string }[] =
    await page.evaluate(async () => {
      // @ts-expect-error axe is defined on window by the script evaluated above
      const r = await window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
      return r.violations.map(
        (v: { id: string; impact: string | null; nodes: { target: unknown }[]; help: string }) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((n) => ({ target: n.target })),
        }),
      );
    });
  return result
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
}

const SPEC: Record<string, unknown> = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));

/**
 * A call of the public API from the test (data the test is not about), its answer checked against
 * the OpenAPI document like every answer a test receives; a refusal throws with the answer.
 */
export async function apiCall(base: string, token: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  const res = { statusCode: r.status, headers: { 'content-type': r.headers.get('content-type') ?? '' }, body: text };
  validateResponse(SPEC, method, path, res as unknown as LightMyRequestResponse);
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** apiCall on the service of `run`. */
export const api = (run: ConsoleRun, token: string, method: string, path: string, body?: unknown) =>
  apiCall(run.base, token, method, path, body);
