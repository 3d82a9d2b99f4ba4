// Takes screenshots of the main screens (desktop 1440 px and mobile 375 px, several languages and
// themes) from a running server: BASE_URL=http://localhost:3000 node scripts/screenshots.mjs
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.env.BASE_URL ?? 'http://localhost:3000';
const out = process.env.OUT_DIR ?? 'screenshots';
const langs = (process.env.LANGS ?? 'zh-CN,en,de').split(',');
const themes = (process.env.THEMES ?? 'navy,white').split(',');
const pages = (
  process.env.PAGES ?? ',h5/termsofuse,qrcodePage,login,personalCenter/account,no-such-page'
).split(',');
const demo = { email: 'demo@example.com', password: 'Demo2026!' };
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
for (const [device, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 375, height: 812 }],
]) {
  for (const theme of themes) {
    const context = await browser.newContext({
      viewport,
      isMobile: device === 'mobile',
      deviceScaleFactor: 1,
    });
    await context.addCookies([{ name: 'theme', value: theme, url: base }]);
    const page = await context.newPage();
    let signedIn = false;
    for (const lang of langs) {
      for (const path of pages) {
        if (path.startsWith('personalCenter') && !signedIn) {
          await page.goto(`${base}/en/login`);
          await page.fill('input[name=email]', demo.email);
          await page.fill('input[name=password]', demo.password);
          await Promise.all([
            page.waitForURL('**/personalCenter/**'),
            page.click('[data-testid=login-submit]'),
          ]);
          signedIn = true;
        }
        await page.goto(`${base}/${lang}${path ? `/${path}` : ''}`);
        await page.waitForTimeout(400);
        const name = `${out}/${device}-${theme}-${lang}-${(path || 'home').replace(/\//g, '_')}.png`;
        await page.screenshot({ path: name, fullPage: process.env.FULL === '1' });
        console.log(name);
      }
    }
    await context.close();
  }
}
await browser.close();
