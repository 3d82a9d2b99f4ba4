import { chromium } from 'playwright-core';

const [, , url, out, width = '1440', theme = 'navy', full = '0'] = process.argv;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const mobile = Number(width) < 600;
const context = await browser.newContext({
  viewport: { width: Number(width), height: mobile ? 812 : 900 },
  isMobile: mobile,
  userAgent: mobile ? 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' : undefined,
});
await context.addCookies([{ name: 'theme', value: theme, url }]);
const page = await context.newPage();
const errors = [];
page.on('console', (m) => {
  if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
});
page.on('pageerror', (e) => errors.push('PAGEERROR ' + e.message));
const r = await page.goto(url);
await page.waitForTimeout(800);
await page.screenshot({ path: out, fullPage: full === '1' });
console.log(r.status(), page.url(), errors.join('\n').slice(0, 1500));
await browser.close();
