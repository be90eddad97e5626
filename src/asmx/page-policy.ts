/**
 * The Content-Security-Policy of the pages a browser renders (docs/behaviour.md, "Headers of every
 * answer"): a page loads only what its policy names, and no other site may frame it, so none can
 * overlay a test form and have a logged-in user click Invoke.
 */
import { createHash } from 'node:crypto';

/** `allowed`: the directives a page needs beyond nothing at all. */
export function pagePolicy(allowed: Readonly<Record<string, string>>): string {
  const directives = { 'default-src': "'none'", ...allowed, 'base-uri': "'none'", 'frame-ancestors': "'none'" };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources}`)
    .join('; ');
}

/** The source that allows one inline <style> or <script> by its exact text, and no other. */
export function inlineSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
