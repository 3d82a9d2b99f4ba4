import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { freshDatabaseUrl } from '../../apps/server/test/helpers';

export const ADMIN_PASSWORD = 'E2e-Admin-Password-2026';
export const DEMO = { email: 'demo@example.com', password: 'Demo2026!', name: 'Demo Trader' };
const root = join(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface TRunningServer {
  baseUrl: string;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts the real server the way `npm start` does, on a free port with its own data folder. */
export async function startServer(env: Record<string, string> = {}): Promise<TRunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'broker-e2e-'));
  const database = await freshDatabaseUrl();
  // The built server when there is one (the test command builds first): it starts in a fraction of
  // the time the TypeScript sources take under tsx on a loaded machine.
  const built = join(root, 'apps/server/dist/main.mjs');
  const entry = existsSync(built) ? [built] : ['--import', 'tsx', join(root, 'apps/server/src/main.ts')];
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      // The tests read codes at /dev/mailbox.json and sign in through Sandbox ID.
      DEMO_MODE: 'true',
      MAIL_CATCHER_PORT: '0',
      OIDC_SANDBOX_PORT: '0',
      CAPTCHA_DIFFICULTY: '8',
      // The seeded administrator signs in with the password alone; tests of two-factor turn it on.
      SEED_MONEY_TWO_FACTOR: 'false',
      ...(database.url.startsWith('postgres') ? { DATABASE_URL: database.url } : { DATABASE_URL: '' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (let healthy = false; !healthy; ) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not healthy after 90 s:\n${output}`);
    }
    try {
      healthy = (await fetch(`${baseUrl}/HealthCheck/Get`)).ok;
    } catch {
      // not listening yet
    }
    if (!healthy) await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function newContext(
  browser: Browser,
  options: { locale?: string; mobile?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-US',
    viewport: options.mobile ? { width: 375, height: 812 } : { width: 1440, height: 900 },
    ...(options.mobile
      ? {
          isMobile: true,
          hasTouch: true,
          userAgent:
            'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
        }
      : {}),
  });
  // Every page.goto of a portal page waits for React to hydrate it: a click on server-rendered
  // markup before that does nothing (or submits a form the old way), which made tests flaky on a
  // busy machine. Pages that are not the portal (back office, mailbox, identity provider, JSON) are not
  // waited for.
  const newPage = context.newPage.bind(context);
  context.newPage = async () => {
    const page = await newPage();
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      // The back office (/admin) renders on the client only: nothing to hydrate.
      if (!new URL(page.url()).pathname.startsWith('/admin') && (await page.$('#root')))
        await page.waitForSelector('html[data-hydrated]', { timeout: 15_000 }).catch(() => undefined);
      return response;
    };
    // The same after a navigation the page makes itself (a sign-in form sends the browser on with a
    // full page load): the next page is server-rendered, and its buttons work once it has hydrated.
    const waitForURL = page.waitForURL.bind(page);
    page.waitForURL = async (url, options) => {
      await waitForURL(url, options);
      if (!new URL(page.url()).pathname.startsWith('/admin') && (await page.$('#root').catch(() => null)))
        await page.waitForSelector('html[data-hydrated]', { timeout: 15_000 }).catch(() => undefined);
    };
    return page;
  };
  return context;
}

/**
 * Opens a page and waits until React has hydrated it (`html[data-hydrated]`): a click on
 * server-rendered markup before that would do nothing, or submit a form the old way.
 */
export async function gotoReady(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('html[data-hydrated]', { timeout: 30_000 });
}

/**
 * Holds the page's requests to `url` (a glob or a pattern) on their way until the returned function
 * is called; they then go on to the server.
 */
export async function holdRequests(page: Page, url: string | RegExp): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** One layout shift of a page: its score and the class names of the elements it moved. */
export interface TLayoutShift {
  value: number;
  moved: string[];
}

/**
 * Records the layout shifts of every document the page loads from now on (a `layout-shift`
 * observer added before the page's own scripts); the returned function reads the current one's.
 */
export async function recordLayoutShifts(page: Page): Promise<() => Promise<TLayoutShift[]>> {
  await page.addInitScript(() => {
    const shifts: { value: number; moved: string[] }[] = [];
    (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        sources?: { node?: Node }[];
      })[])
        shifts.push({
          value: entry.value,
          moved: (entry.sources ?? []).map(
            (source) => (source.node as Element | undefined)?.className?.toString() ?? '',
          ),
        });
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { layoutShifts: TLayoutShift[] }).layoutShifts);
}

/** Signs a staff member in on the back office's sign-in page and waits until it has moved on. */
export async function signInStaff(
  page: Page,
  baseUrl: string,
  username = 'admin',
  password = ADMIN_PASSWORD,
) {
  await page.goto(`${baseUrl}/admin/login`);
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith('/admin/login')),
    page.locator('button[type=submit]').click(),
  ]);
}

/** A new browser context with the back office in English and a staff member signed in. */
export async function staffPage(
  browser: Browser,
  baseUrl: string,
  username = 'admin',
  password = ADMIN_PASSWORD,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  await context.addInitScript(() => localStorage.setItem('admin_lang', 'en'));
  const page = await context.newPage();
  await signInStaff(page, baseUrl, username, password);
  return { context, page };
}

/** A back-office call made from a signed-in page, as its own code would (cookie and CSRF header). */
export function staffCall(page: Page, path: string, body: Record<string, unknown> = {}) {
  return page.evaluate(
    async ([path, body]) => {
      const token = document.cookie
        .split('; ')
        .find((c) => c.startsWith('admin_csrf='))
        ?.slice('admin_csrf='.length);
      const response = await fetch(path as string, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-csrf-token': decodeURIComponent(token ?? ''),
          LanguageCode: 'en',
        },
        body: JSON.stringify(body),
      });
      // biome-ignore lint/suspicious/noExplicitAny: answers of several routes
      return { status: response.status, body: (await response.json()) as any };
    },
    [path, body] as const,
  );
}

/**
 * A staff member in a new role holding exactly `permissions`, created by the administrator signed in
 * on `admin`, and signed in to a browser context of their own.
 */
export async function createStaff(
  running: { browser: Browser; server: TRunningServer },
  admin: Page,
  label: string,
  permissions: string[],
) {
  const username = `${label}${Date.now().toString(36)}`;
  const role = await staffCall(admin, ROUTE_PATHS.adminrolesave, {
    name: `${label} ${username}`,
    description: '',
    parentId: null,
    permissions,
  });
  expect(role.body.success, role.body.message).toBe(true);
  const password = 'Staff-Password-2026';
  const staff = await staffCall(admin, ROUTE_PATHS.adminstaffcreate, {
    username,
    displayName: `${label} ${username.slice(-4)}`,
    password,
    roleIds: [role.body.data.id],
  });
  expect(staff.body.success, staff.body.message).toBe(true);
  return staffPage(running.browser, running.server.baseUrl, username, password);
}

/**
 * The real server and a browser for one test file: started before its tests, stopped after them.
 * Read `server` and `browser` inside the tests (they are set once `beforeAll` has run).
 */
export function serverAndBrowser(env: Record<string, string> = {}) {
  const running = {} as { server: TRunningServer; browser: Browser };
  beforeAll(async () => {
    [running.server, running.browser] = await Promise.all([startServer(env), launchBrowser()]);
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.server?.stop();
  });
  return running;
}

/**
 * The newest 4-digit code sent to an address or number, from the developer mailbox (mail caught
 * over SMTP, text messages of the SMS sandbox); waits for a message newer than the `seen` first ones.
 */
export async function mailboxCode(baseUrl: string, to: string, seen = 0): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const box = (await (await fetch(`${baseUrl}/dev/mailbox.json?to=${encodeURIComponent(to)}`)).json()) as {
      mails: { text: string }[];
      texts: { body: string }[];
    };
    const messages = [...box.mails.map((m) => m.text), ...box.texts.map((t) => t.body)];
    const code = messages.length > seen ? messages[0]?.match(/\b(\d{4})\b/)?.[1] : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code for ${to}`);
}

/**
 * One BTCUSDT quote with a 50.00 spread, through the demo feed's tick route (FEED=off in demo mode).
 * Moves of up to 25 spreads a tick pass the off-market filter.
 */
export async function btcQuote(base: string, bid: number) {
  const answer = await fetch(`${base}/dev/feed/tick`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol: 'BTCUSDT', bid: `${bid}.00`, ask: `${bid + 50}.00` }),
  });
  expect(answer.status).toBe(200);
}
