// End-to-end run of the dsls extension in VS Code (code-server) through headless
// Chromium: Problems entry, hover, quick fix, and the two diagnose commands on a
// log printed in the integrated terminal and on a log file.
// VS Code is driven the way its own smoke tests drive it: commands through the
// Command Palette (F1, the command's title, Enter) and keybindings, each step
// waiting for a visible condition rather than for a fixed time. Context-menu
// items are never clicked: whether such a click lands depends on the browser
// build and on timing.
// Prints one line per check and "N passed, M failed"; screenshots and the
// browser console go to $ARTIFACTS, with a screenshot at every failed check.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const url = process.env.CODE_SERVER_URL;
const artifacts = process.env.ARTIFACTS;
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
// The run script sets this prompt in the terminal's ~/.bashrc.
const prompt = process.env.TERMINAL_PROMPT || 'dsls-e2e$';

const QUICK_INPUT = '.quick-input-widget';
const ACTIVE_EDITOR = '.editor-group-container.active .monaco-editor';
const TERMINAL = '.terminal-wrapper.active';

let page;
let passed = 0;
let failed = 0;
let shots = 0;

async function shot(name) {
  shots += 1;
  const file = path.join(artifacts, `${String(shots).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Records a check; a failed one is photographed at once, where it failed. */
async function check(name, ok, detail) {
  if (ok) {
    passed += 1;
    console.log(`ok     ${name}`);
    return true;
  }
  failed += 1;
  console.log(`FAILED ${name}${detail ? `: ${String(detail).slice(0, 2000)}` : ''}`);
  const slug = name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
  const file = await shot(`FAILED-${slug}`).catch((err) => `(no screenshot: ${err.message})`);
  console.log(`       screenshot: ${file}`);
  return false;
}

/** Runs one group of checks; an exception fails the group, then open popups are closed. */
async function step(name, fn) {
  const before = failed;
  try {
    await fn();
  } catch (err) {
    await check(name, false, err && err.stack ? err.stack : err);
  }
  if (failed > before) await dismissPopups();
}

/** Polls fn until it returns a truthy value or the time runs out; returns the last value. */
async function until(fn, timeoutMs = 20000, intervalMs = 100) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch {
      // The workbench re-renders; try again.
    }
    if (Date.now() >= deadline) return last;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Like until, but throws with the given description when the condition never holds. */
async function waitFor(description, fn, timeoutMs = 20000) {
  const value = await until(fn, timeoutMs);
  if (!value) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${description}`);
  return value;
}

async function hidden(selector, timeout = 10000) {
  await page.locator(selector).first().waitFor({ state: 'hidden', timeout });
}

async function dismissPopups() {
  for (let i = 0; i < 3; i++) {
    const open = await page
      .locator(`${QUICK_INPUT}:visible, .context-view-block:visible, .action-widget:visible, .monaco-hover:visible`)
      .count()
      .catch(() => 0);
    if (open === 0) return;
    await page.keyboard.press('Escape').catch(() => {});
    await until(async () => (await page.locator(`${QUICK_INPUT}:visible, .context-view-block:visible`).count()) === 0, 2000);
  }
}

const noNbsp = (s) => s.replace(/\u00a0/g, ' ');

async function editorText() {
  return noNbsp(await page.locator(`${ACTIVE_EDITOR} .view-lines`).first().innerText());
}

async function problemsText() {
  return page.locator('.markers-panel').first().innerText();
}

async function activeTab() {
  return page.locator('.tabs-container .tab.active').first().innerText();
}

/** What a failed check saw: the open tabs and any notifications. */
async function workbenchState() {
  const tabs = await page.locator('.tabs-container .tab .label-name').allTextContents().catch(() => []);
  const notices = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts().catch(() => []);
  return `tabs: ${JSON.stringify(tabs)}${notices.length ? `; notifications: ${JSON.stringify(notices)}` : ''}`;
}

