/**
 * The real app on a fresh migrated database (engines.ts), for tests that drive it with supertest.
 * Settings come from loadSettings, so defaults are the production defaults; `env` sets variables the
 * way an operator would (BASE_PATH, API_NAMESPACE, TRUST_PROXY, ...), `settings` overrides values.
 */
import type { App, AppOptions } from '../../src/app';
import { createApp } from '../../src/app';
import { loadSettings, type Settings } from '../../src/config';
import type { Engine, EngineKind } from '../../src/db/engine';
import type { Clock } from '../../src/operations/types';
import { freshEngine, suiteOpened } from './engines';
import { insertMasterData } from './fixture';

export interface TestApp {
  app: App;
  engine: Engine;
  settings: Settings;
  close(): Promise<void>;
}

export interface TestAppOptions {
  kind?: EngineKind;
  env?: Record<string, string | undefined>;
  settings?: Partial<Settings>;
  clock?: Clock;
  /** The master data of fixture.ts (zones, users, customers, products ...) stored before the app answers. */
  masterData?: boolean;
  /** The main service's operations and the folder of the WSDL files that list them (AppOptions). */
  contract?: Pick<AppOptions, 'operations' | 'wsdlRoot'>;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const settings: Settings = {
    ...loadSettings({ LOG_LEVEL: 'silent', ...options.env }),
    ...options.settings,
  };
  const engine = await freshEngine(options.kind ?? 'sqlite');
  try {
    if (options.masterData) await insertMasterData(engine.db);
    const app = createApp({ settings, engine, clock: options.clock, ...options.contract });
    return { app, engine, settings, close: () => engine.close() };
  } catch (err) {
    await engine.close();
    throw err;
  }
}

/** A test app for the enclosing describe block (suiteOpened): started before its tests, closed after them. */
export function suiteApp(options: TestAppOptions, assign: (app: TestApp) => void, prepare?: () => Promise<void>): void {
  suiteOpened(() => startTestApp(options), assign, prepare);
}
