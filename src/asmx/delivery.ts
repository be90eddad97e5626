/** What the bindings deliver answers with, so that a slow client holds nothing others need (docs/architecture.md, "Slow clients and the database"). */
import {
  ClientGone,
  STREAMS_RETRY_AFTER_SECONDS,
  TooManyStreams,
  TurnTimeoutError,
  type StreamLimit,
} from '../auth/stream-limit';
import { FAULT_TEXT } from '../protocol-texts';
import { annotate } from '../request-context/annotation';
import type { BindingResponse } from '../request-context/exchange';
import type { SpoolStore } from './answer-spool';

export interface Delivery {
  /** The disk where answers wait for their slow clients. */
  spool: SpoolStore;
  /** Each address's share of the answers streamed from a snapshot, and their turns. */
  streams: StreamLimit;
}

type StreamRefusal = TooManyStreams | TurnTimeoutError | ClientGone;

/** Whether `error` refused a streamed answer (auth/stream-limit.ts): the binding answers it with refuseStream. */
export function isStreamRefusal(error: unknown): error is StreamRefusal {
  return error instanceof TooManyStreams || error instanceof TurnTimeoutError || error instanceof ClientGone;
}

/**
 * 429 past the address's share, 503 when no turn came in time, with Retry-After; `send` writes it in the
 * binding's form. A client that left is only counted.
 */
export function refuseStream(
  res: BindingResponse,
  error: StreamRefusal,
  send: (status: 429 | 503, message: string) => void,
): void {
  if (error instanceof ClientGone) return annotate(res, { outcome: 'aborted' });
  const busy = error instanceof TurnTimeoutError;
  annotate(res, { outcome: busy ? 'busy' : 'rate_limited' });
  res.setHeader('Retry-After', String(STREAMS_RETRY_AFTER_SECONDS));
  send(
    busy ? 503 : 429,
    busy ? FAULT_TEXT.serverBusy(STREAMS_RETRY_AFTER_SECONDS) : FAULT_TEXT.tooManyRequests(STREAMS_RETRY_AFTER_SECONDS),
  );
}
