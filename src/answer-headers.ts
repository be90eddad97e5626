/** What every answer carries: nosniff keeps a browser from running a text or JSON answer that echoes input as script. */
import type { ServerResponse } from 'node:http';

export function setAnswerHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
}
