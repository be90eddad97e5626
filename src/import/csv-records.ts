/**
 * Streams the records of one CSV file (RFC 4180: comma separated, double-quote quoting, CRLF or LF;
 * UTF-8, a leading BOM tolerated). Records are read as the file is read, a chunk of the file at a
 * time, so a file of any size is never held in memory (docs/import.md, "File format").
 */
import fs from 'node:fs';
import { finished } from 'node:stream/promises';
import { parse, type CsvError } from 'csv-parse';

export type CsvRecord =
  /** `bytes`: how far into the file the parser has read, for progress. */
  | { line: number; fields: string[]; bytes: number }
  /** A record the parser could not read (a stray or unclosed quote): reported, not loaded. */
  | { line: number; error: string };

/**
 * The records in file order, in arrays of those read from each chunk of the file: handed out one at
 * a time through the parser's async iterator, each record cost more than parsing it.
 */
export async function* readCsvRecords(file: string): AsyncGenerator<CsvRecord[]> {
  const skipped: CsvRecord[] = [];
  const ready: CsvRecord[] = [];
  const parser = parse({
    bom: true,
    info: true,
    // A row with the wrong number of fields is that row's problem, not the file's: the loader rejects it.
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (err: CsvError | undefined) => {
      if (err) skipped.push({ line: Number((err as CsvError & { lines?: number }).lines ?? 0), error: err.message });
    },
  });
  parser.on('data', ({ record, info }: { record: string[]; info: { lines: number; bytes: number } }) => {
    const line = info.lines - newlinesIn(record);
    // The parser may note a skip before it hands out the records above it.
    while (skipped.length > 0 && skipped[0].line < line) ready.push(skipped.shift()!);
    ready.push({ line, fields: record, bytes: info.bytes });
  });
  const done = finished(parser);
  // Thrown by the loop below (parser.errored) or by `await done`, not left unhandled.
  done.catch(() => undefined);
  const source = fs.createReadStream(file);
  try {
    for await (const chunk of source) {
      parser.write(chunk);
      if (parser.errored) throw parser.errored;
      if (ready.length > 0) yield ready.splice(0);
    }
    parser.end();
    await done;
    yield [...ready, ...skipped];
  } finally {
    // The loader may stop early (a refused header, a database error): close the file either way.
    source.destroy();
    parser.destroy();
  }
}

/** The parser reports the line a record ends on; quoted fields may span lines, and the report wants the first. */
function newlinesIn(fields: string[]): number {
  let count = 0;
  for (const field of fields) {
    if (field.includes('\n') || field.includes('\r')) count += field.match(/\r\n|\n|\r/g)!.length;
  }
  return count;
}
