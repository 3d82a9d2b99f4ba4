/** The device middleware: mobile or desktop, from client hints first, then the user agent. */
export function detectDevice(headers: Record<string, string | string[] | undefined>): 'mobile' | 'desktop' {
  const hint = headers['sec-ch-ua-mobile'];
  if (hint === '?1') return 'mobile';
  if (hint === '?0') return 'desktop';
  const ua = String(headers['user-agent'] ?? '');
  return /Mobi|Android|iPhone|iPod|Windows Phone|Opera Mini/i.test(ua) ? 'mobile' : 'desktop';
}
