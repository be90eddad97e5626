/**
 * The child process of bench-server.ts's probeHealth: GET /health on the port given, then a pause of
 * the interval given, until the parent says stop; then it sends the latencies (ms) back and exits.
 * It does nothing else, so its figures are the server's (and the network's), not the delays of a
 * load generator's own busy event loop.
 */
import http from 'node:http';

const [port, everyMs] = process.argv.slice(2).map(Number);

function probe(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function main(): Promise<void> {
  let running = true;
  process.once('message', () => (running = false));
  const latencies: number[] = [];
  while (running) {
    latencies.push(await probe());
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  process.send!(latencies, () => process.exit(0));
}

main().catch((err: unknown) => {
  process.stderr.write(`health-prober: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
