/**
 * Headless Chromium from Debian's package, driven over the DevTools protocol on a pipe
 * (--remote-debugging-pipe: JSON messages ended by a NUL, written to its fd 3, read from its fd 4), for
 * the tests that check pages in a real browser. No library: the protocol's few commands used here are
 * plain JSON, and the ESM-only drivers do not load in Jest's CommonJS runtime.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

export const CHROMIUM = '/usr/bin/chromium';

type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { message: string }; sessionId?: string };
type Listener = (message: Message) => void;
type TargetInfo = { targetId: string; type: string; url: string; openerId?: string };

export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Set<Listener>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly userDataDir: string,
  ) {
    let buffered = '';
    (child.stdio[4] as Readable).setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\0'); end !== -1; end = buffered.indexOf('\0')) {
        this.dispatch(JSON.parse(buffered.slice(0, end)) as Message);
        buffered = buffered.slice(end + 1);
      }
    });
  }

  static async launch(): Promise<Browser> {
    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-'));
    const args = ['--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe', `--user-data-dir=${userDataDir}`, '--no-first-run', '--disable-background-networking', '--disable-component-update', 'about:blank'];
    const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    const browser = new Browser(child, userDataDir);
    // Every new tab is attached paused, so a test sets its credentials and headers before its first request.
    await browser.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
    return browser;
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      (this.child.stdio[3] as Writable).write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    });
  }

  /** A new tab at `url`, once its page has loaded; `prepare` runs before its first request. */
  async open(url: string, prepare: (tab: Tab) => Promise<void> = async () => {}): Promise<Tab> {
    const attached = this.attached((info) => info.url === 'about:blank' && info.openerId === undefined);
    await this.send('Target.createTarget', { url: 'about:blank' });
    const tab = await attached;
    await tab.start(prepare);
    await tab.goto(url);
    return tab;
  }

  /** The next tab a page opens (a form's target="_blank"), once `ready` holds in it; `prepare` runs before its first request. */
  async nextTab(ready: string, prepare: (tab: Tab) => Promise<void> = async () => {}): Promise<Tab> {
    const tab = await this.attached((info) => info.openerId !== undefined);
    await tab.start(prepare);
    await tab.waitFor(ready);
    return tab;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
    fs.rmSync(this.userDataDir, { recursive: true, force: true });
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The next page attached (paused) whose target `matches`. */
  private async attached(matches: (info: TargetInfo) => boolean): Promise<Tab> {
    const sessionId = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no new tab within 15 s')), 15_000);
      const off = this.on((message) => {
        const info = message.params?.targetInfo as TargetInfo | undefined;
        if (message.method === 'Target.attachedToTarget' && info?.type === 'page' && matches(info)) {
          off();
          clearTimeout(timer);
          resolve(message.params?.sessionId as string);
        }
      });
    });
    return new Tab(this, sessionId);
  }

  private dispatch(message: Message): void {
    if (message.id !== undefined) {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result ?? {});
      return;
    }
    for (const listener of [...this.listeners]) listener(message);
  }
}

/** The page calls it for each securitypolicyviolation event (Runtime.addBinding), before any script of its own runs. */
const VIOLATION_BINDING = 'reportPolicyViolation';
const VIOLATION_LISTENER = `document.addEventListener('securitypolicyviolation', (e) => ${VIOLATION_BINDING}(e.effectiveDirective + ' refused ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber));`;

export class Tab {
  /** Every URL this tab requested, from the moment it was attached. */
  readonly requested: string[] = [];
  /** The Content-Security-Policy violations its pages reported. */
  readonly violations: string[] = [];
  /** What its console logged as an error, and the exceptions its scripts threw. */
  readonly errors: string[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly sessionId: string,
  ) {
    browser.on((message) => {
      if (message.sessionId !== sessionId) return;
      const params = message.params ?? {};
      if (message.method === 'Network.requestWillBeSent') this.requested.push((params.request as { url: string }).url);
      if (message.method === 'Runtime.bindingCalled' && params.name === VIOLATION_BINDING) this.violations.push(String(params.payload));
      const entry = params.entry as { level: string; text: string; url?: string } | undefined;
      if (message.method === 'Log.entryAdded' && entry?.level === 'error') this.errors.push(`${entry.text} (${entry.url ?? ''})`);
      if (message.method === 'Runtime.exceptionThrown') this.errors.push(JSON.stringify(params.exceptionDetails));
    });
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.browser.send(method, params, this.sessionId);
  }

  /**
   * Enables the domains the tests use, runs `prepare`, and lets the paused page go on. The commands are
   * sent in that order without waiting: a paused popup answers none of them before it goes on.
   */
  async start(prepare: (tab: Tab) => Promise<void>): Promise<void> {
    const enabled = [
      ...['Page.enable', 'Runtime.enable', 'Network.enable', 'Log.enable'].map((method) => this.send(method)),
      this.send('Runtime.addBinding', { name: VIOLATION_BINDING }),
      this.send('Page.addScriptToEvaluateOnNewDocument', { source: VIOLATION_LISTENER }),
    ];
    const prepared = prepare(this);
    await Promise.all([...enabled, prepared, this.send('Runtime.runIfWaitingForDebugger')]);
  }

  async goto(url: string): Promise<void> {
    await this.send('Page.navigate', { url });
    await this.waitFor(`document.readyState === 'complete' && location.href === ${JSON.stringify(url)}`);
  }

  /** The value of a JavaScript expression in the page (awaited when it is a promise). */
  async evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = (await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true, userGesture: true })) as {
      result: { value: T };
      exceptionDetails?: { text: string };
    };
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.text}`);
    return result.value;
  }

  /** Waits until `expression` is true in the page. */
  async waitFor(expression: string, timeoutMs = 15_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (await this.evaluate<boolean>(`Boolean(${expression})`).catch(() => false)) return;
      if (Date.now() > until) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Puts files in the file input `selector` as if the user had picked them. */
  async setFiles(selector: string, files: readonly string[]): Promise<void> {
    const { root } = (await this.send('DOM.getDocument')) as { root: { nodeId: number } };
    const { nodeId } = await this.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    await this.send('DOM.setFileInputFiles', { nodeId, files });
  }

  /** Answers a server's challenge (401 with WWW-Authenticate) with these credentials, as a user typing them into the browser's prompt. */
  async answerChallenges(username: string, password: string): Promise<void> {
    this.browser.on((message) => {
      if (message.sessionId !== this.sessionId) return;
      const requestId = message.params?.requestId;
      // A tab closed meanwhile (after its test) has no request left to continue: its refusal is no failure.
      if (message.method === 'Fetch.requestPaused') this.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
      if (message.method === 'Fetch.authRequired') {
        this.send('Fetch.continueWithAuth', { requestId, authChallengeResponse: { response: 'ProvideCredentials', username, password } }).catch(() => undefined);
      }
    });
    await this.send('Fetch.enable', { handleAuthRequests: true });
  }

  /** Fills text inputs of the page's form by name, as a user would type them. */
  async fill(values: Readonly<Record<string, string>>): Promise<void> {
    await this.evaluate(`for (const [name, value] of ${JSON.stringify(Object.entries(values))}) document.querySelector('form input[name="' + name + '"]').value = value; true`);
  }
}
