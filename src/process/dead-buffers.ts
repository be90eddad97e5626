/**
 * Dead weight freed sooner than V8 frees it (docs/architecture.md, "Dead Buffers"). A Buffer's bytes
 * lie outside V8's heap and go back only at a collection, which V8 starts for them only once far more
 * lies there than after the last: the answers the cache replaces or drops were the peak's dead weight.
 * Inside the heap V8 lets garbage grow to about four times what lives before it collects, and rows
 * read at the database's speed (pg parses them on the event loop) made that the peak on PostgreSQL.
 * Needs node's --expose-gc (the start commands give it); without it, nothing changes.
 */
import { getHeapStatistics } from 'node:v8';
import { DEAD_BUFFER_BYTES, DEAD_BUFFER_CHECK_MS, DEAD_HEAP_BYTES } from '../tunables';

/**
 * Starts a full collection whenever DEAD_BUFFER_BYTES more lie outside the heap, or DEAD_HEAP_BYTES more
 * are in use inside it, than after the last; gives the stop.
 */
export function collectDeadBuffers(): () => void {
  const collect = globalThis.gc;
  if (collect === undefined) return () => undefined;
  let outsideFloor = 0;
  let heapFloor = 0;
  const settle = () => {
    const stats = getHeapStatistics();
    outsideFloor = stats.external_memory;
    heapFloor = stats.used_heap_size;
  };
  settle();
  const timer = setInterval(() => {
    const { external_memory: outside, used_heap_size: heap } = getHeapStatistics();
    // Below a floor: V8 collected by itself.
    outsideFloor = Math.min(outsideFloor, outside);
    heapFloor = Math.min(heapFloor, heap);
    if (outside - outsideFloor >= DEAD_BUFFER_BYTES || heap - heapFloor >= DEAD_HEAP_BYTES) {
      collect();
      settle();
    }
  }, DEAD_BUFFER_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