/** Visible terminal rows, one string per row, trailing blanks removed. */
async function terminalRows() {
  const text = await page.locator(`${TERMINAL} .xterm-rows`).first().innerText();
  return noNbsp(text).split('\n').map((r) => r.trimEnd());
}

async function lastTerminalRow() {
  const rows = (await terminalRows()).filter((r) => r !== '');
  return rows.length ? rows[rows.length - 1] : '';
}

/** True while keyboard input goes to the element matching selector. */
function focusIn(selector) {
  return () => page.evaluate((sel) => Boolean(document.activeElement && document.activeElement.closest(sel)), selector);
}

async function quickInputLabels() {
  return page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row .label-name`).allTextContents();
}

async function focusedQuickInputLabel() {
  return page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row.focused .label-name`).first().textContent({ timeout: 1000 });
}

/**
 * Runs a command by its Command Palette title ("Category: Title"): F1, type the
 * title, wait until that exact entry is the focused one, Enter, and wait for the
 * palette to close. Throws naming what the palette offered instead.
 */
async function runCommand(label) {
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
  // A re-render can take the focus back just as the palette opens; try again then.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    if (await until(focusIn(`${QUICK_INPUT} .quick-input-box`), 5000)) break;
    if (attempt === 3) throw new Error(`the Command Palette did not open (F1) to run "${label}"`);
    await dismissPopups();
  }
  await input.fill(`>${label}`);
  const listed = await until(async () => {
    const labels = await quickInputLabels();
    return labels.includes(label) ? labels : null;
  }, 10000);
  if (!listed) {
    // Left open for the failure screenshot; the step closes it.
    const offered = await quickInputLabels().catch(() => []);
    throw new Error(`the Command Palette has no command "${label}"; for that text it offers: ${JSON.stringify(offered.slice(0, 8))}`);
  }
  // Usually the first entry; a closer or recently used one can come before it.
  for (let i = 0; i <= listed.length && (await focusedQuickInputLabel()) !== label; i++) {
    await page.keyboard.press('ArrowDown');
  }
  if ((await focusedQuickInputLabel()) !== label) throw new Error(`could not select "${label}" in the Command Palette`);
  await page.keyboard.press('Enter');
  await hidden(QUICK_INPUT);
}

