/** OpenTelemetry traces through the Node SDK; its instrumentations patch modules as they load, so this runs first. */
import { format } from 'node:util';
import type { DiagLogger } from '@opentelemetry/api';
import { redactedUrl } from '../config';
import { enableSpans } from './spans';

/** `shutdown` exports the spans still waiting; the process calls it before it exits. */
type Tracing = { shutdown(): Promise<void> };

function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const endpoint = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
  return endpoint && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}

export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Tracing | undefined> {
  if (!tracingWanted(env)) return undefined;
  const { diag, DiagLogLevel } = await import('@opentelemetry/api');
  // The SDK reports a value it rejects (and an export that fails) through diag, silent by default.
  if (env.OTEL_LOG_LEVEL === undefined) diag.setLogger(stderrLines(env), DiagLogLevel.WARN);
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { defaultResource, resourceFromAttributes } = await import('@opentelemetry/resources');
  const { HttpInstrumentation } = await import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation, ExpressLayerType } = await import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } = await import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } = await import('@opentelemetry/instrumentation-ioredis');
  const sdk = new NodeSDK({
    // The SDK's resource detectors run after this, so OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win.
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': 'mobileapp-asmx' })),
    instrumentations: [
      // Outgoing requests only: the server's listener opens the HTTP server spans (server-span.ts).
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
      // A span for the route's handler only: the middleware and routers around it would add a span
      // each to every document's trace, saying nothing the HTTP server span does not.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
      // Queries outside a request (migrations, the table-version poll) would each be a trace of one span.
      new PgInstrumentation({ requireParentSpan: true }),
      // The command only: its arguments are rate-limit keys, which name users and addresses.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  enableSpans();
  return {
    shutdown: () =>
      Promise.race([sdk.shutdown(), new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_FLUSH_MS).unref())]),
  };
}

/** How long a stopping process waits for its last spans to be exported (a collector may be down). */
const SHUTDOWN_FLUSH_MS = 5000;

const ENDPOINT_VARIABLE = /^OTEL_EXPORTER_OTLP_(\w+_)?ENDPOINT$/;

/**
 * One line per message of the SDK's, on stderr (stdout carries the JSON log lines). The SDK quotes an
 * endpoint it cannot parse, so each endpoint's value is written without its password.
 */
function stderrLines(env: NodeJS.ProcessEnv): DiagLogger {
  const endpoints = Object.entries(env).flatMap(([name, value]) =>
    ENDPOINT_VARIABLE.test(name) && value?.trim() ? [value.trim()] : [],
  );
  const line =
    (level: string) =>
    (message: string, ...args: unknown[]) => {
      const text = endpoints.reduce(
        (shown, endpoint) => shown.replaceAll(endpoint, () => redactedUrl(endpoint)),
        format(message, ...args),
      );
      process.stderr.write(`OpenTelemetry ${level}: ${text.replace(/\s*\n\s*/g, ' ')}\n`);
    };
  return {
    error: line('error'),
    warn: line('warn'),
    info: line('info'),
    debug: line('debug'),
    verbose: line('verbose'),
  };
}
