// Renders media/icon.svg to media/icon.png (128×128, the marketplace's size) in Chromium.
// Run it after changing the SVG: node scripts/render-icon.mjs [path to chromium]
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync(new URL('../media/icon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({
  executablePath: process.argv[2] ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(`<body style="margin:0;background:transparent">${svg}</body>`);
  await page.screenshot({
    path: new URL('../media/icon.png', import.meta.url).pathname,
    omitBackground: true,
    clip: { x: 0, y: 0, width: 128, height: 128 },
  });
} finally {
  await browser.close();
}
