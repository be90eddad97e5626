/** METRICS_PORT: /metrics on a listener of its own, so the port clients reach need not expose it. */
import type { RequestListener } from 'node:http';
import { setAnswerHeaders } from '../answer-headers';
import type { Probe } from './probes';
import { opsPathOf } from './request-summary';

/** `notFound`: the main port's answer to an unknown path (app.ts), for every other request here. */
export function metricsListener(metrics: Probe, notFound: Probe): RequestListener {
  return (req, res) => {
    setAnswerHeaders(res);
    if ((req.method === 'GET' || req.method === 'HEAD') && opsPathOf(req.url ?? '') === '/metrics') return metrics(req, res);
    notFound(req, res);
  };
}
