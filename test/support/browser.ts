/**
 * Headless Chromium from Debian's package, driven by puppeteer-core (which downloads no browser of its
 * own), for the tests that check pages in a real browser.
 */
import type * as Puppeteer from 'puppeteer-core';

const CHROMIUM = '/usr/bin/chromium';

// puppeteer-core is ESM only, which Jest's CommonJS runtime cannot load; Node's own require can.
const puppeteer = process.getBuiltinModule('node:module').createRequire(__filename)(
  'puppeteer-core',
) as typeof Puppeteer;

export function launchBrowser(): Promise<Puppeteer.Browser> {
  return puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** What a page did, recorded from before its first request. */
export type Watched = {
  /** Every URL it requested. */
  requested: string[];
  /** The Content-Security-Policy violations it reported. */
  violations: string[];
  /** What its console logged as an error, and the exceptions its scripts threw. */
  errors: string[];
};

export async function watch(page: Puppeteer.Page): Promise<Watched> {
  const watched: Watched = { requested: [], violations: [], errors: [] };
  page.on('request', (request) => watched.requested.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') watched.errors.push(`${message.text()} (${message.location().url ?? ''})`);
  });
  page.on('pageerror', (error) => watched.errors.push(String(error)));
  // The listener is in place before any script of the page's own runs.
  await page.exposeFunction('reportPolicyViolation', (violation: string) => watched.violations.push(violation));
  await page.evaluateOnNewDocument(
    `document.addEventListener('securitypolicyviolation', (e) => reportPolicyViolation(e.effectiveDirective + ' refused ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber));`,
  );
  return watched;
}
