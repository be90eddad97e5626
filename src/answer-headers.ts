/**
 * What every answer carries, whoever writes it (docs/behaviour.md, "Headers of every answer"): nosniff
 * keeps a browser from running a text or JSON answer that echoes input as HTML or script.
 */
import type { ServerResponse } from 'node:http';

export function setAnswerHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
}
