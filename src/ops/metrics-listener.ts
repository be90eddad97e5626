/** METRICS_PORT: /metrics on a listener of its own, so the port clients reach need not expose it. */
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
