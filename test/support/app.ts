/**
 * The real app on a fresh migrated database (engines.ts), for tests that drive it with supertest.
 * Settings come from loadSettings, so defaults are the production defaults; `env` sets variables the
 * way an operator would (BASE_PATH, API_NAMESPACE, TRUST_PROXY, ...), `settings` overrides values.
 */
import type { Express } from 'express';
import { createApp } from '../../src/app';
import { loadSettings, type Settings } from '../../src/config';
import type { Engine, EngineKind } from '../../src/db/engine';
import type { Clock } from '../../src/operations/types';
import { freshEngine } from './engines';

export interface TestApp {
  app: Express;
  engine: Engine;
  settings: Settings;
  close(): Promise<void>;
}

export interface TestAppOptions {
  kind?: EngineKind;
  env?: Record<string, string | undefined>;
  settings?: Partial<Settings>;
  clock?: Clock;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const settings: Settings = {
    ...loadSettings({ LOG_LEVEL: 'silent', ...options.env }),
    ...options.settings,
  };
  const engine = await freshEngine(options.kind ?? 'sqlite');
  try {
    const app = createApp({ settings, engine, clock: options.clock });
    return { app, engine, settings, close: () => engine.close() };
  } catch (err) {
    await engine.close();
    throw err;
  }
}
