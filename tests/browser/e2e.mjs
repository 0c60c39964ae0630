// The page as a facilitator uses it, in Debian's Chromium: change the language to
// Arabic, the paper to Letter and the board size, wait for the previews, download
// the players' zip and the host key, and upload a hostile kit zip. tests/browser.rs
// starts the server, runs this script and checks the downloaded files itself.
//
// Environment: TABLEKIT_URL (the page), DOWNLOADS (a folder to save into),
// HOSTILE_ZIP (a zip the server must refuse), CHROMIUM (the browser),
// SCREENSHOTS (optional: a folder for the README's pictures).
import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const url = process.env.TABLEKIT_URL;
const downloads = process.env.DOWNLOADS;
const timeout = 60_000;

const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tablekit-chromium-')), {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  acceptDownloads: true,
  viewport: { width: 1280, height: 1000 },
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-quic'],
});
const report = {};
try {
  const page = context.pages()[0] || await context.newPage();
  // The page may only ever talk to the server that sent it.
  const elsewhere = [];
  page.on('request', (request) => { if (!request.url().startsWith(url)) elsewhere.push(request.url()); });
  await page.goto(`${url}?lang=en`);
  const built = async (name) => {
    await page.waitForSelector(`body[data-name="${name}"]`, { timeout });
    await page.waitForFunction(() => [...document.querySelectorAll('.pages img')]
      .every((img) => img.complete && img.naturalWidth > 0), null, { timeout });
  };
  await built('crossway-en-a4-9x9');
  if (process.env.SCREENSHOTS) await page.screenshot({ path: join(process.env.SCREENSHOTS, 'serve-en.png') });

  // Keyboard alone: the arrow keys move between kits, and each builds.
  await page.focus('input[name="kit"]:checked');
  await page.keyboard.press('ArrowDown');
  await built('pathstone-en-a4-5x5');
  await page.keyboard.press('ArrowUp');
  await built('crossway-en-a4-9x9');

  await page.selectOption('#lang', 'ar');
  await page.waitForSelector('html[dir="rtl"][lang="ar"]', { timeout });
  await page.selectOption('#paper', 'letter');
  await page.selectOption('#size', '7');
  await built('crossway-ar-letter-7x7');
  report.alts = await page.$$eval('.pages img', (imgs) => imgs.map((img) => img.alt));
  report.kit_title = await page.$eval('.kit:has(input:checked) .kit-title', (e) => e.textContent);
  report.host_heading = await page.textContent('#host-heading');
  report.host_files = await page.$$eval('#host-files article', (a) => a.map((e) => e.dataset.file));
  report.player_files = await page.$$eval('#player-files article', (a) => a.map((e) => e.dataset.file));
  if (process.env.SCREENSHOTS) await page.screenshot({ path: join(process.env.SCREENSHOTS, 'serve-ar.png') });

  const save = async (selector, file) => {
    const [download] = await Promise.all([page.waitForEvent('download', { timeout }), page.click(selector)]);
    await download.saveAs(join(downloads, file));
    return download.suggestedFilename();
  };
  report.players_zip = await save('#download-players', 'players.zip');
  report.host_key = await save('#download-host', 'host-key.pdf');

  await page.setInputFiles('#upload', process.env.HOSTILE_ZIP);
  await page.waitForFunction(() => document.querySelector('#upload-status').textContent.includes('..'), null, { timeout });
  report.upload_refusal = await page.textContent('#upload-status');

  // A phone-sized screen, and 200 % zoom (half as many CSS pixels): nothing runs
  // off the side.
  for (const [width, height] of [[390, 844], [640, 500]]) {
    await page.setViewportSize({ width, height });
    report[`overflow_${width}`] = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  }
  report.elsewhere = elsewhere;
} finally {
  await context.close();
}
console.log(JSON.stringify(report));
