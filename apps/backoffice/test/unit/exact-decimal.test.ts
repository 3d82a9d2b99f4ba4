import { describe, expect, it } from 'vitest';
import { exactDecimalFormat } from '../../src/lib/exact-decimal';

describe('exact decimal format', () => {
  it("keeps the server string's digits and adds the language's separators", () => {
    const en = exactDecimalFormat('en-US');
    expect(en('67337.50')).toBe('67,337.50');
    expect(en('74752.71')).toBe('74,752.71');
    expect(en('1.08500')).toBe('1.08500');
    expect(en('152')).toBe('152');
    expect(en('-0.10')).toBe('-0.10');
    // No float on the way: 17 significant digits stay as sent.
    expect(en('12345678901234.567')).toBe('12,345,678,901,234.567');
    expect(exactDecimalFormat('de-DE')('67337.50')).toBe('67.337,50');
    expect(exactDecimalFormat('zh-CN')('67337.50')).toBe('67,337.50');
  });
});