async function main() {
  fs.mkdirSync(artifacts, { recursive: true });
  const consoleLog = fs.createWriteStream(path.join(artifacts, 'browser-console.log'));
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  // The extension reads the terminal selection through the clipboard.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  page = await context.newPage();
  page.setDefaultTimeout(20000);
  page.on('console', (m) => consoleLog.write(`[${m.type()}] ${m.text()}\n`));
  page.on('pageerror', (e) => consoleLog.write(`[pageerror] ${e.stack || e}\n`));
  const started = Date.now();

  await step('workbench loads', async () => {
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor();
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'ds_config.json' }).first();
    await row.waitFor();
    await check('workbench loads with the workspace in the Explorer', true);
    await row.click();
    const text = await until(async () => ((await editorText()).includes('overlap_comm') ? editorText() : null));
    await check('ds_config.json opens in an editor', Boolean(text), text);
  });

  await step('Problems panel', async () => {
    // The extension activates and the server publishes; the squiggle shows both happened.
    await page.locator(`${ACTIVE_EDITOR} .squiggly-warning, ${ACTIVE_EDITOR} .squiggly-error`).first().waitFor({ timeout: 45000 });
    await page.keyboard.press('Control+Shift+M');
    const problems = await until(async () => {
      const t = await problemsText();
      return t.includes('overlap-comm-race') ? t : null;
    }, 20000);
    await check('the Problems panel lists overlap-comm-race from dsls', Boolean(problems) && /dsls/.test(problems),
      problems || (await problemsText().catch(() => '')));
    await shot('problems');
  });

  const keyToken = () => page.locator(`${ACTIVE_EDITOR} .view-lines span span`, { hasText: /^"overlap_comm"$/ }).first();
  // Puts the cursor inside the "overlap_comm" key with the editor focused. The
  // mouse goes to the token's place as a user's would: locator.click() would
  // refuse while the editor's cursor covers that spot, then scroll the editor
  // natively to get around it, which Monaco does not follow.
  const cursorOnKey = async () => {
    const box = await keyToken().boundingBox();
    if (!box) throw new Error('the "overlap_comm" key is not on screen');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await waitFor('the editor to have the focus', focusIn(ACTIVE_EDITOR), 5000);
  };

  await step('hover', async () => {
    await cursorOnKey();
    // "Show or Focus Hover" at the cursor (mouse hovers are off in the settings).
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    // The language hover (not the Problems part of the same popup) must explain the race.
    const hover = await until(async () => {
      const parts = await page.locator('.monaco-hover:visible .markdown-hover .rendered-markdown').allInnerTexts();
      const text = parts.join('\n');
      return /overlap_comm/.test(text) && /race/i.test(text) ? text : null;
    }, 15000);
    await check('the hover on overlap_comm shows the server hover explaining the race', Boolean(hover),
      await page.locator('.monaco-hover:visible').first().innerText({ timeout: 1000 }).catch(() => '(no hover shown)'));
    await shot('hover');
    await page.keyboard.press('Escape');
    await waitFor('the hover to close', async () => (await page.locator('.monaco-hover:visible').count()) === 0, 5000);
  });

  await step('quick fix', async () => {
    await cursorOnKey();
    await page.keyboard.press('Control+.');
    const menu = page.locator('.action-widget');
    await menu.waitFor({ state: 'visible', timeout: 10000 });
    const fixes = await until(async () => {
      const t = await menu.innerText();
      return t.includes('Set overlap_comm to false') && t.includes('Set contiguous_gradients to false') ? t : null;
    }, 5000);
    await check('the quick-fix menu offers both fixes', Boolean(fixes), await menu.innerText().catch(() => ''));
    await shot('quick-fix-menu');
    // Chosen with the keyboard: the menu's pointer guard swallows synthetic clicks.
    for (let i = 0; i < 5; i++) {
      const focused = await menu.locator('.monaco-list-row.focused').first().innerText({ timeout: 1000 }).catch(() => '');
      if (focused.includes('Set overlap_comm to false')) break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden', timeout: 10000 });
    const fixed = await until(async () => /"overlap_comm":\s*false/.test(await editorText()), 10000);
    await check('applying it sets overlap_comm to false in the editor', fixed, await editorText());
    const cleared = await until(async () => !(await problemsText()).includes('overlap-comm-race'), 15000);
    await check('the Problems entry goes away', cleared, await problemsText());
    await shot('fixed');
  });

  await step('terminal selection', async () => {
    await runCommand('Terminal: Create New Terminal');
    await page.locator(`${TERMINAL} .xterm-rows`).first().waitFor({ timeout: 20000 });
    await waitFor(`the shell prompt "${prompt}"`, async () => (await lastTerminalRow()) === prompt, 30000);
    await waitFor('the terminal to have the focus', focusIn(TERMINAL), 5000);
    await page.keyboard.type('cat train.log');
    await page.keyboard.press('Enter');
    // Printed and finished: the log's last line is on screen and the prompt is back.
    const printed = await until(async () => {
      const rows = await terminalRows();
      return rows.join('').includes('exits with return code = 1') && (await lastTerminalRow()) === prompt;
    }, 20000);
    await check('the log is printed in the integrated terminal', printed, (await terminalRows().catch(() => [])).join('\n'));

    await runCommand('Terminal: Select All');
    const selected = await until(async () => (await page.locator(`${TERMINAL} .xterm-selection div`).count()) > 0, 5000);
    await check('"Terminal: Select All" selects the terminal text', selected, !selected && 'no selection drawn in the terminal');
    await shot('terminal-selection');
    await runCommand('DeepSpeed: Diagnose Terminal Selection');

    const tab = page.locator('.tabs-container .tab', { hasText: 'DeepSpeed Diagnosis' }).first();
    const opened = await tab.waitFor({ timeout: 20000 }).then(() => true, () => false);
    await check('the diagnosis opens in a webview tab', opened, !opened && `no "DeepSpeed Diagnosis" tab after 20 s; ${await workbenchState()}`);
    if (!opened) return;
    const docTab = await until(async () => (await page.locator('.tabs-container .tab', { hasText: /DeepSpeed diagnosis \d+\.md/ }).count()) > 0, 10000);
    await check('the report is also opened as a virtual document', docTab, !docTab && (await workbenchState()));

    // The webview content lives in nested iframes.
    const frame = await until(async () => {
      for (const f of page.frames()) {
        const body = await f.evaluate(() => document.body && document.body.innerText).catch(() => '');
        if (body && /rank 3/i.test(body) && /Related ds_config keys/.test(body)) return f;
      }
      return null;
    }, 20000);
    await check('the report names rank 3 and lists related config keys', Boolean(frame),
      !frame && 'no webview frame shows both "rank 3" and "Related ds_config keys"');
    if (!frame) return;
    const image = await until(async () =>
      frame.evaluate(() => {
        const img = document.querySelector('img[src^="data:image/svg"]');
        const svg = document.querySelector('svg');
        if (img) return img.complete && img.naturalWidth > 0 ? 'img' : null;
        return svg && svg.getBoundingClientRect().width > 0 ? 'svg' : null;
      }), 10000);
    await check('the rank timeline is rendered', Boolean(image), !image && 'no loaded SVG image or visible <svg> in the report');
    await shot('diagnosis');
    await frame.evaluate(() => document.querySelector('img[src^="data:image/svg"], svg').scrollIntoView());
    await shot('diagnosis-timeline');
    const link = frame.locator('a[href^="command:dsls.revealConfigKey"]').first();
    const hasLink = (await link.count()) > 0;
    await check('config keys link to the ds_config', hasLink, !hasLink && 'no command:dsls.revealConfigKey link in the report');
    if (!hasLink) return;
    await link.click();
    const active = await until(async () => (await activeTab()).includes('ds_config.json'), 10000);
    await check('following a key link opens ds_config.json', active, await activeTab().catch(() => ''));
    await shot('config-key');
  });

  await step('editor selection', async () => {
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'train.log' }).first().click();
    await waitFor('train.log in the editor', async () => (await editorText()).includes('OutOfMemoryError'), 10000);
    // The Explorer keeps the focus after opening a file.
    await runCommand('View: Focus Active Editor Group');
    await waitFor('the editor to have the focus', focusIn(ACTIVE_EDITOR), 5000);
    await page.keyboard.press('Control+A');
    await waitFor('the editor selection', async () => (await page.locator(`${ACTIVE_EDITOR} .selected-text`).count()) > 0, 5000);
    await runCommand('DeepSpeed: Diagnose Selection');
    const second = await until(async () => (await page.locator('.tabs-container .tab', { hasText: 'DeepSpeed diagnosis 2.md' }).count()) > 0, 20000);
    await check('"DeepSpeed: Diagnose Selection" on a log editor opens a new report', second,
      !second && `no "DeepSpeed diagnosis 2.md" tab after 20 s; ${await workbenchState()}`);
    const front = await until(async () => (await page.locator('.tabs-container .tab.active', { hasText: 'DeepSpeed Diagnosis' }).count()) > 0, 10000);
    await check('the rendered report is in front of its markdown source', front, !front && `active tab: ${await activeTab().catch(() => '?')}`);
    await shot('editor-selection');
  });

  console.log(`e2e took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await browser.close();
  consoleLog.end();
}

main()
  .catch((err) => check('e2e run', false, err && err.stack ? err.stack : err))
  .finally(() => {
    console.log(`${passed} passed, ${failed} failed`);
    if (failed > 0) console.log(`artifacts: ${artifacts}`);
    process.exit(failed === 0 && passed > 0 ? 0 : 1);
  });
