/**
 * The HTTP bindings' JSON envelope (docs/behaviour.md, "Result format"), written here and nowhere else,
 * byte for byte JSON.stringify of the envelope: whole, or in chunks for many rows or a streamed answer,
 * read as fast as the database gives it, whatever the client takes (chunk-writer.ts). A client that hangs
 * up stops the cursor at once ('close').
 */
import type { ServerResponse } from 'node:http';
import type { AppError } from '../../errors';
import { StreamedData, type StreamedJson } from '../../operations/streamed';
import type { OperationResult } from '../../operations/types';
import { ChunkWriter, type StreamEnd } from '../chunk-writer';
import type { SpoolStore } from '../answer-spool';
import type { CacheWriter } from '../../services/answer-cache';
import { sendWhole } from '../../send';
import { ENVELOPE_TEXT_ROWS, WHOLE_ANSWER_ROWS } from '../../tunables';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The envelope of a result whose Data is in memory: Count only with array Data. */
export function successEnvelope(result: OperationResult): Record<string, unknown> {
  // Built member by member, in the order the answer lists them (docs/architecture.md, "Garbage on the request path").
  const envelope: Record<string, unknown> = { Success: true, Message: result.message ?? '' };
  if (Array.isArray(result.data)) envelope.Count = result.data.length;
  envelope.Data = result.data ?? null;
  if (result.totals) envelope.Totals = result.totals;
  if (result.nextPageToken !== undefined) envelope.NextPageToken = result.nextPageToken;
  return envelope;
}

/** A business failure's envelope, sent whole. */
export function writeFailureEnvelope(res: ServerResponse, error: AppError): void {
  sendWhole(
    res,
    200,
    JSON_TYPE,
    JSON.stringify({
      Success: false,
      Code: error.code,
      Message: error.message,
      Field: error.field ?? null,
      Data: null,
    }),
  );
}

/** Writes a result's envelope, whole or in chunks; the cache writer, if any, is handed the answer's bytes once they are all written, when not too large. */
export async function writeEnvelope(
  res: ServerResponse,
  result: OperationResult,
  spool: SpoolStore,
  cacheWriter?: CacheWriter,
): Promise<StreamEnd> {
  const { data } = result;
  if (!(data instanceof StreamedData) && !(Array.isArray(data) && data.length > WHOLE_ANSWER_ROWS)) {
    const body = JSON.stringify(successEnvelope(result));
    sendWhole(res, 200, JSON_TYPE, body);
    cacheWriter?.store(body);
    return 'complete';
  }
  const gathered = gathering(cacheWriter?.claim() ? cacheWriter : undefined);
  const out = new ChunkWriter(res, spool, gathered.add);
  const streamed = data instanceof StreamedData ? data : undefined;
  const onClose = () => {
    if (!res.writableFinished) void streamed?.close().catch(() => undefined);
  };
  res.once('close', onClose);
  try {
    res.statusCode = 200;
    res.setHeader('Content-Type', JSON_TYPE);
    await out.write(`{"Success":true,"Message":${JSON.stringify(result.message ?? '')}`);
    let count = Array.isArray(data) ? `,"Count":${data.length}` : '';
    let listRows: number | undefined;
    if (streamed?.count !== undefined) {
      // Counting a long list takes a while: the head goes first.
      await out.flush();
      listRows = await streamed.count();
      count = `,"Count":${listRows}`;
    }
    await out.write(`${count},"Data":`);
    const rowsWritten = listRows === undefined ? undefined : gathered.foresee?.(listRows);
    if (streamed !== undefined) await writeJson(out, streamed, streamed.body, rowsWritten);
    else await out.write((await writeRows(out, data as readonly unknown[], false)) ? ']' : '[]');
    const totals = streamed !== undefined ? streamed.totals?.() : result.totals;
    const page = result.nextPageToken === undefined ? '' : `,"NextPageToken":${JSON.stringify(result.nextPageToken)}`;
    await out.write(`${totals ? `,"Totals":${JSON.stringify(totals)}` : ''}${page}}`);
    // The snapshot ends before the last bytes go out: the connection is free by the time the client has the answer.
    await streamed?.close();
    // Kept once written whole: a silent client would otherwise hold the gathered bytes until it leaves.
    return await out.end(gathered.store);
  } finally {
    cacheWriter?.release();
    res.off('close', onClose);
    await streamed?.close();
  }
}

/** The bytes written, gathered for the answer cache while they stay within what it keeps. */
function gathering(cacheWriter: CacheWriter | undefined): {
  add?: (bytes: Buffer) => boolean;
  foresee?: (listRows: number) => RowsWritten;
  store: () => void;
} {
  if (cacheWriter === undefined) return { store: () => undefined };
  let kept: Buffer[] | undefined = [];
  let length = 0;
  return {
    add: (bytes) => {
      length += bytes.length;
      if (length > cacheWriter.maxLength) kept = undefined;
      else kept?.push(bytes);
      return kept !== undefined;
    },
    // A list of `listRows` whose rows so far show it too large to keep is gathered no further: the
    // rest of its Buffers would be garbage, up to the cache's entry limit per list.
    foresee: (listRows) => {
      let rows = 0;
      let chars = 0;
      return (batchRows, batchChars) => {
        rows += batchRows;
        chars += batchChars;
        if ((chars / rows) * listRows > cacheWriter.maxLength) kept = undefined;
      };
    },
    store: () => {
      if (kept !== undefined) cacheWriter.store(Buffer.concat(kept, length));
    },
  };
}

/** Told the rows of each batch of a list written, and their characters. */
type RowsWritten = (rows: number, chars: number) => void;

async function writeJson(
  out: ChunkWriter,
  data: StreamedData,
  part: StreamedJson,
  rowsWritten?: RowsWritten,
): Promise<void> {
  // Once the client has gone (and the answer is closed) nothing more is read.
  if (out.aborted) return;
  switch (part.kind) {
    case 'value':
      return out.write(JSON.stringify(part.value()));
    case 'rows': {
      let opened = false;
      for await (const batch of data.read(part.rows)) {
        if (out.aborted) return;
        const before = out.length;
        opened = await writeRows(out, batch, opened);
        rowsWritten?.(batch.length, out.length - before);
      }
      return out.write(opened ? ']' : '[]');
    }
    case 'object': {
      let separator = '{';
      for (const [name, member] of part.members) {
        await out.write(`${separator}${JSON.stringify(name)}:`);
        await writeJson(out, data, member);
        separator = ',';
      }
      return out.write(separator === '{' ? '{}' : '}');
    }
  }
}

/** Rows continuing a JSON array (`opened`: some were written before); the caller writes its end. */
async function writeRows(out: ChunkWriter, rows: readonly unknown[], opened: boolean): Promise<boolean> {
  for (let from = 0; from < rows.length && !out.aborted; from += ENVELOPE_TEXT_ROWS) {
    // JSON.stringify of a slice is an array: its brackets give way to the separators of the whole.
    await out.write((opened ? ',' : '[') + JSON.stringify(rows.slice(from, from + ENVELOPE_TEXT_ROWS)).slice(1, -1));
    opened = true;
  }
  return opened;
}
