/** SIGTERM / SIGINT stop the server gracefully: exit 0, or 1 when SHUTDOWN_TIMEOUT_MS cut requests; `flush` runs before. */
import type { RunningServer } from '../server';

export function exitOnSignals(running: RunningServer, flush: () => Promise<void> = () => Promise.resolve()): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.logger.info({ signal }, 'stopping');
    running.stop().then(
      async ({ forced }) => {
        await flush().catch(() => undefined);
        if (forced) running.logger.warn('stopped: requests still open at SHUTDOWN_TIMEOUT_MS were cut');
        else running.logger.info('stopped');
        process.exit(forced ? 1 : 0);
      },
      (error: unknown) => {
        running.logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
