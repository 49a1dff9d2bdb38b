// Drives the VS Code workbench in Chromium as a user would, with playwright-core.
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';

export const SCREENSHOTS = path.resolve(__dirname, '../../../../test-results/screenshots');

export class Workbench {
  private constructor(
    readonly browser: Browser,
    readonly page: Page,
    /** A window opened beside the first one closes its page only. */
    private readonly ownsBrowser = true,
  ) {}

  static async open(url: string, chromiumPath: string): Promise<Workbench> {
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    return new Workbench(browser, await openWorkbenchPage(browser, url));
  }

  /** Another window of the same editor, in a page of this browser (as a user opens a second window). */
  async anotherWindow(url: string): Promise<Workbench> {
    return new Workbench(this.browser, await openWorkbenchPage(this.browser, url), false);
  }

  /** Closes the browser; for a window opened beside the first, its page only. */
  async close(): Promise<void> {
    if (this.ownsBrowser) return this.browser.close();
    await this.closeWindow();
  }

  /**
   * Closes this window as a user closing its tab does: the page unloads (the workbench shuts its
   * extension host down), then goes. The browser's other windows stay.
   */
  async closeWindow(): Promise<void> {
    await this.page.goto('about:blank').catch(() => undefined);
    await this.page.close();
  }

  screenshot(name: string): Promise<string> {
    return this.screenshotOf(this.page, name);
  }

