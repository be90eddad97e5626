/** The sizes that bound one step's work or memory; none is a setting. It imports nothing: the SQLite worker loads it by path. */

// ---- Rows from the database to the event loop -------------------------------------------------

/** Rows per message a SQLite worker sends of a large result: the event loop handles one in a short turn. */
export const WORKER_MESSAGE_ROWS = 1000;

/** Rows per batch a cursor hands on when its caller does not say (Kysely's own default is 100). */
export const CURSOR_BATCH_ROWS = 500;

/** Rows per batch of a streamed list's cursor: made into answer rows and written as JSON at once. */
export const STREAM_BATCH_ROWS = 500;

/** Rows per batch the export reads and writes. */
export const EXPORT_BATCH_ROWS = 1000;

/** Rows per batch the import stages, checks and writes: a few set-based statements per batch; two batches are held in memory (file-loader.ts). */
export const IMPORT_BATCH_ROWS = 10_000;

/** Rows an import reads between two reports of its progress (each shown or not by the clock: import-report.ts). */
export const IMPORT_PROGRESS_ROWS = 500;

/** Rows an import writes before it first refreshes the planner's statistics of the table it fills. */
export const IMPORT_ANALYZE_FIRST_ROWS = 2000;

/** Rows of COPY text per chunk the import hands to PostgreSQL's stream: a bounded string, however large the batch. */
export const IMPORT_COPY_CHUNK_ROWS = 2000;

/** Lines per statement that takes an import's rejected rows out of the staging table. */
export const IMPORT_DELETE_CHUNK_LINES = 1000;

/** Inserts in one import batch from which a file sets the table's keys aside, when the table is not much larger (foreign-keys.ts). */
export const IMPORT_SET_ASIDE_KEYS_ROWS = 1000;

/** Bound parameters per multi-row insert of the demo data: under SQLite's limit (32766) and PostgreSQL's (65535). */
export const DEMO_INSERT_PARAMETERS = 30_000;

/** Customers per statement when the summaries refresh a list: bound parameters stay well under every engine's limit. */
export const SUMMARY_REFRESH_CUSTOMERS = 500;

/** Bytes of a multipart body handed to its parser per turn. */
export const MULTIPART_BYTES_PER_TURN = 64 * 1024;

/** Characters of a SOAP request handed to the XML reader at a time: a slice short enough to parse between other requests. */
export const ENVELOPE_SLICE_CHARS = 64 * 1024;

// ---- Answers ------------------------------------------------------------------------------------

/** A list of at most this many rows is read whole by one statement: one round trip instead of a snapshot, a count and a cursor. */
export const SMALL_LIST_ROWS = 1000;

/** An in-memory Data array longer than this is written in pieces, not at once. */
export const WHOLE_ANSWER_ROWS = 1000;

/** Rows of an envelope written in parts made into JSON at once: their text stays under V8's size for large objects. */
export const ENVELOPE_TEXT_ROWS = 100;

/** Rows of a typed v2 answer handed to the chunk writer at a time, so a large answer waits for its client between them. */
export const TYPED_XML_FLUSH_ROWS = 200;

/** Bytes gathered before a chunk of an answer written in parts goes to the socket. */
export const ANSWER_CHUNK_BYTES = 64 * 1024;

/** The largest answer the answer cache keeps (a quarter of ANSWER_CACHE_MB when that is smaller). */
export const MAX_KEPT_ANSWER_BYTES = 16 * 1024 * 1024;

/** Bytes of the import's rejects file gathered before a write. */
export const REJECTS_FLUSH_BYTES = 64 * 1024;

/** Bytes of a spooled answer read from its file per socket write (answer-spool.ts). */
export const SPOOL_READ_BYTES = 64 * 1024;

// ---- Memory -------------------------------------------------------------------------------------

/** Bytes more outside V8's heap than after the last full collection at which the server starts one (dead-buffers.ts). */
export const DEAD_BUFFER_BYTES = 16 * 1024 * 1024;

/** Bytes more in use in V8's heap than after the last full collection at which the server starts one (dead-buffers.ts). */
export const DEAD_HEAP_BYTES = 48 * 1024 * 1024;

/** How often the server looks at what lies outside V8's heap and what is in use in it. */
export const DEAD_BUFFER_CHECK_MS = 100;
