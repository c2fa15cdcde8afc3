import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { resolveJwtSecrets } from './platform/auth/secrets.js';

const secrets = { JWT_SECRET: 'a'.repeat(32), JWT_REFRESH_SECRET: 'b'.repeat(32), ENCRYPTION_KEY: 'c'.repeat(32) };

describe('loadConfig', () => {
  it('refuses to start in production without both JWT secrets', () => {
    const message = 'JWT_SECRET and JWT_REFRESH_SECRET are required when NODE_ENV=production';
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(message);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: secrets.JWT_SECRET })).toThrow(message);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_REFRESH_SECRET: secrets.JWT_REFRESH_SECRET })).toThrow(
      message,
    );
  });

  it('refuses to start in production without ENCRYPTION_KEY', () => {
    const { ENCRYPTION_KEY: _k, ...jwt } = secrets;
    expect(() => loadConfig({ NODE_ENV: 'production', ...jwt })).toThrow(
      'ENCRYPTION_KEY is required when NODE_ENV=production',
    );
  });

  it('starts in production with the secrets, sandbox off', () => {
    const config = loadConfig({ NODE_ENV: 'production', ...secrets });
    expect(config).toMatchObject({ production: true, sandboxEnabled: false, ...secrets });
  });

  it('turns the sandbox on in production only with SANDBOX=true', () => {
    expect(loadConfig({ NODE_ENV: 'production', SANDBOX: 'true', ...secrets }).sandboxEnabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', SANDBOX: '1', ...secrets }).sandboxEnabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', SANDBOX: 'false', ...secrets }).sandboxEnabled).toBe(false);
  });

  it('has the sandbox on by default outside production, and no secrets needed', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ NODE_ENV: 'development', production: false, sandboxEnabled: true, PORT: 8080 });
    expect(config.JWT_SECRET).toBeUndefined();
    expect(loadConfig({ SANDBOX: 'false' }).sandboxEnabled).toBe(false);
  });

  it('refuses an invalid PORT with a message that names it', () => {
    for (const PORT of ['abc', '70000', '-1', '80.5']) {
      expect(() => loadConfig({ PORT }), PORT).toThrow(/^Invalid environment:\n {2}PORT: /);
    }
    expect(loadConfig({ PORT: '3333' }).PORT).toBe(3333);
  });

  it('lists every invalid variable, one per line', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'x', DATABASE_URL: 'not a url', JWT_SECRET: 'short', NODE_ENV: 'staging' });
    } catch (err) {
      message = (err as Error).message;
    }
    const lines = message.split('\n');
    expect(lines[0]).toBe('Invalid environment:');
    for (const name of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'NODE_ENV']) {
      expect(
        lines.some((l) => l.startsWith(`  ${name}: `)),
        name,
      ).toBe(true);
    }
  });

  it('parses booleans and numbers from strings', () => {
    const config = loadConfig({ SERVE_WEB: 'false', LOGIN_LIMIT_IP: '5', REFRESH_TOKEN_TTL_DAYS: '30' });
    expect(config).toMatchObject({ SERVE_WEB: false, LOGIN_LIMIT_IP: 5, REFRESH_TOKEN_TTL_DAYS: 30 });
    expect(() => loadConfig({ SERVE_WEB: 'yes' })).toThrow(/SERVE_WEB/);
  });
});

describe('resolveJwtSecrets', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'balcao-secrets-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('generates secrets once under DATA_DIR and returns the same ones afterwards', () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const first = resolveJwtSecrets({ dataDir });
    expect(first.accessSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.refreshSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.accessSecret).not.toBe(first.refreshSecret);
    const file = path.join(dataDir, 'secrets.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
    // Readable by the server's user only.
    expect(statSync(file).mode & 0o777).toBe(0o600);

    expect(resolveJwtSecrets({ dataDir })).toEqual(first);
    // Another installation gets other secrets.
    expect(resolveJwtSecrets({ dataDir: tempDir() }).accessSecret).not.toBe(first.accessSecret);
  });

  it('uses the environment secrets when given, without writing a file', () => {
    const dataDir = tempDir();
    expect(
      resolveJwtSecrets({ jwtSecret: secrets.JWT_SECRET, jwtRefreshSecret: secrets.JWT_REFRESH_SECRET, dataDir }),
    ).toEqual({
      accessSecret: secrets.JWT_SECRET,
      refreshSecret: secrets.JWT_REFRESH_SECRET,
    });
    expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
  });

  it('completes a single environment secret with the stored one', () => {
    const dataDir = tempDir();
    const stored = resolveJwtSecrets({ dataDir });
    expect(resolveJwtSecrets({ jwtSecret: secrets.JWT_SECRET, dataDir })).toEqual({
      accessSecret: secrets.JWT_SECRET,
      refreshSecret: stored.refreshSecret,
    });
  });
});
