// End-to-end run of the dsls extension in VS Code (code-server) through headless
// Chromium: Problems entry, hover, preferred quick fix, and "DeepSpeed: Diagnose
// Terminal Selection" on a log printed in the integrated terminal.
// Prints one line per check and "N passed, M failed"; screenshots go to $ARTIFACTS.
'use strict';
const path = require('node:path');
const { chromium } = require('playwright-core');

const url = process.env.CODE_SERVER_URL;
const artifacts = process.env.ARTIFACTS;
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed += 1;
    console.log(`ok     ${name}`);
  } else {
    failed += 1;
    console.log(`FAILED ${name}${detail ? `: ${String(detail).slice(0, 2000)}` : ''}`);
  }
  return ok;
}

async function step(name, fn) {
  try {
    await fn();
  } catch (err) {
    check(name, false, err && err.stack ? err.stack : err);
  }
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`) });
}

/** Polls fn until it returns a truthy value or the time runs out. */
async function until(fn, timeoutMs = 20000, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await fn();
      if (last) return last;
    } catch {
      // The workbench re-renders; try again.
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return last;
}

async function editorText(page) {
  return page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText();
}

async function problemsText(page) {
  return page.locator('.markers-panel').first().innerText();
}

async function runCommandFromMenu(page, menuItemText) {
  const item = page.locator('.context-view .monaco-menu .action-item', { hasText: menuItemText }).first();
  await item.waitFor({ state: 'visible', timeout: 5000 });
  await item.click();
}

async function main() {
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  const started = Date.now();

  await step('workbench loads', async () => {
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor();
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'ds_config.json' }).first();
    await row.waitFor();
    check('workbench loads with the workspace in the Explorer', true);
    await row.click();
    const text = await until(async () => ((await editorText(page)).includes('overlap_comm') ? editorText(page) : null));
    check('ds_config.json opens in an editor', Boolean(text), text);
  });

  await step('Problems panel', async () => {
    // Give the extension time to activate and the server to publish.
    await page.locator('.editor-group-container.active .squiggly-warning, .editor-group-container.active .squiggly-error').first()
      .waitFor({ timeout: 45000 });
    await page.keyboard.press('Control+Shift+M');
    const problems = await until(async () => {
      const t = await problemsText(page);
      return t.includes('overlap-comm-race') ? t : null;
    }, 20000);
    check('the Problems panel lists overlap-comm-race from dsls', Boolean(problems) && /dsls/.test(problems), problems || (await problemsText(page)));
    await shot(page, '1-problems');
  });

  const keyToken = () => page.locator('.editor-group-container.active .view-lines span span', { hasText: /^"overlap_comm"$/ }).first();

  await step('hover', async () => {
    await keyToken().hover();
    // The language hover (not the Problems part of the same popup) must explain the race.
    const hover = await until(async () => {
      const parts = await page.locator('.monaco-hover:visible .markdown-hover .rendered-markdown').allInnerTexts();
      const text = parts.join('\n');
      return /overlap_comm/.test(text) && /race/i.test(text) ? text : null;
    }, 15000);
    check('hovering overlap_comm shows the server hover explaining the race', Boolean(hover),
      await page.locator('.monaco-hover:visible').first().innerText().catch(() => ''));
    await shot(page, '2-hover');
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
  });

  await step('quick fix', async () => {
    await keyToken().click();
    await page.keyboard.press('Control+.');
    const menu = page.locator('.action-widget');
    await menu.waitFor({ state: 'visible', timeout: 10000 });
    const menuText = await menu.innerText();
    check('the quick-fix menu offers both fixes',
      menuText.includes('Set overlap_comm to false') && menuText.includes('Set contiguous_gradients to false'), menuText);
    await shot(page, '3-quick-fix-menu');
    // Choose with the keyboard, as the menu's pointer guard swallows synthetic clicks.
    for (let i = 0; i < 5; i++) {
      const focused = await menu.locator('.monaco-list-row.focused').first().innerText().catch(() => '');
      if (focused.includes('Set overlap_comm to false')) break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    const fixed = await until(async () => {
      const t = await editorText(page);
      return /"overlap_comm":\s*false/.test(t.replace(/\u00a0/g, ' ')) ? t : null;
    }, 10000);
    check('applying it sets overlap_comm to false in the editor', Boolean(fixed), await editorText(page));
    const cleared = await until(async () => !(await problemsText(page)).includes('overlap-comm-race'), 15000);
    check('the Problems entry goes away', cleared, await problemsText(page));
    await shot(page, '4-fixed');
  });

  await step('terminal selection', async () => {
    await page.keyboard.press('Control+`');
    const terminal = page.locator('.terminal-wrapper.active .xterm, .terminal .xterm').first();
    await terminal.waitFor({ timeout: 20000 });
    await terminal.click();
    await page.waitForTimeout(1000); // the shell prompt
    await page.keyboard.type('cat train.log\n');
    const printed = await until(async () => {
      const t = await page.locator('.xterm-rows').first().innerText();
      return t.includes('Killing subprocess 4103') ? t : null;
    }, 20000);
    check('the log is printed in the integrated terminal', Boolean(printed));

    await terminal.click({ button: 'right' });
    await runCommandFromMenu(page, 'Select All');
    await terminal.click({ button: 'right' });
    await shot(page, '5-terminal-menu');
    await runCommandFromMenu(page, 'Diagnose Terminal Selection');

    const tab = page.locator('.tabs-container .tab', { hasText: 'DeepSpeed Diagnosis' }).first();
    await tab.waitFor({ timeout: 20000 });
    check('the diagnosis opens in a webview tab', true);
    const docTab = await until(async () => (await page.locator('.tabs-container .tab', { hasText: /DeepSpeed diagnosis \d+\.md/ }).count()) > 0, 10000);
    check('the report is also opened as a virtual document', docTab);

    // The webview content lives in nested iframes.
    const frame = await until(async () => {
      for (const f of page.frames()) {
        const body = await f.evaluate(() => document.body && document.body.innerText).catch(() => '');
        if (body && /rank 3/i.test(body) && /Related ds_config keys/.test(body)) return f;
      }
      return null;
    }, 20000);
    check('the report names rank 3 and lists related config keys', Boolean(frame));
    if (frame) {
      const image = await until(async () =>
        frame.evaluate(() => {
          const img = document.querySelector('img[src^="data:image/svg"]');
          const svg = document.querySelector('svg');
          if (img) return img.complete && img.naturalWidth > 0 ? 'img' : null;
          return svg && svg.getBoundingClientRect().width > 0 ? 'svg' : null;
        }), 10000);
      check('the rank timeline is rendered', Boolean(image));
      await shot(page, '6-diagnosis');
      await frame.evaluate(() => document.querySelector('img[src^="data:image/svg"], svg').scrollIntoView());
      await shot(page, '6-diagnosis-timeline');
      const link = frame.locator('a[href^="command:dsls.revealConfigKey"]').first();
      const hasLink = (await link.count()) > 0;
      check('config keys link to the ds_config', hasLink);
      if (hasLink) {
        await link.click();
        const active = await until(async () => {
          const t = await page.locator('.tabs-container .tab.active').first().innerText();
          return t.includes('ds_config.json') ? t : null;
        }, 10000);
        check('following a key link opens ds_config.json', Boolean(active));
        await shot(page, '7-config-key');
      }
    }
  });

  await step('editor selection', async () => {
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'train.log' }).first().click();
    const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
    await until(async () => (await lines.innerText()).includes('OutOfMemoryError'), 10000);
    await lines.click();
    await page.keyboard.press('Control+A');
    await lines.click({ button: 'right' });
    await runCommandFromMenu(page, 'Diagnose Selection');
    const second = await until(async () => (await page.locator('.tabs-container .tab', { hasText: 'DeepSpeed diagnosis 2.md' }).count()) > 0, 20000);
    check('"DeepSpeed: Diagnose Selection" on a log editor opens a new report', second);
    const front = await until(async () => (await page.locator('.tabs-container .tab.active', { hasText: 'DeepSpeed Diagnosis' }).count()) > 0, 10000);
    check('the rendered report is in front of its markdown source', front);
    await shot(page, '8-editor-selection');
  });

  console.log(`e2e took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await browser.close();
}

main()
  .catch((err) => check('e2e run', false, err && err.stack ? err.stack : err))
  .finally(() => {
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed === 0 && passed > 0 ? 0 : 1);
  });
