/**
 * Dead Buffers freed sooner than V8 frees them (docs/architecture.md, "Dead Buffers"). A Buffer's bytes
 * lie outside V8's heap and go back only at a collection, which V8 starts for them only once far more
 * lies there than after the last: the answers the cache replaces or drops were the peak's dead weight.
 * Needs node's --expose-gc (the start commands give it); without it, nothing changes.
 */
import { getHeapStatistics } from 'node:v8';
import { DEAD_BUFFER_BYTES, DEAD_BUFFER_CHECK_MS } from '../tunables';

/** Starts a full collection whenever DEAD_BUFFER_BYTES more lie outside the heap than after the last; gives the stop. */
export function collectDeadBuffers(): () => void {
  const collect = globalThis.gc;
  if (collect === undefined) return () => undefined;
  const outside = () => getHeapStatistics().external_memory;
  let floor = outside();
  const timer = setInterval(() => {
    const now = outside();
    // Below the floor: V8 collected by itself.
    if (now < floor) floor = now;
    else if (now - floor >= DEAD_BUFFER_BYTES) {
      collect();
      floor = outside();
    }
  }, DEAD_BUFFER_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
