import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface JwtSecrets {
  accessSecret: string;
  refreshSecret: string;
}

/**
 * Secrets from the environment, or (embedded mode only) generated once and kept under DATA_DIR
 * so that sessions survive restarts. Production refuses to start without them (see config).
 */
export function resolveJwtSecrets(opts: {
  jwtSecret?: string;
  jwtRefreshSecret?: string;
  dataDir: string;
}): JwtSecrets {
  if (opts.jwtSecret && opts.jwtRefreshSecret) {
    return { accessSecret: opts.jwtSecret, refreshSecret: opts.jwtRefreshSecret };
  }
  const file = path.resolve(opts.dataDir, 'secrets.json');
  let stored: JwtSecrets;
  if (existsSync(file)) {
    stored = JSON.parse(readFileSync(file, 'utf8')) as JwtSecrets;
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    stored = {
      accessSecret: randomBytes(48).toString('base64url'),
      refreshSecret: randomBytes(48).toString('base64url'),
    };
    writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
  }
  return {
    accessSecret: opts.jwtSecret ?? stored.accessSecret,
    refreshSecret: opts.jwtRefreshSecret ?? stored.refreshSecret,
  };
}
