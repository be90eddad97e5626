/**
 * Run by dead-buffers.test.ts in a process of its own (with or without --expose-gc): makes answer-sized
 * Buffers that die one after another, as the answer cache's do, and prints the most that lay outside
 * V8's heap beyond what lay there at the start, in bytes.
 */
import { getHeapStatistics } from 'node:v8';
import { collectDeadBuffers } from '../../src/process/dead-buffers';

const outside = () => getHeapStatistics().external_memory;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
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
  process.stdout.write(`${most}\n`);
}

void main();
