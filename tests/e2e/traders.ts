import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { solveChallenge } from '../../apps/server/src/modules/identity/captcha';
import { Trader } from '../../apps/server/test/trader';
import { mailboxCode, newContext } from './support';

/** Traders of browser tests: registered as a new trader would be, and signed in to a browser. */

export const TRADER_PASSWORD = 'Trader-Pass-2026';
export type TTrader = Trader & { email: string };

async function post(base: string, path: string, body: unknown) {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { success: boolean; message: string; data: Record<string, unknown> };
}

let serial = 0;
/** A new trader, registered with the mailed code (the captcha solved as the page would), signed in. */
export async function newTrader(base: string, label: string): Promise<TTrader> {
  const email = `${label}.${Date.now().toString(36)}${serial++}@example.com`;
  const challenge = (await post(base, ROUTE_PATHS.captcha, {})).data as {
    id: string;
    salt: string;
    difficulty: number;
  };
  const captcha = { id: challenge.id, nonce: solveChallenge(challenge.salt, challenge.difficulty) };
  expect((await post(base, ROUTE_PATHS.sendcode, { email, purpose: 'register', captcha })).success).toBe(
    true,
  );
  const code = await mailboxCode(base, email);
  const registered = await post(base, ROUTE_PATHS.register, {
    email,
    code,
    password: TRADER_PASSWORD,
    confirmPassword: TRADER_PASSWORD,
  });
  expect(registered.success, registered.message).toBe(true);
  return Object.assign(await Trader.signIn(base, email, TRADER_PASSWORD), { email });
}

/** A browser context signed in as the trader (the session cookies of a password sign-in). */
export async function signedIn(
  browser: Browser,
  base: string,
  trader: TTrader,
  options: { mobile?: boolean } = {},
) {
  const context = await newContext(browser, options);
  await context.addInitScript(() => localStorage.setItem('download-prompt-dismissed', '1'));
  const login = await context.request.post(base + ROUTE_PATHS.login, {
    data: { email: trader.email, password: TRADER_PASSWORD },
  });
  expect((await login.json()).success).toBe(true);
  return { context, page: await context.newPage() };
}

/** Opens a page of the portal and waits until it is interactive. */
export async function openPage(page: Page, base: string, path: string) {
  await page.goto(base + path);
  await page.waitForSelector('html[data-hydrated]');
}
