import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Every environment variable the server reads. Nothing else reads `process.env`. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  WEB_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  JWT_SECRET: z.string().min(16).optional(),
  JWT_REFRESH_SECRET: z.string().min(16).optional(),
  ACCESS_TOKEN_TTL: z.string().default('15m'),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().positive().default(7),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  FRONTEND_URL: z.string().url().default('http://localhost:3000'),
  /** Serve the built web client on WEB_PORT from this process. */
  SERVE_WEB: bool.default(true),
  WEB_DIST: z.string().optional(),
  SANDBOX: bool.optional(),
  /** Key for secrets encrypted at rest (Cloud API tokens). Required in production; embedded mode generates one under DATA_DIR. */
  ENCRYPTION_KEY: z.string().min(32).optional(),
  /** Base URL of the WhatsApp Cloud API (Graph); tests point it at a local fake. */
  CLOUD_GRAPH_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Login attempts allowed per window, per IP (all attempts) and per e-mail (failures). */
  LOGIN_LIMIT_IP: z.coerce.number().int().positive().default(30),
  LOGIN_LIMIT_EMAIL: z.coerce.number().int().positive().default(10),
  LOGIN_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(300),
  /**
   * A send claimed longer ago than this is taken for interrupted (its instance died) and sent
   * again; longer than any provider call takes, short enough that a crash delays little.
   */
  OUTBOX_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(40),
  /** A campaign recipient claimed longer ago than this by a sender that died is sent again (same message id). */
  CAMPAIGN_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(120),
  /** Gap between two WhatsApp number checks of a contact list (DOMAIN §12: paced, like a person). */
  CONTACT_CHECK_GAP_MS: z.coerce.number().int().min(0).max(60_000).default(1500),
  /** Base URL of the OpenAI API (or a compatible one) the AI prompts call; tests point it at a local fake. */
  OPENAI_BASE_URL: z.string().url().default('https://api.openai.com/v1'),
  /** How long one OpenAI call may take before it counts as failed (DOMAIN §16: about 30 s). */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  /** Messages a contact sends within this window are answered once, by one AI turn (DOMAIN §16). */
  AI_BURST_MS: z.coerce.number().int().min(0).max(60_000).default(3000),
  /** Lets admin-set URLs (typebot, n8n, webhook, Dialogflow) reach loopback and private addresses (DOMAIN §11). */
  OUTBOUND_ALLOW_PRIVATE: bool.default(false),
  /** Google's Dialogflow endpoint; tests point it at a local fake. */
  DIALOGFLOW_BASE_URL: z.string().url().default('https://dialogflow.googleapis.com'),
  /** The Pix provider of billing (DOMAIN §18): `sandbox` by default outside production. */
  PAYMENTS_PROVIDER: z.enum(['sandbox', 'mercadopago']).optional(),
  MERCADOPAGO_BASE_URL: z.string().url().default('https://api.mercadopago.com'),
  MERCADOPAGO_ACCESS_TOKEN: z.string().default(''),
  /** The "secret signature" of the Mercado Pago webhook (x-signature). */
  MERCADOPAGO_WEBHOOK_SECRET: z.string().default(''),
  /** HMAC key of the sandbox provider's webhooks; derived from the encryption key when unset. */
  SANDBOX_PAYMENTS_SECRET: z.string().optional(),
  /** Files on S3-compatible storage when all five are set (needed with more than one instance); else on disk under DATA_DIR. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  production: boolean;
  /** The sandbox provider: on by default in the embedded setup, off in production. */
  sandboxEnabled: boolean;
  /** PAYMENTS_PROVIDER, or its default: the sandbox outside production. */
  paymentsProvider: 'sandbox' | 'mercadopago';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as it does in shells and .env files.
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(set);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && (!e.JWT_SECRET || !e.JWT_REFRESH_SECRET)) {
    throw new Error('JWT_SECRET and JWT_REFRESH_SECRET are required when NODE_ENV=production');
  }
  if (production && !e.ENCRYPTION_KEY) {
    throw new Error('ENCRYPTION_KEY is required when NODE_ENV=production');
  }
  return {
    ...e,
    production,
    sandboxEnabled: e.SANDBOX ?? !production,
    paymentsProvider: e.PAYMENTS_PROVIDER ?? (production ? 'mercadopago' : 'sandbox'),
  };
}
