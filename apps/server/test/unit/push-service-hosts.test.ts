import { describe, expect, it } from 'vitest';
import { pushServiceAllowed } from '../../src/modules/notify/web-push';

/** A subscription's endpoint is a URL a browser (or an attacker) chose: only known push services are called. */
describe('push service hosts', () => {
  const hosts = ['fcm.googleapis.com', 'push.services.mozilla.com', 'notify.windows.com', 'push.apple.com'];

  it('allows the browsers’ push services and their subdomains over https', () => {
    expect(pushServiceAllowed('https://fcm.googleapis.com/fcm/send/abc', hosts)).toBe(true);
    expect(pushServiceAllowed('https://updates.push.services.mozilla.com/wpush/v2/x', hosts)).toBe(true);
    expect(pushServiceAllowed('https://wns2-par02p.notify.windows.com/w/?token=x', hosts)).toBe(true);
    expect(pushServiceAllowed('https://web.push.apple.com/QGx', hosts)).toBe(true);
  });

  it('refuses internal addresses, look-alike hosts, credentials and plain http', () => {
    for (const endpoint of [
      'https://127.0.0.1:8443/push',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/push',
      'https://[::1]/push',
      'https://10.0.0.5/push',
      'https://evilfcm.googleapis.com.attacker.example/push',
      'https://notfcm.googleapis.com.example/x',
      'https://attacker.example/fcm.googleapis.com',
      'https://user:pass@fcm.googleapis.com/x',
      'http://fcm.googleapis.com/fcm/send/abc',
      'not a url',
    ])
      expect(pushServiceAllowed(endpoint, hosts), endpoint).toBe(false);
  });

  it('allows what the operator lists (a private push service, or a test’s)', () => {
    expect(pushServiceAllowed('https://127.0.0.1:8443/push/a', ['127.0.0.1'])).toBe(true);
  });
});
