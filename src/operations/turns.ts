/**
 * Work over every row of a large answer (tens of thousands of report rows) in turns of REPORT_ROWS_PER_TURN
 * rows, the event loop free between them, so that /health and light requests are answered while a
 * company-wide report is put together (docs/behaviour.md, "Large answers").
 */
import { REPORT_ROWS_PER_TURN } from '../tunables';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function forEachInTurns<T>(rows: readonly T[], each: (row: T) => void): Promise<void> {
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % REPORT_ROWS_PER_TURN === 0) await nextTurn();
    each(rows[i]);
  }
}

export async function mapInTurns<T, U>(rows: readonly T[], map: (row: T) => U): Promise<U[]> {
  const mapped = new Array<U>(rows.length);
  let i = 0;
  await forEachInTurns(rows, (row) => {
    mapped[i++] = map(row);
  });
  return mapped;
}
