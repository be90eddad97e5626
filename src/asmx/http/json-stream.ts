/**
 * Writes a streamed operation result (src/operations/streamed.ts) as the HTTP bindings' JSON
 * envelope while its rows are read, byte for byte what JSON.stringify of the whole envelope gives
 * (index.ts, successEnvelope): {"Success":true,"Message":..,"Count":N,"Data":..,"Totals":..}.
 *
 * Rows are gathered into chunks of about ANSWER_CHUNK_BYTES; a chunk the socket cannot take yet waits for
 * 'drain', so the cursor is read no faster than the client receives (memory stays flat whatever the
 * size of the answer). The envelope's head up to Message is flushed before the rows are counted,
 * through compression too, so the client has its first byte without waiting for the count; a list
 * without a count (the activity report's object) sends its head with its first chunk, and a short one
 * goes whole, in one write (chunk-writer.ts). A failure after the first bytes (the count's, a row's)
 * cuts the connection (index.ts, sendStreamed). A client that hangs up stops
 * the cursor at once and ends the snapshot: the answer's close() is called from the 'close' event,
 * not after the next row.
 */
import type { ServerResponse } from 'node:http';
import type { StreamedData, StreamedJson } from '../../operations/streamed';
import { ChunkWriter, type StreamEnd } from '../chunk-writer';
import type { AnswerKeeper } from '../../services/answer-cache';
import { ENVELOPE_TEXT_ROWS } from '../../tunables';

export async function writeStreamedEnvelope(res: ServerResponse, data: StreamedData, message: string): Promise<StreamEnd> {
  const out = new ChunkWriter(res);
  const onClose = () => {
    if (!res.writableFinished) void data.close().catch(() => undefined);
  };
  res.once('close', onClose);
  try {
    startJson(res);
    await out.write(`{"Success":true,"Message":${JSON.stringify(message)}`);
    let count = '';
    if (data.count !== undefined) {
      // Counting a long list takes a while: the head goes first.
      out.flush();
      count = `,"Count":${await data.count()}`;
    }
    await out.write(`${count},"Data":`);
    await writeJson(out, data, data.body);
    const totals = data.totals ? `,"Totals":${JSON.stringify(data.totals())}` : '';
    await out.write(`${totals}}`);
    // The snapshot ends before the last bytes go out: the connection is free by the time the client has the answer.
    await data.close();
    return await out.end();
  } finally {
    res.off('close', onClose);
    await data.close();
  }
}

/**
 * A large answer already in memory (a report's rows): the envelope with its Data array written in
 * pieces (writeRows), the event loop free between chunks, so a large report does not hold up every
 * other request while it is stringified. The bytes are those of JSON.stringify(envelope).
 */
export async function writeArrayEnvelope(
  res: ServerResponse,
  envelope: Readonly<Record<string, unknown>> & { Data: readonly unknown[] },
  keeper?: AnswerKeeper,
): Promise<StreamEnd> {
  const { head, tail } = aroundData(envelope);
  const kept = keeping(keeper);
  const out = new ChunkWriter(res, kept.add);
  startJson(res);
  await out.write(head);
  const opened = await writeRows(out, envelope.Data, false);
  await out.write(`${opened ? ']' : '[]'}${tail}`);
  const end = await out.end();
  if (end === 'complete') kept.keep();
  return end;
}

/**
 * A report whose rows are JSON already, in chunks of text or bytes (JsonRows.chunks: made where they
 * were read, shaped-read.ts readWhole): the envelope around them, the chunks written as they are, with
 * the event loop free between them, kept whole for the answer cache when it is not too large. The
 * bytes are those of JSON.stringify(envelope) with the rows for Data.
 */
export async function writeChunksEnvelope(res: ServerResponse, envelope: Readonly<Record<string, unknown>>, rows: readonly (string | Buffer)[], keeper?: AnswerKeeper): Promise<StreamEnd> {
  const { head, tail } = aroundData(envelope);
  const kept = keeping(keeper);
  const out = new ChunkWriter(res, kept.add);
  startJson(res);
  await out.write(head);
  for (const chunk of rows) await (typeof chunk === 'string' ? out.write(chunk) : out.writeBytes(chunk));
  await out.write(tail);
  const end = await out.end();
  if (end === 'complete') kept.keep();
  return end;
}

/** JSON.stringify(envelope) before its Data's value (`{...,"Data":`) and after it (`,...}`). */
export function aroundData(envelope: Readonly<Record<string, unknown>>): { head: string; tail: string } {
  // Data itself is left out: it is written apart, and can be megabytes.
  const members = Object.entries(envelope)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name, name === 'Data' ? '' : `${JSON.stringify(name)}:${JSON.stringify(value)}`]);
  const at = members.findIndex(([name]) => name === 'Data');
  return {
    head: `{${[...members.slice(0, at).map(([, member]) => member), '"Data":'].join(',')}`,
    tail: `${members
      .slice(at + 1)
      .map(([, member]) => `,${member}`)
      .join('')}}`,
  };
}

/** The bytes written, gathered for the answer cache while they stay within what it keeps. */
function keeping(keeper: AnswerKeeper | undefined): { add?: (bytes: Buffer) => boolean; keep: () => void } {
  if (keeper === undefined) return { keep: () => undefined };
  let kept: Buffer[] | undefined = [];
  let length = 0;
  return {
    add: (bytes) => {
      length += bytes.length;
      if (length > keeper.maxLength) kept = undefined;
      else kept?.push(bytes);
      return kept !== undefined;
    },
    keep: () => {
      if (kept !== undefined) keeper.keep(Buffer.concat(kept, length));
    },
  };
}

function startJson(res: ServerResponse): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
}

async function writeJson(out: ChunkWriter, data: StreamedData, part: StreamedJson): Promise<void> {
  // Once the client has gone (and the answer is closed) nothing more is read.
  if (out.aborted) return;
  switch (part.kind) {
    case 'value':
      return out.write(JSON.stringify(part.value()));
    case 'rows': {
      let opened = false;
      for await (const batch of data.read(part.rows)) {
        if (out.aborted) return;
        opened = await writeRows(out, batch, opened);
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

/**
 * Rows continuing a JSON array, ENVELOPE_TEXT_ROWS of them stringified at once; `opened`: rows of the array were
 * written before. Whether the array is opened now: its end, ']' or '[]' when it never was, is the
 * caller's to write.
 */
async function writeRows(out: ChunkWriter, rows: readonly unknown[], opened: boolean): Promise<boolean> {
  for (let from = 0; from < rows.length && !out.aborted; from += ENVELOPE_TEXT_ROWS) {
    // JSON.stringify of a slice is an array: its brackets give way to the separators of the whole.
    await out.write((opened ? ',' : '[') + JSON.stringify(rows.slice(from, from + ENVELOPE_TEXT_ROWS)).slice(1, -1));
    opened = true;
  }
  return opened;
}
