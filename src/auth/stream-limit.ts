/**
 * Answers streamed from a database snapshot (docs/operations.md, "Slow clients"), limited twice, in
 * this process: each client address may have MAX_STREAMS_PER_ADDRESS of them under way, from the
 * request until the last byte went out or the client left; and the snapshots open at once are the
 * engine's turns, handed out fairly: a free turn goes to the waiting address with fewest under way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress } from '../request-context/client-address';
import { whenClosed } from '../request-context/exchange';

/** What a client past its share is told to wait: its earlier answers are on their way. */
export const STREAMS_RETRY_AFTER_SECONDS = 1;

/** A streamed answer refused: the address has MAX_STREAMS_PER_ADDRESS under way (429 in the binding's form). */
export class TooManyStreams extends Error {
  constructor() {
    super('too many streamed answers under way from this address');
    this.name = 'TooManyStreams';
  }
}

/** No turn came within DB_ACQUIRE_TIMEOUT_MS: the server's error, as when the database has no connection to lend. */
export class TurnTimeoutError extends Error {
  constructor(waitMs: number) {
    super(`no turn for a snapshot within ${waitMs} ms`);
    this.name = 'TurnTimeoutError';
  }
}

/** The client left before its answer had a turn: nobody is told anything, and no snapshot opens for it. */
export class ClientGone extends Error {
  constructor() {
    super('the client left before its streamed answer had a turn');
    this.name = 'ClientGone';
  }
}

interface Waiting {
  address: string;
  start(): void;
}

type Counts = Record<string, number>;

export class StreamLimit {
  /** Answers under way per address (waiting, reading or sending); an address leaves with its last one. */
  private readonly underWay: Counts = Object.create(null) as Counts;
  private turnsTaken = 0;
  private readonly waiting: Waiting[] = [];

  constructor(private readonly limits: { perAddress: number; turns: number; waitMs: number; trustProxy: boolean }) {}

  /**
   * Admits a streamed answer to `req` and waits for its turn; resolves with what ends the turn (its
   * snapshot's end). Throws TooManyStreams at once when the address has its share under way, and
   * ClientGone when the client has left (before or while it waits).
   */
  async admit(req: IncomingMessage, res: ServerResponse): Promise<() => void> {
    const address = clientAddress(req, this.limits.trustProxy);
    if (res.closed) throw new ClientGone();
    if ((this.underWay[address] ?? 0) >= this.limits.perAddress) throw new TooManyStreams();
    add(this.underWay, address, 1);
    whenClosed(res, () => add(this.underWay, address, -1));
    if (this.turnsTaken < this.limits.turns) this.turnsTaken++;
    else await this.wait(address, res);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.turnsTaken--;
      this.handOn();
    };
  }

  private wait(address: string, res: ServerResponse): Promise<void> {
    return new Promise((resolve, reject) => {
      // The one way a wait ends: its turn came (no error), its client left, or its time ran out.
      const end = (error?: Error) => {
        clearTimeout(timer);
        res.off('close', gone);
        const at = this.waiting.indexOf(waiting);
        if (at >= 0) this.waiting.splice(at, 1);
        if (error === undefined) resolve();
        else reject(error);
      };
      const waiting: Waiting = { address, start: () => end() };
      // A client that left waits no longer: its address's count is down by then, so the fairest
      // next turn would otherwise be its own, and a snapshot and a count would open for nobody.
      const gone = () => end(new ClientGone());
      const timer = setTimeout(() => end(new TurnTimeoutError(this.limits.waitMs)), this.limits.waitMs);
      // A wait keeps no process alive: a server that stops has no turn to give.
      timer.unref();
      res.once('close', gone);
      this.waiting.push(waiting);
    });
  }

  /** A free turn goes to the first waiting answer of the address with fewest under way: one client asking for many waits behind the others. */
  private handOn(): void {
    if (this.waiting.length === 0 || this.turnsTaken >= this.limits.turns) return;
    let next = 0;
    for (let i = 1; i < this.waiting.length; i++) {
      if ((this.underWay[this.waiting[i].address] ?? 0) < (this.underWay[this.waiting[next].address] ?? 0)) next = i;
    }
    const [chosen] = this.waiting.splice(next, 1);
    this.turnsTaken++;
    chosen.start();
  }
}

function add(counts: Counts, address: string, step: number): void {
  const count = (counts[address] ?? 0) + step;
  if (count === 0) delete counts[address];
  else counts[address] = count;
}
