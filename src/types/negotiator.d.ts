/** The part of negotiator 1.x (the package the compression middleware negotiates with) this project calls. */
declare module 'negotiator' {
  import type { IncomingMessage } from 'node:http';

  class Negotiator {
    constructor(request: Pick<IncomingMessage, 'headers'>);
    /** The best of `available` the request accepts; ties go to the first of `preferred`. */
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
  export = Negotiator;
}
