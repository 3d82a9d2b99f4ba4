import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

const message = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('configuration: proxy trust, demo mode, metrics token', () => {
  it('trusts no proxy by default, and takes addresses and CIDR ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).TRUST_PROXY).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1 ,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses trusting everyone, hop counts and anything that is not an address', () => {
    expect(message({ TRUST_PROXY: 'true' })).toMatch(
      /TRUST_PROXY: true would trust X-Forwarded-For from every client/,
    );
    expect(message({ TRUST_PROXY: '1' })).toMatch(/TRUST_PROXY: a hop count cannot tell/);
    expect(message({ TRUST_PROXY: '10.0.0.0/33' })).toMatch(/TRUST_PROXY: "10.0.0.0\/33" is not/);
    expect(message({ TRUST_PROXY: 'proxy.local' })).toMatch(/TRUST_PROXY: "proxy.local" is not/);
    expect(message({ TRUST_PROXY: '127.0.0.1,' })).toMatch(/TRUST_PROXY: "" is not/);
    // One line per bad variable, as every other setting.
    expect(message({ TRUST_PROXY: 'true' }).split('\n')).toHaveLength(2);
  });

  it('turns development conveniences on only when asked for', () => {
    expect(loadConfig({}).DEMO_MODE).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).DEMO_MODE).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEMO_MODE: 'true' }).DEMO_MODE).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).DEMO_MODE).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', DEMO_MODE: 'false' }).DEMO_MODE).toBe(false);
    expect(message({ DEMO_MODE: 'yes' })).toMatch(/DEMO_MODE/);
  });

  it('asks for a metrics token of at least 16 characters', () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).METRICS_TOKEN).toBe('a'.repeat(16));
    expect(message({ METRICS_TOKEN: 'short' })).toMatch(/METRICS_TOKEN: must be at least 16 characters/);
  });
});
