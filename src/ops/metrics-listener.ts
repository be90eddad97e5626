/**
 * METRICS_PORT (docs/operations.md, "Metrics"): /metrics on a listener of its own at HOST:METRICS_PORT,
 * so the port clients reach need not expose request counts and the Node version; the main port then
 * answers /metrics 404. Under WORKERS every worker listens there too (node:cluster shares the port), and
 * whichever answers gives the sum over all workers, as /metrics does on the main port.
 */
import type { RequestListener } from 'node:http';
import { setAnswerHeaders } from '../answer-headers';
import type { Probe } from './probes';

/** `notFound`: the main port's answer to an unknown path (app.ts), for every other request here. */
export function metricsListener(metrics: Probe, notFound: Probe): RequestListener {
  return (req, res) => {
    setAnswerHeaders(res);
    const url = req.url ?? '';
    const path = (url.includes('?') ? url.slice(0, url.indexOf('?')) : url).toLowerCase();
    if ((req.method === 'GET' || req.method === 'HEAD') && path === '/metrics') return metrics(req, res);
    notFound(req, res);
  };
}
