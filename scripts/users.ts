/**
 * npm run users -- <command>   credentials for the optional authentication (docs/operations.md,
 * "Authentication"), in the database named by DATABASE_URL:
 *
 *   set-password <username>          the password is read from standard input (never the command
 *                                    line, which other users of the host can see): the first line
 *   create-key <username> [--label L]   prints the new API key; it is shown this once only
 *   revoke-key <key_id>              the key stops working at the next request
 *   list-keys [<username>]           key id, user, label, created, last used, revoked
 *
 * Exit codes: 0 done, 1 failed (unknown user or key, ...), 2 bad arguments or settings.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { loadSettings } from '../src/config';
import type { Database, UsersTable } from '../src/db/schema';
import { withMigratedEngine } from '../src/db/migrate';
import { generateApiKey, hashSecret } from '../src/auth/api-key';
import { insertKey, listKeys, revokeKey, storePassword, userWithPassword } from '../src/auth/credential-store';
import { hashPassword } from '../src/auth/password-hash';
import { readOrSay, UsageError } from './output';

const USAGE = [
  'usage: npm run users -- set-password <username>        (password on standard input)',
  '       npm run users -- create-key <username> [--label L]',
  '       npm run users -- revoke-key <key_id>',
  '       npm run users -- list-keys [<username>]',
].join('\n');

/** Long enough to resist guessing through the rate limit; short enough that hashing stays cheap. */
const PASSWORD_LENGTH = { min: 8, max: 1024 };

export type Command =
  | { name: 'set-password'; username: string }
  | { name: 'create-key'; username: string; label: string | null }
  | { name: 'revoke-key'; keyId: string }
  | { name: 'list-keys'; username?: string };

export function parseCommand(argv: string[]): Command {
  const [name, ...rest] = argv;
  const positional = rest.filter((arg) => !arg.startsWith('--'));
  switch (name) {
    case 'set-password':
      return { name, username: only(rest, positional, 'username') };
    case 'create-key':
      return { name, ...createKeyArguments(rest) };
    case 'revoke-key':
      return { name, keyId: only(rest, positional, 'key_id') };
    case 'list-keys':
      if (rest.length > 1 || positional.length !== rest.length)
        throw new UsageError('list-keys takes at most a username');
      return { name, username: positional[0] };
    default:
      throw new UsageError(name === undefined ? 'no command given' : `unknown command '${name}'`);
  }
}

function only(rest: string[], positional: string[], what: string): string {
  if (rest.length !== 1 || positional.length !== 1) throw new UsageError(`expected exactly one ${what}`);
  return positional[0];
}

function missing(what: string): never {
  throw new UsageError(`expected a ${what}`);
}

/** create-key <username> [--label L | --label=L], in any order, nothing else. */
function createKeyArguments(rest: string[]): { username: string; label: string | null } {
  let label: string | null = null;
  const usernames: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--label') label = rest[++i] ?? missing('label after --label');
    else if (arg.startsWith('--label=')) label = arg.slice('--label='.length);
    else if (arg.startsWith('--')) throw new UsageError(`unknown option '${arg}'`);
    else usernames.push(arg);
  }
  if (usernames.length !== 1) throw new UsageError('expected exactly one username');
  return { username: usernames[0], label };
}

export interface UsersIo {
  out(line: string): void;
  err(line: string): void;
  /** The password for set-password: the first line of standard input. */
  readPassword(): Promise<string>;
}

/** Runs the command; resolves to the process exit code. */
export async function main(
  argv: string[],
  io: UsersIo = processIo(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const read = readOrSay('users', io, () => ({ command: parseCommand(argv), settings: loadSettings(env) }), USAGE);
  if (!read) return 2;
  const {
    command,
    settings: { databaseUrl },
  } = read;
  try {
    return await withMigratedEngine(databaseUrl, (engine) => run(command, engine.db, io));
  } catch (err) {
    io.err(`users: ${(err as Error).message}`);
    return 1;
  }
}

async function run(command: Command, db: Kysely<Database>, io: UsersIo): Promise<number> {
  const now = new Date().toISOString();
  switch (command.name) {
    case 'set-password': {
      const user = await knownUser(db, command.username, io);
      if (!user) return 1;
      const password = await io.readPassword();
      if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
        io.err(`users: the password must have ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`);
        return 1;
      }
      await storePassword(db, user.id, await hashPassword(password), now);
      io.out(`password set for ${user.username} (${user.id}, ${user.role})${inactiveNote(user)}`);
      return 0;
    }
    case 'create-key': {
      const user = await knownUser(db, command.username, io);
      if (!user) return 1;
      const key = generateApiKey();
      await insertKey(db, {
        key_id: key.keyId,
        user_id: user.id,
        secret_hash: hashSecret(key.secret),
        label: command.label,
        created_at: now,
      });
      io.out(key.key);
      io.err(
        `key ${key.keyId} created for ${user.username} (${user.id}, ${user.role})${inactiveNote(user)}; it is shown this once only`,
      );
      return 0;
    }
    case 'revoke-key': {
      if (!(await revokeKey(db, command.keyId, now))) {
        io.err(`users: no active key '${command.keyId}'`);
        return 1;
      }
      io.out(`key ${command.keyId} revoked`);
      return 0;
    }
    case 'list-keys': {
      io.out(['key_id', 'username', 'label', 'created_at', 'last_used_at', 'revoked_at'].join('\t'));
      for (const key of await listKeys(db, command.username)) {
        io.out(
          [
            key.key_id,
            key.username,
            key.label ?? '',
            key.created_at,
            key.last_used_at ?? '',
            key.revoked_at ?? '',
          ].join('\t'),
        );
      }
      return 0;
    }
  }
}

async function knownUser(db: Kysely<Database>, username: string, io: UsersIo): Promise<UsersTable | undefined> {
  const found = await userWithPassword(db, username);
  if (!found) io.err(`users: no user named '${username}'`);
  return found?.user;
}

function inactiveNote(user: UsersTable): string {
  return user.active === 1 ? '' : '; note: the user is inactive and is refused until reactivated';
}

function processIo(): UsersIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    readPassword: () => readFirstLine(process.stdin.isTTY === true),
  };
}

/** The first line of standard input; at a terminal, prompted for and not echoed. */
function readFirstLine(prompt: boolean): Promise<string> {
  if (prompt) process.stderr.write('Password: ');
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: process.stdin, output: muted, terminal: prompt });
  return new Promise((resolve) => {
    let answered = false;
    const answer = (line: string) => {
      if (answered) return;
      answered = true;
      if (prompt) process.stderr.write('\n');
      lines.close();
      resolve(line);
    };
    lines.once('line', answer);
    lines.once('close', () => answer(''));
  });
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`users: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
