import { chromium } from 'playwright-core';

const [, , base, lang, width, theme, prefix] = process.argv;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const mobile = Number(width) < 600;
const context = await browser.newContext({
  viewport: { width: Number(width), height: mobile ? 812 : 900 },
  isMobile: mobile,
});
await context.addCookies([{ name: 'theme', value: theme, url: base }]);
const page = await context.newPage();
page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
page.on('console', (m) => {
  if (m.type() === 'error') console.log('CONSOLE', m.text());
});
for (const [name, path] of [
  ['login', `/${lang}/login`],
  ['legal', `/${lang}/h5/termsofuse`],
  ['qr', `/${lang}/qrcodePage`],
  ['404', `/${lang}/nope`],
  ['fallback', `/${lang}/error?selftest=fallback`],
]) {
  const r = await page.goto(base + path);
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${prefix}-${name}.png` });
  console.log(name, r.status());
}
await page.goto(`${base}/${lang}/login`);
await page.fill('input[name=email]', 'demo@example.com');
await page.fill('input[name=password]', 'Demo2026!');
await Promise.all([page.waitForURL('**/personalCenter/**'), page.click('[data-testid=login-submit]')]);
await page.waitForTimeout(500);
await page.screenshot({ path: `${prefix}-pc.png` });
await page.click('[data-testid=user-menu]');
await page.waitForTimeout(200);
await page.screenshot({ path: `${prefix}-pc-menu.png` });
await page.goto(`${base}/${lang}/login`);
await page.click('[data-testid=login-mode-phone]');
await page.click('[data-testid=phone-country]');
await page.waitForTimeout(700);
await page.screenshot({ path: `${prefix}-phone.png` });
await browser.close();
