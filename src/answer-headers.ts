/**
 * What every answer carries, whoever writes it (docs/behaviour.md, "Headers of every answer"): set
 * where a request enters the app, the startup gate and the metrics listener, before any handler.
 * `X-Content-Type-Options: nosniff` keeps a browser from reading an answer as another type than its
 * Content-Type (a text or JSON answer echoing input, run as HTML or script).
 */
import type { ServerResponse } from 'node:http';

export function setAnswerHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
}
