/** WORKERS > 1: the primary replaces a worker that dies, waiting longer after each quick death (no tight fork loop). */
import cluster, { type Worker } from 'node:cluster';
import type { Settings } from '../config';
import { startServer } from '../server';
import { serveClusterMetrics } from '../monitoring/metrics';
import { createLogger, type Logger } from '../monitoring/logger';
import { exitOnSignals } from './signals';

/** A worker that dies sooner than this after its start counts as a quick death (backoff grows). */
const QUICK_DEATH_MS = 10_000;
const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** After SHUTDOWN_DRAIN_MS + SHUTDOWN_TIMEOUT_MS the workers cut their requests themselves; this covers a stuck one. */
const WORKER_EXIT_MARGIN_MS = 5_000;

export function runPrimary(settings: Settings): void {
  const logger = createLogger(settings).child({ role: 'primary' });
  serveClusterMetrics();
  const supervisor = new Supervisor(settings, logger);
  supervisor.start();
  const stop = (signal: string) => {
    logger.info({ signal }, 'stopping the workers');
    supervisor.stop().then(
      (clean) => process.exit(clean ? 0 : 1),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/** flush: what must happen before the worker exits once stopped (spans still to export). */
export async function runWorker(settings: Settings, flush?: () => Promise<void>): Promise<void> {
  const running = await startServer(settings, { clusterWorker: true });
  exitOnSignals(running, flush);
  // The primary is gone (killed without a chance to stop us): nobody would replace or stop this worker.
  process.once('disconnect', () => process.emit('SIGTERM'));
}

class Supervisor {
  private stopping = false;
  private quickDeaths = 0;
  private readonly started = new Map<Worker, number>();
  private readonly restarts = new Set<NodeJS.Timeout>();
  private unclean = false;

  constructor(
    private readonly settings: Settings,
    private readonly logger: Logger,
  ) {}

  start(): void {
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
    for (let i = 0; i < this.settings.workers; i++) this.fork();
  }

  private fork(): void {
    const worker = cluster.fork();
    this.started.set(worker, Date.now());
    this.logger.info({ worker: worker.id, workerPid: worker.process.pid }, 'worker started');
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    const lived = Date.now() - (this.started.get(worker) ?? 0);
    this.started.delete(worker);
    if (this.stopping) {
      if (code !== 0) this.unclean = true;
      return;
    }
    this.quickDeaths = lived < QUICK_DEATH_MS ? this.quickDeaths + 1 : 0;
    const delay = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, this.quickDeaths - 1));
    this.logger.warn(
      { worker: worker.id, workerPid: worker.process.pid, code, signal, restartInMs: delay },
      'worker died; replacing it',
    );
    const timer = setTimeout(() => {
      this.restarts.delete(timer);
      if (!this.stopping) this.fork();
    }, delay);
    this.restarts.add(timer);
  }

  /** Resolves true when every worker stopped on its own with exit code 0. */
  stop(): Promise<boolean> {
    this.stopping = true;
    for (const timer of this.restarts) clearTimeout(timer);
    this.restarts.clear();
    const workers = [...this.started.keys()];
    return new Promise((resolve) => {
      const deadline = setTimeout(
        () => {
          for (const worker of this.started.keys()) worker.process.kill('SIGKILL');
          this.logger.error('workers did not stop in time; killed');
          resolve(false);
        },
        this.settings.shutdownDrainMs + this.settings.shutdownTimeoutMs + WORKER_EXIT_MARGIN_MS,
      );
      const check = () => {
        if (this.started.size > 0) return;
        clearTimeout(deadline);
        resolve(!this.unclean);
      };
      cluster.on('exit', check);
      for (const worker of workers) worker.process.kill('SIGTERM');
      check();
    });
  }
}