  /**
   * A screenshot of a page of this browser (the workbench, or an authorization server's sign-in
   * page). Headless Chromium now and then answers "Unable to capture screenshot" while the page
   * repaints (once after a window reload in a cold run): it is asked again, up to three times.
   */
  async screenshotOf(page: Page, name: string): Promise<string> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = path.join(SCREENSHOTS, `${name}.png`);
    for (let attempt = 1; ; attempt++) {
      try {
        await page.screenshot({ path: file });
        return file;
      } catch (error) {
        if (attempt === 3 || !/Unable to capture screenshot/.test(String(error))) throw error;
        await page.waitForTimeout(500);
      }
    }
  }

  /** Opens the MCP view container from its activity-bar icon. */
  /** The MCP Servers view's pane (the container also holds MCP Resources). */
  serversPane(): Locator {
    return this.page.locator('.pane').filter({ has: this.page.locator('.pane-header', { hasText: 'MCP Servers' }) });
  }

  async openMcpView(): Promise<Locator> {
    const view = this.serversPane();
    // Its activity-bar icon toggles the container: click it only when the container is not the
    // active one. A reloaded window restores it open, and may do so after a click of ours
    // (closing it again): so look again until the list shows.
    const icon = this.page
      .locator('.activitybar .action-item')
      .filter({ has: this.page.locator('[aria-label^="MCP"]') })
      .first();
    await icon.waitFor({ timeout: 90_000 });
    // With no server configured the view shows its welcome content instead of the list.
    const shown = view.locator('.monaco-list:visible, .welcome-view-content:visible').first();
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (
        await view
          .locator('.monaco-list')
          .isVisible()
          .catch(() => false)
      )
        return view;
      if (
        await view
          .locator('.welcome-view-content')
          .isVisible()
          .catch(() => false)
      )
        return view;
      // A pane folded (for room, by a test before) opens as a user opens it: by its header.
      const header = view.locator('.pane-header');
      if (
        (await header.isVisible().catch(() => false)) &&
        (await header.getAttribute('aria-expanded', { timeout: 1_000 }).catch(() => null)) === 'false'
      ) {
        if (Date.now() > deadline) throw new Error('the MCP Servers view stayed folded');
        await header.click();
        continue;
      }
      const active = await icon.evaluate(
        (item) =>
          item.classList.contains('checked') ||
          item.querySelector('[aria-expanded="true"], [aria-pressed="true"]') !== null,
      );
      if (!active) await icon.locator('a, .action-label').first().click();
      try {
        await shown.waitFor({ timeout: 5_000 });
        return view;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
    }
  }

  /** The tree row of a server in the MCP Servers view. */
  serverRow(id: string): Locator {
    return this.serversPane()
      .locator('.monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(id)}$`) }) });
  }

  /** Expands a server's row and then its Tools group (`group` names it) with the keyboard, as a user does. */
  async expandServerTools(id: string, group: string | RegExp = /^Tools \(\d+\)/): Promise<void> {
    await this.expandRow(this.serverRow(id));
    await this.expandRow(this.serversPane().locator('.monaco-list-row', { hasText: group }));
  }

  /**
   * Selects a tree row and opens it with the right arrow, again until the row says it is expanded:
   * a window still settling after a reload may take the click or the key elsewhere (a CI run saw
   * the row selected and closed).
   */
  private async expandRow(row: Locator, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const expanded = row.and(this.page.locator('[aria-expanded="true"]'));
    for (;;) {
      await row.click({ timeout: Math.max(1_000, deadline - Date.now()) });
      await this.page.keyboard.press('ArrowRight');
      if (
        await expanded.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        )
      )
        return;
      if (Date.now() > deadline)
        throw new Error(`the row "${await row.textContent()}" did not expand within ${timeoutMs / 1000} s`);
    }
  }

  /** Drags the side bar's edge to `width` pixels, as a user does to read long rows. */
  async widenSideBar(width: number): Promise<void> {
    const box = await this.page.locator('.part.sidebar').boundingBox();
    if (!box) throw new Error('the side bar is not shown');
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width + 1, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, y, { steps: 10 });
    await this.page.mouse.up();
    await this.page.mouse.move(box.x + width + 300, y);
  }

  /** Whether a server's row shows its whole label and description at the side bar's present width (no "…"). */
  /**
   * Whether the server's row shows whole. A row just drawn (a view opened, its state changed) is
   * measured again until it fits, for at most `withinMs`: the answer is the settled row's.
   */
  async serverRowFits(id: string, withinMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const fits = await this.serverRow(id)
        .locator('.monaco-icon-label-container')
        .evaluate((el) => el.scrollWidth <= el.clientWidth, undefined, { timeout: 5_000 })
        .catch(() => false);
      if (fits || Date.now() >= deadline) return fits;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async serverDescription(id: string): Promise<string> {
    return (await this.serverRow(id).locator('.label-description').textContent({ timeout: 5_000 }))?.trim() ?? '';
  }

  /**
   * Hovers `row` until its tooltip containing `text` shows, and returns the tooltip. A row redraws
   * when its server's state or lists change, which takes a hover away, so it moves away and hovers
   * again, as a user would, until the tooltip stays.
   */
  async tooltip(row: Locator, text: string, timeoutMs = 30_000): Promise<Locator> {
    const hover = this.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: text }).first();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.page.mouse.move(0, 0);
      await row.hover();
      if (
        await hover.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        )
      )
        return hover;
      if (Date.now() > deadline)
        throw new Error(`no tooltip with "${text}" showed over ${await row.textContent().catch(() => 'the row')}`);
    }
  }

  async waitForServerDescription(id: string, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = await this.serverDescription(id).catch(() => '');
      if (pattern.test(last)) return last;
      await this.page.waitForTimeout(200);
    }
    throw new Error(`server "${id}" row never matched ${pattern}; last seen: "${last}"`);
  }

  async runCommand(title: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    const rows = this.page.locator('.quick-input-list .monaco-list-row');
    const row = rows.filter({ hasText: title });
    const typed = () => input.inputValue({ timeout: 1_000 }).catch(() => '');
    const deadline = Date.now() + 60_000;
    let seen = 'no command palette';
    await this.page.keyboard.press('F1');
    // The palette may still be opening when the title is typed, and its opening then resets what
    // was typed; or the key may come before the window takes keys; or a busy window may leave the
    // palette in a state that typing does not mend. Each try looks at what the palette shows and
    // does what is missing; a try that still finds no row closes the palette and opens it afresh.
    for (let tries = 1; ; tries++) {
      if (
        await input.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => false,
        )
      ) {
        if ((await typed()) !== `>${title}`) await input.fill(`>${title}`, { timeout: 5_000 }).catch(() => undefined);
        const shown = await row
          .first()
          .waitFor({ timeout: 5_000 })
          .then(
            () => true,
            () => false,
          );
        if (shown && (await typed()) === `>${title}`) break;
        const listed = await rows.allTextContents().catch(() => []);
        seen = `"${await typed()}" with rows ${JSON.stringify(listed.slice(0, 5))}`;
        await this.page.keyboard.press('Escape');
        await input.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
      }
      if (Date.now() > deadline) {
        await this.screenshot(`palette-without-${title.replace(/\W+/g, '-')}`).catch(() => undefined);
        throw new Error(`the command palette never showed "${title}" (${tries} tries; last seen: ${seen})`);
      }
      await this.page.keyboard.press('F1');
    }
    await this.page.keyboard.press('Enter');
  }

  /**
   * The frame of the webview showing `selector` (webviews are nested iframes); waits for it. The
   * newest matching frame wins, so a panel opened after an older one is found.
   */
  async webview(selector: string, timeoutMs = 30_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (const frame of [...this.page.frames()].reverse()) {
        if (
          await frame
            .locator(selector)
            .count()
            .catch(() => 0)
        )
          return frame;
      }
      await this.page.waitForTimeout(200);
    }
    throw new Error(`no webview shows ${selector}`);
  }

  /** The modal dialog's text, once it is shown. */
  async dialog(timeoutMs = 30_000): Promise<Locator> {
    const dialog = this.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: timeoutMs });
    return dialog;
  }

  /** Picks a quick-pick row that shows every given text. */
  async pick(...texts: string[]): Promise<void> {
    let row = this.page.locator('.quick-input-list .monaco-list-row');
    for (const text of texts) row = row.filter({ hasText: text });
    // Rows of a list that is being replaced may linger hidden; pick from what the user sees.
    await row.filter({ visible: true }).first().click();
  }

  /** "Developer: Reload Window", as a user runs it, until the reloaded workbench is there. */
  async reloadWindow(): Promise<void> {
    // The old page keeps its workbench until the new document loads, so wait for that load first.
    const loaded = this.page.waitForEvent('load', { timeout: 90_000 });
    await this.runCommand('Developer: Reload Window');
    await loaded;
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  }

  /** Opens the Chat view with its keyboard shortcut (Ctrl+Alt+I). */
  async openChat(): Promise<void> {
    const input = this.page.locator('.interactive-input-part .monaco-editor').first();
    // A reloaded window may have it open already, and the shortcut would close it.
    if (!(await input.isVisible())) await this.page.keyboard.press('Control+Alt+KeyI');
    await input.waitFor({ timeout: 30_000 });
  }

  /**
   * Types a request into the chat input and sends it, then waits until the chat shows it. A
   * window busy right after a reload can drop the keys typed into an input that has just
   * appeared; then the request is typed once more, as a user would.
   */
  async sendChat(text: string): Promise<void> {
    const input = this.page.locator('.interactive-input-part .monaco-editor').first();
    // The request as the chat renders it (the participant as a pill): compared without spaces.
    const bare = (t: string) => t.replace(/[\s\u00a0]+/g, '');
    const shown = async () =>
      (await this.page.locator('.interactive-item-container.interactive-request').allTextContents()).filter((t) =>
        bare(t).includes(bare(text)),
      ).length;
    const before = await shown();
    for (let attempt = 1; ; attempt++) {
      await input.waitFor({ timeout: 30_000 });
      await input.click();
      await this.page.keyboard.press('ControlOrMeta+A');
      await this.page.keyboard.press('Backspace');
      await this.page.keyboard.type(text, { delay: 5 });
      await this.page.keyboard.press('Escape'); // close any suggestion so Enter sends
      await input.click();
      await this.page.keyboard.press('Enter');
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        if ((await shown()) > before) return;
        await this.page.waitForTimeout(250);
      }
      if (attempt === 2) throw new Error(`the chat never showed the request "${text}"`);
    }
  }

  /** The text of the newest chat response once it matches. */
  async lastChatResponse(pattern: RegExp, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = (
        (await this.page
          .locator('.interactive-item-container.interactive-response')
          .last()
          .textContent()
          .catch(() => '')) ?? ''
      ).replace(/\u00a0/g, ' ');
      if (pattern.test(last)) return last;
      await this.page.waitForTimeout(250);
    }
    throw new Error(`the last chat response never matched ${pattern}; last seen: "${last}"`);
  }

  /** Visible notification toasts' messages. */
  async notifications(): Promise<string[]> {
    return this.page.locator('.notification-toast .notification-list-item-message').allTextContents();
  }

  async statusBarText(prefix: string): Promise<string> {
    return (await this.page.locator('.statusbar-item', { hasText: prefix }).first().textContent())?.trim() ?? '';
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function openWorkbenchPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  return page;
}
