/**
 * Run by dead-buffers.test.ts in a process of its own (with or without --expose-gc), as the server
 * makes dead weight, and prints the most that lay beyond what lay there at the start, in bytes.
 * `buffers`: answer-sized Buffers that die one after another, as the answer cache's do (counted
 * outside V8's heap). `heap`: beside a server-sized live heap, rows that outlive young collections
 * and then die, as a list's rows do on their way to a slow client (counted in use in the heap).
 */
import { getHeapStatistics } from 'node:v8';
import { collectDeadBuffers } from '../../src/process/dead-buffers';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function buffers(): Promise<number> {
  const outside = () => getHeapStatistics().external_memory;
  const start = outside();
  const stop = collectDeadBuffers();
  let most = 0;
  for (let i = 0; i < 12; i++) {
    // Filled, so that its pages are really taken; held across checks, as an answer is while it is written.
    let answer: Buffer | undefined = Buffer.alloc(4 * 1024 * 1024, i);
    for (let check = 0; check < 3; check++) {
      await pause(50);
      most = Math.max(most, outside() - start);
    }
    answer = undefined;
    void answer;
  }
  stop();
  return most;
}

interface Row {
  no: string;
  customer: string;
  amount: number;
}

const rows = (batch: number, length: number): Row[] =>
  Array.from({ length }, (_, i) => ({ no: `PCN${batch}-${i}`, customer: `C${i}`, amount: i * 2.25 }));

async function heap(): Promise<number> {
  const inUse = () => getHeapStatistics().used_heap_size;
  // What an idle server holds (about 35 MB): V8 lets garbage grow in proportion to it.
  const live = Array.from({ length: 40 }, (_, batch) => rows(-batch, 10_000));
  globalThis.gc?.();
  const start = inUse();
  const stop = collectDeadBuffers();
  let most = 0;
  const onTheirWay: Row[][] = [];
  for (let batch = 0; batch < 1200; batch++) {
    onTheirWay.push(rows(batch, 2_500));
    if (onTheirWay.length > 32) onTheirWay.shift();
    await pause(1);
    most = Math.max(most, inUse() - start);
  }
  stop();
  // Read here, so that the live heap stays live to the end.
  return live.length > 0 ? most : 0;
}

void (process.argv[3] === 'heap' ? heap() : buffers()).then((most) => process.stdout.write(`${most}\n`));
