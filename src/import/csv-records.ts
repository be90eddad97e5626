/**
 * Streams the records of one CSV file (RFC 4180: comma separated, double-quote quoting, CRLF or LF;
 * UTF-8, a leading BOM tolerated). Records are read as the file is read, with back-pressure, so a
 * file of any size is never held in memory (docs/import.md, "File format").
 */
import fs from 'node:fs';
import { parse, type CsvError } from 'csv-parse';

export type CsvRecord =
  /** `bytes`: how far into the file the parser has read, for progress. */
  | { line: number; fields: string[]; bytes: number }
  /** A record the parser could not read (a stray or unclosed quote): reported, not loaded. */
  | { line: number; error: string };

export async function* readCsvRecords(file: string): AsyncGenerator<CsvRecord> {
  const skipped: CsvRecord[] = [];
  const source = fs.createReadStream(file);
  const parser = source.pipe(parse({
    bom: true,
    info: true,
    // A row with the wrong number of fields is that row's problem, not the file's: the loader rejects it.
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (err: CsvError | undefined) => {
      if (err) skipped.push({ line: Number((err as CsvError & { lines?: number }).lines ?? 0), error: err.message });
    },
  }));
  // A read error of the file reaches the parser, and so the loop below, instead of going unnoticed.
  source.on('error', (err) => parser.destroy(err));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number; bytes: number } }>) {
      const line = info.lines - newlinesIn(record);
      // The parser runs ahead of this loop: a skip it noted may lie after records not yet handed out.
      while (skipped.length > 0 && skipped[0].line < line) yield skipped.shift()!;
      yield { line, fields: record, bytes: info.bytes };
    }
    yield* skipped.splice(0);
  } finally {
    // The loader may stop early (a refused header, a database error): close the file either way.
    source.destroy();
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
